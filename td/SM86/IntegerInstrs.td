//===- IntegerInstrs.td - sm_86 integer ALU instructions ----*- tablegen -*-===//
//
// IMAD, IADD3, LOP3, MOV, SHF, LEA, SEL, ISETP, PRMT, IABS, IMNMX, PLOP3.
// Bit facts: SASS_FACTS.md 1.3/1.4 (sources N, T, C, R), re-checked against
// every row of the reference TSVs by unittests/Target/SM86CorpusTest.
//
//===----------------------------------------------------------------------===//

def U32Mod : Mod<[1, 0], ["", ".U32"]>;   // bit 73: 1 = signed

//===----------------------------------------------------------------------===//
// IMAD: base 0x024, .WIDE 0x025, .HI 0x027 (N, T, C, R).
//   [73] signed (0 prints .U32)   [74] .X (add carry-in)
//   [81:83] carry-out predicate (PT = 7 when not printed)
//   [87:89] carry-in predicate, [90] its negate; !PT (0xf) unless .X
// Negation is only seen on C: '-' (or '~' in .X forms).
//===----------------------------------------------------------------------===//

class IMADInst<bits<9> op, bits<3> form, string asm, dag outs, dag ins,
               bit hasPu, bit hasX, SchedClass s>
    : ALU3<op, form, asm, outs, ins, s> {
  bit u;
  bits<3> Pu;
  bits<3> Pc;
  bit Pcn;
  let Inst{73} = u;
  let Inst{74} = hasX;
  let Inst{83-81} = !if(hasPu, Pu, 0b111);
  let Inst{89-87} = !if(hasX, Pc, 0b111);
  let Inst{90} = !if(hasX, Pcn, 1);
}

// name, opcode, mnemonic text, sched
multiclass IMADAll<string mn, bits<9> op, SchedClass s, OperandType dT = GPR,
                    OperandType cT = GPR> {
  foreach F = ALU3Forms in {
    foreach X = [0, 1] in {
      foreach P = [0, 1] in {
        defvar B = SrcOp<F.BK, "Rb", SImm, NotMod, !if(X, "nb", "")>;
        defvar C = SrcOp<F.CK, "Rc", SImm, !if(X, NotMod, NegMod), "nc", cT>;
        defvar Sfx = !if(X, "X_", "") # !if(P, "P_", "") # F.Sfx;
        def Sfx : IMADInst<op, F.Form,
            mn # "${u}" # !if(X, ".X", "") # " $Rd, " # !if(P, "$Pu, ", "") #
              "$Ra, " # B.Text # ", " # C.Text # !if(X, ", ${Pcn}$Pc", ""),
            !con((outs dT:$Rd), !if(P, (outs Pred:$Pu), (outs))),
            !con((ins U32Mod:$u, GPR:$Ra), B.Ins, C.Ins,
                 !if(X, (ins PNot:$Pcn, Pred:$Pc), (ins))),
            P, X, s>;
      }
    }
  }
}
defm IMAD_ : IMADAll<"IMAD", 0x024, CoupledFMA>;
defm IMAD_WIDE_ : IMADAll<"IMAD.WIDE", 0x025, IMADWide, GPR64, GPR64>;
defm IMAD_HI_ : IMADAll<"IMAD.HI", 0x027, IMADWide>;

