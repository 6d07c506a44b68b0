//===- ControlOps.cpp - Branches, exits, barriers, convergence ------------===//
///
/// \file
/// BRA (splitting divergent paths), EXIT, BSSY/BSYNC, WARPSYNC, BAR.SYNC,
/// NOP: handlers only request control flow; Engine.cpp carries it out.
///
//===----------------------------------------------------------------------===//
#include "ExecState.h"

using namespace llvm;
using namespace tp;
using namespace tp::sim;

//===----------------------------------------------------------------------===//
// Control
//===----------------------------------------------------------------------===//

void sim::execNOP(Exec &, const DInst &, uint32_t) {}

/// Lanes of \p M whose condition predicate (BRA/EXIT `Pp`) holds.
static inline uint32_t condMask(const Warp &W, const DInst &D, uint32_t M) {
  uint32_t P = W.P[D.F[F_Pp]];
  return M & (D.F[F_Ppn] ? ~P : P);
}

void sim::execEXIT(Exec &X, const DInst &D, uint32_t M) {
  uint32_t Done = condMask(*X.W, D, M);
  X.W->Active &= ~Done;
  X.W->Live &= ~Done;
}

/// A branch taken by some lanes of the running path splits it: the taken
/// lanes are parked at the target, the others fall through (they run
/// first; the order of paths is not observable in race-free code).
void sim::execBRA(Exec &X, const DInst &D, uint32_t M) {
  Warp &W = *X.W;
  M = condMask(W, D, M);
  if (!M)
    return;
  if (M != W.Active) {
    W.Parked.push_back({M, uint32_t(D.Target), -1});
    W.Active &= ~M;
    return;
  }
  X.Branch = true;
  X.NextPC = uint32_t(D.Target);
}

/// BSSY Bx, target: Bx = the running path's lanes.
void sim::execBSSY(Exec &X, const DInst &D, uint32_t M) {
  if (!M)
    return;
  if (M != X.W->Active) {
    X.fault("BSSY executed by part of a path (guard): unsupported");
    return;
  }
  X.W->Bar[D.F[F_b] & 15] = M;
}

/// BSYNC Bx: the path waits until every live lane of Bx has arrived at this
/// BSYNC (runWarp merges the paths).
void sim::execBSYNC(Exec &X, const DInst &D, uint32_t M) {
  if (!M)
    return;
  if (M != X.W->Active) {
    X.fault("BSYNC executed by part of a path (guard): unsupported");
    return;
  }
  X.SyncBar = int(D.F[F_b] & 15);
}

/// WARPSYNC mask: the lanes of the mask that are live must all be on the
/// running path (they are after a BSYNC); waiting for lanes on another path
/// is not modelled and is an error.
void sim::execWARPSYNC(Exec &X, const DInst &D, uint32_t M) {
  Warp &W = *X.W;
  if (!M)
    return;
  uint32_t Mask = D.Has[F_mask]   ? uint32_t(D.F[F_mask])
                  : D.Has[F_Bank] ? cbank(X, uint32_t(D.F[F_Bank]),
                                          uint32_t(D.F[F_Off]))
                  : D.F[F_Rb] == sass::RZ
                      ? 0
                      : W.R[D.F[F_Rb]][__builtin_ctz(M)];
  uint32_t Missing = Mask & W.Live & ~W.Active;
  if (Missing)
    X.fault("WARPSYNC 0x" + Twine(utohexstr(Mask, /*LowerCase=*/true)) +
            " waits for lanes 0x" +
            Twine(utohexstr(Missing, /*LowerCase=*/true)) +
            " on another path of the divergent warp: unsupported");
}

/// BAR.SYNC / BAR.RED / BAR.ARV id[, count]: the whole warp arrives at
/// barrier id (Engine.cpp's runBlock releases it: every live warp of the
/// block, or `count` threads counted a warp at a time, PTX bar.sync's
/// rule); BAR.SYNC and BAR.RED wait, BAR.ARV does not.  BAR.RED records
/// the lanes whose predicate holds for the reduction at release.
void sim::execBAR(Exec &X, const DInst &D, uint32_t M) {
  Warp &W = *X.W;
  if (!M)
    return;
  if (M != W.Active || W.Active != W.Live) {
    X.fault("BAR executed by part of a warp: unsupported");
    return;
  }
  unsigned Id = unsigned(D.F[F_id]) & 15;
  uint32_t Count = D.Has[F_cnt] ? uint32_t(D.F[F_cnt]) : 0;
  if (D.kind<BarKind>() == BarKind::Arv) {
    X.B->Arrived[Id] += 32;
    return;
  }
  W.BarId = uint8_t(Id);
  W.BarCount = Count;
  W.BarRed = D.kind<BarKind>() == BarKind::Red;
  if (W.BarRed) {
    W.BarRedOp = uint8_t(D.F[F_rop]);
    uint32_t P = W.P[D.F[F_Pp]];
    W.BarRedBits = M & (D.F[F_Ppn] ? ~P : P);
  }
  X.Barrier = true;
}

