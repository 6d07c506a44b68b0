//===- SM100Uniform.td - Blackwell's uniform registers -----*- tablegen -*-===//
//
// On sm_100, sm_120 and sm_121 a uniform register is an 8-bit field and URZ
// is 0xff in it (sm_80 to sm_90: 6 bits, URZ 0x3f).  Evidence (E = our
// decoding of `ptxas -arch=sm_100 / sm_120` output, CUDA 13.0, the corpus of
// test/MC/SM100/ptxas-roundtrip.test): every uniform ALU word of the corpus
// holds 0xff where sm_90's holds 0x3f and is otherwise sm_90's word, e.g.
// the shared-window address `ULEA UR4, UR5, UR4, 0x18` 0x000fe2000f8ec0ff_
// 0000000405047291 (sm_90: ...c03f_...), `UIADD3 UR4, UR5, 0x2000, URZ`
// 0x000fe2000fffe0ff_0000200005047890, `UMOV UR4, URZ` 0x000fe20008000000_
// 000000ff00047c82; and ptxas numbers uniform registers past UR63 when
// many are live (a loop over 90 uniform accumulators: `UMOV UR77, 0x19`
// 0x...4d7882, `IMAD R11, RZ, RZ, UR76` with 0x4c in [32:39]).  tp-tblgen
// marks every 8-bit uniform register field (FieldRef::WideUR): 0xff is URZ,
// 0x3f is UR63 (the value sass::UR63, since tp's URZ is 63), the others
// UR0..UR254 by number.
//
// These defs are the Blackwell encodings (EncodingOn) of the uniform forms
// of SM86/UniformInstrs.td: the same operands and text, every UR field
// widened to 8 bits ([16:23] Rd, [24:31] Ra, [32:39] B, [64:71] C), every
// URZ constant 0xff.  Seen in the corpus (E, sm_100 and sm_120): UIADD3
// forms 1 and 4 with and without a carry-out, UIADD3.64 form 1 (sm_120),
// ULEA form 1 with and without carry-out, ULEA.HI.X, USHF.L.U32 (form 4),
// USHF.R.S32.HI (form 1), USEL, UISETP, UIMAD forms 1 and 4, UIMAD.WIDE.U32
// forms 1 and 4, UMOV UR, URZ.  The others follow their sm_90 siblings with
// the same widening (not confirmed by a Blackwell word).
//
//===----------------------------------------------------------------------===//

/// UALU3 (SM86/UniformInstrs.td) with 8-bit uniform register fields.
class BwUALU3<bits<9> op, bits<3> form, string asm, dag outs, dag ins,
              SchedClass sched> : SM86ALU<op, form, asm, outs, ins, sched> {
  bits<8> Rd;
  bits<8> Ra;
  bits<8> Rb;
  bits<8> Rc;
  bits<32> Imm;
  bit na;
  bit nb;
  bit nc;
  let ReuseOperands = ["", "", "", ""];
  let Inst{23-16} = Rd;
  let Inst{31-24} = Ra;
  let Inst{72} = na;
  let Inst{39-32} = !if(!eq(form, 1), Rb, Imm{7-0});
  let Inst{63-40} = !if(!eq(form, 1), {nb, 0b00000000000000000000000},
                        Imm{31-8});
  let Inst{71-64} = !if(!eq(form, 2), Rb, Rc);
  let Inst{75} = !if(!eq(form, 2), nb, nc);
  let Inst{91} = 1;
  let UniformGuard = 1;
}

// UIADD3, UIADD3.64.
class BwUIADD3Inst<bits<3> form, string asm, dag outs, dag ins, int nout,
                   bit hasX, bits<9> op = 0x090>
    : BwUALU3<op, form, asm, outs, ins, UniformALU> {
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
      defvar Name = "UIADD3_" # !if(X, "X_", "") # !if(N, "P" # N # "_", "") #
                    F.Sfx;
      def Name # _SM100 :
        BwUIADD3Inst<F.Form,
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
          N, X>,
        EncodingOn<Name, BlackwellTargets>;
    }
