//===- tp-mc.cpp - SASS assembler, disassembler and cubin dumper ----------===//
///
/// \file
/// The llvm-mc of tp.  One action per run:
///
///   tp-mc --assemble [--show-encoding] X.s             SASS lines -> text
///   tp-mc --assemble -filetype=obj X.sass -o X.cubin   .sass -> cubin
///   tp-mc --disassemble [--show-encoding] X             words or cubin -> SASS
///         (a cubin to -o X.sass or with --format=sass: its .sass text)
///   tp-mc --dump-cubin X.cubin                          ELF + .nv.info dump
///
/// --assemble warns about every instruction of a form whose encoding no
/// NVIDIA reference word confirms (sass::isOracleVerified); --no-warn and
/// --fatal-warnings as in llvm-mc.
///
//===----------------------------------------------------------------------===//

#include "Commands.h"
#include "tp/Object/SassCodec.h"
#include "tp/Support/Diagnostics.h"
#include "tp/Support/ToolOutput.h"
#include "tp/Target/SASS/SASS.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/WithColor.h"

using namespace llvm;

namespace {
cl::OptionCategory MCCat("tp-mc options");

enum class Action { None, Assemble, Disassemble, DumpCubin };
cl::opt<Action> ActionOpt(
    cl::desc("Action:"),
    cl::values(clEnumValN(Action::Assemble, "assemble",
                          "Assemble SASS text (nvdisasm syntax)"),
               clEnumValN(Action::Disassemble, "disassemble",
                          "Disassemble 128-bit words (one 32-hex-digit word "
                          "a line, optionally 0x-prefixed) or a cubin"),
               clEnumValN(Action::DumpCubin, "dump-cubin",
                          "Print a cubin's ELF sections, symbols and decoded "
                          ".nv.info attributes")),
    cl::init(Action::None), cl::cat(MCCat));

cl::opt<std::string> InputFilename(cl::Positional, cl::desc("<input>"),
                                   cl::init("-"), cl::cat(MCCat));
cl::opt<std::string> OutputFilename("o", cl::desc("Output file (default: -)"),
                                    cl::value_desc("filename"), cl::init("-"),
                                    cl::cat(MCCat));
cl::opt<std::string>
    CPU("mcpu",
        cl::desc("Target GPU: sm_86 (default), sm_80, sm_89 (sm_86's "
                 "encodings), sm_90, sm_100, sm_120, sm_121 (Blackwell: "
                 "docs/targets.md).  "
                 "A cubin's own target (its ELF e_flags) wins: an -mcpu "
                 "that disagrees gets a warning"),
        cl::init("sm_86"), cl::cat(MCCat));
cl::opt<tp::mc::FileType> FileTypeOpt(
    "filetype",
    cl::desc("Input and output of --assemble:"),
    cl::values(clEnumValN(tp::mc::FileType::Asm, "asm",
                          "line-oriented SASS (one instruction a line, "
                          "as --disassemble's listing) in, SASS text out "
                          "(default)"),
               clEnumValN(tp::mc::FileType::Obj, "obj",
                          "whole-cubin .sass text (starting with .target "
                          "or .raw_cubin) in, a cubin out")),
    cl::init(tp::mc::FileType::Asm), cl::cat(MCCat));
cl::opt<tp::mc::OutputFormat> FormatOpt(
    "format",
    cl::desc("Output of --disassemble of a cubin (default: sass when the -o "
             "file name ends in '.sass', else listing):"),
    cl::values(clEnumValN(tp::mc::OutputFormat::Listing, "listing",
                          "'// <section>', then '/*addr*/ instruction' "
                          "lines; --assemble reads them back"),
               clEnumValN(tp::mc::OutputFormat::Sass, "sass",
                          "the whole cubin as .sass text "
                          "(docs/sass-format.md); --assemble -filetype=obj "
                          "turns it back into the same bytes")),
    cl::init(tp::mc::OutputFormat::Auto), cl::cat(MCCat));
cl::opt<bool> ShowEncoding(
    "show-encoding",
    cl::desc("Append '// encoding: 0x<32 hex digits>' to each instruction "
             "(the 128-bit word, most significant digit first)"),
    cl::cat(MCCat));
cl::opt<bool> ShowControl(
    "show-control",
    cl::desc("Append the control fields as '{stall=4 yield wr=1 rd=3 "
             "wait=0,2 reuse=c}': stall [105:108], yield = bit 109 clear "
             "(CuAssembler's Y), write/read scoreboard 0..5, wait mask as "
             "scoreboard numbers, reuse slots a..d not shown as .reuse; "
             "defaults (stall 0, no yield, no scoreboard, no wait) are "
             "left out.  --assemble reads the same clause at the end of a "
             "line"),
    cl::cat(MCCat));
cl::opt<bool> NoWarn(
    "no-warn",
    cl::desc("Suppress warnings (--assemble: instructions of forms whose "
             "encoding no NVIDIA reference word confirms; --disassemble: "
             "words printed as .inst, an -mcpu the cubin contradicts)"),
    cl::cat(MCCat));
cl::opt<bool> FatalWarnings(
    "fatal-warnings",
    cl::desc("Treat warnings as errors: exit 1 and write no output"),
    cl::cat(MCCat));
} // namespace

bool tp::mc::resolveTarget(const Options &Opts, sass::Target &T) {
  if (sass::lookupTarget(Opts.CPU, T))
    return true;
  WithColor::error(errs(), "tp-mc")
      << "-mcpu: unknown target '" << Opts.CPU
      << "' (" << sass::getTargetList() << ")\n";
  return false;
}

