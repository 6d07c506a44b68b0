//===- TPTableGen.cpp - tp-tblgen: TableGen backends of tp ----------------===//
///
/// \file
/// The main program of tp-tblgen, built on LLVM's TableGen library like
/// lldb-tblgen: TableGenMain parses the .td files and calls the backend the
/// action option names.  The backends are listed once, in SASSBackends.def
/// (one file each: InstrInfoEmitter.cpp, EncoderEmitter.cpp,
/// DecoderEmitter.cpp, AsmPrinterEmitter.cpp, AsmMatcherEmitter.cpp,
/// LatencyEmitter.cpp, FormsPrinter.cpp, over the form model of
/// SASSModel.cpp); -print-records is LLVM's.
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
#define TP_TBLGEN_BACKEND(Enum, Option, Help, Function) Enum,
#include "SASSBackends.def"
};

cl::opt<ActionType> Action(
    cl::desc("Action to perform:"),
    cl::values(clEnumValN(PrintRecords, "print-records", "Print all records")
#define TP_TBLGEN_BACKEND(Enum, Option, Help, Function)                        \
  , clEnumValN(Enum, Option, Help)
#include "SASSBackends.def"
                   ));

bool tpTableGenMain(raw_ostream &OS, RecordKeeper &Records) {
  switch (Action) {
  case PrintRecords:
    OS << Records;
    return false;
#define TP_TBLGEN_BACKEND(Enum, Option, Help, Function)                        \
  case Enum:                                                                   \
    tp::tblgen::Function(Records, OS);                                         \
    return false;
#include "SASSBackends.def"
  }
  return true;
}
} // namespace

int main(int argc, char **argv) {
  InitLLVM X(argc, argv);
  cl::ParseCommandLineOptions(argc, argv);
  return TableGenMain(argv[0], &tpTableGenMain);
}
