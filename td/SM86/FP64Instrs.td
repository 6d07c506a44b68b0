//===- FP64Instrs.td - sm_86 double-precision ALU -----------*- tablegen -*-===//
//
// DADD, DMUL, DFMA, DSETP (our corpus test over every sm_86/sm_80 TSV row of
// these mnemonics; N OpDAdd/OpDMul/OpDFma/OpDSetP agree).  Registers are
// even-aligned pairs, printed by their first register.  Same layout as the
// FP32 ops (SM86InstrFormats.td, FloatInstrs.td):
//   negate/abs of A [72]/[73], of the low slot [63]/[62], of the [64:71]
//   slot [75]/[74]; [78:79] rounding (.RM .RP .RZ; `DADD.RM R10, R12, R10`
//   has 0x4000 in the high word, `DMUL.RZ` 0xc000).
// No .FTZ or .SAT: no row sets [77] or [80].
// Immediates are the high 32 bits of an f64 ([32:63]; `DADD R10, R2, 1`
// holds 0x3ff00000, `DMUL R16, R16, 2.2250738585072013831e-308` 0x00100000).
// Schedule class FP64Sched (SM86Schedule.td): variable latency where FP64
// is "redirected" (sm_86: SASS_FACTS 2.1), fixed on sm_90 and sm_100.
//
//===----------------------------------------------------------------------===//

/// DADD/DMUL/DFMA with the rounding field.
class DPInst<bits<9> op, bits<3> form, string asm, dag ins>
    : ALU3<op, form, asm, (outs GPR64:$Rd), ins, FP64Sched> {
  bits<2> rnd;
  let Inst{79-78} = rnd;
}

// DADD 0x029: as FADD the second source sits in the C slot -- but unlike
// FADD also as a register: `@!P1 DADD R14, R14, R18` has R18 in [64:71] and
// 0 in [32:39]; `DADD R16, R34, -R16` sets [75], `DADD R10, |R4|, |R6|`
// [73] and [74]; `DADD R14, R12.reuse, R18.reuse` sets reuse A and C.
// Forms 1, 2 (imm), 3 (c[][]), 7 (UR); in form 1 the register is ALU3's
// C operand ([64:71], [75]/[74]).
foreach F = [FormRR, FormRI, FormRC, FormRU] in {
  defvar C = SrcOp<F.CK, "Rc", DImmHi, NegMod, "nc", GPR64, "ac">;
  def DADD_ # F.Sfx :
    DPInst<0x029, F.Form, "DADD${rnd} $Rd, ${na}${aa}$Ra${aa}, " # C.Text,
           !con((ins RndMod:$rnd, NegMod:$na, AbsMod:$aa, GPR64:$Ra),
                C.Ins)>;
}

// DMUL 0x028: B in the B slot, forms 1, 4, 5, 6 (as FMUL, no scale field:
// no row sets [84:86]).  `DMUL R2, R16, |R2|` sets [62], `DMUL R24, R14,
// -R10` [63].
foreach F = BOnlyForms in {
  defvar B = SrcOp<F.BK, "Rb", DImmHi, NegMod, "nb", GPR64, "ab">;
  def DMUL_ # F.Sfx :
    DPInst<0x028, F.Form, "DMUL${rnd} $Rd, ${na}${aa}$Ra${aa}, " # B.Text,
           !con((ins RndMod:$rnd, NegMod:$na, AbsMod:$aa, GPR64:$Ra),
                B.Ins)>;
}

// DFMA 0x02b: three sources, all seven forms (as FFMA).
// `DFMA R12, -R10, R8, 1` (form 2): R8 in [64:71], [72] set, 0x3ff00000 in
// [32:63]; `DFMA R28, -R22, R2, -UR4` (form 7) sets [63] for the UR.
foreach F = ALU3Forms in {
  defvar B = SrcOp<F.BK, "Rb", DImmHi, NegMod, "nb", GPR64, "ab">;
  defvar C = SrcOp<F.CK, "Rc", DImmHi, NegMod, "nc", GPR64, "ac">;
  def DFMA_ # F.Sfx :
    DPInst<0x02b, F.Form, "DFMA${rnd} $Rd, ${na}${aa}$Ra${aa}, " # B.Text #
                            ", " # C.Text,
           !con((ins RndMod:$rnd, NegMod:$na, AbsMod:$aa, GPR64:$Ra), B.Ins,
                C.Ins)>;
}

// DSETP 0x02a: as FSETP ([76:79] compare, [74:75] combine, Pu [81:83], Pv
// [84:86], accumulate predicate [87:89]+[90]) but with FADD's forms: a
// register in [32:39] (form 1, reuse slot C: `DSETP.MAX.AND P2, P3, R46,
// R54.reuse`), immediate form 2, c[][] form 3, UR form 7.  Compare code 0
// prints .MIN and 15 .MAX (`DSETP.MIN.AND P1, P2, R8, R10, PT` has 0 in
// [76:79], `DSETP.MAX.AND P0, P3, RZ, R18, PT` 15); the others as FSETP.
// No .FTZ (no row sets [80]).
def DCmp : Mod<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
               [".MIN", ".LT", ".EQ", ".LE", ".GT", ".NE", ".GE", ".NUM",
                ".NAN", ".LTU", ".EQU", ".LEU", ".GTU", ".NEU", ".GEU",
                ".MAX"]>;
foreach F = [FormRR, FormRI, FormRC, FormRU] in {
  defvar IsR = !eq(F.Sfx, "rrr");
  defvar B = !if(IsR, SrcOp<"r", "Rb", DImmHi, NegMod, "nb", GPR64, "ab">,
                      SrcOp<F.CK, "Rc", DImmHi, NegMod, "nc", GPR64, "ac">);
  def DSETP_ # F.Sfx :
    ALU3<0x02a, F.Form, "DSETP${cmp}${bop} $Pu, $Pv, ${na}${aa}$Ra${aa}, " #
           B.Text # ", ${Ppn}$Pp", (outs Pred:$Pu, Pred:$Pv),
         !con((ins DCmp:$cmp, BoolOp:$bop, NegMod:$na, AbsMod:$aa,
                   GPR64:$Ra), B.Ins, (ins PNot:$Ppn, Pred:$Pp)),
         FP64Sched> {
    bits<4> cmp;
    bits<2> bop;
    bits<3> Pu;
    bits<3> Pv;
    bits<3> Pp;
    bit Ppn;
    let ReuseOperands = ["Ra", "", "Rb", ""];
    let Inst{75-74} = bop;
    let Inst{79-76} = cmp;
    let Inst{83-81} = Pu;
    let Inst{86-84} = Pv;
    let Inst{89-87} = Pp;
    let Inst{90} = Ppn;
  }
}
