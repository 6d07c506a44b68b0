//===- MemoryOps.cpp - Global, shared and local memory of tp-sim ----------===//
///
/// \file
/// LDG/STG, LDS/STS, LDL/STL, LDSM, LDGSTS with its commit groups
/// (LDGDEPBAR, DEPBAR), the shared (ATOMS) and 32-bit global (ATOMG, RED)
/// atomics: every access bounds- and alignment-checked, an error
/// naming the lane and address otherwise.
///
//===----------------------------------------------------------------------===//
#include "ExecState.h"
#include <algorithm>
#include <cmath>

using namespace llvm;
using namespace tp;
using namespace tp::sim;

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

static uint64_t globalAddr(Exec &X, const DInst &D, unsigned L, bool Wide64) {
  Warp &W = *X.W;
  uint64_t A = 0;
  int64_t Ra = D.F[F_Ra];
  if (Ra != sass::RZ) {
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
    uint32_t V = Rb == sass::RZ ? 0 : W.R[Rb + I][L];
    memcpy(Ptr + 4 * I, &V, std::min(4u, Size));
  }
}

/// LDG/STG: Size = access bytes; flags Store, WideFromAW (the 64-bit
/// address bit is `aw`, else `e`), AddrUR (a UR added), SignExtend, RZA
/// (64-bit UR-only address), RZB.
void sim::execGlobal(Exec &X, const DInst &D, uint32_t M) {
  Warp &W = *X.W;
  unsigned Size = D.Size;
  bool Store = D.has(SemFlag::Store);
  bool Wide = D.has(SemFlag::RZA) ||
              (!D.has(SemFlag::RZB) &&
               (D.has(SemFlag::WideFromAW) ? D.F[F_aw] != 0 : D.F[F_e] != 0));
  uint64_t UrAdd = 0;
  if (D.has(SemFlag::AddrUR)) {
    int64_t U = D.F[F_Ur];
    if (U != sass::URZ) {
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
    if (X.LaneAddr)
      X.LaneAddr[L] = Addr;
    if (Addr % Size) {
      X.fault("misaligned global access of " + Twine(Size) + " bytes at 0x" +
              Twine(utohexstr(Addr, /*LowerCase=*/true)) + " (lane " + Twine(L) + ")");
      return;
    }
    uint8_t *Ptr = X.Mem->translate(
        Addr, Size, Store ? GlobalMemory::Write : GlobalMemory::Read);
    if (!Ptr) {
      memFault(X, Store ? "global store" : "global load", Addr, Size, L);
      return;
    }
    if (Store) {
      storeLane(W, Rb, L, Ptr, Size);
    } else {
      loadLane(W, Rd, L, Ptr, Size, D.has(SemFlag::SignExtend));
      Pl |= 1u << L;
    }
  }
  (void)Pl;
}


/// A shared-window address: register part (scaled), uniform register and
/// signed offset summed in 32 bits.  The window is 32 bits wide and wraps,
/// and ptxas relies on it: an Ada tensor-core kernel keeps 0xffffc000 in a
/// register and addresses [R+0x4000] (test/Sim/shared-wrap.ptx).
static inline uint32_t sharedAddr(uint32_t Reg, uint32_t UR, int64_t Off) {
  return Reg + UR + uint32_t(Off);
}

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

/// LDS/STS: Size = bytes; flags Store, AddrUR, SignExtend.
void sim::execShared(Exec &X, const DInst &D, uint32_t M) {
  Warp &W = *X.W;
  Block &B = *X.B;
  unsigned Size = D.Size;
  bool Store = D.has(SemFlag::Store);
  uint32_t UrAdd =
      D.has(SemFlag::AddrUR) && D.F[F_Ur] != sass::URZ ? W.UR[D.F[F_Ur]] : 0;
  unsigned Scale = 1u << (D.F[F_sc] ? D.F[F_sc] + 1 : 0);
  unsigned Rd = wr(D.F[F_Rd]), Rb = unsigned(D.F[F_Rb]);
  FOR_LANES(L, M) {
    uint32_t Base = D.F[F_Ra] == sass::RZ ? 0 : W.R[D.F[F_Ra]][L];
    uint32_t Addr = sharedAddr(Base * Scale, UrAdd, D.F[F_off]);
    if (X.LaneAddr)
      X.LaneAddr[L] = Addr;
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
      loadLane(W, Rd, L, Ptr, Size, D.has(SemFlag::SignExtend));
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

/// LDSM: Size = matrices (1, 2, 4); flag AddrUR.  The instruction
/// is warp-wide (.sync.aligned): all 32 lanes or none must execute it.
void sim::execLDSM(Exec &X, const DInst &D, uint32_t M) {
  Warp &W = *X.W;
  Block &B = *X.B;
  if (!runsWarpWide(X, "LDSM", M))
    return;
  unsigned Count = D.Size;
  uint32_t UrAdd =
      D.has(SemFlag::AddrUR) && D.F[F_Ur] != sass::URZ ? W.UR[D.F[F_Ur]] : 0;
  uint32_t Rows[32] = {};
  for (unsigned L = 0; L < 8 * Count; ++L) {
    uint32_t Base = D.F[F_Ra] == sass::RZ ? 0 : W.R[D.F[F_Ra]][L];
    uint32_t Addr = sharedAddr(Base, UrAdd, D.F[F_off]);
    if (X.LaneAddr)
      X.LaneAddr[L] = Addr;
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

/// LDGSTS: flags Desc (the descriptor form), SharedUR (a UR added to the
/// shared address), CpSizeBw (Blackwell's size codes 0/1/2, not 4/5/6).
void sim::execLDGSTS(Exec &X, const DInst &D, uint32_t M) {
  Warp &W = *X.W;
  Block &B = *X.B;
  static const unsigned Sizes[8] = {0, 0, 0, 0, 4, 8, 16, 0};
  unsigned Code = unsigned(D.F[F_sz] & 7);
  unsigned Size = Sizes[D.has(SemFlag::CpSizeBw) ? (Code + 4) & 7 : Code];
  bool Wide = D.F[F_aw] != 0;
  uint64_t GUr = 0;
  uint32_t SUr = 0;
  int64_t U = D.F[F_Ur];
  if (U != sass::URZ) {
    if (D.has(SemFlag::SharedUR))
      SUr = W.UR[U];
    else if (!D.has(SemFlag::Desc))
      GUr = W.UR[U] | (Wide ? uint64_t(W.UR[U + 1]) << 32 : 0);
  }
  FOR_LANES(L, M) {
    uint32_t SBase = D.F[F_Rs] == sass::RZ ? 0 : W.R[D.F[F_Rs]][L];
    uint32_t SAddr = sharedAddr(SBase, SUr, D.F[F_soff]);
    if (X.LaneAddr)
      X.LaneAddr[L] = SAddr;
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
      if (X.LaneAddr)
        X.LaneAddr[32 + L] = GAddr;
      // .ZFILL: the address's low bits (below the copy's size) count the
      // bytes zero-filled at the end; the copy reads the rest from the
      // aligned address (ptxas's lowering of cp.async's src-size:
      // test/Sim/cp-async-zfill.ptx).
      unsigned Fill = 0;
      if (D.F[F_zf]) {
        Fill = unsigned(GAddr & (Size - 1));
        GAddr -= Fill;
      }
      unsigned Keep = Size - Fill;
      uint8_t *Ptr = X.Mem->translate(GAddr, Keep, GlobalMemory::Read);
      if (!Ptr) {
        memFault(X, "LDGSTS global source", GAddr, Keep, L);
        return;
      }
      memcpy(C.Data, Ptr, Keep);
      memset(C.Data + Keep, 0, Size - Keep);
    } else {
      // A false source predicate copies zeros: ptxas's lowering of
      // cp.async's ignore-src operand and of src-size 0 (the predicate is
      // "source valid"; test/Sim/cp-async-zfill.ptx).
      memset(C.Data, 0, Size);
      if (X.LaneAddr)
        X.LaneAddr[32 + L] = ~uint64_t(0); // no global access

    }
    W.Open.push_back(C);
    if (X.Check)
      for (unsigned I = 0; I < Size; ++I)
        B.SmemState[C.SharedAddr + I] = uint16_t(W.Id + 1);
  }
}

void sim::execLDGDEPBAR(Exec &X, const DInst &D, uint32_t M) {
  Warp &W = *X.W;
  uint8_t SB = D.I.Ctrl.WrSB < 6 ? D.I.Ctrl.WrSB : 0;
  W.Groups.push_back({SB, std::move(W.Open)});
  W.Open.clear();
}

/// Completes the oldest groups on scoreboard \p SB until at most \p Keep
/// remain: their bytes land in shared memory.
void sim::landGroups(Exec &X, unsigned SB, unsigned Keep) {
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

void sim::releaseSB(Warp &W, unsigned SB, unsigned Keep) {
  uint32_t Out = W.SBIssued[SB] - W.SBReleased[SB];
  if (Out > Keep) {
    W.SBReleased[SB] = W.SBIssued[SB] - Keep;
    foldReadMarks(W, SB);
  }
}

void sim::execDEPBAR(Exec &X, const DInst &D, uint32_t M) {
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

/// LDL/STL: Size = bytes; flags Store, AddrUR, SignExtend.  Per-thread local memory: the address (Ra + UR + off,
/// 32 bits) is an offset into the lane's KernelImage::LocalBytes; an
/// access outside them or misaligned is an error.
void sim::execLocal(Exec &X, const DInst &D, uint32_t M) {
  Warp &W = *X.W;
  unsigned Size = D.Size;
  bool Store = D.has(SemFlag::Store);
  uint32_t LocalBytes = X.Prog->Kernel.LocalBytes;
  uint32_t UrAdd =
      D.has(SemFlag::AddrUR) && D.F[F_Ur] != sass::URZ ? W.UR[D.F[F_Ur]] : 0;
  unsigned Rd = wr(D.F[F_Rd]), Rb = unsigned(D.F[F_Rb]);
  FOR_LANES(L, M) {
    uint32_t Base = D.F[F_Ra] == sass::RZ ? 0 : W.R[D.F[F_Ra]][L];
    uint32_t Addr = Base + UrAdd + uint32_t(D.F[F_off]);
    const char *What = Store ? "local store" : "local load";
    if (uint64_t(Addr) + Size > LocalBytes) {
      X.fault(Twine("out-of-bounds ") + What + " of " + Twine(Size) +
              " bytes at 0x" + Twine(utohexstr(Addr, /*LowerCase=*/true)) +
              " (lane " + Twine(L) + "; the kernel has " + Twine(LocalBytes) +
              " bytes of local memory a thread)");
      return;
    }
    if (Addr % Size) {
      X.fault(Twine("misaligned ") + What + " of " + Twine(Size) +
              " bytes at 0x" + Twine(utohexstr(Addr, /*LowerCase=*/true)) +
              " (lane " + Twine(L) + ")");
      return;
    }
    uint8_t *Ptr = &W.Local[size_t(L) * LocalBytes + Addr];
    if (Store)
      storeLane(W, Rb, L, Ptr, Size);
    else
      loadLane(W, Rd, L, Ptr, Size, D.has(SemFlag::SignExtend));
  }
}

/// One 32-bit atomic operation \p Op (td AtomsOp: ADD, MIN, MAX, INC, DEC,
/// AND, OR, XOR, EXCH; PTX atom's definitions) of \p Old and \p B.
static uint32_t atomicOp32(unsigned Op, bool Signed, uint32_t Old,
                           uint32_t B) {
  switch (Op) {
  case 0:
    return Old + B;
  case 1:
    return Signed ? uint32_t(std::min(int32_t(Old), int32_t(B)))
                  : std::min(Old, B);
  case 2:
    return Signed ? uint32_t(std::max(int32_t(Old), int32_t(B)))
                  : std::max(Old, B);
  case 3:
    return Old >= B ? 0 : Old + 1;
  case 4:
    return (Old == 0 || Old > B) ? B : Old - 1;
  case 5:
    return Old & B;
  case 6:
    return Old | B;
  case 7:
    return Old ^ B;
  default:
    return B;
  }
}

/// ATOMS (Variant AtomsKind, Size 4 or 8, flag AddrUR): each executing
/// lane, in ascending lane order (one of the orders the hardware may
/// choose; PTX leaves it open), reads the shared word at Ra * scale + UR +
/// off, writes the operation's result and returns the old value in Rd.
/// .64 supports EXCH and CAS only (the forms the td has); CAS writes Rc
/// when the old value equals Rb; POPC.INC adds the number of executing
/// lanes once (its Rd must be RZ); CAST.SPIN is refused at decode.
void sim::execATOMS(Exec &X, const DInst &D, uint32_t M) {
  Warp &W = *X.W;
  Block &B = *X.B;
  unsigned Size = D.Size;
  AtomsKind Kind = D.kind<AtomsKind>();
  uint32_t UrAdd =
      D.has(SemFlag::AddrUR) && D.F[F_Ur] != sass::URZ ? W.UR[D.F[F_Ur]] : 0;
  unsigned Scale = 1u << (D.F[F_sc] ? D.F[F_sc] + 1 : 0);
  unsigned Rd = wr(D.F[F_Rd]);
  auto Reg64 = [&](int64_t R, unsigned L) -> uint64_t {
    return R == sass::RZ ? 0 : W.R[R][L] | uint64_t(W.R[R + 1][L]) << 32;
  };
  FOR_LANES(L, M) {
    uint32_t Base = D.F[F_Ra] == sass::RZ ? 0 : W.R[D.F[F_Ra]][L];
    uint32_t Addr = sharedAddr(Base * Scale, UrAdd, D.F[F_off]);
    if (!checkSharedAccess(X, "shared atomic", Addr, Size, Size, L))
      return;
    if (X.Check) {
      checkSharedRead(X, uint32_t(Addr), Size);
      std::fill(&B.SmemState[Addr], &B.SmemState[Addr] + Size, 0);
    }
    uint8_t *Ptr = &B.Shared[Addr];
    uint64_t Old = 0, New;
    memcpy(&Old, Ptr, Size);
    if (Kind == AtomsKind::PopcInc) {
      New = uint32_t(Old) + uint32_t(__builtin_popcount(M));
      memcpy(Ptr, &New, 4);
      return; // once for the warp
    }
    if (Kind == AtomsKind::Cas) {
      uint64_t Cmp = Size == 8 ? Reg64(D.F[F_Rb], L)
                               : (D.F[F_Rb] == sass::RZ ? 0 : W.R[D.F[F_Rb]][L]);
      uint64_t Val = Size == 8 ? Reg64(D.F[F_Rc], L)
                               : (D.F[F_Rc] == sass::RZ ? 0 : W.R[D.F[F_Rc]][L]);
      New = Old == Cmp ? Val : Old;
    } else if (Size == 8) {
      New = Reg64(D.F[F_Rb], L); // EXCH
    } else {
      uint32_t Bv = D.F[F_Rb] == sass::RZ ? 0 : W.R[D.F[F_Rb]][L];
      New = atomicOp32(unsigned(D.F[F_aop]), D.F[F_ty] != 0, uint32_t(Old),
                       Bv);
    }
    memcpy(Ptr, &New, Size);
    W.R[Rd][L] = uint32_t(Old);
    if (Size == 8)
      W.R[Rd == 256 ? 256 : Rd + 1][L] = uint32_t(Old >> 32);
  }
}

/// Flushes a binary32 subnormal to a zero of its sign (.FTZ).
static float flushSubnormal(float F) {
  return std::fpclassify(F) == FP_SUBNORMAL ? std::copysign(0.0f, F) : F;
}

/// ATOMG and RED/REDG of 32 bits at desc[URx][Ra.64+off] or, CAS,
/// [Ra+off] (Variant
/// AtomsKind Op or Cas; flags SignExtend: .S32, F32: .F32.FTZ.RN): each
/// executing lane, in ascending lane order (sequential semantics per warp;
/// one of the orders the hardware may choose, PTX leaves it open), reads
/// the global word, writes the operation's result and returns the old
/// value in Rd (ATOMG; RED has none).  The ops are ATOMS's (ADD, MIN,
/// MAX, INC, DEC, AND, OR, XOR, EXCH; CAS writes Rc when the old value
/// equals Rb); .F32 adds in binary32, round to nearest even, subnormal
/// inputs and result flushed to zero.  The descriptor (its cache policy)
/// does not change the address.  ATOMG's predicate result must be PT.
void sim::execGAtom(Exec &X, const DInst &D, uint32_t M) {
  Warp &W = *X.W;
  if (D.Has[F_Pd] && D.F[F_Pd] != sass::PT) {
    X.fault("ATOMG with a predicate result other than PT is not supported");
    return;
  }
  bool IsCas = D.kind<AtomsKind>() == AtomsKind::Cas;
  unsigned Op = unsigned(D.Has[F_aop] ? D.F[F_aop] : D.Has[F_rop] ? D.F[F_rop] : 0);
  unsigned Rd = D.Has[F_Rd] ? wr(D.F[F_Rd]) : 256;
  // desc[URx][Ra.64+off]: [70] (RED: [90]); CAS [Ra+off]: .E.
  bool Wide = D.Has[F_aw] ? D.F[F_aw] != 0 : D.F[F_e] != 0;
  auto Reg = [&](Field F, unsigned L) -> uint32_t {
    return D.F[F] == sass::RZ ? 0 : W.R[D.F[F]][L];
  };
  FOR_LANES(L, M) {
    uint64_t Addr = globalAddr(X, D, L, Wide) + D.F[F_off];
    if (!Wide)
      Addr &= 0xffffffffu;
    if (X.LaneAddr)
      X.LaneAddr[L] = Addr;
    if (Addr % 4) {
      X.fault("misaligned global atomic of 4 bytes at 0x" +
              Twine(utohexstr(Addr, /*LowerCase=*/true)) + " (lane " +
              Twine(L) + ")");
      return;
    }
    uint8_t *Ptr = X.Mem->translate(
        Addr, 4, GlobalMemory::Access(GlobalMemory::Read | GlobalMemory::Write));
    if (!Ptr) {
      memFault(X, "global atomic", Addr, 4, L);
      return;
    }
    uint32_t Old, New, B = Reg(F_Rb, L);
    memcpy(&Old, Ptr, 4);
    if (IsCas) {
      New = Old == B ? Reg(F_Rc, L) : Old;
    } else if (D.has(SemFlag::F32)) {
      float A, Bf;
      memcpy(&A, &Old, 4);
      memcpy(&Bf, &B, 4);
      float R = flushSubnormal(flushSubnormal(A) + flushSubnormal(Bf));
      memcpy(&New, &R, 4);
    } else {
      New = atomicOp32(Op, D.has(SemFlag::SignExtend), Old, B);
    }
    memcpy(Ptr, &New, 4);
    W.R[Rd][L] = Old;
  }
}

