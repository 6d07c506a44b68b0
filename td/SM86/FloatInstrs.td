//===- FloatInstrs.td - sm_86 FP32 arithmetic ---------------*- tablegen -*-===//
//
// FADD, FMUL, FFMA, FSETP (N, C, R; our corpus test).  Source modifiers:
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
// decoded).
def FmulScale : Mod<[4, 3, 2], ["", ".D2", ".D4"]>;
foreach F = BOnlyForms in {
  defvar B = SrcOp<F.BK, "Rb", FImm, NegMod, "nb", GPR, "ab">;
  def FMUL_ # F.Sfx :
    FPInst<0x020, F.Form, "FMUL${scale}${ftz}${rnd}${sat} $Rd, ${na}${aa}$Ra${aa}, " #
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
// sample (source and destination width); [78:79] rounding (C).
def I2FPSign : Mod<[0, 1], [".U32", ".S32"]>;
foreach F = [FormRR, FormCR, FormUR] in {
  defvar B = SrcOp<F.BK, "Rb", UImm, NegMod, "">;
  def I2FP_F32_ # F.Sfx :
    ALU3<0x045, F.Form, "I2FP.F32${sgn}${rnd} $Rd, " # B.Text, (outs GPR:$Rd),
         !con((ins I2FPSign:$sgn, RndMod:$rnd), B.Ins), CoupledALU> {
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
