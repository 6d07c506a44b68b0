//===- ReferenceGemmBench.cpp - Cost of the CPU reference and inputs ------===//
///
/// \file
/// How long tp-sim's and tp-run's CPU side takes: the exact double-precision
/// reference (tp::referenceGemm) at the shapes the tools check on the CPU,
/// in two layouts, and the input generator.  Run:
///   ninja -C build tp-benchmarks && build/bench/tp-bench-reference-gemm
///
//===----------------------------------------------------------------------===//

#include "tp/Support/ReferenceGemm.h"
#include <benchmark/benchmark.h>

using namespace tp;

static void referenceGemmSquare(benchmark::State &State, OperandLayout LA,
                                OperandLayout LB) {
  uint64_t S = uint64_t(State.range(0));
  GemmProblem P{S, S, S, LA, LB, false};
  std::vector<uint16_t> A(P.elementsA()), B(P.elementsB());
  fillRandomHalves(A, 1, StreamA);
  fillRandomHalves(B, 1, StreamB);
  std::vector<double> C;
  for (auto _ : State) {
    referenceGemm(P, A, B, {}, C);
    benchmark::DoNotOptimize(C.data());
  }
  State.counters["GFLOP/s"] = benchmark::Counter(
      2.0 * double(S) * double(S) * double(S) * 1e-9,
      benchmark::Counter::kIsIterationInvariantRate);
}

static void BM_ReferenceRowsColumns(benchmark::State &State) {
  referenceGemmSquare(State, OperandLayout::Rows, OperandLayout::Columns);
}
static void BM_ReferenceColumnsRows(benchmark::State &State) {
  referenceGemmSquare(State, OperandLayout::Columns, OperandLayout::Rows);
}
BENCHMARK(BM_ReferenceRowsColumns)
    ->Arg(256)
    ->Arg(512)
    ->Arg(1024)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ReferenceColumnsRows)->Arg(512)->Unit(benchmark::kMillisecond);

static void BM_FillRandomHalves(benchmark::State &State) {
  std::vector<uint16_t> A(size_t(State.range(0)));
  for (auto _ : State) {
    fillRandomHalves(A, 1, StreamA);
    benchmark::DoNotOptimize(A.data());
  }
  State.SetItemsProcessed(int64_t(State.iterations()) * State.range(0));
}
BENCHMARK(BM_FillRandomHalves)->Arg(1 << 20)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
