//===- NvJitLinkTest.cpp - libnvJitLink as an independent reader ----------===//
///
/// \file
/// Every cubin our writer produces (faithful rewrites and from-scratch
/// builds of every test cubin, and the hand-written .sass) is handed to
/// libnvJitLink in a subprocess (NvJitLinkProbe.c).  What this checks is
/// limited (SASS_FACTS.md 4.1): nvJitLink parses the ELF header, section
/// table and machine of an ET_EXEC cubin and then ignores it, and it links
/// ET_REL ones.  The negative control shows that the probe can fail: a
/// wrong e_machine is rejected.
///
//===----------------------------------------------------------------------===//

#include "TestCubins.h"
#include "tp/Object/Module.h"
#include "tp/Object/SassText.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

using namespace llvm;
using namespace tp::object;

#ifdef TP_NVJITLINK_PROBE
namespace {

/// Runs the probe on \p Bytes; returns its exit code (-1: crashed).
int probe(const std::vector<uint8_t> &Bytes) {
  SmallString<128> Path;
  if (sys::fs::createTemporaryFile("tp-probe", "cubin", Path))
    return -2;
  {
    std::error_code EC;
    raw_fd_ostream OS(Path, EC);
    OS.write(reinterpret_cast<const char *>(Bytes.data()), Bytes.size());
  }
  std::string Err;
  Optional<StringRef> Redirects[] = {None, StringRef(""), StringRef("")};
  int RC =
      sys::ExecuteAndWait(TP_NVJITLINK_PROBE, {TP_NVJITLINK_PROBE, Path.str()},
                          None, Redirects, /*SecondsToWait=*/60, 0, &Err);
  sys::fs::remove(Path);
  return RC;
}

TEST(NvJitLink, AcceptsWhatWeWrite) {
  unsigned N = 0;
  for (const auto &C : tp::testing::allTestCubins()) {
    SCOPED_TRACE(C.Path);
    Expected<CubinFile> F = readCubinFile(C.Bytes);
    ASSERT_TRUE(!!F);
    // sm_90 relocatable objects are rejected for -arch=sm_86 (as ptxas's
    // own are): not ours to check.
    if (C.Relocatable && F->Header.sm() != 86)
      continue;
    std::vector<uint8_t> Out;
    ASSERT_FALSE(!!writeCubinFile(*F, Out));
    EXPECT_EQ(probe(Out), 0);
    ++N;
    if (!tp::testing::expectBuildable(C))
      continue;
    Expected<Module> M = interpretCubin(*F);
    ASSERT_TRUE(!!M);
    Expected<CubinFile> G = buildCubin(*M);
    ASSERT_TRUE(!!G);
    ASSERT_FALSE(!!writeCubinFile(*G, Out));
    EXPECT_EQ(probe(Out), 0);
  }
  EXPECT_GE(N, 8u);
}

TEST(NvJitLink, RejectsWrongMachine) {
  std::vector<uint8_t> B = tp::testing::readBytes(
      std::string(TP_SHARED_DIR) + "/reference/cubin/tiny_store_sm86.cubin");
  ASSERT_EQ(probe(B), 0);
  B[0x12] = 62; // e_machine = EM_X86_64
  EXPECT_EQ(probe(B), 1);
}

} // namespace
#endif
