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

#include "../PtxasTestUtil.h"
#include "tp/Object/Module.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Path.h"
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

/// Builds \p Ptx with ptxas for \p Arch (-c: \p Reloc) into
/// TP_OBJECT_CUBIN_DIR, kept between runs; "" on failure.
inline std::string runPtxas(const std::string &Ptx, bool Reloc,
                            const std::string &Arch = "sm_86") {
  std::string Out = (std::string(TP_OBJECT_CUBIN_DIR) + "/" +
                     llvm::sys::path::stem(Ptx) + (Reloc ? "_reloc" : "") +
                     ".cubin")
                        .str();
  // The PTX's own .target decides; -arch must not be lower than it.
  std::vector<std::string> Flags = {"-arch=" + Arch};
  if (Reloc)
    Flags.insert(Flags.begin(), "-c");
  return compilePtx(Ptx, Out, Flags) ? Out : "";
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

/// Whether buildCubin is expected to reproduce \p C: executable cubins
/// (stack frames included since lib/Object/CubinFrames.cpp).
inline bool expectBuildable(const TestCubin &C) { return !C.Relocatable; }

/// CubinFrames.cpp's test of a frame kernel's FDE form: the first basic
/// block runs past the last EXIT.
inline bool firstBlockHoldsLastExitForTest(const tp::object::Kernel &K) {
  return !K.ExitOffsets.empty() && K.CfaBlockEnd > K.ExitOffsets.back();
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
