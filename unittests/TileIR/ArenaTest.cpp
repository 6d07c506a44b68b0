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
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/MemoryBuffer.h"
#include "gtest/gtest.h"

#include <functional>
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

/// An attribute's key location: the
/// parser's (the key, not the value), a pass's (set() over a parsed one
/// leaves the key where it was; a new one is at the op), and the op's type
/// and region flag beside it.
TEST(TileIRArena, AttributeKeyLocations) {
  const char *Text = "tp.kernel @k(%A: ptr<f16>) target=sm_86 {\n"
                     "  tp.matmul %A  m=128   n=64 : f16 x f16 -> f32 {\n"
                     "  }\n"
                     "  tp.barrier\n"
                     "}\n";
  SourceMgr SM;
  unsigned ID = SM.AddNewSourceBuffer(
      MemoryBuffer::getMemBufferCopy(Text, "keys.tp"), SMLoc());
  auto M = parseModule(SM, ID);
  ASSERT_TRUE(bool(M)) << toString(M.takeError());
  const char *Start = SM.getMemoryBuffer(ID)->getBufferStart();
  auto Offset = [&](SMLoc L) { return L.getPointer() - Start; };
  Op &MM = M->Kernels[0].Body[0];
  const Attr *N = MM.getAttr("n");
  ASSERT_TRUE(N);
  EXPECT_EQ(Offset(N->getLoc()), StringRef(Text).find("n=64"));
  EXPECT_EQ(Offset(N->Val.Loc), StringRef(Text).find("64"));
  EXPECT_EQ(Offset(M->Kernels[0].Attrs[0].getLoc()),
            StringRef(Text).find("target"));
  EXPECT_EQ(MM.getType(), "f16 x f16 -> f32");
  EXPECT_EQ(Offset(MM.getTypeLoc()), StringRef(Text).find("f16 x"));
  EXPECT_TRUE(MM.hasRegion());
  const Op &Barrier = M->Kernels[0].Body[1];
  EXPECT_FALSE(Barrier.hasRegion());
  EXPECT_EQ(Barrier.getType(), "");
  EXPECT_FALSE(Barrier.getTypeLoc().isValid());

  // A pass rewrites n= (its value at the op) and adds k=: n's key stays.
  MM.setInt("n", 32);
  MM.setWord("m", "wide");
  MM.set("k", Value::makeInt(16));
  EXPECT_EQ(Offset(MM.getAttr("n")->getLoc()), StringRef(Text).find("n=64"));
  EXPECT_EQ(MM.getAttr("n")->Val.Loc, MM.Loc);
  EXPECT_EQ(MM.getAttr("n")->Val.I, 32);
  EXPECT_EQ(Offset(MM.getAttr("m")->getLoc()), StringRef(Text).find("m=128"));
  EXPECT_EQ(MM.getAttr("m")->Val.str(), "wide");
  EXPECT_EQ(MM.getAttr("k")->getLoc(), MM.Loc);
  std::string Printed;
  raw_string_ostream OS(Printed);
  printOp(MM, OS, 0);
  EXPECT_EQ(OS.str(), "tp.matmul %A m=wide n=32 k=16 : f16 x f16 -> f32 {\n"
                      "}\n");
}

} // namespace
