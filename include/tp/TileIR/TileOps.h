//===- TileOps.h - The tile IR's operations ---------------------*- C++ -*-===//
///
/// \file
/// The operations of the tile IR and the pass that introduces each.  Every
/// number is an integer attribute, so FileCheck tests read them directly.
///
/// Problem (input):
///   tp.kernel @gemm(%C: ptr<f32>, %A: ptr<f16>, %B: ptr<f16>[, %R: ptr<f32>])
///       target=sm_86 [shared_limit=BYTES] [sms=N] {
///     tp.matmul %C, %A, %B[, %R] m=M n=N k=K a=rows|columns b=rows|columns
///         [tile=large|small|128x64|256x128|[WM, WN, MT, NT, S]]
///         : f16 x f16 -> f32
///   }
///   Parameters are in the order C, A, B[, R] (constant bank 0 from the
///   target's ParamBase, sass::getTargetInfo) and the matmul names them in
///   that order.  target= is a GemmCodeGen target (sm_80 .. sm_121).
///   A run-time shape: `shape=[%M, %N, %K, %lda, %ldb, %ldc]` names six i32
///   parameters after the pointers (m=/n=/k= are then the recorded shape),
///   `strides=[%sa, %sb, %sc] batch=B` three more (strided batches); the
///   parameter block is pointers (8 bytes) then i32s (4), getParamOffset.
///
/// tp-tile adds to the matmul's region:
///   tp.tile [name=large] warps_m= warps_n= m_tiles= n_tiles= stages=
///   tp.grid x=N/BN y=M/BM threads=
///   tp.block m=BM n=BN warps=
///   tp.warp m=16 MT n=8 NT mma=m16n8k16
///   tp.chunks a=chunksA b=chunksB bytes=16
///   tp.shared bytes= stage_bytes= a_offset=0 b_offset=64 BM  (in a stage)
///   tp.registers count=
///
/// tp-pipeline adds:
///   tp.pipeline stages= ahead=S-1 wait=S-2 steps=K/32 iterations=K/(32S)-1
///   tp.prologue { (tp.copy step=j stage=j ; tp.commit) x S-1 }
///   tp.loop iterations= { tp.step stage=s { tp.wait_groups max=S-2
///       tp.barrier ; tp.products stage=s ; tp.copy ahead=S-1
///       stage=(s+S-1)%S ; tp.commit } x S }        (omitted when 0)
///   tp.tail { tp.step stage=s step=j { ... } x S ; tp.wait_groups max=0 ;
///       tp.epilogue %C[, %R] pairs=2 MT NT }
///   (in the tail only the first step copies, the last step; the others
///   commit empty groups)
///
/// tp-swizzle adds tp.addresses (first in the region) and fills the
/// regions of tp.copy, tp.products and tp.epilogue:
///   tp.addresses { %x = sreg tid.x|ctaid.x|ctaid.y
///                  %x = add %a, %b|imm   %x = mul %a, imm
///                  %x = mad %a, %b|imm, %c|imm   (a b + c)
///                  %x = shr %a, imm      %x = and %a, imm
///                  %x = xor %a, %b ; ... }
///     (a run-time shape also: %x = param %P (an i32 parameter), sub,
///     %p = lt|ltu|gt|eq %a, %b [, %q] (predicates, ANDed with %q),
///     %x = sel %p, %a, %b, sreg ctaid.z; value ops may stand in tp.copy
///     and tp.epilogue regions too, computed in place; tp.ldgsts takes
///     guard=%p [fill=%bytes] and a value k_step_bytes=, tp.stg / tp.ldg
///     guard=%both guard_first=%first, tp.loop count=%iterations;
///     docs/tile-ir.md)
///   tp.ldgsts %shared, %param, %offset operand=a|b chunk=c smem_offset=
///       k_step_bytes=      (16 bytes from param + offset + step k_step_bytes
///                           to smem_offset + shared)
///   tp.ldsm %address operand=a|b kk= index= smem_offset= shape=m88|mt88
///       (fragment (operand, kk, index): A's m-tile, or B's n-tile pair)
///   tp.mma kk= mt= nt=  (acc(mt, nt) += A(kk, mt) B(kk, nt / 2) half nt % 2)
///   tp.stg %offset pair= mt= nt= half= offset=   (accumulator pair (mt,
///       nt, half) to C + offset + imm; C is the epilogue's first operand)
///   tp.ldg %offset pair= mt= nt= half= offset=   (residual only: R's pair
///       for accumulator pair (mt, nt, half) from R + offset + imm; R is the
///       epilogue's second operand)
///   tp.add_residual pair= mt= nt= half=  (adds the pair tp.ldg loaded)
///   With a residual the epilogue holds batches of 8 pairs: their tp.ldg,
///   their tp.add_residual, their tp.stg.
///
/// tp-swizzle's names never collide with the kernel's parameters: a name a
/// parameter holds becomes `name.1` (`.2`, ...).
///
/// tp-select lowers every op above to instructions (lib/CodeGen/Select.cpp
/// lists the lowering of each); an op it does not know is an error.  A
/// copy's pointer advance per step is its k_step_bytes; the copies outside
/// the loop name consecutive steps (step=), the loop's copy one step a
/// loop step (ahead=), and tp.loop's iterations= is the loop counter.
///
//===----------------------------------------------------------------------===//
#ifndef TP_TILEIR_TILEOPS_H
#define TP_TILEIR_TILEOPS_H

