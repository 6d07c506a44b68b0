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

/// An op's region (OpList): no block while empty, growth that keeps the
/// ops (and their own regions), inserts, deep copies, moves.
TEST(TileIRArena, Regions) {
  Op Parent("tp.products", SMLoc());
  EXPECT_EQ(Parent.Body.data(), nullptr);
  EXPECT_EQ(Parent.Body.capacity(), 0u);
  for (int I = 0; I < 9; ++I)
    Parent.Body.emplace_back("tp.mma", SMLoc()).addInt("kk", I);
  Parent.Body[2].add(Op("tp.barrier", SMLoc())); // a nested region
  ASSERT_EQ(Parent.Body.size(), 9u);
  EXPECT_GE(Parent.Body.capacity(), 9u);
  for (int I = 0; I < 9; ++I)
    EXPECT_EQ(*Parent.Body[I].getInt("kk"), I);
  EXPECT_EQ(Parent.Body[2].Body.back().Name, "tp.barrier");
  // An op of the region itself, appended when the block must grow.
  while (Parent.Body.size() < Parent.Body.capacity())
    Parent.Body.push_back(Op("tp.commit", SMLoc()));
  size_t Size = Parent.Body.size();
  Parent.Body.push_back(Parent.Body[2]);
  ASSERT_EQ(Parent.Body.size(), Size + 1);
  EXPECT_EQ(*Parent.Body.back().getInt("kk"), 2);
  EXPECT_EQ(Parent.Body.back().Body.size(), 1u);

  // Inserts: one op (moved), a range (copied) at the front and the end.
  OpList L;
  L.push_back(Op("b", SMLoc()));
  auto It = L.insert(L.begin(), Op("a", SMLoc()));
  EXPECT_EQ(It, L.begin());
  std::vector<Op> More = {Op("x", SMLoc()), Op("y", SMLoc())};
  L.insert(L.begin() + 1, More.begin(), More.end());
  L.insert(L.end(), More.begin(), More.begin() + 1);
  std::string Names;
  for (const Op &O : L)
    Names += O.Name.str();
  EXPECT_EQ(Names, "axybx");
  EXPECT_EQ(More[1].Name, "y"); // copied, not moved

  // Copies are deep; moves leave the source empty.
  OpList Copy = L;
  EXPECT_NE(Copy.data(), L.data());
  Copy[0].Name = Ident(StringRef("z"));
  EXPECT_EQ(L[0].Name, "a");
  OpList Moved = std::move(Copy);
  EXPECT_TRUE(Copy.empty());
  EXPECT_EQ(Moved.size(), 5u);
  EXPECT_EQ(Moved[0].Name, "z");
  Moved = L;
  EXPECT_EQ(Moved[0].Name, "a");
  Moved = OpList();
  EXPECT_EQ(Moved.data(), nullptr);
}

/// The records' sizes (docs/speed.md, "The tile IR's footprint" and "The
/// tile IR's attributes"): a value holds no std::string or std::vector and
/// shares its integer's bytes with its text pointer, an attribute keeps one
/// location, an op's lists have 16-byte headers and its type is out of
/// line; its name and keys are 8-byte Idents and its region one pointer.
TEST(TileIRArena, CompactRecords) {
  EXPECT_LE(sizeof(Ident), 8u);
  EXPECT_LE(sizeof(Value), 24u);
  EXPECT_LE(sizeof(Attr), 32u);
  EXPECT_LE(sizeof(OpList), 8u);
  EXPECT_LE(sizeof(Op), 72u);
}

/// An Ident (an op's name, a key, a value's name) is a StringRef in 8
/// bytes: the same text, compared as text.
TEST(TileIRArena, Idents) {
  std::string Text = "tp.matmul";
  Ident N(Text);
  EXPECT_EQ(N.data(), Text.data());
  EXPECT_EQ(N.size(), Text.size());
  EXPECT_TRUE(N == "tp.matmul");
  EXPECT_TRUE(StringRef("tp.matmul") == N);
  EXPECT_TRUE(N != "tp.matmu");
  EXPECT_TRUE(N == Ident(StringRef("tp.matmul!", 9)));
  EXPECT_EQ(N[3], 'm');
  EXPECT_EQ(N.str(), Text);
  EXPECT_TRUE(Ident().empty());
  std::string Longest(Ident::MaxSize, 'x');
  EXPECT_EQ(Ident(Longest).ref(), Longest);
}

