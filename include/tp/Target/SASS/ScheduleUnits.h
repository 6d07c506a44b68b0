//===- ScheduleUnits.h - Register units shared by compaction and checks ---===//
///
/// \file
/// One flat index per register of every file
/// (R0..R254, UR0..UR62, P0..P6, UP0..UP6; RZ, URZ, PT, UPT have none),
/// and the latency lookups by file that tp-compact-stalls,
/// tp-verify-schedule and the latency evidence use, so that they cannot
/// disagree.
///
//===----------------------------------------------------------------------===//
#ifndef TP_TARGET_SASS_SCHEDULEUNITS_H
#define TP_TARGET_SASS_SCHEDULEUNITS_H

#include "tp/Target/SASS/Schedule.h"

#include <algorithm>

namespace tp {
namespace sched {
namespace units {

// The numbered registers of each file: RZ, URZ and PT (UPT) are the first
// number past them.
constexpr unsigned NumGPR = sass::RZ, NumUGPR = sass::URZ, NumPred = sass::PT,
                   NumUPred = sass::PT;
constexpr unsigned NumUnits = NumGPR + NumUGPR + NumPred + NumUPred;

/// The unit of register \p R of file \p F, or -1 for a zero/true register
/// or one out of range.
inline int unitOf(RegFile F, unsigned R) {
  switch (F) {
  case RegFile::GPR:
    return R < NumGPR ? int(R) : -1;
  case RegFile::UGPR:
    return R < NumUGPR ? int(NumGPR + R) : -1;
  case RegFile::Pred:
    return R < NumPred ? int(NumGPR + NumUGPR + R) : -1;
  case RegFile::UPred:
    return R < NumUPred ? int(NumGPR + NumUGPR + NumPred + R) : -1;
  }
  return -1;
}

inline RegFile fileOf(unsigned Unit) {
  if (Unit < NumGPR)
    return RegFile::GPR;
  if (Unit < NumGPR + NumUGPR)
    return RegFile::UGPR;
  if (Unit < NumGPR + NumUGPR + NumPred)
    return RegFile::Pred;
  return RegFile::UPred;
}

inline std::string unitName(unsigned Unit) {
  switch (fileOf(Unit)) {
  case RegFile::GPR:
    return regName(RegFile::GPR, Unit);
  case RegFile::UGPR:
    return regName(RegFile::UGPR, Unit - NumGPR);
  case RegFile::Pred:
    return regName(RegFile::Pred, Unit - NumGPR - NumUGPR);
  case RegFile::UPred:
    return regName(RegFile::UPred, Unit - NumGPR - NumUGPR - NumPred);
  }
  return "?";
}

/// The units of \p R's registers, which are consecutive: [First, First +
/// Count), Count 0 when none has one (forEachUnit() visits the same).
inline void unitsOf(const RegRange &R, unsigned &First, unsigned &Count) {
  unsigned Base = 0, Size = NumGPR;
  switch (R.File) {
  case RegFile::GPR:
    break;
  case RegFile::UGPR:
    Base = NumGPR;
    Size = NumUGPR;
    break;
  case RegFile::Pred:
    Base = NumGPR + NumUGPR;
    Size = NumPred;
    break;
  case RegFile::UPred:
    Base = NumGPR + NumUGPR + NumPred;
    Size = NumUPred;
    break;
  }
  First = Base + R.First;
  Count = R.First >= Size ? 0 : std::min<unsigned>(R.Count, Size - R.First);
}

/// Calls F(unit) for every register of \p R.
template <typename Fn> void forEachUnit(const RegRange &R, Fn F) {
  for (unsigned K = 0; K < R.Count; ++K) {
    int U = unitOf(R.File, R.First + K);
    if (U >= 0)
      F(unsigned(U));
  }
}

/// Whether register unit \p Unit is the low (even) register of the first
/// register pair of \p Defs that holds it (an IMAD.WIDE result).
inline bool lowHalfOf(llvm::ArrayRef<RegRange> Defs, unsigned Unit) {
  for (const RegRange &D : Defs) {
    int First = unitOf(D.File, D.First);
    if (D.Count == 2 && First >= 0 && Unit >= unsigned(First) &&
        Unit < unsigned(First) + 2)
      return Unit == unsigned(First);
  }
  return false;
}

/// Whether register unit \p Unit is the low (even) register of a pair
/// that IMAD.WIDE \p W writes.
inline bool isLowHalf(const SchedInstr &W, unsigned Unit) {
  return W.Class == InstrClass::IMADWide && lowHalfOf(W.Defs, Unit);
}

/// Read-after-write cycles from fixed-latency \p W to use \p U of \p R,
/// of register unit \p Unit.
inline unsigned raw(const LatencyModel &M, const SchedInstr &W,
                    const SchedInstr &R, const RegUse &U, unsigned Unit) {
  switch (U.Regs.File) {
  case RegFile::GPR:
    return M.rawGPR(W.Class, R.Class, U.Slot, isLowHalf(W, Unit));
  case RegFile::Pred:
    return M.rawPred(W.Class, R.Class, U.How);
  case RegFile::UGPR:
    return M.rawUGPR(W.Class, R.Class);
  case RegFile::UPred:
    return M.rawUPred(W.Class, R.Class, U.How);
  }
  return 1;
}

inline unsigned waw(const LatencyModel &M, const SchedInstr &Earlier,
                    const SchedInstr &Later, RegFile F) {
  switch (F) {
  case RegFile::GPR:
    return M.wawGPR(Earlier.Class, Later.Class, Earlier.Predicated);
  case RegFile::Pred:
    return M.wawPred(Earlier.Class, Later.Class, Earlier.Predicated);
  case RegFile::UGPR:
    return M.wawUGPR(Earlier.Class, Later.Class);
  case RegFile::UPred:
    return M.wawUPred(Earlier.Class, Later.Class);
  }
  return 1;
}

inline unsigned war(const LatencyModel &M, const SchedInstr &Reader,
                    const SchedInstr &Writer, RegFile F) {
  switch (F) {
  case RegFile::GPR:
    return M.warGPR(Reader.Class, Writer.Class);
  case RegFile::Pred:
    return M.warPred(Reader.Class, Writer.Class);
  case RegFile::UGPR:
    return M.warUGPR(Reader.Class, Writer.Class);
  case RegFile::UPred:
    return M.warUPred(Reader.Class, Writer.Class);
  }
  return 1;
}

inline unsigned worst(const LatencyModel &M, const SchedInstr &W, RegFile F) {
  switch (F) {
  case RegFile::GPR:
    return M.worstGPR(W.Class);
  case RegFile::Pred:
    return M.worstPred(W.Class);
  case RegFile::UGPR:
    return M.worstUGPR(W.Class);
  case RegFile::UPred:
    return M.worstUPred(W.Class);
  }
  return 1;
}

inline unsigned worstWar(const LatencyModel &M, RegFile F) {
  switch (F) {
  case RegFile::GPR:
    return M.worstWARGPR();
  case RegFile::Pred:
    return M.worstWARPred();
  case RegFile::UGPR:
    return M.worstWARUGPR();
  case RegFile::UPred:
    return M.worstWARUPred();
  }
  return 1;
}

/// Scoreboards of the seed's plan (Schedule.h).
constexpr uint8_t CommitSB = 0, FragmentSB = 1, LoadSB = 2, CopyReadSB = 3;
constexpr uint8_t NoSB = sass::NoScoreboard;

/// The blocking stall of \p I's issue.
inline unsigned minStall(const LatencyModel &M, const SchedInstr &I) {
  return M.minStallAfter(I.Class, I.Kind == SpecialKind::Barrier,
                         I.Kind == SpecialKind::WaitGroups);
}

} // namespace units
} // namespace sched
} // namespace tp

#endif // TP_TARGET_SASS_SCHEDULEUNITS_H
