//===- CycleModel.cpp - Replays warp streams through one SM ---------------===//
///
/// \file
/// TimingModel::model(): the recorded instruction streams of one SM's
/// resident blocks, issued cycle by cycle (docs/timing-model.md):
///  * warp I of the SM's warps (blocks in order) sits in sub-partition
///    I % subpartitions; each sub-partition issues at most one instruction a
///    cycle, greedy then loose round robin: it keeps issuing the warp it
///    issued last while that warp is eligible and its last instruction did
///    not set yield, else the next eligible warp after that one in the
///    sub-partition's order (wrapping around);
///  * a warp is eligible when its previous instruction's stall count
///    (max(1, stall)) has elapsed, the scoreboards of its wait mask (and of a
///    DEPBAR.LE) are released -- a wait sees only increments of
///    instructions issued sched::ScoreboardSetCycles (2) cycles before it,
///    so a too-early wait does not cover the result --, it is not at a BAR.SYNC, and its pipe takes
///    an instruction: math pipes after their initiation interval (math pipe
///    throttle), the SM's shared-memory unit while its backlog is within the
///    MIO queue (MIO throttle), the global path likewise (LG throttle);
///  * variable-latency results release their scoreboard when the data
///    arrives: shared accesses after their wavefronts on the SM's one shared
///    unit plus the shared latency; an LDG whose 128-byte lines are all in
///    the SM's L1 (a least-recently-used set of lines of the capacity the
///    blocks' shared memory leaves) after the L1 latency; other global
///    accesses after their bytes at the SM's L2 bandwidth share plus the L2
///    latency, or, when the grid's footprint (setFootprint) exceeds the
///    L2, at the SM's DRAM share plus the L2 and DRAM latencies; LDGSTS groups when their
///    last copy arrived; S2R/MUFU/LDC/conversions after the MUFU latency;
///  * fixed-latency results are protected by stall counts only, as on the
///    hardware: a read issued before the latency model's RAW latency is a
///    hazard, reported, never hidden; so is a read of a variable-latency
///    result before it arrived (a missing scoreboard wait), a write issued
///    before an earlier late read of the register (td LateRead: stores',
///    LDGSTS's sources) is done or within the latency model's WAR cycles,
///    and a write before an earlier variable-latency write of the register
///    arrived or within the WAW cycles (checkWrites).
/// Each cycle every live warp is in one Nsight Compute warp state; the
/// model skips cycles in which no warp can issue (the states do not change
/// without an issue), so it is exact and fast.
///
//===----------------------------------------------------------------------===//
#include "../ExecState.h"
#include "tp/Sim/Timing.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Support/Debug.h"
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <unordered_set>

using namespace llvm;
using namespace tp;
using namespace tp::sim;

#define DEBUG_TYPE "tp-sim-timing"

STATISTIC(NumModelledInstrs, "Warp instructions the timing model issued");
STATISTIC(NumModelledCycles, "Cycles the timing model simulated");

static constexpr uint64_t Never = std::numeric_limits<uint64_t>::max();

const char *sim::getWarpStateName(WarpState S) {
  static const char *Names[] = {
      "selected",          "not_selected",       "wait",
      "short_scoreboard",  "long_scoreboard",    "math_pipe_throttle",
      "mio_throttle",      "lg_throttle",        "barrier",
      "branch_resolving",  "dispatch_stall"};
  return Names[unsigned(S)];
}

