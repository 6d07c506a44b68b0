//===- FloatOps.cpp - Float semantics of tp-sim ---------------------------===//
///
/// \file
/// binary32 arithmetic on the host (round to nearest even, FFMA fused,
/// .FTZ/.SAT/directed roundings honoured), compares, conversions, and the
/// binary16 pairs (HADD2/HMUL2/HFMA2: each half exact, rounded once).
///
//===----------------------------------------------------------------------===//
#include "ExecState.h"
#include "tp/Support/ReferenceGemm.h"
#include <algorithm>
#include <cfenv>

using namespace llvm;
using namespace tp;
using namespace tp::sim;

//===----------------------------------------------------------------------===//
// Floating point (binary32 on the host: round to nearest even; FFMA fused)
//===----------------------------------------------------------------------===//

namespace {
/// Non-default rounding (.RM/.RP/.RZ) for the scope of one instruction.
struct RoundScope {
  int Old = -1;
  explicit RoundScope(int64_t Rnd) {
    if (!Rnd)
      return;
    Old = std::fegetround();
    std::fesetround(Rnd == 1 ? FE_DOWNWARD
                             : Rnd == 2 ? FE_UPWARD : FE_TOWARDZERO);
  }
  ~RoundScope() {
    if (Old >= 0)
      std::fesetround(Old);
  }
};
} // namespace

/// Variant (FArithKind): FADD, FMUL, FFMA.
void sim::execFArith(Exec &X, const DInst &D, uint32_t M) {
  Warp &W = *X.W;
  unsigned Rd = wr(D.F[F_Rd]);
  bool Ftz = D.F[F_ftz] != 0, Sat = D.F[F_sat] != 0;
  RoundScope RS(D.F[F_rnd]);
  FOR_LANES(L, M) {
    float A = fSrc(X, D.A, L), B = fSrc(X, D.B, L);
    if (Ftz)
      A = ftz(A), B = ftz(B);
    float R;
    if (D.kind<FArithKind>() == FArithKind::Add)
      R = A + B;
    else if (D.kind<FArithKind>() == FArithKind::Mul)
      R = A * B;
    else {
      float C = fSrc(X, D.C, L);
      if (Ftz)
        C = ftz(C);
      R = std::fma(A, B, C);
    }
    if (Ftz)
      R = ftz(R);
    if (Sat)
      R = std::isnan(R) ? 0.0f : std::min(1.0f, std::max(0.0f, R));
    W.R[Rd][L] = canonF(R);
  }
}

/// FSEL Rd, A, B, P: P ? A : B (with source modifiers).
void sim::execFSEL(Exec &X, const DInst &D, uint32_t M) {
  Warp &W = *X.W;
  unsigned Rd = wr(D.F[F_Rd]);
  FOR_LANES(L, M) {
    float R = predVal(W, D.F[F_Pp], D.F[F_Ppn], L) ? fSrc(X, D.A, L)
                                                   : fSrc(X, D.B, L);
    W.R[Rd][L] = asU(R);
  }
}

/// FMNMX Rd, A, B, P: the minimum when P holds (PTX min.f32 -> `PT`),
/// else the maximum; a NaN operand yields the other one unless .NAN.
void sim::execFMNMX(Exec &X, const DInst &D, uint32_t M) {
  Warp &W = *X.W;
  unsigned Rd = wr(D.F[F_Rd]);
  bool Ftz = D.F[F_ftz] != 0, Nan = D.F[F_nan] != 0;
  FOR_LANES(L, M) {
    float A = fSrc(X, D.A, L), B = fSrc(X, D.B, L);
    if (Ftz)
      A = ftz(A), B = ftz(B);
    bool Min = predVal(W, D.F[F_Pp], D.F[F_Ppn], L);
    float R;
    if (std::isnan(A) || std::isnan(B))
      R = Nan ? NAN : (std::isnan(A) ? B : A);
    else if (A == B)
      // -0 < +0 for min/max (IEEE 754-2019 minimum/maximum).
      R = Min ? (std::signbit(A) ? A : B) : (std::signbit(A) ? B : A);
    else
      R = Min ? std::min(A, B) : std::max(A, B);
    W.R[Rd][L] = canonF(R);
  }
}

