//===- Assemble.cpp - tp-mc --assemble ------------------------------------===//
///
/// \file
/// Line-oriented SASS in (object::ListingAssembler, tp/Object/SassListing.h:
/// one instruction a line, `/*addr*/` prefixes, control clauses, `.inst`
/// words), each line as the printer writes it out, with the control clause
/// (--show-control) and `// encoding: 0x<32 hex digits>` (--show-encoding).
///
/// Whole-cubin .sass text (a file whose first line is `.target` or
/// `.raw_cubin`) is -filetype=obj's input (CubinText.cpp): without it, it
/// is refused with one error that says so.  A fatbin or a cubin is refused.
/// Errors are reported as `file:line:col: error:` with a caret, all of
/// them, in line order with the warnings; then the tool exits 1 and writes
/// nothing.  Each instruction of a form no oracle word reaches gets a
/// warning (mc::Warnings::checkUnverified; --no-warn, --fatal-warnings).
///
//===----------------------------------------------------------------------===//

#include "Commands.h"
#include "tp/Object/SassListing.h"
#include "tp/Support/Diagnostics.h"
#include "tp/Support/ToolOutput.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

using namespace llvm;
using namespace tp;

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
  StringRef First = firstSignificantLine(Text);
  if (First.startswith(".target") || First.startswith(".raw_cubin")) {
    reportError(makeSourceError(SM, SMLoc::getFromPointer(First.data()),
                                "this is whole-cubin .sass text "
                                "(docs/sass-format.md): assemble it with "
                                "-filetype=obj -o X.cubin"),
                "tp-mc");
    return 1;
  }
  mc::Warnings Warnings(Opts);
  object::ListingAssembler LA(SM, Tgt);
  LA.OnInstruction = [&](StringRef Insn, sass::Opcode Op) {
    Warnings.checkUnverified(SM, Insn, Op);
  };
  std::vector<object::ListingLine> Lines;
  bool Failed = false;
  while (!Text.empty()) {
    auto [L, Rest] = Text.split('\n');
    Text = Rest;
    Expected<Optional<object::ListingLine>> LineOr = LA.addLine(L);
    if (!LineOr)
      Failed |= reportError(LineOr.takeError(), "tp-mc");
    else if (*LineOr)
      Lines.push_back(**LineOr);
  }
  if (Failed || Warnings.hasErrors())
    return 1;
  object::ListingPrintOptions PO;
  PO.ShowControl = Opts.ShowControl;
  PO.ShowEncoding = Opts.ShowEncoding;
  Error E = writeOutput(Opts.Output, false, [&](raw_ostream &OS) {
    for (const object::ListingLine &L : Lines)
      object::printListingLine(L, PO, OS);
    return Error::success();
  });
  return reportError(std::move(E), "tp-mc") ? 1 : 0;
}
