// RUN: tp-tblgen -print-sass-forms -I %tp_src/td %s | FileCheck %s
// RUN: tp-tblgen -gen-sass-decoder -I %tp_src/td %s | FileCheck %s --check-prefix=DEC
// RUN: tp-tblgen -gen-sass-encoder -I %tp_src/td %s | FileCheck %s --check-prefix=ENC
// RUN: tp-tblgen -gen-sass-instr-info -I %tp_src/td %s | FileCheck %s --check-prefix=INFO
// RUN: not tp-tblgen -print-sass-forms -I %tp_src/td -DNOFORM %s 2>&1 | FileCheck %s --check-prefix=NOFORM
// RUN: not tp-tblgen -print-sass-forms -I %tp_src/td -DOTHEROPS %s 2>&1 | FileCheck %s --check-prefix=OTHEROPS
// RUN: not tp-tblgen -print-sass-forms -I %tp_src/td -DNARROW %s 2>&1 | FileCheck %s --check-prefix=NARROW
// RUN: not tp-tblgen -gen-sass-instr-info -I %tp_src/td -DNOCARD %s 2>&1 | FileCheck %s --check-prefix=NOCARD
// RUN: not tp-tblgen -gen-sass-instr-info -I %tp_src/td -DNOLAYOUT %s 2>&1 | FileCheck %s --check-prefix=NOLAYOUT
// RUN: not tp-tblgen -gen-sass-instr-info -I %tp_src/td -DTWOLAYOUTS %s 2>&1 | FileCheck %s --check-prefix=TWOLAYOUTS
// Targets (td/Targets.td): a form on every target with its own encoding on
// sm_90 (EncodingOn), a form on sm_90 only (OnlyOn); one table set each.

include "Targets.td"
include "SM86/SM86Operands.td"
include "SM86/SM86InstrFormats.td"
include "SM86/SM86Schedule.td"

def JUMP : SM86Op<0x947, "JUMP $tgt", (outs), (ins BrTarget:$tgt), Branch> {
  bits<48> tgt;
  let Inst{81-34} = tgt;
}
def JUMP_SM90 : SM86Op<0x947, "JUMP $tgt", (outs), (ins BrTarget:$tgt), Branch>,
                EncodingOn<"JUMP", [TargetSM90]> {
  bits<56> tgt;
  let Inst{23-16} = tgt{7-0};
  let Inst{81-34} = tgt{55-8};
}
def NEWOP : SM86Op<0x836, "NEWOP $Rd", (outs GPR:$Rd), (ins), CoupledALU>,
            OnlyOn<[TargetSM90]> {
  bits<8> Rd;
  let Inst{23-16} = Rd;
}

#ifdef NOFORM
// NOFORM: targets.td:[[@LINE+1]]:1: error: X: EncodingOn names 'NOSUCH', which is no form
def X : SM86Op<0x947, "JUMP $tgt", (outs), (ins BrTarget:$tgt), Branch>,
        EncodingOn<"NOSUCH", [TargetSM90]> {
  bits<48> tgt;
  let Inst{81-34} = tgt;
}
#endif
#ifdef OTHEROPS
// OTHEROPS: targets.td:[[@LINE+1]]:1: error: X: operands or AsmString differ from those of JUMP
def X : SM86Op<0x947, "JUMP $t", (outs), (ins BrTarget:$t), Branch>,
        EncodingOn<"JUMP", [TargetSM90]> {
  bits<48> t;
  let Inst{81-34} = t;
}
#endif
#ifdef NARROW
// NARROW: targets.td:[[@LINE+1]]:1: error: X: operand $tgt is narrower than in JUMP
def X : SM86Op<0x947, "JUMP $tgt", (outs), (ins BrTarget:$tgt), Branch>,
        EncodingOn<"JUMP", [TargetSM90]> {
  bits<40> tgt;
  let Inst{73-34} = tgt;
}
#endif
#ifdef NOCARD
// A target must name the card of its automatic tile (a string fact).
// NOCARD: targets.td:[[@LINE+1]]:1: error: TargetSM99: target fact TileCard is not set
def TargetSM99 : SASSTarget<"sm_99", 99, ["sm_99"]> {
  let MaxSharedBytesPerBlock = 1024;
  let SharedCapacityNote = "1 KiB";
  let TileCardSMs = 1;
}
#endif
#ifdef NOLAYOUT
// Every target names its cubin layout and its shared memory per SM
// (td/Targets.td's own records).
// NOLAYOUT: error: sm_99 has no CubinLayoutOf
def TargetSM99 : SASSTarget<"sm_99", 99, ["sm_99"]> {
  let MaxSharedBytesPerBlock = 1024;
  let SharedCapacityNote = "1 KiB";
  let TileCard = "none";
  let TileCardSMs = 1;
}
#endif
#ifdef TWOLAYOUTS
// TWOLAYOUTS: error: a second CubinLayoutOf sm_86
def : CubinLayoutOf<TargetSM86, "SM89">;
#endif

