//===- DescribeTableTest.cpp - describe() against a checked-in table -----===//
///
/// \file
/// The oracle of sched::describe: its view (name, class, kind, defs, uses
/// with slot, predicate role and late flag, guard flags, read scoreboard,
/// DEPBAR operands, shared offset) of every instruction of
///
///  * every row of shared/reference/sm_{86,80}.encodings_addr.tsv that
///    decodes (sm_86 tables),
///  * every .text word of the reference cubins (sm_90 tables for *sm90*),
///  * three random instances of every form on sm_86 and sm_90
///    (FormInstance.h, fixed seed),
///
/// one line each, must equal test/Target/Inputs/describe-table.txt.  The
/// table was written by the describe() that classified each instruction by
/// printing it and matching its mnemonic; the one that classifies from the
/// form's td data must give the same view.  TP_WRITE_DESCRIBE_TABLE=FILE
/// writes the table this build computes to FILE (to regenerate it when a
/// form is added on purpose).
///
//===----------------------------------------------------------------------===//

#include "CorpusReader.h"
#include "FormInstance.h"
#include "tp/Object/CubinFile.h"
#include "tp/Target/SASS/Schedule.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"
#include <cstdlib>
#include <fstream>
#include <set>
#include <tuple>

using namespace llvm;
using namespace tp;
using namespace tp::test;

namespace {

/// The .text words of a cubin (read by lib/Object; none if it is not one).
std::vector<sass::Word128> textWords(const std::string &Path) {
  std::vector<sass::Word128> Ws;
  auto MB = MemoryBuffer::getFile(Path);
  if (!MB)
    return Ws;
  Expected<object::CubinFile> F = object::readCubinFile(
      arrayRefFromStringRef((*MB)->getBuffer()));
  if (!F) {
    consumeError(F.takeError());
    return Ws;
  }
  for (const object::Section &S : F->Sections)
    if (StringRef(S.Name).startswith(".text"))
      for (size_t K = 0; K + 16 <= S.Data.size(); K += 16)
        Ws.push_back(sass::readWord(ArrayRef<uint8_t>(S.Data).slice(K, 16)));
  return Ws;
}

void printRange(raw_ostream &OS, const sched::RegRange &R) {
  OS << sched::regName(R.File, R.First);
  if (R.Count != 1)
    OS << "x" << unsigned(R.Count);
}

/// One line: the instruction's target and word, then describe()'s view.
std::string line(sass::Target T, const sass::Instruction &I) {
  sass::Word128 W = sass::encode(I, T);
  std::string S;
  raw_string_ostream OS(S);
  OS << sass::getTargetName(T) << " " << format_hex_no_prefix(W.Hi, 16)
     << format_hex_no_prefix(W.Lo, 16) << " ";
  Expected<sched::SchedInstr> D = sched::describe(I);
  if (!D) {
    OS << "error: " << toString(D.takeError());
    return OS.str();
  }
  OS << D->Name << " class=" << unsigned(D->Class)
     << " kind=" << unsigned(D->Kind) << " defs=";
  for (const sched::RegRange &R : D->Defs) {
    printRange(OS, R);
    OS << ",";
  }
  OS << " uses=";
  for (const sched::RegUse &U : D->Uses) {
    printRange(OS, U.Regs);
    OS << ":" << unsigned(U.Slot) << ":" << unsigned(U.How)
       << (U.Late ? "L" : "") << ",";
  }
  OS << " p=" << D->Predicated << " never=" << D->NeverExecutes
     << " rsb=" << D->NeedsReadSB << " wait=" << unsigned(D->WaitSB) << ","
     << unsigned(D->WaitCount) << " smem=" << D->SharedOffset;
  return OS.str();
}

std::vector<std::string> computeTable() {
  // Keyed by (target, word) so that each instruction appears once, sorted.
  std::set<std::pair<unsigned, std::pair<uint64_t, uint64_t>>> Seen;
  std::vector<std::string> Lines;
  auto Add = [&](sass::Target T, const sass::Instruction &I) {
    sass::Word128 W = sass::encode(I, T);
    if (Seen.insert({unsigned(T), {W.Hi, W.Lo}}).second)
      Lines.push_back(line(T, I));
  };
  for (const char *F : {"/reference/sm_86.encodings_addr.tsv",
                        "/reference/sm_80.encodings_addr.tsv"})
    for (const CorpusRow &R : readCorpus(std::string(TP_SHARED_DIR) + F)) {
      sass::Instruction I;
      if (sass::decode(R.Word, I, sass::Target::SM86))
        Add(sass::Target::SM86, I);
    }
  std::error_code EC;
  std::vector<std::string> Cubins;
  for (sys::fs::directory_iterator
           It(std::string(TP_SHARED_DIR) + "/reference/cubin", EC),
       End;
       It != End && !EC; It.increment(EC))
    if (StringRef(It->path()).endswith(".cubin"))
      Cubins.push_back(It->path());
  std::sort(Cubins.begin(), Cubins.end());
  for (const std::string &C : Cubins) {
    sass::Target T = StringRef(sys::path::filename(C)).contains("sm90")
                         ? sass::Target::SM90
                         : sass::Target::SM86;
    for (const sass::Word128 &W : textWords(C)) {
      sass::Instruction I;
      if (sass::decode(W, I, T))
        Add(T, I);
    }
  }
  for (sass::Target T : {sass::Target::SM86, sass::Target::SM90}) {
    uint64_t R = 0x2545f4914f6cdd1dULL;
    for (unsigned Op = 0; Op < sass::getNumOpcodes(); ++Op)
      for (unsigned N = 0; N < 3; ++N) {
        sass::Instruction I;
        if (randomInstance(sass::Opcode(Op), T, R, I))
          Add(T, I);
      }
  }
  std::sort(Lines.begin(), Lines.end());
  return Lines;
}

TEST(DescribeTable, MatchesTheCheckedInTable) {
  std::vector<std::string> Lines = computeTable();
  if (const char *Path = std::getenv("TP_WRITE_DESCRIBE_TABLE")) {
    std::ofstream OS(Path);
    for (const std::string &L : Lines)
      OS << L << "\n";
  }
  std::ifstream In(TP_SOURCE_DIR "/test/Target/Inputs/describe-table.txt");
  ASSERT_TRUE(In.good()) << "cannot read test/Target/Inputs/describe-table.txt";
  std::vector<std::string> Want;
  for (std::string L; std::getline(In, L);)
    Want.push_back(L);
  EXPECT_EQ(Lines.size(), Want.size());
  unsigned Shown = 0;
  for (size_t I = 0; I < std::min(Lines.size(), Want.size()) && Shown < 10;
       ++I)
    if (Lines[I] != Want[I]) {
      ADD_FAILURE() << "line " << I + 1 << ":\n  want " << Want[I]
                    << "\n  got  " << Lines[I];
      ++Shown;
    }
  EXPECT_GT(Lines.size(), 3000u);
}

} // namespace
