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
#include "tp/Support/Diagnostics.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Twine.h"
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
  return referenceElement(P, A, B, R, {}, I, J);
}

double referenceElement(const GemmProblem &P, ArrayRef<uint16_t> A,
                        ArrayRef<uint16_t> B, ArrayRef<float> R,
                        ArrayRef<float> Bias, uint64_t I, uint64_t J) {
  double Sum = P.Residual ? double(R[I * P.N + J]) : 0.0;
  for (uint64_t Kk = 0; Kk < P.K; ++Kk)
    Sum += operandValue(A[P.indexA(I, Kk)], P.AType) *
           operandValue(B[P.indexB(Kk, J)], P.BType);
  return epilogue(P, Sum, R, Bias, I, J);
}

//===----------------------------------------------------------------------===//
// Storage
//===----------------------------------------------------------------------===//

GemmStorage GemmStorage::packed(const GemmProblem &P, uint64_t Batch,
                                uint64_t Align) {
  auto Up = [Align](uint64_t X) { return (X + Align - 1) / Align * Align; };
  GemmStorage S;
  S.LdA = Up(P.colsA());
  S.LdB = Up(P.colsB());
  S.LdC = Up(P.N);
  S.Batch = Batch;
  if (Batch > 1) {
    S.StrideA = P.rowsA() * S.LdA;
    S.StrideB = P.rowsB() * S.LdB;
    S.StrideC = P.M * S.LdC;
  }
  return S;
}

Error checkGemmStorage(const GemmProblem &P, const GemmStorage &S) {
  struct Ld {
    const char *Name, *Extent;
    uint64_t Value, Min;
  };
  bool RowsA = P.LayoutA == OperandLayout::Rows,
       RowsB = P.LayoutB == OperandLayout::Rows;
  const Ld Lds[] = {{"lda", RowsA ? "K (A rows)" : "M (A columns)", S.LdA,
                     P.colsA()},
                    {"ldb", RowsB ? "K (B rows)" : "N (B columns)", S.LdB,
                     P.colsB()},
                    {"ldc", "N", S.LdC, P.N}};
  for (const Ld &L : Lds) {
    if (L.Value < L.Min)
      return makeError(Twine(L.Name) + " = " + Twine(L.Value) +
                       " is less than the stored row's extent, " + L.Extent +
                       " = " + Twine(L.Min));
    if (L.Value % 8)
      return makeError(Twine(L.Name) + " = " + Twine(L.Value) +
                       " is not a multiple of 8 elements (the copies move "
                       "16-byte chunks of aligned rows)");
  }
  if (S.Batch < 1 || S.Batch > 65535)
    return makeError("batch " + Twine(S.Batch) +
                     " is not in [1, 65535] (the grid's z extent)");
  if (S.Batch > 1) {
    for (auto [Name, Stride] :
         {std::pair<const char *, uint64_t>{"stride_a", S.StrideA},
          {"stride_b", S.StrideB},
          {"stride_c", S.StrideC}})
      if (Stride % 8)
        return makeError(Twine(Name) + " = " + Twine(Stride) +
                         " is not a multiple of 8 elements (every batch's "
                         "rows start 16-byte aligned)");
    if (S.StrideC < P.M * S.LdC)
      return makeError("stride_c = " + Twine(S.StrideC) + " is less than M x "
                       "ldc = " + Twine(P.M * S.LdC) +
                       ": batches of D would overlap");
  }
  // Every batch's offset is 32-bit too (batch b's start is folded in).
  for (auto [Name, Bytes] :
       {std::pair<const char *, uint64_t>{"A", 2 * S.spanA(P)},
        {"B", 2 * S.spanB(P)},
        {"C", getElementTypeBytes(P.DType) * S.spanC(P)}})
    if (Bytes >= (uint64_t(1) << 32))
      return makeError(Twine(Name) + " is " + Twine(Bytes) +
                       " bytes (all batches), not below 2^32 (the kernel's "
                       "byte offsets are 32-bit)");
  return Error::success();
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

Expected<GemmLaunch> getGemmLaunch(const LaunchManifest &Man,
                                   const GemmShape *Shape, uint64_t Align,
                                   StringRef What) {
  GemmLaunch L;
  L.P = GemmProblem::fromManifest(Man);
  L.Grid = Man.Grid;
  const bool Runtime = hasRuntimeShape(Man);
  if (Runtime) {
    L.S.LdA = Man.LdA;
    L.S.LdB = Man.LdB;
    L.S.LdC = Man.LdC;
    L.S.Batch = Man.Batch;
    L.S.StrideA = Man.StrideA;
    L.S.StrideB = Man.StrideB;
    L.S.StrideC = Man.StrideC;
  } else {
    L.S = GemmStorage::packed(L.P, 1, 1);
  }
  if (!Shape)
    return L;
  auto Name = [&](uint64_t M, uint64_t N, uint64_t K, uint64_t B) {
    std::string S = std::to_string(M) + "x" + std::to_string(N) + "x" +
                    std::to_string(K);
    return B > 1 ? S + "x" + std::to_string(B) : S;
  };
  if (!Runtime) {
    if (Shape->M == Man.M && Shape->N == Man.N && Shape->K == Man.K &&
        Shape->Batch == 1)
      return L;
    return makeError(What + ": the kernel has its shape, " +
                     Name(Man.M, Man.N, Man.K, 1) +
                     ", built in (its manifest names no LDA parameter); "
                     "build it with tp-llc --fixed-shape=false to run " +
                     Name(Shape->M, Shape->N, Shape->K, Shape->Batch));
  }
  if (!Shape->M || !Shape->N || !Shape->K || Shape->M > INT32_MAX ||
      Shape->N > INT32_MAX || Shape->K > INT32_MAX)
    return makeError(What + ": M, N and K must be in [1, 2^31-1], found " +
                     Name(Shape->M, Shape->N, Shape->K, Shape->Batch));
  if (Shape->Batch > 1 && !hasBatchStrides(Man))
    return makeError(What + ": batch " + Twine(Shape->Batch) +
                     ", but the kernel takes no batch strides (build it "
                     "with tp-llc --batch)");
  if (Shape->Batch < 1 || Shape->Batch > 65535)
    return makeError(What + ": batch " + Twine(Shape->Batch) +
                     " is not in [1, 65535] (the grid's z extent)");
  L.P.M = Shape->M;
  L.P.N = Shape->N;
  L.P.K = Shape->K;
  L.S = GemmStorage::packed(L.P, Shape->Batch, Align);
  uint64_t GX = (L.P.N + Man.Tile[1] - 1) / Man.Tile[1];
  uint64_t GY = (L.P.M + Man.Tile[0] - 1) / Man.Tile[0];
  if (GY > 65535)
    return makeError(What + ": M = " + Twine(L.P.M) + " gives " + Twine(GY) +
                     " blocks along M (tile " + Twine(Man.Tile[0]) +
                     "), more than the 65535 a grid's y extent may have");
  L.Grid = {uint32_t(GX), uint32_t(GY), uint32_t(Shape->Batch)};
  return L;
}

bool parseGemmShape(StringRef Text, GemmShape &Out) {
  SmallVector<StringRef, 4> Parts;
  Text.split(Parts, 'x');
  if (Parts.size() != 3 && Parts.size() != 4)
    return false;
  uint64_t V[4] = {0, 0, 0, 1};
  for (unsigned I = 0; I < Parts.size(); ++I)
    if (Parts[I].getAsInteger(10, V[I]) || V[I] < 1 || V[I] > INT32_MAX)
      return false;
  Out = {V[0], V[1], V[2], V[3]};
  return true;
}

} // namespace tp
