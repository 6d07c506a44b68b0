//===- EncoderEmitter.cpp - tp-tblgen -gen-sass-encoder ------------------===//
///
/// \file
/// -gen-sass-encoder: the bit segments of every operand field, the guard
/// and control fields, and per target each form's fixed bits.
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
  OS << "};\n#undef GET_SASS_SPECIAL_SEGS\n#endif\n";
}

} // namespace tblgen
} // namespace tp