namespace {
/// One scoreboard's pending releases, oldest first.
struct SBEntry {
  uint64_t Release;
  uint64_t Set; ///< the producer's issue cycle
  bool Long;    ///< global/local memory (long scoreboard)
};

/// How many of \p Q's entries a wait issued at \p Now sees: an increment
/// is visible only from an instruction issued sched::ScoreboardSetCycles
/// (2) cycles before the wait.  Entries are in issue order, so the visible
/// ones are the oldest.
static size_t visibleEntries(const std::vector<SBEntry> &Q, uint64_t Now) {
  size_t N = Q.size();
  while (N && Now != Never && Q[N - 1].Set + sched::ScoreboardSetCycles > Now)
    --N;
  return N;
}

/// The SM's L1 for global loads: a fully associative set of 128-byte lines,
/// least recently used out first.  A load allocates its lines; stores write
/// through without allocating (Accel-Sim's dl1 write-through policy).
class L1Cache {
public:
  explicit L1Cache(uint64_t Lines) : Capacity(Lines) {}
  /// Whether all of \p N lines at \p L are present; then all are made the
  /// most recently used (allocated when missing).
  bool access(const uint64_t *L, unsigned N) {
    bool Hit = Capacity > 0;
    for (unsigned I = 0; I < N; ++I)
      Hit &= Stamp.count(L[I]) != 0;
    for (unsigned I = 0; I < N && Capacity; ++I) {
      auto It = Stamp.find(L[I]);
      if (It != Stamp.end()) {
        Order.erase({It->second, L[I]});
      } else if (Stamp.size() == Capacity) {
        Stamp.erase(Order.begin()->second);
        Order.erase(Order.begin());
      }
      Stamp[L[I]] = ++Clock;
      Order.insert({Clock, L[I]});
    }
    return Hit;
  }

private:
  uint64_t Capacity, Clock = 0;
  std::map<uint64_t, uint64_t> Stamp;           ///< line -> last use
  std::set<std::pair<uint64_t, uint64_t>> Order; ///< (last use, line)
};

struct WarpT {
  const std::vector<TimingModel::Event> *Trace;
  size_t Pos = 0;
  const std::vector<uint64_t> *Lines = nullptr; ///< the LDGs' L1 lines
  size_t LinePos = 0;
  unsigned Block = 0, Warp = 0, SMSP = 0;
  uint64_t ReadyAt = 0;
  uint64_t HeldUntil = 0; ///< its last instruction waits for register ports
  bool AfterBranch = false, Yielded = false;
  bool AtBarrier = false, Done = false;
  std::vector<SBEntry> SB[8];
  uint64_t OpenCopies = 0; ///< latest arrival of the open LDGSTS group
  /// blocked()'s last answer and the cycle until which it holds: the
  /// warp's own stall and scoreboards do not change without its issue, and
  /// the pipes' and memory's backlogs only grow, so a blocked warp needs no
  /// new look before that cycle (a barrier's release resets it).
  WarpState Cached = WarpState::Selected;
  uint64_t CachedUntil = 0;
  /// Fixed-latency writers: issue cycle (Never: none or variable) and class.
  uint64_t WIssue[HzNum];
  /// Variable-latency writers: when the data arrives.
  uint64_t WArrive[HzNum];
  sched::InstrClass WClass[HzNum] = {};
  bool WLow[HzNum] = {};
  bool WPred[HzNum] = {}; ///< the last writer has a guard
  uint32_t WInst[HzNum] = {}; ///< its instruction index
  /// Late reads since the last write (the td's LateRead sources of memory
  /// ops): when the last of them is done, and by which instruction.
  uint64_t LateUntil[HzNum] = {};
  uint32_t LateBy[HzNum] = {};
  /// The two newest reads at issue since the last write (cycle, class):
  /// write-after-read needs at most 3 cycles and a warp issues once a
  /// cycle, so older reads never matter.
  uint64_t RCycle[HzNum][2];
  sched::InstrClass RClass[HzNum][2] = {};
  /// The guards (guardOf) of the variable-latency write and of the late
  /// reads, with their predicates' write counts then (NoGuard: none, or
  /// late reads under different guards): a write under the complementary
  /// guard acts in other lanes (@P1 LDG R132, [R132.64] then @!P1
  /// IMAD.MOV.U32 R132 in ptxas's CUTLASS GEMM).
  uint16_t WGuard[HzNum], LateGuard[HzNum];
  uint32_t WGuardVer[HzNum] = {}, LateGuardVer[HzNum] = {};
  PredicateWrites PredWrites;
};

/// The regular-register source reads of a fixed-latency instruction, for
/// the register file's banks and operand reuse cache (Huerta et al. 2025,
/// 5.3): each register, its operand slot (A, B, C; -1: none) and whether
/// the instruction's reuse bit for that slot is set.
struct RegReads {
  struct Read {
    uint8_t Reg;
    int8_t Slot;
    bool Reuse;
  };
  std::vector<Read> Reads;
};

/// Where the SM's global traffic that misses L1 is served (runBlocks).
struct MemoryPath {
  uint64_t L1Lines = 0;      ///< the L1's capacity
  double L2BytesPerClk = 0;  ///< the SM's share of L2 bandwidth
  double DRAMBytesPerClk = 0; ///< the SM's share of DRAM bandwidth
  /// When the grid's footprint exceeds the L2: the SM's share of the L2
  /// (lines), beyond which a line read again comes from DRAM (0: the
  /// footprint fits, every line read again is an L2 hit).
  uint64_t L2ShareLines = 0;
  /// The part of the lines first read by the SM that come from DRAM: the
  /// grid's footprint over the bytes its blocks first read (blocks that
  /// run at once share the rest through L2).
  double ColdDRAM = 0;
};

class SMModel {
public:
  SMModel(const Program &P, const Card &C, const MemoryPath &MP,
          const std::vector<RegReads> &Reads)
      : P(P), C(C), L1(MP.L1Lines), L2Share(MP.L2ShareLines), MP(MP),
        Reads(Reads) {}
  void run(std::vector<WarpT> &Warps, TimingResult &R, Timeline *TL);

private:
  Pipe pipeOf(const DInst &D) const;
  const PipeTiming *timingOf(const DInst &D, Pipe Pp) const;
  WarpState blocked(const WarpT &W, uint64_t Now, uint64_t &Until) const;
  void issue(WarpT &W, std::vector<WarpT> &Warps, uint64_t Now,
             TimingResult &R);
  void checkReads(const WarpT &W, const DInst &D, uint64_t Now,
                  TimingResult &R);
  void checkWrites(const WarpT &W, const DInst &D, uint64_t Now,
                   uint64_t Result, TimingResult &R);
  static void recordRegisters(WarpT &W, const DInst &D, uint32_t Index,
                              uint64_t Now, uint64_t Result,
                              uint64_t ReadDone);
  void hazard(const WarpT &W, unsigned Reg, const std::string &Msg,
              TimingResult &R);
  static uint64_t releaseOf(const std::vector<SBEntry> &Q, unsigned Keep,
                            uint64_t Now, bool &Long);

  const Program &P;
  const Card &C;
  bool fromDRAM(uint64_t Line);
  unsigned readOperands(const WarpT &W, const DInst &D, uint32_t Index,
                        uint64_t Now);

  uint64_t PipeFree[8][NumPipes] = {};
  uint64_t SharedFree = 0;
  double GlobalFree = 0, DRAMFree = 0;
  uint64_t TensorBusy = 0;
  /// The memory instruction path: when each sub-core sends its next
  /// memory instruction, when the SM's shared structures take the next,
  /// and each sub-core's queue (when its entries leave, oldest first).
  uint64_t MemSubFree[8] = {}, MemSMFree = 0;
  std::vector<uint64_t> MemQueue[8];
  L1Cache L1, L2Share;
  MemoryPath MP;
  std::unordered_set<uint64_t> Seen; ///< lines the SM has read
  double ColdCarry = 0;
  const std::vector<RegReads> &Reads;
  /// The register file of each sub-core: when each bank's read port is
  /// next free, the reuse cache (per bank and operand slot: 1 + the
  /// SM-wide warp index and the register; 0: empty), and the cycle from
  /// which the sub-core issues again after an instruction held for ports.
  uint64_t BankFree[8][4] = {};
  uint32_t ReuseWarp[8][4][3] = {};
  uint8_t ReuseReg[8][4][3] = {};
  uint64_t IssueFrom[8] = {};
  /// (instruction, register) pairs already reported as hazards.
  std::set<std::pair<uint32_t, unsigned>> Reported;
  static constexpr size_t MaxHazardReports = 20;
};
} // namespace

Pipe SMModel::pipeOf(const DInst &D) const {
  using sched::InstrClass;
  switch (D.Sem) {
  case SemClass::Shared:
  case SemClass::LDSM:
  case SemClass::ATOMS:
    return Pipe::Shared;
  case SemClass::Global:
  case SemClass::LDGSTS:
  case SemClass::Local:
    return Pipe::Global;
  default:
    break;
  }
  switch (D.Class) {
  case InstrClass::MMA16816:
  case InstrClass::MMA1688:
    return Pipe::Tensor;
  case InstrClass::CoupledFMA:
  case InstrClass::IMADWide:
  case InstrClass::FP16:
  case InstrClass::FP16MMA:
    return Pipe::FMA;
  case InstrClass::CoupledALU:
    return Pipe::ALU;
  case InstrClass::UniformALU:
  case InstrClass::UniformMove:
    return Pipe::Uniform;
  case InstrClass::Decoupled:
    return Pipe::MUFU;
  case InstrClass::FP64:
    return Pipe::FP64;
  case InstrClass::Control:
    return Pipe::Branch;
  default:
    return Pipe::None;
  }
}

