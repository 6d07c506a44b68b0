//===- PassManagerTest.cpp - Registry, pipelines, levels, verify-each -----===//
///
/// \file
/// The pass interface with two toy levels, registered the way a machine-IR
/// level and its passes are: a "count" level (text `count N`, valid while
/// N <= 10) and a "word" level (text `word W`), passes that stay on a level,
/// break it, or lower from one to the other.
///
//===----------------------------------------------------------------------===//

#include "tp/Pass/Pass.h"
#include "tp/Support/Diagnostics.h"
#include "llvm/Support/MemoryBuffer.h"
#include "gtest/gtest.h"

using namespace llvm;
using namespace tp;

namespace {

struct CountUnit : IRUnit {
  int64_t N = 0;
  StringRef getLevel() const override { return "count"; }
};
struct WordUnit : IRUnit {
  std::string W;
  StringRef getLevel() const override { return "word"; }
};

class IncPass : public Pass {
public:
  std::vector<PassOption> getOptions() const override {
    return {{"by", "1", "how much to add"}};
  }
  Error run(std::unique_ptr<IRUnit> &IR, PassContext &) override {
    auto By = getIntOption("by");
    if (!By)
      return By.takeError();
    static_cast<CountUnit &>(*IR).N += *By;
    return Error::success();
  }
};

class BreakPass : public Pass {
public:
  Error run(std::unique_ptr<IRUnit> &IR, PassContext &) override {
    static_cast<CountUnit &>(*IR).N = 99;
    return Error::success();
  }
};

class LowerPass : public Pass {
public:
  Error run(std::unique_ptr<IRUnit> &IR, PassContext &) override {
    auto W = std::make_unique<WordUnit>();
    W->W = "n" + std::to_string(static_cast<CountUnit &>(*IR).N);
    IR = std::move(W);
    return Error::success();
  }
};

void registerToys() {
  static bool Done = false;
  if (Done)
    return;
  Done = true;
  PassRegistry &R = PassRegistry::get();
  IRLevel Count;
  Count.Name = "count";
  Count.Recognizes = [](StringRef T) { return T.startswith("count"); };
  Count.Parse = [](SourceMgr &SM,
                   unsigned ID) -> Expected<std::unique_ptr<IRUnit>> {
    auto U = std::make_unique<CountUnit>();
    StringRef T = SM.getMemoryBuffer(ID)->getBuffer();
    if (T.drop_front(6).trim().getAsInteger(10, U->N))
      return makeError("bad count");
    return U;
  };
  Count.Print = [](const IRUnit &U, raw_ostream &OS) {
    OS << "count " << static_cast<const CountUnit &>(U).N << "\n";
  };
  Count.Verify = [](const IRUnit &U, const SourceMgr &) -> Error {
    if (static_cast<const CountUnit &>(U).N > 10)
      return makeError("count above 10");
    return Error::success();
  };
  R.addLevel(Count);
  IRLevel Word;
  Word.Name = "word";
  Word.Recognizes = [](StringRef T) { return T.startswith("word"); };
  Word.Print = [](const IRUnit &U, raw_ostream &OS) {
    OS << "word " << static_cast<const WordUnit &>(U).W << "\n";
  };
  Word.Verify = [](const IRUnit &, const SourceMgr &) {
    return Error::success();
  };
  R.addLevel(Word);
  R.addPass({"test-inc", "Add to the count", "count", "count",
             [] { return std::make_unique<IncPass>(); }});
  R.addPass({"test-break", "Make the count invalid", "count", "count",
             [] { return std::make_unique<BreakPass>(); }});
  R.addPass({"test-lower", "Count to word", "count", "word",
             [] { return std::make_unique<LowerPass>(); }});
}

struct Outcome {
  std::string Out, Dump, Err;
};

Outcome run(StringRef Pipeline, StringRef Input, PassManager::Options Opts = {}) {
  registerToys();
  Outcome R;
  SourceMgr SM;
  unsigned ID = SM.AddNewSourceBuffer(MemoryBuffer::getMemBufferCopy(Input),
                                      SMLoc());
  const IRLevel *L = PassRegistry::get().recognize(Input);
  EXPECT_NE(L, nullptr);
  auto IR = L->Parse(SM, ID);
  EXPECT_TRUE(bool(IR));
  auto Passes = parsePipeline(Pipeline);
  if (!Passes) {
    R.Err = toString(Passes.takeError());
    return R;
  }
  raw_string_ostream DumpOS(R.Dump);
  PassManager PM(std::move(Opts), DumpOS);
  for (auto &P : *Passes)
    PM.add(std::move(P));
  std::unique_ptr<IRUnit> U = std::move(*IR);
  if (Error E = PM.run(U, SM)) {
    R.Err = toString(std::move(E));
    return R;
  }
  raw_string_ostream OS(R.Out);
  PassRegistry::get().lookupLevel(U->getLevel())->Print(*U, OS);
  return R;
}

TEST(PassManager, RunsInOrderWithOptions) {
  Outcome R = run("test-inc,test-inc{by=3},test-inc", "count 1");
  EXPECT_EQ(R.Err, "");
  EXPECT_EQ(R.Out, "count 6\n");
}

TEST(PassManager, LowersToAnotherLevel) {
  Outcome R = run("test-inc{by=2},test-lower", "count 1");
  EXPECT_EQ(R.Err, "");
  EXPECT_EQ(R.Out, "word n3\n");
}

TEST(PassManager, RejectsAPassOnTheWrongLevel) {
  Outcome R = run("test-lower,test-inc", "count 1");
  EXPECT_EQ(R.Err, "test-inc runs on count IR, but the input is word IR");
}

TEST(PassManager, VerifiesEachPassOnlyWhenAsked) {
  PassManager::Options Each;
  Each.VerifyEach = true;
  Outcome R = run("test-break,test-inc", "count 1", Each);
  EXPECT_NE(R.Err.find("the IR after test-break does not verify:"),
            std::string::npos)
      << R.Err;
  EXPECT_NE(R.Err.find("count above 10"), std::string::npos);
  // By default only the final IR is verified: a broken result is still
  // caught, after the last pass ...
  Outcome Final = run("test-break,test-inc", "count 1");
  EXPECT_NE(Final.Err.find("the IR after the pipeline (last pass test-inc) "
                           "does not verify"),
            std::string::npos)
      << Final.Err;
  EXPECT_NE(Final.Err.find("count above 10"), std::string::npos);
  EXPECT_NE(run("test-break", "count 1").Err.find("count above 10"),
            std::string::npos);
  // ... but an invalid intermediate IR that a later pass lowers is not.
  Outcome Unchecked = run("test-break,test-lower", "count 1");
  EXPECT_EQ(Unchecked.Err, "");
  EXPECT_EQ(Unchecked.Out, "word n99\n");
  Outcome Checked = run("test-break,test-lower", "count 1", Each);
  EXPECT_NE(Checked.Err.find("the IR after test-break does not verify:"),
            std::string::npos);
}

TEST(PassManager, PrintsAroundTheRequestedPasses) {
  PassManager::Options O;
  O.PrintAfter.insert("test-inc");
  O.PrintBefore.insert("test-lower");
  Outcome R = run("test-inc,test-lower", "count 4", O);
  EXPECT_EQ(R.Dump, "// *** IR Dump After test-inc ***\ncount 5\n"
                    "// *** IR Dump Before test-lower ***\ncount 5\n");
}

TEST(PassManager, PipelineErrors) {
  EXPECT_EQ(run("test-inc{by=1", "count 1").Err,
            "pipeline 'test-inc{by=1': '{' of test-inc is not closed");
  EXPECT_EQ(run("test-inc{step=1}", "count 1").Err,
            "test-inc: unknown option 'step' (options: by)");
  EXPECT_EQ(run("test-inc{by=x}", "count 1").Err,
            "test-inc: option 'by' expects an integer, found 'x'");
  EXPECT_EQ(run("test-nope", "count 1").Err,
            "unknown pass 'test-nope' (see --help)");
  EXPECT_EQ(run("test-break{by=1}", "count 1").Err,
            "test-break: unknown option 'by' (it takes none)");
}

TEST(PassRegistry, ListsPassesWithTheirLevels) {
  registerToys();
  const PassInfo *P = PassRegistry::get().lookupPass("test-lower");
  ASSERT_NE(P, nullptr);
  EXPECT_EQ(P->InputLevel, "count");
  EXPECT_EQ(P->OutputLevel, "word");
  EXPECT_EQ(P->Description, "Count to word");
  EXPECT_EQ(PassRegistry::get().recognize("word x")->Name, "word");
}

} // namespace
