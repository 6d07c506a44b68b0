//===- ReferenceGemm.cpp - Inputs, reference and checks of a GEMM ---------===//
///
/// \file
/// The deterministic input generator, the double
/// precision reference product and the comparisons (ReferenceGemm.h).
///
/// Exactness of the reference: inputs are multiples of 2^-10 (bf16: 2^-8) with magnitude
/// at most 1, so each product is a multiple of 2^-20 of magnitude at most 1
/// and every partial sum of K products is a multiple of 2^-20 below K.  Such
/// numbers are exact in double (53-bit significand) while K < 2^33, and R
/// adds one more exact term; so the reference is the exact product, whatever
/// the summation order.
///
//===----------------------------------------------------------------------===//

#include "tp/Support/ReferenceGemm.h"
#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstring>
#include <unordered_set>

using namespace llvm;

namespace tp {

//===----------------------------------------------------------------------===//
// Inputs
//===----------------------------------------------------------------------===//

namespace {

/// SplitMix64's finalizer (Steele, Lea, Flood, "Fast splittable
/// pseudorandom number generators", 2014).
uint64_t mix64(uint64_t Z) {
  Z = (Z ^ (Z >> 30)) * 0xbf58476d1ce4e5b9ull;
  Z = (Z ^ (Z >> 27)) * 0x94d049bb133111ebull;
  return Z ^ (Z >> 31);
}

/// The integer k in [-1024, 1024] of element \p I; the value is k / 1024.
int32_t randomStep(uint64_t Key, uint64_t I) {
  uint64_t Z = mix64(Key + (I + 1) * 0x9e3779b97f4a7c15ull);
  return int32_t(Z % 2049) - 1024;
}

uint64_t streamKey(uint64_t Seed, uint64_t Stream) {
  return mix64(Seed * 0xd1b54a32d192ed03ull + Stream * 0x9e3779b97f4a7c15ull +
               0x632be59bd9b4e019ull);
}

} // namespace

void fillRandomHalves(MutableArrayRef<uint16_t> Out, uint64_t Seed,
                      uint64_t Stream) {
  uint64_t Key = streamKey(Seed, Stream);
  for (uint64_t I = 0, E = Out.size(); I < E; ++I)
    Out[I] = floatToHalf(float(randomStep(Key, I)) / 1024.0f);
}

void fillRandomOperand(MutableArrayRef<uint16_t> Out, uint64_t Seed,
                       uint64_t Stream, ElementType T) {
  if (T != ElementType::BF16)
    return fillRandomHalves(Out, Seed, Stream);
  uint64_t Key = streamKey(Seed, Stream);
  for (uint64_t I = 0, E = Out.size(); I < E; ++I)
    Out[I] = floatToBFloat16(float(randomStep(Key, I) / 4) / 256.0f);
}

double operandValue(uint16_t Bits, ElementType T) {
  return T == ElementType::BF16 ? double(bfloat16ToFloat(Bits))
                                : double(halfToFloat(Bits));
}

double roundToElementType(double X, ElementType T) {
  if (T == ElementType::F32)
    return double(float(X)); // the C++ conversion rounds to nearest even
  if (T == ElementType::F16)
    return double(halfToFloat(roundToHalf(X)));
  // bfloat16: 8 significant bits, binary32's exponent range (subnormals
  // from 2^-133).
  if (!std::isfinite(X) || X == 0)
    return X;
  int Exp;
  std::frexp(X, &Exp); // |X| in [2^(Exp-1), 2^Exp)
  int Quantum = std::max(Exp - 8, -133);
  double R = std::ldexp(std::nearbyint(std::ldexp(X, -Quantum)), Quantum);
  const double Max = std::ldexp(255.0, 120); // 0x7f7f: (2 - 2^-7) 2^127
  if (std::fabs(R) > Max)
    return std::copysign(INFINITY, X);
  return R;
}

uint16_t getPoison16(ElementType T) {
  return T == ElementType::BF16 ? 0x7fad : 0x7dad;
}

std::vector<float> widenD(ArrayRef<uint8_t> Bytes, ElementType T) {
  unsigned Size = getElementTypeBytes(T);
  std::vector<float> Out(Bytes.size() / Size);
  for (size_t I = 0; I < Out.size(); ++I) {
    if (Size == 4) {
      memcpy(&Out[I], &Bytes[4 * I], 4);
      continue;
    }
    uint16_t H;
    memcpy(&H, &Bytes[2 * I], 2);
    Out[I] = H == getPoison16(T) ? bitsToFloat(PoisonBits)
             : T == ElementType::BF16 ? bfloat16ToFloat(H)
                                      : halfToFloat(H);
  }
  return Out;
}

void fillRandomFloats(MutableArrayRef<float> Out, uint64_t Seed,
                      uint64_t Stream) {
  uint64_t Key = streamKey(Seed, Stream);
  for (uint64_t I = 0, E = Out.size(); I < E; ++I)
    Out[I] = float(randomStep(Key, I)) / 1024.0f;
}

//===----------------------------------------------------------------------===//
// Reference
//===----------------------------------------------------------------------===//

GemmProblem GemmProblem::fromManifest(const LaunchManifest &Man) {
  GemmProblem P;
  P.M = Man.M;
  P.N = Man.N;
  P.K = Man.K;
  P.LayoutA = Man.LayoutA;
  P.LayoutB = Man.LayoutB;
  P.Residual = Man.Residual;
  P.AType = Man.AType;
  P.BType = Man.BType;
  P.DType = Man.DType;
  P.Scale = Man.HasScale;
  P.Alpha = Man.HasScale ? Man.Alpha : 1;
  P.Beta = Man.HasScale ? Man.Beta : 0;
  P.Bias = Man.Bias;
  P.Relu = Man.Relu;
  return P;
}

void referenceGemm(const GemmProblem &P, ArrayRef<uint16_t> A,
                   ArrayRef<uint16_t> B, ArrayRef<float> R,
                   std::vector<double> &C) {
  referenceGemm(P, A, B, R, {}, C);
}

namespace {
/// The epilogue of one element: alpha x + beta c (beta = 0: c not read)
/// + bias, ReLU, rounded to D's type.
double epilogue(const GemmProblem &P, double X, ArrayRef<float> R,
                ArrayRef<float> Bias, uint64_t I, uint64_t J) {
  if (P.Scale) {
    X *= P.Alpha;
    if (P.Beta != 0)
      X += P.Beta * double(R[I * P.N + J]);
  }
  if (P.Bias) {
    assert(J < Bias.size() && "the bias has N values");
    X += double(Bias[J]);
  }
  if (P.Relu && !(X > 0))
    X = 0;
  return P.DType == ElementType::F32 ? X : roundToElementType(X, P.DType);
}
} // namespace

void referenceGemm(const GemmProblem &P, ArrayRef<uint16_t> A,
                   ArrayRef<uint16_t> B, ArrayRef<float> R,
                   ArrayRef<float> Bias, std::vector<double> &C) {
  assert(A.size() == P.elementsA() && B.size() == P.elementsB() &&
         "operand sizes do not match the problem");
  assert((!P.Residual || R.size() == P.elementsC()) && "R has the wrong size");
  const uint64_t M = P.M, N = P.N, K = P.K;
  // Decode once into A as M x K and B as K x N, both row-major, so that the
  // inner loop is C(i, j0..j1) += A(i, k) * B(k, j0..j1) on contiguous rows.
  std::vector<double> Ad(M * K), Bd(K * N);
  for (uint64_t I = 0; I < M; ++I)
    for (uint64_t Kk = 0; Kk < K; ++Kk)
      Ad[I * K + Kk] = operandValue(A[P.indexA(I, Kk)], P.AType);
  for (uint64_t Kk = 0; Kk < K; ++Kk)
    for (uint64_t J = 0; J < N; ++J)
      Bd[Kk * N + J] = operandValue(B[P.indexB(Kk, J)], P.BType);

  C.assign(M * N, 0.0);
  if (P.Residual)
    for (uint64_t I = 0; I < M * N; ++I)
      C[I] = R[I];
  // Column blocks keep a K x JBlock panel of B (256 KiB at K = 128) hot in
  // cache while every row of A streams past it.
  const uint64_t JBlock = 256;
  for (uint64_t J0 = 0; J0 < N; J0 += JBlock) {
    const uint64_t JN = std::min(JBlock, N - J0);
    for (uint64_t I = 0; I < M; ++I) {
      double *Row = &C[I * N + J0];
      const double *ARow = &Ad[I * K];
      for (uint64_t Kk = 0; Kk < K; ++Kk) {
        const double Av = ARow[Kk];
        if (Av == 0.0)
          continue;
        const double *BRow = &Bd[Kk * N + J0];
        for (uint64_t J = 0; J < JN; ++J)
          Row[J] += Av * BRow[J];
      }
    }
  }
  if (P.Scale || P.Bias || P.Relu || P.DType != ElementType::F32)
    for (uint64_t I = 0; I < M; ++I)
      for (uint64_t J = 0; J < N; ++J)
        C[I * N + J] = epilogue(P, C[I * N + J], R, Bias, I, J);
}

double referenceElement(const GemmProblem &P, ArrayRef<uint16_t> A,
                        ArrayRef<uint16_t> B, ArrayRef<float> R, uint64_t I,
                        uint64_t J) {
  double Sum = P.Residual ? double(R[I * P.N + J]) : 0.0;
  for (uint64_t Kk = 0; Kk < P.K; ++Kk)
    Sum += operandValue(A[P.indexA(I, Kk)], P.AType) *
           operandValue(B[P.indexB(Kk, J)], P.BType);
  return epilogue(P, Sum, R, {}, I, J);
}

//===----------------------------------------------------------------------===//
// Comparison
//===----------------------------------------------------------------------===//

namespace {

struct Accumulator {
  GemmErrors E;
  double DiffSq = 0, RefSq = 0;

