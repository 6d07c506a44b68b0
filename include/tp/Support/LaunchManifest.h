//===- LaunchManifest.h - The launch description beside a cubin -*- C++ -*-===//
///
/// \file
/// A launch manifest says how to launch one GEMM kernel: which symbol, the
/// grid and block, the shared memory, where each parameter sits in the
/// parameter block and what it points at, and the product's shape and
/// operand layouts.  `tp-llc` writes it beside a cubin as `X.cubin.json`;
/// `tp-sim` and `tp-run` read it.  A manifest can also be written by hand to
/// launch a kernel tp did not build (the reference PTX GEMM).  The format is
/// documented in docs/launch-manifest.md.
///
/// Reading is two steps, both returning an llvm::Error that names the file,
/// the field and what was expected:
///   1. parseLaunchManifest: JSON syntax, required fields, field types,
///      no unknown fields;
///   2. validateLaunchManifest (called by parse): the values are consistent
///      (format version, target, dimensions, the parameter list against the
///      roles the product needs, offsets aligned and not overlapping).
/// Writing (printLaunchManifest) is deterministic: fields in a fixed order,
/// two-space indentation, a final newline; print(parse(print(M))) is
/// byte-identical to print(M).
///
//===----------------------------------------------------------------------===//
#ifndef TP_SUPPORT_LAUNCHMANIFEST_H
#define TP_SUPPORT_LAUNCHMANIFEST_H

#include "llvm/ADT/Optional.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "tp/Support/ElementType.h"
#include "tp/Support/OperandLayout.h"
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace tp {

/// What a kernel parameter is.  C, A, B and R are 8-byte global pointers;
/// M, N and K are 4-byte unsigned values taken from the manifest's shape (for
/// kernels that read the shape at run time: the reference PTX GEMM, tp's
/// run-time-shape kernels); LDA, LDB, LDC the leading dimensions in
/// elements and StrideA, StrideB, StrideC the batch strides in elements
/// (4-byte unsigned, format version 2).  Alpha and Beta are
/// 4-byte f32 values, Bias an 8-byte pointer to N f32 values.
enum class ParamRole { C, A, B, R, M, N, K, Alpha, Beta, Bias, LDA, LDB, LDC,
                       StrideA, StrideB, StrideC };
constexpr unsigned NumParamRoles = 16;

llvm::StringRef getRoleName(ParamRole R);
llvm::Optional<ParamRole> parseRoleName(llvm::StringRef S);
/// The size in bytes a parameter of role \p R must have (8 or 4).
unsigned getRoleSize(ParamRole R);

/// One kernel parameter, in parameter-block order.
struct ManifestParam {
  std::string Name;
  ParamRole Role = ParamRole::C;
  uint32_t Offset = 0; ///< Byte offset in the parameter block.
  uint32_t Size = 8;   ///< Bytes: 8 for pointers, 4 for M/N/K.
};

struct LaunchManifest {
  /// Version 2 adds lda, ldb, ldc, tile, batch and the strides (a kernel
  /// with a run-time shape); a version 1 file has none of them (dense
  /// leading dimensions, one product, the tile unknown).
  static constexpr int64_t CurrentFormatVersion = 2;

  int64_t FormatVersion = 1; ///< 2 for a kernel with a run-time shape
  std::string Kernel;           ///< Symbol name of the entry function.
  std::string Target = "sm_86"; ///< "sm_86" or "sm_90".
  std::array<uint32_t, 3> Grid = {1, 1, 1};
  std::array<uint32_t, 3> Block = {1, 1, 1};
  uint32_t DynamicSharedBytes = 0;
  uint32_t StaticSharedBytes = 0;
  std::vector<ManifestParam> Params;
  uint64_t M = 0, N = 0, K = 0;
  OperandLayout LayoutA = OperandLayout::Rows;
  OperandLayout LayoutB = OperandLayout::Columns;
  bool Residual = false;
  /// Element types (optional fields a_type, b_type, d_type): A
  /// and B f16 or bf16, D (role C) and R f32, f16 or bf16.
  ElementType AType = ElementType::F16, BType = ElementType::F16,
              DType = ElementType::F32;

  /// The epilogue (optional fields): D = alpha A B + beta C
  /// (C read from R only when beta != 0) + bias[col], then ReLU.  Alpha
  /// and Beta are the values tp-sim and tp-run pass by default (fields
  /// "alpha", "beta", present exactly when the kernel takes them).
  bool HasScale = false;
  double Alpha = 1, Beta = 0;
  bool Bias = false, Relu = false;

  bool hasDefaultTypes() const {
    return AType == ElementType::F16 && BType == ElementType::F16 &&
           DType == ElementType::F32;
  }
  // Format version 2 (0 in a version 1 file: dense, one product).
  uint64_t LdA = 0, LdB = 0, LdC = 0;
  std::array<uint32_t, 2> Tile = {0, 0}; ///< BM, BN: the grid of any shape
  uint64_t Batch = 1;
  uint64_t StrideA = 0, StrideB = 0, StrideC = 0;

  /// The parameter of role \p R, or null.
  const ManifestParam *findParam(ParamRole R) const;
  /// Bytes the parameter block needs: the end of the last parameter.
  uint32_t getParamBlockSize() const;
  uint64_t getThreadsPerBlock() const {
    return uint64_t(Block[0]) * Block[1] * Block[2];
  }
};

/// Parses and validates manifest text.  \p FileName only names the source in
/// errors ("<file>: field 'grid': expected ...").
llvm::Expected<LaunchManifest> parseLaunchManifest(llvm::StringRef Text,
                                                   llvm::StringRef FileName);

/// Reads, parses and validates the manifest file \p Path.
llvm::Expected<LaunchManifest> readLaunchManifest(llvm::StringRef Path);

/// Checks the values of \p M (everything parseLaunchManifest checks beyond
/// syntax and types); errors name \p FileName and the field.
llvm::Error validateLaunchManifest(const LaunchManifest &M,
                                   llvm::StringRef FileName);

/// The manifest as JSON text: fixed field order, two-space indentation,
/// one final newline.
std::string printLaunchManifest(const LaunchManifest &M);

/// Validates \p M and writes it to \p Path atomically (tp::writeOutput).
llvm::Error writeLaunchManifest(const LaunchManifest &M, llvm::StringRef Path);

/// The manifest path beside a cubin: "<Cubin>.json".
std::string getManifestPathFor(llvm::StringRef CubinPath);

/// The largest dynamic shared memory one block may opt into on \p Target
/// (sm_86: 99 KiB, sm_90: 227 KiB), or 0 for an unknown target.
uint32_t getMaxDynamicSharedBytes(llvm::StringRef Target);

} // namespace tp

#endif // TP_SUPPORT_LAUNCHMANIFEST_H
