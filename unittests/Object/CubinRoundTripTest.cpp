//===- CubinRoundTripTest.cpp - Read, write, build: byte for byte ---------===//
///
/// \file
/// Over every test cubin (TestCubins.h):
///  * faithful: readCubinFile then writeCubinFile gives the same bytes;
///  * model: for every executable sm_80/86 cubin, interpretCubin then
///    buildCubin (from scratch, ptxas 13's layout) gives the same bytes;
///  * by hand: a Module written field by field from a kernel's signature
///    (only the code copied from ptxas) gives ptxas's bytes.
///
//===----------------------------------------------------------------------===//

#include "TestCubins.h"
#include "tp/Object/CubinFile.h"
#include "tp/Object/Dump.h"
#include "tp/Object/Module.h"
#include "tp/Object/NvInfo.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

using namespace llvm;
using namespace tp;
using namespace tp::object;
using tp::testing::allTestCubins;

namespace {

/// The first differing offset, or -1.
long firstDiff(const std::vector<uint8_t> &A, const std::vector<uint8_t> &B) {
  for (size_t I = 0; I < std::min(A.size(), B.size()); ++I)
    if (A[I] != B[I])
      return static_cast<long>(I);
  return A.size() == B.size() ? -1
                              : static_cast<long>(std::min(A.size(), B.size()));
}

std::string dump(const CubinFile &F) {
  std::string S;
  raw_string_ostream OS(S);
  consumeError(dumpCubin(F, OS));
  return OS.str();
}

TEST(CubinRoundTrip, HaveInputs) {
  // The reference set alone has 10 cubins; with ptxas we build at least 2
  // per PTX file.
  size_t Ref = 0, Built = 0;
  for (const auto &C : allTestCubins())
    (C.FromPtxas ? Built : Ref)++;
  EXPECT_GE(Ref, 10u);
  if (!tp::testing::ptxasPath().empty()) {
    // 6 reference PTX files and 9 of ours, each as ET_EXEC and ET_REL.
    EXPECT_GE(Built, 30u) << "ptxas is installed but failed on some inputs";
  }
}

TEST(CubinRoundTrip, Faithful) {
  for (const auto &C : allTestCubins()) {
    SCOPED_TRACE(C.Path);
    ASSERT_FALSE(C.Bytes.empty());
    Expected<CubinFile> F = readCubinFile(C.Bytes);
    ASSERT_TRUE(!!F) << toString(F.takeError());
    std::vector<uint8_t> Out;
    ASSERT_FALSE(!!writeCubinFile(*F, Out));
    EXPECT_EQ(firstDiff(C.Bytes, Out), -1);
    // Reading what we wrote gives the same dump.
    Expected<CubinFile> G = readCubinFile(Out);
    ASSERT_TRUE(!!G) << toString(G.takeError());
    EXPECT_EQ(dump(*F), dump(*G));
  }
}

TEST(CubinRoundTrip, WriterNamesTheFirstOverlappingByte) {
  // Two sections with bytes: the second moved 4 bytes before the end of the
  // first.  The writer refuses, naming the first byte both would write.
  Expected<CubinFile> F = readCubinFile(allTestCubins().front().Bytes);
  ASSERT_TRUE(!!F) << toString(F.takeError());
  Section *First = nullptr, *Second = nullptr;
  for (Section &S : F->Sections) {
    if (S.Data.size() < 8)
      continue;
    (First ? Second : First) = &S;
    if (Second)
      break;
  }
  ASSERT_TRUE(First && Second);
  uint64_t At = First->Offset + First->Data.size() - 4;
  Second->Offset = At;
  std::vector<uint8_t> Out;
  Error E = writeCubinFile(*F, Out);
  ASSERT_TRUE(!!E);
  std::string Msg = toString(std::move(E));
  EXPECT_NE(Msg.find("it overlaps something already written at 0x" +
                     utohexstr(At, /*LowerCase=*/true)),
            std::string::npos)
      << Msg;
}

TEST(CubinRoundTrip, NvInfoRecordsReserialize) {
  for (const auto &C : allTestCubins()) {
    SCOPED_TRACE(C.Path);
    Expected<CubinFile> F = readCubinFile(C.Bytes);
    ASSERT_TRUE(!!F) << toString(F.takeError());
    for (const Section &S : F->Sections) {
      if (S.Type != SHT_CUDA_INFO && S.Type != SHT_CUDA_COMPAT)
        continue;
      Expected<std::vector<NvInfoRecord>> R = parseNvInfo(S.Data, S.Offset);
      ASSERT_TRUE(!!R) << toString(R.takeError());
      EXPECT_EQ(serializeNvInfo(*R), S.Data) << S.Name;
    }
  }
}

TEST(CubinRoundTrip, FromModelIsByteExact) {
  unsigned Built = 0;
  for (const auto &C : allTestCubins()) {
    SCOPED_TRACE(C.Path);
    Expected<CubinFile> F = readCubinFile(C.Bytes);
    ASSERT_TRUE(!!F) << toString(F.takeError());
    if (C.Relocatable || F->Header.sm() == 90)
      continue; // buildCubin: ET_EXEC sm_80/86 only (this issue)
    Expected<Module> M = interpretCubin(*F);
    ASSERT_TRUE(!!M) << toString(M.takeError());
    Expected<CubinFile> G = buildCubin(*M);
    ASSERT_TRUE(!!G) << toString(G.takeError());
    std::vector<uint8_t> Out;
    ASSERT_FALSE(!!writeCubinFile(*G, Out));
    EXPECT_EQ(dump(*F), dump(*G));
    EXPECT_EQ(firstDiff(C.Bytes, Out), -1);
    ++Built;
  }
  // 7 reference cubins; with ptxas 13 more from the PTX inputs.
  EXPECT_GE(Built, tp::testing::ptxasPath().empty() ? 7u : 20u);
}

TEST(CubinRoundTrip, ScanControlFlowMatchesPtxas) {
  // The opcode classifier finds the EXIT offsets ptxas recorded and the
  // first block end its .debug_frame uses.
  for (const auto &C : allTestCubins()) {
    SCOPED_TRACE(C.Path);
    Expected<CubinFile> F = readCubinFile(C.Bytes);
    ASSERT_TRUE(!!F);
    if (!tp::testing::expectBuildable(C))
      continue;
    Expected<Module> M = interpretCubin(*F);
    ASSERT_TRUE(!!M) << toString(M.takeError());
    for (const Kernel &K : M->Kernels) {
      Kernel Copy = K;
      scanControlFlow(Copy, getTargetClassifier(F->Header.sm()));
      EXPECT_EQ(Copy.ExitOffsets, K.ExitOffsets) << K.Name;
      // A stack frame's FDE records only whether the first block holds
      // the last EXIT (CubinFrames.cpp), not the block end.
      if (K.FrameSize)
        EXPECT_EQ(tp::testing::firstBlockHoldsLastExitForTest(Copy),
                  tp::testing::firstBlockHoldsLastExitForTest(K))
            << K.Name;
      else
        EXPECT_EQ(Copy.CfaBlockEnd, K.CfaBlockEnd) << K.Name;
    }
  }
}

/// tiny_store_sm86.ptx: .entry tiny(.param .u64 p0, .param .u32 p1), one
/// STG, built by ptxas 13 without options.  Every field below is written
/// from that signature and ptxas's "-v" report (8 registers, no barrier,
/// no shared memory); only the code bytes are copied.
TEST(CubinRoundTrip, HandWrittenModuleMatchesPtxas) {
  std::string Ptx =
      std::string(TP_SHARED_DIR) + "/reference/ptx/tiny_store_sm86.ptx";
  std::string Built = tp::testing::runPtxas(Ptx, /*Reloc=*/false);
  if (Built.empty())
    GTEST_SKIP() << "ptxas not available";
  std::vector<uint8_t> Ref = tp::testing::readBytes(Built);
  Expected<CubinFile> RF = readCubinFile(Ref);
  ASSERT_TRUE(!!RF) << toString(RF.takeError());
  int Text = RF->findSection(".text.tiny");
  ASSERT_GT(Text, 0);

  Module M;
  M.SM = 86;
  M.Tool.Tool = "ptxas";
  M.Tool.Version = "Cuda compilation tools, release 13.0, V13.0.88";
  M.Tool.BuildId = "Build cuda_13.0.r13.0/compiler.36424714_0";
  M.Tool.Options = "-arch sm_86 ";
  Kernel K;
  K.Name = "tiny";
  K.Code = RF->Sections[Text].Data;
  K.Params = {{0, 8, 0, 0}, {8, 4, 0, 0}};
  K.RegCount = 8;
  scanControlFlow(K, getTargetClassifier(86));
  M.Kernels.push_back(K);
  Expected<CubinFile> G = buildCubin(M);
  ASSERT_TRUE(!!G) << toString(G.takeError());
  std::vector<uint8_t> Out;
  ASSERT_FALSE(!!writeCubinFile(*G, Out));
  EXPECT_EQ(dump(*RF), dump(*G));
  EXPECT_EQ(firstDiff(Ref, Out), -1);
}

/// The same for multi_kernel.ptx's three kernels (sections in the reverse
/// of PTX order, as ptxas emits them), with the module's dynamic shared
/// memory giving every kernel a .nv.shared section.
TEST(CubinRoundTrip, HandWrittenMultiKernelMatchesPtxas) {
  std::string Built = tp::testing::runPtxas(
      std::string(TP_OBJECT_INPUTS) + "/multi_kernel.ptx", false);
  if (Built.empty())
    GTEST_SKIP() << "ptxas not available";
  std::vector<uint8_t> Ref = tp::testing::readBytes(Built);
  Expected<CubinFile> RF = readCubinFile(Ref);
  ASSERT_TRUE(!!RF) << toString(RF.takeError());
  auto Code = [&](const char *Name) {
    int I = RF->findSection(std::string(".text.") + Name);
    EXPECT_GT(I, 0);
    return I > 0 ? RF->Sections[I].Data : std::vector<uint8_t>();
  };
  Module M;
  M.Tool.Tool = "ptxas";
  M.Tool.Version = "Cuda compilation tools, release 13.0, V13.0.88";
  M.Tool.BuildId = "Build cuda_13.0.r13.0/compiler.36424714_0";
  M.Tool.Options = "-arch sm_86 ";
  // ptxas -v: five_params 12 regs 1 barrier; loop_shared 12 regs 1
  // barrier 256 B smem; noparam 4 regs.
  Kernel Five;
  Five.Name = "five_params";
  Five.Code = Code("five_params");
  Five.Params = {
      {0, 8, 0, 0}, {8, 4, 0, 0}, {12, 1, 0, 0}, {16, 4, 0, 0}, {24, 8, 0, 0}};
  Five.RegCount = 12;
  Five.NumBarriers = 1;
  Five.HasSharedSection = true;
  Kernel Loop;
  Loop.Name = "loop_shared";
  Loop.Code = Code("loop_shared");
  Loop.Params = {{0, 8, 0, 0}, {8, 4, 0, 0}};
  Loop.RegCount = 12;
  Loop.NumBarriers = 1;
  Loop.SharedBytes = 256;
  Kernel None;
  None.Name = "noparam";
  None.Code = Code("noparam");
  None.RegCount = 4;
  None.HasSharedSection = true;
  for (Kernel *K : {&Five, &Loop, &None}) {
    scanControlFlow(*K, getTargetClassifier(86));
    M.Kernels.push_back(*K);
  }
  Expected<CubinFile> G = buildCubin(M);
  ASSERT_TRUE(!!G) << toString(G.takeError());
  std::vector<uint8_t> Out;
  ASSERT_FALSE(!!writeCubinFile(*G, Out));
  EXPECT_EQ(dump(*RF), dump(*G));
  EXPECT_EQ(firstDiff(Ref, Out), -1);
}

TEST(CubinRoundTrip, BuildRejectsBadKernels) {
  Module M;
  Expected<CubinFile> Empty = buildCubin(M);
  ASSERT_FALSE(!!Empty);
  EXPECT_NE(toString(Empty.takeError()).find("at least one kernel"),
            std::string::npos);
  Kernel K;
  K.Name = "k";
  K.Code.assign(100, 0);
  M.Kernels.push_back(K);
  Expected<CubinFile> Odd = buildCubin(M);
  ASSERT_FALSE(!!Odd);
  EXPECT_NE(toString(Odd.takeError()).find("multiple of 128"),
            std::string::npos);
  M.SM = 90;
  Expected<CubinFile> Hopper = buildCubin(M);
  ASSERT_FALSE(!!Hopper);
  EXPECT_NE(toString(Hopper.takeError()).find("multiple of 128"),
            std::string::npos);
  M.SM = 75;
  Expected<CubinFile> Turing = buildCubin(M);
  ASSERT_FALSE(!!Turing);
  EXPECT_NE(toString(Turing.takeError()).find("cannot build a cubin for sm_75"),
            std::string::npos);
}

/// Whether \p F's section \p Sec holds the string \p Name.
bool tableHas(const CubinFile &F, StringRef Sec, StringRef Name) {
  const std::vector<uint8_t> &D = F.Sections[F.findSection(Sec)].Data;
  const std::string Needle = std::string(1, '\0') + Name.str() + '\0';
  return StringRef(reinterpret_cast<const char *>(D.data()), D.size())
      .contains(Needle);
}

/// A kernel that addresses an `.extern .global` (Kernel::UsesExtern): ptxas
/// 13's names .rel.text.K (sm_90: and .rela.text.K) in both string tables,
/// no such section (E: test/Object/Inputs/globals/extern_*.ptx); read back
/// from the names; refused without a visible `.global`.
TEST(CubinRoundTrip, ExternUserNames) {
  for (unsigned SM : {86u, 90u}) {
    SCOPED_TRACE(SM);
    Module M;
    M.SM = SM;
    GlobalVar V;
    V.Name = "ev";
    V.Size = 4;
    V.Align = 4;
    V.Visible = true;
    M.Globals.push_back(V);
    Kernel K;
    K.Name = "k";
    K.Code.assign(128, 0);
    K.ExitOffsets = {0x70};
    K.CfaBlockEnd = 0x80;
    M.Kernels.push_back(K);
    for (bool Uses : {false, true}) {
      M.Kernels[0].UsesExtern = Uses;
      Expected<CubinFile> G = buildCubin(M);
      ASSERT_TRUE(!!G) << toString(G.takeError());
      for (const char *Tab : {".shstrtab", ".strtab"}) {
        EXPECT_EQ(tableHas(*G, Tab, ".rel.text.k"), Uses) << Tab;
        EXPECT_EQ(tableHas(*G, Tab, ".rela.text.k"), Uses && SM == 90) << Tab;
      }
      EXPECT_LT(G->findSection(".rel.text.k"), 0);
      EXPECT_LT(G->findSection(".rela.text.k"), 0);
      Expected<Module> Back = interpretCubin(*G);
      ASSERT_TRUE(!!Back) << toString(Back.takeError());
      EXPECT_EQ(Back->Kernels[0].UsesExtern, Uses);
    }
    // Without a visible .global (here a plain one) no ptxas cubin has it.
    M.Globals[0].Visible = false;
    Expected<CubinFile> Plain = buildCubin(M);
    ASSERT_FALSE(!!Plain);
    EXPECT_NE(toString(Plain.takeError())
                  .find("kernel 'k' addresses an .extern variable, but the "
                        "module has no visible .global one"),
              std::string::npos);
  }
}

/// Constant bank 2 (Kernel::Constant2, lib/Object/CubinConstant2.cpp): on
/// sm_80/86/89 its section right before .nv.constant0.K, its symbol right
/// before that one's, its name in both tables, read back; refused on sm_90
/// and over 64 KiB.
TEST(CubinRoundTrip, Constant2Bank) {
  // One 128-byte kernel `k` with an EXIT at 0x70 and bank 2 \p Bank.
  auto OneKernel = [](unsigned SM, std::vector<uint8_t> Bank) {
    Module M;
    M.SM = SM;
    Kernel K;
    K.Name = "k";
    K.Code.assign(128, 0);
    K.ExitOffsets = {0x70};
    K.CfaBlockEnd = 0x80;
    K.Constant2 = std::move(Bank);
    M.Kernels.push_back(K);
    return M;
  };
  for (unsigned SM : {80u, 86u, 89u}) {
    SCOPED_TRACE(SM);
    Module M = OneKernel(SM, {8, 0, 0, 0, 0, 0, 0, 0});
    const Kernel &K = M.Kernels[0];
    Expected<CubinFile> G = buildCubin(M);
    ASSERT_TRUE(!!G) << toString(G.takeError());
    const int C2 = G->findSection(".nv.constant2.k");
    ASSERT_GE(C2, 0);
    EXPECT_EQ(G->findSection(".nv.constant0.k"), C2 + 1);
    const Section &S = G->Sections[C2];
    EXPECT_EQ(S.Data, K.Constant2);
    EXPECT_EQ(S.Flags, uint64_t(ELF::SHF_ALLOC | SHF_CUDA_INFO_LINK));
    EXPECT_EQ(S.AddrAlign, 4u);
    EXPECT_EQ(int(S.Info), G->findSection(".text.k"));
    EXPECT_EQ(S.Offset % 4, 0u);
    for (const char *Tab : {".shstrtab", ".strtab"})
      EXPECT_TRUE(tableHas(*G, Tab, ".nv.constant2.k")) << Tab;
    Expected<std::vector<Symbol>> Syms = G->symbols();
    ASSERT_TRUE(!!Syms) << toString(Syms.takeError());
    int SymC2 = -1, SymC0 = -1;
    for (size_t I = 0; I < Syms->size(); ++I) {
      if ((*Syms)[I].Shndx == unsigned(C2))
        SymC2 = I;
      if ((*Syms)[I].Shndx == unsigned(C2 + 1))
        SymC0 = I;
    }
    EXPECT_GT(SymC2, 0);
    EXPECT_EQ(SymC0, SymC2 + 1);
    Expected<Module> Back = interpretCubin(*G);
    ASSERT_TRUE(!!Back) << toString(Back.takeError());
    EXPECT_EQ(Back->Kernels[0].Constant2, K.Constant2);
    M.Kernels[0].Constant2.assign(0x10001, 0);
    Expected<CubinFile> Big = buildCubin(M);
    ASSERT_FALSE(!!Big);
    EXPECT_NE(toString(Big.takeError()).find("at most 65536"),
              std::string::npos);
  }
  for (unsigned SM : {90u, 100u}) {
    Module M = OneKernel(SM, {8, 0, 0, 0});
    Kernel &K = M.Kernels[0];
    if (SM == 100) {
      K.Mercury.emplace();
      K.Mercury->Bytes.assign(128, 0);
      K.Mercury->CodeSize = 128;
      K.Mercury->CfaBlockEnd = 0x10;
      K.Mercury->ExitOffsets = {0x70};
    }
    Expected<CubinFile> G = buildCubin(M);
    ASSERT_FALSE(!!G);
    EXPECT_NE(toString(G.takeError())
                  .find("constant bank 2 (.nv.constant2.K) is modelled on "
                        "sm_80, sm_86 and sm_89 only, not sm_" +
                        std::to_string(SM)),
              std::string::npos);
  }
}

TEST(CubinRoundTrip, DynamicSharedNote) {
  Kernel K;
  K.Name = "k";
  K.SharedBytes = 16 * 1024;
  EXPECT_EQ(dynamicSharedLaunchNote(K, 32 * 1024),
            "kernel 'k': launch with sharedMemBytes = 32768");
  EXPECT_NE(
      dynamicSharedLaunchNote(K, 64 * 1024)
          .find("CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES to 65536"),
      std::string::npos);
}

} // namespace
