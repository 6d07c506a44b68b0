//===- ToolOutput.cpp - Output files that appear whole or not at all ------===//
///
/// \file
/// writeOutputs(): buffers, then temporaries beside the destinations, then
/// renames; every failure removes what the run created (ToolOutput.h).
///
//===----------------------------------------------------------------------===//

#include "tp/Support/ToolOutput.h"
#include "tp/Support/Diagnostics.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Signals.h"

#include <cstring>
#include <unistd.h>

using namespace llvm;

namespace tp {

namespace {

/// How one output reaches its destination.
enum class Commit { Stdout, Rename, Direct };

struct PendingOutput {
  const OutputFile *File;
  std::string Buffer; ///< what File->Write wrote
  StringRef Bytes;    ///< what is written: Buffer, or File->Bytes
  Commit How = Commit::Rename;
  std::string TempPath; ///< Commit::Rename: the written temporary
};

Error writeBuffer(raw_fd_ostream &OS, StringRef Buffer, StringRef Path) {
  OS << Buffer;
  OS.flush();
  if (OS.has_error()) {
    std::error_code EC = OS.error();
    OS.clear_error();
    return makeError("cannot write '" + Path + "': " + EC.message());
  }
  return Error::success();
}

/// Renames the written temporary \p Temp to \p Path, unlinking what is at
/// \p Path first: a rename over an existing file makes ext4 (auto_da_alloc)
/// flush the new file's data before the rename returns.  The result is the
/// rename's
/// alone: the unlink only removes what the rename would replace (a file,
/// or a symbolic link itself, never what it names; unlink cannot remove a
/// directory), and when it fails the rename reports the error, if any.
/// Every output is written by then, so a run that fails earlier leaves the
/// old file untouched (a rename that fails after the unlink, rare with the
/// temporary beside its destination, leaves neither, as a late failed
/// rename always did).
std::error_code replaceFile(const Twine &Temp, const Twine &Path) {
  SmallString<128> Dest;
  ::unlink(Path.toNullTerminatedStringRef(Dest).data());
  return sys::fs::rename(Temp, Path);
}

/// The model of \p Path's temporary (createUniqueFile's `%` are random
/// hex digits), in the same directory: the file name with
/// `-XXXXXXXX.tmp`, its name cut short where that would pass the
/// directory's longest file name (NAME_MAX, 255 on Linux), so that every
/// legal destination name has a temporary.
std::string getTempModel(StringRef Path) {
  static constexpr StringRef Suffix = "-%%%%%%%%.tmp";
  StringRef Dir = sys::path::parent_path(Path);
  StringRef Name = Path.substr(Path.size() - sys::path::filename(Path).size());
  long Max = ::pathconf(Dir.empty() ? "." : Dir.str().c_str(), _PC_NAME_MAX);
  if (Max <= 0)
    Max = 255;
  size_t Keep = size_t(Max) > Suffix.size() ? size_t(Max) - Suffix.size() : 1;
  return (Path.drop_back(Name.size()) + Name.take_front(Keep) + Suffix).str();
}

/// Decides how \p P is committed and, for a regular file, writes its
/// temporary.
Error prepare(PendingOutput &P) {
  StringRef Path = P.File->Path;
  if (Path == "-") {
    P.How = Commit::Stdout;
    return Error::success();
  }
  sys::fs::file_status St;
  if (!sys::fs::status(Path, St) && sys::fs::exists(St)) {
    if (sys::fs::is_directory(St))
      return makeError(
          "cannot open '" + Path +
          "': " + std::make_error_code(std::errc::is_a_directory).message());
    if (!sys::fs::is_regular_file(St)) {
      P.How = Commit::Direct;
      return Error::success();
    }
  }
  int FD;
  SmallString<128> Temp;
  if (std::error_code EC = sys::fs::createUniqueFile(
          getTempModel(Path), FD, Temp,
          P.File->Binary ? sys::fs::OF_None : sys::fs::OF_Text))
    return makeError("cannot open '" + Path + "': " + EC.message());
  P.TempPath = std::string(Temp);
  raw_fd_ostream OS(FD, /*shouldClose=*/true);
  OS.SetUnbuffered(); // one write(2) of the whole output
  Error E = writeBuffer(OS, P.Bytes, Path);
  OS.close();
  if (!E && OS.has_error()) {
    E = makeError("cannot write '" + Path + "': " + OS.error().message());
    OS.clear_error();
  }
  return E;
}

Error commitDirect(const PendingOutput &P) {
  StringRef Path = P.File->Path;
  if (P.How == Commit::Stdout) {
    if (P.File->Binary)
      outs().SetUnbuffered();
    return writeBuffer(outs(), P.Bytes, Path);
  }
  std::error_code EC;
  raw_fd_ostream OS(Path, EC,
                    P.File->Binary ? sys::fs::OF_None : sys::fs::OF_Text);
  if (EC)
    return makeError("cannot open '" + Path + "': " + EC.message());
  return writeBuffer(OS, P.Bytes, Path);
}

} // namespace

Error writeOutputs(ArrayRef<OutputFile> Files) {
  std::vector<PendingOutput> Pending(Files.size());
  for (size_t I = 0; I < Files.size(); ++I) {
    PendingOutput &P = Pending[I];
    P.File = &Files[I];
    if (!Files[I].Write) {
      P.Bytes = Files[I].Bytes;
      continue;
    }
    raw_string_ostream OS(P.Buffer);
    // Buffered: a listing is tens of thousands of small writes, each an
    // append to the string when unbuffered.
    OS.SetBuffered();
    if (Error E = Files[I].Write(OS))
      return E;
    OS.flush();
    P.Bytes = P.Buffer;
  }
  auto RemoveTemps = [&] {
    for (PendingOutput &P : Pending)
      if (!P.TempPath.empty())
        sys::fs::remove(P.TempPath);
  };
  for (PendingOutput &P : Pending)
    if (Error E = prepare(P)) {
      RemoveTemps();
      return E;
    }
  // Regular files first: a rename is the one step that can still fail.
  for (size_t I = 0; I < Pending.size(); ++I) {
    PendingOutput &P = Pending[I];
    if (P.How != Commit::Rename)
      continue;
    if (std::error_code EC = replaceFile(P.TempPath, P.File->Path)) {
      RemoveTemps();
      for (size_t J = 0; J < I; ++J)
        if (Pending[J].How == Commit::Rename)
          sys::fs::remove(Pending[J].File->Path);
      return makeError("cannot write '" + P.File->Path + "': " + EC.message());
    }
    P.TempPath.clear();
  }
  for (const PendingOutput &P : Pending)
    if (P.How != Commit::Rename)
      if (Error E = commitDirect(P)) {
        for (const PendingOutput &Q : Pending)
          if (Q.How == Commit::Rename)
            sys::fs::remove(Q.File->Path);
        return E;
      }
  return Error::success();
}

Error writeOutput(StringRef Path, bool Binary,
                  function_ref<Error(raw_ostream &)> Write) {
  OutputFile F{Path.str(), Binary, Write};
  return writeOutputs(F);
}

Error writeOutputBytes(StringRef Path, bool Binary, StringRef Bytes) {
  OutputFile F{Path.str(), Binary, Bytes};
  return writeOutputs(F);
}

Error writeOutputStreamed(StringRef Path, bool Binary, size_t BufferSize,
                          function_ref<Error(raw_ostream &)> Write) {
  sys::fs::file_status St;
  bool Exists = !sys::fs::status(Path, St) && sys::fs::exists(St);
  if (Path == "-" || (Exists && !sys::fs::is_regular_file(St)))
    return writeOutput(Path, Binary, Write); // checks directories too
  int FD;
  SmallString<128> Temp;
  if (std::error_code EC = sys::fs::createUniqueFile(
          getTempModel(Path), FD, Temp,
          Binary ? sys::fs::OF_None : sys::fs::OF_Text))
    return makeError("cannot open '" + Path + "': " + EC.message());
  Error E = Error::success();
  {
    raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS.SetBufferSize(BufferSize);
    E = Write(OS);
    OS.close();
    if (!E && OS.has_error())
      E = makeError("cannot write '" + Path + "': " + OS.error().message());
    OS.clear_error();
  }
  if (!E)
    if (std::error_code EC = replaceFile(Temp, Path))
      E = makeError("cannot write '" + Path + "': " + EC.message());
  if (E)
    sys::fs::remove(Temp);
  return E;
}

namespace {
const char *PipeTool = "tp";
int PipeExitCode = 1;

/// SIGPIPE's one-shot handler: only async-signal-safe calls.
void reportClosedPipe() {
  static const char Msg[] =
      ": error: cannot write to standard output: the pipe is closed\n";
  ssize_t R = ::write(2, PipeTool, ::strlen(PipeTool));
  R = ::write(2, Msg, sizeof(Msg) - 1);
  (void)R;
  ::_exit(PipeExitCode);
}
} // namespace

void setClosedPipeHandler(const char *Tool, int ExitCode) {
  PipeTool = Tool;
  PipeExitCode = ExitCode;
  sys::SetOneShotPipeSignalFunction(reportClosedPipe);
}

void setToolVersionPrinter() {
  cl::SetVersionPrinter([](raw_ostream &OS) {
    OS << "tp (tensor-core backend for NVIDIA sm_80 to sm_121) version 0.1.0\n"
       << "  built with LLVM 14\n";
  });
}

} // namespace tp
