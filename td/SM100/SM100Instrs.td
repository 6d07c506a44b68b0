//===- SM100Instrs.td - What Blackwell adds ----------------*- tablegen -*-===//
//
// Blackwell decodes with sm_90's forms (Targets.td: SM90Family) and these:
// LDCU, BSSY/BSYNC.RECONVERGENT, BRA.U on a uniform predicate, LDGSTS with
// a descriptor, the global atomics ATOMG/ATOM/REDG with a descriptor and
// the shared-memory ATOMS.CAST.SPIN; on sm_120/sm_121 also IADD.64, MOV.64,
// UMOV.64 and the uniform conversions UF2F, UI2F, UF2I (SM120Convert.td); and
// Blackwell's encodings of the uniform forms, whose registers are 8-bit
// fields (SM100Uniform.td).  Evidence (E = our decoding of `ptxas
// -arch=sm_100 / sm_120` output, CUDA 13.0, for the corpus of
// test/MC/SM100/ptxas-roundtrip.test and test/MC/SM120/ptxas-roundtrip
// .test; test/MC/SM100/blackwell-forms.test checks each form's words).
// The spellings are those of public sm_100/sm_120 nvdisasm listings; the
// bits are ptxas's.  The words that still do not decode are listed in
// docs/targets.md.
//
// * LDCU 0x7ac: a constant-bank load into uniform registers, in every
//   kernel's prologue (`LDCU.64 UR4, c[0x0][0x358]`, the default memory
//   descriptor; sm_90: ULDC.64).  URd [16:23] (8 bits: SM100Uniform.td),
//   [24:31] = 0xff, the byte offset at [37:52] (0x358 is 0x6b00 in bits
//   [32:63]; the parameters 0x380, 0x390, 0x374 likewise), bank [54:58]
//   (0 in every word), size [73:75] as LDC (.U8 0, .U16 2, 32-bit 4, .64
//   5, .128 6 seen; .S8 1, .S16 3 as LDC's), [91] = 1 (E, 41 files each
//   for sm_100 and sm_120).
//
//===----------------------------------------------------------------------===//

defvar BlackwellTargets = [TargetSM100, TargetSM120, TargetSM121];

def UGPR128 : OperandType<"UGPR"> { let Width = 4; }

/// A size of LDCU: the destination type and the size modifier (one value
/// for the UR tuples, LDC's sub-word sizes for one UR).
class LdcuSize<string sfx, OperandType t, Mod sz> {
  string Sfx = sfx;
  OperandType RegT = t;
  Mod Size = sz;
}
foreach S = [LdcuSize<"", UGPR, LdcSize>,
             LdcuSize<"_64", UGPR64, Mod<[5], [".64"]>>,
             LdcuSize<"_128", UGPR128, Mod<[6], [".128"]>>] in
  def LDCU # S.Sfx :
    SM86Op<0x7ac, "LDCU${sz} $Rd, c[$Bank][$Off]", (outs S.RegT:$Rd),
           (ins S.Size:$sz, CBIdx:$Bank, CBOff:$Off), ConstLoad>,
    OnlyOn<BlackwellTargets> {
    bits<8> Rd;
    bits<3> sz;
    bits<5> Bank;
    bits<16> Off;
    let ReuseOperands = ["", "", "", ""];
    let Inst{23-16} = Rd;
    let Inst{31-24} = 0xff;
    let Inst{52-37} = Off;
    let Inst{58-54} = Bank;
    let Inst{75-73} = sz;
    let Inst{91} = 1;
  }

