//===- SimBench.cpp - Simulated instructions per second of tp-sim ---------===//
///
/// \file
/// Runs a GEMM kernel on a 512x512x512 product on the simulator with 1 and
/// 2 host threads and reports simulated warp instructions per second
/// (items/s) and thread instructions (counter).  The kernel is the cubin
/// and manifest named by TP_SIM_BENCH_CUBIN / TP_SIM_BENCH_MANIFEST (for
/// tp-llc's default tile: `tp-llc ... -o gemm.cubin` writes gemm.cubin.json
/// beside it); by default the ptxas-built reference GEMM of shared/
/// (128x128 tile, 8 warps, 4 stages), launched for 512^3.  Also with
/// hazard mode, which costs more per instruction.
///
//===----------------------------------------------------------------------===//
#include "tp/Sim/Simulator.h"
#include "tp/Support/LaunchManifest.h"
#include "tp/Support/ReferenceGemm.h"
#include "llvm/Support/MemoryBuffer.h"
#include <benchmark/benchmark.h>
#include <cstdlib>
#include <cstring>

using namespace llvm;
using namespace tp;

namespace {
struct Setup {
  sim::ProgramPtr Prog;
  LaunchManifest Man;
  std::string Error;
};

Setup &getSetup() {
  static Setup S = [] {
    Setup S;
    const char *Cubin = getenv("TP_SIM_BENCH_CUBIN");
#ifdef TP_SIM_DEFAULT_CUBIN
    if (!Cubin)
      Cubin = TP_SIM_DEFAULT_CUBIN;
#endif
    std::string CubinPath =
        Cubin ? Cubin : TP_SHARED_DIR "/reference/cubin/gemm_ref_sm86.cubin";
    if (const char *M = getenv("TP_SIM_BENCH_MANIFEST")) {
      auto Man = readLaunchManifest(M);
      if (!Man) {
        S.Error = llvm::toString(Man.takeError());
        return S;
      }
      S.Man = *Man;
    } else if (Cubin) {
      auto Man = readLaunchManifest(getManifestPathFor(CubinPath));
      if (!Man) {
        S.Error = llvm::toString(Man.takeError());
        return S;
      }
      S.Man = *Man;
    } else {
      LaunchManifest &M = S.Man;
      M.Kernel = "gemm_sm86_rows_cols";
      M.Grid = {4, 4, 1};
      M.Block = {256, 1, 1};
      M.DynamicSharedBytes = 65536;
      M.M = M.N = M.K = 512;
      M.Params = {{"A", ParamRole::A, 0, 8}, {"B", ParamRole::B, 8, 8},
                  {"C", ParamRole::C, 16, 8}, {"M", ParamRole::M, 24, 4},
                  {"N", ParamRole::N, 28, 4}, {"K", ParamRole::K, 32, 4}};
    }
    auto MB = llvm::MemoryBuffer::getFile(CubinPath, false);
    if (!MB) {
      S.Error = "cannot read " + CubinPath;
      return S;
    }
    llvm::ArrayRef<uint8_t> Bytes((const uint8_t *)(*MB)->getBufferStart(),
                                  (*MB)->getBufferSize());
    auto K = sim::loadKernel(Bytes, S.Man.Kernel);
    if (!K) {
      S.Error = llvm::toString(K.takeError());
      return S;
    }
    auto P = sim::buildProgram(*K);
    if (!P) {
      S.Error = llvm::toString(P.takeError());
      return S;
    }
    S.Prog = std::move(*P);
    return S;
  }();
  return S;
}

void runGemm(benchmark::State &State, unsigned Threads, bool Check) {
  Setup &S = getSetup();
  if (!S.Prog) {
    State.SkipWithError(S.Error.c_str());
    return;
  }
  GemmProblem P = GemmProblem::fromManifest(S.Man);
  std::vector<uint16_t> A(P.elementsA()), B(P.elementsB());
  fillRandomHalves(A, 1, StreamA);
  fillRandomHalves(B, 1, StreamB);
  uint64_t Instrs = 0, ThreadInstrs = 0;
  for (auto _ : State) {
    sim::GlobalMemory Mem;
    uint64_t AA = cantFail(Mem.allocate(A.size() * 2)),
             BA = cantFail(Mem.allocate(B.size() * 2)),
             CA = cantFail(Mem.allocate(P.elementsC() * 4)),
             RA = P.Residual ? cantFail(Mem.allocate(P.elementsC() * 4)) : 0;
    memcpy(Mem.getBuffer(AA).data(), A.data(), A.size() * 2);
    memcpy(Mem.getBuffer(BA).data(), B.data(), B.size() * 2);
    sim::LaunchConfig Cfg;
    Cfg.Grid = S.Man.Grid;
    Cfg.Block = S.Man.Block;
    Cfg.DynamicSharedBytes = S.Man.DynamicSharedBytes;
    Cfg.Threads = Threads;
    Cfg.CheckSchedule = Check;
    Cfg.Params.resize(S.Man.getParamBlockSize());
    for (const ManifestParam &MP : S.Man.Params) {
      uint64_t V = MP.Role == ParamRole::A   ? AA
                   : MP.Role == ParamRole::B ? BA
                   : MP.Role == ParamRole::C ? CA
                   : MP.Role == ParamRole::R ? RA
                   : MP.Role == ParamRole::M ? P.M
                   : MP.Role == ParamRole::N ? P.N
                                             : P.K;
      memcpy(&Cfg.Params[MP.Offset], &V, MP.Size);
    }
    auto R = sim::launch(*S.Prog, Mem, Cfg);
    if (!R) {
      State.SkipWithError(llvm::toString(R.takeError()).c_str());
      return;
    }
    Instrs += R->WarpInstructions;
    ThreadInstrs += R->ThreadInstructions;
  }
  State.SetItemsProcessed(int64_t(Instrs));
  State.counters["thread_instrs/s"] =
      benchmark::Counter(double(ThreadInstrs), benchmark::Counter::kIsRate);
}
} // namespace

BENCHMARK_CAPTURE(runGemm, threads1, 1, false)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(runGemm, threads2, 2, false)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(runGemm, threads1_check, 1, true)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_MAIN();
