//===- Semantics.td - tp-sim's semantic class of every form -*- tablegen -*-===//
//
// What tp-sim executes for each instruction form: a semantic class (the
// family of handlers in lib/Sim: IMAD, Global, HMMA, ...), the variant
// within the class, named flags and an access size, given per form by
// name (a renamed or removed form breaks the build here, not at run time).
// tp-tblgen -gen-sim-dispatch turns this into lib/Sim's dispatch table
// (SimGenDispatch.inc); a form listed in no SimSemantics record has no
// semantics and tp-sim refuses it, naming the instruction (and the reason
// a SimRefusal record gives).  Root file:
// include the instruction description first.
//
//===----------------------------------------------------------------------===//

include "SM86.td"

// A handler family of lib/Sim (enum sim::SemClass, one handler each).
class SimClass<string name> { string Name = name; }
// A property of a form its handler reads (enum sim::SemFlag, a bit each).
class SimFlag<string name> { string Name = name; }

// The forms in Forms execute as Class: Variant names an enumerator of the
// class's kind enum (IMADKind, FArithKind, ...; "" for none), Size is the
// access size in bytes (memory), the matrix count (LDSM) or K (HMMA), and
// Shift the left shift of IMAD.SHL.
class SimSemantics<SimClass cls, list<SM86Inst> forms, string variant = "",
                   list<SimFlag> flags = [], int size = 0, int shift = 0> {
  SimClass Class = cls;
  list<SM86Inst> Forms = forms;
  string Variant = variant;
  list<SimFlag> Flags = flags;
  int Size = size;
  int Shift = shift;
}

// Forms tp-sim refuses for a reason worth stating (a form without
// semantics is refused anyway; the reason joins the error).
class SimRefusal<list<SM86Inst> forms, string reason> {
  list<SM86Inst> Forms = forms;
  string Reason = reason;
}

def : SimRefusal<[MUFU_64H_rir],
  "MUFU.RCP64H/.RSQ64H (the seeds of f64 division and square root) are not "
  "modelled">;
def : SimRefusal<[CALL_ABS_r, CALL_ABS_i, RET_ABS],
  "absolute calls and returns reach code the linker places (a relocatable "
  "cubin's external functions)">;

// Handler families.
def SemBAR : SimClass<"BAR">;
def SemBRA : SimClass<"BRA">;
def SemBitCount : SimClass<"BitCount">;
def SemBSSY : SimClass<"BSSY">;
def SemBSYNC : SimClass<"BSYNC">;
def SemCS2R : SimClass<"CS2R">;
def SemDEPBAR : SimClass<"DEPBAR">;
def SemEXIT : SimClass<"EXIT">;
def SemF2FP : SimClass<"F2FP">;
def SemF2F : SimClass<"F2F">;
def SemF2I : SimClass<"F2I">;
def SemFArith : SimClass<"FArith">;
def SemFMNMX : SimClass<"FMNMX">;
def SemFSEL : SimClass<"FSEL">;
def SemFSETP : SimClass<"FSETP">;
def SemH2 : SimClass<"H2">;
def SemHMMA : SimClass<"HMMA">;
def SemI2F : SimClass<"I2F">;
def SemIABS : SimClass<"IABS">;
def SemIADD3 : SimClass<"IADD3">;
def SemIMAD : SimClass<"IMAD">;
def SemIMNMX : SimClass<"IMNMX">;
def SemISETP : SimClass<"ISETP">;
def SemLDC : SimClass<"LDC">;
def SemLDGDEPBAR : SimClass<"LDGDEPBAR">;
def SemLDGSTS : SimClass<"LDGSTS">;
def SemGlobal : SimClass<"Global">;
def SemLocal : SimClass<"Local">;
def SemLDSM : SimClass<"LDSM">;
def SemShared : SimClass<"Shared">;
def SemLEA : SimClass<"LEA">;
def SemLOP3 : SimClass<"LOP3">;
def SemMOV : SimClass<"MOV">;
def SemNOP : SimClass<"NOP">;
def SemPLOP3 : SimClass<"PLOP3">;
def SemPRMT : SimClass<"PRMT">;
def SemUALU : SimClass<"UALU">;
def SemS2R : SimClass<"S2R">;
def SemS2UR : SimClass<"S2UR">;
def SemSEL : SimClass<"SEL">;
def SemSHFL : SimClass<"SHFL">;
def SemSHF : SimClass<"SHF">;
def SemULDC : SimClass<"ULDC">;
def SemVIADD : SimClass<"VIADD">;
def SemIADD64 : SimClass<"IADD64">;
def SemVOTE : SimClass<"VOTE">;
def SemWARPSYNC : SimClass<"WARPSYNC">;
def SemATOMS : SimClass<"ATOMS">;
def SemGAtom : SimClass<"GAtom">;
def SemREDUX : SimClass<"REDUX">;
def SemVABSDIFF : SimClass<"VABSDIFF">;
def SemB2R : SimClass<"B2R">;
def SemCALL : SimClass<"CALL">;
def SemRET : SimClass<"RET">;
def SemBREAK : SimClass<"BREAK">;
def SemBRADIV : SimClass<"BRADIV">;
def SemP2R : SimClass<"P2R">;
def SemR2P : SimClass<"R2P">;
def SemMATCH : SimClass<"MATCH">;
def SemMUFU : SimClass<"MUFU">;
def SemMOV64 : SimClass<"MOV64">;

// Flags.
def FlagX : SimFlag<"X">;
def FlagHi : SimFlag<"Hi">;
def FlagSX32 : SimFlag<"SX32">;
def FlagEX : SimFlag<"EX">;
def FlagWide : SimFlag<"Wide">;
def FlagB64 : SimFlag<"B64">;
def FlagPair : SimFlag<"Pair">;
def FlagUniformSrc : SimFlag<"UniformSrc">;
def FlagRelu : SimFlag<"Relu">;
def FlagF32 : SimFlag<"F32">;
def FlagBF16 : SimFlag<"BF16">;
def FlagStore : SimFlag<"Store">;
def FlagSignExtend : SimFlag<"SignExtend">;
def FlagAddrUR : SimFlag<"AddrUR">;
def FlagWideFromAW : SimFlag<"WideFromAW">;
def FlagRZA : SimFlag<"RZA">;
def FlagRZB : SimFlag<"RZB">;
def FlagDesc : SimFlag<"Desc">;
def FlagSharedUR : SimFlag<"SharedUR">;
def FlagCpSizeBw : SimFlag<"CpSizeBw">;
def FlagCredux : SimFlag<"Credux">;
def FlagIndirect : SimFlag<"Indirect">;


// BAR: barrier 0..15, all the block's threads or a count; .RED reduces a
// predicate (B2R.RESULT reads the result); .ARV arrives without waiting.
def : SimSemantics<SemBAR,
  [BAR_SYNC_i, BAR_SYNC_i_cnt], "BarKind::Sync">;
def : SimSemantics<SemBAR,
  [BAR_RED_i], "BarKind::Red">;
def : SimSemantics<SemBAR,
  [BAR_ARV_i], "BarKind::Arv">;
def : SimSemantics<SemB2R,
  [B2R_RESULT, B2R_RESULT_P]>;

