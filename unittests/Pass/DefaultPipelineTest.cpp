//===- DefaultPipelineTest.cpp - The default pipeline and its range -------===//

#include "tp/Pass/DefaultPipeline.h"
#include "tp/Pass/PassRegistration.h"

#include "gtest/gtest.h"

using namespace llvm;

namespace {

class DefaultPipelineTest : public ::testing::Test {
protected:
  void SetUp() override { tp::registerAllPasses(); }

  static std::string build(const tp::DefaultPipelineOptions &O) {
    auto P = tp::buildDefaultPipeline(O);
    EXPECT_TRUE(bool(P)) << toString(P.takeError());
    return P ? tp::printPipeline(*P) : "";
  }
};

TEST_F(DefaultPipelineTest, Default) {
  EXPECT_EQ(build({}), "tp-admit,tp-tile,tp-pipeline,tp-swizzle,tp-select,"
                       "tp-interleave,tp-regalloc,tp-compact-stalls,tp-form-loop");
}

TEST_F(DefaultPipelineTest, StructuredOptions) {
  tp::DefaultPipelineOptions O;
  O.Tile = "2,2,2,4,4";
  O.Checked = true;
  O.Stalls = tp::DefaultPipelineOptions::StallMode::Conservative;
  EXPECT_EQ(build(O), "tp-admit,tp-tile{tile=2,2,2,4,4},tp-pipeline,"
                      "tp-swizzle,tp-select,tp-interleave,"
                      "tp-regalloc,tp-compact-stalls{mode=conservative},"
                      "tp-form-loop{checked=1}");
  O.Stalls = tp::DefaultPipelineOptions::StallMode::Off;
  EXPECT_EQ(StringRef(build(O)).count("tp-compact-stalls"), 0u);
}

// A value is set whole: text that looks like more options stays inside
// the one option (tp-tile rejects it when it runs), never becomes another.
TEST_F(DefaultPipelineTest, OptionValueIsNotSplit) {
  tp::DefaultPipelineOptions O;
  O.Tile = "large shared-limit=1";
  auto P = tp::buildDefaultPipeline(O);
  ASSERT_TRUE(bool(P)) << toString(P.takeError());
  tp::Pass &Tile = *(*P)[1];
  EXPECT_EQ(Tile.getName(), "tp-tile");
  EXPECT_EQ(Tile.getOption("tile"), "large shared-limit=1");
  EXPECT_FALSE(Tile.hasOption("shared-limit"));
}

// Passes.def lists the default pipeline's passes in its order.
TEST_F(DefaultPipelineTest, RegistryOrderIsPipelineOrder) {
  auto P = tp::buildDefaultPipeline({});
  ASSERT_TRUE(bool(P));
  size_t Next = 0;
  ArrayRef<tp::PassInfo> Registered = tp::PassRegistry::get().passes();
  for (const std::unique_ptr<tp::Pass> &Pass : *P) {
    while (Next < Registered.size() &&
           Registered[Next].Name != Pass->getName())
      ++Next;
    ASSERT_LT(Next, Registered.size())
        << Pass->getName().str() << " is out of Passes.def's order";
  }
}

TEST_F(DefaultPipelineTest, SelectRange) {
  auto Cut = [](tp::PipelineRange R) -> std::string {
    auto P = tp::buildDefaultPipeline({});
    if (!P)
      return toString(P.takeError());
    if (Error E = tp::selectRange(*P, R))
      return "error: " + toString(std::move(E));
    return tp::printPipeline(*P);
  };
  EXPECT_EQ(Cut({"tp-swizzle", "", "tp-interleave", ""}),
            "tp-select,tp-interleave");
  EXPECT_EQ(Cut({"", "tp-swizzle", "", "tp-select"}), "tp-swizzle");
  EXPECT_EQ(Cut({"tp-form-loop", "", "", ""}), "");
  EXPECT_EQ(Cut({"", "", "", "tp-admit"}), "");
  EXPECT_EQ(Cut({"tp-select", "", "tp-tile", ""}),
            "error: the pipeline stops before it starts (-start-* names a "
            "pass after -stop-*'s)");
  EXPECT_EQ(Cut({"tp-bogus", "", "", ""}).rfind(
                "error: -start-after: pass 'tp-bogus' is not in the pipeline",
                0),
            0u);
  EXPECT_EQ(Cut({"", "", "tp-tile", "tp-tile"}),
            "error: -stop-after and -stop-before cannot both be given");
}

TEST_F(DefaultPipelineTest, ParseOptions) {
  tp::DefaultPipelineOptions O;
  ASSERT_FALSE(errorToBool(tp::parseDefaultPipelineOptions(
      "tile=small checked=1 compact-stalls=off", O)));
  EXPECT_EQ(O.Tile, "small");
  EXPECT_TRUE(O.Checked);
  EXPECT_EQ(O.Stalls, tp::DefaultPipelineOptions::StallMode::Off);
  tp::DefaultPipelineOptions Bad;
  // The target is the tile IR's target=, not a pipeline option.
  EXPECT_TRUE(errorToBool(tp::parseDefaultPipelineOptions("target=sm_90", Bad)));
  EXPECT_TRUE(errorToBool(tp::parseDefaultPipelineOptions("checked=2", Bad)));
  EXPECT_TRUE(errorToBool(tp::parseDefaultPipelineOptions("tile=", Bad)));
}

} // namespace
