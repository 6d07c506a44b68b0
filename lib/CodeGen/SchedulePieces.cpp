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
  return M == "NOP" || (MI.I.Guard == sass::PT && MI.I.GuardNeg);
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

/// Form \p Name (a td def name) with no guard, every register operand
/// naming no register (RZ, URZ, PT, UPT) and every other operand 0 (no
/// modifier), as the parser leaves the operands a text does not spell;
/// false when there is no such form.
static bool fromForm(StringRef Name, mir::MInstr &MI) {
  sass::Opcode Op;
  if (!sass::lookupOpcode(Name, Op))
    return false;
  MI = mir::MInstr();
  MI.I.Op = Op;
  const sass::InstrInfo &II = sass::getInstrInfo(Op);
  for (unsigned K = 0; K < II.NumOperands; ++K)
    switch (II.Operands[K].Kind) {
    case sass::OperandKind::GPR:
    case sass::OperandKind::MemBase:
      MI.I.Ops[K] = sass::RZ;
      break;
    case sass::OperandKind::UGPR:
    case sass::OperandKind::MemUR:
    case sass::OperandKind::MemDesc:
      MI.I.Ops[K] = sass::URZ;
      break;
    case sass::OperandKind::Pred:
    case sass::OperandKind::UPred:
      MI.I.Ops[K] = sass::PT;
      break;
    default:
      break;
    }
  return true;
}

mir::MInstr drainNopInstr() {
  mir::MInstr MI;
  bool Found = fromForm("NOP", MI);
  assert(Found && "every instruction set has NOP");
  (void)Found;
  return MI;
}

mir::MInstr fillerInstr() {
  mir::MInstr MI;
  if (!fromForm("UIADD3_rrr", MI))
    MI = drainNopInstr();
  MI.I.Guard = sass::PT; // `@!UPT` on the uniform form: the same bits
  MI.I.GuardNeg = true;
  return MI;
}

} // namespace sched
} // namespace tp
