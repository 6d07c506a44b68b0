//===- AtomicInstrs.td - sm_86 atomics and reductions -------*- tablegen -*-===//
//
// ATOMS (shared memory).  Every bit below is read off the reference TSV
// rows (sm_86 and sm_80 encodings.tsv, checked both ways by the corpus
// test); only the ops, types and sizes the rows show are described.
// Scheduling: a memory op (SASS_FACTS 2.1), class MemAtomic.
//
//===----------------------------------------------------------------------===//

//===----------------------------------------------------------------------===//
// ATOMS: 0x38c (register address), 0x98c (plus a uniform register [64:69],
// [91] = 1), 0x38d (compare and swap), 0xf8c (ops without data, always with
// a UR, printed even when URZ: `ATOMS.ARRIVE.64 R4, [R7+URZ]`).
//   Rd [16:23] (RZ printed), Ra [24:31], signed byte offset [40:63]
//   (`[0x5004]` has 0x5004 there), data Rb [32:39], CAS new value Rc
//   [64:71]; [78:79] index scale of Ra as LDS (.X4 .X8 .X16 rows).
//   [73:75] type: "" (U32) 0, .S32 1, .64 2 (ADD.S32 MIN.S32 MAX.S32
//   EXCH.64 CAST.SPIN.64 ARRIVE.64 rows).
//   [87:90] op: ADD 0, MIN 1, MAX 2, INC 3, DEC 4, AND 5, OR 6, XOR 7,
//   EXCH 8 (0x38c/0x98c rows of each); CAS 0, CAST.SPIN 3 (0x38d);
//   ARRIVE 9, POPC.INC 10 (0xf8c).
//===----------------------------------------------------------------------===//
def AtomsOp   : Mod<[0, 1, 2, 3, 4, 5, 6, 7, 8],
                    [".ADD", ".MIN", ".MAX", ".INC", ".DEC", ".AND", ".OR",
                     ".XOR", ".EXCH"]>;
def AtomsOp64 : Mod<[8], [".EXCH"]>;
def AtomsType : Mod<[0, 1], ["", ".S32"]>;
def AtomsCas  : Mod<[0, 3], [".CAS", ".CAST.SPIN"]>;

class ATOMSInst<bits<12> op, string asm, dag outs, dag ins>
    : MemInst<op, asm, outs, ins, MemAtomic> {
  bits<2> sc;
  let ReuseOperands = ["", "", "", ""];
  let Inst{23-16} = Rd;
  let Inst{31-24} = Ra;
  let Inst{63-40} = off;
  let Inst{79-78} = sc;
}

// ADD .. EXCH, 32-bit (type "" or .S32) and .64 (EXCH only).
foreach W = [32, 64] in
  foreach U = [0, 1] in
    def ATOMS_ # !if(U, "UR_", "") # W :
      ATOMSInst<!if(U, 0x98c, 0x38c),
                "ATOMS${aop}" # !if(!eq(W, 32), "${ty}", ".64") # " $Rd, " #
                  !if(U, "<$Ra${sc}+$Ur+$off>", "<$Ra${sc}+$off>") # ", $Rb",
                !if(!eq(W, 32), (outs GPR:$Rd), (outs GPR64:$Rd)),
                !con(!if(!eq(W, 32), (ins AtomsOp:$aop, AtomsType:$ty),
                         (ins AtomsOp64:$aop)),
                     (ins MemBase:$Ra, Scale:$sc),
                     !if(U, (ins MemUR:$Ur), (ins)), (ins MemOff:$off),
                     !if(!eq(W, 32), (ins GPR:$Rb), (ins GPR64:$Rb)))> {
      bits<4> aop;
      bit ty;
      let Inst{39-32} = Rb;
      let Inst{69-64} = !if(U, Ur, 0b000000);
      let Inst{75-73} = !if(!eq(W, 32), {0b00, ty}, 0b010);
      let Inst{90-87} = aop;
      let Inst{91} = U;
    }

