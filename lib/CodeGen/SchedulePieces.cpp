//===- SchedulePieces.cpp - MIR pieces as the schedule walks see them -----===//
///
/// \file
/// The helpers of SchedulePieces.h, shared by tp-compact-stalls and
/// tp-verify-schedule so that both see a piece the same way.
///
//===----------------------------------------------------------------------===//

#include "SchedulePieces.h"
#include "tp/Support/Diagnostics.h"

using namespace llvm;

namespace tp {
namespace sched {

bool isFillerOrNop(const mir::MInstr &MI) {
  StringRef M = MI.mnemonic();
  return M == "NOP" || (MI.I.Guard == 7 && MI.I.GuardNeg);
}

/// The real instructions of \p P (fillers and NOPs dropped, their labels
/// moved on) and their scheduling views.
Error describePiece(const mir::Piece &P, std::vector<mir::MInstr> &Real,
                    InstrSeq &Views) {
  std::string Label;
  Real.reserve(Real.size() + P.Instrs.size());
  Views.reserve(Views.size() + P.Instrs.size());
  for (const mir::MInstr &MI : P.Instrs) {
    if (isFillerOrNop(MI) && !MI.isBranch()) {
      if (!MI.Label.empty()) {
        if (!Label.empty())
          return makeError("piece '" + Twine(P.Name) + "': labels ^" +
                           Label + " and ^" + MI.Label.str() +
                           " on one instruction");
        Label = MI.Label.str().str();
      }
      continue;
    }
    mir::MInstr Copy = MI;
    if (!Label.empty()) {
      if (!Copy.Label.empty())
        return makeError("piece '" + Twine(P.Name) + "': labels ^" + Label +
                         " and ^" + Copy.Label.str() + " on one instruction");
      Copy.Label = Label;
      Label.clear();
    }
    Expected<SchedInstr> S = describe(Copy.I);
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
                     "' (" + sass::getTargetList() + ")");
  return T;
}

} // namespace sched
} // namespace tp
