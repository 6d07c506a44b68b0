//===- ControlInstrs.td - sm_86 control flow and barriers ---*- tablegen -*-===//
//
// BRA, EXIT, NOP, BAR, BSSY, BSYNC, WARPSYNC (N, T, C, R, E); CALL.REL,
// RET.REL.NODEC, BRX, BRXU, BREAK, YIELD, NANOSLEEP, LEPC (the TSV rows);
// all checked by the corpus test.  Branch offsets are signed word offsets
// relative to the next instruction: target = address + 16 + 4 * offset
// (SASS_FACTS 1.4).
//
//===----------------------------------------------------------------------===//

/// A control op; [87:89]+[90] is the branch-condition / exit predicate
/// (PT when not printed, distinct from the guard).
class CtlInst<bits<12> op, string asm, dag outs, dag ins, bit hasP,
              SchedClass s = Branch> : SM86Op<op, asm, outs, ins, s> {
  bits<3> Pp;
  bit Ppn;
  let ReuseOperands = ["", "", "", ""];
  let Inst{89-87} = !if(hasP, Pp, 0b111);
  let Inst{90} = !if(hasP, Ppn, 0);
}

// BRA 0x947: [32:33] mode ("", .U, .DIV, .CONV), offset [34:81].
// .DIV/.CONV take a uniform register [24:29] with [30] = not, [91] = 1.
def BraMode : Mod<[0, 1], ["", ".U"]>;
def BraDiv  : Mod<[2, 3], [".DIV", ".CONV"]>;
foreach P = [0, 1] in
  def BRA # !if(P, "_P", "") :
    CtlInst<0x947, "BRA${mode} " # !if(P, "${Ppn}$Pp, ", "") # "$tgt",
            (outs), !con((ins BraMode:$mode),
                         !if(P, (ins PNot:$Ppn, Pred:$Pp), (ins)),
                         (ins BrTarget:$tgt)), P> {
    bits<2> mode;
    bits<48> tgt;
    let IsBranch = 1;
    let Inst{33-32} = mode;
    let Inst{81-34} = tgt;
  }
def BRA_DIV : CtlInst<0x947, "BRA${mode} ${urn}$Ur, $tgt", (outs),
                      (ins BraDiv:$mode, NotMod:$urn, UGPR:$Ur,
                           BrTarget:$tgt), 0> {
  bits<2> mode;
  bit urn;
  bits<6> Ur;
  bits<48> tgt;
  let IsBranch = 1;
  let Inst{29-24} = Ur;
  let Inst{30} = urn;
  let Inst{33-32} = mode;
  let Inst{81-34} = tgt;
  let Inst{91} = 1;
}

// EXIT 0x94d; NOP 0x918.
foreach P = [0, 1] in
  def EXIT # !if(P, "_P", "") :
    CtlInst<0x94d, "EXIT" # !if(P, " ${Ppn}$Pp", ""), (outs),
            !if(P, (ins PNot:$Ppn, Pred:$Pp), (ins)), P> {
    let IsExit = 1;
  }
def NOP : SM86Op<0x918, "NOP", (outs), (ins), NoResult> {
  let ReuseOperands = ["", "", "", ""];
}

// BSSY 0x945: convergence barrier B [16:19], target [34:81].
// BSYNC 0x941: B [16:19].
def BReg : Mod<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
               ["B0", "B1", "B2", "B3", "B4", "B5", "B6", "B7", "B8", "B9",
                "B10", "B11", "B12", "B13", "B14", "B15"]>;
def BSSY : CtlInst<0x945, "BSSY $b, $tgt", (outs), (ins BReg:$b, BrTarget:$tgt),
                   0> {
  bits<4> b;
  bits<48> tgt;
  let Inst{19-16} = b;
  let Inst{81-34} = tgt;
}
def BSYNC : CtlInst<0x941, "BSYNC $b", (outs), (ins BReg:$b), 0> {
  bits<4> b;
  let Inst{19-16} = b;
}

// WARPSYNC: 0x948 immediate mask [32:63], 0x348 register [32:39];
// [86] .EXCLUSIVE.
def Excl : Mod<[0, 1], ["", ".EXCLUSIVE"]>;
def WARPSYNC_i : CtlInst<0x948, "WARPSYNC${ex} $mask", (outs),
                         (ins Excl:$ex, UImm:$mask), 0> {
  bit ex;
  bits<32> mask;
  let Inst{63-32} = mask;
  let Inst{86} = ex;
}
def WARPSYNC_r : CtlInst<0x348, "WARPSYNC${ex} $Rb", (outs),
                         (ins Excl:$ex, GPR:$Rb), 0> {
  bit ex;
  bits<8> Rb;
  let Inst{39-32} = Rb;
  let Inst{86} = ex;
}

