//===- DefaultPipeline.cpp - The pipeline tp-llc runs, defined once -------===//
///
/// \file
/// The one definition of the default pipeline: the table DefaultStages, in
/// order, each stage a pass name, when it runs and which options the
/// structured DefaultPipelineOptions give it.  Inserting a pass is one
/// line of that table (and its Passes.def line).
///
//===----------------------------------------------------------------------===//

#include "tp/Pass/DefaultPipeline.h"
#include "tp/Support/Diagnostics.h"

using namespace llvm;

namespace tp {

namespace {

using Opts = DefaultPipelineOptions;
using OptionList = std::vector<std::pair<std::string, std::string>>;

/// One stage of the default pipeline.
struct Stage {
  const char *Pass;
  /// Whether the stage runs (null: always).
  bool (*Runs)(const Opts &) = nullptr;
  /// The options \p O gives the pass (null: none).
  void (*Options)(const Opts &O, OptionList &Out) = nullptr;
};

void tileOptions(const Opts &O, OptionList &Out) {
  if (!O.Tile.empty())
    Out.push_back({"tile", O.Tile});
}
bool stallsRun(const Opts &O) { return O.Stalls != Opts::StallMode::Off; }
void stallOptions(const Opts &O, OptionList &Out) {
  if (O.Stalls == Opts::StallMode::Conservative)
    Out.push_back({"mode", "conservative"});
}
void regallocOptions(const Opts &O, OptionList &Out) {
  if (O.RegAllocPlan != "allocator")
    Out.push_back({"plan", O.RegAllocPlan});
  if (O.MaxRegs != 255)
    Out.push_back({"max-regs", std::to_string(O.MaxRegs)});
}
void loopOptions(const Opts &O, OptionList &Out) {
  if (O.Checked)
    Out.push_back({"checked", "1"});
}

const Stage DefaultStages[] = {
    {"tp-admit"},
    {"tp-tile", nullptr, tileOptions},
    {"tp-pipeline"},
    {"tp-swizzle"},
    {"tp-select"},
    {"tp-interleave"},
    // After tp-interleave (its order decides what is live together), before
    // tp-compact-stalls (which then schedules the allocator's reuse of
    // registers): lib/CodeGen/RegAlloc.cpp.
    {"tp-regalloc", nullptr, regallocOptions},
    {"tp-compact-stalls", stallsRun, stallOptions},
    {"tp-form-loop", nullptr, loopOptions},
};

Error badOption(StringRef Key, StringRef Value, StringRef Expected) {
  return makeError("default pipeline: option '" + Key + "' expects " +
                   Expected + ", found '" + Value + "'");
}

} // namespace

Error parseDefaultPipelineOptions(StringRef Text, DefaultPipelineOptions &O) {
  SmallVector<StringRef, 4> Items;
  Text.split(Items, ' ', -1, /*KeepEmpty=*/false);
  for (StringRef Item : Items) {
    StringRef Key, Value;
    std::tie(Key, Value) = Item.split('=');
    if (!Item.contains('=') || Value.empty())
      return makeError("default pipeline: expected an option 'key=value', "
                       "found '" +
                       Item + "'");
    if (Key == "tile") {
      O.Tile = Value.str();
    } else if (Key == "checked") {
      if (Value != "0" && Value != "1")
        return badOption(Key, Value, "0 or 1");
      O.Checked = Value == "1";
    } else if (Key == "compact-stalls") {
      if (Value == "compact")
        O.Stalls = Opts::StallMode::Compact;
      else if (Value == "conservative")
        O.Stalls = Opts::StallMode::Conservative;
      else if (Value == "off")
        O.Stalls = Opts::StallMode::Off;
      else
        return badOption(Key, Value, "compact, conservative or off");
    } else if (Key == "regalloc-plan") {
      if (Value != "allocator" && Value != "seed")
        return badOption(Key, Value, "allocator or seed");
      O.RegAllocPlan = Value.str();
    } else if (Key == "max-regs") {
      unsigned N;
      if (Value.getAsInteger(10, N) || N < 1 || N > 255)
        return badOption(Key, Value, "1..255");
      O.MaxRegs = N;
    } else {
      return makeError("default pipeline: unknown option '" + Key +
                       "' (options: tile, checked, compact-stalls, "
                       "regalloc-plan, max-regs)");
    }
  }
  return Error::success();
}

Expected<std::vector<std::unique_ptr<Pass>>>
buildDefaultPipeline(const DefaultPipelineOptions &O) {
  PassRegistry &R = PassRegistry::get();
  std::vector<std::unique_ptr<Pass>> Passes;
  for (const Stage &S : DefaultStages) {
    if (S.Runs && !S.Runs(O))
      continue;
    Expected<std::unique_ptr<Pass>> P = R.createPass(S.Pass, "");
    if (!P)
      return P.takeError();
    OptionList Options;
    if (S.Options)
      S.Options(O, Options);
    for (const auto &KV : Options)
      if (Error E = (*P)->setOption(KV.first, KV.second))
        return E;
    Passes.push_back(std::move(*P));
  }
  return Passes;
}

namespace {

/// The index of the pass named by option \p Option = \p Name.
Expected<size_t> findPass(ArrayRef<std::unique_ptr<Pass>> Passes,
                          StringRef Option, StringRef Name) {
  for (size_t I = 0; I < Passes.size(); ++I)
    if (Passes[I]->getName() == Name)
      return I;
  std::string List = printPipeline(Passes);
  return makeError("-" + Option + ": pass '" + Name +
                   "' is not in the pipeline (" + List + ")");
}

} // namespace

Error selectRange(std::vector<std::unique_ptr<Pass>> &Passes,
                  const PipelineRange &Range) {
  if (!Range.StartAfter.empty() && !Range.StartBefore.empty())
    return makeError("-start-after and -start-before cannot both be given");
  if (!Range.StopAfter.empty() && !Range.StopBefore.empty())
    return makeError("-stop-after and -stop-before cannot both be given");
  size_t Begin = 0, End = Passes.size();
  if (!Range.StartAfter.empty() || !Range.StartBefore.empty()) {
    bool After = !Range.StartAfter.empty();
    Expected<size_t> I =
        findPass(Passes, After ? "start-after" : "start-before",
                 After ? Range.StartAfter : Range.StartBefore);
    if (!I)
      return I.takeError();
    Begin = *I + (After ? 1 : 0);
  }
  if (!Range.StopAfter.empty() || !Range.StopBefore.empty()) {
    bool After = !Range.StopAfter.empty();
    Expected<size_t> I = findPass(Passes, After ? "stop-after" : "stop-before",
                                  After ? Range.StopAfter : Range.StopBefore);
    if (!I)
      return I.takeError();
    End = *I + (After ? 1 : 0);
  }
  if (End < Begin)
    return makeError("the pipeline stops before it starts (-start-* names a "
                     "pass after -stop-*'s)");
  Passes.erase(Passes.begin() + End, Passes.end());
  Passes.erase(Passes.begin(), Passes.begin() + Begin);
  return Error::success();
}

} // namespace tp
