//===- VerifySchedule.cpp - tp-verify-schedule: walk the checked program --===//
///
/// \file
/// The tp-verify-schedule pass (at the end of this file) and its walk,
/// verifySchedule(): an independent check of the control fields of a
/// straight-line program (the checked program: prologue, the loop body and
/// control twice, tail).  It keeps its own state and shares with
/// tp-compact-stalls only the latency model (ScheduleUnits.h):
///
///  * time: instruction i issues no earlier than the sum of the stalls
///    before it (waits only delay, so the sum is the bound to check);
///  * per register: its last writer (issue cycle, class) and its readers
///    since; a fixed-latency producer must be the model's cycles behind its
///    reader / rewriter, a variable one must have had its scoreboard waited
///    on, and an in-flight late reader (LDGSTS, a store: read scoreboard;
///    a load: write scoreboard) must have been waited on before its source
///    is rewritten;
///  * per scoreboard: the increments in flight (counters); a wait releases
///    those set at least 2 cycles before it (N calc_delays), DEPBAR.LE
///    SBx, n all but the n youngest;
///  * shared stages (when the program has LDGSTS): the group each LDGSTS
///    belongs to (closed by LDGDEPBAR on its write scoreboard), completed by
///    a DEPBAR or wait, made visible to every warp by the next BAR.  An LDSM
///    may only read a stage whose last group is visible; an LDGSTS may only
///    rewrite a stage after a BAR that follows the last LDSM of it; a BAR
///    may not pass an LDSM still reading.
///
/// A stage is identified by the immediate of its shared address: each
/// distinct LDGSTS immediate starts one (tp-select addresses a stage's tile
/// as a per-thread register plus the stage's base), or StageBytes divides.
///
//===----------------------------------------------------------------------===//

#include "SchedulePieces.h"
#include "tp/Pass/Pass.h"
#include "tp/Support/Diagnostics.h"
#include "tp/Target/SASS/ScheduleOps.h"
#include "tp/Target/SASS/ScheduleUnits.h"

#include "llvm/ADT/Statistic.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <array>
#include <map>
#include <set>

using namespace llvm;

namespace tp {
namespace sched {

using namespace units;

namespace {

std::string addr(unsigned Index) { return formatAddress(Index * 16); }

class Verifier {
public:
  Verifier(ArrayRef<SchedInstr> P, const VerifyOptions &Opts)
      : P(P), Opts(Opts), M(LatencyModel::get(Opts.Target)),
        WrPending(P.size(), false), RdPending(P.size(), false),
        TooSoon(P.size(), -1) {}

  std::vector<Hazard> run();

private:
  struct Unit {
    int LastWrite = -1;
    SmallVector<std::pair<int, bool>, 4> Reads; ///< reader, read late
  };
  struct Entry {
    int Instr;
    bool IsWrite;
    int Group; ///< a commit's group, else -1
  };
  enum class GroupState { Open, Committed, Complete, Visible };
  struct Group {
    GroupState State = GroupState::Open;
    int Commit = -1;
  };
  struct Region {
    int LastGroup = -1, LastWriter = -1;
    int LastRead = -1;
    unsigned ReadBarriers = 0;
  };

  bool full() const {
    return Opts.MaxHazards && Hazards.size() >= Opts.MaxHazards;
  }
  void report(unsigned I, const Twine &Msg) {
    if (full())
      return;
    Hazard H;
    H.Index = I;
    H.Loc = P[I].Loc;
    H.Message = Msg.str();
    Hazards.push_back(std::move(H));
  }
  std::string name(unsigned I) const { return P[I].Name; }
  std::string scoreboardNote(int W, bool Write) const;

  void waits(unsigned I);
  void checkRegisters(unsigned I);
  void checkShared(unsigned I);
  void issue(unsigned I);
  int64_t regionOf(int64_t Offset) const;

