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

#include "llvm/ADT/Twine.h"
#include "llvm/Support/ErrorHandling.h"

#include <array>
#include <string>
#include <vector>

using namespace llvm;

namespace tp {
namespace isel {
namespace {

const FormTemplate Templates[] = {
    {"S2R", "S2R R0, SR_TID.X",
     2, {0, 33}},
    {"S2R", "S2R R0, SR_CTAID.X",
     2, {0, 37}},
    {"S2R", "S2R R0, SR_CTAID.Y",
     2, {0, 38}},
    {"MOV_rir", "MOV R0, 0x1",
     2, {0, 1}},
    {"IADD3_rir", "IADD3 R0, R0, 0x1, RZ",
     6, {0, 0, 0, 1, 0, 255}},
    {"IADD3_rrr", "IADD3 R0, R0, R0, RZ",
     7, {0, 0, 0, 0, 0, 0, 255}},
    {"LOP3_LUT_rir", "LOP3.LUT R0, R0, 0x1, RZ, 0xc0, !PT",
     7, {0, 0, 1, 255, 192, 1, 7}},
    {"LOP3_LUT_rrr", "LOP3.LUT R0, R0, R0, RZ, 0x3c, !PT",
     7, {0, 0, 0, 255, 60, 1, 7}},
    {"LOP3_LUT_rir", "LOP3.LUT R0, R0, 0x1, RZ, 0x3c, !PT",
     7, {0, 0, 1, 255, 60, 1, 7}},
    {"SHF_rir", "SHF.R.U32.HI R0, RZ, 0x1, R0",
     8, {0, 1, 0, 3, 1, 255, 1, 0}},
    {"IMAD_SHL_U32_rir_1", "IMAD.SHL.U32 R0, R0, 0x2, RZ",
     2, {0, 0}},
    {"IMAD_rir", "IMAD R0, R0, 0x3, R0",
     6, {0, 1, 0, 3, 0, 0}},
    {"IMAD_rrr", "IMAD R0, R0, R0, R0",
     6, {0, 1, 0, 0, 0, 0}},
    {"LEA_rrr", "LEA R0, R0, R0, 0x1",
     6, {0, 0, 0, 0, 0, 1}},
    {"IMAD_WIDE_rrc", "IMAD.WIDE.U32 R0, R0, R0, c[0x0][0x160]",
     7, {0, 0, 0, 0, 0, 0, 352}},
    {"LDGSTS_DESC", "LDGSTS.E.BYPASS.128 [R0+0x10], desc[UR4][R0.64]",
     11, {0, 0, 6, 0, 0, 0, 16, 4, 0, 1, 0}},
    {"LDGDEPBAR", "LDGDEPBAR",
     0, {}},
    {"DEPBAR_LE", "DEPBAR.LE SB0, 0x1",
     2, {0, 1}},
    {"BAR_SYNC_i", "BAR.SYNC.DEFER_BLOCKING 0x0",
     2, {1, 0}},
    {"LDSM_16_4", "LDSM.16.M88.4 R0, [R0+0x10]",
     4, {0, 0, 0, 16}},
    {"LDSM_16_4", "LDSM.16.MT88.4 R0, [R0+0x10]",
     4, {0, 1, 0, 16}},
    {"HMMA_16816_F32", "HMMA.16816.F32 R0, R0, R0, R0",
     4, {0, 0, 0, 0}},
    {"CS2R", "CS2R R0, SRZ",
     2, {0, 255}},
    {"STG_DESC_64", "STG.E.64 desc[UR4][R0.64+0x10], R0",
     8, {1, 1, 0, 4, 0, 1, 16, 0}},
    {"LDG_DESC_32", "LDG.E R0, desc[UR4][R0.64+0x10]",
     9, {0, 1, 1, 0, 0, 4, 0, 1, 16}},
    {"FADD_rr", "FADD R0, R0, R0",
     10, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
    {"EXIT", "EXIT",
     0, {}},
    {"BRA", "BRA 0x0",
     2, {0, -4}},
    {"ULDC_64", "ULDC.64 UR4, c[0x0][0x118]",
     4, {4, 5, 0, 280}},
};
static_assert(sizeof(Templates) / sizeof(Templates[0]) == size_t(Form::Count),
              "one template a form");

sass::Opcode lookup(const char *Name) {
  sass::Opcode Op;
  if (!sass::lookupOpcode(Name, Op))
    report_fatal_error("tp-select: no form named " + Twine(Name));
  return Op;
}

} // namespace

const FormTemplate &getFormTemplate(Form F) { return Templates[size_t(F)]; }

const sass::Instruction &getPrototype(Form F) {
  static const std::array<sass::Instruction, size_t(Form::Count)> Protos = [] {
    std::array<sass::Instruction, size_t(Form::Count)> P;
    for (size_t I = 0; I < size_t(Form::Count); ++I) {
      P[I].Op = lookup(Templates[I].FormName);
      for (unsigned K = 0; K < Templates[I].NumOps; ++K)
        P[I].Ops[K] = Templates[I].Ops[K];
    }
    return P;
  }();
  return Protos[size_t(F)];
}

sass::Opcode getShlOpcode(unsigned Shift) {
  static const std::array<sass::Opcode, 32> Ops = [] {
    std::array<sass::Opcode, 32> A{};
    for (unsigned S = 1; S < 32; ++S)
      A[S] = lookup(("IMAD_SHL_U32_rir_" + std::to_string(S)).c_str());
    return A;
  }();
  if (Shift < 1 || Shift > 31)
    report_fatal_error("tp-select: IMAD.SHL.U32 shifts by 1..31, not " +
                       Twine(Shift));
  return Ops[Shift];
}

int64_t &operand(sass::Instruction &I, Slot S) {
  static const char *const Names[] = {"Rd",  "Ra", "Rb", "Rc", "Imm", "sh",
                                      "Off", "off", "Rs", "soff", "cnt"};
  static_assert(sizeof(Names) / sizeof(Names[0]) == size_t(Slot::Count),
                "one name a slot");
  // Index of each slot in each form, found on first use (-1: none).
  using Row = std::array<int8_t, size_t(Slot::Count)>;
  static std::vector<Row> Index(sass::getNumOpcodes(), Row{});
  static std::vector<bool> Known(sass::getNumOpcodes(), false);
  if (!Known[I.Op]) {
    const sass::InstrInfo &II = sass::getInstrInfo(I.Op);
    Row &R = Index[I.Op];
    R.fill(-1);
    for (unsigned K = 0; K < II.NumOperands; ++K)
      for (size_t N = 0; N < size_t(Slot::Count); ++N)
        if (StringRef(II.Operands[K].Name) == Names[N])
          R[N] = int8_t(K);
    Known[I.Op] = true;
  }
  int8_t K = Index[I.Op][size_t(S)];
  if (K < 0)
    report_fatal_error("tp-select: form " +
                       Twine(sass::getInstrInfo(I.Op).Name) +
                       " has no operand " + Names[size_t(S)]);
  return I.Ops[K];
}

} // namespace isel
} // namespace tp