/// F2I (32-bit destinations): rnd 0 nearest even, 1 floor, 2 ceil,
/// 3 trunc; the result saturates to the destination range, NaN gives 0.
void sim::execF2I(Exec &X, const DInst &D, uint32_t M) {
  Warp &W = *X.W;
  unsigned Rd = wr(D.F[F_Rd]);
  unsigned Dst = unsigned(D.F[F_dst]), Rnd = unsigned(D.F[F_rnd]);
  static const double Lo[6] = {0, -128, 0, -32768, 0, -2147483648.0};
  static const double Hi[6] = {255, 127, 65535, 32767, 4294967295.0,
                               2147483647.0};
  FOR_LANES(L, M) {
    uint32_t V = rawSrc(X, D.B, L);
    double F = D.F[F_src] == 1 ? double(h2f(uint16_t(V >> (16 * D.F[F_sel]))))
                               : double(asF(V));
    if (D.B.Abs)
      F = std::fabs(F);
    if (D.B.Neg)
      F = -F;
    if (D.F[F_ftz] && std::fpclassify(float(F)) == FP_SUBNORMAL)
      F = 0;
    double R = Rnd == 0   ? std::nearbyint(F)
               : Rnd == 1 ? std::floor(F)
               : Rnd == 2 ? std::ceil(F)
                          : std::trunc(F);
    if (std::isnan(R))
      R = 0;
    R = std::min(Hi[Dst], std::max(Lo[Dst], R));
    W.R[Rd][L] = uint32_t(int64_t(R));
  }
}

/// FSETP compare codes: F LT EQ LE GT NE GE NUM NAN LTU EQU LEU GTU NEU GEU T.
static inline bool fcmp(unsigned Cmp, float A, float B) {
  bool Un = std::isnan(A) || std::isnan(B);
  switch (Cmp) {
  case 0: return false;
  case 1: return !Un && A < B;
  case 2: return !Un && A == B;
  case 3: return !Un && A <= B;
  case 4: return !Un && A > B;
  case 5: return !Un && A != B;
  case 6: return !Un && A >= B;
  case 7: return !Un;
  case 8: return Un;
  case 9: return Un || A < B;
  case 10: return Un || A == B;
  case 11: return Un || A <= B;
  case 12: return Un || A > B;
  case 13: return Un || A != B;
  case 14: return Un || A >= B;
  default: return true;
  }
}

void sim::execFSETP(Exec &X, const DInst &D, uint32_t M) {
  Warp &W = *X.W;
  unsigned Pu = wp(D.F[F_Pu]), Pv = wp(D.F[F_Pv]);
  unsigned Cmp = unsigned(D.F[F_cmp]), Bop = unsigned(D.F[F_bop]);
  bool Ftz = D.F[F_ftz] != 0;
  uint32_t RU = 0, RV = 0;
  FOR_LANES(L, M) {
    float A = fSrc(X, D.A, L), B = fSrc(X, D.B, L);
    if (Ftz)
      A = ftz(A), B = ftz(B);
    bool R = fcmp(Cmp, A, B);
    bool Acc = predVal(W, D.F[F_Pp], D.F[F_Ppn], L);
    if (combine(Bop, R, Acc))
      RU |= 1u << L;
    if (combine(Bop, !R, Acc))
      RV |= 1u << L;
  }
  writePred(W, Pu, RU, M);
  writePred(W, Pv, RV, M);
}

//===----------------------------------------------------------------------===//
// binary16
//===----------------------------------------------------------------------===//

uint16_t sim::doubleToHalf(double V) {
  // A NaN result is the quiet NaN 0x7e00 of the NaN's sign, payload
  // dropped (tp::roundToHalf keeps the top payload bits).  UNVERIFIED:
  // the PTX ISA leaves the NaN a cvt.rn.f16.f32 or an f16 HMMA result
  // gives unspecified and no GPU run settled it; the simulator keeps the
  // behaviour it always had (docs/tp-sim.md).  Every other value rounds
  // through the one conversion, to nearest even, directly from binary64.
  if (std::isnan(V))
    return uint16_t(std::signbit(V) ? 0xfe00 : 0x7e00);
  return roundToHalf(V);
}

/// binary16 -> binary32 through a table built once (exact, like
/// halfToFloat).
const float *sim::getHalfTable() {
  static const std::vector<float> T = [] {
    std::vector<float> V(65536);
    for (uint32_t I = 0; I < 65536; ++I)
      V[I] = halfToFloat(uint16_t(I));
    return V;
  }();
  return T.data();
}

/// The two f16 lanes of a source after its swizzle, |x| and -x, exact.
static inline void h2Src(Exec &X, const Src &S, unsigned L, double Out[2]) {
  uint32_t V = rawSrc(X, S, L);
  uint16_t H0 = uint16_t(V), H1 = uint16_t(V >> 16);
  double Lo = h2f(S.Swz == 3 ? H1 : H0), Hi = h2f(S.Swz == 2 ? H0 : H1);
  if (S.Swz == 4)
    Hi = -Hi;
  Out[0] = Lo;
  Out[1] = Hi;
  for (unsigned I = 0; I < 2; ++I) {
    if (S.Abs)
      Out[I] = std::fabs(Out[I]);
    if (S.Neg)
      Out[I] = -Out[I];
  }
}

