//===- Decoder.cpp - 128-bit word -> Instruction ---------------------------===//
///
/// \file
/// Dispatch on the 12-bit opcode [0:11], then on up to 8 key bits (both
/// generated: tp-tblgen picks the bits that split the opcode's forms best,
/// a form that leaves a key bit free is listed under both of its values;
/// or a hash of the bits most forms fix, where bits do not suffice),
/// to a list of at most a handful of candidate forms (most specific fixed
/// mask first); the first form whose fixed bits match and whose modifier
/// fields all hold spelled values wins -- the same form as a search over
/// all of the opcode's forms in that order.  A candidate's operands are
/// decoded by a generated straight-line function of its fields on the
/// target (OperandDecodersOf, tp-tblgen -gen-sass-decoder): constant
/// shifts and masks, no loop over field tables.
/// Every bit below 105 other than the don't-care bit 101 is either fixed or
/// an operand bit in every form (tp-tblgen checks it), so a matched word
/// re-encodes to itself: the decoder never returns a wrong instruction.
///
//===----------------------------------------------------------------------===//

#include "SASSTables.h"
#include "tp/Support/Diagnostics.h"


using namespace llvm;

namespace tp {
namespace sass {
using namespace detail;

namespace {
/// Decodes a form's operands from a word whose fixed bits matched (bits
/// 0-63, 64-127); false when a modifier holds an unspelled value.
using OperandDecoder = bool (*)(uint64_t Lo, uint64_t Hi, Instruction &Out);

/// Whether value \p V of modifier table \p Table has a spelling
/// (hasSpelling() by the table's index).
inline bool isSpelled(unsigned Table, int64_t V) {
  const ModTableRef &R = ModTables[Table];
  if (V >= 0 && V < 64)
    return (R.Valid >> V) & 1;
  for (unsigned I = R.Begin, E = R.Begin + R.Count; I != E; ++I)
    if (ModEntries[I].Value == V)
      return true;
  return false;
}

// OperandDecodersOf[target][form]: generated from the forms' fields, one
// straight-line function per distinct layout (no loop over field tables).
#define GET_SASS_OPERAND_DECODERS
#include "tp/Target/SASS/SASSGenDecoder.inc"
} // namespace

bool decode(Word128 W, Instruction &Out, Target T) {
  const DecodeTables &D = DecodeTablesOf[unsigned(T)];
  unsigned Opc = unsigned(W.Lo & 0xfff);
  unsigned B = D.BucketOf[Opc];
  if (!B)
    return false;
  const DecodeBucket &Bk = D.Buckets[B];
  unsigned Key = 0;
  if (Bk.HashMul) {
    // Must equal hashedKey() in utils/TableGen/DecoderEmitter.cpp.
    uint64_t X = (W.Lo & Bk.HashMask[0]) ^
                 ((W.Hi & Bk.HashMask[1]) * 0x9e3779b97f4a7c15ULL);
    Key = unsigned((X * Bk.HashMul) >> (64 - Bk.NumKeyBits));
  } else {
    for (unsigned J = 0; J < Bk.NumKeyBits; ++J)
      Key |= unsigned(W.getBit(Bk.KeyBits[J])) << J;
  }
  unsigned Slot = Bk.SubBase + Key;
  unsigned I = D.SubBegin[Slot], E = D.SubBegin[Slot + 1];
  if (I == E)
    return false;
  const OperandDecoder *Decoders = OperandDecodersOf[unsigned(T)];
  const FormEncoding *Encs = &formEncoding(0, T);
  for (; I != E; ++I) {
    unsigned F = D.List[I];
    const FormEncoding &FE = Encs[F];
    if (((W.Lo & FE.Mask.Lo) ^ FE.Value.Lo) |
        ((W.Hi & FE.Mask.Hi) ^ FE.Value.Hi))
      continue;
    if (!Decoders[F](W.Lo, W.Hi, Out))
      continue;
    Out.Op = Opcode(F);
    Out.Guard = uint8_t(extractSpecial(W, SF_Guard));
    Out.GuardNeg = extractSpecial(W, SF_GuardNeg) != 0;
    Out.Ctrl = controlOf(W);
    return true;
  }
  return false;
}

Expected<Instruction> decodeOrError(Word128 W, uint64_t Addr, Target T) {
  Instruction I;
  if (decode(W, I, T))
    return I;
  std::string S;
  raw_string_ostream OS(S);
  OS << "unknown " << (T == Target::SM86 ? "" : getTargetName(T).str() + " ")
     << "instruction at address 0x" << format_hex_no_prefix(Addr, 4)
     << ": 0x" << format_hex_no_prefix(W.Hi, 16)
     << format_hex_no_prefix(W.Lo, 16);
  return makeError(OS.str());
}

} // namespace sass
} // namespace tp
