//===- Stats.cpp - Static schedule figures of a function ------------------===//
//
/// \file
/// computeStats: the static schedule figures of a function (instructions,
/// the loop body's instructions, HMMAs and issue cycles), one walk over its
/// instructions.
//
//===----------------------------------------------------------------------===//
#include "tp/CodeGen/CodeGen.h"
#include <cstring>

namespace tp {

ScheduleStats computeStats(const mir::Function &F) {
  ScheduleStats S;
  S.Instructions = F.size();
  if (auto T = F.getAttr("tile")) {
    // tile(WM,WN,MT,NT,S): the stages are the loop's k-steps.
    llvm::StringRef Last = T->rsplit(',').second;
    Last.trim().getAsInteger(10, S.Stages);
  }
  for (const mir::Piece &P : F.Pieces) {
    bool InLoop = P.Name == "body" || P.Name == "control";
    for (const mir::MInstr &MI : P.Instrs) {
      // The mnemonic's first byte first: no strlen for the other forms.
      const char *Mnemonic = MI.info().Mnemonic;
      bool HMMA = Mnemonic[0] == 'H' && std::strcmp(Mnemonic, "HMMA") == 0;
      S.HMMAs += HMMA;
      if (!InLoop)
        continue;
      ++S.LoopBody;
      S.LoopHMMAs += HMMA;
      S.LoopCycles += std::max<unsigned>(1, MI.I.Ctrl.Stall);
    }
  }
  return S;
}

} // namespace tp