// CAS / CAST.SPIN: compare value Rb, new value Rc.
foreach W = [32, 64] in
  def ATOMS_CAS_ # W :
    ATOMSInst<0x38d, "ATOMS${cop}" # !if(!eq(W, 32), "", ".64") #
                       " $Rd, <$Ra${sc}+$off>, $Rb, $Rc",
              !if(!eq(W, 32), (outs GPR:$Rd), (outs GPR64:$Rd)),
              !con((ins AtomsCas:$cop, MemBase:$Ra, Scale:$sc, MemOff:$off),
                   !if(!eq(W, 32), (ins GPR:$Rb, GPR:$Rc),
                       (ins GPR64:$Rb, GPR64:$Rc)))> {
    bits<4> cop;
    bits<8> Rc;
    let Inst{39-32} = Rb;
    let Inst{71-64} = Rc;
    let Inst{75-73} = !if(!eq(W, 32), 0b000, 0b010);
    let Inst{90-87} = cop;
  }

// 0xf8c: ARRIVE.64 (mbarrier arrive; the old state in Rd, a pair) and
// POPC.INC.32; no data register ([32:39] = 0).
class AtomsNoData<string n, string t, bits<4> o, bits<3> sz> {
  string Name = n;
  string Text = t;
  bits<4> Op = o;
  bits<3> Size = sz;
}
foreach A = [AtomsNoData<"ARRIVE_64", ".ARRIVE.64", 9, 2>,
             AtomsNoData<"POPC_INC_32", ".POPC.INC.32", 10, 0>] in
  def ATOMS_ # A.Name :
    ATOMSInst<0xf8c, "ATOMS" # A.Text # " $Rd, <$Ra${sc}+$Ur+$off>",
              !if(!eq(A.Size, 2), (outs GPR64:$Rd), (outs GPR:$Rd)),
              (ins MemBase:$Ra, Scale:$sc, MemUR:$Ur, MemOff:$off)> {
    let Inst{69-64} = Ur;
    let Inst{75-73} = A.Size;
    let Inst{90-87} = A.Op;
    let Inst{91} = 1;
  }

//===----------------------------------------------------------------------===//
// Global and generic atomics: ATOMG (global, the old value returned), ATOM
// (generic address), RED (global, no result; REDG on sm_90, SM90Instrs.td),
// QSPC (which window a generic address is in).  Every bit below is read
// off ptxas 13's words for test/MC/Inputs/global_atomics.ptx (-arch=sm_80,
// sm_86, sm_89, sm_90) and the reference TSV rows (sm_86, sm_80; checked
// both ways by the corpus test):
//   ATOMG 0x3a8 (register address), 0x9a8 (with a uniform register),
//   0x3a9 (compare and swap); ATOM 0x38a, 0x98a, 0x38b, 0xf8a (ARRIVE.64
//   and POPC.INC.32, no data); RED 0x98e.
//   Rd [16:23] (ATOM, ATOMG; RZ printed), Ra [24:31], data Rb [32:39],
//   signed byte offset [40:63], CAS new value Rc [64:71].  With a UR
//   ([91] = 1): UR [64:69]; ATOM/ATOMG [70] address width (.64 printed in
//   `[R10.64+URZ]`, `.U32` in `[R4.U32+URZ]`), [71] descriptor; RED: [71]
//   = 1 and [90] = 1 in every word (desc[URx][Rx.64] only).
//   [72] .E; [73:75] type: "" (U32) 0, .S32 1, .64 2, .F32.FTZ.RN 3,
//   .F16x2.RN 4, .S64 5, .F64.RN 6; [77:80] order (.STRONG.SM 5, .GPU 7,
//   .SYS 10, as LDG); the predicate result Pd [81:83] (ATOM, ATOMG; RED:
//   0); [84:86] = 1.
//   Op: ATOM/ATOMG [87:90] as ATOMS (ADD 0 .. EXCH 8; ARRIVE 9, POPC.INC
//   10; CAS 0, CAST.SPIN 3); RED [87:89] (ADD 0 .. XOR 7; no EXCH).
// Each type has its own forms with only the ops some word shows for it
// (a .F32 AND does not exist), so every accepted combination is one ptxas
// or nvdisasm wrote.  sm_90 encodes .S64 and the float types otherwise
// (SM90Instrs.td): their forms without a descriptor are sm_80/86/89 only.
// Scheduling: a memory op (SASS_FACTS 2.1), MemAtomic.
//===----------------------------------------------------------------------===//
def GAtomOpAll : Mod<[0, 1, 2, 3, 4, 5, 6, 7, 8],
                     [".ADD", ".MIN", ".MAX", ".INC", ".DEC", ".AND", ".OR",
                      ".XOR", ".EXCH"]>;
