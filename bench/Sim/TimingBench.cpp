//===- TimingBench.cpp - Modeled warp instructions per second -------------===//
///
/// \file
/// The timing model's speed (issue 14: >= 2 M warp instructions/s on one
/// core): tp-llc's default kernel (4096^3, 128x128x32, 8 warps, 4 stages),
/// its resident blocks recorded once by the functional simulator (as
/// `tp-sim --timing=CARD --timing-sample` does), then TimingModel::model()
/// timed alone on one thread, for the RTX 3090 and the H100 SXM card (the
/// sm_90 build).  items/s = warp instructions modelled per second.  The
/// cubins are built by the bench's CMake rules (TP_TIMING_BENCH_SM86/90).
///
//===----------------------------------------------------------------------===//
#include "tp/Sim/Simulator.h"
#include "tp/Sim/Timing.h"
#include "tp/Support/LaunchManifest.h"
#include "tp/Support/ReferenceGemm.h"
#include "llvm/Support/MemoryBuffer.h"
#include <benchmark/benchmark.h>
#include <cstring>
#include <map>
#include <memory>

using namespace llvm;
using namespace tp;

namespace {
/// One kernel's recorded streams on one card.
struct Recorded {
  sim::ProgramPtr Prog;
  std::unique_ptr<sim::TimingModel> TM;
  double Flops = 0;
  std::string Error;
};

Recorded record(const char *CubinPath, const char *CardName) {
  Recorded S;
  auto Man = readLaunchManifest(getManifestPathFor(CubinPath));
  if (!Man) {
    S.Error = toString(Man.takeError());
    return S;
  }
  auto MB = MemoryBuffer::getFile(CubinPath, /*IsText=*/false);
  if (!MB) {
    S.Error = std::string("cannot read ") + CubinPath;
    return S;
  }
  ArrayRef<uint8_t> Bytes((const uint8_t *)(*MB)->getBufferStart(),
                          (*MB)->getBufferSize());
  auto K = sim::loadKernel(Bytes, Man->Kernel);
  if (!K) {
    S.Error = toString(K.takeError());
    return S;
  }
  auto P = sim::buildProgram(*K);
  auto C = sim::loadCard(CardName, sim::getDefaultCardsDir());
  if (!P || !C) {
    S.Error = !P ? toString(P.takeError()) : toString(C.takeError());
    if (P)
      consumeError(C.takeError());
    return S;
  }
  S.Prog = std::move(*P);
  GemmProblem GP = GemmProblem::fromManifest(*Man);
  sim::GlobalMemory Mem;
  // Zero operands: the model needs the addresses and branch outcomes,
  // which do not depend on the values.
  uint64_t AA = cantFail(Mem.allocate(GP.elementsA() * 2)),
           BA = cantFail(Mem.allocate(GP.elementsB() * 2)),
           CA = cantFail(Mem.allocate(GP.elementsC() * 4));
  sim::LaunchConfig Cfg;
  Cfg.Grid = Man->Grid;
  Cfg.Block = Man->Block;
  Cfg.DynamicSharedBytes = Man->DynamicSharedBytes;
  Cfg.Threads = 1;
  Cfg.Params.resize(Man->getParamBlockSize());
  for (const ManifestParam &MP : Man->Params) {
    uint64_t V = MP.Role == ParamRole::A   ? AA
                 : MP.Role == ParamRole::B ? BA
                 : MP.Role == ParamRole::C ? CA
                 : MP.Role == ParamRole::M ? GP.M
                 : MP.Role == ParamRole::N ? GP.N
                 : MP.Role == ParamRole::K ? GP.K
                                           : 0;
    memcpy(&Cfg.Params[MP.Offset], &V, MP.Size);
  }
  S.TM = std::make_unique<sim::TimingModel>(*S.Prog, *C, Cfg);
  Cfg.Observer = S.TM.get();
  Cfg.MaxBlocks = S.TM->getSampledBlocks();
  auto R = sim::launch(*S.Prog, Mem, Cfg);
  if (!R) {
    S.Error = toString(R.takeError());
    S.TM.reset();
  }
  S.Flops = 2.0 * GP.M * GP.N * GP.K;
  return S;
}

void modelKernel(benchmark::State &State, const char *Cubin,
                 const char *Card) {
  static std::map<std::string, Recorded> Cache;
  std::string Key = std::string(Cubin) + ":" + Card;
  auto It = Cache.find(Key);
  if (It == Cache.end())
    It = Cache.emplace(Key, record(Cubin, Card)).first;
  Recorded &S = It->second;
  if (!S.TM) {
    State.SkipWithError(S.Error.c_str());
    return;
  }
  uint64_t Instrs = 0;
  double TFlops = 0;
  for (auto _ : State) {
    sim::TimingResult R = S.TM->model(S.Flops, 0);
    Instrs += R.WarpInstructions;
    TFlops = R.tflops();
  }
  State.SetItemsProcessed(int64_t(Instrs));
  State.counters["modeled_TFLOP/s"] = TFlops;
}
} // namespace

BENCHMARK_CAPTURE(modelKernel, default_sm86_rtx3090, TP_TIMING_BENCH_SM86,
                  "rtx3090")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(modelKernel, default_sm90_h100, TP_TIMING_BENCH_SM90,
                  "h100-sxm")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
