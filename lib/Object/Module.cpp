//===- Module.cpp - The kernels of a cubin, read and laid out -------------===//
///
/// \file
/// buildCubin, step by step (every fact: SASS_FACTS.md section 3, checked
/// byte for byte against ptxas 13 output by unittests/Object):
///
///  1. Section list: null, .shstrtab, .strtab, .symtab, .debug_frame,
///     .note.nv.tkinfo, .note.nv.cuinfo, .nv.info, .nv.info.K for each
///     kernel, .nv.callgraph, .nv.rel.action, .rel.debug_frame, then
///     .nv.constant0.K for each kernel, .text.K for each, .nv.shared.K for
///     each that has one.
///  2. Symbols: null; section symbols of tkinfo, cuinfo, then per kernel
///     .text.K, .nv.shared.K (only when its size is not 0), .nv.constant0.K;
///     then .debug_frame, .nv.callgraph, .nv.rel.action; then the kernels
///     (GLOBAL FUNC, st_other STO_CUDA_ENTRY, size = code size).
///  3. String tables: ptxas puts in both every name it might have used,
///     including sections it did not emit (.symtab_shndx, .rel.nv.constant0.K,
///     .rela.debug_frame, .nv.prototype, .nv.shared.K without shared
///     memory); .strtab lists .rel.nv.constant0.K before .nv.constant0.K
///     (.shstrtab the other way round) and then the symbol names.  Nothing
///     is shared between strings.
///  4. Contents (.nv.info, notes, .debug_frame, ...), then the layout of
///     CubinFile.cpp and the program headers.
///
/// ptxas emits kernels in the reverse of their PTX order; records that
/// ptxas writes while compiling (module REGCOUNT/FRAME_SIZE and the
/// .rel.debug_frame entries) therefore come in reverse section order.
///
//===----------------------------------------------------------------------===//

#include "tp/Object/Module.h"
#include "CubinBuild.h"
#include "tp/Object/NvInfo.h"
#include "tp/Support/Diagnostics.h"
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

const TargetInfo Targets[] = {
    // SM ParamBase RegsInInfo SW2861232 Attr5F Prologue CanBuild Reserved
    {80, 0x160, true, true, 0, 0x10, true, 0},
    {86, 0x160, true, true, 0, 0x10, true, 0},
    // E, mma_tile_sm90.cubin; built by ModuleSM90.cpp (SASS_FACTS 3.3).
    {90, 0x210, false, false, 0x101, 0, true, 0x400},
};

// .nv.rel.action: fixed 16 bytes (E; the same in tinygrad's builder).
const uint8_t RelActionBytes[16] = {0x73, 0, 0, 0,    0,    0, 0,    0,
                                    0,    0, 0, 0x11, 0x25, 0, 0x05, 0x36};
constexpr uint8_t DW_CFA_def_cfa = 0x0c;

} // namespace

const TargetInfo *getTargetInfo(unsigned SM) {
  for (const TargetInfo &T : Targets)
    if (T.SM == SM)
      return &T;
  return nullptr;
}

uint32_t makeEFlags(unsigned SM) { return 0x06000004u | (SM & 0xff) << 8; }

uint32_t Kernel::paramBytes() const {
  uint32_t End = 0;
  for (const KernelParam &P : Params)
    End = std::max(End, P.Offset + P.Size);
  return End;
}

InstrClassifier::~InstrClassifier() = default;

