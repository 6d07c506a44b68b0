//===- SchedDescribe.cpp - The scheduling view of an sass::Instruction ----===//
///
/// \file
/// describe(): registers from the form's OperandInfo (kind, width, def),
/// the latency class and the operands read after issue from the form's td
/// schedule class (td/SM86/SM86Schedule.td: Variable, LateRead), the
/// special kind from the form's td mnemonic; nothing is printed: the name
/// (the mnemonic and modifiers, sass::getMnemonic) is printed only when a
/// message or report asks for it (InstrName::str()), not on the walks'
/// hot path.  The view of
/// every reference instruction and form is pinned by
/// test/Target/Inputs/describe-table.txt (unittests/Target/
/// DescribeTableTest.cpp), written when describe() still printed each
/// instruction and matched its mnemonic.
///
/// Register operands: GPR/UGPR/Pred/UPred, and the registers of memory
/// operands (MemBase, MemUR, MemDesc).  RZ, URZ, PT and UPT carry no
/// dependency.  A predicate source of an ALU op is a carry-in or combine
/// input; the guard is a separate use.  The general-register sources of a
/// variable-latency op are read after issue (covered by its read or write
/// scoreboard); uniform registers and predicates are read at issue.
/// tp-compact-stalls, tp-verify-schedule, tp-sim's hazard mode and
/// tp-sim --latency-report all classify with describe().
///
//===----------------------------------------------------------------------===//

#include "tp/Support/Diagnostics.h"
#include "tp/Target/SASS/Schedule.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace llvm;

