//===- SM90AInstrs.td - Hopper's warpgroup, TMA and mbarrier forms -*- tablegen -*-===//
//
// The instructions ptxas 13 emits for sm_90a's PTX features (wgmma, TMA,
// bulk copies, mbarriers, clusters, setmaxnreg, stmatrix, griddepcontrol,
// elect) and that sm_86 has not.  Every form is available on sm_90 (the
// hardware is one; ptxas -arch=sm_90 emits the TMA/mbarrier/cluster ones
// too, only wgmma and setmaxnreg need sm_90a) and on no other target.
//
// Evidence (E): the words ptxas -arch=sm_90a (CUDA 13.0) builds from
// test/MC/SM90A/Inputs (gen_wgmma.py and the feature files), read field by
// field against the text NVIDIA's nvdisasm 11.8 prints for them (`nvdisasm
// -b SM90` on the raw .text words; SASS_FACTS 4.5, HOPPER_FACTS 1.2/1.3);
// (X): a field confirmed by setting its bits one at a time in a ptxas word
// and reading nvdisasm's text.  Every AsmString is nvdisasm 11.8's
// spelling (test/MC/SM90A/nvdisasm-text.test compares every word) except
// where nvdisasm prints nothing (FP8 wgmma: QGMMA, docs/sm90.md's table of
// spellings).  UR fields are 6 bits here ([x+6:x+7] = 0 in every word).
//
//===----------------------------------------------------------------------===//

defvar Hopper = [TargetSM90];
/// B2R.RESULT and ARRIVES.LDGSTSBAR.64 are older: sm_80/sm_86 TSV rows.
defvar AmpereToHopper = [TargetSM80, TargetSM86, TargetSM89, TargetSM90];

/// A uniform predicate stored inverted (field = 7 - UP: 0 means UPT), the
/// scale-d predicate of the warpgroup MMAs (E: UP0 holds 7, !UPT holds 0
/// with [90] = 1, a constant scale-d holds 0 with [90] = 0 and prints
/// nothing).
def UPredInv : OperandType<"UPred"> { let XorMask = 7; }

//===----------------------------------------------------------------------===//
// Warpgroup MMA: HGMMA (f16, bf16, tf32), IGMMA (8-bit integers), BGMMA
// (1-bit), QGMMA (FP8).  0x9f0..0x9f3 take A from shared memory through
// the descriptor pair in the UR quad gdesc[URx] (URx:URx+1 A, URx+2:URx+3
// B); 0xdf0..0xdf3 take A from four registers Ra and B's descriptor from
// UR [32:37] (nvdisasm names the quad; ptxas leaves its A half unused).
//   Rd [16:23] (= Rc unless Rc is RZ), Rc [64:71] (RZ: the accumulator is
//   zero), [53:58] the shape code, [61] tnspA, [62] tnspB, [63] negB,
//   [72] negA (rs: `-Ra`), [75] F32 accumulator (IGMMA: .SAT), [76:77]
//   the input type (HGMMA: f16 0, bf16 1, tf32 2; IGMMA: [76] A signed;
//   QGMMA: [76] A E5M2, [77] B E5M2), [82] B signed (IGMMA), [78]+[80]
//   .AND.POPC (BGMMA), [84:86] the group scoreboard (0 gsb0, 7 none),
//   [87:89]+[90] scale-d (UPredInv), [91] = 1 (E, HOPPER_FACTS 1.3).
// The shape code is N/8 - 1 for HGMMA and QGMMA, with [58] set for the
// k8 (tf32) shapes; for IGMMA 3 x its index in N = 8, 16, 24, 32, 48, ...,
// 256 and for BGMMA that index (E: every N of gen_wgmma.py).
//===----------------------------------------------------------------------===//

def HgmmaShape16 : Mod<
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11,
   12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23,
   24, 25, 26, 27, 28, 29, 30, 31],
  [".64x8x16", ".64x16x16", ".64x24x16", ".64x32x16", ".64x40x16",
   ".64x48x16", ".64x56x16", ".64x64x16", ".64x72x16", ".64x80x16",
   ".64x88x16", ".64x96x16", ".64x104x16", ".64x112x16", ".64x120x16",
   ".64x128x16", ".64x136x16", ".64x144x16", ".64x152x16", ".64x160x16",
   ".64x168x16", ".64x176x16", ".64x184x16", ".64x192x16", ".64x200x16",
   ".64x208x16", ".64x216x16", ".64x224x16", ".64x232x16", ".64x240x16",
   ".64x248x16", ".64x256x16"]>;
