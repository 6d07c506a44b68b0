// RUN: tp-tblgen -print-sass-forms -I %tp_src/td %s | FileCheck %s
// RUN: tp-tblgen -gen-sass-decoder -I %tp_src/td %s | FileCheck %s --check-prefix=DEC
// RUN: tp-tblgen -gen-sass-encoder -I %tp_src/td %s | FileCheck %s --check-prefix=ENC
// RUN: tp-tblgen -gen-sass-asm-printer -I %tp_src/td %s | FileCheck %s --check-prefix=PRN
// RUN: tp-tblgen -gen-sass-latency -I %tp_src/td %s | FileCheck %s --check-prefix=LAT
// The form model: constants are the fixed mask/value, `?` is don't-care,
// field bits become operand segments (split fields give several), unbound
// format fields are constant 0, the guard and the control word are found.

include "SM86/SM86Operands.td"
include "SM86/SM86InstrFormats.td"
include "SM86/SM86Schedule.td"

def Lut : Mod<[0, 1], ["", ".X"]>;
def TINY : SM86Op<0x123, "TINY${m} $Rd, $lut", (outs GPR:$Rd),
                  (ins Lut:$m, UImm:$lut), CoupledALU> {
  bits<8> Rd;
  bit m;
  bits<8> lut;
  bits<8> unused;  // a format field this form does not bind: constant 0
  let Inst{23-16} = Rd;
  let Inst{66-64} = lut{2-0};
  let Inst{76-72} = lut{7-3};
  let Inst{80} = m;
  let Inst{95-88} = unused;
}
// A second form with the same opcode and one more fixed bit: decoded first.
def TINY_ALIAS : SM86Op<0x123, "TINY.ALIAS $Rd", (outs GPR:$Rd), (ins),
                        CoupledALU> {
  bits<8> Rd;
  let Inst{23-16} = Rd;
  let Inst{80} = 1;
}

// CHECK: guard [12:14]<-0 neg [15:15]<-0
// CHECK: control Stall [105:108]<-0
// CHECK: control Yield [109:109]<-0
// CHECK: control WrSB [110:112]<-0
// CHECK: control RdSB [113:115]<-0
// CHECK: control WaitMask [116:121]<-0
// CHECK: control Reuse [122:125]<-0
// Fixed: 0..11 (0x123 the opcode), 24..63, 67..71, 77..79, 81..100 (with the
// unbound field at 88..95), 102..104, 126..127.  Not fixed: the guard 12..15,
// Rd 16..23, lut 64..66 and 72..76, m 80, don't-care 101, control 105..125.
// CHECK: form TINY mnemonic TINY mask 0xc00001dffffee0f8ffffffffff000fff value 0x00000000000000000000000000000123 sched CoupledALU
// CHECK-NEXT: def Rd GPR w1 [16:23]<-0
// CHECK-NEXT: use m Modifier w1 [80:80]<-0
// CHECK-NEXT: use lut Imm w1 [64:66]<-0 [72:76]<-3
// CHECK: form TINY_ALIAS mnemonic TINY mask 0xc00001dfffffffffffffffffff000fff value 0x00000000000100000000000000000123

// The alias (more fixed bits) is tried first.
// DEC: /* 0x123 key 0 */ 1, 0,

// ENC: {16,0,8}, // $Rd
// ENC: {64,0,3},{72,3,5}, // $lut

// PRN: "TINY$b $a, $c", // TINY

// LAT: {"CoupledALU", false, 4, ""},
