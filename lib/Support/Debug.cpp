//===- Debug.cpp - -debug / -debug-only output of the passes --------------===//

#include "tp/Support/Debug.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

using namespace llvm;

namespace tp {

cl::OptionCategory &getDebugCategory() {
  static cl::OptionCategory Category("Debug output options");
  return Category;
}

static cl::opt<bool> Debug("debug",
                           cl::desc("Print every pass's debug output"),
                           cl::cat(getDebugCategory()));

static cl::list<std::string>
    DebugOnly("debug-only", cl::CommaSeparated, cl::value_desc("pass,..."),
              cl::desc("Print the debug output of the named passes only "
                       "(e.g. -debug-only=tp-tile,tp-compact-stalls)"),
              cl::cat(getDebugCategory()));

bool isDebugTypeEnabled(StringRef Type) {
  if (Debug)
    return true;
  for (const std::string &D : DebugOnly)
    if (D == Type)
      return true;
  return false;
}

Error checkDebugTypes(ArrayRef<std::string> Known) {
  for (const std::string &D : DebugOnly) {
    if (llvm::is_contained(Known, D))
      continue;
    std::string List;
    for (const std::string &K : Known)
      List += (List.empty() ? "" : ", ") + K;
    return createStringError(inconvertibleErrorCode(),
                             "-debug-only: unknown debug type '" + D +
                                 "' (debug types: " + List + ")");
  }
  return Error::success();
}

raw_ostream &dbgs() { return errs(); }

} // namespace tp
