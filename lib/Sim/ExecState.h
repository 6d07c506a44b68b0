//===- ExecState.h - Warp, block and launch state of tp-sim -*- C++ -*-===//
///
/// \file
/// Internal to lib/Sim: the state instruction handlers work on (Warp,
/// Block, Exec), the helpers every instruction family uses (register
/// indices with scratch rows for RZ/PT/URZ/UPT, sources, lane loops,
/// binary32/binary16 bits), and the handlers themselves, one per semantic
/// class (defined in IntegerOps, FloatOps, UniformOps, MemoryOps, WarpOps,
/// TensorOps and ControlOps.cpp; chosen per form by Dispatch.cpp).
///
/// Register files are stored register-major (R[reg][lane]), with a scratch
/// row for writes to RZ/PT/URZ/UPT so that no handler tests for them.
///
//===----------------------------------------------------------------------===//
#ifndef TP_LIB_SIM_EXECSTATE_H
#define TP_LIB_SIM_EXECSTATE_H

#include "SimInternal.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include <array>
#include <cmath>
#include <cstring>
#include <deque>
#include <string>
#include <vector>

//===----------------------------------------------------------------------===//
// State
//===----------------------------------------------------------------------===//

namespace tp {
namespace sim {

using llvm::StringRef;
using llvm::Twine;
using llvm::utohexstr;

/// One async copy of LDGSTS, captured at issue.
struct AsyncCopy {
  uint32_t SharedAddr;
  uint8_t Size;
  uint8_t Data[16];
};
struct CopyGroup {
  uint8_t SB;
  std::vector<AsyncCopy> Copies;
};

/// Hazard mode: the units whose instructions read their late sources in
/// issue order (shared, global, local memory, MUFU; readQueue in
/// Hazards.cpp).
constexpr unsigned NumReadQueues = 4;

/// RegHz's guard fields: no regular predicate guard.
constexpr uint16_t NoGuard = 0xffff;

/// \p D's guard as the hazard checks keep it: the predicate register and
/// sense (P << 1 | negated), NoGuard for PT and uniform guards.  A write
/// under the complement of an earlier guard, the predicate not written in
/// between, acts in other lanes.
uint16_t guardOf(const DInst &D);

/// How many times each predicate register P0..P6 was written: a guard's
/// lanes are the same while its predicate's count is (the hazard mode's
/// and the timing model's view of complementary guards).
struct PredicateWrites {
  uint32_t Count[8] = {};
  /// The count of guard \p G's predicate (0 for NoGuard).
  uint32_t versionOf(uint16_t G) const {
    return G == NoGuard ? 0 : Count[G >> 1];
  }
  /// Whether \p D's guard is the complement of \p Guard, recorded at
  /// version \p Ver, its predicate not written since: then no lane runs
  /// both (@P1 LDG R132, [R132.64] and @!P1 IMAD.MOV.U32 R132 in ptxas's
  /// CUTLASS GEMM, sm_80).
  bool complements(const DInst &D, uint16_t Guard, uint32_t Ver) const;
  /// Counts the predicates \p D writes.
  void count(const DInst &D);
};

/// Hazard-mode record of one register.
struct RegHz {
  uint64_t IssueCycle = 0;  ///< issue of the last fixed-latency writer
  bool Fixed = false;       ///< the last writer has a fixed latency
  sched::InstrClass WC = sched::InstrClass::Nop; ///< its latency class
  bool LowHalf = false;     ///< the even register of an IMAD.WIDE pair
  int8_t WrSB = -1;         ///< pending variable-latency write: scoreboard
  uint32_t WrSeq = 0;
  uint32_t WrInst = 0;      ///< instruction index of the writer
  int8_t RdSB = -1;         ///< pending late read: scoreboard
  uint32_t RdSeq = 0;
  uint32_t RdInst = 0;
  int8_t RdQueue = -1;  ///< the late reader's read queue (readQueue), or -1
  uint32_t RdOrder = 0; ///< its place in that queue (Warp::QueueIssued)
  /// The guards of the pending late read and of the pending variable
  /// write (guardOf in Hazards.cpp): a write under the complementary guard
  /// acts in the other lanes.
  uint16_t RdGuard = NoGuard, WrGuard = NoGuard;
  uint32_t RdGuardVer = 0, WrGuardVer = 0;
  bool Unprotected = false; ///< variable-latency write without scoreboard
};

/// A set of lanes of a divergent warp with its own PC, parked while another
/// path runs (see runWarp).  WaitBar >= 0: waiting at a BSYNC of that
/// convergence barrier.
struct Path {
  uint32_t Mask;
  uint32_t PC;
  int8_t WaitBar;
};

struct Warp {
  uint32_t R[257][32];
  uint32_t P[9];   ///< per-lane bit masks; P[7] = PT, P[8] scratch
  uint32_t UR[65]; ///< UR[63] = URZ, UR[64] scratch
  bool UP[9];
  uint32_t Active = 0; ///< the lanes of the running path
  uint32_t PC = 0;     ///< the running path's instruction index
  uint32_t Live = 0;   ///< the lanes that have not exited
  /// Paths other than the running one, and the convergence barriers
  /// (BSSY Bx records the running path's lanes in Bar[x]).
  std::vector<Path> Parked;
  uint32_t Bar[16] = {};
  unsigned Id = 0;
  bool Exited = false;
  bool AtBarrier = false;
  /// The barrier the warp waits at (BAR.SYNC/.RED), its thread count (0:
  /// every thread of the block), and BAR.RED's operation and the lanes
  /// whose predicate holds; B2R.RESULT reads RedCount/RedPred, the last
  /// BAR.RED's result (set when the barrier released).
  uint8_t BarId = 0;
  uint32_t BarCount = 0;
  bool BarRed = false;
  uint8_t BarRedOp = 0;
  uint32_t BarRedBits = 0;
  uint32_t RedCount = 0;
  bool RedPred = false;
  uint64_t Issued = 0;
  /// Local memory: 32 lanes of KernelImage::LocalBytes, lane after lane.
  std::vector<uint8_t> Local;
  // Async copies.
  std::vector<AsyncCopy> Open;
  std::deque<CopyGroup> Groups;
  // Hazard mode.
  uint64_t Now = 0;
  uint32_t SBIssued[8] = {};
  uint32_t SBReleased[8] = {};
  /// The cycle of each scoreboard's latest increment, and the increment
  /// (its sequence number + 1) a wait came too soon to see, with the
  /// wait's distance in cycles (waitScoreboard).
  uint64_t SBSetCycle[8] = {};
  uint32_t SBMissedSeq[8] = {};
  uint32_t SBMissedGap[8] = {};
  RegHz Hz[HzNum];
  /// Registers written by variable-latency instructions without a write
  /// scoreboard, per completion queue (shared, global, S2R, other, local), waiting for a later instruction of
  /// the same queue that has one (see recordIssue).
  std::vector<uint16_t> Unscoreboarded[5];
  /// Late reads of one unit's queue are done in issue order (readQueue in
  /// Hazards.cpp): per queue, the instructions issued and how many of the
  /// oldest have read their sources, known from a released scoreboard of
  /// one of them or of a younger one.
  uint32_t QueueIssued[NumReadQueues] = {};
  uint32_t QueueReadsDone[NumReadQueues] = {};
  /// Per scoreboard, the queue instructions counted on it, oldest first:
  /// when the scoreboard releases them, their queue's reads are done up to
  /// them (foldReadMarks).
  struct ReadMark {
    uint32_t Seq; ///< the scoreboard increment
    uint8_t Queue;
    uint32_t Done; ///< QueueReadsDone once it is released
  };
  std::deque<ReadMark> ReadMarks[6];
  /// The predicates' write counts, for complementary guards.
  PredicateWrites PredWrites;
};

struct Block {
  std::array<uint32_t, 3> Ctaid;
  std::vector<uint8_t> Shared;
  std::vector<uint8_t> CBank0;
  std::vector<Warp *> Warps;
  // Hazard mode: per shared byte 0 = settled, W+1 = an async copy of warp
  // W is in flight, 0x8000|(W+1) = landed for warp W, not yet published,
  // 0xffff = never written in this block.
  std::vector<uint16_t> SmemState;
  std::vector<std::pair<uint32_t, uint32_t>> Landed;
  /// Threads that arrived at each barrier with BAR.ARV since it last
  /// released.
  uint32_t Arrived[16] = {};
};

struct Exec {
  const Program *Prog;
  const LaunchConfig *Cfg;
  GlobalMemory *Mem;
  Block *B;
  Warp *W;
  size_t Idx; ///< index of the executing instruction
  std::string Fault;
  bool Check;
  // Stats and hazards of this host thread.
  uint64_t ThreadInstrs = 0;
  std::vector<std::string> *Hazards;
  uint64_t *HazardCount;
  // Control flow requested by a handler.
  bool Branch = false;
  uint32_t NextPC = 0;
  bool Barrier = false;
  int SyncBar = -1; ///< BSYNC: the convergence barrier to wait on
  /// The observed block's per-lane access addresses (IssueObserver), filled
  /// by the memory handlers when non-null.
  uint64_t *LaneAddr = nullptr;
  uint64_t LinearBlock = 0;
  bool Observing = false;

