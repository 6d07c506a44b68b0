//===- LatencyModel.h - Latencies by class, per target ----------*- C++ -*-===//
///
/// \file
/// The dependency latencies tp-compact-stalls schedules with,
/// tp-verify-schedule checks against and tp-sim's hazard mode checks a
/// cubin against: read-after-write, write-after-write and write-after-read
/// cycles between a producer class and a consumer class, for general
/// registers, uniform registers and predicates, one LatencyModel per
/// target (sm_80, sm_86, sm_89, sm_90, sm_100, sm_120, sm_121).  The classes come from one
/// classifier, sched::describe() (Schedule.h).
///
/// Every number lives in lib/Target/SASS/LatencyModel.cpp, each with its
/// source (SASS_FACTS.md section 2: N = Mesa NAK sm80_instr_latencies.rs,
/// which covers sm_80/86/89; E = what ptxas 13 schedules in our reference
/// cubins).  The one disputed value -- the first consumer of an
/// HMMA.16816.F32 result, 24 cycles as ptxas spaces it against NAK's 17/18
/// -- is hmmaConsumerCycles(), in one place so that a hardware run can
/// settle it.  test/Sim/latency-evidence.test checks every RAW number
/// ptxas's code uses against ptxas's tightest spacing.
///
/// Model (SASS_FACTS 2.1): a fixed-latency ("coupled") producer is
/// protected by stall counts only: the consumer issues at least N cycles
/// after the producer.  A variable-latency producer is protected by a
/// scoreboard; after the wait, 1 cycle suffices.
///
//===----------------------------------------------------------------------===//
#ifndef TP_TARGET_SASS_LATENCYMODEL_H
#define TP_TARGET_SASS_LATENCYMODEL_H

#include "tp/Target/SASS/SASS.h"

#include <cstdint>

namespace tp {
namespace sched {

/// What an instruction is, for latency purposes (NAK's RegLatencySM80
/// categories, folded to the ones an sm_86 GEMM uses).
enum class InstrClass : uint8_t {
  CoupledALU,   ///< IADD3 LOP3 SHF ISETP MOV SEL LEA PRMT PLOP3 CS2R
  CoupledFMA,   ///< IMAD FFMA FADD FMUL IDP4
  IMADWide,     ///< IMAD.WIDE / IMAD.HI (writer: the high half, the worst)
  FP16,         ///< HADD2 HFMA2 HMUL2 HSET2 HSETP2
  MMA16816,     ///< HMMA.16816 ("2x collect"): fixed latency, no scoreboard
  MMA1688,      ///< HMMA.1688 ("1x collect")
  UniformALU,   ///< uniform datapath ops (UIADD3, UMOV with ALU, ...): Udp
  UniformMove,  ///< ULDC / UMOV
  Decoupled,    ///< S2R, MUFU, conversions, LDC, R2UR: variable latency
  DecoupledAgu, ///< memory ops (LDG LDS LDSM STG STS LDGSTS), BAR, DEPBAR
  Control,      ///< BRA, EXIT: variable, no register result
  Nop,          ///< NOP and never-executing fillers: no result
  FP16MMA,      ///< HFMA2.MMA (sm_80: the MMA pipe's latency)
  FP64,         ///< DADD DMUL DFMA DSETP: variable (redirected) but on
                ///< sm_90/sm_100, where ptxas gives them no scoreboard
                ///< (LatencyModel::isFP64Fixed).  The last two are last so
                ///< that the numbers of the others stay those of the
                ///< checked-in describe table (DescribeTableTest)
};
/// The number of InstrClass values (FP64 is the last).
constexpr unsigned NumInstrClasses = unsigned(InstrClass::FP64) + 1;

/// How an instruction reads one general-register operand.
enum class ReadSlot : uint8_t {
  Normal,     ///< by the instruction's own class
  IMADWideAB, ///< an A or B operand of IMAD.WIDE
  IMADWideC,  ///< the C operand of IMAD.WIDE (its low register)
  IMADWideCHigh, ///< the high register of IMAD.WIDE's C pair, read later
                 ///< (N IMADWideReadCH; E on sm_90)
};

/// How an instruction reads a predicate.
enum class PredRead : uint8_t {
  Operand, ///< a predicate source (carry-in of IMAD.X / IADD3.X, combine)
  Guard,   ///< the guard `@Px` of any instruction
};

/// True when \p C produces its results at a variable time, so that its
/// consumers need a scoreboard (SASS_FACTS 2.1; N needs_scoreboards, with
/// HMMA fixed as ptxas 13 treats it, E).  The same on every target.
bool isVariable(InstrClass C);

/// The latency tables of one target.  get() returns the model of sm_80,
/// sm_86, sm_89 (sm_86's numbers) or sm_90 (other targets: sm_86's); every
/// number is in LatencyModel.cpp with its source.  tp-compact-stalls,
/// tp-verify-schedule and tp-sim's hazard mode all read this one model.
class LatencyModel {
public:
  static const LatencyModel &get(sass::Target T);
  sass::Target target() const { return T; }

