//===- Tile.cpp - tp-tile: choose and apply the tile ----------------------===//
///
/// \file
/// tile IR -> tile IR.  Requires an untiled tp.matmul; guarantees the
/// matmul's region starts with tp.tile, tp.grid, tp.block, tp.warp,
/// tp.chunks, tp.shared and tp.registers (TileOps.h), every number derived
/// from the tile by the seed's formulas (TileModel.h), and that the tile is
/// admitted (the same rules as tp-admit).
///
/// The tile is, first found: the `tile` option, the matmul's tile=
/// attribute, the default.  The default is the largest named tile (256x128,
/// large 128x128, 128x64, small 64x64) that is admitted and whose grid
/// (M/BM)(N/BN) gives every multiprocessor at least one block -- the `sms`
/// option, else the kernel's sms= attribute, else the card the kernel's
/// target= is sized for (TargetLimits: sm_80 the A100's 108, sm_86 the RTX
/// 3090's 82, sm_89 the RTX 4090's 128, sm_90 the H100/H200's 132); when
/// no admitted tile's grid is that large, the admitted tile with the most
/// blocks.  Admission uses the limits of the kernel's target.  A product
/// no named tile admits is an error naming the smallest tile's broken rule.
///
//===----------------------------------------------------------------------===//

#include "tp/Support/Debug.h"
#include "tp/Support/Diagnostics.h"
#include "tp/TileIR/TileUnit.h"
#include "tp/Transforms/Passes.h"

#include "llvm/ADT/Statistic.h"

using namespace llvm;

#define DEBUG_TYPE "tp-tile"

ALWAYS_ENABLED_STATISTIC(NumTilesChosen, "Tiles chosen for the shape");
ALWAYS_ENABLED_STATISTIC(NumTilesGiven, "Tiles given (option or tile=)");

namespace tp {
namespace {

using namespace tile;

/// The sms option's description: the default is the target's card.
std::string smsDescription() {
  std::string Cards;
  for (sass::Target T : getTileTargets()) {
    TargetLimits L = getTargetLimits(T);
    Cards += (Cards.empty() ? "" : ", ") + L.Name.str() + ": " +
             std::to_string(L.CardSMs) + " (" + L.Card.str() + ")";
  }
  return "multiprocessors the default tile's grid must cover (default: the "
         "kernel's sms=, else its target's card: " +
         Cards + ")";
}

class TilePass : public Pass {
public:
  std::vector<PassOption> getOptions() const override {
    return {{"tile", "",
             "large, small, 128x64, 256x128 or WM,WN,MT,NT,S (default: "
             "the matmul's tile=, else chosen for the shape)"},
            {"sms", "", smsDescription()},
            sharedLimitOption()};
  }

  Error run(std::unique_ptr<IRUnit> &IR, PassContext &Ctx) override {
    Module &M = static_cast<TileUnit &>(*IR).M;
    for (Kernel &K : M.Kernels)
      if (Error E = tileKernel(K, *M.Strings, Ctx))
        return E;
    return Error::success();
  }

private:
  Error tileKernel(Kernel &K, Arena &A, PassContext &Ctx) {
    Op &MM = *K.getMatmul();
    if (MM.find("tp.tile"))
      return makeSourceError(Ctx.SM, MM.find("tp.tile")->Loc,
                             "the product is already tiled");
    Problem P = getProblem(K);
    TargetLimits Limits = getTargetLimits(K);
    int64_t Limit = getSharedLimit(K, Limits);
    if (Error E = overrideIntOption("shared-limit", Limit))
      return E;
    int64_t SMs = K.getInt("sms").getValueOr(Limits.CardSMs);
    if (Error E = overrideIntOption("sms", SMs))
      return E;

    Optional<TileParams> T;
    SMLoc At = MM.Loc;
    if (hasOption("tile")) {
      auto Opt = parseTileSpec(getOption("tile"));
      if (!Opt)
        return joinErrors(makeError("tp-tile: bad option tile"),
                          Opt.takeError());
      T = *Opt;
    } else {
      auto Req = getRequestedTile(MM);
      if (!Req)
        return Req.takeError();
      T = *Req;
      if (const Attr *A = MM.getAttr("tile"))
        At = A->Val.Loc;
    }
    bool TileGiven = T.hasValue();
    if (!T) {
      TP_DEBUG({
        dbgs() << "tp-tile: " << K.Name << ": " << P.M << "x" << P.N << "x"
               << P.K << ", shared limit " << Limit << ", " << SMs
               << " SMs; the named tiles, largest first:\n";
        for (const NamedTile &N : namedTiles()) {
          dbgs() << "  " << N.Name << ": ";
          if (Optional<Violation> V = checkAdmission(P, N.Params, Limit, Limits))
            dbgs() << "rejected: " << V->Message << "\n";
          else
            dbgs() << (P.M / N.Params.blockM()) * (P.N / N.Params.blockN())
                   << " blocks\n";
        }
      });
      T = chooseTile(P, Limit, SMs, Limits);
      if (!T) {
        const NamedTile &Smallest = namedTiles().back();
        Violation V = *checkAdmission(P, Smallest.Params, Limit, Limits);
        SMLoc L = V.Field == "tile" ? MM.Loc : violationLoc(K, V);
        return makeSourceError(Ctx.SM, L,
                               "no tile admits this product; the smallest, " +
                                   Twine(Smallest.Name) + ": " + V.Message);
      }
    }
    if (Optional<Violation> V = checkAdmission(P, *T, Limit, Limits)) {
      SMLoc L = V->Field == "tile" ? At : violationLoc(K, *V);
      if (V->Field == "tile" && hasOption("tile"))
        L = MM.Loc;
      return makeSourceError(Ctx.SM, L, V->Message);
    }
    TP_DEBUG(dbgs() << "tp-tile: " << K.Name << ": tile " << T->WarpsM << ","
                    << T->WarpsN << "," << T->MTiles << "," << T->NTiles << ","
                    << T->Stages << " (" << T->blockM() << "x" << T->blockN()
                    << " a block, " << T->sharedBytes()
                    << " bytes of shared stages)\n");
    ++(TileGiven ? NumTilesGiven : NumTilesChosen);
    std::vector<Op> Ops = makeTilingOps(P, *T, MM.Loc);
    MM.setHasRegion();
    MM.Body.insert(MM.Body.begin(), std::make_move_iterator(Ops.begin()),
                   std::make_move_iterator(Ops.end()));
    return Error::success();
  }
};

} // namespace

std::unique_ptr<Pass> createTilePass() { return std::make_unique<TilePass>(); }

} // namespace tp
