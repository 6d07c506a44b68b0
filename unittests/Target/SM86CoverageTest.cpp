//===- SM86CoverageTest.cpp - Which forms the oracles exercise -------------===//
///
/// \file
/// Every form's fields are checked against NVIDIA's bytes only if some
/// corpus row or ptxas word decodes to that form.  This test decodes every
/// row of the sm_86/sm_80 TSVs, every .text word of the sm_80/sm_86
/// reference cubins, and every .text word that ptxas (CUDA 13) builds at
/// test time from the PTX of the ptxas round trips (shared/reference/ptx and
/// test/MC/{Inputs,SM86/Inputs,SM90/Inputs}, each for -arch=sm_86 and
/// -arch=sm_90 with its .target line rewritten, as ptxas_roundtrip.py does;
/// sm_90 words are decoded with the sm_90 tables; sm_100 and sm_120 words,
/// with theirs, count where they round-trip), and the sm_90a corpus of
/// test/MC/SM90A/Inputs for -arch=sm_90a, read with the sm_90 tables.  A
/// ptxas word counts only
/// if it round-trips here too: decode, print, parse and encode give back all
/// 128 bits.  The test reports the forms no oracle word reaches.  Those
/// forms are listed, with the reason they exist, in
/// UnverifiedForms.txt; the test fails when a form is uncovered but not
/// listed (a new form nobody checked against NVIDIA's bytes) or listed but
/// covered (the list is stale).  Without ptxas the test is skipped.  With
/// TP_WRITE_UNCOVERED=FILE set it also writes the forms it found uncovered
/// to FILE, one a line (to regenerate the list).
///
//===----------------------------------------------------------------------===//

#include "CorpusReader.h"
#include "FormInstance.h"
#include "../PtxasTestUtil.h"
#include "tp/Target/SASS/SASS.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <set>

using namespace tp;
using namespace tp::test;
using namespace tp::testing;

namespace {

/// The words of the .text* sections of an ELF64 file (empty if none).
std::vector<sass::Word128> cubinWords(const std::string &Path) {
  std::vector<sass::Word128> Ws;
  std::vector<uint8_t> B = readBytes(Path);
  std::string D(B.begin(), B.end());
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
    for (uint64_t K = Off; K + 16 <= Off + Size && K + 16 <= B.size();
         K += 16)
      Ws.push_back(sass::readWord(llvm::ArrayRef<uint8_t>(B).slice(K, 16)));
  }
  return Ws;
}

/// Builds \p Ptx for \p Arch ("sm_86", "sm_90", "sm_100", "sm_120") with
/// its .target line rewritten to \p Arch (and, for Blackwell, .version to
/// 8.8), into TP_COVERAGE_CUBIN_DIR (kept between runs); "" on failure.
std::string buildCubin(const std::string &Ptx, const std::string &Arch) {
  std::string Dir = TP_COVERAGE_CUBIN_DIR;
  bool Blackwell = llvm::StringRef(Arch).startswith("sm_1");
  std::string Copy =
      retargetedCopy(Ptx, Arch, Dir, "." + Arch + (Blackwell ? ".v" : ""));
  if (!Copy.empty() && Blackwell) {
    // Blackwell needs PTX ISA 8.6 or later: a second copy with .version 8.8
    // (each file rewritten only when it changes, so ptxas runs once).
    auto Buf = llvm::MemoryBuffer::getFile(Copy);
    if (!Buf)
      return "";
    std::string Src = (*Buf)->getBuffer().str();
    size_t V = Src.find(".version ");
    if (V != std::string::npos) {
      size_t E = Src.find_first_not_of("0123456789.", V + 9);
      Src.replace(V + 9, E - (V + 9), "8.8");
    }
    Copy = (Dir + "/" + llvm::sys::path::stem(Ptx) + "." + Arch + ".ptx").str();
    if (!writeIfChanged(Copy, Src))
      return "";
  }
  std::string Out = (Dir + "/" + llvm::sys::path::stem(Ptx) + "." + Arch +
                     ".cubin")
                        .str();
  return !Copy.empty() && compilePtx(Copy, Out, {"-arch=" + Arch}) ? Out
                                                                    : "";
}

