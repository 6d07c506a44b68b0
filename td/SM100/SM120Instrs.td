//===- SM120Instrs.td - sm_120's uniform float, SIMD, 64-bit ops -*- tablegen -*-===//
//
// Forms only sm_120 and sm_121 (consumer Blackwell) have, found in the
// words ptxas 13 writes where sm_100 and sm_90 use other instructions for
// the same PTX.  Evidence (E = our decoding of `ptxas -arch=sm_120`
// output, CUDA 13.0 V13.0.88; sm_121 writes the same words): the corpus
// files test/MC/Inputs/float_forms.ptx, int_simd_forms.ptx and
// global_atomics.ptx, and test/MC/Inputs/sm120_forms.ptx, written to vary
// one operand or modifier at a time.  No NVIDIA disassembler is at hand:
// the spellings follow the vector siblings' (a U for a uniform op, as
// everywhere in td/), and where a bit's meaning is inferred, the comment
// says so.  The rest of each word is 0 (a word with another bit set is
// reported, never misprinted).
//
// * Uniform float ops, 0x251..0x256 (sm_100 and sm_90 compute these in
//   vector registers): the vector op's fields (FloatInstrs.td) at the same
//   bits, with 8-bit uniform register fields (SM100Uniform.td: [16:23] Rd,
//   [24:31] A, [32:39] B, [64:71] C, URZ 0xff), [91] = 1 and fixed latency
//   (no scoreboard in any word).  A: negate [72], abs [73].
//   - UFSEL 0x051, forms 1 and 4: `selp.f32` on uniform values, predicate
//     [87:89]+[90] (`UFSEL UR4, UR4, UR10, !UP0` 0x000fe2000c000000_
//     0000000a04047251; immediate `UFSEL UR4, UR5, 1.5, !UP0`
//     0x000fc8000c000000_3fc0000005047851).
//   - UFSETP 0x053, forms 1 and 4: FSETP's compare [76:79], .FTZ [80],
//     combine [74:75], Pu [81:83], Pv [84:86], Pp [87:89]+[90]
//     (`UFSETP.GEU.AND UP0, UPT, UR4, UR8, UPT` 0x000fd2000bf0e000_
//     0000000804007253; .FTZ 0x...f140_...; .OR with UP0 0x000fd2000870
//     1400_...; |A| [73]; `UFSETP.GEU.FTZ.AND UP0, UPT, UR10,
//     1.175494350822287508e-38, UPT` 0x000fe2000bf0e200_008000000a007853
//     is ptxas's sqrt denormal test).
//   - UFADD 0x054, form 1: as FADD the second source is in the C slot
//     [64:71] ([32:39] = 0), its negate [75] and abs [74]; .SAT [77],
//     rounding [78:79], .FTZ [80] (`UFADD UR9, UR14, UR15`
//     0x000fcc000800000f_000000000e097254; `sub.f32` 0x...0105 with -A,
//     0x...0805 with -C; `add.sat.ftz` 0x...0120 05).  `add.rz` goes to
//     the vector FADD.RZ and back through R2UR (below).
//   - UFFMA 0x055, forms 1 (B [32:39], negate [63]; C [64:71], negate
//     [75]), 2 (B [64:71], immediate C [32:63]: `UFFMA UR4, UR4, UR5, 1.5`
//     0x000fc80008000005_3fc0000004047455) and 4 (immediate B: 0x...7855);
//     .SAT [77], .FTZ [80] (`fma.rn.ftz.sat` with -C 0x000fc80008012809_
//     0000000804047255).
//   - UFMUL 0x056, forms 1 and 4: FMUL's result scale [84:86] = 4 (none)
//     in every word; B's negate [63] (`UFMUL UR4, UR4, -UR5`
//     0x000fc80008400000_8000000504047256, `UFMUL UR4, UR10, 16777216`
//     0x000fc80008400000_4b8000000a047856: the denormal scaling of sqrt).
// * R2UR 0x2ca (sm_90: 0x3c2): a vector register into a uniform one,
//   UR [16:23], R [24:31], [81:83] = 7 (no predicate result) in every word
//   (`R2UR UR4, R0` 0x000fda00000e0000_00000000000472ca after `add.rz.f32`
//   of uniform values, `R2UR UR5, R3` after MUFU.SQRT, waiting on its
//   scoreboard); no word sets a scoreboard of its own: fixed latency.  The
//   predicate-result form (R2UR_P elsewhere) is not modelled on sm_120.
// * VIMNMX.U8x4 (0x248 with [74] = 1, [72] = 0): min/max of four unsigned
//   byte pairs; sm_120 builds `vabsdiff4` as max - min of packed bytes
//   (sm_90, sm_100: VABSDIFF4).  [73] = 1 is the 16x2 packing
//   (`min.u16x2`, [72] its signedness: sm_90 and sm_100 have it too; not
//   modelled here).
// * VIADD.8x4 Rd, Ra, -Rb (0x236, form 1, [75] = 1, [63] = 1): the
//   subtraction of those maxima and minima (E: two words, always negated;
//   0x000fe40000000800_8000000906067236).  The meaning of [75] is inferred:
//   `add.u16x2` sets [73] in the same form (VIADD 16x2, not modelled), so
//   [75] is read as the byte packing of the subtraction.
// * IDP.4A with a uniform B (form 6, UR [32:39], [91] = 1): the byte sum
//   of vabsdiff4 (`IDP.4A.U8.U8 R6, R6, UR6, RZ` 0x000fe400080000ff_
//   0000000606067c26, UR6 = 0x01010101).
// * ISETP with [80] = 1: a 64-bit compare of register pairs (sm_90 and
//   sm_100: ISETP + ISETP.EX); forms 1 (R pair), 4 (32-bit immediate,
//   sign-extended: `setp.ne.s64 ..., -7` 0x...fffffff9...780c) and 6 (UR
//   pair, [91] = 1); [73] signed (as ISETP's .U32: 1 = signed), so
//   `.S64` / `.U64`; compare, combine and predicates as ISETP's
//   (`ISETP.EQ.U64.AND P0, PT, R76, UR8, PT` 0x004fcc000bf12070_
//   000000084c007c0c: a 64-bit CAS loop's compare; `setp.lt.s64`
//   0x004fdc0003f16270_000000060400720c).
// * SEL.64 (0x007 forms 3 and 2, which 32-bit SEL does not use): a 64-bit
//   select of register pairs, B a pair in [32:39] (form 3: `SEL.64 R20,
//   R22, R76, P0` 0x000fcc0000000000_0000004c16147607) or a 33-bit signed
//   immediate [32:63] + [64] (form 2: -5 is 0x...0001_fffffffb..., 0xffffffff
//   0x...0000_ffffffff...; 0x100000005 does not fit and ptxas moves it with
//   MOV.64); predicate [87:89]+[90].
//
//===----------------------------------------------------------------------===//

