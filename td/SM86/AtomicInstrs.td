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
