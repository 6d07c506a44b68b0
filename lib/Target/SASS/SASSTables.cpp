//===- SASSTables.cpp - The generated tables and the info queries ---------===//
///
/// \file
/// Instantiates the tables tp-tblgen generated from td/ and answers the
/// static queries of SM86.h (form info, names, spellings).
///
//===----------------------------------------------------------------------===//

#include "SASSTables.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include <algorithm>
#include <cstring>

namespace tp {
namespace sass {
namespace detail {

#define GET_SASS_INSTR_INFO
#include "tp/Target/SASS/SASSGenInstrInfo.inc"
#define GET_SASS_ENCODER
#include "tp/Target/SASS/SASSGenEncoder.inc"
#define GET_SASS_DECODER
#include "tp/Target/SASS/SASSGenDecoder.inc"
#define GET_SASS_ASM_PRINTER
#include "tp/Target/SASS/SASSGenAsmPrinter.inc"
#define GET_SASS_ASM_MATCHER
#include "tp/Target/SASS/SASSGenAsmMatcher.inc"
#define GET_SASS_LATENCY
#include "tp/Target/SASS/SASSGenLatency.inc"

const FieldRef *const SpecialFields = &OperandFields[FirstSpecialField];

const char *modifierName(const OperandInfo &OI, int64_t V) {
  const ModTableRef &T = ModTables[OI.ModTable];
  for (unsigned I = T.Begin, E = T.Begin + T.Count; I != E; ++I)
    if (ModEntries[I].Value == V)
      return ModEntries[I].Name;
  return nullptr;
}

} // namespace detail

using namespace detail;

unsigned getNumOpcodes() { return NUM_OPCODES; }

bool lookupTarget(llvm::StringRef CPU, Target &T) {
  for (unsigned I = 0; I < NumTargets; ++I) {
    // The target's comma-separated spellings, compared where they are
    // (every tile pass asks for the kernel's target).
    for (llvm::StringRef Name : llvm::split(TargetDescs[I].CPUs, ','))
      if (Name == CPU) {
        T = Target(I);
        return true;
      }
  }
  return false;
}

/// Every -mcpu spelling of the targets \p Include accepts, by SM.
template <typename Pred> static std::string listTargets(Pred Include) {
  llvm::SmallVector<std::pair<unsigned, llvm::StringRef>, 8> CPUs;
  for (unsigned I = 0; I < NumTargets; ++I) {
    if (!Include(Target(I)))
      continue;
    llvm::SmallVector<llvm::StringRef, 4> Names;
    llvm::StringRef(TargetDescs[I].CPUs).split(Names, ',');
    for (llvm::StringRef N : Names)
      CPUs.push_back({TargetDescs[I].SM, N});
  }
  llvm::sort(CPUs);
  std::string S;
  for (unsigned I = 0; I < CPUs.size(); ++I)
    S += (I == 0 ? "" : I + 1 == CPUs.size() ? " or " : ", ") +
         CPUs[I].second.str();
  return S;
}

const std::string &getGemmTargetList() {
  static const std::string List =
      listTargets([](Target T) { return getTargetInfo(T).GemmCodeGen; });
  return List;
}

const std::string &getTargetList() {
  static const std::string List = listTargets([](Target) { return true; });
  return List;
}

llvm::StringRef getTargetName(Target T) {
  return TargetDescs[unsigned(T)].Name;
}

unsigned getTargetSM(Target T) { return TargetDescs[unsigned(T)].SM; }

bool isAvailable(uint16_t Op, Target T) {
  return Op < NUM_OPCODES && ((FormTargets[Op] >> unsigned(T)) & 1);
}

unsigned getNumTargets() { return NumTargets; }

const TargetInfo &getTargetInfo(Target T) { return TargetInfos[unsigned(T)]; }

const InstrInfo &getInstrInfo(Opcode Op) { return InstrInfos[Op]; }

unsigned getRegistersUsed(const Instruction &I) {
  const InstrInfo &II = InstrInfos[I.Op];
  unsigned Used = 0;
  for (unsigned K = 0; K < II.NumOperands; ++K) {
    const OperandInfo &OI = II.Operands[K];
    if ((OI.Kind == OperandKind::GPR || OI.Kind == OperandKind::MemBase) &&
        I.Ops[K] != RZ && I.Ops[K] >= 0)
      Used = std::max<unsigned>(Used, unsigned(I.Ops[K]) + OI.Width);
  }
  return Used;
}

bool lookupOpcode(llvm::StringRef Name, Opcode &Op) {
  unsigned Lo = 0, Hi = NUM_OPCODES;
  while (Lo < Hi) {
    unsigned Mid = (Lo + Hi) / 2;
    llvm::StringRef N = InstrInfos[OpcodesByName[Mid]].Name;
    if (N < Name)
      Lo = Mid + 1;
    else
      Hi = Mid;
  }
  if (Lo < NUM_OPCODES && Name == InstrInfos[OpcodesByName[Lo]].Name) {
    Op = Opcode(OpcodesByName[Lo]);
    return true;
  }
  return false;
}

bool isSupportedMnemonic(llvm::StringRef Mn) {
  for (unsigned I = 0; I < NumMnemonics; ++I)
    if (Mn == Mnemonics[I].Mnemonic)
      return true;
  return false;
}

llvm::StringRef getModifierSpelling(Opcode Op, unsigned OpIdx, int64_t Value) {
  const InstrInfo &II = InstrInfos[Op];
  if (OpIdx >= II.NumOperands)
    return llvm::StringRef();
  const OperandInfo &OI = II.Operands[OpIdx];
  if (OI.Kind != OperandKind::Modifier && OI.Kind != OperandKind::SReg)
    return llvm::StringRef();
  const char *N = modifierName(OI, Value);
  return N ? llvm::StringRef(N) : llvm::StringRef();
}

} // namespace sass
} // namespace tp
