//===- Module.h - The kernels of a cubin, read and laid out -----*- C++ -*-===//
///
/// \file
/// The interpreted model of an executable cubin: its target, tool note,
/// kernels (name, code, parameters, registers, barriers, shared memory,
/// EXIT offsets, launch bounds) and module variables (`.global`,
/// `.const`).  Two functions connect it to the
/// container level (CubinFile.h):
///
///  * interpretCubin reads the model out of a CubinFile (sections
///    .text.K, .nv.info[.K], .nv.shared.K, .debug_frame, the notes);
///  * buildCubin writes a CubinFile from scratch with exactly ptxas 13's
///    section set, order, flags, links, alignment, string tables, symbols,
///    .nv.info records, notes, .debug_frame, .nv.callgraph, .nv.rel.action
///    and program headers (SASS_FACTS.md 3.1-3.9, checked byte for byte
///    against ptxas output in unittests/Object).
///
/// Nothing here decodes instructions: EXIT offsets and the end of the
/// first basic block (CfaBlockEnd, used by .debug_frame) are inputs.
/// scanControlFlow() computes them through an InstrClassifier, the one
/// place where an instruction word is looked at.
///
/// Dynamic shared memory is not recorded in a cubin (SASS_FACTS 3.8): the
/// launcher passes its size at launch and, when static + dynamic exceeds
/// 48 KiB, must first raise CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
/// (see dynamicSharedLaunchNote).  A kernel that declares dynamic shared
/// memory gets a (possibly empty) .nv.shared.K section: HasSharedSection.
///
//===----------------------------------------------------------------------===//
#ifndef TP_OBJECT_MODULE_H
#define TP_OBJECT_MODULE_H

