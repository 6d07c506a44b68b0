//===- FloatFormat.h - nvdisasm's spelling of float immediates -*- C++ -*-===//
///
/// \file
/// nvdisasm prints a 32-bit float immediate like C's "%.20g" of its value
/// ("1", "-112.5", "1.1641532182693481445e-10"), except that magnitudes of
/// 1e9 and more use "%.20e" ("1.00000000000000000000e+09",
/// "4.29494272000000000000e+09", while 999999936 stays an integer: nvdisasm
/// 11.8 on such immediates, and every such spelling in the reference
/// TSVs), and infinities as "+INF "
/// and "-INF " (with a trailing blank, as in the reference TSVs:
/// `FSETP.GTU.FTZ.AND P0, PT, |R0|, +INF , PT`).  NaNs as "+QNAN "/"-QNAN ".
///
//===----------------------------------------------------------------------===//
#ifndef TP_LIB_TARGET_SASS_FLOATFORMAT_H
#define TP_LIB_TARGET_SASS_FLOATFORMAT_H

#include "tp/Support/FloatConversion.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace tp {
namespace sass {

inline void printFloat32(llvm::raw_ostream &OS, uint32_t Bits) {
  float F = bitsToFloat(Bits);
  bool Neg = Bits >> 31;
  if (std::isinf(F)) {
    OS << (Neg ? "-INF " : "+INF ");
    return;
  }
  if (std::isnan(F)) {
    OS << (Neg ? "-QNAN " : "+QNAN ");
    return;
  }
  char Buf[64];
  std::snprintf(Buf, sizeof(Buf),
                std::fabs(double(F)) >= 1e9 ? "%.20e" : "%.20g",
                double(F));
  OS << Buf;
}

/// A double, spelled the same way (MUFU.RCP64H's immediate is the high
/// word of one: `MUFU.RCP64H R3, 4.29496524800000000000e+09`).
inline void printFloat64(llvm::raw_ostream &OS, double D) {
  if (std::isinf(D)) {
    OS << (D < 0 ? "-INF " : "+INF ");
    return;
  }
  if (std::isnan(D)) {
    OS << (std::signbit(D) ? "-QNAN " : "+QNAN ");
    return;
  }
  char Buf[64];
  std::snprintf(Buf, sizeof(Buf),
                std::fabs(D) >= 1e9 ? "%.20e" : "%.20g", D);
  OS << Buf;
}

/// Half precision: printed through its (exact) float value the same way.
inline void printHalf(llvm::raw_ostream &OS, uint16_t H) {
  printFloat32(OS, floatBits(halfToFloat(H)));
}

/// Whether a decimal float spelling lies in a format's range: a finite
/// value that rounds to an infinity overflows, a non-zero value that
/// rounds to zero underflows.  (Values in between round to nearest, as
/// nvdisasm's 20-digit spellings need.)
enum class FloatRange { InRange, Overflow, Underflow };

/// Parses a float spelling at the start of \p S; returns the number of
/// characters consumed (0 if none) and the f32 bits in \p Bits.  \p Range,
/// if given, says whether the value fits an f32; \p Value, if given,
/// receives the value as read (a double; the INF and QNAN spellings are
/// in range).
inline size_t parseFloat32(llvm::StringRef S, uint32_t &Bits,
                           FloatRange *Range = nullptr,
                           double *Value = nullptr) {
  if (Range)
    *Range = FloatRange::InRange;
  for (const char *Sp : {"+INF", "-INF", "+QNAN", "-QNAN"})
    if (S.startswith(Sp)) {
      bool Neg = Sp[0] == '-';
      Bits = (Sp[1] == 'I' ? 0x7f800000u : 0x7fc00000u) | (Neg ? 0x80000000u : 0);
      if (Value)
        *Value = double(bitsToFloat(Bits));
      return std::strlen(Sp);
    }
  std::string Tmp = S.take_while([](char C) {
    return std::isdigit((unsigned char)C) || C == '.' || C == '-' ||
           C == '+' || C == 'e' || C == 'E';
  }).str();
  if (Tmp.empty())
    return 0;
  char *End = nullptr;
  double D = std::strtod(Tmp.c_str(), &End);
  size_t N = End - Tmp.c_str();
  if (N == 0)
    return 0;
  float F = float(D);
  Bits = floatBits(F);
  if (Value)
    *Value = D;
  // strtod gives HUGE_VAL for a spelling beyond the double range (1e400)
  // and 0 below it (1e-400): neither is what the text says.
  llvm::StringRef Mantissa = llvm::StringRef(Tmp).take_front(N).take_until(
      [](char C) { return C == 'e' || C == 'E'; });
  bool NonZero = Mantissa.find_first_of("123456789") != llvm::StringRef::npos;
  if (Range && std::isinf(F))
    *Range = FloatRange::Overflow;
  else if (Range && F == 0 && NonZero)
    *Range = FloatRange::Underflow;
  return N;
}

} // namespace sass
} // namespace tp

#endif