  ArrayRef<SchedInstr> P;
  const VerifyOptions &Opts;
  const LatencyModel &M;
  std::vector<Hazard> Hazards;
  std::vector<int64_t> T;
  std::vector<bool> WrPending, RdPending;
  std::vector<int> TooSoon; ///< a wait that came too early for it
  std::vector<Unit> Units{NumUnits};
  std::array<std::vector<Entry>, NumScoreboards> Pending;
  std::vector<Group> Groups;
  int OpenGroup = -1;
  std::map<int64_t, Region> Regions;
  std::vector<int64_t> RegionBases;
  unsigned Barriers = 0;
  bool CheckShared = false;
};

std::string Verifier::scoreboardNote(int W, bool Write) const {
  uint8_t SB = Write ? P[W].Ctrl.WrSB : P[W].Ctrl.RdSB;
  std::string S;
  if (SB == NoSB)
    S = " (it has no " + std::string(Write ? "write" : "read") + " scoreboard)";
  else
    S = " (" + std::string(Write ? "write" : "read") + " scoreboard SB" +
        std::to_string(SB) + " not waited on";
  if (SB != NoSB) {
    if (TooSoon[W] >= 0)
      S += "; the wait at " + addr(TooSoon[W]) + " came " +
           std::to_string(T[TooSoon[W]] - T[W]) +
           " cycles after it was set, "
           "needs " +
           std::to_string(ScoreboardSetCycles);
    S += ")";
  }
  return S;
}

int64_t Verifier::regionOf(int64_t Offset) const {
  if (Opts.StageBytes > 0)
    return Offset / Opts.StageBytes;
  auto It = std::upper_bound(RegionBases.begin(), RegionBases.end(), Offset);
  if (It == RegionBases.begin())
    return INT64_MIN;
  return *std::prev(It);
}

void Verifier::waits(unsigned I) {
  const SchedInstr &In = P[I];
  auto Release = [&](const Entry &E) {
    (E.IsWrite ? WrPending : RdPending)[E.Instr] = false;
    if (E.IsWrite)
      RdPending[E.Instr] = false; // the results landed: the sources were read
    if (E.Group >= 0 && Groups[E.Group].State == GroupState::Committed)
      Groups[E.Group].State = GroupState::Complete;
  };
  for (unsigned B = 0; B < NumScoreboards; ++B) {
    if (!(In.Ctrl.WaitMask & (1u << B)))
      continue;
    auto &L = Pending[B];
    std::vector<Entry> Keep;
    for (const Entry &E : L) {
      if (T[E.Instr] + ScoreboardSetCycles <= T[I]) {
        Release(E);
      } else {
        TooSoon[E.Instr] = int(I);
        Keep.push_back(E);
      }
    }
    L = std::move(Keep);
  }
  if (In.Kind == SpecialKind::WaitGroups && In.WaitSB < NumScoreboards) {
    auto &L = Pending[In.WaitSB];
    if (L.size() > In.WaitCount) {
      size_t Drop = L.size() - In.WaitCount;
      for (size_t K = 0; K < Drop; ++K)
        Release(L[K]);
      L.erase(L.begin(), L.begin() + Drop);
    }
  }
}

void Verifier::checkRegisters(unsigned I) {
  const SchedInstr &In = P[I];
  // One report per producer and kind (not one per register of a tuple).
  std::set<std::pair<int, int>> Seen;
  auto First = [&](int W, int Kind) { return Seen.insert({W, Kind}).second; };
  for (const RegUse &U : In.Uses)
    forEachUnit(U.Regs, [&](unsigned X) {
      int W = Units[X].LastWrite;
      if (W < 0)
        return;
      // The message's subject, built only when there is something to report.
      auto What = [&] {
        return unitName(X) + " read by " + name(I) +
               (U.How == PredRead::Guard && U.Regs.File == RegFile::Pred
                    ? " (guard)"
                    : "");
      };
      if (isVariable(P[W].Class)) {
        if (WrPending[W] && First(W, 0))
          report(I, What() + " before " + name(W) + " at " + addr(W) +
                        " wrote it" + scoreboardNote(W, true));
        return;
      }
      int64_t Need = raw(M, P[W], In, U, X), Have = T[I] - T[W];
      if (Have < Need && First(W, 1))
        report(I, What() + " " + Twine(Have) + " cycles after " + name(W) +
                      " at " + addr(W) + " wrote it; needs " + Twine(Need));
    });
  for (const RegRange &D : In.Defs)
    forEachUnit(D, [&](unsigned X) {
      int W = Units[X].LastWrite;
      auto What = [&] { return unitName(X) + " rewritten by " + name(I); };
      if (W >= 0) {
        if (isVariable(P[W].Class)) {
          if (WrPending[W] && First(W, 2))
            report(I, What() + " before " + name(W) + " at " + addr(W) +
                          " wrote it" + scoreboardNote(W, true));
        } else {
          int64_t Need = waw(M, P[W], In, D.File), Have = T[I] - T[W];
          if (Have < Need && First(W, 3))
            report(I, What() + " " + Twine(Have) + " cycles after " + name(W) +
                          " at " + addr(W) + " wrote it; needs " + Twine(Need));
        }
      }
      for (auto &R : Units[X].Reads) {
        int Q = R.first;
        if (Q == int(I))
          continue;
        if (isVariable(P[Q].Class) && R.second) {
          bool HasRd = P[Q].Ctrl.RdSB != NoSB;
          if ((RdPending[Q] || (!HasRd && WrPending[Q])) && First(Q, 4))
            report(I, unitName(X) + " overwritten by " + name(I) + " while " +
                          name(Q) + " at " + addr(Q) + " still reads it" +
                          scoreboardNote(Q, !HasRd));
          continue;
        }
        int64_t Need = war(M, P[Q], In, D.File), Have = T[I] - T[Q];
        if (Have < Need && First(Q, 5))
          report(I, What() + " " + Twine(Have) + " cycles after " + name(Q) +
                        " at " + addr(Q) + " read it; needs " + Twine(Need));
      }
    });
}

void Verifier::checkShared(unsigned I) {
  const SchedInstr &In = P[I];
  auto Stage = [&](int64_t R) {
    std::string S;
    raw_string_ostream OS(S);
    OS << "shared stage at +" << format_hex(R, 2);
    return OS.str();
  };
  switch (In.Kind) {
  case SpecialKind::SharedMatrixLoad:
  case SpecialKind::SharedLoad: {
    int64_t R = regionOf(In.SharedOffset);
    Region &Rg = Regions[R];
    if (R == INT64_MIN || Rg.LastGroup < 0) {
      report(I, Twine("shared memory at +") + Twine(In.SharedOffset) +
                    " read by " + name(I) + " but no LDGSTS wrote it before");
    } else {
      const Group &G = Groups[Rg.LastGroup];
      const char *Missing =
          G.State == GroupState::Open
              ? "before its group was committed (LDGDEPBAR)"
          : G.State == GroupState::Committed
              ? "before its group's DEPBAR wait and the barrier"
          : G.State == GroupState::Complete
              ? "after its group's DEPBAR wait but before a barrier"
              : nullptr;
      if (Missing)
        report(I, Stage(R) + " read by " + name(I) + " " + Missing +
                      " (written by LDGSTS at " + addr(Rg.LastWriter) + ")");
    }
    Rg.LastRead = int(I);
    Rg.ReadBarriers = Barriers;
    break;
  }
  case SpecialKind::AsyncCopy: {
    int64_t R = regionOf(In.SharedOffset);
    Region &Rg = Regions[R];
    if (Rg.LastRead >= 0 && Rg.ReadBarriers == Barriers)
      report(I, Stage(R) + " overwritten by " + name(I) +
                    " while other warps may still read it: no barrier since " +
                    name(Rg.LastRead) + " at " + addr(Rg.LastRead));
    if (OpenGroup < 0) {
      Groups.push_back(Group());
      OpenGroup = int(Groups.size()) - 1;
    }
    Rg.LastGroup = OpenGroup;
    Rg.LastWriter = int(I);
    break;
  }
  case SpecialKind::Barrier:
    for (unsigned B = 0; B < NumScoreboards; ++B)
      for (const Entry &E : Pending[B])
        if (E.IsWrite && (P[E.Instr].Kind == SpecialKind::SharedMatrixLoad ||
                          P[E.Instr].Kind == SpecialKind::SharedLoad))
          report(I, name(I) + " while " + name(E.Instr) + " at " +
                        addr(E.Instr) + " may still read shared memory (SB" +
                        Twine(B) + " not waited on)");
    for (Group &G : Groups)
      if (G.State == GroupState::Complete)
        G.State = GroupState::Visible;
    ++Barriers;
    break;
  default:
    break;
  }
}

void Verifier::issue(unsigned I) {
  const SchedInstr &In = P[I];
  uint8_t Wr = In.Ctrl.WrSB, Rd = In.Ctrl.RdSB;
  if (In.Kind == SpecialKind::CommitGroup) {
    if (OpenGroup < 0) { // an empty group still counts
      Groups.push_back(Group());
      OpenGroup = int(Groups.size()) - 1;
    }
    Groups[OpenGroup].State = GroupState::Committed;
    Groups[OpenGroup].Commit = int(I);
    if (Wr < NumScoreboards)
      Pending[Wr].push_back({int(I), true, OpenGroup});
    else if (CheckShared)
      report(I, name(I) + " has no write scoreboard: no DEPBAR can count "
                          "its group");
    OpenGroup = -1;
    return;
  }
  if (isVariable(In.Class)) {
    bool HasLate = false;
    for (const RegUse &U : In.Uses)
      HasLate |= U.Late;
    if (!In.Defs.empty()) {
      WrPending[I] = true; // without a scoreboard it is never released
      if (Wr < NumScoreboards)
        Pending[Wr].push_back({int(I), true, -1});
    } else if (Wr < NumScoreboards) {
      Pending[Wr].push_back({int(I), true, -1});
    }
    if (HasLate && Rd < NumScoreboards) {
      RdPending[I] = true;
      Pending[Rd].push_back({int(I), false, -1});
    } else if (HasLate && Wr == NoSB && In.NeedsReadSB) {
      RdPending[I] = true; // read late, tracked by nothing
    }
  }
  for (const RegUse &U : In.Uses)
    forEachUnit(U.Regs, [&](unsigned X) {
      Units[X].Reads.push_back({int(I), U.Late});
    });
  for (const RegRange &D : In.Defs)
    forEachUnit(D, [&](unsigned X) {
      Units[X].LastWrite = int(I);
      Units[X].Reads.clear();
    });
}

std::vector<Hazard> Verifier::run() {
  for (const SchedInstr &In : P)
    if (In.Kind == SpecialKind::AsyncCopy && !In.NeverExecutes) {
      CheckShared = true;
      RegionBases.push_back(In.SharedOffset);
    }
  llvm::sort(RegionBases);
  RegionBases.erase(std::unique(RegionBases.begin(), RegionBases.end()),
                    RegionBases.end());

  T.assign(P.size(), 0);
  int64_t Now = 0;
  for (unsigned I = 0; I < P.size() && !full(); ++I) {
    const SchedInstr &In = P[I];
    T[I] = Now;
    Now += In.Ctrl.Stall;
    if (!sass::isDefinedControl(In.Ctrl))
      report(I, name(I) + " has stall " + Twine(unsigned(In.Ctrl.Stall)) +
                    " without yield, a control value NVIDIA's tables leave "
                    "undefined");
    if (In.NeverExecutes)
      continue;
    waits(I);
    checkRegisters(I);
    if (CheckShared)
      checkShared(I);
    issue(I);
    if (In.Ctrl.Stall < minStall(M, In) && I + 1 < P.size())
      report(I, name(I) + " has stall " + Twine(unsigned(In.Ctrl.Stall)) +
                    "; it blocks the warp " + Twine(minStall(M, In)) +
                    " cycles");
  }
  return std::move(Hazards);
}

} // namespace

std::string formatAddress(uint64_t Addr) {
  std::string S;
  raw_string_ostream OS(S);
  OS << format("0x%04llx", (unsigned long long)Addr);
  return OS.str();
}

std::vector<Hazard> verifySchedule(ArrayRef<SchedInstr> Program,
                                   const VerifyOptions &Opts) {
  Verifier V(Program, Opts);
  return V.run();
}

std::string formatHazard(const Hazard &H, const SourceMgr *SM) {
  std::string S;
  raw_string_ostream OS(S);
  if (SM && H.Loc.isValid()) {
    SM->PrintMessage(OS, H.Loc, SourceMgr::DK_Error,
                     addr(H.Index) + ": " + H.Message);
  } else {
    OS << addr(H.Index) << ": error: " << H.Message << "\n";
  }
  return OS.str();
}

MutationResult runMutations(ArrayRef<SchedInstr> Program,
                            ArrayRef<CompactInfo> Info, size_t Begin,
                            size_t End, const VerifyOptions &Opts) {
  MutationResult R;
  VerifyOptions One = Opts;
  One.MaxHazards = 1;
  R.BaselineHazards = verifySchedule(Program, Opts).size();
  std::vector<SchedInstr> M(Program.begin(), Program.end());
  End = std::min(End, Program.size());
  for (size_t I = Begin; I < End && I < Info.size(); ++I) {
    const CompactInfo &In = Info[I];
    bool Needed = In.Reason == StallReason::Dependency ||
                  In.Reason == StallReason::ScoreboardSet ||
                  In.Reason == StallReason::ExecLatency;
    if (Needed && M[I].Ctrl.Stall > 0) {
      ++R.StallMutations;
      --M[I].Ctrl.Stall;
      if (!verifySchedule(M, One).empty())
        ++R.StallCaught;
      else
        R.Missed.push_back("stall of " + M[I].Name.str() + " at " + addr(I) +
                           " lowered to " + std::to_string(M[I].Ctrl.Stall));
      ++M[I].Ctrl.Stall;
    }
    for (unsigned B = 0; B < NumScoreboards; ++B) {
      uint8_t Bit = uint8_t(1u << B);
      if (!(In.RequiredWaits & Bit) || !(M[I].Ctrl.WaitMask & Bit))
        continue;
      ++R.WaitMutations;
      M[I].Ctrl.WaitMask &= uint8_t(~Bit);
      if (!verifySchedule(M, One).empty())
        ++R.WaitCaught;
      else
        R.Missed.push_back("wait on SB" + std::to_string(B) + " of " +
                           M[I].Name.str() + " at " + addr(I) + " dropped");
      M[I].Ctrl.WaitMask |= Bit;
    }
  }
  return R;
}

} // namespace sched
} // namespace tp