def GAtomOpMM  : Mod<[0, 1, 2], [".ADD", ".MIN", ".MAX"]>;
def GAtomOp64  : Mod<[0, 1, 2, 5, 6, 7, 8],
                     [".ADD", ".MIN", ".MAX", ".AND", ".OR", ".XOR", ".EXCH"]>;
def GAtomOpS64 : Mod<[1, 2], [".MIN", ".MAX"]>;
def GAtomOpAdd : Mod<[0], [".ADD"]>;
def RedOpAll   : Mod<[0, 1, 2, 3, 4, 5, 6, 7],
                     [".ADD", ".MIN", ".MAX", ".INC", ".DEC", ".AND", ".OR",
                      ".XOR"]>;
def RedOp64    : Mod<[0, 1, 2, 5, 6, 7],
                     [".ADD", ".MIN", ".MAX", ".AND", ".OR", ".XOR"]>;
def GAtomAddrW : Mod<[1], [".64"]>;   // desc[URx][Rx.64]: [70] (RED: [90])

/// A type of the global atomics: [73:75] code, spelling, the ops of ATOM/
/// ATOMG and of RED, the data register type.  Moves: sm_90 encodes it
/// otherwise, [73:76] = Code90 at opcodes AtomG90 (ATOMG), Atom90 (ATOM),
/// Red90 (REDG) (SM90Instrs.td).
class GAtomType<string n, bits<3> cd, string t, Mod aops, Mod rops,
                OperandType regT, bit moves, bits<4> cd90, bits<12> atomg90,
                bits<12> atom90, bits<12> red90> {
  string Name = n;
  bits<3> Code = cd;
  string Text = t;
  Mod AtomOps = aops;
  Mod RedOps = rops;
  OperandType RegT = regT;
  bit Moves = moves;
  bits<4> Code90 = cd90;
  bits<12> AtomG90 = atomg90;
  bits<12> Atom90 = atom90;
  bits<12> Red90 = red90;
}
def GAtomU32   : GAtomType<"U32", 0, "", GAtomOpAll, RedOpAll, GPR, 0,
                           0, 0x9a8, 0x98a, 0x98e>;
def GAtomS32   : GAtomType<"S32", 1, ".S32", GAtomOpMM, GAtomOpMM, GPR, 0,
                           1, 0x9a8, 0x98a, 0x98e>;
def GAtomU64   : GAtomType<"64", 2, ".64", GAtomOp64, RedOp64, GPR64, 0,
                           2, 0x9a8, 0x98a, 0x98e>;
def GAtomF32   : GAtomType<"F32", 3, ".F32.FTZ.RN", GAtomOpAdd, GAtomOpAdd,
                           GPR, 1, 9, 0x9a3, 0x9a2, 0x9a6>;
def GAtomF16x2 : GAtomType<"F16x2", 4, ".F16x2.RN", GAtomOpAdd, GAtomOpAdd,
                           GPR, 1, 0, 0x9a3, 0x9a2, 0x9a6>;
def GAtomS64   : GAtomType<"S64", 5, ".S64", GAtomOpS64, GAtomOpS64, GPR64,
                           1, 3, 0x9a8, 0x98a, 0x98e>;
def GAtomF64   : GAtomType<"F64", 6, ".F64.RN", GAtomOpAdd, GAtomOpAdd,
                           GPR64, 1, 15, 0x9a3, 0x9a2, 0x9a6>;