// nvdisasm aliases of plain IMAD (same opcode, extra fixed bits; the
// decoder prefers them because their fixed mask is more specific).  The
// conditions are those the reference TSVs show:
//   IMAD.MOV[.U32] Rd, RZ, RZ, C     A = B = RZ (B a register, C not a UR:
//                                    `IMAD.U32 R22, RZ, RZ, UR5` stays)
//   IMAD.MOV.U32   Rd, Ra, 0x1, RZ   unsigned, B = 1, C = RZ
//   IMAD.IADD      Rd, Ra, 0x1, C    signed, B = 1
//   IMAD.SHL.U32   Rd, Ra, 2^k, RZ   unsigned, B = 2^k, C = RZ, k = 1..30
//                                    but not 16: nvdisasm 11.8 prints
//                                    `IMAD.U32 R0, R0, 0x10000, RZ` (a TSV
//                                    row too) and `IMAD.U32 R1, R2,
//                                    -0x80000000, RZ`
foreach F = [FormRR, FormRI, FormRC] in {
  defvar C = SrcOp<F.CK, "Rc", SImm, NegMod, "nc">;
  let Ra = 0xff, Rb = 0xff in
  def IMAD_MOV_ # F.Sfx : IMADInst<0x024, F.Form,
      "IMAD.MOV${u} $Rd, RZ, RZ, " # C.Text, (outs GPR:$Rd),
      !con((ins U32Mod:$u), C.Ins), 0, 0, CoupledFMA>;
}
let Imm = 1, Rc = 0xff, u = 0 in
def IMAD_MOV_U32_rir : IMADInst<0x024, 4, "IMAD.MOV.U32 $Rd, $Ra, 0x1, RZ",
                                (outs GPR:$Rd), (ins GPR:$Ra), 0, 0,
                                CoupledFMA>;
let Imm = 1, u = 1 in
def IMAD_IADD_rir : IMADInst<0x024, 4, "IMAD.IADD $Rd, $Ra, 0x1, ${nc}$Rc",
                             (outs GPR:$Rd), (ins GPR:$Ra, NegMod:$nc, GPR:$Rc),
                             0, 0, CoupledFMA>;
class IMADShlAlias<int k, string hex>
    : IMADInst<0x024, 4, "IMAD.SHL.U32 $Rd, $Ra, " # hex # ", RZ",
               (outs GPR:$Rd), (ins GPR:$Ra), 0, 0, CoupledFMA> {
  let Imm = !shl(1, k);
  let Rc = 0xff;
  let u = 0;
}
def IMAD_SHL_U32_rir_1 : IMADShlAlias<1, "0x2">;
def IMAD_SHL_U32_rir_2 : IMADShlAlias<2, "0x4">;
def IMAD_SHL_U32_rir_3 : IMADShlAlias<3, "0x8">;
def IMAD_SHL_U32_rir_4 : IMADShlAlias<4, "0x10">;
def IMAD_SHL_U32_rir_5 : IMADShlAlias<5, "0x20">;
def IMAD_SHL_U32_rir_6 : IMADShlAlias<6, "0x40">;
def IMAD_SHL_U32_rir_7 : IMADShlAlias<7, "0x80">;
def IMAD_SHL_U32_rir_8 : IMADShlAlias<8, "0x100">;
def IMAD_SHL_U32_rir_9 : IMADShlAlias<9, "0x200">;
def IMAD_SHL_U32_rir_10 : IMADShlAlias<10, "0x400">;
def IMAD_SHL_U32_rir_11 : IMADShlAlias<11, "0x800">;
def IMAD_SHL_U32_rir_12 : IMADShlAlias<12, "0x1000">;
def IMAD_SHL_U32_rir_13 : IMADShlAlias<13, "0x2000">;
def IMAD_SHL_U32_rir_14 : IMADShlAlias<14, "0x4000">;
def IMAD_SHL_U32_rir_15 : IMADShlAlias<15, "0x8000">;
def IMAD_SHL_U32_rir_17 : IMADShlAlias<17, "0x20000">;
def IMAD_SHL_U32_rir_18 : IMADShlAlias<18, "0x40000">;
def IMAD_SHL_U32_rir_19 : IMADShlAlias<19, "0x80000">;
def IMAD_SHL_U32_rir_20 : IMADShlAlias<20, "0x100000">;
def IMAD_SHL_U32_rir_21 : IMADShlAlias<21, "0x200000">;
def IMAD_SHL_U32_rir_22 : IMADShlAlias<22, "0x400000">;
def IMAD_SHL_U32_rir_23 : IMADShlAlias<23, "0x800000">;
def IMAD_SHL_U32_rir_24 : IMADShlAlias<24, "0x1000000">;
def IMAD_SHL_U32_rir_25 : IMADShlAlias<25, "0x2000000">;
def IMAD_SHL_U32_rir_26 : IMADShlAlias<26, "0x4000000">;
def IMAD_SHL_U32_rir_27 : IMADShlAlias<27, "0x8000000">;
def IMAD_SHL_U32_rir_28 : IMADShlAlias<28, "0x10000000">;
def IMAD_SHL_U32_rir_29 : IMADShlAlias<29, "0x20000000">;
def IMAD_SHL_U32_rir_30 : IMADShlAlias<30, "0x40000000">;

