//===- AsmPrinterEmitter.cpp - tp-tblgen -gen-sass-asm-printer -----------===//
///
/// \file
/// -gen-sass-asm-printer: each form's print template.
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

void emitAsmPrinter(RecordKeeper &RK, raw_ostream &OS) {
  SASSModel M(RK);
  emitSourceFileHeader("sm_86 asm printer: templates", OS);
  OS << "#ifdef GET_SASS_ASM_PRINTER\n";
  OS << "// '$' + letter: operand ('a' = 0); <a+b> an address group.\n";
  OS << "const char *const Templates[] = {\n";
  for (const FormModel &F : M.Forms)
    OS << "  " << cString(F.Template) << ", // " << F.Name << "\n";
  OS << "};\n#undef GET_SASS_ASM_PRINTER\n#endif\n";
}

} // namespace tblgen
} // namespace tp