#include "tp/TileIR/TileIR.h"
#include "tp/TileIR/TileModel.h"

namespace tp {
namespace tile {

/// Reads the problem a verified tp.matmul states.
Problem getProblem(const Kernel &K);

/// Reads the matmul's epilogue=[scale, bias, relu] into \p P; the error
/// message when the attribute is malformed.
llvm::Optional<std::string> readEpilogueAttr(const Op &MM, Problem &P);

/// The element types of a matmul's type `A x B -> D`.
struct MatmulTypes {
  ElementType A, B, D;
};
/// Parses `f16 x f16 -> f32` (the Op::Type spelling), or None.
llvm::Optional<MatmulTypes> parseMatmulTypes(llvm::StringRef Type);
/// \p P's types in that spelling.
std::string printMatmulTypes(const Problem &P);

/// The byte offset of parameter \p Index in the parameter block (from the
/// target's ParamBase): pointers take 8 bytes, i32 values 4, in order.
int64_t getParamOffset(const Kernel &K, unsigned Index);

/// The run-time shape's parameters, in the order tp.matmul's shape= names
/// them.
enum class ShapeParam { M, N, K, LDA, LDB, LDC, Count,
                        StrideA = Count, StrideB, StrideC, StridedCount };
/// The index of the kernel parameter that holds \p Which, or None (a fixed
/// shape).
llvm::Optional<unsigned> getShapeParam(const Kernel &K, ShapeParam Which);

/// The tile a tp.tile op states.
TileParams getTileOp(const Op &TileOp);

/// The target a verified kernel names (target=, a tile target).
sass::Target getTarget(const Kernel &K);
/// The limits of the kernel's target (getTargetLimits(getTarget(K))).
TargetLimits getTargetLimits(const Kernel &K);

/// The shared-memory limit the kernel declares (shared_limit=), else its
/// target's capacity, \p L being the kernel's target limits
/// (getTargetLimits(K)).
int64_t getSharedLimit(const Kernel &K, const TargetLimits &L);

/// The ops tp-tile adds for \p T (tp.tile .. tp.registers), located at
/// \p Loc.  The verifier compares present ops against these.
std::vector<Op> makeTilingOps(const Problem &P, const TileParams &T,
                              llvm::SMLoc Loc);

/// The tp.pipeline summary op for \p T and \p P.
Op makePipelineOp(const Problem &P, const TileParams &T, llvm::SMLoc Loc);

} // namespace tile
} // namespace tp

#endif // TP_TILEIR_TILEOPS_H
