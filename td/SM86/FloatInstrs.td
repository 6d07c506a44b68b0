//===- FloatInstrs.td - sm_86 floating point and conversions -*- tablegen -*-===//
//
// FADD, FMUL, FFMA, FSETP, I2FP, I2F, F2F, F2FP, HADD2, HFMA2, HMUL2 (N, C,
// R; our corpus test).  FP32 ops:  Source modifiers:
// negate/abs of A [72]/[73], of the low slot [63]/[62], of the [64:71]
// slot [75]/[74] (SM86InstrFormats.td).  [77] .SAT, [78:79] rounding
// (RN: none, .RM, .RP, .RZ), [80] .FTZ.  Float immediates are raw IEEE
// bits printed like "%.20g" (lib/Target/SM86/FloatFormat.h).
//
//===----------------------------------------------------------------------===//

def FtzMod : Mod<[0, 1], ["", ".FTZ"]>;
def RndMod : Mod<[0, 1, 2, 3], ["", ".RM", ".RP", ".RZ"]>;
def SatMod : Mod<[0, 1], ["", ".SAT"]>;

/// FADD/FMUL/FFMA with the common modifier fields.
class FPInst<bits<9> op, bits<3> form, string asm, dag outs, dag ins,
             SchedClass s> : ALU3<op, form, asm, outs, ins, s> {
  bit ftz;
  bits<2> rnd;
  bit sat;
  let Inst{77} = sat;
  let Inst{79-78} = rnd;
  let Inst{80} = ftz;
}
defvar FPMods = (ins FtzMod:$ftz, RndMod:$rnd, SatMod:$sat);

// FADD 0x021: the second source sits in the C slot of the forms (N OpFAdd):
// register in [32:39] (form 1, reuse slot C: `FADD R10, R13, R16.reuse`
// sets bit 124), immediate form 2, c[][] form 3, UR form 7.
foreach F = [FormRR, FormRI, FormRC, FormRU] in {
  defvar IsR = !eq(F.Sfx, "rrr");
  defvar B = !if(IsR, SrcOp<"r", "Rb", FImm, NegMod, "nb", GPR, "ab">,
                      SrcOp<F.CK, "Rc", FImm, NegMod, "nc", GPR, "ac">);
  def FADD_ # !if(IsR, "rr", !if(!eq(F.CK, "i"), "ri",
                                 !if(!eq(F.CK, "c"), "rc", "ru"))) :
    FPInst<0x021, F.Form, "FADD" # "${ftz}${rnd}${sat}" # " $Rd, ${na}${aa}$Ra${aa}, " #
             B.Text, (outs GPR:$Rd),
           !con(FPMods, (ins NegMod:$na, AbsMod:$aa, GPR:$Ra), B.Ins),
           CoupledFMA> {
    let ReuseOperands = ["Ra", "", "Rb", ""];
  }
}

// FMUL 0x020: B in the B slot (forms 1, 4, 5, 6); [84:86] result scale,
// 4 = none, 3 = .D2, 2 = .D4 (the values the TSVs show; others are not
// decoded), printed after .FTZ as nvdisasm does (FMUL.FTZ.D2.RM.SAT).
def FmulScale : Mod<[4, 3, 2], ["", ".D2", ".D4"]>;
foreach F = BOnlyForms in {
  defvar B = SrcOp<F.BK, "Rb", FImm, NegMod, "nb", GPR, "ab">;
  def FMUL_ # F.Sfx :
    FPInst<0x020, F.Form, "FMUL${ftz}${scale}${rnd}${sat} $Rd, ${na}${aa}$Ra${aa}, " #
             B.Text, (outs GPR:$Rd),
           !con((ins FmulScale:$scale), FPMods,
                (ins NegMod:$na, AbsMod:$aa, GPR:$Ra), B.Ins),
           CoupledFMA> {
    bits<3> scale;
    let Inst{86-84} = scale;
  }
}

// FFMA 0x023: three sources, all forms.
foreach F = ALU3Forms in {
  defvar B = SrcOp<F.BK, "Rb", FImm, NegMod, "nb", GPR, "ab">;
  defvar C = SrcOp<F.CK, "Rc", FImm, NegMod, "nc", GPR, "ac">;
  def FFMA_ # F.Sfx :
    FPInst<0x023, F.Form, "FFMA" # "${ftz}${rnd}${sat}" # " $Rd, ${na}${aa}$Ra${aa}, " #
             B.Text # ", " # C.Text, (outs GPR:$Rd),
           !con(FPMods, (ins NegMod:$na, AbsMod:$aa, GPR:$Ra), B.Ins, C.Ins),
           CoupledFMA>;
}

// FSETP 0x00b: [76:79] compare, [80] .FTZ, [74:75] combine; Pu [81:83],
// Pv [84:86], accumulate predicate [87:89]+[90].  B forms 1, 4, 5, 6.
def FCmp : Mod<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
               [".F", ".LT", ".EQ", ".LE", ".GT", ".NE", ".GE", ".NUM",
                ".NAN", ".LTU", ".EQU", ".LEU", ".GTU", ".NEU", ".GEU", ".T"]>;
