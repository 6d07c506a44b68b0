//===- Program.cpp - Cubin kernels decoded for the simulator --------------===//
///
/// \file
/// Reads a kernel out of a cubin (through lib/Object) and decodes its code
/// once: every word must decode to a form (sass::decode) that has
/// semantics in the dispatch table generated from td/SM86/Semantics.td
/// (getFormSemantics); anything else is an error
/// naming the address and the word.  Operand values are stored by td
/// operand name (Field), the A/B/C sources of ALU forms are resolved from
/// the form's source letters (`_rir` = register, immediate, register), and
/// the registers each instruction reads and writes are listed for hazard
/// mode.
///
//===----------------------------------------------------------------------===//
#include "SimInternal.h"
#include "tp/Object/CubinFile.h"
#include "tp/Object/Module.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"
#include <mutex>

using namespace llvm;
using namespace tp;
using namespace tp::sim;

static Expected<object::Module> readModule(ArrayRef<uint8_t> Bytes) {
  auto F = object::readCubinFile(Bytes);
  if (!F)
    return F.takeError();
  return object::interpretCubin(*F);
}

Expected<std::vector<std::string>>
sim::listKernels(ArrayRef<uint8_t> Bytes) {
  auto M = readModule(Bytes);
  if (!M)
    return M.takeError();
  std::vector<std::string> Names;
  for (const object::Kernel &K : M->Kernels)
    Names.push_back(K.Name);
  return Names;
}

/// The cluster records of \p Kernel's .nv.info (kept by lib/Object among
/// the records it does not interpret) into \p K.
static void readClusterShape(const object::Kernel &Kernel, KernelImage &K) {
  for (const auto *Records :
       {&Kernel.OtherInfoBeforeExit, &Kernel.OtherInfoAfterExit})
    for (const object::NvInfoRecord &R : *Records) {
      if (R.attr() == object::NvAttr::EXPLICIT_CLUSTER)
        K.ExplicitCluster = true;
      if (R.attr() != object::NvAttr::CTA_PER_CLUSTER)
        continue;
      std::vector<uint32_t> W = R.words();
      // A record of fewer than three words is read as far as it goes; a
      // zero dimension is not a shape ptxas writes, refuse it as a
      // cluster (0 != 1).
      for (unsigned I = 0; I < 3 && I < W.size(); ++I)
        K.ClusterDims[I] = W[I];
    }
}

bool sim::isSimTarget(sass::Target T) {
  return sass::getTargetInfo(T).GemmCodeGen;
}

const std::string &sim::getSimTargetList() {
  return sass::getGemmTargetList();
}

uint64_t sim::getSharedBytesPerSM(sass::Target T) {
  return sass::getTargetInfo(T).SharedBytesPerSM;
}

Expected<KernelImage> sim::loadKernel(ArrayRef<uint8_t> Bytes,
                                      StringRef Name) {
  auto M = readModule(Bytes);
  if (!M)
    return M.takeError();
  const object::Kernel *Found = nullptr;
  for (const object::Kernel &K : M->Kernels)
    if (Name.empty() || K.Name == Name) {
      if (Found && Name.empty())
        return createStringError(inconvertibleErrorCode(),
                                 "the cubin has several kernels; name one "
                                 "with --kernel");
      Found = &K;
      if (!Name.empty())
        break;
    }
  if (!Found)
    return createStringError(inconvertibleErrorCode(),
                             "no kernel named '%s' in the cubin",
                             Name.str().c_str());
  sass::Target Target;
  if (!sass::lookupTarget("sm_" + std::to_string(M->SM), Target) ||
      !isSimTarget(Target))
    return createStringError(inconvertibleErrorCode(),
                             "expected an %s cubin, found sm_%u",
                             getSimTargetList().c_str(), M->SM);
  const object::TargetInfo *TI = &sass::getTargetInfo(Target);
  KernelImage K;
  K.Name = Found->Name;
  K.Code = Found->Code;
  for (const object::KernelParam &P : Found->Params)
    K.Params.push_back({P.Offset, P.Size});
  K.ParamBase = TI->ParamBase;
  K.StaticSharedBytes = Found->SharedBytes;
  K.RegCount = Found->RegCount;
  K.SM = M->SM;
  K.Target = Target;
  K.ReservedSharedBytes = TI->ReservedSharedBytes;
  K.DescriptorOffset = TI->DescriptorSlot;
  readClusterShape(*Found, K);
  K.LocalBytes =
      (std::max(Found->FrameSize, Found->MinStackSize) + 15) & ~15u;
  return K;
}

