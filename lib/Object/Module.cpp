//===- Module.cpp - The kernels of a cubin, read and laid out -------------===//
///
/// \file
/// The target table, the instruction classifier (td/'s flags through the
/// target layer's decoder), scanControlFlow and
/// interpretCubin: reading the kernel model out of a cubin.  Writing one
/// from the model is buildCubin in CubinLayout.cpp.  E = our decoding of
/// ptxas 13 cubins (SASS_FACTS.md section 3).
///
//===----------------------------------------------------------------------===//

#include "tp/Object/Module.h"
#include "CubinBuild.h"
#include "tp/Object/NvInfo.h"
#include "tp/Support/Diagnostics.h"
#include "tp/Target/SASS/SASS.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/MathExtras.h"
#include <map>

using namespace llvm;
using namespace llvm::support;

namespace tp {
namespace object {

namespace {
using namespace detail;

constexpr uint8_t DW_CFA_def_cfa = 0x0c;

} // namespace

const TargetInfo *getTargetInfo(unsigned SM) {
  sass::Target T;
  if (!sass::lookupTarget("sm_" + std::to_string(SM), T))
    return nullptr;
  return &sass::getTargetInfo(T);
}

uint32_t makeEFlags(unsigned SM) {
  const TargetInfo *T = getTargetInfo(SM);
  return T ? T->getELFFlags(SM) : 0;
}

uint32_t Kernel::paramBytes() const {
  uint32_t End = 0;
  for (const KernelParam &P : Params)
    End = std::max(End, P.Offset + P.Size);
  return End;
}

InstrClassifier::~InstrClassifier() = default;

Optional<uint64_t> InstrClassifier::pcRelativeTarget(ArrayRef<uint8_t> Word,
                                                     uint64_t Pc) const {
  return branchTarget(Word, Pc);
}

Optional<unsigned> InstrClassifier::registersUsed(ArrayRef<uint8_t>) const {
  return None;
}

bool InstrClassifier::movesStackPointer(ArrayRef<uint8_t>) const {
  return false;
}

bool InstrClassifier::isNop(ArrayRef<uint8_t>) const { return false; }

namespace {
/// InstrClassifier over the instruction tables of one target (td/).
class TargetClassifier : public InstrClassifier {
  sass::Target Tgt;

