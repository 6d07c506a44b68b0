//===- CompactStalls.cpp - tp-compact-stalls: the smallest stalls ---------===//
///
/// \file
/// The tp-compact-stalls pass (at the end of this file) and the algorithm
/// it runs, compactStalls(): one forward walk over a piece that, for each
/// instruction in order,
///
///  1. finds the scoreboard waits it needs: a register it reads or writes
///     whose last writer is a variable-latency instruction not yet waited
///     for (RAW, WAW), a register it writes that an in-flight instruction
///     still reads late (WAR: stores, LDGSTS); BAR waits for in-flight
///     shared reads, EXIT for everything, BRA for every register
///     scoreboard (never for the group commits, which DEPBAR counts);
///  2. issues it at the earliest cycle that keeps every fixed-latency
///     dependency (RAW, WAW, WAR by the LatencyModel tables), the
///     blocking stall of its predecessor (BAR 6, DEPBAR 4) and, for each
///     wait, 2 cycles after the youngest instruction that set the waited
///     scoreboard and is needed;
///  3. applies the waits (scoreboards are counters: a wait releases every
///     instruction on it issued at least 2 cycles earlier; DEPBAR.LE SBx, n
///     all but the n youngest) and then takes its own scoreboards by the
///     plan in Schedule.h.
///
/// The stall of each instruction is then the distance to the next issue;
/// the last instruction's stall drains the piece (every fixed-latency
/// result ready for any consumer, worst*() of the model) and a NOP is
/// appended to wait for register scoreboards still in flight.  Delays over
/// 15 are split over never-executing fillers by insertFillers().
///
/// The walk is ASAP in a fixed order, so every stall is the smallest the
/// constraints allow; the reason of each is recorded for the mutation test.
///
//===----------------------------------------------------------------------===//

#include "SchedulePieces.h"
#include "tp/Pass/Pass.h"
#include "tp/Target/SASS/ScheduleUnits.h"
#include "tp/Support/Diagnostics.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/ADT/StringSwitch.h"

#include <algorithm>
#include <array>

using namespace llvm;

namespace tp {
namespace sched {

using namespace units;

namespace {

/// One increment of a scoreboard counter.
struct SBEntry {
  int Instr;
  bool IsWrite;    ///< the write scoreboard of Instr (else its read one)
  bool IsRegister; ///< guards registers (every entry but a group commit)
  bool IsShared;   ///< a shared-memory read in flight (LDSM, LDS)
};

/// The compaction state of one piece.
class Compactor {
public:
  Compactor(InstrSeq &P, const CompactOptions &Opts,
            std::vector<CompactInfo> &Info)
      : P(P), Opts(Opts), M(LatencyModel::get(Opts.Target)), Info(Info) {}

  Error run();

private:
  /// The readers of a register unit since its last write, as the walk
  /// needs them: the youngest reader of each latency class (the WAR
  /// spacing depends on the reader's class only and issue cycles never
  /// fall, so the youngest of a class bounds every older one), and every
  /// late read of a variable-latency instruction (its scoreboards).
  struct Unit {
    int LastWrite = -1;
    SmallVector<int, 4> YoungestOfClass; ///< one reader per class
    SmallVector<int, 2> LateVariable;    ///< readers after issue
    void addRead(const InstrSeq &P, int I, bool Late) {
      if (Late && isVariable(P[I].Class))
        LateVariable.push_back(I);
      for (int &R : YoungestOfClass)
        if (P[R].Class == P[I].Class) {
          R = I;
          return;
        }
      YoungestOfClass.push_back(I);
    }
    void clearReads() {
      YoungestOfClass.clear();
      LateVariable.clear();
    }
  };
  /// The waits of one instruction.  Required ones protect a dependency
  /// the verifier checks: they bound the issue 2 cycles after the setter.
  /// Policy ones (EXIT waits for everything, BRA for every register
  /// scoreboard) only set the bit.
  struct Need {
    uint8_t Mask = 0, Required = 0;
    std::array<int, NumScoreboards> Setter{{-1, -1, -1, -1, -1, -1}};
    void add(uint8_t SB, int Instr, bool IsRequired = true) {
      if (SB >= NumScoreboards)
        return;
      Mask |= 1u << SB;
      if (!IsRequired)
        return;
      Required |= 1u << SB;
      Setter[SB] = std::max(Setter[SB], Instr);
    }
  };

