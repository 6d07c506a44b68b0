//===- IntSIMDInstrs.td - IDP, VABSDIFF4: integer ops on packed bytes -*- tablegen -*-===//
//
// Every form is one that rows of shared/reference/sm_{86,80}.encodings.tsv
// exercise (our corpus test checks every row both ways).  Layout as ALU3.
//
//===----------------------------------------------------------------------===//

// IDP 0x026: dot product of 4 byte pairs (.4A) or 2 half/byte pairs
// (.2A.LO) of A and B, plus C.  B forms 1 and 5.  [73] A signed, [74] B
// signed (`IDP.4A.S8.U8` 0x02ff, `IDP.4A.U8.S8` 0x040f in the high word),
// [76] .2A (`IDP.2A.LO.S16.S8` 0x16ff).  Every .2A row is .LO.
// CoupledFMA (SASS_FACTS 2.1: IDP4).
def IdpA8 : Mod<[0, 1], [".U8", ".S8"]>;
def IdpA16 : Mod<[0, 1], [".U16", ".S16"]>;
def IdpB8 : Mod<[0, 1], [".U8", ".S8"]>;
foreach M = [0, 1] in
  foreach F = [FormRR, FormCR] in {
    defvar B = SrcOp<F.BK, "Rb", UImm, NegMod, "">;
    def IDP_ # !if(M, "2A_LO_", "4A_") # F.Sfx :
      ALU3<0x026, F.Form, "IDP" # !if(M, ".2A.LO", ".4A") #
                            "${sa}${sb} $Rd, $Ra, " # B.Text # ", $Rc",
           (outs GPR:$Rd),
           !con((ins !if(M, IdpA16, IdpA8):$sa, IdpB8:$sb, GPR:$Ra), B.Ins,
                (ins GPR:$Rc)), CoupledFMA> {
      bit sa;
      bit sb;
      let Inst{73} = sa;
      let Inst{74} = sb;
      let Inst{76} = M;
    }
  }

// VABSDIFF4 0x015 (form 1): |A - B| per byte, [75] .ACC (sum into C).
// Every row is .U8 and writes no predicate ([81:83] = 7).  No ptxas
// schedule checks its latency: CoupledALU as the other integer SIMD ops.
def AccMod : Mod<[0, 1], ["", ".ACC"]>;
def VABSDIFF4_U8 :
  ALU3<0x015, 1, "VABSDIFF4.U8${acc} $Rd, $Ra, $Rb, $Rc", (outs GPR:$Rd),
       (ins AccMod:$acc, GPR:$Ra, GPR:$Rb, GPR:$Rc), CoupledALU> {
  bit acc;
  let Inst{75} = acc;
  let Inst{83-81} = 0b111;
}

// VABSDIFF 0x014: |A - B| + C of 32-bit integers, PTX sad.u32/sad.s32
// (CUDA __usad/__sad).  ALU3's operand slots (forms 1 rr, 4 ir, 2 ri seen;
// the others by the layout); [73] signed (printed as nothing, .U32
// otherwise: nvdisasm 11.8's text); [81:83] = 7 (a predicate result nobody
// writes).  E: ptxas 13 for test/MC/Inputs/sad_forms.ptx on sm_80/86/89/90
// and sm_100 (`VABSDIFF R13, R11, R10, R0` 0x004fc800000e0200_
// 0000000a0b0d7214, `VABSDIFF.U32 R15, R0, R15, 0x3` 0x040fe200000e000f_
// 00000003000f7414), the text nvdisasm's word for word.  No ptxas schedule
// checks its latency: CoupledALU as VABSDIFF4.
foreach F = ALU3Forms in {
  defvar B = SrcOp<F.BK, "Rb", UImm, NegMod, "">;
  defvar C = SrcOp<F.CK, "Rc", UImm, NegMod, "">;
  def VABSDIFF_ # F.Sfx :
    ALU3<0x014, F.Form, "VABSDIFF${u} $Rd, $Ra, " # B.Text # ", " # C.Text,
         (outs GPR:$Rd), !con((ins U32Mod:$u, GPR:$Ra), B.Ins, C.Ins),
         CoupledALU> {
    bit u;
    let Inst{73} = u;
    let Inst{83-81} = 0b111;
  }
}
