//===- DescribeTest.cpp - The scheduling view of parsed sm_86 text --------===//
//
// describe() on real instructions: registers and widths from the td
// operands (pairs of `[Rx.64]` included), the class from the td schedule
// class, late reads, the shared offset, DEPBAR's scoreboard and count,
// guards (uniform ones too), never-executing fillers.
//
//===----------------------------------------------------------------------===//

#include "tp/Target/SASS/Schedule.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include "gtest/gtest.h"

using namespace llvm;
using namespace tp;
using namespace tp::sched;

namespace {

SchedInstr view(StringRef Text) {
  SourceMgr SM;
  SM.AddNewSourceBuffer(MemoryBuffer::getMemBufferCopy(Text, "t"), SMLoc());
  Expected<sass::Instruction> I =
      sass::parse(SM.getMemoryBuffer(1)->getBuffer(), 0, SM);
  EXPECT_TRUE(bool(I)) << toString(I.takeError());
  if (!I)
    return SchedInstr();
  Expected<SchedInstr> S = describe(*I);
  EXPECT_TRUE(bool(S)) << toString(S.takeError());
  return S ? *S : SchedInstr();
}

bool has(ArrayRef<RegRange> Rs, RegFile F, unsigned First, unsigned Count) {
  for (const RegRange &R : Rs)
    if (R.File == F && R.First == First && R.Count == Count)
      return true;
  return false;
}
std::vector<RegRange> uses(const SchedInstr &S) {
  std::vector<RegRange> R;
  for (const RegUse &U : S.Uses)
    R.push_back(U.Regs);
  return R;
}

TEST(Describe, HmmaTuplesAndClass) {
  SchedInstr S = view("HMMA.16816.F32 R16, R8.reuse, R12, R16");
  EXPECT_EQ(S.Class, InstrClass::MMA16816);
  EXPECT_EQ(S.Name, "HMMA.16816.F32");
  EXPECT_TRUE(has(S.Defs, RegFile::GPR, 16, 4));
  EXPECT_TRUE(has(uses(S), RegFile::GPR, 8, 4));
  EXPECT_TRUE(has(uses(S), RegFile::GPR, 12, 2));
  EXPECT_TRUE(has(uses(S), RegFile::GPR, 16, 4));
  EXPECT_EQ(S.Ctrl.Reuse, 1);
}

// Read scoreboards follow the td (a variable-latency form with LateRead
// operands and no register result), not a list of mnemonics: the local and
// generic stores need one as STG and STS do (ptxas 13 gives `STL [R3+0x18],
// R7` rd=0, test/MC/Inputs/local_memory.ptx), loads do not (their write
// scoreboard covers the address), nor do fixed-latency ops.
TEST(Describe, ReadScoreboardFromTheTd) {
  EXPECT_TRUE(view("STG.E.64 [R2.64+UR4], R4").NeedsReadSB);
  EXPECT_TRUE(view("STS.128 [R2], R4").NeedsReadSB);
  EXPECT_TRUE(view("STL [R3+0x18], R7").NeedsReadSB);
  EXPECT_TRUE(view("STL.128 [R3], R4").NeedsReadSB);
  EXPECT_FALSE(view("LDG.E.64 R4, [R2.64+UR4]").NeedsReadSB);
  EXPECT_FALSE(view("LDS.128 R4, [R2]").NeedsReadSB);
  EXPECT_FALSE(view("IADD3 R1, R2, R3, RZ").NeedsReadSB);
  EXPECT_TRUE(makeInstr("STL").NeedsReadSB);
  EXPECT_FALSE(makeInstr("LDG").NeedsReadSB);
}

TEST(Describe, CopyReadsLateWithItsSharedOffset) {
  SchedInstr S = view("LDGSTS.E.BYPASS.128 [R26+0x800], [R10.64]");
  EXPECT_EQ(S.Kind, SpecialKind::AsyncCopy);
  EXPECT_EQ(S.Class, InstrClass::DecoupledAgu);
  EXPECT_TRUE(S.NeedsReadSB);
  EXPECT_EQ(S.SharedOffset, 0x800);
  EXPECT_TRUE(S.Defs.empty());
  EXPECT_TRUE(has(uses(S), RegFile::GPR, 26, 1));
  EXPECT_TRUE(has(uses(S), RegFile::GPR, 10, 2)); // the .64 pair
  for (const RegUse &U : S.Uses)
    EXPECT_TRUE(U.Late);
}

TEST(Describe, LdsmAndDepbar) {
  SchedInstr L = view("LDSM.16.MT88.4 R64, [R34+0x1400]");
  EXPECT_EQ(L.Kind, SpecialKind::SharedMatrixLoad);
  EXPECT_EQ(L.SharedOffset, 0x1400);
  EXPECT_TRUE(has(L.Defs, RegFile::GPR, 64, 4));
  SchedInstr D = view("DEPBAR.LE SB0, 0x2");
  EXPECT_EQ(D.Kind, SpecialKind::WaitGroups);
  EXPECT_EQ(D.WaitSB, 0);
  EXPECT_EQ(D.WaitCount, 2);
  EXPECT_EQ(view("LDGDEPBAR").Kind, SpecialKind::CommitGroup);
  EXPECT_EQ(view("BAR.SYNC 0x0").Kind, SpecialKind::Barrier);
}

TEST(Describe, WideMultiplySlotsAndCarry) {
  SchedInstr W = view("IMAD.WIDE R10, R90, R5, RZ");
  EXPECT_EQ(W.Class, InstrClass::IMADWide);
  EXPECT_TRUE(has(W.Defs, RegFile::GPR, 10, 2));
  for (const RegUse &U : W.Uses)
    EXPECT_EQ(U.Slot, ReadSlot::IMADWideAB);
  SchedInstr X = view("IMAD.X R7, R1, 0x1, R7, P1");
  EXPECT_EQ(X.Class, InstrClass::CoupledFMA);
  EXPECT_TRUE(has(uses(X), RegFile::Pred, 1, 1));
  SchedInstr C = view("IADD3 R2, P0, R0, R1, RZ");
  EXPECT_TRUE(has(C.Defs, RegFile::Pred, 0, 1));
}

TEST(Describe, GuardsAndFillers) {
  SchedInstr G = view("@P1 BRA 0x0");
  EXPECT_TRUE(G.Predicated);
  ASSERT_FALSE(G.Uses.empty());
  EXPECT_EQ(G.Uses.back().How, PredRead::Guard);
  EXPECT_EQ(G.Kind, SpecialKind::Branch);
  SchedInstr F = view("@!UPT UIADD3 URZ, URZ, URZ, URZ");
  EXPECT_TRUE(F.NeverExecutes);
  EXPECT_TRUE(F.Uses.empty()); // URZ carries no dependency
  SchedInstr U = view("@UP0 UIADD3 UR4, UR4, 0x1, URZ");
  EXPECT_TRUE(has(uses(U), RegFile::UPred, 0, 1));
  EXPECT_EQ(U.Class, InstrClass::UniformALU);
  SchedInstr S = view("S2R R0, SR_TID.X");
  EXPECT_EQ(S.Class, InstrClass::Decoupled);
  EXPECT_TRUE(has(S.Defs, RegFile::GPR, 0, 1));
}

} // namespace

TEST(Describe, HandMadeInstructionsTakeTheTdClass) {
  // makeInstr and describe() read one source, the td's schedule classes.
  EXPECT_EQ(makeInstr("IMAD.WIDE").Class, InstrClass::IMADWide);
  EXPECT_EQ(makeInstr("IMAD").Class, InstrClass::CoupledFMA);
  EXPECT_EQ(makeInstr("HMMA.16816").Class, InstrClass::MMA16816);
  EXPECT_EQ(makeInstr("LDC").Class, InstrClass::Decoupled); // ConstLoad
  EXPECT_EQ(makeInstr("DADD").Class, InstrClass::FP64);
  EXPECT_EQ(makeInstr("BAR.SYNC").Class, InstrClass::DecoupledAgu);
  EXPECT_EQ(makeInstr("NOP").Class, InstrClass::Nop);
  EXPECT_EQ(makeInstr("NOT_A_MNEMONIC").Class, InstrClass::CoupledALU);
  for (StringRef Text : {"IMAD.WIDE R2, R3, R4, R6", "DADD R2, R4, R6",
                         "LDC R1, c[0x0][0x28]"})
    EXPECT_EQ(view(Text).Class, makeInstr(Text.split(' ').first).Class)
        << Text.str();
}