const PipeTiming *SMModel::timingOf(const DInst &D, Pipe Pp) const {
  switch (Pp) {
  case Pipe::Tensor:
    return D.has(SemFlag::F32) ? &C.TensorF32 : &C.TensorF16;
  case Pipe::FMA:
    return &C.FMA;
  case Pipe::ALU:
    return &C.ALU;
  case Pipe::Uniform:
    return &C.Uniform;
  case Pipe::FP64:
    return &C.FP64;
  case Pipe::MUFU:
    return &C.MUFU;
  case Pipe::Branch:
    return &C.Branch;
  default:
    return nullptr;
  }
}

/// When the entries of \p Q a wait at \p Now sees, beyond the newest
/// \p Keep of them, are released.
uint64_t SMModel::releaseOf(const std::vector<SBEntry> &Q, unsigned Keep,
                            uint64_t Now, bool &Long) {
  uint64_t T = 0;
  size_t Visible = visibleEntries(Q, Now);
  for (size_t I = 0; I + Keep < Visible; ++I)
    if (Q[I].Release > T) {
      T = Q[I].Release;
      Long = Q[I].Long;
    }
  return T;
}

/// Why \p W cannot issue its next instruction at \p Now (Selected: it can);
/// \p Until: the earliest cycle the reason may end (Never: another warp
/// must act first).
WarpState SMModel::blocked(const WarpT &W, uint64_t Now,
                           uint64_t &Until) const {
  Until = Never;
  if (W.AtBarrier)
    return WarpState::Barrier;
  if (Now < W.HeldUntil) {
    Until = W.HeldUntil;
    return WarpState::DispatchStall;
  }
  if (Now < W.ReadyAt) {
    Until = W.ReadyAt;
    return W.AfterBranch ? WarpState::BranchResolving : WarpState::Wait;
  }
  const DInst &D = P.Insts[(*W.Trace)[W.Pos].Index];
  uint64_t SBT = 0;
  bool Long = false;
  for (unsigned S = 0; S < 6; ++S)
    if ((D.I.Ctrl.WaitMask >> S) & 1)
      SBT = std::max(SBT, releaseOf(W.SB[S], 0, Now, Long));
  if (D.Sem == SemClass::DEPBAR) {
    // DEPBAR sees every increment (the 2-cycle rule is the wait mask's, as
    // in --check-schedule and tp-verify-schedule).
    unsigned S = unsigned(D.F[F_sb]) & 7;
    SBT = std::max(SBT,
                   releaseOf(W.SB[S], unsigned(D.F[F_cnt]), Never, Long));
    for (unsigned S2 = 0; S2 < 6; ++S2)
      if ((D.F[F_set] >> S2) & 1)
        SBT = std::max(SBT, releaseOf(W.SB[S2], 0, Never, Long));
  }
  if (SBT > Now) {
    Until = SBT;
    return Long ? WarpState::LongScoreboard : WarpState::ShortScoreboard;
  }
  Pipe Pp = pipeOf(D);
  if (Pp == Pipe::Shared || Pp == Pipe::Global) {
    // The sub-core's memory queue is full until its oldest entry leaves.
    const std::vector<uint64_t> &Q = MemQueue[W.SMSP];
    size_t Held = 0;
    for (size_t I = Q.size(); I-- && Q[I] > Now;)
      ++Held;
    if (Held >= C.MemQueueDepth) {
      Until = Q[Q.size() - Held];
      return Pp == Pipe::Shared ? WarpState::MioThrottle
                                : WarpState::LgThrottle;
    }
  }
  // The data paths' backlogs beyond the cycle the instruction would reach
  // the shared structures (the queue's own wait is counted above).
  uint64_t Accept = std::max({Now, MemSubFree[W.SMSP], MemSMFree});
  double GlobalBacklog = std::max(GlobalFree, DRAMFree);
  bool DataPath = Pp == Pipe::Shared ||
                  (D.Sem == SemClass::Global && !D.has(SemFlag::Store));
  // While the queue delays the acceptance, other warps' memory
  // instructions move it later and may end the throttle early: looked at
  // again next cycle.
  auto Ends = [&](uint64_t T) { return Accept > Now ? Now + 1 : T; };
  if (DataPath && SharedFree > Accept + C.MioQueueCycles) {
    Until = Ends(Now + (SharedFree - Accept - C.MioQueueCycles));
    return Pp == Pipe::Shared ? WarpState::MioThrottle
                              : WarpState::LgThrottle;
  }
  if (Pp == Pipe::Global &&
      GlobalBacklog > double(Accept + C.MioQueueCycles)) {
    Until = Ends(Now + (uint64_t(std::ceil(GlobalBacklog)) - Accept -
                        C.MioQueueCycles));
    return WarpState::LgThrottle;
  }
  if (Pp != Pipe::None && PipeFree[W.SMSP][unsigned(Pp)] > Now) {
    Until = PipeFree[W.SMSP][unsigned(Pp)];
    return Pp == Pipe::Branch ? WarpState::BranchResolving
                              : WarpState::MathPipeThrottle;
  }
  return WarpState::Selected;
}

