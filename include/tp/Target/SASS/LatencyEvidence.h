//===- LatencyEvidence.h - The model against ptxas's spacing ----*- C++ -*-===//
///
/// \file
/// Checks a target's LatencyModel against the schedules ptxas writes
/// (`tp-sim --latency-report`).  Inside each straight-line block of a
/// kernel (split at branch targets and after BRA/EXIT) an instruction's
/// issue cycle is the sum of the stalls before it (max(1, stall), as
/// tp-sim's cycle model counts them).  For every fixed-latency writer the
/// first later instruction that reads or rewrites one of its results gives
/// one RAW or WAW observation; for every register read at issue the first
/// later writer gives a WAR one.  The register of a tuple that the model
/// says needs the most decides the pair's bucket.  A pair with a wait mask,
/// a DEPBAR or a BAR at or after the writer's successor up to the consumer
/// may have spent extra time there, but ptxas cannot count on that (the
/// scoreboard may already be free), so its stalls are still a spacing
/// ptxas relies on: it is counted as "waited" and checked by (a) and in
/// the minimum of (b); a bucket whose pairs are all waited has no tight
/// evidence and is left out of (b).
///
/// Each bucket is (dependency kind, register file, writer class, reader
/// class and slot): everything the model's answer depends on.  For every
/// bucket
///   (a) model <= every observed spacing: ptxas's schedule keeps our model;
///   (b) model >= the smallest observed spacing: ptxas relies on that
///       spacing, an upper bound of the true latency, so a smaller number
///       of ours would be unproven.
/// Together: the model is ptxas's tightest spacing for each pair it uses.
///
//===----------------------------------------------------------------------===//
#ifndef TP_TARGET_SASS_LATENCYEVIDENCE_H
#define TP_TARGET_SASS_LATENCYEVIDENCE_H

#include "tp/Target/SASS/LatencyModel.h"
#include "tp/Target/SASS/SASS.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <map>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
}

namespace tp {
namespace sched {

class LatencyEvidence {
public:
  explicit LatencyEvidence(sass::Target T) : M(LatencyModel::get(T)) {}

  /// Adds the observations of one kernel (\p Code: its decoded
  /// instructions, one per 16 bytes from address 0; \p Name for messages).
  llvm::Error addKernel(llvm::StringRef Name,
                        llvm::ArrayRef<sass::Instruction> Code);

  /// Prints the table and every violation; returns the number of
  /// violations (buckets breaking (a) or (b)).
  unsigned report(llvm::raw_ostream &OS) const;

private:
  struct Bucket {
    unsigned Model = 0;
    unsigned Min = ~0u, Count = 0, Waited = 0;
    std::map<std::string, unsigned> Examples; ///< "IADD3 -> ISETP": count
    std::string MinAt;   ///< where the smallest spacing was seen
    std::string BelowAt; ///< an observation below the model, if any
    unsigned Below = ~0u;
  };
  const LatencyModel &M;
  std::map<std::string, Bucket> Buckets;
  unsigned Kernels = 0, Instructions = 0;
  /// Yield bit statistics (bit 109 = 0) by mnemonic: (set, total).
  std::map<std::string, std::pair<unsigned, unsigned>> Yields;
};

/// The name of a latency class ("CoupledALU", "MMA16816", ...).
llvm::StringRef getClassName(InstrClass C);

} // namespace sched
} // namespace tp

#endif // TP_TARGET_SASS_LATENCYEVIDENCE_H
