//===- IntegerOps.cpp - Integer ALU semantics of tp-sim -------------------===//
///
/// \file
/// IMAD (every alias), VIADD, IADD3, LOP3, MOV, IABS, SEL, IMNMX, SHF, LEA,
/// ISETP, PRMT, PLOP3: 32-bit two's complement, carries and predicates as
/// the hardware writes them.
///
//===----------------------------------------------------------------------===//
#include "ExecState.h"
#include <algorithm>

using namespace llvm;
using namespace tp;
using namespace tp::sim;

//===----------------------------------------------------------------------===//
// Integer ALU
//===----------------------------------------------------------------------===//

/// Variant (IMADKind) of IMAD: plain, .WIDE, .HI, IMAD.SHL (Shift),
/// 4 IMAD.MOV.U32 Rd, Ra, 1, RZ, 5 IMAD.IADD Rd, Ra, 1, C.
void sim::execIMAD(Exec &X, const DInst &D, uint32_t M) {
  Warp &W = *X.W;
  bool Signed = D.F[F_u] != 0;
  bool IsX = D.has(SemFlag::X);
  unsigned Rd = wr(D.F[F_Rd]);
  unsigned Pu = wp(D.F[F_Pu]);
  uint32_t Carry = 0;
  FOR_LANES(L, M) {
    uint32_t A = rawSrc(X, D.A, L);
    uint32_t Cin = IsX ? predVal(W, D.F[F_Pc], D.F[F_Pcn], L) : 0;
    switch (D.kind<IMADKind>()) {
    case IMADKind::Wide: { // .WIDE: Rd:Rd+1 = A * B + C (64-bit pair)
      uint32_t B = rawSrc(X, D.B, L);
      uint64_t Prod = Signed ? uint64_t(int64_t(int32_t(A)) * int32_t(B))
                             : uint64_t(A) * B;
      uint64_t C = D.C.K == Src::KImm
                       ? (Signed ? uint64_t(int64_t(int32_t(D.C.Val)))
                                 : uint64_t(D.C.Val))
                       : rawSrc64(X, D.C, L);
      if (D.C.Neg)
        C = IsX ? ~C : uint64_t(0) - C;
      unsigned __int128 S = (unsigned __int128)Prod + C + Cin;
      uint64_t R = uint64_t(S);
      W.R[Rd][L] = uint32_t(R);
      W.R[Rd == 256 ? 256 : Rd + 1][L] = uint32_t(R >> 32);
      if ((S >> 64) & 1)
        Carry |= 1u << L;
      break;
    }
    case IMADKind::Hi: { // .HI: Rd = (A * B) >> 32 + C
      uint32_t B = rawSrc(X, D.B, L);
      uint64_t Prod = Signed ? uint64_t(int64_t(int32_t(A)) * int32_t(B))
                             : uint64_t(A) * B;
      uint32_t C = rawSrc(X, D.C, L);
      uint64_t Cv = D.C.Neg ? (IsX ? uint64_t(~C) : uint64_t(~C) + 1) : C;
      uint64_t S = (Prod >> 32) + Cv + Cin;
      W.R[Rd][L] = uint32_t(S);
      if (S >> 32)
        Carry |= 1u << L;
      break;
    }
    case IMADKind::Shl:
      W.R[Rd][L] = A << D.Shift;
      break;
    case IMADKind::Mov:
      W.R[Rd][L] = A;
      break;
    default: { // plain and IMAD.IADD
      uint32_t B = D.kind<IMADKind>() == IMADKind::IAdd ? 1 : rawSrc(X, D.B, L);
      uint32_t C = rawSrc(X, D.C, L);
      uint64_t Cv = D.C.Neg ? (IsX ? uint64_t(~C) : uint64_t(~C) + 1) : C;
      uint64_t S = uint64_t(uint32_t(A * B)) + Cv + Cin;
      W.R[Rd][L] = uint32_t(S);
      if (S >> 32)
        Carry |= 1u << L;
      break;
    }
    }
  }
  writePred(W, Pu, Carry, M);
}

/// VIADD (sm_90): Rd = Ra + B, modulo 2^32 (B an immediate or a UR).
void sim::execVIADD(Exec &X, const DInst &D, uint32_t M) {
  unsigned Rd = wr(D.F[F_Rd]);
  FOR_LANES(L, M) X.W->R[Rd][L] = rawSrc(X, D.A, L) + rawSrc(X, D.B, L);
}

