//===- MInstrTest.cpp - mir::MInstr's out-of-line label names -------------===//
///
/// \file
/// mir::LabelName behaves as the std::string it replaced: empty by default,
/// an empty assignment leaves no name, copies are deep and independent,
/// moves (construction and assignment) leave the source empty; an MInstr
/// without labels carries no allocation and is its Instruction, two
/// pointers and a location.
///
//===----------------------------------------------------------------------===//

#include "tp/MIR/MIR.h"
#include "gtest/gtest.h"

#include <utility>
#include <vector>

using namespace tp;
using namespace tp::mir;

TEST(MInstr, LabelNameIsAValue) {
  LabelName A;
  EXPECT_TRUE(A.empty());
  EXPECT_EQ(A.str(), "");
  A = "loop";
  EXPECT_FALSE(A.empty());
  EXPECT_TRUE(A == "loop");
  LabelName B = A;
  A = "tail";
  EXPECT_EQ(B.str(), "loop");
  EXPECT_EQ(A.str(), "tail");
  EXPECT_TRUE(A != B);
  B = A;
  EXPECT_TRUE(A == B);
  LabelName C = std::move(A);
  EXPECT_EQ(C.str(), "tail");
  EXPECT_TRUE(A.empty());
  LabelName D;
  D = "body";
  D = std::move(C); // a moved-from name is empty, as a std::string's is
  EXPECT_EQ(D.str(), "tail");
  EXPECT_TRUE(C.empty());
  C = D;
  C = llvm::StringRef();
  EXPECT_TRUE(C.empty());
  B.clear();
  EXPECT_TRUE(B.empty());
}

TEST(MInstr, CopiesAndMovesKeepLabels) {
  std::vector<MInstr> V(3);
  V[1].Label = "halt";
  V[1].Target = "halt";
  EXPECT_TRUE(V[1].isBranch());
  EXPECT_FALSE(V[0].isBranch());
  std::vector<MInstr> W = V;
  V[1].Label = "other";
  EXPECT_EQ(W[1].Label.str(), "halt");
  EXPECT_TRUE(W[1].Target == W[1].Label);
  W.reserve(W.capacity() + 1); // growth moves the instructions
  EXPECT_EQ(W[1].Target.str(), "halt");
  EXPECT_TRUE(W[0].Label.empty() && W[2].Target.empty());
  static_assert(sizeof(MInstr) == sizeof(sass::Instruction) +
                                      2 * sizeof(void *) + sizeof(llvm::SMLoc),
                "an MInstr: its Instruction, two label pointers, a location");
}
