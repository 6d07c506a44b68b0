//===- ReferenceKernel.h - A simple GEMM in PTX for checking on the GPU -*-===//
///
/// \file
/// `tp_ref_gemm`, the kernel tp-run's `--verify=gpu` runs beside the kernel
/// under test: one thread per element of C, f16 inputs widened to f32,
/// `fma.rn.f32` in k order, then `+ R` when R is not null.  It is PTX text
/// that the driver compiles (cuModuleLoadDataEx), so it runs on any GPU the
/// driver supports.  `tp-run --print-reference-ptx` prints it (the test
/// suite assembles it with ptxas).
///
/// Parameters, in order (PTX .param, natural alignment):
///   u64 C, u64 A, u64 B, u64 R (0: no residual),
///   u32 M, u32 N, u32 K,
///   u32 sAi, u32 sAk   element strides of A(i, k): rows (K, 1), columns (1, M)
///   u32 sBk, u32 sBj   element strides of B(k, j): rows (1, K), columns (N, 1)
/// Launch: block (32, 8, 1), grid (ceil(N / 32), ceil(M / 8), 1); threads
/// outside C return at once.
///
//===----------------------------------------------------------------------===//
#ifndef TP_TOOLS_TPRUN_REFERENCEKERNEL_H
#define TP_TOOLS_TPRUN_REFERENCEKERNEL_H

#include "llvm/ADT/StringRef.h"

namespace tp {
namespace run {

/// The PTX module text (NUL-terminated, as cuModuleLoadDataEx wants it).
const char *getReferenceKernelPTX();
/// The entry point's name.
inline llvm::StringRef getReferenceKernelName() { return "tp_ref_gemm"; }
constexpr unsigned ReferenceBlockX = 32, ReferenceBlockY = 8;

} // namespace run
} // namespace tp

#endif // TP_TOOLS_TPRUN_REFERENCEKERNEL_H
