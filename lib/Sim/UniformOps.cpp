//===- UniformOps.cpp - Special registers, constants, uniform ALU ---------===//
///
/// \file
/// S2R/S2UR/CS2R, ULDC/LDC and Blackwell's LDCU (constant bank 0 only), and the uniform
/// datapath (UMOV, UIADD3, ULOP3, USHF, UIMAD, ULEA, UISETP, USEL, VOTEU,
/// R2UR, UFLO, UPOPC, UBREV), executed once per warp.
///
//===----------------------------------------------------------------------===//
#include "ExecState.h"

#include <algorithm>

using namespace llvm;
using namespace tp;
using namespace tp::sim;

//===----------------------------------------------------------------------===//
// Special and uniform registers
//===----------------------------------------------------------------------===//



static uint32_t srValue(Exec &X, uint32_t Id, unsigned L) {
  const LaunchConfig &C = *X.Cfg;
  uint32_t T = X.W->Id * 32 + L;
  switch (Id) {
  case SR_LANEID:
    return L;
  case SR_TIDX:
    return T % C.Block[0];
  case SR_TIDY:
    return (T / C.Block[0]) % C.Block[1];
  case SR_TIDZ:
    return T / (C.Block[0] * C.Block[1]);
  case SR_CTAIDX:
    return X.B->Ctaid[0];
  case SR_CTAIDY:
    return X.B->Ctaid[1];
  case SR_CTAIDZ:
    return X.B->Ctaid[2];
  case SR_WARPID:
    return X.W->Id;
  case SR_LTMASK:
    return (1u << L) - 1;
  case SR_EQMASK:
    return 1u << L;
  case SR_CGACTAID:
    return 0;
  case SR_CLOCKLO:
    return uint32_t(X.W->Issued);
  default:
    return 0;
  }
}

void sim::execS2R(Exec &X, const DInst &D, uint32_t M) {
  unsigned Rd = wr(D.F[F_Rd]);
  FOR_LANES(L, M) X.W->R[Rd][L] = srValue(X, D.SReg, L);
}
void sim::execCS2R(Exec &X, const DInst &D, uint32_t M) {
  unsigned Rd = wr(D.F[F_Rd]);
  FOR_LANES(L, M) {
    X.W->R[Rd][L] = srValue(X, D.SReg, L);
    if (D.has(SemFlag::Pair))
      X.W->R[Rd == 256 ? 256 : Rd + 1][L] = 0;
  }
}
void sim::execS2UR(Exec &X, const DInst &D, uint32_t M) {
  if (M)
    X.W->UR[wu(D.F[F_Ud])] = srValue(X, D.SReg, __builtin_ctz(M));
}

/// A constant load of ULDC/LDC: size code \p Sz (.U8 0, .S8 1, .U16 2,
/// .S16 3, 32-bit 4, .64 5) at byte \p Off of bank \p Bank into \p V
/// (V[1] only for .64).  Sub-word values are zero- or sign-extended; an
/// offset that is not a multiple of the size is an error (UNVERIFIED on
/// hardware: ptxas never emits one).
static void constLoad(Exec &X, uint32_t Bank, uint32_t Off, unsigned Sz,
                      uint32_t V[2]) {
  static const unsigned Bytes[6] = {1, 1, 2, 2, 4, 8};
  if (Sz > 5 || Off % Bytes[Sz]) {
    X.fault("misaligned constant load of " + Twine(Sz > 5 ? 0 : Bytes[Sz]) +
            " bytes at c[" + Twine(Bank) + "][0x" +
            Twine(utohexstr(Off, /*LowerCase=*/true)) + "]");
    return;
  }
  uint32_t W = cbank(X, Bank, Off & ~3u);
  switch (Sz) {
  case 0: W = uint8_t(W >> 8 * (Off & 3)); break;
  case 1: W = uint32_t(int32_t(int8_t(W >> 8 * (Off & 3)))); break;
  case 2: W = uint16_t(W >> 8 * (Off & 2)); break;
  case 3: W = uint32_t(int32_t(int16_t(W >> 8 * (Off & 2)))); break;
  default: break;
  }
  V[0] = W;
  if (Sz == 5)
    V[1] = cbank(X, Bank, Off + 4);
}