//===----------------------------------------------------------------------===//
// IADD3: base 0x010 (N, T, C, R 236/236).
//   negate A [72], B/C per form (SM86InstrFormats.td); '~' in .X forms
//   [74] .X   [81:83] first carry-out, [84:86] second (PT when not printed)
//   [87:89]+[90] first carry-in, [77:79]+[80] second; .X prints both,
//   otherwise both are !PT.
//===----------------------------------------------------------------------===//
class IADD3Inst<bits<3> form, string asm, dag outs, dag ins, int nout,
                bit hasX>
    : ALU3<0x010, form, asm, outs, ins, CoupledALU> {
  bits<3> Pu;
  bits<3> Pv;
  bits<3> Pp;
  bit Ppn;
  bits<3> Pq;
  bit Pqn;
  let Inst{74} = hasX;
  let Inst{83-81} = !if(!ge(nout, 1), Pu, 0b111);
  let Inst{86-84} = !if(!ge(nout, 2), Pv, 0b111);
  let Inst{89-87} = !if(hasX, Pp, 0b111);
  let Inst{90} = !if(hasX, Ppn, 1);
  let Inst{79-77} = !if(hasX, Pq, 0b111);
  let Inst{80} = !if(hasX, Pqn, 1);
}
foreach F = ALU3Forms in
  foreach X = [0, 1] in
    foreach N = [0, 1, 2] in {
      defvar NegT = !if(X, NotMod, NegMod);
      defvar B = SrcOp<F.BK, "Rb", SImm, NegT, "nb">;
      defvar C = SrcOp<F.CK, "Rc", SImm, NegT, "nc">;
      def IADD3_ # !if(X, "X_", "") # !if(N, "P" # N # "_", "") # F.Sfx :
        IADD3Inst<F.Form,
          "IADD3" # !if(X, ".X", "") # " $Rd, " #
            !cond(!eq(N, 0): "", !eq(N, 1): "$Pu, ", true: "$Pu, $Pv, ") #
            "${na}$Ra, " # B.Text # ", " # C.Text #
            !if(X, ", ${Ppn}$Pp, ${Pqn}$Pq", ""),
          !con((outs GPR:$Rd),
               !cond(!eq(N, 0): (outs), !eq(N, 1): (outs Pred:$Pu),
                     true: (outs Pred:$Pu, Pred:$Pv))),
          !con((ins NegT:$na, GPR:$Ra), B.Ins, C.Ins,
               !if(X, (ins PNot:$Ppn, Pred:$Pp, PNot:$Pqn, Pred:$Pq), (ins))),
          N, X>;
    }

//===----------------------------------------------------------------------===//
// LOP3.LUT: base 0x012 (N, T, C, R 81/81).
//   [72:79] LUT (a = 0xf0, b = 0xcc, c = 0xaa)   [80] .PAND (0)
//   [81:83] predicate output, printed first when not PT
//   [87:89]+[90] predicate input (printed always)
//===----------------------------------------------------------------------===//
class LOP3Inst<bits<3> form, string asm, dag outs, dag ins, bit hasPu>
    : ALU3<0x012, form, asm, outs, ins, CoupledALU> {
  bits<8> lut;
  bits<3> Pu;
  bits<3> Pp;
  bit Ppn;
  let Inst{79-72} = lut;
  let Inst{83-81} = !if(hasPu, Pu, 0b111);
  let Inst{89-87} = Pp;
  let Inst{90} = Ppn;
}
foreach F = ALU3Forms in
  foreach P = [0, 1] in {
    defvar B = SrcOp<F.BK, "Rb", UImm, NegMod, "">;
    defvar C = SrcOp<F.CK, "Rc", UImm, NegMod, "">;
    def LOP3_LUT_ # !if(P, "P_", "") # F.Sfx :
      LOP3Inst<F.Form, "LOP3.LUT " # !if(P, "$Pu, ", "") # "$Rd, $Ra, " #
                 B.Text # ", " # C.Text # ", $lut, ${Ppn}$Pp",
               !con(!if(P, (outs Pred:$Pu), (outs)), (outs GPR:$Rd)),
               !con((ins GPR:$Ra), B.Ins, C.Ins,
                    (ins UImm:$lut, PNot:$Ppn, Pred:$Pp)), P>;
  }

