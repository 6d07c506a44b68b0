//===- WarpOps.cpp - Warp data exchange and bit counts of tp-sim ----------===//
///
/// \file
/// SHFL (PTX shfl.sync's lane rule), VOTE, FLO/POPC/BREV.
///
//===----------------------------------------------------------------------===//
#include "ExecState.h"
#include <algorithm>

using namespace llvm;
using namespace tp;
using namespace tp::sim;

//===----------------------------------------------------------------------===//
// Warp data exchange and bit counts
//===----------------------------------------------------------------------===//

unsigned sim::shflSourceLane(unsigned Mode, unsigned Lane, uint32_t B,
                             uint32_t C, bool &InRange) {
  // PTX ISA, shfl.sync: bval = b[4:0], cval = c[4:0], segmask = c[12:8];
  // maxLane = (lane & segmask) | (cval & ~segmask), minLane = lane & segmask.
  int BVal = int(B & 31), CVal = int(C & 31), Seg = int((C >> 8) & 31);
  int L = int(Lane), MaxLane = (L & Seg) | (CVal & ~Seg),
      MinLane = L & Seg, J;
  switch (Mode) {
  case 1: // UP
    J = L - BVal;
    InRange = J >= MaxLane;
    break;
  case 2: // DOWN
    J = L + BVal;
    InRange = J <= MaxLane;
    break;
  case 3: // BFLY
    J = L ^ BVal;
    InRange = J <= MaxLane;
    break;
  default: // IDX
    J = MinLane | (BVal & ~Seg);
    InRange = J <= MaxLane;
    break;
  }
  return InRange ? unsigned(J) : Lane;
}

/// SHFL Pd, Rd, Ra, B, C: each executing lane reads Ra of its source lane
/// (shflSourceLane); Pd = in range.  A source lane that does not execute
/// the SHFL (exited, guard false, or outside the block) is an error: PTX
/// leaves the value undefined, tp-sim never guesses it.
void sim::execSHFL(Exec &X, const DInst &D, uint32_t M) {
  Warp &W = *X.W;
  unsigned Rd = wr(D.F[F_Rd]), Pd = wp(D.F[F_Pd]);
  unsigned Mode = unsigned(D.F[F_mode]);
  int64_t Ra = D.F[F_Ra];
  uint32_t Val[32], Pred = 0;
  FOR_LANES(L, M) {
    uint32_t B = D.Has[F_lane] ? uint32_t(D.F[F_lane])
                               : (D.F[F_Rb] == sass::RZ ? 0 : W.R[D.F[F_Rb]][L]);
    uint32_t C = D.Has[F_cmask] ? uint32_t(D.F[F_cmask])
                                : (D.F[F_Rc] == sass::RZ ? 0 : W.R[D.F[F_Rc]][L]);
    bool In;
    unsigned J = shflSourceLane(Mode, L, B, C, In);
    if (!((M >> J) & 1)) {
      X.fault("SHFL lane " + Twine(L) + " reads lane " + Twine(J) +
              ", which does not execute it (lane mask 0x" +
              Twine(utohexstr(M, /*LowerCase=*/true)) +
              "): the value is undefined");
      return;
    }
    Val[L] = Ra == sass::RZ ? 0 : W.R[Ra][J];
    if (In)
      Pred |= 1u << L;
  }
  FOR_LANES(L, M) W.R[Rd][L] = Val[L];
  writePred(W, Pd, Pred, M);
}

/// VOTE.ALL/.ANY/.EQ Rd, Pu, Pp: Rd = the ballot of Pp over the executing
/// lanes, Pu = the vote (as VOTEU).
void sim::execVOTE(Exec &X, const DInst &D, uint32_t M) {
  Warp &W = *X.W;
  uint32_t P = W.P[D.F[F_Pp]];
  if (D.F[F_Ppn])
    P = ~P;
  uint32_t Ballot = P & M;
  unsigned Mode = unsigned(D.F[F_mode]);
  bool R = Mode == 0   ? Ballot == M
           : Mode == 1 ? Ballot != 0
                       : (Ballot == 0 || Ballot == M);
  unsigned Rd = wr(D.Has[F_Rd] ? D.F[F_Rd] : sass::RZ);
  FOR_LANES(L, M) W.R[Rd][L] = Ballot;
  writePred(W, wp(D.F[F_Pu]), R ? 0xffffffffu : 0, M);
}

void sim::execBitCount(Exec &X, const DInst &D, uint32_t M) {
  unsigned Rd = wr(D.F[F_Rd]);
  bool Sh = D.F[F_sh] != 0;
  FOR_LANES(L, M) {
    uint32_t V = rawSrc(X, D.B, L);
    if (D.B.Neg)
      V = ~V;
    X.W->R[Rd][L] = bitCount(D.kind<BitOp>(), V, Sh);
  }
}

/// REDUX{,.OR,.XOR,.SUM,.MIN,.MAX}{,.S32} URd, Ra: the AND (OR, XOR, sum
/// modulo 2^32, minimum, maximum; .S32 signed) of Ra over the executing
/// lanes (PTX redux.sync), into a uniform register.
void sim::execREDUX(Exec &X, const DInst &D, uint32_t M) {
  Warp &W = *X.W;
  if (!M)
    return;
  unsigned Op = unsigned(D.F[F_rop]);
  // CREDUX's op codes: .MIN 2, .MAX 0 (REDUX's: 4, 5).
  if (D.has(SemFlag::Credux))
    Op = Op == 2 ? 4 : 5;
  bool Signed = D.F[F_ty] != 0;
  int64_t Ra = D.F[F_Ra];
  uint32_t Acc = 0;
  bool First = true;
  FOR_LANES(L, M) {
    uint32_t V = Ra == sass::RZ ? 0 : W.R[Ra][L];
    if (First) {
      Acc = V;
      First = false;
      continue;
    }
    switch (Op) {
    case 0:
      Acc &= V;
      break;
    case 1:
      Acc |= V;
      break;
    case 2:
      Acc ^= V;
      break;
    case 3:
      Acc += V;
      break;
    case 4:
      Acc = Signed ? uint32_t(std::min(int32_t(Acc), int32_t(V)))
                   : std::min(Acc, V);
      break;
    default:
      Acc = Signed ? uint32_t(std::max(int32_t(Acc), int32_t(V)))
                   : std::max(Acc, V);
      break;
    }
  }
  W.UR[wu(D.F[F_Rd] >= sass::URZ ? sass::URZ : D.F[F_Rd])] = Acc;
}


/// MATCH.ANY Rd, Ra (.U64: the pair): each executing lane gets the mask of
/// the executing lanes whose value equals its own (PTX match.any.sync).
void sim::execMATCH(Exec &X, const DInst &D, uint32_t M) {
  Warp &W = *X.W;
  int64_t Ra = D.F[F_Ra];
  bool Wide = D.has(SemFlag::B64);
  auto Val = [&](unsigned L) -> uint64_t {
    if (Ra == sass::RZ)
      return 0;
    return W.R[Ra][L] | (Wide ? uint64_t(W.R[Ra + 1][L]) << 32 : 0);
  };
  uint32_t Out[32] = {};
  FOR_LANES(L, M) {
    uint64_t V = Val(L);
    FOR_LANES(K, M)
      if (Val(K) == V)
        Out[L] |= 1u << K;
  }
  unsigned Rd = wr(D.F[F_Rd]);
  FOR_LANES(L, M)
    W.R[Rd][L] = Out[L];
}
