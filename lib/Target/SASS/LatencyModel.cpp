//===- LatencyModel.cpp - Latencies by class, per target ------------------===//
///
/// \file
/// The latency tables of tp-compact-stalls, tp-verify-schedule and tp-sim's
/// hazard mode, in one file: sm_86, sm_89 (sm_86's table: ptxas's sm_89
/// schedules are sm_86's), sm_80, sm_90, sm_100 and sm_120/sm_121 (one
/// table: ptxas's sm_121 schedules are sm_120's), each sm_86's table except
/// where RawSM80 / RawSM90 / RawSM100 / RawSM120 and TargetLatencies say
/// otherwise.  Every RAW number that ptxas's code uses is checked against
/// ptxas's tightest spacing by test/Sim/latency-evidence.test (sm_86,
/// sm_90), test/Sim/latency-evidence-sm80-sm89.test and
/// test/Sim/latency-evidence-sm100-sm120.test (tp-sim --latency-report on
/// test/Sim/Inputs/latency-pairs.ptx built for each target and on the
/// reference kernels).  Sources (SASS_FACTS.md section 2):
///
///   N  Mesa NAK `sm80_instr_latencies.rs` (Ampere and Ada, "register
///      scheduling information provided by NVIDIA"): read_after_write,
///      write_after_write, write_after_read of RegLatencySM80,
///      PredLatencySM80, URegLatencySM80.  `pred(p, a, b)` there is a + b
///      when the earlier writer is predicated, else b (SASS_FACTS 2.2).
///   E  ptxas 13.0 on our reference cubins and on the micro-kernels of
///      the evidence test (SASS_FACTS 2.3): IADD3->IADD3 4,
///      IMAD->IADD3 5, IMAD->IMAD.WIDE 4, carry-out->IMAD.X 5, ISETP->guard
///      13, HMMA.16816.F32->consumer 24, BAR.SYNC S06, LDGDEPBAR/DEPBAR/BAR
///      S01/S04.
///
/// The td class latencies of td/SM86/SM86Schedule.td are the same numbers
/// towards an ALU reader; unittests/Target/LatencyModelTest checks that
/// they agree.
///
//===----------------------------------------------------------------------===//

#include "tp/Target/SASS/LatencyModel.h"

#include <algorithm>

