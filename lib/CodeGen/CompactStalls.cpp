//===- CompactStalls.cpp - tp-compact-stalls: the smallest stalls ---------===//
///
/// \file
/// The tp-compact-stalls pass (at the end of this file) and the algorithm
/// it runs, compactStalls(): one forward walk over a piece that, for each
/// instruction in order,
///
///  1. finds the scoreboard waits it needs: a register it reads or writes
///     whose last writer is a variable-latency instruction not yet waited
///     for (RAW, WAW), a register it writes that an in-flight instruction
///     still reads late (WAR: stores, LDGSTS); BAR waits for in-flight
///     shared reads, EXIT for everything, BRA for every register
///     scoreboard (never for the group commits, which DEPBAR counts);
///  2. issues it at the earliest cycle that keeps every fixed-latency
///     dependency (RAW, WAW, WAR by the LatencyModel tables), the
///     blocking stall of its predecessor (BAR 6, DEPBAR 4) and, for each
///     wait, 2 cycles after the youngest instruction that set the waited
///     scoreboard and is needed;
///  3. applies the waits (scoreboards are counters: a wait releases every
///     instruction on it issued at least 2 cycles earlier; DEPBAR.LE SBx, n
///     all but the n youngest) and then takes its own scoreboards by the
///     plan in Schedule.h.
///
/// The stall of each instruction is then the distance to the next issue;
/// the last instruction's stall drains the piece (every fixed-latency
/// result ready for any consumer, worst*() of the model) and a NOP is
/// appended to wait for register scoreboards still in flight.  Delays over
/// 15 are split over never-executing fillers by insertFillers().
///
/// The walk is ASAP in a fixed order, so every stall is the smallest the
/// constraints allow; the reason of each is recorded for the mutation test.
///
/// It runs on flat views (ScheduleOps.h: an OpView per instruction, its
/// register units as ranges) with its state per register group (the
/// consecutive units one instruction wrote, split where a read names part
/// of them: every unit of a group has the same state, so each range is
/// checked once per group, not once per unit), a queue per scoreboard and
/// the latency model's answers cached; nothing is allocated
/// per instruction once the buffers have grown.  The pass describes each
/// MInstr in place (FormDescriber) and writes the fields back in place;
/// compactStalls() on SchedInstrs runs the same walk (appendView()).
///
//===----------------------------------------------------------------------===//

#include "SchedulePieces.h"
#include "tp/Pass/Pass.h"
#include "tp/Target/SASS/ScheduleOps.h"
#include "tp/Target/SASS/ScheduleUnits.h"
#include "tp/Support/Diagnostics.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <array>
#include <cstring>

using namespace llvm;

namespace tp {
namespace sched {

using namespace units;

namespace {

constexpr unsigned NumClasses = NumInstrClasses;
constexpr unsigned NumFiles = 4;
constexpr unsigned NumKinds = unsigned(SpecialKind::Nop) + 1;

/// The latency model's answers, asked once per argument tuple of a run's
/// target and kept: every LatencyModel query is a function of its
/// arguments only.  A table row holds one reader (or later writer) and
/// use, indexed by the earlier instruction's key (WriteState::RawKey,
/// WawKey: its class and a flag), so that the walk computes a row once per
/// register range and indexes it once per unit.  0xff: not asked yet (a
/// value of 255 or more is never kept; it is asked again).
class LatencyCache {
public:
  static constexpr unsigned RowSize = 2 * NumClasses;
  static constexpr uint8_t Unknown = 0xff;

  void reset(const LatencyModel &Model) {
    if (M == &Model)
      return;
    M = &Model;
    std::memset(Raw, Unknown, sizeof(Raw));
    std::memset(Waw, Unknown, sizeof(Waw));
    std::memset(War, Unknown, sizeof(War));
    std::memset(Worst, Unknown, sizeof(Worst));
    std::memset(MinStall, Unknown, sizeof(MinStall));
    for (unsigned F = 0; F < NumFiles; ++F)
      WorstWar[F] = units::worstWar(Model, RegFile(F));
  }

  /// units::raw() of reader class \p R and use \p U, by writer key.
  uint8_t *rawRow(RegFile F, InstrClass R, uint8_t Sub) {
    return Raw[unsigned(F)][unsigned(R)][Sub & 3];
  }
  /// units::waw() of later writer class \p Later, by earlier writer key.
  uint8_t *wawRow(RegFile F, InstrClass Later) {
    return Waw[unsigned(F)][unsigned(Later)];
  }
  /// units::war() of writer class \p W, by reader class.
  uint8_t *warRow(RegFile F, InstrClass W) {
    return War[unsigned(F)][unsigned(W)];
  }
  /// The entry \p Key of a raw row made for (F, R, Sub).
  unsigned raw(uint8_t *Row, unsigned Key, RegFile F, InstrClass R,
               uint8_t Sub) {
    if (Row[Key] != Unknown)
      return Row[Key];
    return askRaw(Row[Key], InstrClass(Key >> 1), R, F, Sub, Key & 1);
  }
  unsigned waw(uint8_t *Row, unsigned Key, RegFile F, InstrClass Later) {
    if (Row[Key] != Unknown)
      return Row[Key];
    return askWaw(Row[Key], InstrClass(Key >> 1), Later, F, Key & 1);
  }
  unsigned war(uint8_t *Row, unsigned Reader, RegFile F, InstrClass W) {
    if (Row[Reader] != Unknown)
      return Row[Reader];
    return askWar(Row[Reader], InstrClass(Reader), W, F);
  }
  /// units::worst().
  unsigned worst(InstrClass W, RegFile F) {
    uint8_t &C = Worst[unsigned(F)][unsigned(W)];
    if (C != Unknown)
      return C;
    switch (F) {
    case RegFile::GPR:
      return keep(C, M->worstGPR(W));
    case RegFile::Pred:
      return keep(C, M->worstPred(W));
    case RegFile::UGPR:
      return keep(C, M->worstUGPR(W));
    case RegFile::UPred:
      return keep(C, M->worstUPred(W));
    }
    return 1;
  }
  unsigned worstWar(RegFile F) const { return WorstWar[unsigned(F)]; }
  /// units::minStall(), by the view's class and kind.
  unsigned minStall(const OpView &I) {
    uint8_t &C = MinStall[unsigned(I.Class)][unsigned(I.Kind)];
    if (C != Unknown)
      return C;
    return keep(C, M->minStallAfter(I.Class, I.Kind == SpecialKind::Barrier,
                                    I.Kind == SpecialKind::WaitGroups));
  }

private:
  static unsigned keep(uint8_t &C, unsigned V) {
    if (V < Unknown)
      C = uint8_t(V);
    return V;
  }
  LLVM_ATTRIBUTE_NOINLINE unsigned askRaw(uint8_t &C, InstrClass W,
                                          InstrClass R, RegFile F,
                                          uint8_t Sub, bool Low) {
    switch (F) {
    case RegFile::GPR:
      return keep(C, M->rawGPR(W, R, ReadSlot(Sub), Low));
    case RegFile::Pred:
      return keep(C, M->rawPred(W, R, PredRead(Sub)));
    case RegFile::UGPR:
      return keep(C, M->rawUGPR(W, R));
    case RegFile::UPred:
      return keep(C, M->rawUPred(W, R, PredRead(Sub)));
    }
    return 1;
  }
  LLVM_ATTRIBUTE_NOINLINE unsigned askWaw(uint8_t &C, InstrClass Earlier,
                                          InstrClass Later, RegFile F,
                                          bool EarlierPredicated) {
    switch (F) {
    case RegFile::GPR:
      return keep(C, M->wawGPR(Earlier, Later, EarlierPredicated));
    case RegFile::Pred:
      return keep(C, M->wawPred(Earlier, Later, EarlierPredicated));
    case RegFile::UGPR:
      return keep(C, M->wawUGPR(Earlier, Later));
    case RegFile::UPred:
      return keep(C, M->wawUPred(Earlier, Later));
    }
    return 1;
  }
  LLVM_ATTRIBUTE_NOINLINE unsigned askWar(uint8_t &C, InstrClass Reader,
                                          InstrClass Writer, RegFile F) {
    switch (F) {
    case RegFile::GPR:
      return keep(C, M->warGPR(Reader, Writer));
    case RegFile::Pred:
      return keep(C, M->warPred(Reader, Writer));
    case RegFile::UGPR:
      return keep(C, M->warUGPR(Reader, Writer));
    case RegFile::UPred:
      return keep(C, M->warUPred(Reader, Writer));
    }
    return 1;
  }

