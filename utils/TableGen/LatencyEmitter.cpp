//===- LatencyEmitter.cpp - tp-tblgen -gen-sass-latency ------------------===//
///
/// \file
/// -gen-sass-latency: the scheduling classes and each form's class.
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

void emitLatency(RecordKeeper &RK, raw_ostream &OS) {
  SASSModel M(RK);
  emitSourceFileHeader("sm_86 scheduling classes", OS);
  OS << "#ifdef GET_SASS_LATENCY\n";
  OS << "// name, variable, latency, late-read operand names\n";
  OS << "const SchedClassDesc SchedClassDescs[] = {\n";
  for (Record *S : M.SchedClasses) {
    OS << "  {" << cString(S->getName()) << ", "
       << (S->getValueAsBit("Variable") ? "true" : "false") << ", "
       << S->getValueAsInt("Latency") << ", "
       << cString(join(S->getValueAsListOfStrings("LateRead"), ",")) << "},\n";
  }
  OS << "};\nconst uint8_t FormSchedClass[] = {\n";
  for (const FormModel &F : M.Forms)
    OS << "  " << (find(M.SchedClasses, F.Sched) - M.SchedClasses.begin())
       << ", // " << F.Name << "\n";
  OS << "};\n#undef GET_SASS_LATENCY\n#endif\n";
}

} // namespace tblgen
} // namespace tp