/// IADD.64 (sm_120/121): the pair Rd = the pair Ra + B, modulo 2^64 (B a
/// register pair, a UR pair or an immediate, sign-extended as rawSrc64
/// does -- ptxas 13's words for negative and wide constants,
/// test/Sim/iadd64-imm.ptx; optionally negated).
void sim::execIADD64(Exec &X, const DInst &D, uint32_t M) {
  unsigned Rd = wr(D.F[F_Rd]);
  FOR_LANES(L, M) {
    uint64_t A = rawSrc64(X, D.A, L), B = rawSrc64(X, D.B, L);
    uint64_t S = (D.A.Neg ? ~A + 1 : A) + (D.B.Neg ? ~B + 1 : B);
    X.W->R[Rd][L] = uint32_t(S);
    X.W->R[Rd == 256 ? 256 : Rd + 1][L] = uint32_t(S >> 32);
  }
}

void sim::execIADD3(Exec &X, const DInst &D, uint32_t M) {
  Warp &W = *X.W;
  bool IsX = D.has(SemFlag::X);
  unsigned Rd = wr(D.F[F_Rd]), Pu = wp(D.F[F_Pu]), Pv = wp(D.F[F_Pv]);
  uint32_t C1 = 0, C2 = 0;
  auto Term = [IsX](uint32_t V, bool Neg) -> uint64_t {
    if (!Neg)
      return V;
    return IsX ? uint64_t(~V) : uint64_t(~V) + 1;
  };
  FOR_LANES(L, M) {
    uint64_t S = Term(rawSrc(X, D.A, L), D.A.Neg) +
                 Term(rawSrc(X, D.B, L), D.B.Neg) +
                 Term(rawSrc(X, D.C, L), D.C.Neg);
    if (IsX)
      S += predVal(W, D.F[F_Pp], D.F[F_Ppn], L) +
           predVal(W, D.F[F_Pq], D.F[F_Pqn], L);
    W.R[Rd][L] = uint32_t(S);
    if ((S >> 32) & 1)
      C1 |= 1u << L;
    if ((S >> 33) & 1)
      C2 |= 1u << L;
  }
  writePred(W, Pu, C1, M);
  writePred(W, Pv, C2, M);
}

void sim::execLOP3(Exec &X, const DInst &D, uint32_t M) {
  Warp &W = *X.W;
  unsigned Rd = wr(D.F[F_Rd]), Pu = wp(D.F[F_Pu]);
  unsigned Lut = unsigned(D.F[F_lut]);
  uint32_t NZ = 0;
  FOR_LANES(L, M) {
    uint32_t R = lop3(rawSrc(X, D.A, L), rawSrc(X, D.B, L),
                      rawSrc(X, D.C, L), Lut);
    W.R[Rd][L] = R;
    if (R)
      NZ |= 1u << L;
  }
  writePred(W, Pu, NZ, M);
}

void sim::execMOV(Exec &X, const DInst &D, uint32_t M) {
  Warp &W = *X.W;
  unsigned Rd = wr(D.F[F_Rd]);
  FOR_LANES(L, M) W.R[Rd][L] = rawSrc(X, D.B, L);
}

void sim::execIABS(Exec &X, const DInst &D, uint32_t M) {
  Warp &W = *X.W;
  unsigned Rd = wr(D.F[F_Rd]);
  FOR_LANES(L, M) {
    int32_t V = int32_t(rawSrc(X, D.B, L));
    W.R[Rd][L] = V < 0 ? uint32_t(0) - uint32_t(V) : uint32_t(V);
  }
}

/// The 64-bit B source of a .64 form: a register or UR pair, or the
/// sign-extended immediate field (SEL.64's is 33 bits wide).
static uint64_t src64B(Exec &X, const DInst &D, unsigned L) {
  return D.B.K == Src::KImm ? uint64_t(D.F[F_Imm]) : rawSrc64(X, D.B, L);
}

void sim::execSEL(Exec &X, const DInst &D, uint32_t M) {
  Warp &W = *X.W;
  unsigned Rd = wr(D.F[F_Rd]);
  if (D.has(SemFlag::B64)) { // SEL.64 (sm_120)
    FOR_LANES(L, M) {
      uint64_t V = predVal(W, D.F[F_Pp], D.F[F_Ppn], L) ? rawSrc64(X, D.A, L)
                                                        : src64B(X, D, L);
      W.R[Rd][L] = uint32_t(V);
      W.R[Rd == 256 ? 256 : Rd + 1][L] = uint32_t(V >> 32);
    }
    return;
  }
  FOR_LANES(L, M) {
    W.R[Rd][L] = predVal(W, D.F[F_Pp], D.F[F_Ppn], L) ? rawSrc(X, D.A, L)
                                                      : rawSrc(X, D.B, L);
  }
}