/// ULDC (and Blackwell's LDCU): size code `sz` (.U8 0, .S8 1, .U16 2, .S16
/// 3, 32 4; LDCU.128 6: four URs, 16-byte aligned), .64 with flag B64; flag
/// AddrUR when a UR adds to the offset.  Rd is a UR.
void sim::execULDC(Exec &X, const DInst &D, uint32_t M) {
  if (!M)
    return;
  Warp &W = *X.W;
  unsigned U = wu(D.F[F_Rd] >= sass::URZ ? sass::URZ : D.F[F_Rd]);
  uint32_t Off = uint32_t(D.F[F_Off]);
  if (D.has(SemFlag::AddrUR) && D.F[F_Ur] < sass::URZ)
    Off += W.UR[D.F[F_Ur]];
  unsigned Sz = D.has(SemFlag::B64) ? 5 : unsigned(D.F[F_sz]);
  if (Sz == 6) { // .128: two aligned .64 halves
    if (Off % 16) {
      X.fault("misaligned constant load of 16 bytes at c[" +
              Twine(D.F[F_Bank]) + "][0x" +
              Twine(utohexstr(Off, /*LowerCase=*/true)) + "]");
      return;
    }
    for (unsigned H = 0; H < 2; ++H) {
      uint32_t V[2] = {0, 0};
      constLoad(X, uint32_t(D.F[F_Bank]), Off + 8 * H, 5, V);
      for (unsigned I = 0; I < 2; ++I) // past UR62: the scratch UR64
        W.UR[std::min(U == 64 ? 64u : U + 2 * H + I, 64u)] = V[I];
    }
    return;
  }
  uint32_t V[2] = {0, 0};
  constLoad(X, uint32_t(D.F[F_Bank]), Off, Sz, V);
  W.UR[U] = V[0];
  if (Sz == 5)
    W.UR[U == 64 ? 64 : U + 1] = V[1];
}

/// LDC: per lane, the constant at c[Bank][Ra + Off] (Ra = RZ: Off alone)
/// into Rd (a pair for .64); sizes as ULDC (flag B64 for LDC.64).
void sim::execLDC(Exec &X, const DInst &D, uint32_t M) {
  Warp &W = *X.W;
  unsigned Rd = wr(D.F[F_Rd]);
  unsigned Sz = D.has(SemFlag::B64) ? 5 : unsigned(D.F[F_sz]);
  FOR_LANES(L, M) {
    uint32_t Off = uint32_t(D.F[F_Off]);
    if (D.F[F_Ra] != sass::RZ)
      Off += W.R[D.F[F_Ra]][L];
    uint32_t V[2] = {0, 0};
    constLoad(X, uint32_t(D.F[F_Bank]), Off, Sz, V);
    if (!X.Fault.empty())
      return;
    W.R[Rd][L] = V[0];
    if (Sz == 5)
      W.R[Rd == 256 ? 256 : Rd + 1][L] = V[1];
  }
}

/// A uniform source: a UR (numbers >= 63 read URZ), an immediate or a
/// constant.
static inline uint32_t uSrc(Exec &X, const Src &S) {
  switch (S.K) {
  case Src::KReg:
  case Src::KUR:
    return S.Reg >= sass::URZ ? 0 : X.W->UR[S.Reg];
  case Src::KImm:
    return S.Val;
  case Src::KCB:
    return cbank(X, S.Reg, S.Val);
  default:
    return 0;
  }
}
static inline uint64_t uSrc64(Exec &X, const Src &S) {
  if (S.K == Src::KImm)
    return uint64_t(int64_t(int32_t(S.Val)));
  if (S.Reg >= sass::URZ)
    return 0;
  return X.W->UR[S.Reg] | uint64_t(X.W->UR[S.Reg + 1]) << 32;
}
static inline bool uPred(const Warp &W, int64_t P, int64_t Neg) {
  return (P >= sass::PT ? true : W.UP[P]) != bool(Neg);
}
static inline void setUP(Warp &W, int64_t P, bool V) {
  W.UP[P >= sass::PT ? 8 : P] = V;
}