def HgmmaShape8 : Mod<
  [32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43,
   44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55,
   56, 57, 58, 59, 60, 61, 62, 63],
  [".64x8x8", ".64x16x8", ".64x24x8", ".64x32x8", ".64x40x8",
   ".64x48x8", ".64x56x8", ".64x64x8", ".64x72x8", ".64x80x8",
   ".64x88x8", ".64x96x8", ".64x104x8", ".64x112x8", ".64x120x8",
   ".64x128x8", ".64x136x8", ".64x144x8", ".64x152x8", ".64x160x8",
   ".64x168x8", ".64x176x8", ".64x184x8", ".64x192x8", ".64x200x8",
   ".64x208x8", ".64x216x8", ".64x224x8", ".64x232x8", ".64x240x8",
   ".64x248x8", ".64x256x8"]>;
def QgmmaShape32 : Mod<
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11,
   12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23,
   24, 25, 26, 27, 28, 29, 30, 31],
  [".64x8x32", ".64x16x32", ".64x24x32", ".64x32x32", ".64x40x32",
   ".64x48x32", ".64x56x32", ".64x64x32", ".64x72x32", ".64x80x32",
   ".64x88x32", ".64x96x32", ".64x104x32", ".64x112x32", ".64x120x32",
   ".64x128x32", ".64x136x32", ".64x144x32", ".64x152x32", ".64x160x32",
   ".64x168x32", ".64x176x32", ".64x184x32", ".64x192x32", ".64x200x32",
   ".64x208x32", ".64x216x32", ".64x224x32", ".64x232x32", ".64x240x32",
   ".64x248x32", ".64x256x32"]>;
def IgmmaShape32 : Mod<
  [0, 3, 6, 9, 12, 15, 18, 21, 24, 27, 30, 33,
   36, 39, 42, 45, 48, 51],
  [".64x8x32", ".64x16x32", ".64x24x32", ".64x32x32", ".64x48x32",
   ".64x64x32", ".64x80x32", ".64x96x32", ".64x112x32", ".64x128x32",
   ".64x144x32", ".64x160x32", ".64x176x32", ".64x192x32", ".64x208x32",
   ".64x224x32", ".64x240x32", ".64x256x32"]>;
def BgmmaShape256 : Mod<
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11,
   12, 13, 14, 15, 16, 17],
  [".64x8x256", ".64x16x256", ".64x24x256", ".64x32x256", ".64x48x256",
   ".64x64x256", ".64x80x256", ".64x96x256", ".64x112x256", ".64x128x256",
   ".64x144x256", ".64x160x256", ".64x176x256", ".64x192x256", ".64x208x256",
   ".64x224x256", ".64x240x256", ".64x256x256"]>;

def HgmmaAcc  : Mod<[0, 1], [".F16", ".F32"]>;
def GmmaNegA  : Mod<[0, 1], ["", ".negA"]>;
def GmmaNegB  : Mod<[0, 1], ["", ".negB"]>;
def GmmaTnspA : Mod<[0, 1], ["", ".tnspA"]>;
def GmmaTnspB : Mod<[0, 1], ["", ".tnspB"]>;
def GmmaGsb   : Mod<[7, 0], ["", ", gsb0"]>;
def IgmmaSign : Mod<[0, 1], [".U8", ".S8"]>;
def IgmmaSat  : Mod<[0, 1], ["", ".SAT"]>;
def QgmmaType : Mod<[0, 1], [".E4M3", ".E5M2"]>;

