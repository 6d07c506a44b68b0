//===- SchedTestUtil.h - Hand-made sequences for the schedule tests -------===//
//
// Builders of SchedInstr sequences, and a kernel-shaped program after the
// seed (TiledProductSM86.seed.txt): prologue (S2R, addresses, the first
// stages' copies), body (a step a stage: DEPBAR, BAR, LDSM, HMMA runs with
// the second k-half's LDSMs and the next copies between them), control
// (IADD3, ISETP), tail (the products, C stored, EXIT).
//
//===----------------------------------------------------------------------===//
#ifndef TP_UNITTESTS_CODEGEN_SCHEDTESTUTIL_H
#define TP_UNITTESTS_CODEGEN_SCHEDTESTUTIL_H

#include "tp/Target/SASS/Schedule.h"

#include <initializer_list>

namespace tp {
namespace sched {
namespace test {

inline SchedInstr mk(llvm::StringRef Name, std::initializer_list<RegRange> Defs,
                     std::initializer_list<RegRange> Uses) {
  SchedInstr I = makeInstr(Name);
  for (const RegRange &D : Defs)
    I.def(D);
  unsigned K = 0;
  for (const RegRange &U : Uses) {
    ReadSlot S = ReadSlot::Normal;
    if (I.Class == InstrClass::IMADWide && U.File == RegFile::GPR)
      S = K < 2 ? ReadSlot::IMADWideAB : ReadSlot::IMADWideC;
    I.use(U, S);
    ++K;
  }
  return I;
}

inline SchedInstr ldsm(unsigned D, unsigned A, int64_t Off) {
  SchedInstr I = mk("LDSM.16.M88.4", {gpr(D, 4)}, {gpr(A)});
  I.SharedOffset = Off;
  return I;
}
inline SchedInstr hmma(unsigned D, unsigned A, unsigned B) {
  return mk("HMMA.16816.F32", {gpr(D, 4)}, {gpr(A, 4), gpr(B, 2), gpr(D, 4)});
}
inline SchedInstr ldgsts(unsigned Store, int64_t Off, unsigned Ptr) {
  SchedInstr I = mk("LDGSTS.E.BYPASS.128", {}, {gpr(Store), gpr(Ptr, 2)});
  I.SharedOffset = Off;
  return I;
}
inline SchedInstr depbar(unsigned N) {
  SchedInstr I = makeInstr("DEPBAR.LE");
  I.WaitSB = 0;
  I.WaitCount = uint8_t(N);
  return I;
}

/// The geometry of the kernel-shaped program.
struct KernelShape {
  unsigned MTiles = 2, NTiles = 4, Stages = 3;
  unsigned ChunksA = 1, ChunksB = 1;
  bool Residual = false;
};

/// Registers after the seed's plan (tpAcc.. tpCounter), simplified.
struct KernelRegs {
  KernelShape S;
  unsigned acc(unsigned Mt, unsigned Nt) const {
    return 46 + 4 * (Mt * S.NTiles + Nt);
  }
  unsigned accEnd() const { return acc(S.MTiles, 0); }
  unsigned fragA(unsigned Mt, unsigned Kk) const {
    return accEnd() + 4 * (Kk * S.MTiles + Mt);
  }
  unsigned fragB(unsigned Nt, unsigned Kk) const {
    return accEnd() + 8 * S.MTiles + 2 * (Kk * S.NTiles + Nt);
  }
  unsigned offset(unsigned C) const {
    return accEnd() + 8 * S.MTiles + 4 * S.NTiles + C;
  }
  unsigned ptrA(unsigned C) const { return 10 + 2 * C; }
  unsigned ptrB(unsigned C) const { return 18 + 2 * C; }
  unsigned storeA(unsigned C) const { return 26 + C; }
  unsigned storeB(unsigned C) const { return 30 + C; }
  unsigned matA(unsigned I) const { return 34 + I; }
  unsigned matB(unsigned I) const { return 38 + I; }
  int64_t stageBytes() const {
    return (16 * S.MTiles * 2 + 8 * S.NTiles * 4) * 64;
  }
  int64_t bufA(unsigned St) const { return St * stageBytes(); }
  int64_t bufB(unsigned St) const { return bufA(St) + 16 * S.MTiles * 2 * 64; }
};

inline InstrSeq copyStep(const KernelRegs &R, unsigned Stage) {
  InstrSeq P;
  for (unsigned C = 0; C < R.S.ChunksA; ++C)
    P.push_back(ldgsts(R.storeA(C), R.bufA(Stage), R.ptrA(C)));
  for (unsigned C = 0; C < R.S.ChunksB; ++C)
    P.push_back(ldgsts(R.storeB(C), R.bufB(Stage), R.ptrB(C)));
  unsigned N = std::max(R.S.ChunksA, R.S.ChunksB);
  for (unsigned C = 0; C < N; ++C) {
    if (C < R.S.ChunksA) {
      P.push_back(mk("IADD3", {gpr(R.offset(C))}, {gpr(R.offset(C))}));
      P.push_back(
          mk("IMAD.WIDE", {gpr(R.ptrA(C), 2)}, {gpr(R.offset(C)), gpr(5)}));
    }
    if (C < R.S.ChunksB) {
      unsigned O = R.offset(R.S.ChunksA + C);
      P.push_back(mk("IADD3", {gpr(O)}, {gpr(O)}));
      P.push_back(mk("IMAD.WIDE", {gpr(R.ptrB(C), 2)}, {gpr(O), gpr(5)}));
    }
  }
  P.push_back(makeInstr("LDGDEPBAR"));
  return P;
}

/// k-half Kk's products with Q spread over the gaps after their runs.
inline void products(const KernelRegs &R, unsigned Kk, const InstrSeq &Q,
                     InstrSeq &Out) {
  unsigned Groups = R.S.MTiles;
  unsigned PerGap = (Q.size() + Groups - 1) / Groups;
  size_t Next = 0;
  for (unsigned Mt = 0; Mt < R.S.MTiles; ++Mt) {
    for (unsigned Nt = 0; Nt < R.S.NTiles; ++Nt)
      Out.push_back(hmma(R.acc(Mt, Nt), R.fragA(Mt, Kk), R.fragB(Nt, Kk)));
    for (unsigned K = 0; K < PerGap && Next < Q.size(); ++K)
      Out.push_back(Q[Next++]);
  }
  while (Next < Q.size())
    Out.push_back(Q[Next++]);
}

inline InstrSeq loads(const KernelRegs &R, unsigned Stage, unsigned Kk) {
  InstrSeq P;
  for (unsigned Mt = 0; Mt < R.S.MTiles; ++Mt)
    P.push_back(ldsm(R.fragA(Mt, Kk), R.matA(Kk), R.bufA(Stage) + Mt * 1024));
  for (unsigned Pair = 0; Pair < R.S.NTiles / 2; ++Pair)
    P.push_back(
        ldsm(R.fragB(2 * Pair, Kk), R.matB(Kk), R.bufB(Stage) + Pair * 1024));
  return P;
}

inline void stageStep(const KernelRegs &R, unsigned Stage, const InstrSeq &Copies,
                      InstrSeq &Out) {
  Out.push_back(depbar(R.S.Stages - 2));
  Out.push_back(makeInstr("BAR.SYNC"));
  InstrSeq L0 = loads(R, Stage, 0);
  Out.insert(Out.end(), L0.begin(), L0.end());
  products(R, 0, loads(R, Stage, 1), Out);
  products(R, 1, Copies, Out);
}

inline InstrSeq prologue(const KernelRegs &R) {
  InstrSeq P;
  P.push_back(mk("S2R", {gpr(0)}, {}));
  P.push_back(mk("S2R", {gpr(7)}, {}));
  P.push_back(mk("S2R", {gpr(6)}, {}));
  P.push_back(mk("MOV", {gpr(5)}, {}));
  P.push_back(mk("MOV", {gpr(45)}, {}));
  P.push_back(mk("LOP3", {gpr(1)}, {gpr(0)}));
  P.push_back(mk("SHF.R.U32.HI", {gpr(2)}, {gpr(0)}));
  for (unsigned C = 0; C < R.S.ChunksA + R.S.ChunksB; ++C) {
    P.push_back(mk("IMAD", {gpr(R.offset(C))}, {gpr(6), gpr(1)}));
    unsigned Ptr = C < R.S.ChunksA ? R.ptrA(C) : R.ptrB(C - R.S.ChunksA);
    P.push_back(mk("IMAD.WIDE", {gpr(Ptr, 2)}, {gpr(R.offset(C)), gpr(5)}));
    unsigned St = C < R.S.ChunksA ? R.storeA(C) : R.storeB(C - R.S.ChunksA);
    P.push_back(mk("IMAD", {gpr(St)}, {gpr(2), gpr(45)}));
  }
  for (unsigned I = 0; I < 2; ++I) {
    P.push_back(mk("IMAD", {gpr(R.matA(I))}, {gpr(1), gpr(45)}));
    P.push_back(mk("IMAD", {gpr(R.matB(I))}, {gpr(2), gpr(45)}));
  }
  P.push_back(mk("IMAD.WIDE", {gpr(8, 2)}, {gpr(2), gpr(5)})); // C pointer
  for (unsigned A = R.acc(0, 0); A < R.accEnd(); ++A)
    P.push_back(mk("MOV", {gpr(A)}, {}));
  for (unsigned St = 0; St + 1 < R.S.Stages; ++St) {
    InstrSeq C = copyStep(R, St);
    P.insert(P.end(), C.begin(), C.end());
  }
  P.push_back(mk("MOV", {gpr(44)}, {}));
  return P;
}

inline InstrSeq body(const KernelRegs &R) {
  InstrSeq P;
  for (unsigned St = 0; St < R.S.Stages; ++St)
    stageStep(R, St, copyStep(R, (St + R.S.Stages - 1) % R.S.Stages), P);
  return P;
}

inline InstrSeq control() {
  InstrSeq P;
  P.push_back(mk("IADD3", {gpr(44)}, {gpr(44)}));
  P.push_back(mk("ISETP.GT.AND", {pred(1)}, {gpr(44)}));
  return P;
}

inline InstrSeq tail(const KernelRegs &R) {
  InstrSeq P;
  for (unsigned St = 0; St < R.S.Stages; ++St) {
    InstrSeq Q;
    if (St == 0)
      Q = copyStep(R, (St + R.S.Stages - 1) % R.S.Stages);
    else
      Q.push_back(makeInstr("LDGDEPBAR"));
    stageStep(R, St, Q, P);
  }
  P.push_back(depbar(0));
  if (R.S.Residual) {
    unsigned Ptr = R.fragA(0, 0);
    P.push_back(mk("IMAD.WIDE", {gpr(Ptr, 2)}, {gpr(8), gpr(5)}));
    for (unsigned W = 0; W < 4; ++W)
      P.push_back(mk("LDG.E", {gpr(Ptr + 2 + W)}, {gpr(Ptr, 2)}));
    for (unsigned W = 0; W < 4; ++W)
      P.push_back(mk("FADD", {gpr(R.acc(0, 0) + W)},
                     {gpr(R.acc(0, 0) + W), gpr(Ptr + 2 + W)}));
  }
  for (unsigned A = R.acc(0, 0); A < R.accEnd(); A += 2)
    P.push_back(mk("STG.E.64", {}, {gpr(8, 2), gpr(A, 2)}));
  P.push_back(makeInstr("EXIT"));
  return P;
}

/// The pieces compacted (fillers inserted) and the checked program: the
/// loop unrolled twice, no branch.  Info parallel to Program.
struct Checked {
  InstrSeq Program;
  std::vector<CompactInfo> Info;
  size_t BodyBegin = 0, BodyEnd = 0; ///< the first body copy
};

inline llvm::Error buildChecked(const KernelShape &S, const CompactOptions &O,
                                Checked &Out) {
  KernelRegs R{S};
  InstrSeq Pieces[4] = {prologue(R), body(R), control(), tail(R)};
  std::vector<CompactInfo> Infos[4];
  for (unsigned K = 0; K < 4; ++K) {
    if (llvm::Error E = compactStalls(Pieces[K], O, &Infos[K]))
      return E;
    insertFillers(Pieces[K], Infos[K]);
  }
  auto Append = [&](unsigned K) {
    Out.Program.insert(Out.Program.end(), Pieces[K].begin(), Pieces[K].end());
    Out.Info.insert(Out.Info.end(), Infos[K].begin(), Infos[K].end());
  };
  Append(0);
  Out.BodyBegin = Out.Program.size();
  Append(1);
  Out.BodyEnd = Out.Program.size();
  Append(2);
  Append(1);
  Append(2);
  Append(3);
  return llvm::Error::success();
}

} // namespace test
} // namespace sched
} // namespace tp

#endif // TP_UNITTESTS_CODEGEN_SCHEDTESTUTIL_H