foreach F = UForms in {
  defvar B = !if(!eq(F.BK, "r"), "$Rb", "$Imm");
  def UIADD3_64_ # F.Sfx # _SM100 :
    BwUIADD3Inst<F.Form, "UIADD3.64 $Rd, $Ra, " # B # ", $Rc",
                 (outs UGPR64:$Rd),
                 !con((ins UGPR64:$Ra),
                      !if(!eq(F.BK, "r"), (ins UGPR64:$Rb), (ins SImm:$Imm)),
                      (ins UGPR64:$Rc)), 0, 0, 0x097>,
    EncodingOn<"UIADD3_64_" # F.Sfx, BlackwellTargets>;
}

// UIADD3.64 with a negated second source (E, sm_120: `sub.s64` on
// uniform values, 0x004fe2000fffe0ff_800000041a067297 is `UIADD3.64 UR6,
// UR26, -UR4, URZ`; [63] as UIADD3's negate of B).  sm_90's UIADD3.64 has
// no negate: a form of its own, the negation spelled in its text.
def UIADD3_64_NEG_rrr :
  BwUIADD3Inst<1, "UIADD3.64 $Rd, $Ra, -$Rb, $Rc", (outs UGPR64:$Rd),
               (ins UGPR64:$Ra, UGPR64:$Rb, UGPR64:$Rc), 0, 0, 0x097>,
  OnlyOn<ConsumerBlackwell> {
  let Inst{63} = 1;
}

// UIMAD, UIMAD.WIDE.
class BwUIMADInst<bits<9> op, bits<3> form, string asm, dag outs, dag ins,
                  bit hasX, bit hasPu>
    : BwUALU3<op, form, asm, outs, ins, UniformALU> {
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
      defvar Name = V[1] # !if(X, "X_", "") # !if(P, "P_", "") # F.Sfx;
      def Name # _SM100 :
        BwUIMADInst<!if(!eq(V[0], "UIMAD"), 0x0a4, 0x0a5), F.Form,
          V[0] # "${u}" # !if(X, ".X", "") # " $Rd, " # !if(P, "$Pu, ", "") #
            "$Ra, " # B.Text # ", " # C.Text # !if(X, ", ${Pcn}$Pc", ""),
          !con((outs UGPR:$Rd), !if(P, (outs UPred:$Pu), (outs))),
          !con((ins U32Mod:$u, UGPR:$Ra), B.Ins, C.Ins,
               !if(X, (ins PNot:$Pcn, UPred:$Pc), (ins))), X, P>,
        EncodingOn<Name, BlackwellTargets>;
    }