void sim::execIMNMX(Exec &X, const DInst &D, uint32_t M) {
  Warp &W = *X.W;
  unsigned Rd = wr(D.F[F_Rd]);
  bool Signed = D.F[F_u] != 0;
  FOR_LANES(L, M) {
    uint32_t A = rawSrc(X, D.A, L), B = rawSrc(X, D.B, L);
    // IMNMX Rd, A, B, PT is the minimum (ptxas: min.s32 -> `IMNMX R, R, R,
    // PT`, max -> `!PT`).
    bool Max = !predVal(W, D.F[F_Pp], D.F[F_Ppn], L);
    bool ALess = Signed ? int32_t(A) < int32_t(B) : A < B;
    W.R[Rd][L] = Max ? (ALess ? B : A) : (ALess ? A : B);
  }
}

void sim::execSHF(Exec &X, const DInst &D, uint32_t M) {
  Warp &W = *X.W;
  unsigned Rd = wr(D.F[F_Rd]);
  bool Right = D.F[F_dir] != 0, Wrap = D.F[F_wrap] != 0,
       Hi = D.F[F_hi] != 0;
  unsigned Type = unsigned(D.F[F_type]); // 0 S64, 1 U64, 2 S32, 3 U32
  bool Is64 = Type < 2, Signed = Type == 0 || Type == 2;
  FOR_LANES(L, M) {
    uint64_t V = rawSrc(X, D.A, L) | uint64_t(rawSrc(X, D.C, L)) << 32;
    uint32_t S = rawSrc(X, D.B, L);
    unsigned Max = Is64 ? 64 : 32;
    S = Wrap ? S & (Max - 1) : std::min<uint32_t>(S, Max);
    uint64_t R;
    if (Right) {
      if (Signed)
        R = S >= 64 ? uint64_t(int64_t(V) >> 63) : uint64_t(int64_t(V) >> S);
      else
        R = S >= 64 ? 0 : V >> S;
    } else {
      R = S >= 64 ? 0 : V << S;
    }
    W.R[Rd][L] = Hi ? uint32_t(R >> 32) : uint32_t(R);
  }
}

/// Flags Hi, X, SX32: .HI, .X, .SX32.
void sim::execLEA(Exec &X, const DInst &D, uint32_t M) {
  Warp &W = *X.W;
  unsigned Rd = wr(D.F[F_Rd]), Pu = wp(D.F[F_Pu]);
  bool Hi = D.has(SemFlag::Hi), IsX = D.has(SemFlag::X),
       Sx = D.has(SemFlag::SX32);
  unsigned Sh = unsigned(D.F[F_sh]);
  uint32_t Carry = 0;
  FOR_LANES(L, M) {
    uint32_t A = rawSrc(X, D.A, L);
    if (D.A.Neg)
      A = IsX ? ~A : uint32_t(0) - A;
    uint32_t Shifted;
    if (Hi) {
      uint32_t HiPart = Sx ? uint32_t(int32_t(A) >> 31) : rawSrc(X, D.C, L);
      uint64_t V = A | uint64_t(HiPart) << 32;
      Shifted = uint32_t((V << Sh) >> 32);
    } else {
      Shifted = A << Sh;
    }
    uint32_t B = rawSrc(X, D.B, L);
    uint64_t Bv = D.B.Neg ? (IsX ? uint64_t(~B) : uint64_t(~B) + 1) : B;
    uint64_t S = uint64_t(Shifted) + Bv;
    if (IsX)
      S += predVal(W, D.F[F_Pp], D.F[F_Ppn], L);
    W.R[Rd][L] = uint32_t(S);
    if (S >> 32)
      Carry |= 1u << L;
  }
  writePred(W, Pu, Carry, M);
}