namespace tp {
namespace sched {

// E (SASS_FACTS 2.3): ptxas 13 keeps HMMA.16816.F32 and the first consumer
// of D 24 cycles apart (HMMA S11 + @!PT filler S11 + filler S02) on sm_80,
// 86, 87, 89; NAK's table says 17 (ALU/FMA reader), 18 (HMMA reader), 15
// (decoupled), 16 (memory).  We take the safe value for every consumer,
// rewrite included.  UNVERIFIED: the true GA102 latency (SASS_FACTS 5)
// needs a GPU microbenchmark; change it here and nowhere else.
static constexpr unsigned HMMA16816ConsumerCycles = 24;
// E: ptxas 13 issues an STG of D 23 cycles after HMMA.16816.F32
// (mma_tile_sm86.cubin 0x04b0 -> 0x04e0, test/Sim/latency-evidence.test);
// NAK too has the memory (DecoupledAgu) reader one cycle below the ALU
// reader (16 against 17).
static constexpr unsigned HMMA16816MemoryCycles = 23;

/// isVariable() as a constant expression (the worst WAR spacings below
/// are computed at compile time).
static constexpr bool isVariableClass(InstrClass C) {
  switch (C) {
  case InstrClass::FP64: // redirected: the safe answer for every target
  case InstrClass::Decoupled:
  case InstrClass::DecoupledAgu:
  case InstrClass::Control:
    return true;
  default:
    // N needs_scoreboards also lists the MMA classes; ptxas 13 gives
    // HMMA.16816.F32 no scoreboard on sm_86 (E, SASS_FACTS 2.1).
    return false;
  }
}

bool isVariable(InstrClass C) { return isVariableClass(C); }

namespace {
/// NAK's GPR writer rows (RegLatencySM80 as a writer); the rows of the
/// RAW tables stop before WMma2x (HMMA.16816 has its constants above).
/// WWideDL, the low register of an IMAD.WIDE result, is rawGPR's LowHalf.
enum WRow {
  WAlu,
  WFma,
  WWideDH,
  WWideDL,
  WFp16,
  WFp16Mma,
  WMma1x,
  WMma2x,
  WNone
};
/// NAK's GPR reader columns.
enum RCol {
  RAlu,
  RFma,
  RWideAB,
  RWideCL,
  RWideCH,
  RFp16,
  RMma1x,
  RMma2x,
  RDec,
  RAgu,
  NumRCols
};

WRow writerRow(InstrClass C) {
  switch (C) {
  case InstrClass::CoupledALU:
  case InstrClass::UniformALU:
  case InstrClass::UniformMove:
    return WAlu;
  case InstrClass::CoupledFMA:
    return WFma;
  case InstrClass::IMADWide:
    return WWideDH; // N op_category: IMad64 writer -> IMADWideWriteDH
  case InstrClass::FP16:
    return WFp16;
  case InstrClass::FP16MMA:
    return WFp16Mma;
  case InstrClass::MMA1688:
    return WMma1x;
  case InstrClass::MMA16816:
    return WMma2x;
  default:
    return WNone;
  }
}

RCol readerCol(InstrClass C, ReadSlot Slot) {
  if (Slot == ReadSlot::IMADWideAB)
    return RWideAB;
  if (Slot == ReadSlot::IMADWideC)
    return RWideCL;
  if (Slot == ReadSlot::IMADWideCHigh)
    return RWideCH;
  switch (C) {
  case InstrClass::CoupledALU:
  case InstrClass::UniformALU:
  case InstrClass::UniformMove:
  case InstrClass::Nop:
    return RAlu;
  case InstrClass::CoupledFMA:
    return RFma;
  case InstrClass::IMADWide:
    return RWideAB; // the larger of the A/B and C columns
  case InstrClass::FP16:
  case InstrClass::FP16MMA:
    return RFp16;
  case InstrClass::MMA1688:
    return RMma1x;
  case InstrClass::MMA16816:
    return RMma2x;
  case InstrClass::Decoupled:
  case InstrClass::FP64:
  case InstrClass::Control:
    return RDec;
  case InstrClass::DecoupledAgu:
    return RAgu;
  }
  return RAlu;
}

// N read_after_write, rows CoupledAlu, CoupledFMA, IMADWideWriteDH,
// IMADWideWriteDL, FP16, MMA_1x_collect; columns CoupledAlu, CoupledFMA,
// IMADWideReadAB, IMADWideReadCL, IMADWideReadCH, FP16, MMA_1x_collect,
// MMA_2x_collect, Decoupled, DecoupledAgu.  E agrees where ptxas was
// observed: ALU->ALU 4, FMA->ALU 5, FMA->IMAD.WIDE A/B 4, ALU/FMA->memory
// 5.  Where ptxas differs from N (E, test/Sim/latency-evidence.test):
//  * sm_86 reads both registers of IMAD.WIDE's C pair alike and keeps the
//    low register of an IMAD.WIDE result as late as the high one (the DL
//    row is the DH row); ptxas issues an IMAD.WIDE 6 cycles after the
//    IMAD.WIDE that wrote its C pair (kernel wide_c), where N's CL column
//    says 4: IMADWideDH -> C is 6.
//  * HMMA.1688.F32 -> the STG of its D: 15 on both targets (test/Sim/mma.ptx,
//    kernel mma_k8), where N says 12.
//  * HFMA2 -> the HFMA2 reading its result: 4 (test/MC/Inputs/
//    uniform_sources.ptx, test/Sim/latency-evidence-corpus.test), where N's
//    FP16 row says 5; HFMA2.MMA (FP16MMA) keeps N's 5.
const unsigned RawSM86[WMma2x][NumRCols] = {
    /* CoupledAlu  */ {4, 5, 5, 5, 5, 5, 7, 7, 4, 5},
    /* CoupledFMA  */ {5, 4, 4, 4, 4, 5, 7, 7, 4, 5},
    /* IMADWideDH  */ {5, 4, 6, 6, 6, 5, 7, 7, 4, 5},
    /* IMADWideDL  */ {5, 4, 6, 6, 6, 5, 7, 7, 4, 5},
    /* FP16        */ {5, 5, 5, 5, 5, 4, 7, 7, 4, 5},
    /* FP16 MMA    */ {5, 5, 5, 5, 5, 5, 7, 7, 4, 5},
    /* MMA 1x      */ {13, 13, 13, 13, 13, 13, 14, 14, 11, 15},
};
// sm_80: sm_86's table but for the HFMA2.MMA writer row.  On sm_80 ptxas
// 13 materialises constants with HFMA2.MMA (sm_86 and sm_89: MOV) and
// issues an IMAD.WIDE reading one 10 cycles later (E: kernel wide_c,
// `HFMA2.MMA R3` S01, `ULDC.64` S09, then the IMAD.WIDE; 8 pairs, all 10
// or more), where the FP16 row says 5.  The row is N's HFMA2_MMA writer
// row (10 to coupled readers, 8 to IMAD.WIDE's C high half, 11 to MMA, 6
// to a decoupled, 7 to a memory reader), which the evidence matches where
// it reaches (A/B 10), but to an FP16 reader: 6 (HFMA2.MMA -> HFMA2.MMA,
// uniform_sources.ptx 0x0170 -> 0x01d0).  The other FP16 ops keep sm_86's row: ptxas
// issues HSET2 -> MOV/IMAD.MOV 5, HFMA2.BF16_V2 -> STG 5, HFMA2 -> HFMA2
// 4 cycles apart on sm_80 (test/Sim/latency-evidence-corpus.test).
// sm_89: sm_86's table (E: the evidence test's sm_89 report is sm_86's,
// pair for pair, every minimum the same).
const unsigned RawSM80[WMma2x][NumRCols] = {
    /* CoupledAlu  */ {4, 5, 5, 5, 5, 5, 7, 7, 4, 5},
    /* CoupledFMA  */ {5, 4, 4, 4, 4, 5, 7, 7, 4, 5},
    /* IMADWideDH  */ {5, 4, 6, 6, 6, 5, 7, 7, 4, 5},
    /* IMADWideDL  */ {5, 4, 6, 6, 6, 5, 7, 7, 4, 5},
    /* FP16        */ {5, 5, 5, 5, 5, 4, 7, 7, 4, 5},
    /* FP16 MMA    */ {10, 10, 10, 10, 8, 6, 11, 11, 6, 7},
    /* MMA 1x      */ {13, 13, 13, 13, 13, 13, 14, 14, 11, 15},
};
// sm_90: sm_86's table but where ptxas 13's sm_90 schedules differ (E,
// kernels of test/Sim/Inputs/latency-pairs.ptx and the reference GEMMs
// built for sm_90):
//  * IMAD.WIDE -> IMAD.WIDE reading the pair as C: 4 (wide_c), N's CL
//    column; sm_86 keeps 6.
//  * IMAD.WIDE low half -> ALU reader: 3 (wide_c2: IMAD.WIDE R6 S03, IADD3
//    reading R6), N's IMADWideWriteDL; sm_86 keeps 5.
//  * IMAD -> the high register of IMAD.WIDE's C pair: 2 (ptxas's sm_90
//    GEMMs, gemm_ref_sm86_all.ptx built for sm_90: `IMAD.MOV.U32 R135` S02
//    before the IMAD.WIDE reading R134:R135); the low register 4, N's CL
//    column, as on sm_86.  N's IMADWideReadCH is the same idea: the high
//    half is read two cycles later.
//  * ALU -> the low register of the C pair: 5 (MOV -> IMAD.WIDE.U32.X,
//    test/MC/Inputs/imad_forms.ptx 0x0b60 -> 0x0b70), as sm_86; the high
//    register 3: IADD3.X -> IMAD.WIDE.U32 reading it 3 cycles apart
//    (uniform_sources.ptx 0x0680 -> 0x06a0, test/Sim/latency-evidence-
//    corpus.test), N's idea of the high half read two cycles after the
//    low one, as sm_100 and sm_120 (the GEMMs' SHF/LEA -> IMAD.WIDE are 5
//    or more apart: bounds, not the latency).
const unsigned RawSM90[WMma2x][NumRCols] = {
    /* CoupledAlu  */ {4, 5, 5, 5, 3, 5, 7, 7, 4, 5},
    /* CoupledFMA  */ {5, 4, 4, 4, 2, 5, 7, 7, 4, 5},
    /* IMADWideDH  */ {5, 4, 6, 4, 4, 5, 7, 7, 4, 5},
    /* IMADWideDL  */ {3, 4, 6, 4, 4, 5, 7, 7, 4, 5},
    /* FP16        */ {5, 5, 5, 5, 5, 5, 7, 7, 4, 5},
    /* FP16 MMA    */ {5, 5, 5, 5, 5, 5, 7, 7, 4, 5},
    /* MMA 1x      */ {13, 13, 13, 13, 13, 13, 14, 14, 11, 15},
};

// sm_100 (B200): sm_90's table but where ptxas 13's sm_100 schedules
// differ (E, test/Sim/latency-evidence-sm100-sm120.test: latency-pairs.ptx,
// the semantics kernels and the five reference PTX files built with
// -arch=sm_100):
//  * ALU -> the high register of IMAD.WIDE's C pair: 3 (6 samples; e.g.
//    gemm_ref_sm86.ptx, rows_cols 0x1050 -> 0x1070); the low register 5
//    (imad_forms.ptx 0x0b50 -> 0x0b60, test/Sim/latency-evidence-corpus.test).
//  * ALU -> HMMA.16816 (a fragment register): 8 (mma_indep, 1 sample: an
//    upper bound); sm_86/90 7.
//  * HMMA.1688 -> a memory reader: 19 (mma_k8, 1 sample: an upper bound);
//    sm_86/90 15.
// HMMA.16816.F32 and the uniform pairs: TargetLatencies below.
const unsigned RawSM100[WMma2x][NumRCols] = {
    /* CoupledAlu  */ {4, 5, 5, 5, 3, 5, 7, 8, 4, 5},
    /* CoupledFMA  */ {5, 4, 4, 4, 2, 5, 7, 7, 4, 5},
    /* IMADWideDH  */ {5, 4, 6, 4, 4, 5, 7, 7, 4, 5},
    /* IMADWideDL  */ {3, 4, 6, 4, 4, 5, 7, 7, 4, 5},
    /* FP16        */ {5, 5, 5, 5, 5, 5, 7, 7, 4, 5},
    /* FP16 MMA    */ {5, 5, 5, 5, 5, 5, 7, 7, 4, 5},
    /* MMA 1x      */ {13, 13, 13, 13, 13, 13, 14, 14, 11, 19},
};
// sm_120, sm_121 (RTX 50, GB10; ptxas's sm_121 schedules are sm_120's pair
// for pair, the test diffs the reports): sm_90's table but (E, the same
// corpus built with -arch=sm_120):
//  * ALU -> the low register of the C pair: 5 (7 samples), as sm_86; the
//    high register 3 (18 samples).
//  * IMAD.WIDE low half -> IMAD.WIDE A/B: 4 (kernel wide, 1 sample); sm_90 6.
//  * HFMA2 -> the high register of the C pair: 6 (kernel wide, 1 sample).
//  * HFMA2 -> the HFMA2 reading its result: 4, as sm_86 (uniform_sources.ptx,
//    test/Sim/latency-evidence-corpus.test).
//  * HMMA.1688 -> a memory reader: 28 (mma_k8, 1 sample: an upper bound).
const unsigned RawSM120[WMma2x][NumRCols] = {
    /* CoupledAlu  */ {4, 5, 5, 5, 3, 5, 7, 7, 4, 5},
    /* CoupledFMA  */ {5, 4, 4, 4, 2, 5, 7, 7, 4, 5},
    /* IMADWideDH  */ {5, 4, 6, 4, 4, 5, 7, 7, 4, 5},
    /* IMADWideDL  */ {3, 4, 4, 4, 4, 5, 7, 7, 4, 5},
    /* FP16        */ {5, 5, 5, 5, 6, 4, 7, 7, 4, 5},
    /* FP16 MMA    */ {5, 5, 5, 5, 6, 5, 7, 7, 4, 5},
    /* MMA 1x      */ {13, 13, 13, 13, 13, 13, 14, 14, 11, 28},
};

/// What a target's tables are: its RAW table of general registers and the
/// pairs outside it where ptxas's schedules differ by target.
struct TargetLatencies {
  const unsigned (*RawGPR)[NumRCols];
  /// UIADD3 (a Udp writer) -> IMAD reading the UR.
  unsigned UniformALUToFMA;
  /// ULDC.64 of a descriptor -> the LDG/LDGSTS/STG that reads it.
  unsigned UniformMoveToMemory;
  /// A Udp writer (USHF, UIMAD) -> IMAD.WIDE reading the UR.
  unsigned UniformALUToIMADWide;
  /// HMMA.16816.F32 -> a reader of D that is not an HMMA or a memory op,
  /// -> the next HMMA reading (or rewriting) D, -> a memory reader.
  unsigned HMMAToALU, HMMAToMMA, HMMAToMemory;
  /// A uniform predicate (UISETP) -> the BRA.U that reads it (Blackwell).
  unsigned UPredToBranch;
  /// An FP16 compare's predicate (HSETP2) -> the HSETP2 combining it.
  unsigned FP16PredToFP16;
  /// FP64 is a fixed-latency pipe, not redirected (E: ptxas 13 gives none
  /// of the FP64 ops of test/MC/Inputs/fp64_forms.ptx a scoreboard on
  /// sm_90 and sm_100, 21 of 28 on sm_80/86/89/120).
  bool FP64Fixed;
};

// sm_80/86/89: UIADD3/UIMAD -> IMAD 6 (N; E: test/Sim/cb0-layout.ptx
// launch UIMAD -> IMAD, test/MC/Inputs/integer_forms.ptx UIADD3 ->
// IMAD.U32); ULDC.64 -> the STG reading the descriptor 2 (N; E:
// test/Sim/usage.ptx params).  (test/Sim/latency-evidence-corpus.test.)
const TargetLatencies SM80Latencies = {
    RawSM80, 6, 2, 7, HMMA16816ConsumerCycles, HMMA16816ConsumerCycles,
    HMMA16816MemoryCycles, 6, 10, false};
const TargetLatencies SM86Latencies = {
    RawSM86, 6, 2, 7, HMMA16816ConsumerCycles, HMMA16816ConsumerCycles,
    HMMA16816MemoryCycles, 6, 10, false};
const TargetLatencies SM90Latencies = {
    RawSM90, 6, 2, 6, HMMA16816ConsumerCycles, HMMA16816ConsumerCycles,
    HMMA16816MemoryCycles, 6, 12, true};
// sm_100 (E, the evidence test): UIADD3/ULEA -> IMAD 6 (4 samples), USHF
// -> IMAD.WIDE 8 (1 sample); HMMA.16816.F32 -> IADD3 19 (1), -> STG of D
// 19 (2), -> HMMA 20 (3: latency-pairs.ptx's mma, mma_store, mma_store2),
// below sm_80..sm_90's 24/23; UISETP -> BRA.U 9 (2, mma_tile: N's
// Bra_Jmp); there is no ULDC (LDCU is scoreboarded), sm_90's 2 is kept.
const TargetLatencies SM100Latencies = {RawSM100, 6, 2, 8, 19, 20, 19, 9,
                                         12, true};
// sm_120/121 (E): USHF -> IMAD.WIDE 15 (1 sample, gemm_ref_sm86_all
// rows_rows: an upper bound); HMMA.16816.F32 -> FADD/FMUL 28 (1), -> STG
// 28 (4), -> HMMA 29 (3), above sm_80..sm_90's; UISETP -> BRA.U 9 (2).
// UIADD3 -> IMAD: no sample, sm_90's 6.
const TargetLatencies SM120Latencies = {RawSM120, 6, 2, 15, 28, 29, 28, 9,
                                         12, false};

/// The tables of \p T.
const TargetLatencies &getTargetLatencies(sass::Target T) {
  switch (T) {
  case sass::Target::SM80:
    return SM80Latencies;
  case sass::Target::SM90:
    return SM90Latencies;
  case sass::Target::SM100:
    return SM100Latencies;
  case sass::Target::SM120:
  case sass::Target::SM121:
    return SM120Latencies;
  default: // sm_86, sm_89
    return SM86Latencies;
  }
}
} // namespace

unsigned LatencyModel::hmmaConsumerCycles() const {
  return getTargetLatencies(T).HMMAToMMA;
}

unsigned LatencyModel::rawGPR(InstrClass Writer, InstrClass Reader,
                              ReadSlot Slot, bool LowHalf) const {
  WRow W = writerRow(Writer);
  if (W == WNone)
    return 1; // N: a decoupled writer -> any reader 1 (the scoreboard waits)
  if (W == WMma2x) {
    const TargetLatencies &TL = getTargetLatencies(T);
    return Reader == InstrClass::DecoupledAgu ? TL.HMMAToMemory
           : Reader == InstrClass::MMA16816   ? TL.HMMAToMMA
                                              : TL.HMMAToALU;
  }
  if (W == WWideDH && LowHalf)
    W = WWideDL;
  RCol R = readerCol(Reader, Slot);
  return getTargetLatencies(T).RawGPR[W][R];
}

unsigned LatencyModel::wawGPR(InstrClass Earlier, InstrClass Later,
                              bool P) const {
  auto Pred = [P](unsigned A, unsigned B) { return P ? A + B : B; };
  WRow E = writerRow(Earlier);
  if (E == WNone)
    return 1; // N: after a decoupled writer 1 (its scoreboard is waited on)
  if (E == WMma2x) // the safe value, see above; N: 1..12
    return std::max(getTargetLatencies(T).HMMAToALU,
                    getTargetLatencies(T).HMMAToMMA);
  bool EarlierMma = E == WMma1x;
  switch (Later) {
  case InstrClass::MMA16816:
  case InstrClass::MMA1688:
    // N: MMA after a coupled writer 2, after MMA 1x 4.
    return EarlierMma ? 4 : 2;
  case InstrClass::Decoupled:
  case InstrClass::FP64:
  case InstrClass::DecoupledAgu:
  case InstrClass::Control:
    // N: a variable-latency writer after a coupled one pred(1, 5), after
    // MMA 1x pred(7, 6).
    return EarlierMma ? Pred(7, 6) : Pred(1, 5);
  case InstrClass::CoupledFMA:
    if (E == WWideDH)
      return Pred(1, 1); // N: CoupledFMA after IMADWideWriteDH
    [[fallthrough]];
  default:
    // N: coupled after coupled 1, after MMA 1x pred(8, 1).
    return EarlierMma ? Pred(8, 1) : 1;
  }
}

// The write-after-read spacings are the same on every target: constant
// expressions, so that their maxima over every reader and writer class
// (worstWAR*) are computed at compile time.
static constexpr unsigned warGPRFor(InstrClass Reader, InstrClass Writer) {
  // N write_after_read: a coupled writer may follow any reader after 1; an
  // MMA or variable-latency writer after a coupled reader needs 2.
  bool SlowWriter = isVariableClass(Writer) || Writer == InstrClass::MMA16816 ||
                    Writer == InstrClass::MMA1688;
  if (!SlowWriter)
    return 1;
  switch (Reader) {
  case InstrClass::CoupledALU:
  case InstrClass::CoupledFMA:
  case InstrClass::IMADWide:
  case InstrClass::UniformALU:
  case InstrClass::UniformMove:
    return 2;
  default:
    return 1;
  }
}

unsigned LatencyModel::warGPR(InstrClass Reader, InstrClass Writer) const {
  // On sm_90/sm_100 FP64 writes its result after a fixed latency, as a
  // coupled writer does: E, fp64_forms.ptx, `FSEL R29, R25, R23` then
  // `DADD R22` (R22:R23) the next cycle (test/Sim/latency-evidence-
  // corpus.test), where N's 2 is for a variable-latency writer.
  if (Writer == InstrClass::FP64 && isFP64Fixed())
    return 1;
  return warGPRFor(Reader, Writer);
}

bool LatencyModel::isFP64Fixed() const {
  return getTargetLatencies(T).FP64Fixed;
}

namespace {
enum PCat { PCoupled, PFma, PFp16, PDecoupled };
PCat predCat(InstrClass C) {
  switch (C) {
  case InstrClass::CoupledFMA:
  case InstrClass::IMADWide:
    return PFma; // N: IMad, IMad64 -> PredLatencySM80::FMA
  case InstrClass::FP16:
  case InstrClass::FP16MMA:
    return PFp16;
  case InstrClass::Decoupled:
  case InstrClass::FP64:
  case InstrClass::DecoupledAgu:
  case InstrClass::Control:
    return PDecoupled;
  default:
    return PCoupled; // N: ISetP, IAdd3, Lea, PLop3, Sel, FSetP -> Coupled
  }
}
} // namespace

unsigned LatencyModel::rawPred(InstrClass Writer, InstrClass Reader,
                               PredRead How) const {
  PCat W = predCat(Writer);
  if (W == PDecoupled)
    return 1;
  // N pred_read_after_write: guard (and decoupled, HFMA2_MMA readers)
  // after a coupled/FMA/FP16 writer 13; E: ISETP S13 before the guarded op.
  if (How == PredRead::Guard)
    return 13;
  switch (predCat(Reader)) {
  case PCoupled:
    return W == PCoupled ? 4 : 5; // N: Coupled reader: Coupled 4, FMA/FP16 5
  case PFma:
    return W == PFma ? 4 : 5; // N: FMA reader: FMA 4, Coupled/FP16 5; E 5
  case PFp16:
    // N has no FP16 reader row.  E: HSETP2 -> the HSETP2 combining its
    // predicate (`.OR P1` of test/MC/Inputs/fp16_compare_forms.ptx) 10
    // cycles apart on sm_80/86/89, 12 on sm_90 and Blackwell
    // (test/Sim/latency-evidence-corpus.test); 13 after any other writer.
    return W == PFp16 ? getTargetLatencies(T).FP16PredToFP16 : 13;
  default:
    // Decoupled and MMA readers are 13.
    return 13;
  }
}

unsigned LatencyModel::wawPred(InstrClass Earlier, InstrClass Later,
                               bool P) const {
  auto Pred = [P](unsigned A, unsigned B) { return P ? A + B : B; };
  PCat E = predCat(Earlier);
  if (E == PDecoupled)
    return 1;
  switch (predCat(Later)) {
  case PFp16:
    return E == PFp16 ? 1 : Pred(2, 7); // N pred_write_after_write
  case PDecoupled:
    return E == PFp16 ? Pred(1, 11) : Pred(2, 10);
  default:
    return 1;
  }
}

static constexpr unsigned warPredFor(InstrClass, InstrClass) {
  return 1; // N pred_write_after_read: 1
}

unsigned LatencyModel::warPred(InstrClass Reader, InstrClass Writer) const {
  return warPredFor(Reader, Writer);
}

namespace {
enum UCat { UUdp, UUldc, UToUr, UCoupledReader, UDecoupledReader };
constexpr UCat uniformWriter(InstrClass C) {
  switch (C) {
  case InstrClass::UniformMove:
    return UUldc; // N: Uldc and Umov have the same numbers
  case InstrClass::Decoupled:
  case InstrClass::DecoupledAgu:
  case InstrClass::Control:
    return UToUr; // S2UR, R2UR: scoreboard
  default:
    return UUdp;
  }
}
constexpr UCat uniformReader(InstrClass C) {
  switch (C) {
  case InstrClass::UniformALU:
    return UUdp;
  case InstrClass::UniformMove:
    return UUldc;
  case InstrClass::Decoupled:
  case InstrClass::DecoupledAgu:
  case InstrClass::Control:
    return UDecoupledReader; // N: a memory descriptor read by LDG/LDGSTS
  default:
    return UCoupledReader;
  }
}
} // namespace

unsigned LatencyModel::rawUGPR(InstrClass Writer, InstrClass Reader) const {
  UCat W = uniformWriter(Writer);
  if (W == UToUr)
    return 1;
  // A vector-pipe (CoupledALU) writer of a uniform register: VOTEU.  E:
  // ptxas 13 reads its UR 2 cycles later on every target, by UFLO (a Udp
  // reader), FLO and POPC (decoupled readers): test/Sim/uflo.ptx,
  // atoms.ptx, global-atomics.ptx (test/Sim/latency-evidence-corpus.test);
  // the Udp row's 4 and 9 are a uniform ALU's.
  if (Writer == InstrClass::CoupledALU)
    return 2;
  // N URegLatencySM80::read_after_write; E: ptxas puts ULDC.64 of the
  // descriptor >= 2 cycles before its first LDG/LDGSTS.
  switch (uniformReader(Reader)) {
  case UCoupledReader:
    // N: Udp -> a vector reader 6 (E: UIADD3/UIMAD -> IMAD 6 on every
    // target, TargetLatencies).
    if (W == UUdp)
      return Reader == InstrClass::CoupledFMA
                 ? getTargetLatencies(T).UniformALUToFMA
             : Reader == InstrClass::IMADWide
                 ? getTargetLatencies(T).UniformALUToIMADWide
                 : 6;
    return 2;
  case UDecoupledReader:
    // N 2; E: ptxas 13 issues an STG 2 cycles after the ULDC.64 of its
    // descriptor on every target (test/Sim/usage.ptx, kernel params;
    // test/Sim/stores.ptx on sm_90).
    if (W == UUdp)
      return 9;
    return getTargetLatencies(T).UniformMoveToMemory;
  case UUdp:
    return W == UUdp ? 4 : 2;
  default: // a Umov/Uldc reader
    return W == UUdp ? 7 : 2;
  }
}

unsigned LatencyModel::wawUGPR(InstrClass Earlier, InstrClass Later) const {
  UCat E = uniformWriter(Earlier), L = uniformWriter(Later);
  if (E == UToUr)
    return 1;
  // N URegLatencySM80::write_after_write (predicated: Udp -> ToUr 11).
  if (L == UToUr)
    return E == UUdp ? 11 : 4;
  if (L == UUldc)
    return E == UUdp ? 7 : 1;
  return 1;
}

static constexpr unsigned warUGPRFor(InstrClass Reader, InstrClass Writer) {
  // N URegLatencySM80::write_after_read: a Uldc/Umov writer after a Udp
  // reader 3, everything else 1.
  return uniformWriter(Writer) == UUldc && uniformReader(Reader) == UUdp ? 3
                                                                         : 1;
}

unsigned LatencyModel::warUGPR(InstrClass Reader, InstrClass Writer) const {
  return warUGPRFor(Reader, Writer);
}

// N UPredLatencySM80 (writer Udp; VoteU is not used by tp): a uniform
// predicate -> a vector (Coupled) reader 6, -> a Udp reader 4, -> the guard
// of a uniform op (UGuard) 11, -> a branch (Bra_Jmp) 9; the guard of a
// vector op is read as the Coupled case would be at worst: 11 taken.
unsigned LatencyModel::rawUPred(InstrClass Writer, InstrClass Reader,
                                PredRead How) const {
  if (isVariable(Writer))
    return 1;
  if (How == PredRead::Guard)
    return Reader == InstrClass::Control ? 9 : 11;
  // Blackwell's BRA.U reads the predicate as an operand: N's Bra_Jmp 9 on
  // sm_100/120 (E); 6 elsewhere (no target before has such a reader).
  if (Reader == InstrClass::Control)
    return getTargetLatencies(T).UPredToBranch;
  // N; E on sm_90: UIADD3's carry-out -> UIADD3.X 4 (test/Sim/cp-async.ptx,
  // kernel copy, across a wait on an unrelated S2R).
  return Reader == InstrClass::UniformALU || Reader == InstrClass::UniformMove
             ? 4
             : 6;
}

unsigned LatencyModel::wawUPred(InstrClass Earlier, InstrClass Later) const {
  // N pred_write_after_write: Udp after Udp 1, VoteU after Udp 7 (the
  // largest, taken for any later writer but a Udp one).
  if (isVariable(Earlier))
    return 1;
  return Later == InstrClass::UniformALU ? 1 : 7;
}

static constexpr unsigned warUPredFor(InstrClass, InstrClass Writer) {
  // N pred_write_after_read: 1, VoteU after a Coupled/Udp reader 2.
  return Writer == InstrClass::UniformALU ? 1 : 2;
}

unsigned LatencyModel::warUPred(InstrClass Reader, InstrClass Writer) const {
  return warUPredFor(Reader, Writer);
}

static constexpr InstrClass AllClasses[] = {
    InstrClass::CoupledALU,   InstrClass::CoupledFMA,  InstrClass::IMADWide,
    InstrClass::FP16,         InstrClass::FP16MMA,     InstrClass::MMA16816,    InstrClass::MMA1688,
    InstrClass::UniformALU,   InstrClass::UniformMove, InstrClass::Decoupled,
    InstrClass::DecoupledAgu, InstrClass::Control,     InstrClass::Nop,
    InstrClass::FP64};

unsigned LatencyModel::worstGPR(InstrClass W) const {
  // The RAW part: every reader class and slot, i.e. every column of the
  // writer's row (readerCol() reaches each one), read as a row maximum
  // instead of 48 rawGPR() calls.  LatencyModelTest.WorstIsTheMaximumOf-
  // EveryPair checks it against every (reader, slot) pair.
  unsigned M = 1;
  WRow Row = writerRow(W);
  if (Row == WMma2x) {
    M = std::max({M, rawGPR(W, InstrClass::DecoupledAgu, ReadSlot::Normal),
                  rawGPR(W, InstrClass::MMA16816, ReadSlot::Normal),
                  rawGPR(W, InstrClass::CoupledALU, ReadSlot::Normal)});
  } else if (Row != WNone) {
    const unsigned(&Lat)[NumRCols] = getTargetLatencies(T).RawGPR[Row];
    M = std::max(M, *std::max_element(Lat, Lat + NumRCols));
  }
  for (InstrClass R : AllClasses)
    M = std::max(M, wawGPR(W, R, /*EarlierPredicated=*/true));
  return M;
}

unsigned LatencyModel::worstPred(InstrClass W) const {
  unsigned M = 1;
  for (InstrClass R : AllClasses) {
    M = std::max(M, rawPred(W, R, PredRead::Guard));
    M = std::max(M, rawPred(W, R, PredRead::Operand));
    M = std::max(M, wawPred(W, R, true));
  }
  return M;
}

unsigned LatencyModel::worstUGPR(InstrClass W) const {
  unsigned M = 1;
  for (InstrClass R : AllClasses)
    M = std::max({M, rawUGPR(W, R), wawUGPR(W, R)});
  return M;
}

/// The largest \p F(Reader, Writer) over every pair of classes.
static constexpr unsigned worstOver(unsigned (*F)(InstrClass, InstrClass)) {
  unsigned M = 1;
  for (InstrClass R : AllClasses)
    for (InstrClass W : AllClasses)
      M = std::max(M, F(R, W));
  return M;
}
unsigned LatencyModel::worstUPred(InstrClass W) const {
  unsigned M = 1;
  for (InstrClass R : AllClasses)
    M = std::max({M, rawUPred(W, R, PredRead::Guard),
                  rawUPred(W, R, PredRead::Operand), wawUPred(W, R)});
  return M;
}

// Compile-time constants: the spacings are the same on every target
// (LatencyModelTest.WorstIsTheMaximumOfEveryPair asks every pair).
unsigned LatencyModel::worstWARGPR() const {
  static constexpr unsigned Worst = worstOver(warGPRFor);
  return Worst;
}
unsigned LatencyModel::worstWARUPred() const {
  static constexpr unsigned Worst = worstOver(warUPredFor);
  return Worst;
}
unsigned LatencyModel::worstWARPred() const {
  static constexpr unsigned Worst = worstOver(warPredFor);
  return Worst;
}
unsigned LatencyModel::worstWARUGPR() const {
  static constexpr unsigned Worst = worstOver(warUGPRFor);
  return Worst;
}

const LatencyModel &LatencyModel::get(sass::Target T) {
  static const LatencyModel SM80(sass::Target::SM80), SM86(sass::Target::SM86),
      SM89(sass::Target::SM89), SM90(sass::Target::SM90),
      SM100(sass::Target::SM100), SM120(sass::Target::SM120),
      SM121(sass::Target::SM121);
  switch (T) {
  case sass::Target::SM80:
    return SM80;
  case sass::Target::SM89:
    return SM89;
  case sass::Target::SM90:
    return SM90;
  case sass::Target::SM100:
    return SM100;
  case sass::Target::SM120:
    return SM120;
  case sass::Target::SM121:
    return SM121;
  default:
    return SM86;
  }
}

unsigned LatencyModel::minStallAfter(InstrClass C, bool IsBarrier,
                                     bool IsWaitGroups) const {
  if (IsBarrier)
    return 6; // N exec_latency: BAR 6 on sm_80+; E: BAR.SYNC S06
  if (IsWaitGroups)
    return 4; // E: ptxas 13 DEPBAR.LE SB0 S04.  UNVERIFIED: whether less works
  return 1;   // N: min delay 1
}

} // namespace sched
} // namespace tp
