//===- tp-opt.cpp - Run tp passes on textual IR ---------------------------===//
///
/// \file
/// The opt of tp:
///
///   tp-opt -passes=tp-admit,tp-tile,tp-pipeline,tp-swizzle in.tp -o out.tp
///   tp-opt -tp-tile='tile=large' -tp-pipeline in.tp
///   tp-opt -passes='default{tile=small target=sm_90}' in.tp   (tp-llc's)
///   tp-opt in.tp                       (parse, verify, print)
///
/// Passes given as flags (-tp-<verb>[=options]) run in command-line order
/// after the -passes pipeline.  The input level (tile IR, machine IR) is
/// recognised from the text.  The IR is verified after parsing and, with
/// -verify-each (the default), after every pass.  -print-before=PASS,
/// -print-after=PASS, -print-before-all and -print-after-all dump to
/// stderr; --print-pipeline prints the pipeline as -passes text; -stats
/// the passes' statistics.  Any error: the diagnostic on stderr, no output
/// file, exit 1.
///
//===----------------------------------------------------------------------===//

#include "tp/Pass/Pass.h"
#include "tp/Pass/PassManagerOptions.h"
#include "tp/Pass/PassRegistration.h"
#include "tp/Support/Debug.h"
#include "tp/Support/Diagnostics.h"
#include "tp/Support/ToolOutput.h"
#include "tp/Target/SASS/SASS.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace llvm;

namespace {
cl::OptionCategory OptCat("tp-opt options");

cl::opt<std::string> InputFilename(cl::Positional, cl::desc("<input .tp>"),
                                   cl::init("-"), cl::cat(OptCat));
cl::opt<std::string> OutputFilename("o", cl::desc("Output file (default: -)"),
                                    cl::value_desc("filename"), cl::init("-"),
                                    cl::cat(OptCat));
cl::opt<std::string> InputLevel(
    "x", cl::desc("Input level: tile or mir (default: from the text)"),
    cl::value_desc("tile|mir"), cl::cat(OptCat));
cl::opt<std::string>
    PassPipeline("passes",
                 cl::desc("Comma-separated pipeline, e.g. "
                          "'tp-admit,tp-tile{tile=large},tp-pipeline'"),
                 cl::value_desc("pipeline"), cl::cat(OptCat));
} // namespace

static int fail(Error E) {
  tp::reportError(std::move(E), "tp-opt");
  return 1;
}

