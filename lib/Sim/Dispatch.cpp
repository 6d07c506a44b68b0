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

static unsigned sizeFromName(StringRef Name, bool &SignExt) {
  SignExt = false;
  StringRef Last = Name.rsplit('_').second;
  if (Last == "U8")
    return 1;
  if (Last == "S8")
    return SignExt = true, 1;
  if (Last == "U16")
    return 2;
  if (Last == "S16")
    return SignExt = true, 2;
  if (Last == "32")
    return 4;
  if (Last == "64")
    return 8;
  if (Last == "128")
    return 16;
  return 0;
}

Handler sim::getHandler(sass::Opcode Op, uint32_t &Aux, uint32_t &Aux2) {
  const sass::InstrInfo &II = sass::getInstrInfo(Op);
  StringRef N = II.Name;
  Aux = Aux2 = 0;
  auto Has = [&](StringRef Tok) {
    SmallVector<StringRef, 8> Parts;
    N.split(Parts, '_');
    for (StringRef P : Parts)
      if (P == Tok)
        return true;
    return false;
  };
  // Integer ALU.
  if (N.startswith("IMAD_")) {
    if (N.startswith("IMAD_SHL_U32_")) {
      Aux = 3;
      N.rsplit('_').second.getAsInteger(10, Aux2);
      return execIMAD;
    }
    if (N.startswith("IMAD_MOV_U32_rir"))
      return Aux = 4, execIMAD;
    if (N.startswith("IMAD_IADD_"))
      return Aux = 5, execIMAD;
    Aux = N.startswith("IMAD_WIDE_") ? 1 : N.startswith("IMAD_HI_") ? 2 : 0;
    if (Has("X"))
      Aux2 |= 0x100;
    return execIMAD;
  }
  if (N.startswith("IADD3_"))
    return Aux = Has("X"), execIADD3;
  if (N.startswith("VIADD_"))
    return execVIADD;
  if (N.startswith("LOP3_"))
    return execLOP3;
  if (N.startswith("MOV_"))
    return execMOV;
  if (N.startswith("IABS_"))
    return execIABS;
  if (N.startswith("SEL_"))
    return execSEL;
  if (N.startswith("IMNMX_"))
    return execIMNMX;
  if (N.startswith("SHF_"))
    return execSHF;
  if (N.startswith("LEA_")) {
    Aux = (Has("HI") ? 1 : 0) | (Has("X") ? 2 : 0) | (Has("SX32") ? 4 : 0);
    return execLEA;
  }
  if (N.startswith("ISETP_"))
    return Aux = Has("EX"), execISETP;
  if (N.startswith("PRMT_"))
    return execPRMT;
  if (N.startswith("PLOP3"))
    return Aux = N.endswith("_UP"), execPLOP3;
  // Float.
  if (N.startswith("FADD_"))
    return Aux = 0, execFArith;
  if (N.startswith("FMUL_"))
    return Aux = 1, execFArith;
  if (N.startswith("FFMA_"))
    return Aux = 2, execFArith;
  if (N.startswith("FSETP_"))
    return execFSETP;
  if (N.startswith("FSEL_"))
    return execFSEL;
  if (N.startswith("FMNMX_"))
    return execFMNMX;
  if (N.startswith("F2I_") && !N.startswith("F2I_W64D_") &&
      !N.startswith("F2I_F64S_"))
    return execF2I;
  if (N.startswith("HADD2_"))
    return Aux = 0, execH2;
  if (N.startswith("HMUL2_"))
    return Has("BF16") ? nullptr : (Aux = 1, execH2);
  if (N.startswith("HFMA2_")) {
    if (Has("BF16"))
      return nullptr;
    Aux = 2;
    Aux2 = Has("RELU");
    return execH2;
  }
  if (N.startswith("F2FP_PACK_AB_"))
    return execF2FP;
  if (N.startswith("I2FP_F32_"))
    return Aux = 1, execI2F;
  if (N.startswith("I2F_"))
    return Has("F64") ? nullptr : execI2F;
  if (N.startswith("F2F_"))
    return Has("F64D") || Has("F64S") ? nullptr : execF2F;
  // Special and uniform registers.
  if (N.startswith("S2R"))
    return execS2R;
  if (N.startswith("S2UR"))
    return execS2UR;
  if (N.startswith("CS2R")) {
    Aux2 = Has("32") ? 1 : 2;
    return execCS2R;
  }
  if (N.startswith("ULDC")) {
    Aux = Has("64") ? 5 : 4;
    Aux2 = Has("UR");
    return execULDC;
  }
  if (N == "LDC" || N == "LDC_64")
    return Aux = N == "LDC_64" ? 5 : 4, execLDC;
  if (N.startswith("UMOV"))
    return Aux = 0, execUALU;
  if (N.startswith("UIADD3")) {
    Aux = 1;
    Aux2 = (Has("X") ? 1 : 0) | (Has("64") ? 2 : 0);
    return execUALU;
  }
  if (N.startswith("ULOP3"))
    return Aux = 2, execUALU;
  if (N.startswith("USHF"))
    return Aux = 3, execUALU;
  if (N.startswith("UIMAD")) {
    Aux = 4;
    Aux2 = (Has("X") ? 1 : 0) | (Has("WIDE") ? 4 : 0);
    return execUALU;
  }
  if (N.startswith("ULEA")) {
    Aux = 5;
    Aux2 = (Has("HI") ? 1 : 0) | (Has("X") ? 2 : 0) | (Has("SX32") ? 4 : 0);
    return execUALU;
  }
  if (N.startswith("UISETP"))
    return Aux = 6, Aux2 = Has("EX"), execUALU;
  if (N.startswith("USEL"))
    return Aux = 7, execUALU;
  if (N.startswith("VOTEU"))
    return Aux = 8, execUALU;
  if (N.startswith("R2UR"))
    return Aux = 9, execUALU;
  if (N.startswith("UFLO_"))
    return Aux = 10, execUALU;
  if (N.startswith("UPOPC_"))
    return Aux = 11, execUALU;
  if (N.startswith("UBREV_"))
    return Aux = 12, execUALU;
  if (N.startswith("FLO_"))
    return Aux = 0, execBitCount;
  if (N.startswith("POPC_"))
    return Aux = 1, execBitCount;
  if (N.startswith("BREV_"))
    return Aux = 2, execBitCount;
  if (N == "VOTE" || N == "VOTE_r")
    return execVOTE;
  if (N.startswith("SHFL_"))
    return execSHFL;
  // Memory.
  bool Sx;
  if (N.startswith("LDG_") || N.startswith("STG_")) {
    Aux = sizeFromName(N, Sx);
    Aux2 = (N[0] == 'S' ? 1 : 0) | (Has("UR") || Has("DESC") ? 2 : 0) |
           (Has("UR") || N.contains("_RZ") ? 4 : 0) | (Sx ? 8 : 0) |
           (N.contains("RZA") ? 16 : 0) | (N.contains("RZB") ? 32 : 0);
    return Aux ? execGlobal : nullptr;
  }
  if (N.startswith("LDS_") || N.startswith("STS_")) {
    Aux = sizeFromName(N, Sx);
    Aux2 = (N[0] == 'S' ? 1 : 0) | (Has("UR") ? 2 : 0) | (Sx ? 8 : 0);
    return Aux ? execShared : nullptr;
  }
  if (N.startswith("LDL_") || N.startswith("STL_")) {
    Aux = sizeFromName(N, Sx);
    Aux2 = (N[0] == 'S' ? 1 : 0) | (Has("UR") ? 2 : 0) | (Sx ? 8 : 0);
    return Aux ? execLocal : nullptr;
  }
  if (N.startswith("LDSM_")) {
    N.rsplit('_').second.getAsInteger(10, Aux);
    Aux2 = Has("UR");
    return execLDSM;
  }
  if (N.startswith("LDGSTS")) {
    Aux = (Has("DESC") ? 1 : 0) | (Has("SUR") ? 2 : 0);
    return execLDGSTS;
  }
  if (N == "LDGDEPBAR")
    return execLDGDEPBAR;
  if (N.startswith("DEPBAR"))
    return execDEPBAR;
  // MMA.
  if (N.startswith("HMMA_")) {
    if (Has("TF32") || Has("SP"))
      return nullptr;
    Aux = Has("16816") ? 16 : Has("1688") ? 8 : 0;
    Aux2 = (Has("F32") ? 1 : 0) | (Has("BF16") ? 2 : 0);
    return Aux ? execHMMA : nullptr;
  }
  // Control.
  if (N.startswith("NOP"))
    return execNOP;
  if (N.startswith("EXIT"))
    return execEXIT;
  if (N == "BRA" || N == "BRA_P")
    return execBRA;
  // Divergence and reconvergence at convergence barriers.
  if (N == "BSSY")
    return execBSSY;
  if (N == "BSYNC")
    return execBSYNC;
  if (N.startswith("WARPSYNC"))
    return execWARPSYNC;
  if (N == "BAR_SYNC_i")
    return execBAR;
  return nullptr;
}