/// A name longer than an Ident holds is a located parse error.
TEST(TileIRArena, NameTooLong) {
  for (size_t Size : {Ident::MaxSize, Ident::MaxSize + 1}) {
    std::string Name(Size, 'x');
    // An op's name, a value's name, a key (at column 14).
    for (const std::string &Line :
         {"  " + Name + "\n", "  %" + Name + " = add 1, 2\n",
          "  tp.barrier " + Name + "=1\n"}) {
      std::string Text = "tp.kernel @k(%A: ptr<f16>) target=sm_86 {\n" +
                         Line + "}\n";
      std::string Where = Line[2] == 't' ? "long.tp:2:14" : "long.tp:2:3";
      SourceMgr SM;
      unsigned ID = SM.AddNewSourceBuffer(
          MemoryBuffer::getMemBufferCopy(Text, "long.tp"), SMLoc());
      auto M = parseModule(SM, ID);
      if (Size == Ident::MaxSize) {
        EXPECT_TRUE(bool(M)) << toString(M.takeError()).substr(0, 200);
        continue;
      }
      ASSERT_FALSE(bool(M));
      std::string Message = toString(M.takeError());
      EXPECT_EQ(Message.find(Where + ": error: name longer than 65535 "
                                     "characters"),
                0u)
          << Message.substr(0, 200);
    }
  }
}

/// tp-swizzle reserves each tp.copy's region for the ops it appends, not a
/// bound: a region's unused room splits the pages around it (docs/speed.md,
/// "The tile IR's footprint, again").  The run-time shape's copies: a
/// tp.ldgsts a chunk in the loop, with its guard's values in the prologue
/// and the tail.
TEST(TileIRArena, CopyRegionsReservedExactly) {
  std::string Text =
      "tp.kernel @gemm(%C: ptr<f32>, %A: ptr<f16>, %B: ptr<f16>, %M: i32, "
      "%N: i32, %K: i32, %lda: i32, %ldb: i32, %ldc: i32) target=sm_86 {\n"
      "  tp.matmul %C, %A, %B m=4096 n=4096 k=4096 a=rows b=columns "
      "tile=large shape=[%M, %N, %K, %lda, %ldb, %ldc] : f16 x f16 -> f32\n"
      "}\n";
  std::string While;
  Module M = swizzle(Text, While);
  unsigned Copies = 0;
  std::function<void(const Op &)> Walk = [&](const Op &O) {
    if (O.Name == "tp.copy") {
      ++Copies;
      EXPECT_LE(O.Body.capacity(), O.Body.size() + 16)
          << "a tp.copy of " << O.Body.size() << " ops";
    }
    for (const Op &C : O.Body)
      Walk(C);
  };
  for (const Op &O : M.Kernels[0].Body)
    Walk(O);
  EXPECT_GE(Copies, 3u);
}

/// tp-swizzle builds each op it creates with its final operand and
/// attribute counts, both arrays in one arena block (attributes first): no
/// list grows (to the heap) and none has slack (docs/speed.md,
/// "tp-swizzle's names and ops (session 9)").  The ops it creates are
/// those of the regions it fills.
TEST(TileIRArena, SwizzledOpsBuiltWithTheirFinalCounts) {
  for (bool Runtime : {false, true})
    for (StringRef Tile : {"", "tile=large "}) {
      std::string Text = "tp.kernel @gemm(%C: ptr<f32>, %A: ptr<f16>, "
                         "%B: ptr<f16>";
      if (Runtime)
        Text += ", %M: i32, %N: i32, %K: i32, %lda: i32, %ldb: i32, %ldc: i32";
      Text += ") target=sm_86 {\n  tp.matmul %C, %A, %B m=4096 n=4096 "
              "k=4096 a=rows b=columns " +
              Tile.str();
      if (Runtime)
        Text += "shape=[%M, %N, %K, %lda, %ldb, %ldc] ";
      Text += ": f16 x f16 -> f32\n}\n";
      std::string While;
      Module M = swizzle(Text, While);
      unsigned Built = 0;
      auto Check = [&](const Op &O) {
        ++Built;
        EXPECT_EQ(O.Operands.capacity(), O.Operands.size())
            << O.Name.str() << " " << O.Result.str() << " in\n"
            << Text;
        EXPECT_EQ(O.Attrs.capacity(), O.Attrs.size())
            << O.Name.str() << " " << O.Result.str() << " in\n"
            << Text;
        if (!O.Attrs.empty() && !O.Operands.empty()) {
          EXPECT_EQ(static_cast<const void *>(O.Operands.data()),
                    static_cast<const void *>(O.Attrs.data() + O.Attrs.size()))
              << O.Name.str() << " in\n"
              << Text;
        }
      };
      std::function<void(const Op &)> Walk = [&](const Op &O) {
        bool Filled = O.Name == "tp.addresses" || O.Name == "tp.copy" ||
                      O.Name == "tp.products" || O.Name == "tp.epilogue";
        for (const Op &C : O.Body)
          if (Filled)
            Check(C);
          else
            Walk(C);
      };
      for (const Op &O : M.Kernels[0].Body)
        Walk(O);
      EXPECT_GT(Built, 300u) << Text;
    }
}

/// An attribute's key location, kept as a distance from its value's: the
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