  const LatencyModel *M = nullptr;
  uint8_t Raw[NumFiles][NumClasses][4][RowSize];
  uint8_t Waw[NumFiles][NumClasses][RowSize];
  uint8_t War[NumFiles][NumClasses][NumClasses];
  uint8_t Worst[NumFiles][NumClasses];
  uint8_t MinStall[NumClasses][NumKinds];
  unsigned WorstWar[NumFiles] = {};
};

/// One increment of a scoreboard counter.
struct SBEntry {
  int32_t Instr;
  bool IsRegister; ///< guards registers (every entry but a group commit)
  bool IsShared;   ///< a shared-memory read in flight (LDSM, LDS)
};

/// The last write of a group's units: the writer and what the walk needs
/// of it.  A write replaces it whole (8 bytes) and clears the group's reads.
struct WriteState {
  int32_t LastWrite = -1; ///< the last writer, -1 none
  /// The last writer's key in raw rows (class * 2 + the unit is the low
  /// half of an IMAD.WIDE pair) and in waw rows (class * 2 + predicated).
  uint8_t RawKey = 0, WawKey = 0;
  InstrClass WClass = InstrClass::CoupledALU; ///< the last writer's class
  uint8_t Flags = 0; ///< WVariable
};

/// The state of a group of register units since the piece began, the
/// same for each unit of the group (consecutive units, [First, First +
/// Count)): their last write (WriteState) and the readers since that
/// write, as the walk needs them: the youngest reader of each latency
/// class (Readers; the WAR spacing depends on the reader's class only and
/// issue cycles never fall, so the youngest of a class bounds every older
/// one), the youngest of all, and every late read of a variable-latency
/// instruction (its scoreboards), a list in LatePool (lists are only ever
/// prepended to, so groups split from one share its tail).  Readers and
/// LastRead mean something only where ReadClasses has bits: a write
/// clears ReadClasses and LateHead, not them.
struct Group {
  uint16_t First = 0, Count = 0; ///< its units; Count 0: free
  uint16_t ReadClasses = 0;      ///< bit c: a reader of class c since the write
  WriteState W;
  int32_t LateHead = -1; ///< the newest late variable reader, -1 none
  int32_t LastRead = -1; ///< the youngest reader (where ReadClasses != 0)
  /// The youngest reader of each class (where ReadClasses has its bit).
  std::array<int32_t, NumClasses> Readers;

  /// Units [F, F + C) were just written: \p Write and no reads since.
  void setWritten(unsigned F, unsigned C, const WriteState &Write) {
    First = uint16_t(F);
    Count = uint16_t(C);
    ReadClasses = 0;
    W = Write;
    LateHead = -1;
  }
};
enum : uint8_t { WVariable = 1 };

} // namespace

/// The compaction state: per register group (each unit names its group;
/// Group), per scoreboard (a queue of increments: waits release its oldest
/// ones), per instruction (issue cycle, its entries' positions in the
/// queues).  Buffers are kept between runs; the unit-to-group table (664
/// bytes) is reset as a whole at a piece's start.
class StallCompactor::Impl {
public:
  Impl() { Groups.reserve(NumUnits + 4); }
  Error run(const OpSeq &Seq, MutableArrayRef<OpView> Ops,
            const CompactOptions &Opts, CompactResult &R);
  void setDrainNop(const OpView &V) {
    HasGivenNop = true;
    GivenNop = V;
  }

private:
  /// The waits of one instruction.  Required ones protect a dependency
  /// the verifier checks: they bound the issue 2 cycles after the setter.
  /// Policy ones (EXIT waits for everything, BRA for every register
  /// scoreboard) only set the bit.
  struct Need {
    uint8_t Mask = 0, Required = 0;
    /// The youngest setter of each required scoreboard (where Required).
    std::array<int32_t, NumScoreboards> Setter;
    void add(uint8_t SB, int32_t Instr, bool IsRequired = true) {
      if (SB >= NumScoreboards)
        return;
      Mask |= 1u << SB;
      if (!IsRequired)
        return;
      if (Required & (1u << SB)) {
        Setter[SB] = std::max(Setter[SB], Instr);
        return;
      }
      Required |= 1u << SB;
      Setter[SB] = Instr;
    }
  };

  Error checkCommits(ArrayRef<OpView> Ops);
  void begin(size_t N);
  LLVM_ATTRIBUTE_ALWAYS_INLINE void step(unsigned I, bool &Exited);
  LLVM_ATTRIBUTE_ALWAYS_INLINE void issue(unsigned I, const OpView &In,
                                          Need &N, bool Waits);
  void scanPending(unsigned I, Need &N);
  LLVM_ATTRIBUTE_ALWAYS_INLINE void applyWaits(unsigned I, const OpView &In,
                                               uint8_t Mask);
  uint8_t allocate() const;
  LLVM_ATTRIBUTE_ALWAYS_INLINE void takeScoreboards(unsigned I);
  LLVM_ATTRIBUTE_ALWAYS_INLINE void recordWrites(unsigned I);
  inline uint16_t newGroup();
  void freeGroup(uint16_t Id) {
    Groups[Id].Count = 0;
    FreeGroups.push_back(Id);
  }
  uint16_t copyGroup(uint16_t Src, unsigned Lo, unsigned Hi);
  LLVM_ATTRIBUTE_ALWAYS_INLINE uint16_t isolate(unsigned X, unsigned E);
  uint16_t isolateSlow(unsigned X, unsigned E);
  void writeGroup(unsigned F, unsigned E, const WriteState &W);
  void drain(CompactResult &R);
  int64_t endCycle(bool Drain, StallReason &Why);
  void finish(int64_t End, StallReason EndWhy, CompactResult &R);
  bool pending(int32_t Instr, bool Write) const {
    const OpView &Q = Ops[Instr];
    uint8_t B = Write ? Q.Ctrl.WrSB : Q.Ctrl.RdSB;
    int32_t Pos = Write ? WrPos[Instr] : RdPos[Instr];
    return Pos >= 0 && B < NumScoreboards && uint32_t(Pos) >= Head[B];
  }
  /// The view of instruction \p I; the drain NOP past the range.
  const OpView &op(unsigned I) const { return I < Ops.size() ? Ops[I] : Nop; }

