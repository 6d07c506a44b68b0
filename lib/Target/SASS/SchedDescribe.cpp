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
/// One classifier: a form's td data is read once into a Form (buildForm),
/// and forEachRegOperand() walks an instruction's register operands by it,
/// for describe() (a SchedInstr, per call) and for FormDescriber (the flat
/// views of ScheduleOps.h, each Form kept: tp-compact-stalls's hot path).
/// unittests/Target/FormDescriberTest.cpp checks that both agree.
///
//===----------------------------------------------------------------------===//

#include "tp/Support/Diagnostics.h"
#include "tp/Target/SASS/Schedule.h"
#include "tp/Target/SASS/ScheduleOps.h"
#include "tp/Target/SASS/ScheduleUnits.h"

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
    // The first letter first: most forms differ there (no strlen).
    if (Base.empty() || Info.Mnemonic[0] != Base[0] || Base != Info.Mnemonic)
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
          .Case("FP16MMA", InstrClass::FP16MMA)
          .Case("UniformALU", InstrClass::UniformALU)
          .Case("UniformMove", InstrClass::UniformMove)
          .Case("MMA16816", InstrClass::MMA16816)
          .Case("MMA1688", InstrClass::MMA1688)
          .Cases("Decoupled", "ConstLoad", InstrClass::Decoupled)
          .Case("FP64Sched", InstrClass::FP64)
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

/// One register operand of a form as describe() reads it: every GPR, UGPR,
/// predicate and memory-address register operand, in operand order.
struct RegOperand {
  uint8_t Index = 0; ///< the operand's index in the form
  RegFile File = RegFile::GPR;
  uint8_t Zero = 0;  ///< the value that names no register (RZ, URZ, PT)
  uint8_t Width = 1; ///< registers (OperandInfo::Width, at least 1)
  /// The unit of the file's register 0 and the file's size (units::unitsOf).
  uint16_t UnitBase = 0, FileSize = 0;
  bool IsDef = false;
  /// A one-register memory base: a pair when the address is 64-bit.
  bool MayBePair = false;
  bool Late = false; ///< a use read after issue (a GPR of a variable form)
  ReadSlot Slot = ReadSlot::Normal;
  /// MayBePair in a form with an `aw` operand: the Modifier operands after
  /// it and before the next memory base, Form::PairMods[ModBegin, ModEnd).
  uint8_t ModBegin = 0, ModEnd = 0;
};

/// What describe() needs of one form, read once from its td data.
struct FormDescriber::Form {
  const sass::InstrInfo *Info = nullptr;
  bool Known = false; ///< the latency model knows its schedule class
  InstrClass Class = InstrClass::CoupledALU;
  SpecialKind Kind = SpecialKind::None;
  bool Variable = false, NeedsReadSB = false, UniformGuard = false;
  bool HasAW = false; ///< has an operand named `aw` (address width)
  int8_t OffsetOp = -1;  ///< the first MemOffset operand
  int8_t SBIndexOp = -1; ///< the last SBIndex operand
  int8_t CountOp = -1;   ///< DEPBAR: the last Imm operand
  /// SBIndexOp or CountOp: setWaitOperands() has something to read (one
  /// test an instruction on the views' path).
  bool HasWaitOperands = false;
  SmallVector<uint8_t, 2> EOps;     ///< operands named `e`
  SmallVector<uint8_t, 4> PairMods; ///< see RegOperand::ModBegin
  /// The last value asked of each PairMods operand and whether it spells
  /// ".64" (-1: none asked yet): getModifierSpelling() once a value.
  mutable SmallVector<int64_t, 4> PairModValue;
  mutable SmallVector<int8_t, 4> PairModIs64;
  SmallVector<RegOperand, 8> Regs;
  /// Every form but IMAD.WIDE (its C pair is two uses, its defs one unit
  /// each): append() writes their units from these, asking the form only
  /// whether a memory base is a pair.
  bool Simple = false;
  struct FastOperand {
    uint8_t Index = 0, Zero = 0;
    bool IsDef = false, IsGPR = false;
    int8_t PairReg = -1; ///< MayBePair: its index in Regs
    uint16_t FileSize = 0;
    /// Values below it are a range inside the file as Units says (not a
    /// pair base): FileSize - Width + 1; 0 for a pair base.
    uint16_t PlainLimit = 0;
    UnitRange Units; ///< of register 0: First the file's base, Count Width
  };
  SmallVector<FastOperand, 8> Fast; ///< the defs, then the uses
  uint8_t NumFastDefs = 0;
  OpView View; ///< the fields of every instruction of the form
};

