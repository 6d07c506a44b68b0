//===- ReferenceKernel.h - A simple GEMM in PTX for checking on the GPU -*-===//
///
/// \file
/// `tp_ref_gemm`, the kernel tp-run's `--verify=gpu` runs beside the kernel
/// under test: one thread per element of D (batch from the grid's z), f16
/// or bf16 inputs widened to f32, `fma.rn.f32` in k order, then the
/// epilogue in f32 (x = alpha acc, + beta C when read, + bias(j), ReLU) and
/// one rounding to D's type (f32, f16 or bf16, to nearest even).  It is PTX
/// text that the driver compiles (cuModuleLoadDataEx), so it runs on any
/// GPU the driver supports.  `tp-run --print-reference-ptx` prints it (the
/// test suite assembles it with ptxas); the mock driver computes it on the
/// CPU with the same f32 operations (tools/tp-run/mock).
///
/// Parameters, in order (PTX .param, natural alignment):
///   u64 D, u64 A, u64 B,
///   u64 C     the C input, D's type (read only with flag ReadC),
///   u64 bias  N f32 values, 0: none,
///   f32 alpha, f32 beta   (the residual R = A B + R is alpha 1, beta 1),
///   u32 M, u32 N, u32 K,
///   u32 sAi, u32 sAk   element strides of A(i, k): rows (lda, 1), columns
///                      (1, lda)
///   u32 sBk, u32 sBj   element strides of B(k, j): rows (1, ldb), columns
///                      (ldb, 1)
///   u32 ldc            row pitch of C and D
///   u32 strideA, strideB, strideC   batch strides (elements)
///   u32 flags          ReferenceFlags
/// Launch: block (32, 8, 1), grid (ceil(N / 32), ceil(M / 8), batch);
/// threads outside D return at once.
///
//===----------------------------------------------------------------------===//
#ifndef TP_TOOLS_TPRUN_REFERENCEKERNEL_H
#define TP_TOOLS_TPRUN_REFERENCEKERNEL_H

#include "llvm/ADT/StringRef.h"
#include <cstdint>

namespace tp {
namespace run {

/// The PTX module text (NUL-terminated, as cuModuleLoadDataEx wants it).
const char *getReferenceKernelPTX();
/// The entry point's name.
inline llvm::StringRef getReferenceKernelName() { return "tp_ref_gemm"; }
constexpr unsigned ReferenceBlockX = 32, ReferenceBlockY = 8;
/// The flags parameter's bits.
enum ReferenceFlags : uint32_t {
  RefABF16 = 1,      ///< A is bf16 (else f16)
  RefBBF16 = 2,      ///< B is bf16
  RefDF16 = 1 << 2,  ///< D and C are f16 (bits 2-3: 0 f32, 1 f16, 2 bf16)
  RefDBF16 = 2 << 2, ///< D and C are bf16
  RefRelu = 16,      ///< max(x, 0) last
  RefReadC = 32,     ///< x += beta C
};

} // namespace run
} // namespace tp

#endif // TP_TOOLS_TPRUN_REFERENCEKERNEL_H