//===----------------------------------------------------------------------===//
// Uniform float ops.
//===----------------------------------------------------------------------===//

/// A uniform float op: 8-bit UR fields, [91] = 1, A's negate/abs.
class UFPInst<bits<9> op, bits<3> form, string asm, dag outs, dag ins>
    : SM86ALU<op, form, asm, outs, ins, UniformALU>,
      OnlyOn<ConsumerBlackwell> {
  bits<8> Rd;
  bits<8> Ra;
  bit na;
  bit aa;
  let ReuseOperands = ["", "", "", ""];
  let UniformGuard = 1;
  let Inst{23-16} = Rd;
  let Inst{31-24} = Ra;
  let Inst{72} = na;
  let Inst{73} = aa;
  let Inst{91} = 1;
}

/// B of a uniform float op in the low slot: a UR [32:39] with its negate
/// [63], or a 32-bit float immediate [32:63].
class UFSrcB<string k> {
  string Text = !if(!eq(k, "r"), "${nb}$Rb", "$Imm");
  dag Ins = !if(!eq(k, "r"), (ins NegMod:$nb, UGPR:$Rb), (ins FImm:$Imm));
}
defvar UFBForms = [UFormRR, UFormIR];

foreach F = UFBForms in {
  defvar B = UFSrcB<F.BK>;
  defvar IsR = !eq(F.BK, "r");

  def UFSEL_ # F.Sfx :
    UFPInst<0x051, F.Form, "UFSEL $Rd, ${na}${aa}$Ra${aa}, " # B.Text #
                           ", ${Ppn}$Pp", (outs UGPR:$Rd),
            !con((ins NegMod:$na, AbsMod:$aa, UGPR:$Ra), B.Ins,
                 (ins PNot:$Ppn, UPred:$Pp))> {
    bits<8> Rb;
    bit nb;
    bits<32> Imm;
    bits<3> Pp;
    bit Ppn;
    let Inst{39-32} = !if(IsR, Rb, Imm{7-0});
    let Inst{63-40} = !if(IsR, {nb, 0b00000000000000000000000}, Imm{31-8});
    let Inst{89-87} = Pp;
    let Inst{90} = Ppn;
  }

  def UFSETP_ # F.Sfx :
    UFPInst<0x053, F.Form, "UFSETP${cmp}${ftz}${bop} $Pu, $Pv, " #
                           "${na}${aa}$Ra${aa}, " # B.Text # ", ${Ppn}$Pp",
            (outs UPred:$Pu, UPred:$Pv),
            !con((ins FCmp:$cmp, FtzMod:$ftz, BoolOp:$bop, NegMod:$na,
                      AbsMod:$aa, UGPR:$Ra), B.Ins,
                 (ins PNot:$Ppn, UPred:$Pp))> {
    bits<8> Rb;
    bit nb;
    bits<32> Imm;
    bits<4> cmp;
    bit ftz;
    bits<2> bop;
    bits<3> Pu;
    bits<3> Pv;
    bits<3> Pp;
    bit Ppn;
    let Inst{39-32} = !if(IsR, Rb, Imm{7-0});
    let Inst{63-40} = !if(IsR, {nb, 0b00000000000000000000000}, Imm{31-8});
    let Inst{75-74} = bop;
    let Inst{79-76} = cmp;
    let Inst{80} = ftz;
    let Inst{83-81} = Pu;
    let Inst{86-84} = Pv;
    let Inst{89-87} = Pp;
    let Inst{90} = Ppn;
  }

  def UFMUL_ # F.Sfx :
    UFPInst<0x056, F.Form, "UFMUL${ftz}${rnd}${sat} $Rd, ${na}${aa}$Ra${aa}, " #
                           B.Text, (outs UGPR:$Rd),
            !con(FPMods, (ins NegMod:$na, AbsMod:$aa, UGPR:$Ra), B.Ins)> {
    bits<8> Rb;
    bit nb;
    bits<32> Imm;
    bit ftz;
    bits<2> rnd;
    bit sat;
    let Inst{39-32} = !if(IsR, Rb, Imm{7-0});
    let Inst{63-40} = !if(IsR, {nb, 0b00000000000000000000000}, Imm{31-8});
    let Inst{77} = sat;
    let Inst{79-78} = rnd;
    let Inst{80} = ftz;
    let Inst{86-84} = 0b100;   // FMUL's result scale: none
  }
}