void sim::execISETP(Exec &X, const DInst &D, uint32_t M) {
  Warp &W = *X.W;
  unsigned Pu = wp(D.F[F_Pu]), Pv = wp(D.F[F_Pv]);
  unsigned Cmp = unsigned(D.F[F_cmp]), Bop = unsigned(D.F[F_bop]);
  bool Signed = D.F[F_u] != 0, Ex = D.has(SemFlag::EX);
  uint32_t RU = 0, RV = 0;
  FOR_LANES(L, M) {
    uint32_t A = rawSrc(X, D.A, L), B = rawSrc(X, D.B, L);
    bool R;
    if (D.has(SemFlag::B64)) {
      // ISETP .U64/.S64 (sm_120): the pairs compared whole.
      uint64_t A64 = rawSrc64(X, D.A, L), B64 = src64B(X, D, L);
      bool Lt = Signed ? int64_t(A64) < int64_t(B64) : A64 < B64;
      bool Eq = A64 == B64;
      switch (Cmp) {
      case 0: R = false; break;
      case 1: R = Lt; break;
      case 2: R = Eq; break;
      case 3: R = Lt || Eq; break;
      case 4: R = !Lt && !Eq; break;
      case 5: R = !Eq; break;
      case 6: R = !Lt; break;
      default: R = true; break;
      }
    } else if (!Ex) {
      R = icmp(Cmp, Signed, A, B);
    } else {
      // High half of a 64-bit compare; Pe is the low half's result of the
      // same compare (EQ: both equal; NE: either differs; orderings: the
      // high halves decide unless equal).
      bool Low = predVal(W, D.F[F_Pe], D.F[F_Pen], L);
      bool HEq = A == B;
      switch (Cmp) {
      case 2:
        R = HEq && Low;
        break;
      case 5:
        R = !HEq || Low;
        break;
      case 1:
      case 3:
        R = icmp(1, Signed, A, B) || (HEq && Low);
        break;
      case 4:
      case 6:
        R = icmp(4, Signed, A, B) || (HEq && Low);
        break;
      default:
        R = Cmp == 7;
      }
    }
    bool Acc = predVal(W, D.F[F_Pp], D.F[F_Ppn], L);
    if (combine(Bop, R, Acc))
      RU |= 1u << L;
    if (combine(Bop, !R, Acc))
      RV |= 1u << L;
  }
  writePred(W, Pu, RU, M);
  writePred(W, Pv, RV, M);
}

void sim::execPRMT(Exec &X, const DInst &D, uint32_t M) {
  Warp &W = *X.W;
  unsigned Rd = wr(D.F[F_Rd]);
  unsigned Mode = unsigned(D.F[F_mode]);
  FOR_LANES(L, M) {
    uint64_t V = rawSrc(X, D.A, L) | uint64_t(rawSrc(X, D.C, L)) << 32;
    uint32_t Sel = rawSrc(X, D.B, L);
    uint8_t Bytes[8];
    for (unsigned I = 0; I < 8; ++I)
      Bytes[I] = uint8_t(V >> (8 * I));
    unsigned Idx[4];
    bool SignRep[4] = {false, false, false, false};
    unsigned S = Sel & 3;
    switch (Mode) {
    case 0:
      for (unsigned I = 0; I < 4; ++I) {
        unsigned N = (Sel >> (4 * I)) & 0xf;
        Idx[I] = N & 7;
        SignRep[I] = N & 8;
      }
      break;
    case 1: // F4E
      for (unsigned I = 0; I < 4; ++I)
        Idx[I] = (S + I) & 7;
      break;
    case 2: // B4E
      for (unsigned I = 0; I < 4; ++I)
        Idx[I] = (S - I) & 7;
      break;
    case 3: // RC8
      for (unsigned I = 0; I < 4; ++I)
        Idx[I] = S;
      break;
    case 4: // ECL
      for (unsigned I = 0; I < 4; ++I)
        Idx[I] = std::max(I, S);
      break;
    case 5: // ECR
      for (unsigned I = 0; I < 4; ++I)
        Idx[I] = std::min(I, S);
      break;
    default: // RC16
      for (unsigned I = 0; I < 4; ++I)
        Idx[I] = (Sel & 1) * 2 + (I & 1);
      break;
    }
    uint32_t R = 0;
    for (unsigned I = 0; I < 4; ++I) {
      uint8_t Byte = Bytes[Idx[I]];
      if (SignRep[I])
        Byte = (Byte & 0x80) ? 0xff : 0;
      R |= uint32_t(Byte) << (8 * I);
    }
    W.R[Rd][L] = R;
  }
}

