//===- tp-fuzz-sass.cpp - libFuzzer target for the .sass parser -----------===//
///
/// \file
/// Any text: parseSassString returns a cubin or a located error.  A parsed
/// cubin must be writable and print again.
///
//===----------------------------------------------------------------------===//

#include "tp/Object/SassText.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace tp::object;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  StringRef Text(reinterpret_cast<const char *>(Data), Size);
  Expected<CubinFile> F = parseSassString(Text);
  if (!F) {
    consumeError(F.takeError());
    return 0;
  }
  std::vector<uint8_t> Out;
  if (Error E = writeCubinFile(*F, Out)) {
    // The raw form can describe overlapping or impossible layouts; that
    // is an error, not a crash.
    consumeError(std::move(E));
    return 0;
  }
  raw_null_ostream Null;
  consumeError(printSass(*F, Null));
  return 0;
}