#include "tp/Object/CubinFile.h"
#include "tp/Object/NvInfo.h"
#include "tp/Target/SASS/SASS.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/Optional.h"
#include "llvm/Support/Error.h"
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace tp {
namespace object {

/// What differs between targets that readers and writers of a cubin need:
/// the target layer's facts (td/Targets.td; the writer's layout tables are
/// private to lib/Object/CubinLayout.cpp).
using TargetInfo = sass::TargetInfo;

/// The TargetInfo of the target that sm_\p SM selects (sm_80: sm_86's), or
/// null when unknown.
const TargetInfo *getTargetInfo(unsigned SM);

/// e_flags that ptxas 13 writes for sm_\p SM (TargetInfo::getELFFlags;
/// 0x06005604 for sm_86); 0 for an unknown SM.
uint32_t makeEFlags(unsigned SM);

/// One kernel parameter (a KPARAM_INFO record).
struct KernelParam {
  uint32_t Offset = 0; ///< from the start of the parameter block
  uint32_t Size = 0;   ///< bytes
  uint32_t Index = 0;  ///< KPARAM_INFO word 0 (always 0 from ptxas 13)
  /// KPARAM_INFO word 2 bits 0..11: for a PTX `.ptr` parameter, bits 8..11
  /// the pointee space (1 local, 2 shared, 3 const, 4 global, 5 generic)
  /// and bits 0..7 log2 of its `.align` (E: `.ptr .global .align 16` gives
  /// 0x404); 0 for any other parameter.
  uint32_t Flags = 0;
};

/// Blackwell's second copy of a kernel (ptxas 13 for sm_100, sm_120 and
/// sm_121): the Mercury code in .nv.capmerc.text.K, which the .nv.merc.*
/// sections describe as .text.K's are described (E, every test/Object
/// PTX file built for those targets).  Its encoding is not modelled: the
/// bytes are copied, and so are the facts about them that the other
/// .nv.merc.* sections hold (code size, first block end, EXIT offsets, the
/// offsets of the relocations against .nv.reservedSmem.cap, and the Mercury
/// copies of the .nv.info.K records the model does not interpret, whose
/// offsets are in the Mercury code).  The rest of .nv.merc.* is derived.
struct MercuryCode {
  std::vector<uint8_t> Bytes;   ///< .nv.capmerc.text.K
  uint32_t CodeSize = 0;        ///< the Mercury kernel symbol's size, FDE range
  uint32_t CfaBlockEnd = 0;     ///< DW_CFA_def_cfa of .nv.merc.debug_frame's FDE
                                ///< (with a stack frame: its first, the CFA
                                ///< after the stack-pointer adjustment)
  std::vector<uint32_t> ExitOffsets; ///< .nv.merc.nv.info.K's EXIT_INSTR_OFFSETS
  /// Where .nv.merc.debug_frame's FDE has the last EXIT's row, where that
  /// is not the last EXIT (none, or an earlier one): Kernel::ExitPoint in
  /// the Mercury code, read and stated (`.mercury exit_point=`), not derived.
  llvm::Optional<uint32_t> ExitPoint;
  /// r_offset of each .nv.merc.rela.text.K entry (type 0x10003 against
  /// .nv.reservedSmem.cap, addend 0: the only kind ptxas 13 writes, E).
  std::vector<uint32_t> CapRelocs;
  /// A .nv.merc.rela.text.K entry of a kernel with callees: type 0x10008
  /// against the kernel's symbol, one per call (E, test/Object/Inputs/
  /// calls; the addend is the return address in the Mercury code).
  struct CallReloc {
    uint32_t Offset = 0; ///< r_offset, in the Mercury code (CodeSize)
    uint32_t Addend = 0;
  };
  std::vector<CallReloc> CallRelocs;             ///< in section order
  std::vector<NvInfoRecord> OtherInfoBeforeExit; ///< Mercury's copies of
  std::vector<NvInfoRecord> OtherInfoAfterExit;  ///< Kernel::OtherInfo*
};

/// A device function (PTX `.func`) that a kernel calls: ptxas 13 appends
/// its code to the kernel's .text.K and names it with a LOCAL FUNC symbol
/// `$K$Name` (E, test/Object/Inputs/calls; lib/Object/CubinCalls.cpp).
struct Callee {
  std::string Name;       ///< the PTX name (the symbol is `$K$Name`)
  uint32_t Offset = 0;    ///< in .text.K (the symbol's value)
  uint32_t Size = 0;      ///< the symbol's size, the FDE's range
  uint32_t FrameSize = 0; ///< its module .nv.info FRAME_SIZE record
  /// The register its CIE says holds the return address (R2, where the
  /// call puts it; R6 in a callee that moves it there, E).
  unsigned ReturnReg = 2;
  /// The registers that its CIE names with DW_CFA_same_value between R1
  /// and ReturnReg, in the CIE's order: in a callee called by another
  /// callee, the callers' ReturnRegs (E, call_nested.ptx, call_deep.ptx;
  /// their order is not settled, so they are stated).
  std::vector<unsigned> CallerRegs;
  /// Its FDE's call-frame instructions after the range, copied (padding
  /// DW_CFA_nops excluded): none in most callees, a DW_CFA_register row
  /// in one with a stack frame, not understood.
  std::vector<uint8_t> FdeOps;
  /// Blackwell's Mercury copy (Kernel::Mercury): the callee's offset in
  /// the Mercury code (its .nv.merc.symtab symbol's value; the size runs
  /// to the next callee or the code's end), its .nv.merc.nv.info
  /// FRAME_SIZE (0 where FrameSize is 128, E) and its
  /// .nv.merc.debug_frame FDE's instructions, copied.
  llvm::Optional<uint32_t> MercuryOffset;
  uint32_t MercuryFrameSize = 0;
  std::vector<uint8_t> MercuryFdeOps;
};

/// One __global__ kernel.
struct Kernel {
  std::string Name;
  std::vector<uint8_t> Code;       ///< .text.K, already padded to 128 B
  std::vector<KernelParam> Params; ///< in ordinal order
  unsigned RegCount = 0;
  unsigned NumBarriers = 0;      ///< NUM_BARRIERS, omitted when 0
  unsigned MaxRegCount = 0xff;   ///< MAXREG_COUNT (.maxnreg or 0xff)
  uint64_t SharedBytes = 0;      ///< static shared memory (without the
                                 ///< target's reserved bytes)
  uint64_t SharedAlign = 16;     ///< .nv.shared.K alignment
  bool HasSharedSection = false; ///< forced on when SharedBytes > 0
  /// The kernel has a .nv.shared.K section (the module declares dynamic
  /// shared memory) but its code never addresses shared memory.  Only
  /// sm_90 records the difference: ptxas writes an empty .rela.text.K for
  /// every kernel whose code does (E, multi_kernel.ptx's noparam).
  bool SharedUnused = false;
  std::vector<uint32_t> ExitOffsets;
  /// Byte offset where the first basic block ends: just past the first
  /// BRA or EXIT, or the first branch target, whichever comes first
  /// (ptxas puts the FDE's DW_CFA_def_cfa there; E, every test cubin).
  uint32_t CfaBlockEnd = 0;
  /// The exit point: where ptxas's FDE puts the last EXIT's row when the
  /// kernel has no EXIT or its last EXIT comes earlier
  /// (lib/Object/CubinFrames.cpp, deriveExitPoint: the instruction before
  /// the block of the last branch).  None where the rule gives none
  /// (buildCubin refuses such a kernel without an EXIT) and from the
  /// WordFlow scanControlFlow.
  llvm::Optional<uint32_t> ExitPoint;
  /// .maxntid and .reqntid (ptxas rejects both on one kernel).
  llvm::Optional<std::array<uint32_t, 3>> MaxThreads;
  llvm::Optional<std::array<uint32_t, 3>> ReqNTid;
  /// The code reads %ctaid.z (CTAIDZ_USED; the caller knows, E).  sm_90
  /// cubins do not record it (E, params_attrs.ptx).
  bool CtaidZUsed = false;
  /// The code addresses a PTX `.extern .global` variable (which ptxas 13
  /// writes as a `.visible` one): ptxas adds the names .rel.text.K
  /// (sm_90 and later: and .rela.text.K) to both string tables without
  /// such a section (E: test/Object/Inputs/globals/extern_*.ptx,
  /// lib/Object/CubinGlobals.cpp).
  bool UsesExtern = false;
  /// FRAME_SIZE / MIN_STACK_SIZE (equal in every cubin seen, calls
  /// included: a callee's frame counts in the kernel's; E,
  /// test/Object/Inputs/calls).
  uint32_t FrameSize = 0;
  uint32_t MinStackSize = 0;
  /// With a stack frame: the byte offset just past the instruction that
  /// moves the stack pointer down by FrameSize, where ptxas's FDE defines
  /// the CFA (lib/Object/CubinFrames.cpp; E, stack_frame.ptx, frames.ptx).
  /// Read from the FDE; the kernel form derives it from the code
  /// (InstrClassifier::movesStackPointer) unless `.frame_cfa` says
  /// otherwise.  Unused when FrameSize is 0.  (The Mercury copy's is its
  /// MercuryCode::CfaBlockEnd.)
  uint32_t FrameCfa = 0;
  /// .nv.info.K records the model does not interpret, kept in place
  /// relative to EXIT_INSTR_OFFSETS (E, divergent.ptx: ptxas writes
  /// COOP_GROUP_MASK_REGIDS and COOP_GROUP_INSTR_OFFSETS just before it and
  /// CRS_STACK_SIZE just after).  They are copied, not recomputed.
  std::vector<NvInfoRecord> OtherInfoBeforeExit;
  std::vector<NvInfoRecord> OtherInfoAfterExit;
  /// The Mercury copy (Blackwell only; buildCubin requires it there).
  llvm::Optional<MercuryCode> Mercury;
  /// The device functions the kernel calls, in address order (after the
  /// kernel's code; sm_80/86/89 only in buildCubin).
  std::vector<Callee> Callees;
  /// The bytes of constant bank 2, .nv.constant2.K (sm_80/86/89: ptxas
  /// puts 64-bit immediates there, an f64 operand or an address offset;
  /// empty = no section).  Stated, not derived: which constants ptxas
  /// places in the bank is not modelled (lib/Object/CubinConstant2.cpp).
  std::vector<uint8_t> Constant2;

  /// CBANK_PARAM_SIZE: the end of the last parameter.
  uint32_t paramBytes() const;
  bool emitsSharedSection() const { return HasSharedSection || SharedBytes; }
};

/// The .note.nv.tkinfo strings (SASS_FACTS 3.9).
struct ToolNote {
  uint32_t Format = 2;
  std::string ObjectName;
  std::string Tool = "tp";
  std::string Version = "tp 0.1.0 (tensor-core backend for NVIDIA sm_86)";
  std::string BuildId = "";
  std::string Options = "-arch sm_86 ";
};

/// A module-scope variable: a PTX `.global` (NOBITS .nv.global, or with
/// its initial bytes PROGBITS .nv.global.init) or `.const` (PROGBITS
/// .nv.constant3, its bytes).  Each `.global` also gets an 8-byte slot in
/// .nv.constant4 that an R_CUDA_64 relocation fills with its address (E,
/// ptxas 13.0, every target; lib/Object/CubinGlobals.cpp).
struct GlobalVar {
  enum SpaceKind : uint8_t { Global, Const };
  std::string Name;
  SpaceKind Space = Global;
  uint64_t Size = 0;   ///< the symbol's size
  uint64_t Align = 1;  ///< a power of two; the section's is the largest
  uint64_t Offset = 0; ///< in its section (the symbol's value)
  /// A `.global` with initial bytes (.nv.global.init); a `.const` always
  /// has them (Init.size() == Size for both).
  bool Initialized = false;
  /// PTX `.visible`: a GLOBAL OBJECT symbol, after kernel 0's (E:
  /// lib/Object/CubinGlobals.cpp); else LOCAL in kernel 0's group.
  bool Visible = false;
  std::vector<uint8_t> Init;
};

/// A cubin's kernels and what is global to them.
struct Module {
  unsigned SM = 86;
  uint32_t CudaApiVersion = 0x82; ///< 130 = CUDA 13.0 (E)
  ToolNote Tool;
  std::vector<Kernel> Kernels; ///< in section order
  /// .nv.compat's bytes where they differ from the target's (sm_90 and
  /// Blackwell; E: record 0x02 is 2, not 1, in multi_kernel.ptx's sm_120
  /// and sm_121 cubins, for a reason not known): copied, not derived.
  llvm::Optional<std::vector<uint8_t>> Compat;
  /// Blackwell only: the cubin holds the SASS alone, without the Mercury
  /// copy of each kernel (.nv.capmerc.text.K, .nv.merc.*): what tp-llc
  /// writes, since tp does not model the Mercury encoding.  ptxas 13 names
  /// the ELF binary kinds mercury, capmerc and sass but writes capmerc;
  /// whether the CUDA driver loads a sass-kind cubin is NOT verified
  /// (docs/targets.md).  Set by the reader when no kernel has the copy.
  bool SassOnly = false;
  /// The module's `.global` and `.const` variables in declaration order
  /// (their symbols' order, E); not with SassOnly.
  std::vector<GlobalVar> Globals;
};

/// Reads the model out of an executable cubin of any target (sm_80 to
/// sm_121).  Fails, naming
/// the place, on what the model cannot represent.
llvm::Expected<Module> interpretCubin(const CubinFile &F);

/// Places the variables of each section (GlobalVar::Offset) as ptxas does
/// where their alignments differ: by decreasing alignment, each at the
/// next multiple of its own; equal alignments in declaration order (ptxas's
/// order for those is not known, E: lib/Object/CubinGlobals.cpp).
void placeGlobals(std::vector<GlobalVar> &Globals);

/// Builds a cubin from scratch in ptxas 13's layout for M.SM (one or more
/// kernels; lib/Object/CubinLayout.cpp).
llvm::Expected<CubinFile> buildCubin(const Module &M);

/// Whether ptxas 13's sm_\p SM cubins carry a Mercury copy of each kernel
/// (Blackwell), i.e. Module::SassOnly is a choice there.
bool hasMercuryKind(unsigned SM);

/// The one interface to instruction words that this layer uses.
class InstrClassifier {
public:
  virtual ~InstrClassifier();
  /// True for an EXIT (predicated or not).
  virtual bool isExit(llvm::ArrayRef<uint8_t> Word) const = 0;
  /// True for an instruction that ends a basic block (BRA, EXIT, ...).
  virtual bool endsBlock(llvm::ArrayRef<uint8_t> Word) const = 0;
  /// The byte offset a branch at \p Pc jumps to, if \p Word is a direct
  /// branch.
  virtual llvm::Optional<uint64_t> branchTarget(llvm::ArrayRef<uint8_t> Word,
                                                uint64_t Pc) const = 0;
  /// The byte offset any PC-relative operand of \p Word at \p Pc names
  /// (BRA, BSSY, CALL.REL, RET.REL): the addresses .sass text writes as
  /// labels.  Default: branchTarget().
  virtual llvm::Optional<uint64_t>
  pcRelativeTarget(llvm::ArrayRef<uint8_t> Word, uint64_t Pc) const;
  /// The general registers \p Word uses: its highest R register (RZ not
  /// counted) plus one, 0 for none; None when the word is not understood.
  /// Default: None.
  virtual llvm::Optional<unsigned>
  registersUsed(llvm::ArrayRef<uint8_t> Word) const;
  /// True for an unpredicated instruction that writes R1 from R1: the
  /// stack-pointer adjustment of a kernel with a stack frame (ptxas 13:
  /// `IADD3 R1, R1, -F, RZ`, `VIADD R1, R1, -F`), from which the kernel
  /// form derives Kernel::FrameCfa.  Default: false.
  virtual bool movesStackPointer(llvm::ArrayRef<uint8_t> Word) const;
  /// True for a NOP (Kernel::ExitPoint's rule).  Default: false.
  virtual bool isNop(llvm::ArrayRef<uint8_t> Word) const;
};

/// The classifier of target sm_\p SM (sm_80 and unknown SMs: sm_86's),
/// from td/: a word is decoded with the target's tables and classified by
/// its form's IsExit / IsBranch flags and BranchTarget operand
/// (sass::getPCRelativeTarget), so sm_90's split offsets need no code
/// here.  A word that decodes to no form is neither.
const InstrClassifier &getTargetClassifier(unsigned SM);

/// Fills \p K.ExitOffsets, \p K.CfaBlockEnd and \p K.ExitPoint from
/// \p K.Code.
void scanControlFlow(Kernel &K, const InstrClassifier &C);

/// The general registers \p K's code uses (the classifier's
/// registersUsed() over its words: the highest plus one) and the byte
/// offset of the first word that uses that many; {0, 0} for none.
std::pair<unsigned, size_t> getRegistersUsed(const Kernel &K,
                                             const InstrClassifier &C);

/// What scanControlFlow() needs to know of one instruction word, at byte
/// offset Offset: the classifier's isExit(), endsBlock() and
/// branchTarget().
struct WordFlow {
  uint64_t Offset = 0;
  bool IsExit = false;
  bool EndsBlock = false;
  llvm::Optional<uint64_t> BranchTarget;
};
/// scanControlFlow() from facts the caller already has (the instructions
/// \p K.Code was encoded from): \p Words lists, by increasing offset, the
/// words that are an EXIT, end a block or branch; every other word is none
/// of these.  The same result as the classifier's version for the same
/// facts, with no word looked at -- but no Kernel::ExitPoint (NOPs are not
/// among the facts; tp-llc's kernels end in an EXIT).
void scanControlFlow(Kernel &K, llvm::ArrayRef<WordFlow> Words);

/// A one-line note on what a launcher must set for \p DynamicBytes of
/// dynamic shared memory (nothing is recorded in the cubin).
std::string dynamicSharedLaunchNote(const Kernel &K, uint64_t DynamicBytes);

} // namespace object
} // namespace tp

#endif // TP_OBJECT_MODULE_H
