//===- SelectForms.cpp - The instruction forms tp-select emits ------------===//
///
/// \file
/// The table behind SelectForms.h.  Raw values are the fields' values
/// (register numbers, RZ = 255; modifier codes; immediates; PT = 7); the
/// spelling is what nvdisasm prints for the entry.  SelectFormsTest checks
/// the two agree.
///
//===----------------------------------------------------------------------===//

#include "tp/CodeGen/SelectForms.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Compiler.h"
#include "llvm/Support/ErrorHandling.h"

#include <array>
#include <cassert>
#include <string>
#include <vector>

using namespace llvm;

namespace tp {
namespace isel {
namespace {

constexpr FormTemplate Templates[] = {
    {sass::S2R, "S2R", "S2R R0, SR_TID.X",
     2, {0, 33}},
    {sass::S2R, "S2R", "S2R R0, SR_CTAID.X",
     2, {0, 37}},
    {sass::S2R, "S2R", "S2R R0, SR_CTAID.Y",
     2, {0, 38}},
    {sass::MOV_rir, "MOV_rir", "MOV R0, 0x1",
     2, {0, 1}},
    {sass::IADD3_rir, "IADD3_rir", "IADD3 R0, R0, 0x1, RZ",
     6, {0, 0, 0, 1, 0, 255}},
    {sass::IADD3_rrr, "IADD3_rrr", "IADD3 R0, R0, R0, RZ",
     7, {0, 0, 0, 0, 0, 0, 255}},
    {sass::LOP3_LUT_rir, "LOP3_LUT_rir", "LOP3.LUT R0, R0, 0x1, RZ, 0xc0, !PT",
     7, {0, 0, 1, 255, 192, 1, 7}},
    {sass::LOP3_LUT_rrr, "LOP3_LUT_rrr", "LOP3.LUT R0, R0, R0, RZ, 0x3c, !PT",
     7, {0, 0, 0, 255, 60, 1, 7}},
    {sass::LOP3_LUT_rir, "LOP3_LUT_rir", "LOP3.LUT R0, R0, 0x1, RZ, 0x3c, !PT",
     7, {0, 0, 1, 255, 60, 1, 7}},
    {sass::SHF_rir, "SHF_rir", "SHF.R.U32.HI R0, RZ, 0x1, R0",
     8, {0, 1, 0, 3, 1, 255, 1, 0}},
    {sass::IMAD_SHL_U32_rir_1, "IMAD_SHL_U32_rir_1", "IMAD.SHL.U32 R0, R0, 0x2, RZ",
     2, {0, 0}},
    {sass::IMAD_rir, "IMAD_rir", "IMAD R0, R0, 0x3, R0",
     6, {0, 1, 0, 3, 0, 0}},
    {sass::IMAD_rrr, "IMAD_rrr", "IMAD R0, R0, R0, R0",
     6, {0, 1, 0, 0, 0, 0}},
    {sass::LEA_rrr, "LEA_rrr", "LEA R0, R0, R0, 0x1",
     6, {0, 0, 0, 0, 0, 1}},
    {sass::IMAD_WIDE_rrc, "IMAD_WIDE_rrc", "IMAD.WIDE.U32 R0, R0, R0, c[0x0][0x0]",
     7, {0, 0, 0, 0, 0, 0, 0}},
    {sass::LDGSTS_DESC, "LDGSTS_DESC", "LDGSTS.E.BYPASS.128 [R0+0x10], desc[UR4][R0.64]",
     11, {0, 0, 6, 0, 0, 0, 16, 4, 0, 1, 0}},
    {sass::LDGDEPBAR, "LDGDEPBAR", "LDGDEPBAR",
     0, {}},
    {sass::DEPBAR_LE, "DEPBAR_LE", "DEPBAR.LE SB0, 0x1",
     2, {0, 1}},
    {sass::BAR_SYNC_i, "BAR_SYNC_i", "BAR.SYNC.DEFER_BLOCKING 0x0",
     2, {1, 0}},
    {sass::LDSM_16_4, "LDSM_16_4", "LDSM.16.M88.4 R0, [R0+0x10]",
     4, {0, 0, 0, 16}},
    {sass::LDSM_16_4, "LDSM_16_4", "LDSM.16.MT88.4 R0, [R0+0x10]",
     4, {0, 1, 0, 16}},
    {sass::HMMA_16816_F32, "HMMA_16816_F32", "HMMA.16816.F32 R0, R0, R0, R0",
     4, {0, 0, 0, 0}},
    {sass::CS2R, "CS2R", "CS2R R0, SRZ",
     2, {0, 255}},
    {sass::STG_DESC_64, "STG_DESC_64", "STG.E.64 desc[UR4][R0.64+0x10], R0",
     8, {1, 1, 0, 4, 0, 1, 16, 0}},
    {sass::LDG_DESC_32, "LDG_DESC_32", "LDG.E R0, desc[UR4][R0.64+0x10]",
     9, {0, 1, 1, 0, 0, 4, 0, 1, 16}},
    {sass::FADD_rr, "FADD_rr", "FADD R0, R0, R0",
     10, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
    {sass::EXIT, "EXIT", "EXIT",
     0, {}},
    {sass::BRA, "BRA", "BRA 0x0",
     2, {0, -4}},
    {sass::ULDC_64, "ULDC_64", "ULDC.64 UR4, c[0x0][0x0]",
     4, {4, 5, 0, 0}},
    {sass::HMMA_16816_F32_BF16, "HMMA_16816_F32_BF16",
     "HMMA.16816.F32.BF16 R0, R0, R0, R0",
     4, {0, 0, 0, 0}},
    {sass::F2FP_PACK_AB_rrr, "F2FP_PACK_AB_rrr", "F2FP.PACK_AB R0, R0, R0",
     5, {0, 0, 0, 0, 0}},
    {sass::F2FP_PACK_AB_rrr, "F2FP_PACK_AB_rrr",
     "F2FP.BF16.PACK_AB R0, R0, R0",
     5, {0, 1, 0, 0, 0}},
    {sass::STG_DESC_32, "STG_DESC_32", "STG.E desc[UR4][R0.64+0x10], R0",
     8, {1, 1, 0, 4, 0, 1, 16, 0}},
    {sass::FSETP_rcr, "FSETP_rcr",
     "FSETP.NEU.AND P0, PT, RZ, c[0x0][0x0], PT",
     14, {0, 7, 13, 0, 0, 0, 0, 255, 0, 0, 0, 0, 0, 7}},
    {sass::FMUL_rcr, "FMUL_rcr", "FMUL R0, R0, c[0x0][0x0]",
     12, {0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
    {sass::FFMA_rcr, "FFMA_rcr", "FFMA R0, R0, c[0x0][0x0], R0",
     14, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
    {sass::FMNMX_rrr, "FMNMX_rrr", "FMNMX R0, R0, RZ, !PT",
     11, {0, 0, 0, 0, 0, 0, 0, 0, 255, 1, 7}},
    {sass::HADD2_rrr, "HADD2_rrr", "HADD2.F32 R0, -RZ, R0.H0_H0",
     11, {0, 1, 0, 1, 0, 255, 0, 0, 0, 2, 0}},
    {sass::HADD2_rrr, "HADD2_rrr", "HADD2.F32 R0, -RZ, R0.H1_H1",
     11, {0, 1, 0, 1, 0, 255, 0, 0, 0, 3, 0}},
    {sass::LOP3_LUT_rir, "LOP3_LUT_rir",
     "LOP3.LUT R0, R0, 0xffff0000, RZ, 0xc0, !PT",
     7, {0, 0, 0xffff0000, 255, 192, 1, 7}},
    {sass::MOV_rcr, "MOV_rcr", "MOV R0, c[0x0][0x0]",
     3, {0, 0, 0}},
    {sass::ISETP_rrr, "ISETP_rrr", "ISETP.LT.AND P0, PT, R0, R0, PT",
     9, {0, 7, 1, 1, 0, 0, 0, 0, 7}},
    {sass::ISETP_rir, "ISETP_rir", "ISETP.LT.AND P0, PT, R0, 0x1, PT",
     9, {0, 7, 1, 1, 0, 0, 1, 0, 7}},
    {sass::SEL_rrr, "SEL_rrr", "SEL R0, R0, RZ, P0",
     5, {0, 0, 255, 0, 0}},
    {sass::SEL_rir, "SEL_rir", "SEL R0, R0, 0x1, P0",
     5, {0, 0, 1, 0, 0}},
    {sass::LDGSTS_DESC_P, "LDGSTS_DESC_P",
     "LDGSTS.E.BYPASS.128 [R0+0x10], desc[UR4][R0.64], P0",
     13, {0, 0, 6, 0, 0, 0, 16, 4, 0, 1, 0, 0, 0}},
    {sass::S2R, "S2R", "S2R R0, SR_CTAID.Z",
     2, {0, 39}},
    {sass::LDG_DESC_U16, "LDG_DESC_U16",
     "LDG.E.U16 R0, desc[UR4][R0.64+0x10]",
     9, {0, 1, 1, 0, 0, 4, 0, 1, 16}},
    {sass::STG_DESC_U16, "STG_DESC_U16", "STG.E.U16 desc[UR4][R0.64+0x10], R0",
     8, {1, 1, 0, 4, 0, 1, 16, 0}},
    // Blackwell only: LDCU.64 and the LDGSTS whose size field is 0/1/2.
    {sass::LDCU_64, "LDCU_64", "LDCU.64 UR4, c[0x0][0x0]",
     4, {4, 5, 0, 0}},
    {sass::LDGSTS_DESC_SM100, "LDGSTS_DESC_SM100",
     "LDGSTS.E.BYPASS.128 [R0+0x10], desc[UR4][R0.64]",
     11, {0, 0, 2, 0, 0, 0, 16, 4, 0, 1, 0}},
    {sass::LDGSTS_DESC_SM100_P, "LDGSTS_DESC_SM100_P",
     "LDGSTS.E.BYPASS.128 [R0+0x10], desc[UR4][R0.64], P0",
     13, {0, 0, 2, 0, 0, 0, 16, 4, 0, 1, 0, 0, 0}},
};
static_assert(sizeof(Templates) / sizeof(Templates[0]) == size_t(Form::Count),
              "one template a form");

/// IMAD.SHL.U32 by 2^S, at index S (the forms' enumerators sort by name);
/// indices 0, 16 and 31 have no alias (hasShlAlias) and hold a placeholder.
constexpr sass::Opcode ShlOpcodes[32] = {
    sass::IMAD_SHL_U32_rir_1,  sass::IMAD_SHL_U32_rir_1,
    sass::IMAD_SHL_U32_rir_2,  sass::IMAD_SHL_U32_rir_3,
    sass::IMAD_SHL_U32_rir_4,  sass::IMAD_SHL_U32_rir_5,
    sass::IMAD_SHL_U32_rir_6,  sass::IMAD_SHL_U32_rir_7,
    sass::IMAD_SHL_U32_rir_8,  sass::IMAD_SHL_U32_rir_9,
    sass::IMAD_SHL_U32_rir_10, sass::IMAD_SHL_U32_rir_11,
    sass::IMAD_SHL_U32_rir_12, sass::IMAD_SHL_U32_rir_13,
    sass::IMAD_SHL_U32_rir_14, sass::IMAD_SHL_U32_rir_15,
    sass::IMAD_SHL_U32_rir_1,  sass::IMAD_SHL_U32_rir_17,
    sass::IMAD_SHL_U32_rir_18, sass::IMAD_SHL_U32_rir_19,
    sass::IMAD_SHL_U32_rir_20, sass::IMAD_SHL_U32_rir_21,
    sass::IMAD_SHL_U32_rir_22, sass::IMAD_SHL_U32_rir_23,
    sass::IMAD_SHL_U32_rir_24, sass::IMAD_SHL_U32_rir_25,
    sass::IMAD_SHL_U32_rir_26, sass::IMAD_SHL_U32_rir_27,
    sass::IMAD_SHL_U32_rir_28, sass::IMAD_SHL_U32_rir_29,
    sass::IMAD_SHL_U32_rir_30, sass::IMAD_SHL_U32_rir_1};

} // namespace

const FormTemplate &getFormTemplate(Form F) { return Templates[size_t(F)]; }

namespace {
/// The templates as instructions, at compile time.
constexpr std::array<sass::Instruction, size_t(Form::Count)> buildPrototypes() {
  std::array<sass::Instruction, size_t(Form::Count)> P{};
  for (size_t I = 0; I < size_t(Form::Count); ++I) {
    P[I].Op = Templates[I].Op;
    for (unsigned K = 0; K < Templates[I].NumOps; ++K)
      P[I].Ops[K] = Templates[I].Ops[K];
  }
  return P;
}
} // namespace

namespace detail {
// Constant-initialised read-only data: no guard to test at each
// instruction (a static local built on first use was).
constexpr std::array<sass::Instruction, size_t(Form::Count)> Prototypes =
    buildPrototypes();
} // namespace detail

bool hasShlAlias(unsigned Shift) {
  return Shift >= 1 && Shift <= 30 && Shift != 16;
}

sass::Opcode getShlOpcode(unsigned Shift) {
  if (!hasShlAlias(Shift))
    report_fatal_error("tp-select: IMAD.SHL.U32 shifts by 1..30 but 16, not " +
                       Twine(Shift));
  return ShlOpcodes[Shift];
}

namespace {
constexpr StringLiteral SlotNames[] = {
    "Rd", "Ra", "Rb", "Rc",  "Imm", "sh",  "Off", "off", "Rs", "soff",
    "cnt", "na", "nb", "Pu", "Pp",  "Ppn", "cmp", "u",   "zf"};
static_assert(sizeof(SlotNames) / sizeof(SlotNames[0]) == size_t(Slot::Count),
              "one name a slot");

/// Whether the C string \p S is \p Name (character by character: the
/// names are a few characters, and a strlen a comparison was a third of
/// the lookups).
bool isName(const char *S, StringRef Name) {
  for (char C : Name)
    if (*S++ != C)
      return false;
  return *S == '\0';
}

/// The index of the operand of form \p Op named like slot \p S, or -1.
int8_t findSlot(sass::Opcode Op, Slot S) {
  const sass::InstrInfo &II = sass::getInstrInfo(Op);
  StringRef Name = SlotNames[size_t(S)];
  for (unsigned K = 0; K < II.NumOperands; ++K)
    if (isName(II.Operands[K].Name, Name))
      return int8_t(K);
  return -1;
}
} // namespace

namespace detail {
namespace {
/// FormRows: the templates' forms, then the shifts', a row each.
constexpr std::array<uint8_t, sass::NUM_OPCODES> buildFormRows() {
  std::array<uint8_t, sass::NUM_OPCODES> Rows{};
  unsigned Count = 0;
  auto Add = [&](sass::Opcode Op) {
    if (!Rows[size_t(Op)])
      Rows[size_t(Op)] = uint8_t(++Count);
  };
  for (const FormTemplate &T : Templates)
    Add(T.Op);
  for (sass::Opcode Op : ShlOpcodes)
    Add(Op);
  return Rows;
}

constexpr size_t
countFormRows(const std::array<uint8_t, sass::NUM_OPCODES> &R) {
  size_t Max = 0;
  for (uint8_t Row : R)
    Max = Row > Max ? Row : Max;
  return Max;
}
} // namespace

constexpr std::array<uint8_t, sass::NUM_OPCODES> FormRows = buildFormRows();
constexpr size_t NumFormRows = countFormRows(FormRows);
static_assert(NumFormRows < 255, "a row number is a uint8_t");

std::atomic<int8_t> SlotTable[(NumFormRows + 1) * size_t(Slot::Count)];

int8_t lookUpSlot(sass::Opcode Op, Slot S) {
  assert(unsigned(Op) < sass::getNumOpcodes() && "not a form");
  int8_t K = findSlot(Op, S);
  if (K < 0)
    report_fatal_error("tp-select: form " +
                       Twine(sass::getInstrInfo(Op).Name) +
                       " has no operand " + SlotNames[size_t(S)]);
  if (size_t Row = FormRows[size_t(Op)])
    SlotTable[Row * size_t(Slot::Count) + size_t(S)].store(
        int8_t(K + 1), std::memory_order_relaxed);
  return K;
}
} // namespace detail

} // namespace isel
} // namespace tp
