//===- Disassemble.cpp - tp-mc --disassemble ------------------------------===//
///
/// \file
/// The driver over object::disassembleCubinListing and
/// object::WordListingReader (tp/Object/SassListing.h).
/// Input is either a cubin (detected by the ELF magic: every section whose
/// name starts with ".text" is disassembled, preceded by a `// <section>`
/// line, each instruction prefixed by its `/*addr*/`), or text with one
/// 128-bit word a line: 32 hex digits, most significant first, optionally
/// `0x`-prefixed, optionally preceded by an address `/*0x0110*/` (else the
/// address is the previous word's plus 16, the first at 0).  Blank lines
/// and `#` or `//` comments are skipped.  A cubin is decoded for the target
/// its ELF e_flags name (resolveCubinTarget), words for -mcpu's.  A fatbin
/// is refused (refuseFatbin).
///
/// Output (the listing; --format=sass or `-o X.sass` gives a cubin's whole
/// .sass text instead, CubinText.cpp): one instruction a line in nvdisasm's
/// syntax; --show-control appends the control fields as `{stall=4 yield
/// wr=1 rd=3 wait=0,2}` (defaults omitted: stall 0, no yield, no
/// scoreboards; `yield` is bit 109 == 0, CuAssembler's 'Y'; `reuse=a,c`
/// only for reuse flags no operand shows); --show-encoding appends
/// `// encoding: 0x<32 hex digits>`, the word as read.  A word no form
/// matches is printed as `.inst 0x<32 hex digits>` with a warning naming
/// its address and the raw word (never a wrong instruction; an error with
/// --fatal-warnings).  --assemble accepts this output back (the `/*addr*/`
/// prefixes give the addresses, `.inst` its word), so disassemble |
/// assemble round-trips.
///
//===----------------------------------------------------------------------===//

#include "Commands.h"
#include "tp/Object/CubinFile.h"
#include "tp/Object/SassListing.h"
#include "tp/Support/Diagnostics.h"
#include "tp/Support/ToolOutput.h"
#include "tp/Target/SASS/SASS.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/WithColor.h"

using namespace llvm;
using namespace tp;

namespace {
/// The output stream's buffer: large enough that a write() moves many
/// pages at a time, small enough to stay in the CPU's caches between the
/// lines printed into it and the kernel's copy out of it.
constexpr size_t StreamBufferSize = 256 * 1024;

/// Whether --disassemble of a cubin writes whole-cubin .sass text.
bool wantsSassText(const mc::Options &Opts) {
  if (Opts.Format == mc::OutputFormat::Auto)
    return StringRef(Opts.Output).endswith(".sass");
  return Opts.Format == mc::OutputFormat::Sass;
}
} // namespace