using Form = FormDescriber::Form;

/// The view template and, where the form is simple, the operands as
/// append() reads them: what forEachRegOperand() and pushOperandUnits()
/// compute of an operand that does not depend on the instruction.
static void buildFastOperands(Form &F) {
  F.View.Class = F.Class;
  F.View.Kind = F.Kind;
  F.View.Variable = F.Variable;
  F.View.NeedsReadSB = F.NeedsReadSB;
  F.Simple = !(F.Known && F.Class == InstrClass::IMADWide);
  // Defs first: append() fills each vector in its own loop (each keeps the
  // operands' order).
  for (bool Defs : {true, false})
    for (const RegOperand &O : F.Regs) {
      if (O.IsDef != Defs)
        continue;
      Form::FastOperand X;
      if (O.MayBePair)
        X.PairReg = int8_t(&O - F.Regs.data());
      X.Index = O.Index;
      X.Zero = O.Zero;
      X.IsDef = O.IsDef;
      X.IsGPR = O.File == RegFile::GPR;
      X.FileSize = O.FileSize;
      if (!O.MayBePair && O.Width <= O.FileSize)
        X.PlainLimit = uint16_t(O.FileSize - O.Width + 1);
      X.Units.First = O.UnitBase;
      X.Units.Count = O.Width;
      X.Units.File = O.File;
      // useSub(): a predicate operand is read as PredRead::Operand (0).
      X.Units.Sub = O.IsDef || O.File != RegFile::GPR ? 0 : uint8_t(O.Slot);
      X.Units.Late = !O.IsDef && O.Late;
      F.Fast.push_back(X);
      F.NumFastDefs += O.IsDef;
    }
}