  Need findWaits(unsigned I);
  void applyWaits(unsigned I, uint8_t Mask);
  void takeScoreboards(unsigned I);
  uint8_t allocate();
  void issue(unsigned I, const Need &N);
  void record(unsigned I);
  bool pendingFor(int Instr, bool Write) const;

  InstrSeq &P;
  const CompactOptions &Opts;
  const LatencyModel &M;
  std::vector<CompactInfo> &Info;
  std::vector<Unit> Units{NumUnits};
  std::array<std::vector<SBEntry>, NumScoreboards> Pending;
  /// How many entries of Pending each instruction holds, write and read
  /// scoreboard apart: pendingFor() in constant time, not a scan of every
  /// scoreboard per register unit.
  std::vector<std::array<uint8_t, 2>> PendingCount;
  void dropPending(const SBEntry &E) { --PendingCount[E.Instr][E.IsWrite]; }
  std::vector<int64_t> T; ///< issue cycle of each instruction
  std::array<int, NumScoreboards> LastSetter{{-1, -1, -1, -1, -1, -1}};
  uint8_t CommitSB = units::CommitSB;
};

bool Compactor::pendingFor(int Instr, bool Write) const {
  return PendingCount[Instr][Write] != 0;
}

Compactor::Need Compactor::findWaits(unsigned I) {
  const SchedInstr &In = P[I];
  Need N;
  if (In.NeverExecutes)
    return N;
  auto NeedWrite = [&](int W) {
    if (W >= 0 && isVariable(P[W].Class) && pendingFor(W, true))
      N.add(P[W].Ctrl.WrSB, W);
  };
  for (const RegUse &U : In.Uses)
    forEachUnit(U.Regs, [&](unsigned X) { NeedWrite(Units[X].LastWrite); });
  for (const RegRange &D : In.Defs)
    forEachUnit(D, [&](unsigned X) {
      NeedWrite(Units[X].LastWrite);
      for (int R : Units[X].LateVariable) {
        const SchedInstr &Q = P[R];
        if (Q.Ctrl.RdSB != NoSB && pendingFor(R, false))
          N.add(Q.Ctrl.RdSB, R);
        else if (Q.Ctrl.WrSB != NoSB && pendingFor(R, true))
          N.add(Q.Ctrl.WrSB, R);
      }
    });
  // Only EXIT, BRA and BAR wait for what is in flight regardless of
  // registers: other instructions do not scan the scoreboards.
  if (In.Kind != SpecialKind::Exit && In.Kind != SpecialKind::Branch &&
      In.Kind != SpecialKind::Barrier)
    return N;
  for (unsigned B = 0; B < NumScoreboards; ++B)
    for (const SBEntry &E : Pending[B]) {
      switch (In.Kind) {
      case SpecialKind::Exit:
        N.add(B, E.Instr, false); // the seed's EXIT waits for everything
        break;
      case SpecialKind::Branch:
        if (E.IsRegister) // never the commits: DEPBAR counts them
          N.add(B, E.Instr, false);
        break;
      case SpecialKind::Barrier:
        // Another warp may overwrite the stage once past the barrier: this
        // warp's shared reads must be done.
        if (E.IsShared)
          N.add(B, E.Instr);
        break;
      default:
        break;
      }
    }
  return N;
}

void Compactor::issue(unsigned I, const Need &N) {
  const SchedInstr &In = P[I];
  CompactInfo &Inf = Info[I];
  Inf.RequiredWaits = N.Required;
  if (I == 0) {
    T[I] = 0;
    return;
  }
  const SchedInstr &Prev = P[I - 1];
  int64_t Base = T[I - 1] + (Opts.Conservative ? int64_t(MaxStall)
                                               : int64_t(minStall(M, Prev)));
  StallReason Why = Opts.Conservative       ? StallReason::Conservative
                    : minStall(M, Prev) > 1 ? StallReason::ExecLatency
                                            : StallReason::MinIssue;
  int64_t At = Base;
  auto Bound = [&](int64_t C, StallReason R) {
    if (C > At) {
      At = C;
      Why = R;
    }
  };
  if (!In.NeverExecutes) {
    for (const RegUse &U : In.Uses)
      forEachUnit(U.Regs, [&](unsigned X) {
        int W = Units[X].LastWrite;
        if (W >= 0 && !isVariable(P[W].Class))
          Bound(T[W] + raw(M, P[W], In, U, X), StallReason::Dependency);
      });
    for (const RegRange &D : In.Defs)
      forEachUnit(D, [&](unsigned X) {
        int W = Units[X].LastWrite;
        if (W >= 0 && !isVariable(P[W].Class))
          Bound(T[W] + waw(M, P[W], In, D.File), StallReason::Dependency);
        for (int R : Units[X].YoungestOfClass)
          Bound(T[R] + war(M, P[R], In, D.File), StallReason::Dependency);
      });
    for (unsigned B = 0; B < NumScoreboards; ++B)
      if (N.Setter[B] >= 0)
        Bound(T[N.Setter[B]] + ScoreboardSetCycles, StallReason::ScoreboardSet);
  }
  T[I] = At;
  Info[I - 1].Reason = Why;
}

void Compactor::applyWaits(unsigned I, uint8_t Mask) {
  for (unsigned B = 0; B < NumScoreboards; ++B) {
    if (!(Mask & (1u << B)))
      continue;
    // An increment less than 2 cycles old may not be seen by the wait.
    auto &L = Pending[B];
    L.erase(std::remove_if(L.begin(), L.end(),
                           [&](const SBEntry &E) {
                             if (T[E.Instr] + ScoreboardSetCycles > T[I])
                               return false;
                             dropPending(E);
                             return true;
                           }),
            L.end());
  }
  const SchedInstr &In = P[I];
  if (In.Kind == SpecialKind::WaitGroups && In.WaitSB < NumScoreboards) {
    // E: ptxas issues DEPBAR one cycle after LDGDEPBAR; the counter it
    // reads includes that group.
    auto &L = Pending[In.WaitSB];
    if (L.size() > In.WaitCount) {
      for (auto It = L.begin(), E = L.end() - In.WaitCount; It != E; ++It)
        dropPending(*It);
      L.erase(L.begin(), L.end() - In.WaitCount);
    }
  }
}

uint8_t Compactor::allocate() {
  // The seed waits on SB5 for its S2Rs; SB4 next.  A free one first, else
  // share the one whose youngest increment is the oldest (counters).
  static const uint8_t Pool[] = {5, 4};
  for (uint8_t B : Pool)
    if (Pending[B].empty())
      return B;
  uint8_t Best = Pool[0];
  for (uint8_t B : Pool)
    if (Pending[B].back().Instr < Pending[Best].back().Instr)
      Best = B;
  return Best;
}

void Compactor::takeScoreboards(unsigned I) {
  SchedInstr &In = P[I];
  // The input's choice among the shared SB4/SB5 is kept (the seed puts its
  // three S2Rs on SB5); the other scoreboards follow the plan.
  uint8_t GivenWr = In.Ctrl.WrSB, GivenRd = In.Ctrl.RdSB;
  auto Pick = [&](uint8_t Given) {
    return Given == 4 || Given == 5 ? Given : allocate();
  };
  In.Ctrl.WrSB = NoSB;
  In.Ctrl.RdSB = NoSB;
  if (In.NeverExecutes || !isVariable(In.Class))
    return;
  bool HasSources = false;
  for (const RegUse &U : In.Uses)
    HasSources |= U.Late;
  bool Shared = In.Kind == SpecialKind::SharedMatrixLoad ||
                In.Kind == SpecialKind::SharedLoad;
  auto Push = [&](uint8_t B, bool Write, bool Reg) {
    Pending[B].push_back({int(I), Write, Reg, Shared && Write});
    ++PendingCount[I][Write];
    LastSetter[B] = int(I);
    (Write ? In.Ctrl.WrSB : In.Ctrl.RdSB) = B;
  };
  if (In.Kind == SpecialKind::CommitGroup) {
    Push(CommitSB, true, false);
    return;
  }
  if (In.Kind == SpecialKind::AsyncCopy) {
    if (HasSources)
      Push(CopyReadSB, false, true);
    return;
  }
  if (!In.Defs.empty()) {
    uint8_t B = In.Kind == SpecialKind::SharedMatrixLoad ? FragmentSB
                : In.Class == InstrClass::DecoupledAgu   ? LoadSB
                                                         : Pick(GivenWr);
    Push(B, true, true);
  }
  if (In.NeedsReadSB && HasSources)
    Push(Pick(GivenRd), false, true);
}

void Compactor::record(unsigned I) {
  const SchedInstr &In = P[I];
  if (In.NeverExecutes)
    return;
  for (const RegUse &U : In.Uses)
    forEachUnit(U.Regs,
                [&](unsigned X) { Units[X].addRead(P, int(I), U.Late); });
  for (const RegRange &D : In.Defs)
    forEachUnit(D, [&](unsigned X) {
      Units[X].LastWrite = int(I);
      Units[X].clearReads();
    });
}

/// The scheduling view of a NOP (the drain's and the fillers'), made once:
/// makeInstr() looks its form up among every td form by name.
static const SchedInstr &nopView() {
  static const SchedInstr Nop = makeInstr("NOP");
  return Nop;
}

Error Compactor::run() {
  for (const SchedInstr &In : P)
    if (In.Kind == SpecialKind::WaitGroups)
      CommitSB = In.WaitSB;
  for (const SchedInstr &In : P)
    if (In.Kind == SpecialKind::WaitGroups && In.WaitSB != CommitSB)
      return makeError("tp-compact-stalls: DEPBAR waits on SB" +
                       Twine(unsigned(In.WaitSB)) + " and on SB" +
                       Twine(unsigned(CommitSB)) +
                       "; the group commits can be counted on one only");
  if (CommitSB == FragmentSB || CommitSB == LoadSB || CommitSB == CopyReadSB)
    return makeError("tp-compact-stalls: DEPBAR on SB" +
                     Twine(unsigned(CommitSB)) +
                     ", which the scoreboard plan gives to another class");

  Info.assign(P.size(), CompactInfo());
  T.assign(P.size(), 0);
  PendingCount.assign(P.size() + 1, {{0, 0}});
  bool Exited = false;
  for (unsigned I = 0; I < P.size(); ++I) {
    // After an unconditional EXIT nothing runs (ptxas's BRA to itself).
    Need N = Exited ? Need() : findWaits(I);
    Exited |= P[I].Kind == SpecialKind::Exit && !P[I].Predicated &&
              !P[I].NeverExecutes;
    issue(I, N);
    uint8_t Mask = N.Mask;
    if (Opts.Conservative && !P[I].NeverExecutes && !Exited)
      Mask = (1u << NumScoreboards) - 1;
    P[I].Ctrl.WaitMask = Mask;
    applyWaits(I, Mask);
    takeScoreboards(I);
    record(I);
  }

  // Nothing runs after an unconditional EXIT: no drain.
  bool Exits = llvm::any_of(P, [](const SchedInstr &In) {
    return In.Kind == SpecialKind::Exit && !In.Predicated && !In.NeverExecutes;
  });
  bool Drain = Opts.Drain && !Exits;
  // Drain: register scoreboards still in flight are waited for by a NOP.
  if (Drain) {
    Need N;
    for (unsigned B = 0; B < NumScoreboards; ++B)
      for (const SBEntry &E : Pending[B])
        if (E.IsRegister)
          N.add(B, E.Instr);
    if (N.Mask) {
      P.push_back(nopView());
      Info.push_back(CompactInfo());
      T.push_back(0);
      unsigned I = P.size() - 1;
      issue(I, N);
      // For the next piece, not for a consumer here: not mutated.
      Info[I].RequiredWaits = 0;
      if (Info[I - 1].Reason == StallReason::ScoreboardSet)
        Info[I - 1].Reason = StallReason::Drain;
      P[I].Ctrl.WaitMask = N.Mask;
      applyWaits(I, N.Mask);
    }
  }

  // The last instruction's delay: every fixed-latency result ready, every
  // scoreboard set at least 2 cycles before the next piece may wait on it.
  unsigned Last = P.size() - 1;
  int64_t End = T[Last] + (Opts.Conservative ? int64_t(MaxStall)
                                             : int64_t(minStall(M, P[Last])));
  StallReason EndWhy = Opts.Conservative          ? StallReason::Conservative
                       : minStall(M, P[Last]) > 1 ? StallReason::ExecLatency
                                                  : StallReason::MinIssue;
  if (Drain) {
    auto Bound = [&](int64_t C) {
      if (C > End) {
        End = C;
        EndWhy = StallReason::Drain;
      }
    };
    // The model's worst WAR spacing of a file is a maximum over every
    // class pair: once per file, not once per pending read.
    const RegFile Files[] = {RegFile::GPR, RegFile::UGPR, RegFile::Pred,
                             RegFile::UPred};
    unsigned WorstWar[4];
    for (RegFile F : Files)
      WorstWar[unsigned(F)] = worstWar(M, F);
    // The worst spacing after a writer depends on its class and the file
    // only (a maximum over the model's tables): each pair once, not once a
    // register unit.
    constexpr unsigned NumClasses = unsigned(InstrClass::Nop) + 1;
    unsigned WorstAfter[4][NumClasses] = {};
    for (unsigned X = 0; X < NumUnits; ++X) {
      const Unit &U = Units[X];
      if (U.LastWrite >= 0 && !isVariable(P[U.LastWrite].Class)) {
        const SchedInstr &W = P[U.LastWrite];
        unsigned &Worst = WorstAfter[unsigned(fileOf(X))][unsigned(W.Class)];
        if (!Worst)
          Worst = worst(M, W, fileOf(X));
        Bound(T[U.LastWrite] + Worst);
      }
      if (U.YoungestOfClass.empty())
        continue;
      // The youngest read bounds the end: every read shares the spacing.
      int64_t Youngest = 0;
      for (int R : U.YoungestOfClass)
        Youngest = std::max(Youngest, T[R]);
      Bound(Youngest + WorstWar[unsigned(fileOf(X))]);
    }
    for (unsigned B = 0; B < NumScoreboards; ++B)
      if (LastSetter[B] >= 0)
        Bound(T[LastSetter[B]] + ScoreboardSetCycles);
  }

  for (unsigned I = 0; I < P.size(); ++I) {
    int64_t Next = I + 1 < P.size() ? T[I + 1] : End;
    CompactInfo &Inf = Info[I];
    if (I == Last)
      Inf.Reason = EndWhy;
    Inf.Cycles = unsigned(Next - T[I]);
    Inf.FillerStalls.clear();
    unsigned Rest = Inf.Cycles > MaxStall ? Inf.Cycles - MaxStall : 0;
    while (Rest > 0) {
      unsigned S = std::min<unsigned>(Rest, MaxStall);
      Inf.FillerStalls.push_back(uint8_t(S));
      Rest -= S;
    }
    SchedInstr &In = P[I];
    In.Ctrl.Stall = uint8_t(std::min<unsigned>(Inf.Cycles, MaxStall));
    // SASS_FACTS 1.2 (E): ptxas leaves bit 109 = 1 (Yield = false) on most
    // instructions and clears it (Yield) on DEPBAR and on pad NOPs.
    In.Ctrl.Yield =
        In.Kind == SpecialKind::WaitGroups || In.Kind == SpecialKind::Nop;
  }
  return Error::success();
}

} // namespace

Error compactStalls(InstrSeq &P, const CompactOptions &Opts,
                    std::vector<CompactInfo> *Info) {
  std::vector<CompactInfo> Local;
  std::vector<CompactInfo> &I = Info ? *Info : Local;
  if (P.empty()) {
    I.clear();
    return Error::success();
  }
  Compactor C(P, Opts, I);
  return C.run();
}

void insertFillers(InstrSeq &P, std::vector<CompactInfo> &Info) {
  InstrSeq Out;
  std::vector<CompactInfo> OutInfo;
  for (unsigned I = 0; I < P.size(); ++I) {
    Out.push_back(P[I]);
    OutInfo.push_back(I < Info.size() ? Info[I] : CompactInfo());
    if (I >= Info.size())
      continue;
    for (uint8_t S : Info[I].FillerStalls) {
      SchedInstr F = nopView();
      F.NeverExecutes = true;
      F.Ctrl.Stall = S;
      F.Ctrl.Yield = false;
      F.Loc = P[I].Loc;
      Out.push_back(F);
      OutInfo.push_back(CompactInfo());
    }
  }
  P = std::move(Out);
  Info = std::move(OutInfo);
}

} // namespace sched
} // namespace tp

