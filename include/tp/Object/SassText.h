//===- SassText.h - Whole-cubin SASS text (.sass), print and parse -*- C++ -*-//
///
/// \file
/// The `.sass` text of a complete cubin (docs/sass-format.md).  Two forms:
///
///  * kernel form: `.target`, `.cuda_api`, `.tool_note`, then per kernel
///    `.kernel NAME` with `.param`, `.regs`, `.shared`, ... directives and
///    its instruction lines, `.end_kernel`.  Assembling it runs buildCubin
///    (Module.h), so EXIT offsets and the first block end are recomputed
///    from the code, never copied;
///  * raw form (`.raw_cubin`): every ELF header field, section and program
///    header spelled out, for cubins the kernel form cannot reproduce
///    (ET_REL, stack frames, anything buildCubin does not lay out
///    identically).
///
/// printSass picks the kernel form exactly when parsing it back gives the
/// same bytes, so print then parse is always the identity on bytes.
///
/// Instruction lines go through an InstructionCodec: "decode one word" for
/// printing, "encode one line" for parsing.  The raw-word codec here prints
/// `.inst 0x<32 hex digits>` (the 128-bit word, most significant digit
/// first); the ISA layer supplies one that prints and parses nvdisasm
/// syntax.  Labels (`.L_x_N:`) mark branch targets found by the
/// InstrClassifier; the codec receives them to print and resolve branches.
///
//===----------------------------------------------------------------------===//
#ifndef TP_OBJECT_SASSTEXT_H
#define TP_OBJECT_SASSTEXT_H

#include "tp/Object/CubinFile.h"
#include "tp/Object/Module.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"
#include <array>
#include <map>
#include <string>

namespace tp {
namespace object {

/// Instruction text <-> one 128-bit word.
class InstructionCodec {
public:
  virtual ~InstructionCodec();
  /// The text of \p Word (16 bytes) at byte offset \p Pc, without address
  /// or label; \p Labels names the branch targets of the kernel.
  virtual llvm::Expected<std::string>
  decode(llvm::ArrayRef<uint8_t> Word, uint64_t Pc,
         const std::map<uint64_t, std::string> &Labels) const = 0;
  /// Encodes one instruction line's text at \p Pc into \p Word; label
  /// operands resolve through \p Labels.  \p Text lies in the parsed
  /// buffer: a SourceError (located in it) is passed on as it is; other
  /// errors get the line's location from the parser.
  virtual llvm::Error encode(llvm::StringRef Text, uint64_t Pc,
                             const llvm::StringMap<uint64_t> &Labels,
                             std::array<uint8_t, 16> &Word) const = 0;
};

/// `.inst 0x<32 hex digits>`, needing no instruction tables.
const InstructionCodec &getRawWordCodec();

struct SassOptions {
  const InstructionCodec *Codec = nullptr;     ///< default: raw words
  /// Default: the opcode classifier of the cubin's (printing) or the
  /// `.target`'s (parsing) target.
  const InstrClassifier *Classifier = nullptr;
  bool ForceRaw = false;                       ///< always the raw form
};

/// Prints \p F as .sass text.
llvm::Error printSass(const CubinFile &F, llvm::raw_ostream &OS,
                      const SassOptions &Opts = {});

/// Parses .sass text from buffer \p BufferID of \p SM; errors are
/// SourceErrors with line and column.
llvm::Expected<CubinFile> parseSass(llvm::SourceMgr &SM, unsigned BufferID,
                                    const SassOptions &Opts = {});

/// Convenience: parses \p Text named \p Name.
llvm::Expected<CubinFile> parseSassString(llvm::StringRef Text,
                                          llvm::StringRef Name = "<sass>",
                                          const SassOptions &Opts = {});

/// For tp-mc --disassemble X.cubin -o X.sass: reads the cubin \p Bytes and
/// prints the whole cubin as .sass text (not tp-mc's per-section listing).
llvm::Error disassembleCubinToSass(llvm::ArrayRef<uint8_t> Bytes,
                                   llvm::raw_ostream &OS,
                                   const SassOptions &Opts = {});

/// For tp-mc --assemble -filetype=obj: parses .sass buffer \p BufferID of
/// \p SM and returns the cubin's bytes.
llvm::Expected<std::vector<uint8_t>>
assembleCubin(llvm::SourceMgr &SM, unsigned BufferID,
              const SassOptions &Opts = {});

/// True when the kernel form reproduces \p F byte for byte.
bool kernelFormReproduces(const CubinFile &F, const InstrClassifier &C);

} // namespace object
} // namespace tp

#endif // TP_OBJECT_SASSTEXT_H
