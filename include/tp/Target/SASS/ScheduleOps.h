//===- ScheduleOps.h - Flat views for the compaction walk -------*- C++ -*-===//
///
/// \file
/// The form of a straight run of instructions that tp-compact-stalls walks:
/// one fixed-size OpView per instruction and its register units in two
/// flat arrays of the sequence (uses, defs), so that describing and
/// compacting a piece allocates nothing per instruction once the buffers
/// have grown, and the walk reads each register unit by its index
/// (ScheduleUnits.h) instead of expanding register ranges again.
///
///  * FormDescriber appends the view of an sass::Instruction, describing
///    each form once (on its first use) from its td data: the same
///    classification as describe(), which is built on the same code
///    (SchedDescribe.cpp), so that the two cannot disagree.
///  * appendView() appends the view of a SchedInstr (hand-made sequences,
///    compactStalls()).
///  * StallCompactor runs compactStalls()' walk on an OpView range, keeping
///    its tables (per register group, per scoreboard, the latency lookups)
///    from one run to the next.
///
//===----------------------------------------------------------------------===//
#ifndef TP_TARGET_SASS_SCHEDULEOPS_H
#define TP_TARGET_SASS_SCHEDULEOPS_H

#include "tp/Target/SASS/Schedule.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Compiler.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace tp {
namespace sched {

/// Consecutive register units (units::unitOf) an instruction reads or
/// writes: the registers of a RegRange that have a unit.
struct UnitRange {
  uint16_t First = 0; ///< the first unit
  uint16_t Count = 0;
  RegFile File = RegFile::GPR;
  /// A use: its ReadSlot (general registers) or PredRead (predicates).  A
  /// def: 1 when its unit is the low register of an IMAD.WIDE pair
  /// (units::isLowHalf); an IMAD.WIDE's defs are one unit each.
  uint8_t Sub = 0;
  bool Late = false; ///< a use read after issue (RegUse::Late)
};

/// The scheduling view of one instruction, its units in its OpSeq.
struct OpView {
  InstrClass Class = InstrClass::CoupledALU;
  SpecialKind Kind = SpecialKind::None;
  bool Variable = false;      ///< isVariable(Class)
  bool Predicated = false;    ///< SchedInstr::Predicated
  bool NeverExecutes = false; ///< SchedInstr::NeverExecutes
  bool NeedsReadSB = false;   ///< SchedInstr::NeedsReadSB
  bool HasDefs = false;       ///< some def range (SchedInstr::Defs non-empty)
  bool HasLateUses = false;   ///< some use is read late
  bool GuardNeg = false;      ///< sass::Instruction::GuardNeg
  uint8_t WaitSB = 0, WaitCount = 0; ///< DEPBAR.LE SB<WaitSB>, <WaitCount>
  /// In: the given fields (the walk keeps a given SB4/SB5 and the reuse
  /// flags); out: the compacted ones.
  sass::Control Ctrl;
  uint32_t UseBegin = 0, DefBegin = 0; ///< into OpSeq::Uses / OpSeq::Defs
  uint16_t NumUses = 0, NumDefs = 0;
};

/// A sequence of views and their units.  clear() keeps the buffers.
struct OpSeq {
  std::vector<OpView> Ops;
  std::vector<UnitRange> Uses, Defs;

  void clear() {
    Ops.clear();
    Uses.clear();
    Defs.clear();
  }
  llvm::ArrayRef<UnitRange> uses(const OpView &V) const {
    return llvm::makeArrayRef(Uses.data() + V.UseBegin, V.NumUses);
  }
  llvm::ArrayRef<UnitRange> defs(const OpView &V) const {
    return llvm::makeArrayRef(Defs.data() + V.DefBegin, V.NumDefs);
  }
};

/// Appends the view of \p S (the units of its ranges) to \p Seq.
void appendView(const SchedInstr &S, OpSeq &Seq);

/// Describes sass::Instructions into an OpSeq; each form is described once,
/// on first use, and kept.  Not shared between threads.
class FormDescriber {
public:
  FormDescriber();
  ~FormDescriber();
  FormDescriber(const FormDescriber &) = delete;
  FormDescriber &operator=(const FormDescriber &) = delete;