namespace {
class OpcodeClassifier : public InstrClassifier {
  static unsigned opcode(ArrayRef<uint8_t> W) {
    return W.size() < 2 ? 0 : (W[0] | W[1] << 8) & 0xfff;
  }

public:
  bool isExit(ArrayRef<uint8_t> W) const override {
    return opcode(W) == 0x94d; // SASS_FACTS 1.4: EXIT
  }
  bool endsBlock(ArrayRef<uint8_t> W) const override {
    // UNVERIFIED: other block enders (BRX, JMP, RET, CALL) never appear in
    // our kernels; the ISA layer's classifier should list them.
    unsigned Op = opcode(W);
    return Op == 0x94d || Op == 0x947; // EXIT, BRA
  }
  Optional<uint64_t> branchTarget(ArrayRef<uint8_t> W,
                                  uint64_t Pc) const override {
    if (W.size() < 16 || opcode(W) != 0x947)
      return None;
    uint64_t Lo = endian::read64le(W.data());
    uint64_t Hi = endian::read64le(W.data() + 8);
    // Bits 32..81: a signed byte offset, bits 32-33 zero (SASS_FACTS 1.4).
    uint64_t Raw = (Lo >> 32) | (Hi & 0x3ffff) << 32;
    int64_t Off = SignExtend64<50>(Raw) & ~int64_t(3);
    return Pc + 16 + Off;
  }
};
} // namespace

const InstrClassifier &getOpcodeClassifier() {
  static OpcodeClassifier C;
  return C;
}