/// One warpgroup MMA form.  \p kind: 0 HGMMA f16 (.F16/.F32), 1 HGMMA
/// bf16, 2 HGMMA tf32, 3 IGMMA, 4 BGMMA, 5 QGMMA; \p rs: A from registers;
/// \p pred: a scale-d predicate is printed (else [87:90] = 0).
class GMMAInst<int kind, bit rs, bit pred>
    : SM86Op<!add(!if(rs, 0xdf0, 0x9f0),
                  !cond(!le(kind, 2): 0, !eq(kind, 3): 1, !eq(kind, 4): 2,
                        true: 3)),
             !cond(!le(kind, 2): "HGMMA", !eq(kind, 3): "IGMMA",
                   !eq(kind, 4): "BGMMA", true: "QGMMA") # "${shape}" #
               !cond(!eq(kind, 0): "${acc}", !eq(kind, 1): ".F32.BF16",
                     !eq(kind, 2): ".F32.TF32", !eq(kind, 3): "${sa}${sb}${sat}",
                     !eq(kind, 4): ".AND.POPC", true: "${acc}${ta}${tb}") #
               " $Rd, " # !if(rs, !if(!le(kind, 2), "${na}", "") # "$Ra, ", "") #
               // nvdisasm writes `gdesc [URx]` for HGMMA, `gdesc[URx]` for
               // IGMMA and BGMMA.
               !if(!or(!eq(kind, 3), !eq(kind, 4)), "gdesc[$Ug]", "gdesc [$Ug]") #
               !if(!le(kind, 2), !if(rs, "", "${na}") # "${nb}" #
                                   !if(!or(rs, !eq(kind, 2)), "", "${tpa}") #
                                   !if(!eq(kind, 2), "", "${tpb}"), "") #
               ", $Rc" # !if(pred, ", ${pn}$Pu", "") # "${gsb}",
             (outs GPR:$Rd),
             !con(!cond(!eq(kind, 0): (ins HgmmaShape16:$shape, HgmmaAcc:$acc),
                        !eq(kind, 1): (ins HgmmaShape16:$shape),
                        !eq(kind, 2): (ins HgmmaShape8:$shape),
                        !eq(kind, 3): (ins IgmmaShape32:$shape, IgmmaSign:$sa,
                                           IgmmaSign:$sb, IgmmaSat:$sat),
                        !eq(kind, 4): (ins BgmmaShape256:$shape),
                        true: (ins QgmmaShape32:$shape, HgmmaAcc:$acc,
                                   QgmmaType:$ta, QgmmaType:$tb)),
                  !if(rs, !if(!le(kind, 2), (ins NegMod:$na, GPR:$Ra), (ins GPR:$Ra)),
                      (ins)),
                  (ins UGPR:$Ug),
                  !if(!le(kind, 2),
                      !con(!if(rs, (ins), (ins GmmaNegA:$na)), (ins GmmaNegB:$nb),
                           !if(!or(rs, !eq(kind, 2)), (ins), (ins GmmaTnspA:$tpa)),
                           !if(!eq(kind, 2), (ins), (ins GmmaTnspB:$tpb))),
                      (ins)),
                  (ins GPR:$Rc),
                  !if(pred, (ins PNot:$pn, UPredInv:$Pu), (ins)),
                  (ins GmmaGsb:$gsb)),
             Decoupled>, OnlyOn<Hopper> {
  bits<8> Rd;
  bits<8> Ra;
  bits<6> Ug;
  bits<8> Rc;
  bits<6> shape;
  bit acc;
  bit na;
  bit nb;
  bit tpa;
  bit tpb;
  bit sa;
  bit sb;
  bit sat;
  bit ta;
  bit tb;
  bit pn;
  bits<3> Pu;
  bits<3> gsb;
  let ReuseOperands = ["", "", "", ""];
  let Inst{23-16} = Rd;
  let Inst{29-24} = !if(rs, Ra{5-0}, Ug);
  let Inst{31-30} = !if(rs, Ra{7-6}, 0b00);
  let Inst{37-32} = !if(rs, Ug, 0b000000);
  let Inst{58-53} = shape;
  let Inst{61} = !if(!and(!le(kind, 2), !eq(rs, 0), !ne(kind, 2)), tpa, 0);
  let Inst{62} = !if(!and(!le(kind, 2), !ne(kind, 2)), tpb, 0);
  let Inst{63} = !if(!le(kind, 2), nb, 0);
  let Inst{71-64} = Rc;
  let Inst{72} = !if(!le(kind, 2), na, 0);
  let Inst{75} = !if(!eq(kind, 0), acc, !if(!eq(kind, 3), sat,
                   !if(!eq(kind, 5), acc, !if(!eq(kind, 4), 0, 1))));
  let Inst{76} = !if(!eq(kind, 1), 1, !if(!eq(kind, 3), sa,
                   !if(!eq(kind, 5), ta, 0)));
  let Inst{77} = !if(!eq(kind, 2), 1, !if(!eq(kind, 5), tb, 0));
  let Inst{78} = !if(!eq(kind, 4), 1, 0);
  let Inst{80} = !if(!eq(kind, 4), 1, 0);
  let Inst{82} = !if(!eq(kind, 3), sb, 0);
  let Inst{86-84} = gsb;
  let Inst{89-87} = !if(pred, Pu, 0b000);
  let Inst{90} = !if(pred, pn, 0);
  let Inst{91} = 1;
}


class GmmaKind<int k, string n> { int K = k; string Name = n; }
foreach K = [GmmaKind<0, "F16">, GmmaKind<1, "BF16">, GmmaKind<2, "TF32">,
             GmmaKind<3, "I8">, GmmaKind<4, "B1">, GmmaKind<5, "FP8">] in
  foreach RS = [0, 1] in
    foreach P = [0, 1] in
      // BGMMA takes A from shared memory only (PTX ISA 9.7.15.5.1).
      if !eq(!and(!eq(K.K, 4), RS), 0) then
        def GMMA_ # K.Name # !if(RS, "_RS", "_SS") # !if(P, "_P", "") :
          GMMAInst<K.K, RS, P>;

