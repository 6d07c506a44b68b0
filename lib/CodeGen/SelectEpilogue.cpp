//===- SelectEpilogue.cpp - tp-select's epilogue value ops ----------------===//
///
/// \file
/// The lowering SelectEpilogue.h describes: tp.pack to F2FP(.BF16).PACK_AB,
/// and the register and width each tp.stg stores.  Guarantees: a pair is
/// packed to D's type (the verifier's rule, checked again here), at most
/// once, before its store; D in f32 stores the accumulators unchanged, so
/// the seed's kernels are the same instructions as before.  With a run-time
/// shape's guards (PairGuard) no bias or C element outside the product is
/// read, and C only under a predicate that also holds beta != 0.
///
//===----------------------------------------------------------------------===//

#include "SelectEpilogue.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Support/FormatVariadic.h"

using namespace llvm;

#define DEBUG_TYPE "tp-select"

ALWAYS_ENABLED_STATISTIC(NumEpilogueValueOps,
                         "Epilogue value ops lowered (pack, scale, bias, relu)");
ALWAYS_ENABLED_STATISTIC(NumPredicatedLoads,
                         "C loads predicated on beta != 0");

namespace tp {
namespace isel {

bool EpilogueValues::isValueOp(StringRef Name) {
  return Name == "tp.pack" || Name == "tp.ldg_bias" || Name == "tp.ldg_beta" ||
         Name == "tp.scale" || Name == "tp.add_beta" || Name == "tp.add_bias" ||
         Name == "tp.relu";
}

template <typename SetFn>
void EpilogueValues::onPair(Form F, unsigned Acc, SetFn Set) {
  for (unsigned W = 0; W < 2; ++W) {
    sass::Instruction &I = E.makeInstr(F);
    operand(I, Slot::Rd) = Acc + W;
    Set(I, W);
    E.emitInstr(I);
  }
}

Error EpilogueValues::guardedLoads(const tile::Op &O, Form F, Form FirstF,
                                   unsigned Words, unsigned Dst, unsigned Ptr,
                                   int64_t Offset, Optional<unsigned> Beta) {
  for (bool First : {false, true}) {
    unsigned Pred = First ? Guard.First : Guard.Both;
    if (Beta) {
      Expected<unsigned> T = E.takePredicate(O.Loc);
      if (!T)
        return T.takeError();
      sass::Instruction &S = E.makeInstr(Form::FSetpNeBeta);
      operand(S, Slot::Pd) = *T;
      operand(S, Slot::COff) = *Beta;
      operand(S, Slot::Pp) = Pred;
      E.emitInstr(S);
      Pred = *T;
    }
    for (unsigned W = 0; W < (First ? 1 : Words); ++W) {
      sass::Instruction &I = E.makeInstr(First ? FirstF : F);
      I.Guard = uint8_t(Pred);
      operand(I, Slot::Rd) = Dst + W;
      operand(I, Slot::Ra) = Ptr;
      operand(I, Slot::MOff) = Offset + 4 * W;
      E.emitInstr(I, /*WrSB=*/2);
    }
    if (Beta)
      E.releasePredicate(Pred);
  }
  return Error::success();
}

Error EpilogueValues::lowerLoadBias(const tile::Op &O) {
  int64_t NT = O.getInt("nt").getValueOr(0);
  Expected<unsigned> Ptr = E.pointerTo(O.Operands[0], O.Operands[1], "bias_ptr");
  if (!Ptr)
    return Ptr.takeError();
  unsigned Dst = E.newVirtualReg("bias_pair" + std::to_string(NT));
  if (Guard.On) {
    // Columns beyond N read nothing (zeros, never stored).
    sass::Instruction &Z = E.makeInstr(Form::ZeroPair);
    operand(Z, Slot::Rd) = Dst;
    E.emitInstr(Z);
    if (Error Err = guardedLoads(O, Form::Ldg32, Form::Ldg32, 2, Dst, *Ptr,
                                 O.getInt("offset").getValueOr(0), None))
      return Err;
    Bias[NT] = Dst;
    return Error::success();
  }
  for (unsigned W = 0; W < 2; ++W) {
    sass::Instruction &I = E.makeInstr(Form::Ldg32);
    operand(I, Slot::Rd) = Dst + W;
    operand(I, Slot::Ra) = *Ptr;
    operand(I, Slot::MOff) = O.getInt("offset").getValueOr(0) + 4 * W;
    E.emitInstr(I, /*WrSB=*/2);
  }
  Bias[NT] = Dst;
  return Error::success();
}

Error EpilogueValues::lowerLoadBeta(const tile::Op &O) {
  int64_t Pair = O.getInt("pair").getValueOr(-1);
  Expected<unsigned> Beta = E.paramSlot(O.Operands[1]);
  if (!Beta)
    return Beta.takeError();
  if (!BetaPredicate && !Guard.On) {
    // P0 = beta != 0 (unordered too: a NaN beta reads C, as IEEE says).
    sass::Instruction &I = E.makeInstr(Form::FSetpNeBeta);
    operand(I, Slot::COff) = *Beta;
    E.emitInstr(I);
    BetaPredicate = true;
  }
  // R is the epilogue's C input: the pointer of its offset value.
  if (!R)
    return E.failAt(O.Loc, "tp.ldg_beta needs the epilogue's C input (its "
                           "second operand)");
  Expected<unsigned> Ptr = E.pointerTo(O.Operands[0], *R, "r_ptr");
  if (!Ptr)
    return Ptr.takeError();
  unsigned Dst = E.newVirtualReg("c_pair" + std::to_string(Pair));
  if (P.DType != ElementType::F32)
    return lowerLoadNarrowBeta(O, *Ptr, Dst, *Beta);
  sass::Instruction &Z = E.makeInstr(Form::ZeroPair);
  operand(Z, Slot::Rd) = Dst;
  E.emitInstr(Z);
  if (Guard.On) {
    // A run-time shape: each pair guard ANDed with beta != 0.
    if (Error Err = guardedLoads(O, Form::Ldg32, Form::Ldg32, 2, Dst, *Ptr,
                                 O.getInt("offset").getValueOr(0), *Beta))
      return Err;
    BetaC[Pair] = Dst;
    ++NumPredicatedLoads;
    return Error::success();
  }
  for (unsigned W = 0; W < 2; ++W) {
    sass::Instruction &I = E.makeInstr(Form::Ldg32);
    I.Guard = 0; // @P0: only when beta != 0
    operand(I, Slot::Rd) = Dst + W;
    operand(I, Slot::Ra) = *Ptr;
    operand(I, Slot::MOff) = O.getInt("offset").getValueOr(0) + 4 * W;
    E.emitInstr(I, /*WrSB=*/2);
  }
  BetaC[Pair] = Dst;
  ++NumPredicatedLoads;
  return Error::success();
}

Error EpilogueValues::lowerLoadNarrowBeta(const tile::Op &O, unsigned Ptr,
                                          unsigned Dst, unsigned Beta) {
  int64_t Pair = O.getInt("pair").getValueOr(-1);
  // C in f16/bf16: one 4-byte word holds the pair (low half the first
  // column), zero unless beta != 0, widened exactly to two f32.
  unsigned Packed = E.newVirtualReg("c_packed" + std::to_string(Pair));
  sass::Instruction &Z = E.makeInstr(Form::Mov);
  operand(Z, Slot::Rd) = Packed;
  operand(Z, Slot::Imm) = 0;
  E.emitInstr(Z);
  if (Guard.On) {
    // A run-time shape: the word @both, its low half (the first column,
    // the high half zero) @first, each ANDed with beta != 0.
    if (Error Err = guardedLoads(O, Form::Ldg32, Form::Ldg16, 1, Packed, Ptr,
                                 O.getInt("offset").getValueOr(0), Beta))
      return Err;
  } else {
    sass::Instruction &L = E.makeInstr(Form::Ldg32);
    L.Guard = 0; // @P0: only when beta != 0
    operand(L, Slot::Rd) = Packed;
    operand(L, Slot::Ra) = Ptr;
    operand(L, Slot::MOff) = O.getInt("offset").getValueOr(0);
    E.emitInstr(L, /*WrSB=*/2);
  }
  widenPair(Packed, Dst);
  BetaC[Pair] = Dst;
  ++NumPredicatedLoads;
  return Error::success();
}

void EpilogueValues::widenPair(unsigned Packed, unsigned Dst) {
  if (P.DType == ElementType::F16) {
    // cvt.f32.f16: ptxas 13 emits HADD2.F32 d, -RZ, x.H0_H0 (.H1_H1).
    for (unsigned W = 0; W < 2; ++W) {
      sass::Instruction &I =
          E.makeInstr(W ? Form::UnpackF16Hi : Form::UnpackF16Lo);
      operand(I, Slot::Rd) = Dst + W;
      operand(I, Slot::Rb) = Packed;
      E.emitInstr(I);
    }
    return;
  }
  // A bfloat16 is the top half of its binary32: low * 0x10000 (IMAD: the
  // shift by 16 has no IMAD.SHL.U32 alias, hasShlAlias), high & mask.
  sass::Instruction &Lo = E.makeInstr(Form::IMadImm);
  operand(Lo, Slot::Rd) = Dst;
  operand(Lo, Slot::Ra) = Packed;
  operand(Lo, Slot::Imm) = 0x10000;
  operand(Lo, Slot::Rc) = sass::RZ;
  E.emitInstr(Lo);
  sass::Instruction &Hi = E.makeInstr(Form::LopHighHalf);
  operand(Hi, Slot::Rd) = Dst + 1;
  operand(Hi, Slot::Ra) = Packed;
  E.emitInstr(Hi);
}

Error EpilogueValues::loadNarrowResidual(const tile::Op &O, unsigned Ptr,
                                         unsigned Dst, int64_t Offset,
                                         PairGuard G) {
  ++NumEpilogueValueOps;
  Guard = G;
  int64_t Pair = O.getInt("pair").getValueOr(-1);
  unsigned Packed = E.newVirtualReg("r_packed" + std::to_string(Pair));
  if (G.On) {
    // Zero, then the word @both, its low half (the first column; the high
    // half stays zero) @first: nothing beyond N or M is read.
    sass::Instruction &Z = E.makeInstr(Form::Mov);
    operand(Z, Slot::Rd) = Packed;
    operand(Z, Slot::Imm) = 0;
    E.emitInstr(Z);
    if (Error Err = guardedLoads(O, Form::Ldg32, Form::Ldg16, 1, Packed, Ptr,
                                 Offset, None))
      return Err;
  } else {
    sass::Instruction &L = E.makeInstr(Form::Ldg32);
    operand(L, Slot::Rd) = Packed;
    operand(L, Slot::Ra) = Ptr;
    operand(L, Slot::MOff) = Offset;
    E.emitInstr(L, /*WrSB=*/2);
  }
  widenPair(Packed, Dst);
  return Error::success();
}

Error EpilogueValues::lower(const tile::Op &O, unsigned Acc, PairGuard G) {
  ++NumEpilogueValueOps;
  Guard = G;
  int64_t Pair = O.getInt("pair").getValueOr(-1);
  if (O.Name == "tp.ldg_bias")
    return lowerLoadBias(O);
  if (O.Name == "tp.ldg_beta")
    return lowerLoadBeta(O);
  if (O.Name == "tp.scale") {
    Expected<unsigned> Alpha = E.paramSlot(O.Operands[0]);
    if (!Alpha)
      return Alpha.takeError();
    onPair(Form::FMulConst, Acc, [&](sass::Instruction &I, unsigned W) {
      operand(I, Slot::Ra) = Acc + W;
      operand(I, Slot::COff) = *Alpha;
    });
    return Error::success();
  }
  if (O.Name == "tp.add_beta") {
    Expected<unsigned> Beta = E.paramSlot(O.Operands[0]);
    if (!Beta)
      return Beta.takeError();
    auto It = BetaC.find(Pair);
    if (It == BetaC.end())
      return E.failAt(O.Loc, formatv("pair {0} of C is not loaded (tp.ldg_beta "
                                     "pair={0} must precede)",
                                     Pair)
                                 .str());
    unsigned C = It->second;
    onPair(Form::FFmaConst, Acc, [&](sass::Instruction &I, unsigned W) {
      operand(I, Slot::Ra) = C + W;
      operand(I, Slot::COff) = *Beta;
      operand(I, Slot::Rc) = Acc + W;
    });
    BetaC.erase(It);
    return Error::success();
  }
  if (O.Name == "tp.add_bias") {
    auto It = Bias.find(O.getInt("nt").getValueOr(-1));
    if (It == Bias.end())
      return E.failAt(O.Loc, "the bias of this n-tile is not loaded (a "
                             "tp.ldg_bias of its nt must precede)");
    unsigned B = It->second;
    onPair(Form::FAdd, Acc, [&](sass::Instruction &I, unsigned W) {
      operand(I, Slot::Ra) = Acc + W;
      operand(I, Slot::Rb) = B + W;
    });
    return Error::success();
  }
  if (O.Name == "tp.relu") {
    onPair(Form::FMaxZero, Acc, [&](sass::Instruction &I, unsigned W) {
      operand(I, Slot::Ra) = Acc + W;
    });
    return Error::success();
  }
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