int main(int argc, char **argv) {
  InitLLVM X(argc, argv);
  tp::setClosedPipeHandler("tp-opt");
  tp::setToolVersionPrinter();
  tp::registerAllPasses();
  tp::PassRegistry &Registry = tp::PassRegistry::get();

  // Pass flags (-tp-tile, --tp-tile='tile=large') are taken out before
  // the command line is parsed, keeping their order.
  std::vector<std::pair<std::string, std::string>> FlagPasses;
  std::vector<const char *> Args;
  for (int I = 0; I < argc; ++I) {
    StringRef A(argv[I]);
    if (I > 0 && A.startswith("-") && A != "-") {
      StringRef Flag = A.ltrim('-');
      StringRef Name = Flag.split('=').first;
      if (Registry.lookupPass(Name)) {
        FlagPasses.emplace_back(Name.str(), Flag.split('=').second.str());
        continue;
      }
    }
    Args.push_back(argv[I]);
  }

  std::string Overview = "tp-opt: run tp passes on textual IR, for " +
                         tp::sass::getGemmTargetList() +
                         " (the IR's target)\n\n"
                         "  Passes (as -passes=NAME{opt=val ...} elements, "
                         "or as flags -NAME[='opt=val ...']):\n";
  for (const tp::PassInfo &P : Registry.passes()) {
    Overview += "    -" + P.Name + std::string(P.Name.size() < 20 ? 20 - P.Name.size() : 1, ' ') +
                "- " + P.Description + " (" + P.InputLevel + " -> " +
                P.OutputLevel + ")\n";
    std::unique_ptr<tp::Pass> Instance = P.Create();
    for (const tp::PassOption &O : Instance->getOptions())
      Overview += "        " + O.Name + "=...  " + O.Description + "\n";
  }
  Overview += "\n  The default pipeline (tp-llc's, lib/Pass/DefaultPipeline.cpp) "
              "as one -passes element:\n"
              "    default{tile=T checked=0|1 "
              "compact-stalls=compact|conservative|off}\n"
              "\n  Exit status: 0 on success, 1 on any error (the "
              "diagnostic on stderr, no output file).\n";
  if (cl::Option *Stats = cl::getRegisteredOptions().lookup("stats")) {
    Stats->addCategory(OptCat);
    Stats->setHiddenFlag(cl::NotHidden);
    Stats->setDescription("Print each pass's statistics (stderr)");
  }
  tp::addPassManagerOptions(OptCat, /*VerifyEachByDefault=*/true);
  cl::HideUnrelatedOptions({&OptCat, &tp::getDebugCategory()});
  cl::ParseCommandLineOptions(Args.size(), Args.data(), Overview);

  std::vector<std::string> DebugTypes;
  for (const tp::PassInfo &P : Registry.passes())
    DebugTypes.push_back(P.Name);
  if (Error E = tp::checkDebugTypes(DebugTypes))
    return fail(std::move(E));

  std::vector<std::unique_ptr<tp::Pass>> Passes;
  if (!PassPipeline.empty()) {
    auto P = tp::parsePipeline(PassPipeline);
    if (!P)
      return fail(P.takeError());
    Passes = std::move(*P);
  }
  for (auto &F : FlagPasses) {
    auto P = Registry.createPass(F.first, F.second);
    if (!P)
      return fail(P.takeError());
    Passes.push_back(std::move(*P));
  }
  Expected<tp::PassManager::Options> Opts = tp::getPassManagerOptions();
  if (!Opts)
    return fail(Opts.takeError());
  if (tp::shouldPrintPipeline()) {
    outs() << tp::printPipeline(Passes) << "\n";
    return 0;
  }

  auto Buffer = MemoryBuffer::getFileOrSTDIN(InputFilename);
  if (std::error_code EC = Buffer.getError())
    return fail(tp::makeError("cannot read '" + InputFilename +
                              "': " + EC.message()));
  SourceMgr SM;
  unsigned ID = SM.AddNewSourceBuffer(std::move(*Buffer), SMLoc());
  StringRef Text = SM.getMemoryBuffer(ID)->getBuffer();
  const tp::IRLevel *Level = nullptr;
  if (InputLevel.getNumOccurrences()) {
    Level = Registry.lookupLevel(InputLevel);
    if (!Level)
      return fail(tp::makeError("-x: expected tile or mir, found '" +
                                InputLevel + "'"));
  } else {
    Level = Registry.recognize(Text);
  }
  if (!Level && !Passes.empty())
    Level = Registry.lookupLevel(
        Registry.lookupPass(Passes.front()->getName())->InputLevel);
  if (!Level)
    Level = Registry.lookupLevel("tile");
  auto IR = Level->Parse(SM, ID);
  if (!IR)
    return fail(IR.takeError());
  if (Error E = Level->Verify(**IR, SM))
    return fail(std::move(E));

  tp::PassManager PM(std::move(*Opts), errs());
  for (auto &P : Passes)
    PM.add(std::move(P));
  std::unique_ptr<tp::IRUnit> Unit = std::move(*IR);
  if (Error E = PM.run(Unit, SM))
    return fail(std::move(E));

  const tp::IRLevel *Out = Registry.lookupLevel(Unit->getLevel());
  if (Error E = tp::writeOutput(OutputFilename, /*Binary=*/false,
                                [&](raw_ostream &OS) {
                                  Out->Print(*Unit, OS);
                                  return Error::success();
                                }))
    return fail(std::move(E));
  tp::printStatistics(errs());
  return 0;
}