  /// The run's OpSeq's use and def units (the views index them): the
  /// buffers' starts, loaded once a run rather than through the OpSeq at
  /// each of the three loops over a view's units.
  const UnitRange *UseUnits = nullptr, *DefUnits = nullptr;
  ArrayRef<UnitRange> uses(const OpView &V) const {
    return makeArrayRef(UseUnits + V.UseBegin, V.NumUses);
  }
  ArrayRef<UnitRange> defs(const OpView &V) const {
    return makeArrayRef(DefUnits + V.DefBegin, V.NumDefs);
  }
  MutableArrayRef<OpView> Ops;
  bool Conservative = false; ///< the run's CompactOptions::Conservative
  LatencyCache Lat;
  OpView Nop; ///< the drain NOP
  bool HasGivenNop = false; ///< setDrainNop()
  OpView GivenNop;
  /// The group of each register unit, NoGroup while the piece has
  /// neither read nor written it.
  static constexpr uint16_t NoGroup = 0xffff;
  std::array<uint16_t, NumUnits> GroupOf;
  /// Every group (live ones have units; at most one a unit, so the table
  /// never grows past NumUnits and a few being split) and the free ones:
  /// Groups[0, NumGroups) this piece; the slots past it are kept for the
  /// next pieces (no construction per piece).
  std::vector<Group> Groups;
  uint16_t NumGroups = 0;
  std::vector<uint16_t> FreeGroups;
  /// The late variable readers of every group: (reader, next older).
  std::vector<std::pair<int32_t, int32_t>> LatePool;
  std::array<std::vector<SBEntry>, NumScoreboards> Queue;
  /// Queue[b][Head[b]..] are in flight.
  std::array<uint32_t, NumScoreboards> Head;
  std::array<int32_t, NumScoreboards> LastSetter;
  /// Each instruction's write / read increment: its position in its
  /// scoreboard's queue, -1 none.
  std::vector<int32_t> WrPos, RdPos;
  std::vector<int64_t> T; ///< issue cycle of each instruction
  std::vector<uint8_t> Required;
  std::vector<StallReason> Reasons;
  uint8_t CommitSB = units::CommitSB;
  bool Drained = false; ///< the drain NOP follows Ops
};

StallCompactor::StallCompactor() : State(std::make_unique<Impl>()) {}
StallCompactor::~StallCompactor() = default;

void StallCompactor::setDrainNop(const OpView &V) { State->setDrainNop(V); }

Error StallCompactor::run(const OpSeq &Seq, MutableArrayRef<OpView> Ops,
                          const CompactOptions &Opts, CompactResult &R) {
  return State->run(Seq, Ops, Opts, R);
}

Error StallCompactor::Impl::checkCommits(ArrayRef<OpView> Ops) {
  // The last DEPBAR's scoreboard; whether another one differs.
  CommitSB = units::CommitSB;
  bool Seen = false, Differ = false;
  for (const OpView &In : Ops)
    if (LLVM_UNLIKELY(In.Kind == SpecialKind::WaitGroups)) {
      Differ |= Seen && In.WaitSB != CommitSB;
      Seen = true;
      CommitSB = In.WaitSB;
    }
  if (LLVM_UNLIKELY(Differ))
    for (const OpView &In : Ops) // the first that differs from the last
      if (In.Kind == SpecialKind::WaitGroups && In.WaitSB != CommitSB)
        return makeError("tp-compact-stalls: DEPBAR waits on SB" +
                         Twine(unsigned(In.WaitSB)) + " and on SB" +
                         Twine(unsigned(CommitSB)) +
                         "; the group commits can be counted on one only");
  if (CommitSB == FragmentSB || CommitSB == LoadSB || CommitSB == CopyReadSB)
    return makeError("tp-compact-stalls: DEPBAR on SB" +
                     Twine(unsigned(CommitSB)) +
                     ", which the scoreboard plan gives to another class");
  return Error::success();
}

/// The view of a NOP (the drain's and the fillers'), made once:
/// makeInstr() looks its form up among every td form by name.
static const SchedInstr &nopView() {
  static const SchedInstr Nop = makeInstr("NOP");
  return Nop;
}

void StallCompactor::Impl::begin(size_t N) {
  GroupOf.fill(NoGroup);
  NumGroups = 0;
  FreeGroups.clear();
  LatePool.clear();
  // Room for one late read an instruction at once (it grows past that if
  // need be): its doublings in the first piece cost more than the space.
  LatePool.reserve(N);
  for (unsigned B = 0; B < NumScoreboards; ++B) {
    Queue[B].clear();
    Head[B] = 0;
    LastSetter[B] = -1;
  }
  WrPos.assign(N + 1, -1);
  RdPos.assign(N + 1, -1);
  T.assign(N + 1, 0);
  Required.assign(N + 1, 0);
  Reasons.assign(N + 1, StallReason::MinIssue);
  Nop = OpView();
  if (HasGivenNop) {
    Nop.Class = GivenNop.Class;
    Nop.Kind = GivenNop.Kind;
    Nop.Variable = isVariable(GivenNop.Class);
    return;
  }
  const SchedInstr &NopView = nopView();
  Nop.Class = NopView.Class;
  Nop.Kind = NopView.Kind;
  Nop.Variable = isVariable(NopView.Class);
  Nop.Ctrl = NopView.Ctrl;
}

/// A group to fill (its old state is overwritten by the caller), from the
/// free ones first, then the table's slots past NumGroups, kept from earlier
/// pieces.
inline uint16_t StallCompactor::Impl::newGroup() {
  if (!FreeGroups.empty()) {
    uint16_t Id = FreeGroups.back();
    FreeGroups.pop_back();
    return Id;
  }
  if (LLVM_UNLIKELY(NumGroups == Groups.size()))
    Groups.emplace_back();
  return NumGroups++;
}

/// A new group with \p Src's state for units [Lo, Hi), which move to it.
uint16_t StallCompactor::Impl::copyGroup(uint16_t Src, unsigned Lo,
                                         unsigned Hi) {
  uint16_t Id = newGroup();
  Groups[Id] = Groups[Src];
  Groups[Id].First = uint16_t(Lo);
  Groups[Id].Count = uint16_t(Hi - Lo);
  for (unsigned X = Lo; X < Hi; ++X)
    GroupOf[X] = Id;
  return Id;
}

/// The group of units [X, min(E, the end of X's group)), made one of its
/// own (split from X's group, or new for units not yet touched) so that a
/// read can be recorded in it.  Most reads name a group whole (HMMA's
/// accumulator, an LDSM's result): no split.
uint16_t StallCompactor::Impl::isolate(unsigned X, unsigned E) {
  uint16_t Id = GroupOf[X];
  if (LLVM_LIKELY(Id != NoGroup)) {
    const Group &G = Groups[Id];
    if (LLVM_LIKELY(G.First == X && unsigned(G.First + G.Count) <= E))
      return Id;
  }
  return isolateSlow(X, E);
}

uint16_t StallCompactor::Impl::isolateSlow(unsigned X, unsigned E) {
  uint16_t Id = GroupOf[X];
  if (Id == NoGroup) {
    unsigned End = X + 1;
    while (End < E && GroupOf[End] == NoGroup)
      ++End;
    uint16_t New = newGroup();
    Groups[New] = Group();
    Groups[New].First = uint16_t(X);
    Groups[New].Count = uint16_t(End - X);
    for (unsigned K = X; K < End; ++K)
      GroupOf[K] = New;
    return New;
  }
  unsigned First = Groups[Id].First, End = First + Groups[Id].Count;
  unsigned Hi = std::min(E, End);
  if (Hi < End) // the units past the read keep the state in a group of their own
    copyGroup(Id, Hi, End);
  if (First < X) { // so do those before it
    uint16_t Mid = copyGroup(Id, X, Hi);
    Groups[Id].Count = uint16_t(X - First);
    return Mid;
  }
  Groups[Id].Count = uint16_t(Hi - First);
  return Id;
}

/// Units [F, E) are written by \p W: one group with no reads since; the
/// groups they were in keep their other units (or are freed).
void StallCompactor::Impl::writeGroup(unsigned F, unsigned E,
                                      const WriteState &W) {
  uint16_t Id = GroupOf[F];
  if (LLVM_LIKELY(Id != NoGroup && Groups[Id].First == F &&
                  Groups[Id].Count == E - F)) {
    Groups[Id].setWritten(F, E - F, W);
    return;
  }
  for (unsigned X = F; X < E;) {
    uint16_t Old = GroupOf[X];
    if (Old == NoGroup) {
      ++X;
      continue;
    }
    Group &G = Groups[Old];
    unsigned GFirst = G.First, GEnd = GFirst + G.Count;
    X = std::min(GEnd, E);
    if (GFirst < F) {
      if (GEnd > E)
        copyGroup(Old, E, GEnd);
      Groups[Old].Count = uint16_t(F - GFirst);
    } else if (GEnd > E) {
      G.First = uint16_t(E);
      G.Count = uint16_t(GEnd - E);
    } else {
      freeGroup(Old);
    }
  }
  uint16_t New = newGroup();
  Groups[New].setWritten(F, E - F, W);
  for (unsigned X = F; X < E; ++X)
    GroupOf[X] = New;
}

/// Finds the scoreboard waits instruction \p I needs -- a register it
/// reads or writes whose last writer is a variable-latency instruction not
/// yet waited for (RAW, WAW), a register it writes that an in-flight
/// instruction still reads late (WAR: stores, LDGSTS) -- and its issue
/// cycle: the earliest that keeps every fixed-latency dependency (RAW,
/// WAW, WAR by the latency model), its predecessor's blocking stall and,
/// for each required wait, 2 cycles after the setter.  One visit of each
/// unit it writes, then of each unit it reads, which also records the read
/// (the writes are recorded by recordWrites()).  \p In is op(I).  \p Waits
/// false: it waits for nothing (past an EXIT); \p N is then left empty.
void StallCompactor::Impl::issue(unsigned I, const OpView &In, Need &N,
                                 bool Waits) {
  if (I == 0) {
    T[I] = 0;
  } else {
    const OpView &Prev = Ops[I - 1]; // I <= Ops.size()
    unsigned Min = Lat.minStall(Prev);
    T[I] = T[I - 1] + (Conservative ? int64_t(MaxStall) : int64_t(Min));
    Reasons[I - 1] = Conservative ? StallReason::Conservative
                     : Min > 1    ? StallReason::ExecLatency
                                  : StallReason::MinIssue;
  }
  if (In.NeverExecutes) {
    N = Need();
    return;
  }
  const int64_t *TT = T.data();
  int64_t At = TT[I];
  auto NeedWrite = [&](int32_t W) {
    if (pending(W, true))
      N.add(Ops[W].Ctrl.WrSB, W);
  };
  for (const UnitRange &D : defs(In)) {
    uint8_t *Waw = Lat.wawRow(D.File, In.Class);
    uint8_t *War = Lat.warRow(D.File, In.Class);
    // Each group of the range once: its units' state is the same.
    for (unsigned X = D.First, E = X + D.Count; X < E;) {
      uint16_t Id = GroupOf[X];
      if (Id == NoGroup) {
        ++X;
        continue;
      }
      const Group &U = Groups[Id];
      X = U.First + U.Count;
      if (U.W.LastWrite >= 0) {
        if (U.W.Flags & WVariable)
          NeedWrite(U.W.LastWrite);
        else
          At = std::max(
              At, TT[U.W.LastWrite] +
                      int64_t(Lat.waw(Waw, U.W.WawKey, D.File, In.Class)));
      }
      for (int32_t L = U.LateHead; L >= 0; L = LatePool[L].second) {
        int32_t Q = LatePool[L].first;
        const sass::Control &C = Ops[Q].Ctrl;
        if (C.RdSB != NoSB && pending(Q, false))
          N.add(C.RdSB, Q);
        else if (C.WrSB != NoSB && pending(Q, true))
          N.add(C.WrSB, Q);
      }
      for (unsigned Bits = U.ReadClasses; Bits; Bits &= Bits - 1) {
        unsigned C = countTrailingZeros(Bits);
        At = std::max(At, TT[U.Readers[C]] + int64_t(Lat.war(War, C, D.File,
                                                    In.Class)));
      }
    }
  }
  unsigned Class = unsigned(In.Class);
  uint16_t ClassBit = uint16_t(1u << Class);
  bool LateVariable = In.Variable;
  for (const UnitRange &R : uses(In)) {
    bool Late = R.Late && LateVariable;
    for (unsigned X = R.First, E = X + R.Count; X < E;) {
      Group &U = Groups[isolate(X, E)];
      X = U.First + U.Count;
      if (U.W.LastWrite >= 0) {
        if (U.W.Flags & WVariable) {
          NeedWrite(U.W.LastWrite);
        } else {
          // The row only here: a use often meets no fixed-latency writer.
          uint8_t *Raw = Lat.rawRow(R.File, In.Class, R.Sub);
          At = std::max(At, TT[U.W.LastWrite] +
                                int64_t(Lat.raw(Raw, U.W.RawKey, R.File,
                                                In.Class, R.Sub)));
        }
      }
      if (Late) {
        LatePool.push_back({int32_t(I), U.LateHead});
        U.LateHead = int32_t(LatePool.size() - 1);
      }
      U.Readers[Class] = int32_t(I);
      U.ReadClasses |= ClassBit;
      U.LastRead = int32_t(I);
    }
  }
  if (At > T[I] && I > 0)
    Reasons[I - 1] = StallReason::Dependency;
  if (In.Kind == SpecialKind::Exit || In.Kind == SpecialKind::Branch ||
      In.Kind == SpecialKind::Barrier)
    scanPending(I, N);
  if (!Waits)
    N = Need();
  for (unsigned Bits = N.Required; Bits; Bits &= Bits - 1) {
    unsigned B = countTrailingZeros(Bits);
    if (T[N.Setter[B]] + int64_t(ScoreboardSetCycles) > At) {
      At = T[N.Setter[B]] + ScoreboardSetCycles;
      if (I > 0)
        Reasons[I - 1] = StallReason::ScoreboardSet;
    }
  }
  T[I] = At;
}

/// EXIT, BRA and BAR wait for what is in flight regardless of registers:
/// EXIT for everything, BRA for every register scoreboard (never for the
/// group commits, which DEPBAR counts), BAR for in-flight shared reads.
void StallCompactor::Impl::scanPending(unsigned I, Need &N) {
  SpecialKind K = op(I).Kind;
  for (unsigned B = 0; B < NumScoreboards; ++B)
    for (size_t E = Head[B]; E < Queue[B].size(); ++E) {
      const SBEntry &X = Queue[B][E];
      if (K == SpecialKind::Exit)
        N.add(B, X.Instr, false); // the seed's EXIT waits for everything
      else if (K == SpecialKind::Branch && X.IsRegister)
        N.add(B, X.Instr, false);
      // Another warp may overwrite the stage once past the barrier: this
      // warp's shared reads must be done.
      else if (K == SpecialKind::Barrier && X.IsShared)
        N.add(B, X.Instr);
    }
}

/// Scoreboards are counters: a wait releases every increment at least 2
/// cycles old (increments are queued in issue order, so a prefix);
/// DEPBAR.LE SBx, n all but the n youngest.  \p In is op(I).
void StallCompactor::Impl::applyWaits(unsigned I, const OpView &In,
                                      uint8_t Mask) {
  for (unsigned Bits = Mask; Bits; Bits &= Bits - 1) {
    unsigned B = countTrailingZeros(Bits);
    // An increment less than 2 cycles old may not be seen by the wait.
    const std::vector<SBEntry> &L = Queue[B];
    while (Head[B] < L.size() &&
           T[L[Head[B]].Instr] + int64_t(ScoreboardSetCycles) <= T[I])
      ++Head[B];
  }
  if (In.Kind == SpecialKind::WaitGroups && In.WaitSB < NumScoreboards) {
    // E: ptxas issues DEPBAR one cycle after LDGDEPBAR; the counter it
    // reads includes that group.
    uint32_t Size = uint32_t(Queue[In.WaitSB].size());
    if (Size - Head[In.WaitSB] > In.WaitCount)
      Head[In.WaitSB] = Size - In.WaitCount;
  }
}

uint8_t StallCompactor::Impl::allocate() const {
  // The seed waits on SB5 for its S2Rs; SB4 next.  A free one first, else
  // share the one whose youngest increment is the oldest (counters).
  static const uint8_t Pool[] = {5, 4};
  for (uint8_t B : Pool)
    if (Head[B] == Queue[B].size())
      return B;
  uint8_t Best = Pool[0];
  for (uint8_t B : Pool)
    if (Queue[B].back().Instr < Queue[Best].back().Instr)
      Best = B;
  return Best;
}

/// Takes instruction \p I's scoreboards by the plan in Schedule.h.
void StallCompactor::Impl::takeScoreboards(unsigned I) {
  OpView &In = Ops[I];
  // The input's choice among the shared SB4/SB5 is kept (the seed puts its
  // three S2Rs on SB5); the other scoreboards follow the plan.
  uint8_t GivenWr = In.Ctrl.WrSB, GivenRd = In.Ctrl.RdSB;
  auto Pick = [&](uint8_t Given) {
    return Given == 4 || Given == 5 ? Given : allocate();
  };
  In.Ctrl.WrSB = NoSB;
  In.Ctrl.RdSB = NoSB;
  if (In.NeverExecutes || !In.Variable)
    return;
  bool Shared = In.Kind == SpecialKind::SharedMatrixLoad ||
                In.Kind == SpecialKind::SharedLoad;
  auto Push = [&](uint8_t B, bool Write, bool Reg) {
    (Write ? WrPos : RdPos)[I] = int32_t(Queue[B].size());
    Queue[B].push_back({int32_t(I), Reg, Shared && Write});
    LastSetter[B] = int32_t(I);
    (Write ? In.Ctrl.WrSB : In.Ctrl.RdSB) = B;
  };
  if (In.Kind == SpecialKind::CommitGroup) {
    Push(CommitSB, true, false);
    return;
  }
  if (In.Kind == SpecialKind::AsyncCopy) {
    if (In.HasLateUses)
      Push(CopyReadSB, false, true);
    return;
  }
  if (In.HasDefs) {
    uint8_t B = In.Kind == SpecialKind::SharedMatrixLoad ? FragmentSB
                : In.Class == InstrClass::DecoupledAgu   ? LoadSB
                                                         : Pick(GivenWr);
    Push(B, true, true);
  }
  if (In.NeedsReadSB && In.HasLateUses)
    Push(Pick(GivenRd), false, true);
}

/// The writes of instruction \p I (its reads are recorded by issue()):
/// each unit's readers since start again.
void StallCompactor::Impl::recordWrites(unsigned I) {
  const OpView &In = Ops[I];
  if (In.NeverExecutes)
    return;
  WriteState W;
  W.LastWrite = int32_t(I);
  W.WClass = In.Class;
  W.Flags = In.Variable ? WVariable : 0;
  uint8_t Key = uint8_t(unsigned(In.Class) * 2);
  W.WawKey = Key | (In.Predicated ? 1 : 0);
  for (const UnitRange &D : defs(In)) {
    W.RawKey = Key | (D.Sub ? 1 : 0);
    writeGroup(D.First, D.First + D.Count, W);
  }
}

void StallCompactor::Impl::step(unsigned I, bool &Exited) {
  // After an unconditional EXIT nothing runs (ptxas's BRA to itself): no
  // waits (the dependencies still space it).
  Need N;
  OpView &In = Ops[I];
  issue(I, In, N, !Exited);
  Exited |= In.Kind == SpecialKind::Exit && !In.Predicated && !In.NeverExecutes;
  Required[I] = N.Required;
  uint8_t Mask = N.Mask;
  if (Conservative && !In.NeverExecutes && !Exited)
    Mask = (1u << NumScoreboards) - 1;
  In.Ctrl.WaitMask = Mask;
  applyWaits(I, In, Mask);
  takeScoreboards(I);
  recordWrites(I);
}

/// Drain: register scoreboards still in flight are waited for by a NOP.
void StallCompactor::Impl::drain(CompactResult &R) {
  Need N;
  for (unsigned B = 0; B < NumScoreboards; ++B)
    for (size_t E = Head[B]; E < Queue[B].size(); ++E)
      if (Queue[B][E].IsRegister)
        N.add(B, Queue[B][E].Instr);
  if (!N.Mask)
    return;
  unsigned I = Ops.size();
  issue(I, Nop, N, true); // no units: the predecessor's stall and the setters
  // For the next piece, not for a consumer here: not mutated.
  Required[I] = 0;
  if (Reasons[I - 1] == StallReason::ScoreboardSet)
    Reasons[I - 1] = StallReason::Drain;
  Nop.Ctrl.WaitMask = N.Mask;
  applyWaits(I, Nop, N.Mask);
  Drained = R.Drained = true;
}

/// The last instruction's delay: every fixed-latency result ready, every
/// scoreboard set at least 2 cycles before the next piece may wait on it.
int64_t StallCompactor::Impl::endCycle(bool Drain, StallReason &Why) {
  unsigned Last = Ops.size() - (Drained ? 0 : 1);
  unsigned Min = Lat.minStall(op(Last));
  int64_t End = T[Last] + (Conservative ? int64_t(MaxStall) : int64_t(Min));
  Why = Conservative ? StallReason::Conservative
        : Min > 1    ? StallReason::ExecLatency
                     : StallReason::MinIssue;
  if (!Drain)
    return End;
  auto Bound = [&](int64_t C) {
    if (C > End) {
      End = C;
      Why = StallReason::Drain;
    }
  };
  // Every unit the piece wrote or read: its last fixed-latency writer's
  // worst spacing (by class and file) and its youngest reader's worst WAR
  // (a maximum: the order of the units does not matter; the units of a
  // group have the same state).
  for (const Group &U : makeArrayRef(Groups.data(), NumGroups)) {
    if (!U.Count || (U.W.LastWrite < 0 && !U.ReadClasses))
      continue;
    RegFile F = fileOf(U.First);
    if (U.W.LastWrite >= 0 && !(U.W.Flags & WVariable))
      Bound(T[U.W.LastWrite] + int64_t(Lat.worst(U.W.WClass, F)));
    if (U.ReadClasses)
      Bound(T[U.LastRead] + int64_t(Lat.worstWar(F)));
  }
  for (unsigned B = 0; B < NumScoreboards; ++B)
    if (LastSetter[B] >= 0)
      Bound(T[LastSetter[B]] + ScoreboardSetCycles);
  return End;
}

/// Each instruction's stall is the distance to the next issue (the whole
/// delay in Cycles; over 15, fillers continue it).
void StallCompactor::Impl::finish(int64_t End, StallReason EndWhy,
                                  CompactResult &R) {
  size_t N = Ops.size() + (R.Drained ? 1 : 0);
  R.Cycles.resize(N);
  R.Reasons.assign(Reasons.begin(), Reasons.begin() + N);
  R.RequiredWaits.assign(Required.begin(), Required.begin() + N);
  R.Reasons[N - 1] = EndWhy;
  const int64_t *TT = T.data();
  uint32_t *Cycles = R.Cycles.data();
  auto Set = [&](size_t I, OpView &V, int64_t Next) {
    Cycles[I] = uint32_t(Next - TT[I]);
    V.Ctrl.Stall = uint8_t(std::min<uint32_t>(Cycles[I], MaxStall));
    // SASS_FACTS 1.2 (E): ptxas leaves bit 109 = 1 (Yield = false) on most
    // instructions and clears it (Yield) on DEPBAR and on pad NOPs.
    // A stall of 0 or 12..15 is defined only with yield, as ptxas writes it
    // (sass::defineControl).
    V.Ctrl.Yield =
        V.Kind == SpecialKind::WaitGroups || V.Kind == SpecialKind::Nop;
    V.Ctrl = sass::defineControl(V.Ctrl);
  };
  for (size_t I = 0; I + 1 < N; ++I) // a view, followed by one
    Set(I, Ops[I], TT[I + 1]);
  Set(N - 1, R.Drained ? Nop : Ops[N - 1], End);
  if (R.Drained)
    R.DrainCtrl = Nop.Ctrl;
  // Each increment queued is a WrSB or RdSB that takeScoreboards() set.
  R.ScoreboardsSet = 0;
  for (const std::vector<SBEntry> &Q : Queue)
    R.ScoreboardsSet += unsigned(Q.size());
}

Error StallCompactor::Impl::run(const OpSeq &S, MutableArrayRef<OpView> P,
                                const CompactOptions &O, CompactResult &R) {
  if (Error E = checkCommits(P))
    return E;
  UseUnits = S.Uses.data();
  DefUnits = S.Defs.data();
  Ops = P;
  Conservative = O.Conservative;
  Lat.reset(LatencyModel::get(O.Target));
  begin(P.size());
  R.Drained = Drained = false;
  bool Exited = false; // an unconditional EXIT so far
  for (unsigned I = 0; I < P.size(); ++I)
    step(I, Exited);
  // Nothing runs after an unconditional EXIT: no drain.
  bool Drain = O.Drain && !Exited;
  if (Drain)
    drain(R);
  StallReason EndWhy;
  int64_t End = endCycle(Drain, EndWhy);
  finish(End, EndWhy, R);
  return Error::success();
}

Error compactStalls(InstrSeq &P, const CompactOptions &Opts,
                    std::vector<CompactInfo> *Info) {
  std::vector<CompactInfo> Local;
  std::vector<CompactInfo> &I = Info ? *Info : Local;
  if (P.empty()) {
    I.clear();
    return Error::success();
  }
  OpSeq Seq;
  for (const SchedInstr &In : P)
    appendView(In, Seq);
  StallCompactor C;
  CompactResult R;
  if (Error E = C.run(Seq, Seq.Ops, Opts, R))
    return E;
  for (size_t K = 0; K < P.size(); ++K)
    P[K].Ctrl = Seq.Ops[K].Ctrl;
  if (R.Drained) {
    P.push_back(nopView());
    P.back().Ctrl = R.DrainCtrl;
  }
  I.assign(P.size(), CompactInfo());
  for (size_t K = 0; K < P.size(); ++K) {
    I[K].Reason = R.Reasons[K];
    I[K].Cycles = R.Cycles[K];
    I[K].RequiredWaits = R.RequiredWaits[K];
    forEachFillerStall(R.Cycles[K],
                       [&](uint8_t S) { I[K].FillerStalls.push_back(S); });
  }
  return Error::success();
}

void insertFillers(InstrSeq &P, std::vector<CompactInfo> &Info) {
  InstrSeq Out;
  std::vector<CompactInfo> OutInfo;
  for (unsigned I = 0; I < P.size(); ++I) {
    Out.push_back(P[I]);
    OutInfo.push_back(I < Info.size() ? Info[I] : CompactInfo());
    if (I >= Info.size())
      continue;
    for (uint8_t S : Info[I].FillerStalls) {
      SchedInstr F = nopView();
      F.NeverExecutes = true;
      F.Ctrl.Stall = S;
      F.Ctrl.Yield = false;
      F.Ctrl = sass::defineControl(F.Ctrl);
      F.Loc = P[I].Loc;
      Out.push_back(F);
      OutInfo.push_back(CompactInfo());
    }
  }
  P = std::move(Out);
  Info = std::move(OutInfo);
}

} // namespace sched
} // namespace tp

