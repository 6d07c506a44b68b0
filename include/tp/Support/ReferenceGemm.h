//===- ReferenceGemm.h - Inputs, reference and checks of a GEMM -*- C++ -*-===//
///
/// \file
/// What tp-sim and tp-run share to prove a kernel computed C = A B [+ R]:
///
///  * IEEE binary16 <-> binary32 conversions (FloatConversion.h, included
///    here for the tools that use both);
///  * deterministic inputs: fillRandomHalves/fillRandomFloats draw from a
///    counter-based generator (SplitMix64) keyed by a seed and a stream, so
///    the same seed gives the same matrices on every machine and in every
///    tool.  Values are multiples of 1/1024 in [-1, 1], exact in binary16,
///    so every product is exact in double precision;
///  * the reference product in double precision, honoring both operand
///    layouts of A and B (DESIGN.md section 1), blocked so that 512^3 takes
///    a fraction of a second;
///  * the comparison: relative Frobenius error, largest element error, and
///    the poison check (C is filled with PoisonBits before the kernel runs;
///    any element still holding exactly that pattern was never written).
///
/// Stream numbers used by the tools: A = 0, B = 1, R = 2, bias = 3.
///
//===----------------------------------------------------------------------===//
#ifndef TP_SUPPORT_REFERENCEGEMM_H
#define TP_SUPPORT_REFERENCEGEMM_H

#include "tp/Support/FloatConversion.h"
#include "tp/Support/LaunchManifest.h"
#include "llvm/ADT/ArrayRef.h"
#include <cstdint>
#include <vector>

namespace tp {

/// The pattern C is filled with before a launch: a signaling NaN that no
/// arithmetic produces (arithmetic on NaN returns a quiet NaN).
constexpr uint32_t PoisonBits = 0x7fbadbadu;

/// Input streams of the tools (the seed is the user's, the stream says which
/// matrix).
enum RandomStream : uint64_t {
  StreamA = 0,
  StreamB = 1,
  StreamR = 2,
  StreamBias = 3
};

/// Fills \p Out with binary16 values k/1024, k uniform in [-1024, 1024],
/// from (\p Seed, \p Stream).  Element i depends only on (Seed, Stream, i).
void fillRandomHalves(llvm::MutableArrayRef<uint16_t> Out, uint64_t Seed,
                      uint64_t Stream);
/// Fills \p Out with values of type \p T (f16: fillRandomHalves; bf16:
/// bfloat16 values k/256, k in [-256, 256] (fillRandomHalves' step / 4),
/// exact in bfloat16's 8
/// significant bits), from (\p Seed, \p Stream).
void fillRandomOperand(llvm::MutableArrayRef<uint16_t> Out, uint64_t Seed,
                       uint64_t Stream, ElementType T);

/// The value of operand element \p Bits of type \p T (f16 or bf16), exact.
double operandValue(uint16_t Bits, ElementType T);

/// \p X rounded once to \p T (f32, f16 or bf16) to nearest, ties to even;
/// beyond the type's range an infinity of \p X's sign.
double roundToElementType(double X, ElementType T);

/// The pattern a 16-bit D (f16, bf16) is filled with before a launch: a
/// signaling NaN of that type (0x7dad f16, 0x7fad bf16).
uint16_t getPoison16(ElementType T);

/// D's elements of type \p T from its bytes as floats (exact); a 16-bit
/// element that still holds getPoison16 becomes PoisonBits, so that
/// compareGemm counts it as unwritten.
std::vector<float> widenD(llvm::ArrayRef<uint8_t> Bytes, ElementType T);

/// The same values as floats (used for the f32 residual R).
void fillRandomFloats(llvm::MutableArrayRef<float> Out, uint64_t Seed,
                      uint64_t Stream);

/// Shape and layouts of one product.
struct GemmProblem {
  uint64_t M = 0, N = 0, K = 0;
  OperandLayout LayoutA = OperandLayout::Rows;
  OperandLayout LayoutB = OperandLayout::Columns;
  bool Residual = false;
  /// Element types (A, B f16 or bf16; D f32, f16 or bf16).
  ElementType AType = ElementType::F16, BType = ElementType::F16,
              DType = ElementType::F32;
  /// The epilogue (issue 16): D = Alpha A B + Beta C (C, the R buffer, not
  /// read when Beta = 0: a NaN there does not reach D) + bias[j], then
  /// max(x, 0) with Relu.
  bool Scale = false, Bias = false, Relu = false;
  double Alpha = 1, Beta = 0;

