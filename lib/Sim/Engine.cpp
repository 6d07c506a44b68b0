//===- Engine.cpp - Warps, blocks and launches of tp-sim ------------------===//
///
/// \file
/// The execution engine (see Simulator.h for the model):
///
///  1. launch() checks the launch, splits the grid into blocks and runs them
///     on N host threads; each block gets its shared memory, constant bank 0
///     and its warps.  With N > 1 it tracks which global buffers are read
///     and written; a kernel that both reads and writes one buffer (its
///     blocks may communicate) is undone and rerun on one thread, so the
///     results never depend on N;
///  2. runBlock() runs the warps round-robin, each until BAR.SYNC or EXIT,
///     and releases a barrier when every live warp arrived;
///  3. runWarp() issues instructions: the wait mask (which completes async
///     copy groups on that scoreboard), the hazard checks, the guard, then
///     the handler chosen at decode time; a divergent warp runs one path at a
///     time until the paths meet at a BSYNC (switchPath).
///
//===----------------------------------------------------------------------===//
#include "ExecState.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <atomic>
#include <ctime>
#include <mutex>
#include <thread>

using namespace llvm;
using namespace tp;
using namespace tp::sim;

//===----------------------------------------------------------------------===//
// Global memory
//===----------------------------------------------------------------------===//

Expected<uint64_t> GlobalMemory::allocate(uint64_t Bytes) {
  if (Bytes > MaxTotalBytes - Allocated)
    return createStringError(
        inconvertibleErrorCode(),
        "a buffer of %llu bytes exceeds the simulator's global memory of "
        "%llu bytes (4 GiB%s)",
        (unsigned long long)Bytes, (unsigned long long)MaxTotalBytes,
        Allocated ? (", " + std::to_string(Allocated) + " already allocated")
                        .c_str()
                  : "");
  Allocated += Bytes;
  uint64_t Base = Next;
  Buffers.push_back({Base, std::vector<uint8_t>(Bytes)});
  // 256-byte alignment and a 64 KiB unmapped gap after every buffer.
  Next = (Base + Bytes + 0x10000 + 255) & ~uint64_t(255);
  return Base;
}

MutableArrayRef<uint8_t> GlobalMemory::getBuffer(uint64_t Addr) {
  for (Buffer &B : Buffers)
    if (B.Base == Addr)
      return B.Bytes;
  return {};
}

uint8_t *GlobalMemory::translate(uint64_t Addr, uint64_t Size, Access A) {
  // Buffers are sorted by address (allocate only appends higher ones).
  auto It = std::upper_bound(
      Buffers.begin(), Buffers.end(), Addr,
      [](uint64_t A, const Buffer &B) { return A < B.Base; });
  if (It == Buffers.begin())
    return nullptr;
  --It;
  uint64_t Off = Addr - It->Base;
  if (Off + Size > It->Bytes.size() || Off + Size < Off)
    return nullptr;
  if (Seen) {
    // Read first: the flag's cache line stays shared between host threads.
    std::atomic<uint8_t> &F = Seen[It - Buffers.begin()];
    if (!(F.load(std::memory_order_relaxed) & A))
      F.fetch_or(A, std::memory_order_relaxed);
  }
  return It->Bytes.data() + Off;
}

void GlobalMemory::trackAccesses(bool On) {
  Seen.reset();
  if (!On)
    return;
  Seen.reset(new std::atomic<uint8_t>[Buffers.size()]);
  for (size_t I = 0; I < Buffers.size(); ++I)
    Seen[I].store(0);
}

bool GlobalMemory::someBufferReadAndWritten() const {
  if (Seen)
    for (size_t I = 0; I < Buffers.size(); ++I)
      if (Seen[I].load() == (Read | Write))
        return true;
  return false;
}

std::vector<std::vector<uint8_t>> GlobalMemory::saveContents() const {
  std::vector<std::vector<uint8_t>> Saved;
  for (const Buffer &B : Buffers)
    Saved.push_back(B.Bytes);
  return Saved;
}