/// B2R.RESULT Rd[, Pd]: the warp's last BAR.RED result, the count of
/// threads whose predicate held (.POPC) in Rd, the .AND/.OR result in Pd
/// (and, as 0 or 1, in Rd; .POPC's Pd is count != 0: UNVERIFIED, ptxas
/// reads Rd after .POPC and Pd after .AND/.OR only).
void sim::execB2R(Exec &X, const DInst &D, uint32_t M) {
  Warp &W = *X.W;
  unsigned Rd = wr(D.F[F_Rd]);
  FOR_LANES(L, M)
    W.R[Rd][L] = W.RedCount;
  writePred(W, wp(D.F[F_Pd]), W.RedPred ? 0xffffffffu : 0, M);
}

/// Sends the lanes of \p M to the instruction at byte address
/// TargetBase + \p Off(lane) of the kernel (an indirect CALL or a RET):
/// lanes with the same target form one path; a target outside the code or
/// not on an instruction is an error.
template <typename OffsetFn>
static void jumpIndirect(Exec &X, const DInst &D, uint32_t M, OffsetFn Off) {
  Warp &W = *X.W;
  size_t N = X.Prog->Insts.size();
  uint32_t Left = M;
  while (Left) {
    unsigned L0 = __builtin_ctz(Left);
    uint64_t T = D.TargetBase + Off(L0);
    if (T % 16 || T / 16 >= N) {
      X.fault("jumps to 0x" + Twine(utohexstr(T, /*LowerCase=*/true)) +
              " (lane " + Twine(L0) + "), outside the kernel's code");
      return;
    }
    uint32_t Group = 0;
    FOR_LANES(L, Left)
      if (D.TargetBase + Off(L) == T)
        Group |= 1u << L;
    Left &= ~Group;
    if (Group == W.Active) {
      X.Branch = true;
      X.NextPC = uint32_t(T / 16);
      return;
    }
    W.Parked.push_back({Group, uint32_t(T / 16), -1});
    W.Active &= ~Group;
  }
}

/// The return address or function pointer of lane \p L: the register
/// pair at Ra.
static uint64_t regPair(const Warp &W, int64_t Ra, unsigned L) {
  if (Ra == sass::RZ)
    return 0;
  return W.R[Ra][L] | uint64_t(W.R[Ra + 1][L]) << 32;
}

/// CALL.REL.NOINC target, or CALL.REL.NOINC Ra target (to target + Ra,
/// a function pointer): a jump.  ptxas's calling convention passes the
/// return address in a register pair itself (`MOV R20, 0x1d0` before the
/// call, `RET.REL.NODEC R20 0x0` in the callee), so .NOINC (no hardware
/// return stack) is all a call does; prepareInst refuses CALL without it.
void sim::execCALL(Exec &X, const DInst &D, uint32_t M) {
  if (!M)
    return;
  if (!D.has(SemFlag::Indirect)) {
    execBRA(X, D, M);
    return;
  }
  const Warp &W = *X.W;
  jumpIndirect(X, D, M, [&](unsigned L) { return regPair(W, D.F[F_Ra], L); });
}

/// RET.REL.NODEC Ra target: to target + the register pair Ra (the return
/// address the caller wrote), lanes with different addresses on paths of
/// their own.
void sim::execRET(Exec &X, const DInst &D, uint32_t M) {
  if (!M)
    return;
  const Warp &W = *X.W;
  jumpIndirect(X, D, M, [&](unsigned L) { return regPair(W, D.F[F_Ra], L); });
}

/// BREAK [Pp,] Bx: the lanes that execute it (and whose predicate holds)
/// leave convergence barrier Bx: its BSYNC no longer waits for them (a
/// loop exit inside a BSSY region).
void sim::execBREAK(Exec &X, const DInst &D, uint32_t M) {
  uint32_t Out = condMask(*X.W, D, M);
  X.W->Bar[D.F[F_b] & 15] &= ~Out;
}

/// BRA.DIV / BRA.CONV URx, target: taken by the running path when the
/// live lanes of the mask in URx are (.CONV) or are not (.DIV) all on it,
/// i.e. when a warp-synchronous operation over that mask may run at once;
/// ptxas branches to the fast path this way (`BRA.CONV UR6` before SHFL,
/// MATCH, REDUX with a run-time mask, a WARPSYNC in the slow path).
void sim::execBRADIV(Exec &X, const DInst &D, uint32_t M) {
  Warp &W = *X.W;
  if (!M)
    return;
  uint32_t Mask = D.F[F_Ur] == sass::URZ ? 0 : W.UR[D.F[F_Ur]];
  if (D.F[F_urn])
    Mask = ~Mask;
  bool Converged = !(Mask & W.Live & ~W.Active);
  bool Conv = D.F[F_mode] == 3;
  if (Converged == Conv)
    execBRA(X, D, M);
}
