//===- ModuleSM90.cpp - buildCubin for sm_90: ptxas 13's Hopper layout -----===//
///
/// \file
/// What ptxas 13 (-arch=sm_90, ET_EXEC) writes differs from sm_80/86 in
/// section set, order, symbols and record order (SASS_FACTS.md 3.3; E =
/// our decoding of ptxas sm_90 cubins of reference/ptx: mma_tile (static
/// shared), the reference GEMM (dynamic shared only), tiny_store and
/// mma_indep (no shared memory); unittests/Object checks these rebuilds
/// byte for byte):
///
///  * sections: null, .shstrtab, .strtab, .symtab, .debug_frame,
///    .note.nv.tkinfo, .note.nv.cuinfo (flags 0x1000040, info = the index
///    of .nv.compat), .nv.info, .nv.compat, .nv.info.K, .nv.callgraph,
///    [.rela.text.K, empty, when the kernel uses shared memory],
///    .rela.debug_frame (RELA, one R_CUDA_64 with addend 0), .text.K (info
///    = the kernel symbol only, no register count), [.nv.shared.K: the
///    reserved 1 KiB + static bytes, when shared memory is used],
///    .nv.shared.reserved.0 (NOBITS, empty), .nv.constant0.K (0x210 +
///    parameter bytes).  No .nv.rel.action.
///  * symbols: null, tkinfo, cuinfo, .text.K, [.nv.shared.K when static
///    bytes], .nv.reservedSmem.offset0 (WEAK OBJECT, undefined, size 4),
///    __nv_reservedSMEM_offset_0_alias (WEAK, st_other 0xa0, in
///    .nv.shared.reserved.0), [an unnamed LOCAL symbol with st_other 1 when
///    shared memory is used], .debug_frame, .nv.callgraph, the kernel
///    (GLOBAL FUNC, STO_CUDA_ENTRY), then .nv.constant0.K -- a local after
///    the global; .symtab's sh_info is the symbol count.
///  * .strtab holds 21 zero bytes after the alias name when shared memory
///    is used (E: mma_tile and the GEMM alike).
///  * .nv.info.K: CUDA_API_VERSION, KPARAM_INFO (last first),
///    SPARSE_MMA_MASK 0, MAXREG_COUNT, [NUM_BARRIERS], 0x5f = 0x101,
///    [copied records, EXIT_INSTR_OFFSETS, copied records], [MAX_THREADS],
///    [REQNTID], CBANK_PARAM_SIZE,
///    PARAM_CBANK, SW_WAR [8].
///  * .debug_frame: the sm_86 CIE; the FDE advances to the first block end
///    and the last EXIT in address order, DW_CFA_def_cfa at the block end
///    (no stack-pointer prologue on sm_90).
///  * file layout: as layoutCubinFile, but with 32 + strlen(K) zero bytes
///    between .shstrtab and .strtab (E, four cubins).
///  * program headers: PHDR R, LOAD R (the table), LOAD R+X (.text), LOAD
///    RW (shared: offset of the first NOBITS section, size 0x400 + static
///    or 0), LOAD R (.nv.constant0).
///
/// One kernel per module (what tp-llc writes); several are an error.
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
// The call graph, CIE, DW_CFA_def_cfa and notes are the same bytes as for
// sm_86 (CubinBuild.h; E: identical in every sm_90 cubin).

// .nv.compat of a plain sm_90 (not sm_90a) kernel: 7 records, the same in
// every sm_90 cubin (E): 0x09 = 0 (sm_90a would be 1), 0x02 = 1, 0x05 = 5,
// 0x07 = 0x101, 0x03 = 0, 0x06 = 1, 0x0b = [0, 0].
const uint8_t CompatBytes[36] = {
    0x02, 0x09, 0x00, 0x00, 0x02, 0x02, 0x01, 0x00, 0x02, 0x05, 0x05, 0x00,
    0x03, 0x07, 0x01, 0x01, 0x02, 0x03, 0x00, 0x00, 0x02, 0x06, 0x01, 0x00,
    0x04, 0x0b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00};
constexpr uint32_t ReservedShared = 0x400; // SASS_FACTS 3.3/3.8
constexpr unsigned StrtabGap = 21;         // zero bytes, E

