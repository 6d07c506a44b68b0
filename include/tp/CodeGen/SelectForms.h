//===- SelectForms.h - The instruction forms tp-select emits ----*- C++ -*-===//
///
/// \file
/// The forms tp-select builds instructions from, as a table: each entry
/// names its td form (its generated enumerator, no lookup by name) and gives every operand's raw
/// field value -- modifiers fixed, registers and immediates placeholders
/// the selector overwrites by operand name -- and the nvdisasm spelling
/// the entry stands for.  No text is parsed to build an instruction; a unit
/// test (unittests/CodeGen/SelectFormsTest.cpp) checks that every entry
/// prints as its spelling, verifies, and is an oracle-verified form.
///
//===----------------------------------------------------------------------===//
#ifndef TP_CODEGEN_SELECTFORMS_H
#define TP_CODEGEN_SELECTFORMS_H

#include "tp/Target/SASS/SASS.h"

#include "llvm/ADT/StringRef.h"

#include "llvm/Support/Compiler.h"

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>

namespace tp {
namespace isel {

enum class Form {
  S2RTid, S2RCtaidX, S2RCtaidY, Mov, IAdd3Imm, IAdd3, LopAndImm, LopXor,
  LopXorImm, ShrImm, ShlImm, IMadImm, IMad, Lea, WideParam, Ldgsts, LdgDepbar,
  Depbar, Bar, LdsmM88, LdsmMT88, Hmma, ZeroPair, Stg64, Ldg32, FAdd, Exit,
  Bra, UldcDesc,
  // Types and epilogue (lib/CodeGen/SelectEpilogue.cpp).
  HmmaBF16, PackF16, PackBF16, Stg32, FSetpNeBeta, FMulConst, FFmaConst,
  FMaxZero, UnpackF16Lo, UnpackF16Hi, LopHighHalf,
  // Run-time shapes.
  MovConst, ISetp, ISetpImm, Sel, SelImm, LdgstsP, S2RCtaidZ,
  // Both: a packed f16/bf16 pair's first element alone at the edge of N.
  Ldg16, Stg16,
  // Blackwell (sm_100, sm_120, sm_121): the forms it has in place of
  // ULDC.64 and sm_80..sm_90's LDGSTS (td/SM100/SM100Instrs.td).
  LdcuDesc, LdgstsBw, LdgstsPBw, Count
};

struct FormTemplate {
  sass::Opcode Op;       ///< the form (its generated enumerator)
  const char *FormName;  ///< td def name (SelectFormsTest checks Op's)
  const char *Spelling;  ///< what the prototype prints as
  unsigned NumOps;
  int64_t Ops[sass::MaxOperands];
};

/// The table entry of \p F.
const FormTemplate &getFormTemplate(Form F);

namespace detail {
/// The prototypes by form, built from the table at compile time.
extern const std::array<sass::Instruction, size_t(Form::Count)> Prototypes;
} // namespace detail

/// \p F's prototype instruction.  Inline: the selector builds one an
/// instruction.
inline const sass::Instruction &getPrototype(Form F) {
  return detail::Prototypes[size_t(F)];
}

/// IMAD.SHL.U32 by 2^Shift (one form a shift), Shift 1..31.
/// Whether a shift left by \p Shift has its IMAD.SHL.U32 alias: 1..30 but
/// 16 (NVIDIA's disassembler prints IMAD.U32 by 0x10000 and by 0x80000000,
/// so those are plain IMADs).
bool hasShlAlias(unsigned Shift);
sass::Opcode getShlOpcode(unsigned Shift);

/// The operands the selector sets, by td operand name.
enum class Slot : uint8_t {
  Rd,   ///< "Rd"
  Ra,   ///< "Ra" (also a memory base)
  Rb,   ///< "Rb"
  Rc,   ///< "Rc"
  Imm,  ///< "Imm"
  Sh,   ///< "sh" (LEA's shift)
  COff, ///< "Off" (constant-bank byte offset)
  MOff, ///< "off" (memory offset)
  Rs,   ///< "Rs" (LDGSTS's shared base)
  SOff, ///< "soff" (LDGSTS's shared offset)
  Cnt,  ///< "cnt" (DEPBAR's count)
  NegA, ///< "na" (IADD3's negated first source)
  NegB, ///< "nb" (IADD3's negated second source)
  Pd,   ///< "Pu" (ISETP's predicate result)
  Pp,   ///< "Pp" (a predicate source: ISETP's AND, SEL's, LDGSTS's)
  PpNeg,///< "Ppn" (that source negated)
  CmpOp,///< "cmp" (ISETP's comparison: LT 1, EQ 2, GT 4)
  Sgn,  ///< "u" (ISETP: 1 signed, 0 .U32)
  ZFill,///< "zf" (LDGSTS .ZFILL)
  Count
};

namespace detail {
/// The forms the selector builds (the templates' and every IMAD.SHL.U32
/// shift's), each a row of SlotTable: FormRows[Op] is Op's row, 0 for a
/// form with none (row 0 stays empty: such a form's operands are looked
/// up by name every time).  Computed at compile time (read-only data).
extern const std::array<uint8_t, sass::NUM_OPCODES> FormRows;
/// Per row and slot (index Row * Slot::Count + S), one more than the
/// operand's index in the form, 0 until it is looked up (by td operand
/// name, on first use; kept for the process).  Static storage, zero from
/// the start, about 1.4 KB (a row an opcode took 19 KB, five pages the
/// selector faulted in twice each: read, then written); entries are
/// atomic: threads selecting at once fill in the same values.
extern std::atomic<int8_t> SlotTable[];
/// Looks up (and, for a form with a row, records) slot \p S of form
/// \p Op: its operand index; a fatal error when the form has none (a
/// selector bug).
int8_t lookUpSlot(sass::Opcode Op, Slot S);
} // namespace detail

/// Operand \p S of \p I's form; a fatal error when the form has none (a
/// selector bug).  Inline: the selector sets a few thousand operands a
/// kernel.
LLVM_ATTRIBUTE_ALWAYS_INLINE int64_t &operand(sass::Instruction &I, Slot S) {
  size_t Row = detail::FormRows[size_t(I.Op)];
  int8_t E = detail::SlotTable[Row * size_t(Slot::Count) + size_t(S)].load(
      std::memory_order_relaxed);
  size_t K = LLVM_LIKELY(E > 0) ? size_t(E - 1)
                                : size_t(detail::lookUpSlot(I.Op, S));
  return I.Ops[K];
}

} // namespace isel
} // namespace tp

#endif // TP_CODEGEN_SELECTFORMS_H
