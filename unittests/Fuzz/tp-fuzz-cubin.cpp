//===- tp-fuzz-cubin.cpp - libFuzzer target for the cubin reader ----------===//
///
/// \file
/// Any input: readCubinFile must return a cubin or an error.  When it
/// returns a cubin, the faithful writer must give the input back, the dump
/// and the model must not crash, and the .sass text (kernel or raw form)
/// must parse back to the same bytes.  A broken promise is a trap.
///
//===----------------------------------------------------------------------===//

#include "tp/Object/CubinFile.h"
#include "tp/Object/Dump.h"
#include "tp/Object/Module.h"
#include "tp/Object/SassText.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace tp::object;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::vector<uint8_t> In(Data, Data + Size);
  Expected<CubinFile> F = readCubinFile(In);
  if (!F) {
    consumeError(F.takeError());
    return 0;
  }
  std::vector<uint8_t> Out;
  if (Error E = writeCubinFile(*F, Out)) {
    consumeError(std::move(E));
    __builtin_trap(); // a file we read must be writable
  }
  if (Out != In)
    __builtin_trap();
  raw_null_ostream Null;
  consumeError(dumpCubin(*F, Null));
  if (Expected<Module> M = interpretCubin(*F)) {
    if (Expected<CubinFile> G = buildCubin(*M)) {
      std::vector<uint8_t> B;
      consumeError(writeCubinFile(*G, B));
    } else {
      consumeError(G.takeError());
    }
  } else {
    consumeError(M.takeError());
  }
  std::string Text;
  raw_string_ostream OS(Text);
  if (Error E = printSass(*F, OS)) {
    consumeError(std::move(E));
    return 0;
  }
  Expected<CubinFile> G = parseSassString(OS.str());
  if (!G) {
    consumeError(G.takeError());
    __builtin_trap(); // what we print must parse
  }
  std::vector<uint8_t> Again;
  if (Error E = writeCubinFile(*G, Again)) {
    consumeError(std::move(E));
    __builtin_trap();
  }
  if (Again != In)
    __builtin_trap();
  return 0;
}