// WARPSYNC 0xb48 with the mask in constant memory, c[Bank][Off] as ALU3's
// form 3 (E: the slow path of __shfl_sync(mask, ...) with the mask a
// kernel parameter, test/MC/Inputs/warp_mask.ptx: `WARPSYNC c[0x0][0x170]`
// 0x000fe80003800000_00005c0000007b48 on sm_80..sm_89; nvdisasm 11.8's
// text).
def WARPSYNC_c : CtlInst<0xb48, "WARPSYNC${ex} c[$Bank][$Off]", (outs),
                         (ins Excl:$ex, CBIdx:$Bank, CBOff:$Off), 0> {
  bit ex;
  bits<5> Bank;
  bits<16> Off;
  let Inst{39-38} = Off{1-0};
  let Inst{53-40} = Off{15-2};
  let Inst{58-54} = Bank;
  let Inst{86} = ex;
}

// BAR: 0xb1d immediate barrier [54:57] (N, T, C, R 3/3, E); 0x31d and
// 0x51d take the barrier in a register [32:39] (0x31d prints it twice, as
// barrier and thread count: every TSV row has `BAR.SYNC Rx, Rx` with only
// [32:39] set).
//   [74:75] reduction (.POPC .AND .OR), [77:78] mode (0 .SYNC, 2 .RED),
//   [80] .DEFER_BLOCKING, [87:89]+[90] the .RED predicate.
// ptxas: BAR.SYNC.DEFER_BLOCKING 0x0 for bar.sync 0 (E).
def Defer  : Mod<[0, 1], ["", ".DEFER_BLOCKING"]>;
def RedOp  : Mod<[0, 1, 2], [".POPC", ".AND", ".OR"]>;
class BARInst<bits<12> op, string asm, dag ins, bit red>
    : CtlInst<op, asm, (outs), ins, red, Barrier> {
  bit defer;
  bits<2> rop;
  bits<4> id;
  bits<8> Ra;
  bits<8> Rb;
  let Inst{75-74} = !if(red, rop, 0b00);
  let Inst{78-77} = !if(red, 0b10, 0b00);
  let Inst{80} = defer;
  let Inst{90} = 0;
}
def BAR_SYNC_i : BARInst<0xb1d, "BAR.SYNC${defer} $id",
                         (ins Defer:$defer, UImm:$id), 0> {
  let Inst{57-54} = id;
  let Inst{89-87} = 0b000;
}
def BAR_RED_i : BARInst<0xb1d, "BAR.RED${rop}${defer} $id, ${Ppn}$Pp",
                        (ins RedOp:$rop, Defer:$defer, UImm:$id, PNot:$Ppn,
                             Pred:$Pp), 1> {
  let Inst{57-54} = id;
  let Inst{90} = Ppn;
}
// Named barriers with a thread count [42:53] (PTX bar.sync / bar.arrive
// a, b; E: test/MC/Inputs/barrier_forms.ptx on sm_80/86/89/90 and
// Blackwell, e.g. `BAR.ARV 0x1, 0x80` 0x000fec0000002000_004200000000ab1d,
// `BAR.SYNC.DEFER_BLOCKING 0x1, 0x80` 0x000fe20000010000_0042000000002b1d;
// nvdisasm 11.8's text).  [77:78] mode 1 is .ARV (arrive, do not wait);
// nvdisasm prints BAR.SYNC's count only when it is not 0 (BAR_SYNC_i has
// [42:53] = 0 and is preferred when decoding), BAR.ARV's always.
def BAR_SYNC_i_cnt : BARInst<0xb1d, "BAR.SYNC${defer} $id, $cnt",
                             (ins Defer:$defer, UImm:$id, UImm:$cnt), 0> {
  bits<12> cnt;
  let Inst{53-42} = cnt;
  let Inst{57-54} = id;
  let Inst{89-87} = 0b000;
}
def BAR_ARV_i : BARInst<0xb1d, "BAR.ARV${defer} $id, $cnt",
                        (ins Defer:$defer, UImm:$id, UImm:$cnt), 0> {
  bits<12> cnt;
  let Inst{53-42} = cnt;
  let Inst{57-54} = id;
  let Inst{78-77} = 0b01;
  let Inst{89-87} = 0b000;
}

