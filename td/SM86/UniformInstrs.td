//===- UniformInstrs.td - sm_86 uniform-datapath instructions -*- tablegen -*-===//
//
// UIADD3, UIMAD, ULOP3, USEL, USHF, ULEA, UISETP, UMOV, ULDC, VOTEU, R2UR.
// The uniform ALU ops reuse the GPR op's base opcode with bit 7 set (0x010
// -> 0x090, ...) and the same field layout with 6-bit uniform register
// fields (URZ = 63) and uniform predicates (UPT = 7); [91] = 1 in every
// sample (C, our corpus test).  Forms seen: 1 (UR, UR) and 4 (imm, UR).
//
//===----------------------------------------------------------------------===//

class UALU3<bits<9> op, bits<3> form, string asm, dag outs, dag ins,
            SchedClass sched> : SM86ALU<op, form, asm, outs, ins, sched> {
  bits<6> Rd;
  bits<6> Ra;
  bits<6> Rb;
  bits<6> Rc;
  bits<32> Imm;
  bit na;
  bit nb;
  bit nc;
  let ReuseOperands = ["", "", "", ""];
  let Inst{21-16} = Rd;
  let Inst{29-24} = Ra;
  let Inst{72} = na;
  // Forms 1 (B, C registers), 4 (B immediate), 2 (B in [64:69], C
  // immediate), as for the GPR ops (SASS_FACTS 1.3).
  let Inst{37-32} = !if(!eq(form, 1), Rb, Imm{5-0});
  let Inst{63-38} = !if(!eq(form, 1), {nb, 0b0000000000000000000000000},
                        Imm{31-6});
  let Inst{69-64} = !if(!eq(form, 2), Rb, Rc);
  let Inst{75} = !if(!eq(form, 2), nb, nc);
  let Inst{91} = 1;
  let UniformGuard = 1;
}
def UFormRR : SrcForm<1, "rrr", "r", "r">;
def UFormIR : SrcForm<4, "rir", "i", "r">;
def UFormRI : SrcForm<2, "rri", "r", "i">;
defvar UForms = [UFormRR, UFormIR];
defvar UForms3 = [UFormRR, UFormIR, UFormRI];

