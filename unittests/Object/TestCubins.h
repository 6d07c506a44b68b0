//===- TestCubins.h - The cubins the Object tests run over ------*- C++ -*-===//
///
/// \file
/// Every cubin in shared/reference/cubin/, plus what ptxas (when present)
/// builds at test time from shared/reference/ptx/*.ptx and from
/// test/Object/Inputs/*.ptx, as ET_EXEC (-arch=sm_86) and ET_REL (-c).
///
//===----------------------------------------------------------------------===//
#ifndef TP_UNITTESTS_OBJECT_TESTCUBINS_H
#define TP_UNITTESTS_OBJECT_TESTCUBINS_H

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include <string>
#include <vector>

namespace tp {
namespace testing {

struct TestCubin {
  std::string Path;
  std::vector<uint8_t> Bytes;
  bool FromPtxas = false; ///< built by this test run
  bool Relocatable = false;
};

inline std::vector<uint8_t> readBytes(const std::string &Path) {
  auto Buf = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                         /*RequiresNullTerminator=*/false);
  if (!Buf)
    return {};
  return std::vector<uint8_t>((*Buf)->getBufferStart(), (*Buf)->getBufferEnd());
}

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

/// Builds \p Ptx with ptxas into TP_OBJECT_CUBIN_DIR (kept between runs:
/// rebuilt only when older than the PTX; written to a temporary name and
/// renamed, as lit runs test processes in parallel); "" on failure.
inline std::string runPtxas(const std::string &Ptx, bool Reloc,
                            const std::string &Arch = "sm_86") {
  std::string Ptxas = ptxasPath();
  if (Ptxas.empty())
    return "";
  std::string Dir = TP_OBJECT_CUBIN_DIR;
  if (llvm::sys::fs::create_directories(Dir))
    return "";
  std::string Out = (Dir + "/" + llvm::sys::path::stem(Ptx) +
                     (Reloc ? "_reloc" : "") + ".cubin")
                        .str();
  llvm::sys::fs::file_status In, Have;
  if (!llvm::sys::fs::status(Ptx, In) && !llvm::sys::fs::status(Out, Have) &&
      Have.getLastModificationTime() >= In.getLastModificationTime())
    return Out;
  llvm::SmallString<128> Tmp;
  if (llvm::sys::fs::createUniqueFile(Out + ".tmp-%%%%%%", Tmp))
    return "";
  // The PTX's own .target decides; -arch must not be lower than it.
  std::string ArchArg = "-arch=" + Arch;
  std::vector<llvm::StringRef> Args = {Ptxas, ArchArg, "-o", Tmp, Ptx};
  if (Reloc)
    Args.insert(Args.begin() + 1, "-c");
  if (llvm::sys::ExecuteAndWait(Ptxas, Args) != 0 ||
      llvm::sys::fs::rename(Tmp, Out)) {
    llvm::sys::fs::remove(Tmp);
    return "";
  }
  return Out;
}

/// The .target line of a PTX file ("sm_86" when absent).
inline std::string ptxTarget(const std::string &Ptx) {
  std::vector<uint8_t> B = readBytes(Ptx);
  llvm::StringRef S(reinterpret_cast<const char *>(B.data()), B.size());
  size_t P = S.find(".target ");
  if (P == llvm::StringRef::npos)
    return "sm_86";
  return S.substr(P + 8)
      .take_while([](char C) { return isalnum(C) || C == '_'; })
      .str();
}

/// Whether buildCubin is expected to reproduce \p C: executable sm_80/86/90
/// cubins without a stack frame (stack_frame.ptx is the known exception).
inline bool expectBuildable(const TestCubin &C) {
  return !C.Relocatable && !llvm::StringRef(C.Path).contains("stack_frame");
}

inline const std::vector<TestCubin> &allTestCubins() {
  static std::vector<TestCubin> All = [] {
    std::vector<TestCubin> V;
    for (const std::string &P :
         listFiles(std::string(TP_SHARED_DIR) + "/reference/cubin", ".cubin"))
      V.push_back(
          {P, readBytes(P), false, llvm::StringRef(P).contains("_reloc")});
    std::vector<std::string> Ptx =
        listFiles(std::string(TP_SHARED_DIR) + "/reference/ptx", ".ptx");
    for (const std::string &P : listFiles(TP_OBJECT_INPUTS, ".ptx"))
      Ptx.push_back(P);
    for (const std::string &P : Ptx)
      for (bool Reloc : {false, true}) {
        std::string Out = runPtxas(P, Reloc, ptxTarget(P));
        if (!Out.empty())
          V.push_back({Out, readBytes(Out), true, Reloc});
      }
    return V;
  }();
  return All;
}

} // namespace testing
} // namespace tp

#endif
