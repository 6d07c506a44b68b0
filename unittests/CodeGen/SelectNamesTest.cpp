//===- SelectNamesTest.cpp - tp-select's name and address tables ----------===//
//
// NameTable (lib/CodeGen/SelectNames.h) finds exactly the names inserted:
// every length from 0 to 40 bytes, names that differ in one byte at any
// position (the hash and the comparison read a name in overlapping words,
// so each byte must count), through growth from empty; AddressTable finds
// exactly the (address, size) keys inserted, the size part of the key.
//
//===----------------------------------------------------------------------===//

#include "../../lib/CodeGen/SelectNames.h"

#include "gtest/gtest.h"

#include <string>
#include <vector>

using namespace tp::isel;

namespace {

/// A name of \p Len bytes, different for each \p Seed.
std::string makeName(size_t Len, unsigned Seed) {
  std::string S(Len, 'a');
  for (size_t I = 0; I < Len; ++I)
    S[I] = char('a' + (Seed * 7 + I * 13) % 26);
  return S;
}

TEST(SelectNamesTest, FindsExactlyTheNamesInserted) {
  std::vector<std::string> Names;
  for (size_t Len = 0; Len <= 40; ++Len)
    for (unsigned Seed = 0; Seed < 3; ++Seed)
      Names.push_back(makeName(Len, Seed));
  // Tile IR spellings of neighbouring values.
  for (const char *N : {"a.goff0", "a.goff1", "b.goff0", "e.sfirst12",
                        "e.sfirst13", "e.sfirst21", "k.K", "k.k", "x"})
    Names.push_back(N);
  NameTable T; // no reserve: grows from empty
  unsigned Next = 0;
  std::vector<unsigned> Ids;
  for (const std::string &N : Names) {
    auto Ins = T.insert(N, Next);
    if (Ins.second)
      ++Next;
    Ids.push_back(Ins.first);
  }
  EXPECT_EQ(T.size(), Next);
  for (size_t I = 0; I < Names.size(); ++I) {
    EXPECT_EQ(T.find(Names[I]), Ids[I]) << Names[I];
    auto Again = T.insert(Names[I], 12345);
    EXPECT_FALSE(Again.second) << Names[I];
    EXPECT_EQ(Again.first, Ids[I]) << Names[I];
  }
  // A name is found only with every one of its bytes.
  for (size_t Len = 1; Len <= 40; ++Len) {
    std::string N = makeName(Len, 0);
    for (size_t Pos = 0; Pos < Len; ++Pos) {
      std::string M = N;
      M[Pos] = '.';
      EXPECT_EQ(T.find(M), NameTable::None) << M;
    }
    EXPECT_EQ(T.find(N + "z"), NameTable::None) << N;
    EXPECT_EQ(T.find(N.substr(0, Len - 1) + "."), NameTable::None) << N;
  }
}

TEST(SelectNamesTest, ManyNamesAfterReserve) {
  std::vector<std::string> Names;
  for (unsigned I = 0; I < 2000; ++I)
    Names.push_back("v." + std::to_string(I));
  NameTable T;
  T.reserve(100); // too small: grows
  for (unsigned I = 0; I < Names.size(); ++I)
    EXPECT_TRUE(T.insert(Names[I], I).second);
  for (unsigned I = 0; I < Names.size(); ++I)
    EXPECT_EQ(T.find(Names[I]), I);
  EXPECT_EQ(T.find("v.2000"), NameTable::None);
  EXPECT_EQ(T.find(""), NameTable::None);
}

TEST(SelectNamesTest, AddressTableFindsExactlyTheKeys) {
  std::vector<int> Objects(3000);
  AddressTable T;
  EXPECT_EQ(T.find(&Objects[0]), AddressTable::None);
  for (unsigned I = 0; I < Objects.size(); I += 2)
    T.insert(&Objects[I], I);
  for (unsigned I = 0; I < Objects.size(); ++I)
    EXPECT_EQ(T.find(&Objects[I]), I % 2 ? AddressTable::None : I);
  T.insert(&Objects[4], 7); // the same key again: the new id
  EXPECT_EQ(T.find(&Objects[4]), 7u);
}

TEST(SelectNamesTest, AddressTableKeysIncludeTheSize) {
  // tp-select keys a spelling by its characters' address and length: a
  // prefix at the same address is another name.
  const char *Text = "a.goff01";
  AddressTable T;
  T.insert(Text, 1, 7); // "a.goff0"
  EXPECT_EQ(T.find(Text, 7), 1u);
  EXPECT_EQ(T.find(Text, 8), AddressTable::None);
  EXPECT_EQ(T.find(Text, 6), AddressTable::None);
  T.insert(Text, 2, 8); // "a.goff01"
  EXPECT_EQ(T.find(Text, 8), 2u);
  EXPECT_EQ(T.find(Text, 7), 1u);
  EXPECT_EQ(T.size(), 2u);
}

TEST(SelectNamesTest, AddressTableInsertIfAbsentKeepsTheFirstId) {
  // tp-select's define(): a spelling seen before keeps its id (a value
  // defined twice), a new one takes the id given, through growth.
  std::vector<int> Objects(100);
  AddressTable T;
  for (unsigned I = 0; I < Objects.size(); ++I)
    EXPECT_EQ(T.insertIfAbsent(&Objects[I], I, 4), I);
  for (unsigned I = 0; I < Objects.size(); ++I) {
    EXPECT_EQ(T.insertIfAbsent(&Objects[I], 1000 + I, 4), I);
    EXPECT_EQ(T.insertIfAbsent(&Objects[I], 2000 + I, 5), 2000 + I);
    EXPECT_EQ(T.find(&Objects[I], 4), I);
  }
  EXPECT_EQ(T.size(), 2 * Objects.size());
  EXPECT_GT(T.timesGrown(), 1u); // (from empty, and while filled)
}

} // namespace
