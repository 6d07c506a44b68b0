//===- Commands.h - tp-mc's commands ----------------------------*- C++ -*-===//
///
/// \file
/// tp-mc's main() parses the options and calls one of these.  Each returns
/// the process exit code (0 success, 1 error) and reports its own errors.
///
//===----------------------------------------------------------------------===//
#ifndef TP_TOOLS_TPMC_COMMANDS_H
#define TP_TOOLS_TPMC_COMMANDS_H

#include "tp/Target/SASS/SASS.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include <memory>
#include <string>

namespace tp {
namespace mc {

enum class FileType { Asm, Obj };

/// What --disassemble of a cubin writes (--format).
enum class OutputFormat {
  Auto,    ///< Sass when -o ends in ".sass", else Listing (the default)
  Listing, ///< `/*addr*/ instruction` lines per .text section
  Sass,    ///< the whole cubin as .sass text (docs/sass-format.md)
};

struct Options {
  std::string Input = "-";   ///< input path, "-" for stdin
  std::string Output = "-";  ///< output path, "-" for stdout
  std::string CPU = "sm_86"; ///< target
  bool CPUGiven = false;     ///< -mcpu was on the command line
  FileType Filetype = FileType::Asm;
  OutputFormat Format = OutputFormat::Auto;
  bool ShowEncoding = false; ///< append "// encoding: 0x..." to each line
  bool ShowControl = false;  ///< append the control fields, readable
  bool NoWarn = false;       ///< --no-warn: suppress warnings
  bool FatalWarnings = false; ///< --fatal-warnings: warnings are errors
};

/// tp-mc's warnings, printed as llvm-mc prints them: an error instead
/// with --fatal-warnings (the command must then exit 1 and write nothing),
/// nothing with --no-warn (as in llvm-mc, --no-warn wins).
class Warnings {
public:
  explicit Warnings(const Options &Opts) : Opts(Opts) {}
  /// `tp-mc: warning: <Msg>`.
  void warn(const llvm::Twine &Msg);
  /// `file:line:col: warning: <Msg>` with the source line and a caret at
  /// \p Loc, a location in a buffer of \p SM.
  void warn(const llvm::SourceMgr &SM, llvm::SMLoc Loc, const llvm::Twine &Msg);
  /// --assemble's warning about the instruction \p Insn (text inside a
  /// buffer of \p SM, guard included) of form \p Op if no oracle word
  /// reaches the form (sass::isOracleVerified is false): its bits are only
  /// inferred from sibling forms.  The caret is at the mnemonic.
  void checkUnverified(const llvm::SourceMgr &SM, llvm::StringRef Insn,
                       sass::Opcode Op);
  /// Whether a warning became an error (--fatal-warnings).
  bool hasErrors() const { return Errors != 0; }

private:
  const Options &Opts;
  unsigned Errors = 0;
};

/// The target -mcpu names; reports an error and returns false if none.
bool resolveTarget(const Options &Opts, sass::Target &T);

/// The target of cubin \p Bytes (file \p Name): the SM number in its ELF
/// e_flags (bits 8..15, SASS_FACTS 3.1), which wins over -mcpu.  An -mcpu
/// given on the command line that names another SM gets a warning naming
/// both (an error with --fatal-warnings, nothing with --no-warn).  Reports
/// an error and returns false for an SM no target of tp has, or when the
/// warning became an error.
bool resolveCubinTarget(const Options &Opts, llvm::StringRef Name,
                        llvm::ArrayRef<uint8_t> Bytes, sass::Target &T);

/// Reads the input file (Opts.Input, "-" for stdin); a UTF-8 byte order
/// mark at the start of a text file is dropped.  Reports an error and
/// returns null if the file cannot be read.
std::unique_ptr<llvm::MemoryBuffer> readInput(const Options &Opts,
                                              bool IsText);

/// The first line of \p Text that is not blank or a `//` or `#` comment,
/// trimmed; empty if none.
llvm::StringRef firstSignificantLine(llvm::StringRef Text);

/// If \p Bytes (the input file) is a fatbin (magic 0xBA55ED50, as nvcc
/// embeds and cuobjdump reads), reports that tp-mc reads the cubins inside
/// one, not the container, and returns true.
bool refuseFatbin(const Options &Opts, llvm::StringRef Bytes);

/// refuseFatbin(), and the same for a cubin (ELF magic): --assemble's
/// inputs are text.
bool refuseBinaryText(const Options &Opts, llvm::StringRef Bytes);

/// --assemble: SASS text in, text with encodings (asm) or a cubin (obj) out.
int runAssemble(const Options &Opts);
/// --disassemble: 32-hex-digit words or a cubin in, SASS text out.
int runDisassemble(const Options &Opts);
/// --dump-cubin: sections, symbols and decoded .nv.info of a cubin.
int runDumpCubin(const Options &Opts);
/// --disassemble of cubin \p Bytes into whole-cubin .sass text for target
/// \p T (CubinText.cpp).
int runDisassembleCubin(const Options &Opts, llvm::ArrayRef<uint8_t> Bytes,
                        sass::Target T);
/// --assemble -filetype=obj: whole-cubin .sass text in, cubin out.
int runAssembleCubin(const Options &Opts);

} // namespace mc
} // namespace tp

#endif
