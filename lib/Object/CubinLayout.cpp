//===- CubinLayout.cpp - buildCubin: ptxas 13's layout, per target --------===//
///
/// \file
/// One writer for every target: the target's differences are the data of
/// a CubinLayout (section list and order, .nv.info.K record order, program
/// headers, a few switches), the code below (CubinBuilder, one method a
/// step: planSections, buildStringTables, buildSymbols, buildDebugFrame,
/// buildNvInfo, buildSections, buildHeader, buildProgramHeaders) follows
/// it.  E = our decoding
/// of ptxas 13 cubins (SASS_FACTS.md section 3), checked byte for byte
/// against ptxas output by unittests/Object and test/Object.
///
/// Common to both layouts:
///  * kernels in section order (ptxas emits them in the reverse of their
///    PTX order, so records ptxas writes while compiling -- module
///    REGCOUNT/FRAME_SIZE and the .debug_frame relocations -- come in
///    reverse section order);
///  * symbols: null, the tkinfo and cuinfo section symbols, then per
///    kernel .text.K and .nv.shared.K (when it has static bytes), then the
///    section symbols of .debug_frame, .nv.callgraph [, .nv.rel.action],
///    then the kernels (GLOBAL FUNC, STO_CUDA_ENTRY, size = code size);
///    .symtab's sh_info is one past the last LOCAL symbol;
///  * string tables: every name ptxas might have used, including sections
///    it did not emit (.symtab_shndx, .rela.debug_frame, .nv.prototype,
///    .nv.shared.K without shared memory); nothing shared between strings;
///  * .debug_frame: a CIE and an FDE per kernel; module .nv.info: REGCOUNT
///    and FRAME_SIZE last kernel first, then MIN_STACK_SIZE first first;
///  * a module's `.global` and `.const` variables: the data groups
///    AddrRel .. ZeroData (Blackwell: and their Mercury copies
///    MercAddrRel .. MercInitData), whose contents, names and symbols
///    DataPlan (CubinGlobals.cpp) gives.
///
/// sm_80/86/89 (sm_89 without the SW2861232_WAR record): .nv.constant0.K's section symbol in each kernel's group and
/// its names beside .rel.nv.constant0.K; .nv.rel.action; REL .debug_frame
/// relocations; .text.K sh_info = regs << 24 | symbol; a kernel's constant
/// bank 2 (Kernel::Constant2) right before its .nv.constant0.K, its symbol
/// and name right before that one's (CubinConstant2.cpp).
///
/// sm_90 (SASS_FACTS 3.3; E: every test/Object/Inputs PTX file retargeted,
/// shared_order.ptx and shared_unused_first.ptx for the multi-kernel
/// rules): .nv.compat (cuinfo links to it), no .nv.rel.action, RELA
/// relocations, .text.K before the NOBITS sections and .nv.constant0.K
/// last; the reserved shared window: after kernel 0's symbols
/// .nv.reservedSmem.offset0 and __nv_reservedSMEM_offset_0_alias, after
/// kernel 0's .nv.shared.K the section .nv.shared.reserved.0, every
/// .nv.shared.K 1 KiB larger; a kernel whose code addresses shared memory
/// gets an empty .rela.text.K, and the first such kernel adds an unnamed
/// LOCAL symbol (st_other 1) and 21 zero bytes in .strtab; .nv.constant0.K
/// symbols and names after the kernels; 14 + sum(18 + strlen(K)) zero
/// bytes after .shstrtab.
///
/// sm_100/120/121 (Blackwell; E: the same PTX files and the four-kernel
/// GEMM built with ptxas 13.0 for each): sm_90's layout with a 0x40-byte
/// reserved window, the first shared user's symbol named
/// .nv.reservedSmem.cap (sm_90's unnamed symbol and 21 zero bytes are that
/// symbol blanked), VRC_CTA_INIT_COUNT 0, per-target .nv.compat and SW_WAR,
/// 36 zero bytes after .shstrtab, then the Mercury copy of each kernel
/// (Kernel::Mercury): .nv.capmerc.text.K, .nv.merc.debug_frame (CIE code
/// alignment 1, sm_86-order FDEs with a 0x10-byte prologue),
/// .nv.merc.nv.info[.K], .nv.merc.rela.text.K, .nv.merc.rela.debug_frame,
/// .nv.merc.nv.shared.reserved.0 and .nv.merc.symtab, their names in
/// .shstrtab only.
///
//===----------------------------------------------------------------------===//

#include "CubinBuild.h"
#include "tp/Object/Module.h"
#include "tp/Object/NvInfo.h"
#include "tp/Support/Diagnostics.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/BinaryFormat/ELF.h"

using namespace llvm;

