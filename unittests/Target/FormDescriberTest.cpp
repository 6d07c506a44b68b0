//===- FormDescriberTest.cpp - Flat views agree with describe() -----------===//
///
/// \file
/// FormDescriber (each form described once, its view appended as register
/// unit ranges: what tp-compact-stalls walks) against appendView() of
/// describe()'s SchedInstr (the view the describe table pins): the same
/// OpView and the same units for random instances of every form on sm_86
/// and sm_90, for the same instances never executing (`@!PT`), and with
/// their register operands moved to the top of their files (pairs that run
/// past R254 / UR62, numbers past RZ as a virtual register is), so that
/// the clipping of units to a file and the out-of-range flag are covered.
///
//===----------------------------------------------------------------------===//

#include "FormInstance.h"
#include "tp/Target/SASS/ScheduleOps.h"

#include "gtest/gtest.h"

using namespace llvm;
using namespace tp;
using namespace tp::sched;

namespace {

std::string str(const OpSeq &S, const OpView &V) {
  std::string Out;
  raw_string_ostream OS(Out);
  OS << "class=" << unsigned(V.Class) << " kind=" << unsigned(V.Kind)
     << " var=" << V.Variable << " p=" << V.Predicated
     << " never=" << V.NeverExecutes << " rsb=" << V.NeedsReadSB
     << " defs?=" << V.HasDefs << " late?=" << V.HasLateUses
     << " wait=" << unsigned(V.WaitSB) << "," << unsigned(V.WaitCount)
     << " uses=";
  auto Print = [&](ArrayRef<UnitRange> Rs) {
    for (const UnitRange &R : Rs)
      OS << R.First << "x" << R.Count << ":" << unsigned(R.File) << ":"
         << unsigned(R.Sub) << (R.Late ? "L" : "") << ",";
  };
  Print(S.uses(V));
  OS << " defs=";
  Print(S.defs(V));
  return OS.str();
}

/// The view FormDescriber gives \p I and the one appendView() gives
/// describe(I), printed; "error" for both when the form's class is unknown.
void expectSameView(FormDescriber &D, const sass::Instruction &I) {
  OpSeq Fast, Slow;
  Error E = D.append(I, Fast);
  Expected<SchedInstr> S = describe(I);
  ASSERT_EQ(bool(E), !S) << sass::getInstrInfo(I.Op).Name;
  if (E) {
    EXPECT_EQ(toString(std::move(E)), toString(S.takeError()));
    EXPECT_TRUE(Fast.Ops.empty());
    return;
  }
  appendView(*S, Slow);
  ASSERT_EQ(Fast.Ops.size(), 1u);
  EXPECT_EQ(str(Fast, Fast.Ops[0]), str(Slow, Slow.Ops[0]))
      << sass::getInstrInfo(I.Op).Name;
  EXPECT_TRUE(Fast.Ops[0].Ctrl == I.Ctrl);
  EXPECT_EQ(Fast.Ops[0].GuardNeg, I.GuardNeg);
}

/// \p I with every register operand moved to the top of its file (or past
/// it by \p Past).
sass::Instruction atTheTop(const sass::Instruction &I, int64_t Past) {
  sass::Instruction J = I;
  const sass::InstrInfo &II = sass::getInstrInfo(I.Op);
  for (unsigned K = 0; K < II.NumOperands; ++K)
    switch (II.Operands[K].Kind) {
    case sass::OperandKind::GPR:
    case sass::OperandKind::MemBase:
      J.Ops[K] = sass::RZ - 1 + Past;
      break;
    case sass::OperandKind::UGPR:
    case sass::OperandKind::MemUR:
    case sass::OperandKind::MemDesc:
      J.Ops[K] = sass::URZ - 1;
      break;
    default:
      break;
    }
  return J;
}

TEST(FormDescriber, AgreesWithDescribeOnEveryForm) {
  FormDescriber D;
  unsigned Checked = 0;
  for (sass::Target T : {sass::Target::SM86, sass::Target::SM90}) {
    uint64_t R = 0x9e3779b97f4a7c15ULL;
    for (unsigned Op = 0; Op < sass::getNumOpcodes(); ++Op)
      for (unsigned N = 0; N < 3; ++N) {
        sass::Instruction I;
        if (!test::randomInstance(sass::Opcode(Op), T, R, I))
          continue;
        expectSameView(D, I);
        sass::Instruction Never = I;
        Never.Guard = sass::PT;
        Never.GuardNeg = true;
        expectSameView(D, Never);
        expectSameView(D, atTheTop(I, 0));
        ++Checked;
      }
  }
  EXPECT_GT(Checked, 2000u);
}

TEST(FormDescriber, FlagsRegisterNumbersPastRZ) {
  FormDescriber D;
  sass::Opcode Op;
  ASSERT_TRUE(sass::lookupOpcode("IADD3_rrr", Op));
  uint64_t R = 1;
  sass::Instruction I;
  ASSERT_TRUE(test::randomInstance(Op, sass::Target::SM86, R, I));
  EXPECT_FALSE(D.hasOutOfRangeGPR(atTheTop(I, 0)));
  sass::Instruction Virtual = atTheTop(I, int64_t(1) << 20);
  EXPECT_TRUE(D.hasOutOfRangeGPR(Virtual));
  OpSeq S;
  ASSERT_FALSE(bool(D.append(atTheTop(I, 0), S)));
  EXPECT_FALSE(D.sawOutOfRangeGPR());
  ASSERT_FALSE(bool(D.append(Virtual, S)));
  EXPECT_TRUE(D.sawOutOfRangeGPR());
  D.resetOutOfRangeGPR();
  EXPECT_FALSE(D.sawOutOfRangeGPR());
}

} // namespace
