//===- ArenaTest.cpp - The tile IR's strings live in the module's arena ---===//
///
/// \file
/// The tile IR holds StringRefs, not strings (TileIR.h, Arena): every one
/// must point into the module's Arena or at a literal.  These tests free
/// and overwrite everything else a module was built from -- the parsed
/// source buffer, the passes (tp-swizzle's name table) -- and check that the
/// module still prints the same text, for a kernel whose generated names
/// are their bases (the common case) and one whose parameters force the
/// `name.N` spellings.
///
//===----------------------------------------------------------------------===//

#include "tp/Pass/PassRegistration.h"
#include "tp/TileIR/TileUnit.h"
#include "llvm/Support/MemoryBuffer.h"
#include "gtest/gtest.h"

#include <string>
#include <vector>

using namespace llvm;
using namespace tp;
using namespace tp::tile;

namespace {

std::string print(const Module &M) {
  std::string S;
  raw_string_ostream OS(S);
  printModule(M, OS);
  return OS.str();
}

/// Allocates and fills freed heap memory, so that a StringRef into freed
/// memory reads other bytes.
void scribbleOverFreedMemory() {
  std::vector<std::string> Junk;
  for (int I = 0; I < 4096; ++I)
    Junk.emplace_back(8 + I % 200, '#');
}

/// Parses \p Text in a SourceMgr that dies before the module is returned.
Module parseAndForgetSource(StringRef Text) {
  SourceMgr SM;
  unsigned ID = SM.AddNewSourceBuffer(MemoryBuffer::getMemBufferCopy(Text),
                                      SMLoc());
  auto M = parseModule(SM, ID);
  EXPECT_TRUE(bool(M)) << toString(M.takeError());
  return std::move(*M);
}

const char *Lowered =
    "tp.kernel @k(%C: ptr<f32>, %A: ptr<f16>, %B: ptr<f16>) target=sm_86 "
    "tag=\"a string\" list=[1, word, %A, @sym] {\n"
    "  tp.matmul %C, %A, %B m=128 n=128 k=128 a=rows b=columns : f16 x f16 "
    "-> f32 {\n"
    "    %x.1 = add %A, 16\n"
    "  }\n"
    "}\n";

TEST(TileIRArena, ParsedModuleOutlivesItsSource) {
  Module M = parseAndForgetSource(Lowered);
  scribbleOverFreedMemory();
  EXPECT_EQ(print(M), Lowered);
  // Moving the module moves its arena: the strings stay where they are.
  Module Moved = std::move(M);
  scribbleOverFreedMemory();
  EXPECT_EQ(print(Moved), Lowered);
}

/// The module after tp-admit .. tp-swizzle, printed while the passes live
/// (\p While) and returned after they are destroyed.
Module swizzle(StringRef Text, std::string &While) {
  registerAllPasses();
  SourceMgr SM;
  unsigned ID = SM.AddNewSourceBuffer(MemoryBuffer::getMemBufferCopy(Text),
                                      SMLoc());
  auto M0 = parseModule(SM, ID);
  EXPECT_TRUE(bool(M0));
  std::unique_ptr<IRUnit> U = std::make_unique<TileUnit>(std::move(*M0));
  {
    auto Passes = parsePipeline("tp-admit,tp-tile,tp-pipeline,tp-swizzle");
    EXPECT_TRUE(bool(Passes));
    PassManager PM(PassManager::Options(), errs());
    for (auto &P : *Passes)
      PM.add(std::move(P));
    Error E = PM.run(U, SM);
    EXPECT_FALSE(bool(E)) << toString(std::move(E));
    While = print(static_cast<TileUnit &>(*U).M);
  }
  return std::move(static_cast<TileUnit &>(*U).M);
}

TEST(TileIRArena, SwizzledNamesOutliveThePass) {
  for (const char *Params :
       {"%C: ptr<f32>, %A: ptr<f16>, %B: ptr<f16>",       // names = bases
        "%r: ptr<f32>, %tid: ptr<f16>, %lane: ptr<f16>"}) { // lane.1, ...
    std::string Text = std::string("tp.kernel @k(") + Params +
                       ") target=sm_86 {\n  tp.matmul " +
                       (Params[1] == 'C' ? "%C, %A, %B" : "%r, %tid, %lane") +
                       " m=256 n=256 k=256 a=rows b=columns : f16 x f16 -> "
                       "f32\n}\n";
    std::string While;
    Module M = swizzle(Text, While);
    scribbleOverFreedMemory();
    EXPECT_EQ(print(M), While);
    EXPECT_NE(While.find("tp.ldgsts"), std::string::npos);
  }
}

/// An op's lists: arena arrays (exact reserves), heap arrays (growth, and
/// a list outgrowing its arena array), deep copies, moves, erase.
TEST(TileIRArena, Lists) {
  Arena A;
  ValueList L;
  L.reserve(A, 2);
  EXPECT_EQ(L.capacity(), 2u);
  L.push_back(Value::makeInt(1));
  L.emplace_back(Value::Ref, "x", SMLoc());
  const Value *InArena = L.data();
  L.push_back(Value::makeInt(3)); // outgrows the arena array
  EXPECT_NE(L.data(), InArena);
  ASSERT_EQ(L.size(), 3u);
  EXPECT_EQ(InArena[1].str(), "x"); // the arena array is left as it was
  ValueList Copy = L;
  EXPECT_NE(Copy.data(), L.data());
  Copy[0].I = 7;
  EXPECT_EQ(L[0].I, 1);
  ValueList Moved = std::move(Copy);
  EXPECT_EQ(Copy.size(), 0u);
  ASSERT_EQ(Moved.size(), 3u);
  EXPECT_EQ(Moved[0].I, 7);
  EXPECT_EQ(Moved[1].str(), "x");
  Moved.erase(Moved.begin(), Moved.begin() + 1);
  ASSERT_EQ(Moved.size(), 2u);
  EXPECT_EQ(Moved[0].str(), "x");
  EXPECT_EQ(Moved.back().I, 3);
  Copy = Moved; // into an emptied list
  ASSERT_EQ(Copy.size(), 2u);
  EXPECT_EQ(Copy[1].I, 3);
  // An element of the list itself, appended when the list must grow.
  while (Copy.size() < Copy.capacity())
    Copy.push_back(Value::makeInt(0));
  Copy.push_back(Copy[1]);
  EXPECT_EQ(Copy.back().I, 3);
}

/// The records' sizes (docs/speed.md, "The tile IR's footprint"): a value
/// holds no std::string or std::vector, an op's lists have 16-byte headers.
TEST(TileIRArena, CompactRecords) {
  EXPECT_LE(sizeof(Value), 32u);
  EXPECT_LE(sizeof(Attr), 56u);
  EXPECT_LE(sizeof(Op), 128u);
}

} // namespace
