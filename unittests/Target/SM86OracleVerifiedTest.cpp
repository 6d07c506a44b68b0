//===- SM86OracleVerifiedTest.cpp - sm86::isOracleVerified ----------------===//
///
/// \file
/// The table behind sm86::isOracleVerified is generated at build time from
/// SM86UncoveredForms.txt (lib/Target/SM86/GenUnverifiedForms.cmake).  These
/// tests check that it is that list -- not empty, not stale, every name a
/// form -- and pin one form on each side.  Whether the list itself matches
/// the oracles is SM86CoverageTest's job.
///
//===----------------------------------------------------------------------===//

#include "tp/Target/SM86/SM86.h"
#include "llvm/ADT/StringRef.h"
#include "gtest/gtest.h"
#include <fstream>
#include <set>
#include <string>

using namespace tp;

namespace {

/// The names of SM86UncoveredForms.txt, read as the coverage test reads
/// them ('#' starts a comment).
std::vector<std::string> readList() {
  std::vector<std::string> Names;
  std::ifstream In(TP_UNITTEST_DIR "/SM86UncoveredForms.txt");
  EXPECT_TRUE(In.good()) << "missing SM86UncoveredForms.txt";
  std::string L;
  while (std::getline(In, L)) {
    llvm::StringRef T = llvm::StringRef(L).split('#').first.trim();
    if (!T.empty())
      Names.push_back(T.str());
  }
  return Names;
}

sm86::Opcode opcode(llvm::StringRef Name) {
  sm86::Opcode Op = sm86::Opcode(0);
  EXPECT_TRUE(sm86::lookupOpcode(Name, Op)) << "no form " << Name.str();
  return Op;
}

// One form on each side.  IMAD_P_rrr (IMAD with a carry-out) has no oracle
// word and no covered sibling of its variant; IADD3_rrr and
// IMAD_MOV_rrc are in every ptxas kernel.  If an oracle word comes to
// reach IMAD_P_rrr, pin another listed form here.
TEST(SM86OracleVerified, KnownForms) {
  EXPECT_FALSE(sm86::isOracleVerified(opcode("IMAD_P_rrr")));
  EXPECT_TRUE(sm86::isOracleVerified(opcode("IADD3_rrr")));
  EXPECT_TRUE(sm86::isOracleVerified(opcode("IMAD_MOV_rrc")));
  EXPECT_TRUE(sm86::isOracleVerified(opcode("HMMA_16816_F32")));
  EXPECT_FALSE(sm86::isOracleVerified(sm86::Opcode(sm86::NUM_OPCODES)));
}

// The compiled-in table is exactly the list file: a build that did not
// regenerate it after an edit, or an empty table, fails here.
TEST(SM86OracleVerified, TableIsTheList) {
  std::vector<std::string> Names = readList();
  ASSERT_FALSE(Names.empty());
  std::set<unsigned> Listed;
  for (const std::string &N : Names) {
    sm86::Opcode Op;
    ASSERT_TRUE(sm86::lookupOpcode(N, Op))
        << "SM86UncoveredForms.txt names " << N << ", which is no form";
    EXPECT_TRUE(Listed.insert(Op).second) << N << " is listed twice";
  }
  llvm::ArrayRef<sm86::Opcode> Table = sm86::getUnverifiedForms();
  EXPECT_EQ(Table.size(), Names.size());
  for (unsigned Op = 0; Op < sm86::getNumOpcodes(); ++Op)
    EXPECT_EQ(sm86::isOracleVerified(sm86::Opcode(Op)), !Listed.count(Op))
        << sm86::getInstrInfo(sm86::Opcode(Op)).Name;
  for (sm86::Opcode Op : Table)
    EXPECT_TRUE(Listed.count(Op)) << sm86::getInstrInfo(Op).Name;
}

} // namespace
