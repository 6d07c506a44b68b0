//===- TileModel.cpp - The seed's tile arithmetic and admission -----------===//

#include "tp/TileIR/TileModel.h"
#include "tp/Support/Diagnostics.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

using namespace llvm;

namespace tp {
namespace tile {

bool isTileTarget(sass::Target T) {
  return sass::getTargetInfo(T).GemmCodeGen;
}

SmallVector<sass::Target, 4> getTileTargets() {
  SmallVector<sass::Target, 4> Ts;
  for (unsigned I = 0; I < sass::getNumTargets(); ++I)
    if (isTileTarget(sass::Target(I)))
      Ts.push_back(sass::Target(I));
  llvm::sort(Ts, [](sass::Target A, sass::Target B) {
    return sass::getTargetSM(A) < sass::getTargetSM(B);
  });
  return Ts;
}

TargetLimits getTargetLimits(sass::Target T) {
  assert(isTileTarget(T) && "not a target of the tile IR");
  const sass::TargetInfo &TI = sass::getTargetInfo(T);
  TargetLimits L;
  L.Target = T;
  L.Name = TI.Name;
  L.SharedCapacity = TI.MaxSharedBytesPerBlock;
  L.RegisterLimit = TI.MaxRegisters;
  // td/Targets.td picks the card each target's default tile is sized for
  // and spells the shared capacity (with their sources).
  L.SharedCapacityNote = TI.SharedCapacityNote;
  L.Card = TI.TileCard;
  L.CardSMs = TI.TileCardSMs;
  return L;
}

std::string TileParams::str() const {
  return formatv("{0},{1},{2},{3},{4}", WarpsM, WarpsN, MTiles, NTiles, Stages)
      .str();
}

ArrayRef<NamedTile> namedTiles() {
  static const NamedTile Tiles[] = {
      {"256x128", {4, 2, 4, 8, 4}},
      {"large", {2, 4, 4, 4, 4}},
      {"128x64", {4, 2, 2, 4, 4}},
      {"small", {2, 2, 2, 4, 4}},
  };
  return Tiles;
}

Expected<TileParams> parseTileSpec(StringRef Spec) {
  for (const NamedTile &T : namedTiles())
    if (Spec == T.Name)
      return T.Params;
  if (Spec == "128x128")
    return namedTiles()[1].Params;
  if (Spec == "64x64")
    return namedTiles()[3].Params;
  SmallVector<StringRef, 5> Parts;
  Spec.split(Parts, ',');
  if (Parts.size() != 5)
    return makeError("expected a tile 'large', 'small', '128x64', '256x128' "
                     "or 'warpsM,warpsN,mTiles,nTiles,stages', found '" +
                     Spec + "'");
  int64_t V[5];
  for (unsigned I = 0; I < 5; ++I)
    if (Parts[I].trim().getAsInteger(10, V[I]) || V[I] < 0)
      return makeError("expected a natural number for tile field " +
                       Twine(I + 1) + ", found '" + Parts[I] + "'");
  return TileParams{V[0], V[1], V[2], V[3], V[4]};
}

StringRef tileName(const TileParams &T) {
  for (const NamedTile &N : namedTiles())
    if (N.Params == T)
      return N.Name;
  return "";
}

Optional<Violation> checkTileRange(const TileParams &T) {
  if (T.WarpsM < 1 || T.WarpsN < 1)
    return Violation{"tile", formatv("tile has {0} x {1} warps: both must be at least 1",
                   T.WarpsM, T.WarpsN)
        .str()};
  // warpN = warp & (warpsN - 1), warpM = warp >> log2 warpsN (tpPrologue).
  if (!isPowerOf2_64(T.WarpsN))
    return Violation{"tile", formatv("warpsN = {0} is not a power of two (a warp's column is "
                   "its id's low bits)",
                   T.WarpsN)
        .str()};
  if (T.threads() > 1024)
    return Violation{"tile", formatv("tile has {0} threads, more than the 1024 a block may have",
                   T.threads())
        .str()};
  if (T.MTiles < 1)
    return Violation{"tile", formatv("mTiles = {0}: a warp needs at least one m-tile",
                                     T.MTiles)
                                 .str()};
  // B's LDSM.x4 loads two n-tiles.
  if (T.NTiles < 2 || T.NTiles % 2)
    return Violation{"tile", formatv("nTiles = {0} is not a positive even number "
                                     "(an LDSM.x4 loads two n-tiles of B)",
                                     T.NTiles)
                                 .str()};
  // The wait before a step's products is DEPBAR.LE SB0, stages - 2.
  if (T.Stages < 2)
    return Violation{"tile", formatv("stages = {0} is below 2 (copies run stages - 1 steps ahead)",
                   T.Stages)
        .str()};
  return None;
}

Optional<Violation> checkShape(const Problem &P) {
  if (P.M == 0)
    return Violation{"m", std::string("M = 0: a product's extents must be nonzero")};
  if (P.N == 0)
    return Violation{"n", std::string("N = 0: a product's extents must be nonzero")};
  if (P.K == 0)
    return Violation{"k", std::string("K = 0: a product's extents must be nonzero")};
  const uint64_t Limit = uint64_t(1) << 32;
  auto TooBig = [&](const char *What, uint64_t Scale, uint64_t X, uint64_t Y,
                    const char *XN, const char *YN) -> Optional<Violation> {
    unsigned __int128 Bytes = (unsigned __int128)Scale * X * Y;
    if (Bytes >= Limit)
      return Violation{"shape", formatv("{0} is {1} x {2} x {3} = {1} x {4} x {5} bytes, not "
                     "below 2^32 (the kernel's byte offsets are 32-bit)",
                     What, Scale, XN, YN, X, Y)
          .str()};
    return None;
  };
  if (auto E = TooBig("C", P.dBytes(), P.M, P.N, "M", "N"))
    return E;
  if (auto E = TooBig("A", 2, P.M, P.K, "M", "K"))
    return E;
  if (auto E = TooBig("B", 2, P.N, P.K, "N", "K"))
    return E;
  return None;
}

Optional<Violation> checkTypes(const Problem &P) {
  if (!isOperandType(P.AType) || !isOperandType(P.BType))
    return Violation{"types",
                     formatv("A is {0} and B is {1}: A and B must be f16 or "
                             "bf16 (f32 operands would need TF32 products)",
                             getElementTypeName(P.AType),
                             getElementTypeName(P.BType))
                         .str()};
  if (P.AType != P.BType)
    return Violation{"types",
                     formatv("A is {0} and B is {1}: A and B must have one "
                             "type, f16 x f16 or bf16 x bf16 (HMMA.16816 "
                             "reads both fragments in one format)",
                             getElementTypeName(P.AType),
                             getElementTypeName(P.BType))
                         .str()};
  return None;
}

std::vector<ProductParam> getProductParams(const Problem &P) {
  std::vector<ProductParam> Out = {{"C", P.DType, false},
                                   {"A", P.AType, false},
                                   {"B", P.BType, false}};
  if (P.hasR())
    Out.push_back({"R", P.DType, false});
  if (P.Scale) {
    Out.push_back({"alpha", ElementType::F32, true});
    Out.push_back({"beta", ElementType::F32, true});
  }
  if (P.Bias)
    Out.push_back({"bias", ElementType::F32, false});
  return Out;
}

static Optional<Violation> checkChunks(const TileParams &T, char Operand,
                                         int64_t Extent) {
  int64_t Total = Extent * 4;
  int64_t C = T.chunks(Extent);
  if (Total % T.threads() || C < 1 || C > 4 || 4 % C)
    return Violation{"tile", formatv("{0}'s step tile is {1} x 4 = {2} 16-byte chunks, which "
                   "{3} threads cannot copy as 1, 2 or 4 chunks each",
                   Operand, Extent, Total, T.threads())
        .str()};
  return None;
}

static Optional<Violation> checkColumns(char Operand, Layout L,
                                        int64_t Extent, int64_t Addresses) {
  if (L != Layout::Columns)
    return None;
  // Columns-stored A takes an LDSM address an m-tile, B one a pair of
  // n-tiles: four registers each in the seed's plan (tpAMatrix, tpBMatrix).
  if (Addresses > 4)
    return Violation{"tile",
                     formatv("{0} stored as columns needs {1} LDSM addresses "
                             "a warp ({2}), more than the 4 registers of the "
                             "register plan",
                             Operand, Addresses,
                             Operand == 'A' ? "one an m-tile"
                                            : "one a pair of n-tiles")
                         .str()};
  // A columns-stored tile row is extent / 8 chunks, split off a chunk index
  // by a shift, and swizzled with row % 8: at least eight chunks.
  if (!isPowerOf2_64(Extent) || Extent < 64)
    return Violation{"tile", formatv("{0} stored as columns needs a block extent that is a "
                   "power of two of at least 64 (rows of 8 or more swizzled "
                   "chunks), found {1}",
                   Operand, Extent)
        .str()};
  return None;
}

static Optional<Violation> checkResources(const Problem &P,
                                          const TileParams &T,
                                          int64_t SharedLimit,
                                          const TargetLimits &Limits);

/// The rules of a kernel whose shape is read at run time: any M, N, K >= 1
/// (edges predicated), the recorded shape's grid y <= 65535, stages a power
/// of two (the loop count is K shifted), at most MaxGuardedChunks guarded
/// chunks a thread, then the resource rules.
static Optional<Violation> checkRuntimeShape(const Problem &P,
                                             const TileParams &T,
                                             int64_t SharedLimit,
                                             const TargetLimits &Limits) {
  if (ceilDiv(P.M, T.blockM()) > 65535)
    return Violation{"m", formatv("M = {0} gives a grid of {1} blocks along "
                                  "M (ceil(M / {2})), more than the 65535 a "
                                  "grid's y extent may have",
                                  P.M, ceilDiv(P.M, T.blockM()), T.blockM())
                              .str()};
  if (!isPowerOf2_64(T.Stages))
    return Violation{"tile", formatv("stages = {0} is not a power of two (a "
                                     "run-time shape's loop count is K "
                                     "shifted by log2(32 x stages))",
                                     T.Stages)
                                 .str()};
  if (auto E = checkChunks(T, 'A', T.blockM()))
    return E;
  if (auto E = checkChunks(T, 'B', T.blockN()))
    return E;
  if (T.chunksA() + T.chunksB() > MaxGuardedChunks)
    return Violation{"tile", formatv("a thread copies {0} + {1} chunks a "
                                     "step, each guarded by its own "
                                     "predicate: more than the {2} predicate "
                                     "registers a run-time shape has (P0, "
                                     "P2..P6)",
                                     T.chunksA(), T.chunksB(),
                                     MaxGuardedChunks)
                                 .str()};
  return checkResources(P, T, SharedLimit, Limits);
}

Optional<Violation> checkAdmission(const Problem &P, const TileParams &T,
                                   int64_t SharedLimit,
                                   const TargetLimits &Limits) {
  if (auto E = checkTileRange(T))
    return E;
  if (auto E = checkTypes(P))
    return E;
  if (auto E = checkShape(P))
    return E;
  if (P.Runtime)
    return checkRuntimeShape(P, T, SharedLimit, Limits);
  if (P.M % T.blockM())
    return Violation{"m", formatv("M = {0} is not a multiple of {1} (BM = {2} warps x 16 x "
                   "{3} m-tiles)",
                   P.M, T.blockM(), T.WarpsM, T.MTiles)
        .str()};
  if (P.N % T.blockN())
    return Violation{"n", formatv("N = {0} is not a multiple of {1} (BN = {2} warps x 8 x "
                   "{3} n-tiles)",
                   P.N, T.blockN(), T.WarpsN, T.NTiles)
        .str()};
  if (P.K % (32 * T.Stages))
    return Violation{"k", formatv("K = {0} is not a multiple of {1} (32 x {2} stages)", P.K,
                   32 * T.Stages, T.Stages)
        .str()};
  // Not a rule of the seed, a limit of the launch: gridDim.y <= 65535
  // (gridDim.x may reach 2^31 - 1, which N < 2^30 never does).
  if (P.M / T.blockM() > 65535)
    return Violation{"m", formatv("M = {0} gives a grid of {1} blocks along "
                                  "M (M / {2}), more than the 65535 a grid's "
                                  "y extent may have",
                                  P.M, P.M / T.blockM(), T.blockM())
                              .str()};
  if (auto E = checkChunks(T, 'A', T.blockM()))
    return E;
  if (auto E = checkChunks(T, 'B', T.blockN()))
    return E;
  return checkResources(P, T, SharedLimit, Limits);
}

/// The rules both kinds of shape share: columns-layout limits, registers,
/// shared memory.
static Optional<Violation> checkResources(const Problem &P,
                                          const TileParams &T,
                                          int64_t SharedLimit,
                                          const TargetLimits &Limits) {
  if (auto E = checkColumns('A', P.A, T.blockM(), T.MTiles))
    return E;
  if (auto E = checkColumns('B', P.B, T.blockN(), T.NTiles / 2))
    return E;
  if (T.registers() > Limits.RegisterLimit)
    return Violation{"tile", formatv("the tile needs {0} registers a thread (48 + 4 x {1} x {2} "
                   "accumulators + fragments + offsets), more than the {3} "
                   "limit of {4}",
                   T.registers(), T.MTiles, T.NTiles, Limits.Name,
                   Limits.RegisterLimit)
        .str()};
  if (T.sharedBytes() > Limits.SharedCapacity)
    return Violation{"tile", formatv("shared memory {0} stages x ({1} + {2}) x 64 = {3} bytes "
                   "exceeds the {4} capacity of {5} bytes ({6})",
                   T.Stages, T.blockM(), T.blockN(), T.sharedBytes(),
                   Limits.Name, Limits.SharedCapacity,
                   Limits.SharedCapacityNote)
        .str()};
  if (T.sharedBytes() > SharedLimit)
    return Violation{"shared_limit", formatv("shared memory {0} stages x ({1} + {2}) x 64 = {3} bytes "
                   "exceeds the shared-memory limit of {4} bytes",
                   T.Stages, T.blockM(), T.blockN(), T.sharedBytes(),
                   SharedLimit)
        .str()};
  return None;
}

Optional<TileParams> chooseTile(const Problem &P, int64_t SharedLimit,
                                int64_t SMs, const TargetLimits &Limits) {
  Optional<TileParams> MostBlocks;
  int64_t Best = 0;
  for (const NamedTile &N : namedTiles()) {
    const TileParams &T = N.Params;
    if (checkAdmission(P, T, SharedLimit, Limits))
      continue;
    int64_t Blocks =
        ceilDiv(P.M, T.blockM()) * ceilDiv(P.N, T.blockN());
    if (Blocks >= SMs)
      return T; // largest first
    if (Blocks > Best) {
      Best = Blocks;
      MostBlocks = T;
    }
  }
  return MostBlocks;
}

} // namespace tile
} // namespace tp
