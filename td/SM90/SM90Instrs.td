//===- SM90Instrs.td - Where sm_90 (Hopper) differs ---------*- tablegen -*-===//
//
// Everything else is shared with sm_86: the ptxas round trip
// (test/MC/SM90/ptxas-roundtrip.test) decodes every word ptxas 13 writes
// for our sm_90 kernels with these tables and re-encodes it bit for bit.
// Evidence (E = our decoding of `ptxas -arch=sm_90` output, CUDA 13.0):
//
// * BRA: the signed word offset is split, low 8 bits in [16:23], the
//   rest (offset >> 8) in [34:81] (E: self-loop lo 0xfffffffc00fc7947 =
//   -4 words; forward 0x0000000000988947 = +0x98 words; SASS_FACTS 1.4).
//   BSSY keeps sm_86's [34:81] (E: div.ptx in the round-trip test).  The
//   conditional (BRA_P) and .DIV/.CONV forms were not seen; they share the
//   opcode and the offset field, so they are given the same split.
// * VIADD 0x036 (forms 4 imm and 6 UR seen): Rd [16:23], Ra [24:31], the
//   second source in the B slot; [64:71] and the modifier bits are 0 in
//   every word (E).  Not on sm_86 (absent from every TSV row).
// * I2IP: as sm_86 with [74] set (E: `cvt.pack.sat.u8.s32.b32` and
//   `.s8` in test/MC/Inputs/bit_forms.ptx give 0x...0407_..._050b7239 and
//   0x...14ff_..._00077239 where sm_86 has 0x0007 and 0x10ff; every other
//   bit equal).  The printed text is taken to be sm_86's.
// * SR_CgaCtaId (SR 0x88) for S2R/S2UR: in SpecialRegInstrs.td's table.
// * VIMNMX 0x048 (forms 1 RR, 4 imm, 6 UR seen): ptxas's integer min/max
//   on sm_90 (sm_86's IMNMX 0x017 does not exist there).  IMNMX's fields
//   (Rd, Ra, B, the predicate [87:89]+[90] selecting max) with the signed
//   bit at [72] (IMNMX: [73]) and [81:86] all ones in every word (E:
//   test/MC/Inputs/minmax_forms.ptx, 10 words: .U32 and signed, min and
//   max, R/imm/UR sources, e.g. `min.u32 R6, R7, R0` 0x004fc80003fe0000_
//   0000000007067248, `max.s32 R12, R0, -0x5` 0x000fe20007fe0100_
//   fffffffb000c7848).  Not on sm_86 (no TSV row has opcode 0x248).
//
//===----------------------------------------------------------------------===//

foreach P = [0, 1] in
  def BRA # !if(P, "_P", "") # _SM90 :
    CtlInst<0x947, "BRA${mode} " # !if(P, "${Ppn}$Pp, ", "") # "$tgt",
            (outs), !con((ins BraMode:$mode),
                         !if(P, (ins PNot:$Ppn, Pred:$Pp), (ins)),
                         (ins BrTarget:$tgt)), P>,
    EncodingOn<"BRA" # !if(P, "_P", ""), SM90Family> {
    bits<2> mode;
    bits<56> tgt;
    let Inst{33-32} = mode;
    let Inst{23-16} = tgt{7-0};
    let Inst{81-34} = tgt{55-8};
  }
def BRA_DIV_SM90 : CtlInst<0x947, "BRA${mode} ${urn}$Ur, $tgt", (outs),
                           (ins BraDiv:$mode, NotMod:$urn, UGPR:$Ur,
                                BrTarget:$tgt), 0>,
                   EncodingOn<"BRA_DIV", SM90Family> {
  bits<2> mode;
  bit urn;
  bits<6> Ur;
  bits<56> tgt;
  let Inst{23-16} = tgt{7-0};
  let Inst{29-24} = Ur;
  let Inst{30} = urn;
  let Inst{33-32} = mode;
  let Inst{81-34} = tgt{55-8};
  let Inst{91} = 1;
}