namespace tp {
namespace object {

namespace {
using namespace detail;

/// The sections of a cubin, in the groups a layout orders.
enum class SectionGroup : uint8_t {
  ShStrTab,
  StrTab,
  SymTab,
  DebugFrame,
  TkInfo,
  CuInfo, ///< links to .nv.compat when the layout has one
  NvInfo,
  Compat,     ///< .nv.compat
  KernelInfo, ///< .nv.info.K, each kernel
  Callgraph,
  RelAction, ///< .nv.rel.action
  RelaText,  ///< empty .rela.text.K, each kernel addressing shared memory
  FrameRel,  ///< .rel.debug_frame or .rela.debug_frame
  Constant2, ///< .nv.constant2.K, before its kernel's .nv.constant0.K
             ///< (CubinConstant2.cpp); placed by Constant, in no list
  Constant,  ///< .nv.constant0.K, each kernel
  Text,      ///< .text.K, each kernel
  Shared,    ///< .nv.shared.K where present, .nv.shared.reserved.0
  // A module's variables (Module::Globals, DataSection; CubinGlobals.cpp).
  AddrRel,   ///< .rel.nv.constant4 / .rela.nv.constant4
  Addresses, ///< .nv.constant4
  ConstData, ///< .nv.constant3
  InitData,  ///< .nv.global.init
  ZeroData,  ///< .nv.global
  // Blackwell's Mercury copy (Kernel::Mercury; the banner).
  CapMerc,            ///< .nv.capmerc.text.K, each kernel
  MercFrame,          ///< .nv.merc.debug_frame
  MercNvInfo,         ///< .nv.merc.nv.info
  MercKernelInfo,     ///< .nv.merc.nv.info.K, each kernel
  MercRelaText,       ///< .nv.merc.rela.text.K, each kernel with CapRelocs
  MercFrameRel,       ///< .nv.merc.rela.debug_frame
  MercSharedReserved, ///< .nv.merc.nv.shared.reserved.0
  MercSymTab,         ///< .nv.merc.symtab
  // The Mercury copies of the data groups (CubinGlobals.cpp): a relocation
  // section, and headers aliasing .nv.constant4's, .nv.constant3's and
  // .nv.global.init's bytes.
  MercAddrRel,   ///< .nv.merc.rela.nv.constant.pic
  MercAddresses, ///< .nv.merc.nv.constant.pic
  MercConstData, ///< .nv.merc.nv.constant.user
  MercInitData,  ///< .nv.merc.nv.global.init
};

/// The records of .nv.info.K, in the order a layout writes them.
enum class Rec : uint8_t {
  ApiVersion,
  SW2861232War,
  ParamCBank,     ///< with parameters only
  CBankParamSize, ///< with parameters only
  KParams,        ///< last parameter first
  SparseMmaMask,  ///< 0
  MaxRegCount,
  Barriers, ///< when not 0
  Attr5F,
  BeforeExit,  ///< Kernel::OtherInfoBeforeExit
  ExitOffsets, ///< when there is an EXIT
  AfterExit,   ///< Kernel::OtherInfoAfterExit
  CtaidZUsed,  ///< when set (sm_90 ptxas never writes it, E)
  MaxThreads,
  ReqNTid,
  SwWar,           ///< SW_WAR [CubinLayout::SwWarValue]
  VrcCtaInitCount, ///< VRC_CTA_INIT_COUNT 0 (Blackwell, E)
  MercOptions,     ///< MERCURY_FINALIZER_OPTIONS (.nv.merc.nv.info.K only)
};

/// A program header: the header table itself, the file range from the
/// first section of one piece to the end of the last of another, or the
/// NOBITS sections (memsz each at its alignment; omitted when none).
struct PhdrSpec {
  enum Kind : uint8_t { Table, Range, NoBits } What;
  uint32_t Type;
  uint32_t Flags;
  SectionGroup First = SectionGroup::Text, Last = SectionGroup::Text;
};

struct CubinLayout {
  ArrayRef<SectionGroup> Sections;
  ArrayRef<Rec> KernelRecords;
  ArrayRef<PhdrSpec> Phdrs;
  /// .rela.debug_frame with 24-byte entries (addend 0) instead of REL.
  bool FrameRela;
  /// The reserved shared window's section and symbols (see the banner).
  bool ReservedSmem;
  /// .nv.constant0.K's symbol and name after the kernels (sm_90), not in
  /// each kernel's group beside .rel.nv.constant0.K (sm_80/86).
  bool ConstantAfterKernels;
  /// The FDE's first advance: the stack-pointer set-up (E: 0x10 bytes on
  /// sm_80/86, none on sm_90).
  uint32_t FramePrologueBytes;
  /// The FDE visits the first block end and the last EXIT in address
  /// order (sm_90); else block end, then the last EXIT -- or, without
  /// one, the block's last instruction -- even backwards (sm_80/86, E
  /// tiny_store: a step back modulo 2^32).
  bool FdeInAddressOrder;
  /// Zero bytes after .shstrtab: Base, plus sum(PerKernel + strlen(K))
  /// when PerKernel is not 0 (sm_90: 14 and 18; Blackwell: 36 and 0).
  uint32_t ShStrSlackBase, ShStrSlackPerKernel;
  /// .nv.compat's bytes (with a Compat section).
  ArrayRef<uint8_t> CompatBytes;
  /// SW_WAR's word (with Rec::SwWar).
  uint32_t SwWarValue;
  /// .nv.shared.reserved.0's size, the value of the reserved-window
  /// symbols (with ReservedSmem).
  uint32_t ReservedWindowBytes;
  /// The first kernel addressing shared memory brings the symbol
  /// .nv.reservedSmem.cap (WEAK OBJECT, value ReservedSharedBytes, size 4)
  /// and its name in .strtab; without this switch (sm_90) ptxas writes
  /// the symbol unnamed (LOCAL, st_other 1, all else 0) and 21 zero bytes
  /// where the name would be.
  bool NamedSmemCap;
  /// .nv.merc.nv.info.K's records (with the Mercury sections).
  ArrayRef<Rec> MercRecords;
};

using P = SectionGroup;
// The data groups (AddrRel ... ZeroData) are empty without variables (E
// for their places: test/Object/Inputs/globals, CubinGlobals.cpp).
constexpr SectionGroup SM86Sections[] = {
    P::ShStrTab,  P::StrTab,    P::SymTab,     P::DebugFrame, P::TkInfo,
    P::CuInfo,    P::NvInfo,    P::KernelInfo, P::Callgraph,  P::RelAction,
    P::AddrRel,   P::FrameRel,  P::Addresses,  P::ConstData,  P::Constant,
    P::Text,      P::Shared,    P::InitData,   P::ZeroData};
constexpr SectionGroup SM90Sections[] = {
    P::ShStrTab,  P::StrTab,   P::SymTab,    P::DebugFrame, P::TkInfo,
    P::CuInfo,    P::NvInfo,   P::Compat,    P::KernelInfo, P::Callgraph,
    P::RelaText,  P::AddrRel,  P::FrameRel,  P::Addresses,  P::ConstData,
    P::Text,      P::InitData, P::Shared,    P::ZeroData,   P::Constant};
// Blackwell: sm_90's sections, then the Mercury copy's (E: every
// test/Object/Inputs PTX file and the four-kernel GEMM built with ptxas
// 13.0 -arch=sm_100, sm_120 and sm_121).
constexpr SectionGroup BlackwellSections[] = {
    P::ShStrTab,      P::StrTab,        P::SymTab,        P::DebugFrame,
    P::TkInfo,        P::CuInfo,        P::NvInfo,        P::Compat,
    P::KernelInfo,    P::Callgraph,     P::RelaText,      P::AddrRel,
    P::FrameRel,      P::Addresses,     P::ConstData,     P::Text,
    P::InitData,      P::Shared,        P::ZeroData,      P::Constant,
    P::CapMerc,       P::MercFrame,     P::MercNvInfo,    P::MercKernelInfo,
    P::MercRelaText,  P::MercAddrRel,   P::MercFrameRel,  P::MercAddresses,
    P::MercConstData, P::MercInitData,  P::MercSharedReserved,
    P::MercSymTab};

constexpr Rec SM86Records[] = {
    Rec::ApiVersion, Rec::SW2861232War, Rec::ParamCBank, Rec::CBankParamSize,
    Rec::KParams,    Rec::MaxRegCount,  Rec::Barriers,   Rec::Attr5F,
    Rec::BeforeExit, Rec::ExitOffsets,  Rec::AfterExit,  Rec::CtaidZUsed,
    Rec::MaxThreads, Rec::ReqNTid};
// sm_89: sm_86's records without SW2861232_WAR (E: every test/Object/Inputs
// PTX file and the four-kernel GEMM built with ptxas -arch=sm_89).
constexpr Rec SM89Records[] = {
    Rec::ApiVersion, Rec::ParamCBank,  Rec::CBankParamSize, Rec::KParams,
    Rec::MaxRegCount, Rec::Barriers,   Rec::Attr5F,         Rec::BeforeExit,
    Rec::ExitOffsets, Rec::AfterExit,  Rec::CtaidZUsed,     Rec::MaxThreads,
    Rec::ReqNTid};
constexpr Rec SM90Records[] = {
    Rec::ApiVersion, Rec::KParams,    Rec::SparseMmaMask, Rec::MaxRegCount,
    Rec::Barriers,   Rec::Attr5F,     Rec::BeforeExit,    Rec::ExitOffsets,
    Rec::AfterExit,  Rec::MaxThreads, Rec::ReqNTid,       Rec::CBankParamSize,
    Rec::ParamCBank, Rec::SwWar};
// Blackwell: sm_90's with VRC_CTA_INIT_COUNT just before the EXIT offsets
// (E, divergent.ptx: after the copied COOP_GROUP records); the Mercury
// copy adds MERCURY_FINALIZER_OPTIONS after CUDA_API_VERSION and drops the
// constant-bank records and SW_WAR.
constexpr Rec BlackwellRecords[] = {
    Rec::ApiVersion,  Rec::KParams,         Rec::SparseMmaMask,
    Rec::MaxRegCount, Rec::Barriers,        Rec::Attr5F,
    Rec::BeforeExit,  Rec::VrcCtaInitCount, Rec::ExitOffsets,
    Rec::AfterExit,   Rec::MaxThreads,      Rec::ReqNTid,
    Rec::CBankParamSize, Rec::ParamCBank,   Rec::SwWar};
constexpr Rec BlackwellMercRecords[] = {
    Rec::ApiVersion,  Rec::MercOptions,     Rec::KParams,
    Rec::SparseMmaMask, Rec::MaxRegCount,   Rec::Barriers,
    Rec::Attr5F,      Rec::BeforeExit,      Rec::VrcCtaInitCount,
    Rec::ExitOffsets, Rec::AfterExit,       Rec::MaxThreads,
    Rec::ReqNTid};

constexpr uint32_t R = ELF::PF_R, W = ELF::PF_W, X = ELF::PF_X;
// PHDR and a LOAD of the table; the constants and code (sm_86) or code,
// shared, constants (sm_90).  A Range covers the sections of the groups
// First..Last of the layout that exist, and is omitted when none does
// (sm_90's LOAD of .nv.constant4 and .nv.constant3, E); the NoBits LOAD
// covers the writable sections: .nv.global.init's bytes, then the NOBITS.
constexpr PhdrSpec SM86Phdrs[] = {
    {PhdrSpec::Table, ELF::PT_PHDR, R | X},
    {PhdrSpec::Range, ELF::PT_LOAD, R | X, P::Addresses, P::Text},
    {PhdrSpec::NoBits, ELF::PT_LOAD, R | W},
    {PhdrSpec::Table, ELF::PT_LOAD, R | X}};
constexpr PhdrSpec SM90Phdrs[] = {
    {PhdrSpec::Table, ELF::PT_PHDR, R},
    {PhdrSpec::Table, ELF::PT_LOAD, R},
    {PhdrSpec::Range, ELF::PT_LOAD, R, P::Addresses, P::ConstData},
    {PhdrSpec::Range, ELF::PT_LOAD, R | X, P::Text, P::Text},
    {PhdrSpec::NoBits, ELF::PT_LOAD, R | W},
    {PhdrSpec::Range, ELF::PT_LOAD, R, P::Constant, P::Constant}};

// .nv.compat: 7 records (E, the same in every cubin of a target built by
// ptxas 13.0 V13.0.88 from test/Object/Inputs and the reference GEMM):
// 0x09 = 0 (sm_90a would be 1), 0x02 = 1, 0x05 = 5, 0x07 = 0x101, 0x03 = 0,
// 0x06 = 1, 0x0b = [W, 0] with W = 0 on sm_90 and sm_121, 9 on sm_100, 0x50
// on sm_120.  (multi_kernel.ptx's sm_120/121 cubins have 0x02 = 2, reason
// unknown: Module::Compat copies such bytes.)
#define TP_COMPAT(Word0B)                                                      \
  {0x02, 0x09, 0x00, 0x00, 0x02, 0x02, 0x01, 0x00, 0x02, 0x05, 0x05, 0x00,     \
   0x03, 0x07, 0x01, 0x01, 0x02, 0x03, 0x00, 0x00, 0x02, 0x06, 0x01, 0x00,     \
   0x04, 0x0b, 0x08, 0x00, Word0B, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00}
const uint8_t SM90Compat[36] = TP_COMPAT(0);
const uint8_t SM100Compat[36] = TP_COMPAT(9);
const uint8_t SM120Compat[36] = TP_COMPAT(0x50);
const uint8_t SM121Compat[36] = TP_COMPAT(0);
#undef TP_COMPAT

const CubinLayout SM86Layout = {SM86Sections,
                                SM86Records,
                                SM86Phdrs,
                                /*FrameRela=*/false,
                                /*ReservedSmem=*/false,
                                /*ConstantAfterKernels=*/false,
                                /*FramePrologueBytes=*/0x10,
                                /*FdeInAddressOrder=*/false,
                                0,
                                0,
                                {},
                                0,
                                0,
                                /*NamedSmemCap=*/false,
                                {}};
const CubinLayout SM89Layout = {SM86Sections,
                                SM89Records,
                                SM86Phdrs,
                                /*FrameRela=*/false,
                                /*ReservedSmem=*/false,
                                /*ConstantAfterKernels=*/false,
                                /*FramePrologueBytes=*/0x10,
                                /*FdeInAddressOrder=*/false,
                                0,
                                0,
                                {},
                                0,
                                0,
                                /*NamedSmemCap=*/false,
                                {}};
const CubinLayout SM90Layout = {SM90Sections,
                                SM90Records,
                                SM90Phdrs,
                                /*FrameRela=*/true,
                                /*ReservedSmem=*/true,
                                /*ConstantAfterKernels=*/true,
                                /*FramePrologueBytes=*/0,
                                /*FdeInAddressOrder=*/true,
                                14,
                                18,
                                SM90Compat,
                                /*SwWarValue=*/8,
                                /*ReservedWindowBytes=*/0,
                                /*NamedSmemCap=*/false,
                                {}};
// Blackwell (E, ptxas 13.0): sm_90's layout with the Mercury sections, a
// 0x40-byte reserved window, the named .nv.reservedSmem.cap, 36 zero bytes
// after .shstrtab; SW_WAR [8] on sm_100, [0] on sm_120/121.
constexpr CubinLayout makeBlackwellLayout(ArrayRef<uint8_t> Compat,
                                          uint32_t SwWar) {
  return {BlackwellSections,
          BlackwellRecords,
          SM90Phdrs,
          /*FrameRela=*/true,
          /*ReservedSmem=*/true,
          /*ConstantAfterKernels=*/true,
          /*FramePrologueBytes=*/0,
          /*FdeInAddressOrder=*/true,
          36,
          0,
          Compat,
          SwWar,
          /*ReservedWindowBytes=*/0x40,
          /*NamedSmemCap=*/true,
          BlackwellMercRecords};
}
const CubinLayout SM100Layout = makeBlackwellLayout(SM100Compat, 8);
const CubinLayout SM120Layout = makeBlackwellLayout(SM120Compat, 0);
const CubinLayout SM121Layout = makeBlackwellLayout(SM121Compat, 0);

// Blackwell's SASS-only flavour (Module::SassOnly, what tp-llc writes): the
// layout above without the Mercury sections and their records -- sm_90's
// section list, Blackwell's records, window, symbol, compat and slack.  No
// ptxas cubin confirms it (ptxas 13 writes only capmerc; docs/targets.md).
constexpr CubinLayout withoutMercury(const CubinLayout &L) {
  return {SM90Sections,         L.KernelRecords,       L.Phdrs,
          L.FrameRela,          L.ReservedSmem,        L.ConstantAfterKernels,
          L.FramePrologueBytes, L.FdeInAddressOrder,   L.ShStrSlackBase,
          L.ShStrSlackPerKernel, L.CompatBytes,        L.SwWarValue,
          L.ReservedWindowBytes, L.NamedSmemCap,       {}};
}
const CubinLayout SM100SassLayout = withoutMercury(SM100Layout);
const CubinLayout SM120SassLayout = withoutMercury(SM120Layout);
const CubinLayout SM121SassLayout = withoutMercury(SM121Layout);

/// The layouts by the names td/Targets.td's CubinLayoutOf gives them.
const std::pair<StringRef, const CubinLayout *> NamedLayouts[] = {
    {"SM86", &SM86Layout},           {"SM89", &SM89Layout},
    {"SM90", &SM90Layout},           {"SM100", &SM100Layout},
    {"SM120", &SM120Layout},         {"SM121", &SM121Layout},
    {"SM100Sass", &SM100SassLayout}, {"SM120Sass", &SM120SassLayout},
    {"SM121Sass", &SM121SassLayout}};

/// The layout of an sm_<SM> cubin (the target's CubinLayoutOf), or null for
/// an SM no target has; \p SassOnly: the layout without the Mercury copy
/// (null where the target's cubins have none).
const CubinLayout *getLayout(unsigned SM, bool SassOnly = false) {
  for (unsigned I = 0; I < sass::getNumTargets(); ++I) {
    const sass::TargetInfo &T = sass::getTargetInfo(sass::Target(I));
    if (T.SM != SM)
      continue;
    StringRef Name = SassOnly ? T.SassOnlyCubinLayout : T.CubinLayout;
    for (const auto &L : NamedLayouts)
      if (L.first == Name)
        return L.second;
    assert(Name.empty() && "td names a layout CubinLayout.cpp lacks");
    return nullptr;
  }
  return nullptr;
}

// .nv.rel.action: fixed 16 bytes (E; the same in tinygrad's builder).
const uint8_t RelActionBytes[16] = {0x73, 0, 0, 0,    0,    0, 0,    0,
                                    0,    0, 0, 0x11, 0x25, 0, 0x05, 0x36};
// MERCURY_FINALIZER_OPTIONS of every .nv.merc.nv.info.K (E: the same 52
// bytes in every Blackwell kernel and target of ptxas 13.0 V13.0.88).
const uint8_t MercFinalizerOptions[52] = {
    0x8a, 0x9d, 0x22, 0xa4, 0xb1, 0x9d, 0x14, 0x6d, 0x00, 0xb4, 0x2a, 0xf3, 0xf7,
    0x58, 0x03, 0x8e, 0x0c, 0x07, 0x0a, 0x1b, 0xe2, 0xde, 0x8a, 0xd7, 0x52, 0x63,
    0x87, 0x0c, 0xd7, 0x2b, 0x07, 0x00, 0xcd, 0x2b, 0x8a, 0x12, 0x4e, 0x4c, 0x16,
    0x24, 0xba, 0x19, 0xf5, 0xf0, 0x27, 0x94, 0x6a, 0x02, 0x1a, 0x00, 0x00, 0x00};
// The Mercury sections' flag (E), section types and relocation types.
constexpr uint64_t SHF_MERC = 0x10000000;
constexpr uint32_t SHT_CAPMERC = 0x70000016, SHT_MERC_INFO = 0x70000083,
                   SHT_MERC_RELA = 0x70000082, SHT_MERC_SHARED = 0x70000015,
                   SHT_MERC_SYMTAB = 0x70000085;
constexpr uint32_t R_MERC_64 =
    0x1003d;                       // (.nv.merc.rela.text.K's: CubinBuild.h)
constexpr unsigned StrtabGap = 21; // zero bytes before the first .rel.text.K
constexpr char SmemCapName[] = ".nv.reservedSmem.cap"; // 21 bytes with NUL

bool has(ArrayRef<SectionGroup> L, SectionGroup X) { return is_contained(L, X); }

/// A symbol table's bytes; \p LocalsEnd: one past its last LOCAL symbol.
void serializeSymbols(ArrayRef<Symbol> Syms, std::vector<uint8_t> &Bytes,
                      uint32_t &LocalsEnd) {
  for (size_t I = 0; I < Syms.size(); ++I) {
    const Symbol &S = Syms[I];
    if (S.binding() == ELF::STB_LOCAL)
      LocalsEnd = I + 1;
    put<uint32_t>(Bytes, S.NameOffset);
    Bytes.push_back(S.Info);
    Bytes.push_back(S.Other);
    put<uint16_t>(Bytes, S.Shndx);
    put<uint64_t>(Bytes, S.Value);
    put<uint64_t>(Bytes, S.Size);
  }
}

} // namespace

namespace detail {
/// The checks every layout makes of a kernel before writing it: what the
/// cubin's fields can hold and what ptxas's layout is modelled for.
Error checkKernel(const Kernel &K, const TargetInfo &T, bool SassOnly) {
  const CubinLayout &L =
      *(SassOnly ? getLayout(T.SM, true) : getLayout(T.SM));
  if (K.Name.empty())
    return makeError("a kernel has an empty name");
  if (K.Code.empty() || K.Code.size() % 128)
    return detail::kernelError(
        K, "code size " + hex(K.Code.size()) +
               " is not a positive multiple of 128 bytes "
               "(pad with BRA-to-self and NOPs as ptxas does)");
  if (K.RegCount > T.MaxRegisters)
    return detail::kernelError(K, Twine(K.RegCount) + " registers, at most " +
                                      Twine(T.MaxRegisters));
  if (!K.SharedAlign || !isPowerOf2_64(K.SharedAlign))
    return detail::kernelError(K, "shared alignment is not a power of two");
  if (K.CfaBlockEnd < std::max<uint32_t>(L.FramePrologueBytes, 16) ||
      K.CfaBlockEnd > K.Code.size() || K.CfaBlockEnd % CodeAlign)
    return detail::kernelError(K, "the first block end " + hex(K.CfaBlockEnd) +
                                      " is not in the code");
  for (uint32_t E : K.ExitOffsets)
    if (E % 16 || E >= K.Code.size())
      return detail::kernelError(K, "EXIT offset " + hex(E) +
                                        " is not an instruction of the code");
  for (size_t I = 0; I < K.Params.size(); ++I) {
    const KernelParam &KP = K.Params[I];
    if (KP.Size == 0 || KP.Size >= (1u << 14) || KP.Offset > 0xffff ||
        KP.Flags > 0xfff)
      return detail::kernelError(K, "parameter " + Twine(I) + " (offset " +
                                        Twine(KP.Offset) + ", size " +
                                        Twine(KP.Size) + ") cannot be encoded");
  }
  if (Error E = checkExitPoint(K, /*Mercury=*/false))
    return E;
  if (Error E = checkStackFrame(K, L.FramePrologueBytes))
    return E;
  if (K.MaxThreads && K.ReqNTid)
    return detail::kernelError(K, ".maxntid and .reqntid cannot both be "
                                  "given (ptxas rejects it too)");
  if (T.ParamBase + K.paramBytes() > 0xffff)
    return detail::kernelError(K, "parameters too large");
  const bool Merc = has(L.Sections, SectionGroup::CapMerc);
  if (Merc && !K.Mercury)
    return detail::kernelError(
        K, "sm_" + Twine(T.SM) +
               " cubins carry each kernel's Mercury code "
               "(.nv.capmerc.text.K), which this kernel lacks");
  if (!Merc && K.Mercury)
    return SassOnly ? detail::kernelError(K, "a SASS-only cubin (.binary_kind "
                                             "sass) has no Mercury code")
                    : detail::kernelError(K, "Mercury code exists only in "
                                             "sm_100/120/121 cubins, not sm_" +
                                                 Twine(T.SM));
  if (Error E = detail::checkCallees(K, SassOnly))
    return E;
  if (Error E = detail::checkConstant2(K, T.SM))
    return E;
  if (Error E = detail::checkMercuryCallRelocs(K))
    return E;
  if (K.Mercury) {
    const MercuryCode &MC = *K.Mercury;
    if (MC.Bytes.empty() || MC.CfaBlockEnd > MC.CodeSize)
      return detail::kernelError(
          K, "the Mercury code is empty or its first block end " +
                 hex(MC.CfaBlockEnd) + " is past its size " + hex(MC.CodeSize));
    for (uint32_t E : MC.ExitOffsets)
      if (E >= MC.CodeSize)
        return detail::kernelError(K, "Mercury EXIT offset " + hex(E) +
                                          " is past the code size " +
                                          hex(MC.CodeSize));
    if (Error E = checkExitPoint(K, /*Mercury=*/true))
      return E;
  }
  return Error::success();
}

uint32_t fdePrologueBytes(unsigned SM) {
  const CubinLayout *L = getLayout(SM);
  return L ? L->FramePrologueBytes : 0;
}

bool writesFixedRecord(unsigned SM, const NvInfoRecord &R) {
  const CubinLayout *L = getLayout(SM);
  if (!L)
    return false;
  if (R == NvInfoRecord::hval(NvAttr::SPARSE_MMA_MASK, 0))
    return is_contained(L->KernelRecords, Rec::SparseMmaMask);
  if (R == NvInfoRecord::sval(NvAttr::SW_WAR, {L->SwWarValue}))
    return is_contained(L->KernelRecords, Rec::SwWar);
  if (R == NvInfoRecord::bval(NvAttr::VRC_CTA_INIT_COUNT, 0))
    return is_contained(L->KernelRecords, Rec::VrcCtaInitCount);
  return false;
}

ArrayRef<uint8_t> getDefaultCompatBytes(unsigned SM) {
  const CubinLayout *L = getLayout(SM);
  return L ? L->CompatBytes : ArrayRef<uint8_t>();
}

bool recordsSharedAddressing(unsigned SM) {
  const CubinLayout *L = getLayout(SM);
  return L && has(L->Sections, SectionGroup::RelaText);
}
} // namespace detail

namespace {
/// Writes one cubin from a checked Module in ptxas 13's layout L, one step
/// a method, in the order the steps depend on each other: the section
/// indices, the string tables, the symbols (which name sections and
/// strings), .debug_frame and .nv.info (which name symbols), the sections
/// themselves, the ELF header and the program headers (which need the
/// file layout).
class CubinBuilder {
public:
  CubinBuilder(const Module &M, const TargetInfo &T, const CubinLayout &L)
      : M(M), T(T), L(L), N(M.Kernels.size()),
        RelaText(has(L.Sections, SectionGroup::RelaText)),
        Merc(has(L.Sections, SectionGroup::CapMerc)), ConstSym(N), KernelSym(N),
        MercKernelSym(N), CalleeSym(N), CalleeFrameRel(N),
        MercCalleeFrameRel(N), KernelInfo(N), MercKernelInfo(N),
        Data(M, /*Sm90Names=*/L.FrameRela, /*Mercury=*/Merc) {
    for (size_t I = 0; I < N && FirstSharedUser < 0; ++I)
      if (addressesShared(M.Kernels[I]))
        FirstSharedUser = int(I);
  }