/// Reports reads of fixed-latency results before the latency model's RAW
/// latency elapsed.
void SMModel::checkReads(const WarpT &W, const DInst &D, uint64_t Now,
                         TimingResult &R) {
  const sched::LatencyModel &M = *P.Model;
  // A wait of this instruction that misses an increment too new to see.
  std::string WhyUncovered = "(no scoreboard wait)";
  for (unsigned S = 0; S < 6; ++S)
    if ((D.I.Ctrl.WaitMask >> S) & 1 &&
        visibleEntries(W.SB[S], Now) < W.SB[S].size())
      WhyUncovered = "(its wait on SB" + std::to_string(S) +
                     " is issued within " +
                     std::to_string(sched::ScoreboardSetCycles) +
                     " cycles of the increment, which it does not see)";
  for (const RegUse &U : D.Uses) {
    if (U.Def)
      continue;
    for (unsigned I = 0; I < U.Count; ++I) {
      unsigned Reg = U.First + I;
      if (Reg >= HzNum)
        continue;
      if (W.WIssue[Reg] == Never) {
        // A variable-latency result read before it arrived: its scoreboard
        // was not waited for.
        if (Now < W.WArrive[Reg])
          hazard(W, Reg,
                 "reads a variable-latency result " +
                     std::to_string(W.WArrive[Reg] - Now) +
                     " cycles before it arrives " + WhyUncovered,
                 R);
        continue;
      }
      unsigned Need =
          getRAWLatency(M, Reg, W.WClass[Reg], D.Class, U, W.WLow[Reg]);
      if (Now >= W.WIssue[Reg] + Need)
        continue;
      hazard(W, Reg,
             "reads a result " + std::to_string(Now - W.WIssue[Reg]) +
                 " cycles after its writer (" + std::to_string(Need) +
                 " needed)",
             R);
    }
  }
}

/// Counts a hazard of \p W's next instruction; reports the first of each
/// instruction and register (at most MaxHazardReports).
void SMModel::hazard(const WarpT &W, unsigned Reg, const std::string &Msg,
                     TimingResult &R) {
  ++R.Hazards;
  uint32_t Index = (*W.Trace)[W.Pos].Index;
  if (R.HazardReports.size() >= MaxHazardReports ||
      !Reported.insert({Index, Reg}).second)
    return;
  R.HazardReports.push_back("block " + std::to_string(W.Block) + ": " +
                            P.describe(Index) + " " + Msg);
}

/// Reports writes that land too early: a write may land the cycle after
/// its issue (the cards' pipe latencies are the cycles to a consumer, not
/// to the register file), so it must not issue
///  * before an earlier instruction's late read of the register is done
///    (write after read; the read scoreboard's wait is what prevents it);
///  * before the latency model's WAR cycles after a read at issue;
///  * before an earlier variable-latency write of the register arrived (a
///    variable-latency write: land before it, \p Result), or the model's
///    WAW cycles after a fixed-latency one (write after write).
void SMModel::checkWrites(const WarpT &W, const DInst &D, uint64_t Now,
                          uint64_t Result, TimingResult &R) {
  const sched::LatencyModel &M = *P.Model;
  for (const RegUse &U : D.Uses) {
    if (!U.Def)
      continue;
    for (unsigned I = 0; I < U.Count; ++I) {
      unsigned Reg = U.First + I;
      if (Reg >= HzNum)
        continue;
      // A variable-latency result is written when it arrives (\p Result),
      // a fixed-latency one as early as its issue.
      if ((D.Variable ? Result : Now) < W.LateUntil[Reg] &&
          !W.PredWrites.complements(D, W.LateGuard[Reg], W.LateGuardVer[Reg])) {
        hazard(W, Reg,
               "overwrites " + getHazardRegName(Reg) + " " +
                   std::to_string(W.LateUntil[Reg] - Now) +
                   " cycles before " + P.describe(W.LateBy[Reg]) +
                   " read it (write after read; no read scoreboard wait)",
               R);
        continue;
      }
      for (unsigned K = 0; K < 2; ++K) {
        if (W.RCycle[Reg][K] == Never)
          continue;
        sched::InstrClass RC = W.RClass[Reg][K];
        unsigned Need = Reg < HzUR  ? M.warGPR(RC, D.Class)
                        : Reg < HzP ? M.warUGPR(RC, D.Class)
                        : Reg < HzUP ? M.warPred(RC, D.Class)
                                     : M.warUPred(RC, D.Class);
        if (Now < W.RCycle[Reg][K] + Need)
          hazard(W, Reg,
                 "overwrites " + getHazardRegName(Reg) + " " +
                     std::to_string(Now - W.RCycle[Reg][K]) +
                     " cycles after a read (write after read; " +
                     std::to_string(Need) + " needed)",
                 R);
      }
      if (W.WIssue[Reg] == Never) {
        // Variable-latency results of one queue land in order: a later
        // one only clobbers if it lands first.
        if ((D.Variable ? Result : Now) < W.WArrive[Reg] &&
            !W.PredWrites.complements(D, W.WGuard[Reg], W.WGuardVer[Reg]))
          hazard(W, Reg,
                 "overwrites " + getHazardRegName(Reg) + " " +
                     std::to_string(W.WArrive[Reg] - Now) +
                     " cycles before the variable-latency write of " +
                     P.describe(W.WInst[Reg]) +
                     " arrives (write after write; no scoreboard wait)",
                 R);
        continue;
      }
      sched::InstrClass WC = W.WClass[Reg];
      bool Pred = W.WPred[Reg];
      unsigned Need = Reg < HzUR  ? M.wawGPR(WC, D.Class, Pred)
                      : Reg < HzP ? M.wawUGPR(WC, D.Class)
                      : Reg < HzUP ? M.wawPred(WC, D.Class, Pred)
                                   : M.wawUPred(WC, D.Class);
      if (Now < W.WIssue[Reg] + Need)
        hazard(W, Reg,
               "overwrites " + getHazardRegName(Reg) + " " +
                   std::to_string(Now - W.WIssue[Reg]) +
                   " cycles after its last writer (write after write; " +
                   std::to_string(Need) + " needed)",
               R);
    }
  }
}

