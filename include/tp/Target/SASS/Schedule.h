//===- Schedule.h - Stall compaction and schedule verification --*- C++ -*-===//
///
/// \file
/// The algorithms behind tp-compact-stalls and tp-verify-schedule, on a
/// target-neutral view of an instruction (SchedInstr) so that they run on a
/// piece of machine IR, on a decoded cubin or on a hand-built sequence.
/// describe() (SchedDescribe.cpp) builds the view of an sass::Instruction
/// from its td-generated InstrInfo.
///
/// Control fields (SASS_FACTS 1.2): `stall` = cycles before the next issue;
/// a variable-latency instruction increments its write scoreboard (released
/// when its results land) and/or its read scoreboard (released when its
/// late-read sources have been read); bit i of `wait` holds the instruction
/// until scoreboard i is zero.  Scoreboards are counters: one wait covers
/// every instruction on that scoreboard issued before it.  DEPBAR.LE SBx, n
/// waits until at most n are outstanding on SBx (the n youngest).
///
/// Scoreboard plan (the seed's, TiledProductSM86.seed.txt):
///   SB0  LDGDEPBAR group commits, counted by DEPBAR.LE SB0, n
///   SB1  LDSM fragments
///   SB2  LDG (the residual's loads) and other global/shared loads
///   SB3  LDGSTS source reads (read scoreboard)
///   SB5, SB4  everything else (S2R, stores' reads, LDC, ...), first free
///
/// Timing of waits (N calc_delays): a wait sees an increment only when it
/// issues at least 2 cycles after the instruction that made it; an earlier
/// wait leaves that instruction in flight (both walks model it so).  (NB:
/// SASS_FACTS 2.5 words this rule the other way round; NAK's code bounds
/// the setter 2 cycles before its next waiter.)  DEPBAR sees every commit
/// (ptxas issues it 1 cycle after LDGDEPBAR, E).
///
/// Required and policy waits: a wait protecting a dependency the verifier
/// checks (a register, a shared read before BAR) is *required*: it bounds
/// the issue cycle and the mutation test drops it.  EXIT waiting for
/// everything and BRA for every register scoreboard are policy (the seed's
/// and NAK's), as is the drain NOP's wait: set, not mutated.
///
/// Pieces compose: a piece assumes nothing of its predecessor but that it
/// was drained, and drains itself: at its end every fixed-latency result is
/// ready for any consumer (the boundary latency, worst*() of the model) and
/// every register scoreboard has been waited on.  Only the group commits
/// (memory, not registers) stay in flight across pieces; DEPBAR counts them.
///
//===----------------------------------------------------------------------===//
#ifndef TP_TARGET_SASS_SCHEDULE_H
#define TP_TARGET_SASS_SCHEDULE_H

#include "tp/Target/SASS/LatencyModel.h"
#include "tp/Target/SASS/SASS.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/SMLoc.h"

#include <string>
#include <vector>

namespace llvm {
class SourceMgr;
class raw_ostream;
}