int tp::mc::runDisassemble(const Options &Opts) {
  sass::Target Tgt;
  if (!resolveTarget(Opts, Tgt))
    return 1;
  std::unique_ptr<MemoryBuffer> Buf = readInput(Opts, /*IsText=*/false);
  if (!Buf || refuseFatbin(Opts, Buf->getBuffer()))
    return 1;
  std::vector<object::ListingLine> Lines;
  object::ListingPrintOptions PO;
  PO.ShowControl = Opts.ShowControl;
  PO.ShowEncoding = Opts.ShowEncoding;
  // Word input is printed as it is read, straight into the output buffer
  // (a listing line is ~40 bytes, a ListingLine ~270); nothing is written
  // unless every line was good.
  SourceMgr SM;
  std::unique_ptr<object::WordListingReader> Reader;
  mc::Warnings Warnings(Opts);
  bool OK = true;
  StringRef Bytes = Buf->getBuffer();
  StringRef Name = Opts.Input == "-" ? "<stdin>" : StringRef(Opts.Input);
  if (Bytes.empty()) {
    WithColor::error(errs(), "tp-mc")
        << Name << ": empty input: expected a cubin or lines of 128-bit "
        << "words\n";
    return 1;
  }
  if (Bytes.startswith("\x7f"
                       "ELF")) {
    // A cubin's words use its own target's encodings (sm_90: BRA's offset).
    ArrayRef<uint8_t> Data = arrayRefFromStringRef(Bytes);
    // The one cubin reader's checks first (--dump-cubin's and tp-sim's): a
    // damaged file is refused before anything reads its header's fields.
    if (Expected<object::CubinFile> F = object::readCubinFile(Data); !F) {
      reportError(makeError(Name + ": " + toString(F.takeError())), "tp-mc");
      return 1;
    }
    if (!resolveCubinTarget(Opts, Name, Data, Tgt))
      return 1;
    if (wantsSassText(Opts))
      return runDisassembleCubin(Opts, Data, Tgt); // CubinText.cpp
    Expected<std::vector<object::ListingLine>> LinesOr =
        object::disassembleCubinListing(
            Opts.Input, Bytes, Tgt,
            [&](StringRef Section, const std::string &Why) {
              Warnings.warn(Opts.Input + ": " + Section + ": " + Why);
            });
    if (!LinesOr)
      return reportError(LinesOr.takeError(), "tp-mc") ? 1 : 0;
    Lines = std::move(*LinesOr);
  } else {
    if (Opts.Format == OutputFormat::Sass) {
      WithColor::error(errs(), "tp-mc")
          << Opts.Input
          << ": --format=sass needs a cubin (this input is not an ELF file)\n";
      return 1;
    }
    // Neither a cubin nor text: a binary file is refused, not read as
    // words (its bytes would be echoed into the diagnostics).
    size_t Ctl =
        Bytes.find_if([](char C) { return uint8_t(C) < 0x20 && !isSpace(C); });
    if (Ctl != StringRef::npos) {
      WithColor::error(errs(), "tp-mc")
          << Name << ": not a cubin (no ELF magic) and not text (byte "
          << format_hex(uint8_t(Bytes[Ctl]), 4) << " at offset " << Ctl
          << ")\n";
      return 1;
    }
    if (Bytes.startswith("\xef\xbb\xbf")) // a UTF-8 byte order mark
      Buf = MemoryBuffer::getMemBufferCopy(Bytes.drop_front(3),
                                           Buf->getBufferIdentifier());
    SM.AddNewSourceBuffer(std::move(Buf), SMLoc());
    Reader = std::make_unique<object::WordListingReader>(SM, Tgt);
    Reader->OnRawWord = [&](SMLoc Loc, const std::string &Why) {
      Warnings.warn(SM, Loc, Why);
    };
  }
  // Every bad line is reported (a diagnostic each), then nothing written.
  bool Rejected = false;
  // Streamed to the temporary file through one reused buffer (the whole
  // listing in memory first cost a page fault a page, then a copy from
  // memory long evicted from the caches); a rejected input removes it.
  Error E = writeOutputStreamed(Opts.Output, false, StreamBufferSize,
                                [&](raw_ostream &OS) -> Error {
    if (Reader) {
      StringRef Text = SM.getMemoryBuffer(SM.getMainFileID())->getBuffer();
      // Into memory (standard output): the output is about the input's
      // size (more with the encodings or the control fields), reserved once,
      // not regrown and copied.  A file stream ignores it.
      OS.reserveExtraSpace(Text.size() + Text.size() / 4 +
                           (PO.ShowEncoding ? Text.size() * 3 / 2 : 0) +
                           (PO.ShowControl ? Text.size() : 0));
      object::ListingLine Word; // reused: readBareWord writes its fields
      while (!Text.empty()) {
        // The common line, 32 hex digits and a newline, without a search
        // for the newline or a ListingLine of its own.
        if (Text.size() > 32 && Text[32] == '\n' &&
            Reader->readBareWord(Text.take_front(32), Word)) {
          Text = Text.drop_front(33);
          if (OK)
            object::printListingLine(Word, PO, OS);
          continue;
        }
        auto [L, Rest] = Text.split('\n');
        Text = Rest;
        Expected<Optional<object::ListingLine>> LineOr = Reader->addLine(L);
        if (!LineOr)
          OK &= !reportError(LineOr.takeError(), "tp-mc");
        else if (*LineOr && OK)
          object::printListingLine(**LineOr, PO, OS);
      }
    }
    if (!OK || Warnings.hasErrors()) {
      Rejected = true;
      return makeError("input rejected");
    }
    for (const object::ListingLine &L : Lines)
      object::printListingLine(L, PO, OS);
    return Error::success();
  });
  if (Rejected) {
    consumeError(std::move(E));
    return 1;
  }
  return reportError(std::move(E), "tp-mc") ? 1 : 0;
}
