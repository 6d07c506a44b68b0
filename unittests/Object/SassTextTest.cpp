//===- SassTextTest.cpp - .sass print/parse round trips and errors --------===//
///
/// \file
///  * every test cubin: printSass then parseSass gives the same bytes, in
///    the form printSass picks and in the raw form;
///  * the kernel form is picked for every executable sm_80/86 cubin;
///  * a hand-written kernel-form file (test/Object/Inputs/tiny_store.sass)
///    assembles to exactly what ptxas builds from tiny_store_sm86.ptx;
///  * malformed text gives line:column errors.
///
//===----------------------------------------------------------------------===//

#include "tp/Object/SassText.h"
#include "TestCubins.h"
#include "tp/Object/Dump.h"
#include "llvm/Support/MemoryBuffer.h"
#include "gtest/gtest.h"

using namespace llvm;
using namespace tp::object;
using tp::testing::allTestCubins;

namespace {

std::string printed(const CubinFile &F, bool Raw) {
  std::string S;
  raw_string_ostream OS(S);
  SassOptions O;
  O.ForceRaw = Raw;
  Error E = printSass(F, OS, O);
  EXPECT_FALSE(!!E) << toString(std::move(E));
  return OS.str();
}

std::vector<uint8_t> bytesOf(const CubinFile &F) {
  std::vector<uint8_t> B;
  Error E = writeCubinFile(F, B);
  EXPECT_FALSE(!!E) << toString(std::move(E));
  return B;
}

TEST(SassText, RoundTripEveryCubin) {
  unsigned KernelForm = 0, RawForm = 0;
  for (const auto &C : allTestCubins()) {
    SCOPED_TRACE(C.Path);
    Expected<CubinFile> F = readCubinFile(C.Bytes);
    ASSERT_TRUE(!!F) << toString(F.takeError());
    for (bool Raw : {false, true}) {
      std::string Text = printed(*F, Raw);
      bool IsKernelForm = Text.find(".raw_cubin") == std::string::npos;
      if (!Raw)
        (IsKernelForm ? KernelForm : RawForm)++;
      Expected<CubinFile> G = parseSassString(Text);
      ASSERT_TRUE(!!G) << toString(G.takeError());
      EXPECT_EQ(bytesOf(*G), C.Bytes) << (Raw ? "raw form" : "chosen form");
      // Printing again is stable.
      EXPECT_EQ(printed(*G, Raw), Text);
    }
    bool Exec = tp::testing::expectBuildable(C);
    EXPECT_EQ(printed(*F, false).find(".raw_cubin") == std::string::npos, Exec);
  }
  EXPECT_GE(KernelForm, 7u);
  EXPECT_GE(RawForm, 3u);
}

TEST(SassText, HandWrittenKernelMatchesPtxas) {
  std::string Built = tp::testing::runPtxas(
      std::string(TP_SHARED_DIR) + "/reference/ptx/tiny_store_sm86.ptx", false);
  if (Built.empty())
    GTEST_SKIP() << "ptxas not available";
  std::vector<uint8_t> Ref = tp::testing::readBytes(Built);
  std::vector<uint8_t> Src = tp::testing::readBytes(
      std::string(TP_OBJECT_INPUTS) + "/tiny_store.sass");
  ASSERT_FALSE(Src.empty());
  Expected<CubinFile> F = parseSassString(
      StringRef(reinterpret_cast<const char *>(Src.data()), Src.size()),
      "tiny_store.sass");
  ASSERT_TRUE(!!F) << toString(F.takeError());
  Expected<CubinFile> R = readCubinFile(Ref);
  ASSERT_TRUE(!!R);
  std::string DA, DB;
  raw_string_ostream A(DA), B(DB);
  ASSERT_FALSE(!!dumpCubin(*F, A));
  ASSERT_FALSE(!!dumpCubin(*R, B));
  EXPECT_EQ(A.str(), B.str());
  EXPECT_EQ(bytesOf(*F), Ref);
}

TEST(SassText, HugeRawLayoutIsAnError) {
  Expected<CubinFile> F = parseSassString(
      ".raw_cubin\n.elf_header ident=7f454c46020101410800000000000000 type=2 "
      "machine=190 version=1 entry=0 phoff=0 shoff=0x40 flags=0x6005604 "
      "ehsize=64 phentsize=56 shentsize=64 shstrndx=0\n.file_size "
      "0xf0000000\n");
  ASSERT_TRUE(!!F) << toString(F.takeError());
  std::vector<uint8_t> Out;
  Error E = writeCubinFile(*F, Out);
  ASSERT_TRUE(!!E);
  EXPECT_NE(toString(std::move(E)).find("more than 1 GiB"), std::string::npos);
}

TEST(SassText, ToolEntryPoints) {
  std::vector<uint8_t> B = tp::testing::readBytes(
      std::string(TP_SHARED_DIR) + "/reference/cubin/mma_tile_sm86.cubin");
  std::string Text;
  raw_string_ostream OS(Text);
  ASSERT_FALSE(!!disassembleCubinToSass(B, OS));
  EXPECT_NE(OS.str().find(".kernel mma_tile\n.param 0 8\n.param 8 8\n"
                          ".param 16 8\n.regs 22\n.barriers 1\n"
                          ".shared 512 align=16\n.reqntid 32 1 1\n"),
            std::string::npos);
  SourceMgr SM;
  unsigned ID =
      SM.AddNewSourceBuffer(MemoryBuffer::getMemBufferCopy(OS.str()), SMLoc());
  Expected<std::vector<uint8_t>> Out = assembleCubin(SM, ID);
  ASSERT_TRUE(!!Out) << toString(Out.takeError());
  EXPECT_EQ(*Out, B);
}

struct BadCase {
  const char *Text;
  const char *Expect;
};

TEST(SassText, Errors) {
  const BadCase Cases[] = {
      {".target sm_75\n", "<sass>:1:9: error: unknown target 'sm_75'"},
      {".target sm_86\n.regs 3\n",
       "<sass>:2:1: error: unknown or misplaced directive '.regs'"},
      {".target sm_86\n.kernel k\n.regs 300\n",
       "<sass>:3:7: error: value 300 is out of range (at most 255)"},
      {".target sm_86\n.kernel k\n.param 0\n",
       "<sass>:3:1: error: expected '.param <offset> <size>"},
      {".target sm_86\n.kernel k\n  .inst 0x12\n.end_kernel\n",
       "<sass>:3:3: error: expected 32 hex digits after '.inst 0x', found "
       "'12'"},
      {".target sm_86\n.kernel k\n  MOV R1, R2\n.end_kernel\n",
       "<sass>:3:3: error: expected '.inst 0x<32 hex digits>'"},
      {".target sm_86\n.kernel k\n", "<sass>:2:1: error: kernel 'k' has no "
                                     "'.end_kernel'"},
      {".target sm_86\n.kernel k\nL:\nL:\n",
       "<sass>:4:1: error: label 'L' defined twice"},
      {".target sm_86\n.kernel k\n.end_kernel\n",
       "<sass>:3:1: error: kernel 'k' has no instructions"},
      {".target sm_86\n.kernel k\n  .inst 0x000fc000000000000000000000007918\n"
       ".end_kernel\n",
       "<sass>:1:1: error: kernel 'k': code size 0x10 is not a positive "
       "multiple of 128 bytes"},
      {".target sm_90\n.kernel k\n.shared 0 unused align=16\n",
       "<sass>:3:18: error: expected 'unused'"},
      {".target sm_90\n.kernel k\n.shared unused\n",
       "<sass>:3:9: error: "},
      {".target sm_86\n.tool_note 2 \"a\n",
       "<sass>:2:14: error: unterminated string"},
      {".target sm_86\n.kernel k\n.info during_exit REGCOUNT SVAL 1\n",
       "<sass>:3:1: error: expected '.info before_exit|after_exit"},
      {".target sm_86\n.kernel k\n.info after_exit NOPE SVAL 1\n",
       "<sass>:3:18: error: unknown attribute 'NOPE'"},
      {".target sm_86\n.kernel k\n.info after_exit 0x5f HVAL 1 2\n",
       "<sass>:3:30: error: a HVAL takes one value"},
      {".raw_cubin\n.section 1 \"x\" name=0\n",
       "<sass>:2:10: error: expected section index 0"},
      {".raw_cubin\n.section 0 \"\" name=0 type=0\n",
       "<sass>:2:1: error: missing key 'flags'"},
      {".raw_cubin\n.bytes 00\n",
       "<sass>:2:1: error: '.bytes' outside a data section"},
      {".raw_cubin\n.phdr type=1 colour=2\n",
       "<sass>:2:14: error: unknown key 'colour'"},
  };
  for (const BadCase &C : Cases) {
    SCOPED_TRACE(C.Text);
    Expected<CubinFile> F = parseSassString(C.Text);
    ASSERT_FALSE(!!F);
    std::string E = toString(F.takeError());
    EXPECT_NE(E.find(C.Expect), std::string::npos) << "got: " << E;
  }
}

} // namespace
