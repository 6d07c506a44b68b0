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
  uint32_t Mask = D.Has[F_mask] ? uint32_t(D.F[F_mask])
                                : (D.F[F_Rb] == sass::RZ ? 0 : W.R[D.F[F_Rb]]
                                                              [__builtin_ctz(M)]);
  uint32_t Missing = Mask & W.Live & ~W.Active;
  if (Missing)
    X.fault("WARPSYNC 0x" + Twine(utohexstr(Mask, /*LowerCase=*/true)) +
            " waits for lanes 0x" +
            Twine(utohexstr(Missing, /*LowerCase=*/true)) +
            " on another path of the divergent warp: unsupported");
}

void sim::execBAR(Exec &X, const DInst &D, uint32_t M) {
  if (M && (M != X.W->Active || X.W->Active != X.W->Live)) {
    X.fault("BAR.SYNC executed by part of a warp: unsupported");
    return;
  }
  if (M)
    X.Barrier = true;
}
