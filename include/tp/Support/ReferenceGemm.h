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
/// Also the one definition of the verdict's tolerance
/// (DefaultGemmTolerance) and of the rules a product's storage keeps
/// (GemmStorage, checkGemmStorage), which tp-sim, tp-run and the library
/// check before a launch.
///
//===----------------------------------------------------------------------===//
#ifndef TP_SUPPORT_REFERENCEGEMM_H
#define TP_SUPPORT_REFERENCEGEMM_H

#include "tp/Support/FloatConversion.h"
#include "tp/Support/LaunchManifest.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <vector>

namespace tp {

/// The pattern C is filled with before a launch: a signaling NaN that no
/// arithmetic produces (arithmetic on NaN returns a quiet NaN).
constexpr uint32_t PoisonBits = 0x7fbadbadu;

/// The largest relative Frobenius error of D against the exact reference
/// that passes (tp-sim's, tp-run's and the library's default): well above
/// f32 accumulation's error on these inputs, below a rounding to the wrong
/// type or an element off by one.
constexpr double DefaultGemmTolerance = 1e-3;

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
  /// The epilogue: D = Alpha A B + Beta C (C, the R buffer, not
  /// read when Beta = 0: a NaN there does not reach D) + bias[j], then
  /// max(x, 0) with Relu.
  bool Scale = false, Bias = false, Relu = false;
  double Alpha = 1, Beta = 0;

  static GemmProblem fromManifest(const LaunchManifest &Man);
  uint64_t elementsA() const { return M * K; }
  uint64_t elementsB() const { return N * K; }
  uint64_t elementsC() const { return M * N; }
  /// A's and B's stored rows and columns (elements), as the layouts store
  /// them: A rows is M x K, columns K x M; B rows is N x K, columns K x N.
  uint64_t rowsA() const { return LayoutA == OperandLayout::Rows ? M : K; }
  uint64_t colsA() const { return LayoutA == OperandLayout::Rows ? K : M; }
  uint64_t rowsB() const { return LayoutB == OperandLayout::Rows ? N : K; }
  uint64_t colsB() const { return LayoutB == OperandLayout::Rows ? K : N; }
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
/// D's type as referenceGemm does); \p Bias as referenceGemm's (read only
/// when P.Bias).
double referenceElement(const GemmProblem &P, llvm::ArrayRef<uint16_t> A,
                        llvm::ArrayRef<uint16_t> B, llvm::ArrayRef<float> R,
                        uint64_t I, uint64_t J);
double referenceElement(const GemmProblem &P, llvm::ArrayRef<uint16_t> A,
                        llvm::ArrayRef<uint16_t> B, llvm::ArrayRef<float> R,
                        llvm::ArrayRef<float> Bias, uint64_t I, uint64_t J);

/// How a product's operands lie in memory (elements): each operand's row
/// pitch (lda: A's stored row, K for rows or M for columns; ldb: K or N;
/// ldc: N, for C and D alike) and, for Batch > 1 products, batch b of A,
/// B, C/D starting b x stride elements after batch 0.
struct GemmStorage {
  uint64_t LdA = 0, LdB = 0, LdC = 0, Batch = 1;
  uint64_t StrideA = 0, StrideB = 0, StrideC = 0;

  /// Rows x ld, each ld the extent rounded up to a multiple of \p Align
  /// elements (1: dense); batches back to back.
  static GemmStorage packed(const GemmProblem &P, uint64_t Batch,
                            uint64_t Align);
  /// The elements each operand's storage spans (all batches).
  uint64_t spanA(const GemmProblem &P) const {
    return (Batch - 1) * StrideA + P.rowsA() * LdA;
  }
  uint64_t spanB(const GemmProblem &P) const {
    return (Batch - 1) * StrideB + P.rowsB() * LdB;
  }
  uint64_t spanC(const GemmProblem &P) const {
    return (Batch - 1) * StrideC + P.M * LdC;
  }
  /// Where element (i, j) of batch b of C/D is.
  uint64_t indexC(uint64_t B, uint64_t I, uint64_t J) const {
    return B * StrideC + I * LdC + J;
  }
};

/// The rules a run-time-shape kernel's storage keeps, checked before a
/// launch (the kernel cannot): each leading dimension at least its stored
/// row's extent and a multiple of 8 elements, each batch stride a multiple
/// of 8 elements (the copies move 16-byte chunks of aligned rows), batches
/// of C that do not overlap (stride_c >= M x ldc), and every operand
/// (all batches) below 2^32 bytes (the kernel's 32-bit byte offsets).  The
/// error names the rule and the numbers.
llvm::Error checkGemmStorage(const GemmProblem &P, const GemmStorage &S);

/// One launch of a manifest's kernel: the product, its storage, the grid.
struct GemmLaunch {
  GemmProblem P;
  GemmStorage S;
  std::array<uint32_t, 3> Grid = {1, 1, 1};
};

/// A shape asked for: M x N x K, Batch products.
struct GemmShape {
  uint64_t M = 0, N = 0, K = 0, Batch = 1;
};

/// Whether the manifest's kernel takes its shape at run time (an LDA
/// parameter) and batch strides (a StrideA parameter).
inline bool hasRuntimeShape(const LaunchManifest &Man) {
  return Man.findParam(ParamRole::LDA) != nullptr;
}
inline bool hasBatchStrides(const LaunchManifest &Man) {
  return Man.findParam(ParamRole::StrideA) != nullptr;
}

/// The launch of \p Man at its recorded shape (its leading dimensions,
/// batch and strides; a version 1 manifest's dense ones), or at \p Shape
/// when given: a run-time-shape kernel at any M, N, K >= 1 (a batch > 1
/// only with batch strides), each ld its extent rounded up to \p Align
/// elements and batches back to back, the grid [ceil(N / BN), ceil(M / BM),
/// batch] from the manifest's tile; a fixed-shape kernel only at its own
/// shape.  \p What names the shape in errors ("--shape=7x3x1").  The
/// storage is not checked (checkGemmStorage).
llvm::Expected<GemmLaunch> getGemmLaunch(const LaunchManifest &Man,
                                         const GemmShape *Shape,
                                         uint64_t Align,
                                         llvm::StringRef What);

/// "MxNxK" or "MxNxKxB" (integers in [1, 2^31-1]) into \p Out; false when
/// \p Text is not that.
bool parseGemmShape(llvm::StringRef Text, GemmShape &Out);

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
