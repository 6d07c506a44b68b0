//===- Passes.h - The tile-level passes -------------------------*- C++ -*-===//
///
/// \file
/// Factories of the tile passes (registered through Passes.def), and the
/// helpers they share.
///
//===----------------------------------------------------------------------===//
#ifndef TP_TRANSFORMS_PASSES_H
#define TP_TRANSFORMS_PASSES_H

#include "tp/Pass/Pass.h"
#include "tp/TileIR/TileOps.h"

namespace tp {

std::unique_ptr<Pass> createAdmitPass();
std::unique_ptr<Pass> createTilePass();
std::unique_ptr<Pass> createPipelinePass();
std::unique_ptr<Pass> createSwizzlePass();

namespace tile {

/// The tile of a product before tp-tile: the matmul's tile= attribute, or
/// None.  (After tp-tile, the tp.tile op.)
llvm::Expected<llvm::Optional<TileParams>> getRequestedTile(const Op &Matmul);

/// The `shared-limit` option that tp-admit and tp-tile share.
PassOption sharedLimitOption();

/// Where to report violation \p V on kernel \p K: the attribute it is
/// about, else the product.
llvm::SMLoc violationLoc(const Kernel &K, const Violation &V);

} // namespace tile
} // namespace tp

#endif // TP_TRANSFORMS_PASSES_H