foreach F = BOnlyForms in {
  defvar B = SrcOp<F.BK, "Rb", FImm, NegMod, "nb", GPR, "ab">;
  def FSETP_ # F.Sfx :
    ALU3<0x00b, F.Form, "FSETP${cmp}${ftz}${bop} $Pu, $Pv, ${na}${aa}$Ra${aa}, " #
           B.Text # ", ${Ppn}$Pp", (outs Pred:$Pu, Pred:$Pv),
         !con((ins FCmp:$cmp, FtzMod:$ftz, BoolOp:$bop, NegMod:$na,
                   AbsMod:$aa, GPR:$Ra), B.Ins, (ins PNot:$Ppn, Pred:$Pp)),
         CoupledALU> {
    bits<4> cmp;
    bit ftz;
    bits<2> bop;
    bits<3> Pu;
    bits<3> Pv;
    bits<3> Pp;
    bit Ppn;
    let Inst{75-74} = bop;
    let Inst{79-76} = cmp;
    let Inst{80} = ftz;
    let Inst{83-81} = Pu;
    let Inst{86-84} = Pv;
    let Inst{89-87} = Pp;
    let Inst{90} = Ppn;
  }
}

// I2FP.F32 (sm_86 integer -> f32, fixed latency): base 0x045, B forms
// 1/5/6; [74] signed source (.S32, else .U32); [76] and [85] set in every
// sample (source and destination width); [78:79] rounding: 0 (RN) and 3
// (.RZ) only, nvdisasm prints 1 and 2 as INVALID1/INVALID2 (no .RM/.RP).
// Not on sm_80: nvdisasm 11.8's SM80 tables recognise no I2FP (sm_80
// converts with I2F).
def I2FPSign : Mod<[0, 1], [".U32", ".S32"]>;
def I2FPRnd : Mod<[0, 3], ["", ".RZ"]>;
foreach F = [FormRR, FormCR, FormUR] in {
  defvar B = SrcOp<F.BK, "Rb", UImm, NegMod, "">;
  def I2FP_F32_ # F.Sfx :
    ALU3<0x045, F.Form, "I2FP.F32${sgn}${rnd} $Rd, " # B.Text, (outs GPR:$Rd),
         !con((ins I2FPSign:$sgn, I2FPRnd:$rnd), B.Ins), CoupledALU>,
    OnlyOn<!listconcat([TargetSM86, TargetSM89], SM90Family)> {
    bit sgn;
    bits<2> rnd;
    let Inst{74} = sgn;
    let Inst{76} = 1;
    let Inst{79-78} = rnd;
    let Inst{85} = 1;
  }
}

//===----------------------------------------------------------------------===//
// Conversions (C, our corpus test).  Variable latency (N needs_scoreboards:
// all conversions).  Base opcodes: I2F 0x106 (0x112 when the destination
// is F64 or the source 64-bit), F2F 0x104 (0x110 with an F64 side); the
// source is in the B slot: forms 1 (register), 4 (immediate), 5 (c[][]),
// 6 (uniform register).
//   [74] + [84:85] integer source type as one field: bit 0 = signed, bits
//   1..2 = size (8, 16, 32, 64 bits); spelled .U8 .S8 .U16 .S16 .U32 (S32
//   is the default, not printed) .U64 .S64.
//   [75:76] I2F destination: .F16 1, F32 2 (not printed), .F64 3.
//   [60:61] byte (.B1..B3) or half (.H1) selector of an 8/16-bit source.
//   [78:79] rounding (.RM .RP .RZ).
//===----------------------------------------------------------------------===//
// The opcode follows the types: 0x112 when the destination is F64 or the
// source 64-bit, 0x106 otherwise (every TSV row); so the type modifiers of
// each opcode are restricted to what it takes, and text picks the opcode.
def I2FDstN : Mod<[1, 2], [".F16", ""]>;     // 0x106, and 0x112 + 64-bit src
def I2FDstW : Mod<[3], [".F64"]>;            // 0x112
def I2FSrc8 : Mod<[0, 1], [".U8", ".S8"]>;
def I2FSrc16 : Mod<[2, 3], [".U16", ".S16"]>;
def I2FSrc32 : Mod<[4, 5], [".U32", ""]>;
def I2FSrc3264 : Mod<[4, 5, 6, 7], [".U32", "", ".U64", ".S64"]>;
def I2FSrc64 : Mod<[6, 7], [".U64", ".S64"]>;
def ByteSel : Mod<[0, 1, 2, 3], ["", ".B1", ".B2", ".B3"]>;
def HalfSel : Mod<[0, 1], ["", ".H1"]>;
class CvtSrc<string name, OperandType srcT, OperandType selT> {
  string Name = name;
  OperandType SrcT = srcT;
  OperandType SelT = selT;
}
class CvtVar<string name, bits<9> op, OperandType dstT, list<CvtSrc> srcs> {
  string Name = name;
  bits<9> Op = op;
  OperandType DstT = dstT;
  list<CvtSrc> Srcs = srcs;
}
class I2FInst<bits<9> op, bits<3> form, string asm, dag ins, bit hasSel>
    : ALU3<op, form, asm, (outs GPR:$Rd), ins, Decoupled> {
  bits<2> dst;
  bits<3> src;
  bits<2> rnd;
  bits<2> sel;
  let Inst{74} = src{0};
  let Inst{85-84} = src{2-1};
  let Inst{76-75} = dst;
  let Inst{79-78} = rnd;
  let Inst{61-60} = !cond(hasSel: sel, !eq(form, 4): Imm{29-28}, true: 0b00);
}
foreach V = [CvtVar<"", 0x106, I2FDstN,
                    [CvtSrc<"8", I2FSrc8, ByteSel>,
                     CvtSrc<"16", I2FSrc16, HalfSel>,
                     CvtSrc<"32", I2FSrc32, HalfSel>]>,
             CvtVar<"F64_", 0x112, I2FDstW,
                    [CvtSrc<"8", I2FSrc8, ByteSel>,
                     CvtSrc<"16", I2FSrc16, HalfSel>,
                     CvtSrc<"32", I2FSrc3264, HalfSel>]>,
             CvtVar<"S64_", 0x112, I2FDstN,
                    [CvtSrc<"64", I2FSrc64, HalfSel>]>] in
  foreach S = V.Srcs in
    foreach F = [FormRR, FormIR, FormCR, FormUR] in {
      defvar Sel = !and(!or(!eq(S.Name, "8"), !eq(S.Name, "16")),
                        !or(!eq(F.BK, "r"), !eq(F.BK, "u")));
      defvar B = SrcOp<F.BK, "Rb", SImm, NegMod, "">;
      def I2F_ # V.Name # S.Name # "_" # F.Sfx :
        I2FInst<V.Op, F.Form, "I2F${dst}${src}${rnd} $Rd, " # B.Text #
                                !if(Sel, "${sel}", ""),
                !con((ins V.DstT:$dst, S.SrcT:$src, RndMod:$rnd), B.Ins,
                     !if(Sel, !dag(ins, [S.SelT], ["sel"]), (ins))), Sel>;
    }