//===- The tp-verify-schedule pass ----------------------------------------===//
//
// tp-verify-schedule (mir -> mir, an analysis: the IR is unchanged): the
// function must be the checked program (tp-form-loop checked=1: no
// branch).  Its pieces in order are walked by verifySchedule(); every
// hazard is an error at the instruction (file:line:col when it was parsed,
// else its address).  Options:
//   stage-bytes=N   bytes of a shared stage (0: from the LDGSTS offsets)
//   max-errors=N    hazards reported (default 20)
//   mutate=1        also the mutation test over the first `body` piece:
//                   each stall tp-compact-stalls derives from a
//                   dependency lowered by one, each wait bit it needs
//                   dropped; every mutant must fail verification.  The
//                   counts go to the function attribute
//                   `mutations(stall=C/N wait=C/N)`.
//===----------------------------------------------------------------------===//

#define DEBUG_TYPE "tp-verify-schedule"

ALWAYS_ENABLED_STATISTIC(NumInstrsWalked, "Instructions walked");
ALWAYS_ENABLED_STATISTIC(NumHazards, "Hazards found");
ALWAYS_ENABLED_STATISTIC(NumMutations, "Mutants of the loop body run");
ALWAYS_ENABLED_STATISTIC(NumMutationsCaught, "Mutants caught");

