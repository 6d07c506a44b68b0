//===- Pass.h - Passes, IR levels, the registry and pipelines ---*- C++ -*-===//
///
/// \file
/// One pass interface for every IR level of tp (tile IR, machine IR):
///
///  * An IRLevel ("tile", "mir") says how its text is recognised, parsed,
///    printed and verified.  The IR itself travels as an IRUnit.
///  * A Pass has a name `tp-<verb>` (the command-line flag, the key of
///    -print-after and the pipeline element), a one-line description, an
///    input and an output level, string options declared by getOptions(),
///    and `llvm::Error run(std::unique_ptr<IRUnit> &IR, PassContext &Ctx)`.
///    A pass that changes level (tp-select: tile -> mir) replaces \c IR.
///  * Every pass and level is listed once, in Passes.def, and registered by
///    registerAllPasses() (PassRegistration.h).  Adding a pass is: write the
///    class and `std::unique_ptr<tp::Pass> create<Class>()` in its library,
///    add one TP_PASS line, link the library into the tools; to run it in
///    the default pipeline, add its line to DefaultStages
///    (lib/Pass/DefaultPipeline.cpp).  Its file is named after its flag
///    (tp-compact-stalls: CompactStalls.cpp), and so are its test folder
///    and its DEBUG_TYPE; its counters are ALWAYS_ENABLED_STATISTICs.
///  * A pipeline is text: `tp-tile{tile=large},tp-pipeline` -- passes
///    separated by commas, each with optional `{key=value key=value}`
///    options (spaces between options, so a value may hold commas);
///    `default{...}` is the default pipeline.  printPipeline() writes the
///    same syntax.  Drivers configure passes with setOption(), never by
///    pasting user text into option strings.
///  * PassManager runs a pipeline and prints the IR before/after the passes
///    asked for.  Like llc, it verifies the final IR (the caller verifies
///    the input after parsing it); each pass's output only with VerifyEach
///    (-verify-each: off by default, on in tp-opt).
///
//===----------------------------------------------------------------------===//
#ifndef TP_PASS_PASS_H
#define TP_PASS_PASS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace tp {

/// The IR of one input file at one level.
class IRUnit {
public:
  virtual ~IRUnit();
  /// The level's name, as registered ("tile", "mir").
  virtual llvm::StringRef getLevel() const = 0;
};

/// How one IR level is read, written and checked.
struct IRLevel {
  std::string Name;
  std::string Description;
  /// True when \p Text (a whole input) is written at this level.
  std::function<bool(llvm::StringRef Text)> Recognizes;
  std::function<llvm::Expected<std::unique_ptr<IRUnit>>(llvm::SourceMgr &,
                                                         unsigned BufferID)>
      Parse;
  std::function<void(const IRUnit &, llvm::raw_ostream &)> Print;
  std::function<llvm::Error(const IRUnit &, const llvm::SourceMgr &)> Verify;
};

/// A declared pass option: name, default value, one-line description.
struct PassOption {
  std::string Name;
  std::string Default;
  std::string Description;
};

/// What a running pass may use besides its IR.
struct PassContext {
  llvm::SourceMgr &SM;
};

class Pass {
public:
  virtual ~Pass();

  /// The pass's options (name, default, description); none by default.
  virtual std::vector<PassOption> getOptions() const { return {}; }

  /// Runs the pass.  Same-level passes change *IR in place; a pass that
  /// lowers to another level replaces IR.  User errors are located
  /// SourceErrors; nothing is printed.
  virtual llvm::Error run(std::unique_ptr<IRUnit> &IR, PassContext &Ctx) = 0;

  llvm::StringRef getName() const { return Name; }
  /// The option's value (given, else its default).
  llvm::StringRef getOption(llvm::StringRef Option) const;
  /// True when the option was given explicitly.
  bool hasOption(llvm::StringRef Option) const {
    return Values.count(Option);
  }
  /// The option as an integer, or an error naming the pass and option.
  llvm::Expected<int64_t> getIntOption(llvm::StringRef Option) const;
  /// When the option was given, parses it into \p Value (which otherwise
  /// keeps the caller's default, e.g. a kernel attribute).
  llvm::Error overrideIntOption(llvm::StringRef Option, int64_t &Value) const;