/// sm_90's BRA: signed word offset, low 8 bits in [16:23], the rest in
/// [34:81] (SASS_FACTS 1.4; td/SM90/SM90Instrs.td).
class SM90Classifier : public InstrClassifier {
  static unsigned opcode(ArrayRef<uint8_t> W) {
    return W.size() < 2 ? 0 : (W[0] | W[1] << 8) & 0xfff;
  }

public:
  bool isExit(ArrayRef<uint8_t> W) const override {
    return opcode(W) == 0x94d;
  }
  bool endsBlock(ArrayRef<uint8_t> W) const override {
    unsigned Op = opcode(W);
    return Op == 0x94d || Op == 0x947;
  }
  Optional<uint64_t> branchTarget(ArrayRef<uint8_t> W,
                                  uint64_t Pc) const override {
    if (W.size() < 16 || opcode(W) != 0x947)
      return None;
    uint64_t Lo = endian::read64le(W.data());
    uint64_t Hi = endian::read64le(W.data() + 8);
    uint64_t High = (Lo >> 34) | (Hi & 0x3ffff) << 30; // 48 bits
    int64_t Words = SignExtend64<48>(High) * 256 + int64_t((Lo >> 16) & 0xff);
    return Pc + 16 + 4 * Words;
  }
};
} // namespace

const InstrClassifier &getSM90OpcodeClassifier() {
  static SM90Classifier C;
  return C;
}

