//===- Admit.cpp - tp-admit: the admission rules --------------------------===//
///
/// \file
/// tile IR -> tile IR (unchanged).  Checks the product against every
/// admission rule of the seed (tiledProductSM86ShapeAdmitted; DESIGN.md
/// section 1), in this order, reporting the first broken one at the
/// attribute it is about:
///
///   1. the tile's range (warps, m-/n-tiles, stages: what the code can do)
///   1b. the element types (TileModel.h checkTypes: A and B f16 or bf16,
///      one type), at the matmul's type
///   2. M, N, K nonzero
///   3. 4 M N, 2 M K, 2 N K below 2^32 (32-bit byte offsets)
///   4. M % BM, N % BN, K % (32 stages) == 0
///   4b. M / BM <= 65535 (gridDim.y; a launch limit the seed leaves out)
///   5. chunks per thread 1, 2 or 4 for A and for B
///   6. a columns-stored operand: extent a power of two >= 64, and at most
///      four LDSM addresses a warp (MT for A, NT / 2 for B)
///   7. registers <= the target's limit (255)
///   8. shared bytes stages (BM + BN) 64 <= the target's capacity a block
///      (sm_80: 163 KiB; sm_86: 100 KiB - 2 KiB; sm_89: 99 KiB; sm_90:
///      227 KiB; sass::TargetInfo::MaxSharedBytesPerBlock), the error
///      naming the target, its capacity and the rule
///   9. shared bytes <= the caller's limit (shared_limit= on the kernel or
///      the shared-limit option)
///
/// The target is the kernel's target= (TargetLimits).
///
/// The tile is the tp.tile op when the product is tiled, else the matmul's
/// tile= attribute, else the tile option; with none, only the rules that do
/// not depend on a tile (2, 3) are checked.
///
//===----------------------------------------------------------------------===//

#include "tp/Support/Diagnostics.h"
#include "tp/TileIR/TileUnit.h"
#include "tp/Transforms/Passes.h"

#include "llvm/ADT/Statistic.h"

using namespace llvm;

#define DEBUG_TYPE "tp-admit"

ALWAYS_ENABLED_STATISTIC(NumAdmitted, "Kernels admitted");
ALWAYS_ENABLED_STATISTIC(NumAdmittedWithTile,
                         "Kernels admitted with their tile (else by shape)");

namespace tp {
namespace tile {

Expected<Optional<TileParams>> getRequestedTile(const Op &MM) {
  const Attr *A = MM.getAttr("tile");
  if (!A)
    return Optional<TileParams>();
  // A word is parsed where it is; a list is spelled WM,WN,MT,NT,S first.
  std::string List;
  StringRef Spec = A->Val.str();
  if (!A->Val.isWord()) {
    for (size_t I = 0; I < A->Val.elems().size(); ++I)
      List += (I ? "," : "") + std::to_string(A->Val.elems()[I].I);
    Spec = List;
  }
  auto T = parseTileSpec(Spec);
  if (!T)
    return T.takeError();
  return Optional<TileParams>(*T);
}

SMLoc violationLoc(const Kernel &K, const Violation &V) {
  const Op *MM = K.getMatmul();
  if (V.Field == "m" || V.Field == "n" || V.Field == "k")
    return MM->getAttr(V.Field)->Val.Loc;
  if (V.Field == "types" && MM->getTypeLoc().isValid())
    return MM->getTypeLoc();
  if (V.Field == "shared_limit") {
    for (const Attr &A : K.Attrs)
      if (A.Key == "shared_limit")
        return A.Val.Loc;
  }
  if (V.Field == "tile" || V.Field == "shared_limit") {
    if (const Op *T = MM->find("tp.tile"))
      return T->Loc;
    if (const Attr *A = MM->getAttr("tile"))
      return A->Val.Loc;
  }
  return MM->Loc;
}

PassOption sharedLimitOption() {
  std::string Capacities;
  for (sass::Target T : getTileTargets()) {
    TargetLimits L = getTargetLimits(T);
    Capacities += (Capacities.empty() ? "" : ", ") + L.Name.str() + " " +
                  std::to_string(L.SharedCapacity);
  }
  return {"shared-limit", "",
          "the caller's shared-memory limit in bytes (default: the kernel's "
          "shared_limit, else its target's capacity: " +
              Capacities + ")"};
}

} // namespace tile

namespace {

using namespace tile;

class AdmitPass : public Pass {
public:
  std::vector<PassOption> getOptions() const override {
    return {{"tile", "",
             "tile to check when the IR names none: large, small, 128x64, "
             "256x128 or WM,WN,MT,NT,S"},
            sharedLimitOption()};
  }

  Error run(std::unique_ptr<IRUnit> &IR, PassContext &Ctx) override {
    Module &M = static_cast<TileUnit &>(*IR).M;
    for (Kernel &K : M.Kernels) {
      Op &MM = *K.getMatmul();
      Problem P = getProblem(K);
      TargetLimits Limits = getTargetLimits(K);
      int64_t Limit = getSharedLimit(K, Limits);
      if (Error E = overrideIntOption("shared-limit", Limit))
        return E;
      Optional<TileParams> T;
      if (const Op *TileOp = MM.find("tp.tile")) {
        T = getTileOp(*TileOp);
      } else {
        auto Req = getRequestedTile(MM);
        if (!Req)
          return Req.takeError();
        T = *Req;
        if (!T && hasOption("tile")) {
          auto Opt = parseTileSpec(getOption("tile"));
          if (!Opt)
            return joinErrors(makeError("tp-admit: bad option tile"),
                              Opt.takeError());
          T = *Opt;
        }
      }
      Optional<Violation> V = checkTypes(P);
      if (!V)
        V = T ? checkAdmission(P, *T, Limit, Limits) : checkShape(P);
      if (V)
        return makeSourceError(Ctx.SM, violationLoc(K, *V), V->Message);
      ++NumAdmitted;
      if (T)
        ++NumAdmittedWithTile;
    }
    return Error::success();
  }
};

} // namespace

std::unique_ptr<Pass> createAdmitPass() { return std::make_unique<AdmitPass>(); }

} // namespace tp