//===- The tp-compact-stalls pass -----------------------------------------===//
//
// tp-compact-stalls (mir -> mir): every piece of every function is
// finished on its own (pieces compose: see Schedule.h): stalls, yield,
// scoreboards and wait masks recomputed; reuse flags kept.  NOPs and
// never-executing fillers of the input are dropped first (their labels
// move to the next instruction) and made again where needed: a delay over
// 15 cycles continues in `@!UPT UIADD3 URZ, URZ, URZ, URZ` fillers as ptxas
// writes them (SASS_FACTS 1.2, E), `@!PT NOP` when the instruction set has
// no UIADD3 (`@!UPT` is the uniform spelling of the same guard bits); a
// NOP waits for register scoreboards still in flight at a piece's end.
// Options:
//   mode=compact       the smallest fields (default)
//   mode=conservative  every instruction waits on every scoreboard and
//                      stalls at least 15 cycles (NAK's `serial` idea)
//===----------------------------------------------------------------------===//

#define DEBUG_TYPE "tp-compact-stalls"

ALWAYS_ENABLED_STATISTIC(NumStallCyclesRemoved,
                         "Stall cycles removed (input minus output)");
ALWAYS_ENABLED_STATISTIC(NumWaitsPlaced, "Scoreboard waits placed");
ALWAYS_ENABLED_STATISTIC(NumScoreboardsSet,
                         "Scoreboards set (read or write)");
