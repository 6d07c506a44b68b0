//===- CorruptCubinTest.cpp - Bad cubins give clear errors ----------------===//
///
/// \file
/// Each case damages a good cubin (tiny_store_sm86.cubin) in one way and
/// checks the reader's message, which must name what is wrong and, for
/// offsets, where.  Then every prefix of the file and a few thousand
/// seeded random mutations must be read without a crash (meaningful under
/// the sanitizers; see utils/fuzz-cubin.sh for the libFuzzer run).
///
//===----------------------------------------------------------------------===//

#include "TestCubins.h"
#include "tp/Object/CubinFile.h"
#include "tp/Object/Dump.h"
#include "tp/Object/Module.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"
#include <random>

using namespace llvm;
using namespace tp::object;

namespace {

std::vector<uint8_t> good() {
  return tp::testing::readBytes(std::string(TP_SHARED_DIR) +
                                "/reference/cubin/tiny_store_sm86.cubin");
}

/// Reads and dumps \p B; returns the error text ("" when it succeeded).
std::string readError(const std::vector<uint8_t> &B) {
  Expected<CubinFile> F = readCubinFile(B);
  if (!F)
    return toString(F.takeError());
  std::string S;
  raw_string_ostream OS(S);
  if (Error E = dumpCubin(*F, OS))
    return toString(std::move(E));
  return "";
}

uint64_t shoff(const std::vector<uint8_t> &B) {
  return support::endian::read64le(B.data() + 0x28);
}
uint8_t *shdr(std::vector<uint8_t> &B, unsigned I) {
  return B.data() + shoff(B) + 64 * I;
}

struct Case {
  const char *Name;
  std::function<void(std::vector<uint8_t> &)> Damage;
  const char *Expect;
};

TEST(CorruptCubin, ClearErrors) {
  std::vector<uint8_t> G = good();
  ASSERT_EQ(G.size(), 2984u);
  ASSERT_EQ(readError(G), "");
  using support::endian::write16le;
  using support::endian::write32le;
  using support::endian::write64le;
  const Case Cases[] = {
      {"empty", [](auto &B) { B.clear(); }, "not an ELF file"},
      {"truncated header", [](auto &B) { B.resize(40); },
       "truncated ELF header: the file has 40 bytes"},
      {"truncated section table", [](auto &B) { B.resize(0x800); },
       "at file offset 0x780: the section header table (14 entries) goes "
       "past the end of the file (size 0x800)"},
      {"bad magic", [](auto &B) { B[1] = 'X'; }, "bad magic"},
      {"32-bit", [](auto &B) { B[4] = 1; }, "ELF class 1"},
      {"big-endian", [](auto &B) { B[5] = 2; }, "little-endian"},
      {"wrong machine", [](auto &B) { write16le(B.data() + 0x12, 62); },
       "e_machine is 62, expected 190 (EM_CUDA)"},
      {"legacy ABI",
       [](auto &B) {
         B[7] = 0x33;
         B[8] = 7;
       },
       "OS/ABI 0x33 version 7"},
      {"section table past the end",
       [](auto &B) { write64le(B.data() + 0x28, 0x10000); },
       "at file offset 0x10000: the section header table"},
      {"bad shstrndx", [](auto &B) { write16le(B.data() + 0x3e, 99); },
       "e_shstrndx is 99 but there are 14 sections"},
      {"shstrndx not a string table",
       [](auto &B) { write16le(B.data() + 0x3e, 3); },
       "e_shstrndx 3 is not a string table"},
      {"bad section offset",
       [](auto &B) { write64le(shdr(B, 13) + 0x18, 0xfffffff0); },
       "at file offset 0xac0: section [13] has offset 0xfffffff0 and size "
       "0x100, past the end of the file"},
      {"bad section size", [](auto &B) { write64le(shdr(B, 4) + 0x20, ~0ull); },
       "section [4] has offset 0x320 and size 0xffffffffffffffff"},
      {"bad section name", [](auto &B) { write32le(shdr(B, 5), 0x5000); },
       "section [5] (header at file offset 0x8c0): name offset 0x5000 is "
       "past the end of '.shstrtab' (size 0x100)"},
      {"bad symbol name",
       [](auto &B) { write32le(B.data() + 0x248 + 24 * 8, 0x7777); },
       "symbol 8 (file offset 0x308): name offset 0x7777 is past the end of "
       "'.strtab'"},
      {"bad symbol section",
       [](auto &B) { write16le(B.data() + 0x248 + 24 * 8 + 6, 500); },
       "symbol 8 'tiny' has section index 500 but there are 14 sections"},
      {"bad symtab entsize", [](auto &B) { write64le(shdr(B, 3) + 0x38, 16); },
       "sh_entsize is 16, expected 24"},
      {"bad symtab link", [](auto &B) { write32le(shdr(B, 3) + 0x28, 4); },
       "sh_link 4 is not a string table"},
      {"bad sh_link", [](auto &B) { write32le(shdr(B, 8) + 0x28, 40); },
       "section [8] has sh_link 40 but there are 14 sections"},
      {"bad alignment", [](auto &B) { write64le(shdr(B, 13) + 0x30, 100); },
       "section [13] has alignment 100, not a power of two"},
      {"program headers past the end",
       [](auto &B) { write64le(B.data() + 0x20, 0xb80); },
       "the program header table (3 entries) goes past the end of the file"},
      {"program header past the end",
       [](auto &B) { write64le(B.data() + 0xb00 + 56 + 32, 0x100000); },
       "program header 1 covers 0x500+0x100000, past the end of the file"},
      {"nv.info record too long",
       [](auto &B) { write16le(B.data() + 0x474 + 2, 0x400); },
       "at file offset 0x474: .nv.info record CUDA_API_VERSION has length "
       "1024 but only 72 bytes follow"},
      {"nv.info unknown format", [](auto &B) { B[0x474] = 9; },
       "at file offset 0x474: .nv.info record with unknown format 9"},
      {"overlapping sections",
       [](auto &B) { write64le(shdr(B, 8) + 0x18, 0x460); },
       "at file offset 0x460: section [8] '.nv.info.tiny' overlaps section "
       "[7] '.nv.info' (0x450+0x24)"},
      {"section over the header table",
       [](auto &B) { write64le(shdr(B, 4) + 0x18, 0x790); },
       "at file offset 0x790: section [4] '.debug_frame' overlaps the "
       "section header table (0x780+0x380)"},
      {"huge section count",
       [](auto &B) { write16le(B.data() + 0x3c, 0xfff0); },
       "the section header table (65520 entries) goes past the end"},
      {"symtab size not a multiple",
       [](auto &B) { write64le(shdr(B, 3) + 0x20, 0xd0); },
       "symbol table [3] '.symtab': size 0xd0 is not a multiple of 24"},
      {"program header table misaligned",
       [](auto &B) { write64le(B.data() + 0x20, 0xafc); },
       "the program header table is not 8-byte aligned"},
  };
  for (const Case &C : Cases) {
    SCOPED_TRACE(C.Name);
    std::vector<uint8_t> B = G;
    C.Damage(B);
    std::string E = readError(B);
    EXPECT_NE(E.find(C.Expect), std::string::npos) << "got: " << E;
  }
}

TEST(CorruptCubin, InterpretErrors) {
  std::vector<uint8_t> G = good();
  // The kernel's .text sh_info names symbol 8; point it at symbol 3.
  support::endian::write32le(shdr(G, 13) + 0x2c, 0x08000003);
  Expected<CubinFile> F = readCubinFile(G);
  ASSERT_TRUE(!!F);
  Expected<Module> M = interpretCubin(*F);
  ASSERT_FALSE(!!M);
  EXPECT_NE(toString(M.takeError())
                .find("'.text.tiny': sh_info 0x8000003 does not name its "
                      "kernel entry symbol"),
            std::string::npos);
}

TEST(CorruptCubin, BadNotesAreInterpretErrors) {
  std::vector<uint8_t> G = good();
  // tkinfo at 0x390: the tool-name offset (desc word 2) out of range.
  support::endian::write32le(G.data() + 0x390 + 24 + 8, 0x9999);
  Expected<CubinFile> F = readCubinFile(G);
  ASSERT_TRUE(!!F);
  Expected<Module> M = interpretCubin(*F);
  ASSERT_FALSE(!!M);
  EXPECT_NE(toString(M.takeError())
                .find("tkinfo note at file offset 0x390: string offset 0x9999 "
                      "is out of range"),
            std::string::npos);
}

TEST(CorruptCubin, EveryPrefixIsAnErrorNotACrash) {
  std::vector<uint8_t> G = good();
  for (size_t N = 0; N < G.size(); ++N) {
    std::vector<uint8_t> B(G.begin(), G.begin() + N);
    EXPECT_NE(readError(B), "") << "prefix " << N;
  }
}

TEST(CorruptCubin, RandomMutationsDoNotCrash) {
  std::mt19937 Rng(1234);
  for (const auto &C : tp::testing::allTestCubins()) {
    if (C.Bytes.size() > 8192)
      continue;
    for (int Round = 0; Round < 300; ++Round) {
      std::vector<uint8_t> B = C.Bytes;
      int Flips = 1 + Rng() % 4;
      for (int I = 0; I < Flips; ++I) {
        // Bias towards the headers, where a flip changes the most.
        size_t Pos = Rng() % 2 ? Rng() % 64
                               : (shoff(B) < B.size() && Rng() % 2
                                      ? shoff(B) + Rng() % (B.size() - shoff(B))
                                      : Rng() % B.size());
        if (Pos < B.size())
          B[Pos] ^= 1u << (Rng() % 8);
      }
      (void)readError(B);
      Expected<CubinFile> F = readCubinFile(B);
      if (F) {
        std::vector<uint8_t> Out;
        Error E = writeCubinFile(*F, Out);
        EXPECT_FALSE(!!E) << toString(std::move(E));
        EXPECT_EQ(Out, B);
        consumeError(interpretCubin(*F).takeError());
      } else {
        consumeError(F.takeError());
      }
    }
  }
}

} // namespace