// Calls and returns of ptxas's ABI (the return address in a register pair,
// .NOINC/.NODEC: no hardware return stack); CALL.REL.NOINC alone is a
// branch (ptxas also uses it as one, a loop exit).
def : SimSemantics<SemCALL,
  [CALL_REL]>;
def : SimSemantics<SemCALL,
  [CALL_REL_r],
  "", [FlagIndirect]>;
def : SimSemantics<SemRET,
  [RET_REL_NODEC]>;
def : SimSemantics<SemBREAK,
  [BREAK, BREAK_P]>;
def : SimSemantics<SemBRADIV,
  [BRA_DIV]>;

// No effect on a sequential, cache-less memory: fences, cache control,
// scheduling hints.
def : SimSemantics<SemNOP,
  [YIELD, MEMBAR, ERRBAR, CCTL, CCTL_IVALL, CGAERRBAR, NANOSLEEP_i,
   NANOSLEEP_r]>;
// sm_90a, no effect for one kernel of one-CTA clusters on that memory:
// FENCE.VIEW.ASYNC (fence.proxy.async: tp-sim has one proxy), ACQBULK and
// PREEXIT (griddepcontrol.wait / .launch_dependents: no dependent grid).
def : SimSemantics<SemNOP,
  [FENCE_VIEW_ASYNC, ACQBULK, PREEXIT]>;

// P2R / R2P: the predicate register PR (P0..P6) and a register's byte.
def : SimSemantics<SemP2R,
  [P2R]>;
def : SimSemantics<SemR2P,
  [R2P, R2P_M]>;

// |A - B| + C (PTX sad).
def : SimSemantics<SemVABSDIFF,
  [VABSDIFF_rrr, VABSDIFF_rir, VABSDIFF_rcr, VABSDIFF_rur, VABSDIFF_rri,
   VABSDIFF_rrc, VABSDIFF_rru]>;

// MATCH.ANY (32 and 64 bits).
def : SimSemantics<SemMATCH,
  [MATCH_ANY_32]>;
def : SimSemantics<SemMATCH,
  [MATCH_ANY_64],
  "", [FlagB64]>;

// MUFU: the correctly rounded value of the function (see MUFU in
// FloatOps.cpp: the hardware's results are within the PTX ISA's error
// bounds of it).
def : SimSemantics<SemMUFU,
  [MUFU_rrr, MUFU_rir, MUFU_rcr, MUFU_rur]>;

// BRA.
def : SimSemantics<SemBRA,
  [BRA, BRA_P]>;

// BitCount.
def : SimSemantics<SemBitCount,
  [BREV_rrr],
  "BitOp::Brev">;
def : SimSemantics<SemBitCount,
  [FLO_rcr, FLO_rrr, FLO_rur],
  "BitOp::Flo">;
def : SimSemantics<SemBitCount,
  [POPC_rcr, POPC_rrr, POPC_rur],
  "BitOp::Popc">;

// BSSY.
def : SimSemantics<SemBSSY,
  [BSSY]>;

// BSYNC.
def : SimSemantics<SemBSYNC,
  [BSYNC]>;

// CS2R.
def : SimSemantics<SemCS2R,
  [CS2R_32]>;
def : SimSemantics<SemCS2R,
  [CS2R],
  "", [FlagPair]>;

// DEPBAR.
def : SimSemantics<SemDEPBAR,
  [DEPBAR_LE, DEPBAR_LE_SET]>;

// EXIT.
def : SimSemantics<SemEXIT,
  [EXIT, EXIT_P]>;

// F2FP.
def : SimSemantics<SemF2FP,
  [F2FP_PACK_AB_rcr, F2FP_PACK_AB_rir, F2FP_PACK_AB_rrr, F2FP_PACK_AB_rur]>;

// F2F.
def : SimSemantics<SemF2F,
  [F2F_rcr, F2F_rir, F2F_rrr, F2F_rur]>;

// F2I.
def : SimSemantics<SemF2I,
  [F2I_rcr, F2I_rir, F2I_rrr, F2I_rur]>;

// FArith.
def : SimSemantics<SemFArith,
  [FADD_rc, FADD_ri, FADD_rr, FADD_ru],
  "FArithKind::Add">;
def : SimSemantics<SemFArith,
  [FFMA_rcr, FFMA_rir, FFMA_rrc, FFMA_rri, FFMA_rrr, FFMA_rru, FFMA_rur],
  "FArithKind::Fma">;
def : SimSemantics<SemFArith,
  [FMUL_rcr, FMUL_rir, FMUL_rrr, FMUL_rur],
  "FArithKind::Mul">;

// FMNMX.
def : SimSemantics<SemFMNMX,
  [FMNMX_rcr, FMNMX_rir, FMNMX_rrr, FMNMX_rur]>;

// FSEL.
def : SimSemantics<SemFSEL,
  [FSEL_rcr, FSEL_rir, FSEL_rrr, FSEL_rur]>;

// FSETP.
def : SimSemantics<SemFSETP,
  [FSETP_rcr, FSETP_rir, FSETP_rrr, FSETP_rur]>;

// H2.
def : SimSemantics<SemH2,
  [HADD2_rrc, HADD2_rri, HADD2_rrr, HADD2_rru],
  "FArithKind::Add">;
def : SimSemantics<SemH2,
  [HFMA2_MMA_rcr, HFMA2_MMA_rir, HFMA2_MMA_rrc, HFMA2_MMA_rri, HFMA2_MMA_rrr,
   HFMA2_MMA_rru, HFMA2_MMA_rur, HFMA2_rcr, HFMA2_rir, HFMA2_rrc, HFMA2_rri,
   HFMA2_rrr, HFMA2_rru, HFMA2_rur],
  "FArithKind::Fma">;
def : SimSemantics<SemH2,
  [HFMA2_MMA_RELU_rcr, HFMA2_MMA_RELU_rir, HFMA2_MMA_RELU_rrc,
   HFMA2_MMA_RELU_rri, HFMA2_MMA_RELU_rrr, HFMA2_MMA_RELU_rru,
   HFMA2_MMA_RELU_rur, HFMA2_RELU_rcr, HFMA2_RELU_rir, HFMA2_RELU_rrc,
   HFMA2_RELU_rri, HFMA2_RELU_rrr, HFMA2_RELU_rru, HFMA2_RELU_rur],
  "FArithKind::Fma", [FlagRelu]>;
def : SimSemantics<SemH2,
  [HMUL2_rcr, HMUL2_rir, HMUL2_rrr, HMUL2_rur],
  "FArithKind::Mul">;

// HMMA.
def : SimSemantics<SemHMMA,
  [HMMA_1688_F16],
  "", [], 8>;
def : SimSemantics<SemHMMA,
  [HMMA_16816_F16],
  "", [], 16>;
def : SimSemantics<SemHMMA,
  [HMMA_1688_F32],
  "", [FlagF32], 8>;
def : SimSemantics<SemHMMA,
  [HMMA_16816_F32],
  "", [FlagF32], 16>;
def : SimSemantics<SemHMMA,
  [HMMA_1688_F32_BF16],
  "", [FlagF32, FlagBF16], 8>;
def : SimSemantics<SemHMMA,
  [HMMA_16816_F32_BF16],
  "", [FlagF32, FlagBF16], 16>;