/// Records \p D's reads and writes for the hazard checks: late reads until
/// \p ReadDone, reads at issue at \p Now, results (fixed: issued at \p Now;
/// variable: arriving at \p Result).
void SMModel::recordRegisters(WarpT &W, const DInst &D, uint32_t Index,
                              uint64_t Now, uint64_t Result,
                              uint64_t ReadDone) {
  for (const RegUse &U : D.Uses) {
    if (U.Def)
      continue;
    for (unsigned I = 0; I < U.Count; ++I) {
      unsigned Reg = U.First + I;
      if (Reg >= HzNum)
        continue;
      if (U.Late && D.Variable) {
        uint16_t G = guardOf(D);
        uint32_t Ver = W.PredWrites.versionOf(G);
        if (W.LateUntil[Reg] > Now &&
            (W.LateGuard[Reg] != G || W.LateGuardVer[Reg] != Ver))
          G = NoGuard;
        W.LateGuard[Reg] = G;
        W.LateGuardVer[Reg] = Ver;
        if (ReadDone > W.LateUntil[Reg]) {
          W.LateUntil[Reg] = ReadDone;
          W.LateBy[Reg] = Index;
        }
        continue;
      }
      W.RCycle[Reg][1] = W.RCycle[Reg][0];
      W.RClass[Reg][1] = W.RClass[Reg][0];
      W.RCycle[Reg][0] = Now;
      W.RClass[Reg][0] = D.Class;
    }
  }
  for (const RegUse &U : D.Uses) {
    if (!U.Def)
      continue;
    for (unsigned I = 0; I < U.Count; ++I) {
      unsigned Reg = U.First + I;
      if (Reg >= HzNum)
        continue;
      // A fixed write under the complement of a pending variable write's
      // guard leaves that write (and its late reads) pending in its lanes.
      if (!D.Variable && W.WIssue[Reg] == Never && W.WArrive[Reg] > Now &&
          W.PredWrites.complements(D, W.WGuard[Reg], W.WGuardVer[Reg]))
        continue;
      bool KeepLate =
          W.LateUntil[Reg] > Now &&
          W.PredWrites.complements(D, W.LateGuard[Reg], W.LateGuardVer[Reg]);
      W.WIssue[Reg] = D.Variable ? Never : Now;
      W.WArrive[Reg] = D.Variable ? Result : 0;
      W.WGuard[Reg] = D.Variable ? guardOf(D) : NoGuard;
      W.WGuardVer[Reg] = W.PredWrites.versionOf(W.WGuard[Reg]);
      W.WClass[Reg] = D.Class;
      W.WLow[Reg] = D.Class == sched::InstrClass::IMADWide && I == 0;
      W.WPred[Reg] = D.Predicated;
      W.WInst[Reg] = Index;
      if (!KeepLate)
        W.LateUntil[Reg] = 0;
      W.RCycle[Reg][0] = W.RCycle[Reg][1] = Never;
    }
  }
  W.PredWrites.count(D);
}

/// Whether \p Line, read by the SM and missing its L1, comes from DRAM: a
/// line the SM read before is an L2 hit unless the footprint exceeds the
/// L2 and the SM's share of it no longer holds the line; of the lines it
/// reads first, the part MemoryPath::ColdDRAM, spread evenly (the grid's
/// footprint is read from DRAM once; blocks that run at once share the
/// rest through L2).
bool SMModel::fromDRAM(uint64_t Line) {
  bool First = Seen.insert(Line).second;
  bool InShare = MP.L2ShareLines && L2Share.access(&Line, 1);
  if (!First)
    return MP.L2ShareLines && !InShare;
  ColdCarry += MP.ColdDRAM;
  if (ColdCarry < 1)
    return false;
  ColdCarry -= 1;
  return true;
}

/// Reserves the register file's read ports for \p D, a fixed-latency
/// instruction \p W issues at \p Now, and returns the cycles it is held
/// because the ports of one bank are taken in its read window (Huerta et
/// al. 2025, 5.3: it reads its sources in the RegisterReadCycles cycles
/// after issue, one register a cycle per bank, and waits, holding the
/// sub-core's issue, until all fit).  A source found in the reuse cache
/// (same warp, register and operand slot) needs no port; a read of a slot
/// leaves the register cached there when its reuse bit is set and empties
/// the entry otherwise.
unsigned SMModel::readOperands(const WarpT &W, const DInst &D, uint32_t Index,
                               uint64_t Now) {
  const RegReads &RR = Reads[Index];
  if (RR.Reads.empty())
    return 0;
  unsigned Banks = C.RegisterBanks, S = W.SMSP;
  unsigned Need[4] = {};
  uint32_t Me = 1 + W.Block * 64 + W.Warp;
  uint8_t Done[8];
  unsigned NDone = 0;
  for (const RegReads::Read &Rd : RR.Reads) {
    unsigned B = Rd.Reg % Banks;
    // A register the instruction reads in another slot too is read once
    // (ASSUMED: Huerta et al. count reads of different registers).
    bool Again = std::find(Done, Done + NDone, Rd.Reg) != Done + NDone;
    bool Hit = false;
    if (Rd.Slot >= 0) {
      uint32_t &CW = ReuseWarp[S][B][unsigned(Rd.Slot)];
      uint8_t &CR = ReuseReg[S][B][unsigned(Rd.Slot)];
      Hit = CW == Me && CR == Rd.Reg;
      CW = Rd.Reuse ? Me : 0;
      CR = Rd.Reg;
    }
    if (!Again && NDone < 8)
      Done[NDone++] = Rd.Reg;
    Need[B] += !Hit && !Again;
  }
  unsigned RC = C.RegisterReadCycles;
  uint64_t Delay = 0;
  for (unsigned B = 0; B < Banks; ++B)
    if (Need[B]) {
      uint64_t End = BankFree[S][B] + std::min(Need[B], RC);
      if (End > Now + 1 + RC)
        Delay = std::max(Delay, End - (Now + 1 + RC));
    }
  for (unsigned B = 0; B < Banks; ++B)
    if (Need[B])
      BankFree[S][B] = std::max(Now + 1 + Delay, BankFree[S][B]) + Need[B];
  return unsigned(Delay);
}

