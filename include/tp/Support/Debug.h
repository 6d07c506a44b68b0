//===- Debug.h - -debug / -debug-only output of the passes ------*- C++ -*-===//
///
/// \file
/// LLVM's DEBUG_TYPE / LLVM_DEBUG idiom, available in every build of tp (the
/// LLVM 14 libraries we link are release builds, where LLVM's own -debug
/// does not exist).  A file defines DEBUG_TYPE as its pass name and writes
///
///   TP_DEBUG(dbgs() << "chose " << Name << "\n");
///
/// The statement runs when the tool was given -debug, or -debug-only with
/// DEBUG_TYPE among its comma-separated names.  Output goes to stderr and
/// is meant for people, not for tests to depend on beyond a few lines.
///
//===----------------------------------------------------------------------===//
#ifndef TP_SUPPORT_DEBUG_H
#define TP_SUPPORT_DEBUG_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace llvm {
class raw_ostream;
namespace cl {
class OptionCategory;
} // namespace cl
} // namespace llvm

namespace tp {

/// True when -debug is on, or -debug-only names \p Type.
bool isDebugTypeEnabled(llvm::StringRef Type);

/// An error unless every name given to -debug-only is in \p Known (the
/// tool's DEBUG_TYPEs: its pass names); the message lists them.
llvm::Error checkDebugTypes(llvm::ArrayRef<std::string> Known);

/// The stream debug output goes to (stderr).
llvm::raw_ostream &dbgs();

/// The category of -debug and -debug-only, for tools that hide unrelated
/// options.
llvm::cl::OptionCategory &getDebugCategory();

} // namespace tp

#define TP_DEBUG(X)                                                            \
  do {                                                                         \
    if (::tp::isDebugTypeEnabled(DEBUG_TYPE)) {                                \
      X;                                                                       \
    }                                                                          \
  } while (false)

#endif // TP_SUPPORT_DEBUG_H
