//===- Evaluator.h - Evaluate tp.addresses for one thread -------*- C++ -*-===//
///
/// \file
/// Runs the arithmetic of a tp.addresses region for one thread (tid.x,
/// ctaid.x, ctaid.y), in 64-bit unsigned arithmetic so a test can see
/// whether a result would leave 32 bits.  Used by the address-model tests
/// and available to later layers as a reference.
///
//===----------------------------------------------------------------------===//
#ifndef TP_TILEIR_EVALUATOR_H
#define TP_TILEIR_EVALUATOR_H

#include "tp/TileIR/TileIR.h"
#include "llvm/ADT/StringMap.h"

namespace tp {
namespace tile {

struct ThreadIds {
  uint64_t Tid = 0, CtaX = 0, CtaY = 0;
};

/// Every value the region defines, by name (without '%').
llvm::Expected<llvm::StringMap<uint64_t>>
evaluateAddresses(const Op &Addresses, ThreadIds Ids);

} // namespace tile
} // namespace tp

#endif // TP_TILEIR_EVALUATOR_H