//===- The tp-compact-stalls pass -----------------------------------------===//
//
// tp-compact-stalls (mir -> mir): every piece of every function is
// finished on its own (pieces compose: see Schedule.h): stalls, yield,
// scoreboards and wait masks recomputed; reuse flags kept.  NOPs and
// never-executing fillers of the input are dropped first (their labels
// move to the next instruction) and made again where needed: a delay over
// 15 cycles continues in `@!UPT UIADD3 URZ, URZ, URZ, URZ` fillers as ptxas
// writes them (SASS_FACTS 1.2, E), `@!PT NOP` when the instruction set has
// no UIADD3 (`@!UPT` is the uniform spelling of the same guard bits); a
// NOP waits for register scoreboards still in flight at a piece's end.
// Options:
//   mode=compact       the smallest fields (default)
//   mode=conservative  every instruction waits on every scoreboard and
//                      stalls at least 15 cycles (NAK's `serial` idea)
//===----------------------------------------------------------------------===//

#define DEBUG_TYPE "tp-compact-stalls"

ALWAYS_ENABLED_STATISTIC(NumStallCyclesRemoved,
                         "Stall cycles removed (input minus output)");
ALWAYS_ENABLED_STATISTIC(NumWaitsPlaced, "Scoreboard waits placed");
ALWAYS_ENABLED_STATISTIC(NumScoreboardsSet,
                         "Scoreboards set (read or write)");