// BSSY.RECONVERGENT 0x945 and BSYNC.RECONVERGENT 0x941: the convergence
// barrier ops of every Blackwell kernel that branches (E: 5 files, e.g.
// test/MC/SM90/Inputs/branches.ptx; sm_90 writes BSSY / BSYNC): sm_90's
// words with [73] = 1 (`BSYNC.RECONVERGENT B0` 0x000fea0003800200_
// 0000000000007941, sm_90 0x...03800000_...).  The spelling is public
// sm_100/sm_120 listings' (nvdisasm shows the same word as
// `BSYNC.RECONVERGENT B0`).  Bit 73 lies in sm_86's BSSY target field
// [34:81]: here the target is [34:72] (every word's reconvergence point
// is ahead, [74:81] = 0).  BSSY and BSYNC without the modifier exist on
// Blackwell too (public listings); no corpus word shows them.
def BSSY_RECONVERGENT : CtlInst<0x945, "BSSY.RECONVERGENT $b, $tgt", (outs),
                                (ins BReg:$b, BrTarget:$tgt), 0>,
                        OnlyOn<BlackwellTargets> {
  bits<4> b;
  bits<39> tgt;
  let Inst{19-16} = b;
  let Inst{72-34} = tgt;
  let Inst{73} = 1;
}
def BSYNC_RECONVERGENT : CtlInst<0x941, "BSYNC.RECONVERGENT $b", (outs),
                                 (ins BReg:$b), 0>,
                         OnlyOn<BlackwellTargets> {
  bits<4> b;
  let Inst{19-16} = b;
  let Inst{73} = 1;
}

// BRA.U on a uniform predicate, 0x547: the loop branch when the trip
// count is uniform (E: the reference GEMMs' and MMA kernels' loops, 4
// files; sm_90 branches on a predicate, `@!P0 BRA`).  BRA_SM90's split
// offset ([16:23] low 8 bits, [34:81] the rest) and mode [32:33] (.U = 1
// in every word), the uniform predicate [24:26] with its negate [27]
// (`!UP0`: 0x08 there, 0x000fec000b83ffff_fffffffd08f07547 jumps -0x30
// bytes from 0x2e0 to 0x2b0; `UP0`: 0x00, 0x001fea000b800000_
// 0000000100187547), [87:89] = PT, [91] = 1.  Only UP0 was seen: the
// predicate's width is inferred from sm_86's 3-bit predicate fields.  The
// spelling is public Blackwell listings' (`BRA.U !UP0, ...`).
def BRA_UP : CtlInst<0x547, "BRA${mode} ${upn}$Up, $tgt", (outs),
                     (ins BraMode:$mode, PNot:$upn, UPred:$Up,
                          BrTarget:$tgt), 0>,
             OnlyOn<BlackwellTargets> {
  bits<2> mode;
  bit upn;
  bits<3> Up;
  bits<56> tgt;
  let IsBranch = 1;
  let Inst{23-16} = tgt{7-0};
  let Inst{26-24} = Up;
  let Inst{27} = upn;
  let Inst{33-32} = mode;
  let Inst{81-34} = tgt{55-8};
  let Inst{91} = 1;
}

