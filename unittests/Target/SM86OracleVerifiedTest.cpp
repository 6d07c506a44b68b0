//===- SM86OracleVerifiedTest.cpp - sass::isOracleVerified ----------------===//
///
/// \file
/// The table behind sass::isOracleVerified is generated at build time from
/// UnverifiedForms.txt (lib/Target/SASS/GenUnverifiedForms.cmake).  These
/// tests check that it is that list -- not empty, not stale, every name a
/// form -- and pin one form on each side.  Whether the list itself matches
/// the oracles is SM86CoverageTest's job.
///
//===----------------------------------------------------------------------===//

#include "tp/Target/SASS/SASS.h"
#include "llvm/ADT/StringRef.h"
#include "gtest/gtest.h"
#include <fstream>
#include <set>
#include <string>

using namespace tp;

namespace {

/// The names of UnverifiedForms.txt, read as the coverage test reads
/// them ('#' starts a comment).
std::vector<std::string> readList() {
  std::vector<std::string> Names;
  std::ifstream In(TP_SOURCE_DIR "/td/UnverifiedForms.txt");
  EXPECT_TRUE(In.good()) << "missing UnverifiedForms.txt";
  std::string L;
  while (std::getline(In, L)) {
    llvm::StringRef T = llvm::StringRef(L).split('#').first.trim();
    if (!T.empty())
      Names.push_back(T.str());
  }
  return Names;
}

sass::Opcode opcode(llvm::StringRef Name) {
  sass::Opcode Op = sass::Opcode(0);
  EXPECT_TRUE(sass::lookupOpcode(Name, Op)) << "no form " << Name.str();
  return Op;
}

// One form on each side.  IMAD_P_rrr (IMAD with a carry-out) has no oracle
// word and no covered sibling of its variant; IADD3_rrr and
// IMAD_MOV_rrc are in every ptxas kernel.  If an oracle word comes to
// reach IMAD_P_rrr, pin another listed form here.
TEST(SM86OracleVerified, KnownForms) {
  EXPECT_FALSE(sass::isOracleVerified(opcode("IMAD_P_rrr")));
  EXPECT_TRUE(sass::isOracleVerified(opcode("IADD3_rrr")));
  EXPECT_TRUE(sass::isOracleVerified(opcode("IMAD_MOV_rrc")));
  EXPECT_TRUE(sass::isOracleVerified(opcode("HMMA_16816_F32")));
  EXPECT_FALSE(sass::isOracleVerified(sass::Opcode(sass::NUM_OPCODES)));
}

// The compiled-in table is exactly the list file: a build that did not
// regenerate it after an edit, or an empty table, fails here.
TEST(SM86OracleVerified, TableIsTheList) {
  std::vector<std::string> Names = readList();
  ASSERT_FALSE(Names.empty());
  std::set<unsigned> Listed;
  for (const std::string &N : Names) {
    sass::Opcode Op;
    ASSERT_TRUE(sass::lookupOpcode(N, Op))
        << "UnverifiedForms.txt names " << N << ", which is no form";
    EXPECT_TRUE(Listed.insert(Op).second) << N << " is listed twice";
  }
  llvm::ArrayRef<sass::Opcode> Table = sass::getUnverifiedForms();
  EXPECT_EQ(Table.size(), Names.size());
  for (unsigned Op = 0; Op < sass::getNumOpcodes(); ++Op)
    EXPECT_EQ(sass::isOracleVerified(sass::Opcode(Op)), !Listed.count(Op))
        << sass::getInstrInfo(sass::Opcode(Op)).Name;
  for (sass::Opcode Op : Table)
    EXPECT_TRUE(Listed.count(Op)) << sass::getInstrInfo(Op).Name;
}

} // namespace
