//===- Encoder.cpp - Instruction -> 128-bit word ---------------------------===//
///
/// \file
/// Table-driven: the form's fixed value, then every operand field, the guard
/// and the control fields, each through its generated bit segments.
///
//===----------------------------------------------------------------------===//

#include "SASSTables.h"
#include "tp/Support/Diagnostics.h"
#include "llvm/Support/Format.h"

using namespace llvm;

namespace tp {
namespace sass {
using namespace detail;

Word128 encode(const Instruction &I, Target T) {
  const InstrInfo &II = InstrInfos[I.Op];
  const FormEncoding &FE = formEncoding(I.Op, T);
  Word128 W = FE.Value;
  unsigned Base = FE.FieldBase;
  for (unsigned K = 0; K < II.NumOperands; ++K)
    insertField(W, OperandFields[Base + K], uint64_t(I.Ops[K]));
  insertField(W, specialField(SF_Guard), I.Guard);
  insertField(W, specialField(SF_GuardNeg), I.GuardNeg);
  setControl(W, I.Ctrl);
  return W;
}

Control getControl(Word128 W) { return controlOf(W); }

void setControl(Word128 &W, const Control &C) {
  insertField(W, specialField(SF_Stall), C.Stall);
  insertField(W, specialField(SF_Yield), C.Yield ? 0 : 1);
  insertField(W, specialField(SF_WrSB), C.WrSB);
  insertField(W, specialField(SF_RdSB), C.RdSB);
  insertField(W, specialField(SF_WaitMask), C.WaitMask);
  insertField(W, specialField(SF_Reuse), C.Reuse);
}

/// Whether \p V fits operand \p OI's field of \p N bits.
bool operandFits(const OperandInfo &OI, int64_t V, unsigned N) {
  if (OI.Kind == OperandKind::Modifier || OI.Kind == OperandKind::SReg)
    return modifierName(OI, V) != nullptr;
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

Error verify(const Instruction &I, Target T) {
  if (unsigned(I.Op) >= NUM_OPCODES)
    return makeError("invalid opcode " + Twine(unsigned(I.Op)));
  const InstrInfo &II = InstrInfos[I.Op];
  const FormEncoding &FE = formEncoding(I.Op, T);
  if (!FE.Available)
    return makeError(Twine(II.Name) + " does not exist on " +
                     getTargetName(T));
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
  if (I.Guard > 7)
    return makeError("guard predicate " + Twine(unsigned(I.Guard)) +
                     " out of range");
  const Control &C = I.Ctrl;
  if (C.Stall > 15)
    return makeError("stall " + Twine(unsigned(C.Stall)) + " exceeds 15");
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
