//===- SASSModel.cpp - The form model of the SASS backends ---------------===//
///
/// \file
/// Builds the SASSModel (SASSModel.h) from the records: targets, forms,
/// their operands, bits, templates and other targets' encodings.  Every
/// inconsistency in the td is a PrintFatalError at its record.
///
//===----------------------------------------------------------------------===//

#include "SASSModel.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/TableGen/Error.h"
#include <algorithm>

using namespace llvm;

namespace tp {
namespace tblgen {

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
    const char *Names[] = {"Stall", "Yield",    "WrSB",
                           "RdSB",  "WaitMask", "Reuse"};
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
    for (int64_t V : Ctl->getValueAsListOfInts("UndefinedStallYield")) {
      if (V < 0 || V > 31)
        PrintFatalError(Ctl->getLoc(), "UndefinedStallYield value " +
                                           Twine(V) + " is not 0..31");
      UndefinedStallYield |= uint32_t(1) << V;
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
               (!G.Segs.empty() &&
                G.Segs[0].InstBit != Guard.Segs[0].InstBit)) {
      PrintFatalError(R->getLoc(),
                      R->getName() + ": " +
                          "guard predicate placed differently from "
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
  // The default target (IsDefault) first: it is Target(0) and its tables
  // are the unsuffixed ones; the others by SM.
  std::sort(TRs.begin(), TRs.end(), [](Record *A, Record *B) {
    bool DA = A->getValueAsBit("IsDefault"), DB = B->getValueAsBit("IsDefault");
    if (DA != DB)
      return DA;
    return A->getValueAsInt("SM") < B->getValueAsInt("SM");
  });
  if (!TRs.empty() && (!TRs[0]->getValueAsBit("IsDefault") ||
                       (TRs.size() > 1 && TRs[1]->getValueAsBit("IsDefault"))))
    PrintFatalError("exactly one SASSTarget must set IsDefault");
  for (Record *T : TRs) {
    TargetModel M;
    M.Name = std::string(T->getValueAsString("Name"));
    for (char C : M.Name)
      if (C != '_')
        M.Enum += toUpper(C);
    M.SM = T->getValueAsInt("SM");
    for (StringRef C : T->getValueAsListOfStrings("CPUs"))
      M.CPUs.push_back(std::string(C));
    for (const TargetFact &F : TargetFacts) {
      const RecordVal *V = T->getValue(F.Name);
      if (!V || !V->getValue()->isComplete())
        PrintFatalError(T->getLoc(), T->getName() + ": target fact " +
                                         F.Name + " is not set");
      bool IsString = F.Kind == FactKind::String;
      M.Facts.push_back(F.Kind == FactKind::Bit ? T->getValueAsBit(F.Name)
                        : IsString              ? 0
                                                : T->getValueAsInt(F.Name));
      M.StringFacts.push_back(
          IsString ? std::string(T->getValueAsString(F.Name)) : "");
    }
    Targets.push_back(M);
  }
  if (Targets.empty()) // a td without Targets.td: sm_86 alone
    Targets.push_back({"sm_86",
                       "SM86",
                       86,
                       {"sm_86"},
                       std::vector<int64_t>(std::size(TargetFacts)),
                       std::vector<std::string>(std::size(TargetFacts))});
  if (Targets.size() > 8)
    PrintFatalError("more than 8 targets");
  // The facts td gives per target in records of their own: each target
  // has exactly one of each class.
  auto TargetOf = [&](Record *R) -> TargetModel & {
    StringRef Name = R->getValueAsDef("Target")->getValueAsString("Name");
    auto T = llvm::find_if(
        Targets, [&](const TargetModel &M) { return M.Name == Name; });
    if (T == Targets.end())
      PrintFatalError(R->getLoc(), "a fact of an unknown target");
    return *T;
  };
  if (RK.getClass("CubinLayoutOf")) {
    for (Record *L : RK.getAllDerivedDefinitions("CubinLayoutOf")) {
      TargetModel &T = TargetOf(L);
      if (!T.CubinLayout.empty())
        PrintFatalError(L->getLoc(), "a second CubinLayoutOf " + T.Name);
      T.CubinLayout = std::string(L->getValueAsString("Layout"));
      T.SassOnlyCubinLayout =
          std::string(L->getValueAsString("SassOnlyLayout"));
    }
    for (const TargetModel &M : Targets)
      if (M.CubinLayout.empty())
        PrintFatalError(M.Name + " has no CubinLayoutOf");
  }
  if (RK.getClass("SharedMemoryPerSM")) {
    for (Record *S : RK.getAllDerivedDefinitions("SharedMemoryPerSM")) {
      TargetModel &T = TargetOf(S);
      if (T.SharedBytesPerSM)
        PrintFatalError(S->getLoc(), "a second SharedMemoryPerSM " + T.Name);
      T.SharedBytesPerSM = S->getValueAsInt("Bytes");
      if (T.SharedBytesPerSM <= 0)
        PrintFatalError(S->getLoc(), "shared memory per SM must be positive");
    }
    for (const TargetModel &M : Targets)
      if (!M.SharedBytesPerSM)
        PrintFatalError(M.Name + " has no SharedMemoryPerSM");
  }
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
    bool Same =
        Base.Ops.size() == Enc.Ops.size() && Base.Template == Enc.Template;
    for (unsigned K = 0; Same && K < Base.Ops.size(); ++K)
      Same = Base.Ops[K].Name == Enc.Ops[K].Name &&
             Base.Ops[K].Type == Enc.Ops[K].Type &&
             Base.Ops[K].IsDef == Enc.Ops[K].IsDef;
    if (!Same)
      PrintFatalError(R->getLoc(), R->getName() +
                                       ": operands or AsmString "
                                       "differ from those of " +
                                       Of);
    for (unsigned K = 0; K < Base.Ops.size(); ++K)
      if (Enc.Ops[K].FieldBits < Base.Ops[K].FieldBits)
        PrintFatalError(R->getLoc(), R->getName() + ": operand $" +
                                         Base.Ops[K].Name +
                                         " is narrower "
                                         "than in " +
                                         Of);
    if ((Enc.Value[0] & 0xfff) != (Base.Value[0] & 0xfff))
      PrintFatalError(R->getLoc(),
                      R->getName() + ": opcode differs from " + Of + "'s");
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
  addOperands(F);
  bindInstBits(F, GuardOut, GuardNegOut);
  buildTemplate(F);
  finishForm(F);
  if (!is_contained(SchedClasses, F.Sched))
    SchedClasses.push_back(F.Sched);
  Forms.push_back(std::move(F));
}

/// The operands of form \p F: its dag arguments, outs then ins, each with
/// its type, kind and field width.
void SASSModel::addOperands(FormModel &F) {
  Record *R = F.R;
  auto AddOps = [&](DagInit *D, bool IsDef) {
    for (unsigned I = 0, E = D->getNumArgs(); I != E; ++I) {
      auto *DI = dyn_cast<DefInit>(D->getArg(I));
      if (!DI || !DI->getDef()->isSubClassOf("OperandType"))
        PrintFatalError(R->getLoc(), R->getName() + ": " + "operand " +
                                         Twine(I) + " is not an OperandType");
      OperandModel O;
      O.Name = std::string(D->getArgNameStr(I));
      if (O.Name.empty())
        PrintFatalError(R->getLoc(), R->getName() + ": " + "unnamed operand");
      for (const OperandModel &P : F.Ops)
        if (P.Name == O.Name)
          PrintFatalError(R->getLoc(),
                          R->getName() + ": " + "duplicate operand $" + O.Name);
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
        PrintFatalError(R->getLoc(), R->getName() + ": " + "operand $" +
                                         O.Name + " needs a spelling table");
      }
      const RecordVal *RV = R->getValue(O.Name);
      if (!RV)
        PrintFatalError(R->getLoc(), R->getName() + ": " + "operand $" +
                                         O.Name + " has no field of that name");
      if (auto *BT = dyn_cast<BitsRecTy>(RV->getType()))
        O.FieldBits = BT->getNumBits();
      else if (isa<BitRecTy>(RV->getType()))
        O.FieldBits = 1;
      else
        PrintFatalError(R->getLoc(), R->getName() + ": " + "field " + O.Name +
                                         " is not bits<N>");
      F.Ops.push_back(std::move(O));
    }
  };
  AddOps(R->getValueAsDag("OutOperandList"), true);
  AddOps(R->getValueAsDag("InOperandList"), false);
}

/// Walks \p F's `Inst` bits: constants into the fixed mask and value, the
/// guard's bits into \p GuardOut / \p GuardNegOut, operand bits into the
/// operands' segments; then checks that every operand binds its field
/// without holes.
void SASSModel::bindInstBits(FormModel &F, FieldModel *GuardOut,
                             FieldModel *GuardNegOut) {
  Record *R = F.R;
  BitsInit *Inst = R->getValueAsBitsInit("Inst");
  if (Inst->getNumBits() != 128)
    PrintFatalError(R->getLoc(),
                    R->getName() + ": " + "Inst must be bits<128>");
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
      PrintFatalError(R->getLoc(), R->getName() + ": " + "bit " + Twine(B) +
                                       " of Inst is '" + Bit->getAsString() +
                                       "'");
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
          PrintFatalError(R->getLoc(), R->getName() + ": " + "operand $" +
                                           O.Name + " has overlapping bits");
        Seen[S.FieldBit + I] = true;
      }
    for (unsigned I = 0; I < Covered; ++I)
      if (!Seen[I])
        PrintFatalError(R->getLoc(), R->getName() + ": " + "operand $" +
                                         O.Name + " does not bind bit " +
                                         Twine(I) + " of its field");
  }
}

