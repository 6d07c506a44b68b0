//===- Diagnostics.h - Located errors over llvm::SourceMgr ------*- C++ -*-===//
///
/// \file
/// Library code never prints: it returns an llvm::Error.  An error about a
/// place in a source buffer is a SourceError, which carries an
/// llvm::SMDiagnostic; a tool prints it as LLVM does,
///
///   file:line:col: error: message
///   <the source line>
///       ^
///
/// with reportError(), and decides the exit code itself.
///
//===----------------------------------------------------------------------===//
#ifndef TP_SUPPORT_DIAGNOSTICS_H
#define TP_SUPPORT_DIAGNOSTICS_H

#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/SMLoc.h"
#include "llvm/Support/SourceMgr.h"

namespace tp {

/// An error located in a source buffer (an SMDiagnostic, already rendered
/// with its line and caret by the SourceMgr that owns the buffer).
class SourceError : public llvm::ErrorInfo<SourceError> {
public:
  static char ID;
  explicit SourceError(llvm::SMDiagnostic Diag) : Diag(std::move(Diag)) {}

  const llvm::SMDiagnostic &getDiagnostic() const { return Diag; }
  void log(llvm::raw_ostream &OS) const override;
  std::error_code convertToErrorCode() const override;

private:
  llvm::SMDiagnostic Diag;
};

/// \p D with a source line of ASCII only: each non-ASCII character (a
/// UTF-8 sequence or a stray byte) shown as '?' and the column counted in
/// characters, so that the caret line lines up (SMDiagnostic::print leaves
/// the caret out under any other line, and would print the raw bytes).
llvm::SMDiagnostic makePrintable(const llvm::SMDiagnostic &D);

/// An error at \p Loc in a buffer of \p SM (kind error), made printable.
llvm::Error makeSourceError(const llvm::SourceMgr &SM, llvm::SMLoc Loc,
                            const llvm::Twine &Msg);

/// An error with no location (for example about a whole file), rendered as
/// "<where>: error: <msg>" by reportError.
llvm::Error makeError(const llvm::Twine &Msg);

/// Prints every error in \p E to stderr: SourceErrors with line and caret,
/// others as "<Tool>: error: <message>".  Returns true when there was one.
bool reportError(llvm::Error E, llvm::StringRef Tool);

} // namespace tp

#endif // TP_SUPPORT_DIAGNOSTICS_H