  CubinFile build() {
    planSections();
    buildStringTables();
    buildSymbols();
    buildDebugFrame();
    buildNvInfo();
    buildSections();
    buildHeader();
    buildProgramHeaders();
    return std::move(F);
  }

private:
  /// One section of the plan: a piece, and its kernel for per-kernel
  /// pieces (-1 otherwise, and for sm_90's reserved shared section).
  struct Sec {
    SectionGroup What;
    int Kernel = -1;
  };

  bool addressesShared(const Kernel &K) const {
    return RelaText && K.emitsSharedSection() && !K.SharedUnused;
  }
  /// sm_90 writes .rela.text.K (empty) for a kernel that addresses shared
  /// memory or has callees (E, test/Object/Inputs/calls, CubinCalls.cpp).
  bool writesRelaText(const Kernel &K) const {
    return addressesShared(K) || (RelaText && !K.Callees.empty());
  }
  uint32_t secOf(SectionGroup What, int K = -1) const { return Index.at({What, K}); }

  /// The section indices, piece by piece in the layout's order.
  void planSections();
  /// .shstrtab and .strtab (the same names in ptxas's two orders).
  void buildStringTables();
  /// The symbol table: section symbols, the reserved-shared symbols, the
  /// kernels' entry symbols.
  void buildSymbols();
  /// A CIE and an FDE per kernel, in section order; the relocations of the
  /// FDEs' initial locations, last kernel first.
  void buildDebugFrame();
  /// .nv.info (per-kernel REGCOUNT, FRAME_SIZE, MIN_STACK_SIZE) and each
  /// .nv.info.K.
  void buildNvInfo();
  /// The records of .nv.info.K for kernel \p I, in the layout's order
  /// (with \p Mercury: of .nv.merc.nv.info.K).
  std::vector<NvInfoRecord> kernelRecords(size_t I, bool Mercury) const;
  /// Appends to \p Frame a CIE and an FDE per kernel (the Mercury code's
  /// with \p Mercury), after each kernel's its callees' (CalleeFrameRel);
  /// the offset of each kernel FDE's initial location to \p Loc.
  void appendFrames(bool Mercury, std::vector<uint8_t> &Frame,
                    std::vector<uint64_t> &Loc);
  /// The Mercury symbol table: .symtab's symbols but those of
  /// .nv.constant0.K, each naming the Mercury copy of its section.
  void buildMercSymbols();
  /// The sections themselves, in plan order.  The string tables', symbol
  /// table's, .debug_frame's and .nv.info.K's bytes move into their
  /// sections (each is built for one section and read by no later step).
  void buildSections();
  /// Section \p What (a Mercury piece) of kernel \p I (-1: none).
  Section mercurySection(SectionGroup What, int I) const;
  void buildHeader();
  /// The file layout, then the program headers over it.
  void buildProgramHeaders();

