//===- tp-mc.cpp - SASS assembler, disassembler and cubin dumper ----------===//
///
/// \file
/// The llvm-mc of tp.  One action per run:
///
///   tp-mc --assemble [--show-encoding] X.sass          SASS text -> encodings
///   tp-mc --assemble -filetype=obj X.sass -o X.cubin   SASS text -> cubin
///   tp-mc --disassemble [--show-encoding] X             words or cubin -> SASS
///   tp-mc --dump-cubin X.cubin                          ELF + .nv.info dump
///
/// --assemble warns about every instruction of a form whose encoding no
/// NVIDIA reference word confirms (sass::isOracleVerified); --no-warn and
/// --fatal-warnings as in llvm-mc.
///
//===----------------------------------------------------------------------===//

#include "Commands.h"
#include "tp/Support/ToolOutput.h"
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
        cl::desc("Target GPU: sm_86 (default; sm_80 is the same), sm_90.  "
                 "A cubin's own target (its ELF e_flags) wins: an -mcpu "
                 "that disagrees gets a warning"),
        cl::init("sm_86"), cl::cat(MCCat));
cl::opt<tp::mc::FileType> FileTypeOpt(
    "filetype", cl::desc("Output kind of --assemble:"),
    cl::values(clEnumValN(tp::mc::FileType::Asm, "asm",
                          "SASS text (default)"),
               clEnumValN(tp::mc::FileType::Obj, "obj", "a cubin")),
    cl::init(tp::mc::FileType::Asm), cl::cat(MCCat));
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
             "encoding no NVIDIA reference word confirms)"),
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
      << "' (sm_80, sm_86 or sm_90)\n";
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

bool tp::mc::resolveCubinTarget(const Options &Opts, StringRef Name,
                                ArrayRef<uint8_t> Bytes, sass::Target &T) {
  // e_flags is the u32 at 0x30 of the 64-byte ELF64 header.
  unsigned SM = Bytes.size() >= 64 ? Bytes[0x31] : 0;
  std::string CubinCPU = "sm_" + std::to_string(SM);
  if (!sass::lookupTarget(CubinCPU, T)) {
    WithColor::error(errs(), "tp-mc")
        << Name << ": the cubin is for " << CubinCPU
        << " (ELF e_flags), which tp-mc does not support (sm_80, sm_86 or "
           "sm_90)\n";
    return false;
  }
  if (!Opts.CPUGiven || Opts.CPU == CubinCPU || Opts.NoWarn)
    return true;
  raw_ostream &OS = Opts.FatalWarnings ? WithColor::error(errs(), "tp-mc")
                                       : WithColor::warning(errs(), "tp-mc");
  OS << "-mcpu=" << Opts.CPU << " disagrees with " << Name << ", which is for "
     << CubinCPU << " (ELF e_flags)";
  if (!Opts.FatalWarnings)
    OS << ": disassembling it for " << CubinCPU;
  OS << "\n";
  return !Opts.FatalWarnings;
}

int main(int argc, char **argv) {
  InitLLVM X(argc, argv);
  tp::setToolVersionPrinter();
  cl::HideUnrelatedOptions(MCCat);
  cl::ParseCommandLineOptions(argc, argv,
                              "tp-mc: SASS assembler and disassembler for "
                              "sm_86 and sm_90, and cubin dumper\n");
  tp::mc::Options Opts;
  Opts.Input = InputFilename;
  Opts.Output = OutputFilename;
  Opts.CPU = CPU;
  Opts.CPUGiven = CPU.getNumOccurrences() != 0;
  Opts.Filetype = FileTypeOpt;
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
