//===- Assemble.cpp - tp-mc --assemble ------------------------------------===//
///
/// \file
/// SASS text in, one instruction a line.  An instruction's address (for
/// branch targets) is given by an nvdisasm-style `/*0010*/` prefix, else it
/// is the previous instruction's plus 16 (the first is at 0).  Comments
/// (`//`, `#`, leading `/* */`) and blank lines are skipped.  A
/// line may end with a control clause `{stall=4 yield wr=1 rd=3 wait=0,2}`
/// (see --help of --show-control); without one the control fields are
/// stall 0, no yield, no scoreboards, no waits.  `.inst 0x<32 hex digits>`
/// is a raw word (as --disassemble prints words no form matches).
///
/// Whole-cubin .sass text (a file whose first line is `.target` or
/// `.raw_cubin`) is -filetype=obj's input (CubinText.cpp): without it, it
/// is refused with one error that says so.  A fatbin is refused.
///
/// Output: each instruction as the printer writes it, then the control
/// clause with --show-control, then `// encoding: 0x<32 hex digits>` with
/// --show-encoding.  Errors are reported as `file:line:col: error:` with a
/// caret, all of them; then the tool exits 1 and writes nothing.  Each
/// instruction of a form no oracle word reaches gets a warning
/// (mc::Warnings::checkUnverified; --no-warn, --fatal-warnings).
///
//===----------------------------------------------------------------------===//

#include "Commands.h"
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
struct Line {
  sass::Instruction I;
  uint64_t Addr;
  bool Raw = false;   ///< `.inst`: W holds the word
  sass::Word128 W;
};

/// Line-oriented SASS, one line at a time; errors are reported as found.
class LineAssembler {
public:
  LineAssembler(const SourceMgr &SM, sass::Target Tgt, mc::Warnings &Warnings)
      : SM(SM), Tgt(Tgt), Warnings(Warnings) {}

  /// Assembles source line \p L into Lines (nothing for a blank line).
  void addLine(StringRef L);

  std::vector<Line> Lines;
  bool Failed = false;

private:
  const SourceMgr &SM;
  sass::Target Tgt;
  mc::Warnings &Warnings;
  uint64_t Addr = 0; ///< of the next instruction without a prefix

  void fail(const char *P, const Twine &Msg) {
    reportError(makeSourceError(SM, SMLoc::getFromPointer(P), Msg), "tp-mc");
    Failed = true;
  }
  /// Strips leading /* */ comments (an address prefix sets \p LineAddr) and
  /// a trailing comment; false after an error.
  bool stripComments(StringRef L, StringRef &C, uint64_t &LineAddr);
  /// `.inst 0x<32 hex digits>` at \p C into \p W; false after an error.
  bool parseRawWord(StringRef C, sass::Word128 &W);
  /// Parses instruction \p C with its optional control clause.
  Expected<sass::Instruction> parseInstruction(StringRef C, uint64_t Pc);
};

bool LineAssembler::stripComments(StringRef L, StringRef &C,
                                  uint64_t &LineAddr) {
  C = L.ltrim();
  // An nvdisasm address prefix `/*0x0010*/` or `/*0010*/` sets the
  // address; any other leading /* */ comment is skipped.
  bool HaveAddr = false;
  while (C.startswith("/*")) {
    size_t E = C.find("*/");
    if (E == StringRef::npos) {
      fail(C.data(), "unterminated comment");
      return false;
    }
    StringRef In = C.slice(2, E).trim();
    if (In.startswith("0x") || In.startswith("0X"))
      In = In.drop_front(2);
    uint64_t A;
    if (!In.empty() && !In.getAsInteger(16, A)) {
      LineAddr = A;
      HaveAddr = true;
    }
    C = C.drop_front(E + 2).ltrim();
  }
  size_t Cm = std::min(C.find("//"), C.find('#'));
  C = C.substr(0, Cm).rtrim();
  if (!C.empty() && HaveAddr && LineAddr % 16) {
    fail(L.data(), "instruction address is not a multiple of 16");
    return false;
  }
  return true;
}

bool LineAssembler::parseRawWord(StringRef C, sass::Word128 &W) {
  StringRef Rest = C.drop_front(5).ltrim();
  StringRef Digits = Rest;
  if (!Digits.consume_front("0x") || Digits.size() != 32 ||
      !all_of(Digits, isHexDigit)) {
    fail(Rest.data(), "expected '.inst 0x<32 hex digits>'");
    return false;
  }
  Digits.substr(0, 16).getAsInteger(16, W.Hi);
  Digits.substr(16, 16).getAsInteger(16, W.Lo);
  return true;
}