// I2F.
def : SimSemantics<SemI2F,
  [I2F_16_rcr, I2F_16_rir, I2F_16_rrr, I2F_16_rur, I2F_32_rcr, I2F_32_rir,
   I2F_32_rrr, I2F_32_rur, I2F_8_rcr, I2F_8_rir, I2F_8_rrr, I2F_8_rur,
   I2F_S64_64_rcr, I2F_S64_64_rir, I2F_S64_64_rrr, I2F_S64_64_rur],
  "I2FKind::I2F">;
def : SimSemantics<SemI2F,
  [I2FP_F32_rcr, I2FP_F32_rrr, I2FP_F32_rur],
  "I2FKind::I2FP">;

// IABS.
def : SimSemantics<SemIABS,
  [IABS_rcr, IABS_rir, IABS_rrr, IABS_rur]>;

// IADD3.
def : SimSemantics<SemIADD3,
  [IADD3_P1_rcr, IADD3_P1_rir, IADD3_P1_rrc, IADD3_P1_rri, IADD3_P1_rrr,
   IADD3_P1_rru, IADD3_P1_rur, IADD3_P2_rcr, IADD3_P2_rir, IADD3_P2_rrc,
   IADD3_P2_rri, IADD3_P2_rrr, IADD3_P2_rru, IADD3_P2_rur, IADD3_rcr,
   IADD3_rir, IADD3_rrc, IADD3_rri, IADD3_rrr, IADD3_rru, IADD3_rur]>;
def : SimSemantics<SemIADD3,
  [IADD3_X_P1_rcr, IADD3_X_P1_rir, IADD3_X_P1_rrc, IADD3_X_P1_rri,
   IADD3_X_P1_rrr, IADD3_X_P1_rru, IADD3_X_P1_rur, IADD3_X_P2_rcr,
   IADD3_X_P2_rir, IADD3_X_P2_rrc, IADD3_X_P2_rri, IADD3_X_P2_rrr,
   IADD3_X_P2_rru, IADD3_X_P2_rur, IADD3_X_rcr, IADD3_X_rir, IADD3_X_rrc,
   IADD3_X_rri, IADD3_X_rrr, IADD3_X_rru, IADD3_X_rur],
  "", [FlagX]>;

// IMAD.
def : SimSemantics<SemIMAD,
  [IMAD_HI_P_rcr, IMAD_HI_P_rir, IMAD_HI_P_rrc, IMAD_HI_P_rri, IMAD_HI_P_rrr,
   IMAD_HI_P_rru, IMAD_HI_P_rur, IMAD_HI_rcr, IMAD_HI_rir, IMAD_HI_rrc,
   IMAD_HI_rri, IMAD_HI_rrr, IMAD_HI_rru, IMAD_HI_rur],
  "IMADKind::Hi">;
def : SimSemantics<SemIMAD,
  [IMAD_HI_X_P_rcr, IMAD_HI_X_P_rir, IMAD_HI_X_P_rrc, IMAD_HI_X_P_rri,
   IMAD_HI_X_P_rrr, IMAD_HI_X_P_rru, IMAD_HI_X_P_rur, IMAD_HI_X_rcr,
   IMAD_HI_X_rir, IMAD_HI_X_rrc, IMAD_HI_X_rri, IMAD_HI_X_rrr, IMAD_HI_X_rru,
   IMAD_HI_X_rur],
  "IMADKind::Hi", [FlagX]>;
def : SimSemantics<SemIMAD,
  [IMAD_IADD_rir],
  "IMADKind::IAdd">;
def : SimSemantics<SemIMAD,
  [IMAD_MOV_U32_rir],
  "IMADKind::Mov">;
def : SimSemantics<SemIMAD,
  [IMAD_MOV_rrc, IMAD_MOV_rri, IMAD_MOV_rrr, IMAD_P_rcr, IMAD_P_rir,
   IMAD_P_rrc, IMAD_P_rri, IMAD_P_rrr, IMAD_P_rru, IMAD_P_rur, IMAD_rcr,
   IMAD_rir, IMAD_rrc, IMAD_rri, IMAD_rrr, IMAD_rru, IMAD_rur],
  "IMADKind::Plain">;
def : SimSemantics<SemIMAD,
  [IMAD_X_P_rcr, IMAD_X_P_rir, IMAD_X_P_rrc, IMAD_X_P_rri, IMAD_X_P_rrr,
   IMAD_X_P_rru, IMAD_X_P_rur, IMAD_X_rcr, IMAD_X_rir, IMAD_X_rrc,
   IMAD_X_rri, IMAD_X_rrr, IMAD_X_rru, IMAD_X_rur],
  "IMADKind::Plain", [FlagX]>;
def : SimSemantics<SemIMAD,
  [IMAD_SHL_U32_rir_1],
  "IMADKind::Shl", [], 0, 1>;
def : SimSemantics<SemIMAD,
  [IMAD_SHL_U32_rir_2],
  "IMADKind::Shl", [], 0, 2>;
def : SimSemantics<SemIMAD,
  [IMAD_SHL_U32_rir_3],
  "IMADKind::Shl", [], 0, 3>;
def : SimSemantics<SemIMAD,
  [IMAD_SHL_U32_rir_4],
  "IMADKind::Shl", [], 0, 4>;
def : SimSemantics<SemIMAD,
  [IMAD_SHL_U32_rir_5],
  "IMADKind::Shl", [], 0, 5>;
def : SimSemantics<SemIMAD,
  [IMAD_SHL_U32_rir_6],
  "IMADKind::Shl", [], 0, 6>;
def : SimSemantics<SemIMAD,
  [IMAD_SHL_U32_rir_7],
  "IMADKind::Shl", [], 0, 7>;
def : SimSemantics<SemIMAD,
  [IMAD_SHL_U32_rir_8],
  "IMADKind::Shl", [], 0, 8>;
def : SimSemantics<SemIMAD,
  [IMAD_SHL_U32_rir_9],
  "IMADKind::Shl", [], 0, 9>;
def : SimSemantics<SemIMAD,
  [IMAD_SHL_U32_rir_10],
  "IMADKind::Shl", [], 0, 10>;
def : SimSemantics<SemIMAD,
  [IMAD_SHL_U32_rir_11],
  "IMADKind::Shl", [], 0, 11>;
def : SimSemantics<SemIMAD,
  [IMAD_SHL_U32_rir_12],
  "IMADKind::Shl", [], 0, 12>;
def : SimSemantics<SemIMAD,
  [IMAD_SHL_U32_rir_13],
  "IMADKind::Shl", [], 0, 13>;
def : SimSemantics<SemIMAD,
  [IMAD_SHL_U32_rir_14],
  "IMADKind::Shl", [], 0, 14>;
def : SimSemantics<SemIMAD,
  [IMAD_SHL_U32_rir_15],
  "IMADKind::Shl", [], 0, 15>;
def : SimSemantics<SemIMAD,
  [IMAD_SHL_U32_rir_17],
  "IMADKind::Shl", [], 0, 17>;
def : SimSemantics<SemIMAD,
  [IMAD_SHL_U32_rir_18],
  "IMADKind::Shl", [], 0, 18>;
def : SimSemantics<SemIMAD,
  [IMAD_SHL_U32_rir_19],
  "IMADKind::Shl", [], 0, 19>;
def : SimSemantics<SemIMAD,
  [IMAD_SHL_U32_rir_20],
  "IMADKind::Shl", [], 0, 20>;
def : SimSemantics<SemIMAD,
  [IMAD_SHL_U32_rir_21],
  "IMADKind::Shl", [], 0, 21>;
