//===- ToolOutput.h - Output files that appear whole or not at all -*- C++ -*-//
///
/// \file
/// Every tool writes through writeOutput() or, for several files that
/// belong together (a cubin and its launch manifest), writeOutputs():
///
///  1. every writer runs into a memory buffer (an output whose bytes are
///     already in memory is taken as it is); a writer's error stops the
///     run before any file is touched;
///  2. every destination is checked (a directory is an error) and each
///     buffer goes to a temporary file beside its destination;
///  3. only when all of them are written are they renamed into place (an
///     existing regular file at a destination is removed just before its
///     rename: cheaper on ext4 than a rename over it).
///
/// A failed run therefore leaves none of its outputs (nor a temporary): if
/// a late rename fails, the files already renamed are removed again.
/// "-" is standard output; a destination that exists and is not a regular
/// file (/dev/null, a pipe) is written directly, after every regular file
/// is in place.
///
//===----------------------------------------------------------------------===//
#ifndef TP_SUPPORT_TOOLOUTPUT_H
#define TP_SUPPORT_TOOLOUTPUT_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <utility>

namespace tp {

/// One output of a run: where, binary or text, and what writes it: Write,
/// or, where Write is empty, the bytes of Bytes as they are (the caller
/// keeps them alive; no copy is made of them).
struct OutputFile {
  OutputFile(std::string Path, bool Binary,
             llvm::function_ref<llvm::Error(llvm::raw_ostream &)> Write)
      : Path(std::move(Path)), Binary(Binary), Write(Write) {}
  OutputFile(std::string Path, bool Binary, llvm::StringRef Bytes)
      : Path(std::move(Path)), Binary(Binary), Bytes(Bytes) {}

  std::string Path;
  bool Binary = false;
  llvm::function_ref<llvm::Error(llvm::raw_ostream &)> Write;
  llvm::StringRef Bytes;
};

/// Runs \p Write on a stream for \p Path and commits the file only when it
/// succeeds.  \p Binary selects binary mode (no newline translation).
llvm::Error
writeOutput(llvm::StringRef Path, bool Binary,
            llvm::function_ref<llvm::Error(llvm::raw_ostream &)> Write);

/// writeOutput() for bytes already in memory: \p Bytes are written as
/// they are, not copied into a buffer first.
llvm::Error writeOutputBytes(llvm::StringRef Path, bool Binary,
                             llvm::StringRef Bytes);

/// Writes every file of \p Files or none of them (see the file comment).
llvm::Error writeOutputs(llvm::ArrayRef<OutputFile> Files);

/// writeOutput() for one large output: a regular file's bytes go straight
/// to its temporary through a stream with a \p BufferSize buffer, reused
/// (no buffer of the whole output, whose pages would each be faulted in,
/// then copied); on \p Write's error, or a failed write, the temporary is
/// removed and nothing appears.  "-" and destinations that are not regular
/// files are written as writeOutput() writes them.
llvm::Error writeOutputStreamed(
    llvm::StringRef Path, bool Binary, size_t BufferSize,
    llvm::function_ref<llvm::Error(llvm::raw_ostream &)> Write);

/// Installs the `--version` printer shared by every tp tool.
void setToolVersionPrinter();

/// Makes a write to a closed pipe (standard output read by a process that
/// has gone) an error that says so: `<Tool>: error: cannot write to
/// standard output: the pipe is closed` and exit status \p ExitCode, where
/// LLVM's default (InitLLVM) exits 74 without a word.  Call after InitLLVM;
/// \p Tool must outlive the process (a string literal).
void setClosedPipeHandler(const char *Tool, int ExitCode = 1);

} // namespace tp

#endif // TP_SUPPORT_TOOLOUTPUT_H
