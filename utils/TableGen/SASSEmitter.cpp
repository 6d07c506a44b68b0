//===- SASSEmitter.cpp - The sm_86 form model and its backends ------------===//
///
/// \file
/// Builds, from every record derived from SM86Inst, the model of an
/// instruction form, in the manner of LLVM's CodeEmitterGen: walk the
/// record's `Inst` bits; a bit is
///   * a constant (BitInit): part of the form's fixed mask and value,
///   * unset (`?`): don't care -- allowed only where the td says so (bit
///     101 and the control bits 105..125, which belong to SM86Control),
///   * a bit of a named field (VarBitInit): if the field is an operand of the
///     form (a dag argument `Type:$name`), the bit belongs to that operand's
///     segments (inst bit, field bit, width); if it is not, the field was
///     left unbound by the form and the bit is the constant 0.
/// The guard predicate fields Pg/PgNeg are bound implicitly.  Every operand
/// must own at least one bit and appear in the AsmString; every bit of the
/// word below 105 must be fixed or an operand bit.  Violations are
/// PrintFatalError at the record.
///
//===----------------------------------------------------------------------===//

#include "SASSEmitter.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/TableGen/Error.h"
#include "llvm/TableGen/Record.h"
#include "llvm/TableGen/TableGenBackend.h"
#include <algorithm>
#include <map>

using namespace llvm;

namespace {

struct Seg {
  unsigned InstBit, FieldBit, Width;
};

struct OperandModel {
  std::string Name;
  Record *Type = nullptr;
  std::string Kind;
  int Width = 1;
  bool Signed = false;
  bool IsDef = false;
  unsigned FieldBits = 0; // declared width of the field
  std::vector<Seg> Segs;
  int ReuseSlot = -1;
  int ModTable = -1;
};

struct FormModel {
  Record *R = nullptr;
  std::string Name, Mnemonic, Template;
  std::vector<OperandModel> Ops;
  uint64_t Mask[2] = {0, 0}, Value[2] = {0, 0};
  Record *Sched = nullptr;
  uint32_t LateReadMask = 0;
  unsigned specificity() const {
    return countPopulation(Mask[0]) + countPopulation(Mask[1]);
  }
};

struct FieldModel {
  std::string Name;
  std::vector<Seg> Segs;
};

class SASSModel {
public:
  explicit SASSModel(RecordKeeper &RK);
  std::vector<FormModel> Forms;
  std::vector<Record *> ModTypes; // operand types with spelling tables
  FieldModel Guard{"Pg", {}}, GuardNeg{"PgNeg", {}};
  std::vector<FieldModel> Control; // Stall Yield WrSB RdSB WaitMask Reuse
  std::vector<Record *> SchedClasses;

