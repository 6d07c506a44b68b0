//===- TensorOps.cpp - HMMA semantics of tp-sim ---------------------------===//
///
/// \file
/// HMMA m16n8k16 / m16n8k8 with f16 or bf16 inputs and f16/f32
/// accumulators: PTX fragment layouts, products exact in binary64, one
/// rounding at the end.
///
//===----------------------------------------------------------------------===//
#include "ExecState.h"

using namespace llvm;
using namespace tp;
using namespace tp::sim;

//===----------------------------------------------------------------------===//
// HMMA
//===----------------------------------------------------------------------===//

/// binary16 or bfloat16 bits as a double (both exact).

void sim::hmmaWarp(unsigned K, bool F32Acc, const uint32_t A[32][4],
                   const uint32_t B[32][2], const uint32_t C[32][4],
                   uint32_t D[32][4], bool BF16) {
  // PTX ISA, "Matrix Fragments for mma.m16n8k16 / m16n8k8" (f16 inputs):
  // groupID g = lane / 4, t = lane % 4.
  //  A (16 x K, row): register i holds (row g + 8*(i&1), col 2t + 8*(i>>1))
  //    and the next column in its high half (K = 8: registers 0, 1 only).
  //  B (K x 8, col): register i holds (k 2t + 8i, col g) and k+1 in the
  //    high half.
  //  C/D f32: register i holds (row g + 8*(i>>1), col 2t + (i&1)).
  //  C/D f16: register i holds (row g + 8i, col 2t) and col+1 high.
  double Am[16][16], Bm[16][8], Acc[16][8];
  // The elements' values: binary16 through the exact table, or bfloat16
  // (the top half of a binary32), chosen once per instruction.
  const float *Half = getHalfTable();
  auto Elem = [&](uint16_t Bits) {
    return BF16 ? double(asF(uint32_t(Bits) << 16)) : double(Half[Bits]);
  };
  for (unsigned L = 0; L < 32; ++L) {
    unsigned G = L / 4, T = L % 4;
    for (unsigned I = 0; I < K / 4; ++I) {
      double *Row = Am[G + 8 * (I & 1)] + 2 * T + 8 * (I >> 1);
      Row[0] = Elem(uint16_t(A[L][I]));
      Row[1] = Elem(uint16_t(A[L][I] >> 16));
    }
    for (unsigned I = 0; I < K / 8; ++I) {
      Bm[2 * T + 8 * I][G] = Elem(uint16_t(B[L][I]));
      Bm[2 * T + 8 * I + 1][G] = Elem(uint16_t(B[L][I] >> 16));
    }
    if (F32Acc) {
      for (unsigned I = 0; I < 4; ++I)
        Acc[G + 8 * (I >> 1)][2 * T + (I & 1)] = asF(C[L][I]);
    } else {
      for (unsigned I = 0; I < 2; ++I)
        for (unsigned H = 0; H < 2; ++H)
          Acc[G + 8 * I][2 * T + H] = h2f(uint16_t(C[L][I] >> (16 * H)));
    }
  }
  // Products of binary16 (bfloat16) values are exact in binary64; the
  // accumulator plus the K products, added in k order, is exact too unless
  // their exponents spread over more than ~30 binades (then binary64
  // rounds, far below the final rounding to f32/f16).  The loop runs across the 8
  // columns innermost so that it vectorizes without reordering any sum.
  // k is the outer loop: the 128 sums are independent, so no addition
  // waits for the one before it; each is still added in k order (the same
  // value as summing one element at a time).
  double Res[16][8];
  for (unsigned R = 0; R < 16; ++R)
    for (unsigned N = 0; N < 8; ++N)
      Res[R][N] = Acc[R][N];
  for (unsigned Kk = 0; Kk < K; ++Kk)
    for (unsigned R = 0; R < 16; ++R) {
      double A = Am[R][Kk];
      for (unsigned N = 0; N < 8; ++N)
        Res[R][N] += A * Bm[Kk][N];
    }
  for (unsigned L = 0; L < 32; ++L) {
    unsigned G = L / 4, T = L % 4;
    if (F32Acc) {
      for (unsigned I = 0; I < 4; ++I)
        D[L][I] = canonF(float(Res[G + 8 * (I >> 1)][2 * T + (I & 1)]));
    } else {
      for (unsigned I = 0; I < 2; ++I)
        D[L][I] = uint32_t(doubleToHalf(Res[G + 8 * I][2 * T])) |
                  uint32_t(doubleToHalf(Res[G + 8 * I][2 * T + 1])) << 16;
      D[L][2] = D[L][3] = 0;
    }
  }
}

/// HMMA: Size = K (16 or 8); flags F32 (.F32), BF16 (bf16 inputs).
void sim::execHMMA(Exec &X, const DInst &D, uint32_t M) {
  Warp &W = *X.W;
  if (!runsWarpWide(X, "HMMA", M))
    return;
  unsigned K = D.Size;
  bool F32 = D.has(SemFlag::F32), BF16 = D.has(SemFlag::BF16);
  unsigned NA = K / 4, NB = K / 8, NC = F32 ? 4 : 2;
  uint32_t A[32][4] = {}, B[32][2] = {}, C[32][4] = {}, R[32][4];
  auto Reg = [&](int64_t Base, unsigned I, unsigned L) -> uint32_t {
    return Base == sass::RZ ? 0 : W.R[Base + I][L];
  };
  for (unsigned L = 0; L < 32; ++L) {
    for (unsigned I = 0; I < NA; ++I)
      A[L][I] = Reg(D.F[F_Ra], I, L);
    for (unsigned I = 0; I < NB; ++I)
      B[L][I] = Reg(D.F[F_Rb], I, L);
    for (unsigned I = 0; I < NC; ++I)
      C[L][I] = Reg(D.F[F_Rc], I, L);
  }
  hmmaWarp(K, F32, A, B, C, R, BF16);
  unsigned Rd = wr(D.F[F_Rd]);
  for (unsigned L = 0; L < 32; ++L)
    for (unsigned I = 0; I < NC; ++I)
      W.R[Rd == 256 ? 256 : Rd + I][L] = R[L][I];
}