/// HADD2/HFMA2/HMUL2 on two f16 lanes, each computed exactly in binary64
/// and rounded once to binary16 (the f16 FMA is fused).  Variant
/// (FArithKind): HADD2, HMUL2, HFMA2; flag Relu: .RELU.  HADD2.F32 writes the low lane's
/// sum as one binary32 (ptxas converts f16 -> f32 with
/// `HADD2.F32 Rd, -RZ, Rx.H0_H0`).
void sim::execH2(Exec &X, const DInst &D, uint32_t M) {
  FArithKind Op = D.kind<FArithKind>();
  Warp &W = *X.W;
  unsigned Rd = wr(D.F[F_Rd]);
  bool F32 = D.F[F_f32] != 0, Ftz = D.F[F_ftz] != 0;
  FOR_LANES(L, M) {
    double A[2], B[2], C[2] = {0, 0};
    h2Src(X, D.A, L, A);
    h2Src(X, D.B, L, B);
    if (Op == FArithKind::Fma)
      h2Src(X, D.C, L, C);
    if (F32) {
      double R = Op == FArithKind::Add   ? A[0] + B[0]
                 : Op == FArithKind::Mul ? A[0] * B[0]
                                                     : A[0] * B[0] + C[0];
      float F = float(R);
      W.R[Rd][L] = canonF(Ftz ? ftz(F) : F);
      continue;
    }
    uint32_t R = 0;
    for (unsigned H = 0; H < 2; ++H) {
      double r = Op == FArithKind::Add   ? A[H] + B[H]
                 : Op == FArithKind::Mul ? A[H] * B[H]
                                                     : A[H] * B[H] + C[H];
      if (D.has(SemFlag::Relu) && !(r > 0))
        r = std::isnan(r) ? r : 0.0;
      uint16_t Hb = doubleToHalf(r);
      if (Ftz && (Hb & 0x7c00) == 0)
        Hb &= 0x8000;
      R |= uint32_t(Hb) << (16 * H);
    }
    W.R[Rd][L] = R;
  }
}

/// F2FP.PACK_AB: Rd = {hi: f16(A), lo: f16(B)} (PTX cvt.rn.f16x2.f32 d, a,
/// b: "the value converted from input a is stored in the upper half of d");
/// F2FP.BF16.PACK_AB the same in bfloat16 (cvt.rn.bf16x2.f32).  .rn: round
/// to nearest, ties to even; a finite value beyond the type's range becomes
/// an infinity of its sign (IEEE 754's RN overflow, which .rn without
/// .satfinite keeps); a NaN stays a quiet NaN with its top payload bits
/// (floatToHalf, floatToBFloat16; UNVERIFIED: the PTX ISA does not say
/// which NaN, not yet measured on a GPU).
void sim::execF2FP(Exec &X, const DInst &D, uint32_t M) {
  Warp &W = *X.W;
  unsigned Rd = wr(D.F[F_Rd]);
  uint16_t (*Round)(float) = D.F[F_bf] ? floatToBFloat16 : floatToHalf;
  FOR_LANES(L, M) {
    uint16_t Hi = Round(asF(rawSrc(X, D.A, L)));
    uint16_t Lo = Round(asF(rawSrc(X, D.B, L)));
    W.R[Rd][L] = uint32_t(Hi) << 16 | Lo;
  }
}

/// F2F: dst 1 F16 / 2 F32, src 1 F16 / 2 F32 (F64 and BF16 forms have no
/// semantics); `sel` picks the high half of an f16 source.
void sim::execF2F(Exec &X, const DInst &D, uint32_t M) {
  Warp &W = *X.W;
  unsigned Rd = wr(D.F[F_Rd]);
  unsigned Dst = unsigned(D.F[F_dst]), SrcT = unsigned(D.F[F_src]);
  bool Ftz = D.F[F_ftz] != 0;
  RoundScope RS(D.F[F_rnd]);
  FOR_LANES(L, M) {
    uint32_t V = rawSrc(X, D.B, L);
    double In = SrcT == 1 ? double(h2f(uint16_t(V >> (16 * D.F[F_sel]))))
                          : double(asF(V));
    if (D.B.Abs)
      In = std::fabs(In);
    if (D.B.Neg)
      In = -In;
    if (Dst == 1) {
      // f32 -> f16 under the current rounding: via floatToHalf for RN.
      W.R[Rd][L] = SrcT == 1 ? doubleToHalf(In) : floatToHalf(float(In));
    } else {
      float F = float(In);
      W.R[Rd][L] = canonF(Ftz ? ftz(F) : F);
    }
  }
}

