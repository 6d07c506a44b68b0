//===- ExitPointTest.cpp - Kernels without an EXIT: the FDE's exit point --===//
///
/// \file
/// lib/Object/CubinFrames.cpp's exit point (docs/targets.md "Kernels
/// without an EXIT (session 8)") over a toy classifier, without ptxas:
///  * deriveExitPoint: the instruction before the block of the last branch
///    (not the padding BRA-to-self), that block's start after a NOP, None
///    without a branch or for a block at 0;
///  * scanControlFlow: a branch target at 0x10 does not end the first
///    block;
///  * readExitPoint: the point of each FDE shape ptxas writes;
///  * buildCubin refuses a kernel without an EXIT and without a point.
///
//===----------------------------------------------------------------------===//

#include "CubinBuild.h"
#include "tp/Object/Module.h"
#include "gtest/gtest.h"
#include <vector>

using namespace llvm;
using namespace tp::object;

namespace {

/// Word byte 0: 0 other, 1 BRA to byte 1 * 16, 2 EXIT, 3 NOP.
enum Kind : uint8_t { Other, Bra, Exit, Nop };

class ToyClassifier : public InstrClassifier {
public:
  bool isExit(ArrayRef<uint8_t> W) const override { return W[0] == Exit; }
  bool endsBlock(ArrayRef<uint8_t> W) const override {
    return W[0] == Bra || W[0] == Exit;
  }
  Optional<uint64_t> branchTarget(ArrayRef<uint8_t> W,
                                  uint64_t) const override {
    if (W[0] != Bra)
      return None;
    return uint64_t(W[1]) * 16;
  }
  bool isNop(ArrayRef<uint8_t> W) const override { return W[0] == Nop; }
};

/// A kernel of \p Words (each {kind, target / 16}), padded with NOPs to 128
/// bytes.
Kernel kernelOf(std::vector<std::pair<Kind, uint8_t>> Words) {
  Kernel K;
  K.Name = "k";
  for (auto [Kd, T] : Words) {
    std::vector<uint8_t> W(16, 0);
    W[0] = Kd;
    W[1] = T;
    K.Code.insert(K.Code.end(), W.begin(), W.end());
  }
  while (K.Code.size() % 128)
    K.Code.push_back(K.Code.size() % 16 ? 0 : uint8_t(Nop));
  return K;
}

const ToyClassifier Toy;

TEST(ExitPoint, BeforeTheLoopLabel) {
  // spin: 0x40 is the loop head, BRA 0x40 at 0x60, BRA-to-self at 0x70.
  Kernel K = kernelOf({{Other, 0}, {Other, 0}, {Other, 0}, {Other, 0},
                       {Other, 0}, {Other, 0}, {Bra, 4}, {Bra, 7}});
  scanControlFlow(K, Toy);
  EXPECT_EQ(K.CfaBlockEnd, 0x40u);
  EXPECT_EQ(K.ExitPoint, Optional<uint32_t>(0x30));
}

TEST(ExitPoint, TheBlockOfTheLastBranch) {
  // inner: a wait loop 0x20..0x30 (@P0 BRA 0x20 at 0x30), then the body
  // whose BRA 0x20 at 0x50 is the last branch: its block starts at 0x40.
  Kernel K = kernelOf({{Other, 0}, {Other, 0}, {Other, 0}, {Bra, 2},
                       {Other, 0}, {Bra, 2}, {Bra, 6}});
  scanControlFlow(K, Toy);
  EXPECT_EQ(K.CfaBlockEnd, 0x20u);
  EXPECT_EQ(K.ExitPoint, Optional<uint32_t>(0x30));
}

TEST(ExitPoint, NopBeforeTheBlockCountsAsTheBlock) {
  // Blackwell's spin: a NOP at 0x40 aligns the loop head 0x50.
  Kernel K = kernelOf({{Other, 0}, {Other, 0}, {Other, 0}, {Other, 0},
                       {Nop, 0}, {Other, 0}, {Other, 0}, {Bra, 5}, {Bra, 8}});
  scanControlFlow(K, Toy);
  EXPECT_EQ(K.CfaBlockEnd, 0x50u);
  EXPECT_EQ(K.ExitPoint, Optional<uint32_t>(0x50));
}

TEST(ExitPoint, LoopHeadAt0x10) {
  // noparam: the head right after the stack-pointer load does not end the
  // first block; the point is the load itself.
  Kernel K = kernelOf({{Other, 0}, {Other, 0}, {Other, 0}, {Bra, 1},
                       {Bra, 4}});
  scanControlFlow(K, Toy);
  EXPECT_EQ(K.CfaBlockEnd, 0x40u);
  EXPECT_EQ(K.ExitPoint, Optional<uint32_t>(0));
}

TEST(ExitPoint, NoneWithoutABranchOrForABlockAt0) {
  Kernel Straight = kernelOf({{Other, 0}, {Other, 0}, {Bra, 2}});
  scanControlFlow(Straight, Toy);
  EXPECT_EQ(Straight.ExitPoint, None);
  Kernel AtZero = kernelOf({{Other, 0}, {Bra, 0}, {Bra, 2}});
  scanControlFlow(AtZero, Toy);
  EXPECT_EQ(AtZero.ExitPoint, None);
  // buildCubin refuses it rather than guess the FDE.
  Module M;
  M.SM = 90;
  Straight.CfaBlockEnd = 0x30;
  M.Kernels.push_back(Straight);
  Expected<CubinFile> G = buildCubin(M);
  ASSERT_FALSE(!!G);
  EXPECT_NE(toString(G.takeError()).find("no exit point"), std::string::npos);
}

TEST(ExitPoint, WithAnExitTheLaterOfTheTwo) {
  // longexit: EXIT at 0x20, the endless loop after it (head 0x40).
  Kernel K = kernelOf({{Other, 0}, {Bra, 3}, {Exit, 0}, {Other, 0},
                       {Other, 0}, {Bra, 4}, {Bra, 6}});
  scanControlFlow(K, Toy);
  EXPECT_EQ(tp::object::detail::fdeLastExit(K, false), Optional<uint32_t>(0x30));
  // loopthenexit: the EXIT last.
  Kernel L = kernelOf({{Other, 0}, {Bra, 4}, {Other, 0}, {Bra, 2},
                       {Exit, 0}, {Bra, 5}});
  scanControlFlow(L, Toy);
  EXPECT_EQ(tp::object::detail::fdeLastExit(L, false), Optional<uint32_t>(0x40));
}

/// DW_CFA_advance_loc4 by \p N units.
void appendAdvance(std::vector<uint8_t> &Ops, uint32_t N) {
  Ops.push_back(0x04);
  for (int I = 0; I < 4; ++I)
    Ops.push_back(N >> (8 * I));
}
/// DW_CFA_def_cfa r(0x5000001) \p Off (Off < 128).
void defCfa(std::vector<uint8_t> &Ops, uint8_t Off) {
  Ops.insert(Ops.end(), {0x0c, 0x81, 0x80, 0x80, 0x28, Off});
}

TEST(ExitPoint, ReadFromTheFde) {
  std::vector<uint8_t> Before, After, One, Pop;
  // sm_90 spin: to P, to B, def_cfa.
  appendAdvance(Before, 3);
  appendAdvance(Before, 1);
  defCfa(Before, 0);
  EXPECT_EQ(tp::object::detail::readExitPoint(Before, 16), Optional<uint32_t>(0x30));
  // inner: to B, def_cfa, to P (Mercury: units of 1 byte).
  appendAdvance(After, 0x10);
  appendAdvance(After, 0x40);
  defCfa(After, 0);
  appendAdvance(After, 0x30);
  EXPECT_EQ(tp::object::detail::readExitPoint(After, 1), Optional<uint32_t>(0x80));
  // Blackwell spin or noparam: one advance; the point is on B (or at 0).
  appendAdvance(One, 5);
  defCfa(One, 0);
  EXPECT_EQ(tp::object::detail::readExitPoint(One, 16), Optional<uint32_t>(0x50));
  // A frame popped in the first block (sm_80): the point is the CFA's.
  appendAdvance(Pop, 1);
  appendAdvance(Pop, 2);
  defCfa(Pop, 64);
  appendAdvance(Pop, 0);
  defCfa(Pop, 0);
  EXPECT_EQ(tp::object::detail::readExitPoint(Pop, 16), Optional<uint32_t>(0x30));
  // Not ptxas's shape.
  EXPECT_EQ(tp::object::detail::readExitPoint(std::vector<uint8_t>{0x07}, 16), None);
}

} // namespace