// LDGSTS (cp.async) with a descriptor, 0xfae (E: the reference GEMMs, the
// MMA kernels and test/MC/Inputs/memory_forms.ptx, 96 words): sm_90's
// fields (MemoryInstrs.td) where the lower 64 bits are concerned; above,
// the descriptor UR [64:71] (8 bits), [72] = 0, .LTC128B [73], the size
// [74:75] (32-bit 0, .64 1, .128 2; sm_90: [73:75] 4/5/6, .LTC128B [72]),
// desc [76] = 1, .CONSTANT [79] (as sm_90; not seen), .BYPASS [81] = 0,
// .ZFILL [82] with its predicate [87:89]+[90], [83] = 1 and [84:86] = 1
// in every word.  The address width, sm_90's [70] (inside the wider UR
// field here), is taken to be [83]: only .64 is spelled, so a word with
// [83] = 0 does not decode.  E.g. `LDGSTS.E.BYPASS.128 [R13], desc[UR10]
// [R8.64]` 0x000fe6000b98180a_00000000080d0fae (sm_90 ...0b901c4a_...),
// `LDGSTS.E.LTC128B.64 [R16+0x70], desc[UR6][R50.64+0x1c0]` ...0b9a1606_
// 000701c032107fae, `LDGSTS.E.ZFILL [R16+0x60], desc[UR6][R36.64+0x180],
// P2` ...091e1006_0006018024107fae.  The forms without a descriptor are
// not seen (ptxas 13 addresses global memory through one).
def CpSizeBw : Mod<[0, 1, 2], ["", ".64", ".128"]>;
def AddrW64  : Mod<[1], [".64"]>;
foreach P = [0, 1] in
  def LDGSTS_DESC_SM100 # !if(P, "_P", "") :
    SM86Op<0xfae, "LDGSTS.E${byp}${ltc}${sz}${cst}${zf} <$Rs+$soff>, " #
                  "desc[$Ur]<$Ra${aw}+$goff>" # !if(P, ", ${Ppn}$Pp", ""),
           (outs),
           !con((ins Bypass:$byp, LtcMod:$ltc, CpSizeBw:$sz, ConstMod:$cst,
                     ZFill:$zf, MemBase:$Rs, MemOff:$soff, MemDesc:$Ur,
                     MemBase:$Ra, AddrW64:$aw, MemOff:$goff),
                !if(P, (ins PNot:$Ppn, Pred:$Pp), (ins))),
           MemAsyncCopy>,
    OnlyOn<BlackwellTargets> {
    bits<8> Rs;
    bits<20> soff;
    bits<8> Ra;
    bits<12> goff;
    bits<8> Ur;
    bit aw;
    bit byp;
    bit ltc;
    bits<2> sz;
    bit cst;
    bit zf;
    bits<3> Pp;
    bit Ppn;
    let ReuseOperands = ["", "", "", ""];
    let Inst{23-16} = Rs;
    let Inst{31-24} = Ra;
    let Inst{43-32} = goff;
    let Inst{63-44} = soff;
    let Inst{71-64} = Ur;
    let Inst{73} = ltc;
    let Inst{75-74} = sz;
    let Inst{76} = 1;
    let Inst{79} = cst;
    let Inst{81} = byp;
    let Inst{82} = zf;
    let Inst{83} = aw;
    let Inst{86-84} = 0b001;
    let Inst{89-87} = !if(P, Pp, 0b111);
    let Inst{90} = !if(P, Ppn, 0);
    let Inst{91} = 1;
  }

//===----------------------------------------------------------------------===//
// What sm_120 and sm_121 add (consumer Blackwell; sm_100's words for the
// same PTX do not use them).
//===----------------------------------------------------------------------===//
defvar ConsumerBlackwell = [TargetSM120, TargetSM121];

// IADD.64 0x035 (forms 1 R, 4 imm, 6 UR): a 64-bit add of register pairs,
// ptxas's add.s64/sub.s64 and address arithmetic on sm_120 (E: 65 words
// in 8 files; sm_100 and sm_90 use IADD3 + IADD3.X).  Rd [16:23], Ra
// [24:31], the second source in the B slot ([32:39] register pair or UR
// pair, 8 bits: SM100Uniform.td; [32:63] immediate) with its negate [63]
// (`sub.s64` with a UR: 0x000fe4000f8e0200_8000000412127c35 is
// `IADD.64 R18, R18, -UR4`); [64:71] = 0, [73] = 1, [81:83] = 7, [87:90] =
// 0xf, [91] = 1 for a UR, in every word.  E.g. `IADD.64 R26, R22, R24`
// 0x001fcc00078e0200_00000018161a7235, `IADD.64 R116, R116, 0x40`
// 0x002fe400078e0200_0000004074740835.  The spelling is public sm_120
// listings' (`IADD.64 R4, R2, R4` with these bits).  The immediate is
// sign-extended and printed signed, as IADD3's: ptxas 13 writes add.s64
// with -16 as `IADD.64 R6, R2, -0x10` 0x048fe400078e0200_fffffff002067835
// and puts +2^31 and +2^32-1 in a UR instead (test/Sim/iadd64-imm.ptx).
//
// A's negate is [72] (E: sad.s64's |a - b| in test/MC/Inputs/sad_forms.ptx,
// `@!P0 IADD.64 R6, -R4, R2` 0x000fc400078e0300_0000000204068235; printed
// as IADD3 prints its negated sources).
class IADD64Inst<bits<3> form, string b, dag bins>
    : SM86ALU<0x035, form, "IADD.64 $Rd, ${na}$Ra, " # b, (outs GPR64:$Rd),
              !con((ins NegMod:$na, GPR64:$Ra), bins), CoupledALU>,
      OnlyOn<ConsumerBlackwell> {
  bits<8> Rd;
  bits<8> Ra;
  bit na;
  let ReuseOperands = ["Ra", "", "", ""];
  let Inst{23-16} = Rd;
  let Inst{31-24} = Ra;
  let Inst{72} = na;
  let Inst{73} = 1;
  let Inst{83-81} = 0b111;
  let Inst{90-87} = 0b1111;
  let Inst{91} = !eq(form, 6);
}
def IADD_64_rrr : IADD64Inst<1, "${nb}$Rb", (ins NegMod:$nb, GPR64:$Rb)> {
  bits<8> Rb;
  bit nb;
  let ReuseOperands = ["Ra", "Rb", "", ""];
  let Inst{39-32} = Rb;
  let Inst{63} = nb;
}
def IADD_64_rir : IADD64Inst<4, "$Imm", (ins SImm:$Imm)> {
  bits<32> Imm;
  let Inst{63-32} = Imm;
}
def IADD_64_rur : IADD64Inst<6, "${nb}$Ur", (ins NegMod:$nb, UGPR64:$Ur)> {
  bits<8> Ur;
  bit nb;
  let Inst{39-32} = Ur;
  let Inst{63} = nb;
}

