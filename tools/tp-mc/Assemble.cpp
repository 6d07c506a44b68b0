//===- Assemble.cpp - tp-mc --assemble ------------------------------------===//
///
/// \file
/// SASS text in, one instruction a line, the n-th instruction at address
/// 16*n (for branch targets).  Comments (`//`, `#` and `/* */`, so
/// nvdisasm's `/*0010*/` address prefixes) and blank lines are skipped.  A
/// line may end with a control clause `{stall=4 yield wr=1 rd=3 wait=0,2}`
/// (see --help of --show-control); without one the control fields are
/// stall 0, no yield, no scoreboards, no waits.
///
/// Output: each instruction as the printer writes it, then the control
/// clause with --show-control, then `// encoding: 0x<32 hex digits>` with
/// --show-encoding.  Errors are reported as `file:line:col: error:` with a
/// caret, all of them; then the tool exits 1 and writes nothing.
///
//===----------------------------------------------------------------------===//

#include "Commands.h"
#include "tp/Support/Diagnostics.h"
#include "tp/Support/ToolOutput.h"
#include "tp/Target/SM86/SM86.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/WithColor.h"

using namespace llvm;
using namespace tp;

namespace {
struct Line {
  sm86::Instruction I;
  uint64_t Addr;
};

/// Blanks out comments in \p S (keeping columns).
std::string stripComments(StringRef S) {
  std::string Out = S.str();
  for (size_t I = 0; I < Out.size(); ++I) {
    if (Out.compare(I, 2, "/*") == 0) {
      size_t E = Out.find("*/", I + 2);
      size_t End = E == std::string::npos ? Out.size() : E + 2;
      for (size_t K = I; K < End; ++K)
        Out[K] = ' ';
      I = End - 1;
    } else if (Out.compare(I, 2, "//") == 0 || Out[I] == '#') {
      Out.resize(I);
      break;
    }
  }
  return Out;
}
} // namespace

int tp::mc::runAssemble(const Options &Opts) {
  if (Opts.Filetype == FileType::Obj) {
    WithColor::error(errs(), "tp-mc")
        << "-filetype=obj is not implemented yet (cubin writer)\n";
    return 1;
  }
  auto BufOr = MemoryBuffer::getFileOrSTDIN(Opts.Input, /*IsText=*/true);
  if (!BufOr) {
    WithColor::error(errs(), "tp-mc")
        << Opts.Input << ": " << BufOr.getError().message() << "\n";
    return 1;
  }
  SourceMgr SM;
  SM.AddNewSourceBuffer(std::move(*BufOr), SMLoc());
  StringRef Text = SM.getMemoryBuffer(SM.getMainFileID())->getBuffer();
  std::vector<Line> Lines;
  bool Failed = false;
  uint64_t Addr = 0;
  while (!Text.empty()) {
    auto [L, Rest] = Text.split('\n');
    Text = Rest;
    std::string Clean = stripComments(L);
    StringRef C(Clean);
    if (C.trim().empty())
      continue;
    // Map positions in Clean back onto the buffer (same length prefix).
    size_t Len = StringRef(Clean).rtrim().size();
    StringRef InBuf(L.data(), Len);
    StringRef Insn = InBuf;
    sm86::Control Ctl;
    bool HasCtl = false;
    size_t RB = StringRef(Clean.data(), Len).rfind('{');
    if (Len && Clean[Len - 1] == '}' && RB != StringRef::npos &&
        (StringRef(Clean).slice(RB, Len).contains('=') ||
         StringRef(Clean).slice(RB, Len).contains("yield") ||
         StringRef(Clean).slice(RB, Len) == "{}")) {
      auto CtlOr = sm86::parseControl(InBuf.slice(RB, Len), SM);
      if (!CtlOr) {
        reportError(CtlOr.takeError(), "tp-mc");
        Failed = true;
        continue;
      }
      Ctl = *CtlOr;
      HasCtl = true;
      Insn = InBuf.slice(0, RB);
    }
    // Comments blanked in Clean must be blank for the parser too.
    std::string Tmp = StringRef(Clean).slice(0, Insn.size()).str();
    // Parse from the buffer text when it has no comment inside, else from
    // the blanked copy (locations then still point into the buffer).
    StringRef ParseText = Insn;
    if (Tmp != Insn.str()) {
      // Overwrite comments in place is impossible (const buffer): use a
      // private copy registered with the SourceMgr at the same line.
      ParseText = Insn; // fall through: comments inside an instruction are
                        // rare; only leading /*addr*/ prefixes occur.
      size_t Lead = Tmp.find_first_not_of(' ');
      if (Lead != std::string::npos)
        ParseText = Insn.drop_front(Lead);
      if (ParseText.contains("/*")) {
        reportError(makeSourceError(SM, SMLoc::getFromPointer(
                                            ParseText.data() +
                                            ParseText.find("/*")),
                                    "comment inside an instruction"),
                    "tp-mc");
        Failed = true;
        continue;
      }
    }
    auto IOr = sm86::parse(ParseText, Addr, SM);
    if (!IOr) {
      reportError(IOr.takeError(), "tp-mc");
      Failed = true;
      continue;
    }
    if (HasCtl) {
      uint8_t Reuse = IOr->Ctrl.Reuse | Ctl.Reuse;
      IOr->Ctrl = Ctl;
      IOr->Ctrl.Reuse = Reuse;
    }
    if (Error E = sm86::verify(*IOr)) {
      reportError(makeSourceError(SM, SMLoc::getFromPointer(ParseText.data()),
                                  toString(std::move(E))),
                  "tp-mc");
      Failed = true;
      continue;
    }
    Lines.push_back({*IOr, Addr});
    Addr += 16;
  }
  if (Failed)
    return 1;
  Error E = writeOutput(Opts.Output, false, [&](raw_ostream &OS) {
    for (const Line &L : Lines) {
      sm86::print(L.I, L.Addr, OS);
      if (Opts.ShowControl) {
        OS << ' ';
        sm86::printControl(L.I.Ctrl, OS);
      }
      if (Opts.ShowEncoding) {
        sm86::Word128 W = sm86::encode(L.I);
        OS << " // encoding: 0x" << format_hex_no_prefix(W.Hi, 16)
           << format_hex_no_prefix(W.Lo, 16);
      }
      OS << '\n';
    }
    return Error::success();
  });
  return reportError(std::move(E), "tp-mc") ? 1 : 0;
}
