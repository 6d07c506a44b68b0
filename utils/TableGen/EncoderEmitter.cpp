//===- EncoderEmitter.cpp - tp-tblgen -gen-sass-encoder ------------------===//
///
/// \file
/// -gen-sass-encoder: the bit segments of every operand field, the guard
/// and control fields, and per target each form's fixed bits.
/// GET_SASS_OPERAND_ENCODERS: per target and form, a straight-line function
/// that inserts the operands into the word with constant shifts and masks
/// (the same bits as a walk of the field tables), identical bodies shared.
///
//===----------------------------------------------------------------------===//

#include "SASSEmitter.h"
#include "SASSModel.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/TableGen/Error.h"
#include "llvm/TableGen/TableGenBackend.h"
#include <algorithm>
#include <map>
#include <tuple>

using namespace llvm;

namespace tp {
namespace tblgen {

namespace {

std::string hex(uint64_t V) { return "0x" + utohexstr(V) + "ULL"; }

/// Width \p W low bits set (W <= 64).
uint64_t lowBits(unsigned W) {
  return W >= 64 ? ~uint64_t(0) : (uint64_t(1) << W) - 1;
}

/// The statement that stores bits [FB, FB+W) of `V` at bits [B, B+W) of
/// the 64-bit half \p Half (B + W <= 64), leaving its other bits:
/// insertBits() of the field table walk, with its masks as constants.
std::string insertStmt(const char *Half, unsigned B, unsigned FB, unsigned W) {
  uint64_t M = lowBits(W) << B;
  std::string Bits = FB >= 64 ? std::string("0")
                              : FB ? "(V >> " + std::to_string(FB) + ")"
                                   : std::string("V");
  if (B && Bits != "0")
    Bits = "(" + Bits + " << " + std::to_string(B) + ")";
  return std::string("    ") + Half + " = (" + Half + " & " + hex(~M) +
         ") | (" + Bits + " & " + hex(M) + ");\n";
}

/// The body of a function that inserts the operands `Ops` of form \p F as
/// target encoding \p Enc lays them out into the word `Lo`, `Hi`: per
/// operand the value, its XOR mask, Blackwell's 8-bit uniform register
/// fields (URZ is stored as 0xff, UR63 as 0x3f), then each segment -- what insertField()
/// does for each operand field in turn.
std::string operandEncoderBody(const FormModel &Enc) {
  std::string B;
  for (unsigned K = 0; K < Enc.Ops.size(); ++K) {
    const OperandModel &EO = Enc.Ops[K];
    if (EO.Segs.empty())
      continue;
    B += "  {\n    uint64_t V = uint64_t(Ops[" + std::to_string(K) + "]);\n";
    // FieldRef::Xor is a byte: the same mask as the field table walk's.
    if (uint8_t Xor = uint8_t(EO.Type->getValueAsInt("XorMask")))
      B += "    V ^= " + hex(Xor) + ";\n";
    if (isWideURField(EO, EO.Segs))
      B += "    if (V == URZ)\n      V = 0xff;\n"
           "    else if (V == UR63)\n      V = URZ;\n";
    for (const Seg &S : EO.Segs) {
      if (S.InstBit >= 64) {
        B += insertStmt("Hi", S.InstBit - 64, S.FieldBit, S.Width);
      } else if (S.InstBit + S.Width <= 64) {
        B += insertStmt("Lo", S.InstBit, S.FieldBit, S.Width);
      } else { // crosses bit 64: the low half's part, then the high half's
        unsigned LoW = 64 - S.InstBit;
        B += insertStmt("Lo", S.InstBit, S.FieldBit, LoW);
        B += insertStmt("Hi", 0, S.FieldBit + LoW, S.Width - LoW);
      }
    }
    B += "  }\n";
  }
  return B;
}

/// GET_SASS_OPERAND_ENCODERS: per target, per form, the function that
/// inserts the form's operands (identical bodies shared), and the table of
/// them.
void emitOperandEncoders(const SASSModel &M, raw_ostream &OS) {
  OS << "#ifdef GET_SASS_OPERAND_ENCODERS\n"
        "// Inserts a form's operands into a word (Lo: bits 0-63, Hi:\n"
        "// 64-127) holding its fixed bits.\n";
  emitFunctionsByForm(
      OS, M, "void", "encodeOperands",
      "(const int64_t *Ops, uint64_t &Lo, uint64_t &Hi)",
      "  (void)Ops;\n  (void)Lo;\n  (void)Hi;\n", "", "OperandEncoder",
      "OperandEncoders", [&](unsigned T, unsigned F) {
        int E = M.EncodingFor[T][F];
        return operandEncoderBody(E >= 0 ? M.Encodings[E] : M.Forms[F]);
      });
  OS << "#undef GET_SASS_OPERAND_ENCODERS\n#endif\n";
}

} // namespace

void emitEncoder(RecordKeeper &RK, raw_ostream &OS) {
  SASSModel M(RK);
  emitSourceFileHeader("sm_86 encoder: field segments", OS);
  OS << "#ifdef GET_SASS_ENCODER\n";
  OS << "// {inst bit, field bit, width} segments of every operand field.\n";
  OS << "const FieldSeg Segs[] = {\n";
  unsigned N = 0;
  std::vector<std::pair<unsigned, unsigned>> OpSegs;
  std::vector<int64_t> Xors;
  std::vector<bool> WideURs;
  // One form's (or encoding's) operands: their segments and, per operand,
  // where they start, its XOR mask and whether it is an 8-bit uniform
  // register field (Blackwell's: URZ is 0xff there, 0x3f in the 6-bit
  // fields of sm_80 to sm_90).
  auto EmitOperands = [&](const FormModel &F) {
    OS << "  // " << F.Name << "\n";
    for (const OperandModel &O : F.Ops) {
      OS << "  ";
      emitSegs(OS, O.Segs);
      OS << " // $" << O.Name << "\n";
      OpSegs.push_back({N, (unsigned)O.Segs.size()});
      Xors.push_back(O.Type->getValueAsInt("XorMask"));
      WideURs.push_back(isWideURField(O, O.Segs));
      N += O.Segs.size();
    }
  };
  for (const FormModel &F : M.Forms)
    EmitOperands(F);
  auto EmitField = [&](const FieldModel &Fm) {
    OS << "  ";
    emitSegs(OS, Fm.Segs);
    OS << " // " << Fm.Name << "\n";
    OpSegs.push_back({N, (unsigned)Fm.Segs.size()});
    Xors.push_back(0);
    WideURs.push_back(false);
    N += Fm.Segs.size();
  };
  EmitField(M.Guard);
  EmitField(M.GuardNeg);
  for (const FieldModel &C : M.Control)
    EmitField(C);
  const unsigned FirstSpecial = OpSegs.size() - 8;
  // The operand fields of other targets' encodings (EncodingOn defs).
  std::vector<unsigned> EncFieldBase;
  for (const FormModel &E : M.Encodings) {
    EncFieldBase.push_back(OpSegs.size());
    EmitOperands(E);
  }
  OS << "};\n\n// Per operand (same order as OperandInfos), then Pg, PgNeg, "
        "Stall, Yield, WrSB, RdSB, WaitMask, Reuse.\n";
  OS << "const FieldRef OperandFields[] = {\n";
  for (unsigned I = 0; I < OpSegs.size(); ++I)
    OS << "  {" << OpSegs[I].first << ", " << OpSegs[I].second << ", "
       << Xors[I] << (WideURs[I] ? ", true" : "") << "},\n";
  OS << "};\nconstexpr unsigned FirstSpecialField = " << FirstSpecial << ";\n";
  OS << "\n// [target * NUM_OPCODES + form]: fixed mask, fixed value, first "
        "operand field\n// in OperandFields, whether the form exists on "
        "the target.\nconst FormEncoding FormEncodings[] = {\n";
  unsigned OpBase = 0;
  std::vector<unsigned> FormOpBase;
  for (const FormModel &F : M.Forms) {
    FormOpBase.push_back(OpBase);
    OpBase += F.Ops.size();
  }
  for (unsigned T = 0; T < M.Targets.size(); ++T) {
    OS << "  // " << M.Targets[T].Name << "\n";
    for (unsigned F = 0; F < M.Forms.size(); ++F) {
      int E = M.EncodingFor[T][F];
      const FormModel &Fm = E >= 0 ? M.Encodings[E] : M.Forms[F];
      OS << "  {{0x" << utohexstr(Fm.Mask[0]) << "ull, 0x"
         << utohexstr(Fm.Mask[1]) << "ull}, {0x" << utohexstr(Fm.Value[0])
         << "ull, 0x" << utohexstr(Fm.Value[1]) << "ull}, "
         << (E >= 0 ? EncFieldBase[E] : FormOpBase[F]) << ", "
         << (M.availableOn(F, T) ? "true" : "false") << "}, // "
         << M.Forms[F].Name << (E >= 0 ? " as " + Fm.Name : "") << "\n";
    }
  }
  OS << "};\n";
  OS << "#undef GET_SASS_ENCODER\n#endif\n\n";

  // The guard and control fields again, as compile-time constants, so that
  // the decoder's per-word extraction of them folds to shifts and masks.
  // Each is one contiguous run of bits in SM86Inst / SM86ControlWord.
  OS << "#ifdef GET_SASS_SPECIAL_SEGS\n"
        "// Pg, PgNeg, Stall, Yield, WrSB, RdSB, WaitMask, Reuse.\n"
        "constexpr FieldSeg SpecialSegs[] = {\n";
  std::vector<const FieldModel *> Special = {&M.Guard, &M.GuardNeg};
  for (const FieldModel &C : M.Control)
    Special.push_back(&C);
  for (const FieldModel *Fm : Special) {
    if (Fm->Segs.size() != 1 || Fm->Segs[0].FieldBit != 0)
      PrintFatalError("field '" + Fm->Name +
                      "' must be one contiguous run of bits");
    OS << "  ";
    emitSegs(OS, Fm->Segs);
    OS << " // " << Fm->Name << "\n";
  }
  OS << "};\n// Bit v set: v = stall | bit 109 << 4 is undefined (SM86Control).\n"
        "constexpr uint32_t UndefinedStallYield = 0x"
     << utohexstr(M.UndefinedStallYield, /*LowerCase=*/true) << ";\n";
  OS << "#undef GET_SASS_SPECIAL_SEGS\n#endif\n\n";
  emitOperandEncoders(M, OS);
}

} // namespace tblgen
} // namespace tp
