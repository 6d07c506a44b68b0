//===- SM86CoverageTest.cpp - Which forms the oracles exercise -------------===//
///
/// \file
/// Every form's fields are checked against NVIDIA's bytes only if some
/// corpus row or ptxas word decodes to that form.  This test decodes every
/// row of the sm_86/sm_80 TSVs and every .text word of the sm_80/sm_86
/// reference cubins, and reports the forms no oracle word reaches.  Those
/// forms are listed, with the reason they exist, in
/// SM86UncoveredForms.txt; the test fails when a form is uncovered but not
/// listed (a new form nobody checked against NVIDIA's bytes) or listed but
/// covered (the list is stale).
///
//===----------------------------------------------------------------------===//

#include "CorpusReader.h"
#include "tp/Target/SM86/SM86.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"
#include <cstring>
#include <dirent.h>
#include <set>

using namespace tp;
using namespace tp::test;

namespace {

/// The words of the .text* sections of an ELF64 file (empty if none).
std::vector<sm86::Word128> cubinWords(const std::string &Path) {
  std::vector<sm86::Word128> Ws;
  std::ifstream In(Path, std::ios::binary);
  std::string D((std::istreambuf_iterator<char>(In)),
                std::istreambuf_iterator<char>());
  if (D.size() < 64 || D.compare(0, 4, "\x7f" "ELF") != 0)
    return Ws;
  auto U16 = [&](size_t O) { uint16_t V; memcpy(&V, &D[O], 2); return V; };
  auto U32 = [&](size_t O) { uint32_t V; memcpy(&V, &D[O], 4); return V; };
  auto U64 = [&](size_t O) { uint64_t V; memcpy(&V, &D[O], 8); return V; };
  uint64_t ShOff = U64(0x28);
  unsigned ShEnt = U16(0x3a), ShNum = U16(0x3c), ShStr = U16(0x3e);
  uint64_t StrOff = U64(ShOff + ShStr * ShEnt + 0x18);
  for (unsigned S = 0; S < ShNum; ++S) {
    size_t H = ShOff + S * ShEnt;
    const char *Name = &D[StrOff + U32(H)];
    if (strncmp(Name, ".text", 5) != 0)
      continue;
    uint64_t Off = U64(H + 0x18), Size = U64(H + 0x20);
    for (uint64_t K = Off; K + 16 <= Off + Size; K += 16) {
      sm86::Word128 W;
      W.Lo = U64(K);
      W.Hi = U64(K + 8);
      Ws.push_back(W);
    }
  }
  return Ws;
}

TEST(SM86Coverage, EveryFormReachedOrListed) {
  std::vector<unsigned> Hits(sm86::getNumOpcodes(), 0);
  unsigned Words = 0;
  auto Count = [&](const sm86::Word128 &W) {
    sm86::Instruction I;
    ++Words;
    if (sm86::decode(W, I))
      ++Hits[I.Op];
  };
  for (const char *F : {"/reference/sm_86.encodings_addr.tsv",
                        "/reference/sm_80.encodings_addr.tsv"})
    for (const CorpusRow &R : readCorpus(std::string(TP_SHARED_DIR) + F))
      Count(R.Word);
  std::string Dir = std::string(TP_SHARED_DIR) + "/reference/cubin";
  if (DIR *Dd = opendir(Dir.c_str())) {
    while (dirent *E = readdir(Dd)) {
      llvm::StringRef N(E->d_name);
      if (N.endswith(".cubin") && (N.contains("sm86") || N.contains("sm80")))
        for (const sm86::Word128 &W : cubinWords(Dir + "/" + N.str()))
          Count(W);
    }
    closedir(Dd);
  }

  std::set<std::string> Listed;
  std::ifstream In(TP_UNITTEST_DIR "/SM86UncoveredForms.txt");
  ASSERT_TRUE(In.good()) << "missing SM86UncoveredForms.txt";
  std::string L;
  while (std::getline(In, L)) {
    llvm::StringRef T = llvm::StringRef(L).split('#').first.trim();
    if (!T.empty())
      Listed.insert(T.str());
  }
  unsigned Covered = 0;
  std::vector<std::string> New, Stale;
  for (unsigned Op = 0; Op < Hits.size(); ++Op) {
    std::string Name = sm86::getInstrInfo(sm86::Opcode(Op)).Name;
    bool IsListed = Listed.count(Name);
    if (Hits[Op])
      ++Covered;
    if (!Hits[Op] && !IsListed)
      New.push_back(Name);
    if (Hits[Op] && IsListed)
      Stale.push_back(Name);
  }
  llvm::outs() << Words << " oracle words; " << Covered << " of "
               << Hits.size() << " forms reached, " << Hits.size() - Covered
               << " not (listed in SM86UncoveredForms.txt)\n";
  for (const std::string &N : New)
    ADD_FAILURE() << "form " << N
                  << " is reached by no corpus or ptxas word and not listed";
  for (const std::string &N : Stale)
    ADD_FAILURE() << "form " << N << " is covered now: drop it from the list";
}

} // namespace
