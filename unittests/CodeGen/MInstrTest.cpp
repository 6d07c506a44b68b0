//===- MInstrTest.cpp - mir::MInstr's out-of-line label names -------------===//
///
/// \file
/// mir::LabelName behaves as the std::string it replaced: empty by default,
/// an empty assignment leaves no name, copies are deep and independent,
/// moves (construction and assignment) leave the source empty; an MInstr
/// without labels carries no allocation and is its Instruction, two
/// pointers and a location; resolveBranches sets every branch offset.
///
//===----------------------------------------------------------------------===//

#include "tp/CodeGen/SelectForms.h"
#include "tp/MIR/MIR.h"
#include "tp/Target/SASS/SASS.h"
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

// resolveBranches finds the labels and branches in one walk and looks each
// branch's label up among the few it found: forward, backward and
// self-branches across pieces get their offsets; a label given twice
// resolves to its last instruction (what the StringMap it replaced kept);
// an unknown label is an error that names the branch's address.
TEST(MInstr, ResolveBranchesAcrossPieces) {
  const sass::Instruction &Bra = isel::getPrototype(isel::Form::Bra);
  Function F;
  F.Name = "k";
  auto Add = [&](Piece &P, llvm::StringRef Label, llvm::StringRef Target) {
    MInstr &MI = P.Instrs.emplace_back(Bra);
    MI.Label = Label;
    MI.Target = Target;
  };
  Piece &A = F.addPiece("a");
  Add(A, "", "c");   // 0x00: forward, two pieces on
  Add(A, "top", ""); // 0x10
  Piece &B = F.addPiece("b");
  Add(B, "", "top"); // 0x20: backward
  Add(B, "dup", ""); // 0x30
  Piece &C = F.addPiece("c");
  Add(C, "c", "dup");     // 0x40: to the later "dup"
  Add(C, "dup", "");      // 0x50
  Add(C, "self", "self"); // 0x60
  ASSERT_FALSE(llvm::errorToBool(F.resolveBranches()));
  auto TargetOf = [&](const MInstr &MI, uint64_t Addr) {
    return sass::getPCRelativeTarget(MI.I, Addr).getValueOr(~0ull);
  };
  EXPECT_EQ(TargetOf(F.Pieces[0].Instrs[0], 0x00), 0x40u);
  EXPECT_EQ(TargetOf(F.Pieces[1].Instrs[0], 0x20), 0x10u);
  EXPECT_EQ(TargetOf(F.Pieces[2].Instrs[0], 0x40), 0x50u);
  EXPECT_EQ(TargetOf(F.Pieces[2].Instrs[2], 0x60), 0x60u);

  F.Pieces[1].Instrs[0].Target = "nowhere";
  llvm::Error E = F.resolveBranches();
  ASSERT_TRUE(bool(E));
  EXPECT_EQ(llvm::toString(std::move(E)),
            "function @k: branch at 20 to unknown label ^nowhere");
}
