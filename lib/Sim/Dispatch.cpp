//===- Dispatch.cpp - The handler of each form ----------------------------===//
///
/// \file
/// Chooses each form's handler once and prepares what it needs at decode
/// time (sources, special registers, refusals).
///
//===----------------------------------------------------------------------===//
#include "ExecState.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSwitch.h"

using namespace llvm;
using namespace tp;
using namespace tp::sim;

//===----------------------------------------------------------------------===//
// Dispatch table
//===----------------------------------------------------------------------===//

/// The generated table (td/SM86/Semantics.td), by form.
static const FormSemantics DispatchTable[] = {
#define GET_SIM_DISPATCH
#include "SimGenDispatch.inc"
};

const FormSemantics *sim::getFormSemantics(sass::Opcode Op) {
  static const std::vector<const FormSemantics *> ByOpcode = [] {
    std::vector<const FormSemantics *> V(sass::getNumOpcodes(), nullptr);
    for (const FormSemantics &S : DispatchTable)
      V[S.Form] = &S;
    return V;
  }();
  return Op < ByOpcode.size() ? ByOpcode[Op] : nullptr;
}

Handler sim::getHandler(SemClass C) {
  switch (C) {
#define TP_SIM_SEM_CLASS(Name)                                                 \
  case SemClass::Name:                                                         \
    return exec##Name;
#define GET_SIM_SEM_CLASSES
#include "SimGenDispatch.inc"
#undef TP_SIM_SEM_CLASS
  }
  return nullptr;
}