/// Reads form \p Op's td data into \p F.
static void buildForm(sass::Opcode Op, Form &F) {
  const sass::InstrInfo &Info = sass::getInstrInfo(Op);
  F.Info = &Info;
  F.Kind = kindOf(Info.Mnemonic);
  Expected<InstrClass> C = classOf(Info);
  F.Known = bool(C);
  if (C)
    F.Class = *C;
  else
    consumeError(C.takeError()); // made again where the form is used
  F.Variable = F.Known && isVariable(F.Class);
  F.NeedsReadSB = needsReadScoreboard(Info);
  F.UniformGuard = Info.UniformGuard;
  bool IsWide = F.Known && F.Class == InstrClass::IMADWide;
  for (unsigned K = 0; K < Info.NumOperands; ++K) {
    const sass::OperandInfo &O = Info.Operands[K];
    if (const char *N = O.Name) {
      F.HasAW |= N[0] == 'a' && N[1] == 'w' && N[2] == 0;
      if (N[0] == 'e' && N[1] == 0)
        F.EOps.push_back(uint8_t(K));
    }
    RegOperand R;
    R.Index = uint8_t(K);
    R.Width = O.Width ? O.Width : 1;
    R.IsDef = O.IsDef;
    switch (O.Kind) {
    case sass::OperandKind::GPR:
    case sass::OperandKind::MemBase:
      R.File = RegFile::GPR;
      R.Zero = sass::RZ;
      R.MayBePair = O.Kind == sass::OperandKind::MemBase && R.Width == 1;
      break;
    case sass::OperandKind::UGPR:
    case sass::OperandKind::MemUR:
    case sass::OperandKind::MemDesc:
      R.File = RegFile::UGPR;
      R.Zero = sass::URZ;
      break;
    case sass::OperandKind::Pred:
      R.File = RegFile::Pred;
      R.Zero = sass::PT;
      break;
    case sass::OperandKind::UPred:
      R.File = RegFile::UPred;
      R.Zero = sass::PT;
      break;
    case sass::OperandKind::MemOffset:
      if (F.OffsetOp < 0)
        F.OffsetOp = int8_t(K);
      continue;
    case sass::OperandKind::SBIndex:
      F.SBIndexOp = int8_t(K);
      continue;
    case sass::OperandKind::Imm:
      if (F.Kind == SpecialKind::WaitGroups)
        F.CountOp = int8_t(K);
      continue;
    default:
      continue;
    }
    // Every GPR source of a variable-latency op counts as read after issue
    // (the td's LateRead operands and memory addresses, N; the rest too,
    // to be safe): a later writer waits on its read or write scoreboard.
    // Uniform registers and predicates are read at issue: ptxas overwrites
    // the UR of an LDSM/LDGSTS address in the very next instruction with
    // no read scoreboard (E, test/Sim/latency-evidence.test).
    R.Late = R.File == RegFile::GPR && F.Variable;
    RegRange All;
    All.File = R.File;
    All.First = 0;
    All.Count = 255;
    unsigned Base, Size;
    units::unitsOf(All, Base, Size);
    R.UnitBase = uint16_t(Base);
    R.FileSize = uint16_t(Size);
    if (IsWide && R.File == RegFile::GPR)
      R.Slot = StringRef(O.Name) == "Rc" ? ReadSlot::IMADWideC
                                         : ReadSlot::IMADWideAB;
    F.Regs.push_back(R);
  }
  F.HasWaitOperands = F.SBIndexOp >= 0 || F.CountOp >= 0;
  buildFastOperands(F);
  // A memory base is a register pair when its address-width modifier (the
  // next Modifier operand, e.g. `aw`) spells ".64": `[R10.64]`.
  if (!F.HasAW)
    return;
  for (RegOperand &R : F.Regs) {
    if (!R.MayBePair)
      continue;
    R.ModBegin = uint8_t(F.PairMods.size());
    for (unsigned J = R.Index + 1; J < Info.NumOperands; ++J) {
      sass::OperandKind K = Info.Operands[J].Kind;
      if (K == sass::OperandKind::MemBase)
        break;
      if (K == sass::OperandKind::Modifier)
        F.PairMods.push_back(uint8_t(J));
    }
    R.ModEnd = uint8_t(F.PairMods.size());
  }
  F.PairModValue.assign(F.PairMods.size(), 0);
  F.PairModIs64.assign(F.PairMods.size(), -1);
}

/// Whether memory base \p R of \p In is a register pair.
static bool isPairBase(const Form &F, const RegOperand &R,
                       const sass::Instruction &In) {
  // The 0x381 forms without an address-width operand: `.E` is the 64-bit
  // address (`LDG.E R0, [R2.64]`).
  if (!F.HasAW) {
    for (uint8_t J : F.EOps)
      if (In.Ops[J] != 0)
        return true;
    return false;
  }
  for (unsigned M = R.ModBegin; M < R.ModEnd; ++M) {
    unsigned J = F.PairMods[M];
    int64_t V = In.Ops[J];
    if (F.PairModIs64[M] < 0 || F.PairModValue[M] != V) {
      F.PairModValue[M] = V;
      F.PairModIs64[M] = sass::getModifierSpelling(In.Op, J, V) == ".64";
    }
    if (F.PairModIs64[M])
      return true;
  }
  return false;
}

