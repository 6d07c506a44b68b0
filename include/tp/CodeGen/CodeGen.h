//===- CodeGen.h - Shared facts of the machine-IR passes --------*- C++ -*-===//
///
/// \file
/// Numbers the code generator's passes (lib/CodeGen: tp-select,
/// tp-interleave, tp-regalloc, tp-form-loop) and tp-llc share, and the static schedule
/// figures tp-llc -stats prints.
///
//===----------------------------------------------------------------------===//
#ifndef TP_CODEGEN_CODEGEN_H
#define TP_CODEGEN_CODEGEN_H

#include "tp/MIR/MIR.h"
#include "tp/Target/SASS/SASS.h"

namespace tp {

/// Static figures of a function (tp-llc -stats).
struct ScheduleStats {
  size_t Instructions = 0;
  size_t LoopBody = 0;        ///< body + control instructions (0: no loop)
  size_t HMMAs = 0;           ///< in the whole function
  size_t LoopHMMAs = 0;       ///< in body + control
  /// Issue cycles of body + control (each instruction max(stall, 1)).
  uint64_t LoopCycles = 0;
  int64_t Stages = 0;         ///< k-steps a loop iteration
  double cyclesPerKStep() const {
    return Stages ? double(LoopCycles) / double(Stages) : 0.0;
  }
};
ScheduleStats computeStats(const mir::Function &F);

/// Adds to every instruction of \p F (physical registers; tp-select's
/// pieces, write/read scoreboards and stall 15) the scoreboard waits the
/// conservative schedule needs: a read or write of a register a pending
/// variable-latency write guards, a write of one a pending late read
/// guards; the body's first instruction waits for what either way into it
/// leaves pending, EXIT for every scoreboard.  tp-regalloc calls it once
/// the registers are physical (lib/CodeGen/RegAlloc.cpp).
void addConservativeWaits(mir::Function &F);

} // namespace tp

#endif // TP_CODEGEN_CODEGEN_H
