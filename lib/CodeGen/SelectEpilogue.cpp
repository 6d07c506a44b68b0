//===- SelectEpilogue.cpp - tp-select's epilogue value ops ----------------===//
///
/// \file
/// The lowering SelectEpilogue.h describes: tp.pack to F2FP(.BF16).PACK_AB,
/// and the register and width each tp.stg stores.  Guarantees: a pair is
/// packed to D's type (the verifier's rule, checked again here), at most
/// once, before its store; D in f32 stores the accumulators unchanged, so
/// the seed's kernels are the same instructions as before.
///
//===----------------------------------------------------------------------===//

#include "SelectEpilogue.h"

#include "llvm/Support/FormatVariadic.h"

using namespace llvm;

namespace tp {
namespace isel {

bool EpilogueValues::isValueOp(StringRef Name) { return Name == "tp.pack"; }

Error EpilogueValues::lower(const tile::Op &O, unsigned Acc) {
  int64_t Pair = O.getInt("pair").getValueOr(-1);
  if (O.Name == "tp.pack") {
    StringRef Type = O.getWord("type");
    if (P.DType == ElementType::F32 || Type != getElementTypeName(P.DType))
      return E.failAt(O.Loc, "tp.pack type=" + Type +
                                 " does not round to D's type, " +
                                 getElementTypeName(P.DType));
    if (Packed.count(Pair))
      return E.failAt(O.Loc, formatv("pair {0} is packed twice", Pair).str());
    unsigned R = E.newVirtualReg("d_pair" + std::to_string(Pair));
    sass::Instruction &I = E.makeInstr(P.DType == ElementType::BF16
                                           ? Form::PackBF16
                                           : Form::PackF16);
    // cvt.rn.f16x2.f32 d, a, b: a (the pair's column 2q + 1) high.
    operand(I, Slot::Rd) = R;
    operand(I, Slot::Ra) = Acc + 1;
    operand(I, Slot::Rb) = Acc;
    E.emitInstr(I);
    Packed[Pair] = R;
    return Error::success();
  }
  return E.failAt(O.Loc, "no lowering for '" + O.Name + "' in tp.epilogue");
}

Expected<PairStore> EpilogueValues::storeOf(const tile::Op &O, unsigned Acc) {
  if (P.DType == ElementType::F32)
    return PairStore{Acc, Form::Stg64};
  int64_t Pair = O.getInt("pair").getValueOr(-1);
  auto It = Packed.find(Pair);
  if (It == Packed.end())
    return E.failAt(O.Loc, formatv("pair {0} of D ({1}) is not packed "
                                   "(tp.pack pair={0} must precede its "
                                   "tp.stg)",
                                   Pair, getElementTypeName(P.DType))
                               .str());
  unsigned R = It->second;
  Packed.erase(It);
  return PairStore{R, Form::Stg32};
}

} // namespace isel
} // namespace tp