ALWAYS_ENABLED_STATISTIC(NumFillers,
                         "Never-executing fillers for delays over 15");
ALWAYS_ENABLED_STATISTIC(NumDrainNops, "NOPs waiting at a piece's end");

namespace tp {
namespace {

using sched::CompactInfo;
using sched::describePiece;
using sched::targetOf;

Expected<mir::MInstr> makeFiller(uint8_t Stall) {
  sass::Control C;
  C.Stall = Stall;
  // E (SASS_FACTS 1.2): ptxas continues a long delay in a never-executing
  // UIADD3 on sm_80/86 (guard bits 12..15 = 0xf; a uniform op's guard is
  // spelled `@!UPT`).
  if (sass::isSupportedMnemonic("UIADD3"))
    return mir::makeInstr("@!UPT UIADD3 URZ, URZ, URZ, URZ", C);
  return mir::makeInstr("@!PT NOP", C);
}

class CompactStallsPass : public Pass {
public:
  std::vector<PassOption> getOptions() const override {
    return {{"mode", "compact",
             "compact: the smallest stalls, scoreboards and waits; "
             "conservative: stall >= 15 and every wait on every instruction"}};
  }

  Error run(std::unique_ptr<IRUnit> &IR, PassContext &Ctx) override {
    StringRef Mode = getOption("mode");
    if (Mode != "compact" && Mode != "conservative")
      return makeError("tp-compact-stalls: option 'mode' expects compact or "
                       "conservative, found '" +
                       Mode + "'");
    sched::CompactOptions Opts;
    Opts.Conservative = Mode == "conservative";
    for (mir::Function &F : static_cast<mir::MachineUnit &>(*IR).M.Functions) {
      if (Error E = mir::requirePhysicalRegs(F, Ctx.SM, "tp-compact-stalls"))
        return E;
      Expected<sass::Target> T = targetOf(F);
      if (!T)
        return T.takeError();
      Opts.Target = *T;
      for (mir::Piece &P : F.Pieces)
        if (Error E = compactPiece(P, Opts))
          return E;
      if (Error E = F.resolveBranches())
        return E;
    }
    return Error::success();
  }

private:
  Error compactPiece(mir::Piece &P, const sched::CompactOptions &Opts) {
    std::vector<mir::MInstr> Real;
    sched::InstrSeq Views;
    if (Error E = describePiece(P, Real, Views))
      return E;
    std::vector<CompactInfo> Info;
    if (Error E = sched::compactStalls(Views, Opts, &Info))
      return E;
    std::vector<mir::MInstr> Out;
    size_t Fillers = 0;
    for (const CompactInfo &I : Info)
      Fillers += I.FillerStalls.size();
    Out.reserve(Views.size() + Fillers);
    for (size_t K = 0; K < Views.size(); ++K) {
      if (K < Real.size()) {
        Out.push_back(std::move(Real[K]));
        Out.back().I.Ctrl = Views[K].Ctrl;
      } else {
        Expected<mir::MInstr> Nop = mir::makeInstr("NOP", Views[K].Ctrl);
        if (!Nop)
          return Nop.takeError();
        Out.push_back(*Nop);
      }
      for (uint8_t S : Info[K].FillerStalls) {
        Expected<mir::MInstr> F = makeFiller(S);
        if (!F)
          return F.takeError();
        Out.push_back(*F);
      }
    }
    countDecisions(P.Instrs, Out);
    P.Instrs = std::move(Out);
    return Error::success();
  }

  /// The statistics of one piece: \p Before as given, \p After compacted.
  static void countDecisions(ArrayRef<mir::MInstr> Before,
                             ArrayRef<mir::MInstr> After) {
    int64_t StallsIn = 0, StallsOut = 0;
    for (const mir::MInstr &MI : Before)
      StallsIn += MI.I.Ctrl.Stall;
    for (const mir::MInstr &MI : After) {
      const sass::Control &C = MI.I.Ctrl;
      StallsOut += C.Stall;
      NumWaitsPlaced += countPopulation(C.WaitMask);
      NumScoreboardsSet += (C.WrSB != 7) + (C.RdSB != 7);
      if (sched::isFillerOrNop(MI))
        ++(MI.mnemonic() == "NOP" && !MI.I.GuardNeg ? NumDrainNops
                                                     : NumFillers);
    }
    if (StallsIn > StallsOut)
      NumStallCyclesRemoved += StallsIn - StallsOut;
  }
};

} // namespace

std::unique_ptr<Pass> createCompactStallsPass() {
  return std::make_unique<CompactStallsPass>();
}

} // namespace tp
