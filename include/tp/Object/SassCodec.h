//===- SassCodec.h - The SASS instruction set as .sass instruction lines -*- C++ -*-===//
///
/// \file
/// The glue between the instruction-set layer (tp/Target/SASS/SASS.h) and
/// the whole-cubin `.sass` text (tp/Object/SassText.h): an
/// InstructionCodec that prints and parses nvdisasm syntax with the control
/// clause and branch labels, and the target of a cubin or of `.sass` text.
/// tp-mc uses it for `--disassemble X.cubin -o X.sass` and `--assemble
/// -filetype=obj`; any tool that prints or reads `.sass` can.
///
/// Guarantees: SassCodec::decode() returns instruction text only when that
/// text encodes back to the same 128 bits (else `.inst 0x<32 hex digits>`,
/// reported through OnRawWord), so printSass then parseSass is the
/// identity on bytes; encode() range-checks every value (sass::parse and
/// sass::verify), and its errors are SourceErrors at the right column of
/// the `.sass` buffer when the text lies in one (setSourceMgr).
///
//===----------------------------------------------------------------------===//
#ifndef TP_OBJECT_SASSCODEC_H
#define TP_OBJECT_SASSCODEC_H

#include "tp/Object/SassText.h"
#include "tp/Target/SASS/SASS.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <functional>
#include <string>

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace tp {
namespace object {

/// Instruction lines in nvdisasm syntax for target T:
///   decode: `IMAD.MOV.U32 R1, RZ, RZ, c[0x0][0x28] {stall=1}`, a branch
///           target as its label (`@P1 BRA .L_x_0`), `.reuse` on operands
///           and the other control fields in the clause (sass::printControl);
///   encode: the same text, or `.inst 0x<32 hex digits>`; labels resolve
///           through the kernel's label table.
class SassCodec : public InstructionCodec {
public:
  /// The target whose encodings the words use (sm_90: td/Targets.td).
  explicit SassCodec(sass::Target T = sass::Target::SM86) : Tgt(T) {}
  sass::Target getTarget() const { return Tgt; }

  llvm::Expected<std::string>
  decode(llvm::ArrayRef<uint8_t> Word, uint64_t Pc,
         const std::map<uint64_t, std::string> &Labels) const override;
  llvm::Error encode(llvm::StringRef Text, uint64_t Pc,
                     const llvm::StringMap<uint64_t> &Labels,
                     std::array<uint8_t, 16> &Word) const override;

  /// The SourceMgr whose buffers hold the text encode() receives (the
  /// `.sass` file): errors become SourceErrors there, one diagnostic at
  /// the column of what is wrong.  Null (the default): text is parsed from
  /// a copy and errors carry the message only.
  void setSourceMgr(const llvm::SourceMgr *SM) { this->SM = SM; }

  /// Called for each word decode() prints as `.inst`, with the reason
  /// ("unknown instruction at address 0x0010: 0x...; printed as .inst").
  std::function<void(const std::string &Why)> OnRawWord;
  /// Called for each instruction encode() assembles (not `.inst`): its
  /// text and form, e.g. to warn about forms no oracle word confirms.
  std::function<void(llvm::StringRef Text, sass::Opcode Op)> OnInstruction;

private:
  sass::Target Tgt;
  const llvm::SourceMgr *SM = nullptr;

  /// encode() without the OnInstruction hook; the form in \p Op.
  llvm::Error encodeLine(llvm::StringRef Text, uint64_t Pc,
                         const llvm::StringMap<uint64_t> &Labels,
                         std::array<uint8_t, 16> &Word, sass::Opcode &Op) const;
  void rawWord(const std::string &Why) const;
};

/// Options for printSass/parseSass of target \p T's code: a SassCodec of
/// \p T without hooks (shared) and \p T's opcode classifier.
SassOptions getSassOptions(sass::Target T);

/// The SM number in the ELF e_flags of cubin \p Bytes (bits 8..15,
/// SASS_FACTS 3.1); 0 if \p Bytes is shorter than an ELF64 header.
unsigned getCubinSM(llvm::ArrayRef<uint8_t> Bytes);
/// The target whose tables decode cubin \p Bytes (its getCubinSM): sm_80
/// and sm_86 -> SM86, sm_90 -> SM90; an error naming the SM otherwise (or
/// saying that \p Bytes is shorter than an ELF64 header).
llvm::Expected<sass::Target> getCubinTarget(llvm::ArrayRef<uint8_t> Bytes);
/// The target of `.sass` text: its `.target sm_NN` line, or the SM in the
/// raw form's `.elf_header ... flags=0x...`; SM86 if neither names one tp
/// has.
sass::Target getSassTextTarget(llvm::StringRef Text);

} // namespace object
} // namespace tp

#endif // TP_OBJECT_SASSCODEC_H
