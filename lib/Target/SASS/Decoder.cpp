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
/// all of the opcode's forms in that order.
/// Every bit below 105 other than the don't-care bit 101 is either fixed or
/// an operand bit in every form (tp-tblgen checks it), so a matched word
/// re-encodes to itself: the decoder never returns a wrong instruction.
///
//===----------------------------------------------------------------------===//

#include "SASSTables.h"
#include "tp/Support/Diagnostics.h"
#include "llvm/Support/Format.h"

#include <mutex>
#include <vector>

using namespace llvm;

namespace tp {
namespace sass {
using namespace detail;

static bool tryForm(unsigned F, const Word128 &W, Instruction &Out,
                    Target T) {
  const FormEncoding &FE = formEncoding(F, T);
  if ((W.Lo & FE.Mask.Lo) != FE.Value.Lo || (W.Hi & FE.Mask.Hi) != FE.Value.Hi)
    return false;
  const InstrInfo &II = InstrInfos[F];
  const FieldRef *Fields = &OperandFields[FE.FieldBase];
  // The target's own fields may be wider than the form's (sm_90).
  bool OwnFields = FE.FieldBase == operandBase(Opcode(F));
  unsigned __int128 Bits128 = ((unsigned __int128)W.Hi << 64) | W.Lo;
  for (unsigned K = 0, E = II.NumOperands; K < E; ++K) {
    const OperandInfo &OI = II.Operands[K];
    const FieldRef &FR = Fields[K];
    uint64_t V = 0;
    for (const FieldSeg *S = &Segs[FR.Begin], *SE = S + FR.Count; S != SE;
         ++S) {
      uint64_t Part = uint64_t(Bits128 >> S->InstBit);
      if (S->Width < 64)
        Part &= (uint64_t(1) << S->Width) - 1;
      V |= Part << S->FieldBit;
    }
    V ^= FR.Xor;
    if (FR.WideUR) { // Blackwell: URZ is 0xff; UR63 and up are not modelled
      if (V != 0xff && V >= URZ)
        return false;
      V = V == 0xff ? URZ : V;
    }
    int64_t Val = int64_t(V);
    if (OI.Signed) {
      unsigned Bits = OwnFields ? OI.Bits : fieldBits(FR);
      if (Bits < 64 && ((V >> (Bits - 1)) & 1))
        Val = int64_t(V | (~uint64_t(0) << Bits));
    }
    if ((OI.Kind == OperandKind::Modifier || OI.Kind == OperandKind::SReg) &&
        !hasSpelling(OI, Val))
      return false;
    Out.Ops[K] = Val;
  }
  Out.Op = Opcode(F);
  return true;
}

namespace {
/// One operand as the fast path extracts it: a single field segment with
/// no shift inside the field, flattened from OperandInfo / OperandFields.
struct FastOperand {
  uint8_t InstBit, Width;
  uint8_t SignBits; ///< sign-extend from this many bits (0: unsigned)
  uint8_t Xor;
  bool CheckSpelling; ///< a Modifier / SReg: its value must be spelled
  uint16_t ModTable;
};
/// A form's operands in FastOperands, or Simple = false (some field has
/// several segments: tryForm's general loop).
struct FastForm {
  uint32_t First = 0;
  bool Simple = false;
};
struct FastTables {
  std::vector<FastOperand> Ops;
  std::vector<FastForm> Forms;
};

FastTables buildFastTables(Target T) {
  FastTables FT;
  FT.Forms.resize(NUM_OPCODES);
  for (unsigned F = 0; F < NUM_OPCODES; ++F) {
    const InstrInfo &II = InstrInfos[F];
    const FormEncoding &FE = formEncoding(F, T);
    const FieldRef *Fields = &OperandFields[FE.FieldBase];
    bool OwnFields = FE.FieldBase == operandBase(Opcode(F));
    FastForm &FF = FT.Forms[F];
    FF.First = uint32_t(FT.Ops.size());
    FF.Simple = true;
    for (unsigned K = 0; K < II.NumOperands && FF.Simple; ++K) {
      const OperandInfo &OI = II.Operands[K];
      const FieldRef &FR = Fields[K];
      if (FR.Count != 1 || Segs[FR.Begin].FieldBit != 0 || FR.WideUR) {
        FF.Simple = false;
        break;
      }
      const FieldSeg &S = Segs[FR.Begin];
      FastOperand O;
      O.InstBit = S.InstBit;
      O.Width = S.Width;
      unsigned Bits = OwnFields ? OI.Bits : fieldBits(FR);
      O.SignBits = OI.Signed && Bits < 64 ? uint8_t(Bits) : 0;
      O.Xor = FR.Xor;
      O.CheckSpelling = OI.Kind == OperandKind::Modifier ||
                        OI.Kind == OperandKind::SReg;
      O.ModTable = OI.ModTable;
      FT.Ops.push_back(O);
    }
    if (!FF.Simple)
      FT.Ops.resize(FF.First);
  }
  return FT;
}

const FastTables &fastTables(Target T) {
  static std::vector<FastTables> Tables(getNumTargets());
  static std::vector<std::once_flag> Built(getNumTargets());
  std::call_once(Built[unsigned(T)],
                 [T] { Tables[unsigned(T)] = buildFastTables(T); });
  return Tables[unsigned(T)];
}

/// tryForm for a form whose operands are all single segments: the same
/// values, from one flat record per operand.
bool tryFastForm(unsigned F, const FastForm &FF, const FastOperand *Ops,
                 const Word128 &W, Instruction &Out) {
  const InstrInfo &II = InstrInfos[F];
  unsigned __int128 Bits128 = ((unsigned __int128)W.Hi << 64) | W.Lo;
  const FastOperand *O = Ops + FF.First;
  for (unsigned K = 0, E = II.NumOperands; K < E; ++K, ++O) {
    uint64_t V = uint64_t(Bits128 >> O->InstBit);
    if (O->Width < 64)
      V &= (uint64_t(1) << O->Width) - 1;
    V ^= O->Xor;
    if (O->SignBits && ((V >> (O->SignBits - 1)) & 1))
      V |= ~uint64_t(0) << O->SignBits;
    int64_t Val = int64_t(V);
    if (O->CheckSpelling &&
        !(Val >= 0 && Val < 64 ? (ModTables[O->ModTable].Valid >> Val) & 1
                               : modifierName(II.Operands[K], Val) != nullptr))
      return false;
    Out.Ops[K] = Val;
  }
  Out.Op = Opcode(F);
  return true;
}
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
  const FastTables &FT = fastTables(T);
  for (unsigned I = D.SubBegin[Slot], E = D.SubBegin[Slot + 1]; I != E; ++I) {
    unsigned F = D.List[I];
    const FormEncoding &FE = formEncoding(F, T);
    if ((W.Lo & FE.Mask.Lo) != FE.Value.Lo ||
        (W.Hi & FE.Mask.Hi) != FE.Value.Hi)
      continue;
    const FastForm &FF = FT.Forms[F];
    if (!(FF.Simple ? tryFastForm(F, FF, FT.Ops.data(), W, Out)
                    : tryForm(F, W, Out, T)))
      continue;
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
