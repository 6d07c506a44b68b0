//===- SchedulePieces.h - MIR pieces as the schedule walks see them -------===//
///
/// \file
/// Internal to lib/CodeGen: what tp-compact-stalls (CompactStalls.cpp) and
/// tp-verify-schedule (VerifySchedule.cpp) both need from machine IR: the
/// real instructions of a piece as sched::SchedInstr views (fillers and
/// NOPs dropped, their labels moved on) and the target of a function's
/// latency model.  Defined in SchedulePieces.cpp.
///
//===----------------------------------------------------------------------===//
#ifndef TP_LIB_CODEGEN_SCHEDULEPIECES_H
#define TP_LIB_CODEGEN_SCHEDULEPIECES_H

#include "tp/Target/SASS/Schedule.h"
#include "tp/MIR/MIR.h"

#include <vector>

namespace tp {
namespace sched {

/// A NOP, or an instruction that never executes (guard !PT / !UPT).
bool isFillerOrNop(const mir::MInstr &MI);

/// The real instructions of \p P (fillers and NOPs dropped, their labels
/// moved on) into \p Real, and their scheduling views into \p Views.
llvm::Error describePiece(const mir::Piece &P, std::vector<mir::MInstr> &Real,
                          InstrSeq &Views);

/// The target of \p F's latency model (its `target("sm_XX")`).
llvm::Expected<sass::Target> targetOf(const mir::Function &F);

/// The instructions tp-compact-stalls adds, with default control fields,
/// made from their forms rather than parsed: the drain NOP, `NOP`, and the
/// filler that continues a long delay, `@!UPT UIADD3 URZ, URZ, URZ, URZ`
/// (SASS_FACTS 1.2, E), or `@!PT NOP` where the instruction set has no
/// UIADD3_rrr form.  Each is what mir::makeInstr() gives for that text
/// (unittests/CodeGen/CompactStallsTest.cpp checks it).
mir::MInstr drainNopInstr();
mir::MInstr fillerInstr();

} // namespace sched
} // namespace tp

#endif // TP_LIB_CODEGEN_SCHEDULEPIECES_H
