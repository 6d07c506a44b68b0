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