ALWAYS_ENABLED_STATISTIC(NumFillers,
                         "Never-executing fillers for delays over 15");
ALWAYS_ENABLED_STATISTIC(NumDrainNops, "NOPs waiting at a piece's end");

namespace tp {
namespace {

using sched::OpView;
using sched::SpecialKind;

class CompactStallsPass : public Pass {
public:
  std::vector<PassOption> getOptions() const override {
    return {{"mode", "compact",
             "compact: the smallest stalls, scoreboards and waits; "
             "conservative: stall >= 15 and every wait on every instruction"}};
  }

  Error run(std::unique_ptr<IRUnit> &IR, PassContext &Ctx) override {
    StringRef Mode = getOption("mode");
    if (Mode != "compact" && Mode != "conservative")
      return makeError("tp-compact-stalls: option 'mode' expects compact or "
                       "conservative, found '" +
                       Mode + "'");
    sched::CompactOptions Opts;
    Opts.Conservative = Mode == "conservative";
    for (mir::Function &F : static_cast<mir::MachineUnit &>(*IR).M.Functions)
      if (Error E = compactFunction(F, Opts, Ctx))
        return E;
    return Error::success();
  }

private:
  /// The views of one piece: Seq.Ops[Begin, End).
  struct PieceViews {
    size_t Begin = 0, End = 0;
    bool Dropped = false; ///< some NOP or filler of the input was dropped
    int64_t StallsIn = 0; ///< the input's stalls, dropped ones included
  };
  /// What compactPiece() counts of a piece's result in its one loop over
  /// it: the statistics and where fillers go.
  struct Tally {
    int64_t StallsOut = 0;
    unsigned Waits = 0, Scoreboards = 0, Fillers = 0, Drains = 0;
    bool Inner = false; ///< fillers before the piece's last instruction
    bool Tail = false;  ///< fillers after it, or a drain NOP
    size_t Size = 0;    ///< the instructions of the piece made
    void count(const sass::Control &C) {
      StallsOut += C.Stall;
      if (C.WaitMask) // most have none; no popcount call for them
        Waits += countPopulation(C.WaitMask);
    }
  };

