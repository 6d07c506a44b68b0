//===- Compile.h - tp's C++ API: a GEMM description to a kernel -*- C++ -*-===//
///
/// \file
/// The C++ API of tp: compile a GEMM description to a Kernel
/// that holds everything tp ships for it, in memory: the cubin's bytes, the
/// SASS listing (as `tp-llc -filetype=asm` writes it), the launch manifest
/// (structured and as the JSON text tp-llc writes beside the cubin) and the
/// kernel's static figures.
///
/// Guarantees: the kernel is the one tp-llc builds for the same options,
/// byte for byte (tp-llc's emit step is emitKernel() below); failures are
/// llvm::Errors carrying the diagnostics tp-llc prints (renderErrors()
/// gives their text); nothing is printed, nothing is written to disk.
/// The listing is printed when first asked for (Kernel::getSass(), safe
/// from several threads on one kernel).  (Concurrent compileGemm calls
/// from several threads are not yet checked: serialize them.)
///
/// The description takes what tp-llc's options take: f16 or bf16 A and B,
/// an f32, f16 or bf16 D, alpha and beta, bias, ReLU, the residual R and
/// a batch; a combination tp-llc refuses is an llvm::Error with the same
/// message.
///
//===----------------------------------------------------------------------===//
#ifndef TP_DRIVER_COMPILE_H
#define TP_DRIVER_COMPILE_H

#include "tp/Driver/Driver.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace tp {

/// A GEMM to compile: D = A B (+ R with Residual), as tp-llc's options
/// describe it.  The defaults are tp-llc's defaults but for the tile
/// ("auto": tp-tile chooses for the shape).
struct GemmDesc {
  int64_t M = 4096, N = 4096, K = 4096;
  std::string LayoutA = "rows";    ///< rows or columns
  std::string LayoutB = "columns"; ///< rows or columns
  /// "auto" (tp-tile chooses), large, small, 128x64, 256x128 or
  /// WM,WN,MT,NT,S.
  std::string Tile = "auto";
  bool Residual = false;           ///< D = A B + R (an f32 M x N operand)
  /// false (tp-llc's default): M, N, K and the leading dimensions are
  /// kernel parameters and M, N, K here the recorded shape (the
  /// manifest's); true: the shape built into the code (--fixed-shape).
  bool FixedShape = false;
  std::string Target = "sm_86";    ///< sm_80 .. sm_121 (GemmCodeGen)
  std::string Name = "gemm";       ///< the kernel symbol
  /// Element types: A and B f16 or bf16 (one type), D f32, f16 or bf16.
  std::string AType = "f16", BType = "f16", DType = "f32";
  /// D = alpha A B + beta C (C is the R parameter, read only when beta !=
  /// 0): alpha != 1 or beta != 0 builds the kernel that takes both as f32
  /// parameters (the values the manifest records); not with Residual.
  double Alpha = 1.0, Beta = 0.0;
  bool Bias = false, Relu = false; ///< + bias[col] (f32); max(x, 0) last
  int64_t Batch = 1; ///< > 1: strided batches (a run-time shape)
};

/// The static figures of a kernel (as `tp-llc -stats` prints them).
struct KernelStats {
  uint64_t Instructions = 0;
  uint64_t LoopBodyInstructions = 0;
  uint64_t HMMAs = 0;
  uint64_t LoopHMMAs = 0;
  uint64_t LoopIssueCycles = 0;
  double IssueCyclesPerKStep = 0;
  unsigned Registers = 0;
  uint64_t SharedBytes = 0;
};

/// The SASS listing of a kernel, printed once (defined in Compile.cpp).
class KernelListing;

/// A compiled kernel.
struct Kernel {
  std::string Name;
  std::string Target;          ///< sm_80 .. sm_121 (GemmCodeGen)
  std::vector<uint8_t> Cubin;  ///< ptxas 13's layout
  LaunchManifest Manifest;
  std::string ManifestJSON;    ///< as tp-llc writes <out>.json
  KernelStats Stats;

  /// The SASS listing, as `tp-llc -filetype=asm` writes it.  A kernel of
  /// compileGemm() prints it on the first call, not before (a caller that
  /// never asks pays nothing for it): concurrent first calls are safe (one
  /// prints, the others wait for it) and copies of the kernel share the
  /// text.  Until then the kernel keeps its machine function, which the
  /// printing releases.  emitKernel()'s kernel has it already with
  /// EmitOptions::BuildListing and is empty without.
  const std::string &getSass() const;

  /// Where getSass() comes from (null: no listing).
  std::shared_ptr<KernelListing> Listing;
};

/// Compiles \p Desc.  Errors name the field as tp-llc names its option
/// (`--gemm=100x256x256: M = 100 is not a multiple of 128 (...)`,
/// `--layout-a: expected rows or columns, found 'x'`).
llvm::Expected<Kernel> compileGemm(const GemmDesc &Desc);

/// How emitKernel() works.
struct EmitOptions {
  /// Build the cubin and the manifest (else only the listing and the
  /// figures: a listing needs no grid or shape attributes).
  bool BuildObject = true;
  /// Print the SASS listing now (Kernel::getSass(); else it stays
  /// empty): a cubin alone needs none (tp-llc -filetype=obj).
  bool BuildListing = true;
  /// The manifest's name in errors.
  std::string ManifestName = "gemm.cubin.json";
  /// As finalizeKernel's (testing the oracle check).
  std::vector<std::string> AssumeUnverified;
  /// The source of machine IR read from text (tp-llc's input), in which
  /// finalizeKernel locates an instruction it refuses; may be null.
  const llvm::SourceMgr *SM = nullptr;
  /// The alpha and beta the manifest records for a kernel that takes them
  /// (the values tp-sim and tp-run pass by default).
  double Alpha = 1.0, Beta = 0.0;
};

/// The kernel of the lowered function \p F for \p Target (the step after
/// the pass pipeline, shared with tp-llc): finalizeKernel() on \p F, then
/// its listing, figures and (with BuildObject) cubin and manifest.
llvm::Expected<Kernel> emitKernel(mir::Function &F, sass::Target Target,
                                  const EmitOptions &Opts);

/// The text tp's tools print for \p E (reportError's, without colour):
/// located errors as `file:line:col: error: message`, the source line and
/// a caret; others as `<Tool>: error: message`; one per line.
std::string renderErrors(llvm::Error E, llvm::StringRef Tool = "tp");

} // namespace tp

#endif // TP_DRIVER_COMPILE_H