// WARPGROUP.ARRIVE (wgmma.fence) and WARPGROUP.DEPBAR.LE gsb0, N
// (wgmma.wait_group N): 0x9c5, [80] DEPBAR, [47] .LE, N [72:74] (X: bits
// 72, 73, 74 print 0x1, 0x2, 0x4).
def WARPGROUP_ARRIVE : SM86Op<0x9c5, "WARPGROUP.ARRIVE", (outs), (ins),
                              Barrier>, OnlyOn<Hopper> {
  let ReuseOperands = ["", "", "", ""];
}
def WARPGROUP_DEPBAR : SM86Op<0x9c5, "WARPGROUP.DEPBAR.LE gsb0, $cnt", (outs),
                              (ins UImm:$cnt), Barrier>, OnlyOn<Hopper> {
  bits<3> cnt;
  let ReuseOperands = ["", "", "", ""];
  let Inst{47} = 1;
  let Inst{74-72} = cnt;
  let Inst{80} = 1;
}

//===----------------------------------------------------------------------===//
// TMA (E): UTMALDG 0x5b4 (0x3b4 with a third UR: the multicast mask or the
// im2col offsets), UTMASTG 0x3b5, UTMAREDG 0x3b6, UTMAPF 0x5b8, UTMACCTL
// 0x9b9, UTMACMDFLUSH 0x9b7.  [24:29] the tensor map's UR pair (UTMAREDG:
// the shared group, printed second), [32:37] the shared group (URx = the
// shared address, URx+1 the mbarrier, then the coordinates; UTMAREDG: the
// map), [64:69] the third UR, [40:45] the L2 cache-policy descriptor with
// [76] = 1 (`desc[URx]`), [75] .MULTICAST, [79:81] rank - 1, [82]
// .IM2COL, [87:89] UTMAREDG's operation; [91] = 1.
//===----------------------------------------------------------------------===//
def TmaDim    : Mod<[0, 1, 2, 3, 4], [".1D", ".2D", ".3D", ".4D", ".5D"]>;
def TmaIm2col : Mod<[0, 1], ["", ".IM2COL"]>;
def TmaRedOp  : Mod<[0, 1, 2, 3, 4, 5, 6, 7],
                    [".ADD", ".MIN", ".MAX", ".INC", ".DEC", ".AND", ".OR",
                     ".XOR"]>;
class TMAInst<bits<12> op, string asm, dag ins>
    : SM86Op<op, asm, (outs), ins, MemStore>, OnlyOn<Hopper> {
  bits<6> Um;
  bits<6> Us;
  bits<6> Ux;
  bits<6> Uc;
  bits<3> dim;
  bit i2c;
  bits<3> rop;
  let ReuseOperands = ["", "", "", ""];
  let Inst{91} = 1;
}
foreach H = [0, 1] in {
  def UTMALDG # !if(H, "_HINT", "") :
    TMAInst<0x5b4, "UTMALDG${dim} [$Us], [$Um]" # !if(H, ", desc[$Uc]", ""),
            !con((ins TmaDim:$dim, UGPR:$Us, UGPR:$Um),
                 !if(H, (ins UGPR:$Uc), (ins)))> {
    let Inst{29-24} = Um;
    let Inst{37-32} = Us;
    let Inst{45-40} = !if(H, Uc, 0b000000);
    let Inst{76} = H;
    let Inst{81-79} = dim;
  }
  // .MULTICAST: the ctaMask in bits 16..31 of UR [64:69].
  def UTMALDG_MULTICAST # !if(H, "_HINT", "") :
    TMAInst<0x3b4, "UTMALDG${dim}.MULTICAST [$Us], [$Um], $Ux" #
                   !if(H, ", desc[$Uc]", ""),
            !con((ins TmaDim:$dim, UGPR:$Us, UGPR:$Um, UGPR:$Ux),
                 !if(H, (ins UGPR:$Uc), (ins)))> {
    let Inst{29-24} = Um;
    let Inst{37-32} = Us;
    let Inst{45-40} = !if(H, Uc, 0b000000);
    let Inst{69-64} = Ux;
    let Inst{75} = 1;
    let Inst{76} = H;
    let Inst{81-79} = dim;
  }
}
// .IM2COL (3D-5D): the im2col offsets (16-bit each) in UR [64:69].
def UTMALDG_IM2COL :
  TMAInst<0x3b4, "UTMALDG${dim}.IM2COL [$Us], [$Um], $Ux",
          (ins TmaDim:$dim, UGPR:$Us, UGPR:$Um, UGPR:$Ux)> {
  let Inst{29-24} = Um;
  let Inst{37-32} = Us;
  let Inst{69-64} = Ux;
  let Inst{81-79} = dim;
  let Inst{82} = 1;
}
def UTMASTG : TMAInst<0x3b5, "UTMASTG${dim}${i2c} [$Us], [$Um]",
                      (ins TmaDim:$dim, TmaIm2col:$i2c, UGPR:$Us, UGPR:$Um)> {
  let Inst{29-24} = Um;
  let Inst{37-32} = Us;
  let Inst{81-79} = dim;
  let Inst{82} = i2c;
}
def UTMAREDG : TMAInst<0x3b6, "UTMAREDG${dim}${rop} [$Um], [$Us]",
                       (ins TmaDim:$dim, TmaRedOp:$rop, UGPR:$Um, UGPR:$Us)> {
  let Inst{29-24} = Us;
  let Inst{37-32} = Um;
  let Inst{81-79} = dim;
  let Inst{89-87} = rop;
}
def UTMAPF : TMAInst<0x5b8, "UTMAPF.L2${dim} [$Us], [$Um]",
                     (ins TmaDim:$dim, UGPR:$Us, UGPR:$Um)> {
  let Inst{29-24} = Um;
  let Inst{37-32} = Us;
  let Inst{81-79} = dim;
}
// UTMACCTL .IV 0 / .PF 1 at [82]: prefetch.tensormap is .PF;
// fence.proxy.tensormap::generic.acquire gives .IV (E).
def TmaCctl : Mod<[0, 1], [".IV", ".PF"]>;
def UTMACCTL : TMAInst<0x9b9, "UTMACCTL${op} [$Um]",
                       (ins TmaCctl:$op, UGPR:$Um)> {
  bit op;
  let Inst{29-24} = Um;
  let Inst{82} = op;
}
// cp.async.bulk.commit_group: no fields; ptxas gives it read scoreboard
// SB0, which `DEPBAR.LE SB0, N` counts (HOPPER_FACTS 1.2).
def UTMACMDFLUSH : SM86Op<0x9b7, "UTMACMDFLUSH", (outs), (ins), Decoupled>,
                   OnlyOn<Hopper> {
  let ReuseOperands = ["", "", "", ""];
}

