//===- Driver.h - From a kernel description to a cubin ----------*- C++ -*-===//
///
/// \file
/// The top layer of tp: what a compiler driver does around the pass
/// pipeline, as a library (tp-llc is a thin command line over it, and so
/// is the C++ API, Compile.h).  It may use every layer below it
/// (CodeGen, Object, Transforms, TileIR, MIR, Target, Pass, Support); none
/// of them uses it.
///
///  * KernelSpec -> tile IR: the product the options describe, checked
///    against the admission rules up front so that errors name the option
///    and the rule, not a line of IR the user never wrote.
///  * A lowered function -> the kernel tp ships: ptxas's NOP padding,
///    branches resolved, every form confirmed by NVIDIA's bytes.
///  * The kernel -> its SASS listing, its cubin and its launch manifest.
///
//===----------------------------------------------------------------------===//
#ifndef TP_DRIVER_DRIVER_H
#define TP_DRIVER_DRIVER_H

#include "tp/MIR/MIR.h"
#include "tp/Support/LaunchManifest.h"
#include "tp/Target/SASS/SASS.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/Optional.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace tp {
namespace driver {

/// A GEMM kernel as command-line options state it; each value is None when
/// the option was not given (an empty value given is an error).
struct KernelSpec {
  llvm::Optional<std::string> Gemm;    ///< MxNxK (default 4096x4096x4096)
  llvm::Optional<std::string> LayoutA; ///< rows (default) or columns
  llvm::Optional<std::string> LayoutB; ///< columns (default) or rows
  llvm::Optional<std::string> Tile;    ///< a tile spec (tp-tile chooses)
  bool Residual = false;               ///< C = A B + R
  /// --a-type, --b-type (f16 or bf16, default f16), --d-type (f32, f16 or
  /// bf16, default f32): the element types of A, B and D (C and R).
  llvm::Optional<std::string> AType, BType, DType;
  /// --alpha / --beta given: D = alpha A B + beta C, alpha and beta run-time
  /// parameters (C is R's buffer, read only when beta != 0); --bias: +
  /// bias[col] (f32); --relu: max(x, 0) last.
  bool Scale = false, Bias = false, Relu = false;
  /// false (the default): M, N, K and the leading dimensions are kernel
  /// parameters (any shape, edges predicated) and --gemm is the recorded
  /// shape; true (--fixed-shape): the shape built into the code (every
  /// extent a multiple of the tile).
  bool FixedShape = false;
  /// Strided batches (run-time shapes only): the recorded batch count, the
  /// grid's z; the kernel takes the batch strides as parameters.
  llvm::Optional<unsigned> Batch;
  std::string Name = "gemm";           ///< the kernel symbol
  /// The target (-mcpu): the tile IR's target=, whose limits admission
  /// applies and whose card the automatic tile is sized for.
  sass::Target Target = sass::Target::SM86;
};

/// The value of --tile in the one spelling tp-tile's option takes (the
/// preset's name, else WM,WN,MT,NT,S), or an error `--tile=V: ...`.
llvm::Expected<std::string> normalizeTileOption(llvm::StringRef Value);

/// The tile IR of \p Spec.  Errors name the option and the admission rule
/// it breaks (`--gemm=100x256x256: M = 100 is not a multiple of 128 (...)
/// (tile large)`).  Without --gemm the shape is the default example's and
/// its tile the large one (unless --tile says).
llvm::Expected<std::string> describeKernel(const KernelSpec &Spec);

/// The final instruction stream tp emits from a lowered function: ptxas's
/// NOP padding to 128 bytes, branch offsets resolved, and every form one
/// that NVIDIA's bytes confirm (sass::isOracleVerified; forms named in
/// \p AssumeUnverified count as unconfirmed, for testing the check).  A
/// form not confirmed is an internal error when a pass chose it, and an
/// error at its line (in \p SM, when given) when it was read from machine
/// IR text.
llvm::Error finalizeKernel(mir::Function &F,
                           llvm::ArrayRef<std::string> AssumeUnverified = {},
                           const llvm::SourceMgr *SM = nullptr);

/// Verifies the schedule of the lowered function \p F, as it will be
/// written: tp-verify-schedule on its checked program (the loop's branches
/// dropped and, when it runs more than once, body and control laid out
/// twice, as tp-form-loop checked=1 builds it).  Every hazard is an error,
/// located in \p SM where the instruction was parsed.
llvm::Error verifyKernelSchedule(const mir::Function &F, llvm::SourceMgr &SM);

/// The SASS listing of \p F as `tp-mc --disassemble --show-control` prints
/// a cubin's code, with `// ^label:` lines.
void printListing(const mir::Function &F, llvm::raw_ostream &OS);

/// The static schedule figures of \p F (instructions, loop issue cycles,
/// registers, shared bytes), as `tp-llc -stats` prints them.
void printScheduleFigures(const mir::Function &F, llvm::raw_ostream &OS);

/// A cubin and its launch manifest.
struct ObjectFile {
  std::vector<uint8_t> Cubin;
  LaunchManifest Manifest;
};

/// The cubin (ptxas 13's layout for \p Target) and the validated launch
/// manifest of the finalized function \p F.  Shared memory above 48 KiB
/// (sm_90's reserved 1 KiB included) is dynamic, else static.  \p F's
/// target must be \p Target.  \p ManifestName names the manifest in errors.
llvm::Expected<ObjectFile> buildObject(const mir::Function &F,
                                       sass::Target Target,
                                       llvm::StringRef ManifestName);

} // namespace driver
} // namespace tp

#endif // TP_DRIVER_DRIVER_H
