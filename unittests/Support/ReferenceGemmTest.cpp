//===- ReferenceGemmTest.cpp - Conversions, inputs, reference, checks -----===//
///
/// \file
/// binary16 conversions exhaustively (every half round-trips; every
/// midpoint between neighbours rounds to the even one), the generator's
/// determinism and range, the reference product for all four layouts and
/// the residual against a naive triple loop, and the comparisons (poison,
/// NaN, tolerance).
///
//===----------------------------------------------------------------------===//

#include "tp/Support/ReferenceGemm.h"
#include "gtest/gtest.h"
#include <cmath>
#include <set>

using namespace llvm;
using namespace tp;

namespace {

bool isHalfNaN(uint16_t H) { return (H & 0x7c00) == 0x7c00 && (H & 0x3ff); }

TEST(HalfConversion, KnownValues) {
  EXPECT_EQ(floatToHalf(1.0f), 0x3c00);
  EXPECT_EQ(floatToHalf(-2.0f), 0xc000);
  EXPECT_EQ(floatToHalf(0.5f), 0x3800);
  EXPECT_EQ(floatToHalf(65504.0f), 0x7bff);
  EXPECT_EQ(floatToHalf(65519.996f), 0x7bff);
  EXPECT_EQ(floatToHalf(65520.0f), 0x7c00); // tie, rounds to even = overflow
  EXPECT_EQ(floatToHalf(1e6f), 0x7c00);
  EXPECT_EQ(floatToHalf(-INFINITY), 0xfc00);
  EXPECT_EQ(floatToHalf(0.0f), 0x0000);
  EXPECT_EQ(floatToHalf(-0.0f), 0x8000);
  EXPECT_EQ(floatToHalf(std::ldexp(1.0f, -14)), 0x0400); // smallest normal
  EXPECT_EQ(floatToHalf(std::ldexp(1.0f, -24)), 0x0001); // smallest subnormal
  EXPECT_EQ(floatToHalf(std::ldexp(1.0f, -25)), 0x0000); // tie -> even 0
  EXPECT_EQ(floatToHalf(std::ldexp(1.5f, -25)), 0x0001);
  EXPECT_EQ(floatToHalf(std::ldexp(3.0f, -25)), 0x0002); // 1.5 ulp -> even 2
  EXPECT_EQ(floatToHalf(std::ldexp(5.0f, -25)), 0x0002); // 2.5 ulp -> even 2
  EXPECT_EQ(floatToHalf(1.0f + std::ldexp(1.0f, -11)), 0x3c00); // tie, even
  EXPECT_EQ(floatToHalf(1.0f + 3 * std::ldexp(1.0f, -11)), 0x3c02);
  EXPECT_EQ(floatToHalf(std::ldexp(1023.5f, -24)), 0x0400); // carry to normal
  EXPECT_FLOAT_EQ(halfToFloat(0x3555), 0.333251953125f);
  EXPECT_EQ(halfToFloat(0x0001), std::ldexp(1.0f, -24));
  EXPECT_EQ(halfToFloat(0x03ff), std::ldexp(1023.0f, -24));
  EXPECT_TRUE(std::isinf(halfToFloat(0x7c00)));
  EXPECT_TRUE(std::isnan(halfToFloat(0x7e00)));
  EXPECT_TRUE(isHalfNaN(floatToHalf(NAN)));
  // A NaN whose payload lives only in bits the half drops stays a NaN.
  EXPECT_TRUE(isHalfNaN(floatToHalf(bitsToFloat(0x7f800001u))));
}

TEST(HalfConversion, ExhaustiveRoundTrip) {
  for (uint32_t H = 0; H < 0x10000; ++H) {
    float F = halfToFloat(uint16_t(H));
    uint16_t Back = floatToHalf(F);
    if (isHalfNaN(uint16_t(H))) {
      ASSERT_TRUE(std::isnan(F)) << std::hex << H;
      // Sign and payload kept; the quiet bit set.
      ASSERT_EQ(Back, H | 0x0200) << std::hex << H;
      continue;
    }
    ASSERT_EQ(Back, H) << std::hex << H;
    // The float is exactly the half's value.
    uint32_t Exp = (H >> 10) & 0x1f, Mant = H & 0x3ff;
    if (Exp != 0x1f) {
      double V = Exp ? std::ldexp(double(Mant | 0x400), int(Exp) - 25)
                     : std::ldexp(double(Mant), -24);
      if (H & 0x8000)
        V = -V;
      ASSERT_EQ(double(F), V) << std::hex << H;
    }
  }
}

TEST(HalfConversion, ExhaustiveMidpointsRoundToEven) {
  // For each pair of neighbouring finite positive halves, the float exactly
  // between them rounds to the even one, and one float ulp either side
  // rounds to the nearer one.
  for (uint32_t H = 0; H < 0x7bff; ++H) {
    float Lo = halfToFloat(uint16_t(H)), Hi = halfToFloat(uint16_t(H + 1));
    float Mid = float((double(Lo) + double(Hi)) / 2);
    ASSERT_EQ(double(Mid), (double(Lo) + double(Hi)) / 2) << "inexact mid";
    uint16_t Even = (H & 1) ? uint16_t(H + 1) : uint16_t(H);
    ASSERT_EQ(floatToHalf(Mid), Even) << std::hex << H;
    ASSERT_EQ(floatToHalf(-Mid), Even | 0x8000) << std::hex << H;
    ASSERT_EQ(floatToHalf(std::nextafter(Mid, 0.0f)), H) << std::hex << H;
    ASSERT_EQ(floatToHalf(std::nextafter(Mid, INFINITY)), H + 1)
        << std::hex << H;
  }
}

TEST(RandomFill, DeterministicAndInRange) {
  std::vector<uint16_t> A(4096), A2(4096), B(4096);
  fillRandomHalves(A, 42, StreamA);
  fillRandomHalves(A2, 42, StreamA);
  fillRandomHalves(B, 42, StreamB);
  EXPECT_EQ(A, A2);
  EXPECT_NE(A, B);
  std::vector<uint16_t> Other(4096);
  fillRandomHalves(Other, 43, StreamA);
  EXPECT_NE(A, Other);
  // A prefix of a longer fill is the shorter fill.
  std::vector<uint16_t> Short(100);
  fillRandomHalves(Short, 42, StreamA);
  EXPECT_TRUE(std::equal(Short.begin(), Short.end(), A.begin()));
  std::set<int> Distinct;
  double Sum = 0;
  for (uint16_t H : A) {
    float F = halfToFloat(H);
    ASSERT_GE(F, -1.0f);
    ASSERT_LE(F, 1.0f);
    float Scaled = F * 1024;
    ASSERT_EQ(Scaled, std::round(Scaled)) << "not a multiple of 1/1024";
    Distinct.insert(int(Scaled));
    Sum += F;
  }
  EXPECT_GT(Distinct.size(), 1000u);          // spread over the range
  EXPECT_LT(std::fabs(Sum / A.size()), 0.05); // centred
  std::vector<float> R(4096);
  fillRandomFloats(R, 42, StreamA);
  for (size_t I = 0; I < R.size(); ++I)
    ASSERT_EQ(R[I], halfToFloat(A[I])); // same values, as floats
}

/// The obvious triple loop, straight from the definitions of the layouts.
std::vector<double> naiveGemm(const GemmProblem &P, ArrayRef<uint16_t> A,
                              ArrayRef<uint16_t> B, ArrayRef<float> R) {
  std::vector<double> C(P.M * P.N);
  for (uint64_t I = 0; I < P.M; ++I)
    for (uint64_t J = 0; J < P.N; ++J) {
      double S = P.Residual ? R[I * P.N + J] : 0.0;
      for (uint64_t K = 0; K < P.K; ++K) {
        // A rows: M x K, A(i,k) at i*K+k; A columns: K x M, at k*M+i.
        uint16_t Av =
            P.LayoutA == OperandLayout::Rows ? A[I * P.K + K] : A[K * P.M + I];
        // B rows: N x K (C = A B^T), B(k,j) at j*K+k; columns: K x N.
        uint16_t Bv =
            P.LayoutB == OperandLayout::Rows ? B[J * P.K + K] : B[K * P.N + J];
        S += double(halfToFloat(Av)) * double(halfToFloat(Bv));
      }
      C[I * P.N + J] = S;
    }
  return C;
}

TEST(ReferenceGemm, AllLayoutsAndResidualMatchNaive) {
  for (OperandLayout LA : {OperandLayout::Rows, OperandLayout::Columns})
    for (OperandLayout LB : {OperandLayout::Rows, OperandLayout::Columns})
      for (bool Res : {false, true}) {
        // N > 256 crosses a column block of the blocked loop.
        GemmProblem P{37, 300, 19, LA, LB, Res};
        std::vector<uint16_t> A(P.elementsA()), B(P.elementsB());
        std::vector<float> R(Res ? P.elementsC() : 0);
        fillRandomHalves(A, 7, StreamA);
        fillRandomHalves(B, 7, StreamB);
        fillRandomFloats(R, 7, StreamR);
        std::vector<double> C;
        referenceGemm(P, A, B, R, C);
        std::vector<double> Want = naiveGemm(P, A, B, R);
        ASSERT_EQ(C, Want) << "layout " << getLayoutName(LA).str() << "/"
                           << getLayoutName(LB).str() << " residual " << Res;
        for (uint64_t I : {0ull, 5ull, 36ull})
          for (uint64_t J : {0ull, 150ull, 299ull})
            ASSERT_EQ(referenceElement(P, A, B, R, I, J), Want[I * P.N + J]);
      }
}

TEST(ReferenceGemm, LayoutsAreDistinguished) {
  // A hand-built 2x2x2 product: swapping the layout must change the result.
  // A rows = [[1, 2], [3, 4]] (M x K); as columns the same storage is A^T.
  std::vector<uint16_t> A = {floatToHalf(1), floatToHalf(2), floatToHalf(3),
                             floatToHalf(4)};
  std::vector<uint16_t> B = {floatToHalf(1), floatToHalf(0), floatToHalf(1),
                             floatToHalf(1)}; // storage [[1,0],[1,1]]
  std::vector<double> C;
  GemmProblem P{2, 2, 2, OperandLayout::Rows, OperandLayout::Columns, false};
  referenceGemm(P, A, B, {}, C);
  // [[1,2],[3,4]] * [[1,0],[1,1]] = [[3,2],[7,4]]
  EXPECT_EQ(C, (std::vector<double>{3, 2, 7, 4}));
  P.LayoutB = OperandLayout::Rows; // B storage is N x K: B = [[1,1],[0,1]]
  referenceGemm(P, A, B, {}, C);
  EXPECT_EQ(C, (std::vector<double>{1, 3, 3, 7}));
  P.LayoutA = OperandLayout::Columns; // A = [[1,3],[2,4]]
  referenceGemm(P, A, B, {}, C);
  EXPECT_EQ(C, (std::vector<double>{1, 4, 2, 6}));
  std::vector<float> R = {10, 20, 30, 40};
  P.Residual = true;
  referenceGemm(P, A, B, R, C);
  EXPECT_EQ(C, (std::vector<double>{11, 24, 32, 46}));
}

TEST(ReferenceGemm, Size512Works) {
  // The size tp-sim and tp-run check on the CPU (no timing here; the block
  // structure keeps it well under a second in a release build).
  GemmProblem P{512,  512, 512, OperandLayout::Columns, OperandLayout::Rows,
                false};
  std::vector<uint16_t> A(P.elementsA()), B(P.elementsB());
  fillRandomHalves(A, 1, StreamA);
  fillRandomHalves(B, 1, StreamB);
  std::vector<double> C;
  referenceGemm(P, A, B, {}, C);
  for (uint64_t Idx : sampleIndices(512, 512, 64, 3))
    ASSERT_EQ(C[Idx], referenceElement(P, A, B, {}, Idx / 512, Idx % 512));
}

TEST(Compare, ExactPoisonNaNAndTolerance) {
  std::vector<double> Ref = {1, -2, 3, 4};
  std::vector<float> C = {1, -2, 3, 4};
  GemmErrors E = compareGemm(C, Ref);
  EXPECT_EQ(E.Compared, 4u);
  EXPECT_EQ(E.RelFrobenius, 0.0);
  EXPECT_TRUE(E.passes(1e-3));

  C[2] = 3.03f; // |err| 0.03, ||ref|| = sqrt(30)
  E = compareGemm(C, Ref);
  EXPECT_NEAR(E.MaxAbsError, 0.03, 1e-6);
  EXPECT_EQ(E.MaxIndex, 2u);
  EXPECT_NEAR(E.RelFrobenius, 0.03 / std::sqrt(30.0), 1e-6);
  EXPECT_FALSE(E.passes(1e-3));
  EXPECT_TRUE(E.passes(1e-2));

  C[2] = 3;
  C[1] = bitsToFloat(PoisonBits);
  E = compareGemm(C, Ref);
  EXPECT_EQ(E.Unwritten, 1u);
  EXPECT_EQ(E.FirstBad, 1u);
  EXPECT_FALSE(E.passes(1.0));
  uint64_t First;
  EXPECT_EQ(countPoisoned(C, First), 1u);
  EXPECT_EQ(First, 1u);

  C[1] = NAN; // a computed NaN is not poison but still wrong
  E = compareGemm(C, Ref);
  EXPECT_EQ(E.Unwritten, 0u);
  EXPECT_EQ(E.NonFinite, 1u);
  EXPECT_FALSE(E.passes(1.0));
  EXPECT_EQ(countPoisoned(C, First), 0u);
  EXPECT_EQ(First, UINT64_MAX);
  // Poison is a signaling NaN: arithmetic on it never reproduces it.
  volatile float P = bitsToFloat(PoisonBits);
  EXPECT_NE(floatBits(P + 1.0f), PoisonBits);

  C[1] = -2;
  E = compareGemmAt(C, {3, 0}, {4.5, 1});
  EXPECT_EQ(E.Compared, 2u);
  EXPECT_NEAR(E.MaxAbsError, 0.5, 1e-12);
  EXPECT_EQ(E.MaxIndex, 3u);
  EXPECT_FALSE(compareGemm({}, {}).passes(1.0)); // nothing compared
}

// bfloat16 rounding of the reference: once, to nearest even, overflow to
// infinity, subnormals down to 2^-133; against floatToBFloat16 on every
// binary32 value of a sweep (exact as doubles, so one rounding either way).
TEST(ReferenceGemm, RoundToElementType) {
  EXPECT_EQ(roundToElementType(1.0 + 0x1p-8, ElementType::BF16), 1.0);
  EXPECT_EQ(roundToElementType(1.0 + 3 * 0x1p-8, ElementType::BF16),
            1.0 + 0x1p-6);
  EXPECT_EQ(roundToElementType(1.0 + 0x1p-8 + 0x1p-30, ElementType::BF16),
            1.0 + 0x1p-7);
  EXPECT_TRUE(std::isinf(roundToElementType(0x1.ffp127, ElementType::BF16)));
  EXPECT_EQ(roundToElementType(0x1p-134, ElementType::BF16), 0.0);
  EXPECT_EQ(roundToElementType(3 * 0x1p-134, ElementType::BF16), 0x1p-132);
  EXPECT_EQ(roundToElementType(65520.0, ElementType::F16), INFINITY);
  EXPECT_EQ(roundToElementType(1.0 + 0x1p-11, ElementType::F16), 1.0);
  for (uint32_t Bits = 0; Bits < 0x7f800000u; Bits += 0x3f1b) {
    float F = bitsToFloat(Bits);
    EXPECT_EQ(roundToElementType(F, ElementType::BF16),
              double(bfloat16ToFloat(floatToBFloat16(F))))
        << std::hex << Bits;
  }
  // bf16 operands: k/256, exact.
  std::vector<uint16_t> V(1000);
  fillRandomOperand(V, 3, StreamA, ElementType::BF16);
  for (uint16_t X : V) {
    double D = operandValue(X, ElementType::BF16);
    EXPECT_EQ(D * 256, std::round(D * 256));
    EXPECT_LE(std::fabs(D), 1.0);
  }
}

TEST(Compare, SampleIndices) {
  std::vector<uint64_t> S = sampleIndices(64, 32, 100, 9);
  ASSERT_EQ(S.size(), 100u);
  EXPECT_EQ(S[0], 0u);
  EXPECT_EQ(S[1], 31u);
  EXPECT_EQ(S[2], 63u * 32);
  EXPECT_EQ(S[3], 64u * 32 - 1);
  EXPECT_EQ(std::set<uint64_t>(S.begin(), S.end()).size(), 100u);
  for (uint64_t I : S)
    EXPECT_LT(I, 64u * 32);
  EXPECT_EQ(S, sampleIndices(64, 32, 100, 9));
  EXPECT_EQ(sampleIndices(2, 3, 10, 1),
            (std::vector<uint64_t>{0, 1, 2, 3, 4, 5}));
}

} // namespace
