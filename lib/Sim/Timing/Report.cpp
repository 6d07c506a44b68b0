//===- Report.cpp - The timing model's text and JSON reports --------------===//
///
/// \file
/// Prints a TimingResult as text and as JSON.  Guarantees: the same result
/// prints the same bytes (fixed formats, states in a fixed order); the
/// stall-reason fractions sum to 1 (to rounding) whenever any warp was
/// resident; `tflops` is null for a kernel that is not a GEMM.
///
//===----------------------------------------------------------------------===//
#include "tp/Sim/Timing.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"

using namespace llvm;
using namespace tp;
using namespace tp::sim;

static uint64_t totalStates(const TimingResult &R) {
  uint64_t T = 0;
  for (uint64_t S : R.States)
    T += S;
  return T;
}

void sim::printTiming(raw_ostream &OS, const TimingResult &R) {
  OS << "timing: card " << R.Card << "\n";
  OS << "  occupancy: " << R.BlocksPerSM << " block(s) per SM (limited by "
     << R.OccupancyLimit << "), grid " << R.GridBlocks << " block(s), "
     << R.Waves << " wave(s)\n";
  OS << "  blocks modelled on one SM: " << R.ResidentBlocks << "\n";
  if (R.GlobalFromDRAM)
    OS << "  global memory: from DRAM (footprint "
       << format("%.1f", double(R.FootprintBytes) / (1 << 20))
       << " MiB exceeds the L2): lines read again beyond the SM's share of "
          "the L2\n";
  if (R.ColdDRAMFraction > 0)
    OS << "  DRAM part of first reads: "
       << format("%.4f", R.ColdDRAMFraction)
       << " (footprint / the bytes the grid's blocks first read)\n";
  OS << "  cycles per block (one wave on one SM): " << R.BlockCycles << "\n";
  if (R.LastWaveCycles != R.BlockCycles)
    OS << "  last wave: " << R.LastWaveBlocks << " block(s) on one SM, "
       << R.LastWaveCycles << " cycles\n";
  OS << "  kernel cycles: " << R.KernelCycles << " ("
     << format("%.3f", R.KernelSeconds * 1e6) << " us";
  if (R.KernelSeconds > 0 && R.DRAMFloorSeconds >= R.KernelSeconds)
    OS << ", bound by DRAM bandwidth";
  OS << ")\n";
  if (R.Flops > 0)
    OS << "  GEMM: " << format("%.2f", R.tflops()) << " TFLOP/s\n";
  OS << "  warp instructions modelled: " << R.WarpInstructions << "\n";
  OS << "  issue utilization: " << format("%.3f", R.IssueUtilization)
     << ", tensor-pipe utilization: " << format("%.3f", R.TensorUtilization)
     << "\n";
  OS << "  shared wavefronts: " << R.SharedWavefronts << " (conflict-free "
     << R.SharedIdealWavefronts << ")\n";
  OS << "  stall reasons (fraction of warp-cycles):\n";
  uint64_t T = totalStates(R);
  for (unsigned I = 0; I < unsigned(WarpState::Num); ++I)
    if (R.States[I])
      OS << "    " << left_justify(getWarpStateName(WarpState(I)), 20)
         << format("%.4f", T ? double(R.States[I]) / T : 0.0) << "\n";
  OS << "  timing hazards: " << R.Hazards << "\n";
  for (const std::string &H : R.HazardReports)
    OS << "    hazard: " << H << "\n";
}

void sim::writeTimingJSON(raw_ostream &OS, const TimingResult &R) {
  json::Object Stalls;
  uint64_t T = totalStates(R);
  for (unsigned I = 0; I < unsigned(WarpState::Num); ++I)
    Stalls[getWarpStateName(WarpState(I))] =
        T ? double(R.States[I]) / T : 0.0;
  json::Array Clocks;
  for (const TimingResult::ClockRead &CR : R.ClockReads)
    Clocks.push_back(json::Array{CR.Block, CR.Warp, int64_t(CR.Issued),
                                 int64_t(CR.Cycle)});
  json::Object O{
      {"card", R.Card},
      {"blocks_per_sm", R.BlocksPerSM},
      {"resident_blocks", R.ResidentBlocks},
      {"occupancy_limit", R.OccupancyLimit},
      {"grid_blocks", int64_t(R.GridBlocks)},
      {"waves", int64_t(R.Waves)},
      {"block_cycles", int64_t(R.BlockCycles)},
      {"last_wave_blocks", R.LastWaveBlocks},
      {"last_wave_cycles", int64_t(R.LastWaveCycles)},
      {"kernel_cycles", int64_t(R.KernelCycles)},
      {"kernel_seconds", R.KernelSeconds},
      {"dram_floor_seconds", R.DRAMFloorSeconds},
      {"footprint_bytes", int64_t(R.FootprintBytes)},
      {"global_from_dram", R.GlobalFromDRAM},
      {"cold_dram_fraction", R.ColdDRAMFraction},
      {"tflops", R.Flops > 0 ? json::Value(R.tflops()) : json::Value(nullptr)},
      {"warp_instructions", int64_t(R.WarpInstructions)},
      {"issue_utilization", R.IssueUtilization},
      {"tensor_utilization", R.TensorUtilization},
      {"shared_wavefronts", int64_t(R.SharedWavefronts)},
      {"shared_ideal_wavefronts", int64_t(R.SharedIdealWavefronts)},
      {"hazards", int64_t(R.Hazards)},
      {"stall_reasons", std::move(Stalls)},
      {"clock_reads", std::move(Clocks)},
  };
  OS << formatv("{0:2}", json::Value(std::move(O))) << "\n";
}
