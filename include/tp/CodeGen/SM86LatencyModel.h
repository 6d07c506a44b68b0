//===- SM86LatencyModel.h - sm_86 register latencies by class ---*- C++ -*-===//
///
/// \file
/// The dependency latencies tp-compact-stalls schedules with and
/// tp-verify-schedule checks against: read-after-write, write-after-write
/// and write-after-read cycles between a producer class and a consumer
/// class, for general registers, uniform registers and predicates.
///
/// Every number lives in lib/CodeGen/SM86LatencyModel.cpp, each with its
/// source (SASS_FACTS.md section 2: N = Mesa NAK sm80_instr_latencies.rs,
/// which covers sm_80/86/89; E = what ptxas 13 schedules in our reference
/// cubins).  The one disputed value -- the first consumer of an
/// HMMA.16816.F32 result, 24 cycles as ptxas spaces it against NAK's 17/18
/// -- is hmmaConsumerCycles(), the safe one, in one place so that a
/// hardware run can settle it.
///
/// Model (SASS_FACTS 2.1): a fixed-latency ("coupled") producer is
/// protected by stall counts only: the consumer issues at least N cycles
/// after the producer.  A variable-latency producer is protected by a
/// scoreboard; after the wait, 1 cycle suffices.
///
//===----------------------------------------------------------------------===//
#ifndef TP_CODEGEN_SM86LATENCYMODEL_H
#define TP_CODEGEN_SM86LATENCYMODEL_H

#include <cstdint>

namespace tp {
namespace sched {

/// What an instruction is, for latency purposes (NAK's RegLatencySM80
/// categories, folded to the ones an sm_86 GEMM uses).
enum class InstrClass : uint8_t {
  CoupledALU,   ///< IADD3 LOP3 SHF ISETP MOV SEL LEA PRMT PLOP3 CS2R
  CoupledFMA,   ///< IMAD FFMA FADD FMUL IDP4
  IMADWide,     ///< IMAD.WIDE / IMAD.HI (writer: the high half, the worst)
  FP16,         ///< HADD2 HFMA2 HMUL2
  MMA16816,     ///< HMMA.16816 ("2x collect"): fixed latency, no scoreboard
  MMA1688,      ///< HMMA.1688 ("1x collect")
  UniformALU,   ///< uniform datapath ops (UIADD3, UMOV with ALU, ...): Udp
  UniformMove,  ///< ULDC / UMOV
  Decoupled,    ///< S2R, MUFU, conversions, LDC, R2UR: variable latency
  DecoupledAgu, ///< memory ops (LDG LDS LDSM STG STS LDGSTS), BAR, DEPBAR
  Control,      ///< BRA, EXIT: variable, no register result
  Nop,          ///< NOP and never-executing fillers: no result
};

/// How an instruction reads one general-register operand.
enum class ReadSlot : uint8_t {
  Normal,     ///< by the instruction's own class
  IMADWideAB, ///< an A or B operand of IMAD.WIDE
  IMADWideC,  ///< the C operand of IMAD.WIDE
};

/// How an instruction reads a predicate.
enum class PredRead : uint8_t {
  Operand, ///< a predicate source (carry-in of IMAD.X / IADD3.X, combine)
  Guard,   ///< the guard `@Px` of any instruction
};

/// True when \p C produces its results at a variable time, so that its
/// consumers need a scoreboard (SASS_FACTS 2.1; N needs_scoreboards, with
/// HMMA fixed as ptxas 13 treats it, E).
bool isVariable(InstrClass C);

/// Cycles from a fixed-latency writer of a general register to a reader.
unsigned rawGPR(InstrClass Writer, InstrClass Reader, ReadSlot Slot);
/// Cycles from an earlier writer to a later writer of the same register.
/// \p EarlierPredicated: the earlier writer has a guard.
unsigned wawGPR(InstrClass Earlier, InstrClass Later, bool EarlierPredicated);
/// Cycles from a (fixed-latency) reader to a later writer of the register.
unsigned warGPR(InstrClass Reader, InstrClass Writer);

/// The same for predicates.
unsigned rawPred(InstrClass Writer, InstrClass Reader, PredRead How);
unsigned wawPred(InstrClass Earlier, InstrClass Later, bool EarlierPredicated);
unsigned warPred(InstrClass Reader, InstrClass Writer);

/// The same for uniform registers (reader: a uniform op or a vector op
/// reading a uniform register).
unsigned rawUGPR(InstrClass Writer, InstrClass Reader);
unsigned wawUGPR(InstrClass Earlier, InstrClass Later);
unsigned warUGPR(InstrClass Reader, InstrClass Writer);

/// The same for uniform predicates (UISETP, VOTEU writers).
unsigned rawUPred(InstrClass Writer, InstrClass Reader, PredRead How);
unsigned wawUPred(InstrClass Earlier, InstrClass Later);
unsigned warUPred(InstrClass Reader, InstrClass Writer);

/// The largest cycles any later instruction may need after a fixed-latency
/// write by \p Writer of a register of each file: the boundary latency of a
/// piece (NAK worst_latency, taken as the maximum over every reader and
/// writer class so that a piece's successor may be anything).
unsigned worstGPR(InstrClass Writer);
unsigned worstPred(InstrClass Writer);
unsigned worstUGPR(InstrClass Writer);
unsigned worstUPred(InstrClass Writer);
/// The largest write-after-read cycles after any read of a register of
/// each file.
unsigned worstWARGPR();
unsigned worstWARPred();
unsigned worstWARUGPR();
unsigned worstWARUPred();

/// HMMA.16816.F32 to any consumer of D (read or rewrite).  The safe value:
/// ptxas 13 spaces it 24 cycles on sm_80/86/89 (E, SASS_FACTS 2.3) where
/// NAK's table says 17 (ALU reader) / 18 (HMMA reader).
unsigned hmmaConsumerCycles();

/// Cycles the issuing warp is blocked after \p Mnemonic's instruction
/// before the next may issue, beyond the dependencies (BAR: 6 on sm_80+,
/// N exec_latency, E BAR.SYNC S06); 1 for everything else.
unsigned minStallAfter(InstrClass C, bool IsBarrier, bool IsWaitGroups);

/// A wait on scoreboard b issues at least this many cycles after the last
/// instruction that set b (N calc_delays: `bars[bar] + 2`).
constexpr unsigned ScoreboardSetCycles = 2;
/// The stall field holds 0..15 (SASS_FACTS 1.1).
constexpr unsigned MaxStall = 15;
/// Scoreboards 0..5 (SASS_FACTS 1.2).
constexpr unsigned NumScoreboards = 6;

} // namespace sched
} // namespace tp

#endif // TP_CODEGEN_SM86LATENCYMODEL_H
