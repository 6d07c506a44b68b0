//===- DefaultPipeline.h - The pipeline tp-llc runs, defined once -*- C++ -*-//
///
/// \file
/// The default pipeline, built from structured options (never from option
/// text a user typed), for tp-llc and for tp-opt (`-passes=default{...}`):
///
///   tp-admit, tp-tile{tile=T}, tp-pipeline, tp-swizzle, tp-select,
///   tp-interleave,
///   tp-compact-stalls{mode=conservative}, tp-form-loop{checked=1}
///
/// each option present only when it differs from the pass's default.  The
/// target is the tile IR's target= (every pass reads it there), not an
/// option.
/// The passes must be registered (registerAllPasses()).
///
/// Also the range selection of llc's -start-after / -start-before /
/// -stop-after / -stop-before, on any pass list.
///
//===----------------------------------------------------------------------===//
#ifndef TP_PASS_DEFAULTPIPELINE_H
#define TP_PASS_DEFAULTPIPELINE_H

#include "tp/Pass/Pass.h"

namespace tp {

struct DefaultPipelineOptions {
  /// tp-tile's tile (a spec tp-tile accepts); empty: tp-tile chooses.
  std::string Tile;
  /// tp-form-loop builds the checked program (the body twice, no branch).
  bool Checked = false;
  enum class StallMode { Compact, Conservative, Off };
  /// tp-compact-stalls: compact (default), conservative, or not run (the
  /// conservative stalls of tp-select stay).
  StallMode Stalls = StallMode::Compact;
  /// tp-regalloc's plan: "allocator" (default) or "seed" (the seed's
  /// register plan pre-assigned), and the registers it may use.
  std::string RegAllocPlan = "allocator";
  unsigned MaxRegs = 255;
};

/// Reads `tile=T checked=0|1 compact-stalls=compact|
/// conservative|off` (each optional; the text of `default{...}`).
llvm::Error parseDefaultPipelineOptions(llvm::StringRef Text,
                                        DefaultPipelineOptions &Opts);

/// The default pipeline's passes for \p Opts.
llvm::Expected<std::vector<std::unique_ptr<Pass>>>
buildDefaultPipeline(const DefaultPipelineOptions &Opts);

/// Which passes of a pipeline run, as llc's options say (each empty when
/// not given).
struct PipelineRange {
  std::string StartAfter, StartBefore, StopAfter, StopBefore;
};

/// Cuts \p Passes to \p Range.  Errors name the option: a pass not in the
/// pipeline, both start (or both stop) options, a start after the stop.
llvm::Error selectRange(std::vector<std::unique_ptr<Pass>> &Passes,
                        const PipelineRange &Range);

} // namespace tp

#endif // TP_PASS_DEFAULTPIPELINE_H
