//===- FormsPrinter.cpp - tp-tblgen -print-sass-forms --------------------===//
///
/// \file
/// -print-sass-forms: a readable dump of the model, for tests.
///
//===----------------------------------------------------------------------===//

#include "SASSEmitter.h"
#include "SASSModel.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/TableGen/Error.h"
#include "llvm/TableGen/TableGenBackend.h"
#include <algorithm>
#include <map>
#include <tuple>

using namespace llvm;

namespace tp {
namespace tblgen {

void printForms(RecordKeeper &RK, raw_ostream &OS) {
  SASSModel M(RK);
  auto PrintSegs = [&](const std::vector<Seg> &S) {
    for (const Seg &G : S)
      OS << " [" << G.InstBit << ":" << G.InstBit + G.Width - 1 << "]<-"
         << G.FieldBit;
  };
  OS << "guard";
  PrintSegs(M.Guard.Segs);
  OS << " neg";
  PrintSegs(M.GuardNeg.Segs);
  OS << "\n";
  for (const FieldModel &C : M.Control) {
    OS << "control " << C.Name;
    PrintSegs(C.Segs);
    OS << "\n";
  }
  for (const FormModel &F : M.Forms) {
    OS << "form " << F.Name << " mnemonic " << F.Mnemonic << " mask 0x"
       << format_hex_no_prefix(F.Mask[1], 16)
       << format_hex_no_prefix(F.Mask[0], 16) << " value 0x"
       << format_hex_no_prefix(F.Value[1], 16)
       << format_hex_no_prefix(F.Value[0], 16) << " sched "
       << F.Sched->getName() << "\n";
    for (const OperandModel &O : F.Ops) {
      OS << "  " << (O.IsDef ? "def " : "use ") << O.Name << " " << O.Kind
         << " w" << O.Width << (O.Signed ? " signed" : "");
      if (O.ReuseSlot >= 0)
        OS << " reuse" << O.ReuseSlot;
      PrintSegs(O.Segs);
      OS << "\n";
    }
    unsigned FI = &F - M.Forms.data();
    if (M.TargetMask[FI] != (1u << M.Targets.size()) - 1) {
      OS << "  only on";
      for (unsigned T = 0; T < M.Targets.size(); ++T)
        if (M.availableOn(FI, T))
          OS << " " << M.Targets[T].Name;
      OS << "\n";
    }
    for (unsigned T = 0; T < M.Targets.size(); ++T) {
      int E = M.EncodingFor[T][FI];
      if (E < 0)
        continue;
      const FormModel &Enc = M.Encodings[E];
      OS << "  on " << M.Targets[T].Name << " as " << Enc.Name << " mask 0x"
         << format_hex_no_prefix(Enc.Mask[1], 16)
         << format_hex_no_prefix(Enc.Mask[0], 16) << " value 0x"
         << format_hex_no_prefix(Enc.Value[1], 16)
         << format_hex_no_prefix(Enc.Value[0], 16) << "\n";
      for (const OperandModel &O : Enc.Ops) {
        OS << "    " << O.Name;
        PrintSegs(O.Segs);
        OS << "\n";
      }
    }
  }
}

} // namespace tblgen
} // namespace tp