void GlobalMemory::restoreContents(
    const std::vector<std::vector<uint8_t>> &Saved) {
  for (size_t I = 0; I < Buffers.size() && I < Saved.size(); ++I)
    Buffers[I].Bytes = Saved[I];
}

//===----------------------------------------------------------------------===//
// Warps and blocks
//===----------------------------------------------------------------------===//

/// The running path of X.W ended (it exited or waits at a BSYNC): merges
/// the paths waiting at a BSYNC whose barrier's live lanes have all
/// arrived (the merged path continues after it), then runs the first
/// runnable path.  False when the warp exited (W.Exited) or faulted (every
/// remaining path waits forever).
static bool switchPath(Exec &X) {
  Warp &W = *X.W;
  std::vector<Path> &Ps = W.Parked;
  for (size_t I = 0; I < Ps.size(); ++I) {
    if (Ps[I].WaitBar < 0)
      continue;
    uint32_t Arrived = 0;
    for (const Path &P : Ps)
      if (P.WaitBar == Ps[I].WaitBar && P.PC == Ps[I].PC)
        Arrived |= P.Mask;
    if (W.Bar[Ps[I].WaitBar] & W.Live & ~Arrived)
      continue;
    Path Merged = {Arrived, Ps[I].PC + 1, -1};
    int8_t Bar = Ps[I].WaitBar;
    uint32_t PC = Ps[I].PC;
    Ps.erase(std::remove_if(Ps.begin(), Ps.end(),
                            [&](const Path &P) {
                              return P.WaitBar == Bar && P.PC == PC;
                            }),
             Ps.end());
    Ps.push_back(Merged);
    I = size_t(-1); // rescan: the merge may complete an outer barrier
  }
  for (size_t I = 0; I < Ps.size(); ++I)
    if (Ps[I].WaitBar < 0) {
      W.Active = Ps[I].Mask & W.Live;
      W.PC = Ps[I].PC;
      Ps.erase(Ps.begin() + I);
      if (!W.Active)
        return switchPath(X);
      return true;
    }
  if (Ps.empty()) {
    W.Exited = true;
    return false;
  }
  X.Idx = Ps.front().PC;
  X.fault("convergence barrier B" + Twine(int(Ps.front().WaitBar)) +
          " never completes: lanes 0x" +
          Twine(utohexstr(W.Bar[Ps.front().WaitBar] & W.Live,
                          /*LowerCase=*/true)) +
          " are expected, no path can run");
  return false;
}

/// Runs warp X.W until it exits, reaches a barrier, or faults.  A divergent
/// warp runs one path at a time (W.Active, W.PC), the others parked in
/// W.Parked, until the paths meet again at a BSYNC.
static void runWarp(Exec &X) {
  Warp &W = *X.W;
  const std::vector<DInst> &Insts = X.Prog->Insts;
  size_t N = Insts.size();
  while (!W.Exited) {
    if (W.PC >= N) {
      X.fault("ran past the end of the code");
      return;
    }
    const DInst &D = Insts[W.PC];
    X.Idx = W.PC;
    if (++W.Issued > X.Cfg->MaxWarpInstructions && X.Cfg->MaxWarpInstructions) {
      X.fault("instruction limit reached (endless loop?)");
      return;
    }
    // Wait mask: the scoreboards complete (async copy groups land).
    if (uint8_t WM = D.I.Ctrl.WaitMask) {
      for (unsigned S = 0; S < 6; ++S)
        if ((WM >> S) & 1) {
          if (!W.Groups.empty())
            landGroups(X, S, 0);
          if (X.Check)
            waitScoreboard(X, S);
        }
    }
    if (X.Check)
      checkIssue(X, D);
    uint32_t G = D.UniformGuard ? (W.UP[D.I.Guard] ? 0xffffffffu : 0)
                                : W.P[D.I.Guard];
    if (D.I.GuardNeg)
      G = ~G;
    uint32_t M = W.Active & G;
    X.Branch = false;
    X.Barrier = false;
    X.SyncBar = -1;
    D.Fn(X, D, M);
    if (X.Observing)
      X.Cfg->Observer->onIssue(X.LinearBlock, W.Id, W.PC, M, X.LaneAddr);
    X.ThreadInstrs += __builtin_popcount(M);
    W.P[sass::PT] = 0xffffffffu;
    W.UP[sass::PT] = true;
    if (!X.Fault.empty())
      return;
    if (X.Check) {
      recordIssue(X, D);
      W.Now += std::max<unsigned>(1, D.I.Ctrl.Stall);
    }
    if (X.SyncBar >= 0) {
      W.Parked.push_back({W.Active, W.PC, int8_t(X.SyncBar)});
      W.Active = 0;
    } else {
      W.PC = X.Branch ? X.NextPC : W.PC + 1;
    }
    if (!W.Active) {
      if (!switchPath(X))
        return;
      continue;
    }
    if (X.Barrier) {
      W.AtBarrier = true;
      return;
    }
  }
}

