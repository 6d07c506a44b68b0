//===- Diagnostics.cpp - Located errors over llvm::SourceMgr --------------===//

#include "tp/Support/Diagnostics.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace tp {

char SourceError::ID = 0;

void SourceError::log(raw_ostream &OS) const {
  // The rendered form, without colours: used when the error is logged or
  // converted to a string (tests, nested errors).
  Diag.print(/*ProgName=*/nullptr, OS, /*ShowColors=*/false,
             /*ShowKindLabel=*/true);
}

std::error_code SourceError::convertToErrorCode() const {
  return inconvertibleErrorCode();
}

namespace {
/// \p S with each non-ASCII character (UTF-8 sequence or stray byte) as '?'.
std::string showASCII(StringRef S) {
  std::string Out;
  for (size_t I = 0; I < S.size(); ++I)
    if (uint8_t(S[I]) < 0x80)
      Out += S[I];
    else if ((uint8_t(S[I]) & 0xc0) != 0x80 || I == 0 ||
             uint8_t(S[I - 1]) < 0x80)
      Out += '?';
  return Out;
}
} // namespace

SMDiagnostic makePrintable(const SMDiagnostic &D) {
  StringRef Line = D.getLineContents();
  auto IsASCII = [](StringRef S) {
    return llvm::all_of(S, [](char C) { return uint8_t(C) < 0x80; });
  };
  if (!D.getSourceMgr() || (IsASCII(Line) && IsASCII(D.getMessage())))
    return D;
  std::string Msg = showASCII(D.getMessage()), Shown = showASCII(Line);
  // The column counts characters: a UTF-8 sequence is one.
  int Col = D.getColumnNo();
  int ShownCol =
      Col < 0 ? Col : int(showASCII(Line.take_front(size_t(Col))).size());
  return SMDiagnostic(*D.getSourceMgr(), D.getLoc(), D.getFilename(),
                      D.getLineNo(), ShownCol, D.getKind(), Msg, Shown,
                      /*Ranges=*/{});
}

Error makeSourceError(const SourceMgr &SM, SMLoc Loc, const Twine &Msg) {
  return make_error<SourceError>(
      makePrintable(SM.GetMessage(Loc, SourceMgr::DK_Error, Msg)));
}

Error makeError(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Msg);
}

bool reportError(Error E, StringRef Tool) {
  if (!E)
    return false;
  handleAllErrors(
      std::move(E),
      [&](const SourceError &SE) {
        SE.getDiagnostic().print(/*ProgName=*/nullptr, errs());
      },
      [&](const ErrorInfoBase &EI) {
        WithColor::error(errs(), Tool) << EI.message() << "\n";
      });
  return true;
}

} // namespace tp
