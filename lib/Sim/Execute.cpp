//===- Execute.cpp - Warps, blocks, memory and instruction semantics ------===//
///
/// \file
/// The execution engine of tp-sim (see Simulator.h for the model):
///
///  1. launch() splits the grid into blocks and runs them on N host
///     threads; each block gets its shared memory, constant bank 0 and its
///     warps;
///  2. runBlock() runs the warps round-robin, each until BAR.SYNC or EXIT,
///     and releases a barrier when every live warp arrived;
///  3. runWarp() issues instructions: the wait mask (which completes async
///     copy groups on that scoreboard), the hazard checks, the guard, then
///     the handler chosen at decode time.
///
/// Handlers are plain functions over a lane mask; register files are
/// stored register-major (R[reg][lane]), with a scratch row for writes to
/// RZ/PT/URZ/UPT so that no handler tests for them.
///
//===----------------------------------------------------------------------===//
#include "SimInternal.h"
#include "tp/Support/ReferenceGemm.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <atomic>
#include <cfenv>
#include <cmath>
#include <cstring>
#include <deque>
#include <mutex>
#include <thread>

using namespace llvm;
using namespace tp;
using namespace tp::sim;

//===----------------------------------------------------------------------===//
// Global memory
//===----------------------------------------------------------------------===//

uint64_t GlobalMemory::allocate(uint64_t Bytes) {
  uint64_t Base = Next;
  Buffers.push_back({Base, std::vector<uint8_t>(Bytes)});
  // 256-byte alignment and a 64 KiB unmapped gap after every buffer.
  Next = (Base + Bytes + 0x10000 + 255) & ~uint64_t(255);
  return Base;
}

MutableArrayRef<uint8_t> GlobalMemory::getBuffer(uint64_t Addr) {
  for (Buffer &B : Buffers)
    if (B.Base == Addr)
      return B.Bytes;
  return {};
}

uint8_t *GlobalMemory::translate(uint64_t Addr, uint64_t Size) {
  // Buffers are sorted by address (allocate only appends higher ones).
  auto It = std::upper_bound(
      Buffers.begin(), Buffers.end(), Addr,
      [](uint64_t A, const Buffer &B) { return A < B.Base; });
  if (It == Buffers.begin())
    return nullptr;
  --It;
  uint64_t Off = Addr - It->Base;
  if (Off + Size > It->Bytes.size() || Off + Size < Off)
    return nullptr;
  return It->Bytes.data() + Off;
}

//===----------------------------------------------------------------------===//
// State
//===----------------------------------------------------------------------===//

namespace tp {
namespace sim {

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
  bool Unprotected = false; ///< variable-latency write without scoreboard
};

struct Warp {
  uint32_t R[257][32];
  uint32_t P[9];   ///< per-lane bit masks; P[7] = PT, P[8] scratch
  uint32_t UR[65]; ///< UR[63] = URZ, UR[64] scratch
  bool UP[9];
  uint32_t Active = 0;
  uint32_t PC = 0;
  unsigned Id = 0;
  bool Exited = false;
  bool AtBarrier = false;
  uint64_t Issued = 0;
  // Async copies.
  std::vector<AsyncCopy> Open;
  std::deque<CopyGroup> Groups;
  // Hazard mode.
  uint64_t Now = 0;
  uint32_t SBIssued[8] = {};
  uint32_t SBReleased[8] = {};
  RegHz Hz[HzNum];
  /// Registers written by variable-latency instructions without a write
  /// scoreboard, per completion queue, waiting for a later instruction of
  /// the same queue that has one (see recordIssue).
  std::vector<uint16_t> Unscoreboarded[4];
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

  void fault(const Twine &Msg) {
    if (Fault.empty())
      Fault = Msg.str();
  }
  void hazard(const Twine &Msg);
};

} // namespace sim
} // namespace tp

