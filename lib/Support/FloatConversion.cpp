//===- FloatConversion.cpp - binary16 / bfloat16 <-> binary32 -------------===//
///
/// \file
/// Bit-level conversions (FloatConversion.h): no floating-point rounding
/// mode is involved, so the results are the same on every host.
///
//===----------------------------------------------------------------------===//

#include "tp/Support/FloatConversion.h"
#include <cstring>

namespace tp {

uint32_t floatBits(float F) {
  uint32_t B;
  std::memcpy(&B, &F, sizeof B);
  return B;
}

float bitsToFloat(uint32_t Bits) {
  float F;
  std::memcpy(&F, &Bits, sizeof F);
  return F;
}

namespace {
/// Rounds \p Mant (an integer) right by \p Shift bits (1..63), to nearest,
/// ties to even; \p Sticky says that nonzero bits below \p Mant were
/// dropped already.
uint64_t roundShift(uint64_t Mant, unsigned Shift, bool Sticky = false) {
  uint64_t Q = Mant >> Shift;
  uint64_t Rem = Mant & ((uint64_t(1) << Shift) - 1);
  uint64_t Half = uint64_t(1) << (Shift - 1);
  if (Rem > Half || (Rem == Half && (Sticky || (Q & 1))))
    ++Q;
  return Q;
}

/// A finite nonzero magnitude Mant * 2^Exp (Mant < 2^63) as binary16
/// bits, rounded to nearest even; the carry of a rounding runs into the
/// exponent, and past the largest finite value gives infinity.
uint16_t encodeHalf(uint64_t Mant, int Exp) {
  // Normalize Mant to [2^52, 2^53).
  while (Mant < (uint64_t(1) << 52)) {
    Mant <<= 1;
    --Exp;
  }
  bool Sticky = false;
  while (Mant >= (uint64_t(1) << 53)) {
    Sticky |= Mant & 1;
    Mant >>= 1;
    ++Exp;
  }
  int E = Exp + 52; // value in [2^E, 2^(E+1))
  if (E > 15)
    return 0x7c00;
  // Normal halves have E >= -14 and 10 fraction bits; subnormals are
  // multiples of 2^-24.
  int LsbExp = E >= -14 ? E - 10 : -24;
  int Shift = LsbExp - Exp; // >= 42
  if (Shift > 63)
    return 0; // below 2^-25 even with the sticky bits: rounds to zero
  uint64_t Q = roundShift(Mant, unsigned(Shift), Sticky);
  if (E < -14)
    return uint16_t(Q); // may round up to 0x400, the smallest normal
  // Q in [2^10, 2^11]; a carry to 2^11 moves to the next binade.
  uint32_t Bits = uint32_t(E + 15) << 10;
  return uint16_t(Bits + uint32_t(Q - 1024)) >= 0x7c00
             ? 0x7c00
             : uint16_t(Bits + uint32_t(Q - 1024));
}
} // namespace

uint16_t roundToHalf(double D) {
  uint64_t X;
  std::memcpy(&X, &D, 8);
  uint16_t Sign = uint16_t((X >> 48) & 0x8000);
  uint64_t Exp = (X >> 52) & 0x7ff, Frac = X & ((uint64_t(1) << 52) - 1);
  if (Exp == 0x7ff) // infinity, or NaN: quiet, top 9 payload bits kept
    return Sign | 0x7c00 | (Frac ? uint16_t(0x200 | (Frac >> 42)) : 0);
  if (Exp == 0 && Frac == 0)
    return Sign;
  uint64_t Mant = Exp ? Frac | (uint64_t(1) << 52) : Frac;
  int E2 = Exp ? int(Exp) - 1075 : -1074;
  return Sign | encodeHalf(Mant, E2);
}

uint16_t floatToHalf(float F) {
  // Every float is a double: one rounding.
  return roundToHalf(double(F));
}

float halfToFloat(uint16_t H) {
  uint32_t Sign = uint32_t(H & 0x8000) << 16;
  uint32_t Exp = (H >> 10) & 0x1f;
  uint32_t Mant = H & 0x3ff;
  if (Exp == 0x1f)
    return bitsToFloat(Sign | 0x7f800000u | (Mant << 13));
  if (Exp == 0) {
    if (Mant == 0)
      return bitsToFloat(Sign);
    // Subnormal Mant * 2^-24: normalize.
    uint32_t E = 113; // biased binary32 exponent of 2^-14
    while (!(Mant & 0x400)) {
      Mant <<= 1;
      --E;
    }
    return bitsToFloat(Sign | (E << 23) | ((Mant & 0x3ff) << 13));
  }
  return bitsToFloat(Sign | ((Exp + 112) << 23) | (Mant << 13));
}

uint16_t floatToBFloat16(float F) {
  uint32_t X = floatBits(F);
  if ((X & 0x7fffffffu) > 0x7f800000u) // NaN: quiet, top payload kept
    return uint16_t((X >> 16) | 0x40);
  // Ties to even on the low 16 bits; a carry runs into the exponent (and
  // from the largest finite value to infinity, as it should).
  return uint16_t((X + 0x7fffu + ((X >> 16) & 1)) >> 16);
}

float bfloat16ToFloat(uint16_t B) { return bitsToFloat(uint32_t(B) << 16); }

} // namespace tp