//===----------------------------------------------------------------------===//
// Bulk copies (E): UBLKCP 0x3ba [$dst], [$src], $size: [32:37] the
// destination group (shared destination: URx+1 is the mbarrier), [24:29]
// the source, [64:69] the size UR (bytes / 16; multicast: | mask << 16),
// [73:74] direction (.S.G 1, .G.S 2, .S.S 3), [75] .MULTICAST, [76] with
// the L2 policy desc[UR [40:45]].  UBLKRED 0x3bb (cp.reduce.async.bulk):
// .G.S ([74]) with [87:89] the operation as UTMAREDG's and [81:83] the
// type (U32 0, .S32 1, .U64 2, .F16.RN 4, .F32.RN 5: the values seen).
// UBLKPF 0x3bc (.L2 [src], size).
//===----------------------------------------------------------------------===//
def BlkDir : Mod<[1, 2, 3], [".S.G", ".G.S", ".S.S"]>;
def BlkMulticast : Mod<[0, 1], ["", ".MULTICAST"]>;
foreach H = [0, 1] in
  def UBLKCP # !if(H, "_HINT", "") :
    TMAInst<0x3ba, "UBLKCP${dir}${mc} [$Us], [$Um], $Ux" #
                   !if(H, ", desc[$Uc]", ""),
            !con((ins BlkDir:$dir, BlkMulticast:$mc, UGPR:$Us, UGPR:$Um,
                      UGPR:$Ux), !if(H, (ins UGPR:$Uc), (ins)))> {
    bits<2> dir;
    bit mc;
    let Inst{29-24} = Um;
    let Inst{37-32} = Us;
    let Inst{45-40} = !if(H, Uc, 0b000000);
    let Inst{69-64} = Ux;
    let Inst{74-73} = dir;
    let Inst{75} = mc;
    let Inst{76} = H;
  }
def BlkRedType : Mod<[0, 1, 2, 4, 5], ["", ".S32", ".U64", ".F16.RN",
                                       ".F32.RN"]>;
def UBLKRED : TMAInst<0x3bb, "UBLKRED.G.S${rop}${ty} [$Us], [$Um], $Ux",
                      (ins TmaRedOp:$rop, BlkRedType:$ty, UGPR:$Us, UGPR:$Um,
                           UGPR:$Ux)> {
  bits<3> ty;
  let Inst{29-24} = Um;
  let Inst{37-32} = Us;
  let Inst{69-64} = Ux;
  let Inst{74} = 1;
  let Inst{83-81} = ty;
  let Inst{89-87} = rop;
}
def UBLKPF : TMAInst<0x3bc, "UBLKPF.L2 [$Um], $Ux",
                     (ins UGPR:$Um, UGPR:$Ux)> {
  let Inst{29-24} = Um;
  let Inst{69-64} = Ux;
}