/// Uniform ALU, executed once per warp on URs and UPs (the td names the
/// operands Rd/Ra/Rb/Rc and Pu/Pv/Pp as for the vector ops).  Variant
/// (UALUKind): UMOV, UIADD3 (flags X, B64), ULOP3, USHF, UIMAD (X, Wide),
/// ULEA (Hi, X, SX32), UISETP (EX), USEL, VOTEU, R2UR, UFLO, UPOPC, UBREV,
/// ELECT.
void sim::execUALU(Exec &X, const DInst &D, uint32_t M) {
  Warp &W = *X.W;
  unsigned Ud = wu(D.F[F_Rd] >= sass::URZ ? sass::URZ : D.F[F_Rd]);
  UALUKind Op = D.kind<UALUKind>();
  if (Op == UALUKind::VOTEU) { //: ballot of the executing lanes
    uint32_t P = W.P[D.F[F_Pp]];
    if (D.F[F_Ppn])
      P = ~P;
    uint32_t Ballot = P & M;
    W.UR[Ud] = Ballot;
    unsigned Mode = unsigned(D.F[F_mode]);
    bool R = Mode == 0 ? Ballot == M : Mode == 1 ? Ballot != 0
                                                 : (Ballot == 0 || Ballot == M);
    setUP(W, D.F[F_Pu], R);
    return;
  }
  if (Op == UALUKind::ELECT) { //: Pd true in the leader lane alone
    uint32_t P = W.P[D.F[F_Pp]];
    if (D.F[F_Ppn])
      P = ~P;
    uint32_t Members = P & M;
    unsigned Pd = D.F[F_Pd];
    if (Pd < sass::PT)
      W.P[Pd] = (W.P[Pd] & ~M) | (Members & -Members);
    unsigned Ude = wu(D.F[F_Ud] >= sass::URZ ? sass::URZ : D.F[F_Ud]);
    if (Members)
      W.UR[Ude] = uint32_t(__builtin_ctz(Members));
    return;
  }
  if (!M)
    return;
  if (Op == UALUKind::UFLO || Op == UALUKind::UPOPC || Op == UALUKind::UBREV) {
    BitOp B = Op == UALUKind::UFLO    ? BitOp::Flo
              : Op == UALUKind::UPOPC ? BitOp::Popc
                                      : BitOp::Brev;
    W.UR[Ud] = bitCount(B, uSrc(X, D.B), D.F[F_sh] != 0);
    return;
  }
  if (Op == UALUKind::R2UR) { //: the value of the first executing lane
    unsigned L = __builtin_ctz(M);
    W.UR[Ud] = D.F[F_Ra] == sass::RZ ? 0 : W.R[D.F[F_Ra]][L];
    return;
  }
  uint32_t A = uSrc(X, D.A), B = uSrc(X, D.B), C = uSrc(X, D.C);
  bool IsX = D.has(SemFlag::X);
  auto Term = [IsX](uint32_t V, bool N) -> uint64_t {
    return N ? (IsX ? uint64_t(~V) : uint64_t(~V) + 1) : V;
  };
  switch (Op) {
  case UALUKind::UMOV:
    W.UR[Ud] = B;
    break;
  case UALUKind::UIADD3: {
    if (D.has(SemFlag::B64)) { // UIADD3.64
      uint64_t S = uSrc64(X, D.A) + uSrc64(X, D.B) + uSrc64(X, D.C);
      W.UR[Ud] = uint32_t(S);
      W.UR[Ud == 64 ? 64 : Ud + 1] = uint32_t(S >> 32);
      break;
    }
    uint64_t S = Term(A, D.A.Neg) + Term(B, D.B.Neg) + Term(C, D.C.Neg);
    if (IsX)
      S += uPred(W, D.F[F_Pp], D.F[F_Ppn]) + uPred(W, D.F[F_Pq], D.F[F_Pqn]);
    W.UR[Ud] = uint32_t(S);
    setUP(W, D.F[F_Pu], (S >> 32) & 1);
    setUP(W, D.F[F_Pv], (S >> 33) & 1);
    break;
  }
  case UALUKind::ULOP3: {
    uint32_t R = lop3(A, B, C, unsigned(D.F[F_lut]));
    W.UR[Ud] = R;
    setUP(W, D.F[F_Pu], R != 0);
    break;
  }
  case UALUKind::USHF: {
    unsigned Type = unsigned(D.F[F_type]);
    bool Is64 = Type < 2, Signed = Type == 0 || Type == 2;
    uint64_t V = A | uint64_t(C) << 32;
    unsigned Max = Is64 ? 64 : 32;
    uint32_t S = D.F[F_wrap] ? B & (Max - 1) : std::min<uint32_t>(B, Max);
    uint64_t R;
    if (D.F[F_dir])
      R = Signed ? (S >= 64 ? uint64_t(int64_t(V) >> 63)
                            : uint64_t(int64_t(V) >> S))
                 : (S >= 64 ? 0 : V >> S);
    else
      R = S >= 64 ? 0 : V << S;
    W.UR[Ud] = D.F[F_hi] ? uint32_t(R >> 32) : uint32_t(R);
    break;
  }
  case UALUKind::UIMAD: {
    bool Signed = D.F[F_u] != 0;
    uint32_t Cin = IsX ? uPred(W, D.F[F_Pc], D.F[F_Pcn]) : 0;
    if (D.has(SemFlag::Wide)) {
      uint64_t Prod = Signed ? uint64_t(int64_t(int32_t(A)) * int32_t(B))
                             : uint64_t(A) * B;
      uint64_t Cv = uSrc64(X, D.C);
      if (D.C.Neg)
        Cv = IsX ? ~Cv : uint64_t(0) - Cv;
      unsigned __int128 S = (unsigned __int128)Prod + Cv + Cin;
      W.UR[Ud] = uint32_t(S);
      W.UR[Ud == 64 ? 64 : Ud + 1] = uint32_t(uint64_t(S) >> 32);
      setUP(W, D.F[F_Pu], (S >> 64) & 1);
    } else {
      uint64_t S = uint64_t(A * B) + Term(C, D.C.Neg) + Cin;
      W.UR[Ud] = uint32_t(S);
      setUP(W, D.F[F_Pu], (S >> 32) & 1);
    }
    break;
  }
  case UALUKind::ULEA: {
    bool Hi = D.has(SemFlag::Hi), LX = D.has(SemFlag::X),
         Sx = D.has(SemFlag::SX32);
    unsigned Sh = unsigned(D.F[F_sh]);
    uint32_t Av = D.A.Neg ? (LX ? ~A : uint32_t(0) - A) : A;
    uint32_t Shifted;
    if (Hi) {
      uint32_t HiPart = Sx ? uint32_t(int32_t(Av) >> 31) : C;
      Shifted = uint32_t(((Av | uint64_t(HiPart) << 32) << Sh) >> 32);
    } else {
      Shifted = Av << Sh;
    }
    uint64_t Bv = D.B.Neg ? (LX ? uint64_t(~B) : uint64_t(~B) + 1) : B;
    uint64_t S = uint64_t(Shifted) + Bv;
    if (LX)
      S += uPred(W, D.F[F_Pp], D.F[F_Ppn]);
    W.UR[Ud] = uint32_t(S);
    setUP(W, D.F[F_Pu], (S >> 32) & 1);
    break;
  }
  case UALUKind::UISETP: {
    unsigned Cmp = unsigned(D.F[F_cmp]);
    bool Signed = D.F[F_u] != 0, R;
    if (!D.has(SemFlag::EX)) {
      R = icmp(Cmp, Signed, A, B);
    } else {
      bool Low = uPred(W, D.F[F_Pe], D.F[F_Pen]), HEq = A == B;
      R = Cmp == 2   ? HEq && Low
          : Cmp == 5 ? !HEq || Low
          : (Cmp == 1 || Cmp == 3)
              ? icmp(1, Signed, A, B) || (HEq && Low)
          : (Cmp == 4 || Cmp == 6) ? icmp(4, Signed, A, B) || (HEq && Low)
                                   : Cmp == 7;
    }
    bool Acc = uPred(W, D.F[F_Pp], D.F[F_Ppn]);
    unsigned Bop = unsigned(D.F[F_bop]);
    setUP(W, D.F[F_Pu], combine(Bop, R, Acc));
    setUP(W, D.F[F_Pv], combine(Bop, !R, Acc));
    break;
  }
  default:
    W.UR[Ud] = uPred(W, D.F[F_Pp], D.F[F_Ppn]) ? A : B;
    break;
  }
}