std::string sim::prepareInst(DInst &D) {
  const sass::InstrInfo &II = sass::getInstrInfo(D.I.Op);
  StringRef N = II.Name;
  if (D.Fn == execEXIT)
    D.IsExit = true;
  if (D.Fn == execBRA) {
    D.IsBranch = true;
  }
  if (D.Fn == execBAR) {
    D.IsBarrier = true;
    if (D.F[F_id] != 0)
      return "only barrier 0 is supported";
  }
  if (D.Fn == execS2R || D.Fn == execS2UR || D.Fn == execCS2R) {
    // Special register by spelling.
    for (unsigned O = 0; O < II.NumOperands; ++O)
      if (II.Operands[O].Kind == sass::OperandKind::SReg) {
        StringRef S = sass::getModifierSpelling(D.I.Op, O, D.I.Ops[O]);
        D.Aux = StringSwitch<uint32_t>(S)
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
                    .Default(SR_UNKNOWN);
        if (D.Aux == SR_UNKNOWN)
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
    D.B.Swz = uint8_t(D.Has[F_Rb] || D.Aux != 0 ? D.F[F_sb] : D.F[F_sc]);
    D.C.Swz = uint8_t(D.F[F_sc]);
  }
  if (D.Fn == execF2FP && (D.F[F_bf] || D.F[F_rnd]))
    return "F2FP.BF16 / .RZ are not supported";
  if (D.Fn == execF2F &&
      (D.F[F_dst] == 4 || (D.F[F_dst] == 1 && D.F[F_src] == 2 && D.F[F_rnd])))
    return "F2F to BF16, or to F16 with a directed rounding, is not supported";
  if (D.Fn == execI2F && D.Aux != 1 && D.F[F_dst] != 1 && D.F[F_dst] != 2)
    return "I2F to F64 is not supported";
  if ((D.Fn == execFArith && D.Aux == 0) || (D.Fn == execH2 && D.Aux == 0)) {
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

  if (D.Fn == execPRMT && D.F[F_mode] > 6)
    return "unknown PRMT mode";
  (void)N;
  return "";
}
