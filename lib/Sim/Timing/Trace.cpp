//===- Trace.cpp - The timing model's instruction streams -----------------===//
///
/// \file
/// TimingModel's recording side: the occupancy of the launch on the card
/// (blocks per SM from threads, registers, shared memory and the block
/// limit), the blocks one SM holds at once (the occupancy, or fewer when
/// the grid spread over the SMs leaves fewer), and, for each issued warp
/// instruction of those blocks, an Event with the shared-memory wavefronts its lanes' real
/// addresses need (bank conflicts) and the global bytes it moves.
/// Guarantees: the streams are in each warp's program order and do not
/// depend on the host threads the functional simulator used.
///
//===----------------------------------------------------------------------===//
#include "../SimInternal.h"
#include "tp/Sim/Timing.h"
#include <algorithm>

using namespace llvm;
using namespace tp;
using namespace tp::sim;

#define DEBUG_TYPE "tp-sim-timing"

TimingModel::~TimingModel() = default;

TimingModel::TimingModel(const Program &P, const Card &C,
                         const LaunchConfig &Cfg)
    : Prog(P), C(C) {
  const KernelImage &K = P.Kernel;
  uint64_t Threads = uint64_t(Cfg.Block[0]) * Cfg.Block[1] * Cfg.Block[2];
  WarpsPerBlock = unsigned((Threads + 31) / 32);
  GridBlocks = uint64_t(Cfg.Grid[0]) * Cfg.Grid[1] * Cfg.Grid[2];
  // Occupancy: the smallest of the four limits (CUDA occupancy calculator).
  uint64_t Best = C.MaxBlocksPerSM;
  OccupancyLimit = "blocks per SM";
  auto Limit = [&](uint64_t N, const char *What) {
    if (N < Best) {
      Best = N;
      OccupancyLimit = What;
    }
  };
  Limit(C.MaxThreadsPerSM / (uint64_t(WarpsPerBlock) * 32), "threads");
  if (K.RegCount) {
    uint64_t PerWarp = (uint64_t(K.RegCount) * 32 + C.RegisterAllocUnit - 1) /
                       C.RegisterAllocUnit * C.RegisterAllocUnit;
    Limit(C.RegistersPerSM / (PerWarp * WarpsPerBlock), "registers");
  }
  uint64_t Shared = std::max<uint64_t>(C.SharedReservedPerBlock,
                                       K.ReservedSharedBytes) +
                    K.StaticSharedBytes + Cfg.DynamicSharedBytes;
  SharedPerBlock = Shared;
  Limit(C.SharedBytesPerSM / Shared, "shared memory");
  Occupancy = unsigned(Best);
  // The block scheduler spreads a grid over the SMs: an SM holds at most
  // ceil(grid / SMs) of its blocks at once (one each when the grid is
  // smaller than the card), and the busiest SM decides the wave's time.
  uint64_t PerSM = (GridBlocks + C.SMs - 1) / C.SMs;
  Traces.assign(std::min(Best, PerSM),
                std::vector<std::vector<Event>>(WarpsPerBlock));
  Lines.assign(Traces.size(),
               std::vector<std::vector<uint64_t>>(WarpsPerBlock));
}

Error TimingModel::checkFits() const {
  if (Occupancy)
    return Error::success();
  return createStringError(inconvertibleErrorCode(),
                           "a block of this launch does not fit on an SM of "
                           "card '%s' (limited by %s)",
                           C.Name.c_str(), OccupancyLimit.c_str());
}

/// Shared-memory wavefronts of an access of \p Size bytes per lane by the
/// lanes of \p Mask at \p Addr: the lanes are served in phases of 128 bytes
/// (32, 16 or 8 lanes); a phase takes as many wavefronts as the largest
/// number of distinct 4-byte words it touches in one bank (a word read by
/// several lanes is broadcast).
static unsigned wavefronts(const uint64_t *Addr, uint32_t Mask, unsigned Size,
                           unsigned Banks) {
  unsigned LanesPerPhase = Size <= 4 ? 32 : 128 / Size;
  unsigned Total = 0;
  for (unsigned First = 0; First < 32; First += LanesPerPhase) {
    uint64_t Words[32 * 4];
    unsigned N = 0;
    for (unsigned L = First; L < First + LanesPerPhase; ++L)
      if ((Mask >> L) & 1)
        for (unsigned B = 0; B < std::max(1u, Size / 4); ++B)
          Words[N++] = Addr[L] / 4 + B;
    if (!N)
      continue;
    std::sort(Words, Words + N);
    N = unsigned(std::unique(Words, Words + N) - Words);
    unsigned PerBank[64] = {};
    unsigned Worst = 0;
    for (unsigned I = 0; I < N; ++I)
      Worst = std::max(Worst, ++PerBank[Words[I] % Banks]);
    Total += Worst;
  }
  return Total;
}

