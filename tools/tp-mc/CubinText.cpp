//===- CubinText.cpp - tp-mc: whole cubins as .sass text -------------------===//
///
/// \file
/// The cubin side of --disassemble and --assemble (docs/sass-format.md):
///
///   tp-mc --disassemble X.cubin -o X.sass            whole cubin -> .sass
///   tp-mc --assemble -filetype=obj X.sass -o Y.cubin .sass -> cubin
///
/// --disassemble of a cubin prints this text with --format=sass or when the
/// output file name ends in ".sass" (otherwise the per-section listing of
/// Disassemble.cpp).  Instruction lines go through object::SassCodec
/// (tp/Object/SassCodec.h): nvdisasm text for every word that prints and
/// parses back to the same 128 bits, `.inst 0x<32 hex digits>` with a
/// warning for any other word.  So disassemble then assemble is the
/// identity on bytes.  --assemble reports errors at their column of the
/// .sass file and warns about each instruction of a form no oracle word
/// reaches, at its line (mc::Warnings::checkUnverified).
///
//===----------------------------------------------------------------------===//

#include "Commands.h"
#include "tp/Object/SassCodec.h"
#include "tp/Object/SassText.h"
#include "tp/Support/Diagnostics.h"
#include "tp/Support/ToolOutput.h"
#include "tp/Target/SASS/SASS.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

using namespace llvm;
using namespace tp;

int tp::mc::runDisassembleCubin(const Options &Opts, ArrayRef<uint8_t> Bytes,
                                 sass::Target T) {
  mc::Warnings Warnings(Opts);
  // sm_90 words (BRA's split offset, VIADD) need sm_90's tables.
  object::SassCodec Codec(T);
  Codec.OnRawWord = [&](const std::string &Why) {
    Warnings.warn(Opts.Input + ": " + Why);
  };
  object::SassOptions SassOpts = object::getSassOptions(T);
  SassOpts.Codec = &Codec;
  std::string Text;
  raw_string_ostream TextOS(Text);
  if (Error E = object::disassembleCubinToSass(Bytes, TextOS, SassOpts)) {
    reportError(makeError(Opts.Input + ": " + toString(std::move(E))),
                "tp-mc");
    return 1;
  }
  if (Warnings.hasErrors()) // --fatal-warnings: write nothing
    return 1;
  Error E = writeOutput(Opts.Output, /*Binary=*/false, [&](raw_ostream &OS) {
    OS << TextOS.str();
    return Error::success();
  });
  return reportError(std::move(E), "tp-mc") ? 1 : 0;
}

int tp::mc::runAssembleCubin(const Options &Opts) {
  std::unique_ptr<MemoryBuffer> Buf = readInput(Opts, /*IsText=*/true);
  if (!Buf || refuseBinaryText(Opts, Buf->getBuffer()))
    return 1;
  SourceMgr SM;
  unsigned ID = SM.AddNewSourceBuffer(std::move(Buf), SMLoc());
  StringRef Text = SM.getMemoryBuffer(ID)->getBuffer();
  StringRef First = firstSignificantLine(Text);
  if (!First.empty() && !First.startswith(".")) {
    reportError(makeSourceError(SM, SMLoc::getFromPointer(First.data()),
                                "expected whole-cubin .sass text, which "
                                "starts with '.target' or '.raw_cubin' "
                                "(docs/sass-format.md); assemble "
                                "line-oriented SASS without -filetype=obj"),
                "tp-mc");
    return 1;
  }
  // The words of an `.target sm_90` file use sm_90's encodings.
  sass::Target Tgt = object::getSassTextTarget(Text);
  // The text names its target; an -mcpu that disagrees is an error (the
  // cubin would silently be the text's target, not the one asked for).
  StringRef TextCPU = sass::getTargetName(Tgt);
  if (Opts.CPUGiven && Opts.CPU != TextCPU) {
    size_t At = Text.startswith(".target") ? 0 : Text.find("\n.target");
    if (At == StringRef::npos)
      At = Text.find(".elf_header");
    else
      At += Text[At] == '\n';
    std::string Msg = ("-mcpu=" + Opts.CPU + " disagrees with the text, " +
                       "which is for " + TextCPU)
                          .str();
    reportError(
        At == StringRef::npos
            ? makeError(Opts.Input + ": " + Msg)
            : makeSourceError(SM, SMLoc::getFromPointer(Text.data() + At), Msg),
        "tp-mc");
    return 1;
  }
  // A codec of its own: errors located in the file, and a warning for each
  // instruction of a form no oracle word reaches, at its line.
  mc::Warnings Warnings(Opts);
  object::SassCodec Codec(Tgt);
  Codec.setSourceMgr(&SM);
  Codec.OnInstruction = [&](StringRef Text, sass::Opcode Op) {
    Warnings.checkUnverified(SM, Text, Op);
  };
  object::SassOptions SassOpts = object::getSassOptions(Tgt);
  SassOpts.Codec = &Codec;
  Expected<std::vector<uint8_t>> Out = object::assembleCubin(SM, ID, SassOpts);
  if (!Out)
    return reportError(Out.takeError(), "tp-mc") ? 1 : 0;
  if (Warnings.hasErrors())
    return 1;
  Error E = writeOutput(Opts.Output, /*Binary=*/true, [&](raw_ostream &OS) {
    OS.write(reinterpret_cast<const char *>(Out->data()), Out->size());
    return Error::success();
  });
  return reportError(std::move(E), "tp-mc") ? 1 : 0;
}
