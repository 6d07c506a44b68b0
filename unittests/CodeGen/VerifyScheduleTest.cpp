//===- VerifyScheduleTest.cpp - Each hazard class, and the mutation test --===//
//
// Hand-set control fields that break one rule each, with the exact message;
// then the mutation test over a kernel-shaped checked program: every stall
// a dependency needs lowered by one, every needed wait bit dropped, each
// mutant must be reported.
//
//===----------------------------------------------------------------------===//

#include "SchedTestUtil.h"

#include "gtest/gtest.h"

#include <cstdio>

using namespace tp;
using namespace tp::sched;
using namespace tp::sched::test;

namespace {

SchedInstr at(SchedInstr I, unsigned Stall, uint8_t Wait = 0, uint8_t Wr = 7,
              uint8_t Rd = 7) {
  I.Ctrl.Stall = uint8_t(Stall);
  I.Ctrl.WaitMask = Wait;
  I.Ctrl.WrSB = Wr;
  I.Ctrl.RdSB = Rd;
  return I;
}

std::string only(const InstrSeq &P) {
  std::vector<Hazard> H = verifySchedule(P);
  if (H.empty())
    return "";
  std::string S;
  for (const Hazard &X : H)
    S += formatHazard(X, nullptr);
  return S;
}

TEST(VerifySchedule, FixedLatencyRead) {
  InstrSeq P = {at(mk("IMAD", {gpr(12)}, {gpr(0)}), 3),
             at(mk("IADD3", {gpr(13)}, {gpr(12)}), 1)};
  EXPECT_EQ(only(P), "0x0010: error: R12 read by IADD3 3 cycles after IMAD "
                     "at 0x0000 wrote it; needs 5\n");
  P[0].Ctrl.Stall = 5;
  EXPECT_EQ(only(P), "");
}

TEST(VerifySchedule, HmmaConsumer) {
  InstrSeq P = {at(hmma(16, 8, 12), 8), at(hmma(16, 8, 14), 1)};
  // One report per producer and kind, not one per register of D.
  EXPECT_EQ(only(P), "0x0010: error: R16 read by HMMA.16816.F32 8 cycles "
                     "after HMMA.16816.F32 at 0x0000 wrote it; needs 24\n"
                     "0x0010: error: R16 rewritten by HMMA.16816.F32 8 "
                     "cycles after HMMA.16816.F32 at 0x0000 wrote it; needs "
                     "24\n");
  // Over a filler: 15 + 9.
  SchedInstr F = makeInstr("NOP");
  F.NeverExecutes = true;
  InstrSeq Q = {at(hmma(16, 8, 12), 15), at(F, 9), at(hmma(16, 8, 14), 1)};
  EXPECT_EQ(only(Q), "");
}

TEST(VerifySchedule, GuardPredicate) {
  InstrSeq P = {at(mk("ISETP.GT.AND", {pred(1)}, {gpr(4)}), 12),
             at(mk("IADD3", {gpr(5)}, {gpr(6)}).guard(1), 1)};
  EXPECT_EQ(only(P), "0x0010: error: P1 read by IADD3 (guard) 12 cycles "
                     "after ISETP.GT.AND at 0x0000 wrote it; needs 13\n");
}

TEST(VerifySchedule, ScoreboardNotWaited) {
  InstrSeq P = {at(ldsm(8, 60, 0), 2, 0, 1), at(hmma(16, 8, 12), 1)};
  std::string S = only(P);
  EXPECT_NE(S.find("0x0010: error: R8 read by HMMA.16816.F32 before "
                   "LDSM.16.M88.4 at 0x0000 wrote it (write scoreboard SB1 "
                   "not waited on)"),
            std::string::npos)
      << S;
  P[1].Ctrl.WaitMask = 1u << 1;
  EXPECT_EQ(only(P), "");
  // Waiting on the wrong scoreboard does not help.
  P[1].Ctrl.WaitMask = 1u << 2;
  EXPECT_NE(only(P), "");
  // A producer without a write scoreboard can never be waited for.
  InstrSeq Q = {at(ldsm(8, 60, 0), 2), at(hmma(16, 8, 12), 1, 0x3f)};
  EXPECT_NE(only(Q).find("(it has no write scoreboard)"), std::string::npos);
}

TEST(VerifySchedule, WaitTooSoonAfterTheScoreboardWasSet) {
  InstrSeq P = {at(ldsm(8, 60, 0), 1, 0, 1), at(hmma(16, 8, 12), 1, 1u << 1)};
  EXPECT_NE(only(P).find("the wait at 0x0010 came 1 cycles after it was "
                         "set, needs 2"),
            std::string::npos)
      << only(P);
}

TEST(VerifySchedule, CopySourceOverwrittenInFlight) {
  InstrSeq P = {at(ldgsts(26, 0, 10), 2, 0, 7, 3),
             at(mk("IMAD.WIDE", {gpr(10, 2)}, {gpr(90), gpr(5)}), 1)};
  EXPECT_EQ(only(P), "0x0010: error: R10 overwritten by IMAD.WIDE while "
                     "LDGSTS.E.BYPASS.128 at 0x0000 still reads it (read "
                     "scoreboard SB3 not waited on)\n");
  P[1].Ctrl.WaitMask = 1u << 3;
  EXPECT_EQ(only(P), "");
}

TEST(VerifySchedule, WriteAfterWriteAndWriteAfterRead) {
  InstrSeq W = {at(mk("IADD3", {gpr(4)}, {gpr(0)}), 1),
             at(mk("LDG.E", {gpr(4)}, {gpr(8, 2)}), 1, 0, 2)};
  EXPECT_EQ(only(W), "0x0010: error: R4 rewritten by LDG.E 1 cycles after "
                     "IADD3 at 0x0000 wrote it; needs 5\n");
  InstrSeq R = {at(mk("IADD3", {gpr(5)}, {gpr(4)}), 1),
             at(mk("LDG.E", {gpr(4)}, {gpr(8, 2)}), 1, 0, 2)};
  EXPECT_EQ(only(R), "0x0010: error: R4 rewritten by LDG.E 1 cycles after "
                     "IADD3 at 0x0000 read it; needs 2\n");
}

TEST(VerifySchedule, BarrierAndDepbarBlockTheWarp) {
  InstrSeq P = {at(makeInstr("BAR.SYNC"), 5), at(mk("MOV", {gpr(1)}, {}), 1)};
  EXPECT_EQ(only(P), "0x0000: error: BAR.SYNC has stall 5; it blocks the "
                     "warp 6 cycles\n");
}

// The seed's shared stages: the copies of stage 0 (A at +0x0, B at +0x800)
// grouped, waited for, made visible by the barrier, then read.
InstrSeq stagedRead(bool Depbar, bool Barrier) {
  InstrSeq P = {at(ldgsts(26, 0, 10), 1, 0, 7, 3),
             at(ldgsts(30, 0x800, 18), 1, 0, 7, 3),
             at(makeInstr("LDGDEPBAR"), 1, 0, 0)};
  if (Depbar)
    P.push_back(at(depbar(0), 4));
  if (Barrier)
    P.push_back(at(makeInstr("BAR.SYNC"), 6));
  P.push_back(at(ldsm(64, 34, 0x400), 2, 0, 1));
  P.push_back(at(hmma(80, 64, 68), 1, 1u << 1));
  return P;
}

TEST(VerifySchedule, SharedStageReadBeforeItsGroupIsVisible) {
  EXPECT_EQ(only(stagedRead(true, true)), "");
  EXPECT_EQ(only(stagedRead(false, true)),
            "0x0040: error: shared stage at +0x0 read by LDSM.16.M88.4 "
            "before its group's DEPBAR wait and the barrier (written by "
            "LDGSTS at 0x0000)\n");
  EXPECT_EQ(only(stagedRead(true, false)),
            "0x0040: error: shared stage at +0x0 read by LDSM.16.M88.4 "
            "after its group's DEPBAR wait but before a barrier (written by "
            "LDGSTS at 0x0000)\n");
}

TEST(VerifySchedule, SharedStageRewrittenWhileWarpsMayRead) {
  InstrSeq P = stagedRead(true, true);
  P.push_back(at(ldgsts(26, 0, 10), 1, 0, 7, 3));
  EXPECT_EQ(only(P), "0x0070: error: shared stage at +0x0 overwritten by "
                     "LDGSTS.E.BYPASS.128 while other warps may still read "
                     "it: no barrier since LDSM.16.M88.4 at 0x0050\n");
  P.insert(P.end() - 1, at(makeInstr("BAR.SYNC"), 6));
  EXPECT_EQ(only(P), "");
}

TEST(VerifySchedule, BarrierPassingAnLdsmInFlight) {
  InstrSeq P = stagedRead(true, true);
  P.push_back(at(ldsm(72, 34, 0x400), 2, 0, 1));
  P.push_back(at(makeInstr("BAR.SYNC"), 6));
  EXPECT_NE(only(P).find("BAR.SYNC while LDSM.16.M88.4 at 0x0070 may still "
                         "read shared memory (SB1 not waited on)"),
            std::string::npos);
}

void mutationTest(const KernelShape &S, const char *What) {
  Checked C;
  llvm::Error E = buildChecked(S, CompactOptions(), C);
  ASSERT_FALSE(bool(E)) << llvm::toString(std::move(E));
  // The whole checked program (prologue, body twice, tail).
  MutationResult R = runMutations(C.Program, C.Info, 0, C.Program.size());
  EXPECT_EQ(R.BaselineHazards, 0u);
  EXPECT_GT(R.StallMutations, 0u);
  EXPECT_GT(R.WaitMutations, 0u);
  EXPECT_EQ(R.StallCaught, R.StallMutations);
  EXPECT_EQ(R.WaitCaught, R.WaitMutations);
  for (const std::string &M : R.Missed)
    ADD_FAILURE() << "not caught: " << M;
  std::printf("mutation test (%s, %zu instructions): %u/%u stall mutations "
              "caught, %u/%u wait mutations caught\n",
              What, C.Program.size(), R.StallCaught, R.StallMutations,
              R.WaitCaught, R.WaitMutations);
}

TEST(VerifySchedule, MutationsOfTheKernelShapedProgramAreAllCaught) {
  mutationTest(KernelShape(), "2x4 tiles, 3 stages");
  KernelShape Res;
  Res.Residual = true;
  Res.Stages = 4;
  Res.ChunksA = 2;
  mutationTest(Res, "residual, 4 stages, 2 chunks of A");
}

} // namespace
