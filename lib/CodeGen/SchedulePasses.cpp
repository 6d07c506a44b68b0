//===- SchedulePasses.cpp - tp-compact-stalls and tp-verify-schedule ------===//
///
/// \file
/// The machine-IR wrappers of Schedule.h.
///
/// tp-compact-stalls (mir -> mir): every piece of every function is
/// finished on its own (pieces compose: see Schedule.h): stalls, yield,
/// scoreboards and wait masks recomputed; reuse flags kept.  NOPs and
/// never-executing fillers of the input are dropped first (their labels
/// move to the next instruction) and made again where needed: a delay over
/// 15 cycles continues in `@!UPT UIADD3 URZ, URZ, URZ, URZ` fillers as ptxas
/// writes them (SASS_FACTS 1.2, E), `@!PT NOP` when the instruction set has
/// no UIADD3 (`@!UPT` is the uniform spelling of the same guard bits); a
/// NOP waits for register scoreboards still in flight at a
/// piece's end.  Options:
///   mode=compact       the smallest fields (default)
///   mode=conservative  every instruction waits on every scoreboard and
///                      stalls at least 15 cycles (NAK's `serial` idea)
///
/// tp-verify-schedule (mir -> mir, an analysis: the IR is unchanged): the
/// function must be the checked program (tp-form-loop checked=1: no
/// branch).  Its pieces in order are walked by verifySchedule(); every
/// hazard is an error at the instruction (file:line:col when it was parsed,
/// else its address).  Options:
///   stage-bytes=N   bytes of a shared stage (0: from the LDGSTS offsets)
///   max-errors=N    hazards reported (default 20)
///   mutate=1        also the mutation test over the first `body` piece:
///                   each stall tp-compact-stalls derives from a
///                   dependency lowered by one, each wait bit it needs
///                   dropped; every mutant must fail verification.  The
///                   counts go to the function attribute
///                   `mutations(stall=C/N wait=C/N)`.
///
//===----------------------------------------------------------------------===//

#include "tp/CodeGen/Schedule.h"
#include "tp/MIR/MIR.h"
#include "tp/Pass/Pass.h"
#include "tp/Support/Diagnostics.h"

using namespace llvm;

namespace tp {
namespace {

using sched::CompactInfo;
using sched::SchedInstr;

bool isFillerOrNop(const mir::MInstr &MI) {
  StringRef M = MI.mnemonic();
  return M == "NOP" || (MI.I.Guard == 7 && MI.I.GuardNeg);
}

/// The real instructions of \p P (fillers and NOPs dropped, their labels
/// moved on) and their scheduling views.
Error describePiece(const mir::Piece &P, std::vector<mir::MInstr> &Real,
                    sched::Piece &Views) {
  std::string Label;
  for (const mir::MInstr &MI : P.Instrs) {
    if (isFillerOrNop(MI) && !MI.isBranch()) {
      if (!MI.Label.empty()) {
        if (!Label.empty())
          return makeError("piece '" + P.Name + "': labels ^" + Label +
                           " and ^" + MI.Label + " on one instruction");
        Label = MI.Label;
      }
      continue;
    }
    mir::MInstr Copy = MI;
    if (!Label.empty()) {
      if (!Copy.Label.empty())
        return makeError("piece '" + P.Name + "': labels ^" + Label + " and ^" +
                         Copy.Label + " on one instruction");
      Copy.Label = Label;
      Label.clear();
    }
    Expected<SchedInstr> S = sched::describe(Copy.I);
    if (!S)
      return S.takeError();
    S->Loc = Copy.Loc;
    Views.push_back(std::move(*S));
    Real.push_back(std::move(Copy));
  }
  if (!Label.empty())
    return makeError("piece '" + P.Name + "': label ^" + Label +
                     " on no instruction");
  return Error::success();
}

/// The target of \p F's latency model (its `target("sm_XX")`).
Expected<sass::Target> targetOf(const mir::Function &F) {
  sass::Target T;
  if (!sass::lookupTarget(F.Target, T))
    return makeError("@" + F.Name + ": unknown target '" + F.Target +
                     "' (sm_80, sm_86 or sm_90)");
  return T;
}

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
    sched::Piece Views;
    if (Error E = describePiece(P, Real, Views))
      return E;
    std::vector<CompactInfo> Info;
    if (Error E = sched::compactStalls(Views, Opts, &Info))
      return E;
    std::vector<mir::MInstr> Out;
    for (size_t K = 0; K < Views.size(); ++K) {
      if (K < Real.size()) {
        Out.push_back(Real[K]);
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
    P.Instrs = std::move(Out);
    return Error::success();
  }
};

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
    sched::Piece Program;
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
        Exited = MI.mnemonic() == "EXIT" && MI.I.Guard == 7 && !MI.I.GuardNeg;
        if (MI.isBranch())
          return locate(Ctx, MI.Loc,
                        "@" + F.Name +
                            ": tp-verify-schedule needs the "
                            "checked program (tp-form-loop checked=1); found a "
                            "branch at " +
                            sched::formatAddress(Addr));
        Expected<SchedInstr> S = sched::describe(MI.I);
        if (!S)
          return S.takeError();
        S->Loc = MI.Loc;
        Program.push_back(std::move(*S));
      }
      Info.resize(Program.size());
      if (Mutate && P.Name == "body" && BodyEnd == 0) {
        BodyBegin = Begin;
        BodyEnd = Program.size();
        if (Error E = compactedInfo(P, F, Info, Begin, Opts.Target))
          return E;
      }
    }
    std::vector<sched::Hazard> H = sched::verifySchedule(Program, Opts);
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
    sched::Piece Views;
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

std::unique_ptr<Pass> createCompactStallsPass() {
  return std::make_unique<CompactStallsPass>();
}
std::unique_ptr<Pass> createVerifySchedulePass() {
  return std::make_unique<VerifySchedulePass>();
}

} // namespace tp