/// When the active lanes of \p Mask read in pairs (lane n and n ^ 1 at the
/// same address for every active pair, or lane n and n ^ 2), the mask of
/// one lane of each pair; 0 otherwise.
static uint32_t pairedLanes(const uint64_t *Addr, uint32_t Mask) {
  for (unsigned Bit : {1u, 2u}) {
    uint32_t Keep = 0;
    bool Paired = true;
    for (unsigned L = 0; L < 32 && Paired; ++L) {
      if (!((Mask >> L) & 1) || (L & Bit))
        continue;
      unsigned O = L ^ Bit;
      Paired = ((Mask >> O) & 1) && Addr[O] == Addr[L];
      Keep |= 1u << L;
    }
    for (unsigned L = 0; L < 32 && Paired; ++L)
      if ((Mask >> L) & 1 && (L & Bit) && !((Mask >> (L ^ Bit)) & 1))
        Paired = false;
    if (Paired && Keep)
      return Keep;
  }
  return 0;
}

void TimingModel::onIssue(uint64_t LinearBlock, unsigned WarpId,
                          uint32_t Index, uint32_t Mask,
                          const uint64_t *LaneAddr) {
  const DInst &D = Prog.Insts[Index];
  Event E = {Index, 0, 0, 0, 0};
  unsigned Lanes = unsigned(__builtin_popcount(Mask));
  unsigned Banks = std::min(64u, C.SharedBanks);
  switch (D.Sem) {
  case SemClass::Shared:
  case SemClass::ATOMS:
    if (Lanes) {
      E.Wavefronts = uint16_t(wavefronts(LaneAddr, Mask, D.Size, Banks));
      E.Ideal = uint16_t(std::max(1u, (Lanes * D.Size + 127) / 128));
      if (D.Sem == SemClass::Shared && !D.has(SemFlag::Store) && D.Size > 4)
        if (uint32_t Half = pairedLanes(LaneAddr, Mask)) {
          // The shared memory returns one register of the warp (128
          // bytes) a cycle, two when lane pairs read the same address
          // (NVIDIA developer forum, "Unexpected shared memory bank
          // conflict", t/77228: on cc 7.x a uniform LDS.128 takes 2
          // requests, not 4; ASSUMED to hold on 8.x and 9.0): one lane of
          // each pair, packed (half the phases), at half the registers.
          uint64_t Packed[32];
          unsigned N = 0;
          for (unsigned L = 0; L < 32; ++L)
            if ((Half >> L) & 1)
              Packed[N++] = LaneAddr[L];
          unsigned Regs = D.Size / 4;
          E.Wavefronts = uint16_t(
              std::max(wavefronts(Packed, uint32_t((uint64_t(1) << N) - 1),
                                  D.Size, Banks),
                       Regs / 2));
          E.Ideal = uint16_t(std::max(1u, Regs / 2));
        }
    }
    break;
  case SemClass::LDSM:
    if (Mask) {
      // Each 8x8 matrix is 8 rows of 16 bytes, given by 8 lanes.
      for (unsigned Mat = 0; Mat < D.Size; ++Mat)
        E.Wavefronts +=
            uint16_t(wavefronts(LaneAddr + 8 * Mat, 0xffu, 16, Banks));
      E.Ideal = D.Size;
    }
    break;
  case SemClass::LDGSTS: {
    static const unsigned Sizes[8] = {0, 0, 0, 0, 4, 8, 16, 0};
    unsigned Size = Sizes[D.F[F_sz] & 7];
    if (Lanes) {
      E.Wavefronts = uint16_t(wavefronts(LaneAddr, Mask, Size, Banks));
      E.Ideal = uint16_t(std::max(1u, (Lanes * Size + 127) / 128));
    }
    E.GlobalBytes = Lanes * Size;
    // The global source's distinct 128-byte lines (for the L2 and DRAM).
    uint64_t L2Lines[32];
    unsigned N = 0;
    for (unsigned L = 0; L < 32; ++L)
      if ((Mask >> L) & 1 && LaneAddr[32 + L] != ~uint64_t(0))
        L2Lines[N++] = LaneAddr[32 + L] / 128;
    std::sort(L2Lines, L2Lines + N);
    N = unsigned(std::unique(L2Lines, L2Lines + N) - L2Lines);
    E.Lines = uint8_t(N);
    Lines[LinearBlock][WarpId].insert(Lines[LinearBlock][WarpId].end(),
                                      L2Lines, L2Lines + N);
    break;
  }
  case SemClass::Global: {
    // Global traffic in 32-byte sectors.
    uint64_t Sectors[32];
    unsigned N = 0;
    for (unsigned L = 0; L < 32; ++L)
      if ((Mask >> L) & 1)
        Sectors[N++] = LaneAddr[L] / 32;
    std::sort(Sectors, Sectors + N);
    N = unsigned(std::unique(Sectors, Sectors + N) - Sectors);
    E.GlobalBytes = std::max(N * 32, Lanes * D.Size);
    if (!D.has(SemFlag::Store) && N) {
      // A load goes through L1: its distinct 128-byte lines.
      for (unsigned I = 0; I < N; ++I)
        Sectors[I] /= 4;
      N = unsigned(std::unique(Sectors, Sectors + N) - Sectors);
      E.Lines = uint8_t(N);
      Lines[LinearBlock][WarpId].insert(Lines[LinearBlock][WarpId].end(),
                                        Sectors, Sectors + N);
    }
    break;
  }
  case SemClass::Local:
    E.GlobalBytes = Lanes * D.Size;
    break;
  default:
    break;
  }
  Traces[LinearBlock][WarpId].push_back(E);
}
