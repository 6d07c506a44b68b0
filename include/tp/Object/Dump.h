//===- Dump.h - Human-readable cubin dump -----------------------*- C++ -*-===//
///
/// \file
/// The text of `tp-mc --dump-cubin`: the ELF header, the section table, the
/// program headers, the symbols (like `readelf -h -S -l -s`), then every
/// .nv.info section decoded record by record with attribute names, the
/// two notes, and a per-kernel summary when the cubin is an interpretable
/// executable.  Numbers are hex with 0x except counts; 32-bit fields that
/// pack several values (e_flags, .text sh_info, .nv.info words) are printed
/// with 8 digits.  docs/dump-cubin.md describes every line.
///
//===----------------------------------------------------------------------===//
#ifndef TP_OBJECT_DUMP_H
#define TP_OBJECT_DUMP_H

#include "tp/Object/CubinFile.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

namespace tp {
namespace object {

/// Prints \p F.  Fails only on a malformed .nv.info or note (what was
/// printed before the failure stays printed).
llvm::Error dumpCubin(const CubinFile &F, llvm::raw_ostream &OS);

} // namespace object
} // namespace tp

#endif // TP_OBJECT_DUMP_H