// MOV.64 0x002 with [80] = 1 (forms 1 R pair and 6 UR pair seen): a
// 64-bit move, MOV's fields (IntegerInstrs.td: [72:75] lane mask 0xf)
// (E: `MOV.64 R22, UR6` 0x000fc40008010f00_0000000600167c02, `MOV.64 R72,
// R24` 0x020fe40000010f00_0000001800487202; all pairs even).  The
// spelling is public Blackwell listings' (`MOV.64 R4, RZ`).
def MOV_64_rrr : SM86ALU<0x002, 1, "MOV.64 $Rd, $Rb", (outs GPR64:$Rd),
                         (ins GPR64:$Rb), CoupledALU>,
                 OnlyOn<ConsumerBlackwell> {
  bits<8> Rd;
  bits<8> Rb;
  let ReuseOperands = ["", "Rb", "", ""];
  let Inst{23-16} = Rd;
  let Inst{39-32} = Rb;
  let Inst{75-72} = 0b1111;
  let Inst{80} = 1;
}
def MOV_64_rur : SM86ALU<0x002, 6, "MOV.64 $Rd, $Ur", (outs GPR64:$Rd),
                         (ins UGPR64:$Ur), CoupledALU>,
                 OnlyOn<ConsumerBlackwell> {
  bits<8> Rd;
  bits<8> Ur;
  let ReuseOperands = ["", "", "", ""];
  let Inst{23-16} = Rd;
  let Inst{39-32} = Ur;
  let Inst{75-72} = 0b1111;
  let Inst{80} = 1;
  let Inst{91} = 1;
}

// MOV.64 0x402 and UMOV.64 0x482 (form 2): a 64-bit immediate at [24:87]
// into a register pair (E: `mov.b64` constants, test/MC/Inputs/imad_forms
// .ptx and integer_forms.ptx: `UMOV.64 UR6, 0x123456789` 0x000fe20008000000_
// 0123456789067482, `MOV.64 R32, 0x2a` 0x000fe40000000000_000000002a207402).
// Public sm_120 listings confirm the field ([24:31] imm[7:0], [32:63]
// imm[39:8], [64:87] imm[63:40]: `UMOV.64 UR4, 0x1122334455667788`); no
// corpus word has an immediate of more than 40 bits.  [91] = 1 for UMOV.
foreach U = [0, 1] in
  def !if(U, "UMOV_64_i", "MOV_64_i") :
    SM86ALU<!if(U, 0x082, 0x002), 2,
            !if(U, "UMOV", "MOV") # ".64 $Rd, $Imm",
            !if(U, (outs UGPR64:$Rd), (outs GPR64:$Rd)), (ins UImm:$Imm),
            !if(U, UniformMove, CoupledALU)>,
    OnlyOn<ConsumerBlackwell> {
    bits<8> Rd;
    bits<64> Imm;
    let ReuseOperands = ["", "", "", ""];
    let UniformGuard = U;
    let Inst{23-16} = Rd;
    let Inst{87-24} = Imm;
    let Inst{91} = U;
  }