// F2F: [75:77] destination (.F16 1, .F32 2, .F64 3, .BF16 4), [84:85]
// source (.F16 1, .F32 2, .F64 3), [78:79] rounding, [60] .H1 of an F16
// source; source negate/abs [63]/[62].  Opcode 0x110 when either side is
// F64, else 0x104 (every TSV row).
def F2FDstN : Mod<[1, 2, 4], [".F16", ".F32", ".BF16"]>;
def F2FDstW : Mod<[3], [".F64"]>;
def F2FSrcN : Mod<[1, 2], [".F16", ".F32"]>;
def F2FSrcW : Mod<[3], [".F64"]>;
class F2FInst<bits<9> op, bits<3> form, string asm, dag ins, bit hasSel>
    : ALU3<op, form, asm, (outs GPR:$Rd), ins, Decoupled> {
  bits<3> dst;
  bits<2> src;
  bits<2> rnd;
  bits<1> sel;
  let Inst{77-75} = dst;
  let Inst{85-84} = src;
  let Inst{79-78} = rnd;
  let Inst{60-60} = !cond(hasSel: sel, !eq(form, 4): Imm{28-28}, true: 0b0);
}
class F2FVar<string name, bits<9> op, OperandType d, OperandType s> {
  string Name = name;
  bits<9> Op = op;
  OperandType DstT = d;
  OperandType SrcT = s;
}
foreach V = [F2FVar<"", 0x104, F2FDstN, F2FSrcN>,
             F2FVar<"F64D_", 0x110, F2FDstW, F2FSrcN>,
             F2FVar<"F64S_", 0x110, F2FDstN, F2FSrcW>] in
  foreach F = [FormRR, FormIR, FormCR, FormUR] in {
    defvar Sel = !or(!eq(F.BK, "r"), !eq(F.BK, "u"));
    defvar B = SrcOp<F.BK, "Rb", FImm, NegMod, "nb", GPR, "ab">;
    def F2F_ # V.Name # F.Sfx :
      F2FInst<V.Op, F.Form, "F2F${dst}${src}${rnd} $Rd, " # B.Text #
                              !if(Sel, "${sel}", ""),
              !con((ins V.DstT:$dst, V.SrcT:$src, RndMod:$rnd), B.Ins,
                   !if(Sel, (ins HalfSel:$sel), (ins))), Sel>;
  }

