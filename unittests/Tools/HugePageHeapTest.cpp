//===- HugePageHeapTest.cpp - tp-llc's heap on transparent huge pages -----===//
///
/// \file
/// tools/tp-llc/HugePageHeap.cpp, linked as in tp-llc (static, malloc's
/// family wrapped): after enableHugePageHeap() malloc, calloc, realloc and
/// the aligned allocations come from the arena and behave as malloc's
/// contract says; blocks glibc handed out before it stay glibc's.  Skipped
/// where the kernel's transparent huge pages are off.
///
//===----------------------------------------------------------------------===//

#include "HugePageHeap.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <malloc.h>

namespace {

// Called through volatile pointers, so that the compiler neither elides
// an allocation nor folds a malloc/memset pair into calloc.
void *(*volatile Malloc)(size_t) = std::malloc;
void *(*volatile Calloc)(size_t, size_t) = std::calloc;
void *(*volatile Realloc)(void *, size_t) = std::realloc;
void (*volatile Free)(void *) = std::free;
void *(*volatile Memalign)(size_t, size_t) = ::memalign;
void *(*volatile AlignedAlloc)(size_t, size_t) = ::aligned_alloc;
int (*volatile PosixMemalign)(void **, size_t, size_t) = ::posix_memalign;
size_t (*volatile UsableSize)(void *) = ::malloc_usable_size;

bool isAligned(const void *P, size_t Align) {
  return reinterpret_cast<uintptr_t>(P) % Align == 0;
}

/// A block glibc handed out before any test enabled the arena.
char *const EarlyBlock = [] {
  auto *P = static_cast<char *>(Malloc(100));
  std::memset(P, 'e', 100);
  return P;
}();

class HugePageHeapTest : public testing::Test {
protected:
  void SetUp() override {
    if (!tp::enableHugePageHeap())
      GTEST_SKIP() << "no transparent huge pages";
  }
};

TEST_F(HugePageHeapTest, MallocTakesTheArena) {
  EXPECT_FALSE(tp::inHugePageHeap(EarlyBlock));
  for (size_t N : {0, 1, 15, 16, 17, 100, 4096, 100000}) {
    void *P = Malloc(N);
    ASSERT_NE(P, nullptr);
    EXPECT_TRUE(tp::inHugePageHeap(P)) << N;
    EXPECT_TRUE(isAligned(P, 16)) << N;
    EXPECT_GE(UsableSize(P), N);
    std::memset(P, 0xff, N);
    Free(P);
  }
  int *I = new int(7);
  EXPECT_TRUE(tp::inHugePageHeap(I));
  delete I;
}

TEST_F(HugePageHeapTest, CallocIsZeroWithoutReuse) {
  // Written and freed blocks are never handed out again, so calloc's
  // arena memory (not cleared) is zero.
  for (int Round = 0; Round < 8; ++Round) {
    void *Dirty = Malloc(256);
    std::memset(Dirty, 0xab, 256);
    Free(Dirty);
    auto *Z = static_cast<unsigned char *>(Calloc(64, 4));
    ASSERT_NE(Z, nullptr);
    EXPECT_TRUE(tp::inHugePageHeap(Z));
    for (int I = 0; I < 256; ++I)
      ASSERT_EQ(Z[I], 0) << I;
    std::memset(Z, 0xcd, 256);
  }
  errno = 0;
  EXPECT_EQ(Calloc(SIZE_MAX / 2, 3), nullptr);
  EXPECT_EQ(errno, ENOMEM);
}

TEST_F(HugePageHeapTest, ReallocKeepsTheBytes) {
  // The last block grows in place; one with a block after it moves.
  auto *P = static_cast<char *>(Realloc(nullptr, 10));
  ASSERT_TRUE(tp::inHugePageHeap(P));
  std::memcpy(P, "0123456789", 10);
  P = static_cast<char *>(Realloc(P, 5000));
  ASSERT_NE(P, nullptr);
  EXPECT_EQ(std::memcmp(P, "0123456789", 10), 0);
  EXPECT_GE(UsableSize(P), 5000u);
  void *After = Malloc(32);
  char *Moved = static_cast<char *>(Realloc(P, 20000));
  ASSERT_NE(Moved, nullptr);
  EXPECT_NE(Moved, P);
  EXPECT_EQ(std::memcmp(Moved, "0123456789", 10), 0);
  // Shrinking keeps the block.
  EXPECT_EQ(Realloc(Moved, 3), Moved);
  EXPECT_EQ(std::memcmp(Moved, "012", 3), 0);
  Free(After);
  Free(Moved);
  // A grown block's new bytes are the arena's fresh ones: calloc after it
  // is still zero.
  auto *Z = static_cast<unsigned char *>(Calloc(1, 64));
  for (int I = 0; I < 64; ++I)
    ASSERT_EQ(Z[I], 0) << I;
}

TEST_F(HugePageHeapTest, GlibcBlocksStayGlibcs) {
  // A block from before the arena is resized and freed by glibc.
  char *P = static_cast<char *>(Realloc(EarlyBlock, 50000));
  ASSERT_NE(P, nullptr);
  EXPECT_FALSE(tp::inHugePageHeap(P));
  for (int I = 0; I < 100; ++I)
    ASSERT_EQ(P[I], 'e') << I;
  Free(P);
}

TEST_F(HugePageHeapTest, AlignedAllocations) {
  for (size_t Align : {8, 16, 32, 64, 256, 4096, 65536}) {
    void *A = Memalign(Align, 40);
    void *B = AlignedAlloc(Align, 40);
    void *C = nullptr;
    ASSERT_EQ(PosixMemalign(&C, Align, 40), 0) << Align;
    for (void *P : {A, B, C}) {
      ASSERT_NE(P, nullptr);
      EXPECT_TRUE(tp::inHugePageHeap(P)) << Align;
      EXPECT_TRUE(isAligned(P, Align)) << Align;
      EXPECT_GE(UsableSize(P), 40u);
      std::memset(P, 1, 40);
    }
    // An aligned block is realloc's too.
    auto *R = static_cast<char *>(Realloc(A, 1000));
    EXPECT_EQ(R[39], 1);
    Free(R);
    Free(B);
    Free(C);
  }
  void *P = nullptr;
  EXPECT_EQ(PosixMemalign(&P, 24, 40), EINVAL);
  EXPECT_EQ(PosixMemalign(&P, 4, 40), EINVAL);
  EXPECT_EQ(PosixMemalign(&P, 0, 40), EINVAL);
}

} // namespace
