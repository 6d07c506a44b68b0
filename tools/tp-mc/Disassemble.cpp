//===- Disassemble.cpp - tp-mc --disassemble ------------------------------===//
///
/// \file
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
#include "tp/Support/Diagnostics.h"
#include "tp/Support/ToolOutput.h"
#include "tp/Target/SASS/SASS.h"
#include "llvm/Object/ELF.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/WithColor.h"

using namespace llvm;
using namespace tp;

namespace {
struct Item {
  std::string Label; ///< non-empty: a section header line
  sass::Instruction I;
  sass::Word128 W; ///< the word as read
  uint64_t Addr = 0;
  bool ShowAddr = false;
  bool Raw = false; ///< no form matches W: printed as `.inst`
};

void emit(raw_ostream &OS, const Item &It, const mc::Options &Opts) {
  if (!It.Label.empty()) {
    OS << "// " << It.Label << "\n";
    return;
  }
  if (It.ShowAddr)
    OS << "/*" << format_hex_no_prefix(It.Addr, 4) << "*/ ";
  if (It.Raw) {
    OS << ".inst 0x" << format_hex_no_prefix(It.W.Hi, 16)
       << format_hex_no_prefix(It.W.Lo, 16);
  } else {
    sass::print(It.I, It.Addr, OS);
    if (Opts.ShowControl) {
      // Reuse flags of slots an operand owns are shown as `.reuse` on it.
      sass::Control C = It.I.Ctrl;
      const sass::InstrInfo &II = sass::getInstrInfo(It.I.Op);
      for (unsigned K = 0; K < II.NumOperands; ++K)
        if (II.Operands[K].ReuseSlot >= 0)
          C.Reuse &= ~(1u << II.Operands[K].ReuseSlot);
      OS << ' ';
      sass::printControl(C, OS);
    }
  }
  if (Opts.ShowEncoding)
    OS << " // encoding: 0x" << format_hex_no_prefix(It.W.Hi, 16)
       << format_hex_no_prefix(It.W.Lo, 16);
  OS << '\n';
}

/// The item for word \p W at \p Addr: its instruction, or a raw word
/// (`.inst`) with a warning from \p Warn (given decodeOrError's message).
template <typename WarnFn>
Item decodeItem(sass::Word128 W, uint64_t Addr, sass::Target Tgt,
                WarnFn Warn) {
  Item It;
  It.W = W;
  It.Addr = Addr;
  Expected<sass::Instruction> IOr = sass::decodeOrError(W, Addr, Tgt);
  if (IOr) {
    It.I = *IOr;
  } else {
    It.Raw = true;
    Warn(toString(IOr.takeError()) + "; printed as .inst");
  }
  return It;
}

bool disassembleCubin(StringRef Name, StringRef Bytes,
                      std::vector<Item> &Items, sass::Target Tgt,
                      mc::Warnings &Warnings) {
  auto ElfOr = object::ELF64LEFile::create(Bytes);
  if (!ElfOr) {
    reportError(makeError(Name + ": " + toString(ElfOr.takeError())), "tp-mc");
    return false;
  }
  auto SecsOr = ElfOr->sections();
  if (!SecsOr) {
    reportError(makeError(Name + ": " + toString(SecsOr.takeError())),
                "tp-mc");
    return false;
  }
  for (const auto &Sec : *SecsOr) {
    auto SecName = ElfOr->getSectionName(Sec);
    if (!SecName) {
      consumeError(SecName.takeError());
      continue;
    }
    if (!SecName->startswith(".text"))
      continue;
    auto Data = ElfOr->getSectionContents(Sec);
    if (!Data) {
      reportError(makeError(Name + ": " + toString(Data.takeError())),
                  "tp-mc");
      return false;
    }
    if (Data->size() % 16) {
      reportError(makeError(Name + ": section " + *SecName +
                            " is not a multiple of 16 bytes"),
                  "tp-mc");
      return false;
    }
    Item H;
    H.Label = SecName->str();
    Items.push_back(H);
    for (size_t Off = 0; Off < Data->size(); Off += 16) {
      sass::Word128 W;
      W.Lo = support::endian::read64le(Data->data() + Off);
      W.Hi = support::endian::read64le(Data->data() + Off + 8);
      Item It = decodeItem(W, Off, Tgt, [&](const std::string &Msg) {
        Warnings.warn(Name + ": " + *SecName + ": " + Msg);
      });
      It.ShowAddr = true;
      Items.push_back(It);
    }
  }
  return true;
}

bool disassembleWords(SourceMgr &SM, std::vector<Item> &Items,
                      sass::Target Tgt, mc::Warnings &Warnings) {
  StringRef Text = SM.getMemoryBuffer(SM.getMainFileID())->getBuffer();
  uint64_t Addr = 0;
  bool OK = true;
  while (!Text.empty()) {
    auto [L, Rest] = Text.split('\n');
    Text = Rest;
    StringRef C = L;
    size_t Cm = std::min(C.find('#'), C.find("//"));
    C = C.substr(0, Cm).trim();
    if (C.empty())
      continue;
    // An optional `/*0x0010*/` (or `/*0010*/`) prefix gives the address.
    if (C.startswith("/*")) {
      size_t E = C.find("*/");
      StringRef In = E == StringRef::npos ? "" : C.slice(2, E).trim();
      if (In.startswith("0x") || In.startswith("0X"))
        In = In.drop_front(2);
      uint64_t A;
      if (In.empty() || In.getAsInteger(16, A) || A % 16) {
        reportError(makeSourceError(SM, SMLoc::getFromPointer(C.data()),
                                    "expected an address prefix /*hex*/, a "
                                    "multiple of 16"),
                    "tp-mc");
        OK = false;
        continue;
      }
      Addr = A;
      C = C.drop_front(E + 2).ltrim();
    }
    StringRef Digits = C;
    if (Digits.startswith("0x") || Digits.startswith("0X"))
      Digits = Digits.drop_front(2);
    size_t Bad = Digits.find_first_not_of("0123456789abcdefABCDEF");
    if (Bad != StringRef::npos || Digits.size() != 32) {
      const char *P = Bad != StringRef::npos ? Digits.data() + Bad : C.data();
      reportError(makeSourceError(SM, SMLoc::getFromPointer(P),
                                  "expected a word of 32 hex digits"),
                  "tp-mc");
      OK = false;
      continue;
    }
    sass::Word128 W;
    Digits.substr(0, 16).getAsInteger(16, W.Hi);
    Digits.substr(16, 16).getAsInteger(16, W.Lo);
    Items.push_back(decodeItem(W, Addr, Tgt, [&](const std::string &Msg) {
      Warnings.warn(SM, SMLoc::getFromPointer(C.data()), Msg);
    }));
    Addr += 16;
  }
  return OK;
}

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
  std::vector<Item> Items;
  mc::Warnings Warnings(Opts);
  bool OK;
  StringRef Bytes = Buf->getBuffer();
  if (Bytes.startswith("\x7f"
                       "ELF")) {
    // A cubin's words use its own target's encodings (sm_90: BRA's offset).
    ArrayRef<uint8_t> Data = arrayRefFromStringRef(Bytes);
    StringRef Name = Opts.Input == "-" ? "<stdin>" : StringRef(Opts.Input);
    if (!resolveCubinTarget(Opts, Name, Data, Tgt))
      return 1;
    if (wantsSassText(Opts))
      return runDisassembleCubin(Opts, Data, Tgt); // CubinText.cpp
    OK = disassembleCubin(Opts.Input, Bytes, Items, Tgt, Warnings);
  } else {
    if (Opts.Format == OutputFormat::Sass) {
      WithColor::error(errs(), "tp-mc")
          << Opts.Input
          << ": --format=sass needs a cubin (this input is not an ELF file)\n";
      return 1;
    }
    SourceMgr SM;
    if (Bytes.startswith("\xef\xbb\xbf")) // a UTF-8 byte order mark
      Buf = MemoryBuffer::getMemBufferCopy(Bytes.drop_front(3),
                                           Buf->getBufferIdentifier());
    SM.AddNewSourceBuffer(std::move(Buf), SMLoc());
    OK = disassembleWords(SM, Items, Tgt, Warnings);
  }
  if (!OK || Warnings.hasErrors())
    return 1;
  Error E = writeOutput(Opts.Output, false, [&](raw_ostream &OS) {
    for (const Item &It : Items)
      emit(OS, It, Opts);
    return Error::success();
  });
  return reportError(std::move(E), "tp-mc") ? 1 : 0;
}