void SMModel::issue(WarpT &W, std::vector<WarpT> &Warps, uint64_t Now,
                    TimingResult &R) {
  const TimingModel::Event &E = (*W.Trace)[W.Pos];
  const DInst &D = P.Insts[E.Index];
  checkReads(W, D, Now, R);
  if (D.Sem == SemClass::CS2R && D.SReg == SR_CLOCKLO)
    R.ClockReads.push_back({W.Block, W.Warp, W.Pos + 1, Now});
  // The wait mask and DEPBAR consume the released entries they see; an
  // increment too new to be seen stays for a later wait (its result, read
  // before it lands, is a hazard: checkReads).
  for (unsigned S = 0; S < 6; ++S)
    if ((D.I.Ctrl.WaitMask >> S) & 1)
      W.SB[S].erase(W.SB[S].begin(),
                    W.SB[S].begin() + visibleEntries(W.SB[S], Now));
  if (D.Sem == SemClass::DEPBAR) {
    auto &Q = W.SB[unsigned(D.F[F_sb]) & 7];
    size_t Keep = size_t(D.F[F_cnt]);
    if (Q.size() > Keep)
      Q.erase(Q.begin(), Q.end() - Keep);
  }
  Pipe Pp = pipeOf(D);
  uint64_t Result = Now + 2, ReadDone = Now + 2;
  bool Long = false;
  if (const PipeTiming *T = timingOf(D, Pp)) {
    unsigned II = T->Interval;
    if (Pp == Pipe::Tensor && D.Class == sched::InstrClass::MMA1688)
      II = std::max(1u, II / 2);
    PipeFree[W.SMSP][unsigned(Pp)] = Now + II;
    if (Pp == Pipe::Tensor)
      TensorBusy += II;
    Result = Now + T->Latency;
  }
  // A memory instruction leaves the sub-core when its address unit and the
  // SM's shared structures take it (Huerta et al. 2025, Table 1), and
  // holds its queue entry until MemQueueHold cycles after that.
  uint64_t Accept = Now;
  if (Pp == Pipe::Shared || Pp == Pipe::Global) {
    Accept = std::max({Now, MemSubFree[W.SMSP], MemSMFree});
    MemSubFree[W.SMSP] = Accept + C.MemSubcoreInterval;
    MemSMFree = Accept + C.MemSMInterval;
    std::vector<uint64_t> &Q = MemQueue[W.SMSP];
    while (Q.size() >= C.MemQueueDepth && Q.front() <= Now)
      Q.erase(Q.begin());
    Q.push_back(Accept + C.MemQueueHold);
  }
  if (E.Wavefronts) {
    uint64_t Start = std::max(Accept, SharedFree);
    SharedFree = Start + E.Wavefronts;
    R.SharedWavefronts += E.Wavefronts;
    R.SharedIdealWavefronts += E.Ideal;
    Result = ReadDone = Start + E.Wavefronts + C.SharedLatency;
  }
  bool ThroughL1 = D.Sem == SemClass::Global && !D.has(SemFlag::Store);
  bool L1Hit = false;
  unsigned DRAMLines = 0;
  if (E.Lines) {
    const uint64_t *L = W.Lines->data() + W.LinePos;
    W.LinePos += E.Lines;
    if (ThroughL1)
      L1Hit = L1.access(L, E.Lines);
    if (!L1Hit)
      for (unsigned I = 0; I < E.Lines; ++I)
        DRAMLines += fromDRAM(L[I]);
  }
  if (ThroughL1) {
    // The L1's tag and data stages handle one 128-byte line a cycle (a
    // wavefront: Nsight Compute's L1TEX wavefronts; Accel-Sim's L1 takes
    // one line request a cycle), on the SM's L1/shared data path: a warp
    // touching 32 lines takes 32 cycles of it, hit or miss.
    unsigned WF = std::max<unsigned>(
        E.Lines, (E.GlobalBytes + C.SharedBytesPerClk - 1) /
                     C.SharedBytesPerClk);
    uint64_t Start = std::max(Accept, SharedFree);
    SharedFree = Start + WF;
    if (L1Hit) {
      // Nothing goes to L2; the data leave l1_latency after the first
      // wavefront.
      Result = Start + WF - 1 + C.L1Latency;
      ReadDone = SharedFree;
      Long = true;
    }
  }
  if (!L1Hit && Pp == Pipe::Global) {
    double Start = std::max(double(Accept), GlobalFree);
    GlobalFree = Start + E.GlobalBytes / MP.L2BytesPerClk;
    uint64_t Done = uint64_t(std::ceil(GlobalFree));
    unsigned Lat = D.Sem == SemClass::Local ? C.L1Latency : C.L2Latency;
    if (DRAMLines) {
      // DRAM is behind the L2: its bytes at the SM's DRAM share, after
      // both latencies (Accel-Sim adds dram_latency behind the L2's).
      double DStart = std::max(double(Accept), DRAMFree);
      DRAMFree = DStart + double(E.GlobalBytes) * DRAMLines / E.Lines /
                              MP.DRAMBytesPerClk;
      Done = std::max(Done, uint64_t(std::ceil(DRAMFree)));
      Lat += C.DRAMLatency;
    }
    Result = std::max(Result, Done + Lat);
    ReadDone = uint64_t(std::ceil(GlobalFree));
    Long = true;
  }
  if (D.Sem == SemClass::LDGSTS)
    W.OpenCopies = std::max(W.OpenCopies, Result);
  auto Push = [&](unsigned S, uint64_t T) {
    if (S >= 6)
      return;
    auto &Q = W.SB[S];
    // A scoreboard counts down in order.
    if (!Q.empty())
      T = std::max(T, Q.back().Release);
    Q.push_back({T, Now, Long});
  };
  if (D.Sem == SemClass::LDGDEPBAR) {
    Long = true;
    Push(D.I.Ctrl.WrSB < 6 ? D.I.Ctrl.WrSB : 0,
         std::max(W.OpenCopies, Now + 2));
    W.OpenCopies = 0;
  } else if (D.Variable) {
    Push(D.I.Ctrl.WrSB, Result);
    Push(D.I.Ctrl.RdSB, ReadDone);
  }
  checkWrites(W, D, Now, Result, R);
  recordRegisters(W, D, E.Index, Now, Result, ReadDone);
  unsigned Held = D.Variable ? 0 : readOperands(W, D, E.Index, Now);
  if (Held)
    IssueFrom[W.SMSP] = W.HeldUntil = Now + 1 + Held;
  W.ReadyAt = Now + Held + std::max<unsigned>(1, D.I.Ctrl.Stall);
  W.CachedUntil = 0;
  W.AfterBranch = D.IsBranch;
  W.Yielded = D.I.Ctrl.Yield;
  ++R.WarpInstructions;
  ++W.Pos;
  if (W.Pos == W.Trace->size())
    W.Done = true;
  if (D.IsBarrier && !W.Done) {
    W.AtBarrier = true;
    bool All = true;
    for (const WarpT &O : Warps)
      if (O.Block == W.Block && !O.Done && !O.AtBarrier)
        All = false;
    if (All)
      for (WarpT &O : Warps)
        if (O.Block == W.Block && O.AtBarrier) {
          O.AtBarrier = false;
          O.ReadyAt = std::max(O.ReadyAt, Now + 1);
          O.CachedUntil = 0;
        }
  }
}

