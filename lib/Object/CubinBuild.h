//===- CubinBuild.h - Pieces every cubin layout writes ------*- C++ -*-===//
///
/// \file
/// Private to lib/Object: byte-level helpers, the fixed contents (call
/// graph, CIE, notes) that buildCubin writes (CubinLayout.cpp), and what
/// interpretCubin (Module.cpp) asks of the layout.  E = our decoding of
/// ptxas 13 cubins (SASS_FACTS.md section 3).
///
//===----------------------------------------------------------------------===//
#ifndef TP_LIB_OBJECT_CUBINBUILD_H
#define TP_LIB_OBJECT_CUBINBUILD_H

#include "tp/Object/Module.h"
#include "tp/Support/Diagnostics.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MathExtras.h"
#include <map>
#include <string>
#include <vector>

namespace tp {
namespace object {
namespace detail {

/// "kernel 'K': \p Why": the errors of buildCubin's checks of a kernel.
inline llvm::Error kernelError(const Kernel &K, const llvm::Twine &Why) {
  return makeError("kernel '" + K.Name + "': " + Why);
}

inline std::string hex(uint64_t V) {
  return "0x" + llvm::utohexstr(V, /*LowerCase=*/true);
}

template <typename T> inline void put(std::vector<uint8_t> &V, T X) {
  uint8_t B[sizeof(T)];
  llvm::support::endian::write<T, llvm::support::little,
                               llvm::support::unaligned>(B, X);
  V.insert(V.end(), B, B + sizeof(T));
}

// .nv.callgraph of a call-free module: the pairs (0,-1) .. (0,-4) (E).
inline constexpr uint8_t CallgraphBytes[32] = {
    0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0, 0xfe, 0xff, 0xff, 0xff,
    0, 0, 0, 0, 0xfd, 0xff, 0xff, 0xff, 0, 0, 0, 0, 0xfc, 0xff, 0xff, 0xff};
// The CIE ptxas 13 writes for every kernel (E): 64-bit DWARF, version 3,
// code alignment 4, data alignment -4, return register 0xffffffff;
// DW_CFA_def_cfa r(0x5000001) 0, DW_CFA_same_value r(0x50000ff),
// DW_CFA_same_value r(0x5000001), 3 x DW_CFA_nop.
inline constexpr uint8_t CieBytes[48] = {
    0xff, 0xff, 0xff, 0xff, 0x24, 0,    0,    0,    0,    0,    0,    0,
    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x03, 0x00, 0x04, 0x7c,
    0xff, 0xff, 0xff, 0xff, 0x0f, 0x0c, 0x81, 0x80, 0x80, 0x28, 0x00, 0x08,
    0xff, 0x81, 0x80, 0x28, 0x08, 0x81, 0x80, 0x80, 0x28, 0x00, 0x00, 0x00};
/// The CIE's code alignment factor (4; 1 in Blackwell's Mercury copy, E).
constexpr size_t CieCodeAlignByte = 22;
// DW_CFA_def_cfa r(0x5000001) 0 as ptxas encodes it.
inline constexpr uint8_t DefCfa[6] = {0x0c, 0x81, 0x80, 0x80, 0x28, 0x00};
constexpr uint8_t DW_CFA_advance_loc4 = 0x04;
constexpr uint32_t CodeAlign = 4;

// Kernels with a stack frame (CubinFrames.cpp).
/// The first basic block runs past the kernel's last EXIT.
bool firstBlockHoldsLastExit(const Kernel &K);
/// The bytes ptxas's FDE first advances over on sm_\p SM (0x10 on
/// sm_80/86/89, 0 on sm_90 and later; CubinLayout.cpp).
uint32_t fdePrologueBytes(unsigned SM);
/// The offset just past the first instruction of K.Code that moves the
/// stack pointer (InstrClassifier::movesStackPointer), 0 if none: the
/// FrameCfa the kernel form derives.
uint32_t deriveFrameCfa(const Kernel &K, const InstrClassifier &C);
/// What the stack-frame model supports (FrameSize 0: everything), with
/// \p Prologue the layout's FDE prologue bytes.
llvm::Error checkStackFrame(const Kernel &K, uint32_t Prologue);
/// Kernel::ExitPoint from the code (None with an EXIT; CubinFrames.cpp).
llvm::Optional<uint32_t> deriveExitPoint(const Kernel &K,
                                         const InstrClassifier &C);
/// The exit point an FDE's call-frame instructions \p Ops (after the
/// range; advances in units of \p Align) imply for a kernel without an
/// EXIT; None when they are not ptxas's shape.
llvm::Optional<uint32_t> readExitPoint(llvm::ArrayRef<uint8_t> Ops,
                                       uint32_t Align);
/// Where the FDE puts the last EXIT's row: the last EXIT, else the exit
/// point (of the Mercury copy when \p Mercury).
llvm::Optional<uint32_t> fdeLastExit(const Kernel &K, bool Mercury);
/// A kernel without an EXIT needs its exit point, inside its code; with
/// \p Mercury the same of its Mercury copy, whose stated point must also
/// follow its last EXIT.
llvm::Error checkExitPoint(const Kernel &K, bool Mercury);
/// Reads a stack frame's FDE (\p Ops: its call-frame instructions from the
/// first DW_CFA_def_cfa, at \p Pc): sets K.FrameCfa, and K.CfaBlockEnd to
/// the value the FDE implies (the first block end itself is not in it):
/// past the last EXIT when the frame is popped in the first block, else
/// \p Pc.
void readStackFrameCfa(Kernel &K, uint32_t Pc, llvm::ArrayRef<uint8_t> Ops);
/// Appends to \p Frame an FDE of body \p Body (from the CIE pointer on):
/// the 64-bit DWARF header (0xffffffff, the length), then \p Body padded
/// with DW_CFA_nops to a multiple of 8 bytes with the header.
void appendFde(std::vector<uint8_t> &Frame, std::vector<uint8_t> &Body);
/// The FDE's call-frame instructions after the prologue advance for a
/// kernel with a stack frame (its Mercury copy's when \p Mercury);
/// \p Pc is the FDE's current address, advanced in units of \p Align.
void appendStackFrameCfa(const Kernel &K, bool Mercury, bool AddressOrder,
                         uint32_t Align, uint32_t &Pc,
                         std::vector<uint8_t> &Body);

constexpr uint32_t NoteTypeCuInfo = 1000;       // .note.nv.cuinfo (E)
constexpr uint32_t NoteTypeTkInfo = 2000;       // .note.nv.tkinfo (E)
constexpr uint64_t SHF_NOTE_TKINFO = 0x2000000; // E
constexpr uint64_t SHF_NOTE_CUINFO = 0x1000000; // E
inline constexpr char NoteOwner[] = "NVIDIA Corp";

inline std::vector<uint8_t> makeNote(uint32_t Type,
                                     llvm::ArrayRef<uint8_t> Desc) {
  std::vector<uint8_t> N;
  put<uint32_t>(N, sizeof(NoteOwner));
  put<uint32_t>(N, Desc.size());
  put<uint32_t>(N, Type);
  N.insert(N.end(), NoteOwner, NoteOwner + sizeof(NoteOwner));
  N.insert(N.end(), Desc.begin(), Desc.end());
  return N;
}

/// tkinfo desc: u32 format, then the offsets of the object name, tool,
/// version, build id and options in the string blob that follows, the
/// blob padded to 4 bytes (E: 2, 0, 1, 7, 0x36, 0x60 for ptxas 13).
inline std::vector<uint8_t> makeTkInfoDesc(const ToolNote &T) {
  std::vector<uint8_t> Blob;
  std::vector<uint32_t> Offs;
  for (const std::string *S :
       {&T.ObjectName, &T.Tool, &T.Version, &T.BuildId, &T.Options}) {
    Offs.push_back(Blob.size());
    Blob.insert(Blob.end(), S->begin(), S->end());
    Blob.push_back(0);
  }
  Blob.resize(llvm::alignTo(Blob.size(), 4), 0);
  std::vector<uint8_t> D;
  put<uint32_t>(D, T.Format);
  for (uint32_t O : Offs)
    put<uint32_t>(D, O);
  D.insert(D.end(), Blob.begin(), Blob.end());
  return D;
}

/// cuinfo desc: u16 2, u16 SM, u16 CUDA API version, u16 0 (E).
inline std::vector<uint8_t> makeCuInfoDesc(unsigned SM, uint32_t Api) {
  std::vector<uint8_t> D;
  put<uint16_t>(D, 2);
  put<uint16_t>(D, SM);
  put<uint16_t>(D, Api);
  put<uint16_t>(D, 0);
  return D;
}

/// A string table built in insertion order, without suffix sharing.  A
/// name is appended straight into Bytes (a prefix and a kernel name
/// without a temporary string) and looked up in a hash map; a repeat is
/// cut off again and gets its first offset.
struct StrTab {
  std::vector<uint8_t> Bytes{0};
  llvm::StringMap<uint32_t> Index;
  StrTab() { Bytes.reserve(1024); }
  uint32_t add(llvm::StringRef S) { return add(S, llvm::StringRef()); }
  /// Adds the concatenation \p Prefix \p Name.
  uint32_t add(llvm::StringRef Prefix, llvm::StringRef Name) {
    const size_t Off = Bytes.size();
    Bytes.insert(Bytes.end(), Prefix.bytes_begin(), Prefix.bytes_end());
    Bytes.insert(Bytes.end(), Name.bytes_begin(), Name.bytes_end());
    llvm::StringRef Key(reinterpret_cast<const char *>(Bytes.data() + Off),
                        Bytes.size() - Off);
    auto Ins = Index.try_emplace(Key, uint32_t(Off));
    if (!Ins.second) {
      Bytes.resize(Off);
      return Ins.first->second;
    }
    Bytes.push_back(0);
    return uint32_t(Off);
  }
  uint32_t at(llvm::StringRef S) const {
    auto It = Index.find(S);
    if (It == Index.end())
      llvm::report_fatal_error("cubin string table: no name '" + S + "'");
    return It->second;
  }
};

/// The bytes of a fixed table.
template <size_t N>
inline std::vector<uint8_t> bytesOf(const uint8_t (&Table)[N]) {
  return std::vector<uint8_t>(Table, Table + N);
}

inline Section makeSection(const std::string &Name, uint32_t Type,
                           uint64_t Flags, uint32_t Link, uint32_t Info,
                           uint64_t Align, uint64_t EntSize,
                           std::vector<uint8_t> Data = {}) {
  Section S;
  S.Name = Name;
  S.Type = Type;
  S.Flags = Flags;
  S.Link = Link;
  S.Info = Info;
  S.AddrAlign = Align;
  S.EntSize = EntSize;
  S.Data = std::move(Data);
  S.Size = S.Data.size();
  return S;
}

/// The checks every layout makes of a kernel before writing it.
llvm::Error checkKernel(const Kernel &K, const TargetInfo &T,
                        bool SassOnly = false);

/// True when sm_\p SM's layout writes record \p R of .nv.info.K by itself,
/// whatever the kernel (sm_90: SPARSE_MMA_MASK 0, SW_WAR [8]).
bool writesFixedRecord(unsigned SM, const NvInfoRecord &R);

/// The .nv.compat bytes sm_\p SM's layout writes (empty without one).
llvm::ArrayRef<uint8_t> getDefaultCompatBytes(unsigned SM);

/// True when sm_\p SM's layout tells a kernel whose code addresses shared
/// memory from one that only has a .nv.shared.K (Kernel::SharedUnused).
bool recordsSharedAddressing(unsigned SM);

/// The sections that hold a module's variables (Module::Globals;
/// lib/Object/CubinGlobals.cpp).
enum class DataSection : uint8_t {
  AddressRel, ///< .rel.nv.constant4 (sm_90: .rela.nv.constant4)
  Addresses,  ///< .nv.constant4: each `.global`'s 64-bit address
  Const,      ///< .nv.constant3: the `.const` variables' bytes
  Init,       ///< .nv.global.init: the initialised `.global`s' bytes
  Zero,       ///< .nv.global (NOBITS): the other `.global`s
};

/// What buildCubin writes for Module::Globals: which DataSections exist,
/// their names in both string tables, the symbols, the sections.  The
/// layout's code (CubinLayout.cpp) calls it at its steps; everything about
/// the variables is here.
class DataPlan {
public:
  /// \p Sm90Names: sm_90's spelling (RELA, and the names ptxas writes as
  /// .nv.constant.pic / .nv.constant.user renamed in place, their tails
  /// zero bytes); \p Mercury: Blackwell's (sm_90's, but .strtab keeps the
  /// first names and adds the new ones after the kernels' names; the
  /// Mercury copies of the sections).
  DataPlan(const Module &M, bool Sm90Names, bool Mercury = false);
  bool has(DataSection S) const { return Present[unsigned(S)]; }
  /// Whether .nv.constant3 (and its Mercury copy) goes before
  /// .nv.constant4 (and its copy): the walk of kernel 0's group meets a
  /// `.const` before a `.global` (E: visible_order.ptx; ptxas places them
  /// in the order it makes them).
  bool constFirst() const;
  /// The section and variable names of kernel 0's group, in symbol order
  /// (variable names in .strtab only).
  void addGroupNames(StrTab &Tab, bool IsStr) const;
  /// The `.visible` variables' names in .strtab, after kernel 0's name.
  void addVisibleNames(StrTab &Tab) const;
  /// The relocation section's names, written after .debug_frame.
  void addRelocationNames(StrTab &Tab, bool IsStr) const;
  /// Blackwell's .strtab: .nv.constant4 / .nv.constant3 after the kernels'
  /// names.
  void addNamesAfterKernels(StrTab &Tab) const;
  /// The Mercury copy \p S of .symtab's symbol \p SI (section indices
  /// already mapped to the Mercury copies, value 0): a variable keeps its
  /// value and gets st_info 0x0d (`.visible`: 0x1d), st_other 0x20
  /// (`.global`) or 0x80
  /// (`.const`); .nv.constant4's and .nv.constant3's section symbols take
  /// ptxas's first names.
  void toMercurySymbol(size_t SI, size_t MercSI, const StrTab &Str,
                       Symbol &S);
  /// The Mercury copy of section \p S: .nv.merc.rela.nv.constant.pic, or
  /// a header aliasing the bytes of .nv.constant4 (.nv.merc.nv.constant.pic),
  /// .nv.constant3 (.nv.merc.nv.constant.user) or .nv.global.init
  /// (.nv.merc.nv.global.init), whose Offset and Size the caller copies
  /// from the section after the file layout.  \p MercSecOf: the Mercury
  /// copies' indices.
  Section makeMercurySection(DataSection S,
                             llvm::function_ref<uint32_t(DataSection)> MercSecOf,
                             uint32_t MercSymTab) const;
  static llvm::StringRef mercurySectionName(DataSection S);
  /// Zero bytes after .strtab (Blackwell: 23 with .nv.constant4, 3 more
  /// with .nv.constant3, E: kernel names of 1 to 8 characters; why is not
  /// known).
  uint64_t strTabSlack() const;
  /// Appends the section and variable symbols (kernel 0's group).
  void appendSymbols(const StrTab &Str,
                     llvm::function_ref<uint32_t(DataSection)> SecOf,
                     std::vector<Symbol> &Syms);
  /// Appends the `.visible` variables' GLOBAL symbols (after kernel 0's).
  void appendVisibleSymbols(const StrTab &Str,
                            llvm::function_ref<uint32_t(DataSection)> SecOf,
                            std::vector<Symbol> &Syms);
  /// Section \p S (its name offset is set by the caller).
  Section makeSection(DataSection S,
                      llvm::function_ref<uint32_t(DataSection)> SecOf,
                      uint32_t SymTab) const;

private:
  /// The variables in the order of kernel 0's group walk: the `.visible`
  /// ones, then the others, each in declaration order.
  std::vector<size_t> walkOrder() const;
  /// The `.global` variables of walkOrder(): .nv.constant4's slots.
  std::vector<size_t> slottedGlobals() const;
  void appendVariableSymbol(size_t I, const StrTab &Str,
                            llvm::function_ref<uint32_t(DataSection)> SecOf,
                            std::vector<Symbol> &Syms);