// The global and generic atomics with a descriptor, Blackwell's layout (E:
// test/MC/Inputs/global_atomics.ptx and SM90/Inputs/global_atomics_sm90
// .ptx, 77 words on sm_100; sm_90's forms: SM90Instrs.td, AtomicInstrs.td).
// Against sm_90's words: the descriptor UR fills [64:71] (sm_90: [64:69],
// the address width [70] = 1 and [71] = 1); in ATOMG and ATOM [63] = 1 in
// every word (sm_90: the offset's sign bit; here the offset is [40:62]),
// taken as the address width (only .64 is spelled, so [63] = 0 does not
// decode), and the integer types keep sm_90's codes (.S64 3) in [73:75]
// with [76] = 1, the float types sm_90's [73:76] with [90] = 1 (their op
// [87:89], .ADD 0); in REDG the offset is sm_90's [40:63], the address
// width [90] as there, and [81] = 1 (sm_90: 0).  E.g. `ATOMG.E.ADD.STRONG.
// GPU PT, R0, desc[UR4][R62.64], R41` 0x00456200081ef104_800000293e0079a8,
// `ATOMG.E.ADD.F32.FTZ.RN.STRONG.GPU PT, R14, desc[UR4][R62.64+0x34], R51`
// 0x000568000c1ef304_800034333e0e79a3, `REDG.E.MIN.STRONG.GPU desc[UR4]
// [R62.64+0x108], R41` 0x0003e8000c92e104_000108293e00798e.
class BwGAtomInst<bits<12> op, string asm, dag outs, dag ins>
    : SM86Op<op, asm, outs, ins, MemAtomic>, OnlyOn<BlackwellTargets> {
  bits<8> Ra;
  bits<8> Rb;
  bits<8> Ur;
  bit e;
  bits<4> ord;
  bit aw;
  let ReuseOperands = ["", "", "", ""];
  let Inst{31-24} = Ra;
  let Inst{39-32} = Rb;
  let Inst{71-64} = Ur;
  let Inst{72} = e;
  let Inst{80-77} = ord;
  let Inst{84} = 1;
  let Inst{91} = 1;
}
class BwGAtomMn<string n, bits<12> op> {
  string Name = n;
  bits<12> Op = op;
}
foreach T = [GAtomU32, GAtomS32, GAtomU64, GAtomS64, GAtomF32, GAtomF16x2,
             GAtomF64, GAtomBF16x2] in {
  defvar IsFloat = !and(T.Moves, !ne(T.Name, "S64"));
  foreach M = [BwGAtomMn<"ATOMG", T.AtomG90>, BwGAtomMn<"ATOM", T.Atom90>] in
    def M.Name # _DESC_ # T.Name # _SM100 :
      BwGAtomInst<M.Op, M.Name # "${e}${aop}" # T.Text # "${ord} $Pd, $Rd, " #
                          "desc[$Ur]<$Ra${aw}+$off>, $Rb",
                  (outs Pred:$Pd, T.RegT:$Rd),
                  (ins EMod:$e, T.AtomOps:$aop, GenOrder:$ord, MemDesc:$Ur,
                       MemBase:$Ra, GAtomAddrW:$aw, MemOff:$off,
                       T.RegT:$Rb)> {
      bits<8> Rd;
      bits<23> off;
      bits<3> Pd;
      bits<4> aop;
      let Inst{23-16} = Rd;
      let Inst{62-40} = off;
      let Inst{63} = aw;
      let Inst{76-73} = !if(IsFloat, T.Code90, {1, T.Code90{2-0}});
      let Inst{83-81} = Pd;
      let Inst{90-87} = !if(IsFloat, {1, aop{2-0}}, aop);
    }
  def REDG_DESC_ # T.Name # _SM100 :
    BwGAtomInst<T.Red90, "REDG${e}${rop}" # T.Text #
                         "${ord} desc[$Ur]<$Ra${aw}+$off>, $Rb", (outs),
                (ins EMod:$e, T.RedOps:$rop, GenOrder:$ord, MemDesc:$Ur,
                     MemBase:$Ra, GAtomAddrW:$aw, MemOff:$off, T.RegT:$Rb)> {
    bits<24> off;
    bits<3> rop;
    let Inst{63-40} = off;
    let Inst{76-73} = T.Code90;
    let Inst{81} = 1;
    let Inst{89-87} = rop;
    let Inst{90} = aw;
  }
}