namespace tp {
namespace {

using sched::CompactInfo;
using sched::describePiece;
using sched::isFillerOrNop;
using sched::SchedInstr;
using sched::targetOf;

class VerifySchedulePass : public Pass {
public:
  std::vector<PassOption> getOptions() const override {
    return {{"stage-bytes", "0",
             "bytes of one shared stage (0: each distinct LDGSTS offset "
             "starts one)"},
            {"max-errors", "20", "hazards reported (0: all)"},
            {"mutate", "0",
             "1: run the mutation test over the first body piece and record "
             "mutations(...) on the function"}};
  }

  Error run(std::unique_ptr<IRUnit> &IR, PassContext &Ctx) override {
    Expected<int64_t> StageBytes = getIntOption("stage-bytes");
    if (!StageBytes)
      return StageBytes.takeError();
    Expected<int64_t> MaxErrors = getIntOption("max-errors");
    if (!MaxErrors)
      return MaxErrors.takeError();
    Expected<int64_t> Mutate = getIntOption("mutate");
    if (!Mutate)
      return Mutate.takeError();
    sched::VerifyOptions Opts;
    Opts.StageBytes = *StageBytes;
    Opts.MaxHazards = unsigned(std::max<int64_t>(0, *MaxErrors));
    // Every function's hazards, not only the first function's.
    Error All = Error::success();
    for (mir::Function &F : static_cast<mir::MachineUnit &>(*IR).M.Functions)
      All = joinErrors(std::move(All), verify(F, Opts, *Mutate != 0, Ctx));
    return All;
  }

private:
  Error verify(mir::Function &F, sched::VerifyOptions Opts, bool Mutate,
               PassContext &Ctx) {
    if (Error E = mir::requirePhysicalRegs(F, Ctx.SM, "tp-verify-schedule"))
      return E;
    Expected<sass::Target> T = targetOf(F);
    if (!T)
      return T.takeError();
    Opts.Target = *T;
    sched::InstrSeq Program;
    sched::FormDescriber Forms;
    size_t Total = 0;
    for (const mir::Piece &P : F.Pieces)
      Total += P.Instrs.size();
    Program.reserve(Total); // SchedInstr is copied, not moved, on growth
    std::vector<CompactInfo> Info;
    size_t BodyBegin = 0, BodyEnd = 0;
    bool Exited = false;
    for (const mir::Piece &P : F.Pieces) {
      size_t Begin = Program.size();
      for (const mir::MInstr &MI : P.Instrs) {
        uint64_t Addr = Program.size() * 16;
        // After an unconditional EXIT nothing runs (ptxas's `BRA` to itself
        // and the pad NOPs): walked as fillers, never as branches.
        if (Exited) {
          SchedInstr S = sched::makeInstr("NOP");
          S.NeverExecutes = true;
          S.Ctrl = MI.I.Ctrl;
          Program.push_back(std::move(S));
          continue;
        }
        Exited = MI.mnemonic() == "EXIT" && MI.I.Guard == sass::PT && !MI.I.GuardNeg;
        if (MI.isBranch())
          return locate(Ctx, MI.Loc,
                        "@" + F.Name +
                            ": tp-verify-schedule needs the "
                            "checked program (tp-form-loop checked=1); found a "
                            "branch at " +
                            sched::formatAddress(Addr));
        Expected<SchedInstr> S = Forms.describe(MI.I);
        if (!S)
          return S.takeError();
        S->Loc = MI.Loc;
        Program.push_back(std::move(*S));
      }
      if (Mutate)
        Info.resize(Program.size());
      if (Mutate && P.Name == "body" && BodyEnd == 0) {
        BodyBegin = Begin;
        BodyEnd = Program.size();
        if (Error E = compactedInfo(P, F, Info, Begin, Opts.Target))
          return E;
      }
    }
    std::vector<sched::Hazard> H = sched::verifySchedule(Program, Opts);
    NumInstrsWalked += Program.size();
    NumHazards += H.size();
    if (!H.empty()) {
      Error All = Error::success();
      for (const sched::Hazard &X : H) {
        std::string Msg = sched::formatAddress(X.Index * 16) + ": " + X.Message;
        if (X.Loc.isValid())
          All = joinErrors(std::move(All), makeSourceError(Ctx.SM, X.Loc, Msg));
        else
          All = joinErrors(std::move(All), makeError("@" + F.Name + " " + Msg));
      }
      return All;
    }
    if (!Mutate)
      return Error::success();
    if (BodyEnd == 0)
      return makeError("@" + F.Name +
                       ": tp-verify-schedule mutate=1 needs a 'body' piece");
    sched::MutationResult R =
        sched::runMutations(Program, Info, BodyBegin, BodyEnd, Opts);
    NumMutations += R.StallMutations + R.WaitMutations;
    NumMutationsCaught += R.StallCaught + R.WaitCaught;
    F.setAttr("mutations", "stall=" + std::to_string(R.StallCaught) + "/" +
                               std::to_string(R.StallMutations) +
                               " wait=" + std::to_string(R.WaitCaught) + "/" +
                               std::to_string(R.WaitMutations));
    if (!R.Missed.empty()) {
      std::string List;
      for (const std::string &M : R.Missed)
        List += "\n  " + M;
      return makeError("@" + F.Name +
                       ": mutations the verifier missed:" + List);
    }
    return Error::success();
  }