// B2R 0x31c with [78] = 1: B2R.RESULT, the result of the warp's last
// BAR.RED: the count (.POPC) in Rd [16:23], the predicate (.AND, .OR) in
// Pd [81:83] (TSV rows `B2R.RESULT R13`, `B2R.RESULT RZ, P1`; E: ptxas 13
// writes barrier.red.popc.u32 as BAR.RED.POPC + `B2R.RESULT R5`
// 0x000e2800000e4000_000000000005731c and barrier.red.and.pred as
// BAR.RED.AND + `B2R.RESULT RZ, P0`, on sm_80..sm_90 and Blackwell;
// test/MC/Inputs/barrier_forms.ptx).  nvdisasm leaves Pd out when it is
// PT: a form of its own, preferred when decoding.  It waits for the
// barrier: variable latency (every word sets a write scoreboard).
foreach P = [0, 1] in
  def B2R_RESULT # !if(P, "_P", "") :
    SM86Op<0x31c, "B2R.RESULT $Rd" # !if(P, ", $Pd", ""),
           !if(P, (outs GPR:$Rd, Pred:$Pd), (outs GPR:$Rd)), (ins),
           Decoupled> {
    bits<8> Rd;
    bits<3> Pd;
    let ReuseOperands = ["", "", "", ""];
    let Inst{23-16} = Rd;
    let Inst{78} = 1;
    let Inst{83-81} = !if(P, Pd, 0b111);
  }

def BAR_SYNC_rr : BARInst<0x31d, "BAR.SYNC${defer} $Rb, $Rb",
                          (ins Defer:$defer, GPR:$Rb), 0> {
  let Inst{39-32} = Rb;
  let Inst{89-87} = 0b000;
}
def BAR_SYNC_r : BARInst<0x51d, "BAR.SYNC${defer} $Rb",
                         (ins Defer:$defer, GPR:$Rb), 0> {
  let Inst{39-32} = Rb;
  let Inst{89-87} = 0b000;
}

//===----------------------------------------------------------------------===//
// Calls, returns, indirect branches and the other control ops ptxas emits
// (sm_86/sm_80 TSV rows, with their addresses; checked both ways by the
// corpus test).  [87:89]+[90] is the predicate as for BRA (PT in every row
// but BREAK's).
//===----------------------------------------------------------------------===//

// CALL 0x944 (.REL, target [34:81] as BRA: `CALL.REL.NOINC 0x1f0` at
// 0x1a0 has 0x10 words there), 0x344 (.REL with a register Ra [24:31]
// added: `CALL.REL.NOINC R8 0x0` at 0x100 has -0x44 words, back to 0x0),
// 0x343 (.ABS to the address in Ra: `CALL.ABS.NOINC R12`), 0x943 (.ABS to
// an absolute byte address [32:63]; its one row has 0x0 -- the field is
// RET.ABS's, see below -- and [64:81] = 0 is fixed).  [86] .NOINC.
def NoInc : Mod<[0, 1], ["", ".NOINC"]>;
def CALL_REL : CtlInst<0x944, "CALL.REL${ninc} $tgt", (outs),
                       (ins NoInc:$ninc, BrTarget:$tgt), 0> {
  bit ninc;
  bits<48> tgt;
  let Inst{81-34} = tgt;
  let Inst{86} = ninc;
}
// sm_90 splits the offsets and addresses of CALL/RET/BRX (SM90Instrs.td).
def CALL_REL_r : CtlInst<0x344, "CALL.REL${ninc} $Ra $tgt", (outs),
                         (ins NoInc:$ninc, GPR:$Ra, BrTarget:$tgt), 0> {
  bit ninc;
  bits<8> Ra;
  bits<48> tgt;
  let Inst{31-24} = Ra;
  let Inst{81-34} = tgt;
  let Inst{86} = ninc;
}
def CALL_ABS_r : CtlInst<0x343, "CALL.ABS${ninc} $Ra", (outs),
                         (ins NoInc:$ninc, GPR:$Ra), 0> {
  bit ninc;
  bits<8> Ra;
  let Inst{31-24} = Ra;
  let Inst{86} = ninc;
}
def CALL_ABS_i : CtlInst<0x943, "CALL.ABS${ninc} $addr", (outs),
                         (ins NoInc:$ninc, UImm:$addr), 0> {
  bit ninc;
  bits<32> addr;
  let Inst{63-32} = addr;
  let Inst{86} = ninc;
}

