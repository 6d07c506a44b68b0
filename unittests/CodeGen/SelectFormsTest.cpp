//===- SelectFormsTest.cpp - tp-select's form table against the ISA -------===//
//
// Every entry of the table tp-select builds instructions from
// (SelectForms.h) prints as the spelling it claims, passes sass::verify on
// sm_86 and sm_90 (Blackwell's own forms: on sm_100), is an
// oracle-verified form, and parses back to the same raw values; every
// IMAD.SHL.U32 shift has its form.
//
//===----------------------------------------------------------------------===//

#include "tp/CodeGen/SelectForms.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <string>
#include <vector>

using namespace llvm;
using namespace tp;
using namespace tp::isel;

namespace {

TEST(SelectFormsTest, EveryTemplateIsItsSpelling) {
  for (unsigned F = 0; F < unsigned(Form::Count); ++F) {
    const FormTemplate &T = getFormTemplate(Form(F));
    const sass::Instruction &I = getPrototype(Form(F));
    std::string Text;
    raw_string_ostream OS(Text);
    sass::print(I, 0, OS);
    EXPECT_EQ(OS.str(), T.Spelling) << T.FormName;
    EXPECT_STREQ(sass::getInstrInfo(I.Op).Name, T.FormName);
    EXPECT_TRUE(sass::isOracleVerified(I.Op)) << T.FormName;
    // Each form verifies on sm_86 and sm_90, or (Blackwell's own forms)
    // on sm_100.
    bool Blackwell = !sass::isAvailable(I.Op, sass::Target::SM86);
    const std::vector<sass::Target> Targets =
        Blackwell ? std::vector<sass::Target>{sass::Target::SM100}
                  : std::vector<sass::Target>{sass::Target::SM86,
                                              sass::Target::SM90};
    for (sass::Target Tg : Targets) {
      EXPECT_TRUE(sass::isAvailable(I.Op, Tg)) << T.FormName;
      Error E = sass::verify(I, Tg);
      EXPECT_FALSE(bool(E)) << T.FormName << ": " << toString(std::move(E));
    }
    // The spelling parses to the very same operand values.
    SourceMgr SM;
    SM.AddNewSourceBuffer(MemoryBuffer::getMemBufferCopy(T.Spelling, "t"),
                          SMLoc());
    Expected<sass::Instruction> P = sass::parse(
        SM.getMemoryBuffer(1)->getBuffer(), 0, SM,
        Blackwell ? sass::Target::SM100 : sass::Target::SM86);
    ASSERT_TRUE(bool(P)) << T.FormName << ": " << toString(P.takeError());
    EXPECT_EQ(P->Op, I.Op) << T.Spelling;
    EXPECT_EQ(P->Ops, I.Ops) << T.Spelling;
  }
}

TEST(SelectFormsTest, ShiftForms) {
  for (unsigned S = 1; S < 32; ++S) {
    if (!hasShlAlias(S))
      continue;
    sass::Instruction I = getPrototype(Form::ShlImm);
    I.Op = getShlOpcode(S);
    std::string Text;
    raw_string_ostream OS(Text);
    sass::print(I, 0, OS);
    char Want[64];
    snprintf(Want, sizeof(Want), "IMAD.SHL.U32 R0, R0, 0x%x, RZ", 1u << S);
    EXPECT_EQ(OS.str(), Want);
    EXPECT_TRUE(sass::isOracleVerified(I.Op)) << S;
  }
}

TEST(SelectFormsTest, OperandsByName) {
  sass::Instruction I = getPrototype(Form::IMadImm);
  operand(I, Slot::Rd) = 5;
  operand(I, Slot::Ra) = 6;
  operand(I, Slot::Imm) = 3;
  operand(I, Slot::Rc) = 255;
  std::string Text;
  raw_string_ostream OS(Text);
  sass::print(I, 0, OS);
  EXPECT_EQ(OS.str(), "IMAD R5, R6, 0x3, RZ");
}

// The slot cache has a row for each form the selector builds (every
// template's and every shift's), distinct forms in distinct rows, row 0
// for the others; through it or not, operand() finds the operand its td
// name names, and finds it again (the cached answer).
TEST(SelectFormsTest, SlotRows) {
  std::vector<sass::Opcode> Built;
  for (unsigned F = 0; F < unsigned(Form::Count); ++F)
    Built.push_back(getFormTemplate(Form(F)).Op);
  for (unsigned S = 1; S < 32; ++S)
    if (hasShlAlias(S))
      Built.push_back(getShlOpcode(S));
  std::vector<sass::Opcode> ByRow(256, sass::Opcode(0));
  std::vector<bool> RowTaken(256, false);
  for (sass::Opcode Op : Built) {
    unsigned Row = isel::detail::FormRows[size_t(Op)];
    ASSERT_NE(Row, 0u) << sass::getInstrInfo(Op).Name;
    EXPECT_TRUE(!RowTaken[Row] || ByRow[Row] == Op)
        << sass::getInstrInfo(Op).Name << " shares row " << Row;
    RowTaken[Row] = true;
    ByRow[Row] = Op;
  }
  unsigned WithRow = 0;
  for (unsigned Op = 0; Op < sass::getNumOpcodes(); ++Op)
    WithRow += isel::detail::FormRows[Op] != 0;
  EXPECT_EQ(WithRow, unsigned(llvm::count(RowTaken, true)))
      << "a row for a form the selector does not build";

  const char *Names[] = {"Rd",  "Ra",  "Rb",   "Rc",  "Imm", "sh", "Off",
                         "off", "Rs",  "soff", "cnt", "na",  "nb", "Pu",
                         "Pp",  "Ppn", "cmp",  "u",   "zf"};
  static_assert(sizeof(Names) / sizeof(Names[0]) == size_t(Slot::Count),
                "one name a slot");
  // A form the selector never builds (no row) resolves by name each time.
  sass::Opcode Other;
  ASSERT_TRUE(sass::lookupOpcode("IMAD_MOV_U32_rir", Other));
  EXPECT_EQ(isel::detail::FormRows[size_t(Other)], 0u);
  Built.push_back(Other);
  for (sass::Opcode Op : Built) {
    const sass::InstrInfo &II = sass::getInstrInfo(Op);
    for (unsigned K = 0; K < II.NumOperands; ++K)
      for (unsigned S = 0; S < unsigned(Slot::Count); ++S) {
        if (StringRef(II.Operands[K].Name) != Names[S])
          continue;
        for (int Twice = 0; Twice < 2; ++Twice) {
          sass::Instruction I;
          I.Op = Op;
          EXPECT_EQ(&operand(I, Slot(S)), &I.Ops[K])
              << II.Name << " " << Names[S];
        }
      }
  }
}

// getShlOpcode's table holds IMAD.SHL.U32 by 2^S at S, for the shifts
// NVIDIA's tables give the alias: 1..30 but 16.
TEST(SelectFormsTest, ShiftFormsByAmount) {
  unsigned With = 0;
  for (unsigned S = 1; S < 32; ++S)
    With += hasShlAlias(S);
  EXPECT_EQ(With, 29u);
  EXPECT_FALSE(hasShlAlias(16));
  EXPECT_FALSE(hasShlAlias(31));
  for (unsigned S = 1; S < 32; ++S)
    if (hasShlAlias(S))
      EXPECT_EQ(std::string(sass::getInstrInfo(getShlOpcode(S)).Name),
              "IMAD_SHL_U32_rir_" + std::to_string(S));
}

} // namespace
