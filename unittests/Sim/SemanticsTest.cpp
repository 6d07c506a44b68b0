//===- SemanticsTest.cpp - HMMA/LDSM fragment maps and f16 arithmetic -----===//
///
/// \file
/// Unit tests of the simulator's warp-level helpers.  The fragment layouts
/// are restated here element by element as the PTX ISA tables list them
/// (a0..a7, b0..b3, c0..c3 per thread), independently of the compact
/// formulas in lib/Sim, and a product of random integer-valued matrices is
/// checked exactly.  The ptxas-built kernels in test/Sim check the same
/// semantics against NVIDIA's compiler.
///
//===----------------------------------------------------------------------===//
#include "tp/Sim/Simulator.h"
#include "tp/Support/ReferenceGemm.h"
#include "gtest/gtest.h"
#include <cmath>
#include <limits>
#include <cstring>
#include <random>

using namespace llvm;
using namespace tp;
using namespace tp::sim;

namespace {
// PTX ISA "mma.m16n8k16 fragments for .f16": for thread lane, groupID =
// lane >> 2, threadID_in_group = lane % 4.
//  a_i, i in 0..7:  row = groupID (+8 for a2,a3,a6,a7),
//                   col = tig*2 + (i & 1) (+8 for a4..a7)
//  b_i, i in 0..3:  row(k) = tig*2 + (i & 1) (+8 for b2,b3), col = groupID
//  c_i, i in 0..3:  row = groupID (+8 for c2,c3), col = tig*2 + (i & 1)
// Element i sits in register i/2, half i%2 (lower index = low half).
int aRow(int Lane, int I) { return (Lane >> 2) + ((I == 2 || I == 3 || I == 6 || I == 7) ? 8 : 0); }
int aCol(int Lane, int I) { return (Lane % 4) * 2 + (I & 1) + (I >= 4 ? 8 : 0); }
int bRow(int Lane, int I) { return (Lane % 4) * 2 + (I & 1) + (I >= 2 ? 8 : 0); }
int bCol(int Lane, int) { return Lane >> 2; }
int cRow(int Lane, int I) { return (Lane >> 2) + (I >= 2 ? 8 : 0); }
int cCol(int Lane, int I) { return (Lane % 4) * 2 + (I & 1); }

uint32_t packH(float Lo, float Hi) {
  return uint32_t(floatToHalf(Lo)) | uint32_t(floatToHalf(Hi)) << 16;
}

TEST(HMMA, M16N8K16F32MatchesMatrixProduct) {
  std::mt19937 G(7);
  std::uniform_int_distribution<int> Dist(-8, 8);
  float Am[16][16], Bm[16][8], Cm[16][8];
  for (auto &R : Am) for (float &V : R) V = float(Dist(G));
  for (auto &R : Bm) for (float &V : R) V = float(Dist(G));
  for (auto &R : Cm) for (float &V : R) V = float(Dist(G) * 3);
  uint32_t A[32][4], B[32][2], C[32][4], D[32][4];
  for (int L = 0; L < 32; ++L) {
    for (int R = 0; R < 4; ++R)
      A[L][R] = packH(Am[aRow(L, 2 * R)][aCol(L, 2 * R)],
                      Am[aRow(L, 2 * R + 1)][aCol(L, 2 * R + 1)]);
    for (int R = 0; R < 2; ++R)
      B[L][R] = packH(Bm[bRow(L, 2 * R)][bCol(L, 2 * R)],
                      Bm[bRow(L, 2 * R + 1)][bCol(L, 2 * R + 1)]);
    for (int I = 0; I < 4; ++I)
      C[L][I] = floatBits(Cm[cRow(L, I)][cCol(L, I)]);
  }
  hmmaWarp(16, true, A, B, C, D);
  for (int L = 0; L < 32; ++L)
    for (int I = 0; I < 4; ++I) {
      int R = cRow(L, I), N = cCol(L, I);
      float Want = Cm[R][N];
      for (int K = 0; K < 16; ++K)
        Want += Am[R][K] * Bm[K][N];
      EXPECT_EQ(bitsToFloat(D[L][I]), Want) << "lane " << L << " c" << I;
    }
}

TEST(HMMA, M16N8K16F16AccumulatorIsPackedPairs) {
  // f16 accumulators: register 0 = (c0, c1), register 1 = (c2, c3).
  std::mt19937 G(3);
  std::uniform_int_distribution<int> Dist(-4, 4);
  float Am[16][16], Bm[16][8], Cm[16][8];
  for (auto &R : Am) for (float &V : R) V = float(Dist(G));
  for (auto &R : Bm) for (float &V : R) V = float(Dist(G));
  for (auto &R : Cm) for (float &V : R) V = float(Dist(G));
  uint32_t A[32][4], B[32][2], C[32][4] = {}, D[32][4];
  for (int L = 0; L < 32; ++L) {
    for (int R = 0; R < 4; ++R)
      A[L][R] = packH(Am[aRow(L, 2 * R)][aCol(L, 2 * R)],
                      Am[aRow(L, 2 * R + 1)][aCol(L, 2 * R + 1)]);
    for (int R = 0; R < 2; ++R)
      B[L][R] = packH(Bm[bRow(L, 2 * R)][bCol(L, 2 * R)],
                      Bm[bRow(L, 2 * R + 1)][bCol(L, 2 * R + 1)]);
    for (int R = 0; R < 2; ++R)
      C[L][R] = packH(Cm[cRow(L, 2 * R)][cCol(L, 2 * R)],
                      Cm[cRow(L, 2 * R + 1)][cCol(L, 2 * R + 1)]);
  }
  hmmaWarp(16, false, A, B, C, D);
  for (int L = 0; L < 32; ++L)
    for (int I = 0; I < 4; ++I) {
      int R = cRow(L, I), N = cCol(L, I);
      float Want = Cm[R][N];
      for (int K = 0; K < 16; ++K)
        Want += Am[R][K] * Bm[K][N];
      uint16_t Got = uint16_t(D[L][I / 2] >> (16 * (I % 2)));
      EXPECT_EQ(halfToFloat(Got), Want) << "lane " << L << " c" << I;
    }
}

TEST(HMMA, M16N8K8UsesTwoARegistersOneB) {
  // m16n8k8: a0..a3 (rows g, g+8; cols tig*2+i), b0,b1 (k = tig*2+i).
  float Am[16][8], Bm[8][8];
  for (int R = 0; R < 16; ++R) for (int K = 0; K < 8; ++K) Am[R][K] = float((R * 3 + K) % 5 - 2);
  for (int K = 0; K < 8; ++K) for (int N = 0; N < 8; ++N) Bm[K][N] = float((K + 2 * N) % 7 - 3);
  uint32_t A[32][4] = {}, B[32][2] = {}, C[32][4] = {}, D[32][4];
  for (int L = 0; L < 32; ++L) {
    int G = L >> 2, T = L % 4;
    A[L][0] = packH(Am[G][2 * T], Am[G][2 * T + 1]);
    A[L][1] = packH(Am[G + 8][2 * T], Am[G + 8][2 * T + 1]);
    B[L][0] = packH(Bm[2 * T][G], Bm[2 * T + 1][G]);
  }
  hmmaWarp(8, true, A, B, C, D);
  for (int L = 0; L < 32; ++L)
    for (int I = 0; I < 4; ++I) {
      int R = cRow(L, I), N = cCol(L, I);
      float Want = 0;
      for (int K = 0; K < 8; ++K)
        Want += Am[R][K] * Bm[K][N];
      EXPECT_EQ(bitsToFloat(D[L][I]), Want);
    }
}

TEST(HMMA, AccumulationRoundsOnceToF32) {
  // 1 + 2^-24 * 16 products of 2^-12 * 2^-12: each product alone would be
  // lost against 1.0 if rounded after every addition; summed exactly first
  // it is 1 + 16 * 2^-24 = 1 + 2^-20, representable in binary32.
  uint32_t A[32][4], B[32][2], C[32][4], D[32][4];
  uint32_t H = packH(std::ldexp(1.0f, -12), std::ldexp(1.0f, -12));
  for (int L = 0; L < 32; ++L) {
    for (int R = 0; R < 4; ++R) A[L][R] = H;
    for (int R = 0; R < 2; ++R) B[L][R] = H;
    for (int I = 0; I < 4; ++I) C[L][I] = floatBits(1.0f);
  }
  hmmaWarp(16, true, A, B, C, D);
  EXPECT_EQ(bitsToFloat(D[0][0]), 1.0f + std::ldexp(1.0f, -20));
}

TEST(LDSM, FragmentsMatchPTXLdmatrix) {
  // Four 8x8 matrices; matrix m row r at address 512*m + 32*r (a 16-byte
  // row with 16 bytes of padding), element (r, c) = m*64 + r*8 + c.
  std::vector<uint8_t> Smem(4096, 0);
  uint32_t Rows[32];
  for (int M = 0; M < 4; ++M)
    for (int R = 0; R < 8; ++R) {
      Rows[8 * M + R] = 512 * M + 32 * R;
      for (int C = 0; C < 8; ++C) {
        uint16_t V = uint16_t(M * 64 + R * 8 + C);
        memcpy(&Smem[Rows[8 * M + R] + 2 * C], &V, 2);
      }
    }
  for (unsigned Count : {1u, 2u, 4u})
    for (bool Trans : {false, true}) {
      uint32_t Out[32][4];
      ldsmWarp(Count, Trans, Rows, Smem.data(), Out);
      for (int L = 0; L < 32; ++L)
        for (unsigned M = 0; M < Count; ++M) {
          // PTX: thread L holds row L/4, elements 2*(L%4) and +1 of each
          // matrix; with .trans, the matrix is transposed first.
          int R = L / 4, C0 = 2 * (L % 4);
          auto Elem = [&](int Rr, int Cc) {
            return uint32_t(Trans ? M * 64 + Cc * 8 + Rr : M * 64 + Rr * 8 + Cc);
          };
          uint32_t Want = Elem(R, C0) | Elem(R, C0 + 1) << 16;
          EXPECT_EQ(Out[L][M], Want) << "x" << Count << (Trans ? ".trans" : "")
                                     << " lane " << L << " matrix " << M;
        }
    }
}

TEST(F16, DoubleToHalfMatchesFloatToHalf) {
  // Every float is exact in double, so both conversions must agree.
  std::mt19937 G(11);
  std::uniform_int_distribution<uint32_t> Bits;
  for (int I = 0; I < 200000; ++I) {
    uint32_t B = Bits(G);
    float F = bitsToFloat(B);
    if (std::isnan(F))
      continue;
    ASSERT_EQ(doubleToHalf(double(F)), floatToHalf(F)) << std::hex << B;
  }
  // Ties to even, subnormals, overflow.
  EXPECT_EQ(doubleToHalf(1.0 + std::ldexp(1.0, -11)), 0x3c00); // tie -> even
  EXPECT_EQ(doubleToHalf(1.0 + 3 * std::ldexp(1.0, -11)), 0x3c02);
  EXPECT_EQ(doubleToHalf(std::ldexp(1.0, -24)), 0x0001);
  EXPECT_EQ(doubleToHalf(std::ldexp(1.0, -25)), 0x0000);       // tie -> 0
  EXPECT_EQ(doubleToHalf(std::ldexp(3.0, -26)), 0x0001);
  EXPECT_EQ(doubleToHalf(65504.0), 0x7bff);
  EXPECT_EQ(doubleToHalf(65519.99), 0x7bff);
  EXPECT_EQ(doubleToHalf(65520.0), 0x7c00);
  EXPECT_EQ(doubleToHalf(-2.0), 0xc000);
  // A double-only tie: 1 + 2^-11 + 2^-40 rounds up (float would round it
  // to the tie first and then to even).
  EXPECT_EQ(doubleToHalf(1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40)),
            0x3c01);
  // A NaN is the quiet NaN 0x7e00 of its sign, payload dropped (the
  // simulator's choice, UNVERIFIED on hardware; tp::roundToHalf keeps the
  // payload's top bits).
  double Payload = bitsToFloat(0x7fa12345u);
  EXPECT_EQ(doubleToHalf(Payload), 0x7e00);
  EXPECT_EQ(doubleToHalf(-Payload), 0xfe00);
  EXPECT_NE(roundToHalf(Payload), 0x7e00);
  EXPECT_EQ(doubleToHalf(std::numeric_limits<double>::infinity()), 0x7c00);
}

