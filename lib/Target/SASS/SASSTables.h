//===- SASSTables.h - The generated tables (private) ------------*- C++ -*-===//
///
/// \file
/// Declarations of the tables tp-tblgen generates from td/ (defined in
/// SASSTables.cpp, which includes the .inc files), and small helpers shared
/// by the encoder, decoder, printer and parser.
///
//===----------------------------------------------------------------------===//
#ifndef TP_LIB_TARGET_SASS_SM86TABLES_H
#define TP_LIB_TARGET_SASS_SM86TABLES_H

#include "tp/Target/SASS/SASS.h"

namespace tp {
namespace sass {
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
  /// An 8-bit uniform register field (Blackwell): URZ (63) is stored as
  /// 0xff and UR63 (the value sass::UR63) as 63; UR0..UR62 and UR64..UR254
  /// as their numbers.
  bool WideUR = false;
};
struct ModEntry {
  int64_t Value;
  const char *Name;
};
struct ModTableRef {
  uint16_t Begin, Count;
  uint64_t Valid; ///< bit v: value v (< 64) has a spelling
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
/// Decoder dispatch: the opcode's bucket, then a key gathered from up to 8
/// bits that tell its forms apart (tp-tblgen chooses them so that no
/// candidate list is longer than a handful), then the candidate list.
/// Where no few bits do (IMAD.SHL's one-hot immediates), the key is a
/// multiplicative hash of the word's HashMask bits (HashMul != 0).
struct DecodeBucket {
  uint16_t SubBase;
  uint8_t NumKeyBits;
  uint8_t KeyBits[8];
  uint64_t HashMask[2];
  uint64_t HashMul;
};
/// A form as one target encodes it (td/Targets.td: EncodingOn, OnlyOn).
struct FormEncoding {
  Word128 Mask, Value;  ///< fixed bits
  uint16_t FieldBase;   ///< operand 0's field in OperandFields
  bool Available;       ///< the form exists on the target
};
struct TargetDesc {
  const char *Name;
  unsigned SM;
  const char *CPUs;     ///< -mcpu spellings, comma-separated
};
extern const FormEncoding FormEncodings[];
extern const TargetDesc TargetDescs[];
extern const TargetInfo TargetInfos[];
extern const uint8_t FormTargets[];
/// The decoder tables of one target.
struct DecodeTables {
  const uint16_t *List;
  const uint16_t *SubBegin;
  const DecodeBucket *Buckets;
  const uint16_t *BucketOf;
};
extern const DecodeTables DecodeTablesOf[];
extern const uint16_t DecodeList[];
extern const uint16_t DecodeSubBegin[];
extern const DecodeBucket DecodeBuckets[];
extern const uint16_t DecodeBucketOf[4096];
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
extern const FieldRef *const SpecialFields;
inline const FieldRef &specialField(SpecialField F) { return SpecialFields[F]; }

/// Form \p Op as target \p T encodes it.
inline const FormEncoding &formEncoding(unsigned Op, Target T) {
  return FormEncodings[unsigned(T) * NUM_OPCODES + Op];
}

/// Width of a field in bits (the sum of its segments).
inline unsigned fieldBits(const FieldRef &F);

/// Index of operand 0 of \p Op in OperandInfos / OperandFields.
inline unsigned operandBase(Opcode Op) {
  return unsigned(InstrInfos[Op].Operands - OperandInfos);
}

inline unsigned fieldBits(const FieldRef &F) {
  unsigned N = 0;
  for (unsigned I = F.Begin, E = F.Begin + F.Count; I != E; ++I)
    N += Segs[I].Width;
  return N;
}

inline uint64_t extractSeg(const Word128 &W, const FieldSeg &S) {
  // One 128-bit shift: no branch on which half the segment lives in.
  unsigned __int128 V = ((unsigned __int128)W.Hi << 64) | W.Lo;
  uint64_t Part = uint64_t(V >> S.InstBit);
  if (S.Width < 64)
    Part &= (uint64_t(1) << S.Width) - 1;
  return Part << S.FieldBit;
}

/// The guard and control fields as constants (indexed by SpecialField).
#define GET_SASS_SPECIAL_SEGS
#include "tp/Target/SASS/SASSGenEncoder.inc"

/// A guard or control field of \p W (constant-folded: one shift and mask).
inline uint64_t extractSpecial(const Word128 &W, unsigned F) {
  return extractSeg(W, SpecialSegs[F]);
}

inline uint64_t extractField(const Word128 &W, const FieldRef &F) {
  const FieldSeg *S = &Segs[F.Begin];
  uint64_t V = extractSeg(W, S[0]);
  for (unsigned I = 1; I < F.Count; ++I)
    V |= extractSeg(W, S[I]);
  V ^= F.Xor;
  if (F.WideUR)
    return V == 0xff ? URZ : V == URZ ? UR63 : V;
  return V;
}

inline void insertBits(uint64_t &Word, unsigned Bit, unsigned Width,
                       uint64_t V) {
  uint64_t M = (Width < 64 ? (uint64_t(1) << Width) - 1 : ~uint64_t(0))
               << Bit;
  Word = (Word & ~M) | ((V << Bit) & M);
}

/// Stores the bits of \p V that segment \p S holds into \p W.
inline void insertSeg(Word128 &W, const FieldSeg &S, uint64_t V) {
  uint64_t Part = V >> S.FieldBit;
  if (S.Width < 64)
    Part &= (uint64_t(1) << S.Width) - 1;
  unsigned B = S.InstBit;
  if (B >= 64) {
    insertBits(W.Hi, B - 64, S.Width, Part);
  } else if (B + S.Width <= 64) {
    insertBits(W.Lo, B, S.Width, Part);
  } else {
    unsigned LoW = 64 - B;
    insertBits(W.Lo, B, LoW, Part);
    insertBits(W.Hi, 0, S.Width - LoW, Part >> LoW);
  }
}

inline void insertField(Word128 &W, const FieldRef &F, uint64_t V) {
  V ^= F.Xor;
  if (F.WideUR && V == URZ)
    V = 0xff;
  else if (F.WideUR && V == UR63)
    V = URZ;
  for (unsigned I = F.Begin, E = F.Begin + F.Count; I != E; ++I)
    insertSeg(W, Segs[I], V);
}

/// Stores \p V into guard or control field \p F of \p W (constant-folded:
/// insertField() of its one segment).
inline void insertSpecial(Word128 &W, unsigned F, uint64_t V) {
  insertSeg(W, SpecialSegs[F], V);
}

/// Spelling table lookup; nullptr if \p V has no spelling.
const char *modifierName(const OperandInfo &OI, int64_t V);

/// Whether \p V has a spelling in \p OI's table (fast path of
/// modifierName for the decoder).
inline bool hasSpelling(const OperandInfo &OI, int64_t V) {
  if (V >= 0 && V < 64)
    return (ModTables[OI.ModTable].Valid >> V) & 1;
  return modifierName(OI, V) != nullptr;
}

inline Control controlOf(const Word128 &W) {
  Control C;
  C.Stall = extractSpecial(W, SF_Stall);
  C.Yield = extractSpecial(W, SF_Yield) == 0;
  C.WrSB = extractSpecial(W, SF_WrSB);
  C.RdSB = extractSpecial(W, SF_RdSB);
  C.WaitMask = extractSpecial(W, SF_WaitMask);
  C.Reuse = extractSpecial(W, SF_Reuse);
  return C;
}

} // namespace detail
} // namespace sass
} // namespace tp

#endif