//===----------------------------------------------------------------------===//
// Two-operand ALU ops with only a B source (MOV, IABS): forms 1/4/5/6 only,
// A [24:31] and C [64:71] are 0.
//===----------------------------------------------------------------------===//
defvar BOnlyForms = [FormRR, FormIR, FormCR, FormUR];

// MOV: base 0x002 (N, C, R 22/22).  [72:75] lane mask, 0xf unless printed.
class MOVInst<bits<3> form, string asm, dag ins, bit hasMask>
    : ALU3<0x002, form, asm, (outs GPR:$Rd), ins, CoupledALU> {
  bits<4> mask;
  let Inst{75-72} = !if(hasMask, mask, 0b1111);
}
foreach F = BOnlyForms in
  foreach M = [0, 1] in {
    defvar B = SrcOp<F.BK, "Rb", UImm, NegMod, "">;
    def MOV_ # !if(M, "M_", "") # F.Sfx :
      MOVInst<F.Form, "MOV $Rd, " # B.Text # !if(M, ", $mask", ""),
              !con(B.Ins, !if(M, (ins UImm:$mask), (ins))), M>;
  }

// IABS: base 0x013 (C).
foreach F = BOnlyForms in {
  defvar B = SrcOp<F.BK, "Rb", SImm, NegMod, "">;
  def IABS_ # F.Sfx : ALU3<0x013, F.Form, "IABS $Rd, " # B.Text,
                           (outs GPR:$Rd), B.Ins, CoupledALU>;
}

//===----------------------------------------------------------------------===//
// Ops with A and B sources and a predicate operand [87:89]+[90]: SEL
// (base 0x007) and IMNMX (0x017, [73] signed, the predicate selects max).
//===----------------------------------------------------------------------===//
class ABPInst<bits<9> op, bits<3> form, string asm, dag outs, dag ins>
    : ALU3<op, form, asm, outs, ins, CoupledALU> {
  bits<3> Pp;
  bit Ppn;
  bit u;
  let Inst{89-87} = Pp;
  let Inst{90} = Ppn;
}
foreach F = BOnlyForms in {
  defvar B = SrcOp<F.BK, "Rb", UImm, NegMod, "">;
  defvar BS = SrcOp<F.BK, "Rb", SImm, NegMod, "">;
  def SEL_ # F.Sfx : ABPInst<0x007, F.Form, "SEL $Rd, $Ra, " # B.Text #
                               ", ${Ppn}$Pp", (outs GPR:$Rd),
                             !con((ins GPR:$Ra), B.Ins,
                                  (ins PNot:$Ppn, Pred:$Pp))>;
  def IMNMX_ # F.Sfx : ABPInst<0x017, F.Form, "IMNMX${u} $Rd, $Ra, " #
                                 BS.Text # ", ${Ppn}$Pp", (outs GPR:$Rd),
                               !con((ins U32Mod:$u, GPR:$Ra), BS.Ins,
                                    (ins PNot:$Ppn, Pred:$Pp))> {
    let Inst{73} = u;
  }
}