Expected<sass::Instruction> LineAssembler::parseInstruction(StringRef C,
                                                            uint64_t Pc) {
  sass::Control Ctl;
  bool HasCtl = false;
  if (C.endswith("}")) {
    size_t RB = C.rfind('{');
    StringRef Clause = C.substr(RB);
    if (RB != StringRef::npos &&
        (Clause.contains('=') || Clause.contains("yield") || Clause == "{}")) {
      Expected<sass::Control> CtlOr = sass::parseControl(Clause, SM);
      if (!CtlOr)
        return CtlOr.takeError();
      Ctl = *CtlOr;
      HasCtl = true;
      C = C.substr(0, RB).rtrim();
    }
  }
  if (size_t P = C.find("/*"); P != StringRef::npos)
    return makeSourceError(SM, SMLoc::getFromPointer(C.data() + P),
                           "comment inside an instruction");
  Expected<sass::Instruction> IOr = sass::parse(C, Pc, SM, Tgt);
  if (!IOr)
    return IOr.takeError();
  if (HasCtl) {
    uint8_t Reuse = IOr->Ctrl.Reuse | Ctl.Reuse;
    IOr->Ctrl = Ctl;
    IOr->Ctrl.Reuse = Reuse;
  }
  if (Error E = sass::verify(*IOr, Tgt))
    return makeSourceError(SM, SMLoc::getFromPointer(C.data()),
                           toString(std::move(E)));
  Warnings.checkUnverified(SM, C, IOr->Op);
  return IOr;
}

void LineAssembler::addLine(StringRef L) {
  StringRef C;
  uint64_t LineAddr = Addr;
  if (!stripComments(L, C, LineAddr) || C.empty())
    return;
  Line Out;
  Out.Addr = LineAddr;
  if (C.startswith(".inst") && (C.size() == 5 || isSpace(C[5]))) {
    if (!parseRawWord(C, Out.W))
      return;
    Out.Raw = true;
  } else {
    Expected<sass::Instruction> IOr = parseInstruction(C, LineAddr);
    if (!IOr) {
      reportError(IOr.takeError(), "tp-mc");
      Failed = true;
      return;
    }
    Out.I = *IOr;
    Out.W = sass::encode(Out.I, Tgt);
  }
  Lines.push_back(Out);
  Addr = LineAddr + 16;
}

void printLine(const Line &L, const mc::Options &Opts, raw_ostream &OS) {
  if (L.Raw) {
    OS << ".inst 0x" << format_hex_no_prefix(L.W.Hi, 16)
       << format_hex_no_prefix(L.W.Lo, 16);
  } else {
    sass::print(L.I, L.Addr, OS);
    if (Opts.ShowControl) {
      // Reuse flags of slots an operand owns are shown as `.reuse` on it.
      sass::Control C = L.I.Ctrl;
      const sass::InstrInfo &II = sass::getInstrInfo(L.I.Op);
      for (unsigned K = 0; K < II.NumOperands; ++K)
        if (II.Operands[K].ReuseSlot >= 0)
          C.Reuse &= ~(1u << II.Operands[K].ReuseSlot);
      OS << ' ';
      sass::printControl(C, OS);
    }
  }
  if (Opts.ShowEncoding)
    OS << " // encoding: 0x" << format_hex_no_prefix(L.W.Hi, 16)
       << format_hex_no_prefix(L.W.Lo, 16);
  OS << '\n';
}

} // namespace

int tp::mc::runAssemble(const Options &Opts) {
  if (Opts.Filetype == FileType::Obj)
    return runAssembleCubin(Opts); // whole-cubin .sass (CubinText.cpp)
  sass::Target Tgt;
  if (!resolveTarget(Opts, Tgt))
    return 1;
  std::unique_ptr<MemoryBuffer> Buf = readInput(Opts, /*IsText=*/true);
  if (!Buf || refuseBinaryText(Opts, Buf->getBuffer()))
    return 1;
  SourceMgr SM;
  SM.AddNewSourceBuffer(std::move(Buf), SMLoc());
  StringRef Text = SM.getMemoryBuffer(SM.getMainFileID())->getBuffer();
  StringRef First = mc::firstSignificantLine(Text);
  if (First.startswith(".target") || First.startswith(".raw_cubin")) {
    reportError(makeSourceError(SM, SMLoc::getFromPointer(First.data()),
                                "this is whole-cubin .sass text "
                                "(docs/sass-format.md): assemble it with "
                                "-filetype=obj -o X.cubin"),
                "tp-mc");
    return 1;
  }
  mc::Warnings Warnings(Opts);
  LineAssembler LA(SM, Tgt, Warnings);
  while (!Text.empty()) {
    auto [L, Rest] = Text.split('\n');
    Text = Rest;
    LA.addLine(L);
  }
  if (LA.Failed || Warnings.hasErrors())
    return 1;
  Error E = writeOutput(Opts.Output, false, [&](raw_ostream &OS) {
    for (const Line &L : LA.Lines)
      printLine(L, Opts, OS);
    return Error::success();
  });
  return reportError(std::move(E), "tp-mc") ? 1 : 0;
}