  /// Targets (td/Targets.td), by SM; target 0 is the default (sm_86).
  struct TargetModel {
    std::string Name, Enum;
    int64_t SM = 0;
    std::vector<std::string> CPUs;
    /// The target's facts (TargetFacts order); all 0 for a td without
    /// Targets.td.
    std::vector<int64_t> Facts;
  };
  /// The fields of SASSTarget that become sass::TargetInfo, in its order
  /// (a bit field is emitted as a bool).
  struct TargetFact {
    const char *Name;
    bool IsBit;
  };
  static constexpr TargetFact TargetFacts[] = {
      {"ParamBase", false},          {"DescriptorSlot", false},
      {"ReservedSharedBytes", false}, {"ELFFlagsBase", false},
      {"MaxSharedBytesPerBlock", false}, {"MaxRegisters", false},
      {"RegCountInTextInfo", true},  {"Attr5F", false}};
  std::vector<TargetModel> Targets;
  /// EncodingOn defs: a form's encoding on other targets.
  std::vector<FormModel> Encodings;
  /// [target][form]: index in Encodings, or -1 (the form's own encoding).
  std::vector<std::vector<int>> EncodingFor;
  /// [form]: bit t set when the form exists on target t (OnlyOn).
  std::vector<uint32_t> TargetMask;
  /// The forms as target \p T encodes them (fixed bits and operand
  /// segments of its EncodingOn defs).
  std::vector<FormModel> formsFor(unsigned T) const {
    std::vector<FormModel> Fs = Forms;
    for (unsigned F = 0; F < Fs.size(); ++F)
      if (EncodingFor[T][F] >= 0) {
        const FormModel &E = Encodings[EncodingFor[T][F]];
        std::copy(E.Mask, E.Mask + 2, Fs[F].Mask);
        std::copy(E.Value, E.Value + 2, Fs[F].Value);
        for (unsigned K = 0; K < Fs[F].Ops.size(); ++K)
          Fs[F].Ops[K].Segs = E.Ops[K].Segs;
      }
    return Fs;
  }
  bool availableOn(unsigned F, unsigned T) const {
    return (TargetMask[F] >> T) & 1;
  }

private:
  void buildTargets(RecordKeeper &RK);
  void buildForm(Record *R, FieldModel *GuardOut, FieldModel *GuardNegOut);
  static void addSeg(std::vector<Seg> &Segs, unsigned InstBit,
                     unsigned FieldBit);
};

void SASSModel::addSeg(std::vector<Seg> &Segs, unsigned InstBit,
                       unsigned FieldBit) {
  if (!Segs.empty()) {
    Seg &L = Segs.back();
    if (L.InstBit + L.Width == InstBit && L.FieldBit + L.Width == FieldBit) {
      ++L.Width;
      return;
    }
  }
  Segs.push_back({InstBit, FieldBit, 1});
}

static std::string kindOf(Record *Type) {
  return std::string(Type->getValueAsString("Kind"));
}

SASSModel::SASSModel(RecordKeeper &RK) {
  // Control word.
  Record *Ctl = RK.getDef("SM86Control");
  if (!Ctl)
    PrintFatalError("no def SM86Control (the control-field word)");
  {
    BitsInit *Inst = Ctl->getValueAsBitsInit("Inst");
    const char *Names[] = {"Stall", "Yield", "WrSB", "RdSB", "WaitMask",
                           "Reuse"};
    for (const char *N : Names)
      Control.push_back({N, {}});
    for (unsigned B = 0; B < Inst->getNumBits(); ++B) {
      std::string V;
      unsigned FB = 0;
      if (auto *VB = dyn_cast<VarBitInit>(Inst->getBit(B))) {
        V = VB->getBitVar()->getAsUnquotedString();
        FB = VB->getBitNum();
      } else if (auto *VI = dyn_cast<VarInit>(Inst->getBit(B))) {
        V = VI->getAsUnquotedString();
      } else {
        continue;
      }
      bool Found = false;
      for (FieldModel &F : Control)
        if (F.Name == V) {
          addSeg(F.Segs, B, FB);
          Found = true;
        }
      if (!Found)
        PrintFatalError(Ctl->getLoc(), "unknown control field '" + V + "'");
    }
  }

  std::vector<Record *> Defs = RK.getAllDerivedDefinitions("SM86Inst");
  bool First = true;
  std::vector<Record *> EncodingDefs;
  for (Record *R : Defs) {
    FieldModel G{"Pg", {}}, GN{"PgNeg", {}};
    buildForm(R, &G, &GN);
    if (R->isSubClassOf("EncodingOn")) {
      // Not a form: another target's encoding of one (buildTargets).
      Encodings.push_back(std::move(Forms.back()));
      Forms.pop_back();
      EncodingDefs.push_back(R);
    }
    if (First) {
      Guard = G;
      GuardNeg = GN;
      First = false;
    } else if (G.Segs.size() != Guard.Segs.size() ||
               GN.Segs.size() != GuardNeg.Segs.size() ||
               (!G.Segs.empty() && G.Segs[0].InstBit != Guard.Segs[0].InstBit)) {
      PrintFatalError(R->getLoc(), R->getName() + ": " + "guard predicate placed differently from "
                                   "the first form");
    }
  }
  if (Guard.Segs.empty())
    PrintFatalError("no instruction forms, or no guard predicate field");
  buildTargets(RK);
}

void SASSModel::buildTargets(RecordKeeper &RK) {
  std::vector<Record *> TRs;
  if (RK.getClass("SASSTarget"))
    TRs = RK.getAllDerivedDefinitions("SASSTarget");
  std::sort(TRs.begin(), TRs.end(), [](Record *A, Record *B) {
    return A->getValueAsInt("SM") < B->getValueAsInt("SM");
  });
  for (Record *T : TRs) {
    TargetModel M;
    M.Name = std::string(T->getValueAsString("Name"));
    for (char C : M.Name)
      if (C != '_')
        M.Enum += toUpper(C);
    M.SM = T->getValueAsInt("SM");
    for (StringRef C : T->getValueAsListOfStrings("CPUs"))
      M.CPUs.push_back(std::string(C));
    for (const TargetFact &F : TargetFacts)
      M.Facts.push_back(F.IsBit ? T->getValueAsBit(F.Name)
                                : T->getValueAsInt(F.Name));
    Targets.push_back(M);
  }
  if (Targets.empty()) // a td without Targets.td: sm_86 alone
    Targets.push_back({"sm_86", "SM86", 86, {"sm_86"},
                       std::vector<int64_t>(std::size(TargetFacts))});
  if (Targets.size() > 8)
    PrintFatalError("more than 8 targets");
  auto TargetIndex = [&](Record *Where, Record *T) {
    for (unsigned I = 0; I < Targets.size(); ++I)
      if (Targets[I].Name == T->getValueAsString("Name"))
        return I;
    PrintFatalError(Where->getLoc(), "unknown target " + T->getName());
  };
  TargetMask.assign(Forms.size(), (1u << Targets.size()) - 1);
  for (unsigned F = 0; F < Forms.size(); ++F) {
    Record *R = Forms[F].R;
    if (!R->isSubClassOf("OnlyOn"))
      continue;
    TargetMask[F] = 0;
    for (Record *T : R->getValueAsListOfDefs("OnlyTargets"))
      TargetMask[F] |= 1u << TargetIndex(R, T);
  }
  EncodingFor.assign(Targets.size(), std::vector<int>(Forms.size(), -1));
  for (unsigned E = 0; E < Encodings.size(); ++E) {
    const FormModel &Enc = Encodings[E];
    Record *R = Enc.R;
    StringRef Of = R->getValueAsString("EncodingOf");
    auto It = find_if(Forms, [&](const FormModel &F) { return F.Name == Of; });
    if (It == Forms.end())
      PrintFatalError(R->getLoc(), R->getName() + ": EncodingOn names '" + Of +
                                       "', which is no form");
    unsigned F = It - Forms.begin();
    const FormModel &Base = *It;
    bool Same = Base.Ops.size() == Enc.Ops.size() &&
                Base.Template == Enc.Template;
    for (unsigned K = 0; Same && K < Base.Ops.size(); ++K)
      Same = Base.Ops[K].Name == Enc.Ops[K].Name &&
             Base.Ops[K].Type == Enc.Ops[K].Type &&
             Base.Ops[K].IsDef == Enc.Ops[K].IsDef;
    if (!Same)
      PrintFatalError(R->getLoc(), R->getName() + ": operands or AsmString "
                                       "differ from those of " + Of);
    for (unsigned K = 0; K < Base.Ops.size(); ++K)
      if (Enc.Ops[K].FieldBits < Base.Ops[K].FieldBits)
        PrintFatalError(R->getLoc(), R->getName() + ": operand $" +
                                         Base.Ops[K].Name + " is narrower "
                                         "than in " + Of);
    if ((Enc.Value[0] & 0xfff) != (Base.Value[0] & 0xfff))
      PrintFatalError(R->getLoc(), R->getName() + ": opcode differs from " +
                                       Of + "'s");
    for (Record *T : R->getValueAsListOfDefs("EncodingTargets")) {
      unsigned TI = TargetIndex(R, T);
      if (EncodingFor[TI][F] >= 0)
        PrintFatalError(R->getLoc(), R->getName() + ": a second encoding of " +
                                         Of + " on " + T->getName());
      EncodingFor[TI][F] = E;
    }
  }
}

void SASSModel::buildForm(Record *R, FieldModel *GuardOut,
                          FieldModel *GuardNegOut) {
  FormModel F;
  F.R = R;
  F.Name = std::string(R->getName());
  std::string Asm = std::string(R->getValueAsString("AsmString"));

  // Operands: outs then ins.
  auto AddOps = [&](DagInit *D, bool IsDef) {
    for (unsigned I = 0, E = D->getNumArgs(); I != E; ++I) {
      auto *DI = dyn_cast<DefInit>(D->getArg(I));
      if (!DI || !DI->getDef()->isSubClassOf("OperandType"))
        PrintFatalError(R->getLoc(), R->getName() + ": " + "operand " + Twine(I) +
                                         " is not an OperandType");
      OperandModel O;
      O.Name = std::string(D->getArgNameStr(I));
      if (O.Name.empty())
        PrintFatalError(R->getLoc(), R->getName() + ": " + "unnamed operand");
      for (const OperandModel &P : F.Ops)
        if (P.Name == O.Name)
          PrintFatalError(R->getLoc(), R->getName() + ": " + "duplicate operand $" + O.Name);
      O.Type = DI->getDef();
      O.Kind = kindOf(O.Type);
      O.Width = O.Type->getValueAsInt("Width");
      O.Signed = O.Type->getValueAsBit("Signed");
      O.IsDef = IsDef;
      if (!O.Type->getValueAsListOfInts("Values").empty()) {
        auto It = find(ModTypes, O.Type);
        O.ModTable = It - ModTypes.begin();
        if (It == ModTypes.end())
          ModTypes.push_back(O.Type);
      } else if (O.Kind == "Modifier" || O.Kind == "SReg") {
        PrintFatalError(R->getLoc(), R->getName() + ": " + "operand $" + O.Name +
                                         " needs a spelling table");
      }
      const RecordVal *RV = R->getValue(O.Name);
      if (!RV)
        PrintFatalError(R->getLoc(), R->getName() + ": " + "operand $" + O.Name +
                                         " has no field of that name");
      if (auto *BT = dyn_cast<BitsRecTy>(RV->getType()))
        O.FieldBits = BT->getNumBits();
      else if (isa<BitRecTy>(RV->getType()))
        O.FieldBits = 1;
      else
        PrintFatalError(R->getLoc(), R->getName() + ": " + "field " + O.Name + " is not bits<N>");
      F.Ops.push_back(std::move(O));
    }
  };
  AddOps(R->getValueAsDag("OutOperandList"), true);
  AddOps(R->getValueAsDag("InOperandList"), false);

  // Walk Inst.
  BitsInit *Inst = R->getValueAsBitsInit("Inst");
  if (Inst->getNumBits() != 128)
    PrintFatalError(R->getLoc(), R->getName() + ": " + "Inst must be bits<128>");
  for (unsigned B = 0; B < 128; ++B) {
    Init *Bit = Inst->getBit(B);
    bool IsCtl = B >= 105 && B <= 125;
    if (auto *BI = dyn_cast<BitInit>(Bit)) {
      if (IsCtl)
        PrintFatalError(R->getLoc(), R->getName() + ": " + "bit " + Twine(B) +
                                         " belongs to the control word");
      F.Mask[B / 64] |= uint64_t(1) << (B % 64);
      if (BI->getValue())
        F.Value[B / 64] |= uint64_t(1) << (B % 64);
      continue;
    }
    if (isa<UnsetInit>(Bit)) {
      if (!IsCtl && B != 101)
        PrintFatalError(R->getLoc(), R->getName() + ": " + "bit " + Twine(B) +
                                         " of Inst is unset (only bit 101 "
                                         "and the control bits may be)");
      continue;
    }
    std::string V;
    unsigned FieldBit = 0;
    if (auto *VB = dyn_cast<VarBitInit>(Bit)) {
      V = VB->getBitVar()->getAsUnquotedString();
      FieldBit = VB->getBitNum();
    } else if (auto *VI = dyn_cast<VarInit>(Bit)) {
      V = VI->getAsUnquotedString(); // a `bit` field
    } else {
      PrintFatalError(R->getLoc(), R->getName() + ": " + "bit " + Twine(B) + " of Inst is '" +
                                       Bit->getAsString() + "'");
    }
    if (IsCtl)
      PrintFatalError(R->getLoc(), R->getName() + ": " + "bit " + Twine(B) +
                                       " belongs to the control word");
    if (V == "Pg") {
      addSeg(GuardOut->Segs, B, FieldBit);
      continue;
    }
    if (V == "PgNeg") {
      addSeg(GuardNegOut->Segs, B, FieldBit);
      continue;
    }
    OperandModel *Op = nullptr;
    for (OperandModel &O : F.Ops)
      if (O.Name == V)
        Op = &O;
    if (!Op) {
      // A field of the format the form does not bind: constant 0.
      F.Mask[B / 64] |= uint64_t(1) << (B % 64);
      continue;
    }
    addSeg(Op->Segs, B, FieldBit);
  }
  for (OperandModel &O : F.Ops) {
    if (O.Segs.empty())
      PrintFatalError(R->getLoc(), R->getName() + ": " + "operand $" + O.Name +
                                       " is bound to no bit of Inst");
    unsigned Covered = 0;
    for (const Seg &S : O.Segs)
      Covered += S.Width;
    O.FieldBits = std::max(Covered, 1u);
    // Field bits must be 0..Covered-1 without holes.
    std::vector<bool> Seen(64, false);
    for (const Seg &S : O.Segs)
      for (unsigned I = 0; I < S.Width; ++I) {
        if (S.FieldBit + I >= 64 || Seen[S.FieldBit + I])
          PrintFatalError(R->getLoc(), R->getName() + ": " + "operand $" + O.Name +
                                           " has overlapping bits");
        Seen[S.FieldBit + I] = true;
      }
    for (unsigned I = 0; I < Covered; ++I)
      if (!Seen[I])
        PrintFatalError(R->getLoc(), R->getName() + ": " + "operand $" + O.Name +
                                         " does not bind bit " + Twine(I) +
                                         " of its field");
  }

  // Reuse slots.
  std::vector<StringRef> Reuse = R->getValueAsListOfStrings("ReuseOperands");
  for (unsigned S = 0; S < Reuse.size() && S < 4; ++S)
    for (OperandModel &O : F.Ops)
      if (!Reuse[S].empty() && O.Name == Reuse[S] &&
          (O.Kind == "GPR" || O.Kind == "MemBase"))
        O.ReuseSlot = S;

  // Template: $name / ${name} -> '$' + char('a' + index).
  std::string T;
  std::vector<bool> Used(F.Ops.size(), false);
  for (size_t I = 0; I < Asm.size();) {
    char C = Asm[I];
    if (C != '$') {
      T += C;
      ++I;
      continue;
    }
    std::string Name;
    if (I + 1 < Asm.size() && Asm[I + 1] == '{') {
      size_t E = Asm.find('}', I);
      if (E == std::string::npos)
        PrintFatalError(R->getLoc(), R->getName() + ": " + "unterminated ${ in AsmString");
      Name = Asm.substr(I + 2, E - I - 2);
      I = E + 1;
    } else {
      size_t E = I + 1;
      while (E < Asm.size() && (isAlnum(Asm[E]) || Asm[E] == '_'))
        ++E;
      Name = Asm.substr(I + 1, E - I - 1);
      I = E;
    }
    // ${name:next}: the register after operand `name` (a register pair
    // spelled by its second half, e.g. LDGSTS's desc[URx+1]).
    bool Next = false;
    if (StringRef(Name).endswith(":next")) {
      Next = true;
      Name = Name.substr(0, Name.size() - 5);
    }
    int Idx = -1;
    for (unsigned K = 0; K < F.Ops.size(); ++K)
      if (F.Ops[K].Name == Name)
        Idx = K;
    if (Idx < 0)
      PrintFatalError(R->getLoc(), R->getName() + ": " + "AsmString names $" + Name +
                                       ", which is no operand");
    if (Next && Used[Idx] == false)
      PrintFatalError(R->getLoc(), R->getName() + ": ${" + Name +
                                       ":next} before $" + Name);
    Used[Idx] = true;
    T += Next ? '^' : '$';
    T += char('a' + Idx);
  }
  for (unsigned K = 0; K < F.Ops.size(); ++K)
    if (!Used[K])
      PrintFatalError(R->getLoc(), R->getName() + ": " + "operand $" + F.Ops[K].Name +
                                       " is not in the AsmString");
  if (F.Ops.size() > 24)
    PrintFatalError(R->getLoc(), R->getName() + ": " + "more than 24 operands (tp::sass::MaxOperands)");
  F.Template = T;
  size_t E = Asm.find_first_of(". $");
  F.Mnemonic = Asm.substr(0, E);
  if (F.Mnemonic.empty())
    PrintFatalError(R->getLoc(), R->getName() + ": " + "AsmString has no mnemonic");
  if ((F.Mask[0] & 0xfff) != 0xfff)
    PrintFatalError(R->getLoc(), R->getName() + ": " + "the opcode bits [0:11] must be fixed");

  if (R->getValueAsBit("IsBranch") &&
      none_of(F.Ops, [](const OperandModel &O) {
        return O.Kind == "BranchTarget";
      }))
    PrintFatalError(R->getLoc(), R->getName() + ": IsBranch without a "
                                                "BranchTarget operand");

  F.Sched = R->getValueAsDef("Sched");
  for (StringRef L : F.Sched->getValueAsListOfStrings("LateRead"))
    for (unsigned K = 0; K < F.Ops.size(); ++K)
      if (F.Ops[K].Name == L)
        F.LateReadMask |= 1u << K;
  if (!is_contained(SchedClasses, F.Sched))
    SchedClasses.push_back(F.Sched);
  Forms.push_back(std::move(F));
}

std::string cString(StringRef S) {
  std::string Out = "\"";
  for (char C : S) {
    if (C == '"' || C == '\\')
      Out += '\\';
    Out += C;
  }
  return Out + "\"";
}

std::string kindEnum(StringRef K) {
  return ("OperandKind::" + K).str();
}

void emitSegs(raw_ostream &OS, const std::vector<Seg> &Segs) {
  for (const Seg &S : Segs)
    OS << "{" << S.InstBit << "," << S.FieldBit << "," << S.Width << "},";
}

} // namespace

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
       << "u}, {0x" << utohexstr(F.Mask[0]) << "ull, 0x"
       << utohexstr(F.Mask[1]) << "ull}, {0x" << utohexstr(F.Value[0])
       << "ull, 0x" << utohexstr(F.Value[1]) << "ull}, "
       << (F.R->getValueAsBit("UniformGuard") ? "true" : "false") << ", "
       << (F.R->getValueAsBit("IsExit") ? "true" : "false") << ", "
       << (F.R->getValueAsBit("IsBranch") ? "true" : "false") << "},\n";
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
  OS << ".\nconst TargetInfo TargetInfos[] = {\n";
  for (const SASSModel::TargetModel &T : M.Targets) {
    OS << "  {" << cString(T.Name) << ", " << T.SM;
    for (unsigned I = 0; I < T.Facts.size(); ++I)
      if (SASSModel::TargetFacts[I].IsBit)
        OS << ", " << (T.Facts[I] ? "true" : "false");
      else
        OS << ", 0x" << utohexstr(uint64_t(T.Facts[I]), /*LowerCase=*/true);
    OS << "},\n";
  }
  OS << "};\nconstexpr unsigned NumTargets = " << M.Targets.size()
     << ";\n// Per form: bit t set when the form exists on target t.\n"
        "const uint8_t FormTargets[] = {\n";
  for (unsigned I = 0; I < M.Forms.size(); ++I)
    OS << "  0x" << utohexstr(M.TargetMask[I]) << ", // " << M.Forms[I].Name
       << "\n";
  OS << "};\n#undef GET_SASS_INSTR_INFO\n#endif\n";
}

