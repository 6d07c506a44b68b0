//===- EncoderTest.cpp - The generated encoder against the field tables ---===//
///
/// \file
/// sass::encode() inserts the operands with one generated straight-line
/// function per form and target; sass::encodeByFieldTables() walks the
/// generated field tables, as encode() did before.  For every form on
/// every target this test encodes random valid instances (FormInstance.h)
/// and instances with arbitrary 64-bit operand values, guards and control
/// bytes (which encode() does not check: the fields keep their low bits),
/// and requires the same 128 bits from both.
///
//===----------------------------------------------------------------------===//

#include "FormInstance.h"
#include "tp/Target/SASS/SASS.h"
#include "gtest/gtest.h"

using namespace tp;
using namespace tp::test;

namespace {

std::string hexWord(sass::Word128 W) {
  char Buf[40];
  snprintf(Buf, sizeof(Buf), "0x%016llx%016llx", (unsigned long long)W.Hi,
           (unsigned long long)W.Lo);
  return Buf;
}

TEST(Encoder, StraightLineEqualsFieldTables) {
  uint64_t R = 0x9e3779b97f4a7c15ULL;
  auto Next = [&R] {
    R ^= R << 13, R ^= R >> 7, R ^= R << 17;
    return R;
  };
  unsigned Compared = 0;
  for (unsigned T = 0; T < sass::getNumTargets(); ++T)
    for (unsigned Op = 0; Op < sass::getNumOpcodes(); ++Op) {
      auto Check = [&](const sass::Instruction &I, const char *What) {
        sass::Word128 A = sass::encode(I, sass::Target(T));
        sass::Word128 B = sass::encodeByFieldTables(I, sass::Target(T));
        ++Compared;
        EXPECT_EQ(hexWord(A), hexWord(B))
            << What << " instance of " << sass::getInstrInfo(I.Op).Name
            << " on " << sass::getTargetName(sass::Target(T)).str();
      };
      sass::Instruction I;
      for (unsigned K = 0; K < 4; ++K)
        if (randomInstance(sass::Opcode(Op), sass::Target(T), R, I))
          Check(I, "a valid");
      for (unsigned K = 0; K < 4; ++K) {
        I = sass::Instruction();
        I.Op = sass::Opcode(Op);
        for (int64_t &V : I.Ops)
          V = int64_t(Next());
        // Small values too, URZ and RZ among them (Blackwell's 8-bit
        // uniform register fields store URZ as 0xff).
        if (K & 1)
          for (int64_t &V : I.Ops)
            V = int64_t(Next() % 256) - (K == 3 ? 128 : 0);
        if (K == 2)
          for (int64_t &V : I.Ops)
            V = Next() & 1 ? sass::URZ : sass::RZ;
        uint64_t C = Next();
        I.Guard = uint8_t(C);
        I.GuardNeg = (C >> 8) & 1;
        I.Ctrl.Stall = uint8_t(C >> 16);
        I.Ctrl.Yield = (C >> 24) & 1;
        I.Ctrl.WrSB = uint8_t(C >> 32);
        I.Ctrl.RdSB = uint8_t(C >> 40);
        I.Ctrl.WaitMask = uint8_t(C >> 48);
        I.Ctrl.Reuse = uint8_t(C >> 56);
        Check(I, "an arbitrary");
      }
    }
  EXPECT_GT(Compared, 7u * sass::getNumOpcodes());
}

} // namespace
