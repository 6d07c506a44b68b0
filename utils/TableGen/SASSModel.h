//===- SASSModel.h - The form model the SASS backends share ---*- C++ -*-===//
///
/// \file
/// The model of an instruction form, built from every record derived from
/// SM86Inst (SASSModel.cpp), in the manner of LLVM's CodeEmitterGen: walk the
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
#ifndef TP_UTILS_TABLEGEN_SASSMODEL_H
#define TP_UTILS_TABLEGEN_SASSMODEL_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TableGen/Record.h"
#include <iterator>
#include <map>
#include <string>
#include <vector>

namespace tp {
namespace tblgen {

using llvm::Record;
using llvm::RecordKeeper;

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

/// Whether an operand laid out in \p Segs is an 8-bit uniform register
/// field (Blackwell's): URZ is 0xff there, 0x3f in the 6-bit fields of
/// sm_80 to sm_90; UR63..UR254 are registers tp does not model.
inline bool isWideURField(const OperandModel &O,
                          const std::vector<Seg> &Segs) {
  unsigned Bits = 0;
  for (const Seg &S : Segs)
    Bits += S.Width;
  return Bits == 8 &&
         (O.Kind == "UGPR" || O.Kind == "MemUR" || O.Kind == "MemDesc");
}

struct FormModel {
  Record *R = nullptr;
  std::string Name, Mnemonic, Template;
  std::vector<OperandModel> Ops;
  uint64_t Mask[2] = {0, 0}, Value[2] = {0, 0};
  Record *Sched = nullptr;
  uint32_t LateReadMask = 0;
  unsigned specificity() const {
    return llvm::countPopulation(Mask[0]) + llvm::countPopulation(Mask[1]);
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
  /// Bit v set: v = Stall | Yield-bit << 4 is undefined (SM86Control).
  uint32_t UndefinedStallYield = 0;
  std::vector<Record *> SchedClasses;

  /// Targets (td/Targets.td): the default (IsDefault, sm_86) first as
  /// target 0, the others by SM.
  struct TargetModel {
    std::string Name, Enum;
    int64_t SM = 0;
    std::vector<std::string> CPUs;
    /// The target's facts (TargetFacts order): an int or bit fact in
    /// Facts, a string fact in StringFacts (the other one 0 or empty); all
    /// 0 and empty for a td without Targets.td.
    std::vector<int64_t> Facts;
    std::vector<std::string> StringFacts;
    /// The cubin layouts (td's CubinLayoutOf): its own and, "" for none,
    /// the one without the Mercury copy.
    std::string CubinLayout, SassOnlyCubinLayout;
    /// Shared memory per multiprocessor (td's SharedMemoryPerSM).
    int64_t SharedBytesPerSM = 0;
  };
  /// How a fact is read from the record and emitted: a bit as a bool, an
  /// int as a hexadecimal number, a string as a C string literal.
  enum class FactKind { Int, Bit, String };
  /// The fields of SASSTarget that become sass::TargetInfo, in its order.
  struct TargetFact {
    const char *Name;
    FactKind Kind;
  };
  static constexpr TargetFact TargetFacts[] = {
      {"ParamBase", FactKind::Int},
      {"DescriptorSlot", FactKind::Int},
      {"ReservedSharedBytes", FactKind::Int},
      {"ELFFlagsBase", FactKind::Int},
      {"MaxSharedBytesPerBlock", FactKind::Int},
      {"MaxRegisters", FactKind::Int},
      {"RegCountInTextInfo", FactKind::Bit},
      {"Attr5F", FactKind::Int},
      {"GemmCodeGen", FactKind::Bit},
      {"SharedCapacityNote", FactKind::String},
      {"TileCard", FactKind::String},
      {"TileCardSMs", FactKind::Int},
      {"CB0NTid", FactKind::Int},
      {"CB0NCtaid", FactKind::Int},
      {"CB0StackPointer", FactKind::Int},
      {"CB0DynamicSharedBytes", FactKind::Int},
      {"CB0GridId", FactKind::Int},
      {"CB0NSMId", FactKind::Int},
      {"CB0ReservedSharedBytes", FactKind::Int},
      {"CB0ClusterNCtaid", FactKind::Int},
      {"CB0ClusterNCtaidRcp", FactKind::Int},
      {"CB0NClusterId", FactKind::Int},
      {"CB0ClusterNCtaRank", FactKind::Int}};
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
  void addOperands(FormModel &F);
  void bindInstBits(FormModel &F, FieldModel *GuardOut,
                    FieldModel *GuardNegOut);
  void buildTemplate(FormModel &F);
  void finishForm(FormModel &F);
  static void addSeg(std::vector<Seg> &Segs, unsigned InstBit,
                     unsigned FieldBit);
};

/// \p S as a C string literal.
std::string cString(llvm::StringRef S);
/// "OperandKind::<K>".
std::string kindEnum(llvm::StringRef K);
/// The segments as `{inst bit,field bit,width},` initializers.
void emitSegs(llvm::raw_ostream &OS, const std::vector<Seg> &Segs);

/// Emits, for every target and form, a function whose body \p BodyOf(T, F)
/// gives -- identical bodies share one function, `static Ret FnN Params`
/// with \p Head before the body and \p Tail after it -- then per target
/// the table `TableT[]` of them by form (element type \p Elem) and
/// `TableOf[]` by target.
template <typename BodyFn>
void emitFunctionsByForm(llvm::raw_ostream &OS, const SASSModel &M,
                         llvm::StringRef Ret, llvm::StringRef Fn,
                         llvm::StringRef Params, llvm::StringRef Head,
                         llvm::StringRef Tail, llvm::StringRef Elem,
                         llvm::StringRef Table, BodyFn BodyOf) {
  std::map<std::string, unsigned> FnOf;
  std::vector<std::vector<unsigned>> Index(M.Targets.size());
  for (unsigned T = 0; T < M.Targets.size(); ++T)
    for (unsigned F = 0; F < M.Forms.size(); ++F) {
      std::string Body = BodyOf(T, F);
      auto It = FnOf.find(Body);
      if (It == FnOf.end()) {
        It = FnOf.emplace(Body, FnOf.size()).first;
        OS << "static " << Ret << " " << Fn << It->second << Params
           << " {\n" << Head << Body << Tail << "}\n";
      }
      Index[T].push_back(It->second);
    }
  for (unsigned T = 0; T < M.Targets.size(); ++T) {
    OS << "// " << M.Targets[T].Name << ", by form\n"
       << "static const " << Elem << " " << Table << T << "[] = {";
    for (unsigned I = 0; I < Index[T].size(); ++I)
      OS << (I % 4 ? " " : "\n  ") << Fn << Index[T][I] << ",";
    if (Index[T].empty())
      OS << "nullptr";
    OS << "\n};\n";
  }
  OS << "// Per target.\nstatic const " << Elem << " *const " << Table
     << "Of[] = {";
  for (unsigned T = 0; T < M.Targets.size(); ++T)
    OS << " " << Table << T << ",";
  OS << "};\n";
}

} // namespace tblgen
} // namespace tp

#endif // TP_UTILS_TABLEGEN_SASSMODEL_H
