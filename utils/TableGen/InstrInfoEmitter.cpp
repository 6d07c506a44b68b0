//===- InstrInfoEmitter.cpp - tp-tblgen -gen-sass-instr-info -------------===//
///
/// \file
/// -gen-sass-instr-info: the opcode and target enums, the most operands a
/// form has (MaxOperands, Instruction::Ops's size), the operand and form
/// tables (OperandInfos, InstrInfos), the modifier spellings, the forms by
/// name, the targets with their facts (td/Targets.td) and the forms each
/// target has.
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

void emitInstrInfo(RecordKeeper &RK, raw_ostream &OS) {
  SASSModel M(RK);
  emitSourceFileHeader("sm_86 instruction forms", OS);
  OS << "#ifdef GET_SASS_OPCODE_ENUM\n";
  for (unsigned I = 0; I < M.Forms.size(); ++I)
    OS << "  " << M.Forms[I].Name << " = " << I << ",\n";
  OS << "  NUM_OPCODES = " << M.Forms.size() << "\n";
  OS << "#undef GET_SASS_OPCODE_ENUM\n#endif\n\n";

  // The most operands any form has: the size of Instruction::Ops.
  size_t MaxOps = 0;
  for (const FormModel &F : M.Forms)
    MaxOps = std::max(MaxOps, F.Ops.size());
  OS << "#ifdef GET_SASS_MAX_OPERANDS\n";
  OS << "constexpr unsigned MaxOperands = " << MaxOps << ";\n";
  OS << "#undef GET_SASS_MAX_OPERANDS\n#endif\n\n";

  OS << "#ifdef GET_SASS_TARGET_ENUM\n";
  for (unsigned T = 0; T < M.Targets.size(); ++T)
    OS << "  " << M.Targets[T].Enum << " = " << T << ",\n";
  OS << "#undef GET_SASS_TARGET_ENUM\n#endif\n\n";

  OS << "#ifdef GET_SASS_INSTR_INFO\n";
  OS << "const ModEntry ModEntries[] = {\n";
  std::vector<std::pair<unsigned, unsigned>> Ranges;
  unsigned N = 0;
  for (Record *T : M.ModTypes) {
    std::vector<int64_t> V = T->getValueAsListOfInts("Values");
    std::vector<StringRef> S = T->getValueAsListOfStrings("Names");
    if (V.size() != S.size())
      PrintFatalError(T->getLoc(), "Values and Names differ in length");
    OS << "  // " << T->getName() << "\n";
    for (unsigned I = 0; I < V.size(); ++I)
      OS << "  {" << V[I] << ", " << cString(S[I]) << "},\n";
    Ranges.push_back({N, (unsigned)V.size()});
    N += V.size();
  }
  if (N == 0)
    OS << "  {0, \"\"},\n";
  OS << "};\n// {first entry, count, bit v set: value v < 64 has a spelling}\n"
        "const ModTableRef ModTables[] = {\n";
  for (unsigned T = 0; T < Ranges.size(); ++T) {
    uint64_t Valid = 0;
    for (int64_t V : M.ModTypes[T]->getValueAsListOfInts("Values"))
      if (V >= 0 && V < 64)
        Valid |= uint64_t(1) << V;
    OS << "  {" << Ranges[T].first << ", " << Ranges[T].second << ", 0x"
       << utohexstr(Valid) << "ull},\n";
  }
  if (Ranges.empty())
    OS << "  {0, 0, 0},\n";
  OS << "};\n\nconst OperandInfo OperandInfos[] = {\n";
  std::vector<unsigned> OpBegin;
  unsigned NOps = 0;
  for (const FormModel &F : M.Forms) {
    OpBegin.push_back(NOps);
    OS << "  // " << F.Name << "\n";
    for (const OperandModel &O : F.Ops) {
      OS << "  {" << cString(O.Name) << ", " << kindEnum(O.Kind) << ", "
         << O.Width << ", " << (O.IsDef ? "true" : "false") << ", "
         << (O.Signed ? "true" : "false") << ", " << O.ReuseSlot << ", "
         << O.FieldBits << ", " << (O.ModTable < 0 ? 0 : O.ModTable) << ", "
         << (O.Type->getValueAsBit("Optional") ? "true" : "false") << "},\n";
      ++NOps;
    }
  }
  if (NOps == 0)
    OS << "  {\"\", OperandKind::GPR, 1, false, false, -1, 0, 0, false},\n";
  OS << "};\n\nconst InstrInfo InstrInfos[] = {\n";
  for (unsigned I = 0; I < M.Forms.size(); ++I) {
    const FormModel &F = M.Forms[I];
    OS << "  {" << cString(F.Name) << ", " << cString(F.Mnemonic) << ", "
       << F.Ops.size() << ", &OperandInfos[" << OpBegin[I] << "], {"
       << cString(F.Sched->getName()) << ", "
       << (F.Sched->getValueAsBit("Variable") ? "true" : "false") << ", "
       << F.Sched->getValueAsInt("Latency") << ", " << F.LateReadMask
       << "u}, {0x" << utohexstr(F.Mask[0]) << "ull, 0x" << utohexstr(F.Mask[1])
       << "ull}, {0x" << utohexstr(F.Value[0]) << "ull, 0x"
       << utohexstr(F.Value[1]) << "ull}, "
       << (F.R->getValueAsBit("UniformGuard") ? "true" : "false") << ", "
       << (F.R->getValueAsBit("IsExit") ? "true" : "false") << ", "
       << (F.R->getValueAsBit("IsBranch") ? "true" : "false") << ", "
       << (F.R->getValueAsBit("IsIndirectBranch") ? "true" : "false")
       << "},\n";
  }
  OS << "};\n\n// Opcodes sorted by name, for lookupOpcode.\n"
        "const uint16_t OpcodesByName[] = {\n";
  std::vector<unsigned> Idx(M.Forms.size());
  for (unsigned I = 0; I < Idx.size(); ++I)
    Idx[I] = I;
  std::sort(Idx.begin(), Idx.end(), [&](unsigned A, unsigned B) {
    return M.Forms[A].Name < M.Forms[B].Name;
  });
  for (unsigned I : Idx)
    OS << "  " << I << ",\n";
  OS << "};\n\n// Targets: name, SM, -mcpu spellings (comma-separated).\n"
        "const TargetDesc TargetDescs[] = {\n";
  for (const SASSModel::TargetModel &T : M.Targets)
    OS << "  {" << cString(T.Name) << ", " << T.SM << ", "
       << cString(join(T.CPUs, ",")) << "},\n";
  OS << "};\n\n// Targets: name, SM, then td/Targets.td's facts:";
  for (const SASSModel::TargetFact &F : SASSModel::TargetFacts)
    OS << " " << F.Name;
  OS << ", then the cubin layouts (CubinLayoutOf) and the shared memory "
        "per SM (SharedMemoryPerSM).\n"
        "const TargetInfo TargetInfos[] = {\n";
  for (const SASSModel::TargetModel &T : M.Targets) {
    OS << "  {" << cString(T.Name) << ", " << T.SM;
    for (unsigned I = 0; I < T.Facts.size(); ++I)
      switch (SASSModel::TargetFacts[I].Kind) {
      case SASSModel::FactKind::Bit:
        OS << ", " << (T.Facts[I] ? "true" : "false");
        break;
      case SASSModel::FactKind::String:
        OS << ", " << cString(T.StringFacts[I]);
        break;
      case SASSModel::FactKind::Int:
        OS << ", 0x" << utohexstr(uint64_t(T.Facts[I]), /*LowerCase=*/true);
        break;
      }
    OS << ", " << cString(T.CubinLayout) << ", "
       << cString(T.SassOnlyCubinLayout) << ", " << T.SharedBytesPerSM
       << "},\n";
  }
  OS << "};\nconstexpr unsigned NumTargets = " << M.Targets.size()
     << ";\n// Per form: bit t set when the form exists on target t.\n"
        "const uint8_t FormTargets[] = {\n";
  for (unsigned I = 0; I < M.Forms.size(); ++I)
    OS << "  0x" << utohexstr(M.TargetMask[I]) << ", // " << M.Forms[I].Name
       << "\n";
  OS << "};\n#undef GET_SASS_INSTR_INFO\n#endif\n";
}

} // namespace tblgen
} // namespace tp