/// Releases the barriers of block \p B whose threads have all arrived
/// (every live warp is waiting at one): a barrier without a thread count
/// when every live warp waits at it, one with a count when the warps
/// waiting at it (32 threads each, PTX bar.sync) and the BAR.ARV arrivals
/// reach the count.  Computes BAR.RED's result for the warps it releases.
/// False when none can be released (a deadlock).
static bool releaseBarriers(Block &B) {
  bool Released = false;
  for (unsigned Id = 0; Id < 16; ++Id) {
    uint32_t Need = 0, Threads = 0, Live = 0, Votes = 0;
    bool Any = false, All = true;
    uint64_t Latest = 0;
    for (Warp *W : B.Warps) {
      if (W->Exited)
        continue;
      if (!W->AtBarrier || W->BarId != Id) {
        All = false;
        continue;
      }
      Any = true;
      Need = std::max(Need, W->BarCount);
      Threads += 32;
      Live += __builtin_popcount(W->Live);
      Votes += __builtin_popcount(W->BarRedBits);
      Latest = std::max(Latest, W->Now);
    }
    if (!Any || (Need ? Threads + B.Arrived[Id] < Need : !All))
      continue;
    for (Warp *W : B.Warps) {
      if (W->Exited || !W->AtBarrier || W->BarId != Id)
        continue;
      W->AtBarrier = false;
      W->Now = Latest;
      if (W->BarRed) {
        // RedOp: .POPC 0, .AND 1, .OR 2.
        W->RedCount = W->BarRedOp == 0 ? Votes
                      : W->BarRedOp == 1 ? uint32_t(Votes == Live)
                                         : uint32_t(Votes != 0);
        W->RedPred = W->RedCount != 0;
        W->BarRed = false;
        W->BarRedBits = 0;
      }
    }
    // The BAR.ARV arrivals this release used up.
    uint32_t FromArrive = Need > Threads ? Need - Threads : 0;
    B.Arrived[Id] -= std::min(B.Arrived[Id], Need ? FromArrive : B.Arrived[Id]);
    Released = true;
  }
  return Released;
}

