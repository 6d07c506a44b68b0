// RUN: tp-tblgen -gen-sass-decoder -I %tp_src/td %s | FileCheck %s
// The decoder's second level keeps every candidate list to a handful of
// forms (at most 4), whatever the forms: tp-tblgen chooses the key from
// them.  Opcode 0x124 has 16 forms that differ only in a one-hot constant
// in [32:63] (as IMAD.SHL's do) and one that leaves those bits to an
// immediate: no 8 single bits split them into handfuls, so the key is a
// hash of the bits most forms fix (a non-zero multiplier in its bucket)
// and the loose form (LOOSE, form 0) is in every list, last (it fixes the
// fewest bits).

include "SM86/SM86Operands.td"
include "SM86/SM86InstrFormats.td"
include "SM86/SM86Schedule.td"

foreach N = 0...15 in
def ONEHOT_#N : SM86Op<0x124, "ONEHOT $Rd", (outs GPR:$Rd), (ins),
                       CoupledALU> {
  bits<8> Rd;
  let Inst{23-16} = Rd;
  let Inst{63-32} = !shl(1, N);
}
def LOOSE : SM86Op<0x124, "LOOSE $Rd, $imm", (outs GPR:$Rd), (ins UImm:$imm),
                   CoupledALU> {
  bits<8> Rd;
  bits<32> imm;
  let Inst{23-16} = Rd;
  let Inst{63-32} = imm;
  let Inst{64} = 1;
}

// CHECK-COUNT-8: /* 0x124 key {{[0-7]}} */ {{([0-9]+, )*}}0, {{$}}
// CHECK: {{[1-9A-F][0-9A-F]*}}ULL}, // 0x124
// CHECK: constexpr unsigned DecodeMaxCandidates = {{[1-4]}};