/// The reuse slots of \p F's operands, its print template (`$name` ->
/// '$' + letter of the operand) and its mnemonic, from its AsmString.
void SASSModel::buildTemplate(FormModel &F) {
  Record *R = F.R;
  std::string Asm = std::string(R->getValueAsString("AsmString"));
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
        PrintFatalError(R->getLoc(),
                        R->getName() + ": " + "unterminated ${ in AsmString");
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
      PrintFatalError(R->getLoc(), R->getName() + ": " + "AsmString names $" +
                                       Name + ", which is no operand");
    if (Next && Used[Idx] == false)
      PrintFatalError(R->getLoc(),
                      R->getName() + ": ${" + Name + ":next} before $" + Name);
    Used[Idx] = true;
    T += Next ? '^' : '$';
    T += char('a' + Idx);
  }
  for (unsigned K = 0; K < F.Ops.size(); ++K)
    if (!Used[K])
      PrintFatalError(R->getLoc(), R->getName() + ": " + "operand $" +
                                       F.Ops[K].Name +
                                       " is not in the AsmString");
  // MaxOperands (the most a form has, emitted) must stay below 31: the
  // machine IR keeps a uint32 operand mask a form with a spare bit.
  if (F.Ops.size() > 24)
    PrintFatalError(R->getLoc(),
                    R->getName() + ": " +
                        "more than 24 operands (tp::sass::MaxOperands)");
  F.Template = T;
  size_t E = Asm.find_first_of(". $");
  F.Mnemonic = Asm.substr(0, E);
  if (F.Mnemonic.empty())
    PrintFatalError(R->getLoc(),
                    R->getName() + ": " + "AsmString has no mnemonic");
  if ((F.Mask[0] & 0xfff) != 0xfff)
    PrintFatalError(R->getLoc(), R->getName() + ": " +
                                     "the opcode bits [0:11] must be fixed");
}

/// The checks of \p F as a whole and its schedule class.
void SASSModel::finishForm(FormModel &F) {
  Record *R = F.R;
  if (R->getValueAsBit("IsBranch") && none_of(F.Ops, [](const OperandModel &O) {
        return O.Kind == "BranchTarget";
      }))
    PrintFatalError(R->getLoc(), R->getName() + ": IsBranch without a "
                                                "BranchTarget operand");

  F.Sched = R->getValueAsDef("Sched");
  for (StringRef L : F.Sched->getValueAsListOfStrings("LateRead"))
    for (unsigned K = 0; K < F.Ops.size(); ++K)
      if (F.Ops[K].Name == L)
        F.LateReadMask |= 1u << K;
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

std::string kindEnum(StringRef K) { return ("OperandKind::" + K).str(); }

void emitSegs(raw_ostream &OS, const std::vector<Seg> &Segs) {
  for (const Seg &S : Segs)
    OS << "{" << S.InstBit << "," << S.FieldBit << "," << S.Width << "},";
}

} // namespace tblgen
} // namespace tp
