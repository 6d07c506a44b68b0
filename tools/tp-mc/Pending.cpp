//===- Pending.cpp - tp-mc commands not yet implemented -------------------===//
///
/// \file
/// Commands whose layer has not landed yet report so and fail.  Each
/// function moves to its own file (Assemble.cpp, Disassemble.cpp,
/// DumpCubin.cpp) when its layer lands; this file then disappears.
///
//===----------------------------------------------------------------------===//
#include "Commands.h"
#include "llvm/Support/WithColor.h"

using namespace llvm;

static int pending(StringRef What) {
  WithColor::error(errs(), "tp-mc") << What << " is not implemented yet\n";
  return 1;
}

int tp::mc::runDumpCubin(const Options &) { return pending("--dump-cubin"); }
