//===- SM90APITest.cpp - The target parameter of the ISA API ---------------===//
///
/// \file
/// td/Targets.td through the C++ API: target lookup, forms that exist on one
/// target only (VIADD), a form encoded differently on sm_90 (BRA's split
/// offset: ptxas 13's words), and words one target knows and the other
/// rejects -- never decoded wrongly.
///
//===----------------------------------------------------------------------===//

#include "tp/Target/SASS/SASS.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "gtest/gtest.h"

using namespace tp;
using namespace tp::sass;
using namespace llvm;

namespace {

Word128 word(uint64_t Hi, uint64_t Lo) {
  Word128 W;
  W.Hi = Hi;
  W.Lo = Lo;
  return W;
}

Expected<Instruction> parseAt(StringRef Text, uint64_t Addr, Target T) {
  static SourceMgr SM; // buffers must outlive the errors' locations
  SM.AddNewSourceBuffer(MemoryBuffer::getMemBufferCopy(Text, "t"), SMLoc());
  return parse(SM.getMemoryBuffer(SM.getNumBuffers())->getBuffer(), Addr, SM,
               T);
}

TEST(SM90API, Targets) {
  Target T;
  ASSERT_TRUE(lookupTarget("sm_90", T));
  EXPECT_EQ(T, Target::SM90);
  EXPECT_EQ(getTargetSM(T), 90u);
  EXPECT_EQ(getTargetName(T), "sm_90");
  ASSERT_TRUE(lookupTarget("sm_86", T));
  EXPECT_EQ(T, Target::SM86);
  ASSERT_TRUE(lookupTarget("sm_80", T)); // its own target, sm_86's encodings
  EXPECT_EQ(T, Target::SM80);
  EXPECT_EQ(getTargetSM(T), 80u);
  ASSERT_TRUE(lookupTarget("sm_89", T));
  EXPECT_EQ(T, Target::SM89);
  EXPECT_EQ(getTargetName(T), "sm_89");
  EXPECT_FALSE(lookupTarget("sm_75", T));
  EXPECT_EQ(getTargetList(), "sm_80, sm_86, sm_89, sm_90, sm_90a, sm_100, sm_120 or sm_121");
  // sm_86 stays the default, Target(0).
  EXPECT_EQ(unsigned(Target::SM86), 0u);
}

// The targets' facts (td/Targets.td) as ptxas writes them.
TEST(SM90API, TargetFacts) {
  EXPECT_EQ(getTargetInfo(Target::SM80).getELFFlags(80), 0x06005004u);
  EXPECT_EQ(getTargetInfo(Target::SM89).getELFFlags(89), 0x06005904u);
  EXPECT_EQ(getTargetInfo(Target::SM80).ParamBase, 0x160u);
  EXPECT_EQ(getTargetInfo(Target::SM89).DescriptorSlot, 0x118u);
  EXPECT_EQ(getTargetInfo(Target::SM80).MaxSharedBytesPerBlock, 166912u);
  EXPECT_EQ(getTargetInfo(Target::SM89).MaxSharedBytesPerBlock, 101376u);
}

// sm_80 and sm_89 encode every form as sm_86 does (td/Targets.td), but
// sm_80 has no I2FP.F32 and no F2IP (nvdisasm 11.8's SM80 tables know
// neither).
TEST(SM90API, SM80AndSM89AreSM86Encodings) {
  for (unsigned Op = 0; Op < getNumOpcodes(); ++Op) {
    StringRef Name = getInstrInfo(Opcode(Op)).Name;
    bool NotSM80 = Name.startswith("I2FP_F32_") || Name == "F2IP";
    EXPECT_EQ(isAvailable(Op, Target::SM80),
              isAvailable(Op, Target::SM86) && !NotSM80)
        << Name.str();
    EXPECT_EQ(isAvailable(Op, Target::SM89), isAvailable(Op, Target::SM86));
  }
}

TEST(SM90API, OnlyOn) {
  Opcode V, B;
  ASSERT_TRUE(lookupOpcode("VIADD_rir", V));
  ASSERT_TRUE(lookupOpcode("BRA", B));
  EXPECT_TRUE(isAvailable(V, Target::SM90));
  EXPECT_FALSE(isAvailable(V, Target::SM86));
  EXPECT_TRUE(isAvailable(B, Target::SM86));
  EXPECT_TRUE(isAvailable(B, Target::SM90));
  Expected<Instruction> I = parseAt("VIADD R10, R10, 0x1", 0, Target::SM90);
  ASSERT_TRUE(!!I) << toString(I.takeError());
  EXPECT_FALSE(!!verify(*I, Target::SM90));
  Error E = verify(*I, Target::SM86);
  ASSERT_TRUE(!!E);
  EXPECT_NE(toString(std::move(E)).find("does not exist on sm_86"),
            std::string::npos);
  Expected<Instruction> J = parseAt("VIADD R10, R10, 0x1", 0, Target::SM86);
  ASSERT_FALSE(!!J);
  EXPECT_NE(toString(J.takeError()).find("does not exist on sm_86"),
            std::string::npos);
}

TEST(SM90API, BranchOffsets) {
  // ptxas 13, sm_90: `BRA 0x330` at 0x330 (the closing self-loop) and
  // `@!P0 BRA 0x2c0` at 0x50 (test/MC/SM90/sm90.txt).
  struct Case {
    uint64_t Addr, Target, Hi, Lo;
  } Cases[] = {{0x330, 0x330, 0x000fc0000383ffffull, 0xfffffffc00fc7947ull},
               {0x50, 0x2c0, 0x000fea0003800000ull, 0x0000000000988947ull},
               {0x1d0, 0x130, 0x000fea000383ffffull, 0xfffffffc00d49947ull}};
  for (const Case &C : Cases) {
    SCOPED_TRACE(C.Addr);
    Instruction I;
    ASSERT_TRUE(decode(word(C.Hi, C.Lo), I, Target::SM90));
    unsigned K = getInstrInfo(I.Op).NumOperands - 1;
    EXPECT_EQ(getBranchTarget(C.Addr, I.Ops[K]), C.Target);
    EXPECT_EQ(encode(I, Target::SM90), word(C.Hi, C.Lo));
    // The same instruction for sm_86: the offset in [34:81] only.
    Word128 W86 = encode(I, Target::SM86);
    EXPECT_EQ(W86.Lo & 0xff0000, 0u);
    Instruction J;
    ASSERT_TRUE(decode(W86, J, Target::SM86));
    EXPECT_EQ(getBranchTarget(C.Addr, J.Ops[K]), C.Target);
    // sm_86 fixes [16:23] of BRA to 0: the sm_90 word is unknown there.
    Instruction X;
    EXPECT_FALSE(decode(word(C.Hi, C.Lo), X, Target::SM86));
  }
}

TEST(SM90API, SameWordsElsewhere) {
  // An LDC.64 and an HMMA.16816.F32 (ptxas words) mean the same on both.
  Word128 Ws[] = {word(0x000ee20000000a00ull, 0x00008800ff027b82ull),
                  word(0x0c0ff60000001810ull, 0x00000008040c723cull)};
  for (Word128 W : Ws) {
    Instruction A, B;
    ASSERT_TRUE(decode(W, A, Target::SM86));
    ASSERT_TRUE(decode(W, B, Target::SM90));
    EXPECT_EQ(A.Op, B.Op);
    EXPECT_EQ(encode(A, Target::SM86), W);
    EXPECT_EQ(encode(B, Target::SM90), W);
  }
}

} // namespace
