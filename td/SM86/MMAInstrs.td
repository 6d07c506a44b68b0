//===- MMAInstrs.td - sm_86 tensor-core MMA -----------------*- tablegen -*-===//
//
// HMMA 0x23c (N*, T, C, R 13/13 dense samples, E):
//   D [16:23], A [24:31], B [32:39], C [64:71]; reuse A/B/C [122]/[123]/[124]
//   shape: [75] low bit and [78] high bit: 0 .1688, 1 .16816, 2 .1684
//   [76] accumulator type: 0 .F16, 1 .F32
//   [82:83] input type: 0 F16 (not printed), 1 .BF16, 2 .TF32
// Register tuples (C, E: all samples aligned): .16816 A 4, B 2; .1688 (F16,
// BF16) A 2, B 1; .1688.TF32 A 4, B 2; .1684.TF32 A 2, B 1; D and C 4 for
// .F32, 2 for .F16.  One form per combination so InstrInfo has the widths.
// Latency: ptxas keeps 24 cycles after HMMA.16816.F32 (E; SASS_FACTS 2.3).
//
//===----------------------------------------------------------------------===//

class HMMAInst<string name, int shape, bit f32, int itype, OperandType aT,
               OperandType bT, SchedClass s>
    : SM86Op<0x23c, "HMMA." # name # " $Rd, $Ra, $Rb, $Rc",
             !if(f32, (outs GPR128:$Rd), (outs GPR64:$Rd)),
             !con(!dag(ins, [aT, bT], ["Ra", "Rb"]),
                  !if(f32, (ins GPR128:$Rc), (ins GPR64:$Rc))), s> {
  bits<8> Rd;
  bits<8> Ra;
  bits<8> Rb;
  bits<8> Rc;
  let Inst{23-16} = Rd;
  let Inst{31-24} = Ra;
  let Inst{39-32} = Rb;
  let Inst{71-64} = Rc;
  let Inst{75} = !and(shape, 1);
  let Inst{78} = !srl(shape, 1);
  let Inst{76} = f32;
  let Inst{83-82} = itype;
}
def HMMA_16816_F32 : HMMAInst<"16816.F32", 1, 1, 0, GPR128, GPR64, MMA16816>;
def HMMA_16816_F16 : HMMAInst<"16816.F16", 1, 0, 0, GPR128, GPR64, MMA16816>;
def HMMA_16816_F32_BF16 : HMMAInst<"16816.F32.BF16", 1, 1, 1, GPR128, GPR64,
                                   MMA16816>;
def HMMA_1688_F32 : HMMAInst<"1688.F32", 0, 1, 0, GPR64, GPR, MMA1688>;
def HMMA_1688_F16 : HMMAInst<"1688.F16", 0, 0, 0, GPR64, GPR, MMA1688>;
def HMMA_1688_F32_BF16 : HMMAInst<"1688.F32.BF16", 0, 1, 1, GPR64, GPR,
                                  MMA1688>;
def HMMA_1688_F32_TF32 : HMMAInst<"1688.F32.TF32", 0, 1, 2, GPR128, GPR64,
                                  MMA16816>;
def HMMA_1684_F32_TF32 : HMMAInst<"1684.F32.TF32", 2, 1, 2, GPR64, GPR,
                                  MMA1688>;

// HMMA.SP (sparse, 2:4): shape .16832 ([75] and [78] set, [73] = sparse);
// metadata register E [40:47] with its own `.reuse` flag [50] (not a reuse
// slot: `R4.reuse` is printed with bits 122..125 clear), selector [48:49]
// (C samples, our corpus test).  A 4 and B 4 registers.
def MetaReuse : Mod<[0, 1], ["", ".reuse"]>;
class HMMASPInst<string name, bit f32>
    : SM86Op<0x23c, "HMMA.SP." # name # " $Rd, $Ra, $Rb, $Rc, $Re${er}, $sel",
             !if(f32, (outs GPR128:$Rd), (outs GPR64:$Rd)),
             !con((ins GPR128:$Ra, GPR128:$Rb),
                  !if(f32, (ins GPR128:$Rc), (ins GPR64:$Rc)),
                  (ins GPR:$Re, MetaReuse:$er, UImm:$sel)), MMA16816> {
  bits<8> Rd;
  bits<8> Ra;
  bits<8> Rb;
  bits<8> Rc;
  bits<8> Re;
  bit er;
  bits<2> sel;
  let ReuseOperands = ["Ra", "Rb", "Rc", ""];
  let Inst{23-16} = Rd;
  let Inst{31-24} = Ra;
  let Inst{39-32} = Rb;
  let Inst{47-40} = Re;
  let Inst{49-48} = sel;
  let Inst{50} = er;
  let Inst{71-64} = Rc;
  let Inst{73} = 1;
  let Inst{75} = 1;
  let Inst{78} = 1;
  let Inst{76} = f32;
}
def HMMA_SP_16832_F16 : HMMASPInst<"16832.F16", 0>;
def HMMA_SP_16832_F32 : HMMASPInst<"16832.F32", 1>;

// DMMA.884 0x23f: f64 D(8x8) = A(8x4) B(4x8) + C (every sm_86/sm_80 TSV
// row; E: ptxas 13 builds the same words for sm_86 and sm_90 from
// test/MC/Inputs/dmma_forms.ptx).  D [16:23], A [24:31], B [32:39], C
// [64:71] (D and C 4 registers, A and B 2); negate/abs of A [72]/[73]
// (`DMMA.884 R4, -R64.reuse, R62, R4`, `DMMA.884 R28, |R40|, R64.reuse,
// R24`), of B [63]/[62] (`DMMA.884 R8, R66, -R62.reuse, R8`); [78:79]
// rounding (.RM .RP .RZ).  No row negates C.  FP64 and MMA: variable
// latency (SASS_FACTS 2.1; ptxas puts it on a write scoreboard, E).
class DMMAInst<string shape>
    : SM86Op<0x23f, "DMMA." # shape # "${rnd} $Rd, ${na}${aa}$Ra${aa}, " #
                               "${nb}${ab}$Rb${ab}, $Rc",
                      (outs GPR128:$Rd),
                      (ins RndMod:$rnd, NegMod:$na, AbsMod:$aa, GPR64:$Ra,
                           NegMod:$nb, AbsMod:$ab, GPR64:$Rb, GPR128:$Rc),
                      Decoupled> {
  bits<8> Rd;
  bits<8> Ra;
  bits<8> Rb;
  bits<8> Rc;
  bit na;
  bit aa;
  bit nb;
  bit ab;
  bits<2> rnd;
  let Inst{23-16} = Rd;
  let Inst{31-24} = Ra;
  let Inst{39-32} = Rb;
  let Inst{62} = ab;
  let Inst{63} = nb;
  let Inst{71-64} = Rc;
  let Inst{72} = na;
  let Inst{73} = aa;
  let Inst{79-78} = rnd;
}
// nvdisasm 11.8 spells the shape 8x8x4 on sm_90 (Hopper adds DMMA shapes),
// 884 on sm_80/86/89 (and every TSV row).
def DMMA_884 : DMMAInst<"884">, OnlyOn<[TargetSM80, TargetSM86, TargetSM89]>;
def DMMA_8x8x4 : DMMAInst<"8x8x4">, OnlyOn<SM90Family>;
