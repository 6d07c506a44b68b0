//===- Benchmarks.h - tp-ubench: the microbenchmark catalogue ---*- C++ -*-===//
///
/// \file
/// What one microbenchmark is: its SASS text (the kernel form of
/// docs/sass-format.md), how to launch it (a launch manifest's fields) and
/// what it must compute (the expected value of every result word, per
/// lane).  buildCatalogue() makes every benchmark for one target from the
/// latency model of that target (sched::LatencyModel), so the sweeps follow
/// the model when it changes.
///
/// Output buffer (the manifest's C): one slot of SlotWords 32-bit words per
/// thread, thread t = ctaid.x * ntid.x + tid.x at byte t * SlotWords * 4:
///   word 0  SR_CLOCKLO before the measured body (second of two passes)
///   word 1  SR_CLOCKLO after it
///   word 2+ the results (Expected), then scratch space.
///
//===----------------------------------------------------------------------===//
#ifndef TP_TOOLS_TPUBENCH_BENCHMARKS_H
#define TP_TOOLS_TPUBENCH_BENCHMARKS_H

#include "tp/Target/SASS/SASS.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace tp {
namespace ubench {

/// What a benchmark's cycles mean (docs/ubench.md, "Reading the results").
enum class Kind {
  FixedSweep,  ///< dependent pair at one stall: right values or not
  Variable,    ///< scoreboarded chain: cycles per step minus FixedCycles
  Throughput,  ///< independent ops: cycles per op per sub-partition
  SharedBW,    ///< shared-memory bytes per cycle per SM
  GlobalBW,    ///< global bytes per second (event time of tp-run --bench)
  Barrier,     ///< cycles per BAR.SYNC
};

const char *getKindName(Kind K);

/// One result word: its index in the slot and its value in each lane
/// (every warp of every block alike).
struct ExpectedWord {
  unsigned Word = 0;
  std::array<uint32_t, 32> Lanes{};
};

struct Benchmark {
  std::string Name;        ///< file stem and kernel name (ub_<Name>)
  std::string Family;      ///< lat-fixed, lat-var, tput, shared-bw, ...
  Kind K = Kind::FixedSweep;
  std::string Pair;        ///< "CoupledALU -> CoupledALU", "HMMA.16816.F32"
  std::string Measures;    ///< one line: what the number is
  int ModelCycles = -1;    ///< the latency model's value (-1: none)
  unsigned Spacing = 0;    ///< FixedSweep: issue cycles writer -> reader
  unsigned Steps = 0;      ///< dependent steps / ops per warp measured
  unsigned FixedCycles = 0;///< Variable: cycles of each step not the pair's
  unsigned WarpsPerSMSP = 0;
  uint64_t BytesPerWarp = 0;   ///< SharedBW: bytes read per warp per pass
  uint64_t GlobalBytes = 0;    ///< GlobalBW: bytes copied per launch
  unsigned Grid = 1, Block = 32;
  unsigned DynamicShared = 0;  ///< bytes (sm_90: after the reserved 1 KiB)
  unsigned SlotWords = 8;
  uint64_t ABytes = 64;        ///< at least this many bytes of A
  bool SimSupported = true;    ///< false: tp-sim lacks an instruction
  std::vector<ExpectedWord> Expected;
  std::string Sass;            ///< the whole .sass text
};

struct CatalogueOptions {
  unsigned GlobalBlocks = 0;     ///< 0: 4 per SM of the target's card
  unsigned GlobalIterations = 256; ///< 4 KiB copies per block per pass
};

/// Every benchmark for \p T.
std::vector<Benchmark> buildCatalogue(sass::Target T,
                                      const CatalogueOptions &Opts);

} // namespace ubench
} // namespace tp

#endif
