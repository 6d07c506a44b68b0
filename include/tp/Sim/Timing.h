//===- Timing.h - tp-sim's cycle model of one SM ----------------*- C++ -*-===//
///
/// \file
/// The timing model behind `tp-sim --timing=CARD` (docs/timing-model.md).
/// A Card is one GPU's numbers, read from a bench/cards/*.json file in
/// which every number carries its source.  A TimingModel is an
/// IssueObserver: the functional simulator runs the kernel and hands it
/// each issued warp instruction (lanes, addresses) of the blocks one SM
/// holds at once; model() then replays those instruction streams through a
/// cycle model of one SM (sub-partition schedulers, stall counts, yield,
/// scoreboards, pipes with initiation intervals, shared-memory banks,
/// global latency and bandwidth, BAR.SYNC) and extrapolates the grid in
/// waves over the card's SMs.  The result is a deterministic function of
/// the cubin, the launch and the card.
///
//===----------------------------------------------------------------------===//
#ifndef TP_SIM_TIMING_H
#define TP_SIM_TIMING_H

#include "tp/Sim/Simulator.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"
#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace tp {
namespace sim {

/// An execution pipe of a sub-partition.
enum class Pipe : uint8_t {
  Tensor, FMA, ALU, Uniform, FP64, MUFU, Branch, Shared, Global, None,
};
constexpr unsigned NumPipes = unsigned(Pipe::None);

struct PipeTiming {
  unsigned Latency = 1;  ///< cycles to the result (variable-latency pipes)
  unsigned Interval = 1; ///< cycles between two issues to the pipe
};

/// One card (bench/cards/NAME.json).
struct Card {
  std::string Name, File;
  unsigned Arch = 86;
  unsigned SMs = 1;
  double ClockGHz = 1;
  unsigned SubPartitions = 4;
  unsigned MaxThreadsPerSM = 1536, MaxBlocksPerSM = 16;
  unsigned RegistersPerSM = 65536, RegisterAllocUnit = 256;
  unsigned SharedBytesPerSM = 102400, SharedReservedPerBlock = 1024;
  PipeTiming TensorF32, TensorF16, FMA, ALU, Uniform, FP64, MUFU, Branch;
  unsigned SharedBanks = 32, SharedBytesPerClk = 128, SharedLatency = 29;
  unsigned MioQueueCycles = 16;
  /// The memory instruction path (Huerta et al. 2025, Table 1): a
  /// sub-core sends one every MemSubcoreInterval cycles, the SM's shared
  /// structures take one every MemSMInterval cycles, and a sub-core holds
  /// MemQueueDepth of them, each until MemQueueHold cycles after it
  /// reached the shared structures.
  unsigned MemSubcoreInterval = 4, MemSMInterval = 2, MemQueueDepth = 5,
           MemQueueHold = 11;
  /// The register file (Huerta et al. 2025, 5.3): banks per sub-core (a
  /// register's bank is its number modulo this), each reading one warp
  /// register a cycle, within RegisterReadCycles cycles after issue.
  unsigned RegisterBanks = 2, RegisterReadCycles = 3;
  unsigned L1Latency = 39, L2Latency = 187, DRAMLatency = 254;
  /// The SM's combined L1 / shared-memory data cache: the L1 holds what the
  /// resident blocks' shared memory leaves of it.
  unsigned UnifiedL1BytesPerSM = 131072;
  double L2BytesPerClkPerSM = 64, DRAMGBytesPerS = 936;
  uint64_t L2Bytes = 6u << 20; ///< L2 capacity
};

/// Reads card \p NameOrFile: a path (containing '/' or ending in .json), or
/// a name looked up as CardsDir/NAME.json.  Every number must be given as
/// [value, "source"] (pipes [latency, interval, "source"]); a missing or
/// unsourced number is an error naming the file and the key.
llvm::Expected<Card> loadCard(llvm::StringRef NameOrFile,
                              llvm::StringRef CardsDir);
/// The directory of the cards shipped with tp (bench/cards).
llvm::StringRef getDefaultCardsDir();

/// Nsight Compute's warp-state names, the reasons a resident warp did not
/// issue in a cycle (and "selected" when it did).
enum class WarpState : uint8_t {
  Selected, NotSelected, Wait, ShortScoreboard, LongScoreboard,
  MathPipeThrottle, MioThrottle, LgThrottle, Barrier, BranchResolving,
  DispatchStall, Num
};
const char *getWarpStateName(WarpState S);

/// What model() found.
struct TimingResult {
  std::string Card;
  unsigned BlocksPerSM = 0;       ///< occupancy
  unsigned ResidentBlocks = 0;    ///< modelled on one SM (<= occupancy)
  std::string OccupancyLimit;     ///< what limits it
  uint64_t GridBlocks = 0;
  uint64_t Waves = 0;             ///< ceil(ceil(grid / SMs) / occupancy)
  uint64_t BlockCycles = 0;       ///< one wave of resident blocks on an SM
  unsigned LastWaveBlocks = 0;    ///< blocks of the busiest SM's last wave
  uint64_t LastWaveCycles = 0;    ///< its cycles (BlockCycles when full)
  uint64_t KernelCycles = 0;
  double KernelSeconds = 0;
  double DRAMFloorSeconds = 0;    ///< compulsory bytes / DRAM bandwidth
  double Flops = 0;               ///< 0: not a GEMM
  uint64_t WarpInstructions = 0;  ///< modelled (one SM, one wave)
  double IssueUtilization = 0;    ///< issued / (cycles x sub-partitions)
  double TensorUtilization = 0;   ///< tensor-pipe busy / (cycles x SMSPs)
  uint64_t SharedWavefronts = 0, SharedIdealWavefronts = 0;
  /// Outside GEMM mode: the bytes the grid may touch (setFootprint; 0:
  /// unknown), and whether that exceeds the L2, so that global traffic
  /// missing L1 goes at the SM's DRAM share.
  uint64_t FootprintBytes = 0;
  bool GlobalFromDRAM = false;
  /// The part of the lines an SM reads first that come from DRAM (the
  /// footprint over the bytes the grid's blocks first read).
  double ColdDRAMFraction = 0;
  uint64_t Hazards = 0;           ///< reads and writes too early (RAW, WAR, WAW)
  std::vector<std::string> HazardReports;
  std::array<uint64_t, unsigned(WarpState::Num)> States = {};
  /// Every CS2R SR_CLOCKLO modelled: the warp, tp-sim's functional clock
  /// value there (the warp's count of issued instructions, the CS2R
  /// included) and the cycle the model issued it in (tp-ubench's clocks).
  struct ClockRead {
    unsigned Block, Warp;
    uint64_t Issued, Cycle;
  };
  std::vector<ClockRead> ClockReads;
  double tflops() const {
    return Flops > 0 && KernelSeconds > 0 ? Flops / KernelSeconds / 1e12 : 0;
  }
};

/// What --timeline draws: sub-partition 0 over a window of cycles.
struct Timeline {
  uint64_t Start = 0, End = 0; ///< the window [Start, End)
  struct Issue {
    unsigned Row;
    uint64_t Cycle;
    Pipe P;
  };
  struct Span {
    unsigned Row;
    uint64_t From, To;
    WarpState State;
  };
  std::vector<unsigned> Warps; ///< the SM-wide warp index of each row
  std::vector<Issue> Issues;
  std::vector<Span> Spans;     ///< states other than selected
  std::vector<std::pair<uint64_t, uint64_t>> TensorBusy;
};

/// Records the instruction streams of one SM's resident blocks and models
/// them.  Use: construct, set LaunchConfig::Observer (and MaxBlocks to
/// getSampledBlocks() for a sampled run), launch(), then model().
class TimingModel : public IssueObserver {
public:
  TimingModel(const Program &P, const Card &C, const LaunchConfig &Cfg);
  ~TimingModel() override;

