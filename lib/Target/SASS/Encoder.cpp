//===- Encoder.cpp - Instruction -> 128-bit word ---------------------------===//
///
/// \file
/// encode(): the form's fixed value, then its operands by the generated
/// straight-line function of the target's fields (OperandEncodersOf,
/// tp-tblgen -gen-sass-encoder: constant shifts and masks, no walk of the
/// field tables, no allocation), then the guard and control fields, whose
/// segments are compile-time constants.  encodeByFieldTables() is the walk
/// of the field tables it replaced, kept as its oracle: the two give the
/// same word for every instruction, in range or not (unit test).
///
//===----------------------------------------------------------------------===//

#include "SASSTables.h"
#include "tp/Support/Diagnostics.h"
#include "llvm/Support/Format.h"

#include <atomic>
#include <mutex>

using namespace llvm;

namespace tp {
namespace sass {
using namespace detail;

namespace {
/// Inserts a form's operands \p Ops into the word \p Lo (bits 0-63),
/// \p Hi (64-127).
using OperandEncoder = void (*)(const int64_t *Ops, uint64_t &Lo,
                                uint64_t &Hi);

// OperandEncodersOf[target][form]: generated from the forms' fields, one
// straight-line function per distinct layout.
#define GET_SASS_OPERAND_ENCODERS
#include "tp/Target/SASS/SASSGenEncoder.inc"

/// The control fields \p C into \p W.
inline void insertControl(Word128 &W, const Control &C) {
  insertSpecial(W, SF_Stall, C.Stall);
  insertSpecial(W, SF_Yield, C.Yield ? 0 : 1);
  insertSpecial(W, SF_WrSB, C.WrSB);
  insertSpecial(W, SF_RdSB, C.RdSB);
  insertSpecial(W, SF_WaitMask, C.WaitMask);
  insertSpecial(W, SF_Reuse, C.Reuse);
}
} // namespace

// The guard and control fields go in through their constant segments
// (SpecialSegs), each a shift and a mask.
Word128 encode(const Instruction &I, Target T) {
  Word128 W = formEncoding(I.Op, T).Value;
  OperandEncodersOf[unsigned(T)][I.Op](I.Ops.data(), W.Lo, W.Hi);
  insertSpecial(W, SF_Guard, I.Guard);
  insertSpecial(W, SF_GuardNeg, I.GuardNeg);
  insertControl(W, I.Ctrl);
  return W;
}

Word128 encodeByFieldTables(const Instruction &I, Target T) {
  const InstrInfo &II = InstrInfos[I.Op];
  const FormEncoding &FE = formEncoding(I.Op, T);
  Word128 W = FE.Value;
  unsigned Base = FE.FieldBase;
  for (unsigned K = 0; K < II.NumOperands; ++K)
    insertField(W, OperandFields[Base + K], uint64_t(I.Ops[K]));
  insertField(W, specialField(SF_Guard), I.Guard);
  insertField(W, specialField(SF_GuardNeg), I.GuardNeg);
  const Control &C = I.Ctrl;
  insertField(W, specialField(SF_Stall), C.Stall);
  insertField(W, specialField(SF_Yield), C.Yield ? 0 : 1);
  insertField(W, specialField(SF_WrSB), C.WrSB);
  insertField(W, specialField(SF_RdSB), C.RdSB);
  insertField(W, specialField(SF_WaitMask), C.WaitMask);
  insertField(W, specialField(SF_Reuse), C.Reuse);
  return W;
}

bool isDefinedControl(const Control &C) {
  unsigned V = (C.Stall & 15) | (C.Yield ? 0 : 16);
  return !((UndefinedStallYield >> V) & 1);
}

Control defineControl(Control C) {
  if (!isDefinedControl(C))
    C.Yield = true;
  return C;
}

Control getControl(Word128 W) { return controlOf(W); }

void setControl(Word128 &W, const Control &C) { insertControl(W, C); }

/// Whether \p V fits operand \p OI's field of \p N bits.
bool operandFits(const OperandInfo &OI, int64_t V, unsigned N) {
  if (OI.Kind == OperandKind::Modifier || OI.Kind == OperandKind::SReg)
    return modifierName(OI, V) != nullptr;
  // A scoreboard is SB0..SB5: the 3-bit field's 6 and 7 are no scoreboard
  // (nvdisasm prints DEPBAR.LE INVALID6).
  if (OI.Kind == OperandKind::SBIndex)
    return V >= 0 && V <= 5 && V < (int64_t(1) << N);
  if (N >= 64)
    return true;
  if (OI.Signed)
    return V >= -(int64_t(1) << (N - 1)) && V < (int64_t(1) << (N - 1));
  return V >= 0 && V < (int64_t(1) << N);
}

/// ... of its default-target field (the parser's range check; a target's
/// own encoding may be wider, e.g. sm_90's BRA, never narrower).
bool operandFits(const OperandInfo &OI, int64_t V) {
  return operandFits(OI, V, OI.Bits);
}

namespace {
/// What one operand of a form may hold on one target, for verify()'s
/// message-free check: V fits when D = uint64_t(V - Min) <= Span and bit
/// D % 64 of Spelled is set (a modifier or special register: Min 0, Span
/// 63, Spelled the spelling table's mask of values below 64; otherwise
/// Spelled is all ones).  A row that cannot tell (a signed field of no
/// bits) has Span 0 and Spelled 0: it never fits, and the full checks run.
struct OperandLimit {
  int64_t Min;
  uint64_t Span;
  uint64_t Spelled;
};
constexpr unsigned MaxCachedTargets = 16;
} // namespace

static OperandLimit makeLimit(const OperandInfo &OI, const FieldRef &FR) {
  if (OI.Kind == OperandKind::Modifier || OI.Kind == OperandKind::SReg)
    return {0, 63, ModTables[OI.ModTable].Valid};
  if (OI.Kind == OperandKind::SBIndex) // SB0..SB5 (operandFits)
    return {0, 5, ~uint64_t(0)};
  unsigned N = fieldBits(FR);
  OperandLimit L{0, N >= 64 ? ~uint64_t(0) : (uint64_t(1) << N) - 1,
                 ~uint64_t(0)};
  if (OI.Signed && (N == 0 || FR.WideUR))
    return {0, 0, 0};
  if (OI.Signed && N < 64)
    L.Min = -(int64_t(1) << (N - 1));
  return L;
}

/// The limits of every operand of form \p Op on \p T: made on the
/// (form, target)'s first check and kept for the process (one atomic
/// pointer a pair; made under a lock); null for a target past the cache.
static const OperandLimit *limitsOf(const InstrInfo &II,
                                    const FormEncoding &FE, unsigned Op,
                                    Target T) {
  static std::atomic<const OperandLimit *> Rows[MaxCachedTargets *
                                                NUM_OPCODES];
  if (unsigned(T) >= MaxCachedTargets)
    return nullptr;
  std::atomic<const OperandLimit *> &Slot =
      Rows[unsigned(T) * NUM_OPCODES + Op];
  if (const OperandLimit *Row = Slot.load(std::memory_order_acquire))
    return Row;
  static std::mutex Lock;
  std::lock_guard<std::mutex> Guard(Lock);
  if (const OperandLimit *Row = Slot.load(std::memory_order_acquire))
    return Row;
  auto *Row = new OperandLimit[std::max<unsigned>(1, II.NumOperands)];
  for (unsigned K = 0; K < II.NumOperands; ++K)
    Row[K] = makeLimit(II.Operands[K], OperandFields[FE.FieldBase + K]);
  Slot.store(Row, std::memory_order_release);
  return Row;
}

/// verify()'s operand checks without their messages: true when every
/// operand fits its field on the target; false when one does not or the
/// limits cannot tell, and verify() then runs the checks that name the
/// operand.
static bool operandsFit(const InstrInfo &II, const FormEncoding &FE,
                        const Instruction &I, Target T) {
  const OperandLimit *L = limitsOf(II, FE, I.Op, T);
  if (!L)
    return false;
  for (unsigned K = 0; K < II.NumOperands; ++K) {
    uint64_t D = uint64_t(I.Ops[K]) - uint64_t(L[K].Min);
    if (D > L[K].Span || !((L[K].Spelled >> (D & 63)) & 1))
      return false;
  }
  return true;
}

std::string registerTupleProblem(const OperandInfo &OI, int64_t V) {
  bool GPR = OI.Kind == OperandKind::GPR || OI.Kind == OperandKind::MemBase;
  if (!GPR || V == RZ)
    return "";
  if (OI.Width > 1 && V % OI.Width)
    return ("expected a register tuple of " + Twine(unsigned(OI.Width)) +
            " aligned to " + Twine(unsigned(OI.Width)) + ", found R" + Twine(V))
        .str();
  if (V + OI.Width - 1 > RZ - 1)
    return ("register tuple R" + Twine(V) + " runs past R254").str();
  return "";
}

Error verify(const Instruction &I, Target T) {
  if (unsigned(I.Op) >= NUM_OPCODES)
    return makeError("invalid opcode " + Twine(unsigned(I.Op)));
  const InstrInfo &II = InstrInfos[I.Op];
  const FormEncoding &FE = formEncoding(I.Op, T);
  if (!FE.Available)
    return makeError(Twine(II.Name) + " does not exist on " +
                     getTargetName(T));
  if (!operandsFit(II, FE, I, T)) // (the checks that name the operand)
    for (unsigned K = 0; K < II.NumOperands; ++K) {
      unsigned Bits = fieldBits(OperandFields[FE.FieldBase + K]);
      OperandKind OK = II.Operands[K].Kind;
      bool UniformReg = OK == OperandKind::UGPR || OK == OperandKind::MemUR ||
                        OK == OperandKind::MemDesc;
      if (UniformReg && Bits <= 6 && I.Ops[K] > URZ)
        return makeError(Twine(II.Name) + ": operand " + II.Operands[K].Name +
                         ": UR" + Twine(I.Ops[K] == UR63 ? 63 : I.Ops[K]) +
                         " does not exist on " + getTargetName(T) +
                         " (UR0..UR62, URZ; UR63..UR254 are Blackwell's)");
      if (!operandFits(II.Operands[K], I.Ops[K], Bits))
        return makeError(Twine(II.Name) + ": operand " + II.Operands[K].Name +
                         " value " + Twine(I.Ops[K]) + " does not fit its " +
                         Twine(Bits) + "-bit field");
    }
  for (unsigned K = 0; K < II.NumOperands; ++K) {
    // A single register that fits its field is one (R0..R254, RZ).
    if (II.Operands[K].Width <= 1)
      continue;
    std::string Why = registerTupleProblem(II.Operands[K], I.Ops[K]);
    if (!Why.empty())
      return makeError(Twine(II.Name) + ": operand " + II.Operands[K].Name +
                       ": " + Why);
  }
  if (I.Guard > 7)
    return makeError("guard predicate " + Twine(unsigned(I.Guard)) +
                     " out of range");
  const Control &C = I.Ctrl;
  if (C.Stall > 15)
    return makeError("stall " + Twine(unsigned(C.Stall)) + " exceeds 15");
  if (!isDefinedControl(C))
    return makeError("stall " + Twine(unsigned(C.Stall)) +
                     " without yield (bit 109 set) is undefined: NVIDIA's "
                     "tables define a stall of 0 or 12..15 only with yield "
                     "(bit 109 clear)");
  if (C.WrSB > 5 && C.WrSB != NoScoreboard)
    return makeError("write scoreboard " + Twine(unsigned(C.WrSB)) +
                     " is not 0..5 or 7 (none)");
  if (C.RdSB > 5 && C.RdSB != NoScoreboard)
    return makeError("read scoreboard " + Twine(unsigned(C.RdSB)) +
                     " is not 0..5 or 7 (none)");
  if (C.WaitMask > 63)
    return makeError("wait mask exceeds 6 bits");
  if (C.Reuse > 15)
    return makeError("reuse flags exceed 4 bits");
  return Error::success();
}

} // namespace sass
} // namespace tp