//===----------------------------------------------------------------------===//
// mbarriers (E).  The address is [Ra+UR]: Ra [24:31] (RZ when the address
// is uniform), UR [64:69] (URZ when not); nvdisasm prints `[UR6]` and
// `[R7+URZ]`.
// * SYNCS.EXCH.64 0x5b2 (mbarrier.init): URd [16:21] (URZ), address UR
//   [24:29], value UR pair [32:37]; [72] = 1.
// * SYNCS.ARRIVE.TRANS64 0x9a7: Rd [16:23] (the old state; RZ), count or
//   transaction bytes Rb [32:39], [73] .TMASK, [74] .RED, [75] .OPTOUT
//   (arrive_drop), [84:86] the variant (0 arrive + expect_tx, 1 .A1T0,
//   2 .A0T1, 3 .A0TR, 4 .A0TX, 5 .ART0).
// * SYNCS.PHASECHK.TRANS64 0x5a7 (test_wait / try_wait with [72]
//   .TRYWAIT): Pd [81:83], the parity or state Rb [32:39], [70] = 1.
// * SYNCS.CCTL.IV 0x9b1 (mbarrier.inval).
// * ARRIVES.LDGSTSBAR.64 0x9b0 (cp.async.mbarrier.arrive): [70:71]
//   .ARVCNT 1 / .TRANSCNT 2 (.noinc) / none 0 (sm_86 rows), [73] = [75] = 1.
//===----------------------------------------------------------------------===//
def SyncsVariant : Mod<[0, 1, 2, 3, 4, 5],
                       ["", ".A1T0", ".A0T1", ".A0TR", ".A0TX", ".ART0"]>;
def SyncsTmask  : Mod<[0, 1], ["", ".TMASK"]>;
def SyncsRed    : Mod<[0, 1], ["", ".RED"]>;
def SyncsOptout : Mod<[0, 1], ["", ".OPTOUT"]>;
def SyncsTry    : Mod<[0, 1], ["", ".TRYWAIT"]>;
def LdgstsbarMode : Mod<[0, 1, 2], ["", ".ARVCNT", ".TRANSCNT"]>;

class SyncsInst<bits<12> op, string asm, dag outs, dag ins, SchedClass s>
    : SM86Op<op, asm, outs, ins, s>, OnlyOn<Hopper> {
  bits<8> Rd;
  bits<8> Ra;
  bits<8> Rb;
  bits<6> Ur;
  bits<3> Pd;
  let ReuseOperands = ["", "", "", ""];
  let Inst{91} = 1;
}
def SYNCS_EXCH_64 : SyncsInst<0x5b2, "SYNCS.EXCH.64 $Ud, [$Ua], $Uv",
                              (outs UGPR:$Ud), (ins UGPR:$Ua, UGPR64:$Uv),
                              Decoupled> {
  bits<6> Ud;
  bits<6> Ua;
  bits<6> Uv;
  let Inst{21-16} = Ud;
  let Inst{29-24} = Ua;
  let Inst{37-32} = Uv;
  let Inst{72} = 1;
}
def SYNCS_ARRIVE_TRANS64 :
  SyncsInst<0x9a7, "SYNCS.ARRIVE.TRANS64${tm}${red}${opt}${var} $Rd, " #
                   "<$Ra+$Ur>, $Rb",
            (outs GPR:$Rd),
            (ins SyncsTmask:$tm, SyncsRed:$red, SyncsOptout:$opt,
                 SyncsVariant:$var, MemBase:$Ra, MemUR:$Ur, GPR:$Rb),
            Decoupled> {
  bit tm;
  bit red;
  bit opt;
  bits<3> var;
  let Inst{23-16} = Rd;
  let Inst{31-24} = Ra;
  let Inst{39-32} = Rb;
  let Inst{69-64} = Ur;
  let Inst{73} = tm;
  let Inst{74} = red;
  let Inst{75} = opt;
  let Inst{86-84} = var;
}
def SYNCS_PHASECHK_TRANS64 :
  SyncsInst<0x5a7, "SYNCS.PHASECHK.TRANS64${try} $Pd, <$Ra+$Ur>, $Rb",
            (outs Pred:$Pd),
            (ins SyncsTry:$try, MemBase:$Ra, MemUR:$Ur, GPR:$Rb), Decoupled> {
  bit try;
  let Inst{31-24} = Ra;
  let Inst{39-32} = Rb;
  let Inst{69-64} = Ur;
  let Inst{70} = 1;
  let Inst{72} = try;
  let Inst{83-81} = Pd;
}
def SYNCS_CCTL_IV : SyncsInst<0x9b1, "SYNCS.CCTL.IV <$Ra+$Ur>", (outs),
                              (ins MemBase:$Ra, MemUR:$Ur), Barrier> {
  let Inst{31-24} = Ra;
  let Inst{69-64} = Ur;
}
// ARRIVES.LDGSTSBAR.64 is sm_80's too (sm_80/sm_86 TSV rows, without a
// count suffix: mode 0).
def ARRIVES_LDGSTSBAR_64 :
  SM86Op<0x9b0, "ARRIVES.LDGSTSBAR.64${mode} <$Ra+$Ur>", (outs),
         (ins LdgstsbarMode:$mode, MemBase:$Ra, MemUR:$Ur), Decoupled>,
  OnlyOn<AmpereToHopper> {
  bits<8> Ra;
  bits<6> Ur;
  bits<2> mode;
  let ReuseOperands = ["", "", "", ""];
  let Inst{31-24} = Ra;
  let Inst{69-64} = Ur;
  let Inst{71-70} = mode;
  let Inst{73} = 1;
  let Inst{75} = 1;
  let Inst{91} = 1;
}
// NANOSLEEP.SYNCS: the try_wait retry loop's back-off (a suspend-time
// hint); [84] .SYNCS on NANOSLEEP's immediate form (E).
def NANOSLEEP_SYNCS_i : CtlInst<0x95d, "NANOSLEEP.SYNCS $ns", (outs),
                                (ins UImm:$ns), 0>, OnlyOn<Hopper> {
  bits<32> ns;
  let Inst{63-32} = ns;
  let Inst{84} = 1;
}