  bool observesBlock(uint64_t LinearBlock) const override {
    return LinearBlock < Traces.size();
  }
  void onIssue(uint64_t LinearBlock, unsigned Warp, uint32_t Index,
               uint32_t Mask, const uint64_t *LaneAddr) override;

  /// The bytes the whole grid may touch in global memory (tp-sim: the
  /// launch's buffers).  When more than the card's L2 holds, every global
  /// access that misses L1 is served from DRAM: the SM's share of the DRAM
  /// bandwidth (over the SMs the grid occupies), l2_latency + dram_latency.
  /// Not for GEMM mode, whose DRAM traffic is the compulsory floor.
  void setFootprint(uint64_t Bytes) { Footprint = Bytes; }
  /// An error when not one block of the launch fits on an SM of the card.
  llvm::Error checkFits() const;
  /// The blocks one SM holds at once: the occupancy, at most
  /// ceil(grid / SMs) (the grid spread over the card's SMs).
  uint64_t getSampledBlocks() const { return Traces.size(); }
  /// Runs the cycle model.  \p Flops: the GEMM's 2MNK, 0 for another
  /// kernel; \p CompulsoryBytes: the bytes the kernel must move to or from
  /// DRAM at least (0: unknown).
  /// With \p TL, also records sub-partition 0's schedule over the window
  /// [TL->Start, TL->End) (End 0: the middle 2048 cycles of the run).
  TimingResult model(double Flops, double CompulsoryBytes,
                     Timeline *TL = nullptr) const;

  /// One issued instruction of a warp's stream.
  struct Event {
    uint32_t Index;
    uint16_t Wavefronts; ///< shared-memory wavefronts (bank conflicts)
    uint16_t Ideal;      ///< wavefronts without conflicts
    uint32_t GlobalBytes;
    /// The distinct 128-byte lines of an LDG (through the L1) or of an
    /// LDGSTS's global source (0: none), which follow in the warp's line
    /// list.
    uint8_t Lines;
  };

private:
  /// Runs the cycle model over the first \p Blocks recorded blocks, while
  /// \p Running blocks of the grid run on the GPU at once.
  void runBlocks(size_t Blocks, uint64_t Running, TimingResult &R,
                 Timeline *TL) const;

  const Program &Prog;
  Card C;
  unsigned WarpsPerBlock;
  std::string OccupancyLimit;
  uint64_t GridBlocks;
  unsigned Occupancy = 0; ///< blocks an SM can hold
  uint64_t SharedPerBlock = 0; ///< reserved + static + dynamic bytes
  uint64_t Footprint = 0;      ///< setFootprint (0: unknown)
  /// Traces[block][warp].
  std::vector<std::vector<std::vector<Event>>> Traces;
  /// Lines[block][warp]: the 128-byte lines of the warp's LDGs and LDGSTS
  /// sources, in order (Event::Lines of them each).
  std::vector<std::vector<std::vector<uint64_t>>> Lines;
};

/// Writes \p TL as an SVG picture: one row per warp, each issue a mark
/// coloured by pipe, the stalls shaded by reason, the tensor pipe's busy
/// time as its own row, a legend.
void writeTimelineSVG(llvm::raw_ostream &OS, const Timeline &TL,
                      llvm::StringRef Title);

/// Prints \p R as tp-sim's timing report.
void printTiming(llvm::raw_ostream &OS, const TimingResult &R);
/// Writes \p R as JSON (docs/timing-model.md lists the keys).
void writeTimingJSON(llvm::raw_ostream &OS, const TimingResult &R);

} // namespace sim
} // namespace tp

#endif // TP_SIM_TIMING_H
