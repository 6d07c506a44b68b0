//===- Pipeline.cpp - tp-pipeline: the stage ring -------------------------===//
///
/// \file
/// tile IR -> tile IR.  Requires a tiled product (tp.tile) without a
/// pipeline; guarantees the region holds, after the tiling ops,
///
///   tp.pipeline stages=S ahead=S-1 wait=S-2 steps=K/32
///               iterations=K/(32 S)-1
///   tp.prologue   steps 0 .. S-2 copied into stages 0 .. S-2, a group each
///   tp.loop       (when iterations > 0, or always for a run-time shape,
///                 whose iterations= is the recorded shape's and whose
///                 count tp-swizzle adds) S steps, one a stage: wait until at
///                 most S-2 groups are in flight, barrier, the products of
///                 stage s, the copies S-1 steps ahead into stage
///                 (s+S-1) % S (the one the previous step used), a commit
///   tp.tail       the last S steps (K/32-S .. K/32-1): the first copies the
///                 last step into stage S-1, the others commit empty groups
///                 so the wait count stays S-2; then wait for every group,
///                 and the epilogue (C, or C + R: pairs = 2 MT NT a thread)
///
/// (seed: tpPrologue, tpBody, tpStageStep, tpCopiesFor, tpTail,
/// tpIterations).  A run-time shape's steps are the recorded K's rounded up
/// to whole rings (makePipelineOp); at run time the steps beyond K are
/// the first ones (tp-swizzle: zero-filled copies), so that the loop's
/// copies are always whole k-steps and only the tail's copy, the last
/// step, can be partial.
///
//===----------------------------------------------------------------------===//

#include "tp/Support/Debug.h"
#include "tp/Support/Diagnostics.h"
#include "tp/TileIR/TileUnit.h"
#include "tp/Transforms/Passes.h"

#include "llvm/ADT/Statistic.h"

using namespace llvm;

#define DEBUG_TYPE "tp-pipeline"

ALWAYS_ENABLED_STATISTIC(NumStages, "Shared stages laid out");
ALWAYS_ENABLED_STATISTIC(NumKSteps, "k-steps laid out (prologue, loop, tail)");

namespace tp {
namespace {

using namespace tile;

class PipelinePass : public Pass {
public:
  Error run(std::unique_ptr<IRUnit> &IR, PassContext &Ctx) override {
    Module &M = static_cast<TileUnit &>(*IR).M;
    for (Kernel &K : M.Kernels) {
      Op &MM = *K.getMatmul();
      const Op *TileOp = MM.find("tp.tile");
      if (!TileOp)
        return makeSourceError(Ctx.SM, MM.Loc,
                               "tp-pipeline needs a tiled product (run "
                               "tp-tile first)");
      if (const Op *Old = MM.find("tp.pipeline"))
        return makeSourceError(Ctx.SM, Old->Loc,
                               "the product is already pipelined");
      Problem P = getProblem(K);
      TileParams T = getTileOp(*TileOp);
      SMLoc L = MM.Loc;
      int64_t S = T.Stages;
      Op PipeOp = makePipelineOp(P, T, L);
      int64_t Steps = *PipeOp.getInt("steps");
      int64_t Iterations = *PipeOp.getInt("iterations");
      if (!P.Runtime && (P.K < 32 * S || P.K % (32 * S)))
        return makeSourceError(Ctx.SM, MM.getAttr("k")->Val.Loc,
                               "K = " + Twine(P.K) +
                                   " is not a positive multiple of " +
                                   Twine(32 * S) + " (32 x " + Twine(S) +
                                   " stages)");

      NumStages += S;
      NumKSteps += Steps;
      TP_DEBUG(dbgs() << "tp-pipeline: " << K.Name << ": " << S
                      << " stages, " << Steps << " k-steps: prologue "
                      << S - 1 << " copies, loop " << Iterations << " x "
                      << S << " steps, tail " << S << " steps\n");

      auto Copy = [&](int64_t Stage) {
        Op C("tp.copy", L);
        C.setInt("stage", Stage);
        return C;
      };
      auto Step = [&](int64_t Stage, Op Copies, bool Empty) {
        Op St("tp.step", L);
        St.setHasRegion();
        St.setInt("stage", Stage);
        St.add(Op("tp.wait_groups", L)).setInt("max", S - 2);
        St.add(Op("tp.barrier", L));
        St.add(Op("tp.products", L)).setInt("stage", Stage);
        if (!Empty)
          St.add(std::move(Copies));
        St.add(Op("tp.commit", L));
        return St;
      };

      std::vector<Op> New;
      New.push_back(std::move(PipeOp));
      Op Pro("tp.prologue", L);
      Pro.setHasRegion();
      for (int64_t J = 0; J < S - 1; ++J) {
        Op C = Copy(J);
        C.setInt("step", J);
        Pro.add(std::move(C));
        Pro.add(Op("tp.commit", L));
      }
      New.push_back(std::move(Pro));
      // A run-time shape always has its loop: the count is K's.
      if (Iterations > 0 || P.Runtime) {
        Op Loop("tp.loop", L);
        Loop.setHasRegion();
        Loop.setInt("iterations", Iterations);
        for (int64_t St = 0; St < S; ++St) {
          Op C = Copy((St + S - 1) % S);
          C.setInt("ahead", S - 1);
          Loop.add(Step(St, std::move(C), false));
        }
        New.push_back(std::move(Loop));
      }
      Op Tail("tp.tail", L);
      Tail.setHasRegion();
      int64_t First = Steps - S;
      for (int64_t St = 0; St < S; ++St) {
        Op C = Copy((St + S - 1) % S);
        C.setInt("step", Steps - 1);
        Op StepOp = Step(St, std::move(C), St != 0);
        StepOp.setInt("step", First + St);
        Tail.add(std::move(StepOp));
      }
      Tail.add(Op("tp.wait_groups", L)).setInt("max", 0);
      Op Epi("tp.epilogue", L);
      // C, and R when the product reads one (a residual or a scale; a
      // bias-only product's fourth operand is its bias).
      for (size_t I = 0; I < MM.Operands.size(); ++I)
        if (I == 0 || (I == 3 && P.hasR()))
          Epi.addOperand(MM.Operands[I]);
      Epi.setInt("pairs", 2 * T.MTiles * T.NTiles);
      Tail.add(std::move(Epi));
      New.push_back(std::move(Tail));

      for (Op &O : New)
        MM.Body.push_back(std::move(O));
    }
    return Error::success();
  }
};

} // namespace

std::unique_ptr<Pass> createPipelinePass() {
  return std::make_unique<PipelinePass>();
}

} // namespace tp