/// A uniform source: register $reg or immediate $Imm, with prefix $neg.
class USrc<string k, string reg, OperandType immT, OperandType negT,
           string neg> {
  string N = !if(!eq(k, "i"), "", neg);
  string Text = !if(!eq(N, ""), "", "${" # N # "}") #
                !if(!eq(k, "r"), "$" # reg, "$Imm");
  dag Ins = !con(!if(!eq(N, ""), (ins), !dag(ins, [negT], [N])),
                 !if(!eq(k, "r"), !dag(ins, [UGPR], [reg]), (ins immT:$Imm)));
}

// UIADD3 (0x090): as IADD3, carries are uniform predicates.
class UIADD3Inst<bits<3> form, string asm, dag outs, dag ins, int nout,
                 bit hasX, bits<9> op = 0x090>
    : UALU3<op, form, asm, outs, ins, UniformALU> {
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
foreach F = UForms in
  foreach X = [0, 1] in
    foreach N = [0, 1, 2] in {
      defvar NegT = !if(X, NotMod, NegMod);
      defvar B = USrc<F.BK, "Rb", SImm, NegT, "nb">;
      def UIADD3_ # !if(X, "X_", "") # !if(N, "P" # N # "_", "") # F.Sfx :
        UIADD3Inst<F.Form,
          "UIADD3" # !if(X, ".X", "") # " $Rd, " #
            !cond(!eq(N, 0): "", !eq(N, 1): "$Pu, ", true: "$Pu, $Pv, ") #
            "${na}$Ra, " # B.Text # ", ${nc}$Rc" #
            !if(X, ", ${Ppn}$Pp, ${Pqn}$Pq", ""),
          !con((outs UGPR:$Rd),
               !cond(!eq(N, 0): (outs), !eq(N, 1): (outs UPred:$Pu),
                     true: (outs UPred:$Pu, UPred:$Pv))),
          !con((ins NegT:$na, UGPR:$Ra), B.Ins, (ins NegT:$nc, UGPR:$Rc),
               !if(X, (ins PNot:$Ppn, UPred:$Pp, PNot:$Pqn, UPred:$Pq),
                   (ins))),
          N, X>;
    }

// UIADD3.64 (0x097): 64-bit add of uniform register pairs (C sample
// `UIADD3.64 UR26, UR26, 0x1000, URZ`; carries as UIADD3, all PT).
foreach F = UForms in {
  defvar B = !if(!eq(F.BK, "r"), "$Rb", "$Imm");
  def UIADD3_64_ # F.Sfx :
    UIADD3Inst<F.Form, "UIADD3.64 $Rd, $Ra, " # B # ", $Rc", (outs UGPR64:$Rd),
               !con((ins UGPR64:$Ra),
                    !if(!eq(F.BK, "r"), (ins UGPR64:$Rb), (ins SImm:$Imm)),
                    (ins UGPR64:$Rc)), 0, 0, 0x097>;
}

// UIMAD (0x0a4, .WIDE 0x0a5): as IMAD.
class UIMADInst<bits<9> op, bits<3> form, string asm, dag outs, dag ins,
                bit hasX, bit hasPu>
    : UALU3<op, form, asm, outs, ins, UniformALU> {
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
foreach V = [["UIMAD", "UIMAD_"], ["UIMAD.WIDE", "UIMAD_WIDE_"]] in
  foreach F = UForms3 in
    foreach X = [0, 1] in
      foreach P = [0, 1] in {
      defvar B = USrc<F.BK, "Rb", SImm, NegMod, "">;
      defvar C = USrc<F.CK, "Rc", SImm, !if(X, NotMod, NegMod), "nc">;
      def V[1] # !if(X, "X_", "") # !if(P, "P_", "") # F.Sfx :
        UIMADInst<!if(!eq(V[0], "UIMAD"), 0x0a4, 0x0a5), F.Form,
          V[0] # "${u}" # !if(X, ".X", "") # " $Rd, " # !if(P, "$Pu, ", "") #
            "$Ra, " # B.Text # ", " # C.Text # !if(X, ", ${Pcn}$Pc", ""),
          !con((outs UGPR:$Rd), !if(P, (outs UPred:$Pu), (outs))),
          !con((ins U32Mod:$u, UGPR:$Ra), B.Ins, C.Ins,
               !if(X, (ins PNot:$Pcn, UPred:$Pc), (ins))), X, P>;
    }

// ULOP3.LUT (0x092): as LOP3.
foreach F = UForms in
  foreach P = [0, 1] in {
    defvar B = USrc<F.BK, "Rb", UImm, NegMod, "">;
    def ULOP3_LUT_ # !if(P, "P_", "") # F.Sfx :
      UALU3<0x092, F.Form, "ULOP3.LUT " # !if(P, "$Pu, ", "") # "$Rd, $Ra, " #
              B.Text # ", $Rc, $lut, ${Ppn}$Pp",
            !con(!if(P, (outs UPred:$Pu), (outs)), (outs UGPR:$Rd)),
            !con((ins UGPR:$Ra), B.Ins,
                 (ins UGPR:$Rc, UImm:$lut, PNot:$Ppn, UPred:$Pp)),
            UniformALU> {
      bits<8> lut;
      bits<3> Pu;
      bits<3> Pp;
      bit Ppn;
      let Inst{79-72} = lut;
      let Inst{83-81} = !if(P, Pu, 0b111);
      let Inst{89-87} = Pp;
      let Inst{90} = Ppn;
    }
  }

// USEL (0x087): as SEL.
foreach F = UForms in {
  defvar B = USrc<F.BK, "Rb", UImm, NegMod, "">;
  def USEL_ # F.Sfx : UALU3<0x087, F.Form, "USEL $Rd, $Ra, " # B.Text #
                              ", ${Ppn}$Pp", (outs UGPR:$Rd),
                            !con((ins UGPR:$Ra), B.Ins,
                                 (ins PNot:$Ppn, UPred:$Pp)), UniformALU> {
    bits<3> Pp;
    bit Ppn;
    let Inst{89-87} = Pp;
    let Inst{90} = Ppn;
    let Inst{69-64} = 0;
  }
}

// USHF (0x099): as SHF.
foreach F = UForms3 in {
  defvar B = USrc<F.BK, "Rb", UImm, NegMod, "">;
  defvar C = USrc<F.CK, "Rc", UImm, NegMod, "">;
  def USHF_ # F.Sfx : UALU3<0x099, F.Form,
                            "USHF${dir}${wrap}${type}${hi} $Rd, $Ra, " #
                              B.Text # ", " # C.Text, (outs UGPR:$Rd),
                            !con((ins ShfDir:$dir, ShfWrap:$wrap,
                                      ShfType:$type, HiMod:$hi, UGPR:$Ra),
                                 B.Ins, C.Ins), UniformALU> {
    bit dir;
    bit wrap;
    bits<2> type;
    bit hi;
    let Inst{74-73} = type;
    let Inst{75} = wrap;
    let Inst{76} = dir;
    let Inst{80} = hi;
  }
}

// ULEA (0x091): as LEA.
foreach V = [LEAVar<"ULEA", "ULEA", 0, 0, 0, 0>,
             LEAVar<"ULEA_HI", "ULEA.HI", 1, 0, 0, 1>,
             LEAVar<"ULEA_HI_SX32", "ULEA.HI.SX32", 1, 1, 0, 0>,
             LEAVar<"ULEA_X", "ULEA.X", 0, 0, 1, 0>,
             LEAVar<"ULEA_HI_X", "ULEA.HI.X", 1, 0, 1, 1>,
             LEAVar<"ULEA_HI_X_SX32", "ULEA.HI.X.SX32", 1, 1, 1, 0>] in
  foreach F = UForms in
    foreach P = [0, 1] in {
      defvar NegT = !if(V.X, NotMod, NegMod);
      defvar B = USrc<F.BK, "Rb", UImm, NegT, "nb">;
      def V.Name # _ # !if(P, "P_", "") # F.Sfx :
        UALU3<0x091, F.Form,
              V.Mn # " $Rd, " # !if(P, "$Pu, ", "") # "${na}$Ra, " # B.Text #
                !if(V.PrintC, ", $Rc", "") # ", $sh" #
                !if(V.X, ", ${Ppn}$Pp", ""),
              !con((outs UGPR:$Rd), !if(P, (outs UPred:$Pu), (outs))),
              !con((ins NegT:$na, UGPR:$Ra), B.Ins,
                   !if(V.PrintC, (ins UGPR:$Rc), (ins)), (ins UImm:$sh),
                   !if(V.X, (ins PNot:$Ppn, UPred:$Pp), (ins))),
              UniformALU> {
        bits<5> sh;
        bits<3> Pu;
        bits<3> Pp;
        bit Ppn;
        let Inst{73} = V.Sx;
        let Inst{74} = V.X;
        let Inst{79-75} = sh;
        let Inst{80} = V.Hi;
        let Inst{83-81} = !if(P, Pu, 0b111);
        let Inst{89-87} = !if(V.X, Pp, 0b111);
        let Inst{90} = !if(V.X, Ppn, 1);
        let Inst{69-64} = !if(V.PrintC, Rc, 0b111111);
      }
    }

// UISETP (0x08c): as ISETP.
foreach F = UForms in
  foreach E = [0, 1] in {
    defvar B = USrc<F.BK, "Rb", SImm, NegMod, "">;
    def UISETP_ # !if(E, "EX_", "") # F.Sfx :
      UALU3<0x08c, F.Form, "UISETP${cmp}${u}${bop}" # !if(E, ".EX", "") #
              " $Pu, $Pv, $Ra, " # B.Text # ", ${Ppn}$Pp" #
              !if(E, ", ${Pen}$Pe", ""),
            (outs UPred:$Pu, UPred:$Pv),
            !con((ins ICmp:$cmp, U32Mod:$u, BoolOp:$bop, UGPR:$Ra), B.Ins,
                 (ins PNot:$Ppn, UPred:$Pp),
                 !if(E, (ins PNot:$Pen, UPred:$Pe), (ins))), UniformALU> {
      bits<3> cmp;
      bit u;
      bits<2> bop;
      bits<3> Pu;
      bits<3> Pv;
      bits<3> Pp;
      bit Ppn;
      bits<3> Pe;
      bit Pen;
      let Inst{72} = E;
      let Inst{73} = u;
      let Inst{75-74} = bop;
      let Inst{78-76} = cmp;
      let Inst{83-81} = Pu;
      let Inst{86-84} = Pv;
      let Inst{89-87} = Pp;
      let Inst{90} = Ppn;
      let Inst{70-68} = !if(E, Pe, 0b111);
      let Inst{71} = !if(E, Pen, 0);
      let Inst{67-64} = 0;
    }
  }

// UMOV: 0xc82 (uniform register source [32:37], [91] = 1) and 0x882
// (immediate, [91] = 0).
def UMOV_u : SM86Op<0xc82, "UMOV $Rd, $Rb", (outs UGPR:$Rd), (ins UGPR:$Rb),
                    UniformMove> {
  let UniformGuard = 1;
  bits<6> Rd;
  bits<6> Rb;
  let ReuseOperands = ["", "", "", ""];
  let Inst{21-16} = Rd;
  let Inst{37-32} = Rb;
  let Inst{91} = 1;
}
def UMOV_i : SM86Op<0x882, "UMOV $Rd, $Imm", (outs UGPR:$Rd), (ins UImm:$Imm),
                    UniformMove> {
  let UniformGuard = 1;
  bits<6> Rd;
  bits<32> Imm;
  let ReuseOperands = ["", "", "", ""];
  let Inst{21-16} = Rd;
  let Inst{63-32} = Imm;
}

// ULDC: 0xab9 c[bank][off]; 0xabb c[bank][URa+off] with a signed offset
// ([91] = 1).  [73:75] size as for memory ops.  ptxas loads the memory
// descriptor with `ULDC.64 UR4, c[0x0][0x118]` (E).  Size 5 (.64) is the
// _64 forms' alone (a UR pair), as for LDC: were it also a value of the
// 32-bit forms' size, every ULDC.64 word would decode to them (equal fixed
// bits) and name one UR as the destination.
def UldcSize : Mod<[0, 1, 2, 3, 4], [".U8", ".S8", ".U16", ".S16", ""]>;
def CBOffS : OperandType<"MemOffset"> { let Signed = 1; let Optional = 1; }
foreach W = [0, 1] in {
  def ULDC # !if(W, "_64", "") :
    SM86Op<0xab9, "ULDC${sz} $Rd, c[$Bank][$Off]",
           !if(W, (outs UGPR64:$Rd), (outs UGPR:$Rd)),
           (ins !if(W, Mod<[5], [".64"]>, UldcSize):$sz, CBIdx:$Bank,
                CBOff:$Off), UniformMove> {
    let UniformGuard = 1;
    bits<6> Rd;
    bits<3> sz;
    bits<5> Bank;
    bits<16> Off;
    let ReuseOperands = ["", "", "", ""];
    let Inst{21-16} = Rd;
    let Inst{53-38} = Off;
    let Inst{58-54} = Bank;
    let Inst{75-73} = sz;
  }
  def ULDC_UR # !if(W, "_64", "") :
    SM86Op<0xabb, "ULDC${sz} $Rd, c[$Bank]<$Ur+$Off>",
           !if(W, (outs UGPR64:$Rd), (outs UGPR:$Rd)),
           (ins !if(W, Mod<[5], [".64"]>, UldcSize):$sz, CBIdx:$Bank,
                MemUR:$Ur, CBOffS:$Off), UniformMove> {
    let UniformGuard = 1;
    bits<6> Rd;
    bits<6> Ur;
    bits<3> sz;
    bits<5> Bank;
    bits<16> Off;
    let ReuseOperands = ["", "", "", ""];
    let Inst{21-16} = Rd;
    let Inst{29-24} = Ur;
    let Inst{53-38} = Off;
    let Inst{58-54} = Bank;
    let Inst{75-73} = sz;
    let Inst{91} = 1;
  }
}

// VOTEU 0x886: URd [16:21] (URZ: not printed), UPd [81:83], predicate
// source [87:89]+[90]; [72:73] mode (.ALL, .ANY, .EQ).
// (VoteMode is defined in IntegerInstrs.td with VOTE.)
foreach D = [0, 1] in
  def VOTEU # !if(D, "_r", "") :
    SM86Op<0x886, "VOTEU${mode} " # !if(D, "$Rd, ", "") # "$Pu, ${Ppn}$Pp",
           !con(!if(D, (outs UGPR:$Rd), (outs)), (outs UPred:$Pu)),
           (ins VoteMode:$mode, PNot:$Ppn, Pred:$Pp), CoupledALU> {
    bits<6> Rd;
    bits<2> mode;
    bits<3> Pu;
    bits<3> Pp;
    bit Ppn;
    let ReuseOperands = ["", "", "", ""];
    let Inst{21-16} = !if(D, Rd, 0b111111);
    let Inst{73-72} = mode;
    let Inst{83-81} = Pu;
    let Inst{89-87} = Pp;
    let Inst{90} = Ppn;
  }

// R2UR 0x3c2: URd [16:21], Ra [24:31], optional predicate result [81:83]
// (printed first when not PT).  Variable latency (N needs_scoreboards).
// sm_90, sm_120 and sm_121 write R2UR with opcode 0x2ca
// (td/SM100/SM120Instrs.td).
foreach P = [0, 1] in
  def R2UR # !if(P, "_P", "") :
    SM86Op<0x3c2, "R2UR " # !if(P, "$Pu, ", "") # "$Rd, $Ra",
           !con(!if(P, (outs Pred:$Pu), (outs)), (outs UGPR:$Rd)),
           (ins GPR:$Ra), Decoupled>,
    OnlyOn<[TargetSM80, TargetSM86, TargetSM89, TargetSM100]> {
    bits<6> Rd;
    bits<8> Ra;
    bits<3> Pu;
    let ReuseOperands = ["", "", "", ""];
    let Inst{21-16} = Rd;
    let Inst{31-24} = Ra;
    let Inst{83-81} = !if(P, Pu, 0b111);
  }

//===----------------------------------------------------------------------===//
// USGXT, UFLO, UPOPC, UBREV, UPRMT, UPLOP3: the uniform versions of SGXT,
// FLO, POPC, BREV, PRMT, PLOP3 (BitInstrs.td, IntegerInstrs.td), only in
// the operand forms and with the modifiers the TSV rows show (our corpus
// test checks every row both ways):
//   USGXT 0x09a form 4, [73] signed (`USGXT UR4, UR4, 0x18` 0x0200 in the
//     high word; `USGXT.U32` 0);
//   UFLO 0x0bd, UPOPC 0x0bf, UBREV 0x0be: form 1, the source in B
//     [32:37]; UFLO writes no predicate ([81:83] = 7) and has [74] .SH
//     (`UFLO.U32.SH UR4, UR4`);
//   UPRMT 0x096 forms 1 and 4 (`UPRMT UR4, URZ, 0x5410, UR4`), no mode;
//   UPLOP3.LUT 0x89c: PLOP3's layout with uniform predicates; no row
//     negates a source, so the negate bits [90], [80], [71] are 0.
// All uniform ALU ops: UniformALU (SASS_FACTS 2.2 Udp).
//===----------------------------------------------------------------------===//
def USGXT_rir : UALU3<0x09a, 4, "USGXT${s} $Rd, $Ra, $Imm", (outs UGPR:$Rd),
                      (ins SgxtU:$s, UGPR:$Ra, UImm:$Imm), UniformALU> {
  bit s;
  let Inst{73} = s;
}
def UFLO_rrr : UALU3<0x0bd, 1, "UFLO.U32${sh} $Rd, $Rb", (outs UGPR:$Rd),
                     (ins FloSh:$sh, UGPR:$Rb), UniformALU> {
  bit sh;
  let Inst{74} = sh;
  let Inst{83-81} = 0b111;
}
def UPOPC_rrr : UALU3<0x0bf, 1, "UPOPC $Rd, $Rb", (outs UGPR:$Rd),
                      (ins UGPR:$Rb), UniformALU>;
def UBREV_rrr : UALU3<0x0be, 1, "UBREV $Rd, $Rb", (outs UGPR:$Rd),
                      (ins UGPR:$Rb), UniformALU>;
foreach F = UForms in {
  defvar B = USrc<F.BK, "Rb", UImm, NegMod, "">;
  def UPRMT_ # F.Sfx :
    UALU3<0x096, F.Form, "UPRMT $Rd, $Ra, " # B.Text # ", $Rc",
          (outs UGPR:$Rd), !con((ins UGPR:$Ra), B.Ins, (ins UGPR:$Rc)),
          UniformALU>;
}
def UPLOP3_LUT :
  SM86Op<0x89c, "UPLOP3.LUT $Pu, $Pv, $Pa, $Pb, $Pc, $lut, $lut2",
         (outs UPred:$Pu, UPred:$Pv),
         (ins UPred:$Pa, UPred:$Pb, UPred:$Pc, UImm:$lut, UImm:$lut2),
         UniformALU> {
  bits<3> Pu;
  bits<3> Pv;
  bits<3> Pa;
  bits<3> Pb;
  bits<3> Pc;
  bits<8> lut;
  bits<8> lut2;
  let ReuseOperands = ["", "", "", ""];
  let UniformGuard = 1;
  let Inst{23-16} = lut2;
  let Inst{66-64} = lut{2-0};
  let Inst{70-68} = Pc;
  let Inst{76-72} = lut{7-3};
  let Inst{79-77} = Pb;
  let Inst{83-81} = Pu;
  let Inst{86-84} = Pv;
  let Inst{89-87} = Pa;
}