// sm_90 only (SM90Instrs.td); Code is unused.
def GAtomBF16x2 : GAtomType<"BF16x2", 0, ".BF16x2.RN", GAtomOpAdd,
                            GAtomOpAdd, GPR, 1, 3, 0x9a3, 0x9a2, 0x9a6>;
defvar GAtomTypes = [GAtomU32, GAtomS32, GAtomU64, GAtomF32, GAtomF16x2,
                     GAtomS64, GAtomF64];

/// The fields every global/generic atomic shares.
class GAtomInst<bits<12> op, string asm, dag outs, dag ins>
    : MemInst<op, asm, outs, ins, MemAtomic> {
  bit e;
  bits<4> ord;
  bits<3> Pd;
  let ReuseOperands = ["", "", "", ""];
  let Inst{31-24} = Ra;
  let Inst{63-40} = off;
  let Inst{72} = e;
  let Inst{80-77} = ord;
  let Inst{83-81} = Pd;
  let Inst{86-84} = 0b001;
}

/// ATOM/ATOMG of type \p T at address form \p A: 0 `[Ra+off]`, 1 `[URx+off]`
/// (Ra = RZ), 2 `desc[URx][Ra.64+off]`.
class GAtomOpInst<string mn, bits<12> op, GAtomType T, int A>
    : GAtomInst<op, mn # "${e}${aop}" # T.Text # "${ord} $Pd, $Rd, " #
                      !cond(!eq(A, 0): "<$Ra+$off>", !eq(A, 1): "<$Ur+$off>",
                            true: "desc[$Ur]<$Ra${aw}+$off>") # ", $Rb",
                (outs Pred:$Pd, T.RegT:$Rd),
                !con((ins EMod:$e, T.AtomOps:$aop, GenOrder:$ord),
                     !cond(!eq(A, 0): (ins MemBase:$Ra, MemOff:$off),
                           !eq(A, 1): (ins MemUR:$Ur, MemOff:$off),
                           true: (ins MemDesc:$Ur, MemBase:$Ra,
                                      GAtomAddrW:$aw, MemOff:$off)),
                     !dag(ins, [T.RegT], ["Rb"]))> {
  bits<4> aop;
  bit aw;
  let Inst{23-16} = Rd;
  let Inst{31-24} = !if(!eq(A, 1), 0b11111111, Ra);
  let Inst{39-32} = Rb;
  let Inst{69-64} = !if(!eq(A, 0), 0b000000, Ur);
  let Inst{70} = !if(!eq(A, 2), aw, 0);
  let Inst{71} = !eq(A, 2);
  let Inst{75-73} = T.Code;
  let Inst{90-87} = aop;
  let Inst{91} = !ne(A, 0);
}

/// RED (\p mn: RED, sm_90's REDG) of type \p T: desc[URx][Ra.64+off] only.
class RedInst<string mn, bits<12> op, GAtomType T>
    : GAtomInst<op, mn # "${e}${rop}" # T.Text #
                      "${ord} desc[$Ur]<$Ra${aw}+$off>, $Rb", (outs),
                !con((ins EMod:$e, T.RedOps:$rop, GenOrder:$ord, MemDesc:$Ur,
                          MemBase:$Ra, GAtomAddrW:$aw, MemOff:$off),
                     !dag(ins, [T.RegT], ["Rb"]))> {
  bits<3> rop;
  bit aw;
  let Pd = 0;
  let Inst{39-32} = Rb;
  let Inst{69-64} = Ur;
  let Inst{71-70} = 0b10;
  let Inst{75-73} = T.Code;
  let Inst{89-87} = rop;
  let Inst{90} = aw;
  let Inst{91} = 1;
}

/// A mnemonic of the family and its opcodes: register address, UR
/// address, CAS.
class GAtomMn<string n, bits<12> r, bits<12> u, bits<12> cas> {
  string Name = n;
  bits<12> OpR = r;
  bits<12> OpUR = u;
  bits<12> OpCas = cas;
}
defvar GAtomMns = [GAtomMn<"ATOMG", 0x3a8, 0x9a8, 0x3a9>,
                   GAtomMn<"ATOM", 0x38a, 0x98a, 0x38b>];
