//===- Commands.h - tp-mc's commands ----------------------------*- C++ -*-===//
///
/// \file
/// tp-mc's main() parses the options and calls one of these.  Each returns
/// the process exit code (0 success, 1 error) and reports its own errors.
///
//===----------------------------------------------------------------------===//
#ifndef TP_TOOLS_TPMC_COMMANDS_H
#define TP_TOOLS_TPMC_COMMANDS_H

#include "tp/Target/SM86/SM86.h"
#include "llvm/ADT/StringRef.h"
#include <string>

namespace tp {
namespace mc {

enum class FileType { Asm, Obj };

struct Options {
  std::string Input = "-";   ///< input path, "-" for stdin
  std::string Output = "-";  ///< output path, "-" for stdout
  std::string CPU = "sm_86"; ///< target
  FileType Filetype = FileType::Asm;
  bool ShowEncoding = false; ///< append "// encoding: 0x..." to each line
  bool ShowControl = false;  ///< append the control fields, readable
};

/// The target -mcpu names; reports an error and returns false if none.
bool resolveTarget(const Options &Opts, sm86::Target &T);

/// --assemble: SASS text in, text with encodings (asm) or a cubin (obj) out.
int runAssemble(const Options &Opts);
/// --disassemble: 32-hex-digit words or a cubin in, SASS text out.
int runDisassemble(const Options &Opts);
/// --dump-cubin: sections, symbols and decoded .nv.info of a cubin.
int runDumpCubin(const Options &Opts);
/// --disassemble of a cubin into whole-cubin .sass text (CubinText.cpp).
int runDisassembleCubin(const Options &Opts);
/// --assemble -filetype=obj: whole-cubin .sass text in, cubin out.
int runAssembleCubin(const Options &Opts);

} // namespace mc
} // namespace tp

#endif