/// Adds to \p TL what sub-partition 0's warps did in [Now, Now + Step).
static void recordTimeline(Timeline &TL, const std::vector<WarpT> &Warps,
                           const std::vector<WarpState> &State, uint64_t Now,
                           uint64_t Step) {
  uint64_t From = std::max(Now, TL.Start), To = std::min(Now + Step, TL.End);
  if (From >= To)
    return;
  unsigned Row = 0;
  for (size_t I = 0; I < Warps.size(); ++I) {
    if (Warps[I].SMSP != 0)
      continue;
    unsigned R = Row++;
    if (Warps[I].Done && State[I] != WarpState::Selected)
      continue;
    if (State[I] == WarpState::Selected)
      continue;
    if (!TL.Spans.empty() && TL.Spans.back().Row == R &&
        TL.Spans.back().To == From && TL.Spans.back().State == State[I])
      TL.Spans.back().To = To;
    else
      TL.Spans.push_back({R, From, To, State[I]});
  }
}

void SMModel::run(std::vector<WarpT> &Warps, TimingResult &R, Timeline *TL) {
  if (TL)
    for (size_t I = 0; I < Warps.size(); ++I)
      if (Warps[I].SMSP == 0)
        TL->Warps.push_back(unsigned(I));
  unsigned NS = C.SubPartitions;
  std::vector<int> Current(NS, -1);
  // Each sub-partition's warps, oldest first.
  std::vector<std::vector<unsigned>> Members(NS);
  for (size_t I = 0; I < Warps.size(); ++I)
    Members[Warps[I].SMSP].push_back(unsigned(I));
  uint64_t Now = 0;
  std::vector<WarpState> State(Warps.size());
  for (;;) {
    bool AnyLive = false, Issued = false;
    uint64_t Next = Never;
    for (unsigned S = 0; S < NS; ++S) {
      // Greedy, then loose round robin: the warp issued last while it is
      // eligible and did not yield, else the first eligible warp after it
      // in the sub-partition's order (wrapping around).
      int Pick = -1, First = -1;
      bool KeepCurrent = false;
      for (unsigned I : Members[S]) {
        WarpT &W = Warps[I];
        if (W.Done)
          continue;
        AnyLive = true;
        if (Now >= W.CachedUntil) {
          uint64_t Until;
          W.Cached = blocked(W, Now, Until);
          // An eligible warp is looked at again next cycle.
          W.CachedUntil = W.Cached == WarpState::Selected ? Now : Until;
        }
        State[I] = W.Cached;
        if (State[I] != WarpState::Selected) {
          Next = std::min(Next, W.CachedUntil);
          continue;
        }
        State[I] = WarpState::NotSelected;
        if (int(I) == Current[S] && !W.Yielded)
          KeepCurrent = true;
        if (First < 0)
          First = int(I);
        if (Pick < 0 && int(I) > Current[S])
          Pick = int(I);
      }
      if (KeepCurrent)
        Pick = Current[S];
      else if (Pick < 0)
        Pick = First;
      if (Pick >= 0 && Now < IssueFrom[S]) {
        // An instruction held for register ports stalls the sub-core's
        // issue: its eligible warps wait (dispatch stall).
        for (unsigned I : Members[S])
          if (!Warps[I].Done && State[I] == WarpState::NotSelected)
            State[I] = WarpState::DispatchStall;
        Next = std::min(Next, IssueFrom[S]);
        Pick = -1;
      }
      if (Pick >= 0) {
        State[Pick] = WarpState::Selected;
        Current[S] = Pick;
        if (TL && S == 0 && Now >= TL->Start && Now < TL->End) {
          const DInst &D = P.Insts[(*Warps[Pick].Trace)[Warps[Pick].Pos].Index];
          unsigned Row = unsigned(std::find(TL->Warps.begin(), TL->Warps.end(),
                                            unsigned(Pick)) -
                                  TL->Warps.begin());
          Pipe Pp = pipeOf(D);
          TL->Issues.push_back({Row, Now, Pp});
          if (Pp == Pipe::Tensor)
            TL->TensorBusy.push_back(
                {Now, Now + timingOf(D, Pp)->Interval /
                                (D.Class == sched::InstrClass::MMA1688 ? 2 : 1)});
        }
        issue(Warps[Pick], Warps, Now, R);
        Issued = true;
      }
    }
    if (!AnyLive)
      break;
    uint64_t Step = Issued ? 1 : (Next == Never ? 0 : Next - Now);
    if (!Step) {
      // Every live warp waits at a barrier no one can complete: the
      // functional run would have failed first.
      break;
    }
    // States hold for the skipped cycles (nothing changes without an issue);
    // a warp that issued is "selected" for one cycle.
    for (size_t I = 0; I < Warps.size(); ++I)
      if (!Warps[I].Done || State[I] == WarpState::Selected)
        R.States[unsigned(State[I])] +=
            State[I] == WarpState::Selected ? 1 : Step;
    if (TL)
      recordTimeline(*TL, Warps, State, Now, Step);
    for (size_t I = 0; I < Warps.size(); ++I)
      State[I] = WarpState::Wait;
    Now += Step;
  }
  R.BlockCycles = Now;
  R.IssueUtilization =
      Now ? double(R.WarpInstructions) / (double(Now) * NS) : 0;
  R.TensorUtilization = Now ? double(TensorBusy) / (double(Now) * NS) : 0;
  NumModelledInstrs += R.WarpInstructions;
  NumModelledCycles += Now;
}

