//===- CorpusReader.h - Rows of the reference encoding TSVs -----*- C++ -*-===//
///
/// \file
/// Reads `shared/reference/sm_*.encodings_addr.tsv`: key, encoding (32 hex
/// digits, most significant first), nvdisasm text, address.
///
//===----------------------------------------------------------------------===//
#ifndef TP_UNITTESTS_TARGET_CORPUSREADER_H
#define TP_UNITTESTS_TARGET_CORPUSREADER_H

#include "tp/Target/SASS/SASS.h"
#include "llvm/ADT/StringRef.h"
#include <fstream>
#include <string>
#include <vector>

namespace tp {
namespace test {

struct CorpusRow {
  std::string File;
  unsigned Line;
  std::string Text;
  sass::Word128 Word;
  uint64_t Addr;
};

inline std::vector<CorpusRow> readCorpus(const std::string &Path) {
  std::vector<CorpusRow> Rows;
  std::ifstream In(Path);
  std::string L;
  unsigned N = 0;
  while (std::getline(In, L)) {
    ++N;
    if (L.empty() || L[0] == '#')
      continue;
    llvm::SmallVector<llvm::StringRef, 4> F;
    llvm::StringRef(L).split(F, '\t');
    if (F.size() < 4 || F[1].size() != 32)
      continue;
    CorpusRow R;
    R.File = Path;
    R.Line = N;
    R.Text = F[2].trim().str();
    F[1].substr(0, 16).getAsInteger(16, R.Word.Hi);
    F[1].substr(16).getAsInteger(16, R.Word.Lo);
    llvm::StringRef A = F[3].trim();
    if (A.startswith("0x"))
      A = A.drop_front(2);
    A.getAsInteger(16, R.Addr);
    Rows.push_back(R);
  }
  return Rows;
}

/// The base mnemonic of an instruction text ("@!P0 IMAD.X R1, ..." -> IMAD).
inline llvm::StringRef baseMnemonic(llvm::StringRef T) {
  T = T.trim();
  if (T.startswith("@"))
    T = T.split(' ').second.ltrim();
  size_t E = T.find_first_of(". ");
  return T.substr(0, E);
}

/// Bits compared with the TSVs: all but the control bits [105:121] (zeroed
/// in the records) and bit 101 (the collection's descriptor display hack).
inline sass::Word128 comparedBits() {
  sass::Word128 M;
  M.Lo = ~uint64_t(0);
  M.Hi = ~uint64_t(0);
  for (unsigned B = 105; B <= 121; ++B)
    M.setBit(B, false);
  M.setBit(101, false);
  return M;
}

inline bool sameMasked(const sass::Word128 &A, const sass::Word128 &B) {
  sass::Word128 M = comparedBits();
  return ((A.Lo ^ B.Lo) & M.Lo) == 0 && ((A.Hi ^ B.Hi) & M.Hi) == 0;
}

inline std::string hexWord(const sass::Word128 &W) {
  char Buf[40];
  snprintf(Buf, sizeof(Buf), "%016llx%016llx", (unsigned long long)W.Hi,
           (unsigned long long)W.Lo);
  return Buf;
}

} // namespace test
} // namespace tp

#endif