/// PLOP3.LUT Pu, Pv, Pa, Pb, Pc, lut, lut2.
void sim::execPLOP3(Exec &X, const DInst &D, uint32_t M) {
  Warp &W = *X.W;
  unsigned Pu = wp(D.F[F_Pu]), Pv = wp(D.F[F_Pv]);
  uint32_t RU = 0, RV = 0;
  FOR_LANES(L, M) {
    unsigned Idx = predVal(W, D.F[F_Pa], D.F[F_Pan], L) << 2 |
                   predVal(W, D.F[F_Pb], D.F[F_Pbn], L) << 1 |
                   (D.has(SemFlag::UniformSrc)
                        ? W.UP[D.F[F_Pc]] != bool(D.F[F_Pcn])
                          : predVal(W, D.F[F_Pc], D.F[F_Pcn], L));
    if ((D.F[F_lut] >> Idx) & 1)
      RU |= 1u << L;
    if ((D.F[F_lut2] >> Idx) & 1)
      RV |= 1u << L;
  }
  writePred(W, Pu, RU, M);
  writePred(W, Pv, RV, M);
}

/// VABSDIFF Rd, A, B, C: |A - B| + C, A and B signed 32-bit (no .U32) or
/// unsigned, modulo 2^32 (PTX sad).
void sim::execVABSDIFF(Exec &X, const DInst &D, uint32_t M) {
  Warp &W = *X.W;
  unsigned Rd = wr(D.F[F_Rd]);
  bool Signed = D.F[F_u] != 0;
  FOR_LANES(L, M) {
    uint32_t A = rawSrc(X, D.A, L), B = rawSrc(X, D.B, L);
    int64_t Diff = Signed ? int64_t(int32_t(A)) - int32_t(B)
                          : int64_t(A) - int64_t(B);
    W.R[Rd][L] = uint32_t(Diff < 0 ? -Diff : Diff) + rawSrc(X, D.C, L);
  }
}

/// P2R[.Bn] Rd, PR, Ra, mask: byte n of Rd is P0..P6 (bit i = Pi; PT's
/// bit 7 reads 1) under the mask, the other bits are Ra's.
void sim::execP2R(Exec &X, const DInst &D, uint32_t M) {
  Warp &W = *X.W;
  unsigned Rd = wr(D.F[F_Rd]), Shift = 8 * unsigned(D.F[F_sel]);
  uint32_t Mask = (uint32_t(D.F[F_Imm]) & 0xff) << Shift;
  FOR_LANES(L, M) {
    uint32_t PR = 0;
    for (unsigned P = 0; P < 8; ++P)
      PR |= ((W.P[P] >> L) & 1) << P;
    uint32_t A = rawSrc(X, D.A, L);
    W.R[Rd][L] = (A & ~Mask) | ((PR << Shift) & Mask);
  }
}

/// R2P PR, Ra[.Bn], mask: Pi = bit i of Ra's byte n, for the bits i < 7
/// of the mask (0xff without one).
void sim::execR2P(Exec &X, const DInst &D, uint32_t M) {
  Warp &W = *X.W;
  unsigned Shift = 8 * unsigned(D.F[F_sel]);
  uint32_t Mask = D.Has[F_Imm] ? uint32_t(D.F[F_Imm]) & 0x7f : 0x7f;
  uint32_t Bits[7] = {};
  FOR_LANES(L, M) {
    uint32_t V = rawSrc(X, D.A, L) >> Shift;
    for (unsigned P = 0; P < 7; ++P)
      Bits[P] |= ((V >> P) & 1) << L;
  }
  for (unsigned P = 0; P < 7; ++P)
    if ((Mask >> P) & 1)
      writePred(W, P, Bits[P], M);
}

/// MOV.64 Rd, Rb | URb | imm64 and UMOV.64 URd, imm64 (sm_120): the pair
/// Rd, Rd+1 (uniform for UMOV.64, whose guard is uniform).
void sim::execMOV64(Exec &X, const DInst &D, uint32_t M) {
  Warp &W = *X.W;
  bool Imm = D.Has[F_Imm];
  if (D.UniformGuard) {
    if (!M)
      return;
    uint64_t V = uint64_t(D.F[F_Imm]);
    // URZ and the uniform registers tp does not model (UR63..) take the
    // scratch row.
    auto U = [](int64_t R) { return R >= sass::URZ ? 64u : unsigned(R); };
    W.UR[U(D.F[F_Rd])] = uint32_t(V);
    W.UR[U(D.F[F_Rd] + 1)] = uint32_t(V >> 32);
    return;
  }
  unsigned Rd = wr(D.F[F_Rd]);
  FOR_LANES(L, M) {
    uint64_t V = Imm ? uint64_t(D.F[F_Imm]) : rawSrc64(X, D.B, L);
    W.R[Rd][L] = uint32_t(V);
    W.R[Rd == 256 ? 256 : Rd + 1][L] = uint32_t(V >> 32);
  }
}