void Exec::hazard(const Twine &Msg) {
  ++*HazardCount;
  if (Hazards->size() >= Cfg->MaxHazardReports)
    return;
  std::string S;
  raw_string_ostream OS(S);
  OS << "hazard: block (" << B->Ctaid[0] << "," << B->Ctaid[1] << ","
     << B->Ctaid[2] << ") warp " << W->Id << " cycle " << W->Now << ": "
     << Prog->describe(Idx) << ": " << Msg;
  Hazards->push_back(OS.str());
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

#define FOR_LANES(L, M)                                                        \
  for (uint32_t TpM_ = (M); TpM_; TpM_ &= TpM_ - 1)                            \
    for (unsigned L = __builtin_ctz(TpM_), TpOnce_ = 1; TpOnce_; TpOnce_ = 0)

static inline float h2f(uint16_t H);

static inline unsigned wr(int64_t R) { return R == 255 ? 256u : unsigned(R); }
static inline unsigned wp(int64_t P) { return P == 7 ? 8u : unsigned(P); }
/// Sets predicate \p P (an index from wp()) to \p Bits in the lanes of
/// \p M, keeping the other lanes.
static inline void writePred(Warp &W, unsigned P, uint32_t Bits, uint32_t M) {
  W.P[P] = (W.P[P] & ~M) | (Bits & M);
}
static inline unsigned wu(int64_t U) { return U == 63 ? 64u : unsigned(U); }

static inline uint32_t cbank(Exec &X, uint32_t Bank, uint32_t Off) {
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
static inline uint32_t rawSrc(Exec &X, const Src &S, unsigned L) {
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
static inline uint64_t rawSrc64(Exec &X, const Src &S, unsigned L) {
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

static inline bool predVal(const Warp &W, int64_t P, int64_t Neg, unsigned L) {
  return bool((W.P[P] >> L) & 1) != bool(Neg);
}

static inline float asF(uint32_t B) {
  float F;
  memcpy(&F, &B, 4);
  return F;
}
static inline uint32_t asU(float F) {
  uint32_t B;
  memcpy(&B, &F, 4);
  return B;
}
/// The GPU's canonical NaN.
static inline uint32_t canonF(float F) {
  return std::isnan(F) ? 0x7fffffffu : asU(F);
}
static inline float ftz(float F) {
  return std::fpclassify(F) == FP_SUBNORMAL ? std::copysign(0.0f, F) : F;
}

/// A float source with |x| and -x applied.
static inline float fSrc(Exec &X, const Src &S, unsigned L) {
  float F = asF(rawSrc(X, S, L));
  if (S.Abs)
    F = std::fabs(F);
  if (S.Neg)
    F = -F;
  return F;
}

//===----------------------------------------------------------------------===//
// Integer ALU
//===----------------------------------------------------------------------===//

/// Aux of IMAD: 0 plain, 1 .WIDE, 2 .HI, 3 IMAD.SHL (Aux2 = shift),
/// 4 IMAD.MOV.U32 Rd, Ra, 1, RZ, 5 IMAD.IADD Rd, Ra, 1, C.
static void execIMAD(Exec &X, const DInst &D, uint32_t M) {
  Warp &W = *X.W;
  bool Signed = D.F[F_u] != 0;
  bool IsX = D.Aux2 & 0x100;
  unsigned Rd = wr(D.F[F_Rd]);
  unsigned Pu = wp(D.F[F_Pu]);
  uint32_t Carry = 0;
  FOR_LANES(L, M) {
    uint32_t A = rawSrc(X, D.A, L);
    uint32_t Cin = IsX ? predVal(W, D.F[F_Pc], D.F[F_Pcn], L) : 0;
    switch (D.Aux) {
    case 1: { // .WIDE: Rd:Rd+1 = A * B + C (64-bit pair)
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
    case 2: { // .HI: Rd = (A * B) >> 32 + C
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
    case 3:
      W.R[Rd][L] = A << D.Aux2;
      break;
    case 4:
      W.R[Rd][L] = A;
      break;
    default: { // plain and IMAD.IADD
      uint32_t B = D.Aux == 5 ? 1 : rawSrc(X, D.B, L);
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
static void execVIADD(Exec &X, const DInst &D, uint32_t M) {
  unsigned Rd = wr(D.F[F_Rd]);
  FOR_LANES(L, M) X.W->R[Rd][L] = rawSrc(X, D.A, L) + rawSrc(X, D.B, L);
}

static void execIADD3(Exec &X, const DInst &D, uint32_t M) {
  Warp &W = *X.W;
  bool IsX = D.Aux;
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

static inline uint32_t lop3(uint32_t A, uint32_t B, uint32_t C, unsigned Lut) {
  uint32_t R = 0;
  for (unsigned I = 0; I < 8; ++I)
    if ((Lut >> I) & 1)
      R |= ((I & 4) ? A : ~A) & ((I & 2) ? B : ~B) & ((I & 1) ? C : ~C);
  return R;
}

static void execLOP3(Exec &X, const DInst &D, uint32_t M) {
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

static void execMOV(Exec &X, const DInst &D, uint32_t M) {
  Warp &W = *X.W;
  unsigned Rd = wr(D.F[F_Rd]);
  FOR_LANES(L, M) W.R[Rd][L] = rawSrc(X, D.B, L);
}

static void execIABS(Exec &X, const DInst &D, uint32_t M) {
  Warp &W = *X.W;
  unsigned Rd = wr(D.F[F_Rd]);
  FOR_LANES(L, M) {
    int32_t V = int32_t(rawSrc(X, D.B, L));
    W.R[Rd][L] = V < 0 ? uint32_t(0) - uint32_t(V) : uint32_t(V);
  }
}

static void execSEL(Exec &X, const DInst &D, uint32_t M) {
  Warp &W = *X.W;
  unsigned Rd = wr(D.F[F_Rd]);
  FOR_LANES(L, M) {
    W.R[Rd][L] = predVal(W, D.F[F_Pp], D.F[F_Ppn], L) ? rawSrc(X, D.A, L)
                                                      : rawSrc(X, D.B, L);
  }
}

static void execIMNMX(Exec &X, const DInst &D, uint32_t M) {
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

static void execSHF(Exec &X, const DInst &D, uint32_t M) {
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

/// Aux bit 0 .HI, bit 1 .X, bit 2 .SX32.
static void execLEA(Exec &X, const DInst &D, uint32_t M) {
  Warp &W = *X.W;
  unsigned Rd = wr(D.F[F_Rd]), Pu = wp(D.F[F_Pu]);
  bool Hi = D.Aux & 1, IsX = D.Aux & 2, Sx = D.Aux & 4;
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

static inline bool combine(unsigned Bop, bool A, bool B) {
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
static inline bool icmp(unsigned Cmp, bool Signed, uint32_t A, uint32_t B) {
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

static void execISETP(Exec &X, const DInst &D, uint32_t M) {
  Warp &W = *X.W;
  unsigned Pu = wp(D.F[F_Pu]), Pv = wp(D.F[F_Pv]);
  unsigned Cmp = unsigned(D.F[F_cmp]), Bop = unsigned(D.F[F_bop]);
  bool Signed = D.F[F_u] != 0, Ex = D.Aux;
  uint32_t RU = 0, RV = 0;
  FOR_LANES(L, M) {
    uint32_t A = rawSrc(X, D.A, L), B = rawSrc(X, D.B, L);
    bool R;
    if (!Ex) {
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

static void execPRMT(Exec &X, const DInst &D, uint32_t M) {
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
static void execPLOP3(Exec &X, const DInst &D, uint32_t M) {
  Warp &W = *X.W;
  unsigned Pu = wp(D.F[F_Pu]), Pv = wp(D.F[F_Pv]);
  uint32_t RU = 0, RV = 0;
  FOR_LANES(L, M) {
    unsigned Idx = predVal(W, D.F[F_Pa], D.F[F_Pan], L) << 2 |
                   predVal(W, D.F[F_Pb], D.F[F_Pbn], L) << 1 |
                   (D.Aux ? W.UP[D.F[F_Pc]] != bool(D.F[F_Pcn])
                          : predVal(W, D.F[F_Pc], D.F[F_Pcn], L));
    if ((D.F[F_lut] >> Idx) & 1)
      RU |= 1u << L;
    if ((D.F[F_lut2] >> Idx) & 1)
      RV |= 1u << L;
  }
  writePred(W, Pu, RU, M);
  writePred(W, Pv, RV, M);
}

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

/// Aux: 0 FADD, 1 FMUL, 2 FFMA.
static void execFArith(Exec &X, const DInst &D, uint32_t M) {
  Warp &W = *X.W;
  unsigned Rd = wr(D.F[F_Rd]);
  bool Ftz = D.F[F_ftz] != 0, Sat = D.F[F_sat] != 0;
  RoundScope RS(D.F[F_rnd]);
  FOR_LANES(L, M) {
    float A = fSrc(X, D.A, L), B = fSrc(X, D.B, L);
    if (Ftz)
      A = ftz(A), B = ftz(B);
    float R;
    if (D.Aux == 0)
      R = A + B;
    else if (D.Aux == 1)
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
static void execFSEL(Exec &X, const DInst &D, uint32_t M) {
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
static void execFMNMX(Exec &X, const DInst &D, uint32_t M) {
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
static void execF2I(Exec &X, const DInst &D, uint32_t M) {
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

static void execFSETP(Exec &X, const DInst &D, uint32_t M) {
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
  // Exact for every double: scale into the binary16 grid and round there.
  uint64_t Bits;
  memcpy(&Bits, &V, 8);
  uint16_t Sign = uint16_t((Bits >> 48) & 0x8000);
  double A = std::fabs(V);
  if (std::isnan(V))
    return Sign | 0x7e00;
  if (A >= 65520.0) // rounds to infinity (max half 65504, half-ulp 16)
    return Sign | 0x7c00;
  int E;
  std::frexp(A, &E); // A = m * 2^E, m in [0.5, 1)
  int Exp = E - 1;   // A in [2^Exp, 2^(Exp+1))
  if (Exp < -14)
    Exp = -14; // subnormal grid
  double Ulp = std::ldexp(1.0, Exp - 10);
  double Q = std::nearbyint(A / Ulp); // exact division by a power of two; RNE
  double R = Q * Ulp;
  // Re-encode R (exactly representable in binary16).
  if (R == 0)
    return Sign;
  int RE;
  std::frexp(R, &RE);
  int HExp = RE - 1;
  if (HExp < -14) // subnormal
    return Sign | uint16_t(std::ldexp(R, 24));
  if (HExp > 15)
    return Sign | 0x7c00;
  uint16_t Mant = uint16_t(std::ldexp(R, 10 - HExp) - 1024);
  return Sign | uint16_t((HExp + 15) << 10) | Mant;
}

/// binary16 -> binary32 through a table built once (exact, like
/// halfToFloat).
static const float *getHalfTable() {
  static const std::vector<float> T = [] {
    std::vector<float> V(65536);
    for (uint32_t I = 0; I < 65536; ++I)
      V[I] = halfToFloat(uint16_t(I));
    return V;
  }();
  return T.data();
}
static inline float h2f(uint16_t H) {
  static const float *T = getHalfTable();
  return T[H];
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
/// and rounded once to binary16 (the f16 FMA is fused).  Aux: 0 HADD2,
/// 1 HMUL2, 2 HFMA2; Aux2 bit 0 .RELU.  HADD2.F32 writes the low lane's
/// sum as one binary32 (ptxas converts f16 -> f32 with
/// `HADD2.F32 Rd, -RZ, Rx.H0_H0`).
static void execH2(Exec &X, const DInst &D, uint32_t M) {
  Warp &W = *X.W;
  unsigned Rd = wr(D.F[F_Rd]);
  bool F32 = D.F[F_f32] != 0, Ftz = D.F[F_ftz] != 0;
  FOR_LANES(L, M) {
    double A[2], B[2], C[2] = {0, 0};
    h2Src(X, D.A, L, A);
    h2Src(X, D.B, L, B);
    if (D.Aux == 2)
      h2Src(X, D.C, L, C);
    if (F32) {
      double R = D.Aux == 0 ? A[0] + B[0] : D.Aux == 1 ? A[0] * B[0]
                                                     : A[0] * B[0] + C[0];
      float F = float(R);
      W.R[Rd][L] = canonF(Ftz ? ftz(F) : F);
      continue;
    }
    uint32_t R = 0;
    for (unsigned H = 0; H < 2; ++H) {
      double r = D.Aux == 0 ? A[H] + B[H] : D.Aux == 1 ? A[H] * B[H]
                                                     : A[H] * B[H] + C[H];
      if ((D.Aux2 & 1) && !(r > 0))
        r = std::isnan(r) ? r : 0.0;
      uint16_t Hb = doubleToHalf(r);
      if (Ftz && (Hb & 0x7c00) == 0)
        Hb &= 0x8000;
      R |= uint32_t(Hb) << (16 * H);
    }
    W.R[Rd][L] = R;
  }
}

/// F2FP.PACK_AB: Rd = {hi: f16(A), lo: f16(B)} (PTX cvt.rn.f16x2.f32).
static void execF2FP(Exec &X, const DInst &D, uint32_t M) {
  Warp &W = *X.W;
  unsigned Rd = wr(D.F[F_Rd]);
  FOR_LANES(L, M) {
    uint16_t Hi = floatToHalf(asF(rawSrc(X, D.A, L)));
    uint16_t Lo = floatToHalf(asF(rawSrc(X, D.B, L)));
    W.R[Rd][L] = uint32_t(Hi) << 16 | Lo;
  }
}

/// F2F: dst 1 F16 / 2 F32, src 1 F16 / 2 F32 (F64 and BF16 forms have no
/// semantics); `sel` picks the high half of an f16 source.
static void execF2F(Exec &X, const DInst &D, uint32_t M) {
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
/// 7 S64; dst 1 F16, 2 F32.  Aux: 1 = I2FP.F32 (signedness in `sgn`).
static void execI2F(Exec &X, const DInst &D, uint32_t M) {
  Warp &W = *X.W;
  unsigned Rd = wr(D.F[F_Rd]);
  unsigned SrcT = D.Aux == 1 ? (D.F[F_sgn] ? 5 : 4) : unsigned(D.F[F_src]);
  unsigned Dst = D.Aux == 1 ? 2 : unsigned(D.F[F_dst]);
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

//===----------------------------------------------------------------------===//
// Special and uniform registers
//===----------------------------------------------------------------------===//

/// Aux: special register id (see srValue).  SR_CGACTAID is sm_90's rank
/// of the CTA in its cluster (CGA): 0, since every launch is a cluster of
/// one CTA here (see checkSharedAccess for the cluster shared window).
enum SRId : uint32_t { SR_LANEID, SR_TIDX, SR_TIDY, SR_TIDZ, SR_CTAIDX,
                       SR_CTAIDY, SR_CTAIDZ, SR_ZERO, SR_WARPID, SR_LTMASK,
                       SR_EQMASK, SR_CGACTAID, SR_UNKNOWN };

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
  default:
    return 0;
  }
}

static void execS2R(Exec &X, const DInst &D, uint32_t M) {
  unsigned Rd = wr(D.F[F_Rd]);
  FOR_LANES(L, M) X.W->R[Rd][L] = srValue(X, D.Aux, L);
}
static void execCS2R(Exec &X, const DInst &D, uint32_t M) {
  unsigned Rd = wr(D.F[F_Rd]);
  FOR_LANES(L, M) {
    X.W->R[Rd][L] = srValue(X, D.Aux, L);
    if (D.Aux2 == 2)
      X.W->R[Rd == 256 ? 256 : Rd + 1][L] = 0;
  }
}
static void execS2UR(Exec &X, const DInst &D, uint32_t M) {
  if (M)
    X.W->UR[wu(D.F[F_Ud])] = srValue(X, D.Aux, __builtin_ctz(M));
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

/// ULDC: Aux = size code (.U8 0, .S8 1, .U16 2, .S16 3, 32 4, .64 5),
/// Aux2 = 1 when a UR adds to the offset.  Rd is a UR.
static void execULDC(Exec &X, const DInst &D, uint32_t M) {
  if (!M)
    return;
  Warp &W = *X.W;
  unsigned U = wu(D.F[F_Rd] >= 63 ? 63 : D.F[F_Rd]);
  uint32_t Off = uint32_t(D.F[F_Off]);
  if (D.Aux2 && D.F[F_Ur] < 63)
    Off += W.UR[D.F[F_Ur]];
  unsigned Sz = D.Aux == 5 ? 5 : unsigned(D.F[F_sz]);
  uint32_t V[2] = {0, 0};
  constLoad(X, uint32_t(D.F[F_Bank]), Off, Sz, V);
  W.UR[U] = V[0];
  if (Sz == 5)
    W.UR[U == 64 ? 64 : U + 1] = V[1];
}

/// LDC: per lane, the constant at c[Bank][Ra + Off] (Ra = RZ: Off alone)
/// into Rd (a pair for .64); sizes as ULDC (Aux = 5 for LDC.64).
static void execLDC(Exec &X, const DInst &D, uint32_t M) {
  Warp &W = *X.W;
  unsigned Rd = wr(D.F[F_Rd]);
  unsigned Sz = D.Aux == 5 ? 5 : unsigned(D.F[F_sz]);
  FOR_LANES(L, M) {
    uint32_t Off = uint32_t(D.F[F_Off]);
    if (D.F[F_Ra] != 255)
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
    return S.Reg >= 63 ? 0 : X.W->UR[S.Reg];
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
  if (S.Reg >= 63)
    return 0;
  return X.W->UR[S.Reg] | uint64_t(X.W->UR[S.Reg + 1]) << 32;
}
static inline bool uPred(const Warp &W, int64_t P, int64_t Neg) {
  return (P >= 7 ? true : W.UP[P]) != bool(Neg);
}
static inline void setUP(Warp &W, int64_t P, bool V) {
  W.UP[P >= 7 ? 8 : P] = V;
}

/// Uniform ALU, executed once per warp on URs and UPs (the td names the
/// operands Rd/Ra/Rb/Rc and Pu/Pv/Pp as for the vector ops).  Aux: 0 UMOV,
/// 1 UIADD3 (Aux2 bit 0 .X, bit 1 .64), 2 ULOP3, 3 USHF, 4 UIMAD (Aux2 bit
/// 0 .X, bit 2 .WIDE), 5 ULEA (Aux2 bit 0 .HI, 1 .X, 2 .SX32), 6 UISETP
/// (Aux2 bit 0 .EX), 7 USEL, 8 VOTEU, 9 R2UR.
static void execUALU(Exec &X, const DInst &D, uint32_t M) {
  Warp &W = *X.W;
  unsigned Ud = wu(D.F[F_Rd] >= 63 ? 63 : D.F[F_Rd]);
  if (D.Aux == 8) { // VOTEU: ballot of the executing lanes
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
  if (!M)
    return;
  if (D.Aux == 9) { // R2UR: the value of the first executing lane
    unsigned L = __builtin_ctz(M);
    W.UR[Ud] = D.F[F_Ra] == 255 ? 0 : W.R[D.F[F_Ra]][L];
    return;
  }
  uint32_t A = uSrc(X, D.A), B = uSrc(X, D.B), C = uSrc(X, D.C);
  bool IsX = D.Aux2 & 1;
  auto Term = [IsX](uint32_t V, bool N) -> uint64_t {
    return N ? (IsX ? uint64_t(~V) : uint64_t(~V) + 1) : V;
  };
  switch (D.Aux) {
  case 0:
    W.UR[Ud] = B;
    break;
  case 1: {
    if (D.Aux2 & 2) { // UIADD3.64
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
  case 2: {
    uint32_t R = lop3(A, B, C, unsigned(D.F[F_lut]));
    W.UR[Ud] = R;
    setUP(W, D.F[F_Pu], R != 0);
    break;
  }
  case 3: {
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
  case 4: {
    bool Signed = D.F[F_u] != 0;
    uint32_t Cin = IsX ? uPred(W, D.F[F_Pc], D.F[F_Pcn]) : 0;
    if (D.Aux2 & 4) {
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
  case 5: {
    bool Hi = D.Aux2 & 1, LX = D.Aux2 & 2, Sx = D.Aux2 & 4;
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
  case 6: {
    unsigned Cmp = unsigned(D.F[F_cmp]);
    bool Signed = D.F[F_u] != 0, R;
    if (!(D.Aux2 & 1)) {
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

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

static uint64_t globalAddr(Exec &X, const DInst &D, unsigned L, bool Wide64) {
  Warp &W = *X.W;
  uint64_t A = 0;
  int64_t Ra = D.F[F_Ra];
  if (Ra != 255) {
    A = W.R[Ra][L];
    if (Wide64)
      A |= uint64_t(W.R[Ra + 1][L]) << 32;
  }
  return A;
}

static void memFault(Exec &X, const char *What, uint64_t Addr, unsigned Size,
                     unsigned L) {
  X.fault(Twine("out-of-bounds ") + What + " of " + Twine(Size) +
          " bytes at 0x" + Twine(utohexstr(Addr, /*LowerCase=*/true)) + " (lane " + Twine(L) +
          ")");
}

/// Lane \p L of a load of \p Size bytes at \p Ptr into Rd (RZ = 256 drops
/// it): whole registers from 4 bytes up, else one zero- or sign-extended
/// (\p SignExtend) register.
static void loadLane(Warp &W, unsigned Rd, unsigned L, const uint8_t *Ptr,
                     unsigned Size, bool SignExtend) {
  if (Size >= 4) {
    for (unsigned I = 0; I < Size / 4; ++I)
      memcpy(&W.R[Rd == 256 ? 256 : Rd + I][L], Ptr + 4 * I, 4);
    return;
  }
  uint32_t V = 0;
  memcpy(&V, Ptr, Size);
  if (SignExtend)
    V = Size == 1 ? uint32_t(int32_t(int8_t(V)))
                  : uint32_t(int32_t(int16_t(V)));
  W.R[Rd][L] = V;
}

/// Lane \p L of a store of \p Size bytes from Rb (RZ = 255 stores zeros)
/// to \p Ptr: whole registers from 4 bytes up, else the low bytes of one
/// register.
static void storeLane(const Warp &W, unsigned Rb, unsigned L, uint8_t *Ptr,
                      unsigned Size) {
  for (unsigned I = 0; I < std::max(1u, Size / 4); ++I) {
    uint32_t V = Rb == 255 ? 0 : W.R[Rb + I][L];
    memcpy(Ptr + 4 * I, &V, std::min(4u, Size));
  }
}

/// LDG/STG: Aux = access bytes, Aux2 bit 0 = store, bit 1 = 64-bit address
/// from e/aw, bit 2 = UR added, bit 3 = sign-extend, bit 4 = RZA (64-bit
/// UR-only address), bit 5 = RZB.
static void execGlobal(Exec &X, const DInst &D, uint32_t M) {
  Warp &W = *X.W;
  unsigned Size = D.Aux;
  bool Store = D.Aux2 & 1;
  bool Wide = (D.Aux2 & 16) || (!(D.Aux2 & 32) &&
                                ((D.Aux2 & 2) ? D.F[F_aw] != 0 : D.F[F_e] != 0));
  uint64_t UrAdd = 0;
  if (D.Aux2 & 4) {
    int64_t U = D.F[F_Ur];
    if (U != 63) {
      UrAdd = W.UR[U];
      if (Wide)
        UrAdd |= uint64_t(W.UR[U + 1]) << 32;
    }
  }
  unsigned Rd = wr(D.F[F_Rd]);
  unsigned Rb = unsigned(D.F[F_Rb]);
  uint32_t Pl = 0;
  FOR_LANES(L, M) {
    uint64_t Addr = globalAddr(X, D, L, Wide) + UrAdd + D.F[F_off];
    if (!Wide)
      Addr &= 0xffffffffu;
    if (Addr % Size) {
      X.fault("misaligned global access of " + Twine(Size) + " bytes at 0x" +
              Twine(utohexstr(Addr, /*LowerCase=*/true)) + " (lane " + Twine(L) + ")");
      return;
    }
    uint8_t *Ptr = X.Mem->translate(Addr, Size);
    if (!Ptr) {
      memFault(X, Store ? "global store" : "global load", Addr, Size, L);
      return;
    }
    if (Store) {
      storeLane(W, Rb, L, Ptr, Size);
    } else {
      loadLane(W, Rd, L, Ptr, Size, D.Aux2 & 8);
      Pl |= 1u << L;
    }
  }
  (void)Pl;
}

/// Hazard-mode state of a shared byte no store or copy has written.
static constexpr uint16_t SmemNeverWritten = 0xffff;

/// The shared window.  sm_86: byte 0 of the block's shared memory is window
/// address 0.  sm_90: ptxas addresses shared memory through the cluster
/// (CGA) window, (SR_CgaCtaId << 24) + offset (`S2UR URa, SR_CgaCtaId`,
/// `UMOV URb, 0x400`, `ULEA URa, URa, URb, 0x18`), and the first 1 KiB of
/// a CTA's window is reserved (the kernel's bytes start at 0x400).  tp-sim
/// runs clusters of one CTA (rank 0), so an address is valid when it lies
/// in rank 0's window past the reserved bytes; an address in another rank's
/// window (distributed shared memory) or in the reserved bytes is an error,
/// never a guess.  Returns false after a fault; \p What names the access.
static bool checkSharedAccess(Exec &X, const char *What, uint64_t Addr,
                              unsigned Size, unsigned Align, unsigned L) {
  const KernelImage &K = X.Prog->Kernel;
  auto Where = [&] {
    return " at 0x" + utohexstr(Addr, /*LowerCase=*/true) + " (lane " +
           std::to_string(L) + ")";
  };
  if (K.SM == 90 && Addr >> 24 && !(Addr >> 32)) {
    X.fault(Twine(What) + Where() + " is in the shared window of cluster " +
            "CTA rank " + Twine(Addr >> 24) +
            " (distributed shared memory): unsupported, clusters have one "
            "CTA");
    return false;
  }
  if (Addr < K.ReservedSharedBytes) {
    X.fault(Twine(What) + Where() + " is in the reserved first " +
            Twine(K.ReservedSharedBytes) + " bytes of the shared window");
    return false;
  }
  if (Addr + Size > X.B->Shared.size()) {
    memFault(X, What, Addr, Size, L);
    return false;
  }
  if (Addr % Align) {
    X.fault("misaligned " + Twine(What) + " of " + Twine(Size) + " bytes" +
            Where());
    return false;
  }
  return true;
}

static void checkSharedRead(Exec &X, uint32_t Addr, unsigned Size) {
  Block &B = *X.B;
  for (unsigned I = 0; I < Size; ++I) {
    uint16_t S = B.SmemState[Addr + I];
    if (!S)
      continue;
    if (S == SmemNeverWritten) {
      X.hazard("reads shared bytes [0x" + Twine(utohexstr(Addr + I, true)) +
               "] that nothing wrote in this block");
      return;
    }
    unsigned Writer = (S & 0x7fff) - 1;
    if (!(S & 0x8000)) {
      X.hazard("reads shared bytes [0x" + Twine(utohexstr(Addr + I, /*LowerCase=*/true)) +
               "] whose async copy (warp " + Twine(Writer) +
               ") has not been waited for");
      return;
    }
    if (Writer != X.W->Id) {
      X.hazard("reads shared bytes [0x" + Twine(utohexstr(Addr + I, /*LowerCase=*/true)) +
               "] copied by warp " + Twine(Writer) +
               " and not yet published by a barrier");
      return;
    }
  }
}

/// LDS/STS: Aux = bytes, Aux2 bit 0 = store, bit 1 = UR added,
/// bit 3 = sign-extend.
static void execShared(Exec &X, const DInst &D, uint32_t M) {
  Warp &W = *X.W;
  Block &B = *X.B;
  unsigned Size = D.Aux;
  bool Store = D.Aux2 & 1;
  uint32_t UrAdd = (D.Aux2 & 2) && D.F[F_Ur] != 63 ? W.UR[D.F[F_Ur]] : 0;
  unsigned Scale = 1u << (D.F[F_sc] ? D.F[F_sc] + 1 : 0);
  unsigned Rd = wr(D.F[F_Rd]), Rb = unsigned(D.F[F_Rb]);
  FOR_LANES(L, M) {
    uint32_t Base = D.F[F_Ra] == 255 ? 0 : W.R[D.F[F_Ra]][L];
    uint64_t Addr = uint64_t(Base) * Scale + UrAdd + D.F[F_off];
    if (!checkSharedAccess(X, Store ? "shared store" : "shared load", Addr,
                           Size, Size, L))
      return;
    uint8_t *Ptr = &B.Shared[Addr];
    if (Store && X.Check)
      std::fill(&B.SmemState[Addr], &B.SmemState[Addr] + Size, 0);
    if (Store) {
      storeLane(W, Rb, L, Ptr, Size);
    } else {
      if (X.Check)
        checkSharedRead(X, uint32_t(Addr), Size);
      loadLane(W, Rd, L, Ptr, Size, D.Aux2 & 8);
    }
  }
}

void sim::ldsmWarp(unsigned Count, bool Trans, const uint32_t RowAddr[32],
                   const uint8_t *Shared, uint32_t Out[32][4]) {
  for (unsigned Mat = 0; Mat < Count; ++Mat) {
    // M[r][c]: 16-bit element c of the row lane 8*Mat + r points at.
    auto Elem = [&](unsigned R, unsigned C) -> uint32_t {
      uint16_t V;
      memcpy(&V, Shared + RowAddr[8 * Mat + R] + 2 * C, 2);
      return V;
    };
    for (unsigned L = 0; L < 32; ++L) {
      unsigned G = L / 4, T = L % 4;
      uint32_t Lo, Hi;
      if (!Trans) {
        Lo = Elem(G, 2 * T);
        Hi = Elem(G, 2 * T + 1);
      } else {
        Lo = Elem(2 * T, G);
        Hi = Elem(2 * T + 1, G);
      }
      Out[L][Mat] = Lo | Hi << 16;
    }
  }
}

/// Warp-wide (.sync.aligned) instructions run for all 32 lanes or none: a
/// guard false for the whole warp skips it, a partial warp is a fault.
/// True when the instruction is to run.
static bool runsWarpWide(Exec &X, StringRef Name, uint32_t M) {
  if (!M)
    return false;
  if (M != 0xffffffffu) {
    X.fault(Name + " executed by a partial warp (lane mask 0x" +
            Twine(utohexstr(M, /*LowerCase=*/true)) + ")");
    return false;
  }
  return true;
}

/// LDSM: Aux = matrices (1, 2, 4), Aux2 bit 0 = UR added.  The instruction
/// is warp-wide (.sync.aligned): all 32 lanes or none must execute it.
static void execLDSM(Exec &X, const DInst &D, uint32_t M) {
  Warp &W = *X.W;
  Block &B = *X.B;
  if (!runsWarpWide(X, "LDSM", M))
    return;
  unsigned Count = D.Aux;
  uint32_t UrAdd = (D.Aux2 & 1) && D.F[F_Ur] != 63 ? W.UR[D.F[F_Ur]] : 0;
  uint32_t Rows[32] = {};
  for (unsigned L = 0; L < 8 * Count; ++L) {
    uint32_t Base = D.F[F_Ra] == 255 ? 0 : W.R[D.F[F_Ra]][L];
    uint64_t Addr = uint64_t(Base) + UrAdd + D.F[F_off];
    if (!checkSharedAccess(X, "LDSM row read", Addr, 16, 16, L))
      return;
    if (X.Check)
      checkSharedRead(X, uint32_t(Addr), 16);
    Rows[L] = uint32_t(Addr);
  }
  uint32_t Out[32][4];
  ldsmWarp(Count, D.F[F_lay] == 1, Rows, B.Shared.data(), Out);
  unsigned Rd = wr(D.F[F_Rd]);
  for (unsigned L = 0; L < 32; ++L)
    for (unsigned I = 0; I < Count; ++I)
      W.R[Rd == 256 ? 256 : Rd + I][L] = Out[L][I];
}

/// LDGSTS: Aux bit 0 = desc form, bit 1 = UR added to the shared address.
static void execLDGSTS(Exec &X, const DInst &D, uint32_t M) {
  Warp &W = *X.W;
  Block &B = *X.B;
  static const unsigned Sizes[8] = {0, 0, 0, 0, 4, 8, 16, 0};
  unsigned Size = Sizes[D.F[F_sz] & 7];
  bool Wide = D.F[F_aw] != 0;
  uint64_t GUr = 0;
  uint32_t SUr = 0;
  int64_t U = D.F[F_Ur];
  if (U != 63) {
    if (D.Aux & 2)
      SUr = W.UR[U];
    else if (!(D.Aux & 1))
      GUr = W.UR[U] | (Wide ? uint64_t(W.UR[U + 1]) << 32 : 0);
  }
  FOR_LANES(L, M) {
    uint32_t SBase = D.F[F_Rs] == 255 ? 0 : W.R[D.F[F_Rs]][L];
    uint64_t SAddr = uint64_t(SBase) + SUr + D.F[F_soff];
    if (!checkSharedAccess(X, "LDGSTS shared destination", SAddr, Size, Size,
                           L))
      return;
    AsyncCopy C;
    C.SharedAddr = uint32_t(SAddr);
    C.Size = uint8_t(Size);
    bool Src = predVal(W, D.F[F_Pp], D.F[F_Ppn], L);
    if (Src) {
      uint64_t GAddr = globalAddr(X, D, L, Wide) + GUr + D.F[F_goff];
      if (!Wide)
        GAddr &= 0xffffffffu;
      uint8_t *Ptr = X.Mem->translate(GAddr, Size);
      if (!Ptr) {
        memFault(X, "LDGSTS global source", GAddr, Size, L);
        return;
      }
      memcpy(C.Data, Ptr, Size);
    } else {
      // UNVERIFIED: a false source predicate copies zeros (PTX cp.async
      // with src-size 0), as ptxas uses it for the ignore-src operand.
      memset(C.Data, 0, Size);
    }
    W.Open.push_back(C);
    if (X.Check)
      for (unsigned I = 0; I < Size; ++I)
        B.SmemState[C.SharedAddr + I] = uint16_t(W.Id + 1);
  }
}

static void execLDGDEPBAR(Exec &X, const DInst &D, uint32_t M) {
  Warp &W = *X.W;
  uint8_t SB = D.I.Ctrl.WrSB < 6 ? D.I.Ctrl.WrSB : 0;
  W.Groups.push_back({SB, std::move(W.Open)});
  W.Open.clear();
}

/// Completes the oldest groups on scoreboard \p SB until at most \p Keep
/// remain: their bytes land in shared memory.
static void landGroups(Exec &X, unsigned SB, unsigned Keep) {
  Warp &W = *X.W;
  Block &B = *X.B;
  unsigned N = 0;
  for (const CopyGroup &G : W.Groups)
    N += G.SB == SB;
  for (auto It = W.Groups.begin(); N > Keep && It != W.Groups.end();) {
    if (It->SB != SB) {
      ++It;
      continue;
    }
    for (const AsyncCopy &C : It->Copies) {
      memcpy(&B.Shared[C.SharedAddr], C.Data, C.Size);
      if (X.Check) {
        for (unsigned I = 0; I < C.Size; ++I)
          B.SmemState[C.SharedAddr + I] = uint16_t(0x8000 | (W.Id + 1));
        B.Landed.push_back({C.SharedAddr, C.Size});
      }
    }
    It = W.Groups.erase(It);
    --N;
  }
}

static void releaseSB(Warp &W, unsigned SB, unsigned Keep) {
  uint32_t Out = W.SBIssued[SB] - W.SBReleased[SB];
  if (Out > Keep)
    W.SBReleased[SB] = W.SBIssued[SB] - Keep;
}

static void execDEPBAR(Exec &X, const DInst &D, uint32_t M) {
  if (!M)
    return;
  unsigned SB = unsigned(D.F[F_sb]), Keep = unsigned(D.F[F_cnt]);
  landGroups(X, SB, Keep);
  if (X.Check)
    releaseSB(*X.W, SB, Keep);
  for (unsigned S = 0; S < 6; ++S)
    if ((D.F[F_set] >> S) & 1) {
      landGroups(X, S, 0);
      if (X.Check)
        releaseSB(*X.W, S, 0);
    }
}

//===----------------------------------------------------------------------===//
// HMMA
//===----------------------------------------------------------------------===//

void sim::hmmaWarp(unsigned K, bool F32Acc, const uint32_t A[32][4],
                   const uint32_t B[32][2], const uint32_t C[32][4],
                   uint32_t D[32][4]) {
  // PTX ISA, "Matrix Fragments for mma.m16n8k16 / m16n8k8" (f16 inputs):
  // groupID g = lane / 4, t = lane % 4.
  //  A (16 x K, row): register i holds (row g + 8*(i&1), col 2t + 8*(i>>1))
  //    and the next column in its high half (K = 8: registers 0, 1 only).
  //  B (K x 8, col): register i holds (k 2t + 8i, col g) and k+1 in the
  //    high half.
  //  C/D f32: register i holds (row g + 8*(i>>1), col 2t + (i&1)).
  //  C/D f16: register i holds (row g + 8i, col 2t) and col+1 high.
  double Am[16][16], Bm[16][8], Acc[16][8];
  for (unsigned L = 0; L < 32; ++L) {
    unsigned G = L / 4, T = L % 4;
    for (unsigned I = 0; I < K / 4; ++I)
      for (unsigned H = 0; H < 2; ++H)
        Am[G + 8 * (I & 1)][2 * T + 8 * (I >> 1) + H] =
            h2f(uint16_t(A[L][I] >> (16 * H)));
    for (unsigned I = 0; I < K / 8; ++I)
      for (unsigned H = 0; H < 2; ++H)
        Bm[2 * T + 8 * I + H][G] = h2f(uint16_t(B[L][I] >> (16 * H)));
    if (F32Acc) {
      for (unsigned I = 0; I < 4; ++I)
        Acc[G + 8 * (I >> 1)][2 * T + (I & 1)] = asF(C[L][I]);
    } else {
      for (unsigned I = 0; I < 2; ++I)
        for (unsigned H = 0; H < 2; ++H)
          Acc[G + 8 * I][2 * T + H] = h2f(uint16_t(C[L][I] >> (16 * H)));
    }
  }
  // Products of binary16 values are exact in binary64; the accumulator
  // plus the K products, added in k order, is exact too unless their
  // exponents spread over more than ~30 binades (then binary64 rounds,
  // far below the final rounding to f32/f16).  The loop runs across the 8
  // columns innermost so that it vectorizes without reordering any sum.
  double Res[16][8];
  for (unsigned R = 0; R < 16; ++R) {
    double S[8];
    for (unsigned N = 0; N < 8; ++N)
      S[N] = Acc[R][N];
    for (unsigned Kk = 0; Kk < K; ++Kk) {
      double A = Am[R][Kk];
      for (unsigned N = 0; N < 8; ++N)
        S[N] += A * Bm[Kk][N];
    }
    for (unsigned N = 0; N < 8; ++N)
      Res[R][N] = S[N];
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

/// HMMA: Aux = K (16 or 8), Aux2 = 1 for .F32.
static void execHMMA(Exec &X, const DInst &D, uint32_t M) {
  Warp &W = *X.W;
  if (!runsWarpWide(X, "HMMA", M))
    return;
  unsigned K = D.Aux;
  bool F32 = D.Aux2;
  unsigned NA = K / 4, NB = K / 8, NC = F32 ? 4 : 2;
  uint32_t A[32][4] = {}, B[32][2] = {}, C[32][4] = {}, R[32][4];
  auto Reg = [&](int64_t Base, unsigned I, unsigned L) -> uint32_t {
    return Base == 255 ? 0 : W.R[Base + I][L];
  };
  for (unsigned L = 0; L < 32; ++L) {
    for (unsigned I = 0; I < NA; ++I)
      A[L][I] = Reg(D.F[F_Ra], I, L);
    for (unsigned I = 0; I < NB; ++I)
      B[L][I] = Reg(D.F[F_Rb], I, L);
    for (unsigned I = 0; I < NC; ++I)
      C[L][I] = Reg(D.F[F_Rc], I, L);
  }
  hmmaWarp(K, F32, A, B, C, R);
  unsigned Rd = wr(D.F[F_Rd]);
  for (unsigned L = 0; L < 32; ++L)
    for (unsigned I = 0; I < NC; ++I)
      W.R[Rd == 256 ? 256 : Rd + I][L] = R[L][I];
}

//===----------------------------------------------------------------------===//
// Control
//===----------------------------------------------------------------------===//

static void execNOP(Exec &, const DInst &, uint32_t) {}

/// Lanes of \p M whose condition predicate (BRA/EXIT `Pp`) holds.
static inline uint32_t condMask(const Warp &W, const DInst &D, uint32_t M) {
  uint32_t P = W.P[D.F[F_Pp]];
  return M & (D.F[F_Ppn] ? ~P : P);
}

static void execEXIT(Exec &X, const DInst &D, uint32_t M) {
  X.W->Active &= ~condMask(*X.W, D, M);
}

static void execBRA(Exec &X, const DInst &D, uint32_t M) {
  uint32_t Live = X.W->Active;
  M = condMask(*X.W, D, M);
  if (!M)
    return;
  if (M != Live) {
    X.fault("divergent branch (taken by lanes 0x" + Twine(utohexstr(M, /*LowerCase=*/true)) +
            " of live lanes 0x" + Twine(utohexstr(Live, /*LowerCase=*/true)) +
            "): unsupported");
    return;
  }
  X.Branch = true;
  X.NextPC = uint32_t(D.Target);
}

static void execBAR(Exec &X, const DInst &D, uint32_t M) {
  if (M && M != X.W->Active) {
    X.fault("BAR.SYNC executed by part of a warp: unsupported");
    return;
  }
  if (M)
    X.Barrier = true;
}

//===----------------------------------------------------------------------===//
// Dispatch table
//===----------------------------------------------------------------------===//

static unsigned sizeFromName(StringRef Name, bool &SignExt) {
  SignExt = false;
  StringRef Last = Name.rsplit('_').second;
  if (Last == "U8")
    return 1;
  if (Last == "S8")
    return SignExt = true, 1;
  if (Last == "U16")
    return 2;
  if (Last == "S16")
    return SignExt = true, 2;
  if (Last == "32")
    return 4;
  if (Last == "64")
    return 8;
  if (Last == "128")
    return 16;
  return 0;
}

Handler sim::getHandler(sass::Opcode Op, uint32_t &Aux, uint32_t &Aux2) {
  const sass::InstrInfo &II = sass::getInstrInfo(Op);
  StringRef N = II.Name;
  Aux = Aux2 = 0;
  auto Has = [&](StringRef Tok) {
    SmallVector<StringRef, 8> Parts;
    N.split(Parts, '_');
    for (StringRef P : Parts)
      if (P == Tok)
        return true;
    return false;
  };
  // Integer ALU.
  if (N.startswith("IMAD_")) {
    if (N.startswith("IMAD_SHL_U32_")) {
      Aux = 3;
      N.rsplit('_').second.getAsInteger(10, Aux2);
      return execIMAD;
    }
    if (N.startswith("IMAD_MOV_U32_rir"))
      return Aux = 4, execIMAD;
    if (N.startswith("IMAD_IADD_"))
      return Aux = 5, execIMAD;
    Aux = N.startswith("IMAD_WIDE_") ? 1 : N.startswith("IMAD_HI_") ? 2 : 0;
    if (Has("X"))
      Aux2 |= 0x100;
    return execIMAD;
  }
  if (N.startswith("IADD3_"))
    return Aux = Has("X"), execIADD3;
  if (N.startswith("VIADD_"))
    return execVIADD;
  if (N.startswith("LOP3_"))
    return execLOP3;
  if (N.startswith("MOV_"))
    return execMOV;
  if (N.startswith("IABS_"))
    return execIABS;
  if (N.startswith("SEL_"))
    return execSEL;
  if (N.startswith("IMNMX_"))
    return execIMNMX;
  if (N.startswith("SHF_"))
    return execSHF;
  if (N.startswith("LEA_")) {
    Aux = (Has("HI") ? 1 : 0) | (Has("X") ? 2 : 0) | (Has("SX32") ? 4 : 0);
    return execLEA;
  }
  if (N.startswith("ISETP_"))
    return Aux = Has("EX"), execISETP;
  if (N.startswith("PRMT_"))
    return execPRMT;
  if (N.startswith("PLOP3"))
    return Aux = N.endswith("_UP"), execPLOP3;
  // Float.
  if (N.startswith("FADD_"))
    return Aux = 0, execFArith;
  if (N.startswith("FMUL_"))
    return Aux = 1, execFArith;
  if (N.startswith("FFMA_"))
    return Aux = 2, execFArith;
  if (N.startswith("FSETP_"))
    return execFSETP;
  if (N.startswith("FSEL_"))
    return execFSEL;
  if (N.startswith("FMNMX_"))
    return execFMNMX;
  if (N.startswith("F2I_") && !N.startswith("F2I_W64D_") &&
      !N.startswith("F2I_F64S_"))
    return execF2I;
  if (N.startswith("HADD2_"))
    return Aux = 0, execH2;
  if (N.startswith("HMUL2_"))
    return Has("BF16") ? nullptr : (Aux = 1, execH2);
  if (N.startswith("HFMA2_")) {
    if (Has("BF16"))
      return nullptr;
    Aux = 2;
    Aux2 = Has("RELU");
    return execH2;
  }
  if (N.startswith("F2FP_PACK_AB_"))
    return execF2FP;
  if (N.startswith("I2FP_F32_"))
    return Aux = 1, execI2F;
  if (N.startswith("I2F_"))
    return Has("F64") ? nullptr : execI2F;
  if (N.startswith("F2F_"))
    return Has("F64D") || Has("F64S") ? nullptr : execF2F;
  // Special and uniform registers.
  if (N.startswith("S2R"))
    return execS2R;
  if (N.startswith("S2UR"))
    return execS2UR;
  if (N.startswith("CS2R")) {
    Aux2 = Has("32") ? 1 : 2;
    return execCS2R;
  }
  if (N.startswith("ULDC")) {
    Aux = Has("64") ? 5 : 4;
    Aux2 = Has("UR");
    return execULDC;
  }
  if (N == "LDC" || N == "LDC_64")
    return Aux = N == "LDC_64" ? 5 : 4, execLDC;
  if (N.startswith("UMOV"))
    return Aux = 0, execUALU;
  if (N.startswith("UIADD3")) {
    Aux = 1;
    Aux2 = (Has("X") ? 1 : 0) | (Has("64") ? 2 : 0);
    return execUALU;
  }
  if (N.startswith("ULOP3"))
    return Aux = 2, execUALU;
  if (N.startswith("USHF"))
    return Aux = 3, execUALU;
  if (N.startswith("UIMAD")) {
    Aux = 4;
    Aux2 = (Has("X") ? 1 : 0) | (Has("WIDE") ? 4 : 0);
    return execUALU;
  }
  if (N.startswith("ULEA")) {
    Aux = 5;
    Aux2 = (Has("HI") ? 1 : 0) | (Has("X") ? 2 : 0) | (Has("SX32") ? 4 : 0);
    return execUALU;
  }
  if (N.startswith("UISETP"))
    return Aux = 6, Aux2 = Has("EX"), execUALU;
  if (N.startswith("USEL"))
    return Aux = 7, execUALU;
  if (N.startswith("VOTEU"))
    return Aux = 8, execUALU;
  if (N.startswith("R2UR"))
    return Aux = 9, execUALU;
  // Memory.
  bool Sx;
  if (N.startswith("LDG_") || N.startswith("STG_")) {
    Aux = sizeFromName(N, Sx);
    Aux2 = (N[0] == 'S' ? 1 : 0) | (Has("UR") || Has("DESC") ? 2 : 0) |
           (Has("UR") || N.contains("_RZ") ? 4 : 0) | (Sx ? 8 : 0) |
           (N.contains("RZA") ? 16 : 0) | (N.contains("RZB") ? 32 : 0);
    return Aux ? execGlobal : nullptr;
  }
  if (N.startswith("LDS_") || N.startswith("STS_")) {
    Aux = sizeFromName(N, Sx);
    Aux2 = (N[0] == 'S' ? 1 : 0) | (Has("UR") ? 2 : 0) | (Sx ? 8 : 0);
    return Aux ? execShared : nullptr;
  }
  if (N.startswith("LDSM_")) {
    N.rsplit('_').second.getAsInteger(10, Aux);
    Aux2 = Has("UR");
    return execLDSM;
  }
  if (N.startswith("LDGSTS")) {
    Aux = (Has("DESC") ? 1 : 0) | (Has("SUR") ? 2 : 0);
    return execLDGSTS;
  }
  if (N == "LDGDEPBAR")
    return execLDGDEPBAR;
  if (N.startswith("DEPBAR"))
    return execDEPBAR;
  // MMA.
  if (N.startswith("HMMA_")) {
    if (Has("BF16") || Has("TF32") || Has("SP"))
      return nullptr;
    Aux = Has("16816") ? 16 : Has("1688") ? 8 : 0;
    Aux2 = Has("F32");
    return Aux ? execHMMA : nullptr;
  }
  // Control.
  if (N.startswith("NOP"))
    return execNOP;
  if (N.startswith("EXIT"))
    return execEXIT;
  if (N == "BRA" || N == "BRA_P")
    return execBRA;
  // Convergence barriers and warp syncs are no-ops while no branch diverges
  // (a divergent branch is an error).
  if (N == "BSSY" || N == "BSYNC" || N.startswith("WARPSYNC"))
    return execNOP;
  if (N == "BAR_SYNC_i")
    return execBAR;
  return nullptr;
}

std::string sim::prepareInst(DInst &D) {
  const sass::InstrInfo &II = sass::getInstrInfo(D.I.Op);
  StringRef N = II.Name;
  if (D.Fn == execEXIT)
    D.IsExit = true;
  if (D.Fn == execBRA) {
    D.IsBranch = true;
  }
  if (D.Fn == execBAR) {
    D.IsBarrier = true;
    if (D.F[F_id] != 0)
      return "only barrier 0 is supported";
  }
  if (D.Fn == execS2R || D.Fn == execS2UR || D.Fn == execCS2R) {
    // Special register by spelling.
    for (unsigned O = 0; O < II.NumOperands; ++O)
      if (II.Operands[O].Kind == sass::OperandKind::SReg) {
        StringRef S = sass::getModifierSpelling(D.I.Op, O, D.I.Ops[O]);
        D.Aux = StringSwitch<uint32_t>(S)
                    .Case("SR_LANEID", SR_LANEID)
                    .Case("SR_TID.X", SR_TIDX)
                    .Case("SR_TID.Y", SR_TIDY)
                    .Case("SR_TID.Z", SR_TIDZ)
                    .Case("SR_CTAID.X", SR_CTAIDX)
                    .Case("SR_CTAID.Y", SR_CTAIDY)
                    .Case("SR_CTAID.Z", SR_CTAIDZ)
                    .Case("SRZ", SR_ZERO)
                    .Case("SR_VIRTUALSMID", SR_ZERO)
                    .Case("SR_VIRTID", SR_WARPID)
                    .Case("SR_LTMASK", SR_LTMASK)
                    .Case("SR_EQMASK", SR_EQMASK)
                    .Case("SR_CgaCtaId", SR_CGACTAID)
                    .Default(SR_UNKNOWN);
        if (D.Aux == SR_UNKNOWN)
          return ("special register " + S + " is not supported").str();
        return "";
      }
    return "special register operand not found";
  }
  if ((D.Fn == execFArith || D.Fn == execFSETP) && D.F[F_rnd] > 3)
    return "unknown rounding mode";
  if (D.Fn == execFArith && D.Has[F_scale] && D.F[F_scale] != 4)
    return "FMUL.D2/.D4 are not supported";
  if (D.Fn == execH2) {
    if (D.Has[F_bf] && D.F[F_bf])
      return "BF16_V2 arithmetic is not supported";
    D.A.Swz = uint8_t(D.F[F_sa]);
    D.B.Swz = uint8_t(D.Has[F_Rb] || D.Aux != 0 ? D.F[F_sb] : D.F[F_sc]);
    D.C.Swz = uint8_t(D.F[F_sc]);
  }
  if (D.Fn == execF2FP && (D.F[F_bf] || D.F[F_rnd]))
    return "F2FP.BF16 / .RZ are not supported";
  if (D.Fn == execF2F &&
      (D.F[F_dst] == 4 || (D.F[F_dst] == 1 && D.F[F_src] == 2 && D.F[F_rnd])))
    return "F2F to BF16, or to F16 with a directed rounding, is not supported";
  if (D.Fn == execI2F && D.Aux != 1 && D.F[F_dst] != 1 && D.F[F_dst] != 2)
    return "I2F to F64 is not supported";
  if ((D.Fn == execFArith && D.Aux == 0) || (D.Fn == execH2 && D.Aux == 0)) {
    // FADD keeps its second source in the C slot unless it is a register
    // (td FloatInstrs.td): FADD_ri / _rc / _ru.
    Src S;
    S.Neg = D.F[F_nc] != 0;
    S.Abs = D.F[F_ac] != 0;
    if (D.Has[F_Rb]) {
      S.K = Src::KReg;
      S.Reg = uint16_t(D.F[F_Rb]);
      S.Neg = D.F[F_nb] != 0;
      S.Abs = D.F[F_ab] != 0;
    } else if (D.Has[F_Imm]) {
      S.K = Src::KImm;
      S.Val = uint32_t(D.F[F_Imm]);
    } else if (D.Has[F_Bank]) {
      S.K = Src::KCB;
      S.Reg = uint16_t(D.F[F_Bank]);
      S.Val = uint32_t(D.F[F_Off]);
    } else if (D.Has[F_Ur]) {
      S.K = Src::KUR;
      S.Reg = uint16_t(D.F[F_Ur]);
    } else if (D.Has[F_Rc]) {
      S.K = Src::KReg;
      S.Reg = uint16_t(D.F[F_Rc]);
    } else {
      return "FADD without a second source";
    }
    if (D.Fn == execH2)
      S.Swz = uint8_t(D.Has[F_Rb] ? D.F[F_sb] : D.F[F_sc]);
    D.B = S;
    D.C = Src();
  }

  if (D.Fn == execPRMT && D.F[F_mode] > 6)
    return "unknown PRMT mode";
  (void)N;
  return "";
}

//===----------------------------------------------------------------------===//
// Hazard model
//===----------------------------------------------------------------------===//

/// RAW latency from a fixed-latency writer to a reader: the target's
/// latency model (lib/Target/SASS/LatencyModel.cpp), the one that
/// tp-compact-stalls schedules with and tp-verify-schedule checks.
static unsigned rawLatency(const sched::LatencyModel &M, const RegHz &H,
                           const DInst &D, const RegUse &U) {
  if (U.First >= HzUP)
    return M.rawUPred(H.WC, D.Class, U.How);
  if (U.First >= HzP)
    return M.rawPred(H.WC, D.Class, U.How);
  if (U.First >= HzUR)
    return M.rawUGPR(H.WC, D.Class);
  return M.rawGPR(H.WC, D.Class, U.Slot, H.LowHalf);
}

static std::string regName(unsigned Hi) {
  return Hi < HzUR    ? "R" + std::to_string(Hi)
         : Hi < HzP  ? "UR" + std::to_string(Hi - HzUR)
         : Hi < HzUP ? "P" + std::to_string(Hi - HzP)
                     : "UP" + std::to_string(Hi - HzUP);
}

static void checkIssue(Exec &X, const DInst &D) {
  Warp &W = *X.W;
  uint64_t T = W.Now;
  // Reads.
  for (const RegUse &U : D.Uses) {
    if (U.Def)
      continue;
    for (unsigned I = 0; I < U.Count; ++I) {
      RegHz &H = W.Hz[U.First + I];
      unsigned Hi = U.First + I;
      auto RegName = [Hi]() { return regName(Hi); };
      if (H.Unprotected) {
        X.hazard("reads " + RegName() + ", written by the variable-latency " +
                 X.Prog->describe(H.WrInst) + " with no write scoreboard");
        continue;
      }
      if (H.WrSB >= 0 && int32_t(H.WrSeq - W.SBReleased[H.WrSB]) >= 0) {
        X.hazard("reads " + RegName() + " before scoreboard SB" +
                 Twine(int(H.WrSB)) + " of its producer (" +
                 X.Prog->describe(H.WrInst) + ") was waited for");
        continue;
      }
      if (H.WrSB < 0 && H.Fixed) {
        unsigned Lat = rawLatency(*X.Prog->Model, H, D, U);
        if (T < H.IssueCycle + Lat)
          X.hazard("reads " + RegName() + " " + Twine(T - H.IssueCycle) +
                   " cycles after its producer issued (" +
                   X.Prog->describe(H.WrInst) + "), needs " + Twine(Lat));
      }
    }
  }
  // Writes.
  for (const RegUse &U : D.Uses) {
    if (!U.Def)
      continue;
    for (unsigned I = 0; I < U.Count; ++I) {
      RegHz &H = W.Hz[U.First + I];
      if (H.RdSB >= 0 && int32_t(H.RdSeq - W.SBReleased[H.RdSB]) >= 0)
        X.hazard("overwrites " + regName(U.First + I) +
                 " while it may still be read by " +
                 X.Prog->describe(H.RdInst) + " (read scoreboard SB" +
                 Twine(int(H.RdSB)) + " not waited for)");
      else if (H.WrSB >= 0 && int32_t(H.WrSeq - W.SBReleased[H.WrSB]) >= 0)
        X.hazard("overwrites " + regName(U.First + I) +
                 " while the variable-latency write of " +
                 X.Prog->describe(H.WrInst) + " is pending (SB" +
                 Twine(int(H.WrSB)) + ")");
    }
  }
}

static void recordIssue(Exec &X, const DInst &D) {
  Warp &W = *X.W;
  const sass::Control &C = D.I.Ctrl;
  uint32_t WrSeq = C.WrSB < 6 ? W.SBIssued[C.WrSB] : 0;
  uint32_t RdSeq = C.RdSB < 6 ? W.SBIssued[C.RdSB] : 0;
  // Variable-latency results of one queue complete in issue order (ptxas
  // relies on it: of two back-to-back LDSMs only the second carries a write
  // scoreboard, SASS_FACTS.md 1.4 LDSM).  Results written without a
  // scoreboard are covered by the next instruction of the same queue that
  // has one.
  unsigned Queue = D.Fn == execShared || D.Fn == execLDSM ? 0
                   : D.Fn == execGlobal                   ? 1
                   : D.Fn == execS2R                      ? 2
                                                          : 3;
  if (D.Variable && C.WrSB < 6) {
    for (uint16_t R : W.Unscoreboarded[Queue]) {
      RegHz &H = W.Hz[R];
      if (H.Unprotected) {
        H.Unprotected = false;
        H.WrSB = int8_t(C.WrSB);
        H.WrSeq = WrSeq;
      }
    }
    W.Unscoreboarded[Queue].clear();
  }
  for (const RegUse &U : D.Uses) {
    for (unsigned I = 0; I < U.Count; ++I) {
      RegHz &H = W.Hz[U.First + I];
      if (U.Def) {
        H.WrInst = uint32_t(X.Idx);
        H.Unprotected = false;
        H.RdSB = -1;
        if (D.Variable) {
          H.WrSB = C.WrSB < 6 ? int8_t(C.WrSB) : -1;
          H.WrSeq = WrSeq;
          H.Unprotected = C.WrSB >= 6;
          H.Fixed = false;
          if (H.Unprotected)
            W.Unscoreboarded[Queue].push_back(uint16_t(U.First + I));
        } else {
          H.WrSB = -1;
          H.IssueCycle = W.Now;
          H.Fixed = D.Class != sched::InstrClass::Nop;
          H.WC = D.Class;
          H.LowHalf =
              D.Class == sched::InstrClass::IMADWide && U.Count == 2 && I == 0;
        }
      } else if (U.Late && D.Variable) {
        // Only GPRs are read late (sched::describe): uniform operands are
        // read at issue (ptxas overwrites the UR of an LDSM address in the
        // very next instruction without a read scoreboard).
        // Read after issue: protected by the read scoreboard, or by the
        // write scoreboard (waiting on it implies the reads are done).
        int8_t SB = C.RdSB < 6 ? int8_t(C.RdSB)
                    : C.WrSB < 6 ? int8_t(C.WrSB) : -1;
        if (SB >= 0) {
          H.RdSB = SB;
          H.RdSeq = C.RdSB < 6 ? RdSeq : WrSeq;
          H.RdInst = uint32_t(X.Idx);
        }
      }
    }
  }
  if (C.WrSB < 6)
    ++W.SBIssued[C.WrSB];
  if (C.RdSB < 6 && C.RdSB != C.WrSB)
    ++W.SBIssued[C.RdSB];
}

//===----------------------------------------------------------------------===//
// Warps and blocks
//===----------------------------------------------------------------------===//

/// Runs warp X.W until it exits, reaches a barrier, or faults.
static void runWarp(Exec &X) {
  Warp &W = *X.W;
  const std::vector<DInst> &Insts = X.Prog->Insts;
  size_t N = Insts.size();
  while (!W.Exited) {
    if (W.PC >= N) {
      X.fault("ran past the end of the code");
      return;
    }
    const DInst &D = Insts[W.PC];
    X.Idx = W.PC;
    if (++W.Issued > X.Cfg->MaxWarpInstructions && X.Cfg->MaxWarpInstructions) {
      X.fault("instruction limit reached (endless loop?)");
      return;
    }
    // Wait mask: the scoreboards complete (async copy groups land).
    if (uint8_t WM = D.I.Ctrl.WaitMask) {
      for (unsigned S = 0; S < 6; ++S)
        if ((WM >> S) & 1) {
          if (!W.Groups.empty())
            landGroups(X, S, 0);
          if (X.Check)
            W.SBReleased[S] = W.SBIssued[S];
        }
    }
    if (X.Check)
      checkIssue(X, D);
    uint32_t G = D.UniformGuard ? (W.UP[D.I.Guard] ? 0xffffffffu : 0)
                                : W.P[D.I.Guard];
    if (D.I.GuardNeg)
      G = ~G;
    uint32_t M = W.Active & G;
    X.Branch = false;
    X.Barrier = false;
    D.Fn(X, D, M);
    X.ThreadInstrs += __builtin_popcount(M);
    W.P[7] = 0xffffffffu;
    W.UP[7] = true;
    if (!X.Fault.empty())
      return;
    if (X.Check) {
      recordIssue(X, D);
      W.Now += std::max<unsigned>(1, D.I.Ctrl.Stall);
    }
    if (!W.Active) {
      W.Exited = true;
      return;
    }
    W.PC = X.Branch ? X.NextPC : W.PC + 1;
    if (X.Barrier) {
      W.AtBarrier = true;
      return;
    }
  }
}

static Error runBlock(Exec &X, Block &B) {
  X.B = &B;
  for (;;) {
    bool Progress = false, AnyLive = false;
    for (Warp *W : B.Warps) {
      if (W->Exited || W->AtBarrier)
        continue;
      X.W = W;
      runWarp(X);
      Progress = true;
      if (!X.Fault.empty()) {
        std::string S;
        raw_string_ostream OS(S);
        OS << "block (" << B.Ctaid[0] << "," << B.Ctaid[1] << ","
           << B.Ctaid[2] << ") warp " << W->Id << " at "
           << X.Prog->describe(X.Idx) << ": " << X.Fault;
        return createStringError(inconvertibleErrorCode(), OS.str());
      }
    }
    unsigned Waiting = 0;
    for (Warp *W : B.Warps) {
      if (!W->Exited)
        AnyLive = true;
      if (W->AtBarrier)
        ++Waiting;
    }
    if (!AnyLive)
      return Error::success();
    if (Waiting) {
      // Every live warp is at the barrier: release it.  In the cycle model
      // all warps leave at the latest arrival.
      uint64_t Latest = 0;
      for (Warp *W : B.Warps)
        if (!W->Exited)
          Latest = std::max(Latest, W->Now);
      for (Warp *W : B.Warps) {
        W->AtBarrier = false;
        W->Now = Latest;
      }
      if (X.Check) {
        for (auto &R : B.Landed)
          for (uint32_t I = 0; I < R.second; ++I)
            if (B.SmemState[R.first + I] & 0x8000)
              B.SmemState[R.first + I] = 0;
        B.Landed.clear();
      }
      continue;
    }
    if (!Progress)
      return createStringError(inconvertibleErrorCode(), "block deadlock");
  }
}

Expected<LaunchStats> sim::launch(const Program &P, GlobalMemory &Mem,
                                  const LaunchConfig &Cfg) {
  const KernelImage &K = P.Kernel;
  uint64_t Threads = uint64_t(Cfg.Block[0]) * Cfg.Block[1] * Cfg.Block[2];
  if (!Threads || Threads > 1024)
    return createStringError(inconvertibleErrorCode(),
                             "block of %llu threads: expected 1..1024",
                             (unsigned long long)Threads);
  uint64_t NumBlocks = uint64_t(Cfg.Grid[0]) * Cfg.Grid[1] * Cfg.Grid[2];
  if (!NumBlocks)
    return createStringError(inconvertibleErrorCode(), "empty grid");
  uint32_t ParamBytes = 0;
  for (auto &Pr : K.Params)
    ParamBytes = std::max(ParamBytes, Pr.first + Pr.second);
  if (Cfg.Params.size() < ParamBytes)
    return createStringError(inconvertibleErrorCode(),
                             "kernel '%s' takes %u parameter bytes, %zu given",
                             K.Name.c_str(), ParamBytes, Cfg.Params.size());
  uint64_t SharedBytes =
      K.ReservedSharedBytes + K.StaticSharedBytes + Cfg.DynamicSharedBytes;
  // A block's shared memory: 100 KiB on sm_86, 228 KiB on sm_90 (CUDA
  // programming guide, compute capabilities table).
  uint64_t MaxShared = (K.SM == 90 ? 228 : 100) * 1024;
  if (SharedBytes > MaxShared)
    return createStringError(inconvertibleErrorCode(),
                             "%llu bytes of shared memory exceed sm_%u's "
                             "%llu KiB",
                             (unsigned long long)SharedBytes, K.SM,
                             (unsigned long long)(MaxShared / 1024));

  // Constant bank 0 (SASS_FACTS.md 3.7).
  std::vector<uint8_t> CB(K.ParamBase + std::max<size_t>(Cfg.Params.size(), 8));
  auto Put32 = [&](uint32_t Off, uint32_t V) { memcpy(&CB[Off], &V, 4); };
  for (unsigned I = 0; I < 3; ++I) {
    Put32(0x0 + 4 * I, Cfg.Block[I]);
    Put32(0xc + 4 * I, Cfg.Grid[I]);
  }
  Put32(0x28, 0xfffc);                     // initial stack pointer (no locals)
  Put32(0x2c, Cfg.DynamicSharedBytes);
  Put32(K.DescriptorOffset, 0x0e000000);   // default memory descriptor
  Put32(K.DescriptorOffset + 4, 0x10000000);
  memcpy(&CB[K.ParamBase], Cfg.Params.data(), Cfg.Params.size());

  unsigned NumWarps = unsigned((Threads + 31) / 32);
  std::atomic<uint64_t> NextBlock{0};
  std::mutex Mu;
  Error FirstErr = Error::success();
  bool Failed = false;
  LaunchStats Stats;
  Stats.Blocks = NumBlocks;

  auto Worker = [&]() {
    std::vector<std::unique_ptr<Warp>> Warps(NumWarps);
    for (auto &W : Warps)
      W.reset(new Warp);
    Block B;
    B.CBank0 = CB;
    B.Shared.resize(SharedBytes);
    if (Cfg.CheckSchedule)
      B.SmemState.resize(SharedBytes);
    std::vector<std::string> Hazards;
    uint64_t HazardCount = 0, WarpInstrs = 0, MaxCycles = 0;
    Exec X;
    X.Prog = &P;
    X.Cfg = &Cfg;
    X.Mem = &Mem;
    X.Check = Cfg.CheckSchedule;
    X.Hazards = &Hazards;
    X.HazardCount = &HazardCount;
    for (;;) {
      uint64_t Id = NextBlock.fetch_add(1);
      if (Id >= NumBlocks)
        break;
      {
        std::lock_guard<std::mutex> G(Mu);
        if (Failed)
          break;
      }
      B.Ctaid = {uint32_t(Id % Cfg.Grid[0]),
                 uint32_t(Id / Cfg.Grid[0] % Cfg.Grid[1]),
                 uint32_t(Id / Cfg.Grid[0] / Cfg.Grid[1])};
      // Shared memory is undefined at block start: fill with a pattern so
      // that reading unwritten bytes does not look like zeros.
      std::fill(B.Shared.begin(), B.Shared.end(), 0xa5);
      if (X.Check) {
        std::fill(B.SmemState.begin(), B.SmemState.end(), SmemNeverWritten);
        B.Landed.clear();
      }
      B.Warps.clear();
      for (unsigned I = 0; I < NumWarps; ++I) {
        Warp &W = *Warps[I];
        memset(W.R, 0, sizeof(W.R));
        memset(W.P, 0, sizeof(W.P));
        memset(W.UR, 0, sizeof(W.UR));
        memset(W.UP, 0, sizeof(W.UP));
        W.P[7] = 0xffffffffu;
        W.UP[7] = true;
        uint64_t Lanes = std::min<uint64_t>(32, Threads - 32 * I);
        W.Active = Lanes == 32 ? 0xffffffffu : uint32_t((1ull << Lanes) - 1);
        W.PC = 0;
        W.Id = I;
        W.Exited = W.AtBarrier = false;
        W.Issued = 0;
        W.Open.clear();
        W.Groups.clear();
        W.Now = 0;
        memset(W.SBIssued, 0, sizeof(W.SBIssued));
        memset(W.SBReleased, 0, sizeof(W.SBReleased));
        if (X.Check) {
          for (RegHz &H : W.Hz)
            H = RegHz();
          for (auto &Q : W.Unscoreboarded)
            Q.clear();
        }
        B.Warps.push_back(&W);
      }
      X.Fault.clear();
      Error E = runBlock(X, B);
      for (Warp *W : B.Warps) {
        WarpInstrs += W->Issued;
        MaxCycles = std::max(MaxCycles, W->Now);
      }
      if (E) {
        std::lock_guard<std::mutex> G(Mu);
        if (!Failed) {
          Failed = true;
          FirstErr = std::move(E);
        } else {
          consumeError(std::move(E));
        }
        break;
      }
    }
    std::lock_guard<std::mutex> G(Mu);
    Stats.WarpInstructions += WarpInstrs;
    Stats.ThreadInstructions += X.ThreadInstrs;
    Stats.Hazards += HazardCount;
    Stats.MaxCycles = std::max(Stats.MaxCycles, MaxCycles);
    for (std::string &S : Hazards)
      if (Stats.HazardReports.size() < Cfg.MaxHazardReports)
        Stats.HazardReports.push_back(std::move(S));
  };

  unsigned NT = std::max(1u, std::min<unsigned>(Cfg.Threads, NumBlocks));
  if (NT == 1) {
    Worker();
  } else {
    std::vector<std::thread> Pool;
    for (unsigned I = 0; I < NT; ++I)
      Pool.emplace_back(Worker);
    for (std::thread &T : Pool)
      T.join();
  }
  if (Failed)
    return FirstErr;
  consumeError(std::move(FirstErr));
  return Stats;
}
