//===- Card.cpp - GPU cards as data for the timing model ------------------===//
///
/// \file
/// Reads bench/cards/*.json.  Guarantees: every field of Card comes from
/// the file, each given as [value, "source"] (pipes as [latency, interval,
/// "source"]) with a non-empty source; a missing field, a number without a
/// source, a non-positive value or an unknown key is an error naming the
/// file and the key, so no card silently runs on a default.
///
//===----------------------------------------------------------------------===//
#include "tp/Sim/Timing.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include <set>

using namespace llvm;
using namespace tp;
using namespace tp::sim;

#ifndef TP_CARDS_DIR
#define TP_CARDS_DIR "bench/cards"
#endif

StringRef sim::getDefaultCardsDir() { return TP_CARDS_DIR; }

namespace {
/// Reads fields of one card file, remembering the first error.
class CardReader {
public:
  CardReader(const json::Object &O, StringRef File) : O(O), File(File) {}

  /// [value, "source"] -> value.
  double number(StringRef Key, bool Integer = true) {
    Seen.insert(Key.str());
    const json::Array *A = O.getArray(Key);
    if (!A || A->size() != 2 || !(*A)[0].getAsNumber() ||
        !(*A)[1].getAsString() || (*A)[1].getAsString()->empty()) {
      fail(Key, "expected [value, \"source\"]");
      return 1;
    }
    double V = *(*A)[0].getAsNumber();
    if (V <= 0 || (Integer && V != double(uint64_t(V))))
      fail(Key, Integer ? "expected a positive integer" : "expected a positive number");
    return V;
  }
  unsigned integer(StringRef Key) { return unsigned(number(Key)); }

  /// pipes.KEY = [latency, interval, "source"].
  PipeTiming pipe(const json::Object &Pipes, StringRef Key) {
    PipeTiming P;
    const json::Array *A = Pipes.getArray(Key);
    if (!A || A->size() != 3 || !(*A)[0].getAsInteger() ||
        !(*A)[1].getAsInteger() || !(*A)[2].getAsString() ||
        (*A)[2].getAsString()->empty() || *(*A)[0].getAsInteger() <= 0 ||
        *(*A)[1].getAsInteger() <= 0) {
      fail(("pipes." + Key).str(),
           "expected [latency, interval, \"source\"] (positive integers)");
      return P;
    }
    P.Latency = unsigned(*(*A)[0].getAsInteger());
    P.Interval = unsigned(*(*A)[1].getAsInteger());
    return P;
  }

  void fail(StringRef Key, StringRef Msg) {
    if (Err.empty())
      Err = (File + ": key '" + Key + "': " + Msg).str();
  }
  /// Keys the file has that the reader does not know.
  void checkUnknown() {
    for (const auto &KV : O)
      if (!Seen.count(KV.first.str()))
        fail(KV.first.str(), "unknown key");
  }
  void see(StringRef Key) { Seen.insert(Key.str()); }

  std::string Err;

private:
  const json::Object &O;
  std::string File;
  std::set<std::string> Seen;
};
} // namespace

static void readPipes(CardReader &R, const json::Object &O, Card &C) {
  const json::Object *Pipes = O.getObject("pipes");
  R.see("pipes");
  if (!Pipes) {
    R.fail("pipes", "expected an object");
    return;
  }
  static const char *Names[] = {"tensor_16816_f32", "tensor_16816_f16",
                                "fma", "alu", "uniform", "fp64", "mufu",
                                "branch"};
  PipeTiming *Dst[] = {&C.TensorF32, &C.TensorF16, &C.FMA, &C.ALU,
                       &C.Uniform, &C.FP64, &C.MUFU, &C.Branch};
  for (unsigned I = 0; I < 8; ++I)
    *Dst[I] = R.pipe(*Pipes, Names[I]);
  for (const auto &KV : *Pipes)
    if (std::find_if(std::begin(Names), std::end(Names), [&](const char *N) {
          return KV.first == N;
        }) == std::end(Names))
      R.fail(("pipes." + KV.first.str()), "unknown pipe");
}