TEST(GlobalMemory, BoundsAndGaps) {
  GlobalMemory M;
  uint64_t A = cantFail(M.allocate(100)), B = cantFail(M.allocate(16));
  EXPECT_NE(M.translate(A, 100, GlobalMemory::Read), nullptr);
  EXPECT_EQ(M.translate(A + 96, 8, GlobalMemory::Read), nullptr);
  EXPECT_EQ(M.translate(A - 4, 4, GlobalMemory::Read), nullptr);
  EXPECT_EQ(M.translate(B + 16, 1, GlobalMemory::Read), nullptr);
  EXPECT_NE(M.translate(B + 8, 8, GlobalMemory::Read), nullptr);
  EXPECT_EQ(A % 256, 0u);
}

// Sizes beyond the simulator's limit are an error, allocating nothing
// (they used to abort with "LLVM ERROR: out of memory").
TEST(GlobalMemory, Limit) {
  GlobalMemory M;
  Expected<uint64_t> Huge = M.allocate(99999999999999ull);
  ASSERT_FALSE(bool(Huge));
  EXPECT_EQ(toString(Huge.takeError()),
            "a buffer of 99999999999999 bytes exceeds the simulator's global "
            "memory of 4294967296 bytes (4 GiB)");
  EXPECT_EQ(M.getAllocatedBytes(), 0u);
  // The limit counts every buffer together.
  cantFail(M.allocate(100));
  Expected<uint64_t> More = M.allocate(GlobalMemory::MaxTotalBytes - 99);
  ASSERT_FALSE(bool(More));
  EXPECT_NE(toString(More.takeError()).find("(4 GiB, 100 already allocated)"),
            std::string::npos);
  EXPECT_EQ(M.getAllocatedBytes(), 100u);
}
// PTX shfl.sync's rule, by hand for a few lanes: c = 0x1f is the whole
// warp; c = 0x181f makes segments of 8 lanes (segmask 0x18: width 8, as
// PTX writes c = ((32 - width) << 8) | 0x1f).
TEST(SHFL, SourceLaneFollowsPTXShflSync) {
  bool In;
  EXPECT_EQ(shflSourceLane(0, 3, 5, 0x1f, In), 5u); // IDX
  EXPECT_TRUE(In);
  EXPECT_EQ(shflSourceLane(1, 2, 3, 0, In), 2u); // UP past lane 0: own
  EXPECT_FALSE(In);
  EXPECT_EQ(shflSourceLane(1, 7, 3, 0, In), 4u);
  EXPECT_TRUE(In);
  EXPECT_EQ(shflSourceLane(2, 30, 3, 0x1f, In), 30u); // DOWN past 31: own
  EXPECT_FALSE(In);
  EXPECT_EQ(shflSourceLane(2, 9, 3, 0x181f, In), 12u); // within 8..15
  EXPECT_TRUE(In);
  EXPECT_EQ(shflSourceLane(2, 13, 3, 0x181f, In), 13u); // 16 > 15: own
  EXPECT_FALSE(In);
  EXPECT_EQ(shflSourceLane(3, 21, 6, 0x181f, In), 19u); // BFLY in 16..23
  EXPECT_TRUE(In);
  EXPECT_EQ(shflSourceLane(0, 21, 13, 0x181f, In), 21u); // IDX 16|5 = 21
  EXPECT_TRUE(In);
  EXPECT_EQ(shflSourceLane(0, 21, 2, 0x181f, In), 18u);
  EXPECT_TRUE(In);
  EXPECT_EQ(shflSourceLane(0, 4, 37, 0x1f, In), 5u); // b uses bits 4:0
  EXPECT_TRUE(In);
}

// bf16 inputs: 1.5 (0x3fc0) x 2.0 (0x4000) in every k, C = 0.25: each
// element is 16 * 3 + 0.25, exact; f16 bits read as bf16 differ.
TEST(HMMA, BF16InputsAreBfloat16) {
  uint32_t A[32][4], B[32][2], C[32][4], D[32][4];
  for (unsigned L = 0; L < 32; ++L) {
    for (unsigned I = 0; I < 4; ++I) {
      A[L][I] = 0x3fc03fc0u;
      C[L][I] = 0x3e800000u; // 0.25f
    }
    B[L][0] = B[L][1] = 0x40004000u;
  }
  hmmaWarp(16, true, A, B, C, D, /*BF16=*/true);
  float F;
  uint32_t Bits = D[5][2];
  memcpy(&F, &Bits, 4);
  EXPECT_EQ(F, 48.25f);
  hmmaWarp(8, true, A, B, C, D, /*BF16=*/true);
  Bits = D[31][3];
  memcpy(&F, &Bits, 4);
  EXPECT_EQ(F, 24.25f);
}
} // namespace
