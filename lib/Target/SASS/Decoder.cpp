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

#include <atomic>
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
/// One operand as the fast path extracts it: a single field segment inside
/// one 64-bit half of the word, flattened from OperandInfo / OperandFields.
struct FastOperand {
  uint64_t Mask;     ///< (1 << width) - 1, after the shift
  uint8_t Half;      ///< 0: bits 0-63, 1: bits 64-127
  uint8_t Shift;     ///< the segment's first bit within its half
  uint8_t SignShift; ///< 64 - the sign bit's width (0: not sign-extended)
  uint8_t Xor;
  bool CheckSpelling; ///< a Modifier / SReg: its value must be spelled
  uint16_t ModTable;
};
/// A form's operands in FastOperands, or Simple = false (some field has
/// several segments or crosses bit 64: tryForm's general loop).
struct FastForm {
  uint32_t First = 0;
  uint8_t NumOperands = 0;
  bool Simple = false;
};
struct FastTables {
  std::vector<FastOperand> Ops;
  std::vector<FastForm> Forms;
};

/// The fast record of operand \p K of form \p F, or false when its field
/// is not one segment inside one half.
bool makeFastOperand(const InstrInfo &II, unsigned K, const FieldRef &FR,
                     bool OwnFields, FastOperand &O) {
  const OperandInfo &OI = II.Operands[K];
  if (FR.Count != 1 || Segs[FR.Begin].FieldBit != 0)
    return false;
  const FieldSeg &S = Segs[FR.Begin];
  if (S.Width == 0 || S.Width > 64 ||
      S.InstBit / 64 != (S.InstBit + S.Width - 1) / 64)
    return false;
  O.Mask = S.Width < 64 ? (uint64_t(1) << S.Width) - 1 : ~uint64_t(0);
  O.Half = S.InstBit / 64;
  O.Shift = S.InstBit % 64;
  unsigned Bits = OwnFields ? OI.Bits : fieldBits(FR);
  O.SignShift = OI.Signed && Bits > 0 && Bits < 64 ? uint8_t(64 - Bits) : 0;
  O.Xor = FR.Xor;
  O.CheckSpelling =
      OI.Kind == OperandKind::Modifier || OI.Kind == OperandKind::SReg;
  O.ModTable = OI.ModTable;
  return true;
}

FastTables *buildFastTables(Target T) {
  auto *FT = new FastTables;
  FT->Forms.resize(NUM_OPCODES);
  for (unsigned F = 0; F < NUM_OPCODES; ++F) {
    const InstrInfo &II = InstrInfos[F];
    const FormEncoding &FE = formEncoding(F, T);
    const FieldRef *Fields = &OperandFields[FE.FieldBase];
    bool OwnFields = FE.FieldBase == operandBase(Opcode(F));
    FastForm &FF = FT->Forms[F];
    FF.First = uint32_t(FT->Ops.size());
    FF.NumOperands = II.NumOperands;
    FF.Simple = true;
    for (unsigned K = 0; K < II.NumOperands && FF.Simple; ++K) {
      FastOperand O;
      FF.Simple = makeFastOperand(II, K, Fields[K], OwnFields, O);
      FT->Ops.push_back(O);
    }
    if (!FF.Simple)
      FT->Ops.resize(FF.First);
  }
  return FT;
}

/// Target \p T's fast tables, built on its first decode (once, also with
/// several threads decoding); afterwards one load, not a call_once.
const FastTables &fastTables(Target T) {
  // One slot per value of Target's uint8_t (the generated target count is
  // not visible here); zero-initialised before any thread runs.
  static std::atomic<const FastTables *> Tables[256];
  if (const FastTables *FT =
          Tables[unsigned(T)].load(std::memory_order_acquire))
    return *FT;
  static std::mutex Mu;
  std::lock_guard<std::mutex> G(Mu);
  const FastTables *FT = Tables[unsigned(T)].load(std::memory_order_relaxed);
  if (!FT) {
    FT = buildFastTables(T);
    Tables[unsigned(T)].store(FT, std::memory_order_release);
  }
  return *FT;
}

/// tryForm for a form whose operands are all single segments: the same
/// values, from one flat record per operand, without a branch but for
/// the spelling check.
bool tryFastForm(unsigned F, const FastForm &FF, const FastOperand *Ops,
                 const uint64_t Half[2], Instruction &Out) {
  const FastOperand *O = Ops + FF.First;
  for (unsigned K = 0, E = FF.NumOperands; K < E; ++K, ++O) {
    uint64_t V = ((Half[O->Half] >> O->Shift) & O->Mask) ^ O->Xor;
    int64_t Val = int64_t(V << O->SignShift) >> O->SignShift;
    if (O->CheckSpelling &&
        !(uint64_t(Val) < 64
              ? (ModTables[O->ModTable].Valid >> Val) & 1
              : modifierName(InstrInfos[F].Operands[K], Val) != nullptr))
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
  unsigned I = D.SubBegin[Slot], E = D.SubBegin[Slot + 1];
  if (I == E)
    return false;
  const FastTables &FT = fastTables(T);
  const uint64_t Half[2] = {W.Lo, W.Hi};
  const FormEncoding *Encs = &formEncoding(0, T);
  for (; I != E; ++I) {
    unsigned F = D.List[I];
    const FormEncoding &FE = Encs[F];
    if (((W.Lo & FE.Mask.Lo) ^ FE.Value.Lo) |
        ((W.Hi & FE.Mask.Hi) ^ FE.Value.Hi))
      continue;
    const FastForm &FF = FT.Forms[F];
    if (!(FF.Simple ? tryFastForm(F, FF, FT.Ops.data(), Half, Out)
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
