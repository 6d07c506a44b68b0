//===- CubinSM90Test.cpp - sm_90 cubins: read, write, build ---------------===//
///
/// \file
/// ptxas 13's sm_90 layout (ModuleSM90.cpp), over the sm_90 reference
/// cubin and cubins ptxas builds for sm_90 from every PTX input (the
/// .target line rewritten to sm_90):
///  * faithful: readCubinFile then writeCubinFile gives the same bytes;
///  * model: interpretCubin then buildCubin gives the same bytes for every
///    single-kernel cubin the model covers (a firm count), and a clear
///    error (never wrong bytes) for the others;
///  * the sm_90 classifier finds ptxas's EXIT offsets and first block end;
///  * by hand: a Module written from mma_tile's signature gives ptxas's
///    bytes.
///
//===----------------------------------------------------------------------===//

#include "TestCubins.h"
#include "tp/Object/CubinFile.h"
#include "tp/Object/Dump.h"
#include "tp/Object/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"
#include <fstream>
#include <regex>
#include <sstream>

using namespace llvm;
using namespace tp;
using namespace tp::object;
using namespace tp::testing;

namespace {

std::string dump(const CubinFile &F) {
  std::string S;
  raw_string_ostream OS(S);
  consumeError(dumpCubin(F, OS));
  return OS.str();
}

long firstDiff(const std::vector<uint8_t> &A, const std::vector<uint8_t> &B) {
  for (size_t I = 0; I < std::min(A.size(), B.size()); ++I)
    if (A[I] != B[I])
      return long(I);
  return A.size() == B.size() ? -1 : long(std::min(A.size(), B.size()));
}

/// The sm_90 cubins: the reference, and ptxas -arch=sm_90 of every PTX
/// input with its .target rewritten.
const std::vector<TestCubin> &sm90Cubins() {
  static std::vector<TestCubin> All = [] {
    std::vector<TestCubin> V;
    for (const TestCubin &C : allTestCubins())
      if (!C.Relocatable && C.Bytes.size() > 0x40 &&
          ((C.Bytes[0x31] << 8 | C.Bytes[0x30]) >> 8) == 90)
        V.push_back(C);
    if (ptxasPath().empty())
      return V;
    std::string Dir = std::string(TP_OBJECT_CUBIN_DIR) + "/sm90-ptx";
    sys::fs::create_directories(Dir);
    std::vector<std::string> Ptx =
        listFiles(std::string(TP_SHARED_DIR) + "/reference/ptx", ".ptx");
    for (const std::string &P : listFiles(TP_OBJECT_INPUTS, ".ptx"))
      Ptx.push_back(P);
    for (const std::string &P : Ptx) {
      if (ptxTarget(P) == "sm_90")
        continue; // built above
      std::ifstream In(P);
      std::stringstream SS;
      SS << In.rdbuf();
      std::string Text = std::regex_replace(
          SS.str(), std::regex("\\.target\\s+sm_\\w+"), ".target sm_90",
          std::regex_constants::format_first_only);
      std::string Out =
          Dir + "/" + sys::path::stem(P).str() + "_to_sm90.ptx";
      std::ofstream(Out) << Text;
      std::string Cubin = runPtxas(Out, false, "sm_90");
      if (!Cubin.empty())
        V.push_back({Cubin, readBytes(Cubin), true, false});
    }
    return V;
  }();
  return All;
}

TEST(CubinSM90, HaveInputs) {
  size_t Ref = 0, Built = 0;
  for (const TestCubin &C : sm90Cubins())
    (C.FromPtxas ? Built : Ref)++;
  EXPECT_GE(Ref, 1u); // reference/cubin/mma_tile_sm90.cubin
  if (!ptxasPath().empty()) {
    EXPECT_GE(Built, 10u) << "ptxas is installed but failed on some inputs";
  }
}

TEST(CubinSM90, Faithful) {
  for (const TestCubin &C : sm90Cubins()) {
    SCOPED_TRACE(C.Path);
    Expected<CubinFile> F = readCubinFile(C.Bytes);
    ASSERT_TRUE(!!F) << toString(F.takeError());
    std::vector<uint8_t> Out;
    ASSERT_FALSE(!!writeCubinFile(*F, Out));
    EXPECT_EQ(firstDiff(C.Bytes, Out), -1);
  }
}

TEST(CubinSM90, FromModelIsByteExact) {
  unsigned Built = 0, Refused = 0;
  std::string Names;
  for (const TestCubin &C : sm90Cubins()) {
    SCOPED_TRACE(C.Path);
    Expected<CubinFile> F = readCubinFile(C.Bytes);
    ASSERT_TRUE(!!F) << toString(F.takeError());
    EXPECT_EQ(F->Header.Flags, 0x06005a04u);
    Expected<Module> M = interpretCubin(*F);
    ASSERT_TRUE(!!M) << toString(M.takeError());
    Expected<CubinFile> G = buildCubin(*M);
    if (!G) {
      // Outside the model: several kernels, a stack frame, no parameters.
      std::string E = toString(G.takeError());
      EXPECT_NE(E.find("sm_90"), std::string::npos) << E;
      ++Refused;
      Names += "[refused " + sys::path::filename(C.Path).str() + ": " + E +
               "] ";
      continue;
    }
    std::vector<uint8_t> Out;
    ASSERT_FALSE(!!writeCubinFile(*G, Out));
    EXPECT_EQ(dump(*F), dump(*G));
    EXPECT_EQ(firstDiff(C.Bytes, Out), -1);
    ++Built;
    Names += sys::path::filename(C.Path).str() + " ";
  }
  // The reference alone; with ptxas: mma_tile, tiny_store, mma_indep, the
  // single-kernel GEMM (dynamic shared), mma_tile_sm86 and big_shared;
  // refused: the multi-kernel inputs and stack_frame.
  EXPECT_GE(Built, ptxasPath().empty() ? 1u : 7u) << Names;
  RecordProperty("built", Built);
  RecordProperty("refused", Refused);
}

TEST(CubinSM90, ScanControlFlowMatchesPtxas) {
  unsigned Kernels = 0;
  for (const TestCubin &C : sm90Cubins()) {
    SCOPED_TRACE(C.Path);
    Expected<CubinFile> F = readCubinFile(C.Bytes);
    ASSERT_TRUE(!!F);
    Expected<Module> M = interpretCubin(*F);
    ASSERT_TRUE(!!M) << toString(M.takeError());
    if (M->Kernels.size() != 1 || !buildCubin(*M))
      continue;
    for (const Kernel &K : M->Kernels) {
      Kernel Copy = K;
      scanControlFlow(Copy, getOpcodeClassifier(90));
      EXPECT_EQ(Copy.ExitOffsets, K.ExitOffsets) << K.Name;
      EXPECT_EQ(Copy.CfaBlockEnd, K.CfaBlockEnd) << K.Name;
      ++Kernels;
    }
  }
  EXPECT_GE(Kernels, 1u);
}

/// reference/ptx/mma_tile_sm90.ptx: .entry mma_tile(3 x .u64), .reqntid 32,
/// 512 static shared bytes, bar.sync; ptxas -v: 18 registers.  Everything
/// but the code comes from that signature.
TEST(CubinSM90, HandWrittenModuleMatchesPtxas) {
  std::vector<uint8_t> Ref =
      readBytes(std::string(TP_SHARED_DIR) + "/reference/cubin/mma_tile_sm90.cubin");
  ASSERT_FALSE(Ref.empty());
  Expected<CubinFile> RF = readCubinFile(Ref);
  ASSERT_TRUE(!!RF);
  Expected<Module> RM = interpretCubin(*RF);
  ASSERT_TRUE(!!RM);
  Module M;
  M.SM = 90;
  M.Tool = RM->Tool; // ptxas's own banner (not derivable)
  Kernel K;
  K.Name = "mma_tile";
  K.Code = RM->Kernels[0].Code;
  for (uint32_t I = 0; I < 3; ++I) {
    KernelParam P;
    P.Offset = 8 * I;
    P.Size = 8;
    K.Params.push_back(P);
  }
  K.RegCount = 18;
  K.NumBarriers = 1;
  K.SharedBytes = 512;
  K.ReqNTid = std::array<uint32_t, 3>{32, 1, 1};
  scanControlFlow(K, getOpcodeClassifier(90));
  M.Kernels.push_back(K);
  Expected<CubinFile> G = buildCubin(M);
  ASSERT_TRUE(!!G) << toString(G.takeError());
  std::vector<uint8_t> Out;
  ASSERT_FALSE(!!writeCubinFile(*G, Out));
  EXPECT_EQ(dump(*RF), dump(*G));
  EXPECT_EQ(firstDiff(Ref, Out), -1);
  // The sm_90 facts, spelled out.
  EXPECT_EQ(G->Header.Flags, 0x06005a04u);
  int Sh = G->findSection(".nv.shared.mma_tile");
  ASSERT_GE(Sh, 0);
  EXPECT_EQ(G->Sections[Sh].Size, 0x400u + 512u);
  int C0 = G->findSection(".nv.constant0.mma_tile");
  ASSERT_GE(C0, 0);
  EXPECT_EQ(G->Sections[C0].Size, 0x210u + 24u);
  for (const char *S : {".nv.compat", ".rela.text.mma_tile",
                        ".rela.debug_frame", ".nv.shared.reserved.0"})
    EXPECT_GE(G->findSection(S), 0) << S;
  EXPECT_LT(G->findSection(".nv.rel.action"), 0);
}

TEST(CubinSM90, RejectsSeveralKernels) {
  Module M;
  M.SM = 90;
  Kernel K;
  K.Name = "k";
  K.Code.assign(128, 0);
  M.Kernels = {K, K};
  Expected<CubinFile> G = buildCubin(M);
  ASSERT_FALSE(!!G);
  EXPECT_NE(toString(G.takeError()).find("one kernel per module"),
            std::string::npos);
}

} // namespace