//===----------------------------------------------------------------------===//
// SHF: base 0x019 (N, T, C, R 91/91).
//   [73:74] type (0 .S64, 1 .U64, 2 .S32, 3 .U32)  [75] .W  [76] .R (0 .L)
//   [80] .HI.  Operands: Rd, A (low), B (shift), C (high).
//===----------------------------------------------------------------------===//
def ShfDir  : Mod<[0, 1], [".L", ".R"]>;
def ShfWrap : Mod<[0, 1], ["", ".W"]>;
def ShfType : Mod<[0, 1, 2, 3], [".S64", ".U64", ".S32", ".U32"]>;
def HiMod   : Mod<[0, 1], ["", ".HI"]>;
class SHFInst<bits<3> form, string asm, dag ins>
    : ALU3<0x019, form, asm, (outs GPR:$Rd), ins, CoupledALU> {
  bit dir;
  bit wrap;
  bits<2> type;
  bit hi;
  let Inst{74-73} = type;
  let Inst{75} = wrap;
  let Inst{76} = dir;
  let Inst{80} = hi;
}
foreach F = ALU3Forms in {
  defvar B = SrcOp<F.BK, "Rb", UImm, NegMod, "">;
  defvar C = SrcOp<F.CK, "Rc", UImm, NegMod, "">;
  def SHF_ # F.Sfx : SHFInst<F.Form, "SHF${dir}${wrap}${type}${hi} $Rd, $Ra, " #
                                B.Text # ", " # C.Text,
                             !con((ins ShfDir:$dir, ShfWrap:$wrap,
                                       ShfType:$type, HiMod:$hi, GPR:$Ra),
                                  B.Ins, C.Ins)>;
}

//===----------------------------------------------------------------------===//
// LEA: base 0x011 (C samples, our corpus test).
//   [72] negate A   [73] .SX32   [74] .X   [75:79] shift   [80] .HI
//   [81:83] carry-out (printed after Rd when not PT)
//   [87:89]+[90] carry-in (.X forms print it last; else !PT)
//   Plain LEA has C = RZ and does not print it; LEA.HI prints C, except
//   LEA.HI.SX32 (C = RZ, not printed).
//===----------------------------------------------------------------------===//
class LEAInst<bits<3> form, string asm, dag outs, dag ins, bit hasPu,
              bit hasX, bit hi, bit sx, bit printC>
    : ALU3<0x011, form, asm, outs, ins, CoupledALU> {
  bits<5> sh;
  bits<3> Pu;
  bits<3> Pp;
  bit Ppn;
  let Inst{73} = sx;
  let Inst{74} = hasX;
  let Inst{79-75} = sh;
  let Inst{80} = hi;
  let Inst{83-81} = !if(hasPu, Pu, 0b111);
  let Inst{89-87} = !if(hasX, Pp, 0b111);
  let Inst{90} = !if(hasX, Ppn, 1);
  let Inst{71-64} = !if(printC,
      !if(!or(!eq(form, 2), !eq(form, 3), !eq(form, 7)), Rb, Rc), 0b11111111);
}
// Variant: name, hi, sx, x, prints C
class LEAVar<string n, string m, bit hi, bit sx, bit x, bit c> {
  string Name = n;
  string Mn = m;
  bit Hi = hi;
  bit Sx = sx;
  bit X = x;
  bit PrintC = c;
}
foreach V = [LEAVar<"LEA", "LEA", 0, 0, 0, 0>,
             LEAVar<"LEA_HI", "LEA.HI", 1, 0, 0, 1>,
             LEAVar<"LEA_HI_SX32", "LEA.HI.SX32", 1, 1, 0, 0>,
             LEAVar<"LEA_X", "LEA.X", 0, 0, 1, 0>,
             LEAVar<"LEA_HI_X", "LEA.HI.X", 1, 0, 1, 1>,
             LEAVar<"LEA_HI_X_SX32", "LEA.HI.X.SX32", 1, 1, 1, 0>] in
  foreach F = !if(V.PrintC, ALU3Forms, BOnlyForms) in
    foreach P = [0, 1] in {
      defvar NegT = !if(V.X, NotMod, NegMod);
      // Bit 75 is part of the shift: B negates only in the low slot.
      defvar B = SrcOp<F.BK, "Rb", UImm, NegT,
                       !if(!or(!eq(F.Form, 1), !eq(F.Form, 5), !eq(F.Form, 6)),
                           "nb", "")>;
      defvar C = SrcOp<F.CK, "Rc", UImm, NegT, "">;
      def V.Name # _ # !if(P, "P_", "") # F.Sfx :
        LEAInst<F.Form, V.Mn # " $Rd, " # !if(P, "$Pu, ", "") # "${na}$Ra, " #
                  B.Text # !if(V.PrintC, ", " # C.Text, "") # ", $sh" #
                  !if(V.X, ", ${Ppn}$Pp", ""),
                !con((outs GPR:$Rd), !if(P, (outs Pred:$Pu), (outs))),
                !con((ins NegT:$na, GPR:$Ra), B.Ins,
                     !if(V.PrintC, C.Ins, (ins)), (ins UImm:$sh),
                     !if(V.X, (ins PNot:$Ppn, Pred:$Pp), (ins))),
                P, V.X, V.Hi, V.Sx, V.PrintC>;
    }