  bool decode(ArrayRef<uint8_t> W, sass::Instruction &I) const {
    return W.size() == 16 && sass::decode(sass::readWord(W), I, Tgt);
  }

public:
  explicit TargetClassifier(sass::Target T) : Tgt(T) {}
  bool isExit(ArrayRef<uint8_t> W) const override {
    sass::Instruction I;
    return decode(W, I) && sass::getInstrInfo(I.Op).IsExit;
  }
  bool endsBlock(ArrayRef<uint8_t> W) const override {
    // BRA, EXIT and the indirect BRX/BRXU end ptxas's first block (E: every
    // test cubin; a brx.idx jump table, test/Object/Inputs/const2/jump.ptx).
    // UNVERIFIED: JMP and RET never appear in our kernels.
    sass::Instruction I;
    if (!decode(W, I))
      return false;
    const sass::InstrInfo &II = sass::getInstrInfo(I.Op);
    return II.IsExit || II.IsBranch || II.IsIndirectBranch;
  }
  Optional<uint64_t> branchTarget(ArrayRef<uint8_t> W,
                                  uint64_t Pc) const override {
    sass::Instruction I;
    if (!decode(W, I) || !sass::getInstrInfo(I.Op).IsBranch)
      return None;
    return sass::getPCRelativeTarget(I, Pc);
  }
  Optional<uint64_t> pcRelativeTarget(ArrayRef<uint8_t> W,
                                      uint64_t Pc) const override {
    sass::Instruction I;
    if (!decode(W, I))
      return None;
    return sass::getPCRelativeTarget(I, Pc);
  }
  Optional<unsigned> registersUsed(ArrayRef<uint8_t> W) const override {
    sass::Instruction I;
    // A word the assembler would not write (a register tuple misaligned
    // or past R254: sass::verify) prints as `.inst` (SassCodec) and names
    // no registers the kernel's count must cover.
    if (!decode(W, I))
      return None;
    if (Error E = sass::verify(I, Tgt)) {
      consumeError(std::move(E));
      return None;
    }
    return sass::getRegistersUsed(I);
  }
  bool movesStackPointer(ArrayRef<uint8_t> W) const override {
    sass::Instruction I;
    if (!decode(W, I) || I.Guard != sass::PT || I.GuardNeg)
      return false;
    const sass::InstrInfo &II = sass::getInstrInfo(I.Op);
    bool Writes = false, Reads = false;
    for (unsigned K = 0; K < II.NumOperands; ++K) {
      const sass::OperandInfo &OI = II.Operands[K];
      if (OI.Kind != sass::OperandKind::GPR || I.Ops[K] != 1)
        continue;
      (OI.IsDef ? Writes : Reads) = true;
    }
    return Writes && Reads;
  }
  bool isNop(ArrayRef<uint8_t> W) const override {
    sass::Instruction I;
    return decode(W, I) &&
           StringRef(sass::getInstrInfo(I.Op).Mnemonic) == "NOP";
  }
};
} // namespace

const InstrClassifier &getTargetClassifier(unsigned SM) {
  static const std::vector<TargetClassifier> All = [] {
    std::vector<TargetClassifier> V;
    for (unsigned T = 0; T < sass::getNumTargets(); ++T)
      V.emplace_back(sass::Target(T));
    return V;
  }();
  sass::Target T;
  if (!sass::lookupTarget("sm_" + std::to_string(SM), T))
    T = sass::Target::SM86;
  return All[unsigned(T)];
}

namespace {
/// The one walk of both scanControlFlow()s: \p Next(W, NeedEnd) gives the
/// next word that is an EXIT, ends a block or branches (false after the
/// last); its EndsBlock matters only while \p NeedEnd (no block end seen).
template <typename NextFn> void scanWords(Kernel &K, NextFn Next) {
  K.ExitOffsets.clear();
  K.ExitPoint.reset(); // the classifier's version derives it
  uint64_t End = K.Code.size();
  bool SeenEnd = false;
  WordFlow W;
  while (Next(W, !SeenEnd)) {
    if (W.IsExit)
      K.ExitOffsets.push_back(W.Offset);
    if (!SeenEnd && W.EndsBlock) {
      SeenEnd = true;
      End = std::min<uint64_t>(End, W.Offset + 16);
    }
    // A branch target starts a block (E: a loop head ends ptxas's first
    // block in barriers_local.ptx's spin), but not one at 0x10, just past
    // the stack-pointer load (E: test/Object/Inputs/noexit/noparam.ptx,
    // every target: the first block ends at the loop's BRA).
    if (W.BranchTarget && *W.BranchTarget > 16 && *W.BranchTarget < End)
      End = *W.BranchTarget;
  }
  K.CfaBlockEnd = static_cast<uint32_t>(End);
}
} // namespace

void scanControlFlow(Kernel &K, ArrayRef<WordFlow> Words) {
  size_t I = 0;
  scanWords(K, [&](WordFlow &W, bool) {
    // Only whole words of the code, as the classifier's walk sees them.
    while (I < Words.size() && Words[I].Offset + 16 > K.Code.size())
      ++I;
    if (I == Words.size())
      return false;
    W = Words[I++];
    return true;
  });
}

void scanControlFlow(Kernel &K, const InstrClassifier &C) {
  size_t Off = 0;
  scanWords(K, [&](WordFlow &W, bool NeedEnd) {
    if (Off + 16 > K.Code.size())
      return false;
    ArrayRef<uint8_t> Word(K.Code.data() + Off, 16);
    W.Offset = Off;
    W.IsExit = C.isExit(Word);
    W.EndsBlock = NeedEnd && C.endsBlock(Word);
    W.BranchTarget = C.branchTarget(Word, Off);
    Off += 16;
    return true;
  });
  detail::endFirstBlockAtCall(K, C);
  K.ExitPoint = detail::deriveExitPoint(K, C);
}

std::string dynamicSharedLaunchNote(const Kernel &K, uint64_t DynamicBytes) {
  // CUDA: a block may use at most 48 KiB of shared memory unless the
  // function's MAX_DYNAMIC_SHARED_SIZE_BYTES attribute is raised, which
  // only dynamic shared memory can use (CUDA programming guide; sm_86
  // allows up to 99 KiB per block).
  std::string S = "kernel '" + K.Name + "': launch with sharedMemBytes = " +
                  std::to_string(DynamicBytes);
  if (K.SharedBytes + DynamicBytes > 48 * 1024)
    S += "; first set CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES to " +
         std::to_string(DynamicBytes) + " (static + dynamic = " +
         std::to_string(K.SharedBytes + DynamicBytes) + " > 48 KiB)";
  return S;
}

//===----------------------------------------------------------------------===//
// interpretCubin
//===----------------------------------------------------------------------===//

namespace {
/// Reads a note section: (type, desc) or an error.
Expected<std::pair<uint32_t, std::vector<uint8_t>>> readNote(const Section &S) {
  const std::vector<uint8_t> &D = S.Data;
  if (D.size() < 12)
    return makeError("note section '" + S.Name + "' at file offset " +
                     hex(S.Offset) + " is shorter than a note header");
  uint32_t NameSz = endian::read32le(D.data());
  uint32_t DescSz = endian::read32le(D.data() + 4);
  uint32_t Type = endian::read32le(D.data() + 8);
  uint64_t DescOff = 12 + alignTo(uint64_t(NameSz), 4);
  if (DescOff > D.size() || DescSz > D.size() - DescOff)
    return makeError("note section '" + S.Name + "' at file offset " +
                     hex(S.Offset) + ": name size " + Twine(NameSz) +
                     " and desc size " + Twine(DescSz) +
                     " exceed the section size " + Twine(D.size()));
  return std::make_pair(
      Type,
      std::vector<uint8_t>(D.begin() + DescOff, D.begin() + DescOff + DescSz));
}

Expected<std::string> blobString(ArrayRef<uint8_t> Blob, uint32_t Off,
                                 const Section &S) {
  if (Off >= Blob.size())
    return makeError("tkinfo note at file offset " + hex(S.Offset) +
                     ": string offset " + hex(Off) + " is out of range");
  auto End = std::find(Blob.begin() + Off, Blob.end(), 0);
  if (End == Blob.end())
    return makeError("tkinfo note at file offset " + hex(S.Offset) +
                     ": unterminated string");
  return std::string(Blob.begin() + Off, End);
}
} // namespace

namespace {
/// Reads the model out of one cubin: the kernels (.text.K), then each
/// section that describes them, then the first block ends (.debug_frame).
class CubinInterpreter {
public:
  CubinInterpreter(const CubinFile &F, const TargetInfo &T) : F(F), T(&T) {
    M.SM = F.Header.sm();
  }
  Expected<Module> run(const std::vector<Symbol> &Syms);

private:
  /// The kernels: the .text.K sections, in section order.
  Error collectKernels(const std::vector<Symbol> &Syms);
  /// .nv.shared.K: the kernel's static shared bytes and alignment.
  Error readShared(const Section &S, StringRef Name);
  /// .nv.info: REGCOUNT, FRAME_SIZE, MIN_STACK_SIZE of each kernel.
  void readModuleInfo(ArrayRef<NvInfoRecord> Recs);
  /// .nv.info.K: the kernel's attributes and parameters.
  Error readKernelInfo(size_t SI, const Section &S, StringRef Name,
                       ArrayRef<NvInfoRecord> Recs);
  /// .note.nv.tkinfo: the tool note.
  Error readToolNote(const Section &S);
  /// .debug_frame: each kernel's first block end.
  void readDebugFrame();
  /// The first block end of each FDE of \p Frame whose relocation in
  /// \p Rel (24-byte RELA entries when \p RelSize is 24) names a symbol of
  /// \p KernelOf, counting DW_CFA_advance_loc4 in units of \p Align.
  void readFrameBlockEnds(const Section &Frame, const Section &Rel,
                          size_t RelSize, uint32_t Align,
                          const std::map<uint32_t, size_t> &KernelOf,
                          bool Mercury);
  /// Blackwell's .nv.capmerc.text.K and .nv.merc.* (Kernel::Mercury).
  Error readMercury();