def : SimSemantics<SemIMAD,
  [IMAD_SHL_U32_rir_22],
  "IMADKind::Shl", [], 0, 22>;
def : SimSemantics<SemIMAD,
  [IMAD_SHL_U32_rir_23],
  "IMADKind::Shl", [], 0, 23>;
def : SimSemantics<SemIMAD,
  [IMAD_SHL_U32_rir_24],
  "IMADKind::Shl", [], 0, 24>;
def : SimSemantics<SemIMAD,
  [IMAD_SHL_U32_rir_25],
  "IMADKind::Shl", [], 0, 25>;
def : SimSemantics<SemIMAD,
  [IMAD_SHL_U32_rir_26],
  "IMADKind::Shl", [], 0, 26>;
def : SimSemantics<SemIMAD,
  [IMAD_SHL_U32_rir_27],
  "IMADKind::Shl", [], 0, 27>;
def : SimSemantics<SemIMAD,
  [IMAD_SHL_U32_rir_28],
  "IMADKind::Shl", [], 0, 28>;
def : SimSemantics<SemIMAD,
  [IMAD_SHL_U32_rir_29],
  "IMADKind::Shl", [], 0, 29>;
def : SimSemantics<SemIMAD,
  [IMAD_SHL_U32_rir_30],
  "IMADKind::Shl", [], 0, 30>;
def : SimSemantics<SemIMAD,
  [IMAD_WIDE_P_rcr, IMAD_WIDE_P_rir, IMAD_WIDE_P_rrc, IMAD_WIDE_P_rri,
   IMAD_WIDE_P_rrr, IMAD_WIDE_P_rru, IMAD_WIDE_P_rur, IMAD_WIDE_rcr,
   IMAD_WIDE_rir, IMAD_WIDE_rrc, IMAD_WIDE_rri, IMAD_WIDE_rrr, IMAD_WIDE_rru,
   IMAD_WIDE_rur],
  "IMADKind::Wide">;
def : SimSemantics<SemIMAD,
  [IMAD_WIDE_X_P_rcr, IMAD_WIDE_X_P_rir, IMAD_WIDE_X_P_rrc,
   IMAD_WIDE_X_P_rri, IMAD_WIDE_X_P_rrr, IMAD_WIDE_X_P_rru,
   IMAD_WIDE_X_P_rur, IMAD_WIDE_X_rcr, IMAD_WIDE_X_rir, IMAD_WIDE_X_rrc,
   IMAD_WIDE_X_rri, IMAD_WIDE_X_rrr, IMAD_WIDE_X_rru, IMAD_WIDE_X_rur],
  "IMADKind::Wide", [FlagX]>;

// IMNMX.
def : SimSemantics<SemIMNMX,
  [IMNMX_rcr, IMNMX_rir, IMNMX_rrr, IMNMX_rur]>;
// sm_90 and Blackwell's integer min/max: IMNMX's fields and meaning.
def : SimSemantics<SemIMNMX,
  [VIMNMX_rrr, VIMNMX_rir, VIMNMX_rur]>;

// ISETP.
def : SimSemantics<SemISETP,
  [ISETP_rcr, ISETP_rir, ISETP_rrr, ISETP_rur]>;
def : SimSemantics<SemISETP,
  [ISETP_EX_rcr, ISETP_EX_rir, ISETP_EX_rrr, ISETP_EX_rur],
  "", [FlagEX]>;

// LDC.
def : SimSemantics<SemLDC,
  [LDC]>;
def : SimSemantics<SemLDC,
  [LDC_64],
  "", [FlagB64]>;

// LDGDEPBAR.
def : SimSemantics<SemLDGDEPBAR,
  [LDGDEPBAR]>;

// LDGSTS.
def : SimSemantics<SemLDGSTS,
  [LDGSTS, LDGSTS_P]>;
def : SimSemantics<SemLDGSTS,
  [LDGSTS_DESC, LDGSTS_DESC_P],
  "", [FlagDesc]>;
def : SimSemantics<SemLDGSTS,
  [LDGSTS_SUR_DESC, LDGSTS_SUR_DESC_P],
  "", [FlagDesc, FlagSharedUR]>;
def : SimSemantics<SemLDGSTS,
  [LDGSTS_SUR, LDGSTS_SUR_P],
  "", [FlagSharedUR]>;

// Global.
def : SimSemantics<SemGlobal,
  [LDG_P_U8, LDG_U8],
  "", [], 1>;
def : SimSemantics<SemGlobal,
  [LDG_P_U16, LDG_U16],
  "", [], 2>;
def : SimSemantics<SemGlobal,
  [LDG_32, LDG_P_32],
  "", [], 4>;
def : SimSemantics<SemGlobal,
  [LDG_64, LDG_P_64],
  "", [], 8>;
def : SimSemantics<SemGlobal,
  [LDG_128, LDG_P_128],
  "", [], 16>;
def : SimSemantics<SemGlobal,
  [LDG_RZA_P_U8, LDG_RZA_U8],
  "", [FlagAddrUR, FlagRZA], 1>;
def : SimSemantics<SemGlobal,
  [LDG_RZA_P_U16, LDG_RZA_U16],
  "", [FlagAddrUR, FlagRZA], 2>;
def : SimSemantics<SemGlobal,
  [LDG_RZA_32, LDG_RZA_P_32],
  "", [FlagAddrUR, FlagRZA], 4>;
def : SimSemantics<SemGlobal,
  [LDG_RZA_64, LDG_RZA_P_64],
  "", [FlagAddrUR, FlagRZA], 8>;
def : SimSemantics<SemGlobal,
  [LDG_RZA_128, LDG_RZA_P_128],
  "", [FlagAddrUR, FlagRZA], 16>;
def : SimSemantics<SemGlobal,
  [LDG_RZB_P_U8, LDG_RZB_U8],
  "", [FlagAddrUR, FlagRZB], 1>;
def : SimSemantics<SemGlobal,
  [LDG_RZB_P_U16, LDG_RZB_U16],
  "", [FlagAddrUR, FlagRZB], 2>;
def : SimSemantics<SemGlobal,
  [LDG_RZB_32, LDG_RZB_P_32],
  "", [FlagAddrUR, FlagRZB], 4>;
def : SimSemantics<SemGlobal,
  [LDG_RZB_64, LDG_RZB_P_64],
  "", [FlagAddrUR, FlagRZB], 8>;
def : SimSemantics<SemGlobal,
  [LDG_RZB_128, LDG_RZB_P_128],
  "", [FlagAddrUR, FlagRZB], 16>;
def : SimSemantics<SemGlobal,
  [LDG_RZA_P_S8, LDG_RZA_S8],
  "", [FlagAddrUR, FlagSignExtend, FlagRZA], 1>;
def : SimSemantics<SemGlobal,
  [LDG_RZA_P_S16, LDG_RZA_S16],
  "", [FlagAddrUR, FlagSignExtend, FlagRZA], 2>;
def : SimSemantics<SemGlobal,
  [LDG_RZB_P_S8, LDG_RZB_S8],
  "", [FlagAddrUR, FlagSignExtend, FlagRZB], 1>;
def : SimSemantics<SemGlobal,
  [LDG_RZB_P_S16, LDG_RZB_S16],
  "", [FlagAddrUR, FlagSignExtend, FlagRZB], 2>;