//===----------------------------------------------------------------------===//
// Warp and CTA operations (E).
// * ELECT 0x82f: Pd [81:83], the elected lane to URd [16:21] (URZ), the
//   member predicate [87:89]+[90] (PT in every word).
// * USETMAXREG 0x9c8: .TRY_ALLOC ([73]) with UPd [81:83], .DEALLOC ([72],
//   [81:83] = 7), [74] .CTAPOOL, the register count [32:39].
// * ACQBULK 0x82e (griddepcontrol.wait), PREEXIT 0x82d
//   (griddepcontrol.launch_dependents): no fields.
// * STSM 0x844 (stmatrix): Ra [24:31] + offset [40:63], Rb [32:39] (1, 2
//   or 4 registers), count [72:73], [78] .MT88 (.trans).
// * FENCE.VIEW.ASYNC 0x3c6: [72] .G (fence.proxy.async.global), else .S.
// * UCGABAR_ARV 0x9c7, UCGABAR_WAIT 0xdc7 (barrier.cluster arrive/wait).
// * BAR with a thread count [42:53] (0: all threads, printed without),
//   the barrier id [54:57], mode [77:78] (.SYNC 0, .ARV 1, .RED 2):
//   0xb1d; 0x91d the count in Rb [32:39].  B2R.RESULT 0x31c: bar.red's
//   result, Rd [16:23], [78] = 1, [81:83] = 7 (a predicate result there
//   in sm_86's rows).
// * DEPBAR with only a scoreboard set [32:37] (no .LE) 0x91a.
// * BRA.U.ANY: [84] .ANY on sm_90's split-offset BRA (X: [85] .INC, [86]
//   .DEC, [90] a negated predicate operand; not modelled).
// * RPCMOV.32: the return-address register halves, 0x352 `Rpc.LO/HI, Rb`
//   (Rb [32:39], [31] .HI), 0x353 `Rd, Rpc.LO/HI` (Rd [16:23], [31] .HI).
// * R2UR: 0x2ca on sm_90 (R2UR_SM120, SM100/SM120Instrs.td).
//===----------------------------------------------------------------------===//
// ELECT is fixed-latency, timed as a uniform move: ptxas 13 gives it no
// scoreboard and issues the IMAD reading its UR 2 cycles after it, the SEL
// reading its predicate 4 after (test/Sim/elect.ptx).
def ELECT : SM86Op<0x82f, "ELECT $Pd, $Ud, ${Ppn}$Pp", (outs Pred:$Pd, UGPR:$Ud),
                   (ins PNot:$Ppn, Pred:$Pp), UniformMove>, OnlyOn<Hopper> {
  bits<3> Pd;
  bits<6> Ud;
  bits<3> Pp;
  bit Ppn;
  let ReuseOperands = ["", "", "", ""];
  let Inst{21-16} = Ud;
  let Inst{83-81} = Pd;
  let Inst{89-87} = Pp;
  let Inst{90} = Ppn;
}
def USETMAXREG_TRY_ALLOC :
  SM86Op<0x9c8, "USETMAXREG.TRY_ALLOC.CTAPOOL $Pu, $n", (outs UPred:$Pu),
         (ins UImm:$n), Decoupled>, OnlyOn<Hopper> {
  bits<3> Pu;
  bits<8> n;
  let ReuseOperands = ["", "", "", ""];
  let Inst{39-32} = n;
  let Inst{73} = 1;
  let Inst{74} = 1;
  let Inst{83-81} = Pu;
  let Inst{91} = 1;
}
def USETMAXREG_DEALLOC :
  SM86Op<0x9c8, "USETMAXREG.DEALLOC.CTAPOOL $n", (outs), (ins UImm:$n),
         Decoupled>, OnlyOn<Hopper> {
  bits<8> n;
  let ReuseOperands = ["", "", "", ""];
  let Inst{39-32} = n;
  let Inst{72} = 1;
  let Inst{74} = 1;
  let Inst{83-81} = 0b111;
  let Inst{91} = 1;
}
def ACQBULK : SM86Op<0x82e, "ACQBULK", (outs), (ins), Barrier>, OnlyOn<Hopper> {
  let ReuseOperands = ["", "", "", ""];
}
def PREEXIT : SM86Op<0x82d, "PREEXIT", (outs), (ins), NoResult>,
              OnlyOn<Hopper> {
  let ReuseOperands = ["", "", "", ""];
}
foreach C = [[0, 1], [1, 2], [2, 4]] in
  def STSM_16_ # C[1] :
    MemInst<0x844, "STSM.16${lay}" # !if(!eq(C[1], 1), "", "." # C[1]) #
                   " <$Ra+$off>, $Rb",
            (outs), !con((ins LdsmLayout:$lay, MemBase:$Ra, MemOff:$off),
                         !cond(!eq(C[1], 1): (ins GPR:$Rb),
                               !eq(C[1], 2): (ins GPR64:$Rb),
                               true: (ins GPR128:$Rb))),
            MemStore>, OnlyOn<Hopper> {
    bits<2> lay;
    let ReuseOperands = ["", "", "", ""];
    let Inst{31-24} = Ra;
    let Inst{39-32} = Rb;
    let Inst{63-40} = off;
    let Inst{73-72} = C[0];
    let Inst{79-78} = lay;
  }