  const CubinFile &F;
  const TargetInfo *T;
  Module M;
  std::map<uint32_t, size_t> KernelOfSym;
  std::map<std::string, size_t> KernelOfName;
  std::vector<bool> HasRelaText;
};

Expected<Module> CubinInterpreter::run(const std::vector<Symbol> &Syms) {
  if (Error E = collectKernels(Syms))
    return E;
  for (size_t SI = 0; SI < F.Sections.size(); ++SI) {
    const Section &S = F.Sections[SI];
    StringRef Name = S.Name;
    if (Name.startswith(".nv.shared.")) {
      if (Error E = readShared(S, Name))
        return E;
    } else if (S.Type == SHT_CUDA_INFO) {
      Expected<std::vector<NvInfoRecord>> Recs = parseNvInfo(S.Data, S.Offset);
      if (!Recs)
        return Recs.takeError();
      if (Name == ".nv.info")
        readModuleInfo(*Recs);
      else if (Name.startswith(".nv.info."))
        if (Error E = readKernelInfo(SI, S, Name, *Recs))
          return E;
    } else if (S.Type == SHT_CUDA_COMPAT && Name == ".nv.compat") {
      if (ArrayRef<uint8_t>(S.Data) != getDefaultCompatBytes(M.SM))
        M.Compat = S.Data;
    } else if (S.Type == ELF::SHT_NOTE && Name == ".note.nv.tkinfo") {
      if (Error E = readToolNote(S))
        return E;
    }
  }
  readDebugFrame();
  readGlobals(F, Syms, M); // CubinGlobals.cpp
  detail::readCallees(F, Syms, M); // CubinCalls.cpp
  detail::readConstant2(F, M);     // CubinConstant2.cpp
  if (Error E = readMercury())
    return E;
  return std::move(M);
}

Error CubinInterpreter::collectKernels(const std::vector<Symbol> &Syms) {
  for (size_t SI = 0; SI < F.Sections.size(); ++SI) {
    const Section &S = F.Sections[SI];
    if (!StringRef(S.Name).startswith(".text.") ||
        !(S.Flags & ELF::SHF_EXECINSTR))
      continue;
    Kernel K;
    K.Name = S.Name.substr(6);
    K.Code = S.Data;
    K.RegCount = T->RegCountInTextInfo ? S.Info >> 24 : 0;
    uint32_t SymIdx = S.Info & 0xffffff;
    if (SymIdx >= Syms.size() || Syms[SymIdx].Shndx != SI ||
        !(Syms[SymIdx].Other & STO_CUDA_ENTRY))
      return makeError("section [" + Twine(SI) + "] '" + S.Name +
                       "': sh_info " + hex(S.Info) +
                       " does not name its kernel entry symbol");
    KernelOfSym[SymIdx] = M.Kernels.size();
    KernelOfName[K.Name] = M.Kernels.size();
    M.Kernels.push_back(std::move(K));
  }
  if (M.Kernels.empty())
    return makeError("the cubin has no kernel (.text.K section)");
  HasRelaText.assign(M.Kernels.size(), false);
  for (const Section &S : F.Sections)
    if (StringRef(S.Name).startswith(".rela.text.")) {
      auto It = KernelOfName.find(S.Name.substr(11));
      if (It != KernelOfName.end())
        HasRelaText[It->second] = true;
    }

  return Error::success();
}

Error CubinInterpreter::readShared(const Section &S, StringRef Name) {
  auto It = KernelOfName.find(Name.drop_front(11).str());
  if (It == KernelOfName.end())
    return Error::success();
  Kernel &K = M.Kernels[It->second];
  K.HasSharedSection = true;
  if (S.Size < T->ReservedSharedBytes)
    return makeError("section '" + S.Name + "' is smaller than the " +
                     Twine(T->ReservedSharedBytes) + " reserved bytes of sm_" +
                     Twine(M.SM));
  K.SharedBytes = S.Size - T->ReservedSharedBytes;
  K.SharedAlign = S.AddrAlign;
  K.SharedUnused = recordsSharedAddressing(M.SM) && !HasRelaText[It->second];
  return Error::success();
}

void CubinInterpreter::readModuleInfo(ArrayRef<NvInfoRecord> Recs) {
  for (const NvInfoRecord &R : Recs) {
    std::vector<uint32_t> W = R.words();
    if (R.Format != 4 || W.size() != 2)
      continue;
    auto It = KernelOfSym.find(W[0]);
    if (It == KernelOfSym.end())
      continue;
    Kernel &K = M.Kernels[It->second];
    if (R.attr() == NvAttr::REGCOUNT)
      K.RegCount = W[1];
    else if (R.attr() == NvAttr::FRAME_SIZE)
      K.FrameSize = W[1];
    else if (R.attr() == NvAttr::MIN_STACK_SIZE)
      K.MinStackSize = W[1];
  }
}

Error CubinInterpreter::readKernelInfo(size_t SI, const Section &S,
                                       StringRef Name,
                                       ArrayRef<NvInfoRecord> Recs) {
  auto It = KernelOfName.find(Name.drop_front(9).str());
  if (It == KernelOfName.end())
    return makeError("section [" + Twine(SI) + "] '" + S.Name +
                     "' belongs to no kernel");
  Kernel &K = M.Kernels[It->second];
  std::map<uint32_t, KernelParam> Params;
  bool SeenExit = false;
  for (const NvInfoRecord &R : Recs) {
    std::vector<uint32_t> W = R.words();
    switch (R.attr()) {
    case NvAttr::SW2861232_WAR:
    case NvAttr::PARAM_CBANK:
    case NvAttr::CBANK_PARAM_SIZE:
    case NvAttr::Unnamed5F:
      break; // derived from the target and the parameters
    case NvAttr::CUDA_API_VERSION:
      if (!W.empty())
        M.CudaApiVersion = W[0];
      break;
    case NvAttr::KPARAM_INFO:
      if (W.size() == 3) {
        KParamInfo I = KParamInfo::unpack(W);
        KernelParam P;
        P.Index = I.Index;
        P.Offset = I.Offset;
        P.Size = I.Size;
        P.Flags = I.Flags;
        Params[I.Ordinal] = P;
      }
      break;
    case NvAttr::MAXREG_COUNT:
      K.MaxRegCount = R.Value;
      break;
    case NvAttr::NUM_BARRIERS:
      K.NumBarriers = R.Value & 0xff;
      break;
    case NvAttr::EXIT_INSTR_OFFSETS:
      K.ExitOffsets = W;
      SeenExit = true;
      break;
    case NvAttr::CTAIDZ_USED:
      K.CtaidZUsed = true;
      break;
    case NvAttr::MAX_THREADS:
      if (W.size() == 3)
        K.MaxThreads = std::array<uint32_t, 3>{W[0], W[1], W[2]};
      break;
    case NvAttr::REQNTID:
      if (W.size() == 3)
        K.ReqNTid = std::array<uint32_t, 3>{W[0], W[1], W[2]};
      break;
    default:
      // What the target's layout writes by itself (sm_90's
      // SPARSE_MMA_MASK 0 and SW_WAR [8]) is derived; anything else is
      // copied in place.
      if (!writesFixedRecord(M.SM, R))
        (SeenExit ? K.OtherInfoAfterExit : K.OtherInfoBeforeExit).push_back(R);
      break;
    }
  }
  for (size_t I = 0; I < Params.size(); ++I) {
    auto PIt = Params.find(I);
    if (PIt == Params.end())
      return makeError("section '" + S.Name +
                       "': KPARAM_INFO ordinals are not 0.." +
                       Twine(Params.size() - 1));
    K.Params.push_back(PIt->second);
  }
  return Error::success();
}

Error CubinInterpreter::readToolNote(const Section &S) {
  auto NoteOrErr = readNote(S);
  if (!NoteOrErr)
    return NoteOrErr.takeError();
  const std::vector<uint8_t> &D = NoteOrErr->second;
  if (D.size() < 24)
    return makeError("tkinfo note at file offset " + hex(S.Offset) +
                     " is too short");
  ArrayRef<uint8_t> Blob(D.data() + 24, D.size() - 24);
  M.Tool.Format = endian::read32le(D.data());
  std::string *Fields[] = {&M.Tool.ObjectName, &M.Tool.Tool, &M.Tool.Version,
                           &M.Tool.BuildId, &M.Tool.Options};
  for (int I = 0; I < 5; ++I) {
    Expected<std::string> Str =
        blobString(Blob, endian::read32le(D.data() + 4 + 4 * I), S);
    if (!Str)
      return Str.takeError();
    *Fields[I] = std::move(*Str);
  }
  return Error::success();
}

void CubinInterpreter::readDebugFrame() {
  // .debug_frame: the pc at DW_CFA_def_cfa in each kernel's FDE, found
  // through .rel.debug_frame (FDE initial location -> kernel symbol).
  // sm_90 uses .rela.debug_frame (24-byte entries) instead (E).
  int DF = F.findSection(".debug_frame");
  const detail::FrameRelocs Relocs = detail::findFrameRelocs(F);
  const int RDF = Relocs.Section;
  const size_t RelSize = Relocs.EntrySize;
  if (DF >= 0 && RDF >= 0)
    readFrameBlockEnds(F.Sections[DF], F.Sections[RDF], RelSize, CodeAlign,
                       KernelOfSym, /*Mercury=*/false);
}

void CubinInterpreter::readFrameBlockEnds(
    const Section &FrameSec, const Section &RelSec, size_t RelSize,
    uint32_t Align, const std::map<uint32_t, size_t> &KernelOf, bool Mercury) {
  const std::vector<uint8_t> &Fr = FrameSec.Data;
  const std::vector<uint8_t> &Rel = RelSec.Data;
  for (size_t R = 0; R + RelSize <= Rel.size(); R += RelSize) {
    uint64_t LocOff = endian::read64le(Rel.data() + R);
    uint32_t Sym = endian::read64le(Rel.data() + R + 8) >> 32;
    auto It = KernelOf.find(Sym);
    if (It == KernelOf.end() || LocOff < 20 || LocOff + 16 > Fr.size())
      continue;
    // FDE layout (64-bit DWARF): ffffffff, u64 length, u64 CIE pointer,
    // u64 location, u64 range, instructions.
    uint64_t Start = LocOff - 20;
    if (endian::read32le(Fr.data() + Start) != 0xffffffff)
      continue;
    uint64_t Len = endian::read64le(Fr.data() + Start + 4);
    if (Len > Fr.size() - Start - 12 || Len < 24)
      continue;
    uint64_t P = LocOff + 16, End = Start + 12 + Len;
    uint32_t Pc = 0;
    Kernel &K = M.Kernels[It->second];
    // Where the last EXIT's row is, kept where it follows the last EXIT.
    Optional<uint32_t> Point = detail::readExitPoint(
        ArrayRef<uint8_t>(Fr).slice(P, End - P), Align);
    const std::vector<uint32_t> &Exits =
        Mercury ? K.Mercury->ExitOffsets : K.ExitOffsets;
    if (Point && !Exits.empty() && *Point <= Exits.back())
      Point = None;
    (Mercury ? K.Mercury->ExitPoint : K.ExitPoint) = Point;
    while (P < End) {
      if (Fr[P] == DW_CFA_advance_loc4 && P + 5 <= End) {
        Pc += endian::read32le(Fr.data() + P + 1) * Align;
        P += 5;
      } else {
        if (Fr[P] == DW_CFA_def_cfa) {
          (Mercury ? K.Mercury->CfaBlockEnd : K.CfaBlockEnd) = Pc;
          if (!Mercury && K.FrameSize)
            detail::readStackFrameCfa(
                K, Pc, ArrayRef<uint8_t>(Fr).slice(P, End - P));
        }
        break;
      }
    }
  }
}

Error CubinInterpreter::readMercury() {
  int SymSec = F.findSection(".nv.merc.symtab");
  if (SymSec < 0) {
    // A Blackwell cubin without the Mercury copy: the SASS-only kind
    // tp-llc writes (Module::SassOnly).
    M.SassOnly = hasMercuryKind(M.SM);
    return Error::success();
  }
  const Section &MS = F.Sections[SymSec];
  if (MS.Link >= F.Sections.size())
    return makeError("section '.nv.merc.symtab' links to no string table");
  const std::vector<uint8_t> &Str = F.Sections[MS.Link].Data;
  // The Mercury kernel symbols: named as the kernels, STO_CUDA_ENTRY.
  std::map<uint32_t, size_t> MercKernelOf;
  for (size_t Off = 0; Off + 24 <= MS.Data.size(); Off += 24) {
    uint32_t Name = endian::read32le(MS.Data.data() + Off);
    if (!(MS.Data[Off + 5] & STO_CUDA_ENTRY) || Name >= Str.size())
      continue;
    auto End = std::find(Str.begin() + Name, Str.end(), 0);
    auto It = KernelOfName.find(std::string(Str.begin() + Name, End));
    if (It == KernelOfName.end())
      continue;
    MercKernelOf[Off / 24] = It->second;
    Kernel &K = M.Kernels[It->second];
    K.Mercury.emplace();
    K.Mercury->CodeSize = endian::read64le(MS.Data.data() + Off + 16);
  }
  auto KernelNamed = [&](StringRef Name) -> Kernel * {
    auto It = KernelOfName.find(Name.str());
    if (It == KernelOfName.end() || !M.Kernels[It->second].Mercury)
      return nullptr;
    return &M.Kernels[It->second];
  };
  for (const Section &S : F.Sections) {
    StringRef Name = S.Name;
    if (Name.consume_front(".nv.capmerc.text.")) {
      if (Kernel *K = KernelNamed(Name))
        K->Mercury->Bytes = S.Data;
    } else if (Name.consume_front(".nv.merc.rela.text.")) {
      if (Kernel *K = KernelNamed(Name)) {
        // The .nv.reservedSmem.cap references and the calls' return
        // addresses; other types are not read: the round trip fails.
        for (size_t R = 0; R + 24 <= S.Data.size(); R += 24) {
          const uint8_t *E = S.Data.data() + R;
          const uint32_t Type = endian::read64le(E + 8) & 0xffffffff;
          if (Type == detail::R_MERC_SMEM_CAP)
            K->Mercury->CapRelocs.push_back(endian::read64le(E));
          else if (Type == detail::R_MERC_CALL_RETURN)
            K->Mercury->CallRelocs.push_back(
                {endian::read32le(E), endian::read32le(E + 16)});
        }
      }
    } else if (Name.consume_front(".nv.merc.nv.info.")) {
      Kernel *K = KernelNamed(Name);
      if (!K)
        continue;
      Expected<std::vector<NvInfoRecord>> Recs = parseNvInfo(S.Data, S.Offset);
      if (!Recs)
        return Recs.takeError();
      bool SeenExit = false;
      for (const NvInfoRecord &R : *Recs) {
        switch (R.attr()) {
        case NvAttr::EXIT_INSTR_OFFSETS:
          K->Mercury->ExitOffsets = R.words();
          SeenExit = true;
          break;
        // The records the layout derives from the kernel (the checked
        // round trip catches a Mercury copy that differs).
        case NvAttr::CUDA_API_VERSION:
        case NvAttr::MERCURY_FINALIZER_OPTIONS:
        case NvAttr::KPARAM_INFO:
        case NvAttr::SPARSE_MMA_MASK:
        case NvAttr::MAXREG_COUNT:
        case NvAttr::NUM_BARRIERS:
        case NvAttr::Unnamed5F:
        case NvAttr::VRC_CTA_INIT_COUNT:
        case NvAttr::MAX_THREADS:
        case NvAttr::REQNTID:
          break;
        default:
          (SeenExit ? K->Mercury->OtherInfoAfterExit
                    : K->Mercury->OtherInfoBeforeExit)
              .push_back(R);
        }
      }
    }
  }
  int DF = F.findSection(".nv.merc.debug_frame");
  int RDF = F.findSection(".nv.merc.rela.debug_frame");
  if (DF >= 0 && RDF >= 0)
    readFrameBlockEnds(F.Sections[DF], F.Sections[RDF], 24, /*Align=*/1,
                       MercKernelOf, /*Mercury=*/true);
  detail::readMercuryCallees(F, M); // CubinCalls.cpp
  return Error::success();
}
} // namespace

std::pair<unsigned, size_t> getRegistersUsed(const Kernel &K,
                                             const InstrClassifier &C) {
  std::pair<unsigned, size_t> Max{0, 0};
  for (size_t Off = 0; Off + 16 <= K.Code.size(); Off += 16)
    if (Optional<unsigned> R =
            C.registersUsed(ArrayRef<uint8_t>(K.Code).slice(Off, 16)))
      if (*R > Max.first)
        Max = {*R, Off};
  return Max;
}

Expected<Module> interpretCubin(const CubinFile &F) {
  if (F.Header.Type != ELF::ET_EXEC)
    return makeError("only executable cubins (ET_EXEC) are interpreted; this "
                     "one has e_type " +
                     Twine(F.Header.Type));
  const TargetInfo *T = getTargetInfo(F.Header.sm());
  if (!T)
    return makeError("unknown target sm_" + Twine(F.Header.sm()) +
                     " (e_flags " + hex(F.Header.Flags) + ")");
  Expected<std::vector<Symbol>> Syms = F.symbols();
  if (!Syms)
    return Syms.takeError();
  Expected<Module> M = CubinInterpreter(F, *T).run(*Syms);
  if (!M)
    return M;
  // Code that uses registers its header does not allocate has no defined
  // meaning on a GPU; its listing would not assemble back.
  const InstrClassifier &C = getTargetClassifier(M->SM);
  for (const Kernel &K : M->Kernels) {
    auto [Used, At] = getRegistersUsed(K, C);
    if (Used > K.RegCount)
      return makeError("kernel '" + K.Name + "' uses R" + Twine(Used - 1) +
                       " (at " + hex(At) + "), more than the " +
                       Twine(K.RegCount) + " registers its header gives");
  }
  return M;
}

} // namespace object
} // namespace tp
