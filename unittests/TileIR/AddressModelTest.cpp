//===- AddressModelTest.cpp - The swizzled addresses, evaluated -----------===//
///
/// \file
/// Runs tp-tile, tp-pipeline and tp-swizzle for every operand layout and
/// tile, evaluates the explicit address arithmetic for every thread of a
/// block (block (1, 1), so the corners are not zero) and checks:
///
///  1. each stage's copies write every 16-byte chunk of the stage exactly
///     once (a bijection onto the stage's bytes: no collisions, no holes);
///  2. the copies of a k-step read the block's A and B tiles for that step
///     exactly once (prologue steps and the tail's last step);
///  3. every LDSM lane's row address holds, through the copies, exactly the
///     operand row the m16n8k16 fragment needs (matrix q = lane / 8; for A
///     q % 2 the row half, q / 2 the k half; for B q / 2 the n-tile of the
///     pair, q % 2 the k half), for both layouts (.T for columns);
///  4. each LDSM phase (a matrix: eight lanes) reads eight 16-byte rows in
///     eight distinct bank groups (conflict-free);
///  5. the epilogue's pair stores cover the block's C tile exactly once.
///
//===----------------------------------------------------------------------===//

#include "tp/Pass/PassRegistration.h"
#include "tp/TileIR/Evaluator.h"
#include "tp/TileIR/TileOps.h"
#include "tp/TileIR/TileUnit.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "gtest/gtest.h"

#include <map>
#include <set>

using namespace llvm;
using namespace tp;
using namespace tp::tile;

