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

      // Every op is appended with its attributes (each key new to its
      // op).  A region's ops are reserved before they are built: an op
      // stays where it is while its region is filled.
      auto NewOp = [&](OpList &In, StringRef Name, size_t NumAttrs) -> Op & {
        Op &O = In.emplace_back(Name, L);
        O.Attrs.reserve(NumAttrs);
        return O;
      };
      auto Copy = [&](OpList &In, int64_t Stage) -> Op & {
        return NewOp(In, "tp.copy", 2).addInt("stage", Stage);
      };
      // A step with copies (the caller adds them) or an empty group.
      auto Step = [&](OpList &In, int64_t Stage, bool Empty,
                      bool Numbered) -> OpList & {
        Op &St = NewOp(In, "tp.step", 1 + Numbered).addInt("stage", Stage);
        St.setHasRegion();
        OpList &B = St.Body;
        B.reserve(Empty ? 4 : 5);
        NewOp(B, "tp.wait_groups", 1).addInt("max", S - 2);
        NewOp(B, "tp.barrier", 0);
        NewOp(B, "tp.products", 1).addInt("stage", Stage);
        return B;
      };

      // A run-time shape always has its loop: the count is K's.
      bool HasLoop = Iterations > 0 || P.Runtime;
      MM.Body.reserve(MM.Body.size() + 3 + HasLoop);
      MM.Body.push_back(std::move(PipeOp));
      Op &Pro = NewOp(MM.Body, "tp.prologue", 0);
      Pro.setHasRegion();
      Pro.Body.reserve(2 * (S - 1));
      for (int64_t J = 0; J < S - 1; ++J) {
        Copy(Pro.Body, J).addInt("step", J);
        NewOp(Pro.Body, "tp.commit", 0);
      }
      if (HasLoop) {
        Op &Loop =
            NewOp(MM.Body, "tp.loop", 1).addInt("iterations", Iterations);
        Loop.setHasRegion();
        Loop.Body.reserve(S);
        for (int64_t St = 0; St < S; ++St) {
          OpList &B = Step(Loop.Body, St, false, false);
          Copy(B, (St + S - 1) % S).addInt("ahead", S - 1);
          NewOp(B, "tp.commit", 0);
        }
      }
      Op &Tail = NewOp(MM.Body, "tp.tail", 0);
      Tail.setHasRegion();
      Tail.Body.reserve(S + 2);
      int64_t First = Steps - S;
      for (int64_t St = 0; St < S; ++St) {
        OpList &B = Step(Tail.Body, St, St != 0, true);
        Tail.Body.back().addInt("step", First + St);
        if (St == 0)
          Copy(B, (St + S - 1) % S).addInt("step", Steps - 1);
        NewOp(B, "tp.commit", 0);
      }
      NewOp(Tail.Body, "tp.wait_groups", 1).addInt("max", 0);
      Op &Epi = NewOp(Tail.Body, "tp.epilogue", 1);
      // C, and R when the product reads one (a residual or a scale; a
      // bias-only product's fourth operand is its bias).
      bool WithR = MM.Operands.size() > 3 && P.hasR();
      Epi.Operands.reserve(1 + WithR);
      Epi.addOperand(MM.Operands[0]);
      if (WithR)
        Epi.addOperand(MM.Operands[3]);
      Epi.addInt("pairs", 2 * T.MTiles * T.NTiles);
    }
    return Error::success();
  }
};

} // namespace

std::unique_ptr<Pass> createPipelinePass() {
  return std::make_unique<PipelinePass>();
}

} // namespace tp
