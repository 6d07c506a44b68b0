//===- PtxasTestUtil.h - ptxas-built inputs for the unit tests --*- C++ -*-===//
///
/// \file
/// What the unit tests that build cubins with ptxas at test time share:
/// listing and reading inputs, retargeting a PTX file, and a ptxas run
/// whose output is kept between runs (rebuilt only when older than its
/// PTX).  Every file is written under a unique temporary name and renamed,
/// as lit runs test processes in parallel.
///
//===----------------------------------------------------------------------===//
#ifndef TP_UNITTESTS_PTXASTESTUTIL_H
#define TP_UNITTESTS_PTXASTESTUTIL_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace tp {
namespace testing {

inline std::vector<uint8_t> readBytes(const std::string &Path) {
  auto Buf = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                         /*RequiresNullTerminator=*/false);
  if (!Buf)
    return {};
  return std::vector<uint8_t>((*Buf)->getBufferStart(), (*Buf)->getBufferEnd());
}

/// The files of \p Dir with extension \p Ext, sorted.
inline std::vector<std::string> listFiles(const std::string &Dir,
                                          llvm::StringRef Ext) {
  std::vector<std::string> Out;
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC;
       It.increment(EC))
    if (llvm::sys::path::extension(It->path()) == Ext)
      Out.push_back(It->path());
  std::sort(Out.begin(), Out.end());
  return Out;
}

inline std::string ptxasPath() {
  std::string P = std::string(TP_CUDA_DIR) + "/bin/ptxas";
  return llvm::sys::fs::can_execute(P) ? P : "";
}

/// Writes \p Text to \p Path unless the file already holds it (so that its
/// time stamp, and the cache of compilePtx, survive); false on failure.
inline bool writeIfChanged(const std::string &Path, llvm::StringRef Text) {
  auto Old = llvm::MemoryBuffer::getFile(Path);
  if (Old && (*Old)->getBuffer() == Text)
    return true;
  llvm::SmallString<128> Tmp;
  int FD;
  if (llvm::sys::fs::createUniqueFile(Path + ".tmp-%%%%%%", FD, Tmp))
    return false;
  {
    llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << Text;
  }
  if (llvm::sys::fs::rename(Tmp, Path)) {
    llvm::sys::fs::remove(Tmp);
    return false;
  }
  return true;
}

/// A copy of PTX file \p Ptx in \p Dir as `<stem><Suffix>.ptx` with its first
/// `.target sm_XX` set to \p Arch; "" on failure.
inline std::string retargetedCopy(const std::string &Ptx, llvm::StringRef Arch,
                                  const std::string &Dir,
                                  llvm::StringRef Suffix) {
  auto Buf = llvm::MemoryBuffer::getFile(Ptx);
  if (!Buf || llvm::sys::fs::create_directories(Dir))
    return "";
  std::string Src = (*Buf)->getBuffer().str();
  size_t P = Src.find(".target sm_");
  if (P == std::string::npos)
    return "";
  size_t E =
      Src.find_first_not_of("0123456789abcdefghijklmnopqrstuvwxyz_", P + 8);
  Src.replace(P + 8, E - (P + 8), Arch.str());
  std::string Out =
      (Dir + "/" + llvm::sys::path::stem(Ptx) + Suffix + ".ptx").str();
  return writeIfChanged(Out, Src) ? Out : "";
}

/// ptxas \p Flags -o \p Out \p Ptx, unless \p Out is at least as new as
/// \p Ptx; false on failure (or without ptxas).
inline bool compilePtx(const std::string &Ptx, const std::string &Out,
                       llvm::ArrayRef<std::string> Flags) {
  std::string Ptxas = ptxasPath();
  if (Ptxas.empty() ||
      llvm::sys::fs::create_directories(llvm::sys::path::parent_path(Out)))
    return false;
  llvm::sys::fs::file_status In, Have;
  if (!llvm::sys::fs::status(Ptx, In) && !llvm::sys::fs::status(Out, Have) &&
      Have.getLastModificationTime() >= In.getLastModificationTime())
    return true;
  llvm::SmallString<128> Tmp;
  if (llvm::sys::fs::createUniqueFile(Out + ".tmp-%%%%%%", Tmp))
    return false;
  std::vector<llvm::StringRef> Args = {Ptxas};
  for (const std::string &F : Flags)
    Args.push_back(F);
  Args.insert(Args.end(), {"-o", Tmp, Ptx});
  if (llvm::sys::ExecuteAndWait(Ptxas, Args) != 0 ||
      llvm::sys::fs::rename(Tmp, Out)) {
    llvm::sys::fs::remove(Tmp);
    return false;
  }
  return true;
}

} // namespace testing
} // namespace tp

#endif // TP_UNITTESTS_PTXASTESTUTIL_H