  void fault(const Twine &Msg) {
    if (Fault.empty())
      Fault = Msg.str();
  }
  void hazard(const Twine &Msg);
};



/// Hazard-mode state of a shared byte no store or copy has written.
constexpr uint16_t SmemNeverWritten = 0xffff;

/// DInst::SReg: the special register (see srValue).  SR_CGACTAID is sm_90's rank
/// of the CTA in its cluster (CGA): 0, since every launch is a cluster of
/// one CTA here (see checkSharedAccess for the cluster shared window).
/// SR_CLOCKLO (CS2R, tp-ubench's clock reads) is the warp's count of issued
/// instructions: deterministic and increasing, not a cycle count.
enum SRId : uint32_t { SR_LANEID, SR_TIDX, SR_TIDY, SR_TIDZ, SR_CTAIDX,
                       SR_CTAIDY, SR_CTAIDZ, SR_ZERO, SR_WARPID, SR_LTMASK,
                       SR_EQMASK, SR_CGACTAID, SR_CLOCKLO, SR_UNKNOWN };

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

#define FOR_LANES(L, M)                                                        \
  for (uint32_t TpM_ = (M); TpM_; TpM_ &= TpM_ - 1)                            \
    for (unsigned L = __builtin_ctz(TpM_), TpOnce_ = 1; TpOnce_; TpOnce_ = 0)


inline unsigned wr(int64_t R) { return R == sass::RZ ? 256u : unsigned(R); }
inline unsigned wp(int64_t P) { return P == sass::PT ? 8u : unsigned(P); }
/// Sets predicate \p P (an index from wp()) to \p Bits in the lanes of
/// \p M, keeping the other lanes.
inline void writePred(Warp &W, unsigned P, uint32_t Bits, uint32_t M) {
  W.P[P] = (W.P[P] & ~M) | (Bits & M);
}
inline unsigned wu(int64_t U) { return U == sass::URZ ? 64u : unsigned(U); }

inline uint32_t cbank(Exec &X, uint32_t Bank, uint32_t Off) {
  if (Bank != 0 || uint64_t(Off) + 4 > X.B->CBank0.size()) {
    X.fault("constant bank read c[" + Twine(Bank) + "][" +
            Twine(utohexstr(Off, /*LowerCase=*/true)) + "] is outside constant bank 0 (" +
            Twine(X.B->CBank0.size()) + " bytes)");
    return 0;
  }
  uint32_t V;
  memcpy(&V, &X.B->CBank0[Off], 4);
  return V;
}

/// Raw bits of a source for lane \p L (no modifiers).
inline uint32_t rawSrc(Exec &X, const Src &S, unsigned L) {
  switch (S.K) {
  case Src::KReg:
    return X.W->R[S.Reg][L];
  case Src::KImm:
    return S.Val;
  case Src::KCB:
    return cbank(X, S.Reg, S.Val);
  case Src::KUR:
    return X.W->UR[S.Reg];
  default:
    return 0;
  }
}
/// The 64-bit pair starting at a source (register pair, UR pair, cbank).
inline uint64_t rawSrc64(Exec &X, const Src &S, unsigned L) {
  switch (S.K) {
  case Src::KReg:
    if (S.Reg == 255)
      return 0;
    return X.W->R[S.Reg][L] | uint64_t(X.W->R[S.Reg + 1][L]) << 32;
  case Src::KImm:
    return uint64_t(int64_t(int32_t(S.Val)));
  case Src::KCB:
    return cbank(X, S.Reg, S.Val) | uint64_t(cbank(X, S.Reg, S.Val + 4)) << 32;
  case Src::KUR:
    if (S.Reg == 63)
      return 0;
    return X.W->UR[S.Reg] | uint64_t(X.W->UR[S.Reg + 1]) << 32;
  default:
    return 0;
  }
}

inline bool predVal(const Warp &W, int64_t P, int64_t Neg, unsigned L) {
  return bool((W.P[P] >> L) & 1) != bool(Neg);
}

inline float asF(uint32_t B) {
  float F;
  memcpy(&F, &B, 4);
  return F;
}
inline uint32_t asU(float F) {
  uint32_t B;
  memcpy(&B, &F, 4);
  return B;
}
/// The GPU's canonical NaN.
inline uint32_t canonF(float F) {
  return std::isnan(F) ? 0x7fffffffu : asU(F);
}
inline float ftz(float F) {
  return std::fpclassify(F) == FP_SUBNORMAL ? std::copysign(0.0f, F) : F;
}

/// A float source with |x| and -x applied.
inline float fSrc(Exec &X, const Src &S, unsigned L) {
  float F = asF(rawSrc(X, S, L));
  if (S.Abs)
    F = std::fabs(F);
  if (S.Neg)
    F = -F;
  return F;
}

/// binary16 -> binary32 through a table built once (exact).
const float *getHalfTable();
inline float h2f(uint16_t H) {
  static const float *T = getHalfTable();
  return T[H];
}


inline uint32_t lop3(uint32_t A, uint32_t B, uint32_t C, unsigned Lut) {
  uint32_t R = 0;
  for (unsigned I = 0; I < 8; ++I)
    if ((Lut >> I) & 1)
      R |= ((I & 4) ? A : ~A) & ((I & 2) ? B : ~B) & ((I & 1) ? C : ~C);
  return R;
}


/// FLO.U32 (the bit position of the leading one, 0xffffffff for none;
/// .SH: 31 minus it), POPC, BREV, of B (FLO: `~B` when negated); the
/// uniform UFLO/UPOPC/UBREV use the same function.
inline uint32_t bitCount(BitOp Op, uint32_t V, bool Sh) {
  switch (Op) {
  case BitOp::Flo:
    if (!V)
      return 0xffffffffu;
    return Sh ? uint32_t(__builtin_clz(V)) : uint32_t(31 - __builtin_clz(V));
  case BitOp::Popc:
    return uint32_t(__builtin_popcount(V));
  default: {
    uint32_t R = 0;
    for (unsigned I = 0; I < 32; ++I)
      R |= ((V >> I) & 1) << (31 - I);
    return R;
  }
  }
}


inline bool combine(unsigned Bop, bool A, bool B) {
  switch (Bop) {
  case 0:
    return A && B;
  case 1:
    return A || B;
  default:
    return A != B;
  }
}


/// Integer compare code (F LT EQ LE GT NE GE T) of A and B.
inline bool icmp(unsigned Cmp, bool Signed, uint32_t A, uint32_t B) {
  bool Lt = Signed ? int32_t(A) < int32_t(B) : A < B;
  bool Eq = A == B;
  switch (Cmp) {
  case 0:
    return false;
  case 1:
    return Lt;
  case 2:
    return Eq;
  case 3:
    return Lt || Eq;
  case 4:
    return !Lt && !Eq;
  case 5:
    return !Eq;
  case 6:
    return !Lt;
  default:
    return true;
  }
}


/// Warp-wide (.sync.aligned) instructions run for all 32 lanes or none: a
/// guard false for the whole warp skips it, a partial warp is a fault.
/// True when the instruction is to run.
inline bool runsWarpWide(Exec &X, StringRef Name, uint32_t M) {
  if (!M)
    return false;
  if (M != 0xffffffffu) {
    X.fault(Name + " executed by a partial warp (lane mask 0x" +
            Twine(utohexstr(M, /*LowerCase=*/true)) + ")");
    return false;
  }
  return true;
}

/// Completes the oldest async-copy groups on scoreboard \p SB until at most
/// \p Keep remain (MemoryOps.cpp).
void landGroups(Exec &X, unsigned SB, unsigned Keep);
/// Hazard mode: scoreboard \p SB released down to \p Keep outstanding.
void releaseSB(Warp &W, unsigned SB, unsigned Keep);
/// Hazard mode: after scoreboard \p SB released increments, the queue
/// reads they prove done (Warp::ReadMarks).
void foldReadMarks(Warp &W, unsigned SB);
/// Hazard mode (Hazards.cpp): the checks before an instruction issues, and
/// the record of what it wrote and reads late.
/// The wait mask's effect on scoreboard \p SB in hazard mode: every
/// increment the wait can see is released (sched::ScoreboardSetCycles).
void waitScoreboard(Exec &X, unsigned SB);
void checkIssue(Exec &X, const DInst &D);
void recordIssue(Exec &X, const DInst &D);

/// The handlers: one instruction for one warp over the lane mask M.
void execBAR(Exec &X, const DInst &D, uint32_t M);
void execB2R(Exec &X, const DInst &D, uint32_t M);
void execCALL(Exec &X, const DInst &D, uint32_t M);
void execRET(Exec &X, const DInst &D, uint32_t M);
void execBREAK(Exec &X, const DInst &D, uint32_t M);
void execBRADIV(Exec &X, const DInst &D, uint32_t M);
void execP2R(Exec &X, const DInst &D, uint32_t M);
void execR2P(Exec &X, const DInst &D, uint32_t M);
void execVABSDIFF(Exec &X, const DInst &D, uint32_t M);
void execMATCH(Exec &X, const DInst &D, uint32_t M);
void execMUFU(Exec &X, const DInst &D, uint32_t M);
void execMOV64(Exec &X, const DInst &D, uint32_t M);
void execATOMS(Exec &X, const DInst &D, uint32_t M);
void execGAtom(Exec &X, const DInst &D, uint32_t M);
void execREDUX(Exec &X, const DInst &D, uint32_t M);
void execBRA(Exec &X, const DInst &D, uint32_t M);
void execBSSY(Exec &X, const DInst &D, uint32_t M);
void execBSYNC(Exec &X, const DInst &D, uint32_t M);
void execBitCount(Exec &X, const DInst &D, uint32_t M);
void execCS2R(Exec &X, const DInst &D, uint32_t M);
void execDEPBAR(Exec &X, const DInst &D, uint32_t M);
void execEXIT(Exec &X, const DInst &D, uint32_t M);
void execF2F(Exec &X, const DInst &D, uint32_t M);
void execF2FP(Exec &X, const DInst &D, uint32_t M);
void execF2I(Exec &X, const DInst &D, uint32_t M);
void execFArith(Exec &X, const DInst &D, uint32_t M);
void execFMNMX(Exec &X, const DInst &D, uint32_t M);
void execFSEL(Exec &X, const DInst &D, uint32_t M);
void execFSETP(Exec &X, const DInst &D, uint32_t M);
void execGlobal(Exec &X, const DInst &D, uint32_t M);
void execH2(Exec &X, const DInst &D, uint32_t M);
void execHMMA(Exec &X, const DInst &D, uint32_t M);
void execI2F(Exec &X, const DInst &D, uint32_t M);
void execIABS(Exec &X, const DInst &D, uint32_t M);
void execIADD3(Exec &X, const DInst &D, uint32_t M);
void execIMAD(Exec &X, const DInst &D, uint32_t M);
void execIMNMX(Exec &X, const DInst &D, uint32_t M);
void execISETP(Exec &X, const DInst &D, uint32_t M);
void execLDC(Exec &X, const DInst &D, uint32_t M);
void execLDGDEPBAR(Exec &X, const DInst &D, uint32_t M);
void execLDGSTS(Exec &X, const DInst &D, uint32_t M);
void execLDSM(Exec &X, const DInst &D, uint32_t M);
void execLEA(Exec &X, const DInst &D, uint32_t M);
void execLOP3(Exec &X, const DInst &D, uint32_t M);
void execLocal(Exec &X, const DInst &D, uint32_t M);
void execMOV(Exec &X, const DInst &D, uint32_t M);
void execNOP(Exec &X, const DInst &D, uint32_t M);
void execPLOP3(Exec &X, const DInst &D, uint32_t M);
void execPRMT(Exec &X, const DInst &D, uint32_t M);
void execS2R(Exec &X, const DInst &D, uint32_t M);
void execS2UR(Exec &X, const DInst &D, uint32_t M);
void execSEL(Exec &X, const DInst &D, uint32_t M);
void execSHF(Exec &X, const DInst &D, uint32_t M);
void execSHFL(Exec &X, const DInst &D, uint32_t M);
void execShared(Exec &X, const DInst &D, uint32_t M);
void execUALU(Exec &X, const DInst &D, uint32_t M);
void execULDC(Exec &X, const DInst &D, uint32_t M);
void execVIADD(Exec &X, const DInst &D, uint32_t M);
void execIADD64(Exec &X, const DInst &D, uint32_t M);
void execVOTE(Exec &X, const DInst &D, uint32_t M);
void execWARPSYNC(Exec &X, const DInst &D, uint32_t M);

} // namespace sim
} // namespace tp

#endif // TP_LIB_SIM_EXECSTATE_H