  /// Appends the view of \p I to \p Seq: what describe(I) gives, as units.
  /// Errors as describe() does (a form whose schedule class the latency
  /// model does not know); \p Seq is then unchanged.
  llvm::Error append(const sass::Instruction &I, OpSeq &Seq);
  /// append() of \p N instructions in a row, the first at \p First and
  /// each \p Stride bytes after the one before (the sass::Instruction of
  /// consecutive mir::MInstrs): one call for a run of a piece.  On an
  /// error, the views of the instructions before the failing one stay.
  llvm::Error appendRun(const sass::Instruction *First, size_t Stride, size_t N,
                        OpSeq &Seq);
  /// describe(I), each form's td data read once.
  llvm::Expected<SchedInstr> describe(const sass::Instruction &I);
  /// The special kind of form \p Op (from its td mnemonic).
  SpecialKind kindOf(sass::Opcode Op);
  /// Whether \p I is a NOP or never executes (guard !PT / !UPT).  Inline:
  /// the pass asks it of every instruction.
  bool isFillerOrNop(const sass::Instruction &I) {
    if (I.Guard == sass::PT && I.GuardNeg)
      return true;
    unsigned Op = unsigned(I.Op);
    if (LLVM_LIKELY(Op < Slots.size() && Slots[Op]))
      return Slots[Op] & 1;
    return isNopForm(I.Op); // the form's first use
  }
  /// Whether a general-register operand (GPR, memory base) of \p I holds a
  /// number past RZ (e.g. a virtual register).  append() records the same
  /// in sawOutOfRangeGPR().
  bool hasOutOfRangeGPR(const sass::Instruction &I);
  bool sawOutOfRangeGPR() const { return OutOfRange; }
  void resetOutOfRangeGPR() { OutOfRange = false; }

  struct Form; ///< SchedDescribe.cpp

private:
  const Form &formOf(sass::Opcode Op);
  LLVM_ATTRIBUTE_NOINLINE const Form &addForm(sass::Opcode Op);
  bool isNopForm(sass::Opcode Op);
  /// By opcode: 0 not described yet, else (its index in Forms + 1) * 2,
  /// plus 1 for a NOP form.  One 2-byte entry a form (1,024 forms): one
  /// buffer to clear on first use, not an index and a NOP table.
  std::vector<uint16_t> Slots;
  std::vector<std::unique_ptr<Form>> Forms;
  bool OutOfRange = false;
};

/// What StallCompactor::run() decided, one entry per view of the range
/// and, when the piece needed one, a last one for the drain NOP.
struct CompactResult {
  std::vector<uint32_t> Cycles; ///< CompactInfo::Cycles
  std::vector<StallReason> Reasons;
  std::vector<uint8_t> RequiredWaits;
  bool Drained = false;    ///< a drain NOP follows the range
  sass::Control DrainCtrl; ///< its control fields
  /// The scoreboards the views took: how many of their WrSB and RdSB are set.
  unsigned ScoreboardsSet = 0;
};

/// compactStalls()' walk (CompactStalls.cpp) on views, with its tables
/// kept between runs.  Not shared between threads.
class StallCompactor {
public:
  StallCompactor();
  ~StallCompactor();
  StallCompactor(const StallCompactor &) = delete;
  StallCompactor &operator=(const StallCompactor &) = delete;

  /// compactStalls() on \p Ops (units in \p Seq): sets each view's Ctrl
  /// (stall, yield, scoreboards, waits; reuse kept) and fills \p R.  The
  /// same errors as compactStalls().  \p Ops must not be empty.
  llvm::Error run(const OpSeq &Seq, llvm::MutableArrayRef<OpView> Ops,
                  const CompactOptions &Opts, CompactResult &R);

  /// The class and kind of the drain NOP that run() may append are those
  /// of \p V (its control fields are the default ones), not of
  /// makeInstr("NOP"), which looks the form up among every td form by name:
  /// the pass gives the view of the NOP it appends.
  void setDrainNop(const OpView &V);

  class Impl;

private:
  std::unique_ptr<Impl> State;
};

/// The stalls of the fillers that follow an instruction whose delay to the
/// next issue is \p Cycles (CompactInfo::FillerStalls): none up to 15, then
/// 15 each and the rest.
template <typename Fn> void forEachFillerStall(unsigned Cycles, Fn F) {
  unsigned Rest = Cycles > MaxStall ? Cycles - MaxStall : 0;
  while (Rest > 0) {
    unsigned S = Rest < MaxStall ? Rest : MaxStall;
    F(uint8_t(S));
    Rest -= S;
  }
}

} // namespace sched
} // namespace tp

#endif // TP_TARGET_SASS_SCHEDULEOPS_H