/// Calls \p Emit(RegRange, IsDef, ReadSlot, Late, RegOperand) for each
/// register \p In names through an operand of form \p F, in operand
/// order: RZ, URZ, PT and UPT name none; IMAD.WIDE reads the high register
/// of its C pair later than the low one (N IMADWideReadCL /
/// IMADWideReadCH): two uses, two latencies.  The one classifier of
/// describe() and FormDescriber.  Returns whether a general-register
/// operand holds a number past RZ.
template <typename Fn>
static bool forEachRegOperand(const Form &F, const sass::Instruction &In,
                              Fn Emit) {
  bool OutOfRange = false;
  for (const RegOperand &O : F.Regs) {
    int64_t V = In.Ops[O.Index];
    if (V == O.Zero)
      continue;
    OutOfRange |= O.File == RegFile::GPR && V > int64_t(sass::RZ);
    RegRange R;
    R.File = O.File;
    R.First = uint16_t(V);
    R.Count = O.Width;
    if (O.MayBePair && isPairBase(F, O, In))
      R.Count = 2;
    if (O.IsDef) {
      Emit(R, true, ReadSlot::Normal, false, O);
      continue;
    }
    if (O.Slot == ReadSlot::IMADWideC && R.Count == 2) {
      RegRange High = R;
      High.First = R.First + 1;
      High.Count = 1;
      R.Count = 1;
      Emit(R, false, ReadSlot::IMADWideC, O.Late, O);
      Emit(High, false, ReadSlot::IMADWideCHigh, O.Late, O);
      continue;
    }
    Emit(R, false, O.Slot, O.Late, O);
  }
  return OutOfRange;
}

/// The guard of \p In as a use, if it has one.
static bool guardOf(const Form &F, const sass::Instruction &In, RegRange &G) {
  if (In.Guard == sass::PT)
    return false;
  G = pred(In.Guard);
  if (F.UniformGuard)
    G.File = RegFile::UPred;
  return true;
}

/// DEPBAR's operands (the walks need no shared offset).
template <typename ViewT>
static void setWaitOperands(const Form &F, const sass::Instruction &In,
                            ViewT &S) {
  if (F.SBIndexOp >= 0)
    S.WaitSB = uint8_t(In.Ops[F.SBIndexOp]);
  if (F.CountOp >= 0)
    S.WaitCount = uint8_t(In.Ops[F.CountOp]);
}

/// describe() of \p In, whose form's td data is \p F.
static Expected<SchedInstr> describeWith(const Form &F,
                                         const sass::Instruction &In) {
  if (!F.Known)
    return classOf(*F.Info).takeError();

  // Class and kind come from the form's td data (its schedule class and
  // base mnemonic), the registers from its operands; nothing is printed:
  // the name (for messages) is the mnemonic, printed when asked for.
  SchedInstr S;
  S.Kind = F.Kind;
  S.Name.setSource(In);
  S.Class = F.Class;
  S.Ctrl = In.Ctrl;
  S.NeedsReadSB = F.NeedsReadSB;
  forEachRegOperand(F, In,
                    [&](RegRange R, bool IsDef, ReadSlot Slot, bool Late,
                        const RegOperand &) {
                      if (IsDef) {
                        S.Defs.push_back(R);
                        return;
                      }
                      RegUse U;
                      U.Regs = R;
                      U.Slot = Slot;
                      U.Late = Late;
                      S.Uses.push_back(U);
                    });
  setWaitOperands(F, In, S);
  // The first memory offset is the shared address of LDGSTS (its
  // destination) and of LDSM/LDS.
  if (F.OffsetOp >= 0)
    S.SharedOffset = In.Ops[F.OffsetOp];
  S.NeverExecutes = In.Guard == sass::PT && In.GuardNeg;
  RegRange G;
  if (guardOf(F, In, G)) {
    S.Predicated = true;
    RegUse U;
    U.Regs = G;
    U.How = PredRead::Guard;
    S.Uses.push_back(U);
  }
  return S;
}

Expected<SchedInstr> describe(const sass::Instruction &In) {
  Form F;
  buildForm(In.Op, F);
  return describeWith(F, In);
}

