//===- ToolOutput.h - Output files that appear whole or not at all -*- C++ -*-//
///
/// \file
/// Every tool writes through writeOutput(): the content goes to a temporary
/// file beside the destination and is renamed into place only when the
/// writer returned success, so a failed run never leaves a partial output.
/// "-" is standard output.
///
//===----------------------------------------------------------------------===//
#ifndef TP_SUPPORT_TOOLOUTPUT_H
#define TP_SUPPORT_TOOLOUTPUT_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

namespace tp {

/// Runs \p Write on a stream for \p Path and commits the file only when it
/// succeeds.  \p Binary selects binary mode (no newline translation).
llvm::Error
writeOutput(llvm::StringRef Path, bool Binary,
            llvm::function_ref<llvm::Error(llvm::raw_ostream &)> Write);

/// Installs the `--version` printer shared by every tp tool.
void setToolVersionPrinter();

} // namespace tp

#endif // TP_SUPPORT_TOOLOUTPUT_H