/// I2F / I2FP: src code 0 U8, 1 S8, 2 U16, 3 S16, 4 U32, 5 S32, 6 U64,
/// 7 S64; dst 1 F16, 2 F32.  Variant I2FKind::I2FP: I2FP.F32 (signedness in `sgn`).
void sim::execI2F(Exec &X, const DInst &D, uint32_t M) {
  Warp &W = *X.W;
  unsigned Rd = wr(D.F[F_Rd]);
  bool IsI2FP = D.kind<I2FKind>() == I2FKind::I2FP;
  unsigned SrcT = IsI2FP ? (D.F[F_sgn] ? 5 : 4) : unsigned(D.F[F_src]);
  unsigned Dst = IsI2FP ? 2 : unsigned(D.F[F_dst]);
  unsigned Sel = unsigned(D.F[F_sel]);
  RoundScope RS(D.F[F_rnd]);
  FOR_LANES(L, M) {
    uint64_t V = SrcT >= 6 ? rawSrc64(X, D.B, L) : rawSrc(X, D.B, L);
    int64_t I;
    switch (SrcT) {
    case 0: I = uint8_t(V >> (8 * Sel)); break;
    case 1: I = int8_t(V >> (8 * Sel)); break;
    case 2: I = uint16_t(V >> (16 * Sel)); break;
    case 3: I = int16_t(V >> (16 * Sel)); break;
    case 4: I = uint32_t(V); break;
    case 5: I = int32_t(V); break;
    case 6: I = int64_t(V); break;
    default: I = int64_t(V); break;
    }
    if (Dst == 1) {
      // Integers of up to 32 bits are exact in binary64.
      W.R[Rd][L] = doubleToHalf(double(I));
    } else {
      float F = SrcT == 6 ? float(V) : float(I);
      W.R[Rd][L] = asU(F);
    }
  }
}

/// MUFU.fn Rd, B: the multi-function unit, modelled as PTX documents the
/// .approx.ftz.f32 instruction ptxas lowers to it (ex2, lg2, rcp, rsqrt,
/// sqrt, tanh; sin and cos after ptxas's `FMUL.RZ x, 1/(2 pi)`, i.e. MUFU
/// takes revolutions): a subnormal input is a zero of its sign, a
/// subnormal result too (ptxas pre-scales such inputs for the non-.ftz
/// forms), and the value is the exact function's, evaluated in binary64
/// and rounded to binary32 (RNE).  The hardware's value is an
/// approximation within the bounds NVIDIA documents for each function, so
/// a simulated result differs from the GPU's by at most that bound
/// (docs/tp-sim.md; test/Sim/mufu.ptx checks ptxas's lowering of every
/// function against an exact reference within it).  NaN in, canonical NaN
/// out; the IEEE special cases (lg2(0) = -inf, rcp(-0) = -inf, rsqrt(-x)
/// = NaN, ex2(-inf) = +0, sin(inf) = NaN, tanh(inf) = 1).
void sim::execMUFU(Exec &X, const DInst &D, uint32_t M) {
  Warp &W = *X.W;
  unsigned Rd = wr(D.F[F_Rd]), Fn = unsigned(D.F[F_fn]);
  constexpr double TwoPi = 6.283185307179586476925286766559;
  FOR_LANES(L, M) {
    double A = ftz(fSrc(X, D.B, L));
    double R;
    switch (Fn) {
    case 0: // COS
    case 1: // SIN
      if (std::isinf(A)) {
        R = NAN;
      } else {
        // Revolutions: the integer part is exact to drop.
        double Frac = A - std::nearbyint(A);
        R = Fn ? std::sin(TwoPi * Frac) : std::cos(TwoPi * Frac);
        if (Fn && R == 0)
          R = std::copysign(0.0, A);
      }
      break;
    case 2: // EX2
      R = std::exp2(A);
      break;
    case 3: // LG2
      R = A < 0 ? NAN : std::log2(A);
      break;
    case 4: // RCP
      R = 1.0 / A;
      break;
    case 5: // RSQ
      R = A == 0 ? std::copysign(INFINITY, A)
                 : A < 0 ? NAN : 1.0 / std::sqrt(A);
      break;
    case 8: // SQRT
      R = A < 0 ? NAN : std::sqrt(A);
      break;
    default: // 9, TANH
      R = std::tanh(A);
      break;
    }
    W.R[Rd][L] = canonF(ftz(float(R)));
  }
}