Expected<SchedInstr> FormDescriber::describe(const sass::Instruction &In) {
  return describeWith(formOf(In.Op), In);
}

//===- Flat views ---------------------------------------------------------===//

/// The Sub of a use (UnitRange::Sub).
static uint8_t useSub(RegFile F, ReadSlot Slot, PredRead How) {
  return F == RegFile::GPR ? uint8_t(Slot)
         : F == RegFile::Pred || F == RegFile::UPred ? uint8_t(How)
                                                     : 0;
}

/// Appends the units of \p R to \p To (nothing when none has one).
static void pushUnits(std::vector<UnitRange> &To, const RegRange &R,
                      uint8_t Sub, bool Late) {
  unsigned First, Count;
  units::unitsOf(R, First, Count);
  if (!Count)
    return;
  UnitRange U;
  U.First = uint16_t(First);
  U.Count = uint8_t(Count);
  U.File = R.File;
  U.Sub = Sub;
  U.Late = Late;
  To.push_back(U);
}

/// Appends IMAD.WIDE's defs \p Defs one unit each, the low half of a pair
/// marked (units::lowHalfOf).
static void pushWideDefs(std::vector<UnitRange> &To,
                         ArrayRef<RegRange> Defs) {
  for (const RegRange &D : Defs)
    units::forEachUnit(D, [&](unsigned X) {
      UnitRange U;
      U.First = uint16_t(X);
      U.Count = 1;
      U.File = D.File;
      U.Sub = units::lowHalfOf(Defs, X);
      To.push_back(U);
    });
}

void appendView(const SchedInstr &S, OpSeq &Seq) {
  OpView V;
  V.Class = S.Class;
  V.Kind = S.Kind;
  V.Variable = isVariable(S.Class);
  V.Predicated = S.Predicated;
  V.NeverExecutes = S.NeverExecutes;
  V.NeedsReadSB = S.NeedsReadSB;
  V.HasDefs = !S.Defs.empty();
  V.WaitSB = S.WaitSB;
  V.WaitCount = S.WaitCount;
  V.Ctrl = S.Ctrl;
  V.UseBegin = uint32_t(Seq.Uses.size());
  V.DefBegin = uint32_t(Seq.Defs.size());
  for (const RegUse &U : S.Uses) {
    V.HasLateUses |= U.Late;
    pushUnits(Seq.Uses, U.Regs, useSub(U.Regs.File, U.Slot, U.How), U.Late);
  }
  if (S.Class == InstrClass::IMADWide)
    pushWideDefs(Seq.Defs, S.Defs);
  else
    for (const RegRange &D : S.Defs)
      pushUnits(Seq.Defs, D, 0, false);
  V.NumUses = uint16_t(Seq.Uses.size() - V.UseBegin);
  V.NumDefs = uint16_t(Seq.Defs.size() - V.DefBegin);
  Seq.Ops.push_back(V);
}

FormDescriber::FormDescriber() = default;
FormDescriber::~FormDescriber() = default;

const Form &FormDescriber::formOf(sass::Opcode Op) {
  if (LLVM_LIKELY(unsigned(Op) < Slots.size())) {
    unsigned Slot = Slots[unsigned(Op)];
    if (LLVM_LIKELY(Slot))
      return *Forms[(Slot >> 1) - 1];
  }
  return addForm(Op);
}

const Form &FormDescriber::addForm(sass::Opcode Op) {
  static_assert(sass::NUM_OPCODES < 0x7fff,
                "Slots holds a form's index, times 2, plus 1");
  if (Slots.empty())
    Slots.assign(sass::getNumOpcodes(), 0);
  Forms.push_back(std::make_unique<Form>());
  Form &F = *Forms.back();
  buildForm(Op, F);
  Slots[unsigned(Op)] =
      uint16_t(Forms.size() * 2 + (F.Kind == SpecialKind::Nop ? 1 : 0));
  return F;
}

