//===- TileModel.h - The seed's tile arithmetic and admission ---*- C++ -*-===//
///
/// \file
/// The numbers every tile pass and the code generator share, each one a
/// transcription of a definition in ../shared/seed/TiledProductSM86.seed.txt
/// (the seed's name in the comment):
///
///   threads  = 32 warpsM warpsN                              (tpThreads)
///   BM       = warpsM 16 mTiles, BN = warpsN 8 nTiles        (tpBlockM/N)
///   chunks   = extent 4 / threads, an operand a step         (tpChunks)
///   shared   = stages (BM + BN) 64 bytes                     (tpSharedBytes)
///   stage s  : A at s (BM + BN) 64, B 64 BM after it         (tpBufferA/B)
///   registers= 48 + 4 MT NT + 8 MT + 4 NT + chunksA + chunksB (tpRegisters:
///              the seed's plan, the budget admission checks; tp-select's
///              first-fit assignment needs fewer, e.g. 140 of 164)
///   iterations = K / (32 stages) - 1                         (tpIterations)
///
/// and the admission rules (tiledProductSM86ShapeAdmitted, DESIGN.md
/// section 1) plus the limits the seed's code relies on without stating
/// them as rules (tile ranges: see checkTileRange).
///
//===----------------------------------------------------------------------===//
#ifndef TP_TILEIR_TILEMODEL_H
#define TP_TILEIR_TILEMODEL_H

#include "tp/Support/ElementType.h"
#include "tp/Support/OperandLayout.h"
#include "tp/Target/SASS/SASS.h"
#include "llvm/ADT/Optional.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tp {
namespace tile {

/// The support library's layout (also the manifest's and the tools').
using Layout = OperandLayout;

/// The problem a tp.matmul states.  With Runtime the kernel reads M, N, K
/// and the leading dimensions from its parameters (tp.matmul's shape=), and
/// M, N, K here are the recorded shape (the manifest's, tp-sim's default).
struct Problem {
  int64_t M = 0, N = 0, K = 0;
  Layout A = Layout::Rows, B = Layout::Columns;
  bool Residual = false;
  /// Element types (the matmul's `: A x B -> D`): A and B f16 or bf16, D
  /// (the C parameter) and R f32, f16 or bf16; accumulation is f32.
  ElementType AType = ElementType::F16, BType = ElementType::F16,
              DType = ElementType::F32;
  /// The epilogue (the matmul's epilogue=[scale, bias, relu]):
  /// Scale: D = alpha acc + beta C with alpha, beta run-time f32
  /// parameters and C read from R only when beta != 0; Bias: + bias[col]
  /// (f32, one a column of D); Relu: max(x, 0) last.  Residual (R, no
  /// scale) is the seed's D = acc + R (R of D's type, widened exactly to
  /// f32, added in f32, rounded once to D).
  bool Scale = false, Bias = false, Relu = false;
  /// The epilogue's steps in order ("scale", "bias", "relu"), joined by
  /// \p Sep; empty without an epilogue.
  std::string getEpilogueList(llvm::StringRef Sep) const {
    std::string List;
    for (auto [On, Name] : {std::pair<bool, const char *>{Scale, "scale"},
                            {Bias, "bias"},
                            {Relu, "relu"}})
      if (On)
        List += (List.empty() ? "" : Sep.str()) + Name;
    return List;
  }
  /// Whether the kernel has the R parameter (a residual or a scale).
  bool hasR() const { return Residual || Scale; }
  /// Bytes of one element of D (and R).
  int64_t dBytes() const { return getElementTypeBytes(DType); }
  /// Whether the types are the seed's f16 x f16 -> f32.
  bool defaultTypes() const {
    return AType == ElementType::F16 && BType == ElementType::F16 &&
           DType == ElementType::F32;
  }
  bool Runtime = false;
  /// Strided batches (tp.matmul strides=): Batch products, the grid's z,
  /// each operand's batch b at b times its stride parameter.
  bool Strided = false;
  int64_t Batch = 1;
};

/// ceil(X / Y) for X >= 0, Y > 0.
inline int64_t ceilDiv(int64_t X, int64_t Y) { return (X + Y - 1) / Y; }
/// The leading dimension a run-time kernel's recorded shape uses for an
/// operand of \p Extent elements a stored row: the next multiple of 8
/// (16-byte rows, the copies' alignment rule).
inline int64_t alignedLeading(int64_t Extent) { return (Extent + 7) / 8 * 8; }

/// The predicate registers a run-time kernel may give its copies' row
/// guards (P0 and P2..P6: P1 is the loop's).
constexpr int64_t MaxGuardedChunks = 6;

/// warps along M and N, 16-row m-tiles and 8-column n-tiles a warp, stages.
struct TileParams {
  int64_t WarpsM = 0, WarpsN = 0, MTiles = 0, NTiles = 0, Stages = 0;