std::unique_ptr<MemoryBuffer> tp::mc::readInput(const Options &Opts,
                                               bool IsText) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> BufOr =
      MemoryBuffer::getFileOrSTDIN(Opts.Input, IsText);
  if (!BufOr) {
    WithColor::error(errs(), "tp-mc")
        << Opts.Input << ": " << BufOr.getError().message() << "\n";
    return nullptr;
  }
  StringRef Bytes = (*BufOr)->getBuffer();
  if (IsText && Bytes.startswith("\xef\xbb\xbf"))
    return MemoryBuffer::getMemBufferCopy(Bytes.drop_front(3),
                                          (*BufOr)->getBufferIdentifier());
  return std::move(*BufOr);
}

StringRef tp::mc::firstSignificantLine(StringRef Text) {
  while (!Text.empty()) {
    auto [L, Rest] = Text.split('\n');
    StringRef C = L.trim();
    if (!C.empty() && !C.startswith("//") && !C.startswith("#"))
      return C;
    Text = Rest;
  }
  return "";
}

bool tp::mc::refuseFatbin(const Options &Opts, StringRef Bytes) {
  if (!Bytes.startswith("\x50\xed\x55\xba")) // 0xBA55ED50, little-endian
    return false;
  WithColor::error(errs(), "tp-mc")
      << Opts.Input
      << ": a fatbin (magic 0xba55ed50), not a cubin: tp-mc reads the cubins "
         "inside one; extract them first (cuobjdump -xelf all " << Opts.Input
      << ")\n";
  return true;
}

bool tp::mc::refuseBinaryText(const Options &Opts, StringRef Bytes) {
  if (refuseFatbin(Opts, Bytes))
    return true;
  if (!Bytes.startswith("\x7f"
                        "ELF"))
    return false;
  WithColor::error(errs(), "tp-mc")
      << Opts.Input
      << ": a cubin, not SASS text: --assemble reads text (to read a cubin, "
         "use --disassemble)\n";
  return true;
}

bool tp::mc::resolveCubinTarget(const Options &Opts, StringRef Name,
                                ArrayRef<uint8_t> Bytes, sass::Target &T) {
  Expected<sass::Target> TOr = object::getCubinTarget(Bytes);
  if (!TOr) {
    reportError(makeError(Name + ": " + toString(TOr.takeError())), "tp-mc");
    return false;
  }
  T = *TOr;
  std::string CubinCPU = "sm_" + std::to_string(object::getCubinSM(Bytes));
  if (!Opts.CPUGiven || Opts.CPU == CubinCPU)
    return true;
  Warnings W(Opts);
  W.warn("-mcpu=" + Opts.CPU + " disagrees with " + Name + ", which is for " +
         CubinCPU + " (ELF e_flags)" +
         (Opts.FatalWarnings ? "" : ": disassembling it for " + CubinCPU));
  return !W.hasErrors();
}

int main(int argc, char **argv) {
  InitLLVM X(argc, argv);
  tp::setClosedPipeHandler("tp-mc");
  tp::setToolVersionPrinter();
  cl::HideUnrelatedOptions(MCCat);
  const std::string Overview =
      "tp-mc: SASS assembler and disassembler, and cubin dumper, for " +
      tp::sass::getTargetList() +
      "\n\n"
      "  tp-mc --assemble [--show-encoding] X.s        line-oriented SASS "
      "-> SASS text\n"
      "  tp-mc --assemble -filetype=obj X.sass -o X.cubin\n"
      "                                                whole-cubin .sass -> "
      "cubin\n"
      "  tp-mc --disassemble X.cubin [-o X.txt]        cubin -> listing\n"
      "  tp-mc --disassemble X.cubin -o X.sass         cubin -> whole-cubin "
      ".sass\n"
      "                                                (--format=listing|sass "
      "overrides the -o rule)\n"
      "  tp-mc --disassemble words.txt                 32-hex-digit words -> "
      "listing\n"
      "  tp-mc --dump-cubin X.cubin                    ELF + .nv.info dump\n\n"
      "A cubin is read for the target its ELF e_flags name; words and\n"
      "line-oriented SASS for -mcpu's.  Words no form matches are printed\n"
      "as '.inst 0x<32 hex digits>' with a warning.  A fatbin is refused.\n"
      "Exit status: 0 success, 1 error (nothing is written).\n";
  cl::ParseCommandLineOptions(argc, argv, Overview);
  tp::mc::Options Opts;
  Opts.Input = InputFilename;
  Opts.Output = OutputFilename;
  Opts.CPU = CPU;
  Opts.CPUGiven = CPU.getNumOccurrences() != 0;
  Opts.Filetype = FileTypeOpt;
  Opts.Format = FormatOpt;
  Opts.ShowEncoding = ShowEncoding;
  Opts.ShowControl = ShowControl;
  Opts.NoWarn = NoWarn;
  Opts.FatalWarnings = FatalWarnings;
  switch (ActionOpt) {
  case Action::Assemble:
    return tp::mc::runAssemble(Opts);
  case Action::Disassemble:
    return tp::mc::runDisassemble(Opts);
  case Action::DumpCubin:
    return tp::mc::runDumpCubin(Opts);
  case Action::None:
    break;
  }
  WithColor::error(errs(), "tp-mc")
      << "no action given: use --assemble, --disassemble or --dump-cubin "
         "(see --help)\n";
  return 1;
}