namespace tp {
namespace sched {

std::string regName(RegFile F, unsigned R) {
  switch (F) {
  case RegFile::GPR:
    return R == sass::RZ ? "RZ" : "R" + std::to_string(R);
  case RegFile::UGPR:
    return R == sass::URZ    ? "URZ"
           : R == sass::UR63 ? "UR63"
                             : "UR" + std::to_string(R);
  case RegFile::Pred:
    return R == sass::PT ? "PT" : "P" + std::to_string(R);
  case RegFile::UPred:
    return R == sass::PT ? "UPT" : "UP" + std::to_string(R);
  }
  return "?";
}

std::string InstrName::str() const {
  return HasSource ? sass::getMnemonic(Source) : Name;
}

raw_ostream &operator<<(raw_ostream &OS, const InstrName &N) {
  return OS << N.str();
}

SchedInstr &SchedInstr::guard(unsigned P, bool Neg) {
  if (P == sass::PT) {
    NeverExecutes = Neg;
    return *this;
  }
  Predicated = true;
  RegUse U;
  U.Regs = pred(P);
  U.How = PredRead::Guard;
  Uses.push_back(U);
  return *this;
}

static Expected<InstrClass> classOf(const sass::InstrInfo &Info);

/// The td form that stands for mnemonic \p Name ("IMAD", "IMAD.WIDE",
/// "BAR.SYNC"): best a form named by the name's words and an operand suffix
/// ("IMAD_rrr", "IMAD_WIDE_rrr"), else one whose name starts with those
/// words, else any form of the base mnemonic.  One source of classes, the
/// td's schedule classes, as describe() uses.
static Optional<sass::Opcode> formOfMnemonic(StringRef Name) {
  StringRef Base = Name.split('.').first;
  std::string Prefix = Name.str() + "_";
  std::replace(Prefix.begin(), Prefix.end(), '.', '_');
  Optional<sass::Opcode> Best;
  int BestRank = 3;
  for (unsigned I = 0, E = sass::getNumOpcodes(); I < E && BestRank; ++I) {
    const sass::InstrInfo &Info = sass::getInstrInfo(sass::Opcode(I));
    if (Base != Info.Mnemonic)
      continue;
    StringRef Def = Info.Name;
    int Rank = 2;
    if (Def.startswith(Prefix)) {
      StringRef Rest = Def.drop_front(Prefix.size());
      Rank = all_of(Rest, [](char C) { return C >= 'a' && C <= 'z'; }) ? 0 : 1;
    }
    if (Rank < BestRank) {
      Best = sass::Opcode(I);
      BestRank = Rank;
    }
  }
  return Best;
}

/// The special kind of base mnemonic \p Base (a form's td mnemonic).
static SpecialKind kindOf(StringRef Base) {
  return StringSwitch<SpecialKind>(Base)
               .Case("LDSM", SpecialKind::SharedMatrixLoad)
               .Case("LDS", SpecialKind::SharedLoad)
               .Case("LDGSTS", SpecialKind::AsyncCopy)
               .Case("LDGDEPBAR", SpecialKind::CommitGroup)
               .Case("DEPBAR", SpecialKind::WaitGroups)
               .Case("BAR", SpecialKind::Barrier)
               .Case("BRA", SpecialKind::Branch)
               .Case("EXIT", SpecialKind::Exit)
               .Case("NOP", SpecialKind::Nop)
               .Default(SpecialKind::None);
}

/// Name, text and kind from the mnemonic; the class is the caller's.
static SchedInstr fromMnemonic(StringRef Name) {
  SchedInstr I;
  I.Name = Name.str();
  I.Kind = kindOf(Name.split('.').first);
  return I;
}

/// Whether form \p Info's late-read sources (td: LateRead of its schedule
/// class) need a read scoreboard: a variable-latency form that reads some
/// operand after issue and writes no register, whose write scoreboard
/// would otherwise cover the reads (stores, LDGSTS; a load's result
/// scoreboard covers its address).
static bool needsReadScoreboard(const sass::InstrInfo &Info) {
  if (!Info.Sched.Variable || !Info.Sched.LateReadMask)
    return false;
  for (unsigned K = 0; K < Info.NumOperands; ++K) {
    const sass::OperandInfo &O = Info.Operands[K];
    if (O.IsDef && (O.Kind == sass::OperandKind::GPR ||
                    O.Kind == sass::OperandKind::UGPR ||
                    O.Kind == sass::OperandKind::Pred ||
                    O.Kind == sass::OperandKind::UPred))
      return false;
  }
  return true;
}

SchedInstr makeInstr(StringRef Name) {
  SchedInstr I = fromMnemonic(Name);
  Optional<sass::Opcode> Form = formOfMnemonic(Name);
  I.Class = InstrClass::CoupledALU; // no form: an ALU op of the tests' making
  if (Form) {
    const sass::InstrInfo &Info = sass::getInstrInfo(*Form);
    Expected<InstrClass> C = classOf(Info);
    if (C)
      I.Class = *C;
    else
      consumeError(C.takeError());
    I.NeedsReadSB = needsReadScoreboard(Info);
  }
  return I;
}

static Expected<InstrClass> classOf(const sass::InstrInfo &Info) {
  StringRef S = Info.Sched.Name ? Info.Sched.Name : "";
  Optional<InstrClass> C =
      StringSwitch<Optional<InstrClass>>(S)
          .Case("CoupledALU", InstrClass::CoupledALU)
          .Case("CS2RSched", InstrClass::CoupledALU)
          .Case("CoupledFMA", InstrClass::CoupledFMA)
          .Case("IMADWide", InstrClass::IMADWide)
          .Case("FP16ALU", InstrClass::FP16)
          .Case("UniformALU", InstrClass::UniformALU)
          .Case("UniformMove", InstrClass::UniformMove)
          .Case("MMA16816", InstrClass::MMA16816)
          .Case("MMA1688", InstrClass::MMA1688)
          .Cases("Decoupled", "ConstLoad", InstrClass::Decoupled)
          .Cases("MemLoad", "MemStore", "MemAsyncCopy", "Barrier", "Shuffle",
                 "MemAtomic", InstrClass::DecoupledAgu)
          .Case("Branch", InstrClass::Control)
          .Case("NoResult", InstrClass::Nop)
          .Default(None);
  if (!C)
    return makeError(Twine("tp-compact-stalls: form ") + Info.Name +
                     " has schedule class '" + S +
                     "', which the latency model does not know");
  return *C;
}

Expected<InstrClass> classOfForm(sass::Opcode Op) {
  return classOf(sass::getInstrInfo(Op));
}

Expected<SchedInstr> describe(const sass::Instruction &In) {
  const sass::InstrInfo &Info = sass::getInstrInfo(In.Op);
  Expected<InstrClass> C = classOf(Info);
  if (!C)
    return C.takeError();

  // Class and kind come from the form's td data (its schedule class and
  // base mnemonic), the registers from its operands; nothing is printed:
  // the name (for messages) is the mnemonic, printed when asked for.
  SchedInstr S;
  S.Kind = kindOf(Info.Mnemonic);
  S.Name.setSource(In);
  S.Class = *C;
  S.Ctrl = In.Ctrl;
  S.NeedsReadSB = needsReadScoreboard(Info);

  bool Variable = isVariable(S.Class);
  bool IsWide = S.Class == InstrClass::IMADWide;
  bool SawOffset = false;
  // A memory base is a register pair when its address-width modifier (the
  // next Modifier operand, e.g. `aw`) spells ".64": `[R10.64]`.
  // Whether the form has an `aw` operand, and an `e` one that is set: one
  // scan of the operands per instruction, made at its first memory base.
  bool ScannedAW = false, HasAW = false, E = false;
  auto PairBase = [&](unsigned K) {
    // The 0x381 forms without an address-width operand: `.E` is the 64-bit
    // address (`LDG.E R0, [R2.64]`).
    if (!ScannedAW) {
      ScannedAW = true;
      for (unsigned J = 0; J < Info.NumOperands; ++J) {
        const char *N = Info.Operands[J].Name;
        if (!N)
          continue;
        HasAW |= N[0] == 'a' && N[1] == 'w' && N[2] == 0;
        E |= N[0] == 'e' && N[1] == 0 && In.Ops[J] != 0;
      }
    }
    if (!HasAW)
      return E;
    for (unsigned J = K + 1; J < Info.NumOperands; ++J) {
      const sass::OperandInfo &M = Info.Operands[J];
      if (M.Kind == sass::OperandKind::MemBase)
        return false;
      if (M.Kind == sass::OperandKind::Modifier &&
          sass::getModifierSpelling(In.Op, J, In.Ops[J]) == ".64")
        return true;
    }
    return false;
  };
  for (unsigned K = 0; K < Info.NumOperands; ++K) {
    const sass::OperandInfo &O = Info.Operands[K];
    int64_t V = In.Ops[K];
    bool Late = Variable && (Info.Sched.LateReadMask >> K) & 1;
    RegRange R;
    R.First = uint16_t(V);
    R.Count = O.Width ? O.Width : 1;
    switch (O.Kind) {
    case sass::OperandKind::GPR:
    case sass::OperandKind::MemBase:
      if (V == sass::RZ)
        continue;
      R.File = RegFile::GPR;
      if (O.Kind == sass::OperandKind::MemBase && R.Count == 1 && PairBase(K))
        R.Count = 2;
      break;
    case sass::OperandKind::UGPR:
    case sass::OperandKind::MemUR:
    case sass::OperandKind::MemDesc:
      if (V == sass::URZ)
        continue;
      R.File = RegFile::UGPR;
      break;
    case sass::OperandKind::Pred:
      if (V == sass::PT)
        continue;
      R.File = RegFile::Pred;
      break;
    case sass::OperandKind::UPred:
      if (V == sass::PT)
        continue;
      R.File = RegFile::UPred;
      break;
    case sass::OperandKind::MemOffset:
      // The first memory offset is the shared address of LDGSTS (its
      // destination) and of LDSM/LDS.
      if (!SawOffset)
        S.SharedOffset = V;
      SawOffset = true;
      continue;
    case sass::OperandKind::SBIndex:
      S.WaitSB = uint8_t(V);
      continue;
    case sass::OperandKind::Imm:
      if (S.Kind == SpecialKind::WaitGroups)
        S.WaitCount = uint8_t(V);
      continue;
    default:
      continue;
    }
    if (O.IsDef) {
      S.Defs.push_back(R);
      continue;
    }
    RegUse U;
    U.Regs = R;
    // Every GPR source of a variable-latency op counts as read after issue
    // (the td's LateRead operands and memory addresses, N; the rest too,
    // to be safe): a later writer waits on its read or write scoreboard.
    // Uniform registers and predicates are read at issue: ptxas overwrites
    // the UR of an LDSM/LDGSTS address in the very next instruction with
    // no read scoreboard (E, test/Sim/latency-evidence.test).
    U.Late = R.File == RegFile::GPR && (Variable || Late);
    if (IsWide && R.File == RegFile::GPR)
      U.Slot = StringRef(O.Name) == "Rc" ? ReadSlot::IMADWideC
                                         : ReadSlot::IMADWideAB;
    // IMAD.WIDE reads the high register of its C pair later than the low
    // one (N IMADWideReadCL / IMADWideReadCH): two uses, two latencies.
    if (U.Slot == ReadSlot::IMADWideC && R.Count == 2) {
      RegUse High = U;
      High.Regs.First = R.First + 1;
      High.Regs.Count = 1;
      High.Slot = ReadSlot::IMADWideCHigh;
      U.Regs.Count = 1;
      S.Uses.push_back(U);
      S.Uses.push_back(High);
      continue;
    }
    S.Uses.push_back(U);
  }
  S.NeverExecutes = In.Guard == sass::PT && In.GuardNeg;
  if (In.Guard != sass::PT) {
    S.Predicated = true;
    RegUse G;
    G.Regs = pred(In.Guard);
    if (Info.UniformGuard)
      G.Regs.File = RegFile::UPred;
    G.How = PredRead::Guard;
    S.Uses.push_back(G);
  }
  return S;
}

} // namespace sched
} // namespace tp