// UFADD: the second source in the C slot (as FADD's forms 2, 3, 7).
def UFADD_rrr :
  UFPInst<0x054, 1, "UFADD${ftz}${rnd}${sat} $Rd, ${na}${aa}$Ra${aa}, " #
                    "${nc}${ac}$Rc${ac}", (outs UGPR:$Rd),
          !con(FPMods, (ins NegMod:$na, AbsMod:$aa, UGPR:$Ra, NegMod:$nc,
                            AbsMod:$ac, UGPR:$Rc))> {
  bits<8> Rc;
  bit nc;
  bit ac;
  bit ftz;
  bits<2> rnd;
  bit sat;
  let Inst{71-64} = Rc;
  let Inst{74} = ac;
  let Inst{75} = nc;
  let Inst{77} = sat;
  let Inst{79-78} = rnd;
  let Inst{80} = ftz;
}

// UFFMA: forms 1 (B, C registers), 2 (B register in [64:71], C immediate)
// and 4 (B immediate, C register).
foreach F = [UFormRR, UFormRI, UFormIR] in {
  defvar BText = !if(!eq(F.BK, "r"), "${nb}$Rb", "$Imm");
  defvar CText = !if(!eq(F.CK, "r"), "${nc}$Rc", "$Imm");
  def UFFMA_ # F.Sfx :
    UFPInst<0x055, F.Form, "UFFMA${ftz}${rnd}${sat} $Rd, ${na}${aa}$Ra${aa}, " #
                           BText # ", " # CText, (outs UGPR:$Rd),
            !con(FPMods, (ins NegMod:$na, AbsMod:$aa, UGPR:$Ra),
                 !if(!eq(F.BK, "r"), (ins NegMod:$nb, UGPR:$Rb),
                     (ins FImm:$Imm)),
                 !if(!eq(F.CK, "r"), (ins NegMod:$nc, UGPR:$Rc),
                     (ins FImm:$Imm)))> {
    bits<8> Rb;
    bits<8> Rc;
    bit nb;
    bit nc;
    bits<32> Imm;
    bit ftz;
    bits<2> rnd;
    bit sat;
    // Form 1: B low, C high; form 2: B high, immediate C low; form 4:
    // immediate B low, C high.
    let Inst{39-32} = !if(!eq(F.Form, 1), Rb, Imm{7-0});
    let Inst{63-40} = !if(!eq(F.Form, 1), {nb, 0b00000000000000000000000}, Imm{31-8});
    let Inst{71-64} = !if(!eq(F.Form, 2), Rb, Rc);
    let Inst{75} = !if(!eq(F.Form, 2), nb, nc);
    let Inst{77} = sat;
    let Inst{79-78} = rnd;
    let Inst{80} = ftz;
  }
}

