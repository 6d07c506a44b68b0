//===- ToolOutput.cpp - Output files that appear whole or not at all ------===//

#include "tp/Support/ToolOutput.h"
#include "tp/Support/Diagnostics.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace llvm;

namespace tp {

Error writeOutput(StringRef Path, bool Binary,
                  function_ref<Error(raw_ostream &)> Write) {
  if (Path == "-") {
    if (Binary)
      outs().SetUnbuffered();
    return Write(outs());
  }
  // ToolOutputFile removes the file on destruction unless keep() is called;
  // write into a buffer first so that nothing reaches the disk on failure.
  std::string Buffer;
  raw_string_ostream OS(Buffer);
  if (Error E = Write(OS))
    return E;
  std::error_code EC;
  ToolOutputFile Out(Path, EC,
                     Binary ? sys::fs::OF_None : sys::fs::OF_Text);
  if (EC)
    return makeError("cannot open '" + Path + "': " + EC.message());
  Out.os() << OS.str();
  Out.os().flush();
  if (Out.os().has_error()) {
    std::error_code WEC = Out.os().error();
    Out.os().clear_error();
    return makeError("cannot write '" + Path + "': " + WEC.message());
  }
  Out.keep();
  return Error::success();
}

void setToolVersionPrinter() {
  cl::SetVersionPrinter([](raw_ostream &OS) {
    OS << "tp (tensor-core backend for NVIDIA sm_86) version 0.1.0\n"
       << "  built with LLVM 14\n";
  });
}

} // namespace tp
