//===- Pass.cpp - Pass registry, pipeline parser and pass manager ---------===//
///
/// \file
/// The registry, option handling, the pipeline text (parse and print, one
/// syntax both ways) and the pass manager of Pass.h.
///
//===----------------------------------------------------------------------===//

#include "tp/Pass/Pass.h"
#include "tp/Pass/DefaultPipeline.h"
#include "tp/Support/Diagnostics.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Timer.h"

#include <sys/resource.h>

using namespace llvm;

namespace tp {

IRUnit::~IRUnit() = default;
Pass::~Pass() = default;

StringRef Pass::getOption(StringRef Option) const {
  auto It = Values.find(Option);
  if (It != Values.end())
    return It->second;
  for (const PassOption &O : getOptions())
    if (O.Name == Option)
      return Defaults.try_emplace(Option, O.Default).first->second;
  return "";
}

Expected<int64_t> Pass::getIntOption(StringRef Option) const {
  StringRef V = getOption(Option);
  int64_t I;
  if (V.getAsInteger(0, I))
    return makeError(Name + ": option '" + Option +
                     "' expects an integer, found '" + V + "'");
  return I;
}

Error Pass::overrideIntOption(StringRef Option, int64_t &Value) const {
  if (!hasOption(Option))
    return Error::success();
  Expected<int64_t> I = getIntOption(Option);
  if (!I)
    return I.takeError();
  Value = *I;
  return Error::success();
}

Error Pass::parseOptions(StringRef Text) {
  std::vector<PassOption> Declared = getOptions();
  while (true) {
    Text = Text.ltrim();
    if (Text.empty())
      return Error::success();
    StringRef Item;
    std::tie(Item, Text) = Text.split(' ');
    StringRef Key, Value;
    std::tie(Key, Value) = Item.split('=');
    if (!Item.contains('='))
      return makeError(Name + ": expected an option 'key=value', found '" +
                       Item + "'");
    if (Error E = setOption(Key, Value))
      return E;
  }
}

Error Pass::setOption(StringRef Key, StringRef Value) {
  std::vector<PassOption> Declared = getOptions();
  bool Known = false;
  for (const PassOption &O : Declared)
    Known |= O.Name == Key;
  if (!Known) {
    std::string List;
    for (const PassOption &O : Declared)
      List += (List.empty() ? "" : ", ") + O.Name;
    return makeError(Name + ": unknown option '" + Key + "'" +
                     (List.empty() ? " (it takes none)"
                                   : " (options: " + List + ")"));
  }
  Values[Key] = Value.str();
  return Error::success();
}

std::string Pass::getPipelineText() const {
  std::string Options;
  for (const PassOption &O : getOptions()) {
    auto It = Values.find(O.Name);
    if (It != Values.end())
      Options += (Options.empty() ? "" : " ") + O.Name + "=" + It->second;
  }
  return Options.empty() ? Name : Name + "{" + Options + "}";
}

std::string printPipeline(ArrayRef<std::unique_ptr<Pass>> Passes) {
  std::string Text;
  for (const std::unique_ptr<Pass> &P : Passes)
    Text += (Text.empty() ? "" : ",") + P->getPipelineText();
  return Text;
}

PassRegistry &PassRegistry::get() {
  static PassRegistry R;
  return R;
}

void PassRegistry::addLevel(IRLevel L) { Levels.push_back(std::move(L)); }

void PassRegistry::addPass(PassInfo P) {
  assert(!lookupPass(P.Name) && "pass registered twice");
  Passes.push_back(std::move(P));
}

const PassInfo *PassRegistry::lookupPass(StringRef Name) const {
  for (const PassInfo &P : Passes)
    if (P.Name == Name)
      return &P;
  return nullptr;
}

const IRLevel *PassRegistry::lookupLevel(StringRef Name) const {
  for (const IRLevel &L : Levels)
    if (L.Name == Name)
      return &L;
  return nullptr;
}

const IRLevel *PassRegistry::recognize(StringRef Text) const {
  for (const IRLevel &L : Levels)
    if (L.Recognizes && L.Recognizes(Text))
      return &L;
  return nullptr;
}

Expected<std::unique_ptr<Pass>>
PassRegistry::createPass(StringRef Name, StringRef Options) const {
  const PassInfo *Info = lookupPass(Name);
  if (!Info)
    return makeError("unknown pass '" + Name + "' (see --help)");
  std::unique_ptr<Pass> P = Info->Create();
  P->Name = Info->Name;
  if (Error E = P->parseOptions(Options))
    return E;
  return P;
}

Expected<std::vector<std::unique_ptr<Pass>>> parsePipeline(StringRef Text) {
  std::vector<std::unique_ptr<Pass>> Result;
  size_t I = 0, N = Text.size();
  while (I < N) {
    size_t Start = I;
    while (I < N && Text[I] != ',' && Text[I] != '{')
      ++I;
    StringRef Name = Text.slice(Start, I).trim();
    StringRef Options;
    if (I < N && Text[I] == '{') {
      size_t Open = ++I;
      while (I < N && Text[I] != '}')
        ++I;
      if (I == N)
        return makeError("pipeline '" + Text + "': '{' of " + Name +
                         " is not closed");
      Options = Text.slice(Open, I);
      ++I;
      while (I < N && Text[I] == ' ')
        ++I;
      if (I < N && Text[I] != ',')
        return makeError("pipeline '" + Text + "': expected ',' after '}'");
    }
    if (Name.empty())
      return makeError("pipeline '" + Text + "': empty pass name");
    if (Name == "default") {
      DefaultPipelineOptions Opts;
      if (Error E = parseDefaultPipelineOptions(Options, Opts))
        return E;
      auto Default = buildDefaultPipeline(Opts);
      if (!Default)
        return Default.takeError();
      for (std::unique_ptr<Pass> &P : *Default)
        Result.push_back(std::move(P));
    } else {
      auto P = PassRegistry::get().createPass(Name, Options);
      if (!P)
        return P.takeError();
      Result.push_back(std::move(*P));
    }
    if (I < N)
      ++I; // ','
    if (I == N && Text.back() == ',')
      return makeError("pipeline '" + Text + "': empty pass name");
  }
  return Result;
}

namespace {
/// The process's minor page faults so far (getrusage): a fault on a fresh
/// page costs microseconds, so -time-passes reports them per pass.
long minorFaults() {
  struct rusage U;
  if (getrusage(RUSAGE_SELF, &U) != 0)
    return 0;
  return U.ru_minflt;
}

/// -time-passes' second report: each pass's minor page faults (pages the
/// pass touched for the first time: heap growth, code and tables), printed
/// after LLVM's timing report, to the same stream; then the pipeline's
/// totals, its time the sum of the same timers in microseconds (LLVM's
/// report prints seconds to four places: 0.1 ms).
struct FaultReport {
  std::vector<std::pair<std::string, long>> Rows;
  TimeRecord Time;
  ~FaultReport() {
    if (Rows.empty())
      return;
    std::unique_ptr<raw_ostream> OS = CreateInfoOutputFile();
    long Total = 0;
    for (const auto &Row : Rows)
      Total += Row.second;
    *OS << "===" << std::string(73, '-') << "===\n"
        << "                        tp pass page-fault report\n"
        << "===" << std::string(73, '-') << "===\n"
        << "  Minor page faults (pages touched for the first time)\n\n";
    for (const auto &Row : Rows)
      *OS << format("  %8ld  ", Row.second) << Row.first << "\n";
    *OS << format("  %8ld  ", Total) << "Total\n\n"
        << format("  Pipeline: %.0f us wall, %.0f us CPU, %ld minor faults\n\n",
                  Time.getWallTime() * 1e6, Time.getProcessTime() * 1e6,
                  Total);
  }
};
} // namespace

Error PassManager::run(std::unique_ptr<IRUnit> &IR, SourceMgr &SM) {
  PassRegistry &R = PassRegistry::get();
  auto Dump = [&](StringRef When, const Pass &P) {
    DumpOS << "// *** IR Dump " << When << ' ' << P.getName() << " ***\n";
    const IRLevel *L = R.lookupLevel(IR->getLevel());
    L->Print(*IR, DumpOS);
    DumpOS.flush();
  };
  // The group prints its report when the last of its timers goes away;
  // Faults (declared first, destroyed last) prints after it.
  FaultReport Faults;
  TimerGroup TG("tp-passes", "tp pass execution timing report");
  std::vector<std::unique_ptr<Timer>> Timers;
  for (const std::unique_ptr<Pass> &P : Passes) {
    const PassInfo *Info = R.lookupPass(P->getName());
    if (Info->InputLevel != IR->getLevel())
      return makeError(P->getName() + " runs on " + Info->InputLevel +
                       " IR, but the input is " + IR->getLevel() + " IR");
    if (Opts.PrintBeforeAll || Opts.PrintBefore.count(P->getName()))
      Dump("Before", *P);
    PassContext Ctx{SM};
    if (Opts.TimePasses) {
      Timers.push_back(
          std::make_unique<Timer>(P->getName(), P->getName(), TG));
      Timers.back()->startTimer();
    }
    long FaultsBefore = Opts.TimePasses ? minorFaults() : 0;
    Error E = P->run(IR, Ctx);
    if (Opts.TimePasses) {
      Timers.back()->stopTimer();
      Faults.Rows.emplace_back(P->getName(), minorFaults() - FaultsBefore);
      Faults.Time += Timers.back()->getTotalTime();
    }
    if (E)
      return E;
    if (Opts.VerifyEach) {
      const IRLevel *L = R.lookupLevel(IR->getLevel());
      if (Error E = L->Verify(*IR, SM))
        return joinErrors(
            makeError("the IR after " + P->getName() + " does not verify:"),
            std::move(E));
    }
    if (Opts.PrintAfterAll || Opts.PrintAfter.count(P->getName()))
      Dump("After", *P);
  }
  // As llc does: the caller verified the input; without -verify-each only
  // the final IR is verified, once.
  if (!Opts.VerifyEach && !Passes.empty()) {
    const IRLevel *L = R.lookupLevel(IR->getLevel());
    if (Error E = L->Verify(*IR, SM))
      return joinErrors(makeError("the IR after the pipeline (last pass " +
                                  Passes.back()->getName() +
                                  ") does not verify (-verify-each names "
                                  "the pass that broke it):"),
                        std::move(E));
  }
  return Error::success();
}

void printStatistics(raw_ostream &OS) {
  if (!AreStatisticsEnabled())
    return;
  PrintStatistics(OS);
  // LLVM 14 declares -stats as cl::opt<bool, true> (lib/Support/Statistic.cpp).
  if (cl::Option *Stats = cl::getRegisteredOptions().lookup("stats"))
    static_cast<cl::opt<bool, true> *>(Stats)->setValue(false);
}

} // namespace tp