/// Whether \p W decodes on \p T and decode, print, parse, encode give back
/// every bit of it; the form in \p Op.
bool roundTrips(const sass::Word128 &W, sass::Target T, unsigned &Op) {
  sass::Instruction D;
  if (!sass::decode(W, D, T))
    return false;
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  sass::print(D, 0, OS);
  OS.flush();
  llvm::SourceMgr SM;
  SM.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(Text, "word"),
                        llvm::SMLoc());
  auto IOr = sass::parse(SM.getMemoryBuffer(1)->getBuffer(), 0, SM, T);
  if (!IOr) {
    llvm::consumeError(IOr.takeError());
    return false;
  }
  IOr->Ctrl = D.Ctrl;
  sass::Word128 E = sass::encode(*IOr, T);
  Op = D.Op;
  return IOr->Op == D.Op && E.Lo == W.Lo && E.Hi == W.Hi;
}

TEST(SM86Coverage, EveryFormReachedOrListed) {
  if (ptxasPath().empty())
    GTEST_SKIP() << "no ptxas in " TP_CUDA_DIR "/bin: the ptxas words are "
                    "part of the oracle";
  std::vector<unsigned> Hits(sass::getNumOpcodes(), 0);
  unsigned Words = 0, PtxasWords = 0;
  auto Count = [&](const sass::Word128 &W) {
    sass::Instruction I;
    ++Words;
    if (sass::decode(W, I))
      ++Hits[I.Op];
  };
  for (const char *F : {"/reference/sm_86.encodings_addr.tsv",
                        "/reference/sm_80.encodings_addr.tsv"})
    for (const CorpusRow &R : readCorpus(std::string(TP_SHARED_DIR) + F))
      Count(R.Word);
  std::string Dir = std::string(TP_SHARED_DIR) + "/reference/cubin";
  for (const std::string &C : listFiles(Dir, ".cubin")) {
    llvm::StringRef N = llvm::sys::path::filename(C);
    if (N.contains("sm86") || N.contains("sm80"))
      for (const sass::Word128 &W : cubinWords(C))
        Count(W);
  }
  // The PTX of the ptxas round trips (test/MC/SM86, test/MC/SM90).
  std::vector<std::string> Ptx =
      listFiles(std::string(TP_SHARED_DIR) + "/reference/ptx", ".ptx");
  for (const char *D :
       {"/test/MC/Inputs", "/test/MC/SM86/Inputs", "/test/MC/SM90/Inputs"})
    for (const std::string &P :
         listFiles(TP_SOURCE_DIR + std::string(D), ".ptx"))
      Ptx.push_back(P);
  for (const std::string &P : Ptx)
    for (sass::Target T : {sass::Target::SM86, sass::Target::SM90}) {
      // ptx/mma_tile_sm90.ptx uses sm_90 features.
      if (T == sass::Target::SM86 && llvm::StringRef(P).endswith("_sm90.ptx"))
        continue;
      std::string Arch = T == sass::Target::SM86 ? "sm_86" : "sm_90";
      std::string Cubin = buildCubin(P, Arch);
      ASSERT_FALSE(Cubin.empty()) << "ptxas -arch=" << Arch << " " << P;
      std::vector<sass::Word128> Ws = cubinWords(Cubin);
      ASSERT_FALSE(Ws.empty()) << Cubin;
      unsigned Bad = 0;
      for (const sass::Word128 &W : Ws) {
        unsigned Op;
        ++Words;
        ++PtxasWords;
        if (roundTrips(W, T, Op))
          ++Hits[Op];
        else
          ++Bad;
      }
      // The ptxas round-trip tests name the words; here just count them.
      EXPECT_EQ(Bad, 0u) << Cubin << ": words that do not round-trip";
    }
  // The sm_90a corpus (test/MC/SM90A/Inputs: warpgroup MMAs, TMA, bulk
  // copies, mbarriers, clusters; td/SM90/SM90AInstrs.td), built for sm_90a
  // and read with sm_90's tables, as test/MC/SM90A/ptxas-roundtrip.test
  // does (there with every wgmma shape).
  for (const std::string &P :
       listFiles(TP_SOURCE_DIR + std::string("/test/MC/SM90A/Inputs"),
                 ".ptx")) {
    std::string Cubin = buildCubin(P, "sm_90a");
    ASSERT_FALSE(Cubin.empty()) << "ptxas -arch=sm_90a " << P;
    unsigned Bad = 0;
    for (const sass::Word128 &W : cubinWords(Cubin)) {
      unsigned Op;
      ++Words;
      ++PtxasWords;
      if (roundTrips(W, sass::Target::SM90, Op))
        ++Hits[Op];
      else
        ++Bad;
    }
    EXPECT_EQ(Bad, 0u) << Cubin << ": words that do not round-trip";
  }
  // Blackwell (sm_100, sm_120; sm_121 emits sm_120's words): the words that
  // round-trip count (test/MC/SM100/ptxas-roundtrip.test lists the others,
  // docs/targets.md).
  for (const std::string &P : Ptx)
    for (sass::Target T : {sass::Target::SM100, sass::Target::SM120}) {
      std::string Arch = T == sass::Target::SM100 ? "sm_100" : "sm_120";
      std::string Cubin = buildCubin(P, Arch);
      ASSERT_FALSE(Cubin.empty()) << "ptxas -arch=" << Arch << " " << P;
      for (const sass::Word128 &W : cubinWords(Cubin)) {
        unsigned Op;
        ++Words;
        ++PtxasWords;
        if (roundTrips(W, T, Op))
          ++Hits[Op];
      }
    }

  // The list as the build compiled it (SM86OracleVerifiedTest checks that
  // the table is UnverifiedForms.txt, name for name).
  std::set<std::string> Listed;
  for (sass::Opcode Op : sass::getUnverifiedForms())
    Listed.insert(sass::getInstrInfo(Op).Name);
  unsigned Covered = 0;
  std::vector<std::string> New, Stale;
  for (unsigned Op = 0; Op < Hits.size(); ++Op) {
    std::string Name = sass::getInstrInfo(sass::Opcode(Op)).Name;
    bool IsListed = Listed.count(Name);
    if (Hits[Op])
      ++Covered;
    if (!Hits[Op] && !IsListed)
      New.push_back(Name);
    if (Hits[Op] && IsListed)
      Stale.push_back(Name);
  }
  if (const char *Path = std::getenv("TP_WRITE_UNCOVERED")) {
    std::ofstream OS(Path);
    for (unsigned Op = 0; Op < Hits.size(); ++Op)
      if (!Hits[Op])
        OS << sass::getInstrInfo(sass::Opcode(Op)).Name << "\n";
  }
  llvm::outs() << Words << " oracle words (" << PtxasWords
               << " built by ptxas); " << Covered << " of " << Hits.size()
               << " forms reached, " << Hits.size() - Covered
               << " not (listed in UnverifiedForms.txt)\n";
  for (const std::string &N : New)
    ADD_FAILURE() << "form " << N
                  << " is reached by no corpus or ptxas word and not listed";
  for (const std::string &N : Stale)
    ADD_FAILURE() << "form " << N << " is covered now: drop it from the list";
}

