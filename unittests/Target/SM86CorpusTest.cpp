//===- SM86CorpusTest.cpp - Every reference TSV row, both directions -------===//
///
/// \file
/// Walks every row of shared/reference/sm_86 and sm_80 encodings_addr.tsv
/// (NVIDIA disassembler text paired with the instruction word).  For rows
/// whose base mnemonic is supported:
///   * assemble(text) == encoding, comparing all bits but the control bits
///     [105:121] (zeroed in the records) and bit 101 (set by the
///     collection's tooling exactly on `desc[` rows; ptxas never sets it);
///   * disassemble(encoding) == text.
/// Text normalisation: surrounding blanks are trimmed (of the row and of
/// our text), nothing else.  (No
/// row of the TSVs prints the same compared bits in two syntaxes -- older
/// spellings like `[R2.64+UR4]` are distinct encodings (bit 76 = 0), checked
/// by this test -- so no other normalisation is needed.)
/// One documented ambiguity of nvdisasm's syntax: LDG/STG with a uniform
/// register and no base register print `[URx]` and hide the address-width
/// bit 90; the TSVs hold both values under the same text.  Such rows
/// (forms *_RZA_* / *_RZB_*, which differ in bit 90 only) are accepted when
/// the assembled word differs from the row in bit 90 alone and the row's
/// word disassembles to the row's text; they are counted as "ambiguous".
/// ATOM/ATOMG `[URx]` hide their address width bit 70 the same way (forms
/// ATOM*_RZA_* / *_RZB_*): a difference in bit 70 alone is accepted too.
/// Rows of unsupported mnemonics must be rejected by the parser with an
/// error and must not decode (a decode would be a mis-decode).
/// Prints per-mnemonic counts; any mismatch fails the test.
///
//===----------------------------------------------------------------------===//

#include "CorpusReader.h"
#include "tp/Target/SASS/SASS.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/SourceMgr.h"
#include "gtest/gtest.h"
#include <map>

using namespace tp;
using namespace tp::test;
using namespace llvm;

namespace {

struct Counts {
  unsigned Rows = 0, AsmOK = 0, DisOK = 0;
};

void runCorpus(const std::string &Path) {
  std::vector<CorpusRow> Rows = readCorpus(Path);
  ASSERT_GT(Rows.size(), 1000u) << "cannot read " << Path;
  std::map<std::string, Counts> PerMn;
  unsigned Supported = 0, Unsupported = 0, Failures = 0, Printed = 0;
  unsigned Rejected = 0, Ambiguous = 0;
  for (const CorpusRow &R : Rows) {
    std::string Mn = baseMnemonic(R.Text).str();
    SourceMgr SM;
    SM.AddNewSourceBuffer(MemoryBuffer::getMemBufferCopy(R.Text, "row"),
                          SMLoc());
    StringRef Buf = SM.getMemoryBuffer(1)->getBuffer();
    if (!sass::isSupportedMnemonic(Mn)) {
      ++Unsupported;
      auto IOr = sass::parse(Buf, R.Addr, SM);
      bool ParseRejected = !IOr;
      if (!IOr)
        consumeError(IOr.takeError());
      sass::Instruction D;
      bool Decoded = sass::decode(R.Word, D);
      if (ParseRejected && !Decoded) {
        ++Rejected;
      } else {
        ++Failures;
        ADD_FAILURE() << R.File << ":" << R.Line << ": unsupported '"
                      << R.Text << "' was " << (Decoded ? "decoded" : "parsed");
      }
      continue;
    }
    ++Supported;
    Counts &C = PerMn[Mn];
    ++C.Rows;
    std::string Why;
    auto IOr = sass::parse(Buf, R.Addr, SM);
    if (!IOr) {
      Why = "parse: " + toString(IOr.takeError());
    } else {
      sass::Word128 W = sass::encode(*IOr);
      sass::Word128 W90 = W;
      W90.setBit(90, R.Word.getBit(90));
      sass::Word128 W70 = W;
      W70.setBit(70, R.Word.getBit(70));
      StringRef FormName = sass::getInstrInfo(IOr->Op).Name;
      if (sameMasked(W, R.Word)) {
        ++C.AsmOK;
      } else if ((sameMasked(W90, R.Word) || sameMasked(W70, R.Word)) &&
                 (FormName.contains("_RZA_") || FormName.contains("_RZB_"))) {
        ++C.AsmOK;
        ++Ambiguous;
      } else
      {
        std::string Bits;
        sass::Word128 M = comparedBits();
        for (unsigned B = 0; B < 128; ++B)
          if (M.getBit(B) && W.getBit(B) != R.Word.getBit(B))
            Bits += " " + std::to_string(B) + (R.Word.getBit(B) ? "=1" : "=0");
        Why = "assembled 0x" + hexWord(W) + " (" +
              sass::getInstrInfo(IOr->Op).Name + "), bits" + Bits;
      }
    }
    sass::Instruction D;
    std::string Text;
    if (!sass::decode(R.Word, D)) {
      Why += (Why.empty() ? "" : "; ") + std::string("unknown word");
    } else {
      raw_string_ostream OS(Text);
      sass::print(D, R.Addr, OS);
      OS.flush();
      // Rows are trimmed, so is the text: `DFMA R10, R2, R10, +INF` ends
      // in the blank nvdisasm writes after an infinity.
      if (StringRef(Text).trim() == R.Text)
        ++C.DisOK;
      else
        Why += (Why.empty() ? "" : "; ") + std::string("disassembled '") +
               Text + "' (" + sass::getInstrInfo(D.Op).Name + ")";
    }
    if (!Why.empty()) {
      ++Failures;
      if (Printed++ < 200)
        ADD_FAILURE() << R.File << ":" << R.Line << ": '" << R.Text
                      << "' 0x" << hexWord(R.Word) << ": " << Why;
    }
  }
  outs() << Path << ": " << Rows.size() << " rows, " << Supported
         << " of supported mnemonics, " << Unsupported
         << " of unsupported mnemonics (" << Rejected
         << " rejected cleanly), " << Ambiguous
         << " ambiguous (bit 90, see above), " << Failures << " failures\n";
  for (auto &P : PerMn)
    outs() << "  " << P.first << ": " << P.second.Rows << " rows, asm "
           << P.second.AsmOK << ", disasm " << P.second.DisOK << "\n";
  EXPECT_EQ(Failures, 0u);
}

TEST(SM86Corpus, SM86Rows) {
  runCorpus(TP_SHARED_DIR "/reference/sm_86.encodings_addr.tsv");
}

TEST(SM86Corpus, SM80Rows) {
  runCorpus(TP_SHARED_DIR "/reference/sm_80.encodings_addr.tsv");
}

} // namespace