SpecialKind FormDescriber::kindOf(sass::Opcode Op) { return formOf(Op).Kind; }

bool FormDescriber::hasOutOfRangeGPR(const sass::Instruction &I) {
  for (const RegOperand &O : formOf(I.Op).Regs)
    if (O.File == RegFile::GPR && O.Zero == sass::RZ &&
        I.Ops[O.Index] > int64_t(sass::RZ))
      return true;
  return false;
}

bool FormDescriber::isNopForm(sass::Opcode Op) {
  return formOf(Op).Kind == SpecialKind::Nop;
}

/// Appends the units of register range \p R of operand \p O (clipped to
/// its file, as units::unitsOf) to \p To.
static inline void pushOperandUnits(std::vector<UnitRange> &To,
                                    const RegRange &R, const RegOperand &O,
                                    uint8_t Sub, bool Late) {
  if (R.First >= O.FileSize)
    return;
  UnitRange U;
  U.First = uint16_t(O.UnitBase + R.First);
  U.Count = uint16_t(std::min<unsigned>(R.Count, O.FileSize - R.First));
  U.File = R.File;
  U.Sub = Sub;
  U.Late = Late;
  To.push_back(U);
}

/// The start of append() on either path: what the view takes from the
/// instruction itself, and where its uses and defs begin in \p Seq.
static inline void beginView(const sass::Instruction &In, const OpSeq &Seq,
                             OpView &V) {
  V.GuardNeg = In.GuardNeg;
  V.NeverExecutes = In.Guard == sass::PT && In.GuardNeg;
  V.Ctrl = In.Ctrl;
  V.UseBegin = uint32_t(Seq.Uses.size());
  V.DefBegin = uint32_t(Seq.Defs.size());
}

/// The end of append() on either path: the view's flags, wait operands,
/// the guard's read, and its use and def counts since beginView().
static inline void finishView(const Form &F, const sass::Instruction &In,
                              OpSeq &Seq, OpView &V, bool LateUses,
                              bool Defs) {
  V.HasLateUses = LateUses;
  V.HasDefs = Defs;
  if (LLVM_UNLIKELY(F.HasWaitOperands))
    setWaitOperands(F, In, V);
  RegRange G;
  if (guardOf(F, In, G)) {
    V.Predicated = true;
    pushUnits(Seq.Uses, G, uint8_t(PredRead::Guard), false);
  }
  V.NumUses = uint16_t(Seq.Uses.size() - V.UseBegin);
  V.NumDefs = uint16_t(Seq.Defs.size() - V.DefBegin);
}

/// The units of operand \p O of a simple form in \p In into \p U; false
/// when it has none (a value past its file).  \p Past: a GPR past RZ.
static inline bool fastUnits(const Form &F, const Form::FastOperand &O,
                             const sass::Instruction &In, int64_t Value,
                             UnitRange &U, bool &Past) {
  U = O.Units;
  // Most operands are a range inside the file, not a pair base: the
  // template's units from the value.  The others are tested in full.
  static_assert(units::NumGPR <= sass::RZ, "a GPR past RZ is past the file");
  if (LLVM_LIKELY(uint64_t(Value) < O.PlainLimit)) {
    U.First = uint16_t(U.First + Value);
    return true;
  }
  Past |= O.IsGPR && Value > int64_t(sass::RZ);
  unsigned First = uint16_t(Value);
  if (First >= O.FileSize)
    return false;
  if (O.PairReg >= 0 && isPairBase(F, F.Regs[O.PairReg], In))
    U.Count = 2;
  U.First = uint16_t(U.First + First);
  if (First + U.Count > O.FileSize)
    U.Count = uint16_t(O.FileSize - First);
  return true;
}

