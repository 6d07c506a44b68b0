//===- FloatMiscInstrs.td - FRND, FSET, FCHK, FSWZADD -------*- tablegen -*-===//
//
// FP32/FP64 ops beyond the arithmetic of FloatInstrs.td.  Every form is
// one that rows of shared/reference/sm_{86,80}.encodings.tsv exercise (our
// corpus test checks every row both ways); source modifiers and modifier
// values no row shows are left out.  Layout as ALU3 (SM86InstrFormats.td).
//
//===----------------------------------------------------------------------===//

// FRND: round to an integral value.  0x107 (F32, F16), 0x113 (F64); B
// forms 1 and 5 (F16: no row has a c[] source).  [75:76] destination and [84:85] source type, equal in
// every row (F16 1, F32 2 not printed, F64 3: `FRND.F16.CEIL R7, R2` has
// 0x108800 in the high word, `FRND.F64 R14, R4` 0x301800); [78:79]
// rounding ("" nearest, .FLOOR, .CEIL, .TRUNC, as F2I); [80] .FTZ
// (`@P0 FRND.FTZ.FLOOR R22, R21`).  Variable latency (N needs_scoreboards:
// FRND with the conversions; SASS_FACTS 2.1).
class FrndVar<string name, bits<9> op, string text, bits<2> ty> {
  string Name = name;
  bits<9> Op = op;
  string Text = text;
  bits<2> Ty = ty;
}
foreach V = [FrndVar<"", 0x107, "", 2>, FrndVar<"F16_", 0x107, ".F16", 1>,
             FrndVar<"F64_", 0x113, ".F64", 3>] in
  foreach F = !if(!eq(V.Ty, 1), [FormRR], [FormRR, FormCR]) in {
    defvar B = SrcOp<F.BK, "Rb", FImm, NegMod, "">;
    def FRND_ # V.Name # F.Sfx :
      ALU3<V.Op, F.Form, "FRND${ftz}" # V.Text # "${rnd} $Rd, " # B.Text,
           !if(!eq(V.Ty, 3), (outs GPR64:$Rd), (outs GPR:$Rd)),
           !con((ins FtzMod:$ftz, F2IRnd:$rnd), B.Ins), Decoupled> {
      bit ftz;
      bits<2> rnd;
      let Inst{76-75} = V.Ty;
      let Inst{79-78} = rnd;
      let Inst{80} = ftz;
      let Inst{85-84} = V.Ty;
    }
  }

// FSET 0x00a: compare into a register (1.0 or 0 with .BF).  B forms 1 and
// 5.  As FSETP: [76:79] compare, [80] .FTZ (`FSET.BF.LT.FTZ.AND R52, R41,
// R52, PT` has 0x03811000), predicate [87:89]+[90]; [73] |A|
// (`FSET.BF.GE.AND R12, |R12|, c[0x0][0x1b8], PT`).  Every row is .BF and
// .AND ([74:75] = 0), so neither is a field here; no row negates a source
// or takes |B|.  CoupledALU (SASS_FACTS 2.1: FSETP/FSET).
foreach F = [FormRR, FormCR] in {
  defvar B = SrcOp<F.BK, "Rb", FImm, NegMod, "">;
  def FSET_BF_ # F.Sfx :
    ALU3<0x00a, F.Form, "FSET.BF${cmp}${ftz}.AND $Rd, ${aa}$Ra${aa}, " #
                          B.Text # ", ${Ppn}$Pp", (outs GPR:$Rd),
         !con((ins FCmp:$cmp, FtzMod:$ftz, AbsMod:$aa, GPR:$Ra), B.Ins,
              (ins PNot:$Ppn, Pred:$Pp)), CoupledALU> {
    bits<4> cmp;
    bit ftz;
    bits<3> Pp;
    bit Ppn;
    let Inst{79-76} = cmp;
    let Inst{80} = ftz;
    let Inst{89-87} = Pp;
    let Inst{90} = Ppn;
  }
}

// FCHK 0x102: checks A / B for the slow path of a division; Pu [81:83]
// (`FCHK P2, R0, 6890499` has 0x40000 in the high word), Rd = 0.  B forms
// 1, 4, 5, 6; negate/abs of A [72]/[73] (`FCHK P1, |R29|, 10`), of B
// [63]/[62] (`FCHK P0, R11, -UR5`).  Variable latency (MUFU-class helper:
// ptxas waits on a scoreboard before the branch on its predicate, E).
foreach F = BOnlyForms in {
  defvar B = SrcOp<F.BK, "Rb", FImm, NegMod, "nb", GPR, "ab">;
  def FCHK_ # F.Sfx :
    ALU3<0x102, F.Form, "FCHK $Pu, ${na}${aa}$Ra${aa}, " # B.Text,
         (outs Pred:$Pu), !con((ins NegMod:$na, AbsMod:$aa, GPR:$Ra), B.Ins),
         Decoupled> {
    bits<3> Pu;
    let Inst{83-81} = Pu;
  }
}

// FSWZADD 0x022 (form 4 layout: the lane pattern in [32:39], C [64:71]):
// per-quad-lane add/subtract.  [77] .NDV in every row (so not a field).
// Each two bits of the pattern print as two letters, most significant
// first; the rows show the codes 0 "PP" and 3 "ZP" only, as the three
// patterns 0x00, 0xcc, 0xf0 (`FSWZADD.NDV R20, R21, R20, ZPPPZPPP` holds
// 0xcc), and only those are accepted.  FP32 add: CoupledFMA (as FADD; no
// ptxas schedule checks it).
def SwzPattern : Mod<[0x00, 0xcc, 0xf0], ["PPPPPPPP", "ZPPPZPPP", "ZPZPPPPP"]>;
def FSWZADD_NDV :
  ALU3<0x022, 4, "FSWZADD.NDV $Rd, $Ra, $Rc, $pat", (outs GPR:$Rd),
       (ins GPR:$Ra, GPR:$Rc, SwzPattern:$pat), CoupledFMA> {
  bits<8> pat;
  let Inst{39-32} = pat;
  let Inst{63-40} = 0;
  let Inst{77} = 1;
}
