//===- SassCodecTest.cpp - object::SassCodec, the ISA's .sass lines -------===//
///
/// \file
///  * every test cubin prints through SassCodec (for the target its e_flags
///    name) and parses back to the same bytes;
///  * getCubinTarget / getSassTextTarget name the right target and refuse
///    an SM tp has no tables for;
///  * encode() errors are located at their column of the .sass buffer when
///    the codec knows its SourceMgr (one diagnostic), message-only without;
///    labels resolve through the table, unknown ones are errors;
///  * a word no form matches prints as `.inst` and is reported.
///
//===----------------------------------------------------------------------===//

#include "tp/Object/SassCodec.h"
#include "TestCubins.h"
#include "tp/Support/Diagnostics.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "gtest/gtest.h"

using namespace llvm;
using namespace tp;
using namespace tp::object;
using tp::testing::allTestCubins;

namespace {

TEST(SassCodecTest, EveryTestCubinRoundTripsThroughTheCodec) {
  ASSERT_FALSE(allTestCubins().empty());
  for (const auto &C : allTestCubins()) {
    SCOPED_TRACE(C.Path);
    Expected<sass::Target> T = getCubinTarget(C.Bytes);
    ASSERT_TRUE(!!T) << toString(T.takeError());
    std::string Text;
    raw_string_ostream OS(Text);
    Error E = disassembleCubinToSass(C.Bytes, OS, getSassOptions(*T));
    ASSERT_FALSE(!!E) << toString(std::move(E));
    SourceMgr SM;
    unsigned ID = SM.AddNewSourceBuffer(
        MemoryBuffer::getMemBufferCopy(OS.str(), "x.sass"), SMLoc());
    EXPECT_EQ(getSassTextTarget(OS.str()), *T);
    SassCodec Codec(*T);
    Codec.setSourceMgr(&SM);
    SassOptions Opts = getSassOptions(*T);
    Opts.Codec = &Codec;
    Expected<std::vector<uint8_t>> Back = assembleCubin(SM, ID, Opts);
    ASSERT_TRUE(!!Back) << toString(Back.takeError());
    EXPECT_TRUE(*Back == C.Bytes);
  }
}

TEST(SassCodecTest, Targets) {
  EXPECT_EQ(getSassTextTarget(".target sm_90\n"), sass::Target::SM90);
  EXPECT_EQ(getSassTextTarget("// x\n.target sm_86\n"), sass::Target::SM86);
  EXPECT_EQ(getSassTextTarget(".raw_cubin\n.elf_header ident=00 flags=0x6005a04 "
                              "ehsize=64\n"),
            sass::Target::SM90);
  EXPECT_EQ(getSassTextTarget(""), sass::Target::SM86);
  std::vector<uint8_t> Header(64, 0);
  Header[0x31] = 90;
  Expected<sass::Target> T = getCubinTarget(Header);
  ASSERT_TRUE(!!T);
  EXPECT_EQ(*T, sass::Target::SM90);
  Header[0x31] = 80;
  T = getCubinTarget(Header);
  ASSERT_TRUE(!!T);
  EXPECT_EQ(*T, sass::Target::SM80);
  Header[0x31] = 89;
  T = getCubinTarget(Header);
  ASSERT_TRUE(!!T);
  EXPECT_EQ(*T, sass::Target::SM89);
  Header[0x31] = 75;
  T = getCubinTarget(Header);
  ASSERT_FALSE(!!T);
  EXPECT_EQ(toString(T.takeError()),
            "the cubin is for sm_75 (ELF e_flags), which tp does not support "
            "(sm_80, sm_86, sm_89, sm_90, sm_90a, sm_100, sm_120 or sm_121)");
  EXPECT_EQ(getCubinSM(ArrayRef<uint8_t>(Header).take_front(10)), 0u);
  T = getCubinTarget(ArrayRef<uint8_t>(Header).take_front(10));
  ASSERT_FALSE(!!T);
  EXPECT_EQ(toString(T.takeError()), "truncated cubin: 10 bytes, shorter "
                                     "than an ELF64 header (64 bytes)");
}

TEST(SassCodecTest, EncodeErrorsAreLocatedInTheBuffer) {
  SourceMgr SM;
  StringRef Line = "  BRA .L_x_0 {stall=5 wr=9}";
  SM.AddNewSourceBuffer(MemoryBuffer::getMemBuffer(Line, "k.sass"), SMLoc());
  StringRef Text = SM.getMemoryBuffer(1)->getBuffer().trim();
  StringMap<uint64_t> Labels;
  Labels[".L_x_0"] = 0x100;
  std::array<uint8_t, 16> W;
  SassCodec Codec;
  Codec.setSourceMgr(&SM);
  Error E = Codec.encode(Text, 0, Labels, W);
  ASSERT_TRUE(E.isA<SourceError>());
  std::string Msg = toString(std::move(E));
  EXPECT_EQ(Msg.find("k.sass:1:26: error: scoreboard 9 is not 0..5"), 0u)
      << Msg;
  EXPECT_EQ(Msg.find("<instruction>"), std::string::npos) << Msg;
  // Without the SourceMgr: the message only.
  SassCodec Plain;
  E = Plain.encode(Text, 0, Labels, W);
  ASSERT_FALSE(E.isA<SourceError>());
  EXPECT_EQ(toString(std::move(E)), "scoreboard 9 is not 0..5 (or 7, none)");
  // A label resolves; a name not in the table is an undefined label.
  ASSERT_FALSE(!!Plain.encode("BRA .L_x_0", 0, Labels, W));
  E = Plain.encode("BRA .L_nowhere", 0, Labels, W);
  EXPECT_EQ(toString(std::move(E)), "undefined label '.L_nowhere'");
}

TEST(SassCodecTest, UnknownWordsPrintAsInstAndAreReported) {
  // IMAD with bit 100 set: no form.
  std::array<uint8_t, 16> Word;
  uint64_t Lo = 0x00000a00ff017624, Hi = 0x000000100f8e00ff;
  for (int I = 0; I < 8; ++I) {
    Word[I] = uint8_t(Lo >> (8 * I));
    Word[8 + I] = uint8_t(Hi >> (8 * I));
  }
  SassCodec Codec;
  std::vector<std::string> Reports;
  Codec.OnRawWord = [&](const std::string &Why) { Reports.push_back(Why); };
  Expected<std::string> T = Codec.decode(Word, 0x10, {});
  ASSERT_TRUE(!!T);
  EXPECT_EQ(*T, ".inst 0x000000100f8e00ff00000a00ff017624");
  ASSERT_EQ(Reports.size(), 1u);
  EXPECT_EQ(Reports[0], "unknown instruction at address 0x0010: "
                        "0x000000100f8e00ff00000a00ff017624; printed as .inst");
  // `.inst` encodes back to the word.
  std::array<uint8_t, 16> Again;
  ASSERT_FALSE(!!Codec.encode(*T, 0x10, {}, Again));
  EXPECT_TRUE(Again == Word);
}

} // namespace