//===----------------------------------------------------------------------===//
// ISETP: base 0x00c (N, T, C, R 135/135).
//   [72] .EX  [73] signed (0 .U32)  [74:75] combine (AND, OR, XOR)
//   [76:78] compare (F LT EQ LE GT NE GE T)
//   [81:83] Pd, [84:86] second Pd (printed always)
//   [87:89]+[90] accumulate predicate; [68:70]+[71] the .EX carry
//   predicate (PT when not .EX).  No C source.
//===----------------------------------------------------------------------===//
def ICmp : Mod<[0, 1, 2, 3, 4, 5, 6, 7],
               [".F", ".LT", ".EQ", ".LE", ".GT", ".NE", ".GE", ".T"]>;
def BoolOp : Mod<[0, 1, 2], [".AND", ".OR", ".XOR"]>;
class ISETPInst<bits<3> form, string asm, dag ins, bit ex>
    : ALU3<0x00c, form, asm, (outs Pred:$Pu, Pred:$Pv), ins, CoupledALU> {
  bits<3> cmp;
  bit u;
  bits<2> bop;
  bits<3> Pu;
  bits<3> Pv;
  bits<3> Pp;
  bit Ppn;
  bits<3> Pe;
  bit Pen;
  let Inst{72} = ex;
  let Inst{73} = u;
  let Inst{75-74} = bop;
  let Inst{78-76} = cmp;
  let Inst{83-81} = Pu;
  let Inst{86-84} = Pv;
  let Inst{89-87} = Pp;
  let Inst{90} = Ppn;
  let Inst{70-68} = !if(ex, Pe, 0b111);
  let Inst{71} = !if(ex, Pen, 0);
  let Inst{67-64} = 0;
}
foreach F = BOnlyForms in
  foreach E = [0, 1] in {
    defvar B = SrcOp<F.BK, "Rb", SImm, NegMod, "">;
    def ISETP_ # !if(E, "EX_", "") # F.Sfx :
      ISETPInst<F.Form, "ISETP${cmp}${u}${bop}" # !if(E, ".EX", "") #
                  " $Pu, $Pv, $Ra, " # B.Text # ", ${Ppn}$Pp" #
                  !if(E, ", ${Pen}$Pe", ""),
                !con((ins ICmp:$cmp, U32Mod:$u, BoolOp:$bop, GPR:$Ra), B.Ins,
                     (ins PNot:$Ppn, Pred:$Pp),
                     !if(E, (ins PNot:$Pen, Pred:$Pe), (ins))), E>;
  }

//===----------------------------------------------------------------------===//
// PRMT: base 0x016 (C).  Rd, A, B (selector), C; [72:74] mode.
//===----------------------------------------------------------------------===//
def PrmtMode : Mod<[0, 1, 2, 3, 4, 5, 6],
                   ["", ".F4E", ".B4E", ".RC8", ".ECL", ".ECR", ".RC16"]>;