//===----------------------------------------------------------------------===//
// R2UR on sm_120/sm_121 and sm_90 (a form of its own: its opcode is not
// sm_86's 0x3c2, whose forms are not available there: UniformInstrs.td).
// sm_90: the same fields (E: ptxas -arch=sm_90a, `R2UR UR5, R0`
// 0x000fe400000e0000_00000000000572ca, test/MC/SM90A; HOPPER_FACTS 1.2).
//===----------------------------------------------------------------------===//
def R2UR_SM120 : SM86Op<0x2ca, "R2UR $Rd, $Ra", (outs UGPR:$Rd),
                        (ins GPR:$Ra), UniformALU>,
                 OnlyOn<!listconcat([TargetSM90], ConsumerBlackwell)> {
  bits<8> Rd;
  bits<8> Ra;
  let ReuseOperands = ["", "", "", ""];
  let Inst{23-16} = Rd;
  let Inst{31-24} = Ra;
  let Inst{83-81} = 0b111;
}

//===----------------------------------------------------------------------===//
// Packed bytes: VIMNMX.U8x4, VIADD.8x4, IDP.4A with a UR.
//===----------------------------------------------------------------------===//
def VIMNMX_U8x4_rrr :
  ABPInst<0x048, 1, "VIMNMX.U8x4 $Rd, $Ra, $Rb, ${Ppn}$Pp", (outs GPR:$Rd),
          (ins GPR:$Ra, GPR:$Rb, PNot:$Ppn, Pred:$Pp)>,
  OnlyOn<ConsumerBlackwell> {
  let Inst{74} = 1;
  let Inst{86-81} = 0b111111;
}

def VIADD_8x4_NEG_rrr :
  ALU3<0x036, 1, "VIADD.8x4 $Rd, $Ra, -$Rb", (outs GPR:$Rd),
       (ins GPR:$Ra, GPR:$Rb), CoupledFMA>,
  OnlyOn<ConsumerBlackwell> {
  let ReuseOperands = ["Ra", "Rb", "", ""];
  let Inst{63} = 1;
  let Inst{75} = 1;
}

def IDP_4A_rur_SM120 :
  SM86ALU<0x026, 6, "IDP.4A${sa}${sb} $Rd, $Ra, $Ur, $Rc", (outs GPR:$Rd),
          (ins IdpA8:$sa, IdpB8:$sb, GPR:$Ra, UGPR:$Ur, GPR:$Rc), CoupledFMA>,
  OnlyOn<ConsumerBlackwell> {
  bits<8> Rd;
  bits<8> Ra;
  bits<8> Ur;
  bits<8> Rc;
  bit sa;
  bit sb;
  let ReuseOperands = ["Ra", "", "Rc", ""];
  let Inst{23-16} = Rd;
  let Inst{31-24} = Ra;
  let Inst{39-32} = Ur;
  let Inst{71-64} = Rc;
  let Inst{73} = sa;
  let Inst{74} = sb;
  let Inst{91} = 1;
}

