//===- Diagnostics.cpp - Located errors over llvm::SourceMgr --------------===//

#include "tp/Support/Diagnostics.h"
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

Error makeSourceError(const SourceMgr &SM, SMLoc Loc, const Twine &Msg) {
  return make_error<SourceError>(SM.GetMessage(Loc, SourceMgr::DK_Error, Msg));
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