def : SimSemantics<SemGlobal,
  [LDG_P_S8, LDG_S8],
  "", [FlagSignExtend], 1>;
def : SimSemantics<SemGlobal,
  [LDG_P_S16, LDG_S16],
  "", [FlagSignExtend], 2>;
def : SimSemantics<SemGlobal,
  [STG_U8],
  "", [FlagStore], 1>;
def : SimSemantics<SemGlobal,
  [STG_U16],
  "", [FlagStore], 2>;
def : SimSemantics<SemGlobal,
  [STG_32],
  "", [FlagStore], 4>;
def : SimSemantics<SemGlobal,
  [STG_64],
  "", [FlagStore], 8>;
def : SimSemantics<SemGlobal,
  [STG_128],
  "", [FlagStore], 16>;
def : SimSemantics<SemGlobal,
  [STG_RZA_U8],
  "", [FlagStore, FlagAddrUR, FlagRZA], 1>;
def : SimSemantics<SemGlobal,
  [STG_RZA_U16],
  "", [FlagStore, FlagAddrUR, FlagRZA], 2>;
def : SimSemantics<SemGlobal,
  [STG_RZA_32],
  "", [FlagStore, FlagAddrUR, FlagRZA], 4>;
def : SimSemantics<SemGlobal,
  [STG_RZA_64],
  "", [FlagStore, FlagAddrUR, FlagRZA], 8>;
def : SimSemantics<SemGlobal,
  [STG_RZA_128],
  "", [FlagStore, FlagAddrUR, FlagRZA], 16>;
def : SimSemantics<SemGlobal,
  [STG_RZB_U8],
  "", [FlagStore, FlagAddrUR, FlagRZB], 1>;
def : SimSemantics<SemGlobal,
  [STG_RZB_U16],
  "", [FlagStore, FlagAddrUR, FlagRZB], 2>;
def : SimSemantics<SemGlobal,
  [STG_RZB_32],
  "", [FlagStore, FlagAddrUR, FlagRZB], 4>;
def : SimSemantics<SemGlobal,
  [STG_RZB_64],
  "", [FlagStore, FlagAddrUR, FlagRZB], 8>;
def : SimSemantics<SemGlobal,
  [STG_RZB_128],
  "", [FlagStore, FlagAddrUR, FlagRZB], 16>;
def : SimSemantics<SemGlobal,
  [STG_RZA_S8],
  "", [FlagStore, FlagAddrUR, FlagSignExtend, FlagRZA], 1>;
def : SimSemantics<SemGlobal,
  [STG_RZA_S16],
  "", [FlagStore, FlagAddrUR, FlagSignExtend, FlagRZA], 2>;
def : SimSemantics<SemGlobal,
  [STG_RZB_S8],
  "", [FlagStore, FlagAddrUR, FlagSignExtend, FlagRZB], 1>;
def : SimSemantics<SemGlobal,
  [STG_RZB_S16],
  "", [FlagStore, FlagAddrUR, FlagSignExtend, FlagRZB], 2>;
def : SimSemantics<SemGlobal,
  [STG_S8],
  "", [FlagStore, FlagSignExtend], 1>;
def : SimSemantics<SemGlobal,
  [STG_S16],
  "", [FlagStore, FlagSignExtend], 2>;
def : SimSemantics<SemGlobal,
  [STG_DESC_U8],
  "", [FlagStore, FlagWideFromAW], 1>;
def : SimSemantics<SemGlobal,
  [STG_DESC_U16],
  "", [FlagStore, FlagWideFromAW], 2>;
def : SimSemantics<SemGlobal,
  [STG_DESC_32],
  "", [FlagStore, FlagWideFromAW], 4>;
def : SimSemantics<SemGlobal,
  [STG_DESC_64],
  "", [FlagStore, FlagWideFromAW], 8>;
def : SimSemantics<SemGlobal,
  [STG_DESC_128],
  "", [FlagStore, FlagWideFromAW], 16>;
def : SimSemantics<SemGlobal,
  [STG_UR_U8],
  "", [FlagStore, FlagWideFromAW, FlagAddrUR], 1>;
def : SimSemantics<SemGlobal,
  [STG_UR_U16],
  "", [FlagStore, FlagWideFromAW, FlagAddrUR], 2>;
def : SimSemantics<SemGlobal,
  [STG_UR_32],
  "", [FlagStore, FlagWideFromAW, FlagAddrUR], 4>;
def : SimSemantics<SemGlobal,
  [STG_UR_64],
  "", [FlagStore, FlagWideFromAW, FlagAddrUR], 8>;
def : SimSemantics<SemGlobal,
  [STG_UR_128],
  "", [FlagStore, FlagWideFromAW, FlagAddrUR], 16>;
def : SimSemantics<SemGlobal,
  [STG_UR_S8],
  "", [FlagStore, FlagWideFromAW, FlagAddrUR, FlagSignExtend], 1>;
def : SimSemantics<SemGlobal,
  [STG_UR_S16],
  "", [FlagStore, FlagWideFromAW, FlagAddrUR, FlagSignExtend], 2>;
def : SimSemantics<SemGlobal,
  [STG_DESC_S8],
  "", [FlagStore, FlagWideFromAW, FlagSignExtend], 1>;
def : SimSemantics<SemGlobal,
  [STG_DESC_S16],
  "", [FlagStore, FlagWideFromAW, FlagSignExtend], 2>;
def : SimSemantics<SemGlobal,
  [LDG_DESC_P_U8, LDG_DESC_U8],
  "", [FlagWideFromAW], 1>;
def : SimSemantics<SemGlobal,
  [LDG_DESC_P_U16, LDG_DESC_U16],
  "", [FlagWideFromAW], 2>;
def : SimSemantics<SemGlobal,
  [LDG_DESC_32, LDG_DESC_P_32],
  "", [FlagWideFromAW], 4>;
def : SimSemantics<SemGlobal,
  [LDG_DESC_64, LDG_DESC_P_64],
  "", [FlagWideFromAW], 8>;
def : SimSemantics<SemGlobal,
  [LDG_DESC_128, LDG_DESC_P_128],
  "", [FlagWideFromAW], 16>;
def : SimSemantics<SemGlobal,
  [LDG_UR_P_U8, LDG_UR_U8],
  "", [FlagWideFromAW, FlagAddrUR], 1>;
def : SimSemantics<SemGlobal,
  [LDG_UR_P_U16, LDG_UR_U16],
  "", [FlagWideFromAW, FlagAddrUR], 2>;
def : SimSemantics<SemGlobal,
  [LDG_UR_32, LDG_UR_P_32],
  "", [FlagWideFromAW, FlagAddrUR], 4>;
def : SimSemantics<SemGlobal,
  [LDG_UR_64, LDG_UR_P_64],
  "", [FlagWideFromAW, FlagAddrUR], 8>;
def : SimSemantics<SemGlobal,
  [LDG_UR_128, LDG_UR_P_128],
  "", [FlagWideFromAW, FlagAddrUR], 16>;
def : SimSemantics<SemGlobal,
  [LDG_UR_P_S8, LDG_UR_S8],
  "", [FlagWideFromAW, FlagAddrUR, FlagSignExtend], 1>;
def : SimSemantics<SemGlobal,
  [LDG_UR_P_S16, LDG_UR_S16],
  "", [FlagWideFromAW, FlagAddrUR, FlagSignExtend], 2>;