// VIADD Rd, Ra, imm32 | UR: 32-bit add (ptxas 13 uses it for simple adds
// on sm_90).  ALU3 forms 4 and 6 with no C operand ([64:71] = 0).
foreach F = [FormIR, FormUR] in
  def VIADD_ # F.Sfx :
    ALU3<0x036, F.Form, "VIADD $Rd, $Ra, " # SrcOp<F.BK, "Rb", UImm, NegMod, "">.Text,
         (outs GPR:$Rd), !con((ins GPR:$Ra), SrcOp<F.BK, "Rb", UImm, NegMod, "">.Ins),
         CoupledFMA>, OnlyOn<SM90Family> {
    let ReuseOperands = ["Ra", "", "", ""];
  }

// VIMNMX Rd, Ra, B, [!]Pp: min (Pp) or max (!Pp), .U32 or signed.
foreach F = [FormRR, FormIR, FormUR] in {
  defvar BS = SrcOp<F.BK, "Rb", SImm, NegMod, "">;
  def VIMNMX_ # F.Sfx :
    ABPInst<0x048, F.Form, "VIMNMX${u} $Rd, $Ra, " # BS.Text # ", ${Ppn}$Pp",
            (outs GPR:$Rd),
            !con((ins U32Mod:$u, GPR:$Ra), BS.Ins, (ins PNot:$Ppn, Pred:$Pp))>,
    OnlyOn<SM90Family> {
    let Inst{72} = u;
    let Inst{86-81} = 0b111111;
  }
}

def I2IP_SM90 : I2IPInst, EncodingOn<"I2IP", SM90Family> {
  let Inst{74} = 1;
}

