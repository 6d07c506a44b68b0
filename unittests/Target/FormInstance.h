//===- FormInstance.h - A random valid instance of a form -------*- C++ -*-===//
///
/// \file
/// randomInstance(): an instance of one form whose operands fit their
/// fields and that sass::verify accepts, from a caller-held xorshift state
/// (deterministic for a given seed).  Shared by the coverage test and the
/// describe() table.
///
//===----------------------------------------------------------------------===//
#ifndef TP_UNITTESTS_TARGET_FORMINSTANCE_H
#define TP_UNITTESTS_TARGET_FORMINSTANCE_H

#include "tp/Target/SASS/SASS.h"
#include <vector>

namespace tp {
namespace test {

/// A random instance of form \p Op whose operands fit their fields (\p R is
/// the random state); false if none was found.
inline bool randomInstance(sass::Opcode Op, sass::Target T, uint64_t &R,
                    sass::Instruction &I) {
  auto Next = [&R](uint64_t N) {
    R ^= R << 13, R ^= R >> 7, R ^= R << 17;
    return N ? R % N : R;
  };
  const sass::InstrInfo &II = sass::getInstrInfo(Op);
  for (unsigned Try = 0; Try < 16; ++Try) {
    I = sass::Instruction();
    I.Op = Op;
    I.Guard = Next(8);
    I.GuardNeg = I.Guard != 7 && Next(2);
    for (unsigned K = 0; K < II.NumOperands; ++K) {
      const sass::OperandInfo &OI = II.Operands[K];
      int64_t &V = I.Ops[K];
      uint64_t Span = OI.Bits >= 63 ? 0 : uint64_t(1) << OI.Bits;
      switch (OI.Kind) {
      case sass::OperandKind::GPR:
      case sass::OperandKind::MemBase:
        V = OI.Width > 1 ? 4 * Next(32) : (Next(4) ? Next(64) : 255);
        break;
      case sass::OperandKind::UGPR:
      case sass::OperandKind::MemUR:
      case sass::OperandKind::MemDesc:
        V = OI.Width > 1 || OI.Kind == sass::OperandKind::MemDesc
                ? 4 * Next(8)
                : (Next(4) ? Next(32) : 63);
        break;
      case sass::OperandKind::Pred:
      case sass::OperandKind::UPred:
        V = Next(8);
        break;
      case sass::OperandKind::CBankIndex:
        V = Next(2) ? 0 : Next(4);
        break;
      case sass::OperandKind::CBankOffset:
        V = 4 * Next(256);
        break;
      case sass::OperandKind::Modifier:
      case sass::OperandKind::SReg: {
        std::vector<int64_t> Vals;
        for (int64_t X = 0; X < 256 && (!Span || X < int64_t(Span)); ++X)
          // Every value with a spelling, the empty one (the default:
          // no negation, no .FTZ) included.
          if (sass::getModifierSpelling(Op, K, X).data())
            Vals.push_back(X);
        V = Vals.empty() ? 0 : Vals[Next(Vals.size())];
        break;
      }
      default:
        V = Span ? int64_t(Next(Span)) : 0;
        if (OI.Signed && Span && V >= int64_t(Span / 2))
          V -= int64_t(Span);
        break;
      }
    }
    if (llvm::Error E = sass::verify(I, T))
      llvm::consumeError(std::move(E));
    else
      return true;
  }
  return false;
}

} // namespace test
} // namespace tp

#endif // TP_UNITTESTS_TARGET_FORMINSTANCE_H
