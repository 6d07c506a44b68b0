//===- SassListing.h - Line-oriented SASS: the instruction listing -*- C++ -*-===//
///
/// \file
/// The line-oriented SASS text tp-mc reads with `--assemble` and writes with
/// `--disassemble` (the whole-cubin form is tp/Object/SassText.h):
///
///   // .text.gemm                                   (cubin listings)
///   /*0000*/ IMAD.MOV.U32 R1, RZ, RZ, c[0x0][0x28] {stall=1} // encoding: 0x...
///   /*0010*/ .inst 0x000000100f8e00ff00000a00ff017624
///
/// An instruction's address (for branch targets) is its `/*addr*/` prefix,
/// else the previous one's plus 16 (the first at 0).  Comments (`//`, `#`,
/// leading `/* */`) and blank lines are skipped; a line may end with a
/// control clause; `.inst 0x<32 hex digits>` is a raw word.
///
/// Guarantees: a word no form matches becomes a raw `.inst` line (never a
/// wrong instruction) and is reported through the hook; every value is
/// range-checked (sass::parse, sass::verify); errors are SourceErrors with
/// line and column.
///
//===----------------------------------------------------------------------===//
#ifndef TP_OBJECT_SASSLISTING_H
#define TP_OBJECT_SASSLISTING_H

#include "tp/Target/SASS/SASS.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/Optional.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/SMLoc.h"
#include "llvm/Support/raw_ostream.h"
#include <functional>
#include <string>
#include <vector>

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace tp {
namespace object {

/// One line of a listing: a section header, an instruction or a raw word.
struct ListingLine {
  std::string Section; ///< non-empty: a `// <section>` header line
  sass::Instruction I;
  sass::Word128 W;       ///< the word (as read, or as encoded)
  uint64_t Addr = 0;
  bool ShowAddr = false; ///< print the `/*addr*/` prefix
  bool Raw = false;      ///< no form: printed as `.inst`, W holds the word
};

struct ListingPrintOptions {
  bool ShowControl = false;  ///< the control clause after each instruction
  bool ShowEncoding = false; ///< `// encoding: 0x<32 hex digits>`
};

/// Prints \p L as one line (with its newline).
void printListingLine(const ListingLine &L, const ListingPrintOptions &O,
                      llvm::raw_ostream &OS);

/// Called with the reason for each word printed as `.inst` ("unknown
/// instruction at address 0x0010: 0x...; printed as .inst").
using RawWordHook = std::function<void(const std::string &Why)>;

/// The listing of every `.text*` section of cubin \p Bytes (named \p Name
/// in errors) for target \p T; \p OnRawWord, if set, gets the section's
/// name and the reason for each `.inst` word.
llvm::Expected<std::vector<ListingLine>> disassembleCubinListing(
    llvm::StringRef Name, llvm::StringRef Bytes, sass::Target T,
    const std::function<void(llvm::StringRef Section, const std::string &Why)>
        &OnRawWord);

/// Reads a listing of words, one a line: 32 hex digits, most significant
/// first, optionally `0x`-prefixed and preceded by `/*addr*/`.  One line at
/// a time, so that a caller reports errors and hook calls in line order.
class WordListingReader {
public:
  WordListingReader(const llvm::SourceMgr &SM, sass::Target T)
      : SM(SM), Tgt(T) {}
  /// The line for source line \p L (in a buffer of the SourceMgr); None for
  /// a blank or comment line; a SourceError for a malformed one.
  llvm::Expected<llvm::Optional<ListingLine>> addLine(llvm::StringRef L);
  /// addLine's common case without a ListingLine per line: if \p L is
  /// exactly 32 hex digits, reads it into \p Out (only W, Addr, I and Raw
  /// are written: \p Out may be reused from line to line) and returns
  /// true; else returns false and changes nothing (addLine reads it).
  bool readBareWord(llvm::StringRef L, ListingLine &Out);
  /// Called for each word printed as `.inst`, with the word's location.
  std::function<void(llvm::SMLoc Loc, const std::string &Why)> OnRawWord;

private:
  const llvm::SourceMgr &SM;
  sass::Target Tgt;
  uint64_t Addr = 0; ///< of the next word without a prefix

  /// readBareWord's word no form matches (out of its hot path).
  LLVM_ATTRIBUTE_NOINLINE void reportRawWord(llvm::StringRef L,
                                             ListingLine &Out);
};

/// Assembles line-oriented SASS, one line at a time (so that a caller
/// reports errors and hook calls in line order).
class ListingAssembler {
public:
  ListingAssembler(const llvm::SourceMgr &SM, sass::Target T)
      : SM(SM), Tgt(T) {}
  /// The line for source line \p L (in a buffer of the SourceMgr); None for
  /// a line without an instruction; SourceErrors for a bad one.
  llvm::Expected<llvm::Optional<ListingLine>> addLine(llvm::StringRef L);
  /// Called for each instruction (not `.inst`) with its text (in the
  /// buffer) and form, e.g. to warn about forms no oracle word confirms.
  std::function<void(llvm::StringRef Text, sass::Opcode Op)> OnInstruction;

private:
  const llvm::SourceMgr &SM;
  sass::Target Tgt;
  uint64_t Addr = 0; ///< of the next instruction without a prefix

  llvm::Error stripComments(llvm::StringRef L, llvm::StringRef &C,
                            uint64_t &LineAddr) const;
  llvm::Expected<sass::Instruction> parseInstruction(llvm::StringRef C,
                                                     uint64_t Pc) const;
};

} // namespace object
} // namespace tp

#endif // TP_OBJECT_SASSLISTING_H
