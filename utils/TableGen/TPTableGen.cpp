//===- TPTableGen.cpp - tp-tblgen: TableGen backends of tp ----------------===//
///
/// \file
/// The main program of tp-tblgen, built on LLVM's TableGen library like
/// lldb-tblgen: TableGenMain parses the .td files and calls the backend the
/// action option names.  Backends (SASSEmitter.cpp):
///
///   -gen-sass-instr-info   opcode enum, operand and form tables
///   -gen-sass-encoder      field segments of every operand, control fields
///   -gen-sass-decoder      decode dispatch on the 12-bit opcode
///   -gen-sass-asm-printer  print templates
///   -gen-sass-asm-matcher  mnemonic -> candidate forms for the parser
///   -gen-sass-latency      scheduling classes
///   -print-sass-forms      a readable dump of the model (for tests)
///
//===----------------------------------------------------------------------===//

#include "SASSEmitter.h"
#include "SimDispatchEmitter.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/TableGen/Main.h"
#include "llvm/TableGen/Record.h"

using namespace llvm;

namespace {
enum ActionType {
  PrintRecords,
  GenInstrInfo,
  GenEncoder,
  GenDecoder,
  GenAsmPrinter,
  GenAsmMatcher,
  GenLatency,
  PrintForms,
  GenSimDispatch,
};

cl::opt<ActionType> Action(
    cl::desc("Action to perform:"),
    cl::values(
        clEnumValN(PrintRecords, "print-records", "Print all records"),
        clEnumValN(GenInstrInfo, "gen-sass-instr-info",
                   "Opcode enum, operand and instruction tables"),
        clEnumValN(GenEncoder, "gen-sass-encoder", "Encoder field tables"),
        clEnumValN(GenDecoder, "gen-sass-decoder", "Decoder dispatch tables"),
        clEnumValN(GenAsmPrinter, "gen-sass-asm-printer", "Print templates"),
        clEnumValN(GenAsmMatcher, "gen-sass-asm-matcher",
                   "Mnemonic tables of the asm parser"),
        clEnumValN(GenLatency, "gen-sass-latency", "Scheduling classes"),
        clEnumValN(PrintForms, "print-sass-forms",
                   "Readable dump of every form (fields, masks)"),
        clEnumValN(GenSimDispatch, "gen-sim-dispatch",
                   "tp-sim's semantic class of every form")));

bool tpTableGenMain(raw_ostream &OS, RecordKeeper &Records) {
  switch (Action) {
  case PrintRecords:
    OS << Records;
    return false;
  case GenInstrInfo:
    tp::tblgen::emitInstrInfo(Records, OS);
    return false;
  case GenEncoder:
    tp::tblgen::emitEncoder(Records, OS);
    return false;
  case GenDecoder:
    tp::tblgen::emitDecoder(Records, OS);
    return false;
  case GenAsmPrinter:
    tp::tblgen::emitAsmPrinter(Records, OS);
    return false;
  case GenAsmMatcher:
    tp::tblgen::emitAsmMatcher(Records, OS);
    return false;
  case GenLatency:
    tp::tblgen::emitLatency(Records, OS);
    return false;
  case PrintForms:
    tp::tblgen::printForms(Records, OS);
    return false;
  case GenSimDispatch:
    tp::tblgen::emitSimDispatch(Records, OS);
    return false;
  }
  return true;
}
} // namespace

int main(int argc, char **argv) {
  InitLLVM X(argc, argv);
  cl::ParseCommandLineOptions(argc, argv);
  return TableGenMain(argv[0], &tpTableGenMain);
}