def : SimSemantics<SemGlobal,
  [LDG_DESC_P_S8, LDG_DESC_S8],
  "", [FlagWideFromAW, FlagSignExtend], 1>;
def : SimSemantics<SemGlobal,
  [LDG_DESC_P_S16, LDG_DESC_S16],
  "", [FlagWideFromAW, FlagSignExtend], 2>;

// Local.
def : SimSemantics<SemLocal,
  [LDL_U8],
  "", [], 1>;
def : SimSemantics<SemLocal,
  [LDL_U16],
  "", [], 2>;
def : SimSemantics<SemLocal,
  [LDL_32],
  "", [], 4>;
def : SimSemantics<SemLocal,
  [LDL_64],
  "", [], 8>;
def : SimSemantics<SemLocal,
  [LDL_128],
  "", [], 16>;
def : SimSemantics<SemLocal,
  [LDL_UR_U16],
  "", [FlagAddrUR], 2>;
def : SimSemantics<SemLocal,
  [LDL_UR_32],
  "", [FlagAddrUR], 4>;
def : SimSemantics<SemLocal,
  [LDL_UR_64],
  "", [FlagAddrUR], 8>;
def : SimSemantics<SemLocal,
  [LDL_UR_128],
  "", [FlagAddrUR], 16>;
def : SimSemantics<SemLocal,
  [LDL_S8],
  "", [FlagSignExtend], 1>;
def : SimSemantics<SemLocal,
  [LDL_S16],
  "", [FlagSignExtend], 2>;
def : SimSemantics<SemLocal,
  [STL_U8],
  "", [FlagStore], 1>;
def : SimSemantics<SemLocal,
  [STL_U16],
  "", [FlagStore], 2>;
def : SimSemantics<SemLocal,
  [STL_32],
  "", [FlagStore], 4>;
def : SimSemantics<SemLocal,
  [STL_64],
  "", [FlagStore], 8>;
def : SimSemantics<SemLocal,
  [STL_128],
  "", [FlagStore], 16>;
def : SimSemantics<SemLocal,
  [STL_UR_U8],
  "", [FlagStore, FlagAddrUR], 1>;
def : SimSemantics<SemLocal,
  [STL_UR_U16],
  "", [FlagStore, FlagAddrUR], 2>;
def : SimSemantics<SemLocal,
  [STL_UR_32],
  "", [FlagStore, FlagAddrUR], 4>;
def : SimSemantics<SemLocal,
  [STL_UR_64],
  "", [FlagStore, FlagAddrUR], 8>;
def : SimSemantics<SemLocal,
  [STL_UR_128],
  "", [FlagStore, FlagAddrUR], 16>;
def : SimSemantics<SemLocal,
  [STL_S8],
  "", [FlagStore, FlagSignExtend], 1>;
def : SimSemantics<SemLocal,
  [STL_S16],
  "", [FlagStore, FlagSignExtend], 2>;

// LDSM.
def : SimSemantics<SemLDSM,
  [LDSM_16_1],
  "", [], 1>;
def : SimSemantics<SemLDSM,
  [LDSM_16_2],
  "", [], 2>;
def : SimSemantics<SemLDSM,
  [LDSM_16_4],
  "", [], 4>;
def : SimSemantics<SemLDSM,
  [LDSM_16_UR_1],
  "", [FlagAddrUR], 1>;
def : SimSemantics<SemLDSM,
  [LDSM_16_UR_2],
  "", [FlagAddrUR], 2>;
def : SimSemantics<SemLDSM,
  [LDSM_16_UR_4],
  "", [FlagAddrUR], 4>;

// Shared.
def : SimSemantics<SemShared,
  [LDS_U8],
  "", [], 1>;
def : SimSemantics<SemShared,
  [LDS_U16],
  "", [], 2>;
def : SimSemantics<SemShared,
  [LDS_32],
  "", [], 4>;
def : SimSemantics<SemShared,
  [LDS_64],
  "", [], 8>;
def : SimSemantics<SemShared,
  [LDS_128],
  "", [], 16>;
def : SimSemantics<SemShared,
  [LDS_UR_U8],
  "", [FlagAddrUR], 1>;
def : SimSemantics<SemShared,
  [LDS_UR_U16],
  "", [FlagAddrUR], 2>;
def : SimSemantics<SemShared,
  [LDS_UR_32],
  "", [FlagAddrUR], 4>;
def : SimSemantics<SemShared,
  [LDS_UR_64],
  "", [FlagAddrUR], 8>;
def : SimSemantics<SemShared,
  [LDS_UR_128],
  "", [FlagAddrUR], 16>;
def : SimSemantics<SemShared,
  [LDS_UR_S8],
  "", [FlagAddrUR, FlagSignExtend], 1>;
def : SimSemantics<SemShared,
  [LDS_UR_S16],
  "", [FlagAddrUR, FlagSignExtend], 2>;
def : SimSemantics<SemShared,
  [LDS_S8],
  "", [FlagSignExtend], 1>;
def : SimSemantics<SemShared,
  [LDS_S16],
  "", [FlagSignExtend], 2>;
def : SimSemantics<SemShared,
  [STS_U8],
  "", [FlagStore], 1>;
def : SimSemantics<SemShared,
  [STS_U16],
  "", [FlagStore], 2>;
def : SimSemantics<SemShared,
  [STS_32],
  "", [FlagStore], 4>;
def : SimSemantics<SemShared,
  [STS_64],
  "", [FlagStore], 8>;
def : SimSemantics<SemShared,
  [STS_128],
  "", [FlagStore], 16>;
def : SimSemantics<SemShared,
  [STS_UR_U8],
  "", [FlagStore, FlagAddrUR], 1>;
def : SimSemantics<SemShared,
  [STS_UR_U16],
  "", [FlagStore, FlagAddrUR], 2>;
def : SimSemantics<SemShared,
  [STS_UR_32],
  "", [FlagStore, FlagAddrUR], 4>;
def : SimSemantics<SemShared,
  [STS_UR_64],
  "", [FlagStore, FlagAddrUR], 8>;
def : SimSemantics<SemShared,
  [STS_UR_128],
  "", [FlagStore, FlagAddrUR], 16>;
def : SimSemantics<SemShared,
  [STS_UR_S8],
  "", [FlagStore, FlagAddrUR, FlagSignExtend], 1>;
def : SimSemantics<SemShared,
  [STS_UR_S16],
  "", [FlagStore, FlagAddrUR, FlagSignExtend], 2>;
def : SimSemantics<SemShared,
  [STS_S8],
  "", [FlagStore, FlagSignExtend], 1>;
def : SimSemantics<SemShared,
  [STS_S16],
  "", [FlagStore, FlagSignExtend], 2>;

// LEA.
def : SimSemantics<SemLEA,
  [LEA_P_rcr, LEA_P_rir, LEA_P_rrr, LEA_P_rur, LEA_rcr, LEA_rir, LEA_rrr,
   LEA_rur]>;
def : SimSemantics<SemLEA,
  [LEA_HI_P_rcr, LEA_HI_P_rir, LEA_HI_P_rrc, LEA_HI_P_rri, LEA_HI_P_rrr,
   LEA_HI_P_rru, LEA_HI_P_rur, LEA_HI_rcr, LEA_HI_rir, LEA_HI_rrc,
   LEA_HI_rri, LEA_HI_rrr, LEA_HI_rru, LEA_HI_rur],
  "", [FlagHi]>;