// ATOMS.CAST.SPIN 0x58d: the compare-and-swap loop of a generic atomic's
// shared-memory fallback (sm_90: ATOM.E.CAST.SPIN on the generic address):
// Ra [24:31], offset [40:63], compare Rb [32:39], new value Rc [64:71],
// .64 [73:75] = 2, the op [87:90] = 3 (CAST.SPIN, as sm_86's 0x38d), the
// success predicate [81:83], [16:23] = 0 (E: 7 words, e.g. `ATOMS.CAST.SPIN
// P0, [R4], R8, R9` 0x000e240001800009_000000080400758d, `.64` 0x000e24
// 0001800416_000030141300758d).  The spelling follows sm_86's ATOMS.
foreach W = [32, 64] in
  def ATOMS_CAST_SPIN_ # W # _SM100 :
    SM86Op<0x58d, "ATOMS.CAST.SPIN" # !if(!eq(W, 64), ".64", "") #
                  " $Pd, <$Ra+$off>, $Rb, $Rc", (outs Pred:$Pd),
           !con((ins MemBase:$Ra, MemOff:$off),
                !if(!eq(W, 32), (ins GPR:$Rb, GPR:$Rc),
                    (ins GPR64:$Rb, GPR64:$Rc))), MemAtomic>,
    OnlyOn<BlackwellTargets> {
    bits<8> Ra;
    bits<24> off;
    bits<8> Rb;
    bits<8> Rc;
    bits<3> Pd;
    let ReuseOperands = ["", "", "", ""];
    let Inst{31-24} = Ra;
    let Inst{39-32} = Rb;
    let Inst{63-40} = off;
    let Inst{71-64} = Rc;
    let Inst{75-73} = !if(!eq(W, 32), 0b000, 0b010);
    let Inst{83-81} = Pd;
    let Inst{90-87} = 0b0011;
  }

include "SM100/SM100Uniform.td"
// sm_120/sm_121: conversions of uniform values.
include "SM100/SM120Convert.td"
// sm_120/sm_121: uniform float ops, R2UR, packed bytes, 64-bit compare/select.
include "SM100/SM120Instrs.td"

// CREDUX 0x2cc (sm_100): ptxas's redux.sync.min/.max (sm_80..90 and
// sm_120: REDUX.MIN/.MAX), a reduction over the executing lanes of Ra
// [24:31] into the uniform register Rd [16:23] (8 bits, SM100Uniform.td);
// [73] .S32; [78:80] op: .MIN 2, .MAX 0 (E: test/MC/Inputs/redux_forms.ptx,
// `CREDUX.MIN UR8, R0` 0x040fe40000008000_00000000000872cc, .MIN.S32
// 0x...00008200_...0972cc, .MAX 0x...00000000_...0a72cc, .MAX.S32
// 0x...00000200_...0b72cc; the spelling is NVIDIA's opcode list for
// Blackwell, "CREDUX.MIN/MAX" in public listings).  ptxas gives it no
// scoreboard: fixed latency, its consumer 2 instructions later at the
// earliest (UniformMove's 2 cycles, no ptxas pair checks more yet).
def CreduxOp : Mod<[2, 0], [".MIN", ".MAX"]>;
def CREDUX : SM86Op<0x2cc, "CREDUX${rop}${ty} $Rd, $Ra", (outs UGPR:$Rd),
                    (ins CreduxOp:$rop, ReduxType:$ty, GPR:$Ra), UniformMove>,
             OnlyOn<[TargetSM100]> {
  bits<8> Rd;
  bits<8> Ra;
  bits<3> rop;
  bit ty;
  let ReuseOperands = ["", "", "", ""];
  let Inst{23-16} = Rd;
  let Inst{31-24} = Ra;
  let Inst{73} = ty;
  let Inst{80-78} = rop;
}