/// Every form can be read back from bytes, on sm_86, sm_90, sm_100 and
/// sm_120 (Blackwell's encodings and 8-bit uniform register fields too):
/// some instance of it decodes to that form and not to a sibling whose
/// fields overlap it.  A form that
/// never does is unreachable for the disassembler and for every oracle (the
/// coverage test above could never drop it from its list).
TEST(SM86Coverage, EveryFormDecodesToItself) {
  uint64_t R = 0x9e3779b97f4a7c15ull;
  unsigned Checked = 0;
  for (unsigned Op = 0; Op < sass::getNumOpcodes(); ++Op)
    for (sass::Target T : {sass::Target::SM86, sass::Target::SM90,
                           sass::Target::SM100, sass::Target::SM120}) {
      if (!sass::isAvailable(Op, T))
        continue;
      std::string Name = sass::getInstrInfo(sass::Opcode(Op)).Name;
      unsigned Self = 0, Valid = 0;
      std::string Other;
      for (unsigned N = 0; N < 64 && !Self; ++N) {
        sass::Instruction I, D;
        if (!randomInstance(sass::Opcode(Op), T, R, I))
          continue;
        ++Valid;
        if (!sass::decode(sass::encode(I, T), D, T))
          Other = "an unknown word";
        else if (D.Op == Op)
          ++Self;
        else
          Other = sass::getInstrInfo(D.Op).Name;
      }
      ++Checked;
      EXPECT_TRUE(Valid) << Name << " on " << sass::getTargetName(T).str()
                         << ": no instance passes verify()";
      EXPECT_TRUE(!Valid || Self)
          << Name << " on " << sass::getTargetName(T).str()
          << " never decodes to itself (e.g. to " << Other << ")";
    }
  llvm::outs() << Checked << " (form, target) pairs checked\n";
}

} // namespace