//===----------------------------------------------------------------------===//
// 64-bit compare and select.
//===----------------------------------------------------------------------===//
def S64Mod : Mod<[1, 0], [".S64", ".U64"]>;   // bit 73: 1 = signed

foreach F = [FormRR, FormIR, FormUR] in {
  defvar BText = !cond(!eq(F.BK, "r"): "$Rb", !eq(F.BK, "i"): "$Imm",
                       true: "$Ur");
  def ISETP_64_ # F.Sfx :
    SM86ALU<0x00c, F.Form, "ISETP${cmp}${u}${bop} $Pu, $Pv, $Ra, " # BText #
                           ", ${Ppn}$Pp", (outs Pred:$Pu, Pred:$Pv),
            !con((ins ICmp:$cmp, S64Mod:$u, BoolOp:$bop, GPR64:$Ra),
                 !cond(!eq(F.BK, "r"): (ins GPR64:$Rb),
                       !eq(F.BK, "i"): (ins SImm:$Imm),
                       true: (ins UGPR64:$Ur)),
                 (ins PNot:$Ppn, Pred:$Pp)), CoupledALU>,
    OnlyOn<ConsumerBlackwell> {
    bits<8> Ra;
    bits<8> Rb;
    bits<8> Ur;
    bits<32> Imm;
    bits<3> cmp;
    bit u;
    bits<2> bop;
    bits<3> Pu;
    bits<3> Pv;
    bits<3> Pp;
    bit Ppn;
    let ReuseOperands = ["Ra", !if(!eq(F.BK, "r"), "Rb", ""), "", ""];
    let Inst{31-24} = Ra;
    let Inst{39-32} = !cond(!eq(F.BK, "r"): Rb, !eq(F.BK, "i"): Imm{7-0},
                            true: Ur);
    let Inst{63-40} = !if(!eq(F.BK, "i"), Imm{31-8}, 0b000000000000000000000000);
    let Inst{70-68} = 0b111;   // no .EX carry predicate (PT)
    let Inst{73} = u;
    let Inst{75-74} = bop;
    let Inst{78-76} = cmp;
    let Inst{80} = 1;
    let Inst{83-81} = Pu;
    let Inst{86-84} = Pv;
    let Inst{89-87} = Pp;
    let Inst{90} = Ppn;
    let Inst{91} = !eq(F.BK, "u");
  }
}

def SEL_64_rrr :
  SM86ALU<0x007, 3, "SEL.64 $Rd, $Ra, $Rb, ${Ppn}$Pp", (outs GPR64:$Rd),
          (ins GPR64:$Ra, GPR64:$Rb, PNot:$Ppn, Pred:$Pp), CoupledALU>,
  OnlyOn<ConsumerBlackwell> {
  bits<8> Rd;
  bits<8> Ra;
  bits<8> Rb;
  bits<3> Pp;
  bit Ppn;
  let ReuseOperands = ["Ra", "Rb", "", ""];
  let Inst{23-16} = Rd;
  let Inst{31-24} = Ra;
  let Inst{39-32} = Rb;
  let Inst{89-87} = Pp;
  let Inst{90} = Ppn;
}
def SEL_64_rir :
  SM86ALU<0x007, 2, "SEL.64 $Rd, $Ra, $Imm, ${Ppn}$Pp", (outs GPR64:$Rd),
          (ins GPR64:$Ra, SImm:$Imm, PNot:$Ppn, Pred:$Pp), CoupledALU>,
  OnlyOn<ConsumerBlackwell> {
  bits<8> Rd;
  bits<8> Ra;
  bits<33> Imm;
  bits<3> Pp;
  bit Ppn;
  let ReuseOperands = ["Ra", "", "", ""];
  let Inst{23-16} = Rd;
  let Inst{31-24} = Ra;
  let Inst{63-32} = Imm{31-0};
  let Inst{64} = Imm{32};
  let Inst{89-87} = Pp;
  let Inst{90} = Ppn;
}