/// append() of a simple form: the same units as the general path.
static LLVM_ATTRIBUTE_ALWAYS_INLINE void
appendSimple(const Form &F, const sass::Instruction &In, OpSeq &Seq,
             bool &OutOfRange) {
  Seq.Ops.push_back(F.View);
  OpView &V = Seq.Ops.back();
  beginView(In, Seq, V);
  bool LateUses = false, Past = false, Defs = false;
  const Form::FastOperand *O = F.Fast.begin();
  const Form::FastOperand *DefsEnd = O + F.NumFastDefs;
  for (; O != DefsEnd; ++O) {
    int64_t Value = In.Ops[O->Index];
    if (Value == O->Zero)
      continue;
    Defs = true; // as the general path: named, whether it has units
    UnitRange U;
    if (fastUnits(F, *O, In, Value, U, Past))
      Seq.Defs.push_back(U);
  }
  for (const Form::FastOperand *End = F.Fast.end(); O != End; ++O) {
    int64_t Value = In.Ops[O->Index];
    if (Value == O->Zero)
      continue;
    UnitRange U;
    if (!fastUnits(F, *O, In, Value, U, Past))
      continue;
    LateUses |= U.Late;
    Seq.Uses.push_back(U);
  }
  OutOfRange |= Past;
  finishView(F, In, Seq, V, LateUses, Defs);
}

Error FormDescriber::append(const sass::Instruction &In, OpSeq &Seq) {
  const Form &F = formOf(In.Op);
  if (!F.Known)
    return classOf(*F.Info).takeError();
  if (LLVM_LIKELY(F.Simple)) {
    appendSimple(F, In, Seq, OutOfRange);
    return Error::success();
  }
  Seq.Ops.emplace_back();
  OpView &V = Seq.Ops.back();
  V.Class = F.Class;
  V.Kind = F.Kind;
  V.Variable = F.Variable;
  V.NeedsReadSB = F.NeedsReadSB;
  beginView(In, Seq, V);
  // IMAD.WIDE's def ranges, for the low half of its pair (isLowHalf).
  SmallVector<RegRange, 2> WideDefs;
  bool IsWide = F.Class == InstrClass::IMADWide;
  bool LateUses = false, Defs = false;
  OutOfRange |= forEachRegOperand(
      F, In,
      [&](RegRange R, bool IsDef, ReadSlot Slot, bool Late,
          const RegOperand &O) {
        if (!IsDef) {
          LateUses |= Late;
          // useSub(): a predicate operand is read as PredRead::Operand (0).
          pushOperandUnits(Seq.Uses, R, O,
                           R.File == RegFile::GPR ? uint8_t(Slot) : 0, Late);
          return;
        }
        Defs = true;
        if (IsWide)
          WideDefs.push_back(R);
        else
          pushOperandUnits(Seq.Defs, R, O, 0, false);
      });
  if (IsWide)
    pushWideDefs(Seq.Defs, WideDefs);
  finishView(F, In, Seq, V, LateUses, Defs);
  return Error::success();
}

Error FormDescriber::appendRun(const sass::Instruction *First, size_t Stride,
                               size_t N, OpSeq &Seq) {
  // Most instructions are of simple forms whose class is known: their
  // appendSimple() inline here, not a call of append() each.
  const char *At = reinterpret_cast<const char *>(First);
  bool Past = false;
  // Instructions of one form often follow each other (HMMAs, LDSMs,
  // IMADs): the form of the one before is kept.
  const Form *Last = nullptr;
  sass::Opcode LastOp = sass::Opcode(0);
  for (size_t K = 0; K < N; ++K, At += Stride) {
    const auto &In = *reinterpret_cast<const sass::Instruction *>(At);
    if (!Last || In.Op != LastOp) {
      Last = &formOf(In.Op);
      LastOp = In.Op;
    }
    const Form &F = *Last;
    if (LLVM_LIKELY(F.Known && F.Simple)) {
      appendSimple(F, In, Seq, Past);
      continue;
    }
    if (Error E = append(In, Seq)) {
      OutOfRange |= Past;
      return E;
    }
  }
  OutOfRange |= Past;
  return Error::success();
}

} // namespace sched
} // namespace tp