def : SimSemantics<SemLEA,
  [LEA_HI_SX32_P_rcr, LEA_HI_SX32_P_rir, LEA_HI_SX32_P_rrr,
   LEA_HI_SX32_P_rur, LEA_HI_SX32_rcr, LEA_HI_SX32_rir, LEA_HI_SX32_rrr,
   LEA_HI_SX32_rur],
  "", [FlagHi, FlagSX32]>;
def : SimSemantics<SemLEA,
  [LEA_HI_X_P_rcr, LEA_HI_X_P_rir, LEA_HI_X_P_rrc, LEA_HI_X_P_rri,
   LEA_HI_X_P_rrr, LEA_HI_X_P_rru, LEA_HI_X_P_rur, LEA_HI_X_rcr,
   LEA_HI_X_rir, LEA_HI_X_rrc, LEA_HI_X_rri, LEA_HI_X_rrr, LEA_HI_X_rru,
   LEA_HI_X_rur],
  "", [FlagHi, FlagX]>;
def : SimSemantics<SemLEA,
  [LEA_HI_X_SX32_P_rcr, LEA_HI_X_SX32_P_rir, LEA_HI_X_SX32_P_rrr,
   LEA_HI_X_SX32_P_rur, LEA_HI_X_SX32_rcr, LEA_HI_X_SX32_rir,
   LEA_HI_X_SX32_rrr, LEA_HI_X_SX32_rur],
  "", [FlagHi, FlagX, FlagSX32]>;
def : SimSemantics<SemLEA,
  [LEA_X_P_rcr, LEA_X_P_rir, LEA_X_P_rrr, LEA_X_P_rur, LEA_X_rcr, LEA_X_rir,
   LEA_X_rrr, LEA_X_rur],
  "", [FlagX]>;

// LOP3.
def : SimSemantics<SemLOP3,
  [LOP3_LUT_P_rcr, LOP3_LUT_P_rir, LOP3_LUT_P_rrc, LOP3_LUT_P_rri,
   LOP3_LUT_P_rrr, LOP3_LUT_P_rru, LOP3_LUT_P_rur, LOP3_LUT_rcr,
   LOP3_LUT_rir, LOP3_LUT_rrc, LOP3_LUT_rri, LOP3_LUT_rrr, LOP3_LUT_rru,
   LOP3_LUT_rur]>;

// MOV.
def : SimSemantics<SemMOV,
  [MOV_M_rcr, MOV_M_rir, MOV_M_rrr, MOV_M_rur, MOV_rcr, MOV_rir, MOV_rrr,
   MOV_rur]>;

// NOP.
def : SimSemantics<SemNOP,
  [NOP]>;

// PLOP3.
def : SimSemantics<SemPLOP3,
  [PLOP3_LUT]>;
def : SimSemantics<SemPLOP3,
  [PLOP3_LUT_UP],
  "", [FlagUniformSrc]>;

// PRMT.
def : SimSemantics<SemPRMT,
  [PRMT_rcr, PRMT_rir, PRMT_rrc, PRMT_rri, PRMT_rrr, PRMT_rru, PRMT_rur]>;

// UALU.
def : SimSemantics<SemUALU,
  [R2UR, R2UR_P],
  "UALUKind::R2UR">;
def : SimSemantics<SemUALU,
  [UBREV_rrr],
  "UALUKind::UBREV">;
def : SimSemantics<SemUALU,
  [UFLO_rrr],
  "UALUKind::UFLO">;
def : SimSemantics<SemUALU,
  [UIADD3_P1_rir, UIADD3_P1_rrr, UIADD3_P2_rir, UIADD3_P2_rrr, UIADD3_rir,
   UIADD3_rrr],
  "UALUKind::UIADD3">;
def : SimSemantics<SemUALU,
  [UIADD3_64_rir, UIADD3_64_rrr],
  "UALUKind::UIADD3", [FlagB64]>;
def : SimSemantics<SemUALU,
  [UIADD3_X_P1_rir, UIADD3_X_P1_rrr, UIADD3_X_P2_rir, UIADD3_X_P2_rrr,
   UIADD3_X_rir, UIADD3_X_rrr],
  "UALUKind::UIADD3", [FlagX]>;
def : SimSemantics<SemUALU,
  [UIMAD_P_rir, UIMAD_P_rri, UIMAD_P_rrr, UIMAD_rir, UIMAD_rri, UIMAD_rrr],
  "UALUKind::UIMAD">;
def : SimSemantics<SemUALU,
  [UIMAD_WIDE_P_rir, UIMAD_WIDE_P_rri, UIMAD_WIDE_P_rrr, UIMAD_WIDE_rir,
   UIMAD_WIDE_rri, UIMAD_WIDE_rrr],
  "UALUKind::UIMAD", [FlagWide]>;
def : SimSemantics<SemUALU,
  [UIMAD_X_P_rir, UIMAD_X_P_rri, UIMAD_X_P_rrr, UIMAD_X_rir, UIMAD_X_rri,
   UIMAD_X_rrr],
  "UALUKind::UIMAD", [FlagX]>;
def : SimSemantics<SemUALU,
  [UIMAD_WIDE_X_P_rir, UIMAD_WIDE_X_P_rri, UIMAD_WIDE_X_P_rrr,
   UIMAD_WIDE_X_rir, UIMAD_WIDE_X_rri, UIMAD_WIDE_X_rrr],
  "UALUKind::UIMAD", [FlagX, FlagWide]>;
def : SimSemantics<SemUALU,
  [UISETP_rir, UISETP_rrr],
  "UALUKind::UISETP">;
def : SimSemantics<SemUALU,
  [UISETP_EX_rir, UISETP_EX_rrr],
  "UALUKind::UISETP", [FlagEX]>;
def : SimSemantics<SemUALU,
  [ULEA_P_rir, ULEA_P_rrr, ULEA_rir, ULEA_rrr],
  "UALUKind::ULEA">;
def : SimSemantics<SemUALU,
  [ULEA_HI_P_rir, ULEA_HI_P_rrr, ULEA_HI_rir, ULEA_HI_rrr],
  "UALUKind::ULEA", [FlagHi]>;
def : SimSemantics<SemUALU,
  [ULEA_HI_SX32_P_rir, ULEA_HI_SX32_P_rrr, ULEA_HI_SX32_rir, ULEA_HI_SX32_rrr],
  "UALUKind::ULEA", [FlagHi, FlagSX32]>;
def : SimSemantics<SemUALU,
  [ULEA_HI_X_P_rir, ULEA_HI_X_P_rrr, ULEA_HI_X_rir, ULEA_HI_X_rrr],
  "UALUKind::ULEA", [FlagHi, FlagX]>;
def : SimSemantics<SemUALU,
  [ULEA_HI_X_SX32_P_rir, ULEA_HI_X_SX32_P_rrr, ULEA_HI_X_SX32_rir,
   ULEA_HI_X_SX32_rrr],
  "UALUKind::ULEA", [FlagHi, FlagX, FlagSX32]>;
def : SimSemantics<SemUALU,
  [ULEA_X_P_rir, ULEA_X_P_rrr, ULEA_X_rir, ULEA_X_rrr],
  "UALUKind::ULEA", [FlagX]>;