std::string sim::prepareInst(DInst &D) {
  const sass::InstrInfo &II = sass::getInstrInfo(D.I.Op);
  StringRef N = II.Name;
  if (D.Fn == execEXIT)
    D.IsExit = true;
  if (D.Fn == execBRA || D.Fn == execBRADIV ||
      (D.Fn == execCALL && !D.has(SemFlag::Indirect))) {
    D.IsBranch = true;
  }
  if (D.Fn == execCALL && !D.F[F_ninc])
    return "CALL without .NOINC (the hardware's return stack) is not "
           "supported";
  if (D.Fn == execCALL || D.Fn == execRET)
    D.TargetBase = sass::getBranchTarget(D.Addr, D.F[F_tgt]);
  if (D.Fn == execBAR) {
    D.IsBarrier = D.kind<BarKind>() != BarKind::Arv;
    if (D.kind<BarKind>() != BarKind::Arv && D.Has[F_cnt] &&
        (D.F[F_cnt] == 0 || D.F[F_cnt] % 32))
      return "a barrier's thread count must be a positive multiple of 32";
  }
  if (D.Fn == execMUFU && (D.F[F_fn] == 6 || D.F[F_fn] == 7))
    return "MUFU.RCP64H/.RSQ64H are not supported";
  if (D.Fn == execS2R || D.Fn == execS2UR || D.Fn == execCS2R) {
    // Special register by spelling.
    for (unsigned O = 0; O < II.NumOperands; ++O)
      if (II.Operands[O].Kind == sass::OperandKind::SReg) {
        StringRef S = sass::getModifierSpelling(D.I.Op, O, D.I.Ops[O]);
        D.SReg = StringSwitch<uint8_t>(S)
                    .Case("SR_LANEID", SR_LANEID)
                    .Case("SR_TID.X", SR_TIDX)
                    .Case("SR_TID.Y", SR_TIDY)
                    .Case("SR_TID.Z", SR_TIDZ)
                    .Case("SR_CTAID.X", SR_CTAIDX)
                    .Case("SR_CTAID.Y", SR_CTAIDY)
                    .Case("SR_CTAID.Z", SR_CTAIDZ)
                    .Case("SRZ", SR_ZERO)
                    .Case("SR_VIRTUALSMID", SR_ZERO)
                    .Case("SR_VIRTID", SR_WARPID)
                    .Case("SR_LTMASK", SR_LTMASK)
                    .Case("SR_EQMASK", SR_EQMASK)
                    .Case("SR_CgaCtaId", SR_CGACTAID)
                    .Case("SR_CLOCKLO", SR_CLOCKLO)
                    .Default(SR_UNKNOWN);
        if (D.SReg == SR_UNKNOWN)
          return ("special register " + S + " is not supported").str();
        return "";
      }
    return "special register operand not found";
  }
  if ((D.Fn == execFArith || D.Fn == execFSETP) && D.F[F_rnd] > 3)
    return "unknown rounding mode";
  if (D.Fn == execFArith && D.Has[F_scale] && D.F[F_scale] != 4)
    return "FMUL.D2/.D4 are not supported";
  if (D.Fn == execH2) {
    if (D.Has[F_bf] && D.F[F_bf])
      return "BF16_V2 arithmetic is not supported";
    D.A.Swz = uint8_t(D.F[F_sa]);
    D.B.Swz = uint8_t(D.Has[F_Rb] || D.kind<FArithKind>() != FArithKind::Add
                          ? D.F[F_sb]
                          : D.F[F_sc]);
    D.C.Swz = uint8_t(D.F[F_sc]);
  }
  if (D.Fn == execF2FP && D.F[F_rnd])
    return "F2FP .RZ is not supported";
  if (D.Fn == execF2F &&
      (D.F[F_dst] == 4 || (D.F[F_dst] == 1 && D.F[F_src] == 2 && D.F[F_rnd])))
    return "F2F to BF16, or to F16 with a directed rounding, is not supported";
  if (D.Fn == execI2F && D.kind<I2FKind>() != I2FKind::I2FP &&
      D.F[F_dst] != 1 && D.F[F_dst] != 2)
    return "I2F to F64 is not supported";
  if ((D.Fn == execFArith || D.Fn == execH2) &&
      D.kind<FArithKind>() == FArithKind::Add) {
    // FADD keeps its second source in the C slot unless it is a register
    // (td FloatInstrs.td): FADD_ri / _rc / _ru.
    Src S;
    S.Neg = D.F[F_nc] != 0;
    S.Abs = D.F[F_ac] != 0;
    if (D.Has[F_Rb]) {
      S.K = Src::KReg;
      S.Reg = uint16_t(D.F[F_Rb]);
      S.Neg = D.F[F_nb] != 0;
      S.Abs = D.F[F_ab] != 0;
    } else if (D.Has[F_Imm]) {
      S.K = Src::KImm;
      S.Val = uint32_t(D.F[F_Imm]);
    } else if (D.Has[F_Bank]) {
      S.K = Src::KCB;
      S.Reg = uint16_t(D.F[F_Bank]);
      S.Val = uint32_t(D.F[F_Off]);
    } else if (D.Has[F_Ur]) {
      S.K = Src::KUR;
      S.Reg = uint16_t(D.F[F_Ur]);
    } else if (D.Has[F_Rc]) {
      S.K = Src::KReg;
      S.Reg = uint16_t(D.F[F_Rc]);
    } else {
      return "FADD without a second source";
    }
    if (D.Fn == execH2)
      S.Swz = uint8_t(D.Has[F_Rb] ? D.F[F_sb] : D.F[F_sc]);
    D.B = S;
    D.C = Src();
  }

  if (D.Fn == execATOMS) {
    if (D.kind<AtomsKind>() == AtomsKind::Cas && D.F[F_cop] != 0)
      return "ATOMS.CAST.SPIN is not supported";
    if (D.kind<AtomsKind>() == AtomsKind::PopcInc && D.F[F_Rd] != sass::RZ)
      return "ATOMS.POPC.INC with a result register is not supported";
    if (D.Size == 8 && D.kind<AtomsKind>() == AtomsKind::Op &&
        D.F[F_aop] != 8)
      return "ATOMS.64 other than EXCH is not supported";
  }
  if (D.Fn == execPRMT && D.F[F_mode] > 6)
    return "unknown PRMT mode";
  (void)N;
  return "";
}
