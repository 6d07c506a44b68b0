//===- SM86APITest.cpp - The public API of the instruction-set layer -------===//
///
/// \file
/// Instruction info (operand kinds, tuple widths, def/use, scheduling),
/// building an instruction by hand, control fields at their bit positions,
/// verify() rejecting values that do not fit, and parse() locations.
///
//===----------------------------------------------------------------------===//

#include "tp/Support/Diagnostics.h"
#include "tp/Target/SASS/SASS.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "gtest/gtest.h"
#include <algorithm>

using namespace tp;
using namespace tp::sass;
using namespace llvm;

namespace {

Instruction parseOrDie(StringRef Text, SourceMgr &SM) {
  unsigned Id =
      SM.AddNewSourceBuffer(MemoryBuffer::getMemBufferCopy(Text, "t"), SMLoc());
  auto IOr = parse(SM.getMemoryBuffer(Id)->getBuffer(), 0, SM);
  EXPECT_TRUE(bool(IOr)) << toString(IOr.takeError());
  return IOr ? *IOr : Instruction();
}

/// Form \p Form built by hand: the operands \p Named gives by their td
/// names, every other one 0.
Instruction buildByNames(StringRef Form,
                         std::initializer_list<std::pair<StringRef, int64_t>>
                             Named) {
  Instruction I;
  Opcode Op;
  EXPECT_TRUE(lookupOpcode(Form, Op)) << Form.str();
  I.Op = Op;
  const InstrInfo &II = getInstrInfo(Op);
  for (unsigned K = 0; K < II.NumOperands; ++K) {
    I.Ops[K] = 0;
    for (const auto &[Name, V] : Named)
      if (Name == II.Operands[K].Name)
        I.Ops[K] = V;
  }
  return I;
}

/// The index of operand \p Name of \p I's form.
unsigned operandIndex(const Instruction &I, StringRef Name) {
  const InstrInfo &II = getInstrInfo(I.Op);
  for (unsigned K = 0; K < II.NumOperands; ++K)
    if (Name == II.Operands[K].Name)
      return K;
  ADD_FAILURE() << "no operand " << Name.str();
  return 0;
}

TEST(SM86API, HMMAOperandInfo) {
  Opcode Op;
  ASSERT_TRUE(lookupOpcode("HMMA_16816_F32", Op));
  const InstrInfo &II = getInstrInfo(Op);
  EXPECT_STREQ(II.Mnemonic, "HMMA");
  ASSERT_EQ(II.NumOperands, 4u);
  // D (4 regs, def), A (4), B (2), C (4); reuse slots A B C.
  EXPECT_EQ(II.Operands[0].Kind, OperandKind::GPR);
  EXPECT_TRUE(II.Operands[0].IsDef);
  EXPECT_EQ(II.Operands[0].Width, 4);
  EXPECT_EQ(II.Operands[1].Width, 4);
  EXPECT_EQ(II.Operands[2].Width, 2);
  EXPECT_EQ(II.Operands[3].Width, 4);
  EXPECT_FALSE(II.Operands[3].IsDef);
  EXPECT_EQ(II.Operands[1].ReuseSlot, 0);
  EXPECT_EQ(II.Operands[2].ReuseSlot, 1);
  EXPECT_EQ(II.Operands[3].ReuseSlot, 2);
  EXPECT_FALSE(II.Sched.Variable);
  EXPECT_EQ(II.Sched.Latency, 24);
}

// MaxOperands (generated) is the most operands any form has: every form's
// operands fit Instruction::Ops, and some form needs all of them.
TEST(SM86API, MaxOperandsIsTheLargestForm) {
  unsigned Most = 0;
  for (unsigned Op = 0; Op < getNumOpcodes(); ++Op)
    Most = std::max<unsigned>(Most, getInstrInfo(Opcode(Op)).NumOperands);
  EXPECT_EQ(Most, MaxOperands);
  EXPECT_EQ(Instruction().Ops.size(), MaxOperands);
}

TEST(SM86API, LDGSTSIsVariableAndReadsLate) {
  SourceMgr SM;
  Instruction I = parseOrDie("LDGSTS.E.BYPASS.128 [R9], desc[UR6][R4.64]", SM);
  const InstrInfo &II = getInstrInfo(I.Op);
  EXPECT_TRUE(II.Sched.Variable);
  bool SawDesc = false, SawBase = false;
  for (unsigned K = 0; K < II.NumOperands; ++K) {
    const OperandInfo &O = II.Operands[K];
    EXPECT_FALSE(O.IsDef);
    if (O.Kind == OperandKind::MemDesc) {
      SawDesc = true;
      EXPECT_EQ(I.Ops[K], 6);
    }
    if (O.Kind == OperandKind::MemBase && StringRef(O.Name) == "Ra") {
      SawBase = true;
      EXPECT_EQ(I.Ops[K], 4);
      EXPECT_TRUE((II.Sched.LateReadMask >> K) & 1);
    }
  }
  EXPECT_TRUE(SawDesc);
  EXPECT_TRUE(SawBase);
}

// ptxas 13 (SASS_FACTS 1.4, E): cp.async.cg 16 B ->
// LDGSTS.E.BYPASS.128 [R9], desc[UR6][R4.64] = lo 0x0000000004097fae
// hi 0x0003e6000b901c46, with a read scoreboard R1 and stall 3.
TEST(SM86API, ControlFieldsAtTheirBits) {
  SourceMgr SM;
  Instruction I = parseOrDie("LDGSTS.E.BYPASS.128 [R9], desc[UR6][R4.64]", SM);
  I.Ctrl = Control();
  I.Ctrl.Stall = 3;
  I.Ctrl.Yield = false; // ptxas leaves bit 109 set
  I.Ctrl.RdSB = 1;
  Word128 W = encode(I);
  EXPECT_EQ(W.Lo, 0x0000000004097faeull);
  EXPECT_EQ(W.Hi, 0x0003e6000b901c46ull);
  Instruction D;
  ASSERT_TRUE(decode(W, D));
  EXPECT_EQ(D.Ctrl, I.Ctrl);
  // Each field alone.
  Word128 Z;
  Control C;
  C.Stall = 15;
  C.Yield = true; // bit 109 = 0
  C.WrSB = 0;
  C.RdSB = 0;
  setControl(Z, C);
  EXPECT_EQ(Z.Hi >> 41, 0xfull);
  C = Control();
  C.WaitMask = 0x21;
  C.Reuse = 0x5;
  C.Yield = true;
  C.WrSB = 0;
  C.RdSB = 0;
  Z = Word128();
  setControl(Z, C);
  EXPECT_EQ(Z.Hi >> 41, (0x5ull << 17) | (0x21ull << 11));
}

// A scoreboard operand is SB0..SB5: its 3-bit field's 6 and 7 are no
// scoreboard (nvdisasm 11.8 prints DEPBAR.LE INVALID6), so verify()
// refuses them as the parser does.
TEST(SM86API, ScoreboardOperandIsSB0ToSB5) {
  Opcode Op;
  ASSERT_TRUE(lookupOpcode("DEPBAR_LE", Op));
  Instruction I;
  I.Op = Op;
  I.Ops[0] = 5; // DEPBAR.LE SB5, 0x1
  I.Ops[1] = 1;
  EXPECT_FALSE(bool(verify(I)));
  for (int64_t SB : {6, 7}) {
    I.Ops[0] = SB;
    Error E = verify(I);
    EXPECT_TRUE(bool(E)) << "SB" << SB;
    consumeError(std::move(E));
  }
}

TEST(SM86API, BuildByHandAndVerify) {
  // IADD3 R10, R5, -0x1, RZ (a TSV row: 0000000007ffe0ffffffffff050a7810).
  Instruction I = buildByNames(
      "IADD3_rir", {{"Rd", 10}, {"Ra", 5}, {"Imm", -1}, {"Rc", 255}});
  ASSERT_FALSE(bool(verify(I)));
  Word128 W = encode(I);
  EXPECT_EQ(W.Lo, 0xffffffff050a7810ull);
  EXPECT_EQ(W.Hi & 0x1ffffffffffull, 0x0000000007ffe0ffull);
  std::string S;
  raw_string_ostream OS(S);
  print(I, 0, OS);
  EXPECT_EQ(OS.str(), "IADD3 R10, R5, -0x1, RZ");
  // Values that do not fit are errors, never truncated.
  Instruction Bad = I;
  Bad.Ops[operandIndex(I, "Rd")] = 256;
  Error E = verify(Bad);
  EXPECT_TRUE(bool(E));
  consumeError(std::move(E));
  Bad = I;
  Bad.Ctrl.Stall = 16;
  E = verify(Bad);
  EXPECT_TRUE(bool(E));
  consumeError(std::move(E));
  Bad = I;
  Bad.Ctrl.WrSB = 6;
  E = verify(Bad);
  EXPECT_TRUE(bool(E));
  consumeError(std::move(E));
}

// A register tuple the assembler never writes (misaligned, or past R254)
// encodes and decodes, but is no instruction: verify() refuses it with the
// parser's message (and such a word prints as .inst).
TEST(SM86API, VerifyRefusesRegisterTuplesThatAreNone) {
  Instruction I = buildByNames("IMAD_WIDE_rrr",
                               {{"Rd", 4}, {"Ra", 5}, {"Rb", 6}, {"Rc", 8}});
  const InstrInfo &II = getInstrInfo(I.Op);
  unsigned D = operandIndex(I, "Rd");
  ASSERT_FALSE(bool(verify(I)));
  for (auto [Rd, Why] :
       {std::pair<int64_t, const char *>{3, "expected a register tuple of 2 "
                                            "aligned to 2, found R3"},
        {254, "register tuple R254 runs past R254"}}) {
    Instruction Bad = I;
    Bad.Ops[D] = Rd;
    EXPECT_EQ(registerTupleProblem(II.Operands[D], Rd), Why);
    Error E = verify(Bad);
    ASSERT_TRUE(bool(E));
    EXPECT_NE(toString(std::move(E)).find(Why), std::string::npos);
  }
}

TEST(SM86API, UnknownWordsAreErrors) {
  Word128 W;
  W.Lo = 0x0000000000000fffull; // opcode 0xfff: no form
  Instruction I;
  EXPECT_FALSE(decode(W, I));
  auto IOr = decodeOrError(W, 0x40);
  ASSERT_FALSE(bool(IOr));
  EXPECT_EQ(toString(IOr.takeError()),
            "unknown instruction at address 0x0040: "
            "0x00000000000000000000000000000fff");
}

TEST(SM86API, ParseErrorsCarryLocations) {
  SourceMgr SM;
  unsigned Id = SM.AddNewSourceBuffer(
      MemoryBuffer::getMemBufferCopy("IADD3 R1, R256, R2, RZ", "x.sass"),
      SMLoc());
  auto IOr = parse(SM.getMemoryBuffer(Id)->getBuffer(), 0, SM);
  ASSERT_FALSE(bool(IOr));
  std::string Msg = toString(IOr.takeError());
  EXPECT_NE(Msg.find("x.sass:1:11: error: register R number 256"),
            std::string::npos)
      << Msg;
}

TEST(SM86API, BranchTargets) {
  SourceMgr SM;
  unsigned Id = SM.AddNewSourceBuffer(
      MemoryBuffer::getMemBufferCopy("@!P0 BRA 0x1b0", "b.sass"), SMLoc());
  auto IOr = parse(SM.getMemoryBuffer(Id)->getBuffer(), 0x180, SM);
  ASSERT_TRUE(bool(IOr));
  // TSV row at 0x180: 00000000038000000000002000008947.
  Word128 W = encode(*IOr);
  EXPECT_EQ(W.Lo, 0x0000002000008947ull);
  EXPECT_EQ(getBranchTarget(0x180, getBranchOffset(0x180, 0x1b0)), 0x1b0u);
}

} // namespace

/// sass::IntCompare names ISETP's compare codes as td's ICmp spells them.
TEST(SM86API, IntCompareCodesAreTdsSpellings) {
  const InstrInfo &II = getInstrInfo(ISETP_rrr);
  int Cmp = -1;
  for (unsigned I = 0; I < II.NumOperands; ++I)
    if (StringRef(II.Operands[I].Name) == "cmp")
      Cmp = int(I);
  ASSERT_GE(Cmp, 0);
  std::pair<IntCompare, StringRef> Codes[] = {
      {ICmpF, ".F"},   {ICmpLT, ".LT"}, {ICmpEQ, ".EQ"}, {ICmpLE, ".LE"},
      {ICmpGT, ".GT"}, {ICmpNE, ".NE"}, {ICmpGE, ".GE"}, {ICmpT, ".T"}};
  for (auto [Code, Spelling] : Codes)
    EXPECT_EQ(getModifierSpelling(ISETP_rrr, unsigned(Cmp), Code), Spelling);
}
