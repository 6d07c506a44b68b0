//===- CompileBench.cpp - The library's compile, warm, in-process ---------===//
///
/// \file
/// What a framework compiling kernels at run time pays a kernel: the wall
/// time of tp_gemm_compile (the C API over tp::compileGemm) plus
/// tp_kernel_free, warm (the pass registry and the tables set up by the
/// first call, outside the timing), in one thread, for
///
///  * the default description (4096^3, tile "auto": 256x128 on sm_86),
///  * the 128x128 tile ("large"),
///  * the fixed shape (runtime_shape = 0, tile auto),
///
/// each without asking for the SASS listing (a JIT that loads the cubin)
/// and with it (tp_kernel_sass once, as a caller that shows the code).
/// Only the C API is used, so the same file builds against any libtp.a
/// (docs/speed.md compares two commits with it).  Figures depend on the
/// machine's load: never part of `check`.
///
//===----------------------------------------------------------------------===//

#include "tp/tp.h"

#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

enum Variant { Default, Tile128x128, FixedShape };

tp_gemm_desc describe(Variant V) {
  tp_gemm_desc D;
  tp_gemm_desc_init(&D);
  if (V == Tile128x128)
    D.tile = "large";
  if (V == FixedShape)
    D.runtime_shape = 0;
  return D;
}

/// One compile (and free) of \p D; with \p Listing the listing is asked
/// for.  Aborts on failure: a benchmark of a failing compile measures
/// nothing.
void compileOnce(const tp_gemm_desc &D, bool Listing) {
  tp_kernel *K = nullptr;
  char *Error = nullptr;
  if (tp_gemm_compile(&D, &K, &Error) != 0) {
    std::fprintf(stderr, "CompileBench: %s", Error ? Error : "failed\n");
    std::abort();
  }
  size_t Size = 0;
  benchmark::DoNotOptimize(tp_kernel_cubin(K, &Size));
  if (Listing) {
    const char *Sass = tp_kernel_sass(K);
    benchmark::DoNotOptimize(std::strlen(Sass));
  }
  tp_kernel_free(K);
}

void BM_Compile(benchmark::State &State) {
  const tp_gemm_desc D = describe(Variant(State.range(0)));
  const bool Listing = State.range(1) != 0;
  compileOnce(D, Listing); // warm: registry, tables, allocator
  for (auto _ : State)
    compileOnce(D, Listing);
}

// Args: {variant (0 default, 1 128x128, 2 fixed shape), listing asked}.
BENCHMARK(BM_Compile)
    ->ArgNames({"desc", "listing"})
    ->Args({Default, 0})
    ->Args({Default, 1})
    ->Args({Tile128x128, 0})
    ->Args({Tile128x128, 1})
    ->Args({FixedShape, 0})
    ->Args({FixedShape, 1})
    ->Unit(benchmark::kMicrosecond);

} // namespace

BENCHMARK_MAIN();