void scanControlFlow(Kernel &K, const InstrClassifier &C) {
  K.ExitOffsets.clear();
  uint64_t End = K.Code.size();
  bool SeenEnd = false;
  for (size_t Off = 0; Off + 16 <= K.Code.size(); Off += 16) {
    ArrayRef<uint8_t> W(K.Code.data() + Off, 16);
    if (C.isExit(W))
      K.ExitOffsets.push_back(Off);
    if (!SeenEnd && C.endsBlock(W)) {
      SeenEnd = true;
      End = std::min<uint64_t>(End, Off + 16);
    }
    // A branch target starts a block (E: a loop head ends ptxas's first
    // block in barriers_local.ptx's spin).
    if (Optional<uint64_t> T = C.branchTarget(W, Off))
      if (*T > 0 && *T < End)
        End = *T;
  }
  K.CfaBlockEnd = static_cast<uint32_t>(End);
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
// buildCubin
//===----------------------------------------------------------------------===//

namespace detail {
/// The checks every layout makes of a kernel before writing it: what the
/// cubin's fields can hold and what ptxas's layout is modelled for.
Error checkKernel(const Kernel &K, const TargetInfo &T) {
  if (K.Name.empty())
    return makeError("a kernel has an empty name");
  if (K.Code.empty() || K.Code.size() % 128)
    return makeError("kernel '" + K.Name + "': code size " +
                     hex(K.Code.size()) +
                     " is not a positive multiple of 128 bytes "
                     "(pad with BRA-to-self and NOPs as ptxas does)");
  if (K.RegCount > 255)
    return makeError("kernel '" + K.Name + "': " + Twine(K.RegCount) +
                     " registers, at most 255");
  if (!K.SharedAlign || !isPowerOf2_64(K.SharedAlign))
    return makeError("kernel '" + K.Name +
                     "': shared alignment is not a power of two");
  if (K.CfaBlockEnd < std::max<uint32_t>(T.FramePrologueBytes, 16) ||
      K.CfaBlockEnd > K.Code.size() || K.CfaBlockEnd % CodeAlign)
    return makeError("kernel '" + K.Name + "': the first block end " +
                     hex(K.CfaBlockEnd) + " is not in the code");
  for (uint32_t E : K.ExitOffsets)
    if (E % 16 || E >= K.Code.size())
      return makeError("kernel '" + K.Name + "': EXIT offset " + hex(E) +
                       " is not an instruction of the code");
  for (size_t I = 0; I < K.Params.size(); ++I) {
    const KernelParam &P = K.Params[I];
    if (P.Size == 0 || P.Size >= (1u << 14) || P.Offset > 0xffff ||
        P.Flags > 0xfff)
      return makeError("kernel '" + K.Name + "': parameter " + Twine(I) +
                       " (offset " + Twine(P.Offset) + ", size " +
                       Twine(P.Size) + ") cannot be encoded");
  }
  if (K.FrameSize || K.MinStackSize)
    return makeError("kernel '" + K.Name +
                     "': stack frames are not "
                     "supported (frame " +
                     Twine(K.FrameSize) +
                     " bytes; ptxas's .debug_frame for them is not "
                     "modelled)");
  if (K.MaxThreads && K.ReqNTid)
    return makeError("kernel '" + K.Name +
                     "': .maxntid and .reqntid "
                     "cannot both be given (ptxas rejects it too)");
  if (T.ParamBase + K.paramBytes() > 0xffff)
    return makeError("kernel '" + K.Name + "': parameters too large");
  return Error::success();
}

} // namespace detail

Expected<CubinFile> buildCubin(const Module &M) {
  const TargetInfo *T = getTargetInfo(M.SM);
  if (!T || !T->CanBuild)
    return makeError("cannot build a cubin for sm_" + Twine(M.SM) +
                     ": only sm_80, sm_86 and sm_90 are supported");
  if (M.SM == 90)
    return buildCubinSM90(M);
  if (M.Kernels.empty())
    return makeError("a cubin needs at least one kernel");
  for (const Kernel &K : M.Kernels)
    if (Error E = checkKernel(K, *T))
      return E;
  const size_t N = M.Kernels.size();

  // 1. Section indices.
  enum : uint32_t {
    SecShStr = 1,
    SecStr,
    SecSym,
    SecDebugFrame,
    SecTkInfo,
    SecCuInfo,
    SecNvInfo,
    SecFirstKernelInfo
  };
  const uint32_t SecCallgraph = SecFirstKernelInfo + N;
  const uint32_t SecRelAction = SecCallgraph + 1;
  const uint32_t SecRelDebugFrame = SecRelAction + 1;
  const uint32_t SecFirstConst = SecRelDebugFrame + 1;
  const uint32_t SecFirstText = SecFirstConst + N;
  std::vector<uint32_t> SecShared(N, 0);
  uint32_t NextSec = SecFirstText + N;
  for (size_t I = 0; I < N; ++I)
    if (M.Kernels[I].emitsSharedSection())
      SecShared[I] = NextSec++;

  // 3. String tables.
  StrTab ShStr, Str;
  for (StrTab *Tab : {&ShStr, &Str}) {
    for (const char *S : {".shstrtab", ".strtab", ".symtab", ".symtab_shndx",
                          ".note.nv.tkinfo", ".note.nv.cuinfo", ".nv.info"})
      Tab->add(S);
    for (const Kernel &K : M.Kernels) {
      Tab->add(".text." + K.Name);
      Tab->add(".nv.info." + K.Name);
      Tab->add(".nv.shared." + K.Name);
      if (Tab == &ShStr) {
        Tab->add(".nv.constant0." + K.Name);
        Tab->add(".rel.nv.constant0." + K.Name);
      } else {
        Tab->add(".rel.nv.constant0." + K.Name);
        Tab->add(".nv.constant0." + K.Name);
      }
    }
    for (const char *S :
         {".debug_frame", ".rel.debug_frame", ".rela.debug_frame",
          ".nv.callgraph", ".nv.prototype", ".nv.rel.action"})
      Tab->add(S);
  }
  for (const Kernel &K : M.Kernels)
    Str.add(K.Name);

  // 2. Symbols.
  std::vector<Symbol> Syms(1);
  auto SectionSym = [&](const std::string &Name, uint32_t Sec) {
    Symbol S;
    S.Name = Name;
    S.NameOffset = Str.at(Name);
    S.Info = ELF::STB_LOCAL << 4 | ELF::STT_SECTION;
    S.Shndx = Sec;
    Syms.push_back(S);
    return static_cast<uint32_t>(Syms.size() - 1);
  };
  SectionSym(".note.nv.tkinfo", SecTkInfo);
  SectionSym(".note.nv.cuinfo", SecCuInfo);
  std::vector<uint32_t> ConstSym(N);
  for (size_t I = 0; I < N; ++I) {
    const Kernel &K = M.Kernels[I];
    SectionSym(".text." + K.Name, SecFirstText + I);
    if (K.SharedBytes)
      SectionSym(".nv.shared." + K.Name, SecShared[I]);
    ConstSym[I] = SectionSym(".nv.constant0." + K.Name, SecFirstConst + I);
  }
  SectionSym(".debug_frame", SecDebugFrame);
  SectionSym(".nv.callgraph", SecCallgraph);
  SectionSym(".nv.rel.action", SecRelAction);
  const uint32_t FirstGlobal = Syms.size();
  std::vector<uint32_t> KernelSym(N);
  for (size_t I = 0; I < N; ++I) {
    const Kernel &K = M.Kernels[I];
    Symbol S;
    S.Name = K.Name;
    S.NameOffset = Str.at(K.Name);
    S.Info = ELF::STB_GLOBAL << 4 | ELF::STT_FUNC;
    S.Other = STO_CUDA_ENTRY;
    S.Shndx = SecFirstText + I;
    S.Size = K.Code.size();
    Syms.push_back(S);
    KernelSym[I] = Syms.size() - 1;
  }
  std::vector<uint8_t> SymBytes;
  for (const Symbol &S : Syms) {
    put<uint32_t>(SymBytes, S.NameOffset);
    SymBytes.push_back(S.Info);
    SymBytes.push_back(S.Other);
    put<uint16_t>(SymBytes, S.Shndx);
    put<uint64_t>(SymBytes, S.Value);
    put<uint64_t>(SymBytes, S.Size);
  }

  // 4a. .debug_frame: a CIE and an FDE per kernel, in section order.
  std::vector<uint8_t> Frame;
  std::vector<uint64_t> FdeLocOffset(N);
  for (size_t I = 0; I < N; ++I) {
    const Kernel &K = M.Kernels[I];
    uint64_t CieOff = Frame.size();
    Frame.insert(Frame.end(), std::begin(CieBytes), std::end(CieBytes));
    std::vector<uint8_t> Body;
    put<uint64_t>(Body, CieOff);
    FdeLocOffset[I] = Frame.size() + 12 + Body.size();
    put<uint64_t>(Body, 0); // initial location: R_CUDA_64 to the kernel
    put<uint64_t>(Body, K.Code.size());
    uint32_t Pc = 0;
    auto Advance = [&](uint32_t To) {
      Body.push_back(DW_CFA_advance_loc4);
      // Unsigned 32-bit difference: ptxas encodes a backward step (the
      // last EXIT before the first block end) modulo 2^32 (E, tiny_store).
      put<uint32_t>(Body, static_cast<uint32_t>(To - Pc) / CodeAlign);
      Pc = To;
    };
    if (T->FramePrologueBytes)
      Advance(T->FramePrologueBytes);
    Advance(K.CfaBlockEnd);
    Body.insert(Body.end(), std::begin(DefCfa), std::end(DefCfa));
    // Then to the last EXIT; without one, back to the first block's last
    // instruction (E: spin in barriers_local.ptx; UNVERIFIED beyond it).
    Advance(K.ExitOffsets.empty() ? K.CfaBlockEnd - 16 : K.ExitOffsets.back());
    while ((12 + Body.size()) % 8)
      Body.push_back(0); // DW_CFA_nop
    put<uint32_t>(Frame, 0xffffffff);
    put<uint64_t>(Frame, Body.size());
    Frame.insert(Frame.end(), Body.begin(), Body.end());
  }
  std::vector<uint8_t> RelFrame;
  for (size_t I = N; I-- > 0;) {
    put<uint64_t>(RelFrame, FdeLocOffset[I]);
    // r_info = sym << 32 | R_CUDA_64 (2).
    put<uint64_t>(RelFrame, uint64_t(KernelSym[I]) << 32 | 2);
  }

  // 4b. .nv.info and .nv.info.K.
  std::vector<NvInfoRecord> ModInfo;
  for (size_t I = N; I-- > 0;) {
    ModInfo.push_back(NvInfoRecord::sval(
        NvAttr::REGCOUNT, {KernelSym[I], M.Kernels[I].RegCount}));
    ModInfo.push_back(NvInfoRecord::sval(
        NvAttr::FRAME_SIZE, {KernelSym[I], M.Kernels[I].FrameSize}));
  }
  for (size_t I = 0; I < N; ++I)
    ModInfo.push_back(NvInfoRecord::sval(
        NvAttr::MIN_STACK_SIZE, {KernelSym[I], M.Kernels[I].MinStackSize}));

  std::vector<std::vector<uint8_t>> KernelInfo(N);
  for (size_t I = 0; I < N; ++I) {
    const Kernel &K = M.Kernels[I];
    std::vector<NvInfoRecord> R;
    R.push_back(
        NvInfoRecord::sval(NvAttr::CUDA_API_VERSION, {M.CudaApiVersion}));
    if (T->HasSW2861232War)
      R.push_back(NvInfoRecord::nval(NvAttr::SW2861232_WAR));
    if (!K.Params.empty()) {
      uint32_t Bytes = K.paramBytes();
      R.push_back(NvInfoRecord::sval(
          NvAttr::PARAM_CBANK, {ConstSym[I], Bytes << 16 | T->ParamBase}));
      R.push_back(NvInfoRecord::hval(NvAttr::CBANK_PARAM_SIZE, Bytes));
      for (size_t P = K.Params.size(); P-- > 0;) {
        const KernelParam &KP = K.Params[P];
        // word2: size << 18 | 0x1f << 12 (constant-bank space) | flags.
        R.push_back(NvInfoRecord::sval(
            NvAttr::KPARAM_INFO,
            {KP.Index, KP.Offset << 16 | static_cast<uint32_t>(P),
             KP.Size << 18 | 0x1fu << 12 | KP.Flags}));
      }
    }
    R.push_back(NvInfoRecord::hval(NvAttr::MAXREG_COUNT, K.MaxRegCount));
    if (K.NumBarriers)
      R.push_back(NvInfoRecord::bval(NvAttr::NUM_BARRIERS, K.NumBarriers));
    R.push_back(NvInfoRecord::hval(NvAttr::Unnamed5F, T->Attr5F));
    R.insert(R.end(), K.OtherInfoBeforeExit.begin(),
             K.OtherInfoBeforeExit.end());
    if (!K.ExitOffsets.empty())
      R.push_back(
          NvInfoRecord::sval(NvAttr::EXIT_INSTR_OFFSETS, K.ExitOffsets));
    R.insert(R.end(), K.OtherInfoAfterExit.begin(), K.OtherInfoAfterExit.end());
    if (K.CtaidZUsed)
      R.push_back(NvInfoRecord::nval(NvAttr::CTAIDZ_USED));
    if (K.MaxThreads)
      R.push_back(NvInfoRecord::sval(NvAttr::MAX_THREADS, *K.MaxThreads));
    if (K.ReqNTid)
      R.push_back(NvInfoRecord::sval(NvAttr::REQNTID, *K.ReqNTid));
    KernelInfo[I] = serializeNvInfo(R);
  }

  // 1 again: the sections themselves.
  CubinFile F;
  F.Sections.push_back(Section());
  F.Sections.push_back(
      makeSection(".shstrtab", ELF::SHT_STRTAB, 0, 0, 0, 1, 0, ShStr.Bytes));
  F.Sections.push_back(
      makeSection(".strtab", ELF::SHT_STRTAB, 0, 0, 0, 1, 0, Str.Bytes));
  F.Sections.push_back(makeSection(".symtab", ELF::SHT_SYMTAB, 0, SecStr,
                                   FirstGlobal, 8, 24, SymBytes));
  F.Sections.push_back(
      makeSection(".debug_frame", ELF::SHT_PROGBITS, 0, 0, 0, 1, 0, Frame));
  F.Sections.push_back(
      makeSection(".note.nv.tkinfo", ELF::SHT_NOTE, SHF_NOTE_TKINFO, 0, 0, 4, 0,
                  makeNote(NoteTypeTkInfo, makeTkInfoDesc(M.Tool))));
  F.Sections.push_back(makeSection(
      ".note.nv.cuinfo", ELF::SHT_NOTE, SHF_NOTE_CUINFO, SecTkInfo, 0, 4, 0,
      makeNote(NoteTypeCuInfo, makeCuInfoDesc(M.SM, M.CudaApiVersion))));
  F.Sections.push_back(makeSection(".nv.info", SHT_CUDA_INFO, 0, SecSym, 0, 4,
                                   0, serializeNvInfo(ModInfo)));
  for (size_t I = 0; I < N; ++I)
    F.Sections.push_back(makeSection(".nv.info." + M.Kernels[I].Name,
                                     SHT_CUDA_INFO, SHF_CUDA_INFO_LINK, SecSym,
                                     SecFirstText + I, 4, 0, KernelInfo[I]));
  F.Sections.push_back(
      makeSection(".nv.callgraph", SHT_CUDA_CALLGRAPH, 0, SecSym, 0, 4, 8,
                  std::vector<uint8_t>(std::begin(CallgraphBytes),
                                       std::end(CallgraphBytes))));
  F.Sections.push_back(
      makeSection(".nv.rel.action", SHT_CUDA_RELOCINFO, 0, 0, 0, 8, 8,
                  std::vector<uint8_t>(std::begin(RelActionBytes),
                                       std::end(RelActionBytes))));
  F.Sections.push_back(makeSection(".rel.debug_frame", ELF::SHT_REL,
                                   SHF_CUDA_INFO_LINK, SecSym, SecDebugFrame, 8,
                                   16, RelFrame));
  for (size_t I = 0; I < N; ++I)
    F.Sections.push_back(makeSection(
        ".nv.constant0." + M.Kernels[I].Name, ELF::SHT_PROGBITS,
        ELF::SHF_ALLOC | SHF_CUDA_INFO_LINK, 0, SecFirstText + I, 4, 0,
        std::vector<uint8_t>(T->ParamBase + M.Kernels[I].paramBytes(), 0)));
  for (size_t I = 0; I < N; ++I) {
    const Kernel &K = M.Kernels[I];
    uint32_t Info = KernelSym[I];
    if (T->RegCountInTextInfo)
      Info |= K.RegCount << 24;
    F.Sections.push_back(makeSection(".text." + K.Name, ELF::SHT_PROGBITS,
                                     ELF::SHF_ALLOC | ELF::SHF_EXECINSTR,
                                     SecSym, Info, 128, 0, K.Code));
  }
  for (size_t I = 0; I < N; ++I) {
    const Kernel &K = M.Kernels[I];
    if (!SecShared[I])
      continue;
    Section S =
        makeSection(".nv.shared." + K.Name, ELF::SHT_NOBITS,
                    ELF::SHF_WRITE | ELF::SHF_ALLOC | SHF_CUDA_INFO_LINK, 0,
                    SecFirstText + I, K.SharedAlign, 0);
    S.Size = K.SharedBytes;
    F.Sections.push_back(std::move(S));
  }
  for (Section &S : F.Sections)
    if (!S.Name.empty())
      S.NameOffset = ShStr.at(S.Name);

  // Header.
  ElfHeader &H = F.Header;
  H.Ident = {0x7f,
             'E',
             'L',
             'F',
             ELF::ELFCLASS64,
             ELF::ELFDATA2LSB,
             ELF::EV_CURRENT,
             ELFOSABI_CUDA_V2,
             ELFABIVERSION_CUDA_V2};
  H.Type = ELF::ET_EXEC;
  H.Machine = EM_CUDA;
  H.Version = 1;
  H.Flags = makeEFlags(M.SM);
  H.ShStrNdx = SecShStr;

  // Program headers: PHDR, LOAD constant0..text (R X), LOAD shared (R W,
  // only with a .nv.shared section), LOAD of the table again (R X).
  bool AnyShared = NextSec != SecFirstText + N;
  F.ProgramHeaders.resize(AnyShared ? 4 : 3);
  layoutCubinFile(F);
  const uint64_t TableSize = F.ProgramHeaders.size() * 56;
  auto Phdr = [&](uint32_t Type, uint32_t Flags, uint64_t Off, uint64_t FSz,
                  uint64_t MSz) {
    ProgramHeader P;
    P.Type = Type;
    P.Flags = Flags;
    P.Offset = Off;
    P.FileSz = FSz;
    P.MemSz = MSz;
    P.Align = 8;
    return P;
  };
  size_t PI = 0;
  F.ProgramHeaders[PI++] =
      Phdr(ELF::PT_PHDR, ELF::PF_R | ELF::PF_X, H.PhOff, TableSize, TableSize);
  const Section &FirstConst = F.Sections[SecFirstConst];
  const Section &LastText = F.Sections[SecFirstText + N - 1];
  uint64_t LoadSize = LastText.Offset + LastText.Size - FirstConst.Offset;
  F.ProgramHeaders[PI++] = Phdr(ELF::PT_LOAD, ELF::PF_R | ELF::PF_X,
                                FirstConst.Offset, LoadSize, LoadSize);
  if (AnyShared) {
    uint64_t Mem = 0;
    for (uint32_t S = SecFirstText + N; S < NextSec; ++S)
      // Each block at its alignment (E, two_shared_swapped.ptx: 0x104
      // bytes then a 32-aligned 0x30 give memsz 0x150).
      Mem = alignTo(Mem, F.Sections[S].AddrAlign) + F.Sections[S].Size;
    F.ProgramHeaders[PI++] = Phdr(ELF::PT_LOAD, ELF::PF_R | ELF::PF_W,
                                  F.Sections[SecFirstText + N].Offset, 0, Mem);
  }
  F.ProgramHeaders[PI++] =
      Phdr(ELF::PT_LOAD, ELF::PF_R | ELF::PF_X, H.PhOff, TableSize, TableSize);
  return F;
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

Expected<Module> interpretCubin(const CubinFile &F) {
  Module M;
  M.SM = F.Header.sm();
  if (F.Header.Type != ELF::ET_EXEC)
    return makeError("only executable cubins (ET_EXEC) are interpreted; this "
                     "one has e_type " +
                     Twine(F.Header.Type));
  const TargetInfo *T = getTargetInfo(M.SM);
  if (!T)
    return makeError("unknown target sm_" + Twine(M.SM) + " (e_flags " +
                     hex(F.Header.Flags) + ")");
  Expected<std::vector<Symbol>> SymsOrErr = F.symbols();
  if (!SymsOrErr)
    return SymsOrErr.takeError();
  const std::vector<Symbol> &Syms = *SymsOrErr;

  // Kernels: the .text.K sections, in section order.
  std::map<uint32_t, size_t> KernelOfSym;
  std::map<std::string, size_t> KernelOfName;
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

  for (size_t SI = 0; SI < F.Sections.size(); ++SI) {
    const Section &S = F.Sections[SI];
    StringRef Name = S.Name;
    if (Name.startswith(".nv.shared.")) {
      auto It = KernelOfName.find(Name.drop_front(11).str());
      if (It == KernelOfName.end())
        continue;
      Kernel &K = M.Kernels[It->second];
      K.HasSharedSection = true;
      if (S.Size < T->ReservedSharedBytes)
        return makeError("section '" + S.Name + "' is smaller than the " +
                         Twine(T->ReservedSharedBytes) +
                         " reserved bytes of sm_" + Twine(M.SM));
      K.SharedBytes = S.Size - T->ReservedSharedBytes;
      K.SharedAlign = S.AddrAlign;
    } else if (S.Type == SHT_CUDA_INFO) {
      Expected<std::vector<NvInfoRecord>> Recs = parseNvInfo(S.Data, S.Offset);
      if (!Recs)
        return Recs.takeError();
      if (Name == ".nv.info") {
        for (const NvInfoRecord &R : *Recs) {
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
        continue;
      }
      if (!Name.startswith(".nv.info."))
        continue;
      auto It = KernelOfName.find(Name.drop_front(9).str());
      if (It == KernelOfName.end())
        return makeError("section [" + Twine(SI) + "] '" + S.Name +
                         "' belongs to no kernel");
      Kernel &K = M.Kernels[It->second];
      std::map<uint32_t, KernelParam> Params;
      bool SeenExit = false;
      for (const NvInfoRecord &R : *Recs) {
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
            KernelParam P;
            P.Index = W[0];
            P.Offset = W[1] >> 16;
            P.Size = W[2] >> 18;
            P.Flags = W[2] & 0xfff;
            Params[W[1] & 0xffff] = P;
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
          (SeenExit ? K.OtherInfoAfterExit : K.OtherInfoBeforeExit)
              .push_back(R);
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
    } else if (S.Type == ELF::SHT_NOTE && Name == ".note.nv.tkinfo") {
      auto NoteOrErr = readNote(S);
      if (!NoteOrErr)
        return NoteOrErr.takeError();
      const std::vector<uint8_t> &D = NoteOrErr->second;
      if (D.size() < 24)
        return makeError("tkinfo note at file offset " + hex(S.Offset) +
                         " is too short");
      ArrayRef<uint8_t> Blob(D.data() + 24, D.size() - 24);
      M.Tool.Format = endian::read32le(D.data());
      std::string *Fields[] = {&M.Tool.ObjectName, &M.Tool.Tool,
                               &M.Tool.Version, &M.Tool.BuildId,
                               &M.Tool.Options};
      for (int I = 0; I < 5; ++I) {
        Expected<std::string> Str =
            blobString(Blob, endian::read32le(D.data() + 4 + 4 * I), S);
        if (!Str)
          return Str.takeError();
        *Fields[I] = std::move(*Str);
      }
    }
  }

  // .debug_frame: the pc at DW_CFA_def_cfa in each kernel's FDE, found
  // through .rel.debug_frame (FDE initial location -> kernel symbol).
  // sm_90 uses .rela.debug_frame (24-byte entries) instead (E).
  int DF = F.findSection(".debug_frame");
  int RDF = F.findSection(".rel.debug_frame");
  size_t RelSize = 16;
  if (RDF < 0) {
    RDF = F.findSection(".rela.debug_frame");
    RelSize = 24;
  }
  if (DF >= 0 && RDF >= 0) {
    const std::vector<uint8_t> &Fr = F.Sections[DF].Data;
    const std::vector<uint8_t> &Rel = F.Sections[RDF].Data;
    for (size_t R = 0; R + RelSize <= Rel.size(); R += RelSize) {
      uint64_t LocOff = endian::read64le(Rel.data() + R);
      uint32_t Sym = endian::read64le(Rel.data() + R + 8) >> 32;
      auto It = KernelOfSym.find(Sym);
      if (It == KernelOfSym.end() || LocOff < 20 || LocOff + 16 > Fr.size())
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
      while (P < End) {
        if (Fr[P] == DW_CFA_advance_loc4 && P + 5 <= End) {
          Pc += endian::read32le(Fr.data() + P + 1) * CodeAlign;
          P += 5;
        } else {
          if (Fr[P] == DW_CFA_def_cfa)
            M.Kernels[It->second].CfaBlockEnd = Pc;
          break;
        }
      }
    }
  }
  return M;
}

} // namespace object
} // namespace tp