// CALL.REL, RET.REL.NODEC and BRX split their offset as BRA does (E:
// test/MC/Inputs/calls_and_jumps.ptx; CALL.REL.NOINC at 0x70 holds 0x48 in
// [16:23] and 0 above, RET.REL.NODEC R4 at 0x1e0 0x84 and -1 in [34:81],
// i.e. -0x7c words back to 0x0; BRX R4 -0xf0 holds 0xc4 and -1, the word
// offset, where sm_86 holds the byte offset in [32:81]).  BRXU was not
// seen on sm_90: it is left out there (OnlyOn in ControlInstrs.td), since
// sm_86's layout would misread a split offset.
def CALL_REL_SM90 : CtlInst<0x944, "CALL.REL${ninc} $tgt", (outs),
                            (ins NoInc:$ninc, BrTarget:$tgt), 0>,
                    EncodingOn<"CALL_REL", SM90Family> {
  bit ninc;
  bits<56> tgt;
  let Inst{23-16} = tgt{7-0};
  let Inst{81-34} = tgt{55-8};
  let Inst{86} = ninc;
}
def RET_REL_NODEC_SM90 : CtlInst<0x950, "RET.REL.NODEC $Ra $tgt", (outs),
                                 (ins GPR:$Ra, BrTarget:$tgt), 0>,
                         EncodingOn<"RET_REL_NODEC", SM90Family> {
  bits<8> Ra;
  bits<56> tgt;
  let Inst{23-16} = tgt{7-0};
  let Inst{31-24} = Ra;
  let Inst{81-34} = tgt{55-8};
  let Inst{86} = 1;
}
// CALL.REL with a register (an indirect call: `CALL.REL.NOINC R6 0x0`,
// the target R6 + 0x0) splits its offset the same way (E:
// test/MC/Inputs/indirect_calls.ptx, 0x000fea0003c3ffff_fffffffc068c7344 at
// 0x1c0: 0x8c in [16:23], -1 above, -0x74 words back to 0x0; nvdisasm
// 11.8 prints `CALL.REL.NOINC R6 0x0`).  CALL.ABS and RET.ABS hold their
// absolute byte address in words, split as the offsets: address / 4 bits
// 0..7 in [16:23], the rest in [34:81] (E: ptxas -c, a relocatable cubin,
// writes a call of an external function as `CALL.ABS.NOINC 0x0`
// 0x000fea0003c00000_0000000000007943 and its return as `RET.ABS.NODEC
// R20 0x0` 0x000fec0003e00000_0000000014007950 on sm_90, sm_100 and
// sm_120, the address left to the linker; nvdisasm 11.8 reads [16:23] = 1
// as 0x4 and [34] = 1 as 0x400 in both).  Address bits 0..1 go to [32:33]
// as BRX's offset bits do (UNVERIFIED: nvdisasm ignores [32:33] here and
// ptxas writes 0 there).
def CALL_REL_r_SM90 : CtlInst<0x344, "CALL.REL${ninc} $Ra $tgt", (outs),
                              (ins NoInc:$ninc, GPR:$Ra, BrTarget:$tgt), 0>,
                      EncodingOn<"CALL_REL_r", SM90Family> {
  bit ninc;
  bits<8> Ra;
  bits<56> tgt;
  let Inst{23-16} = tgt{7-0};
  let Inst{31-24} = Ra;
  let Inst{81-34} = tgt{55-8};
  let Inst{86} = ninc;
}
def CALL_ABS_i_SM90 : CtlInst<0x943, "CALL.ABS${ninc} $addr", (outs),
                              (ins NoInc:$ninc, UImm:$addr), 0>,
                      EncodingOn<"CALL_ABS_i", SM90Family> {
  bit ninc;
  bits<58> addr;
  let Inst{23-16} = addr{9-2};
  let Inst{33-32} = addr{1-0};
  let Inst{81-34} = addr{57-10};
  let Inst{86} = ninc;
}
def RET_ABS_SM90 : CtlInst<0x950, "RET.ABS${nd} $Ra $addr", (outs),
                           (ins RetAbsDec:$nd, GPR:$Ra, UImm:$addr), 0>,
                   EncodingOn<"RET_ABS", SM90Family> {
  bit nd;
  bits<8> Ra;
  bits<58> addr;
  let Inst{23-16} = addr{9-2};
  let Inst{31-24} = Ra;
  let Inst{33-32} = addr{1-0};
  let Inst{81-34} = addr{57-10};
  let Inst{85} = 1;
  let Inst{86} = nd;
}

// WARPSYNC with a register takes it in [24:31] (sm_86: [32:39], which
// must be 0 here: nvdisasm 11.8 rejects a word with R35 there).  E: a
// divergent __activemask() + __shfl_sync (test/MC/Inputs/activemask.ptx),
// `WARPSYNC R3` 0x000fea0003800000_0000000003007348 on sm_90, sm_100 and
// sm_120 (sm_80..89: 0x...00000003_00007348).
def WARPSYNC_r_SM90 : CtlInst<0x348, "WARPSYNC${ex} $Rb", (outs),
                              (ins Excl:$ex, GPR:$Rb), 0>,
                      EncodingOn<"WARPSYNC_r", SM90Family> {
  bit ex;
  bits<8> Rb;
  let Inst{31-24} = Rb;
  let Inst{86} = ex;
}

def BRX_SM90 : CtlInst<0x949, "BRX $Ra $off", (outs),
                       (ins GPR:$Ra, BrxOff:$off), 0>,
               EncodingOn<"BRX", SM90Family> {
  let IsIndirectBranch = 1;
  bits<8> Ra;
  bits<58> off;
  let Inst{23-16} = off{9-2};
  let Inst{31-24} = Ra;
  let Inst{33-32} = off{1-0};
  let Inst{81-34} = off{57-10};
}