// F2FP 0x03e: pack two F32 into F16x2/BF16x2.  [76] .BF16, [78] .MERGE_C
// (C [64:71] printed last, A = RZ), [79:80] rounding (.RZ = 3; the only
// non-default value the TSVs show).  PACK_AB has C = RZ, not printed.
def F2FPBf : Mod<[0, 1], ["", ".BF16"]>;
def F2FPRnd : Mod<[0, 3], ["", ".RZ"]>;
foreach F = BOnlyForms in {
  defvar B = SrcOp<F.BK, "Rb", FImm, NegMod, "">;
  def F2FP_PACK_AB_ # F.Sfx :
    ALU3<0x03e, F.Form, "F2FP${bf}.PACK_AB${rnd} $Rd, $Ra, " # B.Text,
         (outs GPR:$Rd), !con((ins F2FPBf:$bf, F2FPRnd:$rnd, GPR:$Ra), B.Ins),
         CoupledALU> {
    bit bf;
    bits<2> rnd;
    let Inst{71-64} = 0b11111111;
    let Inst{76} = bf;
    let Inst{80-79} = rnd;
  }
  def F2FP_MERGE_C_ # F.Sfx :
    ALU3<0x03e, F.Form, "F2FP${bf}.MERGE_C${rnd} $Rd, " # B.Text # ", $Rc",
         (outs GPR:$Rd), !con((ins F2FPBf:$bf, F2FPRnd:$rnd), B.Ins,
                              (ins GPR:$Rc)), CoupledALU> {
    bit bf;
    bits<2> rnd;
    let Ra = 0xff;
    let Inst{76} = bf;
    let Inst{78} = 1;
    let Inst{80-79} = rnd;
  }
}

//===----------------------------------------------------------------------===//
// FP16x2 ALU (HADD2 0x030, HMUL2 0x032, HFMA2 0x031, HFMA2.MMA 0x035;
// C, our corpus test).  Operand forms as SM86InstrFormats.td; each source
// carries negate, abs and a half swizzle, placed with its slot:
//   A:                     neg [72], abs [73], swizzle [74:75]
//   low slot ([32:63]):    neg [63], abs [62], swizzle [60:61] (+[86])
//   high slot ([64:71]):   neg [84], abs [83], swizzle [81:82]
// Swizzle spellings: 0 none, 2 .H0_H0, 3 .H1_H1, and (low slot, [86])
// .H0_NH1.  nvdisasm prints `|R5|.H0_H0` for registers but `|UR4.H0_H0|`
// and `|c[0x0] [0x16c].H0_H0|` (with that blank) for the others.
// [78] .F32 (HADD2), [79] .RELU (with a predicate [87:89]+[90]), [80]
// .FTZ, [85] .BF16_V2.  Immediates are two f16 values, high half first.
//===----------------------------------------------------------------------===//
def HSwz    : Mod<[0, 2, 3], ["", ".H0_H0", ".H1_H1"]>;
def HSwzLow : Mod<[0, 2, 3, 4], ["", ".H0_H0", ".H1_H1", ".H0_NH1"]>;
def HF32    : Mod<[0, 1], ["", ".F32"]>;
def HBf     : Mod<[0, 1], ["", ".BF16_V2"]>;

class HALU3<bits<9> op, bits<3> form, string asm, dag outs, dag ins,
            bit relu> : SM86ALU<op, form, asm, outs, ins, FP16ALU> {
  bits<8> Rd;
  bits<8> Ra;
  bits<8> Rb;
  bits<8> Rc;
  bits<32> Imm;
  bits<5> Bank;
  bits<16> Off;
  bits<6> Ur;
  bit na;
  bit aa;
  bits<2> sa;
  bit nb;
  bit ab;
  bits<3> sb;
  bit nc;
  bit ac;
  bits<3> sc;
  bit ftz;
  bit bf;
  bit f32;
  bits<3> Pp;
  bit Ppn;
  let ReuseOperands = ["Ra", "Rb", "Rc", ""];
  let Inst{23-16} = Rd;
  let Inst{31-24} = Ra;
  let Inst{72} = na;
  let Inst{73} = aa;
  let Inst{75-74} = sa;
  // Values of the B and C slots, as ALU3.
  let Inst{37-32} = !cond(!eq(form, 1): Rb{5-0},
                          !or(!eq(form, 2), !eq(form, 4)): Imm{5-0},
                          !or(!eq(form, 6), !eq(form, 7)): Ur,
                          true: 0b000000);
  let Inst{39-38} = !cond(!eq(form, 1): Rb{7-6},
                          !or(!eq(form, 2), !eq(form, 4)): Imm{7-6},
                          !or(!eq(form, 3), !eq(form, 5)): Off{1-0},
                          true: 0b00);
  let Inst{53-40} = !cond(!or(!eq(form, 2), !eq(form, 4)): Imm{21-8},
                          !or(!eq(form, 3), !eq(form, 5)): Off{15-2},
                          true: 0b00000000000000);
  let Inst{58-54} = !cond(!or(!eq(form, 2), !eq(form, 4)): Imm{26-22},
                          !or(!eq(form, 3), !eq(form, 5)): Bank,
                          true: 0b00000);
  let Inst{59-59} = !cond(!or(!eq(form, 2), !eq(form, 4)): Imm{27-27},
                          true: 0b0);
  // Low-slot modifiers: B's in forms 1, 5, 6; C's in forms 3, 7.
  let Inst{61-60} = !cond(!or(!eq(form, 2), !eq(form, 4)): Imm{29-28},
                          !or(!eq(form, 3), !eq(form, 7)): sc{1-0},
                          true: sb{1-0});
  let Inst{62-62} = !cond(!or(!eq(form, 2), !eq(form, 4)): Imm{30-30},
                          !or(!eq(form, 3), !eq(form, 7)): {ac},
                          true: {ab});
  let Inst{63-63} = !cond(!or(!eq(form, 2), !eq(form, 4)): Imm{31-31},
                          !or(!eq(form, 3), !eq(form, 7)): {nc},
                          true: {nb});
  let Inst{86-86} = !cond(!or(!eq(form, 2), !eq(form, 4)): 0b0,
                          !or(!eq(form, 3), !eq(form, 7)): sc{2-2},
                          true: sb{2-2});
  // High slot: C in forms 1, 4, 5, 6; B in forms 2, 3, 7.
  let Inst{71-64} = !if(!or(!eq(form, 2), !eq(form, 3), !eq(form, 7)), Rb, Rc);
  let Inst{82-81} = !if(!or(!eq(form, 2), !eq(form, 3), !eq(form, 7)),
                        sb{1-0}, sc{1-0});
  let Inst{83-83} = !if(!or(!eq(form, 2), !eq(form, 3), !eq(form, 7)),
                        {ab}, {ac});
  let Inst{84-84} = !if(!or(!eq(form, 2), !eq(form, 3), !eq(form, 7)),
                        {nb}, {nc});
  let Inst{78} = f32;
  let Inst{79} = relu;
  let Inst{80} = ftz;
  let Inst{85} = bf;
  let Inst{89-87} = !if(relu, Pp, 0b000);
  let Inst{90} = !if(relu, Ppn, 0);
  let Inst{91} = !or(!eq(form, 6), !eq(form, 7));
}

