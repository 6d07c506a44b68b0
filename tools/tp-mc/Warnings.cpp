//===- Warnings.cpp - tp-mc's warnings ------------------------------------===//
///
/// \file
/// An instruction of a form no oracle word reaches (the forms listed in
/// td/UnverifiedForms.txt) assembles to bits that only
/// sibling forms confirm.  tp-mc says so for every such instruction, in
/// both assembler inputs (line-oriented SASS and whole-cubin .sass).
/// The other warnings (unknown words kept as `.inst`, an -mcpu the cubin
/// contradicts) go through the same class, so --no-warn and
/// --fatal-warnings apply to all of them.
///
//===----------------------------------------------------------------------===//

#include "Commands.h"
#include "tp/Support/Diagnostics.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/WithColor.h"

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

void mc::Warnings::warn(const Twine &Msg) {
  if (Opts.NoWarn)
    return;
  if (Opts.FatalWarnings) {
    ++Errors;
    WithColor::error(errs(), "tp-mc") << Msg << "\n";
    return;
  }
  WithColor::warning(errs(), "tp-mc") << Msg << "\n";
}

void mc::Warnings::warn(const SourceMgr &SM, SMLoc Loc, const Twine &Msg) {
  if (Opts.NoWarn)
    return;
  SourceMgr::DiagKind Kind =
      Opts.FatalWarnings ? SourceMgr::DK_Error : SourceMgr::DK_Warning;
  if (Opts.FatalWarnings)
    ++Errors;
  makePrintable(SM.GetMessage(Loc, Kind, Msg)).print(nullptr, errs());
}

void mc::Warnings::checkUnverified(const SourceMgr &SM, StringRef Insn,
                                   sass::Opcode Op) {
  if (sass::isOracleVerified(Op))
    return;
  warn(SM, SMLoc::getFromPointer(skipGuard(Insn).data()),
       Twine(sass::getInstrInfo(Op).Name) +
           " has no encoding confirmed by NVIDIA's bytes (no reference word "
           "reaches it; see td/UnverifiedForms.txt)");
}
