//===- MCBench.cpp - Decode and encode throughput --------------------------===//
///
/// \file
/// Single-thread throughput of tp::sass::decode and encode over the words
/// of the reference TSVs (every row, decodable or not: unknown words cost a
/// dispatch too) and over the decodable ones only, and of decode over the
/// .text words of the reference cubins and of the suite's kernels
/// (build/bench/MC/*.cubin, built by tp-llc), each with its cubin's target.
/// Reported as decoded words per second (items_per_second).
///
///   ninja -C build tp-benchmarks && build/bench/MCBench
///
//===----------------------------------------------------------------------===//

#include "tp/Object/CubinFile.h"
#include "tp/Target/SASS/SASS.h"
#include "benchmark/benchmark.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include <algorithm>
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

/// A word with the target its cubin is for.
struct TargetWord {
  Word128 W;
  Target T;
};

/// The .text words of the ELF64 cubin \p Path (sm_90 when its name says
/// sm90, as the reference cubins' and ours do; else sm_86).
static void addCubinWords(const std::string &Path,
                          std::vector<TargetWord> &Out) {
  auto MB = llvm::MemoryBuffer::getFile(Path);
  if (!MB)
    return;
  llvm::Expected<tp::object::CubinFile> F = tp::object::readCubinFile(
      llvm::arrayRefFromStringRef((*MB)->getBuffer()));
  if (!F) {
    llvm::consumeError(F.takeError());
    return;
  }
  Target T = Target::SM86;
  if (llvm::StringRef(Path).contains("sm90"))
    T = Target::SM90;
  for (const tp::object::Section &S : F->Sections)
    if (llvm::StringRef(S.Name).startswith(".text"))
      for (size_t K = 0; K + 16 <= S.Data.size(); K += 16)
        Out.push_back(
            {readWord(llvm::ArrayRef<uint8_t>(S.Data).slice(K, 16)), T});
}

static const std::vector<TargetWord> &cubinWords() {
  static std::vector<TargetWord> Ws = [] {
    std::vector<std::string> Files;
    for (std::string Dir : {std::string(TP_SHARED_DIR) + "/reference/cubin",
                            std::string(TP_MC_BENCH_CUBINS)}) {
      std::error_code EC;
      for (llvm::sys::fs::directory_iterator It(Dir, EC), End;
           It != End && !EC; It.increment(EC))
        if (llvm::StringRef(It->path()).endswith(".cubin"))
          Files.push_back(It->path());
    }
    std::sort(Files.begin(), Files.end());
    std::vector<TargetWord> W;
    for (const std::string &F : Files)
      addCubinWords(F, W);
    return W;
  }();
  return Ws;
}

static void BM_DecodeCubins(benchmark::State &S) {
  const std::vector<TargetWord> &Ws = cubinWords();
  Instruction I;
  size_t N = 0;
  for (auto _ : S) {
    for (const TargetWord &W : Ws) {
      bool OK = decode(W.W, I, W.T);
      benchmark::DoNotOptimize(OK);
      benchmark::DoNotOptimize(I);
    }
    N += Ws.size();
  }
  S.SetItemsProcessed(N);
  S.counters["words"] = double(Ws.size());
}
BENCHMARK(BM_DecodeCubins);

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