/// Text and operands of an FP16 source of kind k in slot `low` (1: the
/// [32:63] slot, whose swizzle also has .H0_NH1).
class HSrc<string k, string reg, string n, string a, string s, bit low,
           bit bf = 0, string cb = "c[$Bank] [$Off]"> {
  string NT = "${" # n # "}";
  string AT = "${" # a # "}";
  string ST = "${" # s # "}";
  string Text = !cond(!eq(k, "r"): NT # AT # "$" # reg # AT # ST,
                      !eq(k, "i"): "$Imm",
                      !eq(k, "c"): NT # AT # cb # ST # AT,
                      true: NT # AT # "$Ur" # ST # AT);
  dag Mods = !dag(ins, [NegMod, AbsMod, !if(low, HSwzLow, HSwz)], [n, a, s]);
  dag Ins = !cond(!eq(k, "r"): !con(Mods, !dag(ins, [GPR], [reg])),
                  !eq(k, "i"): !if(bf, (ins BImm:$Imm), (ins HImm:$Imm)),
                  !eq(k, "c"): !con(Mods, (ins CBIdx:$Bank, CBOff:$Off)),
                  true: !con(Mods, (ins UGPR:$Ur)));
}

// HFMA2 (0x031) and HFMA2.MMA (0x035): all forms; HFMA2.MMA has its own
// schedule class (FP16MMA: sm_80 times it as the MMA pipe).
class HVar<string mn, string name, bits<9> op, string cb> {
  string Mn = mn;
  string Name = name;
  bits<9> Op = op;
  string CB = cb;  // HFMA2.MMA prints c[..][..] without the blank
}
// nvdisasm prints .BF16_V2 first (`HFMA2.BF16_V2.FTZ.RELU`, TSV rows
// `HFMA2.BF16_V2`).  It leaves the .RELU predicate out when it is PT
// (`HFMA2.RELU R6, R5, R6, R0`; TSV rows: `HFMA2.RELU R15, R15, R6, R11,
// P0`): R = 1 is that form, the predicate fixed to PT (the decoder takes
// it over R = 2's, being more specific); R = 2 names the predicate.
/// Whether form F's B source is in the low slot ([32:63]).
class HBLow<SrcForm F> {
  bit V = !or(!eq(F.Form, 1), !eq(F.Form, 5), !eq(F.Form, 6));
}
class HFMA2Form<HVar V, SrcForm F, int R, bit BF>
    : HALU3<V.Op, F.Form, V.Mn # !if(BF, ".BF16_V2", "") # "${ftz}" #
                            !if(R, ".RELU", "") # " $Rd, " #
                            "${na}${aa}$Ra${aa}${sa}" # ", " #
                            HSrc<F.BK, "Rb", "nb", "ab", "sb", HBLow<F>.V, BF,
                                 V.CB>.Text # ", " #
                            HSrc<F.CK, "Rc", "nc", "ac", "sc", !not(HBLow<F>.V),
                                 BF, V.CB>.Text #
                            !if(!eq(R, 2), ", ${Ppn}$Pp", ""),
            (outs GPR:$Rd),
            !con((ins FtzMod:$ftz),
                 (ins NegMod:$na, AbsMod:$aa, GPR:$Ra, HSwz:$sa),
                 HSrc<F.BK, "Rb", "nb", "ab", "sb", HBLow<F>.V, BF, V.CB>.Ins,
                 HSrc<F.CK, "Rc", "nc", "ac", "sc", !not(HBLow<F>.V), BF,
                      V.CB>.Ins,
                 !if(!eq(R, 2), (ins PNot:$Ppn, Pred:$Pp), (ins))),
            !ne(R, 0)> {
  let Sched = !if(!eq(V.Name, "HFMA2_MMA"), FP16MMA, FP16ALU);
  let bf = BF;
  let Pp = !if(!eq(R, 1), 7, ?);
  let Ppn = !if(!eq(R, 1), 0, ?);
}
foreach F = ALU3Forms in
  foreach R = [0, 1, 2] in {
    defvar Sfx = !cond(!eq(R, 0): "", !eq(R, 1): "_RELU", true: "_RELU_P");
    foreach BF = [0, 1] in
      def "HFMA2" # Sfx # !if(BF, "_BF16", "") # "_" # F.Sfx :
        HFMA2Form<HVar<"HFMA2", "HFMA2", 0x031, "c[$Bank] [$Off]">, F, R, BF>;
    def "HFMA2_MMA" # Sfx # "_" # F.Sfx :
      HFMA2Form<HVar<"HFMA2.MMA", "HFMA2_MMA", 0x035, "c[$Bank][$Off]">, F, R, 0>;
    // nvdisasm 11.8 prints HFMA2.MMA.BF16_V2 on sm_90 only (on sm_80/86/89
    // a word with [85] set prints as HFMA2.MMA).
    def "HFMA2_MMA" # Sfx # "_BF16_" # F.Sfx :
      HFMA2Form<HVar<"HFMA2.MMA", "HFMA2_MMA", 0x035, "c[$Bank][$Off]">, F, R, 1>,
      OnlyOn<SM90Family>;
  }

// HADD2 (0x030): the second source is in the C slot for non-register
// forms (as FADD): register form 1 ([32:39], low-slot modifiers), immediate
// form 2, c[][] form 3, UR form 7.
foreach F = [FormRR, FormRI, FormRC, FormRU] in {
  defvar IsR = !eq(F.Sfx, "rrr");
  defvar B = !if(IsR, HSrc<"r", "Rb", "nb", "ab", "sb", 1>,
                      HSrc<F.CK, "Rc", "nc", "ac", "sc", 1>);
  def HADD2_ # F.Sfx :
    HALU3<0x030, F.Form, "HADD2${f32}${ftz} $Rd, " # "${na}${aa}$Ra${aa}${sa}" # ", " # B.Text,
          (outs GPR:$Rd), !con((ins HF32:$f32, FtzMod:$ftz), (ins NegMod:$na, AbsMod:$aa, GPR:$Ra, HSwz:$sa), B.Ins), 0> {
    // As FADD: the register second source uses reuse slot C (bit 124,
    // `HADD2.F32 R18, -RZ, R6.reuse.H0_H0`).
    let ReuseOperands = ["Ra", "", "Rb", ""];
  }
}

// HMUL2 (0x032): B in the B slot, forms 1, 4, 5, 6.
foreach F = BOnlyForms in {
  defvar B = HSrc<F.BK, "Rb", "nb", "ab", "sb", 1>;
  def HMUL2_ # F.Sfx :
    HALU3<0x032, F.Form, "HMUL2${ftz}${bf} $Rd, " # "${na}${aa}$Ra${aa}${sa}" # ", " # B.Text,
          (outs GPR:$Rd), !con((ins FtzMod:$ftz, HBf:$bf), (ins NegMod:$na, AbsMod:$aa, GPR:$Ra, HSwz:$sa), B.Ins), 0>;
}

//===----------------------------------------------------------------------===//
// FSEL 0x008 and FMNMX 0x009 (as SEL/IMNMX with float source modifiers:
// A [72]/[73], B [63]/[62]; predicate [87:89]+[90]); FMNMX [80] .FTZ,
// [81] .NAN.  MUFU 0x108: [74:77] function, B source with negate/abs;
// variable latency (N needs_scoreboards).  (C, our corpus test.)
//===----------------------------------------------------------------------===//
def NanMod : Mod<[0, 1], ["", ".NAN"]>;
foreach F = BOnlyForms in {
  defvar B = SrcOp<F.BK, "Rb", FImm, NegMod, "nb", GPR, "ab">;
  def FSEL_ # F.Sfx :
    ALU3<0x008, F.Form, "FSEL $Rd, ${na}${aa}$Ra${aa}, " # B.Text #
                          ", ${Ppn}$Pp", (outs GPR:$Rd),
         !con((ins NegMod:$na, AbsMod:$aa, GPR:$Ra), B.Ins,
              (ins PNot:$Ppn, Pred:$Pp)), CoupledALU> {
    bits<3> Pp;
    bit Ppn;
    let Inst{89-87} = Pp;
    let Inst{90} = Ppn;
  }
  def FMNMX_ # F.Sfx :
    ALU3<0x009, F.Form, "FMNMX${ftz}${nan} $Rd, ${na}${aa}$Ra${aa}, " #
                          B.Text # ", ${Ppn}$Pp", (outs GPR:$Rd),
         !con((ins FtzMod:$ftz, NanMod:$nan, NegMod:$na, AbsMod:$aa,
                   GPR:$Ra), B.Ins, (ins PNot:$Ppn, Pred:$Pp)), CoupledALU> {
    bit ftz;
    bit nan;
    bits<3> Pp;
    bit Ppn;
    let Inst{80} = ftz;
    let Inst{81} = nan;
    let Inst{89-87} = Pp;
    let Inst{90} = Ppn;
  }
}
def MufuOp : Mod<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
                 [".COS", ".SIN", ".EX2", ".LG2", ".RCP", ".RSQ", ".RCP64H",
                  ".RSQ64H", ".SQRT", ".TANH"]>;
def MufuOp32 : Mod<[0, 1, 2, 3, 4, 5, 8, 9],
                   [".COS", ".SIN", ".EX2", ".LG2", ".RCP", ".RSQ", ".SQRT",
                    ".TANH"]>;
def MufuOp64 : Mod<[6, 7], [".RCP64H", ".RSQ64H"]>;
foreach F = BOnlyForms in {
  defvar B = SrcOp<F.BK, "Rb", FImm, NegMod, "nb", GPR, "ab">;
  defvar IsI = !eq(F.BK, "i");
  def MUFU_ # F.Sfx :
    ALU3<0x108, F.Form, "MUFU${fn} $Rd, " # B.Text, (outs GPR:$Rd),
         !con(!if(IsI, (ins MufuOp32:$fn), (ins MufuOp:$fn)), B.Ins),
         Decoupled> {
    bits<4> fn;
    let Inst{77-74} = fn;
  }
}
// The 64H functions take the high word of an f64 as immediate.
def MUFU_64H_rir : ALU3<0x108, 4, "MUFU${fn} $Rd, $Imm", (outs GPR:$Rd),
                        (ins MufuOp64:$fn, DImmHi:$Imm), Decoupled> {
  bits<4> fn;
  let Inst{77-74} = fn;
}

//===----------------------------------------------------------------------===//
// F2I: 0x105, or 0x111 when the destination is 64-bit or the source F64
// (every TSV row).  [72] signed + [75:76] size: destination type (.U8 .S8
// .U16 .S16 .U32, S32 not printed, .U64 .S64); [84:85] source (F32 not
// printed, .F64 3, .F16 1); [78:79] rounding ("", .FLOOR, .CEIL, .TRUNC);
// [77] .NTZ; [80] .FTZ; source negate/abs [63]/[62].  Variable latency.
//===----------------------------------------------------------------------===//
def F2IDstN : Mod<[0, 1, 2, 3, 4, 5], [".U8", ".S8", ".U16", ".S16", ".U32", ""]>;
def F2IDstW : Mod<[6, 7], [".U64", ".S64"]>;
def F2ISrcN : Mod<[2, 1], ["", ".F16"]>;
def F2ISrcW : Mod<[3], [".F64"]>;
def F2ISrcAll : Mod<[2, 1, 3], ["", ".F16", ".F64"]>;
def F2IRnd : Mod<[0, 1, 2, 3], ["", ".FLOOR", ".CEIL", ".TRUNC"]>;
def NtzMod : Mod<[0, 1], ["", ".NTZ"]>;
class F2IVar<string name, bits<9> op, OperandType d, OperandType s> {
  string Name = name;
  bits<9> Op = op;
  OperandType DstT = d;
  OperandType SrcT = s;
}
class F2IInst<bits<9> op, bits<3> form, string asm, dag ins, bit hasSel>
    : ALU3<op, form, asm, (outs GPR:$Rd), ins, Decoupled> {
  bit ftz;
  bits<3> dst;
  bits<2> src;
  bits<2> rnd;
  bit ntz;
  bits<1> sel;
  let Inst{72} = dst{0};
  let Inst{76-75} = dst{2-1};
  let Inst{77} = ntz;
  let Inst{79-78} = rnd;
  let Inst{80} = ftz;
  let Inst{85-84} = src;
  // [60]: .H1 of an F16 source (`F2I.F16.NTZ R16, R6.H1`).
  let Inst{60-60} = !cond(hasSel: sel, !eq(form, 4): Imm{28-28}, true: 0b0);
}
foreach V = [F2IVar<"", 0x105, F2IDstN, F2ISrcN>,
             F2IVar<"W64D_", 0x111, F2IDstW, F2ISrcAll>,
             F2IVar<"F64S_", 0x111, F2IDstN, F2ISrcW>] in
  foreach F = BOnlyForms in {
    defvar Sel = !or(!eq(F.BK, "r"), !eq(F.BK, "u"));
    defvar B = SrcOp<F.BK, "Rb", FImm, NegMod, "nb", GPR, "ab">;
    def F2I_ # V.Name # F.Sfx :
      F2IInst<V.Op, F.Form, "F2I${ftz}${dst}${src}${rnd}${ntz} $Rd, " #
                              B.Text # !if(Sel, "${sel}", ""),
              !con((ins FtzMod:$ftz, V.DstT:$dst, V.SrcT:$src, F2IRnd:$rnd,
                        NtzMod:$ntz), B.Ins,
                   !if(Sel, (ins HalfSel:$sel), (ins))), Sel>;
  }

//===----------------------------------------------------------------------===//
// FP16x2 compares and min/max (HSETP2 0x034, HSET2 0x033, HMNMX2 0x040;
// our corpus test over every TSV row).  HALU3's slots and swizzles; only
// the source modifiers rows show are operands.
//   HSETP2/HSET2: [76:79] compare (as FSETP), predicate [87:89]+[90]; the
//   second source as HADD2's (register in [32:39] with its swizzle in
//   [60:61], immediate form 2 (two f16), c[][] form 3).  HSETP2: Pu
//   [81:83], Pv [84:86], [69] .OR (`HSETP2.GEU.OR P0, PT, R21.H0_H0, ...,
//   !P0` has 0x0470e820; no row has .XOR); negate of A [72]
//   (`HSETP2.EQ.AND P0, P3, -R9.H0_H0, ...`).  HSET2: [71] .BF (`HSET2.BF.EQ.AND
//   R10, R4, R7, PT` 0x03802080, `HSET2.GTU.AND` 0x0380c000); every row is
//   .AND.
//   HMNMX2: B forms 1 and 5 (as HMUL2), A and B with negate, abs and
//   swizzle, [80] .FTZ, [81] .NAN, predicate [87:89]+[90] (`HMNMX2.FTZ.NAN
//   R4, R17, R0.H0_H0, !PT` has 0x07830000).
// FP16ALU, HALU3's class, as the other FP16x2 ops (SASS_FACTS 2.1 names
// only HADD2/HFMA2/HMUL2 for it), but HMNMX2, a min/max, which ptxas 13
// times as a coupled ALU op: HMNMX2 -> the HMNMX2 reading its result 4
// cycles apart on every target (test/MC/Inputs/fp16_compare_forms.ptx,
// test/Sim/latency-evidence-corpus.test), where FP16ALU says 5.
//===----------------------------------------------------------------------===//
def HBoolOp : Mod<[0, 1], [".AND", ".OR"]>;
class HCmpSrc<string k> {
  string Text = !cond(!eq(k, "r"): "$Rb${sb}", !eq(k, "i"): "$Imm",
                      true: "c[$Bank] [$Off]${sc}");
  dag Ins = !cond(!eq(k, "r"): (ins GPR:$Rb, HSwz:$sb),
                  !eq(k, "i"): (ins HImm:$Imm),
                  true: (ins CBIdx:$Bank, CBOff:$Off, HSwz:$sc));
}
foreach F = [FormRR, FormRI, FormRC] in {
  defvar B = HCmpSrc<!if(!eq(F.Sfx, "rrr"), "r", F.CK)>;
  def HSETP2_ # F.Sfx :
    HALU3<0x034, F.Form, "HSETP2${cmp}${bop} $Pu, $Pv, ${na}$Ra${sa}, " #
                           B.Text # ", ${Ppn}$Pp", (outs Pred:$Pu, Pred:$Pv),
          !con((ins FCmp:$cmp, HBoolOp:$bop, NegMod:$na, GPR:$Ra, HSwz:$sa),
               B.Ins, (ins PNot:$Ppn, Pred:$Pp)), 0> {
    bits<4> cmp;
    bit bop;
    bits<3> Pu;
    bits<3> Pv;
    let ReuseOperands = ["Ra", "", "Rb", ""];
    let Inst{69} = bop;
    let Inst{79-76} = cmp;
    let Inst{83-81} = Pu;
    let Inst{86-84} = Pv;
    let Inst{89-87} = Pp;
    let Inst{90} = Ppn;
  }
  def HSET2_ # F.Sfx :
    HALU3<0x033, F.Form, "HSET2${bfo}${cmp}.AND $Rd, $Ra${sa}, " #
                           B.Text # ", ${Ppn}$Pp", (outs GPR:$Rd),
          !con((ins Mod<[0, 1], ["", ".BF"]>:$bfo, FCmp:$cmp, GPR:$Ra,
                    HSwz:$sa), B.Ins, (ins PNot:$Ppn, Pred:$Pp)), 0> {
    bits<4> cmp;
    bit bfo;
    let ReuseOperands = ["Ra", "", "Rb", ""];
    let Inst{71} = bfo;
    let Inst{79-76} = cmp;
    let Inst{86} = 0;
    let Inst{89-87} = Pp;
    let Inst{90} = Ppn;
  }
}
foreach F = [FormRR, FormCR] in {
  defvar B = HSrc<F.BK, "Rb", "nb", "ab", "sb", 0>;
  def HMNMX2_ # F.Sfx :
    HALU3<0x040, F.Form, "HMNMX2${ftz}${nan} $Rd, ${na}${aa}$Ra${aa}${sa}, " #
                           B.Text # ", ${Ppn}$Pp", (outs GPR:$Rd),
          !con((ins FtzMod:$ftz, NanMod:$nan, NegMod:$na, AbsMod:$aa, GPR:$Ra,
                    HSwz:$sa), B.Ins, (ins PNot:$Ppn, Pred:$Pp)), 0> {
    let Sched = CoupledALU;
    bit nan;
    let Inst{81} = nan;
    let Inst{86} = 0;
    let Inst{89-87} = Pp;
    let Inst{90} = Ppn;
  }
}