  const Module &M;
  const bool Sm90, Merc;
  bool Present[5] = {};
  std::vector<uint32_t> VarSym; ///< each variable's symbol index
  std::vector<uint32_t> MercVarSym; ///< ... in .nv.merc.symtab
  int SectionSymOf[5] = {-1, -1, -1, -1, -1}; ///< each section's symbol
};

/// The checks buildCubin makes of Module::Globals: not SASS-only,
/// names unique and not empty, sizes, alignments, offsets that do not
/// overlap within a section, initial bytes that match the size; a kernel
/// that UsesExtern only beside a visible `.global`.
llvm::Error checkGlobals(const Module &M);

/// Whether \p M has a visible `.global` variable, as which ptxas writes
/// an `.extern .global` (Kernel::UsesExtern needs one).
bool hasVisibleGlobal(const Module &M);

/// Reads Module::Globals out of \p F: the OBJECT symbols of .nv.global,
/// .nv.global.init and .nv.constant3 in symbol order, their bytes; each
/// variable's alignment is inferred (the section's for offset 0, else the
/// largest power of two that divides the offset and is at most the
/// section's alignment and the size): the cubin does not record it, and
/// with the offsets given it decides only the section's alignment, the
/// largest (the variable at offset 0 has it).  Sets Kernel::UsesExtern
/// where .shstrtab names .rel.text.K and no section has that name or
/// .rela.text.K.
void readGlobals(const CubinFile &F, llvm::ArrayRef<Symbol> Syms, Module &M);

/// The section variable \p V lives in.
DataSection sectionOf(const GlobalVar &V);

/// The relocations of \p F's .debug_frame: .rel.debug_frame (16-byte
/// entries), or on sm_90 and later .rela.debug_frame (24); Section is -1
/// when there are none.
struct FrameRelocs {
  int Section = -1;
  size_t EntrySize = 16;
};
FrameRelocs findFrameRelocs(const CubinFile &F);

/// The types of .nv.merc.rela.text.K's entries (E): a reference to
/// .nv.reservedSmem.cap (MercuryCode::CapRelocs, addend 0), and a call's
/// return address against the kernel (MercuryCode::CallRelocs,
/// CubinCalls.cpp).
constexpr uint32_t R_MERC_SMEM_CAP = 0x10003, R_MERC_CALL_RETURN = 0x10008;

// Kernels that call device functions (CubinCalls.cpp).
/// Reads each kernel's Callees: the LOCAL FUNC `$K$callee` symbols of
/// .text.K, their FRAME_SIZE records and FDEs.
void readCallees(const CubinFile &F, llvm::ArrayRef<Symbol> Syms, Module &M);
/// With callees: the first block ends at the first CALL to one (E).
void endFirstBlockAtCall(Kernel &K, const InstrClassifier &C);
/// Each callee's Mercury offset, its .nv.merc.nv.info FRAME_SIZE and its
/// .nv.merc.debug_frame FDE's instructions (Blackwell).
void readMercuryCallees(const CubinFile &F, Module &M);
/// The end of the kernel's own code (its FDE's range): the first callee;
/// with \p Mercury, in the Mercury code.
uint32_t kernelCodeEnd(const Kernel &K, bool Mercury = false);
/// Callee \p J's size in the Mercury code: to the next callee or the end.
uint32_t mercuryCalleeSize(const Kernel &K, size_t J);
/// Callees in address order after the kernel's code, in the Mercury code
/// too where the kernel has a Mercury copy; none in a SASS-only Blackwell
/// cubin (\p SassOnly).
llvm::Error checkCallees(const Kernel &K, bool SassOnly);
/// MercuryCode::CallRelocs: only with callees, offsets and return
/// addresses in the kernel's own Mercury code (before the first callee).
llvm::Error checkMercuryCallRelocs(const Kernel &K);
/// `.strtab`'s `$K$callee` names.
void addCalleeNames(StrTab &Str, const Kernel &K);
/// The callees' LOCAL FUNC symbols; \p Indices gets their indices.
void appendCalleeSymbols(const Kernel &K, const StrTab &Str, uint16_t TextSec,
                         std::vector<Symbol> &Syms,
                         std::vector<uint32_t> &Indices);
/// The callees' module FRAME_SIZE records, last first (with \p Mercury,
/// .nv.merc.nv.info's).
void appendCalleeFrameSizes(const Kernel &K, llvm::ArrayRef<uint32_t> Indices,
                            bool Mercury, std::vector<NvInfoRecord> &Recs);
/// \p S, the copy of .symtab's symbol \p SI in .nv.merc.symtab: if it is
/// one of the callee symbols \p Indices, its Mercury value and size.
void toMercuryCalleeSymbol(const Kernel &K, llvm::ArrayRef<uint32_t> Indices,
                           uint32_t SI, Symbol &S);
/// Where a callee's CIE and FDE need R_CUDA_64 against the kernel.
struct CalleeFrameReloc {
  uint64_t FdeLocation = 0; ///< addend: Offset
  uint64_t CieAddress = 0;  ///< addend: 0
  uint32_t Offset = 0;
};
/// Each callee's CIE and FDE after the kernel's FDE (with \p Mercury, in
/// .nv.merc.debug_frame: code alignment 1, the Mercury offsets).
void appendCalleeFrames(const Kernel &K, bool Mercury,
                        std::vector<uint8_t> &Frame,
                        std::vector<CalleeFrameReloc> &Relocs);
/// .nv.merc.rela.text.K's call relocations against \p KernelSym.
void appendMercuryCallRelocs(const Kernel &K, uint32_t KernelSym,
                             std::vector<uint8_t> &Rela);

// A kernel's constant bank 2, .nv.constant2.K (CubinConstant2.cpp).
/// The bank's size: 64 KiB, as every constant bank.
constexpr size_t MaxConstant2Bytes = 0x10000;
/// True for the targets whose layout writes .nv.constant2.K (sm_80/86/89).
bool hasConstant2Bank(unsigned SM);
/// ".nv.constant2.K".
std::string constant2Name(const Kernel &K);
/// Kernel::Constant2 on a target that has it, at most MaxConstant2Bytes.
llvm::Error checkConstant2(const Kernel &K, unsigned SM);
/// The section, linked to .text.K (section \p TextSec).
Section makeConstant2Section(const Kernel &K, uint32_t TextSec);
/// Each kernel's Constant2: the bytes of its .nv.constant2.K.
void readConstant2(const CubinFile &F, Module &M);

} // namespace detail
} // namespace object
} // namespace tp

#endif // TP_LIB_OBJECT_CUBINBUILD_H