  Error compactFunction(mir::Function &F, sched::CompactOptions Opts,
                        PassContext &Ctx);
  Error describePiece(const mir::Piece &P, PieceViews &V);
  Error compactPiece(mir::Piece &P, const PieceViews &V,
                     const sched::CompactOptions &Opts);
  Error makeTemplates();
  void rebuild(mir::Piece &P, const PieceViews &V, size_t Size);
  void appendTail(std::vector<mir::MInstr> &Out, size_t Last);
  Tally tallyPiece(mir::Piece &P, const PieceViews &V);
  static void countDecisions(const Tally &C, int64_t StallsIn);

  sched::FormDescriber Forms;
  sched::OpSeq Seq;
  sched::StallCompactor Compactor;
  sched::CompactResult Result;
  /// A run of kept instructions (described by one appendRun()): its first
  /// view in Seq and that view's instruction's index in its piece; the
  /// run's views are the instructions that follow it, in order.
  struct KeptRun {
    size_t View;
    uint32_t Instr;
  };
  /// Every run of the function, in order of their views.
  std::vector<KeptRun> Runs;
  /// Labels of dropped instructions moved on: (view, label).
  std::vector<std::pair<size_t, const mir::LabelName *>> Moves;
  std::vector<PieceViews> Pieces;
  bool OutOfRange = false; ///< a GPR operand past RZ (virtual registers)
  /// The drain NOP and the filler, parsed once (control fields default).
  Optional<mir::MInstr> NopTemplate, FillerTemplate;
};

/// Every piece of \p F is described first (so that a virtual register
/// anywhere is reported before anything changes), then compacted in order;
/// errors come in the order the pieces would give them one by one.
Error CompactStallsPass::compactFunction(mir::Function &F,
                                         sched::CompactOptions Opts,
                                         PassContext &Ctx) {
  Seq.clear();
  Runs.clear();
  Moves.clear();
  // Room for the whole function at once (about three use ranges and one def
  // range an instruction): no vector grows through copies of itself.
  size_t Instrs = 0;
  for (const mir::Piece &P : F.Pieces)
    Instrs += P.Instrs.size();
  Seq.Ops.reserve(Instrs);
  Seq.Uses.reserve(3 * Instrs + 8);
  Seq.Defs.reserve(Instrs + 8);
  Pieces.assign(F.Pieces.size(), PieceViews());
  Forms.resetOutOfRangeGPR();
  OutOfRange = false;
  Error Failed = Error::success();
  size_t FailPiece = F.Pieces.size();
  for (size_t K = 0; K < F.Pieces.size(); ++K)
    if (Error E = describePiece(F.Pieces[K], Pieces[K])) {
      Failed = std::move(E);
      FailPiece = K;
      break;
    }
  // Only a register number past RZ can be virtual: the full check (and its
  // message) only then, or when a piece failed before the scan ended.
  if (OutOfRange || Forms.sawOutOfRangeGPR() || FailPiece < F.Pieces.size())
    if (Error E = mir::requirePhysicalRegs(F, Ctx.SM, "tp-compact-stalls")) {
      consumeError(std::move(Failed));
      return E;
    }
  Expected<sass::Target> T = sched::targetOf(F);
  if (!T) {
    consumeError(std::move(Failed));
    return T.takeError();
  }
  Opts.Target = *T;
  if (FailPiece > 0)
    if (Error E = makeTemplates()) {
      consumeError(std::move(Failed));
      return E;
    }
  for (size_t K = 0; K < FailPiece; ++K)
    if (Error E = compactPiece(F.Pieces[K], Pieces[K], Opts)) {
      consumeError(std::move(Failed));
      return E;
    }
  if (Failed)
    return Failed;
  return F.resolveBranches();
}

/// The views of \p P's real instructions (NOPs and fillers dropped, their
/// labels moved on) into Seq.
Error CompactStallsPass::describePiece(const mir::Piece &P, PieceViews &V) {
  V.Begin = Seq.Ops.size();
  const mir::LabelName *Label = nullptr; // of a dropped instruction
  // By pointer: an index would divide by sizeof(MInstr) for size() each time.
  const mir::MInstr *Instrs = P.Instrs.data();
  // The kept instructions are described a run at a time (one appendRun()
  // from RunBegin to the instruction before a dropped one, or to the end),
  // before any error of a later instruction: errors keep their order.
  const mir::MInstr *RunBegin = Instrs;
  auto Flush = [&](const mir::MInstr *RunEnd) -> Error {
    size_t N = size_t(RunEnd - RunBegin);
    if (N == 0)
      return Error::success();
    Runs.push_back({Seq.Ops.size(), uint32_t(RunBegin - Instrs)});
    Error E = Forms.appendRun(&RunBegin->I, sizeof(mir::MInstr), N, Seq);
    RunBegin = RunEnd;
    return E;
  };
  auto LabelError = [&](const mir::MInstr *It, const Twine &Msg) -> Error {
    if (Error E = Flush(It))
      return E;
    return makeError("piece '" + Twine(P.Name) + "': " + Msg);
  };
  int64_t StallsIn = 0;
  const mir::MInstr *End = Instrs + P.Instrs.size();
  for (const mir::MInstr *It = Instrs; It != End; ++It) {
    const mir::MInstr &MI = *It;
    StallsIn += MI.I.Ctrl.Stall;
    if (Forms.isFillerOrNop(MI.I) && !MI.isBranch()) {
      if (Error E = Flush(It))
        return E;
      RunBegin = It + 1;
      V.Dropped = true;
      OutOfRange |= Forms.hasOutOfRangeGPR(MI.I);
      if (!MI.Label.empty()) {
        if (Label)
          return makeError("piece '" + Twine(P.Name) + "': labels ^" +
                           Label->str() + " and ^" + MI.Label.str() +
                           " on one instruction");
        Label = &MI.Label;
      }
      continue;
    }
    if (Label) {
      if (!MI.Label.empty())
        return LabelError(It, "labels ^" + Label->str() + " and ^" +
                                  MI.Label.str() + " on one instruction");
      // This instruction's view follows those of the run so far.
      Moves.push_back({Seq.Ops.size() + size_t(It - RunBegin), Label});
      Label = nullptr;
    }
  }
  if (Error E = Flush(End))
    return E;
  V.StallsIn = StallsIn;
  if (Label)
    return makeError("piece '" + Twine(P.Name) + "': label ^" +
                     Label->str() + " on no instruction");
  V.End = Seq.Ops.size();
  return Error::success();
}

Error CompactStallsPass::makeTemplates() {
  if (NopTemplate)
    return Error::success();
  NopTemplate = sched::drainNopInstr();
  FillerTemplate = sched::fillerInstr();
  // The drain NOP's view from the template (not makeInstr("NOP")'s search).
  sched::OpSeq NopSeq;
  if (Error E = Forms.append(NopTemplate->I, NopSeq))
    return E;
  Compactor.setDrainNop(NopSeq.Ops.front());
  return Error::success();
}

/// Appends to \p Out the fillers of view \p Last of the piece (its last),
/// then the drain NOP and its fillers, if any.
void CompactStallsPass::appendTail(std::vector<mir::MInstr> &Out,
                                   size_t Last) {
  auto Fillers = [&](size_t K) {
    sched::forEachFillerStall(Result.Cycles[K], [&](uint8_t S) {
      sass::Control C;
      C.Stall = S;
      C.Yield = false;
      C = sass::defineControl(C);
      Out.push_back(*FillerTemplate);
      sass::applyControl(Out.back().I, C);
    });
  };
  Fillers(Last);
  if (!Result.Drained)
    return;
  Out.push_back(*NopTemplate);
  sass::applyControl(Out.back().I, Result.DrainCtrl);
  Fillers(Last + 1);
}

/// Builds \p P anew: its real instructions (moved) with their fields, the
/// labels of dropped ones, fillers after the instructions that need them.
void CompactStallsPass::rebuild(mir::Piece &P, const PieceViews &V,
                                size_t Size) {
  size_t N = V.End - V.Begin;
  std::vector<mir::MInstr> Out;
  Out.reserve(Size);
  auto Move = Moves.begin();
  while (Move != Moves.end() && Move->first < V.Begin)
    ++Move;
  auto Run = Runs.begin(); // the last that starts at or before the view
  for (size_t K = 0; K < N; ++K) {
    size_t View = V.Begin + K;
    while (Run + 1 != Runs.end() && (Run + 1)->View <= View)
      ++Run;
    Out.push_back(std::move(P.Instrs[Run->Instr + (View - Run->View)]));
    Out.back().I.Ctrl = Seq.Ops[V.Begin + K].Ctrl;
    if (Move != Moves.end() && Move->first == V.Begin + K) {
      Out.back().Label = *Move->second;
      ++Move;
    }
    if (K + 1 < N)
      sched::forEachFillerStall(Result.Cycles[K], [&](uint8_t S) {
        sass::Control C;
        C.Stall = S;
        C.Yield = false;
        C = sass::defineControl(C);
        Out.push_back(*FillerTemplate);
        sass::applyControl(Out.back().I, C);
      });
  }
  appendTail(Out, N - 1);
  P.Instrs = std::move(Out);
}

Error CompactStallsPass::compactPiece(mir::Piece &P, const PieceViews &V,
                                      const sched::CompactOptions &Opts) {
  size_t N = V.End - V.Begin;
  if (N == 0) { // only NOPs and fillers
    P.Instrs.clear();
    Result = sched::CompactResult();
    countDecisions(Tally(), V.StallsIn);
    return Error::success();
  }
  MutableArrayRef<OpView> Ops(Seq.Ops.data() + V.Begin, N);
  if (Error E = Compactor.run(Seq, Ops, Opts, Result))
    return E;
  Tally C = tallyPiece(P, V);
  if (C.Inner || C.Tail)
    if (Error E = makeTemplates())
      return E;
  if (V.Dropped || C.Inner)
    rebuild(P, V, C.Size);
  else if (C.Tail) // the fields are in place: what follows the last one
    appendTail(P.Instrs, N - 1);
  countDecisions(C, V.StallsIn);
  return Error::success();
}

/// One loop over the result of piece \p P (views \p V): the statistics,
/// where fillers go and, when no instruction of the input was dropped (the
/// views are then the piece's instructions in order), each instruction's
/// fields written back in place.  A NOP or a never-executing view (a kept
/// `@!PT` branch) counts as sched::isFillerOrNop() would.
CompactStallsPass::Tally CompactStallsPass::tallyPiece(mir::Piece &P,
                                                       const PieceViews &V) {
  Tally C;
  size_t N = V.End - V.Begin;
  const OpView *Ops = Seq.Ops.data() + V.Begin;
  mir::MInstr *In = V.Dropped ? nullptr : P.Instrs.data();
  C.Size = Result.Cycles.size(); // the views and the drain NOP
  C.Scoreboards = Result.ScoreboardsSet;
  // Fillers after step K (a view, or the drain NOP at N).
  auto Fillers = [&](size_t K) {
    sched::forEachFillerStall(Result.Cycles[K], [&](uint8_t S) {
      C.StallsOut += S; // a stall each, no other field
      ++C.Fillers;
      ++C.Size;
    });
    (K + 1 < N ? C.Inner : C.Tail) = true;
  };
  for (size_t K = 0; K < N; ++K) {
    const OpView &Op = Ops[K];
    C.count(Op.Ctrl);
    if (In)
      In[K].I.Ctrl = Op.Ctrl;
    if (LLVM_UNLIKELY(Op.Kind == SpecialKind::Nop || Op.NeverExecutes))
      ++(Op.Kind == SpecialKind::Nop && !Op.GuardNeg ? C.Drains : C.Fillers);
    if (LLVM_UNLIKELY(Result.Cycles[K] > sched::MaxStall))
      Fillers(K);
  }
  if (Result.Drained) {
    if (Result.Cycles[N] > sched::MaxStall)
      Fillers(N);
    C.count(Result.DrainCtrl);
    ++C.Drains;
    C.Tail = true;
  }
  return C;
}

/// The statistics of one piece (\p C) whose input's stalls summed to
/// \p StallsIn.
void CompactStallsPass::countDecisions(const Tally &C, int64_t StallsIn) {
  NumWaitsPlaced += C.Waits;
  NumScoreboardsSet += C.Scoreboards;
  NumFillers += C.Fillers;
  NumDrainNops += C.Drains;
  if (StallsIn > C.StallsOut)
    NumStallCyclesRemoved += StallsIn - C.StallsOut;
}

} // namespace

std::unique_ptr<Pass> createCompactStallsPass() {
  return std::make_unique<CompactStallsPass>();
}

} // namespace tp