foreach F = ALU3Forms in {
  defvar B = SrcOp<F.BK, "Rb", UImm, NegMod, "">;
  defvar C = SrcOp<F.CK, "Rc", UImm, NegMod, "">;
  def PRMT_ # F.Sfx : ALU3<0x016, F.Form, "PRMT${mode} $Rd, $Ra, " # B.Text #
                              ", " # C.Text, (outs GPR:$Rd),
                           !con((ins PrmtMode:$mode, GPR:$Ra), B.Ins, C.Ins),
                           CoupledALU> {
    bits<3> mode;
    let Inst{74-72} = mode;
  }
}

//===----------------------------------------------------------------------===//
// PLOP3.LUT: 0x81c (C, our corpus test).
//   Pu [81:83], Pv [84:86]; sources Pa [87:89]+[90], Pb [77:79]+[80],
//   Pc [68:70]+[71] with [67] = 1 when Pc is a uniform predicate;
//   LUT split: bits 0..2 at [64:66], bits 3..7 at [72:76]; a second LUT
//   (for Pv) at [16:23].
//===----------------------------------------------------------------------===//
foreach U = [0, 1] in
  def PLOP3_LUT # !if(U, "_UP", "") :
    SM86Op<0x81c, "PLOP3.LUT $Pu, $Pv, ${Pan}$Pa, ${Pbn}$Pb, ${Pcn}$Pc, $lut, $lut2",
           (outs Pred:$Pu, Pred:$Pv),
           (ins PNot:$Pan, Pred:$Pa, PNot:$Pbn, Pred:$Pb, PNot:$Pcn,
                !if(U, UPred, Pred):$Pc, UImm:$lut, UImm:$lut2), CoupledALU> {
    bits<3> Pu;
    bits<3> Pv;
    bits<3> Pa;
    bit Pan;
    bits<3> Pb;
    bit Pbn;
    bits<3> Pc;
    bit Pcn;
    bits<8> lut;
    bits<8> lut2;
    let ReuseOperands = ["", "", "", ""];
    let Inst{23-16} = lut2;
    let Inst{66-64} = lut{2-0};
    let Inst{67} = U;
    let Inst{70-68} = Pc;
    let Inst{71} = Pcn;
    let Inst{76-72} = lut{7-3};
    let Inst{79-77} = Pb;
    let Inst{80} = Pbn;
    let Inst{83-81} = Pu;
    let Inst{86-84} = Pv;
    let Inst{89-87} = Pa;
    let Inst{90} = Pan;
  }

//===----------------------------------------------------------------------===//
// POPC: base 0x109, B forms 1/5/6 (C).  Variable latency (N
// needs_scoreboards: POPC/FLO/BREV).
//===----------------------------------------------------------------------===//
foreach F = [FormRR, FormCR, FormUR] in {
  defvar B = SrcOp<F.BK, "Rb", UImm, NegMod, "">;
  def POPC_ # F.Sfx : ALU3<0x109, F.Form, "POPC $Rd, " # B.Text,
                           (outs GPR:$Rd), B.Ins, Decoupled>;
}

def VoteMode : Mod<[0, 1, 2], [".ALL", ".ANY", ".EQ"]>;
//===----------------------------------------------------------------------===//
// VOTE 0x806: Rd [16:23] (RZ: not printed), Pu [81:83], predicate source
// [87:89]+[90], [72:73] mode (.ALL, .ANY, .EQ) (C; as VOTEU).
//===----------------------------------------------------------------------===//
foreach D = [0, 1] in
  def VOTE # !if(D, "_r", "") :
    SM86Op<0x806, "VOTE${mode} " # !if(D, "$Rd, ", "") # "$Pu, ${Ppn}$Pp",
           !con(!if(D, (outs GPR:$Rd), (outs)), (outs Pred:$Pu)),
           (ins VoteMode:$mode, PNot:$Ppn, Pred:$Pp), CoupledALU> {
    bits<8> Rd;
    bits<2> mode;
    bits<3> Pu;
    bits<3> Pp;
    bit Ppn;
    let ReuseOperands = ["", "", "", ""];
    let Inst{23-16} = !if(D, Rd, 0b11111111);
    let Inst{73-72} = mode;
    let Inst{83-81} = Pu;
    let Inst{89-87} = Pp;
    let Inst{90} = Ppn;
  }