defvar GAtomPreSM90 = [TargetSM80, TargetSM86, TargetSM89];
// Blackwell encodes the global atomics otherwise (its words do not decode
// with these forms: docs/targets.md): but for CAS, none is a Blackwell form.
defvar GAtomUpToSM90 = [TargetSM80, TargetSM86, TargetSM89, TargetSM90];
foreach T = GAtomTypes in {
  foreach M = GAtomMns in {
    // `[URx+off]` hides the address width [70] (rows with 0 and 1: RZA
    // .64, RZB .U32, as LDG's [90]; the parser picks RZA).
    if T.Moves then {
      def M.Name # _ # T.Name : GAtomOpInst<M.Name, M.OpR, T, 0>,
                                OnlyOn<GAtomPreSM90>;
      foreach W = [1, 0] in
        def M.Name # !if(W, "_RZA_", "_RZB_") # T.Name :
          GAtomOpInst<M.Name, M.OpUR, T, 1>, OnlyOn<GAtomPreSM90> {
          let Inst{70} = W;
        }
    } else {
      def M.Name # _ # T.Name : GAtomOpInst<M.Name, M.OpR, T, 0>,
                                OnlyOn<GAtomUpToSM90>;
      foreach W = [1, 0] in
        def M.Name # !if(W, "_RZA_", "_RZB_") # T.Name :
          GAtomOpInst<M.Name, M.OpUR, T, 1>, OnlyOn<GAtomUpToSM90> {
          let Inst{70} = W;
        }
    }
    // The float types' descriptor forms: sm_90's are other forms
    // (SM90Instrs.td); .S64's is an EncodingOn there.
    if !and(T.Moves, !ne(T.Name, "S64")) then
      def M.Name # _DESC_ # T.Name : GAtomOpInst<M.Name, M.OpUR, T, 2>,
                                     OnlyOn<GAtomPreSM90>;
    else
      def M.Name # _DESC_ # T.Name : GAtomOpInst<M.Name, M.OpUR, T, 2>,
                                     OnlyOn<GAtomUpToSM90>;
  }
  def RED_DESC_ # T.Name : RedInst<"RED", 0x98e, T>, OnlyOn<GAtomPreSM90>;
}

// CAS: compare value Rb, new value Rc (pairs for .64); register address.
// Blackwell's CAS words are these (test/MC/SM100/ptxas-roundtrip.test).
// ATOM also has CAST.SPIN (sm_90's loop on a cluster's shared window).
foreach M = GAtomMns in
  foreach W = [32, 64] in
    def M.Name # _CAS_ # W :
      GAtomInst<M.OpCas,
                M.Name # "${e}" # !if(!eq(M.Name, "ATOM"), "${cop}", ".CAS") #
                  !if(!eq(W, 64), ".64", "") #
                  "${ord} $Pd, $Rd, <$Ra+$off>, $Rb, $Rc",
                !if(!eq(W, 32), (outs Pred:$Pd, GPR:$Rd),
                    (outs Pred:$Pd, GPR64:$Rd)),
                !con((ins EMod:$e),
                     !if(!eq(M.Name, "ATOM"), (ins AtomsCas:$cop), (ins)),
                     (ins GenOrder:$ord, MemBase:$Ra, MemOff:$off),
                     !if(!eq(W, 32), (ins GPR:$Rb, GPR:$Rc),
                         (ins GPR64:$Rb, GPR64:$Rc)))> {
      bits<8> Rc;
      bits<4> cop;
      let Inst{23-16} = Rd;
      let Inst{39-32} = Rb;
      let Inst{71-64} = Rc;
      let Inst{75-73} = !if(!eq(W, 32), 0b000, 0b010);
      let Inst{90-87} = !if(!eq(M.Name, "ATOM"), cop, 0b0000);
    }