Error sim::checkClusterShape(const KernelImage &K) {
  const std::array<uint32_t, 3> &C = K.ClusterDims;
  if (C[0] * uint64_t(C[1]) * C[2] != 1)
    return createStringError(
        inconvertibleErrorCode(),
        "kernel '%s' is compiled for clusters of %ux%ux%u CTAs (.nv.info "
        "CTA_PER_CLUSTER): unsupported, tp-sim runs clusters of one CTA "
        "(no cluster rank, no distributed shared memory)",
        K.Name.c_str(), C[0], C[1], C[2]);
  if (K.ExplicitCluster)
    return createStringError(
        inconvertibleErrorCode(),
        "kernel '%s' must be launched with cluster dimensions "
        "(.explicitcluster, .nv.info EXPLICIT_CLUSTER): unsupported, "
        "tp-sim runs clusters of one CTA",
        K.Name.c_str());
  return Error::success();
}

//===----------------------------------------------------------------------===//
// Per-form tables, built once.
//===----------------------------------------------------------------------===//

namespace {
struct FormTable {
  /// Operand index -> Field (NumFields if the name is not one we use).
  std::vector<std::vector<uint8_t>> FieldOf;
  std::vector<const FormSemantics *> Semantics;
  /// Source letters of ALU forms ("rir" -> 'i' for B, 'r' for C); 0 if none.
  std::vector<std::array<char, 2>> Letters;
};
} // namespace

static const FormTable &getFormTable() {
  static FormTable T;
  static std::once_flag Once;
  std::call_once(Once, [] {
    StringMap<uint8_t> Names;
#define TP_SIM_NAME(N) Names[#N] = F_##N;
    TP_SIM_FIELDS(TP_SIM_NAME)
#undef TP_SIM_NAME
    unsigned N = sass::getNumOpcodes();
    T.FieldOf.resize(N);
    T.Semantics.resize(N);
    T.Letters.resize(N);
    for (unsigned Op = 0; Op < N; ++Op) {
      const sass::InstrInfo &II = sass::getInstrInfo(sass::Opcode(Op));
      for (unsigned I = 0; I < II.NumOperands; ++I) {
        auto It = Names.find(II.Operands[I].Name);
        T.FieldOf[Op].push_back(It == Names.end() ? uint8_t(NumFields)
                                                  : It->second);
      }
      T.Semantics[Op] = getFormSemantics(sass::Opcode(Op));
      // The last "_xyz" token of the name, when it is three source letters.
      StringRef Name = II.Name;
      SmallVector<StringRef, 8> Parts;
      Name.split(Parts, '_');
      T.Letters[Op] = {0, 0};
      for (StringRef P : Parts)
        if (P.size() == 3 && P.find_first_not_of("rciu") == StringRef::npos)
          T.Letters[Op] = {P[1], P[2]};
    }
  });
  return T;
}

static void setDefaults(int64_t *F) {
  for (unsigned I = 0; I < NumFields; ++I)
    F[I] = 0;
  for (Field R : {F_Rd, F_Ra, F_Rb, F_Rc, F_Rs})
    F[R] = sass::RZ;
  for (Field U : {F_Ur, F_Ud, F_Urd, F_Ura, F_Urb, F_Urc})
    F[U] = sass::URZ;
  for (Field P : {F_Pu, F_Pv, F_Pp, F_Pq, F_Pe, F_Pc, F_Pa, F_Pb, F_Pl, F_UPu,
                  F_UPv, F_UPp, F_UPq, F_UPr, F_Pd})
    F[P] = sass::PT;
}

