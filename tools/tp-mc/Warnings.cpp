//===- Warnings.cpp - tp-mc's warnings about unverified encodings ---------===//
///
/// \file
/// An instruction of a form no oracle word reaches (the forms listed in
/// td/UnverifiedForms.txt) assembles to bits that only
/// sibling forms confirm.  tp-mc says so for every such instruction, in
/// both assembler inputs (line-oriented SASS and whole-cubin .sass).
///
//===----------------------------------------------------------------------===//

#include "Commands.h"
#include "llvm/Support/SourceMgr.h"

using namespace llvm;
using namespace tp;

namespace {
/// The mnemonic of \p Insn: after a guard `@P0` / `@!UP1`, if any.
StringRef skipGuard(StringRef Insn) {
  StringRef S = Insn.ltrim();
  if (!S.startswith("@"))
    return S;
  size_t E = S.find_first_of(" \t");
  return E == StringRef::npos ? S : S.drop_front(E).ltrim();
}
} // namespace

void mc::UnverifiedFormWarnings::check(const SourceMgr &SM, StringRef Insn,
                                       sass::Opcode Op) {
  if (Opts.NoWarn || sass::isOracleVerified(Op))
    return;
  SourceMgr::DiagKind Kind =
      Opts.FatalWarnings ? SourceMgr::DK_Error : SourceMgr::DK_Warning;
  if (Opts.FatalWarnings)
    ++Errors;
  SM.PrintMessage(SMLoc::getFromPointer(skipGuard(Insn).data()), Kind,
                  Twine(sass::getInstrInfo(Op).Name) +
                      " has no encoding confirmed by NVIDIA's bytes (no "
                      "reference word reaches it; see "
                      "td/UnverifiedForms.txt)");
}
