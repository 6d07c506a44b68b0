//===- tp-fuzz-seed.cpp - .sass seeds for the .sass fuzzer ----------------===//
///
/// \file
/// tp-fuzz-seed OUTDIR X.cubin...: writes X.sass (the form printSass picks)
/// and X.raw.sass (the raw form) for each cubin, so that tp-fuzz-sass
/// starts from both forms.  Built only with the fuzzers.
///
//===----------------------------------------------------------------------===//

#include "tp/Object/SassText.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace tp::object;

int main(int argc, char **argv) {
  if (argc < 3)
    return 2;
  for (int I = 2; I < argc; ++I) {
    auto Buf = MemoryBuffer::getFile(argv[I]);
    if (!Buf)
      return 1;
    ArrayRef<uint8_t> Bytes(
        reinterpret_cast<const uint8_t *>((*Buf)->getBufferStart()),
        (*Buf)->getBufferSize());
    for (bool Raw : {false, true}) {
      std::string Name = (Twine(argv[1]) + "/" + sys::path::stem(argv[I]) +
                          (Raw ? ".raw.sass" : ".sass"))
                             .str();
      std::error_code EC;
      raw_fd_ostream OS(Name, EC);
      if (EC)
        return 1;
      SassOptions O;
      O.ForceRaw = Raw;
      if (Error E = disassembleCubinToSass(Bytes, OS, O)) {
        errs() << argv[I] << ": " << toString(std::move(E)) << "\n";
        return 1;
      }
    }
  }
  return 0;
}