static Error runBlock(Exec &X, Block &B) {
  X.B = &B;
  for (;;) {
    bool Progress = false, AnyLive = false;
    for (Warp *W : B.Warps) {
      if (W->Exited || W->AtBarrier)
        continue;
      X.W = W;
      runWarp(X);
      Progress = true;
      if (!X.Fault.empty()) {
        std::string S;
        raw_string_ostream OS(S);
        OS << "block (" << B.Ctaid[0] << "," << B.Ctaid[1] << ","
           << B.Ctaid[2] << ") warp " << W->Id << " at "
           << X.Prog->describe(X.Idx) << ": " << X.Fault;
        return createStringError(inconvertibleErrorCode(), OS.str());
      }
    }
    unsigned Waiting = 0;
    for (Warp *W : B.Warps) {
      if (!W->Exited)
        AnyLive = true;
      if (W->AtBarrier)
        ++Waiting;
    }
    if (!AnyLive)
      return Error::success();
    if (Waiting) {
      // Every live warp is at a barrier: release those whose threads have
      // all arrived.  In the cycle model a barrier's warps leave at the
      // latest arrival.
      if (!releaseBarriers(B))
        return createStringError(inconvertibleErrorCode(),
                                 "block deadlock: every live warp waits at "
                                 "a barrier that cannot complete");
      if (X.Check) {
        for (auto &R : B.Landed)
          for (uint32_t I = 0; I < R.second; ++I)
            if (B.SmemState[R.first + I] & 0x8000)
              B.SmemState[R.first + I] = 0;
        B.Landed.clear();
      }
      continue;
    }
    if (!Progress)
      return createStringError(inconvertibleErrorCode(), "block deadlock");
  }
}

Error sim::checkLaunchConfig(const KernelImage &K, const LaunchConfig &Cfg) {
  auto Fail = [](const Twine &Msg) {
    return createStringError(inconvertibleErrorCode(), Msg);
  };
  // CUDA programming guide, "Features and Technical Specifications": at
  // most 1024 threads a block, block x/y <= 1024, z <= 64; grid x <= 2^31-1,
  // y/z <= 65535.
  const auto &Bl = Cfg.Block, &Gr = Cfg.Grid;
  uint64_t Threads = uint64_t(Bl[0]) * Bl[1] * Bl[2];
  if (!Threads || Threads > 1024 || Bl[0] > 1024 || Bl[1] > 1024 ||
      Bl[2] > 64)
    return Fail("block " + Twine(Bl[0]) + "," + Twine(Bl[1]) + "," +
                Twine(Bl[2]) + " (" + Twine(Threads) +
                " threads): expected 1..1024 threads, x and y at most 1024, "
                "z at most 64");
  if (!Gr[0] || !Gr[1] || !Gr[2] || Gr[0] > 0x7fffffffu || Gr[1] > 65535 ||
      Gr[2] > 65535)
    return Fail("grid " + Twine(Gr[0]) + "," + Twine(Gr[1]) + "," +
                Twine(Gr[2]) +
                ": expected x in 1..2147483647, y and z in 1..65535");
  uint32_t ParamBytes = 0;
  for (auto &Pr : K.Params)
    ParamBytes = std::max(ParamBytes, Pr.first + Pr.second);
  if (Cfg.Params.size() < ParamBytes)
    return Fail("kernel '" + K.Name + "' takes " + Twine(ParamBytes) +
                " parameter bytes, " + Twine(Cfg.Params.size()) + " given");
  uint64_t SharedBytes =
      K.ReservedSharedBytes + K.StaticSharedBytes + Cfg.DynamicSharedBytes;
  // A block's shared memory: at most one SM's (getSharedBytesPerSM).
  uint64_t MaxShared = getSharedBytesPerSM(K.Target);
  if (SharedBytes > MaxShared)
    return Fail(Twine(SharedBytes) + " bytes of shared memory (" +
                Twine(K.ReservedSharedBytes) + " reserved, " +
                Twine(K.StaticSharedBytes) + " static, " +
                Twine(Cfg.DynamicSharedBytes) + " dynamic) exceed sm_" +
                Twine(K.SM) + "'s " + Twine(MaxShared / 1024) + " KiB");
  return Error::success();
}

/// The calling host thread's CPU time in seconds (0 where the system has
/// no per-thread clock).
static double threadCPUSeconds() {
#if defined(CLOCK_THREAD_CPUTIME_ID)
  timespec TS;
  if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &TS) == 0)
    return double(TS.tv_sec) + double(TS.tv_nsec) * 1e-9;