  int64_t warps() const { return WarpsM * WarpsN; }
  int64_t threads() const { return 32 * warps(); }
  int64_t blockM() const { return WarpsM * 16 * MTiles; }
  int64_t blockN() const { return WarpsN * 8 * NTiles; }
  int64_t warpM() const { return 16 * MTiles; }
  int64_t warpN() const { return 8 * NTiles; }
  /// Chunks a thread copies of an operand tile of \p Extent rows/columns
  /// (rounded down; ChunksFit says whether it divides).
  int64_t chunks(int64_t Extent) const { return Extent * 4 / threads(); }
  int64_t chunksA() const { return chunks(blockM()); }
  int64_t chunksB() const { return chunks(blockN()); }
  int64_t tileBytesA() const { return blockM() * 64; }
  int64_t tileBytesB() const { return blockN() * 64; }
  int64_t stageBytes() const { return tileBytesA() + tileBytesB(); }
  int64_t sharedBytes() const { return Stages * stageBytes(); }
  int64_t bufferA(int64_t Stage) const { return Stage * stageBytes(); }
  int64_t bufferB(int64_t Stage) const {
    return bufferA(Stage) + tileBytesA();
  }
  int64_t accumulators() const { return 4 * MTiles * NTiles; }
  int64_t registers() const {
    return 48 + accumulators() + 8 * MTiles + 4 * NTiles + chunksA() +
           chunksB();
  }
  bool operator==(const TileParams &O) const {
    return WarpsM == O.WarpsM && WarpsN == O.WarpsN && MTiles == O.MTiles &&
           NTiles == O.NTiles && Stages == O.Stages;
  }
  /// "2,4,4,4,4"
  std::string str() const;
};

/// The named tiles: large (2,4,4,4,4) 128x128, small (2,2,2,4,4) 64x64,
/// 128x64 (4,2,2,4,4: eight warps of 32x32), 256x128 (4,2,4,8,4: eight
/// warps of 64x64), largest first.
struct NamedTile {
  const char *Name;
  TileParams Params;
};
llvm::ArrayRef<NamedTile> namedTiles();

/// Parses "large", "small", "128x64", "256x128" or "WM,WN,MT,NT,S".
llvm::Expected<TileParams> parseTileSpec(llvm::StringRef Spec);
/// The preset's name when \p T is one, else "".
llvm::StringRef tileName(const TileParams &T);

/// What admission and the automatic tile take from the target: its limits
/// (td/Targets.td through sass::getTargetInfo) and the card the automatic
/// tile is sized for.
struct TargetLimits {
  sass::Target Target = sass::Target::SM86;
  llvm::StringRef Name;   ///< "sm_86"
  /// Shared bytes a block may use (MaxSharedBytesPerBlock; sm_86: 100 KiB
  /// less the 2 KiB the seed reserves, tpSharedCapacity).
  int64_t SharedCapacity = 0;
  llvm::StringRef SharedCapacityNote; ///< "100 KiB - 2 KiB", "163 KiB"
  int64_t RegisterLimit = 0;          ///< registers a thread (MaxRegisters)
  /// The card whose multiprocessors the default tile's grid covers.  The
  /// SM count is a fact of a card, not of a target; the cards chosen
  /// (PERF_FACTS.md section 1): sm_80 the A100 (108 SMs), sm_86 the RTX
  /// 3090 (82 SMs), sm_90 the H100 / H200 (132 SMs); sm_89 the RTX 4090
  /// (128 SMs, NVIDIA's Ada Lovelace architecture whitepaper: PERF_FACTS.md
  /// has no Ada card).
  llvm::StringRef Card;
  int64_t CardSMs = 0;
};
/// The targets a tile IR kernel may name: those with
/// TargetInfo::GemmCodeGen, sm_80, sm_86, sm_89 and sm_90 (false for any
/// other; sass::getGemmTargetList() spells them).
bool isTileTarget(sass::Target T);
/// The tile targets, by SM.
llvm::SmallVector<sass::Target, 4> getTileTargets();
/// The limits of \p T (a tile target).
TargetLimits getTargetLimits(sass::Target T);

/// A broken rule: the message (naming the rule and the numbers) and what
/// it is about -- "m", "n", "k", "tile", "shared_limit" -- so a pass can
/// point at the attribute that breaks it.
struct Violation {
  std::string Field;
  std::string Message;
};

/// The first tile range rule \p T breaks (what the generated code can do
/// at all), or None.  The message names the rule and the numbers.
llvm::Optional<Violation> checkTileRange(const TileParams &T);

/// The first element-type rule \p P breaks (A and B f16 or bf16 and of one
/// type), or None; the field is "types".  D in f32, f16 or bf16 combines
/// with every epilogue, the residual included (R of D's type).
llvm::Optional<Violation> checkTypes(const Problem &P);

/// A kernel parameter of the product, in parameter-block order.
struct ProductParam {
  llvm::StringRef Role; ///< "C", "A", "B", "R", "alpha", "beta", "bias"
  ElementType Elem;
  bool Scalar; ///< an f32 value (alpha, beta), else a pointer
};
/// The parameters \p P takes: C, A, B[, R][, alpha, beta][, bias].
std::vector<ProductParam> getProductParams(const Problem &P);

/// The first shape-only admission rule \p P breaks (nonzero extents, 32-bit
/// byte offsets), or None.
llvm::Optional<Violation> checkShape(const Problem &P);

/// The first rule (range, types, shape, divisibility, grid y <= 65535, chunks,
/// columns-layout limits, registers, shared memory against the target's
/// capacity and against \p SharedLimit) that \p P with \p T breaks on
/// the target of \p Limits, or None.
llvm::Optional<Violation> checkAdmission(const Problem &P,
                                         const TileParams &T,
                                         int64_t SharedLimit,
                                         const TargetLimits &Limits);

/// The default tile: the largest named tile admitted for \p P whose grid
/// gives each of \p SMs multiprocessors at least one block; when no
/// admitted tile's grid is that large, the admitted tile with the most
/// blocks.  None when no named tile is admitted (on the target of
/// \p Limits).
llvm::Optional<TileParams> chooseTile(const Problem &P, int64_t SharedLimit,
                                      int64_t SMs, const TargetLimits &Limits);

} // namespace tile
} // namespace tp

#endif // TP_TILEIR_TILEMODEL_H
