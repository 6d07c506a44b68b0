//===- ToolOutputTest.cpp - writeOutputs: all files or none ---------------===//

#include "tp/Support/ToolOutput.h"
#include "tp/Support/Diagnostics.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "gtest/gtest.h"

using namespace llvm;

namespace {

class ToolOutputTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(sys::fs::createUniqueDirectory("tp-tooloutput", Dir));
  }
  void TearDown() override { sys::fs::remove_directories(Dir); }
  std::string path(StringRef Name) const {
    SmallString<128> P(Dir);
    sys::path::append(P, Name);
    return std::string(P);
  }
  /// The names in the directory, sorted.
  std::vector<std::string> entries() const {
    std::vector<std::string> Names;
    std::error_code EC;
    for (sys::fs::directory_iterator I(Dir, EC), E; I != E && !EC;
         I.increment(EC))
      Names.push_back(sys::path::filename(I->path()).str());
    llvm::sort(Names);
    return Names;
  }
  std::string read(StringRef Name) const {
    auto B = MemoryBuffer::getFile(path(Name));
    return B ? (*B)->getBuffer().str() : "<missing>";
  }
  SmallString<128> Dir;
};

auto writes(StringRef Text) {
  return [Text](raw_ostream &OS) {
    OS << Text;
    return Error::success();
  };
}

TEST_F(ToolOutputTest, WritesBoth) {
  auto A = writes("cubin"), B = writes("json");
  tp::OutputFile Files[] = {{path("x.cubin"), true, A},
                            {path("x.cubin.json"), false, B}};
  ASSERT_FALSE(errorToBool(tp::writeOutputs(Files)));
  EXPECT_EQ(read("x.cubin"), "cubin");
  EXPECT_EQ(read("x.cubin.json"), "json");
  EXPECT_EQ(entries(), (std::vector<std::string>{"x.cubin", "x.cubin.json"}));
}

// Issue 19 item 6: the manifest's path is a directory; the cubin must not
// appear either, and no temporary stays behind.
TEST_F(ToolOutputTest, SecondDestinationIsADirectory) {
  ASSERT_FALSE(sys::fs::create_directory(path("x.cubin.json")));
  auto A = writes("cubin"), B = writes("json");
  tp::OutputFile Files[] = {{path("x.cubin"), true, A},
                            {path("x.cubin.json"), false, B}};
  Error E = tp::writeOutputs(Files);
  ASSERT_TRUE(bool(E));
  EXPECT_NE(toString(std::move(E)).find("x.cubin.json"), std::string::npos);
  EXPECT_EQ(entries(), (std::vector<std::string>{"x.cubin.json"}));
}

TEST_F(ToolOutputTest, WriterErrorTouchesNothing) {
  auto A = writes("cubin");
  auto Fails = [](raw_ostream &OS) {
    OS << "partial";
    return tp::makeError("writer failed");
  };
  tp::OutputFile Files[] = {{path("a"), true, A}, {path("b"), false, Fails}};
  Error E = tp::writeOutputs(Files);
  ASSERT_TRUE(bool(E));
  EXPECT_EQ(toString(std::move(E)), "writer failed");
  EXPECT_TRUE(entries().empty());
}

TEST_F(ToolOutputTest, MissingDirectory) {
  auto A = writes("a"), B = writes("b");
  tp::OutputFile Files[] = {{path("a"), false, A},
                            {path("no/such/b"), false, B}};
  ASSERT_TRUE(errorToBool(tp::writeOutputs(Files)));
  EXPECT_TRUE(entries().empty());
}

TEST_F(ToolOutputTest, ReplacesAnExistingFile) {
  auto Old = writes("old"), New = writes("new");
  ASSERT_FALSE(errorToBool(tp::writeOutput(path("f"), false, Old)));
  ASSERT_FALSE(errorToBool(tp::writeOutput(path("f"), false, New)));
  EXPECT_EQ(read("f"), "new");
  EXPECT_EQ(entries(), (std::vector<std::string>{"f"}));
}