  /// The compaction's reasons for the instructions of \p P, which must be
  /// as tp-compact-stalls leaves them; into Info from \p Begin.
  Error compactedInfo(const mir::Piece &P, const mir::Function &F,
                      std::vector<CompactInfo> &Info, size_t Begin,
                      sass::Target T) {
    std::vector<mir::MInstr> Real;
    sched::InstrSeq Views;
    if (Error E = describePiece(P, Real, Views))
      return E;
    std::vector<CompactInfo> Again;
    sched::CompactOptions Opts;
    Opts.Target = T;
    if (Error E = sched::compactStalls(Views, Opts, &Again))
      return E;
    size_t K = 0;
    for (size_t I = 0; I < P.Instrs.size(); ++I) {
      const mir::MInstr &MI = P.Instrs[I];
      if (isFillerOrNop(MI))
        continue;
      if (K >= Real.size() || !(Views[K].Ctrl == MI.I.Ctrl))
        return makeError("@" + F.Name +
                         ": mutate=1: piece 'body' is not as "
                         "tp-compact-stalls leaves it (at " +
                         sched::formatAddress((Begin + I) * 16) + ")");
      Info[Begin + I] = Again[K++];
    }
    return Error::success();
  }

  Error locate(PassContext &Ctx, SMLoc Loc, const Twine &Msg) {
    if (Loc.isValid())
      return makeSourceError(Ctx.SM, Loc, Msg);
    return makeError(Msg);
  }
};

} // namespace

std::unique_ptr<Pass> createVerifySchedulePass() {
  return std::make_unique<VerifySchedulePass>();
}

} // namespace tp