#endif
  return 0;
}

/// Constant bank 0 of a launch, laid out as the cubin's target reads it
/// (td/Targets.td's CB0* slots): ntid, nctaid, the stack pointer (the top
/// of the thread's local memory), the dynamic shared size, the grid id,
/// the SM count, the reserved shared bytes, the cluster shape, the default
/// memory descriptor and the parameters.  tp-sim runs one grid on one SM
/// (%smid is 0), so %gridid is 1 and %nsmid 1; launch() admits clusters of
/// one CTA only, so each cluster value follows from ClusterDims.  The
/// environment registers (%envreg<n>) stay zero: the driver defines them.
static std::vector<uint8_t> makeConstantBank(const KernelImage &K,
                                             const LaunchConfig &Cfg) {
  const sass::TargetInfo &TI = sass::getTargetInfo(K.Target);
  std::vector<uint8_t> CB(K.ParamBase + std::max<size_t>(Cfg.Params.size(), 8));
  // A slot at or past NoCB0Slot (x, y, z of a value the target keeps in
  // no fixed slot) is not written; every other slot lies below ParamBase.
  auto Put32 = [&](uint32_t Off, uint32_t V) {
    if (Off >= sass::NoCB0Slot)
      return;
    if (Off + 4 > CB.size())
      CB.resize(Off + 4);
    memcpy(&CB[Off], &V, 4);
  };
  uint32_t ClusterCTAs = 1;
  for (unsigned I = 0; I < 3; ++I) {
    Put32(TI.CB0NTid + 4 * I, Cfg.Block[I]);
    Put32(TI.CB0NCtaid + 4 * I, Cfg.Grid[I]);
    uint32_t Dim = K.ClusterDims[I];
    ClusterCTAs *= Dim;
    Put32(TI.CB0ClusterNCtaid + 4 * I, Dim);
    float Rcp = 1.0f / float(Dim);
    uint32_t RcpBits;
    memcpy(&RcpBits, &Rcp, 4);
    Put32(TI.CB0ClusterNCtaidRcp + 4 * I, RcpBits);
    Put32(TI.CB0NClusterId + 4 * I, Cfg.Grid[I] / Dim);
  }
  Put32(TI.CB0ClusterNCtaRank, ClusterCTAs);
  Put32(TI.CB0StackPointer, K.LocalBytes); // local memory top
  Put32(TI.CB0DynamicSharedBytes, Cfg.DynamicSharedBytes);
  Put32(TI.CB0GridId, 1);
  Put32(TI.CB0GridId + 4, 0);
  Put32(TI.CB0NSMId, 1);
  Put32(TI.CB0ReservedSharedBytes, K.ReservedSharedBytes);
  Put32(K.DescriptorOffset, 0x0e000000);   // default memory descriptor
  Put32(K.DescriptorOffset + 4, 0x10000000);
  memcpy(&CB[K.ParamBase], Cfg.Params.data(), Cfg.Params.size());

  return CB;
}