  /// Cycles from a fixed-latency writer of a general register to a reader.
  /// \p LowHalf: the dependency is on the low (even) register of an
  /// IMAD.WIDE result, which sm_90 has earlier (E; N IMADWideWriteDL); on
  /// sm_86 ptxas waits for both halves alike (E).
  unsigned rawGPR(InstrClass Writer, InstrClass Reader, ReadSlot Slot,
                  bool LowHalf = false) const;
  /// Cycles from an earlier writer to a later writer of the same register.
  /// \p EarlierPredicated: the earlier writer has a guard.
  unsigned wawGPR(InstrClass Earlier, InstrClass Later,
                  bool EarlierPredicated) const;
  /// Cycles from a (fixed-latency) reader to a later writer of the register.
  unsigned warGPR(InstrClass Reader, InstrClass Writer) const;
  /// Whether FP64 is a fixed-latency pipe on this target (sm_90, sm_100:
  /// ptxas gives FP64 ops no scoreboard) rather than redirected.
  bool isFP64Fixed() const;

  /// The same for predicates.
  unsigned rawPred(InstrClass Writer, InstrClass Reader, PredRead How) const;
  unsigned wawPred(InstrClass Earlier, InstrClass Later,
                   bool EarlierPredicated) const;
  unsigned warPred(InstrClass Reader, InstrClass Writer) const;

  /// The same for uniform registers (reader: a uniform op or a vector op
  /// reading a uniform register; every reader reads them at issue).
  unsigned rawUGPR(InstrClass Writer, InstrClass Reader) const;
  unsigned wawUGPR(InstrClass Earlier, InstrClass Later) const;
  unsigned warUGPR(InstrClass Reader, InstrClass Writer) const;

  /// The same for uniform predicates (UISETP, VOTEU writers).
  unsigned rawUPred(InstrClass Writer, InstrClass Reader, PredRead How) const;
  unsigned wawUPred(InstrClass Earlier, InstrClass Later) const;
  unsigned warUPred(InstrClass Reader, InstrClass Writer) const;

  /// The largest cycles any later instruction may need after a
  /// fixed-latency write by \p Writer of a register of each file: the
  /// boundary latency of a piece (NAK worst_latency, taken as the maximum
  /// over every reader and writer class so that a piece's successor may be
  /// anything).
  unsigned worstGPR(InstrClass Writer) const;
  unsigned worstPred(InstrClass Writer) const;
  unsigned worstUGPR(InstrClass Writer) const;
  unsigned worstUPred(InstrClass Writer) const;
  /// The largest write-after-read cycles after any read of a register of
  /// each file.
  unsigned worstWARGPR() const;
  unsigned worstWARPred() const;
  unsigned worstWARUGPR() const;
  unsigned worstWARUPred() const;

  /// HMMA.16816.F32 to the first HMMA reading or rewriting D (on sm_86 the
  /// td class latency of MMA16816).  ptxas 13 spaces it 24 cycles on
  /// sm_80/86/89/90 (E, SASS_FACTS 2.3) where NAK's table says 18; 20 on
  /// sm_100, 29 on sm_120/121 (E, test/Sim/latency-evidence-sm100-sm120).
  unsigned hmmaConsumerCycles() const;

  /// Cycles the issuing warp is blocked after an instruction of class \p C
  /// before the next may issue, beyond the dependencies (BAR: 6 on sm_80+,
  /// N exec_latency, E BAR.SYNC S06; DEPBAR 4, E); 1 for everything else.
  unsigned minStallAfter(InstrClass C, bool IsBarrier, bool IsWaitGroups) const;

private:
  explicit constexpr LatencyModel(sass::Target T) : T(T) {}
  sass::Target T;
};

/// A wait on scoreboard b issues at least this many cycles after the last
/// instruction that set b (N calc_delays: `bars[bar] + 2`).
constexpr unsigned ScoreboardSetCycles = 2;
/// The stall field holds 0..15 (SASS_FACTS 1.1).
constexpr unsigned MaxStall = 15;
/// Scoreboards 0..5 (SASS_FACTS 1.2).
constexpr unsigned NumScoreboards = 6;

} // namespace sched
} // namespace tp

#endif // TP_TARGET_SASS_LATENCYMODEL_H
