//===- StrTabTest.cpp - detail::StrTab, the cubin builder's string tables -===//
///
/// \file
///  * names are laid out in insertion order, each NUL-terminated, after the
///    leading NUL;
///  * a prefix and a name add the same bytes and offset as their
///    concatenation would;
///  * a repeat returns the first offset and leaves the bytes as they were
///    (the appended copy is cut off again), also when it is a prefix of an
///    earlier name or an earlier name is a prefix of it;
///  * at() answers every added name.
///
//===----------------------------------------------------------------------===//

#include "CubinBuild.h"
#include "gtest/gtest.h"
#include <string>

using namespace tp::object::detail;

namespace {

std::string bytesOf(const StrTab &T) {
  return std::string(T.Bytes.begin(), T.Bytes.end());
}

TEST(StrTab, InsertionOrderWithNulTerminators) {
  StrTab T;
  EXPECT_EQ(T.add(".shstrtab"), 1u);
  EXPECT_EQ(T.add(".text.", "k"), 11u);
  EXPECT_EQ(T.add("k"), 19u);
  EXPECT_EQ(bytesOf(T), std::string("\0.shstrtab\0.text.k\0k\0", 21));
}

TEST(StrTab, PrefixAndNameIsTheConcatenation) {
  StrTab A, B;
  for (const char *K : {"gemm", "x", ""}) {
    EXPECT_EQ(A.add(".nv.info.", K), B.add(std::string(".nv.info.") + K));
    EXPECT_EQ(A.add("", K), B.add(K));
  }
  EXPECT_EQ(A.Bytes, B.Bytes);
}

TEST(StrTab, RepeatKeepsTheFirstOffsetAndTheBytes) {
  StrTab T;
  uint32_t Text = T.add(".text.", "gemm");
  uint32_t Info = T.add(".nv.info.gemm");
  std::string Before = bytesOf(T);
  EXPECT_EQ(T.add(".text.gemm"), Text);
  EXPECT_EQ(T.add(".nv.info.", "gemm"), Info);
  EXPECT_EQ(bytesOf(T), Before);
  // Neither a prefix nor an extension of an earlier name is a repeat.
  uint32_t Short = T.add(".text.");
  EXPECT_EQ(Short, Before.size());
  uint32_t Long = T.add(".text.gemm", "2");
  EXPECT_EQ(Long, Before.size() + 7);
  EXPECT_EQ(T.at(".text."), Short);
  EXPECT_EQ(T.at(".text.gemm2"), Long);
  EXPECT_EQ(T.at(".text.gemm"), Text);
  EXPECT_EQ(T.at(".nv.info.gemm"), Info);
}

} // namespace