def FenceSpace : Mod<[0, 1], [".S", ".G"]>;
def FENCE_VIEW_ASYNC : SM86Op<0x3c6, "FENCE.VIEW.ASYNC${sp}", (outs),
                              (ins FenceSpace:$sp), Barrier>, OnlyOn<Hopper> {
  bit sp;
  let ReuseOperands = ["", "", "", ""];
  let Inst{72} = sp;
}
def UCGABAR_ARV : SM86Op<0x9c7, "UCGABAR_ARV", (outs), (ins), Barrier>,
                  OnlyOn<Hopper> {
  let ReuseOperands = ["", "", "", ""];
  let Inst{91} = 1;
}
def UCGABAR_WAIT : SM86Op<0xdc7, "UCGABAR_WAIT", (outs), (ins), Barrier>,
                   OnlyOn<Hopper> {
  let ReuseOperands = ["", "", "", ""];
  let Inst{91} = 1;
}
def BarMode : Mod<[0, 1], [".SYNC", ".ARV"]>;
def BAR_RED_CNT_ii : BARInst<0xb1d, "BAR.RED${rop}${defer} $id, $cnt, ${Ppn}$Pp",
                             (ins RedOp:$rop, Defer:$defer, UImm:$id, UImm:$cnt,
                                  PNot:$Ppn, Pred:$Pp), 1>, OnlyOn<Hopper> {
  bits<12> cnt;
  let Inst{53-42} = cnt;
  let Inst{57-54} = id;
  let Inst{90} = Ppn;
}
def BAR_CNT_ir : BARInst<0x91d, "BAR${mode}${defer} $id, $Rb",
                         (ins BarMode:$mode, Defer:$defer, UImm:$id, GPR:$Rb),
                         0>, OnlyOn<Hopper> {
  bits<1> mode;
  let Inst{39-32} = Rb;
  let Inst{57-54} = id;
  let Inst{77} = mode;
  let Inst{89-87} = 0b000;
}
def DEPBAR_SET : SM86Op<0x91a, "DEPBAR $set", (outs), (ins SBSet:$set),
                        Barrier>, OnlyOn<Hopper> {
  bits<6> set;
  let Inst{37-32} = set;
}
def BRA_U_ANY : CtlInst<0x947, "BRA.U.ANY $tgt", (outs), (ins BrTarget:$tgt), 0>,
                OnlyOn<Hopper> {
  let IsBranch = 1;
  bits<56> tgt;
  let Inst{23-16} = tgt{7-0};
  let Inst{33-32} = 0b01;
  let Inst{81-34} = tgt{55-8};
  let Inst{84} = 1;
}
def RpcHalf : Mod<[0, 1], ["Rpc.LO", "Rpc.HI"]>;
def RPCMOV_32_to : SM86Op<0x352, "RPCMOV.32 ${hi}, $Rb", (outs),
                          (ins RpcHalf:$hi, GPR:$Rb), CoupledALU>,
                   OnlyOn<Hopper> {
  bit hi;
  bits<8> Rb;
  let ReuseOperands = ["", "", "", ""];
  let Inst{31} = hi;
  let Inst{39-32} = Rb;
}
def RPCMOV_32_from : SM86Op<0x353, "RPCMOV.32 $Rd, ${hi}", (outs GPR:$Rd),
                            (ins RpcHalf:$hi), CoupledALU>, OnlyOn<Hopper> {
  bit hi;
  bits<8> Rd;
  let ReuseOperands = ["", "", "", ""];
  let Inst{23-16} = Rd;
  let Inst{31} = hi;
}