  static GemmProblem fromManifest(const LaunchManifest &Man);
  uint64_t elementsA() const { return M * K; }
  uint64_t elementsB() const { return N * K; }
  uint64_t elementsC() const { return M * N; }
  /// Index of A(i, k) in A's storage.
  uint64_t indexA(uint64_t I, uint64_t Kk) const {
    return LayoutA == OperandLayout::Rows ? I * K + Kk : Kk * M + I;
  }
  /// Index of B(k, j) in B's storage (B rows is N x K: C = A B^T).
  uint64_t indexB(uint64_t Kk, uint64_t J) const {
    return LayoutB == OperandLayout::Rows ? J * K + Kk : Kk * N + J;
  }
};

/// C = A B [+ R] in double precision, C as M x N row-major, A and B of
/// P.AType / P.BType; when D is f16 or bf16 each element is then rounded
/// once to D's type (what the kernel stores: its f32 sum rounded).  \p R
/// is read only when P.Residual (then it has M*N elements).
void referenceGemm(const GemmProblem &P, llvm::ArrayRef<uint16_t> A,
                   llvm::ArrayRef<uint16_t> B, llvm::ArrayRef<float> R,
                   std::vector<double> &C);
/// The same with the epilogue's bias (N values; read only when P.Bias).
void referenceGemm(const GemmProblem &P, llvm::ArrayRef<uint16_t> A,
                   llvm::ArrayRef<uint16_t> B, llvm::ArrayRef<float> R,
                   llvm::ArrayRef<float> Bias, std::vector<double> &C);

/// One element C(i, j) of the reference, in double precision (rounded to
/// D's type as referenceGemm does).
double referenceElement(const GemmProblem &P, llvm::ArrayRef<uint16_t> A,
                        llvm::ArrayRef<uint16_t> B, llvm::ArrayRef<float> R,
                        uint64_t I, uint64_t J);

/// How far a computed C is from the reference.
struct GemmErrors {
  uint64_t Compared = 0;   ///< Elements compared.
  uint64_t Unwritten = 0;  ///< Elements still holding PoisonBits.
  uint64_t NonFinite = 0;  ///< Other NaN or infinite elements.
  double RelFrobenius = 0; ///< ||C - Ref||_F / ||Ref||_F over finite ones.
  double MaxAbsError = 0;  ///< max |C - Ref| over finite ones.
  uint64_t MaxIndex = 0;   ///< Where MaxAbsError is (row-major index).
  uint64_t FirstBad = UINT64_MAX; ///< First unwritten or non-finite index.

  /// True when every element was written, is finite, and the relative
  /// Frobenius error is at most \p Tolerance.
  bool passes(double Tolerance) const {
    return Compared && !Unwritten && !NonFinite && RelFrobenius <= Tolerance;
  }
};

/// Compares all of \p C with \p Ref (same size).
GemmErrors compareGemm(llvm::ArrayRef<float> C, llvm::ArrayRef<double> Ref);

/// Compares the elements \p Indices (row-major) of \p C with \p Ref, where
/// Ref[i] is the reference of C[Indices[i]].
GemmErrors compareGemmAt(llvm::ArrayRef<float> C,
                         llvm::ArrayRef<uint64_t> Indices,
                         llvm::ArrayRef<double> Ref);

/// Counts the elements of \p C that still hold PoisonBits; stores the first
/// such index in \p First (UINT64_MAX if none).
uint64_t countPoisoned(llvm::ArrayRef<float> C, uint64_t &First);

/// \p Count distinct row-major indices of an M x N matrix, deterministic in
/// \p Seed: the four corners first, then pseudo-random ones; all M*N indices
/// in order when Count >= M*N.
std::vector<uint64_t> sampleIndices(uint64_t M, uint64_t N, uint64_t Count,
                                    uint64_t Seed);

} // namespace tp

#endif // TP_SUPPORT_REFERENCEGEMM_H