// RET 0x950: return address register Ra [24:31]; [85] .ABS (else .REL),
// [86] .NODEC.  .REL: target [34:81] as BRA (`RET.REL.NODEC R2 0x0` at
// 0x830 has -0x210 words).  .ABS: the byte address [32:63] (`RET.ABS R134
// 0x20` has 0x20 there, `RET.ABS.NODEC R20 0x0` 0; [64:81] = 0 in both
// and fixed).  The rows have .REL only with .NODEC.
def RetAbsDec : Mod<[0, 1], ["", ".NODEC"]>;
def RET_REL_NODEC : CtlInst<0x950, "RET.REL.NODEC $Ra $tgt", (outs),
                            (ins GPR:$Ra, BrTarget:$tgt), 0> {
  bits<8> Ra;
  bits<48> tgt;
  let Inst{31-24} = Ra;
  let Inst{81-34} = tgt;
  let Inst{86} = 1;
}
def RET_ABS : CtlInst<0x950, "RET.ABS${nd} $Ra $addr", (outs),
                      (ins RetAbsDec:$nd, GPR:$Ra, UImm:$addr), 0> {
  bit nd;
  bits<8> Ra;
  bits<32> addr;
  let Inst{31-24} = Ra;
  let Inst{63-32} = addr;
  let Inst{85} = 1;
  let Inst{86} = nd;
}

// BRX 0x949 (Ra [24:31]) / BRXU 0x958 (URa [24:29], [91] = 1): indirect
// branch; nvdisasm prints the signed byte offset [32:81] itself, not a
// target (`BRX R14 -0x390` has 0x3fffffffffc70 there).
def BrxOff : OperandType<"Imm"> { let Signed = 1; }
def BRX : CtlInst<0x949, "BRX $Ra $off", (outs), (ins GPR:$Ra, BrxOff:$off),
                  0> {
  let IsIndirectBranch = 1;
  bits<8> Ra;
  bits<50> off;
  let Inst{31-24} = Ra;
  let Inst{81-32} = off;
}
// BRXU: sm_86/sm_80 only (see CALL_REL_r).
def BRXU : CtlInst<0x958, "BRXU $Ur $off", (outs),
                   (ins UGPR:$Ur, BrxOff:$off), 0>, OnlyOn<[TargetSM80, TargetSM86, TargetSM89]> {
  let IsIndirectBranch = 1;
  bits<6> Ur;
  bits<50> off;
  let Inst{29-24} = Ur;
  let Inst{81-32} = off;
  let Inst{91} = 1;
}

// BREAK 0x942: convergence barrier B [16:19], optional predicate [87:89]
// + [90] (`@!P0 BREAK !P2, B1`: 2 and 1).
foreach P = [0, 1] in
  def BREAK # !if(P, "_P", "") :
    CtlInst<0x942, "BREAK " # !if(P, "${Ppn}$Pp, ", "") # "$b", (outs),
            !con(!if(P, (ins PNot:$Ppn, Pred:$Pp), (ins)), (ins BReg:$b)),
            P> {
    bits<4> b;
    let Inst{19-16} = b;
  }

// YIELD 0x946; NANOSLEEP 0x95d with an immediate [32:63] (`NANOSLEEP
// 0xf4240`), 0x35d with a register [32:39] (E: ptxas 13 writes R5 there
// for nanosleep.u32 %r, test/MC/Inputs/calls_and_jumps.ptx; the one row
// has R0).  LEPC 0x34e: Rd [16:23], the address of the next
// instruction, a pair (every row names an even register); no scheduling
// data, so variable latency (Decoupled).
def YIELD : CtlInst<0x946, "YIELD", (outs), (ins), 0>;
def NANOSLEEP_i : CtlInst<0x95d, "NANOSLEEP $ns", (outs), (ins UImm:$ns), 0> {
  bits<32> ns;
  let Inst{63-32} = ns;
}
def NANOSLEEP_r : CtlInst<0x35d, "NANOSLEEP $Rb", (outs), (ins GPR:$Rb), 0> {
  bits<8> Rb;
  let Inst{39-32} = Rb;
}
def LEPC : SM86Op<0x34e, "LEPC $Rd", (outs GPR64:$Rd), (ins), Decoupled> {
  bits<8> Rd;
  let ReuseOperands = ["", "", "", ""];
  let Inst{23-16} = Rd;
}
