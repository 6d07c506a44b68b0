//===- TileUnit.h - The tile IR as a pass manager IRUnit --------*- C++ -*-===//
#ifndef TP_TILEIR_TILEUNIT_H
#define TP_TILEIR_TILEUNIT_H

#include "tp/Pass/Pass.h"
#include "tp/TileIR/TileIR.h"

namespace tp {
namespace tile {

/// A parsed tile IR file, the unit tile passes run on.
class TileUnit : public IRUnit {
public:
  explicit TileUnit(Module M) : M(std::move(M)) {}
  llvm::StringRef getLevel() const override { return "tile"; }
  Module M;
};

} // namespace tile

/// The "tile" level: files that start (after comments) with tp.kernel.
IRLevel createTileIRLevel();

} // namespace tp

#endif // TP_TILEIR_TILEUNIT_H
