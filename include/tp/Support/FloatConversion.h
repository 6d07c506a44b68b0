//===- FloatConversion.h - binary16 / bfloat16 <-> binary32 -----*- C++ -*-===//
///
/// \file
/// The one implementation of the half-precision conversions every layer
/// uses (the asm printer and parser for HImm/BImm immediates, the
/// reference GEMM, tp-sim's f16 arithmetic).  Guarantees, checked against
/// all 65536 encodings of each format by unittests/Support:
///
///  * halfToFloat / bfloat16ToFloat are exact (every binary16 and bfloat16
///    value is a binary32 value; NaNs keep their payload);
///  * floatToHalf / roundToHalf / floatToBFloat16 round to nearest, ties
///    to even, in one step (no double rounding); overflow gives infinity of
///    the right sign; a NaN stays a NaN, quiet, with its top payload bits.
///
//===----------------------------------------------------------------------===//
#ifndef TP_SUPPORT_FLOATCONVERSION_H
#define TP_SUPPORT_FLOATCONVERSION_H

#include <cstdint>

namespace tp {

/// Bit patterns as floats and back (memcpy, no aliasing tricks).
uint32_t floatBits(float F);
float bitsToFloat(uint32_t Bits);

/// binary32 -> binary16, round to nearest, ties to even.
uint16_t floatToHalf(float F);
/// binary64 -> binary16, round to nearest, ties to even (directly, not
/// through binary32).
uint16_t roundToHalf(double D);
/// binary16 -> binary32, exact.
float halfToFloat(uint16_t H);

/// binary32 -> bfloat16 (the top 16 bits of a binary32), round to nearest,
/// ties to even.
uint16_t floatToBFloat16(float F);
/// bfloat16 -> binary32, exact.
float bfloat16ToFloat(uint16_t B);

} // namespace tp

#endif // TP_SUPPORT_FLOATCONVERSION_H