// Bytes already in memory are written as they are (no writer, no copy);
// with a failing writer beside them, neither file appears.
TEST_F(ToolOutputTest, WritesBytesInMemory) {
  std::string Cubin("\x7f" "ELF\0\1", 6);
  tp::OutputFile Files[] = {{path("x.cubin"), true, Cubin},
                            {path("x.cubin.json"), false, "json"}};
  ASSERT_FALSE(errorToBool(tp::writeOutputs(Files)));
  EXPECT_EQ(read("x.cubin"), Cubin);
  EXPECT_EQ(read("x.cubin.json"), "json");
  ASSERT_FALSE(errorToBool(tp::writeOutputBytes(path("l.sass"), false, "l")));
  EXPECT_EQ(read("l.sass"), "l");
  auto Fails = [](raw_ostream &) { return tp::makeError("writer failed"); };
  tp::OutputFile Mixed[] = {{path("y.cubin"), true, Cubin},
                            {path("y.cubin.json"), false, Fails}};
  ASSERT_TRUE(errorToBool(tp::writeOutputs(Mixed)));
  EXPECT_EQ(entries(),
            (std::vector<std::string>{"l.sass", "x.cubin", "x.cubin.json"}));
}

// An existing file is removed just before the rename (ToolOutput.cpp's
// replaceFile): the new file holds the new bytes only, however long the
// old one was, by either path.
TEST_F(ToolOutputTest, ReplacesALongerFileWholly) {
  std::string Long(100000, 'o');
  auto Old = writes(Long), New = writes("new");
  ASSERT_FALSE(errorToBool(tp::writeOutput(path("f"), false, Old)));
  ASSERT_FALSE(errorToBool(tp::writeOutput(path("f"), true, New)));
  EXPECT_EQ(read("f"), "new");
  ASSERT_FALSE(errorToBool(tp::writeOutput(path("g"), false, Old)));
  ASSERT_FALSE(
      errorToBool(tp::writeOutputStreamed(path("g"), false, 4096, New)));
  EXPECT_EQ(read("g"), "new");
  EXPECT_EQ(entries(), (std::vector<std::string>{"f", "g"}));
}

// A writer's error, or a destination that cannot be written, leaves the
// old files as they were.
TEST_F(ToolOutputTest, FailedRunKeepsExistingFiles) {
  auto Old = writes("old"), New = writes("new");
  auto Fails = [](raw_ostream &OS) {
    OS << "partial";
    return tp::makeError("writer failed");
  };
  ASSERT_FALSE(errorToBool(tp::writeOutput(path("a"), false, Old)));
  ASSERT_FALSE(errorToBool(tp::writeOutput(path("b"), false, Old)));
  tp::OutputFile Files[] = {{path("a"), true, New}, {path("b"), false, Fails}};
  ASSERT_TRUE(errorToBool(tp::writeOutputs(Files)));
  ASSERT_TRUE(
      errorToBool(tp::writeOutputStreamed(path("b"), false, 64, Fails)));
  ASSERT_FALSE(sys::fs::create_directory(path("d")));
  tp::OutputFile ToDir[] = {{path("a"), true, New}, {path("d"), false, New}};
  ASSERT_TRUE(errorToBool(tp::writeOutputs(ToDir)));
  EXPECT_EQ(read("a"), "old");
  EXPECT_EQ(read("b"), "old");
  EXPECT_EQ(entries(), (std::vector<std::string>{"a", "b", "d"}));
}

// A symbolic link is renamed over, as before the removal came in: the link
// becomes the new file, the file it named keeps its bytes.
TEST_F(ToolOutputTest, SymbolicLinkIsReplacedItsTargetKept) {
  auto Old = writes("old"), New = writes("new");
  ASSERT_FALSE(errorToBool(tp::writeOutput(path("t"), false, Old)));
  ASSERT_FALSE(sys::fs::create_link("t", path("l")));
  ASSERT_FALSE(errorToBool(tp::writeOutput(path("l"), false, New)));
  sys::fs::file_status St;
  ASSERT_FALSE(sys::fs::status(path("l"), St, /*Follow=*/false));
  EXPECT_TRUE(sys::fs::is_regular_file(St));
  EXPECT_EQ(read("l"), "new");
  EXPECT_EQ(read("t"), "old");
}

TEST_F(ToolOutputTest, NonRegularDestinationIsWrittenDirectly) {
  auto A = writes("discarded");
  ASSERT_FALSE(errorToBool(tp::writeOutput("/dev/null", false, A)));
  EXPECT_TRUE(sys::fs::exists("/dev/null"));
}

} // namespace
