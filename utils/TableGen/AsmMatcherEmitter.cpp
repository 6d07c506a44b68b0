//===- AsmMatcherEmitter.cpp - tp-tblgen -gen-sass-asm-matcher -----------===//
///
/// \file
/// -gen-sass-asm-matcher: the forms of each mnemonic, for the parser.
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

void emitAsmMatcher(RecordKeeper &RK, raw_ostream &OS) {
  SASSModel M(RK);
  emitSourceFileHeader("sm_86 asm matcher: forms by mnemonic", OS);
  std::map<std::string, std::vector<unsigned>> ByMn;
  for (unsigned I = 0; I < M.Forms.size(); ++I)
    ByMn[M.Forms[I].Mnemonic].push_back(I);
  OS << "#ifdef GET_SASS_ASM_MATCHER\n";
  OS << "const uint16_t MatchList[] = {\n";
  unsigned N = 0;
  std::vector<std::tuple<std::string, unsigned, unsigned>> Entries;
  for (auto &P : ByMn) {
    OS << "  /* " << P.first << " */ ";
    for (unsigned I : P.second)
      OS << I << ", ";
    OS << "\n";
    Entries.emplace_back(P.first, N, P.second.size());
    N += P.second.size();
  }
  OS << "};\n// Sorted by mnemonic.\nconst MnemonicEntry Mnemonics[] = "
        "{\n";
  for (auto &E : Entries)
    OS << "  {" << cString(std::get<0>(E)) << ", " << std::get<1>(E) << ", "
       << std::get<2>(E) << "},\n";
  OS << "};\nconst unsigned NumMnemonics = " << Entries.size() << ";\n";
  OS << "#undef GET_SASS_ASM_MATCHER\n#endif\n";
}

} // namespace tblgen
} // namespace tp