def : SimSemantics<SemUALU,
  [ULOP3_LUT_P_rir, ULOP3_LUT_P_rrr, ULOP3_LUT_rir, ULOP3_LUT_rrr],
  "UALUKind::ULOP3">;
def : SimSemantics<SemUALU,
  [UMOV_i, UMOV_u],
  "UALUKind::UMOV">;
def : SimSemantics<SemUALU,
  [UPOPC_rrr],
  "UALUKind::UPOPC">;
def : SimSemantics<SemUALU,
  [USEL_rir, USEL_rrr],
  "UALUKind::USEL">;
def : SimSemantics<SemUALU,
  [USHF_rir, USHF_rri, USHF_rrr],
  "UALUKind::USHF">;
def : SimSemantics<SemUALU,
  [VOTEU, VOTEU_r],
  "UALUKind::VOTEU">;
// ELECT (sm_90a elect.sync): one leader among the executing lanes whose
// Pp is true, the lowest (PTX leaves the choice to the hardware).
def : SimSemantics<SemUALU,
  [ELECT],
  "UALUKind::ELECT">;

// S2R.
def : SimSemantics<SemS2R,
  [S2R]>;

// S2UR.
def : SimSemantics<SemS2UR,
  [S2UR]>;

// SEL.
def : SimSemantics<SemSEL,
  [SEL_rcr, SEL_rir, SEL_rrr, SEL_rur]>;

// SHFL.
def : SimSemantics<SemSHFL,
  [SHFL_ii, SHFL_ir, SHFL_ri, SHFL_rr]>;

// SHF.
def : SimSemantics<SemSHF,
  [SHF_rcr, SHF_rir, SHF_rrc, SHF_rri, SHF_rrr, SHF_rru, SHF_rur]>;

// ULDC.
def : SimSemantics<SemULDC,
  [ULDC]>;
def : SimSemantics<SemULDC,
  [ULDC_UR],
  "", [FlagAddrUR]>;
def : SimSemantics<SemULDC,
  [ULDC_64],
  "", [FlagB64]>;
def : SimSemantics<SemULDC,
  [ULDC_UR_64],
  "", [FlagB64, FlagAddrUR]>;

// VIADD.
def : SimSemantics<SemVIADD,
  [VIADD_rir, VIADD_rur]>;

// VOTE.
def : SimSemantics<SemVOTE,
  [VOTE, VOTE_r]>;

// WARPSYNC.
def : SimSemantics<SemWARPSYNC,
  [WARPSYNC_i, WARPSYNC_r, WARPSYNC_c]>;

// ATOMS: shared-memory atomics, the lanes in ascending order.
def : SimSemantics<SemATOMS, [ATOMS_32], "AtomsKind::Op", [], 4>;
def : SimSemantics<SemATOMS, [ATOMS_UR_32], "AtomsKind::Op", [FlagAddrUR],
  4>;
def : SimSemantics<SemATOMS, [ATOMS_64], "AtomsKind::Op", [], 8>;
def : SimSemantics<SemATOMS, [ATOMS_UR_64], "AtomsKind::Op", [FlagAddrUR],
  8>;
def : SimSemantics<SemATOMS, [ATOMS_CAS_32], "AtomsKind::Cas", [], 4>;
def : SimSemantics<SemATOMS, [ATOMS_CAS_64], "AtomsKind::Cas", [], 8>;
def : SimSemantics<SemATOMS, [ATOMS_POPC_INC_32], "AtomsKind::PopcInc",
  [FlagAddrUR], 4>;

// ATOMG, RED (sm_90: REDG): 32-bit global atomics at desc[URx][Ra.64+off]
// (CAS: [Ra+off], 64-bit with .E), the lanes in ascending order.
def : SimSemantics<SemGAtom, [ATOMG_DESC_U32, RED_DESC_U32, REDG_DESC_U32],
  "AtomsKind::Op", [], 4>;
def : SimSemantics<SemGAtom, [ATOMG_DESC_S32, RED_DESC_S32, REDG_DESC_S32],
  "AtomsKind::Op", [FlagSignExtend], 4>;
def : SimSemantics<SemGAtom, [ATOMG_DESC_F32, RED_DESC_F32,
                              ATOMG_DESC_F32_SM90, REDG_DESC_F32],
  "AtomsKind::Op", [FlagF32], 4>;
def : SimSemantics<SemGAtom, [ATOMG_CAS_32], "AtomsKind::Cas", [], 4>;

// REDUX: a reduction over the executing lanes into a UR; sm_100's CREDUX
// (MIN/MAX, its own op codes).
def : SimSemantics<SemREDUX, [REDUX]>;
def : SimSemantics<SemREDUX, [CREDUX], "", [FlagCredux]>;

//===----------------------------------------------------------------------===//
// Blackwell's own forms (td/SM100/SM100Instrs.td) that tp-llc's kernel uses.
//===----------------------------------------------------------------------===//

// LDCU: ULDC's load into uniform registers (sizes as ULDC's; .128 loads
// four).
def : SimSemantics<SemULDC,
  [LDCU, LDCU_128]>;
def : SimSemantics<SemULDC,
  [LDCU_64],
  "", [FlagB64]>;

// LDGSTS with a descriptor: the size field is 0 (4 bytes), 1 (.64), 2
// (.128) instead of sm_86's 4/5/6 (flag CpSizeBw).
def : SimSemantics<SemLDGSTS,
  [LDGSTS_DESC_SM100, LDGSTS_DESC_SM100_P],
  "", [FlagDesc, FlagCpSizeBw]>;

// IADD.64 (sm_120/121): ptxas's 64-bit adds.
def : SimSemantics<SemIADD64,
  [IADD_64_rrr, IADD_64_rir, IADD_64_rur]>;

// Blackwell's convergence barriers with .RECONVERGENT: BSSY/BSYNC's.
def : SimSemantics<SemBSSY,
  [BSSY_RECONVERGENT]>;
def : SimSemantics<SemBSYNC,
  [BSYNC_RECONVERGENT]>;

// Blackwell's 32-bit global atomics and reductions (td/SM100: ATOMG, REDG
// with a descriptor), as sm_86's.
def : SimSemantics<SemGAtom, [ATOMG_DESC_U32_SM100, REDG_DESC_U32_SM100],
  "AtomsKind::Op", [], 4>;
def : SimSemantics<SemGAtom, [ATOMG_DESC_S32_SM100, REDG_DESC_S32_SM100],
  "AtomsKind::Op", [FlagSignExtend], 4>;
def : SimSemantics<SemGAtom, [ATOMG_DESC_F32_SM100, REDG_DESC_F32_SM100],
  "AtomsKind::Op", [FlagF32], 4>;

// MOV.64 and UMOV.64 (sm_120/121): a register pair from a pair or a 64-bit
// immediate.
def : SimSemantics<SemMOV64,
  [MOV_64_rrr, MOV_64_rur, MOV_64_i, UMOV_64_i]>;

// sm_120's 64-bit compare and select: ISETP's and SEL's meaning on pairs.
def : SimSemantics<SemISETP,
  [ISETP_64_rrr, ISETP_64_rir, ISETP_64_rur], "", [FlagB64]>;
def : SimSemantics<SemSEL,
  [SEL_64_rrr, SEL_64_rir], "", [FlagB64]>;
