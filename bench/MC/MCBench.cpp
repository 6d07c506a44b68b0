//===- MCBench.cpp - Decode and encode throughput --------------------------===//
///
/// \file
/// Single-thread throughput of tp::sass::decode and encode over the words
/// of the reference TSVs (every row, decodable or not: unknown words cost a
/// dispatch too) and over the decodable ones only.  Reported as
/// instructions per second (items_per_second).
///
///   ninja -C build tp-benchmarks && build/bench/MCBench
///
//===----------------------------------------------------------------------===//

#include "tp/Target/SASS/SASS.h"
#include "benchmark/benchmark.h"
#include <fstream>
#include <string>
#include <vector>

using namespace tp::sass;

static std::vector<Word128> loadWords() {
  std::vector<Word128> Ws;
  for (const char *F : {"/reference/sm_86.encodings.tsv",
                        "/reference/sm_80.encodings.tsv"}) {
    std::ifstream In(std::string(TP_SHARED_DIR) + F);
    std::string L;
    while (std::getline(In, L)) {
      size_t T1 = L.find('\t');
      if (L.empty() || L[0] == '#' || T1 == std::string::npos ||
          L.size() < T1 + 33)
        continue;
      Word128 W;
      W.Hi = std::stoull(L.substr(T1 + 1, 16), nullptr, 16);
      W.Lo = std::stoull(L.substr(T1 + 17, 16), nullptr, 16);
      Ws.push_back(W);
    }
  }
  return Ws;
}

static const std::vector<Word128> &allWords() {
  static std::vector<Word128> Ws = loadWords();
  return Ws;
}

static const std::vector<Word128> &knownWords() {
  static std::vector<Word128> Ws = [] {
    std::vector<Word128> K;
    Instruction I;
    for (const Word128 &W : allWords())
      if (decode(W, I))
        K.push_back(W);
    return K;
  }();
  return Ws;
}

/// Decodes every word of \p Ws per iteration.
static void decodeWords(benchmark::State &S, const std::vector<Word128> &Ws) {
  Instruction I;
  size_t N = 0;
  for (auto _ : S) {
    for (const Word128 &W : Ws) {
      bool OK = decode(W, I);
      benchmark::DoNotOptimize(OK);
      benchmark::DoNotOptimize(I);
    }
    N += Ws.size();
  }
  S.SetItemsProcessed(N);
}

static void BM_DecodeKnown(benchmark::State &S) { decodeWords(S, knownWords()); }
BENCHMARK(BM_DecodeKnown);

static void BM_DecodeAllRows(benchmark::State &S) { decodeWords(S, allWords()); }
BENCHMARK(BM_DecodeAllRows);

static void BM_Encode(benchmark::State &S) {
  std::vector<Instruction> Is;
  for (const Word128 &W : knownWords()) {
    Instruction I;
    decode(W, I);
    Is.push_back(I);
  }
  size_t N = 0;
  for (auto _ : S) {
    for (const Instruction &I : Is) {
      Word128 W = encode(I);
      benchmark::DoNotOptimize(W);
    }
    N += Is.size();
  }
  S.SetItemsProcessed(N);
}
BENCHMARK(BM_Encode);

BENCHMARK_MAIN();