// Global and generic atomics on sm_90 (E: test/MC/Inputs/global_atomics.ptx
// and Inputs/global_atomics_sm90.ptx; fields as sm_86's, AtomicInstrs.td):
// * .S64 takes type code 3 (sm_86: 5) at the same opcodes;
// * the float types have opcodes of their own, ATOMG 0x9a3, ATOM 0x9a2,
//   REDG 0x9a6, with [73:76] F16x2.RN 0, BF16x2.RN 3 (new), F32.FTZ.RN 9,
//   F64.RN 15 (e.g. `atom.global.add.f32` 0x00036800081ef3c4_
//   00003439420d79a3);
// * RED prints as REDG (public sm_90+ listings; no TSV row).
// Only the descriptor forms were seen; the others of the moved types are
// sm_80/86/89 forms (OnlyOn).  The float forms are forms of their own
// (tp-tblgen's EncodingOn keeps the opcode).
def ATOMG_DESC_S64_SM90 : GAtomOpInst<"ATOMG", 0x9a8, GAtomS64, 2>,
                          EncodingOn<"ATOMG_DESC_S64", [TargetSM90]> {
  let Inst{76-73} = GAtomS64.Code90;
}
def ATOM_DESC_S64_SM90 : GAtomOpInst<"ATOM", 0x98a, GAtomS64, 2>,
                         EncodingOn<"ATOM_DESC_S64", [TargetSM90]> {
  let Inst{76-73} = GAtomS64.Code90;
}
foreach T = [GAtomF32, GAtomF16x2, GAtomF64, GAtomBF16x2] in {
  def ATOMG_DESC_ # T.Name # _SM90 :
    GAtomOpInst<"ATOMG", T.AtomG90, T, 2>, OnlyOn<[TargetSM90]> {
    let Inst{76-73} = T.Code90;
  }
  def ATOM_DESC_ # T.Name # _SM90 :
    GAtomOpInst<"ATOM", T.Atom90, T, 2>, OnlyOn<[TargetSM90]> {
    let Inst{76-73} = T.Code90;
  }
}
foreach T = [GAtomU32, GAtomS32, GAtomU64, GAtomS64, GAtomF32, GAtomF16x2,
             GAtomF64, GAtomBF16x2] in
  def REDG_DESC_ # T.Name : RedInst<"REDG", T.Red90, T>,
                            OnlyOn<[TargetSM90]> {
    let Inst{76-73} = T.Code90;
  }

// CGAERRBAR 0x5ab: ptxas follows each ERRBAR with it on sm_90 (E:
// test/MC/Inputs/sm86-only/fences.ptx, `fence.sc.gpu`; every field 0, e.g.
// 0x000fec00000000000000000000075ab); the cluster's error barrier, as
// public sm_90 listings spell it (`ERRBAR; CGAERRBAR`).
def CGAERRBAR : SM86Op<0x5ab, "CGAERRBAR", (outs), (ins), Barrier>,
                OnlyOn<SM90Family>;

// ATOMS.POPC.INC.32 (0xf8c) takes op code 11 in [87:90] on sm_90 and
// Blackwell (sm_86: 10); the other fields are sm_86's.  E: ptxas 13's
// warp-aggregated shared atomic of test/Sim/atoms.ptx, `ATOMS.POPC.INC.32
// RZ, [UR4]` 0x000fe8000d800004_00000000ffff7f8c (sm_90, sm_100, sm_120);
// nvdisasm 11.8 prints that text for it (SM90).
def ATOMS_POPC_INC_32_SM90 :
  ATOMSInst<0xf8c, "ATOMS.POPC.INC.32 $Rd, <$Ra${sc}+$Ur+$off>", (outs GPR:$Rd),
            (ins MemBase:$Ra, Scale:$sc, MemUR:$Ur, MemOff:$off)>,
  EncodingOn<"ATOMS_POPC_INC_32", SM90Family> {
  let Inst{69-64} = Ur;
  let Inst{75-73} = 0;
  let Inst{90-87} = 11;
  let Inst{91} = 1;
}