// The EncodingOn def is no form of its own.
// CHECK: form JUMP mnemonic JUMP mask 0xc00001dffffc000000000003ffff0fff value 0x00000000000000000000000000000947
// CHECK-NEXT: use tgt BranchTarget w1 signed [34:81]<-0
// CHECK-NEXT: on sm_90 as JUMP_SM90 mask 0xc00001dffffc000000000003ff000fff value 0x00000000000000000000000000000947
// CHECK-NEXT: tgt [16:23]<-0 [34:81]<-8
// CHECK-NOT: form JUMP_SM90
// CHECK: form NEWOP
// CHECK-NEXT: def Rd GPR w1 [16:23]<-0
// CHECK-NEXT: only on sm_90

// sm_86 decodes JUMP only; sm_90 both, JUMP with its own bits.
// DEC: // sm_86
// DEC-NEXT: const uint16_t DecodeList[] = {
// DEC-NEXT: /* 0x947 key 0 */ 0,
// DEC-NEXT: };
// DEC: {0, 0, {0,0,0,0,0,0,0,0,}, {0x0ULL, 0x0ULL}, 0x0ULL}, // 0x947
// DEC-NEXT: };
// DEC: // sm_90
// DEC-NEXT: const uint16_t DecodeList_SM90[] = {
// DEC-NEXT: /* 0x836 key 0 */ 1,
// DEC-NEXT: /* 0x947 key 0 */ 0,
// DEC: const DecodeTables DecodeTablesOf[] = {
// DEC-NEXT: {DecodeList, DecodeSubBegin, DecodeBuckets, DecodeBucketOf},
// DEC-NEXT: {DecodeList_SM80, DecodeSubBegin_SM80, DecodeBuckets_SM80, DecodeBucketOf_SM80},
// DEC-NEXT: {DecodeList_SM89, DecodeSubBegin_SM89, DecodeBuckets_SM89, DecodeBucketOf_SM89},
// DEC-NEXT: {DecodeList_SM90, DecodeSubBegin_SM90, DecodeBuckets_SM90, DecodeBucketOf_SM90},

// The sm_90 field of JUMP follows the specials; per-target encodings.
// ENC: {34,0,48}, // $tgt
// ENC: // JUMP_SM90
// ENC-NEXT: {16,0,8},{34,8,48}, // $tgt
// ENC: constexpr unsigned FirstSpecialField = 2;
// ENC: // sm_86
// ENC-NEXT: {{.*}}, 0, true}, // JUMP
// ENC-NEXT: {{.*}}, 1, false}, // NEWOP
// ENC-NEXT: // sm_80
// ENC-NEXT: {{.*}}, 0, true}, // JUMP
// ENC-NEXT: {{.*}}, 1, false}, // NEWOP
// ENC-NEXT: // sm_89
// ENC-NEXT: {{.*}}, 0, true}, // JUMP
// ENC-NEXT: {{.*}}, 1, false}, // NEWOP
// ENC-NEXT: // sm_90
// ENC-NEXT: {{.*}}, 10, true}, // JUMP as JUMP_SM90
// ENC-NEXT: {{.*}}, 1, true}, // NEWOP

// INFO: SM86 = 0,
// INFO-NEXT: SM80 = 1,
// INFO-NEXT: SM89 = 2,
// INFO-NEXT: SM90 = 3,
// INFO: {"sm_86", 86, "sm_86"},
// INFO-NEXT: {"sm_80", 80, "sm_80"},
// INFO-NEXT: {"sm_89", 89, "sm_89"},
// INFO-NEXT: {"sm_90", 90, "sm_90,sm_90a"},
// Each target's facts, the string facts (the shared capacity as spelled,
// the card of the automatic tile) as C strings.
// INFO: const TargetInfo TargetInfos[] = {
// INFO-NEXT: {"sm_86", 86, 0x160, 0x118, 0x0, 0x6000004, 0x18800, 0xff, true, 0x0, true, "100 KiB - 2 KiB", "RTX 3090", 0x52, 0x0, 0xc, 0x28, 0x2c, 0x30, 0x10c, 0x114, 0x10000, 0x10000, 0x10000, 0x10000, "SM86", "", 102400},
// INFO-NEXT: {"sm_80", 80, {{.*}}, "163 KiB", "A100", 0x6c, {{.*}}, "SM86", "", 167936},
// INFO-NEXT: {"sm_89", 89, {{.*}}, "99 KiB", "RTX 4090", 0x80, {{.*}}, "SM89", "", 102400},
// INFO-NEXT: {"sm_90", 90, {{.*}}, "227 KiB", "H100/H200", 0x84, 0x0, 0xc, 0x28, 0x2c, 0x30, 0x10c, 0x114, 0x144, 0x150, 0x15c, 0x188, "SM90", "", 233472},
// INFO: 0x7F, // JUMP
// INFO-NEXT: 0x8, // NEWOP