/// Warp \p I of a block of \p Threads threads at its start: registers
/// zero, PT/UPT true, its lanes live, local memory undefined (0xa5), no
/// copies in flight, the hazard state cleared.
static void resetWarp(Warp &W, unsigned I, uint64_t Threads,
                      const KernelImage &K, bool Check) {
    memset(W.R, 0, sizeof(W.R));
  memset(W.P, 0, sizeof(W.P));
  memset(W.UR, 0, sizeof(W.UR));
  memset(W.UP, 0, sizeof(W.UP));
  W.P[sass::PT] = 0xffffffffu;
  W.UP[sass::PT] = true;
  uint64_t Lanes = std::min<uint64_t>(32, Threads - 32 * I);
  W.Active = Lanes == 32 ? 0xffffffffu : uint32_t((1ull << Lanes) - 1);
  W.Live = W.Active;
  W.Parked.clear();
  memset(W.Bar, 0, sizeof(W.Bar));
  W.PC = 0;
  W.Id = I;
  W.Exited = W.AtBarrier = false;
  W.BarId = 0;
  W.BarCount = 0;
  W.BarRed = false;
  W.BarRedBits = 0;
  W.RedCount = 0;
  W.RedPred = false;
  W.Issued = 0;
  // Local memory is undefined at block start, as shared memory.
  W.Local.assign(size_t(32) * K.LocalBytes, 0xa5);
  W.Open.clear();
  W.Groups.clear();
  W.Now = 0;
  memset(W.SBIssued, 0, sizeof(W.SBIssued));
  memset(W.SBReleased, 0, sizeof(W.SBReleased));
  memset(W.SBSetCycle, 0, sizeof(W.SBSetCycle));
  memset(W.SBMissedSeq, 0, sizeof(W.SBMissedSeq));
  if (Check) {
    for (RegHz &H : W.Hz)
      H = RegHz();
    for (auto &Q : W.Unscoreboarded)
      Q.clear();
    memset(W.QueueIssued, 0, sizeof(W.QueueIssued));
    W.PredWrites = PredicateWrites();
    memset(W.QueueReadsDone, 0, sizeof(W.QueueReadsDone));
    for (auto &M : W.ReadMarks)
      M.clear();
  }
}