/// Resolves one logical source of an ALU form from its letter.
static Src resolveSrc(const DInst &D, char Letter, Field RegF, Field NegF,
                      Field AbsF, bool HasReg, bool HasImm, bool HasCB,
                      bool HasUR) {
  Src S;
  S.Neg = D.F[NegF] != 0;
  S.Abs = D.F[AbsF] != 0;
  switch (Letter) {
  case 'r':
    if (!HasReg)
      return Src();
    S.K = Src::KReg;
    S.Reg = uint16_t(D.F[RegF]);
    break;
  case 'i':
    if (!HasImm)
      return Src();
    S.K = Src::KImm;
    S.Val = uint32_t(D.F[F_Imm]);
    break;
  case 'c':
    if (!HasCB)
      return Src();
    S.K = Src::KCB;
    S.Reg = uint16_t(D.F[F_Bank]);
    S.Val = uint32_t(D.F[F_Off]);
    break;
  case 'u':
    if (!HasUR)
      return Src();
    S.K = Src::KUR;
    S.Reg = uint16_t(D.F[F_Ur]);
    break;
  default:
    return Src();
  }
  return S;
}

/// Hazard mode: the registers \p D reads and writes and its latency class,
/// from the classifier that tp-compact-stalls and tp-verify-schedule use
/// (sched::describe, lib/Target/SASS/SchedDescribe.cpp).
static Error describeUses(DInst &D) {
  Expected<sched::SchedInstr> S = sched::describe(D.I);
  if (!S)
    return S.takeError();
  static const uint16_t Base[] = {HzGPR, HzUR, HzP, HzUP};
  auto Add = [&](const sched::RegRange &R, bool Def) {
    RegUse U;
    U.First = uint16_t(Base[unsigned(R.File)] + R.First);
    U.Count = R.Count;
    U.Def = Def;
    D.Uses.push_back(U);
    return &D.Uses.back();
  };
  for (const sched::RegRange &R : S->Defs)
    Add(R, true);
  for (const sched::RegUse &SU : S->Uses) {
    RegUse *U = Add(SU.Regs, false);
    U->Late = SU.Late;
    U->Slot = SU.Slot;
    U->How = SU.How;
  }
  D.Class = S->Class;
  D.Predicated = S->Predicated;
  return Error::success();
}

/// Why a form without semantics is refused (td/SM86/Semantics.td's
/// SimRefusal records), as ": reason", or "".
static std::string getRefusalReason(sass::Opcode Op) {
  struct Refusal {
    sass::Opcode Form;
    const char *Reason;
  };
  static const Refusal Refusals[] = {
#define GET_SIM_REFUSALS
#include "SimGenDispatch.inc"
  };
  for (const Refusal &R : Refusals)
    if (R.Form == Op)
      return std::string(": ") + R.Reason;
  return "";
}

void ProgramDeleter::operator()(Program *P) const { delete P; }
size_t sim::getProgramSize(const Program &P) { return P.Insts.size(); }

std::string Program::describe(size_t Idx) const {
  std::string S;
  raw_string_ostream OS(S);
  const DInst &D = Insts[Idx];
  OS << format("0x%04llx: ", (unsigned long long)D.Addr);
  sass::print(D.I, D.Addr, OS);
  return OS.str();
}