  /// Sets options from `key=value key=value`; unknown keys are errors.
  llvm::Error parseOptions(llvm::StringRef Text);
  /// Sets one declared option to \p Value, taken whole (never split into
  /// further options); an undeclared key is an error.  The structured way
  /// for a driver to configure a pass (DefaultPipeline.h).
  llvm::Error setOption(llvm::StringRef Key, llvm::StringRef Value);
  /// The pass as a pipeline element: `name` or `name{key=value ...}`, the
  /// options given explicitly, in declaration order.
  std::string getPipelineText() const;

private:
  friend class PassRegistry;
  std::string Name;
  llvm::StringMap<std::string> Values;
  /// The defaults getOption() returned (getOptions() builds its list anew
  /// each call: the text must live as long as the pass).
  mutable llvm::StringMap<std::string> Defaults;
};

/// A registered pass: its Passes.def entry.
struct PassInfo {
  std::string Name;
  std::string Description;
  std::string InputLevel;
  std::string OutputLevel;
  std::function<std::unique_ptr<Pass>()> Create;
};

class PassRegistry {
public:
  static PassRegistry &get();

  void addLevel(IRLevel L);
  void addPass(PassInfo P);

  const PassInfo *lookupPass(llvm::StringRef Name) const;
  const IRLevel *lookupLevel(llvm::StringRef Name) const;
  /// The level whose Recognizes accepts \p Text, or null.
  const IRLevel *recognize(llvm::StringRef Text) const;
  llvm::ArrayRef<PassInfo> passes() const { return Passes; }
  llvm::ArrayRef<IRLevel> levels() const { return Levels; }

  /// A pass instance named \p Name with options \p Options
  /// (`key=value ...`).
  llvm::Expected<std::unique_ptr<Pass>>
  createPass(llvm::StringRef Name, llvm::StringRef Options) const;

private:
  std::vector<IRLevel> Levels;
  std::vector<PassInfo> Passes;
};

/// Parses `name{opts},name,...` into pass instances.  The element
/// `default{key=value ...}` stands for the default pipeline with those
/// options (DefaultPipeline.h).
llvm::Expected<std::vector<std::unique_ptr<Pass>>>
parsePipeline(llvm::StringRef Text);

/// The pipeline as text that parsePipeline reads back: the elements'
/// getPipelineText(), comma-separated.
std::string printPipeline(llvm::ArrayRef<std::unique_ptr<Pass>> Passes);

/// Runs passes over one IRUnit.
class PassManager {
public:
  struct Options {
    /// Verify after every pass, not only the final IR.
    bool VerifyEach = false;
    bool PrintBeforeAll = false;
    bool PrintAfterAll = false;
    /// Time every pass and print LLVM's timing report to stderr at the end,
    /// then each pass's minor page faults.
    bool TimePasses = false;
    llvm::StringSet<> PrintBefore;
    llvm::StringSet<> PrintAfter;
  };

  PassManager(Options Opts, llvm::raw_ostream &DumpOS)
      : Opts(std::move(Opts)), DumpOS(DumpOS) {}

  void add(std::unique_ptr<Pass> P) { Passes.push_back(std::move(P)); }
  llvm::ArrayRef<std::unique_ptr<Pass>> passes() const { return Passes; }

  /// Runs every pass in order.  Checks each pass's input level, verifies
  /// after each pass when VerifyEach (else only after the last), prints the
  /// requested dumps to DumpOS.
  llvm::Error run(std::unique_ptr<IRUnit> &IR, llvm::SourceMgr &SM);

private:
  Options Opts;
  llvm::raw_ostream &DumpOS;
  std::vector<std::unique_ptr<Pass>> Passes;
};

/// With -stats: prints the passes' statistics (each pass's
/// ALWAYS_ENABLED_STATISTIC counters, LLVM's report format) to \p OS and
/// turns -stats off, so that the release build of LLVM's Support does not
/// add its "Statistics are disabled" line at exit.  Passes count with
/// ALWAYS_ENABLED_STATISTIC because LLVM's STATISTIC compiles to nothing in
/// release builds.
void printStatistics(llvm::raw_ostream &OS);

} // namespace tp

#endif // TP_PASS_PASS_H