  void add(float C, double Ref, uint64_t Index) {
    ++E.Compared;
    if (floatBits(C) == PoisonBits) {
      ++E.Unwritten;
      E.FirstBad = std::min(E.FirstBad, Index);
      return;
    }
    if (!std::isfinite(C)) {
      ++E.NonFinite;
      E.FirstBad = std::min(E.FirstBad, Index);
      return;
    }
    double D = std::fabs(double(C) - Ref);
    DiffSq += D * D;
    RefSq += Ref * Ref;
    if (D > E.MaxAbsError) {
      E.MaxAbsError = D;
      E.MaxIndex = Index;
    }
  }

  GemmErrors finish() {
    // An all-zero reference makes the relative error meaningless: report
    // the absolute norm then (zero when C is zero too).
    E.RelFrobenius = RefSq > 0 ? std::sqrt(DiffSq / RefSq) : std::sqrt(DiffSq);
    return E;
  }
};

} // namespace

GemmErrors compareGemm(ArrayRef<float> C, ArrayRef<double> Ref) {
  assert(C.size() == Ref.size() && "C and the reference differ in size");
  Accumulator Acc;
  for (uint64_t I = 0, E = C.size(); I < E; ++I)
    Acc.add(C[I], Ref[I], I);
  return Acc.finish();
}

GemmErrors compareGemmAt(ArrayRef<float> C, ArrayRef<uint64_t> Indices,
                         ArrayRef<double> Ref) {
  assert(Indices.size() == Ref.size() && "one reference value per index");
  Accumulator Acc;
  for (uint64_t I = 0, E = Indices.size(); I < E; ++I) {
    assert(Indices[I] < C.size() && "sample index out of range");
    Acc.add(C[Indices[I]], Ref[I], Indices[I]);
  }
  return Acc.finish();
}

uint64_t countPoisoned(ArrayRef<float> C, uint64_t &First) {
  uint64_t Count = 0;
  First = UINT64_MAX;
  for (uint64_t I = 0, E = C.size(); I < E; ++I)
    if (floatBits(C[I]) == PoisonBits) {
      if (!Count)
        First = I;
      ++Count;
    }
  return Count;
}

std::vector<uint64_t> sampleIndices(uint64_t M, uint64_t N, uint64_t Count,
                                    uint64_t Seed) {
  const uint64_t Total = M * N;
  std::vector<uint64_t> Out;
  if (Count >= Total) {
    for (uint64_t I = 0; I < Total; ++I)
      Out.push_back(I);
    return Out;
  }
  std::unordered_set<uint64_t> Seen;
  auto Add = [&](uint64_t I) {
    if (Out.size() < Count && Seen.insert(I).second)
      Out.push_back(I);
  };
  Add(0);
  Add(N - 1);
  Add((M - 1) * N);
  Add(Total - 1);
  uint64_t Key = streamKey(Seed, 0x5a5a);
  for (uint64_t I = 0; Out.size() < Count; ++I)
    Add(mix64(Key + (I + 1) * 0x9e3779b97f4a7c15ull) % Total);
  return Out;
}

} // namespace tp