// ULOP3.LUT.
foreach F = UForms in
  foreach P = [0, 1] in {
    defvar B = USrc<F.BK, "Rb", UImm, NegMod, "">;
    defvar Name = "ULOP3_LUT_" # !if(P, "P_", "") # F.Sfx;
    def Name # _SM100 :
      BwUALU3<0x092, F.Form, "ULOP3.LUT " # !if(P, "$Pu, ", "") # "$Rd, $Ra, " #
                B.Text # ", $Rc, $lut, ${Ppn}$Pp",
              !con(!if(P, (outs UPred:$Pu), (outs)), (outs UGPR:$Rd)),
              !con((ins UGPR:$Ra), B.Ins,
                   (ins UGPR:$Rc, UImm:$lut, PNot:$Ppn, UPred:$Pp)),
              UniformALU>,
      EncodingOn<Name, BlackwellTargets> {
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

// USEL: no C operand ([64:71] = 0, E: `USEL UR7, UR4, URZ, UP1`
// 0x000fe40008800000_000000ff04077287).
foreach F = UForms in {
  defvar B = USrc<F.BK, "Rb", UImm, NegMod, "">;
  def USEL_ # F.Sfx # _SM100 :
    BwUALU3<0x087, F.Form, "USEL $Rd, $Ra, " # B.Text # ", ${Ppn}$Pp",
            (outs UGPR:$Rd),
            !con((ins UGPR:$Ra), B.Ins, (ins PNot:$Ppn, UPred:$Pp)),
            UniformALU>,
    EncodingOn<"USEL_" # F.Sfx, BlackwellTargets> {
    bits<3> Pp;
    bit Ppn;
    let Inst{89-87} = Pp;
    let Inst{90} = Ppn;
    let Inst{71-64} = 0;
  }
}

// USHF.
foreach F = UForms3 in {
  defvar B = USrc<F.BK, "Rb", UImm, NegMod, "">;
  defvar C = USrc<F.CK, "Rc", UImm, NegMod, "">;
  def USHF_ # F.Sfx # _SM100 :
    BwUALU3<0x099, F.Form,
            "USHF${dir}${wrap}${type}${hi} $Rd, $Ra, " # B.Text # ", " #
              C.Text, (outs UGPR:$Rd),
            !con((ins ShfDir:$dir, ShfWrap:$wrap, ShfType:$type, HiMod:$hi,
                      UGPR:$Ra), B.Ins, C.Ins), UniformALU>,
    EncodingOn<"USHF_" # F.Sfx, BlackwellTargets> {
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

// ULEA: the forms without a C operand hold URZ (0xff) there.
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
      defvar Name = V.Name # _ # !if(P, "P_", "") # F.Sfx;
      def Name # _SM100 :
        BwUALU3<0x091, F.Form,
                V.Mn # " $Rd, " # !if(P, "$Pu, ", "") # "${na}$Ra, " #
                  B.Text # !if(V.PrintC, ", $Rc", "") # ", $sh" #
                  !if(V.X, ", ${Ppn}$Pp", ""),
                !con((outs UGPR:$Rd), !if(P, (outs UPred:$Pu), (outs))),
                !con((ins NegT:$na, UGPR:$Ra), B.Ins,
                     !if(V.PrintC, (ins UGPR:$Rc), (ins)), (ins UImm:$sh),
                     !if(V.X, (ins PNot:$Ppn, UPred:$Pp), (ins))),
                UniformALU>,
        EncodingOn<Name, BlackwellTargets> {
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
        let Inst{71-64} = !if(V.PrintC, Rc, 0xff);
      }
    }

// UISETP.
foreach F = UForms in
  foreach E = [0, 1] in {
    defvar B = USrc<F.BK, "Rb", SImm, NegMod, "">;
    defvar Name = "UISETP_" # !if(E, "EX_", "") # F.Sfx;
    def Name # _SM100 :
      BwUALU3<0x08c, F.Form, "UISETP${cmp}${u}${bop}" # !if(E, ".EX", "") #
                " $Pu, $Pv, $Ra, " # B.Text # ", ${Ppn}$Pp" #
                !if(E, ", ${Pen}$Pe", ""),
              (outs UPred:$Pu, UPred:$Pv),
              !con((ins ICmp:$cmp, U32Mod:$u, BoolOp:$bop, UGPR:$Ra), B.Ins,
                   (ins PNot:$Ppn, UPred:$Pp),
                   !if(E, (ins PNot:$Pen, UPred:$Pe), (ins))), UniformALU>,
      EncodingOn<Name, BlackwellTargets> {
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

// UMOV from a uniform register (0xc82) and from an immediate (0x882).
def UMOV_u_SM100 : SM86Op<0xc82, "UMOV $Rd, $Rb", (outs UGPR:$Rd),
                          (ins UGPR:$Rb), UniformMove>,
                   EncodingOn<"UMOV_u", BlackwellTargets> {
  let UniformGuard = 1;
  bits<8> Rd;
  bits<8> Rb;
  let ReuseOperands = ["", "", "", ""];
  let Inst{23-16} = Rd;
  let Inst{39-32} = Rb;
  let Inst{91} = 1;
}
def UMOV_i_SM100 : SM86Op<0x882, "UMOV $Rd, $Imm", (outs UGPR:$Rd),
                          (ins UImm:$Imm), UniformMove>,
                   EncodingOn<"UMOV_i", BlackwellTargets> {
  let UniformGuard = 1;
  bits<8> Rd;
  bits<32> Imm;
  let ReuseOperands = ["", "", "", ""];
  let Inst{23-16} = Rd;
  let Inst{63-32} = Imm;
}
