//===- Assemble.cpp - tp-mc --assemble ------------------------------------===//
///
/// \file
/// SASS text in, one instruction a line.  An instruction's address (for
/// branch targets) is given by an nvdisasm-style `/*0010*/` prefix, else it
/// is the previous instruction's plus 16 (the first is at 0).  Comments
/// (`//`, `#`, leading `/* */`) and blank lines are skipped.  A
/// line may end with a control clause `{stall=4 yield wr=1 rd=3 wait=0,2}`
/// (see --help of --show-control); without one the control fields are
/// stall 0, no yield, no scoreboards, no waits.
///
/// Output: each instruction as the printer writes it, then the control
/// clause with --show-control, then `// encoding: 0x<32 hex digits>` with
/// --show-encoding.  Errors are reported as `file:line:col: error:` with a
/// caret, all of them; then the tool exits 1 and writes nothing.  Each
/// instruction of a form no oracle word reaches gets a warning
/// (UnverifiedFormWarnings; --no-warn, --fatal-warnings).
///
//===----------------------------------------------------------------------===//

#include "Commands.h"
#include "tp/Support/Diagnostics.h"
#include "tp/Support/ToolOutput.h"
#include "tp/Target/SASS/SASS.h"
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
};
} // namespace

int tp::mc::runAssemble(const Options &Opts) {
  if (Opts.Filetype == FileType::Obj)
    return runAssembleCubin(Opts); // whole-cubin .sass (CubinText.cpp)
  sass::Target Tgt;
  if (!resolveTarget(Opts, Tgt))
    return 1;
  std::unique_ptr<MemoryBuffer> Buf = readInput(Opts, /*IsText=*/true);
  if (!Buf)
    return 1;
  SourceMgr SM;
  SM.AddNewSourceBuffer(std::move(Buf), SMLoc());
  StringRef Text = SM.getMemoryBuffer(SM.getMainFileID())->getBuffer();
  std::vector<Line> Lines;
  mc::UnverifiedFormWarnings Warnings(Opts);
  bool Failed = false;
  uint64_t Addr = 0;
  auto Fail = [&](const char *P, const Twine &Msg) {
    reportError(makeSourceError(SM, SMLoc::getFromPointer(P), Msg), "tp-mc");
    Failed = true;
  };
  while (!Text.empty()) {
    auto [L, Rest] = Text.split('\n');
    Text = Rest;
    StringRef C = L.ltrim();
    // An nvdisasm address prefix `/*0x0010*/` or `/*0010*/` sets the
    // address; any other leading /* */ comment is skipped.
    bool HaveAddr = false;
    uint64_t LineAddr = Addr;
    while (C.startswith("/*")) {
      size_t E = C.find("*/");
      if (E == StringRef::npos) {
        Fail(C.data(), "unterminated comment");
        C = "";
        break;
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
    if (C.empty())
      continue;
    if (HaveAddr && LineAddr % 16) {
      Fail(L.data(), "instruction address is not a multiple of 16");
      continue;
    }
    sass::Control Ctl;
    bool HasCtl = false;
    if (C.endswith("}")) {
      size_t RB = C.rfind('{');
      StringRef Clause = C.substr(RB);
      if (RB != StringRef::npos &&
          (Clause.contains('=') || Clause.contains("yield") ||
           Clause == "{}")) {
        auto CtlOr = sass::parseControl(Clause, SM);
        if (!CtlOr) {
          reportError(CtlOr.takeError(), "tp-mc");
          Failed = true;
          continue;
        }
        Ctl = *CtlOr;
        HasCtl = true;
        C = C.substr(0, RB).rtrim();
      }
    }
    if (size_t P = C.find("/*"); P != StringRef::npos) {
      Fail(C.data() + P, "comment inside an instruction");
      continue;
    }
    auto IOr = sass::parse(C, LineAddr, SM, Tgt);
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
    if (Error E = sass::verify(*IOr, Tgt)) {
      Fail(C.data(), toString(std::move(E)));
      continue;
    }
    Warnings.check(SM, C, IOr->Op);
    Lines.push_back({*IOr, LineAddr});
    Addr = LineAddr + 16;
  }
  if (Failed || Warnings.hasErrors())
    return 1;
  Error E = writeOutput(Opts.Output, false, [&](raw_ostream &OS) {
    for (const Line &L : Lines) {
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
      if (Opts.ShowEncoding) {
        sass::Word128 W = sass::encode(L.I, Tgt);
        OS << " // encoding: 0x" << format_hex_no_prefix(W.Hi, 16)
           << format_hex_no_prefix(W.Lo, 16);
      }
      OS << '\n';
    }
    return Error::success();
  });
  return reportError(std::move(E), "tp-mc") ? 1 : 0;
}
