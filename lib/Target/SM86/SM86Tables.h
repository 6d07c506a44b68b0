//===- SM86Tables.h - The generated tables (private) ------------*- C++ -*-===//
///
/// \file
/// Declarations of the tables tp-tblgen generates from td/ (defined in
/// SM86Tables.cpp, which includes the .inc files), and small helpers shared
/// by the encoder, decoder, printer and parser.
///
//===----------------------------------------------------------------------===//
#ifndef TP_LIB_TARGET_SM86_SM86TABLES_H
#define TP_LIB_TARGET_SM86_SM86TABLES_H

#include "tp/Target/SM86/SM86.h"

namespace tp {
namespace sm86 {
namespace detail {

/// A run of \c Width bits: field bits [FieldBit, FieldBit+Width) live at
/// word bits [InstBit, InstBit+Width).
struct FieldSeg {
  uint8_t InstBit, FieldBit, Width;
};
/// The segments of one field: Segs[Begin .. Begin+Count).
struct FieldRef {
  uint16_t Begin, Count;
  uint8_t Xor; ///< the field holds value ^ Xor
};
struct ModEntry {
  int64_t Value;
  const char *Name;
};
struct ModTableRef {
  uint16_t Begin, Count;
};
struct MnemonicEntry {
  const char *Mnemonic;
  uint16_t Begin, Count;
};
struct SchedClassDesc {
  const char *Name;
  bool Variable;
  uint8_t Latency;
  const char *LateRead;
};

extern const ModEntry ModEntries[];
extern const ModTableRef ModTables[];
extern const OperandInfo OperandInfos[];
extern const InstrInfo InstrInfos[];
extern const uint16_t OpcodesByName[];
extern const FieldSeg Segs[];
extern const FieldRef OperandFields[];
extern const uint16_t DecodeList[];
extern const uint16_t DecodeBegin[4097];
extern const char *const Templates[];
extern const uint16_t MatchList[];
extern const MnemonicEntry Mnemonics[];
extern const unsigned NumMnemonics;
extern const SchedClassDesc SchedClassDescs[];
extern const uint8_t FormSchedClass[];

/// Index of the guard, guard-negate and control fields in OperandFields.
enum SpecialField : unsigned {
  SF_Guard,
  SF_GuardNeg,
  SF_Stall,
  SF_Yield,
  SF_WrSB,
  SF_RdSB,
  SF_WaitMask,
  SF_Reuse
};
const FieldRef &specialField(SpecialField F);

/// Index of operand 0 of \p Op in OperandInfos / OperandFields.
inline unsigned operandBase(Opcode Op) {
  return unsigned(InstrInfos[Op].Operands - OperandInfos);
}

inline uint64_t extractField(const Word128 &W, const FieldRef &F) {
  uint64_t V = 0;
  for (unsigned I = F.Begin, E = F.Begin + F.Count; I != E; ++I) {
    const FieldSeg &S = Segs[I];
    uint64_t Part;
    unsigned B = S.InstBit;
    if (B + S.Width <= 64) {
      Part = W.Lo >> B;
    } else if (B >= 64) {
      Part = W.Hi >> (B - 64);
    } else {
      Part = (W.Lo >> B) | (W.Hi << (64 - B));
    }
    if (S.Width < 64)
      Part &= (uint64_t(1) << S.Width) - 1;
    V |= Part << S.FieldBit;
  }
  return V ^ F.Xor;
}

inline void insertField(Word128 &W, const FieldRef &F, uint64_t V) {
  V ^= F.Xor;
  for (unsigned I = F.Begin, E = F.Begin + F.Count; I != E; ++I) {
    const FieldSeg &S = Segs[I];
    uint64_t M = S.Width < 64 ? (uint64_t(1) << S.Width) - 1 : ~uint64_t(0);
    uint64_t Part = (V >> S.FieldBit) & M;
    for (unsigned K = 0; K < S.Width; ++K)
      W.setBit(S.InstBit + K, (Part >> K) & 1);
  }
}

/// Spelling table lookup; nullptr if \p V has no spelling.
const char *modifierName(const OperandInfo &OI, int64_t V);

} // namespace detail
} // namespace sm86
} // namespace tp

#endif
