//===- CompactStallsTest.cpp - Stalls, scoreboards and waits chosen -------===//
//
// Small hand-made pieces with the exact control fields tp-compact-stalls
// must choose (numbers from SASS_FACTS 2.2/2.3), conservative mode, drain.
//
//===----------------------------------------------------------------------===//

#include "../../lib/CodeGen/SchedulePieces.h"
#include "SchedTestUtil.h"

#include "gtest/gtest.h"

using namespace tp;
using namespace tp::sched;
using namespace tp::sched::test;

namespace {

InstrSeq compact(InstrSeq P, std::vector<CompactInfo> *Info = nullptr,
              CompactOptions O = {}) {
  std::vector<CompactInfo> Local;
  llvm::Error E = compactStalls(P, O, Info ? Info : &Local);
  EXPECT_FALSE(bool(E)) << llvm::toString(std::move(E));
  return P;
}

TEST(CompactStalls, AluToAlu4) {
  InstrSeq P = compact({mk("IADD3", {gpr(2)}, {gpr(0), gpr(1)}),
                     mk("IADD3", {gpr(3)}, {gpr(2), gpr(1)}),
                     mk("IADD3", {gpr(9)}, {gpr(8)})});
  EXPECT_EQ(P[0].Ctrl.Stall, 4);
  EXPECT_EQ(P[1].Ctrl.Stall, 1);
  // Drain: R9 (and R3) ready for any reader of the next piece: ALU -> HMMA 7.
  EXPECT_EQ(P[2].Ctrl.Stall, 7);
  for (const SchedInstr &I : P) {
    EXPECT_EQ(I.Ctrl.WrSB, 7);
    EXPECT_EQ(I.Ctrl.WaitMask, 0);
    EXPECT_FALSE(I.Ctrl.Yield); // bit 109 = 1, as ptxas
  }
}

TEST(CompactStalls, ImadToIadd5AndDistanceCounts) {
  InstrSeq P = compact({mk("IMAD", {gpr(2)}, {gpr(0), gpr(1)}),
                     mk("MOV", {gpr(7)}, {}), mk("IADD3", {gpr(3)}, {gpr(2)})});
  // 5 cycles from IMAD to its IADD3 reader, over the MOV in between.
  EXPECT_EQ(P[0].Ctrl.Stall + P[1].Ctrl.Stall, 5);
  EXPECT_EQ(P[0].Ctrl.Stall, 1);
}

TEST(CompactStalls, GuardPredicate13AndCarryIn5) {
  InstrSeq G = compact({mk("ISETP.GT.AND", {pred(1)}, {gpr(4)}),
                     mk("IADD3", {gpr(5)}, {gpr(6)}).guard(1)});
  EXPECT_EQ(G[0].Ctrl.Stall, 13);
  InstrSeq C = compact({mk("IADD3", {gpr(2), pred(0)}, {gpr(0)}),
                     mk("IMAD.X", {gpr(3)}, {gpr(1), pred(0)})});
  EXPECT_EQ(C[0].Ctrl.Stall, 5);
}

TEST(CompactStalls, LdsmToHmmaWaitsOnItsScoreboard) {
  InstrSeq P = compact({ldsm(8, 60, 0), ldsm(12, 61, 0x400), hmma(16, 8, 12)});
  EXPECT_EQ(P[0].Ctrl.WrSB, 1); // the seed's SB1
  EXPECT_EQ(P[1].Ctrl.WrSB, 1);
  EXPECT_EQ(P[2].Ctrl.WaitMask, 1u << 1);
  EXPECT_EQ(P[2].Ctrl.WrSB, 7); // HMMA: fixed latency, no scoreboard
  // The wait comes 2 cycles after the last LDSM set SB1.
  EXPECT_EQ(P[1].Ctrl.Stall, 2);
  EXPECT_EQ(P[0].Ctrl.Stall, 1);
}

TEST(CompactStalls, DependentHmma24OverAFiller) {
  std::vector<CompactInfo> Info;
  InstrSeq P = compact({hmma(16, 8, 12), hmma(16, 8, 14)}, &Info);
  EXPECT_EQ(Info[0].Cycles, 24u);
  EXPECT_EQ(P[0].Ctrl.Stall, 15);
  ASSERT_EQ(Info[0].FillerStalls.size(), 1u);
  EXPECT_EQ(Info[0].FillerStalls[0], 9);
  insertFillers(P, Info);
  ASSERT_EQ(P.size(), 4u); // + a filler after each (the drain is 24 too)
  EXPECT_TRUE(P[1].NeverExecutes);
  EXPECT_EQ(P[1].Ctrl.Stall, 9);
  EXPECT_EQ(Info.size(), P.size());
}

TEST(CompactStalls, IndependentHmmasAndTheChainDistance) {
  // Accumulators 16..19 and 20..23, each product chained on its own: the
  // second product of the first chain comes 24 cycles after the first.
  std::vector<CompactInfo> Info;
  InstrSeq P = compact(
      {hmma(16, 8, 12), hmma(20, 8, 14), hmma(16, 24, 12), hmma(20, 24, 14)},
      &Info);
  EXPECT_EQ(P[0].Ctrl.Stall, 1);
  EXPECT_EQ(Info[0].Cycles + Info[1].Cycles, 24u);
  EXPECT_EQ(P[1].Ctrl.Stall, 15); // 23 cycles: 15 and a filler of 8
  ASSERT_EQ(Info[1].FillerStalls.size(), 1u);
  EXPECT_EQ(Info[1].FillerStalls[0], 8);
  EXPECT_EQ(P[2].Ctrl.Stall, 1);
}

TEST(CompactStalls, CopiesReadScoreboardAndPointerRewrite) {
  InstrSeq P = compact({ldgsts(26, 0, 10), ldgsts(30, 0x2000, 18),
                     mk("IADD3", {gpr(90)}, {gpr(90)}),
                     mk("IMAD.WIDE", {gpr(10, 2)}, {gpr(90), gpr(5)}),
                     mk("IMAD.WIDE", {gpr(18, 2)}, {gpr(91), gpr(5)}),
                     makeInstr("LDGDEPBAR")});
  EXPECT_EQ(P[0].Ctrl.RdSB, 3); // the seed's SB3
  EXPECT_EQ(P[0].Ctrl.WrSB, 7);
  EXPECT_EQ(P[3].Ctrl.WaitMask, 1u << 3); // the first rewrite waits
  EXPECT_EQ(P[4].Ctrl.WaitMask, 0u);      // the counter was waited to zero
  EXPECT_EQ(P[5].Ctrl.WrSB, 0);           // the group counted on SB0
  // IADD3 -> IMAD.WIDE A operand: 5 (N CoupledAlu -> IMADWideReadAB).
  EXPECT_EQ(P[2].Ctrl.Stall, 5);
}

TEST(CompactStalls, SpecialRegistersOnSB5ThenSB4) {
  InstrSeq P = compact({mk("S2R", {gpr(0)}, {}), mk("S2R", {gpr(1)}, {}),
                     mk("IADD3", {gpr(2)}, {gpr(0), gpr(1)})});
  EXPECT_EQ(P[0].Ctrl.WrSB, 5);
  EXPECT_EQ(P[1].Ctrl.WrSB, 4);
  EXPECT_EQ(P[2].Ctrl.WaitMask, (1u << 5) | (1u << 4));
  EXPECT_EQ(P[1].Ctrl.Stall, 2);
}

TEST(CompactStalls, KeepsTheInputsChoiceOfSB5) {
  // tp-select gives the seed's three S2Rs SB5; kept (one wait covers all).
  InstrSeq In = {mk("S2R", {gpr(0)}, {}), mk("S2R", {gpr(7)}, {}),
              mk("S2R", {gpr(6)}, {}), mk("IADD3", {gpr(2)}, {gpr(0)})};
  for (unsigned K = 0; K < 3; ++K)
    In[K].Ctrl.WrSB = 5;
  In[3].Ctrl.WrSB = 1; // not variable: ignored
  InstrSeq P = compact(In);
  EXPECT_EQ(P[0].Ctrl.WrSB, 5);
  EXPECT_EQ(P[1].Ctrl.WrSB, 5);
  EXPECT_EQ(P[2].Ctrl.WrSB, 5);
  EXPECT_EQ(P[3].Ctrl.WrSB, 7);
  EXPECT_EQ(P[3].Ctrl.WaitMask, 1u << 5);
  // An input choice outside SB4/SB5 is not taken: the plan's SB1 stays the
  // LDSMs' own.
  InstrSeq Q = {mk("S2R", {gpr(0)}, {})};
  Q[0].Ctrl.WrSB = 1;
  EXPECT_EQ(compact(Q)[0].Ctrl.WrSB, 5);
}

TEST(CompactStalls, BarrierDepbarAndGroups) {
  InstrSeq P = compact({ldgsts(26, 0, 10), makeInstr("LDGDEPBAR"), depbar(1),
                     makeInstr("BAR.SYNC"), ldsm(8, 60, 0), hmma(16, 8, 12)});
  EXPECT_EQ(P[1].Ctrl.WrSB, 0);
  EXPECT_EQ(P[2].Ctrl.Stall, 4);    // E: DEPBAR S04
  EXPECT_TRUE(P[2].Ctrl.Yield);     // E: ptxas clears bit 109 on DEPBAR
  EXPECT_EQ(P[2].Ctrl.WaitMask, 0); // DEPBAR counts, it does not wait
  EXPECT_EQ(P[3].Ctrl.Stall, 6);    // BAR.SYNC S06
  EXPECT_EQ(P[5].Ctrl.WaitMask, 1u << 1);
}

TEST(CompactStalls, BarrierWaitsForSharedReadsInFlight) {
  InstrSeq P = compact({ldsm(8, 60, 0), makeInstr("BAR.SYNC"), hmma(16, 8, 12)});
  EXPECT_EQ(P[1].Ctrl.WaitMask, 1u << 1);
  EXPECT_EQ(P[2].Ctrl.WaitMask, 0u);
}

TEST(CompactStalls, ExitWaitsForEverything) {
  InstrSeq P =
      compact({mk("STG.E.64", {}, {gpr(8, 2), gpr(46, 2)}), makeInstr("EXIT")});
  EXPECT_EQ(P[0].Ctrl.RdSB, 5);
  EXPECT_EQ(P[1].Ctrl.WaitMask, 1u << 5);
}

TEST(CompactStalls, DrainAppendsANopForScoreboardsInFlight) {
  std::vector<CompactInfo> Info;
  InstrSeq P = compact({mk("S2R", {gpr(0)}, {})}, &Info);
  ASSERT_EQ(P.size(), 2u);
  EXPECT_EQ(P[1].Kind, SpecialKind::Nop);
  EXPECT_EQ(P[1].Ctrl.WaitMask, 1u << 5);
  EXPECT_EQ(P[0].Ctrl.Stall, 2);
  EXPECT_TRUE(P[1].Ctrl.Yield);
}

TEST(CompactStalls, KeepsReuseFlags) {
  SchedInstr H = hmma(16, 8, 12);
  H.Ctrl.Reuse = 1;
  InstrSeq P = compact({H, hmma(20, 8, 14)});
  EXPECT_EQ(P[0].Ctrl.Reuse, 1);
}

TEST(CompactStalls, ConservativeWaitsForEverything) {
  CompactOptions O;
  O.Conservative = true;
  std::vector<CompactInfo> Info;
  InstrSeq P = compact({mk("IADD3", {gpr(2)}, {gpr(0)}), ldsm(8, 60, 0),
                     hmma(16, 8, 12), hmma(16, 8, 12)},
                    &Info, O);
  for (const SchedInstr &I : P) {
    EXPECT_EQ(I.Ctrl.WaitMask, 0x3f);
    EXPECT_GE(I.Ctrl.Stall, 15);
  }
  EXPECT_EQ(P[1].Ctrl.WrSB, 1);
  EXPECT_EQ(Info[2].Cycles, 24u); // dependent HMMA: still 24, not 15
  // Conservative is never faster than the compacted schedule.
  std::vector<CompactInfo> Fast;
  compact({mk("IADD3", {gpr(2)}, {gpr(0)}), ldsm(8, 60, 0), hmma(16, 8, 12),
           hmma(16, 8, 12)},
          &Fast);
  unsigned SlowSum = 0, FastSum = 0;
  for (auto &I : Info)
    SlowSum += I.Cycles;
  for (auto &I : Fast)
    FastSum += I.Cycles;
  EXPECT_LT(FastSum, SlowSum);
}

TEST(CompactStalls, DepbarOnAnotherScoreboardThanThePlanIsAnError) {
  InstrSeq P = {makeInstr("LDGDEPBAR"), depbar(0)};
  P[1].WaitSB = 1;
  std::vector<CompactInfo> Info;
  llvm::Error E = compactStalls(P, CompactOptions(), &Info);
  ASSERT_TRUE(bool(E));
  EXPECT_NE(llvm::toString(std::move(E)).find("SB1"), std::string::npos);
}

TEST(CompactStalls, KernelPiecesComposeAndVerify) {
  for (bool Residual : {false, true}) {
    KernelShape S;
    S.Residual = Residual;
    Checked C;
    llvm::Error E = buildChecked(S, CompactOptions(), C);
    ASSERT_FALSE(bool(E)) << llvm::toString(std::move(E));
    std::vector<Hazard> H = verifySchedule(C.Program);
    for (const Hazard &X : H)
      ADD_FAILURE() << formatHazard(X, nullptr);
  }
}

TEST(CompactStalls, ConservativeKernelVerifies) {
  CompactOptions O;
  O.Conservative = true;
  Checked C;
  llvm::Error E = buildChecked(KernelShape(), O, C);
  ASSERT_FALSE(bool(E)) << llvm::toString(std::move(E));
  EXPECT_TRUE(verifySchedule(C.Program).empty());
}

/// Every field of \p Made equals those of mir::makeInstr(\p Text).
void expectSameInstr(const mir::MInstr &Made, llvm::StringRef Text) {
  llvm::Expected<mir::MInstr> Parsed = mir::makeInstr(Text, sass::Control());
  ASSERT_TRUE(bool(Parsed)) << llvm::toString(Parsed.takeError());
  EXPECT_EQ(std::string(sass::getInstrInfo(Made.I.Op).Name),
            std::string(sass::getInstrInfo(Parsed->I.Op).Name))
      << Text.str();
  EXPECT_EQ(Made.I.Guard, Parsed->I.Guard) << Text.str();
  EXPECT_EQ(Made.I.GuardNeg, Parsed->I.GuardNeg) << Text.str();
  EXPECT_TRUE(Made.I.Ctrl == Parsed->I.Ctrl) << Text.str();
  EXPECT_EQ(Made.I.Ops, Parsed->I.Ops) << Text.str();
  EXPECT_EQ(Made.Label.str(), Parsed->Label.str()) << Text.str();
  EXPECT_EQ(Made.Target.str(), Parsed->Target.str()) << Text.str();
}

// The pass's drain NOP and filler are made from their forms, not parsed:
// they must be what the text they stand for parses to.
TEST(CompactStalls, DrainNopAndFillerAreTheirParsedText) {
  expectSameInstr(drainNopInstr(), "NOP");
  expectSameInstr(fillerInstr(), sass::isSupportedMnemonic("UIADD3")
                                     ? "@!UPT UIADD3 URZ, URZ, URZ, URZ"
                                     : "@!PT NOP");
}

} // namespace
