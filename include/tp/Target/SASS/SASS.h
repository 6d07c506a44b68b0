//===- SASS.h - The SASS instruction set: encode, decode, print, parse -*- C++ -*-===//
///
/// \file
/// The public interface of the instruction-set layer (library TPTargetSASS).
/// Everything here is driven by tables that tp-tblgen generates from td/;
/// no bit position is written by hand in C++.
///
/// Model
/// -----
/// * An instruction *form* (enum Opcode) is one encodable shape: a mnemonic
///   with its fixed modifiers and operand kinds, a fixed mask/value over the
///   128-bit word, and one field per operand.  nvdisasm aliases (IMAD.MOV.U32,
///   IMAD.SHL.U32, IMAD.IADD, ...) are separate forms with extra fixed bits;
///   the decoder prefers the form whose fixed mask is the most specific.
///   Form names are the td def names: `<MNEMONIC>[_<variant>]_<srcs>`, where
///   the source letters are r (register), i (immediate), c (constant bank),
///   u (uniform register) for A, B, C, e.g. IMAD_rrr, IMAD_X_rrc,
///   IMAD_MOV_rrc (IMAD.MOV[.U32] Rd, RZ, RZ, c[][]), IMAD_SHL_U32_rir_2,
///   IADD3_P1_rir (one carry-out), HMMA_16816_F32, LDSM_16_4, LDSM_16_UR_2,
///   LDGSTS_DESC, LDGSTS_DESC_P (trailing predicate), LDG_DESC_64,
///   STG_DESC_64, BAR_SYNC_i, DEPBAR_LE, BRA, EXIT.  Use lookupOpcode()
///   with the name, or `tp-tblgen -print-sass-forms -I td td/SM86.td` for
///   the list with every field.  See td/SM86/*.td.
/// * An Instruction holds the form, the guard predicate, the control fields
///   and one int64 value per operand (Ops[i] for operand i of the form, in
///   the order InstrInfo::Operands lists them; MaxOperands, the most any
///   form has, generated, sizes the array: 152 bytes an Instruction).  Values are raw field
///   values: register numbers (RZ = 255, URZ = 63, PT/UPT = 7; Blackwell's UR63 is
///   the value UR63 = 255, UR64..UR254 their numbers), immediates
///   (sign-extended where the operand is signed), modifier codes (the value
///   of the modifier's bit field; ModifierInfo gives the spelling), byte
///   offsets.  A branch target is stored as the *encoded* word offset; use
///   getBranchTarget()/setBranchTarget() to convert from/to an address.
/// * No allocation per instruction: Instruction is a fixed-size value.
///   The values stay int64: fields of 48 (BRA's offset), 50 and 64 bits
///   exist, and decode() must hold every word's exact value.
///
/// Word layout: 16 bytes as two little-endian u64, `Lo` (bits 0..63) first.
/// Control fields (SASS_FACTS.md section 1.1): stall [105:108], yield [109],
/// write scoreboard [110:112], read scoreboard [113:115], wait mask
/// [116:121], reuse [122:125].
///
//===----------------------------------------------------------------------===//
#ifndef TP_TARGET_SASS_SASS_H
#define TP_TARGET_SASS_SASS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/Optional.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/SMLoc.h"
#include "llvm/Support/raw_ostream.h"
#include <array>
#include <cassert>
#include <cstdint>
#include <map>
#include <string>

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace tp {
namespace sass {

/// The instruction forms, one per td def (generated).
enum Opcode : uint16_t {
#define GET_SASS_OPCODE_ENUM
#include "tp/Target/SASS/SASSGenInstrInfo.inc"
};

/// The targets sharing this instruction set (td/Targets.td, generated):
/// SM86 (the default), SM80, SM89 and SM90.  Every encode/decode/parse entry point takes
/// one, defaulting to SM86; a form's operands are the same on every target,
/// only its bits (e.g. BRA's offset on sm_90) or its existence (VIADD is
/// sm_90 only) differ.
enum class Target : uint8_t {
#define GET_SASS_TARGET_ENUM
#include "tp/Target/SASS/SASSGenInstrInfo.inc"
};

/// The target an -mcpu value names ("sm_80", "sm_86", "sm_89", "sm_90");
/// false if none.
bool lookupTarget(llvm::StringRef CPU, Target &T);
/// Every -mcpu spelling, by SM, for messages: "sm_80, sm_86, sm_89 or sm_90".
const std::string &getTargetList();
/// The -mcpu spellings of the targets with TargetInfo::GemmCodeGen (tp-llc
/// builds the GEMM for them, tp-sim runs them), for messages: "sm_80,
/// sm_86, sm_89 or sm_90".
const std::string &getGemmTargetList();
/// "sm_86", "sm_90".
llvm::StringRef getTargetName(Target T);
/// 86, 90.
unsigned getTargetSM(Target T);
/// Whether form \p Op exists on \p T.
bool isAvailable(uint16_t Op, Target T);
/// Number of targets (Target(0) .. Target(getNumTargets() - 1)).
unsigned getNumTargets();

/// A target's facts of the programming model and the cubin: fields of its
/// record in td/Targets.td (which cites the evidence), generated.  Every
/// layer reads them here; none writes them by hand.
struct TargetInfo {
  const char *Name;                 ///< "sm_86"
  unsigned SM;                      ///< 86
  uint32_t ParamBase;               ///< first parameter: c[0x0][ParamBase]
  uint32_t DescriptorSlot;          ///< default memory descriptor c[0x0][..]
  uint32_t ReservedSharedBytes;     ///< system part of a CTA's shared window
  uint32_t ELFFlagsBase;            ///< e_flags = ELFFlagsBase | sm << 8
  uint32_t MaxSharedBytesPerBlock;  ///< admission limit of shared memory
  uint32_t MaxRegisters;            ///< registers per thread (255)
  bool RegCountInTextInfo;          ///< .text.K sh_info holds regs << 24
  uint16_t Attr5F;                  ///< .nv.info attribute 0x5f's value
  bool GemmCodeGen;                 ///< tp-llc and tp-sim support it
  /// MaxSharedBytesPerBlock as its source spells it ("100 KiB - 2 KiB").
  const char *SharedCapacityNote;
  /// The card the automatic tile's grid covers ("RTX 3090") and its SMs.
  const char *TileCard;
  uint32_t TileCardSMs;
  /// Constant bank 0: where the target's code reads each launch value
  /// (c[0x0][offset]; NoCB0Slot: in no fixed slot).  td/Targets.td's CB0*
  /// fields say what each holds and cite the evidence.
  uint32_t CB0NTid, CB0NCtaid;   ///< x, y, z: three words each
  uint32_t CB0StackPointer;      ///< initial stack pointer
  uint32_t CB0DynamicSharedBytes;
  uint32_t CB0GridId;            ///< 64-bit
  uint32_t CB0NSMId;
  uint32_t CB0ReservedSharedBytes;
  uint32_t CB0ClusterNCtaid;     ///< x, y, z
  uint32_t CB0ClusterNCtaidRcp;  ///< x, y, z: binary32 1/cluster_nctaid
  uint32_t CB0NClusterId;        ///< x, y, z
  uint32_t CB0ClusterNCtaRank;
  /// The cubin layout of the target's cubins (lib/Object/CubinLayout.cpp's
  /// name) and of its cubins without a Mercury copy ("" when they have
  /// none).
  const char *CubinLayout;
  const char *SassOnlyCubinLayout;
  /// Shared memory of one multiprocessor, bytes (tp-sim's limit a block).
  uint32_t SharedBytesPerSM;
  /// e_flags of a cubin for sm_\p SM of this target.
  uint32_t getELFFlags(unsigned SMNumber) const {
    return ELFFlagsBase | (SMNumber & 0xff) << 8;
  }
};
/// A TargetInfo::CB0* value: the launch value is in no fixed slot of
/// constant bank 0 on that target (td/Targets.td's NoCB0Slot).
constexpr uint32_t NoCB0Slot = 0x10000;
/// The facts of \p T.
const TargetInfo &getTargetInfo(Target T);

/// A 128-bit instruction word: two little-endian u64, low half first.
struct Word128 {
  uint64_t Lo = 0;
  uint64_t Hi = 0;
  bool getBit(unsigned B) const { return ((B < 64 ? Lo : Hi) >> (B & 63)) & 1; }
  void setBit(unsigned B, bool V) {
    uint64_t &W = B < 64 ? Lo : Hi;
    uint64_t M = uint64_t(1) << (B & 63);
    W = V ? (W | M) : (W & ~M);
  }
  bool operator==(const Word128 &O) const { return Lo == O.Lo && Hi == O.Hi; }
  bool operator!=(const Word128 &O) const { return !(*this == O); }
};

/// The word stored in \p Bytes (at least 16 bytes: Lo then Hi, each
/// little-endian), as a cubin's .text holds it.
inline Word128 readWord(llvm::ArrayRef<uint8_t> Bytes) {
  assert(Bytes.size() >= 16 && "an instruction word is 16 bytes");
  Word128 W;
  W.Lo = llvm::support::endian::read64le(Bytes.data());
  W.Hi = llvm::support::endian::read64le(Bytes.data() + 8);
  return W;
}
/// Stores \p W into the 16 bytes at \p Out (readWord's layout).
inline void writeWord(Word128 W, uint8_t *Out) {
  llvm::support::endian::write64le(Out, W.Lo);
  llvm::support::endian::write64le(Out + 8, W.Hi);
}
/// The 16 bytes of \p W (readWord's layout).
inline std::array<uint8_t, 16> getWordBytes(Word128 W) {
  std::array<uint8_t, 16> B;
  writeWord(W, B.data());
  return B;
}

/// Field values meaning "none": the predicate PT / UPT (also a guard of
/// PT), the write/read scoreboard "no scoreboard" (control bits 110..115),
/// the register RZ and the uniform register URZ (SASS_FACTS 1.1, N, T, C).
constexpr uint8_t PT = 7;
constexpr uint8_t NoScoreboard = 7;
constexpr uint8_t RZ = 255;
constexpr uint8_t URZ = 63;
/// ISETP's compare codes, [76:78] (td/SM86/IntegerInstrs.td's ICmp).
enum IntCompare : uint8_t {
  ICmpF = 0,
  ICmpLT = 1,
  ICmpEQ = 2,
  ICmpLE = 3,
  ICmpGT = 4,
  ICmpNE = 5,
  ICmpGE = 6,
  ICmpT = 7
};
/// UR63, which exists only where a uniform register is an 8-bit field
/// (Blackwell: UR0..UR254, URZ 0xff), has the value UR63 here because 63 is
/// URZ; UR64..UR254 are 64..254.  In sm_80..sm_90's 6-bit fields neither
/// fits (the encoder refuses them).
constexpr uint8_t UR63 = 255;

/// The scheduling control fields of a word (bits 105..125).  Control{} is
/// the all-zero control word (stall 0 with yield, no scoreboard, no wait,
/// no reuse), which NVIDIA's tables define; an instruction built or
/// written without control fields gets it.
struct Control {
  uint8_t Stall = 0;     ///< [105:108] cycles before the next issue, 0..15
  /// "Yield" in CuAssembler's notation ('Y'), which is bit 109 == 0.  ptxas
  /// leaves bit 109 = 1 (Yield = false) on most instructions.
  bool Yield = true;
  uint8_t WrSB = NoScoreboard; ///< [110:112] write scoreboard 0..5, 7 = none
  uint8_t RdSB = NoScoreboard; ///< [113:115] read scoreboard 0..5, 7 = none
  uint8_t WaitMask = 0;  ///< [116:121] bit i = wait on scoreboard i
  uint8_t Reuse = 0;     ///< [122:125] operand-reuse flags, bit 0 = slot A
  bool operator==(const Control &O) const {
    return Stall == O.Stall && Yield == O.Yield && WrSB == O.WrSB &&
           RdSB == O.RdSB && WaitMask == O.WaitMask && Reuse == O.Reuse;
  }
};

/// Whether NVIDIA's tables define the stall/yield pair of \p C.  They read
/// bits 105..109 as one value, stall | bit 109 << 4, and leave stall 0 and
/// stall 12..15 with bit 109 set (Yield false) undefined on every form
/// (td: SM86Control's UndefinedStallYield; docs/nvdisasm.md).
bool isDefinedControl(const Control &C);
/// \p C made defined the way ptxas does it: a stall of 0 or 12..15 takes
/// bit 109 clear (Yield).  The stall, and so the schedule, is unchanged.
Control defineControl(Control C);

/// What an operand is.
enum class OperandKind : uint8_t {
  GPR,         ///< R0..R254, RZ=255 (Width consecutive registers)
  UGPR,        ///< UR0..UR62, URZ=63 (Width consecutive registers)
  Pred,        ///< P0..P6, PT=7
  UPred,       ///< UP0..UP6, UPT=7
  Imm,         ///< integer immediate (signed if OperandInfo::Signed)
  FImm,        ///< 32-bit float immediate, raw IEEE bits
  HImm,        ///< two packed f16 immediates, raw bits (HADD2/HFMA2)
  BImm,        ///< two packed bf16 immediates, raw bits (HFMA2.BF16_V2)
  DImmHi,      ///< high 32 bits of an f64 immediate (MUFU.RCP64H)
  CBankIndex,  ///< c[<bank>][...]
  CBankOffset, ///< c[...][<byte offset>]
  SReg,        ///< special register (S2R/S2UR/CS2R), printed by name
  Modifier,    ///< a modifier code printed as text (".U32", "-", "!", ...)
  BranchTarget,///< PC-relative word offset (see getBranchTarget)
  MemBase,     ///< address register of a memory operand (GPR, Width 1 or 2)
  MemUR,       ///< uniform register added to a memory address
  MemDesc,     ///< uniform register pair holding a memory descriptor
  MemOffset,   ///< signed byte offset of a memory operand
  SBIndex,     ///< scoreboard index (DEPBAR SBx)
  SBMask,      ///< scoreboard set {5,4,...} (DEPBAR)
};

/// One operand of a form.
struct OperandInfo {
  const char *Name;   ///< td operand name, e.g. "Rd", "Ra", "cmp"
  OperandKind Kind;
  uint8_t Width;      ///< registers in a tuple (GPR/UGPR/MemBase), else 1
  bool IsDef;         ///< written by the instruction
  bool Signed;        ///< value is sign-extended from its field
  int8_t ReuseSlot;   ///< reuse flag (0..3) shown as ".reuse", -1 if none
  uint8_t Bits;       ///< field width in bits (0: fixed, not encoded)
  uint16_t ModTable;  ///< Modifier/SReg: index into the spelling tables
  /// An address component nvdisasm leaves out when it holds its default
  /// (RZ, URZ, offset 0): `[R2]` for `[R2+URZ+0x0]`.
  bool Optional;
};

/// Scheduling class of a form (td/SM86/SM86Schedule.td).
struct SchedInfo {
  const char *Name;       ///< td class name, e.g. "CoupledALU"
  bool Variable;          ///< variable latency: needs a write scoreboard
  uint8_t Latency;        ///< fixed latency in cycles (Variable: 0)
  uint32_t LateReadMask;  ///< bit i: operand i is read late (needs rd SB)
};

/// Static description of one form.
struct InstrInfo {
  const char *Name;       ///< the td def name, e.g. "IMAD_MOV_U32_rrc"
  const char *Mnemonic;   ///< base mnemonic, e.g. "IMAD"
  uint8_t NumOperands;
  const OperandInfo *Operands;
  SchedInfo Sched;
  Word128 FixedMask;      ///< bits fixed by the form (opcode, aliases)
  Word128 FixedValue;
  bool UniformGuard;      ///< guard printed as `@UPx` (uniform datapath)
  bool IsExit;            ///< EXIT (td: IsExit)
  bool IsBranch;          ///< a direct branch (BRA; td: IsBranch): its
                          ///< BranchTarget operand is the jump target
  bool IsIndirectBranch;  ///< BRX, BRXU (td: IsIndirectBranch)
};

/// The most operands any form has (generated: the size of
/// Instruction::Ops; SASSTables.cpp checks every form against it).
#define GET_SASS_MAX_OPERANDS
#include "tp/Target/SASS/SASSGenInstrInfo.inc"
static_assert(MaxOperands >= 1 && MaxOperands < 31,
              "an operand mask is a uint32 with a spare bit");

/// A decoded or parsed instruction.  A plain value: copy it freely.
struct Instruction {
  Opcode Op = Opcode(0);
  uint8_t Guard = PT;     ///< guard predicate P0..P6 (UP0..UP6 for forms
                          ///< with InstrInfo::UniformGuard), 7 = PT
  bool GuardNeg = false;  ///< `@!Px`
  Control Ctrl;
  std::array<int64_t, MaxOperands> Ops{};
};

/// Number of forms.
unsigned getNumOpcodes();
/// The description of form \p Op.
const InstrInfo &getInstrInfo(Opcode Op);
/// Form by td def name (e.g. "HMMA_16816_F32"); false if there is none.
bool lookupOpcode(llvm::StringRef Name, Opcode &Op);
/// Whether some form has base mnemonic \p Mnemonic (e.g. "IMAD").
bool isSupportedMnemonic(llvm::StringRef Mnemonic);

/// Whether some oracle word -- a row of the reference TSVs, a word of the
/// reference cubins or a word ptxas builds from the suite's PTX -- decodes
/// to form \p Op, so that NVIDIA's bytes confirm its encoding.  The other
/// forms are listed in td/UnverifiedForms.txt (a build
/// input: the table is generated from it): their bits are inferred from
/// sibling forms only.  tp-mc warns about them; code generation never emits
/// them.  False for an opcode out of range.
bool isOracleVerified(Opcode Op);
/// The forms for which isOracleVerified() is false, in the list's order.
llvm::ArrayRef<Opcode> getUnverifiedForms();

/// Spelling of modifier/special-register code \p Value for operand
/// \p OpIdx of \p Op; a null StringRef (data() null) if the value has no
/// spelling (not encodable), an empty one if its spelling is empty (the
/// default, e.g. no negation).
llvm::StringRef getModifierSpelling(Opcode Op, unsigned OpIdx, int64_t Value);

/// Encodes \p I (with its control fields).  Every operand value must fit its
/// field: use verify() first for untrusted values (the parser does).
Word128 encode(const Instruction &I, Target T = Target::SM86);
/// encode() by a walk of the generated field tables, the encoder encode()'s
/// straight-line functions replaced: its oracle in the unit tests (the same
/// word for every instruction).
Word128 encodeByFieldTables(const Instruction &I, Target T = Target::SM86);
/// Checks that every operand value and control field of \p I fits (and
/// that the form exists on \p T), and that every register tuple is one
/// (registerTupleProblem()); the error says which one does not.
llvm::Error verify(const Instruction &I, Target T = Target::SM86);
/// Why general register \p V is no value of operand \p OI, a tuple of
/// OI.Width registers: "" when it is one (RZ, or an aligned tuple that
/// ends at R254 or before), else the reason, e.g. "expected a register
/// tuple of 2 aligned to 2, found R3".  Such a word decodes, but it is
/// no instruction the assembler writes: it prints as `.inst`.
std::string registerTupleProblem(const OperandInfo &OI, int64_t V);

/// Decodes \p W into \p Out.  Returns false (and leaves \p Out unspecified)
/// for a word that matches no form exactly: never a wrong instruction.
/// Bit 101 is ignored (see SASS_FACTS.md: a display hack, ptxas writes 0).
bool decode(Word128 W, Instruction &Out, Target T = Target::SM86);
/// decode() that returns an error naming \p Addr and the raw word.
llvm::Expected<Instruction> decodeOrError(Word128 W, uint64_t Addr,
                                          Target T = Target::SM86);

/// Control fields of a word / written into a word.
Control getControl(Word128 W);
void setControl(Word128 &W, const Control &C);

/// Branch target address of a BranchTarget operand value at \p Addr:
/// Addr + 16 + 4 * offset.
inline uint64_t getBranchTarget(uint64_t Addr, int64_t Offset) {
  return Addr + 16 + 4 * Offset;
}
inline int64_t getBranchOffset(uint64_t Addr, uint64_t Target) {
  return (int64_t(Target) - int64_t(Addr) - 16) / 4;
}

/// The address the PC-relative operand of \p I at \p Addr refers to (its
/// BranchTarget operand: BRA, BSSY, CALL.REL, RET.REL, on every target),
/// or None when \p I has none.  BRX's offset is relative to a register
/// and is not one.
llvm::Optional<uint64_t> getPCRelativeTarget(const Instruction &I,
                                             uint64_t Addr);

/// The general registers \p I uses, read or written: its highest R
/// register (a tuple counted to its last register; RZ not counted) plus
/// one; 0 when it uses none.
unsigned getRegistersUsed(const Instruction &I);

/// Names of code addresses (`.L_x_0`, ...), for printing branch targets.
using LabelMap = std::map<uint64_t, std::string>;

/// Prints \p I in nvdisasm syntax (guard, mnemonic, operands, `.reuse`),
/// without a trailing ';'.  \p Addr resolves branch targets.
void print(const Instruction &I, uint64_t Addr, llvm::raw_ostream &OS);
/// The mnemonic with its modifiers as print() writes it, without guard and
/// operands ("HMMA.16816.F32", "LDG.E.64"): what the scheduling view names
/// an instruction by, without printing its operands.
std::string getMnemonic(const Instruction &I);
/// print() that writes a PC-relative operand whose target \p Labels names
/// as that label (`BRA .L_x_0`), so that the text stays right when
/// instructions are inserted; other targets as addresses.
void print(const Instruction &I, uint64_t Addr, const LabelMap &Labels,
           llvm::raw_ostream &OS);
/// Prints the control fields as `{stall=4 yield wr=1 rd=3 wait=0,2
/// reuse=a}` (`yield` when it is set; stall 0, scoreboard 7, no wait and
/// no reuse omitted: Control{} prints as `{yield}`).  print() shows reuse flags on their operands
/// (`.reuse`): clear those from C.Reuse first to print only the others.
void printControl(const Control &C, llvm::raw_ostream &OS);

/// Gives \p I the control fields \p C (a parsed `{...}` clause or a
/// builder's), keeping the reuse flags its operands' `.reuse` suffixes
/// already set: the text holds reuse in two places, and both count.
inline void applyControl(Instruction &I, const Control &C) {
  uint8_t Reuse = I.Ctrl.Reuse | C.Reuse;
  I.Ctrl = C;
  I.Ctrl.Reuse = Reuse;
}

/// Parses a control clause in printControl()'s syntax, `{stall=4 yield wr=1
/// rd=3 wait=0,2 reuse=a,b}` (every field optional; reuse letters a..d name
/// slots 0..3), located in a buffer of \p SM.  Out-of-range values (stall 16,
/// scoreboard 6) and an undefined stall/yield pair (isDefinedControl) are
/// errors.
llvm::Expected<Control> parseControl(llvm::StringRef Text,
                                     const llvm::SourceMgr &SM);

/// Parses one instruction (nvdisasm syntax; an optional trailing ';' and
/// surrounding blanks are allowed) from \p Text, which must lie inside a
/// buffer of \p SM so that errors carry a location (a tp::SourceError with
/// line and caret).  Older syntaxes are accepted (`[R2.64+UR4]` for the
/// descriptor form of LDG/STG/LDGSTS).  Values are range-checked: R256, a
/// 33-bit immediate etc. are errors.  \p Addr resolves branch targets.
/// Only forms that exist on \p T match.  A branch target may be a label
/// (`BRA .L_x_3`): a name of \p Labels (name -> address); any other name
/// is an "undefined label" error.  Non-ASCII characters are errors.
llvm::Expected<Instruction>
parse(llvm::StringRef Text, uint64_t Addr, const llvm::SourceMgr &SM,
      Target T = Target::SM86,
      const llvm::StringMap<uint64_t> *Labels = nullptr);

} // namespace sass
} // namespace tp

#endif // TP_TARGET_SASS_SASS_H