void emitEncoder(RecordKeeper &RK, raw_ostream &OS) {
  SASSModel M(RK);
  emitSourceFileHeader("sm_86 encoder: field segments", OS);
  OS << "#ifdef GET_SASS_ENCODER\n";
  OS << "// {inst bit, field bit, width} segments of every operand field.\n";
  OS << "const FieldSeg Segs[] = {\n";
  unsigned N = 0;
  std::vector<std::pair<unsigned, unsigned>> OpSegs;
  std::vector<int64_t> Xors;
  for (const FormModel &F : M.Forms) {
    OS << "  // " << F.Name << "\n";
    for (const OperandModel &O : F.Ops) {
      OS << "  ";
      emitSegs(OS, O.Segs);
      OS << " // $" << O.Name << "\n";
      OpSegs.push_back({N, (unsigned)O.Segs.size()});
      Xors.push_back(O.Type->getValueAsInt("XorMask"));
      N += O.Segs.size();
    }
  }
  auto EmitField = [&](const FieldModel &Fm) {
    OS << "  ";
    emitSegs(OS, Fm.Segs);
    OS << " // " << Fm.Name << "\n";
    OpSegs.push_back({N, (unsigned)Fm.Segs.size()});
    Xors.push_back(0);
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
    OS << "  // " << E.Name << "\n";
    EncFieldBase.push_back(OpSegs.size());
    for (const OperandModel &O : E.Ops) {
      OS << "  ";
      emitSegs(OS, O.Segs);
      OS << " // $" << O.Name << "\n";
      OpSegs.push_back({N, (unsigned)O.Segs.size()});
      Xors.push_back(O.Type->getValueAsInt("XorMask"));
      N += O.Segs.size();
    }
  }
  OS << "};\n\n// Per operand (same order as OperandInfos), then Pg, PgNeg, "
        "Stall, Yield, WrSB, RdSB, WaitMask, Reuse.\n";
  OS << "const FieldRef OperandFields[] = {\n";
  for (unsigned I = 0; I < OpSegs.size(); ++I)
    OS << "  {" << OpSegs[I].first << ", " << OpSegs[I].second << ", "
       << Xors[I] << "},\n";
  OS << "};\nconstexpr unsigned FirstSpecialField = "
     << FirstSpecial << ";\n";
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

void emitDecoder(RecordKeeper &RK, raw_ostream &OS) {
  SASSModel M(RK);
  emitSourceFileHeader("sm_86 decoder: dispatch on the 12-bit opcode", OS);
  OS << "#ifdef GET_SASS_DECODER\n";
  // One set of tables per target (target 0 unsuffixed, others _<ENUM>),
  // over the forms that exist on the target, as it encodes them.
  for (unsigned T = 0; T < M.Targets.size(); ++T) {
  const std::vector<FormModel> TForms = M.formsFor(T);
  const std::string Sfx = T ? "_" + M.Targets[T].Enum : "";
  OS << "// " << M.Targets[T].Name << "\n";
  std::map<unsigned, std::vector<unsigned>> ByOpc;
  for (unsigned I = 0; I < TForms.size(); ++I)
    if (M.availableOn(I, T))
      ByOpc[TForms[I].Value[0] & 0xfff].push_back(I);
  auto Bit = [](const uint64_t *W, unsigned B) {
    return (W[B / 64] >> (B % 64)) & 1;
  };
  // Second level: within an opcode, up to 6 key bits that every form of
  // the opcode fixes and that tell forms apart; each key value lists the
  // forms whose fixed bits agree with it, most specific first.
  OS << "const uint16_t DecodeList" << Sfx << "[] = {\n";
  std::vector<std::string> BucketRows;
  std::vector<unsigned> SubBegin;
  unsigned N = 0;
  std::vector<unsigned> BucketOf(4096, 0);
  for (auto &P : ByOpc) {
    std::vector<unsigned> &Fs = P.second;
    std::vector<unsigned> Keys;
    for (unsigned B = 12; B < 105 && Keys.size() < 6 && Fs.size() > 4; ++B) {
      bool AllFixed = true, Differ = false;
      for (unsigned F : Fs) {
        AllFixed &= Bit(TForms[F].Mask, B) != 0;
        Differ |= Bit(TForms[F].Value, B) != Bit(TForms[Fs[0]].Value, B);
      }
      if (AllFixed && Differ)
        Keys.push_back(B);
    }
    unsigned NK = 1u << Keys.size();
    unsigned SubBase = SubBegin.size();
    for (unsigned K = 0; K < NK; ++K) {
      std::vector<unsigned> L;
      for (unsigned F : Fs) {
        bool Match = true;
        for (unsigned J = 0; J < Keys.size(); ++J)
          Match &= Bit(TForms[F].Value, Keys[J]) == ((K >> J) & 1);
        if (Match)
          L.push_back(F);
      }
      std::stable_sort(L.begin(), L.end(), [&](unsigned A, unsigned B) {
        return TForms[A].specificity() > TForms[B].specificity();
      });
      SubBegin.push_back(N);
      if (!L.empty()) {
        OS << "  /* 0x" << utohexstr(P.first) << " key " << K << " */ ";
        for (unsigned F : L)
          OS << F << ", ";
        OS << "\n";
      }
      N += L.size();
    }
    std::string Row = "  {" + std::to_string(SubBase) + ", " +
                      std::to_string(Keys.size()) + ", {";
    for (unsigned J = 0; J < 6; ++J)
      Row += std::to_string(J < Keys.size() ? Keys[J] : 0) + ",";
    Row += "}}, // 0x" + utohexstr(P.first);
    BucketRows.push_back(Row);
    BucketOf[P.first] = BucketRows.size();
  }
  SubBegin.push_back(N);
  if (N == 0)
    OS << "  0\n";
  OS << "};\n// Start of each (opcode, key) candidate list in DecodeList.\n"
        "const uint16_t DecodeSubBegin" << Sfx << "[] = {";
  for (unsigned I = 0; I < SubBegin.size(); ++I)
    OS << (I % 16 ? " " : "\n  ") << SubBegin[I] << ",";
  OS << "\n};\n// Per used opcode: first key slot, number of key bits, "
        "key bits.\nconst DecodeBucket DecodeBuckets" << Sfx << "[] = {\n  {0, 0, {0,0,0,0,0,0}},"
        " // unused opcodes\n";
  for (auto &R : BucketRows)
    OS << R << "\n";
  OS << "};\n// Bucket of each 12-bit opcode (0: no form).\n"
        "const uint16_t DecodeBucketOf" << Sfx << "[4096] = {";
  for (unsigned I = 0; I < 4096; ++I)
    OS << (I % 32 ? " " : "\n  ") << BucketOf[I] << ",";
  OS << "\n};\n";
  if (BucketRows.size() > 65535)
    PrintFatalError("more than 65535 opcodes: widen DecodeBucketOf");
  }
  OS << "// Per target.\nconst DecodeTables DecodeTablesOf[] = {\n";
  for (unsigned T = 0; T < M.Targets.size(); ++T) {
    std::string Sfx = T ? "_" + M.Targets[T].Enum : "";
    OS << "  {DecodeList" << Sfx << ", DecodeSubBegin" << Sfx
       << ", DecodeBuckets" << Sfx << ", DecodeBucketOf" << Sfx << "},\n";
  }
  OS << "};\n#undef GET_SASS_DECODER\n#endif\n";
}

void emitAsmPrinter(RecordKeeper &RK, raw_ostream &OS) {
  SASSModel M(RK);
  emitSourceFileHeader("sm_86 asm printer: templates", OS);
  OS << "#ifdef GET_SASS_ASM_PRINTER\n";
  OS << "// '$' + letter: operand ('a' = 0); <a+b> an address group.\n";
  OS << "const char *const Templates[] = {\n";
  for (const FormModel &F : M.Forms)
    OS << "  " << cString(F.Template) << ", // " << F.Name << "\n";
  OS << "};\n#undef GET_SASS_ASM_PRINTER\n#endif\n";
}

void emitAsmMatcher(RecordKeeper &RK, raw_ostream &OS) {
  SASSModel M(RK);
  emitSourceFileHeader("sm_86 asm matcher: forms by mnemonic", OS);
  std::map<std::string, std::vector<unsigned>> ByMn;
  for (unsigned I = 0; I < M.Forms.size(); ++I)
    ByMn[M.Forms[I].Mnemonic].push_back(I);
  OS << "#ifdef GET_SASS_ASM_MATCHER\n";
  OS << "const uint16_t MatchList[] = {\n";
  unsigned N = 0;
  std::vector<std::tuple<std::string, unsigned, unsigned>> Entries;
  for (auto &P : ByMn) {
    OS << "  /* " << P.first << " */ ";
    for (unsigned I : P.second)
      OS << I << ", ";
    OS << "\n";
    Entries.emplace_back(P.first, N, P.second.size());
    N += P.second.size();
  }
  OS << "};\n// Sorted by mnemonic.\nconst MnemonicEntry Mnemonics[] = "
        "{\n";
  for (auto &E : Entries)
    OS << "  {" << cString(std::get<0>(E)) << ", " << std::get<1>(E) << ", "
       << std::get<2>(E) << "},\n";
  OS << "};\nconst unsigned NumMnemonics = " << Entries.size() << ";\n";
  OS << "#undef GET_SASS_ASM_MATCHER\n#endif\n";
}

void emitLatency(RecordKeeper &RK, raw_ostream &OS) {
  SASSModel M(RK);
  emitSourceFileHeader("sm_86 scheduling classes", OS);
  OS << "#ifdef GET_SASS_LATENCY\n";
  OS << "// name, variable, latency, late-read operand names\n";
  OS << "const SchedClassDesc SchedClassDescs[] = {\n";
  for (Record *S : M.SchedClasses) {
    OS << "  {" << cString(S->getName()) << ", "
       << (S->getValueAsBit("Variable") ? "true" : "false") << ", "
       << S->getValueAsInt("Latency") << ", "
       << cString(join(S->getValueAsListOfStrings("LateRead"), ",")) << "},\n";
  }
  OS << "};\nconst uint8_t FormSchedClass[] = {\n";
  for (const FormModel &F : M.Forms)
    OS << "  " << (find(M.SchedClasses, F.Sched) - M.SchedClasses.begin())
       << ", // " << F.Name << "\n";
  OS << "};\n#undef GET_SASS_LATENCY\n#endif\n";
}

void printForms(RecordKeeper &RK, raw_ostream &OS) {
  SASSModel M(RK);
  auto PrintSegs = [&](const std::vector<Seg> &S) {
    for (const Seg &G : S)
      OS << " [" << G.InstBit << ":" << G.InstBit + G.Width - 1 << "]<-"
         << G.FieldBit;
  };
  OS << "guard";
  PrintSegs(M.Guard.Segs);
  OS << " neg";
  PrintSegs(M.GuardNeg.Segs);
  OS << "\n";
  for (const FieldModel &C : M.Control) {
    OS << "control " << C.Name;
    PrintSegs(C.Segs);
    OS << "\n";
  }
  for (const FormModel &F : M.Forms) {
    OS << "form " << F.Name << " mnemonic " << F.Mnemonic << " mask 0x"
       << format_hex_no_prefix(F.Mask[1], 16)
       << format_hex_no_prefix(F.Mask[0], 16) << " value 0x"
       << format_hex_no_prefix(F.Value[1], 16)
       << format_hex_no_prefix(F.Value[0], 16) << " sched "
       << F.Sched->getName() << "\n";
    for (const OperandModel &O : F.Ops) {
      OS << "  " << (O.IsDef ? "def " : "use ") << O.Name << " " << O.Kind
         << " w" << O.Width << (O.Signed ? " signed" : "");
      if (O.ReuseSlot >= 0)
        OS << " reuse" << O.ReuseSlot;
      PrintSegs(O.Segs);
      OS << "\n";
    }
    unsigned FI = &F - M.Forms.data();
    if (M.TargetMask[FI] != (1u << M.Targets.size()) - 1) {
      OS << "  only on";
      for (unsigned T = 0; T < M.Targets.size(); ++T)
        if (M.availableOn(FI, T))
          OS << " " << M.Targets[T].Name;
      OS << "\n";
    }
    for (unsigned T = 0; T < M.Targets.size(); ++T) {
      int E = M.EncodingFor[T][FI];
      if (E < 0)
        continue;
      const FormModel &Enc = M.Encodings[E];
      OS << "  on " << M.Targets[T].Name << " as " << Enc.Name << " mask 0x"
         << format_hex_no_prefix(Enc.Mask[1], 16)
         << format_hex_no_prefix(Enc.Mask[0], 16) << " value 0x"
         << format_hex_no_prefix(Enc.Value[1], 16)
         << format_hex_no_prefix(Enc.Value[0], 16) << "\n";
      for (const OperandModel &O : Enc.Ops) {
        OS << "    " << O.Name;
        PrintSegs(O.Segs);
        OS << "\n";
      }
    }
  }
}

} // namespace tblgen
} // namespace tp