namespace {

struct Case {
  const char *Tile;
  Layout A, B;
};

std::string name(const Case &C) {
  std::string Tile = C.Tile;
  std::replace(Tile.begin(), Tile.end(), ',', '_');
  return Tile + "_A" + getLayoutName(C.A).str() + "_B" + getLayoutName(C.B).str();
}

/// The pipeline's output for a product of M x N x K.
Module compile(const Case &C, int64_t M, int64_t N, int64_t K,
               SourceMgr &SM) {
  registerAllPasses();
  std::string Text =
      formatv("tp.kernel @g(%C: ptr<f32>, %A: ptr<f16>, %B: ptr<f16>) "
              "target=sm_86 {\n  tp.matmul %C, %A, %B m={0} n={1} k={2} "
              "a={3} b={4} : f16 x f16 -> f32\n}\n",
              M, N, K, getLayoutName(C.A), getLayoutName(C.B))
          .str();
  unsigned ID = SM.AddNewSourceBuffer(MemoryBuffer::getMemBufferCopy(Text),
                                      SMLoc());
  auto M0 = parseModule(SM, ID);
  EXPECT_TRUE(bool(M0));
  std::unique_ptr<IRUnit> U = std::make_unique<TileUnit>(std::move(*M0));
  auto Passes = parsePipeline(std::string("tp-admit,tp-tile{tile=") +
                              C.Tile + "},tp-pipeline,tp-swizzle");
  EXPECT_TRUE(bool(Passes));
  PassManager PM(PassManager::Options(), errs());
  for (auto &P : *Passes)
    PM.add(std::move(P));
  Error E = PM.run(U, SM);
  EXPECT_FALSE(bool(E)) << toString(std::move(E));
  return std::move(static_cast<TileUnit &>(*U).M);
}

void collect(const Op &O, StringRef Name, std::vector<const Op *> &Out) {
  if (O.Name == Name)
    Out.push_back(&O);
  for (const Op &C : O.Body)
    collect(C, Name, Out);
}

/// A logical 8-half row of an operand: (mn, k) of its first element,
/// where the row runs along k (rows layout) or along mn (columns layout).
using Logical = std::pair<int64_t, int64_t>;

class AddressModel : public ::testing::TestWithParam<Case> {};

TEST_P(AddressModel, SwizzledAddresses) {
  const Case &C = GetParam();
  auto Want = parseTileSpec(C.Tile);
  ASSERT_TRUE(bool(Want));
  TileParams T = *Want;
  // Two blocks along each side, four stages' worth of k-steps twice over.
  int64_t M = 2 * T.blockM(), N = 2 * T.blockN(), K = 64 * T.Stages;
  SourceMgr SM;
  Module Mod = compile(C, M, N, K, SM);
  const Op &MM = *Mod.Kernels[0].getMatmul();
  ASSERT_EQ(getTileOp(*MM.find("tp.tile")), T);
  const Op *Addr = MM.find("tp.addresses");
  ASSERT_NE(Addr, nullptr);

  const ThreadIds Block{0, 1, 1};
  std::vector<StringMap<uint64_t>> Thread;
  for (int64_t Tid = 0; Tid < T.threads(); ++Tid) {
    auto V = evaluateAddresses(*Addr, {uint64_t(Tid), Block.CtaX, Block.CtaY});
    ASSERT_TRUE(bool(V));
    for (auto &KV : *V)
      ASSERT_LT(KV.second, uint64_t(1) << 32) << KV.first().str();
    Thread.push_back(std::move(*V));
  }

  Problem P{M, N, K, C.A, C.B, false};
  auto LayoutOf = [&](StringRef Operand) {
    return Operand == "a" ? P.A : P.B;
  };
  auto Stride = [&](StringRef Operand) {
    if (Operand == "a")
      return P.A == Layout::Rows ? K : M;
    return P.B == Layout::Rows ? K : N;
  };
  auto Corner = [&](StringRef Operand) {
    return Operand == "a" ? int64_t(Block.CtaY) * T.blockM()
                          : int64_t(Block.CtaX) * T.blockN();
  };
  auto Extent = [&](StringRef Operand) {
    return Operand == "a" ? T.blockM() : T.blockN();
  };

  std::vector<const Op *> Copies;
  for (const Op &O : MM.Body)
    collect(O, "tp.copy", Copies);
  ASSERT_FALSE(Copies.empty());

  // shared address -> (operand, logical row relative to the block / step)
  // for each stage, from the prologue and tail copies (absolute steps).
  std::map<int64_t, std::map<int64_t, std::pair<std::string, Logical>>>
      StageContent;
  int64_t CheckedSteps = 0;
  for (const Op *Copy : Copies) {
    int64_t Stage = *Copy->getInt("stage");
    int64_t Base = T.bufferA(Stage);
    std::set<int64_t> Written;
    std::map<std::string, std::set<Logical>> Read;
    Optional<int64_t> Step = Copy->getInt("step");
    for (int64_t Tid = 0; Tid < T.threads(); ++Tid)
      for (const Op &G : Copy->Body) {
        ASSERT_EQ(G.Name, "tp.ldgsts");
        uint64_t Shared = *G.getInt("smem_offset") +
                          Thread[Tid].lookup(G.Operands[0].str());
        ASSERT_EQ(Shared % 16, 0u);
        EXPECT_TRUE(Written.insert(Shared).second)
            << "stage " << Stage << ": two chunks at shared byte " << Shared;
        if (!Step)
          continue;
        std::string Operand = G.getWord("operand").str();
        int64_t Global = Thread[Tid].lookup(G.Operands[2].str()) +
                         *Step * *G.getInt("k_step_bytes");
        ASSERT_EQ(Global % 16, 0);
        int64_t Row = Global / (2 * Stride(Operand));
        int64_t Col = Global % (2 * Stride(Operand)) / 2;
        Logical L = LayoutOf(Operand) == Layout::Rows
                        ? Logical{Row - Corner(Operand), Col - 32 * *Step}
                        : Logical{Col - Corner(Operand), Row - 32 * *Step};
        EXPECT_TRUE(Read[Operand].insert(L).second)
            << Operand << " step " << *Step << ": chunk read twice";
        StageContent[Stage][Shared] = {Operand, L};
      }
    // 1. a bijection onto the stage's bytes.
    ASSERT_EQ(int64_t(Written.size()), T.stageBytes() / 16);
    EXPECT_EQ(int64_t(*Written.begin()), Base);
    EXPECT_EQ(int64_t(*Written.rbegin()), Base + T.stageBytes() - 16);
    if (!Step)
      continue;
    // 2. the block's tiles for the step, exactly once.
    ++CheckedSteps;
    for (const char *Operand : {"a", "b"}) {
      // Rows: each of the extent rows, 4 chunks of 8 k.  Columns: each of
      // the 32 k rows, extent / 8 chunks of 8 m (or n).
      std::set<Logical> Expected;
      if (LayoutOf(Operand) == Layout::Rows) {
        for (int64_t MN = 0; MN < Extent(Operand); ++MN)
          for (int64_t KK = 0; KK < 32; KK += 8)
            Expected.insert({MN, KK});
      } else {
        for (int64_t MN = 0; MN < Extent(Operand); MN += 8)
          for (int64_t KK = 0; KK < 32; ++KK)
            Expected.insert({MN, KK});
      }
      const std::set<Logical> &Got = Read[Operand];
      EXPECT_EQ(Got, Expected) << "operand " << Operand << " step " << *Step;
    }
  }
  EXPECT_EQ(CheckedSteps, T.Stages); // S - 1 prologue steps + the tail's

  // 3. and 4. every LDSM lane reads the fragment row it needs, each phase
  // conflict-free.
  std::vector<const Op *> Products;
  for (const Op &O : MM.Body)
    collect(O, "tp.products", Products);
  ASSERT_EQ(int64_t(Products.size()),
            2 * T.Stages - (MM.find("tp.loop") ? 0 : T.Stages));
  int64_t Checked = 0;
  for (const Op *Prod : Products) {
    int64_t Stage = *Prod->getInt("stage");
    const auto &Content = StageContent[Stage];
    ASSERT_FALSE(Content.empty());
    for (const Op &L : Prod->Body) {
      if (L.Name != "tp.ldsm")
        continue;
      std::string Operand = L.getWord("operand").str();
      bool Columns = LayoutOf(Operand) == Layout::Columns;
      EXPECT_EQ(L.getWord("shape"), Columns ? "mt88" : "m88");
      int64_t KK = *L.getInt("kk"), Index = *L.getInt("index");
      for (int64_t W = 0; W < T.warps(); ++W) {
        for (int64_t Q = 0; Q < 4; ++Q) {
          std::set<int64_t> Banks;
          for (int64_t R = 0; R < 8; ++R) {
            int64_t Lane = 8 * Q + R, Tid = 32 * W + Lane;
            int64_t Shared =
                *L.getInt("smem_offset") + Thread[Tid].lookup(L.Operands[0].str());
            Banks.insert(Shared / 16 % 8);
            int64_t MN0, K0;
            if (Operand == "a") {
              int64_t WarpM = W / T.WarpsN;
              MN0 = WarpM * 16 * T.MTiles + 16 * Index + 8 * (Q % 2);
              K0 = 16 * KK + 8 * (Q / 2);
            } else {
              int64_t WarpN = W % T.WarpsN;
              MN0 = WarpN * 8 * T.NTiles + 16 * Index + 8 * (Q / 2);
              K0 = 16 * KK + 8 * (Q % 2);
            }
            Logical Need = Columns ? Logical{MN0, K0 + R} : Logical{MN0 + R, K0};
            auto It = Content.find(Shared);
            ASSERT_NE(It, Content.end()) << "LDSM reads an unwritten chunk";
            EXPECT_EQ(It->second.first, Operand);
            EXPECT_EQ(It->second.second, Need)
                << Operand << " kk " << KK << " index " << Index << " warp "
                << W << " lane " << Lane;
            ++Checked;
          }
          EXPECT_EQ(Banks.size(), 8u)
              << "bank conflict: " << Operand << " kk " << KK << " index "
              << Index << " warp " << W << " matrix " << Q;
        }
      }
    }
  }
  EXPECT_GT(Checked, 0);

  // 5. C's pairs cover the block's tile exactly once.
  std::vector<const Op *> Stores;
  collect(MM, "tp.stg", Stores);
  ASSERT_EQ(int64_t(Stores.size()), 2 * T.MTiles * T.NTiles);
  std::set<int64_t> Pairs;
  for (int64_t Tid = 0; Tid < T.threads(); ++Tid)
    for (const Op *S : Stores) {
      int64_t Off = Thread[Tid].lookup("c.off") + *S->getInt("offset");
      int64_t Row = Off / (4 * N), Col = Off % (4 * N) / 4;
      EXPECT_EQ(Col % 2, 0);
      EXPECT_TRUE(Row >= int64_t(Block.CtaY) * T.blockM() &&
                  Row < int64_t(Block.CtaY + 1) * T.blockM());
      EXPECT_TRUE(Col >= int64_t(Block.CtaX) * T.blockN() &&
                  Col < int64_t(Block.CtaX + 1) * T.blockN());
      EXPECT_TRUE(Pairs.insert(Off).second) << "C pair stored twice";
    }
  EXPECT_EQ(int64_t(Pairs.size()), T.blockM() * T.blockN() / 2);
}

std::vector<Case> allCases() {
  std::vector<Case> Cases;
  for (const char *Tile :
       {"large", "small", "128x64", "256x128", "2,2,2,4,3", "2,4,2,4,2"})
    for (Layout A : {Layout::Rows, Layout::Columns})
      for (Layout B : {Layout::Rows, Layout::Columns})
        Cases.push_back({Tile, A, B});
  return Cases;
}

INSTANTIATE_TEST_SUITE_P(AllTiles, AddressModel, ::testing::ValuesIn(allCases()),
                         [](const ::testing::TestParamInfo<Case> &I) {
                           return name(I.param);
                         });

} // namespace
