//===- SimDispatchEmitter.cpp - tp-sim's dispatch table from td/ ----------===//
///
/// \file
/// Reads every SimSemantics record (td/SM86/Semantics.td) and writes
/// SimGenDispatch.inc for lib/Sim:
///
///   GET_SIM_SEM_CLASSES  TP_SIM_SEM_CLASS(Name) per SimClass, in td order;
///   GET_SIM_SEM_FLAGS    TP_SIM_SEM_FLAG(Name, Bit) per SimFlag;
///   GET_SIM_DISPATCH     one {form, class, variant, flags, size, shift}
///                        initializer per form with semantics, in form
///                        (record name) order;
///   GET_SIM_REFUSALS     {form, reason} per form a SimRefusal names.
///
/// Guarantees: every form appears at most once (a form in two records is
/// an error naming both; a refused form has no semantics), every flag fits a 32-bit mask, and the output is
/// deterministic (sorted by form name).
///
//===----------------------------------------------------------------------===//
#include "SimDispatchEmitter.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TableGen/Error.h"
#include "llvm/TableGen/Record.h"
#include "llvm/TableGen/TableGenBackend.h"
#include <algorithm>
#include <map>

using namespace llvm;

namespace {
struct FormSemantics {
  const Record *Rule = nullptr;
  std::string Class, Variant;
  uint32_t Flags = 0;
  int64_t Size = 0, Shift = 0;
};
} // namespace

void tp::tblgen::emitSimDispatch(RecordKeeper &RK, raw_ostream &OS) {
  std::vector<Record *> Classes = RK.getAllDerivedDefinitions("SimClass");
  std::vector<Record *> Flags = RK.getAllDerivedDefinitions("SimFlag");
  if (Flags.size() > 32)
    PrintFatalError("more than 32 SimFlag records: the mask has 32 bits");
  StringMap<unsigned> FlagBit;
  for (unsigned I = 0; I < Flags.size(); ++I)
    FlagBit[Flags[I]->getValueAsString("Name")] = I;

  std::map<std::string, FormSemantics> ByForm;
  for (const Record *Rule : RK.getAllDerivedDefinitions("SimSemantics")) {
    FormSemantics S;
    S.Rule = Rule;
    S.Class = Rule->getValueAsDef("Class")->getValueAsString("Name").str();
    S.Variant = Rule->getValueAsString("Variant").str();
    for (const Record *F : Rule->getValueAsListOfDefs("Flags"))
      S.Flags |= 1u << FlagBit[F->getValueAsString("Name")];
    S.Size = Rule->getValueAsInt("Size");
    S.Shift = Rule->getValueAsInt("Shift");
    if (S.Size < 0 || S.Size > 255 || S.Shift < 0 || S.Shift > 31)
      PrintFatalError(Rule->getLoc(), "Size or Shift out of range");
    for (const Record *Form : Rule->getValueAsListOfDefs("Forms")) {
      auto Ins = ByForm.emplace(Form->getName().str(), S);
      if (!Ins.second) {
        PrintError(Rule->getLoc(), "form " + Form->getName() +
                                       " has semantics twice");
        PrintFatalNote(Ins.first->second.Rule->getLoc(),
                       "first given here");
      }
    }
  }

  std::map<std::string, std::string> Refusals;
  for (const Record *Rule : RK.getAllDerivedDefinitions("SimRefusal"))
    for (const Record *Form : Rule->getValueAsListOfDefs("Forms")) {
      std::string Name = Form->getName().str();
      if (ByForm.count(Name))
        PrintFatalError(Rule->getLoc(), "form " + Name +
                                            " is refused and has semantics");
      Refusals[Name] = Rule->getValueAsString("Reason").str();
    }

  emitSourceFileHeader("tp-sim dispatch: the semantic class of each form",
                       OS);
  OS << "#ifdef GET_SIM_SEM_CLASSES\n";
  for (const Record *C : Classes)
    OS << "TP_SIM_SEM_CLASS(" << C->getValueAsString("Name") << ")\n";
  OS << "#undef GET_SIM_SEM_CLASSES\n#endif\n\n";
  OS << "#ifdef GET_SIM_SEM_FLAGS\n";
  for (unsigned I = 0; I < Flags.size(); ++I)
    OS << "TP_SIM_SEM_FLAG(" << Flags[I]->getValueAsString("Name") << ", "
       << I << ")\n";
  OS << "#undef GET_SIM_SEM_FLAGS\n#endif\n\n";
  OS << "#ifdef GET_SIM_DISPATCH\n";
  for (const auto &[Form, S] : ByForm) {
    OS << "  {sass::" << Form << ", SemClass::" << S.Class << ", ";
    if (S.Variant.empty())
      OS << "0";
    else
      OS << "uint8_t(" << S.Variant << ")";
    OS << ", 0x" << utohexstr(S.Flags, /*LowerCase=*/true) << ", " << S.Size
       << ", " << S.Shift << "},\n";
  }
  OS << "#undef GET_SIM_DISPATCH\n#endif\n\n";
  OS << "#ifdef GET_SIM_REFUSALS\n";
  for (const auto &[Form, Reason] : Refusals) {
    OS << "  {sass::" << Form << ", \"";
    OS.write_escaped(Reason);
    OS << "\"},\n";
  }
  OS << "#undef GET_SIM_REFUSALS\n#endif\n";
}