  const Module &M;
  const TargetInfo &T;
  const CubinLayout &L;
  const size_t N;
  const bool RelaText;
  const bool Merc; ///< the layout has the Mercury sections
  int FirstSharedUser = -1; ///< the first kernel that addresses shared memory

  std::vector<Sec> Order{Sec{SectionGroup::ShStrTab}}; ///< [0] the null section
  std::map<std::pair<SectionGroup, int>, uint32_t> Index;
  StrTab ShStr, Str;
  std::vector<Symbol> Syms{Symbol()};
  std::vector<uint32_t> ConstSym, KernelSym, MercKernelSym;
  /// Each kernel's callees' symbols and .debug_frame (and
  /// .nv.merc.debug_frame) relocations (CubinCalls.cpp).
  std::vector<std::vector<uint32_t>> CalleeSym;
  std::vector<std::vector<detail::CalleeFrameReloc>> CalleeFrameRel,
      MercCalleeFrameRel;
  /// .nv.merc.symtab's index of each .symtab symbol it copies.
  std::map<uint32_t, uint32_t> MercSymOf;
  int CapSym = -1, MercCapSym = -1; ///< .nv.reservedSmem.cap, if any
  uint32_t LocalsEnd = 0, MercLocalsEnd = 0;
  std::vector<uint8_t> SymBytes, MercSymBytes;
  std::vector<uint8_t> Frame, FrameRel, MercFrame, MercFrameRel;
  std::vector<NvInfoRecord> ModInfo, MercModInfo;
  std::vector<std::vector<uint8_t>> KernelInfo, MercKernelInfo;
  DataPlan Data; ///< the module's variables (CubinGlobals.cpp)
  CubinFile F;