// ATOM 0xf8a: ARRIVE.64 (mbarrier arrive on a generic address; the old
// state in Rd, a pair) and POPC.INC.32, no data register ([32:39] = 0):
// `[R10.64+URZ]`, `[R4.U32+URZ]` ([70] = 0), and `[UR4]` (Ra = RZ; the
// width [70] hidden: RZA 1, RZB 0, both in the rows).
foreach A = [AtomsNoData<"ARRIVE_64", ".ARRIVE.64", 9, 2>,
             AtomsNoData<"POPC_INC_32", ".POPC.INC.32", 10, 0>] in
  foreach Z = [0, 1, 2] in
    def ATOM_ # !cond(!eq(Z, 1): "RZA_", !eq(Z, 2): "RZB_", true: "") # A.Name :
      GAtomInst<0xf8a, "ATOM${e}" # A.Text # "${ord} $Pd, $Rd, " #
                         !if(Z, "<$Ur+$off>", "<$Ra${aw}+$Ur+$off>"),
                !if(!eq(A.Size, 2), (outs Pred:$Pd, GPR64:$Rd),
                    (outs Pred:$Pd, GPR:$Rd)),
                !con((ins EMod:$e, GenOrder:$ord),
                     !if(Z, (ins), (ins MemBase:$Ra, AddrW:$aw)),
                     (ins MemUR:$Ur, MemOff:$off))>,
      OnlyOn<GAtomUpToSM90> {
      bit aw;
      let Inst{23-16} = Rd;
      let Inst{31-24} = !if(Z, 0b11111111, Ra);
      let Inst{69-64} = Ur;
      let Inst{70} = !cond(!eq(Z, 1): 1, !eq(Z, 2): 0, true: aw);
      let Inst{75-73} = A.Size;
      let Inst{90-87} = A.Op;
      let Inst{91} = 1;
    }

// QSPC 0x3aa (register address), 0x9aa (`[URx+off]`, UR [32:37], Ra =
// RZ, [91] = 1): Pd = whether the generic address is in window [73:75]
// (.G 0 global, .L 1 local, .S 2 the CTA's shared memory, .D 3 the
// cluster's distributed shared memory, sm_90); Rd [16:23] is RZ in every
// word, Pd [81:83], [72] .E, offset [40:63].  `[URx]` hides the address
// width [90] (rows `QSPC.S P0, RZ, [UR9]` 0, `QSPC.E.S P0, RZ, [UR4]` 1:
// RZA/RZB as LDG).  ptxas emits it before the fallback of a generic
// atomic that shared memory cannot do natively (ATOM returns P0 = not
// done; E: global_atomics.ptx, `atom.add.f32` on a generic address, sm_86
// and sm_90).  Rows: sm_86/sm_80 TSVs (.G .L .S); .D from ptxas's sm_90
// words, spelled as public nvdisasm listings do (`QSPC.E.D P0, RZ, [R0]`).
def QspcSpace : Mod<[0, 1, 2, 3], [".G", ".L", ".S", ".D"]>;
class QSPCInst<bits<12> op, string addr, dag ains>
    : MemInst<op, "QSPC${e}${sp} $Pd, $Rd, " # addr, (outs Pred:$Pd, GPR:$Rd),
              !con((ins EMod:$e, QspcSpace:$sp), ains), MemAtomic> {
  bit e;
  bits<3> sp;
  bits<3> Pd;
  let ReuseOperands = ["", "", "", ""];
  let Inst{23-16} = Rd;
  let Inst{31-24} = Ra;
  let Inst{63-40} = off;
  let Inst{72} = e;
  let Inst{75-73} = sp;
  let Inst{83-81} = Pd;
}
def QSPC : QSPCInst<0x3aa, "<$Ra+$off>", (ins MemBase:$Ra, MemOff:$off)>;
foreach A = [1, 0] in
  def QSPC # !if(A, "_RZA_", "_RZB_") # UR :
    QSPCInst<0x9aa, "<$Ur+$off>", (ins MemUR:$Ur, MemOff:$off)> {
    let Ra = 0xff;
    let Inst{37-32} = Ur;
    let Inst{90} = A;
    let Inst{91} = 1;
  }
