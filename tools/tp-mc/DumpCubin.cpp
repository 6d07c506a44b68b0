//===- DumpCubin.cpp - tp-mc --dump-cubin ---------------------------------===//
///
/// \file
/// Reads a cubin (validated by readCubinFile) and prints dumpCubin's text;
/// a fatbin is refused with a message saying what it is.
///
//===----------------------------------------------------------------------===//

#include "Commands.h"
#include "tp/Object/CubinFile.h"
#include "tp/Object/Dump.h"
#include "tp/Support/Diagnostics.h"
#include "tp/Support/ToolOutput.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace llvm;

int tp::mc::runDumpCubin(const Options &Opts) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf =
      MemoryBuffer::getFileOrSTDIN(Opts.Input, /*IsText=*/false);
  if (!Buf) {
    reportError(makeError("cannot read '" + Opts.Input +
                          "': " + Buf.getError().message()),
                "tp-mc");
    return 1;
  }
  if (mc::refuseFatbin(Opts, (*Buf)->getBuffer()))
    return 1;
  ArrayRef<uint8_t> Bytes(
      reinterpret_cast<const uint8_t *>((*Buf)->getBufferStart()),
      (*Buf)->getBufferSize());
  Expected<object::CubinFile> F = object::readCubinFile(Bytes);
  if (!F) {
    reportError(makeError(Opts.Input + ": " + toString(F.takeError())),
                "tp-mc");
    return 1;
  }
  Error E = writeOutput(Opts.Output, /*Binary=*/false, [&](raw_ostream &OS) {
    return object::dumpCubin(*F, OS);
  });
  if (E) {
    reportError(makeError(Opts.Input + ": " + toString(std::move(E))), "tp-mc");
    return 1;
  }
  return 0;
}