namespace tp {
namespace sched {

enum class RegFile : uint8_t { GPR, UGPR, Pred, UPred };

/// Registers [First, First + Count) of one file.
struct RegRange {
  RegFile File = RegFile::GPR;
  uint16_t First = 0;
  uint8_t Count = 1;
};

/// How an operand is read.
struct RegUse {
  RegRange Regs;
  ReadSlot Slot = ReadSlot::Normal;
  PredRead How = PredRead::Operand; ///< predicates only
  /// Read after issue by a variable-latency instruction: protected by its
  /// read (or write) scoreboard against later writers.
  bool Late = false;
};

/// What an instruction does beyond its registers.
enum class SpecialKind : uint8_t {
  None,
  SharedMatrixLoad, ///< LDSM: reads a shared stage
  SharedLoad,       ///< LDS
  AsyncCopy,        ///< LDGSTS: writes a shared stage in the open group
  CommitGroup,      ///< LDGDEPBAR: closes the group, counted on its wr SB
  WaitGroups,       ///< DEPBAR.LE SBx, n
  Barrier,          ///< BAR.SYNC
  Branch,           ///< BRA
  Exit,             ///< EXIT
  Nop,              ///< NOP
};

/// The mnemonic of a view, e.g. "HMMA.16816.F32", for messages and
/// reports only: describe() keeps a copy of the instruction and prints its
/// mnemonic (sass::getMnemonic) when str() is asked for, so that the walks
/// build no string per instruction; a hand-made view holds its name.
class InstrName {
public:
  InstrName() = default;
  InstrName &operator=(std::string Given) {
    Name = std::move(Given);
    HasSource = false;
    return *this;
  }
  /// The name is \p I's mnemonic, printed on demand.
  void setSource(const sass::Instruction &I) {
    Source = I;
    HasSource = true;
  }
  std::string str() const;
  operator std::string() const { return str(); }
  bool operator==(llvm::StringRef S) const { return str() == S; }
  bool operator!=(llvm::StringRef S) const { return str() != S; }

private:
  std::string Name;
  sass::Instruction Source;
  bool HasSource = false;
};

llvm::raw_ostream &operator<<(llvm::raw_ostream &OS, const InstrName &N);

/// The scheduling view of one instruction.
struct SchedInstr {
  InstrName Name; ///< the mnemonic, e.g. "HMMA.16816.F32" (messages only)
  InstrClass Class = InstrClass::CoupledALU;
  SpecialKind Kind = SpecialKind::None;
  llvm::SmallVector<RegRange, 2> Defs;
  llvm::SmallVector<RegUse, 4> Uses; ///< the guard included (How = Guard)
  bool Predicated = false;           ///< has a guard other than PT
  bool NeverExecutes = false; ///< `@!PT`: a filler, no effect but its stall
  /// Variable-latency only: whether the sources are read after issue and a
  /// later writer must wait on a read scoreboard (stores, LDGSTS); results
  /// are covered by the write scoreboard.
  bool NeedsReadSB = false;
  /// DEPBAR.LE SB<WaitSB>, <WaitCount>.
  uint8_t WaitSB = 0, WaitCount = 0;
  /// LDSM / LDS / LDGSTS: the immediate byte offset of the shared address.
  int64_t SharedOffset = 0;
  sass::Control Ctrl;
  llvm::SMLoc Loc; ///< where it was written, if parsed from text