  /// The DataSection of a data group, if \p What is one.
  static Optional<DataSection> dataSection(SectionGroup What);
  /// The DataSection whose Mercury copy \p What is, if it is one.
  static Optional<DataSection> mercDataSection(SectionGroup What);
  uint32_t secOfMercData(DataSection S) const {
    for (SectionGroup G :
         {SectionGroup::MercAddrRel, SectionGroup::MercAddresses,
          SectionGroup::MercConstData, SectionGroup::MercInitData})
      if (mercDataSection(G) == S)
        return secOf(G);
    llvm_unreachable("a Mercury data section");
  }
  uint32_t secOfData(DataSection S) const {
    for (SectionGroup G : {SectionGroup::AddrRel, SectionGroup::Addresses,
                           SectionGroup::ConstData, SectionGroup::InitData,
                           SectionGroup::ZeroData})
      if (dataSection(G) == S)
        return secOf(G);
    llvm_unreachable("a data section");
  }
};

Optional<DataSection> CubinBuilder::mercDataSection(SectionGroup What) {
  switch (What) {
  case SectionGroup::MercAddrRel:
    return DataSection::AddressRel;
  case SectionGroup::MercAddresses:
    return DataSection::Addresses;
  case SectionGroup::MercConstData:
    return DataSection::Const;
  case SectionGroup::MercInitData:
    return DataSection::Init;
  default:
    return None;
  }
}

Optional<DataSection> CubinBuilder::dataSection(SectionGroup What) {
  switch (What) {
  case SectionGroup::AddrRel:
    return DataSection::AddressRel;
  case SectionGroup::Addresses:
    return DataSection::Addresses;
  case SectionGroup::ConstData:
    return DataSection::Const;
  case SectionGroup::InitData:
    return DataSection::Init;
  case SectionGroup::ZeroData:
    return DataSection::Zero;
  default:
    return None;
  }
}

/// \p Groups with ConstData before Addresses (and their Mercury copies)
/// where \p ConstFirst (DataPlan::constFirst).
std::vector<SectionGroup> dataGroupsInOrder(ArrayRef<SectionGroup> Groups,
                                            bool ConstFirst) {
  std::vector<SectionGroup> Out(Groups.begin(), Groups.end());
  if (!ConstFirst)
    return Out;
  for (auto [A, B] : {std::make_pair(SectionGroup::Addresses,
                                     SectionGroup::ConstData),
                      std::make_pair(SectionGroup::MercAddresses,
                                     SectionGroup::MercConstData)}) {
    auto IA = find(Out, A), IB = find(Out, B);
    if (IA != Out.end() && IB != Out.end())
      std::iter_swap(IA, IB);
  }
  return Out;
}

void CubinBuilder::planSections() {
  auto Add = [&](SectionGroup What, int K) {
    Index[{What, K}] = Order.size();
    Order.push_back({What, K});
  };
  for (SectionGroup What : dataGroupsInOrder(L.Sections, Data.constFirst())) {
    switch (What) {
    case SectionGroup::Constant:
      for (size_t I = 0; I < N; ++I) {
        if (!M.Kernels[I].Constant2.empty())
          Add(SectionGroup::Constant2, I);
        Add(What, I);
      }
      break;
    case SectionGroup::KernelInfo:
    case SectionGroup::Text:
    case SectionGroup::CapMerc:
    case SectionGroup::MercKernelInfo:
      for (size_t I = 0; I < N; ++I)
        Add(What, I);
      break;
    case SectionGroup::MercRelaText:
      for (size_t I = 0; I < N; ++I)
        if (!M.Kernels[I].Mercury->CapRelocs.empty() ||
            !M.Kernels[I].Mercury->CallRelocs.empty())
          Add(What, I);
      break;
    case SectionGroup::RelaText:
      for (size_t I = 0; I < N; ++I)
        if (writesRelaText(M.Kernels[I]))
          Add(What, I);
      break;
    case SectionGroup::Shared:
      for (size_t I = 0; I < N; ++I) {
        if (M.Kernels[I].emitsSharedSection())
          Add(What, I);
        if (I == 0 && L.ReservedSmem)
          Add(What, -1);
      }
      break;
    default:
      if (Optional<DataSection> D = dataSection(What))
        if (!Data.has(*D))
          break;
      if (Optional<DataSection> D = mercDataSection(What))
        if (!Data.has(*D))
          break;
      Add(What, -1);
    }
  }
}

void CubinBuilder::buildStringTables() {
  for (StrTab *Tab : {&ShStr, &Str}) {
    const bool IsStr = Tab == &Str;
    for (const char *S : {".shstrtab", ".strtab", ".symtab", ".symtab_shndx",
                          ".note.nv.tkinfo", ".note.nv.cuinfo", ".nv.info"})
      Tab->add(S);
    if (has(L.Sections, SectionGroup::Compat))
      Tab->add(".nv.compat");
    for (size_t I = 0; I < N; ++I) {
      const Kernel &K = M.Kernels[I];
      Tab->add(".text.", K.Name);
      Tab->add(".nv.info.", K.Name);
      Tab->add(".nv.shared.", K.Name);
      if (I == 0 && L.ReservedSmem) {
        if (IsStr)
          Tab->add(".nv.reservedSmem.offset0");
        Tab->add(".nv.shared.reserved.0");
        if (IsStr)
          Tab->add("__nv_reservedSMEM_offset_0_alias");
      }
      // The variables before the callees (E: globals/global_callee.ptx).
      if (I == 0)
        Data.addGroupNames(*Tab, IsStr);
      if (IsStr)
        detail::addCalleeNames(*Tab, K);
      if (IsStr && int(I) == FirstSharedUser) {
        if (L.NamedSmemCap)
          Tab->add(SmemCapName);
        else
          Tab->Bytes.insert(Tab->Bytes.end(), StrtabGap, 0);
      }
      // A kernel that addresses an .extern: the names only (E).
      if (writesRelaText(K) || K.UsesExtern) {
        Tab->add(".rel.text.", K.Name);
        if (RelaText)
          Tab->add(".rela.text.", K.Name);
      }
      if (!L.ConstantAfterKernels) {
        if (!K.Constant2.empty())
          Tab->add(detail::constant2Name(K));
        // .strtab lists .rel.nv.constant0.K first, .shstrtab second.
        Tab->add(IsStr ? ".rel.nv.constant0." : ".nv.constant0.", K.Name);
        Tab->add(IsStr ? ".nv.constant0." : ".rel.nv.constant0.", K.Name);
      }
    }
    Tab->add(".debug_frame");
    Data.addRelocationNames(*Tab, IsStr);
    for (const char *S : {".rel.debug_frame", ".rela.debug_frame",
                          ".nv.callgraph", ".nv.prototype"})
      Tab->add(S);
    if (has(L.Sections, SectionGroup::RelAction))
      Tab->add(".nv.rel.action");
    if (IsStr)
      for (size_t I = 0; I < N; ++I) {
        Tab->add(M.Kernels[I].Name);
        if (I == 0)
          Data.addVisibleNames(*Tab);
      }
    if (IsStr)
      Data.addNamesAfterKernels(*Tab);
    if (L.ConstantAfterKernels)
      for (const Kernel &K : M.Kernels)
        Tab->add(".nv.constant0.", K.Name);
  }
  // The Mercury sections' names, in section order, in .shstrtab only.
  for (const Sec &S : Order) {
    const StringRef K = S.Kernel >= 0 ? StringRef(M.Kernels[S.Kernel].Name) : "";
    switch (S.What) {
    case SectionGroup::CapMerc:
      ShStr.add(".nv.capmerc.text.", K);
      break;
    case SectionGroup::MercFrame:
      ShStr.add(".nv.merc.debug_frame");
      break;
    case SectionGroup::MercNvInfo:
      ShStr.add(".nv.merc.nv.info");
      break;
    case SectionGroup::MercKernelInfo:
      ShStr.add(".nv.merc.nv.info.", K);
      break;
    case SectionGroup::MercRelaText:
      ShStr.add(".nv.merc.rela.text.", K);
      break;
    case SectionGroup::MercFrameRel:
      ShStr.add(".nv.merc.rela.debug_frame");
      break;
    case SectionGroup::MercSharedReserved:
      ShStr.add(".nv.merc.nv.shared.reserved.0");
      break;
    case SectionGroup::MercSymTab:
      ShStr.add(".nv.merc.symtab");
      break;
    default:
      if (Optional<DataSection> D = mercDataSection(S.What))
        ShStr.add(DataPlan::mercurySectionName(*D));
      break;
    }
  }
}

void CubinBuilder::buildSymbols() {
  auto AddSym = [&](uint32_t NameOff, uint8_t Info, uint8_t Other,
                    uint16_t Shndx, uint64_t Size, uint64_t Value = 0) {
    Symbol S;
    S.NameOffset = NameOff;
    S.Info = Info;
    S.Other = Other;
    S.Shndx = Shndx;
    S.Size = Size;
    S.Value = Value;
    Syms.push_back(S);
    return static_cast<uint32_t>(Syms.size() - 1);
  };
  const uint8_t LocalSection = ELF::STB_LOCAL << 4 | ELF::STT_SECTION;
  auto SectionSym = [&](StringRef Name, uint32_t Sec) {
    return AddSym(Str.at(Name), LocalSection, 0, Sec, 0);
  };
  SectionSym(".note.nv.tkinfo", secOf(SectionGroup::TkInfo));
  SectionSym(".note.nv.cuinfo", secOf(SectionGroup::CuInfo));
  for (size_t I = 0; I < N; ++I) {
    const Kernel &K = M.Kernels[I];
    SectionSym(".text." + K.Name, secOf(SectionGroup::Text, I));
    if (K.SharedBytes)
      SectionSym(".nv.shared." + K.Name, secOf(SectionGroup::Shared, I));
    if (I == 0 && L.ReservedSmem) {
      AddSym(Str.at(".nv.reservedSmem.offset0"),
             ELF::STB_WEAK << 4 | ELF::STT_OBJECT, 0, 0, 4,
             L.ReservedWindowBytes);
      AddSym(Str.at("__nv_reservedSMEM_offset_0_alias"),
             ELF::STB_WEAK << 4 | ELF::STT_NOTYPE, 0xa0,
             secOf(SectionGroup::Shared, -1), 0, L.ReservedWindowBytes);
    }
    if (I == 0) // before the callees', as the names
      Data.appendSymbols(
          Str, [&](DataSection D) { return secOfData(D); }, Syms);
    detail::appendCalleeSymbols(K, Str, secOf(SectionGroup::Text, I), Syms,
                                CalleeSym[I]);
    if (int(I) == FirstSharedUser && L.NamedSmemCap)
      CapSym = AddSym(Str.at(SmemCapName), ELF::STB_WEAK << 4 | ELF::STT_OBJECT,
                      0, 0, 4, T.ReservedSharedBytes);
    else if (int(I) == FirstSharedUser)
      AddSym(0, ELF::STB_LOCAL << 4 | ELF::STT_NOTYPE, ELF::STV_INTERNAL, 0, 0);
    if (!L.ConstantAfterKernels && !K.Constant2.empty())
      SectionSym(detail::constant2Name(K), secOf(SectionGroup::Constant2, I));
    if (!L.ConstantAfterKernels)
      ConstSym[I] =
          SectionSym(".nv.constant0." + K.Name, secOf(SectionGroup::Constant, I));
  }
  SectionSym(".debug_frame", secOf(SectionGroup::DebugFrame));
  SectionSym(".nv.callgraph", secOf(SectionGroup::Callgraph));
  if (has(L.Sections, SectionGroup::RelAction))
    SectionSym(".nv.rel.action", secOf(SectionGroup::RelAction));
  for (size_t I = 0; I < N; ++I) {
    const Kernel &K = M.Kernels[I];
    KernelSym[I] = AddSym(Str.at(K.Name), ELF::STB_GLOBAL << 4 | ELF::STT_FUNC,
                          STO_CUDA_ENTRY, secOf(SectionGroup::Text, I), K.Code.size());
    if (I == 0)
      Data.appendVisibleSymbols(
          Str, [&](DataSection D) { return secOfData(D); }, Syms);
  }
  if (L.ConstantAfterKernels)
    for (size_t I = 0; I < N; ++I)
      ConstSym[I] = SectionSym(".nv.constant0." + M.Kernels[I].Name,
                               secOf(SectionGroup::Constant, I));
  serializeSymbols(Syms, SymBytes, LocalsEnd);
  if (Merc)
    buildMercSymbols();
}

void CubinBuilder::buildMercSymbols() {
  // The Mercury copy of a section, where there is one.
  std::map<uint32_t, uint32_t> MercSection = {
      {secOf(SectionGroup::DebugFrame), secOf(SectionGroup::MercFrame)},
      {secOf(SectionGroup::Shared, -1),
       secOf(SectionGroup::MercSharedReserved)}};
  for (size_t I = 0; I < N; ++I)
    MercSection[secOf(SectionGroup::Text, I)] = secOf(SectionGroup::CapMerc, I);
  for (DataSection D :
       {DataSection::Addresses, DataSection::Const, DataSection::Init})
    if (Data.has(D))
      MercSection[secOfData(D)] = secOfMercData(D);
  std::vector<Symbol> MercSyms;
  for (size_t SI = 0; SI < Syms.size(); ++SI) {
    if (is_contained(ConstSym, SI))
      continue;
    Symbol S = Syms[SI];
    auto It = MercSection.find(S.Shndx);
    if (SI && It != MercSection.end())
      S.Shndx = It->second;
    // E: every Mercury symbol has value 0 (the reserved-window symbols
    // too) but a callee's; a kernel's size is its Mercury code's.
    S.Value = 0;
    for (size_t I = 0; I < N; ++I) {
      if (KernelSym[I] == SI) {
        MercKernelSym[I] = MercSyms.size();
        S.Size = M.Kernels[I].Mercury->CodeSize;
      }
      detail::toMercuryCalleeSymbol(M.Kernels[I], CalleeSym[I], SI, S);
    }
    MercSymOf[SI] = MercSyms.size();
    if (int(SI) == CapSym)
      MercCapSym = MercSyms.size();
    Data.toMercurySymbol(SI, MercSyms.size(), Str, S);
    MercSyms.push_back(S);
  }
  serializeSymbols(MercSyms, MercSymBytes, MercLocalsEnd);
}

void CubinBuilder::appendFrames(bool Mercury, std::vector<uint8_t> &Frame,
                                std::vector<uint64_t> &Loc) {
  // The Mercury copy's CIE has code alignment 1 (its FDE advances count
  // bytes), and its FDE takes sm_80/86's order with a 0x10-byte prologue
  // (E: multi_kernel.ptx's noparam steps back to its EXIT).
  const uint32_t Align = Mercury ? 1 : CodeAlign;
  const uint32_t Prologue = Mercury ? 0x10 : L.FramePrologueBytes;
  const bool AddressOrder = !Mercury && L.FdeInAddressOrder;
  for (size_t I = 0; I < N; ++I) {
    const Kernel &K = M.Kernels[I];
    const MercuryCode *MC = Mercury ? &*K.Mercury : nullptr;
    const uint32_t BlockEnd = MC ? MC->CfaBlockEnd : K.CfaBlockEnd;
    // The last EXIT, or where a kernel without one has its row
    // (CubinFrames.cpp; checkExitPoint).
    const uint32_t LastExit = *detail::fdeLastExit(K, Mercury);
    uint64_t CieOff = Frame.size();
    Frame.insert(Frame.end(), std::begin(CieBytes), std::end(CieBytes));
    Frame[CieOff + CieCodeAlignByte] = Align;
    std::vector<uint8_t> Body;
    put<uint64_t>(Body, CieOff);
    Loc.push_back(Frame.size() + 12 + Body.size());
    put<uint64_t>(Body, 0); // initial location: R_CUDA_64 to the kernel
    put<uint64_t>(Body, detail::kernelCodeEnd(K, Mercury));
    uint32_t Pc = 0;
    auto Advance = [&](uint32_t To) {
      Body.push_back(DW_CFA_advance_loc4);
      // Unsigned 32-bit difference (see FdeInAddressOrder).
      put<uint32_t>(Body, static_cast<uint32_t>(To - Pc) / Align);
      Pc = To;
    };
    auto DefineCfa = [&] {
      Body.insert(Body.end(), std::begin(DefCfa), std::end(DefCfa));
    };
    if (Prologue)
      Advance(Prologue);
    if (K.FrameSize) {
      appendStackFrameCfa(K, Mercury, AddressOrder, Align, Pc, Body);
    } else if (AddressOrder) {
      // A row at 0 is the initial one: not written (E: noparam.ptx).
      if (LastExit < BlockEnd && LastExit > Pc)
        Advance(LastExit);
      Advance(BlockEnd);
      DefineCfa();
      if (LastExit > BlockEnd)
        Advance(LastExit);
    } else {
      Advance(BlockEnd);
      DefineCfa();
      Advance(LastExit);
    }
    detail::appendFde(Frame, Body);
    detail::appendCalleeFrames(
        K, Mercury, Frame, (Mercury ? MercCalleeFrameRel : CalleeFrameRel)[I]);
  }
}

void CubinBuilder::buildDebugFrame() {
  // The relocations of \p Loc (each kernel's FDE location) and the
  // callees' \p Callee: per kernel (last first), its callees' FDEs last
  // first, its own FDE, its callees' CIEs last first (E, CubinCalls.cpp).
  auto Relocate = [&](bool Mercury, ArrayRef<uint64_t> Loc,
                      ArrayRef<std::vector<detail::CalleeFrameReloc>> Callee,
                      std::vector<uint8_t> &Out) {
    for (size_t I = N; I-- > 0;) {
      auto Reloc = [&](uint64_t Off, uint64_t Addend) {
        put<uint64_t>(Out, Off);
        // r_info = sym << 32 | R_CUDA_64 (2) or Mercury's R_MERC_64.
        put<uint64_t>(Out, Mercury
                               ? uint64_t(MercKernelSym[I]) << 32 | R_MERC_64
                               : uint64_t(KernelSym[I]) << 32 | 2);
        if (Mercury || L.FrameRela)
          put<uint64_t>(Out, Addend);
      };
      const auto &CR = Callee[I];
      for (size_t J = CR.size(); J-- > 0;)
        Reloc(CR[J].FdeLocation, CR[J].Offset);
      Reloc(Loc[I], 0);
      for (size_t J = CR.size(); J-- > 0;)
        Reloc(CR[J].CieAddress, 0);
    }
  };
  std::vector<uint64_t> Loc;
  appendFrames(/*Mercury=*/false, Frame, Loc);
  Relocate(/*Mercury=*/false, Loc, CalleeFrameRel, FrameRel);
  if (!Merc)
    return;
  Loc.clear();
  appendFrames(/*Mercury=*/true, MercFrame, Loc);
  Relocate(/*Mercury=*/true, Loc, MercCalleeFrameRel, MercFrameRel);
}

void CubinBuilder::buildNvInfo() {
  // .nv.info, or .nv.merc.nv.info: the same records naming the Mercury
  // symbols, with the callees' Mercury FRAME_SIZEs.
  auto ModuleRecords = [&](bool Mercury, std::vector<NvInfoRecord> &Out) {
    auto Sym = [&](uint32_t SI) { return Mercury ? MercSymOf.at(SI) : SI; };
    for (size_t I = N; I-- > 0;) {
      const Kernel &K = M.Kernels[I];
      Out.push_back(NvInfoRecord::sval(NvAttr::REGCOUNT,
                                       {Sym(KernelSym[I]), K.RegCount}));
      std::vector<uint32_t> Callees;
      for (uint32_t SI : CalleeSym[I])
        Callees.push_back(Sym(SI));
      detail::appendCalleeFrameSizes(K, Callees, Mercury, Out);
      Out.push_back(NvInfoRecord::sval(NvAttr::FRAME_SIZE,
                                       {Sym(KernelSym[I]), K.FrameSize}));
    }
    for (size_t I = 0; I < N; ++I)
      Out.push_back(
          NvInfoRecord::sval(NvAttr::MIN_STACK_SIZE,
                             {Sym(KernelSym[I]), M.Kernels[I].MinStackSize}));
  };
  ModuleRecords(/*Mercury=*/false, ModInfo);
  for (size_t I = 0; I < N; ++I)
    KernelInfo[I] = serializeNvInfo(kernelRecords(I, /*Mercury=*/false));
  if (!Merc)
    return;
  ModuleRecords(/*Mercury=*/true, MercModInfo);
  for (size_t I = 0; I < N; ++I)
    MercKernelInfo[I] = serializeNvInfo(kernelRecords(I, /*Mercury=*/true));
}

std::vector<NvInfoRecord> CubinBuilder::kernelRecords(size_t I,
                                                     bool Mercury) const {
  const Kernel &K = M.Kernels[I];
  const MercuryCode *MC = Mercury ? &*K.Mercury : nullptr;
  const uint32_t Bytes = K.paramBytes();
  const bool Params = !K.Params.empty();
  std::vector<NvInfoRecord> R;
  for (Rec What : Mercury ? L.MercRecords : L.KernelRecords) {
    switch (What) {
    case Rec::ApiVersion:
      R.push_back(
          NvInfoRecord::sval(NvAttr::CUDA_API_VERSION, {M.CudaApiVersion}));
      break;
    case Rec::SW2861232War:
      R.push_back(NvInfoRecord::nval(NvAttr::SW2861232_WAR));
      break;
    case Rec::ParamCBank:
      if (Params)
        R.push_back(NvInfoRecord::sval(
            NvAttr::PARAM_CBANK, {ConstSym[I], Bytes << 16 | T.ParamBase}));
      break;
    case Rec::CBankParamSize:
      if (Params)
        R.push_back(NvInfoRecord::hval(NvAttr::CBANK_PARAM_SIZE, Bytes));
      break;
    case Rec::KParams:
      for (size_t PI = K.Params.size(); PI-- > 0;) {
        const KernelParam &KP = K.Params[PI];
        KParamInfo Info;
        Info.Index = KP.Index;
        Info.Ordinal = static_cast<uint32_t>(PI);
        Info.Offset = KP.Offset;
        Info.Size = KP.Size;
        Info.Flags = KP.Flags;
        std::array<uint32_t, 3> W = Info.pack();
        R.push_back(NvInfoRecord::sval(NvAttr::KPARAM_INFO, W));
      }
      break;
    case Rec::SparseMmaMask:
      R.push_back(NvInfoRecord::hval(NvAttr::SPARSE_MMA_MASK, 0));
      break;
    case Rec::MaxRegCount:
      R.push_back(NvInfoRecord::hval(NvAttr::MAXREG_COUNT, K.MaxRegCount));
      break;
    case Rec::Barriers:
      if (K.NumBarriers)
        R.push_back(NvInfoRecord::bval(NvAttr::NUM_BARRIERS, K.NumBarriers));
      break;
    case Rec::Attr5F:
      R.push_back(NvInfoRecord::hval(NvAttr::Unnamed5F, T.Attr5F));
      break;
    case Rec::BeforeExit: {
      const auto &Other =
          MC ? MC->OtherInfoBeforeExit : K.OtherInfoBeforeExit;
      R.insert(R.end(), Other.begin(), Other.end());
      break;
    }
    case Rec::ExitOffsets: {
      const std::vector<uint32_t> &Exits = MC ? MC->ExitOffsets : K.ExitOffsets;
      if (!Exits.empty())
        R.push_back(NvInfoRecord::sval(NvAttr::EXIT_INSTR_OFFSETS, Exits));
      break;
    }
    case Rec::AfterExit: {
      const auto &Other = MC ? MC->OtherInfoAfterExit : K.OtherInfoAfterExit;
      R.insert(R.end(), Other.begin(), Other.end());
      break;
    }
    case Rec::CtaidZUsed:
      if (K.CtaidZUsed)
        R.push_back(NvInfoRecord::nval(NvAttr::CTAIDZ_USED));
      break;
    case Rec::MaxThreads:
      if (K.MaxThreads)
        R.push_back(NvInfoRecord::sval(NvAttr::MAX_THREADS, *K.MaxThreads));
      break;
    case Rec::ReqNTid:
      if (K.ReqNTid)
        R.push_back(NvInfoRecord::sval(NvAttr::REQNTID, *K.ReqNTid));
      break;
    case Rec::SwWar:
      R.push_back(NvInfoRecord::sval(NvAttr::SW_WAR, {L.SwWarValue}));
      break;
    case Rec::VrcCtaInitCount:
      R.push_back(NvInfoRecord::bval(NvAttr::VRC_CTA_INIT_COUNT, 0));
      break;
    case Rec::MercOptions: {
      std::vector<uint32_t> W(sizeof(MercFinalizerOptions) / 4);
      for (size_t J = 0; J < W.size(); ++J)
        W[J] = support::endian::read32le(MercFinalizerOptions + 4 * J);
      R.push_back(NvInfoRecord::sval(NvAttr::MERCURY_FINALIZER_OPTIONS, W));
      break;
    }
    }
  }
  return R;
}

void CubinBuilder::buildSections() {
  F.Sections.reserve(Order.size());
  F.Sections.push_back(Section());
  for (size_t SI = 1; SI < Order.size(); ++SI) {
    const int I = Order[SI].Kernel;
    const Kernel *K = I >= 0 ? &M.Kernels[I] : nullptr;
    const uint32_t Text = K ? secOf(SectionGroup::Text, I) : 0;
    switch (Order[SI].What) {
    case SectionGroup::ShStrTab:
      F.Sections.push_back(makeSection(".shstrtab", ELF::SHT_STRTAB, 0, 0, 0, 1,
                                       0, std::move(ShStr.Bytes)));
      break;
    case SectionGroup::StrTab:
      F.Sections.push_back(
          makeSection(".strtab", ELF::SHT_STRTAB, 0, 0, 0, 1, 0,
                      std::move(Str.Bytes)));
      break;
    case SectionGroup::SymTab:
      F.Sections.push_back(makeSection(".symtab", ELF::SHT_SYMTAB, 0,
                                       secOf(SectionGroup::StrTab), LocalsEnd, 8, 24,
                                       std::move(SymBytes)));
      break;
    case SectionGroup::DebugFrame:
      F.Sections.push_back(
          makeSection(".debug_frame", ELF::SHT_PROGBITS, 0, 0, 0, 1, 0,
                      std::move(Frame)));
      break;
    case SectionGroup::TkInfo:
      F.Sections.push_back(
          makeSection(".note.nv.tkinfo", ELF::SHT_NOTE, SHF_NOTE_TKINFO, 0, 0,
                      4, 0, makeNote(NoteTypeTkInfo, makeTkInfoDesc(M.Tool))));
      break;
    case SectionGroup::CuInfo: {
      // With .nv.compat, the note points at it (sh_info, SHF_INFO_LINK).
      const bool Compat = has(L.Sections, SectionGroup::Compat);
      F.Sections.push_back(makeSection(
          ".note.nv.cuinfo", ELF::SHT_NOTE,
          SHF_NOTE_CUINFO | (Compat ? SHF_CUDA_INFO_LINK : 0),
          secOf(SectionGroup::TkInfo), Compat ? secOf(SectionGroup::Compat) : 0, 4, 0,
          makeNote(NoteTypeCuInfo, makeCuInfoDesc(M.SM, M.CudaApiVersion))));
      break;
    }
    case SectionGroup::NvInfo:
      F.Sections.push_back(makeSection(".nv.info", SHT_CUDA_INFO, 0,
                                       secOf(SectionGroup::SymTab), 0, 4, 0,
                                       serializeNvInfo(ModInfo)));
      break;
    case SectionGroup::Compat:
      F.Sections.push_back(makeSection(".nv.compat", SHT_CUDA_COMPAT, 0, 0, 0,
                                       4, 0,
                                       M.Compat ? *M.Compat
                                                : std::vector<uint8_t>(
                                                      L.CompatBytes.begin(),
                                                      L.CompatBytes.end())));
      break;
    case SectionGroup::KernelInfo:
      F.Sections.push_back(makeSection(".nv.info." + K->Name, SHT_CUDA_INFO,
                                       SHF_CUDA_INFO_LINK, secOf(SectionGroup::SymTab),
                                       Text, 4, 0, std::move(KernelInfo[I])));
      break;
    case SectionGroup::Callgraph:
      F.Sections.push_back(makeSection(".nv.callgraph", SHT_CUDA_CALLGRAPH, 0,
                                       secOf(SectionGroup::SymTab), 0, 4, 8,
                                       bytesOf(CallgraphBytes)));
      break;
    case SectionGroup::RelAction:
      F.Sections.push_back(makeSection(".nv.rel.action", SHT_CUDA_RELOCINFO, 0,
                                       0, 0, 8, 8, bytesOf(RelActionBytes)));
      break;
    case SectionGroup::RelaText:
      F.Sections.push_back(makeSection(".rela.text." + K->Name, ELF::SHT_RELA,
                                       SHF_CUDA_INFO_LINK, secOf(SectionGroup::SymTab),
                                       Text, 8, 24));
      break;
    case SectionGroup::FrameRel:
      F.Sections.push_back(makeSection(
          L.FrameRela ? ".rela.debug_frame" : ".rel.debug_frame",
          L.FrameRela ? ELF::SHT_RELA : ELF::SHT_REL, SHF_CUDA_INFO_LINK,
          secOf(SectionGroup::SymTab), secOf(SectionGroup::DebugFrame), 8,
          L.FrameRela ? 24 : 16, std::move(FrameRel)));
      break;
    case SectionGroup::Constant2:
      F.Sections.push_back(detail::makeConstant2Section(*K, Text));
      break;
    case SectionGroup::Constant:
      F.Sections.push_back(
          makeSection(".nv.constant0." + K->Name, ELF::SHT_PROGBITS,
                      ELF::SHF_ALLOC | SHF_CUDA_INFO_LINK, 0, Text, 4, 0,
                      std::vector<uint8_t>(T.ParamBase + K->paramBytes(), 0)));
      break;
    case SectionGroup::Text: {
      uint32_t Info = KernelSym[I];
      if (T.RegCountInTextInfo)
        Info |= K->RegCount << 24;
      F.Sections.push_back(makeSection(".text." + K->Name, ELF::SHT_PROGBITS,
                                       ELF::SHF_ALLOC | ELF::SHF_EXECINSTR,
                                       secOf(SectionGroup::SymTab), Info, 128, 0,
                                       K->Code));
      break;
    }
    case SectionGroup::Shared:
      if (!K) {
        Section S = makeSection(".nv.shared.reserved.0", ELF::SHT_NOBITS,
                                ELF::SHF_WRITE | ELF::SHF_ALLOC, 0, 0, 1, 0);
        S.Size = L.ReservedWindowBytes;
        F.Sections.push_back(std::move(S));
      } else {
        Section S =
            makeSection(".nv.shared." + K->Name, ELF::SHT_NOBITS,
                        ELF::SHF_WRITE | ELF::SHF_ALLOC | SHF_CUDA_INFO_LINK, 0,
                        Text, K->SharedAlign, 0);
        S.Size = T.ReservedSharedBytes + K->SharedBytes;
        F.Sections.push_back(std::move(S));
      }
      break;
    case SectionGroup::CapMerc:
    case SectionGroup::MercFrame:
    case SectionGroup::MercNvInfo:
    case SectionGroup::MercKernelInfo:
    case SectionGroup::MercRelaText:
    case SectionGroup::MercFrameRel:
    case SectionGroup::MercSharedReserved:
    case SectionGroup::MercSymTab:
      F.Sections.push_back(mercurySection(Order[SI].What, I));
      break;
    case SectionGroup::AddrRel:
    case SectionGroup::Addresses:
    case SectionGroup::ConstData:
    case SectionGroup::InitData:
    case SectionGroup::ZeroData:
      F.Sections.push_back(Data.makeSection(
          *dataSection(Order[SI].What),
          [&](DataSection D) { return secOfData(D); },
          secOf(SectionGroup::SymTab)));
      break;
    case SectionGroup::MercAddrRel:
    case SectionGroup::MercAddresses:
    case SectionGroup::MercConstData:
    case SectionGroup::MercInitData:
      F.Sections.push_back(Data.makeMercurySection(
          *mercDataSection(Order[SI].What),
          [&](DataSection D) { return secOfMercData(D); },
          secOf(SectionGroup::MercSymTab)));
      break;
    }
  }
  for (Section &S : F.Sections)
    if (!S.Name.empty())
      S.NameOffset = ShStr.at(S.Name);
}

Section CubinBuilder::mercurySection(SectionGroup What, int I) const {
  const Kernel *K = I >= 0 ? &M.Kernels[I] : nullptr;
  const uint32_t SymTab = secOf(SectionGroup::MercSymTab);
  const uint64_t Linked = SHF_MERC | SHF_CUDA_INFO_LINK;
  switch (What) {
  case SectionGroup::CapMerc:
    return makeSection(".nv.capmerc.text." + K->Name, SHT_CAPMERC, SHF_MERC,
                       SymTab, MercKernelSym[I], 16, 0, K->Mercury->Bytes);
  case SectionGroup::MercFrame:
    return makeSection(".nv.merc.debug_frame", ELF::SHT_PROGBITS, SHF_MERC, 0,
                       0, 1, 0, MercFrame);
  case SectionGroup::MercNvInfo:
    return makeSection(".nv.merc.nv.info", SHT_MERC_INFO, SHF_MERC, SymTab, 0,
                       4, 0, serializeNvInfo(MercModInfo));
  case SectionGroup::MercKernelInfo:
    return makeSection(".nv.merc.nv.info." + K->Name, SHT_MERC_INFO, Linked,
                       SymTab, secOf(SectionGroup::CapMerc, I), 4, 0,
                       MercKernelInfo[I]);
  case SectionGroup::MercRelaText: {
    std::vector<uint8_t> Rela;
    for (uint32_t Off : K->Mercury->CapRelocs) {
      put<uint64_t>(Rela, Off);
      put<uint64_t>(Rela, uint64_t(MercCapSym) << 32 | detail::R_MERC_SMEM_CAP);
      put<uint64_t>(Rela, 0);
    }
    detail::appendMercuryCallRelocs(*K, MercKernelSym[I], Rela);
    return makeSection(".nv.merc.rela.text." + K->Name, SHT_MERC_RELA, Linked,
                       SymTab, secOf(SectionGroup::CapMerc, I), 8, 24, Rela);
  }
  case SectionGroup::MercFrameRel:
    return makeSection(".nv.merc.rela.debug_frame", SHT_MERC_RELA, Linked,
                       SymTab, secOf(SectionGroup::MercFrame), 8, 24,
                       MercFrameRel);
  case SectionGroup::MercSharedReserved:
    return makeSection(".nv.merc.nv.shared.reserved.0", SHT_MERC_SHARED,
                       SHF_MERC | ELF::SHF_WRITE | ELF::SHF_ALLOC, 0, 0, 1, 0);
  case SectionGroup::MercSymTab:
    return makeSection(".nv.merc.symtab", SHT_MERC_SYMTAB, SHF_MERC,
                       secOf(SectionGroup::StrTab), MercLocalsEnd, 8, 24,
                       MercSymBytes);
  default:
    llvm_unreachable("not a Mercury section");
  }
}

void CubinBuilder::buildHeader() {
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
  H.ShStrNdx = secOf(SectionGroup::ShStrTab);
}

void CubinBuilder::buildProgramHeaders() {
  uint64_t NoBitsMem = 0, WritableFileBytes = 0;
  int FirstNoBits = -1;
  for (size_t SI = 1; SI < F.Sections.size(); ++SI) {
    const Section &S = F.Sections[SI];
    // .nv.global.init's bytes come first in the writable LOAD (E).
    const bool InitData = Order[SI].What == SectionGroup::InitData;
    if (!S.isNoBits() && !InitData)
      continue;
    if (FirstNoBits < 0)
      FirstNoBits = SI;
    // Each block at its alignment (E, two_shared_swapped.ptx: 0x104 bytes
    // then a 32-aligned 0x30 give memsz 0x150).
    NoBitsMem = alignTo(NoBitsMem, S.AddrAlign) + S.Size;
    if (InitData)
      WritableFileBytes = NoBitsMem;
  }
  // Where the layout's section list has each group, for Range specs.
  auto InRange = [&](SectionGroup G, const PhdrSpec &PS) {
    if (G == SectionGroup::Constant2) // in Constant's place
      G = SectionGroup::Constant;
    auto Pos = [&](SectionGroup X) { return find(L.Sections, X); };
    return Pos(G) >= Pos(PS.First) && Pos(G) <= Pos(PS.Last);
  };
  std::vector<PhdrSpec> Specs;
  for (const PhdrSpec &PS : L.Phdrs)
    if ((PS.What != PhdrSpec::NoBits || FirstNoBits >= 0) &&
        (PS.What != PhdrSpec::Range ||
         any_of(Order, [&](const Sec &S) { return InRange(S.What, PS); })))
      Specs.push_back(PS);
  F.ProgramHeaders.resize(Specs.size());
  uint64_t Slack = 0;
  if (L.ShStrSlackBase || L.ShStrSlackPerKernel) {
    Slack = L.ShStrSlackBase;
    if (L.ShStrSlackPerKernel)
      for (const Kernel &K : M.Kernels)
        Slack += L.ShStrSlackPerKernel + K.Name.size();
  }
  layoutCubinFile(F, Slack, secOf(SectionGroup::StrTab),
                  Data.strTabSlack());
  // A Mercury data alias has its section's bytes (E: one file range, two
  // headers).
  for (size_t SI = 1; SI < Order.size(); ++SI)
    if (Optional<DataSection> D = mercDataSection(Order[SI].What))
      if (*D != DataSection::AddressRel) {
        const Section &Of = F.Sections[secOfData(*D)];
        F.Sections[SI].Offset = Of.Offset;
        F.Sections[SI].Size = Of.Size;
      }
  const uint64_t TableSize = F.ProgramHeaders.size() * 56;
  auto FirstOf = [&](const PhdrSpec &PS) -> const Section & {
    for (size_t SI = 1; SI < Order.size(); ++SI)
      if (InRange(Order[SI].What, PS))
        return F.Sections[SI];
    llvm_unreachable("a layout's program header names a missing piece");
  };
  auto LastOf = [&](const PhdrSpec &PS) -> const Section & {
    for (size_t SI = Order.size(); SI-- > 1;)
      if (InRange(Order[SI].What, PS))
        return F.Sections[SI];
    llvm_unreachable("a layout's program header names a missing piece");
  };
  for (size_t PI = 0; PI < Specs.size(); ++PI) {
    ProgramHeader &Ph = F.ProgramHeaders[PI];
    Ph.Type = Specs[PI].Type;
    Ph.Flags = Specs[PI].Flags;
    Ph.Align = 8;
    switch (Specs[PI].What) {
    case PhdrSpec::Table:
      Ph.Offset = F.Header.PhOff;
      Ph.FileSz = Ph.MemSz = TableSize;
      break;
    case PhdrSpec::Range: {
      const Section &A = FirstOf(Specs[PI]);
      const Section &B = LastOf(Specs[PI]);
      Ph.Offset = A.Offset;
      Ph.FileSz = Ph.MemSz = B.Offset + B.Size - A.Offset;
      break;
    }
    case PhdrSpec::NoBits:
      Ph.Offset = F.Sections[FirstNoBits].Offset;
      Ph.FileSz = WritableFileBytes;
      Ph.MemSz = NoBitsMem;
      break;
    }
  }
}
} // namespace

bool hasMercuryKind(unsigned SM) { return getLayout(SM, true) != nullptr; }

Expected<CubinFile> buildCubin(const Module &M) {
  const TargetInfo *T = getTargetInfo(M.SM);
  const CubinLayout *L = T ? getLayout(M.SM) : nullptr;
  if (!L)
    return makeError("cannot build a cubin for sm_" + Twine(M.SM) +
                     ": only " + sass::getTargetList() + " are supported");
  if (M.SassOnly && !(L = getLayout(M.SM, true)))
    return makeError("sm_" + Twine(M.SM) + " cubins have no SASS-only kind "
                     "(only Blackwell's have a Mercury copy to leave out)");
  if (M.Kernels.empty())
    return makeError("a cubin needs at least one kernel");
  if (M.Compat && !has(L->Sections, SectionGroup::Compat))
    return makeError("sm_" + Twine(M.SM) + " cubins have no .nv.compat");
  for (const Kernel &K : M.Kernels)
    if (Error E = checkKernel(K, *T, M.SassOnly))
      return E;
  if (Error E = checkGlobals(M))
    return E;
  return CubinBuilder(M, *T, *L).build();
}

} // namespace object
} // namespace tp