Expected<Card> sim::loadCard(StringRef NameOrFile, StringRef CardsDir) {
  std::string File = NameOrFile.str();
  if (!NameOrFile.contains('/') && !NameOrFile.endswith(".json")) {
    SmallString<256> P(CardsDir);
    sys::path::append(P, NameOrFile + ".json");
    File = std::string(P);
  }
  auto Buf = MemoryBuffer::getFile(File);
  if (!Buf)
    return createStringError(Buf.getError(),
                             "cannot read card '%s' (%s): %s",
                             NameOrFile.str().c_str(), File.c_str(),
                             Buf.getError().message().c_str());
  Expected<json::Value> V = json::parse((*Buf)->getBuffer());
  if (!V)
    return createStringError(inconvertibleErrorCode(), "%s: %s", File.c_str(),
                             toString(V.takeError()).c_str());
  const json::Object *O = V->getAsObject();
  if (!O)
    return createStringError(inconvertibleErrorCode(),
                             "%s: expected a JSON object", File.c_str());
  Card C;
  C.File = File;
  CardReader R(*O, File);
  R.see("format");
  if (Optional<StringRef> N = O->getString("name"))
    C.Name = N->str();
  else
    R.fail("name", "expected a string");
  R.see("name");
  C.Arch = R.integer("arch");
  C.SMs = R.integer("sms");
  C.ClockGHz = R.number("clock_ghz", /*Integer=*/false);
  C.SubPartitions = R.integer("subpartitions");
  C.MaxThreadsPerSM = R.integer("max_threads_per_sm");
  C.MaxBlocksPerSM = R.integer("max_blocks_per_sm");
  C.RegistersPerSM = R.integer("registers_per_sm");
  C.RegisterAllocUnit = R.integer("register_alloc_unit");
  C.SharedBytesPerSM = R.integer("shared_bytes_per_sm");
  C.SharedReservedPerBlock = R.integer("shared_reserved_per_block");
  readPipes(R, *O, C);
  C.SharedBanks = R.integer("shared_banks");
  C.SharedBytesPerClk = R.integer("shared_bytes_per_clk");
  C.SharedLatency = R.integer("shared_latency");
  C.MioQueueCycles = R.integer("mio_queue_cycles");
  C.MemSubcoreInterval = R.integer("mem_subcore_interval");
  C.MemSMInterval = R.integer("mem_sm_interval");
  C.MemQueueDepth = R.integer("mem_queue_depth");
  C.MemQueueHold = R.integer("mem_queue_hold");
  C.RegisterBanks = R.integer("register_banks");
  C.RegisterReadCycles = R.integer("register_read_cycles");
  C.L1Latency = R.integer("l1_latency");
  C.L2Latency = R.integer("l2_latency");
  C.DRAMLatency = R.integer("dram_latency");
  C.UnifiedL1BytesPerSM = R.integer("unified_l1_bytes_per_sm");
  C.L2BytesPerClkPerSM = R.number("l2_bytes_per_clk_per_sm", false);
  C.DRAMGBytesPerS = R.number("dram_gbytes_per_s", false);
  C.L2Bytes = uint64_t(R.number("l2_bytes"));
  R.checkUnknown();
  if (C.SubPartitions > 8)
    R.fail("subpartitions", "at most 8");
  if (!C.MemQueueDepth)
    R.fail("mem_queue_depth", "at least 1");
  if (C.RegisterBanks < 1 || C.RegisterBanks > 4)
    R.fail("register_banks", "1 to 4");
  if (!C.RegisterReadCycles)
    R.fail("register_read_cycles", "at least 1");
  if (!R.Err.empty())
    return createStringError(inconvertibleErrorCode(), R.Err);
  return C;
}
