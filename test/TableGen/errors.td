// Bad records are fatal errors at the record's location.
// RUN: not tp-tblgen -print-sass-forms -I %tp_src/td -DUNBOUND %s 2>&1 | FileCheck %s --check-prefix=UNBOUND
// RUN: not tp-tblgen -print-sass-forms -I %tp_src/td -DUNSET %s 2>&1 | FileCheck %s --check-prefix=UNSET
// RUN: not tp-tblgen -print-sass-forms -I %tp_src/td -DCTRL %s 2>&1 | FileCheck %s --check-prefix=CTRL
// RUN: not tp-tblgen -print-sass-forms -I %tp_src/td -DNOTEXT %s 2>&1 | FileCheck %s --check-prefix=NOTEXT
// RUN: not tp-tblgen -print-sass-forms -I %tp_src/td -DBADNAME %s 2>&1 | FileCheck %s --check-prefix=BADNAME
// RUN: not tp-tblgen -print-sass-forms -I %tp_src/td -DHOLE %s 2>&1 | FileCheck %s --check-prefix=HOLE

include "SM86/SM86Operands.td"
include "SM86/SM86InstrFormats.td"
include "SM86/SM86Schedule.td"

#ifdef UNBOUND
// UNBOUND: errors.td:[[@LINE+1]]:1: error: BAD: operand $Ra is bound to no bit of Inst
def BAD : SM86Op<0x001, "BAD $Rd, $Ra", (outs GPR:$Rd), (ins GPR:$Ra),
                 CoupledALU> {
  bits<8> Rd;
  bits<8> Ra;
  let Inst{23-16} = Rd;
}
#endif

#ifdef UNSET
// UNSET: errors.td:[[@LINE+1]]:1: error: BAD: bit 40 of Inst is unset
def BAD : SM86Op<0x001, "BAD", (outs), (ins), CoupledALU> {
  let Inst{40} = ?;
}
#endif

#ifdef CTRL
// CTRL: errors.td:[[@LINE+1]]:1: error: BAD: bit 110 belongs to the control word
def BAD : SM86Op<0x001, "BAD", (outs), (ins), CoupledALU> {
  let Inst{110} = 1;
}
#endif

#ifdef NOTEXT
// NOTEXT: errors.td:[[@LINE+1]]:1: error: BAD: operand $Rd is not in the AsmString
def BAD : SM86Op<0x001, "BAD", (outs GPR:$Rd), (ins), CoupledALU> {
  bits<8> Rd;
  let Inst{23-16} = Rd;
}
#endif

#ifdef BADNAME
// BADNAME: errors.td:[[@LINE+1]]:1: error: BAD: AsmString names $Rx, which is no operand
def BAD : SM86Op<0x001, "BAD $Rx", (outs GPR:$Rd), (ins), CoupledALU> {
  bits<8> Rd;
  let Inst{23-16} = Rd;
}
#endif

#ifdef HOLE
// HOLE: errors.td:[[@LINE+1]]:1: error: BAD: operand $Rd does not bind bit 2 of its field
def BAD : SM86Op<0x001, "BAD $Rd", (outs GPR:$Rd), (ins), CoupledALU> {
  bits<8> Rd;
  let Inst{17-16} = Rd{1-0};
  let Inst{20-18} = Rd{5-3};
}
#endif
