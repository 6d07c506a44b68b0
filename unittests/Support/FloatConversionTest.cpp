//===- FloatConversionTest.cpp - binary16 / bfloat16 conversions ----------===//
///
/// \file
/// Every one of the 65536 encodings of binary16 and of bfloat16: the widening
/// conversion is exact (checked against an independent decoding in double
/// arithmetic), and the narrowing conversions round to nearest even --
/// each value maps to itself, the midpoint between two neighbours maps to
/// the even one, and the floats just below and just above a midpoint map to
/// the nearer neighbour.
///
//===----------------------------------------------------------------------===//

#include "tp/Support/FloatConversion.h"
#include "gtest/gtest.h"
#include <cmath>

using namespace tp;

namespace {

/// binary16 \p H decoded from its fields in double arithmetic.
double decodeHalf(uint16_t H) {
  int E = (H >> 10) & 31, M = H & 1023;
  double V = E == 0 ? std::ldexp(double(M), -24)
                    : std::ldexp(double(M | 1024), E - 25);
  return (H & 0x8000) ? -V : V;
}

bool isHalfNaN(uint16_t H) { return (H & 0x7c00) == 0x7c00 && (H & 0x3ff); }

TEST(FloatConversion, HalfToFloatIsExactForAll65536) {
  for (uint32_t I = 0; I < 65536; ++I) {
    uint16_t H = uint16_t(I);
    float F = halfToFloat(H);
    if (isHalfNaN(H)) {
      EXPECT_TRUE(std::isnan(F)) << std::hex << I;
      // The payload survives the round trip.
      EXPECT_EQ(floatToHalf(F), H | 0x200) << std::hex << I;
      continue;
    }
    if ((H & 0x7fff) == 0x7c00) {
      EXPECT_TRUE(std::isinf(F));
      EXPECT_EQ(std::signbit(F), bool(H & 0x8000));
    } else {
      EXPECT_EQ(double(F), decodeHalf(H)) << std::hex << I;
      EXPECT_EQ(std::signbit(F), bool(H & 0x8000)) << std::hex << I;
    }
    EXPECT_EQ(floatToHalf(F), H) << std::hex << I;
    EXPECT_EQ(roundToHalf(double(F)), H) << std::hex << I;
  }
}

TEST(FloatConversion, FloatToHalfRoundsToNearestEven) {
  // Each pair of neighbours H, H+1 of the positive finite halves (and the
  // largest finite one with the overflow threshold 65520 = 65504 + half an
  // ulp, which rounds to infinity as the next even value 2^16 would).
  for (uint32_t I = 0; I < 0x7c00; ++I) {
    uint16_t Lo = uint16_t(I), Hi = uint16_t(I + 1);
    double Mid = (decodeHalf(Lo) + (Hi == 0x7c00 ? 65536.0 : decodeHalf(Hi))) / 2;
    float M = float(Mid);
    ASSERT_EQ(double(M), Mid) << "the midpoint is a float";
    uint16_t Even = (Lo & 1) ? Hi : Lo;
    EXPECT_EQ(floatToHalf(M), Even) << std::hex << I;
    EXPECT_EQ(roundToHalf(Mid), Even) << std::hex << I;
    EXPECT_EQ(floatToHalf(std::nextafter(M, 0.0f)), Lo) << std::hex << I;
    EXPECT_EQ(floatToHalf(std::nextafter(M, INFINITY)), Hi) << std::hex << I;
    // Doubles much closer to the midpoint than any float: no double
    // rounding through binary32.
    EXPECT_EQ(roundToHalf(std::nextafter(Mid, 0.0)), Lo) << std::hex << I;
    EXPECT_EQ(roundToHalf(std::nextafter(Mid, INFINITY)), Hi) << std::hex << I;
    // The same with the sign.
    EXPECT_EQ(floatToHalf(-M), uint16_t(Even | 0x8000)) << std::hex << I;
  }
  EXPECT_EQ(floatToHalf(1e30f), 0x7c00);
  EXPECT_EQ(floatToHalf(-1e30f), 0xfc00);
  EXPECT_EQ(floatToHalf(1e-30f), 0x0000);
  EXPECT_EQ(floatToHalf(-1e-30f), 0x8000);
  EXPECT_EQ(roundToHalf(1e300), 0x7c00);
  EXPECT_EQ(roundToHalf(4.9e-324), 0x0000);
}

TEST(FloatConversion, BFloat16ForAll65536) {
  for (uint32_t I = 0; I < 65536; ++I) {
    uint16_t B = uint16_t(I);
    float F = bfloat16ToFloat(B);
    EXPECT_EQ(floatBits(F), I << 16) << std::hex << I;
    bool NaN = (B & 0x7f80) == 0x7f80 && (B & 0x7f);
    EXPECT_EQ(floatToBFloat16(F), NaN ? uint16_t(B | 0x40) : B) << std::hex << I;
    if (NaN || (B & 0x7fff) >= 0x7f80)
      continue;
    // B and its upper neighbour in magnitude (the largest finite value's
    // is infinity, 0x7f80: the carry runs into the exponent).
    uint32_t Lo = uint32_t(B) << 16, Hi = (uint32_t(B) + 1) << 16;
    uint32_t Mid = Lo + 0x8000; // exactly between, as a float
    uint16_t Even = (B & 1) ? uint16_t(B + 1) : B;
    EXPECT_EQ(floatToBFloat16(bitsToFloat(Mid)), Even) << std::hex << I;
    EXPECT_EQ(floatToBFloat16(bitsToFloat(Mid - 1)), B) << std::hex << I;
    EXPECT_EQ(floatToBFloat16(bitsToFloat(Mid + 1)), uint16_t(Hi >> 16))
        << std::hex << I;
  }
}

} // namespace
