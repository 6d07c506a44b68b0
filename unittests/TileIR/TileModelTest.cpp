//===- TileModelTest.cpp - Tile arithmetic, admission, default tile -------===//

#include "tp/TileIR/TileModel.h"
#include "gtest/gtest.h"

using namespace tp::tile;

namespace {

const TargetLimits SM86 = getTargetLimits(tp::sass::Target::SM86);

TileParams named(const char *N) {
  auto T = parseTileSpec(N);
  EXPECT_TRUE(bool(T));
  return *T;
}

TEST(TileModel, NamedTiles) {
  TileParams L = named("large");
  EXPECT_EQ(L, (TileParams{2, 4, 4, 4, 4}));
  EXPECT_EQ(L.blockM(), 128);
  EXPECT_EQ(L.blockN(), 128);
  EXPECT_EQ(L.threads(), 256);
  EXPECT_EQ(L.chunksA(), 2);
  EXPECT_EQ(L.chunksB(), 2);
  EXPECT_EQ(L.sharedBytes(), 65536);
  // seed: tpOffsetBase = 48 + 64 + 32 + 16, + 2 + 2
  EXPECT_EQ(L.registers(), 164);
  TileParams S = named("small");
  EXPECT_EQ(S, (TileParams{2, 2, 2, 4, 4}));
  EXPECT_EQ(S.blockM() * 1000 + S.blockN(), 64064);
  TileParams R = named("128x64");
  EXPECT_EQ(R.blockM(), 128);
  EXPECT_EQ(R.blockN(), 64);
  EXPECT_EQ(R.warps(), 8);
  EXPECT_EQ(R.chunksA(), 2); // two chunks of A a thread, one of B (seed)
  EXPECT_EQ(R.chunksB(), 1);
  TileParams H = named("256x128");
  EXPECT_EQ(H.blockM(), 256);
  EXPECT_EQ(H.blockN(), 128);
  EXPECT_EQ(H.warpM(), 64);
  EXPECT_EQ(H.warpN(), 64);
  EXPECT_EQ(H.warps(), 8);
  EXPECT_LE(H.registers(), SM86.RegisterLimit);
  EXPECT_EQ(named("2,4,4,4,3").Stages, 3);
  auto Bad = parseTileSpec("huge");
  EXPECT_FALSE(bool(Bad));
  llvm::consumeError(Bad.takeError());
}

TEST(TileModel, DefaultTileCoversEverySM) {
  // 4096^2: 256x128 gives 16 x 32 = 512 blocks >= 82.
  Problem Big{4096, 4096, 4096, Layout::Rows, Layout::Columns, false};
  EXPECT_EQ(*chooseTile(Big, SM86.SharedCapacity, 82, SM86), named("256x128"));
  // 1024 x 1536: 256x128 -> 4 x 12 = 48 blocks, large -> 8 x 12 = 96.
  Problem Mid{1024, 1536, 1024, Layout::Rows, Layout::Rows, false};
  EXPECT_EQ(*chooseTile(Mid, SM86.SharedCapacity, 82, SM86), named("large"));
  // 1024 x 640: large 8 x 5 = 40, 128x64 8 x 10 = 80, small 16 x 10 = 160.
  Problem Narrow{1024, 640, 512, Layout::Rows, Layout::Rows, false};
  EXPECT_EQ(*chooseTile(Narrow, SM86.SharedCapacity, 82, SM86), named("small"));
  // With 80 SMs the 128x64 grid suffices.
  EXPECT_EQ(*chooseTile(Narrow, SM86.SharedCapacity, 80, SM86), named("128x64"));
  // 128 x 128: no tile reaches 82 blocks: the most blocks (small, 4).
  Problem Tiny{128, 128, 128, Layout::Rows, Layout::Rows, false};
  EXPECT_EQ(*chooseTile(Tiny, SM86.SharedCapacity, 82, SM86), named("small"));
  // A shared limit below 256x128's 98304 bytes moves to large.
  EXPECT_EQ(*chooseTile(Big, 65536, 82, SM86), named("large"));
  // Nothing admits M = 100.
  Problem Odd{100, 128, 128, Layout::Rows, Layout::Rows, false};
  EXPECT_FALSE(chooseTile(Odd, SM86.SharedCapacity, 82, SM86).hasValue());
}

TEST(TileModel, AdmissionRules) {
  TileParams L = named("large");
  Problem P{4096, 4096, 4096, Layout::Rows, Layout::Columns, false};
  EXPECT_FALSE(checkAdmission(P, L, SM86.SharedCapacity, SM86).hasValue());
  P.K = 200;
  auto V = checkAdmission(P, L, SM86.SharedCapacity, SM86);
  ASSERT_TRUE(V.hasValue());
  EXPECT_EQ(V->Field, "k");
  EXPECT_EQ(V->Message, "K = 200 is not a multiple of 128 (32 x 4 stages)");
  P.K = 4096;
  V = checkAdmission(P, L, 60000, SM86);
  ASSERT_TRUE(V.hasValue());
  EXPECT_EQ(V->Field, "shared_limit");
  // 4 M N = 2^32 exactly is not below 2^32.
  Problem Huge{32768, 32768, 128, Layout::Rows, Layout::Rows, false};
  V = checkShape(Huge);
  ASSERT_TRUE(V.hasValue());
  Huge.N = 32767 - 32767 % 128;
  EXPECT_FALSE(checkShape(Huge).hasValue());
}

TEST(TileModel, TargetLimits) {
  // The td's facts (sass::getTargetInfo), and the card each target's
  // automatic tile is sized for (PERF_FACTS.md section 1).
  TargetLimits H = getTargetLimits(tp::sass::Target::SM90);
  EXPECT_EQ(SM86.SharedCapacity, 100 * 1024 - 2048);
  EXPECT_EQ(H.SharedCapacity, 227 * 1024);
  EXPECT_EQ(SM86.RegisterLimit, 255);
  EXPECT_EQ(H.RegisterLimit, 255);
  EXPECT_EQ(SM86.CardSMs, 82);
  EXPECT_EQ(H.CardSMs, 132);
  // 7 stages of 128x128 (114688 bytes) exceed sm_86's capacity, not
  // sm_90's.
  Problem P{4096, 4096, 4096, Layout::Rows, Layout::Columns, false};
  TileParams Seven = named("2,4,4,4,7");
  P.K = 32 * 7 * 16;
  auto V = checkAdmission(P, Seven, SM86.SharedCapacity, SM86);
  ASSERT_TRUE(V.hasValue());
  EXPECT_EQ(V->Message, "shared memory 7 stages x (128 + 128) x 64 = 114688 "
                        "bytes exceeds the sm_86 capacity of 100352 bytes "
                        "(100 KiB - 2 KiB)");
  EXPECT_FALSE(checkAdmission(P, Seven, H.SharedCapacity, H).hasValue());
  // 1024 x 1536: large gives 96 blocks (>= 82, < 132), small 384.
  Problem Mid{1024, 1536, 1024, Layout::Rows, Layout::Rows, false};
  EXPECT_EQ(*chooseTile(Mid, SM86.SharedCapacity, SM86.CardSMs, SM86),
            named("large"));
  EXPECT_EQ(*chooseTile(Mid, H.SharedCapacity, H.CardSMs, H), named("128x64"));
}

} // namespace
