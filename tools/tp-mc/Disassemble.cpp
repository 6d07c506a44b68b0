//===- Disassemble.cpp - tp-mc --disassemble ------------------------------===//
///
/// \file
/// Input is either a cubin (detected by the ELF magic: every section whose
/// name starts with ".text" is disassembled, preceded by a `// <section>`
/// line, each instruction prefixed by its `/*addr*/`), or text with one
/// 128-bit word a line: 32 hex digits, most significant first, optionally
/// `0x`-prefixed, optionally preceded by an address `/*0x0110*/` (else the
/// address is the previous word's plus 16, the first at 0).  Blank lines and `#` or
/// `//` comments are skipped.
///
/// Output: one instruction a line in nvdisasm's syntax; --show-control
/// appends the control fields as `{stall=4 yield wr=1 rd=3 wait=0,2}`
/// (defaults omitted: stall 0, no yield, no scoreboards; `yield` is bit 109
/// == 0, CuAssembler's 'Y'; `reuse=a,c` only for reuse flags no operand
/// shows); --show-encoding appends `// encoding: 0x<32 hex digits>`, the
/// word as read.  --assemble accepts this output back (the `/*addr*/`
/// prefixes give the addresses), so disassemble | assemble round-trips.  A word no form matches is an error
/// naming its address and the raw word; then nothing is written.
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
};

void emit(raw_ostream &OS, const Item &It, const mc::Options &Opts) {
  if (!It.Label.empty()) {
    OS << "// " << It.Label << "\n";
    return;
  }
  if (It.ShowAddr)
    OS << "/*" << format_hex_no_prefix(It.Addr, 4) << "*/ ";
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
  if (Opts.ShowEncoding)
    OS << " // encoding: 0x" << format_hex_no_prefix(It.W.Hi, 16)
       << format_hex_no_prefix(It.W.Lo, 16);
  OS << '\n';
}

bool disassembleCubin(StringRef Name, StringRef Bytes,
                      std::vector<Item> &Items, sass::Target Tgt) {
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
  bool OK = true;
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
      auto IOr = sass::decodeOrError(W, Off, Tgt);
      if (!IOr) {
        reportError(makeError(Name + ": " + *SecName + ": " +
                              toString(IOr.takeError())),
                    "tp-mc");
        OK = false;
        continue;
      }
      Item It;
      It.I = *IOr;
      It.W = W;
      It.Addr = Off;
      It.ShowAddr = true;
      Items.push_back(It);
    }
  }
  return OK;
}

bool disassembleWords(SourceMgr &SM, std::vector<Item> &Items,
                      sass::Target Tgt) {
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
    auto IOr = sass::decodeOrError(W, Addr, Tgt);
    if (!IOr) {
      reportError(makeSourceError(SM, SMLoc::getFromPointer(C.data()),
                                  toString(IOr.takeError())),
                  "tp-mc");
      OK = false;
    } else {
      Item It;
      It.I = *IOr;
      It.W = W;
      It.Addr = Addr;
      Items.push_back(It);
    }
    Addr += 16;
  }
  return OK;
}
} // namespace

int tp::mc::runDisassemble(const Options &Opts) {
  sass::Target Tgt;
  if (!resolveTarget(Opts, Tgt))
    return 1;
  std::unique_ptr<MemoryBuffer> Buf = readInput(Opts, /*IsText=*/false);
  if (!Buf)
    return 1;
  std::vector<Item> Items;
  bool OK;
  StringRef Bytes = Buf->getBuffer();
  if (Bytes.startswith("\x7f"
                       "ELF")) {
    // A cubin's words use its own target's encodings (sm_90: BRA's offset).
    ArrayRef<uint8_t> Data = arrayRefFromStringRef(Bytes);
    if (!resolveCubinTarget(Opts, Opts.Input, Data, Tgt))
      return 1;
    // -o X.sass: the whole cubin as .sass text (CubinText.cpp).
    if (StringRef(Opts.Output).endswith(".sass"))
      return runDisassembleCubin(Opts, Data, Tgt);
    OK = disassembleCubin(Opts.Input, Bytes, Items, Tgt);
  } else {
    SourceMgr SM;
    if (Bytes.startswith("\xef\xbb\xbf")) // a UTF-8 byte order mark
      Buf = MemoryBuffer::getMemBufferCopy(Bytes.drop_front(3),
                                           Buf->getBufferIdentifier());
    SM.AddNewSourceBuffer(std::move(Buf), SMLoc());
    OK = disassembleWords(SM, Items, Tgt);
  }
  if (!OK)
    return 1;
  Error E = writeOutput(Opts.Output, false, [&](raw_ostream &OS) {
    for (const Item &It : Items)
      emit(OS, It, Opts);
    return Error::success();
  });
  return reportError(std::move(E), "tp-mc") ? 1 : 0;
}
