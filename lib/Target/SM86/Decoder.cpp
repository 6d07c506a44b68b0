//===- Decoder.cpp - 128-bit word -> Instruction ---------------------------===//
///
/// \file
/// Dispatch on the 12-bit opcode [0:11], then on up to 6 key bits that all
/// forms of that opcode fix (both generated), to a short list of candidate
/// forms (most specific fixed mask first); the first form whose fixed bits
/// match and whose modifier fields all hold spelled values wins.
/// Every bit below 105 other than the don't-care bit 101 is either fixed or
/// an operand bit in every form (tp-tblgen checks it), so a matched word
/// re-encodes to itself: the decoder never returns a wrong instruction.
///
//===----------------------------------------------------------------------===//

#include "SM86Tables.h"
#include "tp/Support/Diagnostics.h"
#include "llvm/Support/Format.h"

using namespace llvm;

namespace tp {
namespace sm86 {
using namespace detail;

static bool tryForm(unsigned F, const Word128 &W, Instruction &Out) {
  const InstrInfo &II = InstrInfos[F];
  if ((W.Lo & II.FixedMask.Lo) != II.FixedValue.Lo ||
      (W.Hi & II.FixedMask.Hi) != II.FixedValue.Hi)
    return false;
  unsigned Base = unsigned(II.Operands - OperandInfos);
  for (unsigned K = 0; K < II.NumOperands; ++K) {
    const OperandInfo &OI = II.Operands[K];
    uint64_t V = extractField(W, OperandFields[Base + K]);
    int64_t S = int64_t(V);
    if (OI.Signed && OI.Bits < 64 && ((V >> (OI.Bits - 1)) & 1))
      S = int64_t(V | (~uint64_t(0) << OI.Bits));
    if ((OI.Kind == OperandKind::Modifier || OI.Kind == OperandKind::SReg) &&
        !hasSpelling(OI, S))
      return false;
    Out.Ops[K] = S;
  }
  Out.Op = Opcode(F);
  return true;
}

bool decode(Word128 W, Instruction &Out) {
  unsigned Opc = unsigned(W.Lo & 0xfff);
  unsigned B = DecodeBucketOf[Opc];
  if (!B)
    return false;
  const DecodeBucket &Bk = DecodeBuckets[B];
  unsigned Key = 0;
  for (unsigned J = 0; J < Bk.NumKeyBits; ++J)
    Key |= unsigned(W.getBit(Bk.KeyBits[J])) << J;
  unsigned Slot = Bk.SubBase + Key;
  for (unsigned I = DecodeSubBegin[Slot], E = DecodeSubBegin[Slot + 1]; I != E;
       ++I) {
    if (!tryForm(DecodeList[I], W, Out))
      continue;
    Out.Guard = uint8_t(extractSpecial(W, SF_Guard));
    Out.GuardNeg = extractSpecial(W, SF_GuardNeg) != 0;
    Out.Ctrl = controlOf(W);
    return true;
  }
  return false;
}

Expected<Instruction> decodeOrError(Word128 W, uint64_t Addr) {
  Instruction I;
  if (decode(W, I))
    return I;
  std::string S;
  raw_string_ostream OS(S);
  OS << "unknown instruction at address 0x" << format_hex_no_prefix(Addr, 4)
     << ": 0x" << format_hex_no_prefix(W.Hi, 16)
     << format_hex_no_prefix(W.Lo, 16);
  return makeError(OS.str());
}

} // namespace sm86
} // namespace tp