  // Builders for hand-made sequences (tests, tools).
  SchedInstr &def(RegRange R) {
    Defs.push_back(R);
    return *this;
  }
  SchedInstr &use(RegRange R, ReadSlot S = ReadSlot::Normal) {
    RegUse U;
    U.Regs = R;
    U.Slot = S;
    U.Late = isVariable(Class);
    Uses.push_back(U);
    return *this;
  }
  SchedInstr &guard(unsigned P, bool Neg = false);
};

inline RegRange gpr(unsigned R, unsigned N = 1) {
  return {RegFile::GPR, uint16_t(R), uint8_t(N)};
}
inline RegRange ugpr(unsigned R, unsigned N = 1) {
  return {RegFile::UGPR, uint16_t(R), uint8_t(N)};
}
inline RegRange pred(unsigned P) { return {RegFile::Pred, uint16_t(P), 1}; }

/// A hand-made instruction: \p Name ("IMAD.WIDE", "LDSM.16.M88.4"), its
/// latency class from the td's forms of that mnemonic (as describe() takes
/// it; CoupledALU for a name no form has) and its kind from the mnemonic.
SchedInstr makeInstr(llvm::StringRef Name);

/// The latency class of form \p Op (from its td schedule class), or an
/// error naming a class the model does not know.
llvm::Expected<InstrClass> classOfForm(sass::Opcode Op);

/// The view of \p I (operands from its InstrInfo, class from its td
/// SchedInfo, kind from its mnemonic).  Errors for a form whose schedule
/// class is unknown here.
llvm::Expected<SchedInstr> describe(const sass::Instruction &I);

/// The scheduling view of a straight run of instructions finished on its
/// own (a mir::Piece's instructions; "piece" means only mir::Piece).
using InstrSeq = std::vector<SchedInstr>;

/// Why an instruction's stall is what it is (for -debug and mutation).
enum class StallReason : uint8_t {
  MinIssue,      ///< nothing needs more than the 1-cycle issue
  Dependency,    ///< a later instruction's register dependency
  ExecLatency,   ///< BAR / DEPBAR blocks the warp
  ScoreboardSet, ///< a later wait on a scoreboard this set
  Drain,         ///< the end of the piece
  Conservative,
};

struct CompactOptions {
  bool Conservative = false; ///< stall >= 15 and wait on every scoreboard
  bool Drain = true;         ///< drain at the end of each piece
  sass::Target Target = sass::Target::SM86; ///< whose latency model
};

/// What compactStalls() did to one instruction.
struct CompactInfo {
  StallReason Reason = StallReason::MinIssue;
  unsigned Cycles = 0; ///< the whole delay to the next issue (>15: fillers)
  llvm::SmallVector<uint8_t, 2> FillerStalls; ///< stalls of fillers after it
  uint8_t RequiredWaits = 0; ///< wait bits that some dependency needs
};

/// Sets stall, yield, scoreboards and wait masks of \p P (in place) to the
/// smallest that keep every dependency; Info gets one entry per
/// instruction.  Existing control fields are ignored (recomputed), except
/// that a DEPBAR's scoreboard fixes the commits' one.  Errors for what the
/// model cannot honour (a DEPBAR naming another scoreboard than the
/// commits').
llvm::Error compactStalls(InstrSeq &P, const CompactOptions &Opts,
                          std::vector<CompactInfo> *Info = nullptr);

/// Inserts the fillers Info asks for after their instructions: `@!PT NOP`
/// hand-made ones (the MIR wrapper makes ptxas's `@!PT UIADD3`).  Info is
/// kept parallel to P: a filler's entry is a default one (never mutated).
void insertFillers(InstrSeq &P, std::vector<CompactInfo> &Info);

/// One hazard found by verifySchedule().
struct Hazard {
  unsigned Index = 0; ///< the instruction (address = 16 * Index)
  llvm::SMLoc Loc;
  std::string Message; ///< e.g. "R12 read by HMMA.16816.F32 8 cycles
                       ///< after IMAD wrote it; needs 5"
};

struct VerifyOptions {
  /// Bytes of one shared stage region; 0: derive regions from the LDGSTS
  /// immediate offsets (each distinct one starts a region).
  int64_t StageBytes = 0;
  /// Stop after this many hazards (0: all).
  unsigned MaxHazards = 0;
  sass::Target Target = sass::Target::SM86; ///< whose latency model
};

/// Walks \p Program (straight-line: the checked program) cycle by cycle and
/// returns every hazard: a register read or rewritten before its fixed
/// producer's latency elapsed or before its scoreboard was waited on, a
/// register overwritten while an in-flight LDGSTS/store still reads it, a
/// wait issued too soon after its scoreboard was set, a stall that the
/// warp's BAR/DEPBAR needs, a shared stage read by LDSM before its group's
/// DEPBAR wait and a barrier, or rewritten by LDGSTS while a warp may still
/// read it.
std::vector<Hazard> verifySchedule(llvm::ArrayRef<SchedInstr> Program,
                                   const VerifyOptions &Opts = {});

/// Formats \p H as `<address>: error: <message>` or, with \p SM and a
/// location, `file:line:col: error: <message>`.
std::string formatHazard(const Hazard &H, const llvm::SourceMgr *SM);

/// The mutation test: for each instruction of \p Program[Begin, End) whose
/// stall a dependency needs, lower it by one; for each wait bit a
/// dependency needs, drop it; run the verifier on each mutant.
struct MutationResult {
  unsigned BaselineHazards = 0; ///< hazards of the unmutated program
  unsigned StallMutations = 0, StallCaught = 0;
  unsigned WaitMutations = 0, WaitCaught = 0;
  std::vector<std::string> Missed; ///< descriptions of uncaught mutants
};
MutationResult runMutations(llvm::ArrayRef<SchedInstr> Program,
                            llvm::ArrayRef<CompactInfo> Info, size_t Begin,
                            size_t End, const VerifyOptions &Opts = {});

/// An address as the verifier writes it: `0x0040`.
std::string formatAddress(uint64_t Addr);

/// Name of a register ("R12", "UR4", "P0", "UP1").
std::string regName(RegFile F, unsigned R);

} // namespace sched
} // namespace tp

#endif // TP_TARGET_SASS_SCHEDULE_H
