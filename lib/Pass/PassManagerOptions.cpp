//===- PassManagerOptions.cpp - The pass manager's command line -----------===//
///
/// \file
/// The cl::opts of PassManagerOptions.h; linked into a tool with the first
/// call of addPassManagerOptions.
///
//===----------------------------------------------------------------------===//

#include "tp/Pass/PassManagerOptions.h"
#include "tp/Support/Diagnostics.h"

#include "llvm/Support/CommandLine.h"

#include <memory>

using namespace llvm;

namespace {

cl::opt<bool> VerifyEach("verify-each",
                         cl::desc("Verify the IR after every pass, not only "
                                  "the input and the final IR (default on "
                                  "in tp-opt, off in tp-llc)"));
/// The tool's default for -verify-each (addPassManagerOptions).
bool VerifyEachByDefault = false;
cl::opt<bool> PrintBeforeAll("print-before-all",
                             cl::desc("Print the IR before every pass"));
cl::opt<bool> PrintAfterAll("print-after-all",
                            cl::desc("Print the IR after every pass"));
cl::list<std::string> PrintBefore("print-before",
                                  cl::desc("Print the IR before PASS"),
                                  cl::value_desc("PASS"), cl::CommaSeparated);
cl::list<std::string> PrintAfter("print-after",
                                 cl::desc("Print the IR after PASS"),
                                 cl::value_desc("PASS"), cl::CommaSeparated);
cl::opt<bool> TimePasses("time-passes",
                         cl::desc("Time each pass and print the report to "
                                  "stderr, then each pass's page faults"));
cl::opt<bool> PrintPipeline("print-pipeline",
                            cl::desc("Print the pass pipeline that would run "
                                     "(with its options) and stop"));
cl::alias PrintPipelinePasses("print-pipeline-passes",
                              cl::desc("Alias for --print-pipeline"),
                              cl::aliasopt(PrintPipeline), cl::Hidden);

} // namespace

namespace tp {

void addPassManagerOptions(cl::OptionCategory &Cat,
                           bool VerifyEachDefault) {
  VerifyEachByDefault = VerifyEachDefault;
  cl::Option *Options[] = {&VerifyEach,
                           &PrintBeforeAll,
                           &PrintAfterAll,
                           std::addressof(PrintBefore),
                           std::addressof(PrintAfter),
                           &TimePasses,
                           &PrintPipeline,
                           &PrintPipelinePasses};
  for (cl::Option *O : Options)
    O->addCategory(Cat);
}

Expected<PassManager::Options> getPassManagerOptions() {
  PassManager::Options Opts;
  Opts.VerifyEach =
      VerifyEach.getNumOccurrences() ? bool(VerifyEach) : VerifyEachByDefault;
  Opts.PrintBeforeAll = PrintBeforeAll;
  Opts.PrintAfterAll = PrintAfterAll;
  Opts.TimePasses = TimePasses;
  for (auto *List : {&PrintBefore, &PrintAfter})
    for (const std::string &Name : *List) {
      if (!PassRegistry::get().lookupPass(Name))
        return makeError("unknown pass '" + Name +
                         "' in -print-before/-print-after");
      (List == &PrintBefore ? Opts.PrintBefore : Opts.PrintAfter).insert(Name);
    }
  return Opts;
}

bool shouldPrintPipeline() { return PrintPipeline; }

} // namespace tp