Expected<LaunchStats> sim::launch(const Program &P, GlobalMemory &Mem,
                                  const LaunchConfig &Cfg) {
  const KernelImage &K = P.Kernel;
  if (Error E = checkClusterShape(K))
    return E;
  if (Error E = checkLaunchConfig(K, Cfg))
    return E;
  uint64_t Threads = uint64_t(Cfg.Block[0]) * Cfg.Block[1] * Cfg.Block[2];
  uint64_t NumBlocks = uint64_t(Cfg.Grid[0]) * Cfg.Grid[1] * Cfg.Grid[2];
  if (Cfg.MaxBlocks)
    NumBlocks = std::min(NumBlocks, Cfg.MaxBlocks);
  uint64_t SharedBytes =
      K.ReservedSharedBytes + K.StaticSharedBytes + Cfg.DynamicSharedBytes;

  std::vector<uint8_t> CB = makeConstantBank(K, Cfg);

  unsigned NumWarps = unsigned((Threads + 31) / 32);
  // Blocks are handed out by one atomic counter; everything a block writes
  // but global memory (warps, shared memory, counts) is the host thread's
  // own, so the hot loop takes no lock.  Mu guards the first error and the
  // sums at a thread's end.
  std::atomic<uint64_t> NextBlock{0};
  std::atomic<bool> Failed{false};
  std::mutex Mu;
  Error FirstErr = Error::success();
  LaunchStats Stats;

  auto Worker = [&](unsigned ThreadIndex) {
    std::vector<std::unique_ptr<Warp>> Warps(NumWarps);
    for (auto &W : Warps)
      W.reset(new Warp);
    Block B;
    B.CBank0 = CB;
    B.Shared.resize(SharedBytes);
    if (Cfg.CheckSchedule)
      B.SmemState.resize(SharedBytes);
    std::vector<std::string> Hazards;
    uint64_t HazardCount = 0, WarpInstrs = 0, MaxCycles = 0, BlocksRun = 0;
    uint64_t LaneAddr[64] = {}; // LDGSTS: shared, then global addresses
    Exec X;
    X.Prog = &P;
    X.Cfg = &Cfg;
    X.Mem = &Mem;
    X.Check = Cfg.CheckSchedule;
    X.Hazards = &Hazards;
    X.HazardCount = &HazardCount;
    for (;;) {
      uint64_t Id = NextBlock.fetch_add(1, std::memory_order_relaxed);
      if (Id >= NumBlocks || Failed.load(std::memory_order_relaxed))
        break;
      ++BlocksRun;
      B.Ctaid = {uint32_t(Id % Cfg.Grid[0]),
                 uint32_t(Id / Cfg.Grid[0] % Cfg.Grid[1]),
                 uint32_t(Id / Cfg.Grid[0] / Cfg.Grid[1])};
      // Shared memory is undefined at block start: fill with a pattern so
      // that reading unwritten bytes does not look like zeros.
      std::fill(B.Shared.begin(), B.Shared.end(), 0xa5);
      if (X.Check) {
        std::fill(B.SmemState.begin(), B.SmemState.end(), SmemNeverWritten);
        B.Landed.clear();
      }
      B.Warps.clear();
      std::fill(std::begin(B.Arrived), std::end(B.Arrived), 0);
      for (unsigned I = 0; I < NumWarps; ++I) {
        Warp &W = *Warps[I];
        resetWarp(W, I, Threads, K, X.Check);
        B.Warps.push_back(&W);
      }
      X.Fault.clear();
      X.LinearBlock = Id;
      X.Observing = Cfg.Observer && Cfg.Observer->observesBlock(Id);
      X.LaneAddr = X.Observing ? LaneAddr : nullptr;
      Error E = runBlock(X, B);
      for (Warp *W : B.Warps) {
        WarpInstrs += W->Issued;
        MaxCycles = std::max(MaxCycles, W->Now);
      }
      if (E) {
        std::lock_guard<std::mutex> G(Mu);
        if (!Failed.exchange(true)) {
          FirstErr = std::move(E);
        } else {
          consumeError(std::move(E));
        }
        break;
      }
    }
    double CPU = threadCPUSeconds();
    std::lock_guard<std::mutex> G(Mu);
    Stats.Threads[ThreadIndex] = {BlocksRun, CPU};
    Stats.WarpInstructions += WarpInstrs;
    Stats.ThreadInstructions += X.ThreadInstrs;
    Stats.Hazards += HazardCount;
    Stats.MaxCycles = std::max(Stats.MaxCycles, MaxCycles);
    for (std::string &S : Hazards)
      if (Stats.HazardReports.size() < Cfg.MaxHazardReports)
        Stats.HazardReports.push_back(std::move(S));
  };

  // Runs every block on NT host threads into Stats / FirstErr.
  auto RunAll = [&](unsigned NT) {
    NextBlock = 0;
    Failed = false;
    consumeError(std::move(FirstErr));
    FirstErr = Error::success();
    Stats = LaunchStats();
    Stats.Blocks = NumBlocks;
    Stats.Threads.resize(NT);
    if (NT == 1) {
      Worker(0);
      return;
    }
    std::vector<std::thread> Pool;
    for (unsigned I = 0; I < NT; ++I)
      Pool.emplace_back(Worker, I);
    for (std::thread &T : Pool)
      T.join();
  };

  unsigned NT = std::max(1u, std::min<unsigned>(Cfg.Threads, NumBlocks));
  if (NT == 1) {
    RunAll(1);
  } else {
    // Blocks run in any order on several threads; the results equal a
    // sequential run's unless a block reads what another one wrote.  That
    // needs a buffer both read and written: then the parallel run is
    // undone and the blocks rerun in order (an observer, which has seen
    // the first run, makes it an error instead).
    std::vector<std::vector<uint8_t>> Saved = Mem.saveContents();
    Mem.trackAccesses(true);
    RunAll(NT);
    bool Communicate = Mem.someBufferReadAndWritten();
    Mem.trackAccesses(false);
    if (Communicate) {
      if (Cfg.Observer) {
        consumeError(std::move(FirstErr));
        return createStringError(
            inconvertibleErrorCode(),
            "kernel '%s' reads and writes one global buffer, so its blocks "
            "may see each other's stores: run it on one host thread",
            K.Name.c_str());
      }
      Mem.restoreContents(Saved);
      RunAll(1);
      Stats.Serialised = true;
    }
  }
  if (Failed)
    return FirstErr;
  consumeError(std::move(FirstErr));
  return Stats;
}