void TimingModel::runBlocks(size_t Blocks, uint64_t Running,
                            TimingResult &R, Timeline *TL) const {
  std::vector<WarpT> Warps;
  unsigned I = 0;
  for (unsigned B = 0; B < Blocks; ++B)
    for (const auto &T : Traces[B]) {
      WarpT W;
      W.Trace = &T;
      W.Lines = &Lines[B][&T - Traces[B].data()];
      W.Block = B;
      W.Warp = unsigned(&T - Traces[B].data());
      W.SMSP = I++ % C.SubPartitions;
      W.Done = T.empty();
      std::fill(std::begin(W.WIssue), std::end(W.WIssue), Never);
      std::fill(std::begin(W.WArrive), std::end(W.WArrive), 0);
      std::fill(std::begin(W.WGuard), std::end(W.WGuard), NoGuard);
      std::fill(std::begin(W.LateGuard), std::end(W.LateGuard), NoGuard);
      for (auto &RC : W.RCycle)
        RC[0] = RC[1] = Never;
      Warps.push_back(std::move(W));
    }
  MemoryPath MP;
  // The L1 gets what the blocks' shared memory leaves of the unified data
  // cache (the carve-out's granularity neglected).
  uint64_t SharedUsed = uint64_t(Blocks) * SharedPerBlock;
  MP.L1Lines = (C.UnifiedL1BytesPerSM > SharedUsed
                    ? C.UnifiedL1BytesPerSM - SharedUsed
                    : 0) /
               128;
  // L2 and DRAM are one resource for the GPU: the SM's share of DRAM is
  // its part of the blocks running at once (\p Running), at most its L2
  // share; so is its share of the L2's capacity.
  MP.L2BytesPerClk = C.L2BytesPerClkPerSM;
  double Part = double(Blocks) / double(std::max<uint64_t>(Running, Blocks));
  MP.DRAMBytesPerClk =
      std::min(MP.L2BytesPerClk, C.DRAMGBytesPerS / C.ClockGHz * Part);
  R.FootprintBytes = Footprint;
  R.GlobalFromDRAM = Footprint > C.L2Bytes;
  if (R.GlobalFromDRAM)
    MP.L2ShareLines =
        std::max<uint64_t>(1, uint64_t(double(C.L2Bytes / 128) * Part));
  if (R.GlobalFromDRAM) {
    // The grid's blocks first read about (lines these blocks read) x
    // (grid / blocks) lines; the footprint of them comes from DRAM.  (A
    // footprint within the L2 is there from the launch before: benchmarks
    // and published figures time repeated launches.)
    std::unordered_set<uint64_t> Unique;
    for (unsigned B = 0; B < Blocks; ++B)
      for (const auto &WL : Lines[B])
        Unique.insert(WL.begin(), WL.end());
    double FirstReads =
        double(Unique.size()) * 128 * double(GridBlocks) / double(Blocks);
    MP.ColdDRAM =
        FirstReads > 0 ? std::min(1.0, double(Footprint) / FirstReads) : 0;
  }
  R.ColdDRAMFraction = MP.ColdDRAM;
  // The regular-register sources of the fixed-latency instructions other
  // than the tensor ones (whose operand reads Huerta et al. do not
  // describe), by operand slot.
  std::vector<RegReads> Reads(Prog.Insts.size());
  for (size_t I = 0; I < Prog.Insts.size(); ++I) {
    const DInst &D = Prog.Insts[I];
    if (D.Variable || D.Class == sched::InstrClass::MMA16816 ||
        D.Class == sched::InstrClass::MMA1688)
      continue;
    const sass::InstrInfo &II = sass::getInstrInfo(D.I.Op);
    for (unsigned K = 0; K < II.NumOperands; ++K) {
      const sass::OperandInfo &O = II.Operands[K];
      if (O.Kind != sass::OperandKind::GPR || O.IsDef ||
          D.I.Ops[K] == sass::RZ)
        continue;
      for (unsigned J = 0; J < std::max<unsigned>(1, O.Width); ++J) {
        int64_t Reg = D.I.Ops[K] + J;
        if (Reg < 0 || Reg >= sass::RZ)
          continue;
        bool Reuse = O.ReuseSlot >= 0 && (D.I.Ctrl.Reuse >> O.ReuseSlot) & 1;
        Reads[I].Reads.push_back(
            {uint8_t(Reg), int8_t(O.ReuseSlot < 3 ? O.ReuseSlot : -1),
             Reuse});
      }
    }
  }
  SMModel M(Prog, C, MP, Reads);
  M.run(Warps, R, TL);
}

TimingResult TimingModel::model(double Flops, double CompulsoryBytes,
                                Timeline *TL) const {
  if (TL && !TL->End) {
    // The window: the middle 2048 cycles of the run (a first run finds it).
    TimingResult First = model(Flops, CompulsoryBytes);
    uint64_t Len = std::min<uint64_t>(2048, First.BlockCycles);
    TL->Start = (First.BlockCycles - Len) / 2;
    TL->End = TL->Start + Len;
  }
  TimingResult R;
  R.Card = C.Name;
  R.BlocksPerSM = Occupancy;
  R.ResidentBlocks = unsigned(Traces.size());
  R.OccupancyLimit = OccupancyLimit;
  R.GridBlocks = GridBlocks;
  R.Flops = Flops;
  uint64_t Running = std::min<uint64_t>(GridBlocks,
                                        uint64_t(Occupancy) * C.SMs);
  runBlocks(Traces.size(), Running, R, TL);
  // The busiest SM gets ceil(grid / SMs) blocks and runs them in waves of
  // the occupancy (ceil(ceil(G / S) / O) = ceil(G / (S O))); its last wave
  // holds what is left, modelled on its own when fewer than a full one.
  uint64_t PerSM = (GridBlocks + C.SMs - 1) / C.SMs;
  R.Waves = std::max<uint64_t>(1, (PerSM + Occupancy - 1) / Occupancy);
  R.LastWaveBlocks = unsigned(PerSM - (R.Waves - 1) * Occupancy);
  R.LastWaveCycles = R.BlockCycles;
  if (R.LastWaveBlocks && R.LastWaveBlocks < R.ResidentBlocks) {
    TimingResult Last;
    // The last wave runs what the full waves left of the grid.
    uint64_t Left = GridBlocks - std::min(GridBlocks, (R.Waves - 1) * Running);
    runBlocks(R.LastWaveBlocks, std::max<uint64_t>(Left, 1), Last, nullptr);
    R.LastWaveCycles = Last.BlockCycles;
  }
  double Clock = C.ClockGHz * 1e9;
  R.DRAMFloorSeconds = CompulsoryBytes / (C.DRAMGBytesPerS * 1e9);
  uint64_t DRAMCycles = uint64_t(std::ceil(R.DRAMFloorSeconds * Clock));
  R.KernelCycles = std::max((R.Waves - 1) * R.BlockCycles + R.LastWaveCycles,
                            DRAMCycles);
  R.KernelSeconds = double(R.KernelCycles) / Clock;
  LLVM_DEBUG(dbgs() << "timing: " << R.WarpInstructions << " instructions, "
                    << R.BlockCycles << " cycles per wave\n");
  return R;
}