TEST(TileIRArena, OperandLinks) {
  // A reference operand's link (tp-select's walk sets it to its name's id
  // plus one) is 24 bits in the value's spare bytes: it round-trips, and
  // the value's kind, text and location and the printed op do not change.
  Arena A;
  Op O("tp.ldsm", SMLoc());
  O.addRefOperand(A.save(StringRef("a.ldsm0")), SMLoc());
  O.addInt("kk", 1);
  Value &V = O.Operands[0];
  EXPECT_EQ(V.link(), 0u);
  V.setLink(0xabcdef);
  EXPECT_EQ(V.link(), 0xabcdefu);
  V.setLink(1);
  EXPECT_EQ(V.link(), 1u);
  EXPECT_TRUE(V.isRef());
  EXPECT_EQ(V.str(), "a.ldsm0");
  EXPECT_EQ(sizeof(Value), 24u);
  std::string Printed;
  raw_string_ostream OS(Printed);
  printOp(O, OS, 0);
  EXPECT_EQ(OS.str(), "tp.ldsm %a.ldsm0 kk=1\n");
}

/// A value more than 8 MiB past its key (one line of blanks between them)
/// is refused with a diagnostic at the key, not given a wrong location.
TEST(TileIRArena, AttributeValueTooFarFromItsKey) {
  std::string Text = "tp.kernel @k(%A: ptr<f16>) target=" +
                     std::string(size_t(Attr::MaxKeyDistance) - 6, ' ') +
                     "sm_86 {\n}\n";
  SourceMgr SM;
  unsigned ID = SM.AddNewSourceBuffer(
      MemoryBuffer::getMemBufferCopy(Text, "far.tp"), SMLoc());
  auto M = parseModule(SM, ID);
  ASSERT_FALSE(bool(M));
  std::string Message = toString(M.takeError());
  EXPECT_NE(Message.find("the value of attribute 'target' is more than 8 MiB "
                         "past its key"),
            std::string::npos)
      << Message;
  EXPECT_NE(Message.find("far.tp:1:28: error"), std::string::npos)
      << Message.substr(0, 200);

  // One byte nearer (the value MaxKeyDistance bytes past the key) parses.
  Text.erase(Text.find("target=") + 7, 1);
  SourceMgr SM2;
  unsigned ID2 = SM2.AddNewSourceBuffer(
      MemoryBuffer::getMemBufferCopy(Text, "near.tp"), SMLoc());
  auto M2 = parseModule(SM2, ID2);
  ASSERT_TRUE(bool(M2)) << toString(M2.takeError()).substr(0, 200);
  EXPECT_EQ(M2->Kernels[0].getWord("target"), "sm_86");
}

} // namespace

/// tp-swizzle spells each generated name once: every reference to a value
/// an op defines shares the definition's characters (a copy a use doubled
/// tp-select's spellings, docs/speed.md "tp-select and tp-swizzle, round
/// 2"), for names that are their own bases and for suffixed ones (a
/// parameter %q makes the base q %q.1), fixed and run-time shapes.
TEST(TileIRArena, SwizzledReferencesShareTheDefinitionsCharacters) {
  for (StringRef Q : {"C", "q"})      // C's name
    for (StringRef Tile : {"", "tile=large "})
      for (bool Runtime : {false, true}) {
        std::string Text = "tp.kernel @gemm(%" + Q.str() +
                           ": ptr<f32>, %A: ptr<f16>, %B: ptr<f16>";
        if (Runtime)
          Text += ", %M: i32, %N: i32, %K: i32, %lda: i32, %ldb: i32, "
                  "%ldc: i32";
        Text += ") target=sm_86 {\n  tp.matmul %" + Q.str() +
                ", %A, %B m=4096 n=4096 k=4096 a=rows b=columns " + Tile.str();
        if (Runtime)
          Text += "shape=[%M, %N, %K, %lda, %ldb, %ldc] ";
        Text += ": f16 x f16 -> f32\n}\n";
        std::string While;
        Module M = swizzle(Text, While);

        StringMap<const char *> Defined;
        std::function<void(const Op &)> Define = [&](const Op &O) {
          StringRef R = O.Result;
          if (!R.empty())
            Defined[R] = R.data();
          for (const Op &C : O.Body)
            Define(C);
        };
        unsigned Refs = 0;
        auto Check = [&](const Value &V) {
          auto It = V.isRef() ? Defined.find(V.str()) : Defined.end();
          if (It == Defined.end())
            return;
          ++Refs;
          EXPECT_EQ(static_cast<const void *>(V.str().data()),
                    static_cast<const void *>(It->second))
              << "%" << V.str().str() << " in\n" << Text;
        };
        std::function<void(const Op &)> Walk = [&](const Op &O) {
          for (const Value &V : O.Operands)
            Check(V);
          for (const Attr &A : O.Attrs)
            Check(A.Val);
          for (const Op &C : O.Body)
            Walk(C);
        };
        for (const Op &O : M.Kernels[0].Body)
          Define(O);
        for (const Op &O : M.Kernels[0].Body)
          Walk(O);
        EXPECT_GT(Refs, 200u) << Text;
        EXPECT_EQ(Q == "q", Defined.count("q.1") == 1) << Text;
      }
}