Expected<CubinFile> buildCubinSM90(const Module &M) {
  const TargetInfo *T = getTargetInfo(M.SM);
  if (M.Kernels.size() != 1)
    return makeError("cannot build a cubin for sm_90 with " +
                     Twine(M.Kernels.size()) +
                     " kernels: one kernel per module is supported");
  const Kernel &K = M.Kernels.front();
  if (Error E = checkKernel(K, *T))
    return makeError("sm_90: " + toString(std::move(E)));
  if (K.Params.empty())
    return makeError("sm_90 kernel '" + K.Name + "': sm_90 cubins without "
                     "parameters are not modelled");
  if (K.CtaidZUsed)
    return makeError("sm_90 kernel '" + K.Name + "': CTAIDZ_USED's place in an "
                     "sm_90 .nv.info is not modelled");

  const bool Shared = K.emitsSharedSection();
  const bool StaticShared = K.SharedBytes != 0;

  // Section indices.
  uint32_t NextSec = 1;
  const uint32_t SecShStr = NextSec++, SecStr = NextSec++,
                 SecSym = NextSec++, SecDebugFrame = NextSec++,
                 SecTkInfo = NextSec++, SecCuInfo = NextSec++,
                 SecNvInfo = NextSec++, SecCompat = NextSec++,
                 SecKernelInfo = NextSec++, SecCallgraph = NextSec++;
  const uint32_t SecRelaText = Shared ? NextSec++ : 0;
  const uint32_t SecRelaFrame = NextSec++, SecText = NextSec++;
  const uint32_t SecShared = Shared ? NextSec++ : 0;
  const uint32_t SecReserved = NextSec++, SecConst = NextSec++;
  (void)SecNvInfo;
  (void)SecRelaText; // named for the section order above
  (void)SecRelaFrame;
  (void)SecKernelInfo;

  // String tables.
  const std::string &N = K.Name;
  StrTab ShStr, Str;
  for (StrTab *Tab : {&ShStr, &Str}) {
    for (const char *S : {".shstrtab", ".strtab", ".symtab", ".symtab_shndx",
                          ".note.nv.tkinfo", ".note.nv.cuinfo", ".nv.info",
                          ".nv.compat"})
      Tab->add(S);
    Tab->add(".text." + N);
    Tab->add(".nv.info." + N);
    Tab->add(".nv.shared." + N);
    if (Tab == &Str)
      Tab->add(".nv.reservedSmem.offset0");
    Tab->add(".nv.shared.reserved.0");
    if (Tab == &Str) {
      Tab->add("__nv_reservedSMEM_offset_0_alias");
      if (Shared)
        Tab->Bytes.insert(Tab->Bytes.end(), StrtabGap, 0);
    }
    if (Shared) {
      Tab->add(".rel.text." + N);
      Tab->add(".rela.text." + N);
    }
    for (const char *S : {".debug_frame", ".rel.debug_frame",
                          ".rela.debug_frame", ".nv.callgraph",
                          ".nv.prototype"})
      Tab->add(S);
    if (Tab == &Str)
      Tab->add(N);
    Tab->add(".nv.constant0." + N);
  }

  // Symbols.
  std::vector<Symbol> Syms(1);
  auto AddSym = [&](uint32_t NameOff, uint8_t Info, uint8_t Other,
                    uint16_t Shndx, uint64_t Size) {
    Symbol S;
    S.NameOffset = NameOff;
    S.Info = Info;
    S.Other = Other;
    S.Shndx = Shndx;
    S.Size = Size;
    Syms.push_back(S);
    return static_cast<uint32_t>(Syms.size() - 1);
  };
  const uint8_t LocalSection = ELF::STB_LOCAL << 4 | ELF::STT_SECTION;
  AddSym(Str.at(".note.nv.tkinfo"), LocalSection, 0, SecTkInfo, 0);
  AddSym(Str.at(".note.nv.cuinfo"), LocalSection, 0, SecCuInfo, 0);
  AddSym(Str.at(".text." + N), LocalSection, 0, SecText, 0);
  if (StaticShared)
    AddSym(Str.at(".nv.shared." + N), LocalSection, 0, SecShared, 0);
  AddSym(Str.at(".nv.reservedSmem.offset0"),
         ELF::STB_WEAK << 4 | ELF::STT_OBJECT, 0, 0, 4);
  AddSym(Str.at("__nv_reservedSMEM_offset_0_alias"),
         ELF::STB_WEAK << 4 | ELF::STT_NOTYPE, 0xa0, SecReserved, 0);
  if (Shared)
    AddSym(0, ELF::STB_LOCAL << 4 | ELF::STT_NOTYPE, ELF::STV_INTERNAL, 0, 0);
  AddSym(Str.at(".debug_frame"), LocalSection, 0, SecDebugFrame, 0);
  AddSym(Str.at(".nv.callgraph"), LocalSection, 0, SecCallgraph, 0);
  const uint32_t KernelSym =
      AddSym(Str.at(N), ELF::STB_GLOBAL << 4 | ELF::STT_FUNC, STO_CUDA_ENTRY,
             SecText, K.Code.size());
  const uint32_t ConstSym =
      AddSym(Str.at(".nv.constant0." + N), LocalSection, 0, SecConst, 0);
  std::vector<uint8_t> SymBytes;
  for (const Symbol &S : Syms) {
    put<uint32_t>(SymBytes, S.NameOffset);
    SymBytes.push_back(S.Info);
    SymBytes.push_back(S.Other);
    put<uint16_t>(SymBytes, S.Shndx);
    put<uint64_t>(SymBytes, S.Value);
    put<uint64_t>(SymBytes, S.Size);
  }

  // .debug_frame: CIE, then the FDE.
  std::vector<uint8_t> Frame(std::begin(CieBytes), std::end(CieBytes));
  std::vector<uint8_t> Body;
  put<uint64_t>(Body, 0); // CIE pointer
  const uint64_t FdeLoc = Frame.size() + 12 + Body.size();
  put<uint64_t>(Body, 0); // initial location: R_CUDA_64 to the kernel
  put<uint64_t>(Body, K.Code.size());
  uint32_t Pc = 0;
  auto Advance = [&](uint32_t To) {
    Body.push_back(DW_CFA_advance_loc4);
    put<uint32_t>(Body, (To - Pc) / CodeAlign);
    Pc = To;
  };
  bool HaveExit = !K.ExitOffsets.empty();
  uint32_t LastExit = HaveExit ? K.ExitOffsets.back() : 0;
  if (HaveExit && LastExit < K.CfaBlockEnd)
    Advance(LastExit);
  Advance(K.CfaBlockEnd);
  Body.insert(Body.end(), std::begin(DefCfa), std::end(DefCfa));
  if (HaveExit && LastExit > K.CfaBlockEnd)
    Advance(LastExit);
  while ((12 + Body.size()) % 8)
    Body.push_back(0); // DW_CFA_nop
  put<uint32_t>(Frame, 0xffffffff);
  put<uint64_t>(Frame, Body.size());
  Frame.insert(Frame.end(), Body.begin(), Body.end());
  std::vector<uint8_t> RelaFrame;
  put<uint64_t>(RelaFrame, FdeLoc);
  put<uint64_t>(RelaFrame, uint64_t(KernelSym) << 32 | 2); // R_CUDA_64
  put<uint64_t>(RelaFrame, 0);

  // .nv.info and .nv.info.K.
  std::vector<NvInfoRecord> ModInfo = {
      NvInfoRecord::sval(NvAttr::REGCOUNT, {KernelSym, K.RegCount}),
      NvInfoRecord::sval(NvAttr::FRAME_SIZE, {KernelSym, K.FrameSize}),
      NvInfoRecord::sval(NvAttr::MIN_STACK_SIZE, {KernelSym, K.MinStackSize})};
  std::vector<NvInfoRecord> R;
  R.push_back(NvInfoRecord::sval(NvAttr::CUDA_API_VERSION, {M.CudaApiVersion}));
  for (size_t P = K.Params.size(); P-- > 0;) {
    const KernelParam &KP = K.Params[P];
    R.push_back(NvInfoRecord::sval(
        NvAttr::KPARAM_INFO, {KP.Index, KP.Offset << 16 | uint32_t(P),
                              KP.Size << 18 | 0x1fu << 12 | KP.Flags}));
  }
  R.push_back(NvInfoRecord::hval(NvAttr::SPARSE_MMA_MASK, 0));
  R.push_back(NvInfoRecord::hval(NvAttr::MAXREG_COUNT, K.MaxRegCount));
  if (K.NumBarriers)
    R.push_back(NvInfoRecord::bval(NvAttr::NUM_BARRIERS, K.NumBarriers));
  R.push_back(NvInfoRecord::hval(NvAttr::Unnamed5F, T->Attr5F));
  // Records the model copies (COOP_GROUP_*, CRS_STACK_SIZE) around the
  // EXIT offsets, as for sm_86 (E, divergent.ptx on sm_90 too).
  // SPARSE_MMA_MASK and SW_WAR, which interpretCubin copies too, are
  // written here in their own places.
  auto Copy = [&](const std::vector<NvInfoRecord> &Recs) {
    for (const NvInfoRecord &X : Recs)
      if (X.attr() != NvAttr::SPARSE_MMA_MASK && X.attr() != NvAttr::SW_WAR)
        R.push_back(X);
  };
  Copy(K.OtherInfoBeforeExit);
  if (HaveExit)
    R.push_back(NvInfoRecord::sval(NvAttr::EXIT_INSTR_OFFSETS, K.ExitOffsets));
  Copy(K.OtherInfoAfterExit);
  if (K.MaxThreads)
    R.push_back(NvInfoRecord::sval(NvAttr::MAX_THREADS, *K.MaxThreads));
  if (K.ReqNTid)
    R.push_back(NvInfoRecord::sval(NvAttr::REQNTID, *K.ReqNTid));
  const uint32_t Bytes = K.paramBytes();
  R.push_back(NvInfoRecord::hval(NvAttr::CBANK_PARAM_SIZE, Bytes));
  R.push_back(NvInfoRecord::sval(NvAttr::PARAM_CBANK,
                                 {ConstSym, Bytes << 16 | T->ParamBase}));
  R.push_back(NvInfoRecord::sval(NvAttr::SW_WAR, {8}));

  // The sections.
  CubinFile F;
  F.Sections.push_back(Section());
  F.Sections.push_back(makeSection(".shstrtab", ELF::SHT_STRTAB, 0, 0, 0, 1, 0,
                                   ShStr.Bytes));
  F.Sections.push_back(
      makeSection(".strtab", ELF::SHT_STRTAB, 0, 0, 0, 1, 0, Str.Bytes));
  F.Sections.push_back(makeSection(".symtab", ELF::SHT_SYMTAB, 0, SecStr,
                                   Syms.size(), 8, 24, SymBytes));
  F.Sections.push_back(makeSection(".debug_frame", ELF::SHT_PROGBITS, 0, 0, 0,
                                   1, 0, Frame));
  F.Sections.push_back(makeSection(
      ".note.nv.tkinfo", ELF::SHT_NOTE, SHF_NOTE_TKINFO, 0, 0, 4, 0,
      makeNote(NoteTypeTkInfo, makeTkInfoDesc(M.Tool))));
  std::vector<uint8_t> CuInfo;
  put<uint16_t>(CuInfo, 2);
  put<uint16_t>(CuInfo, M.SM);
  put<uint16_t>(CuInfo, M.CudaApiVersion);
  put<uint16_t>(CuInfo, 0);
  F.Sections.push_back(makeSection(
      ".note.nv.cuinfo", ELF::SHT_NOTE, SHF_NOTE_CUINFO | SHF_CUDA_INFO_LINK,
      SecTkInfo, SecCompat, 4, 0, makeNote(NoteTypeCuInfo, CuInfo)));
  F.Sections.push_back(makeSection(".nv.info", SHT_CUDA_INFO, 0, SecSym, 0, 4,
                                   0, serializeNvInfo(ModInfo)));
  F.Sections.push_back(makeSection(
      ".nv.compat", SHT_CUDA_COMPAT, 0, 0, 0, 4, 0,
      std::vector<uint8_t>(std::begin(CompatBytes), std::end(CompatBytes))));
  F.Sections.push_back(makeSection(".nv.info." + N, SHT_CUDA_INFO,
                                   SHF_CUDA_INFO_LINK, SecSym, SecText, 4, 0,
                                   serializeNvInfo(R)));
  F.Sections.push_back(makeSection(
      ".nv.callgraph", SHT_CUDA_CALLGRAPH, 0, SecSym, 0, 4, 8,
      std::vector<uint8_t>(std::begin(CallgraphBytes),
                           std::end(CallgraphBytes))));
  if (Shared)
    F.Sections.push_back(makeSection(".rela.text." + N, ELF::SHT_RELA,
                                     SHF_CUDA_INFO_LINK, SecSym, SecText, 8,
                                     24));
  F.Sections.push_back(makeSection(".rela.debug_frame", ELF::SHT_RELA,
                                   SHF_CUDA_INFO_LINK, SecSym, SecDebugFrame,
                                   8, 24, RelaFrame));
  F.Sections.push_back(makeSection(".text." + N, ELF::SHT_PROGBITS,
                                   ELF::SHF_ALLOC | ELF::SHF_EXECINSTR, SecSym,
                                   KernelSym, 128, 0, K.Code));
  if (Shared) {
    Section S = makeSection(".nv.shared." + N, ELF::SHT_NOBITS,
                            ELF::SHF_WRITE | ELF::SHF_ALLOC |
                                SHF_CUDA_INFO_LINK,
                            0, SecText, K.SharedAlign, 0);
    S.Size = ReservedShared + K.SharedBytes;
    F.Sections.push_back(std::move(S));
  }
  F.Sections.push_back(makeSection(".nv.shared.reserved.0", ELF::SHT_NOBITS,
                                   ELF::SHF_WRITE | ELF::SHF_ALLOC, 0, 0, 1,
                                   0));
  F.Sections.push_back(makeSection(
      ".nv.constant0." + N, ELF::SHT_PROGBITS,
      ELF::SHF_ALLOC | SHF_CUDA_INFO_LINK, 0, SecText, 4, 0,
      std::vector<uint8_t>(T->ParamBase + Bytes, 0)));
  for (Section &S : F.Sections)
    if (!S.Name.empty())
      S.NameOffset = ShStr.at(S.Name);

  ElfHeader &H = F.Header;
  H.Ident = {0x7f, 'E', 'L', 'F', ELF::ELFCLASS64, ELF::ELFDATA2LSB,
             ELF::EV_CURRENT, ELFOSABI_CUDA_V2, ELFABIVERSION_CUDA_V2};
  H.Type = ELF::ET_EXEC;
  H.Machine = EM_CUDA;
  H.Version = 1;
  H.Flags = makeEFlags(M.SM);
  H.ShStrNdx = 1;

  F.ProgramHeaders.resize(5);
  layoutCubinFile(F);
  // ptxas leaves 32 + strlen(K) zero bytes after .shstrtab (E: 36, 40, 41
  // and 51 bytes for kernels named tiny, mma_tile, mma_indep and
  // gemm_sm86_rows_cols): lay out again from .strtab on.
  {
    uint64_t Off = F.Sections[SecShStr].Offset + F.Sections[SecShStr].Size +
                   32 + N.size();
    for (size_t I = SecStr; I < F.Sections.size(); ++I) {
      Section &S = F.Sections[I];
      Off = alignTo(Off, std::max<uint64_t>(S.AddrAlign, 1));
      S.Offset = Off;
      if (!S.isNoBits())
        Off += S.Size;
    }
    H.ShOff = alignTo(Off, 8);
    H.PhOff = H.ShOff + F.Sections.size() * 64;
    F.FileSize = H.PhOff + F.ProgramHeaders.size() * 56;
  }
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
  const Section &Text = F.Sections[SecText];
  const Section &Const = F.Sections[SecConst];
  const Section &FirstNoBits = F.Sections[Shared ? SecShared : SecReserved];
  F.ProgramHeaders[0] =
      Phdr(ELF::PT_PHDR, ELF::PF_R, H.PhOff, TableSize, TableSize);
  F.ProgramHeaders[1] =
      Phdr(ELF::PT_LOAD, ELF::PF_R, H.PhOff, TableSize, TableSize);
  F.ProgramHeaders[2] = Phdr(ELF::PT_LOAD, ELF::PF_R | ELF::PF_X, Text.Offset,
                             Text.Size, Text.Size);
  F.ProgramHeaders[3] =
      Phdr(ELF::PT_LOAD, ELF::PF_R | ELF::PF_W, FirstNoBits.Offset, 0,
           Shared ? ReservedShared + K.SharedBytes : 0);
  F.ProgramHeaders[4] =
      Phdr(ELF::PT_LOAD, ELF::PF_R, Const.Offset, Const.Size, Const.Size);
  return F;
}

} // namespace object
} // namespace tp