Expected<ProgramPtr> sim::buildProgram(const KernelImage &K) {
  const FormTable &T = getFormTable();
  ProgramPtr P(new Program);
  P->Kernel = K;
  P->Model = &sched::LatencyModel::get(K.Target);
  if (K.Code.size() % 16)
    return createStringError(inconvertibleErrorCode(),
                             "kernel '%s': code size %zu is not a multiple "
                             "of 16",
                             K.Name.c_str(), K.Code.size());
  size_t N = K.Code.size() / 16;
  P->Insts.resize(N);
  for (size_t Idx = 0; Idx < N; ++Idx) {
    sass::Word128 W = sass::readWord(makeArrayRef(K.Code).slice(Idx * 16));
    uint64_t Addr = Idx * 16;
    DInst &D = P->Insts[Idx];
    D.Addr = Addr;
    if (!sass::decode(W, D.I, K.Target))
      return createStringError(
          inconvertibleErrorCode(),
          "kernel '%s' at 0x%04llx: unknown instruction (word 0x%016llx%016llx "
          "decodes to no sm_%u form)",
          K.Name.c_str(), (unsigned long long)Addr, (unsigned long long)W.Hi,
          (unsigned long long)W.Lo, K.SM);
    const sass::InstrInfo &II = sass::getInstrInfo(D.I.Op);
    D.Name = II.Name;
    setDefaults(D.F);
    bool Has[NumFields + 1] = {};
    for (unsigned O = 0; O < II.NumOperands; ++O) {
      uint8_t Fl = T.FieldOf[D.I.Op][O];
      if (Fl < NumFields) {
        D.F[Fl] = D.I.Ops[O];
        Has[Fl] = true;
        D.Has.set(Fl);
      }
    }
    D.UniformGuard = II.UniformGuard;
    if (Error E = describeUses(D))
      return E;
    // ALU sources.
    auto L = T.Letters[D.I.Op];
    bool HasImm = Has[F_Imm], HasCB = Has[F_Bank] || Has[F_Off],
         HasUR = Has[F_Ur];
    if (Has[F_Ra]) {
      D.A.K = Src::KReg;
      D.A.Reg = uint16_t(D.F[F_Ra]);
      D.A.Neg = D.F[F_na] != 0;
      D.A.Abs = D.F[F_aa] != 0;
    }
    if (L[0]) {
      D.B = resolveSrc(D, L[0], F_Rb, F_nb, F_ab, Has[F_Rb], HasImm, HasCB,
                       HasUR);
      D.C = resolveSrc(D, L[1], F_Rc, F_nc, F_ac, Has[F_Rc], HasImm, HasCB,
                       HasUR);
      // Forms whose register slot is not an operand (IMAD.MOV: A = B = RZ)
      // read RZ.
      if (D.B.K == Src::KNone && L[0] == 'r')
        D.B.K = Src::KReg, D.B.Reg = sass::RZ;
      if (D.C.K == Src::KNone && L[1] == 'r' && !Has[F_Rc]) {
        D.C.K = Src::KReg;
        D.C.Reg = sass::RZ;
      }
    } else {
      if (Has[F_Rb]) {
        D.B.K = Src::KReg;
        D.B.Reg = uint16_t(D.F[F_Rb]);
        D.B.Neg = D.F[F_nb] != 0;
        D.B.Abs = D.F[F_ab] != 0;
      } else if (HasImm) {
        D.B.K = Src::KImm;
        D.B.Val = uint32_t(D.F[F_Imm]);
      }
      if (Has[F_Rc]) {
        D.C.K = Src::KReg;
        D.C.Reg = uint16_t(D.F[F_Rc]);
        D.C.Neg = D.F[F_nc] != 0;
        D.C.Abs = D.F[F_ac] != 0;
      }
    }
    const FormSemantics *Sem = T.Semantics[D.I.Op];
    if (Sem) {
      D.Sem = Sem->Class;
      D.Fn = getHandler(Sem->Class);
      D.Variant = Sem->Variant;
      D.Flags = Sem->Flags;
      D.Size = Sem->Size;
      D.Shift = Sem->Shift;
    }
    if (!D.Fn)
      return createStringError(
          inconvertibleErrorCode(),
          "kernel '%s' at 0x%04llx: no semantics for instruction form %s "
          "(%s)%s",
          K.Name.c_str(), (unsigned long long)Addr, II.Name,
          P->describe(Idx).c_str(), getRefusalReason(D.I.Op).c_str());
    std::string Err = prepareInst(D);
    if (!Err.empty())
      return createStringError(inconvertibleErrorCode(),
                               "kernel '%s' at 0x%04llx: %s (%s)",
                               K.Name.c_str(), (unsigned long long)Addr,
                               Err.c_str(), P->describe(Idx).c_str());
    D.Variable = sched::isVariable(D.Class);
    if (D.IsBranch) {
      uint64_t Tgt = sass::getBranchTarget(Addr, D.F[F_tgt]);
      if (Tgt % 16 || Tgt / 16 >= N)
        return createStringError(inconvertibleErrorCode(),
                                 "kernel '%s' at 0x%04llx: branch target "
                                 "0x%llx is outside the code",
                                 K.Name.c_str(), (unsigned long long)Addr,
                                 (unsigned long long)Tgt);
      D.Target = int32_t(Tgt / 16);
    }
  }
  return P;
}
