//===- Diagnostics.cpp - Located errors over llvm::SourceMgr --------------===//

#include "tp/Support/Diagnostics.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
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

// makePrintable (Diagnostics.h) also shows each control character but tab
// and CR as '?' in the source line and as `\xNN` in the message: a NUL or
// an escape sequence from the input is never written raw to the terminal.
namespace {
/// Whether \p C prints as itself: printable ASCII, a tab, or the carriage
/// return that ends a CRLF line.
bool isShown(char C) {
  return (uint8_t(C) >= 0x20 && uint8_t(C) < 0x7f) || C == '\t' ||
         C == '\r';
}

/// \p S with each non-ASCII character (UTF-8 sequence or stray byte) as
/// '?' and each control character as '?' (\p Escape false: a source line,
/// one column each) or as `\xNN` (\p Escape: a message).
std::string showASCII(StringRef S, bool Escape) {
  std::string Out;
  for (size_t I = 0; I < S.size(); ++I) {
    uint8_t C = uint8_t(S[I]);
    if (isShown(S[I]))
      Out += S[I];
    else if (C < 0x80)
      Out += Escape ? std::string{'\\', 'x', hexdigit(C >> 4, true),
                                  hexdigit(C & 15, true)}
                    : std::string("?");
    else if ((C & 0xc0) != 0x80 || I == 0 || uint8_t(S[I - 1]) < 0x80)
      Out += '?';
  }
  return Out;
}
} // namespace

SMDiagnostic makePrintable(const SMDiagnostic &D) {
  StringRef Line = D.getLineContents();
  auto Shown = [](StringRef S) { return llvm::all_of(S, isShown); };
  if (!D.getSourceMgr() || (Shown(Line) && Shown(D.getMessage())))
    return D;
  std::string Msg = showASCII(D.getMessage(), /*Escape=*/true),
              Text = showASCII(Line, /*Escape=*/false);
  // The column counts characters: a UTF-8 sequence is one.
  int Col = D.getColumnNo();
  int ShownCol = Col < 0 ? Col
                         : int(showASCII(Line.take_front(size_t(Col)),
                                         /*Escape=*/false)
                                   .size());
  return SMDiagnostic(*D.getSourceMgr(), D.getLoc(), D.getFilename(),
                      D.getLineNo(), ShownCol, D.getKind(), Msg, Text,
                      /*Ranges=*/{});
}

/// The name of the buffer a tool generates from its options (tp-llc's tile
/// IR of --gemm and the rest; the C API's): not text the user wrote, so an
/// error in it has no location to show, only the message.
static constexpr StringLiteral GeneratedBufferName = "<command line>";

Error makeSourceError(const SourceMgr &SM, SMLoc Loc, const Twine &Msg) {
  if (unsigned ID = Loc.isValid() ? SM.FindBufferContainingLoc(Loc) : 0)
    if (SM.getMemoryBuffer(ID)->getBufferIdentifier() == GeneratedBufferName)
      return makeError(Msg + " (in the kernel the command-line options "
                             "describe)");
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
