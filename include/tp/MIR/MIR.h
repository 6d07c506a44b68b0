//===- MIR.h - The machine IR: SASS functions in named pieces ---*- C++ -*-===//
///
/// \file
/// The machine IR (level "mir", library TPMIR): one or more kernels, each a
/// list of named *pieces* of sm_86 instructions.  An instruction is an
/// `sass::Instruction` (form, guard, control fields, operand values; see
/// tp/Target/SASS/SASS.h) plus an optional label it starts and, for a
/// branch, the label it jumps to.  Addresses are implicit: the pieces are
/// laid out in order, 16 bytes an instruction, the first at 0.
///
/// In memory an MInstr is 176 bytes: the Instruction (152: MaxOperands
/// int64 values, the most any form has), the label and the branch target
/// as LabelNames (a pointer each, null for the many instructions with
/// none) and the parse location.
///
/// Text (print(parse(x)) == x for every printed x):
///
///   func    ::= 'sass.func' '@'name attr* '{' NL piece* '}' NL
///   attr    ::= key '(' text-without-parens ')'
///               -- target("sm_86"|"sm_90") regs(N) smem(BYTES) first, in that
///               -- order; then any others in their stored order
///   piece   ::= 'piece' name NL ( label | instr )*
///   label   ::= '^'name ':' NL                 (starts the next instr)
///   instr   ::= nvdisasm-text ';' control NL  (control: sass::printControl,
///               e.g. `{stall=15 wr=1}`; `{}` when every field is default;
///               an operand's reuse flag is written on it as `.reuse`)
///   branch  ::= [guard] 'BRA' '^'label ';' control
///
/// `//` starts a comment (to the end of the line); the printer follows a
/// branch with one giving its encoded displacement.  The printer indents
/// instructions by two spaces and writes labels at column 0.
///
/// Example:
///
///   sass.func @gemm target("sm_86") regs(168) smem(65536) threads(256) {
///   piece prologue
///     IMAD.MOV.U32 R1, RZ, RZ, c[0x0][0x28] ; {stall=15}
///     S2R R0, SR_TID.X ; {stall=15 wr=0}
///   piece body
///   ^loop:
///     LDSM.16.M88.4 R112, [R34] ; {stall=15 wr=1}
///   piece control
///     IADD3 R44, R44, -0x1, RZ ; {stall=15}
///     ISETP.GT.AND P1, PT, R44, RZ, PT ; {stall=15}
///     @P1 BRA ^loop ; {stall=15}
///   piece tail
///     EXIT ; {stall=15}
///   }
///
/// Conventions the passes share (tp-select establishes them):
///  * pieces `prologue`, `body`, `control`, `tail`, in this order.  Before
///    tp-form-loop the `body` piece is ONE steady iteration (`stages`
///    k-steps) that runs `iterations(N)` times (a function attribute) and
///    there is no `control`; tp-form-loop adds the counter decrement,
///    ISETP and backward BRA (piece `control`), or, in checked mode, the
///    unrolled copies `body`, `control`, `body.1`, `control.1` and no
///    branch.  Each piece name is unique in a function.
///  * other attributes tp-select writes (for tp-llc's manifest and stats):
///    threads(T) grid(X,Y,Z) params(C,A,B[,R]) shape(MxNxK) layout-a(rows)
///    layout-b(columns) tile(WM,WN,MT,NT,S) iterations(N) residual(0|1)
///    counter(R) (the register tp.loop's count lives in; tp-form-loop
///    decrements it).
///
/// Virtual registers (before tp-regalloc): a GPR operand may name a
/// virtual register instead of R0..R254,
///
///   vreg    ::= '%' name [':' sub]      e.g. `%tid`, `%acc_m0_n1:2`
///   name    ::= [A-Za-z_][A-Za-z0-9_]*
///
/// `%x` is a tuple of width(x) consecutive registers, width(x) the
/// smallest power of two >= sub + the operand's width over every
/// reference; the allocator places it at a multiple of its width (so an
/// HMMA/LDSM 4-tuple, an LDGSTS/STG.64 address pair or a 64-bit datum is
/// aligned as the hardware needs).  `%x:k` is the register k of the tuple
/// (an HMMA's B operand `%frag:2` is the upper pair of an LDSM's 4); k
/// must be a multiple of the operand's width.  In an Instruction a
/// virtual register is the value virtualReg(id, sub) (>= VirtualRegBase);
/// Function::VRegNames gives each id its name.  Physical and virtual
/// registers may mix (a physical one is pre-assigned); tp-regalloc leaves
/// none virtual.  The function attribute counter() may name a virtual
/// register (`counter(%counter)`) until then.
///
/// The verifier checks: every instruction's values fit its form on the
/// function's target (sass::verify), register tuples are aligned to their
/// width and lie in R0..R(regs-1) (RZ is always allowed), labels are
/// unique, every branch names a label of the function, piece names and
/// virtual register names are unique.  It is linear in the instructions
/// and builds no text unless it reports an error.
///
//===----------------------------------------------------------------------===//
#ifndef TP_MIR_MIR_H
#define TP_MIR_MIR_H

#include "tp/Pass/Pass.h"
#include "tp/Target/SASS/SASS.h"

#include "llvm/ADT/Optional.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/SMLoc.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace tp {
namespace mir {

/// Virtual register values in Instruction::Ops (see the \file comment).
constexpr int64_t VirtualRegBase = int64_t(1) << 20;
inline bool isVirtualReg(int64_t V) { return V >= VirtualRegBase; }
inline int64_t virtualReg(unsigned Id, unsigned Sub = 0) {
  return VirtualRegBase + 4 * int64_t(Id) + Sub;
}
inline unsigned virtualRegId(int64_t V) {
  return unsigned((V - VirtualRegBase) / 4);
}
inline unsigned virtualRegSub(int64_t V) {
  return unsigned((V - VirtualRegBase) % 4);
}

/// A label name held out of line: one pointer, null when empty -- few
/// instructions start a label or branch to one, so the rest pay 8 bytes
/// and no allocation.  A value (copies copy the name); reads as a
/// StringRef.
class LabelName {
public:
  LabelName() = default;
  LabelName(const LabelName &O) { assign(O.str()); }
  LabelName(LabelName &&O) noexcept : Text(O.Text) { O.Text = nullptr; }
  LabelName &operator=(const LabelName &O) {
    if (this != &O)
      assign(O.str());
    return *this;
  }
  /// Leaves \p O empty (as a moved-from std::string is in practice).
  LabelName &operator=(LabelName &&O) noexcept {
    if (this != &O) {
      delete Text;
      Text = O.Text;
      O.Text = nullptr;
    }
    return *this;
  }
  LabelName &operator=(llvm::StringRef N) {
    assign(N);
    return *this;
  }
  ~LabelName() { delete Text; }

  bool empty() const { return !Text; }
  llvm::StringRef str() const {
    return Text ? llvm::StringRef(*Text) : llvm::StringRef();
  }
  operator llvm::StringRef() const { return str(); }
  void clear() {
    delete Text;
    Text = nullptr;
  }
  friend bool operator==(const LabelName &A, const LabelName &B) {
    return A.str() == B.str();
  }
  friend bool operator!=(const LabelName &A, const LabelName &B) {
    return !(A == B);
  }
  friend bool operator==(const LabelName &A, llvm::StringRef B) {
    return A.str() == B;
  }
  friend bool operator!=(const LabelName &A, llvm::StringRef B) {
    return A.str() != B;
  }

private:
  /// An empty name is no string at all.
  void assign(llvm::StringRef N) {
    if (N.empty())
      return clear();
    if (Text)
      Text->assign(N.data(), N.size());
    else
      Text = new std::string(N.str());
  }
  std::string *Text = nullptr;
};

/// One machine instruction: 176 bytes (the Instruction's 152, two label
/// pointers, a location).
struct MInstr {
  sass::Instruction I;
  /// The label this instruction starts (without '^'), or empty.
  LabelName Label;
  /// For a branch: the label it jumps to (without '^'), or empty.
  LabelName Target;
  /// Where it was parsed from (null for generated instructions).
  llvm::SMLoc Loc;

  MInstr() = default;
  explicit MInstr(const sass::Instruction &I) : I(I) {}

  const sass::InstrInfo &info() const { return sass::getInstrInfo(I.Op); }
  llvm::StringRef mnemonic() const { return info().Mnemonic; }
  bool isBranch() const { return !Target.empty(); }
};

static_assert(sizeof(MInstr) <= sizeof(sass::Instruction) + 24,
              "an MInstr is its Instruction, two pointers and a location");

/// A named run of instructions (prologue, body, control, tail, ...).
struct Piece {
  std::string Name;
  std::vector<MInstr> Instrs;
  llvm::SMLoc Loc;
};

/// One kernel.
struct Function {
  std::string Name;          ///< without '@'
  std::string Target = "sm_86";
  unsigned Regs = 0;         ///< R0..R(Regs-1) usable
  uint64_t SharedBytes = 0;  ///< smem(): the block's shared memory
  /// Further attributes `key(value)`, printed in this order.
  std::vector<std::pair<std::string, std::string>> Attrs;
  std::vector<Piece> Pieces;
  /// The names of the virtual registers (index = id), without '%'.
  std::vector<std::string> VRegNames;
  llvm::SMLoc Loc;

  /// A new virtual register named \p Name (characters outside
  /// [A-Za-z0-9_] become '_'; a leading digit gets a 'v' before it); its
  /// id.  The caller keeps the names unique (the verifier checks them).
  unsigned addVirtualReg(llvm::StringRef Name);
  /// Whether any operand names a virtual register.
  bool hasVirtualRegs() const;

  /// The attribute \p Key's text, or None.
  llvm::Optional<llvm::StringRef> getAttr(llvm::StringRef Key) const;
  /// The attribute \p Key as an integer, or None (absent or not one).
  llvm::Optional<int64_t> getIntAttr(llvm::StringRef Key) const;
  /// Sets (or appends) attribute \p Key.
  void setAttr(llvm::StringRef Key, llvm::StringRef Value);

  /// The piece named \p Name, or null.
  Piece *getPiece(llvm::StringRef Name);
  const Piece *getPiece(llvm::StringRef Name) const;
  /// Appends an empty piece \p Name and returns it.
  Piece &addPiece(llvm::StringRef Name);

  /// Instructions in all pieces.
  size_t size() const;
  /// Byte address of piece \p P's instruction \p Idx (16 a word).
  uint64_t getAddress(const Piece &P, size_t Idx) const;
  /// Address of the instruction that starts label \p Label, or None.
  llvm::Optional<uint64_t> getLabelAddress(llvm::StringRef Label) const;
  /// Calls \p F on every instruction in layout order with its address.
  void forEach(const std::function<void(const Piece &, const MInstr &,
                                        uint64_t Addr)> &F) const;
  /// Sets every branch's encoded target offset from its label (call after
  /// changing the layout; the printer and encoder use the offset).  Errors
  /// when a label is missing.
  llvm::Error resolveBranches();
};

/// A parsed .mir text: its kernels.
struct Module {
  std::vector<Function> Functions;
};

/// A register, predicate or uniform register an instruction touches.
struct RegAccess {
  sass::OperandKind Kind; ///< GPR (also for MemBase), UGPR, Pred, UPred
  unsigned Reg;           ///< first register of the tuple
  unsigned Width;         ///< registers in the tuple
  bool IsDef;
  unsigned OpIdx;         ///< operand index in the form
};
/// The reuse flags of \p Op that belong to an operand (printed as `.reuse`
/// on it); other reuse bits are printed in the control clause.
uint8_t operandReuseMask(sass::Opcode Op);

/// Every register operand of \p I except RZ/URZ/PT/UPT (the guard
/// predicate is included as a use, OpIdx = ~0u).
std::vector<RegAccess> getRegAccesses(const sass::Instruction &I);

/// Parses buffer \p BufferID of \p SM.  Errors are SourceErrors.
llvm::Expected<Module> parseModule(llvm::SourceMgr &SM, unsigned BufferID);

/// Prints \p M / \p F in the canonical text (see above).
void printModule(const Module &M, llvm::raw_ostream &OS);
void printFunction(const Function &F, llvm::raw_ostream &OS);
/// Prints one instruction as its MIR line body (no indentation, no newline):
/// `TEXT ; {control}`.  \p F names its virtual registers (without it they
/// print as `%v<id>`).
void printInstr(const MInstr &MI, uint64_t Addr, llvm::raw_ostream &OS,
                const Function *F = nullptr);

/// Checks \p F (see the \file comment); errors are located at the
/// instruction when it was parsed, else name the piece and address.
llvm::Error verifyFunction(const Function &F, const llvm::SourceMgr &SM);
llvm::Error verifyModule(const Module &M, const llvm::SourceMgr &SM);

/// Builds an instruction from nvdisasm text (sass::parse); for generated
/// code.  \p Text may use `^label` as a branch target.
llvm::Expected<MInstr> makeInstr(llvm::StringRef Text,
                                 const sass::Control &Ctrl = {});

/// An error (at the function, "PASS: @f has virtual registers (run
/// tp-regalloc first)") when \p F names a virtual register: for the passes
/// whose answer depends on the physical registers (stalls, scoreboards).
llvm::Error requirePhysicalRegs(const Function &F, const llvm::SourceMgr &SM,
                                llvm::StringRef Pass);

/// The width of every virtual register of \p F (index = id; 0 for one
/// no operand names): the smallest power of two >= sub + operand width
/// over its references.
std::vector<unsigned> getVirtualRegWidths(const Function &F);

/// The pass manager unit for machine IR.
class MachineUnit : public IRUnit {
public:
  explicit MachineUnit(Module M) : M(std::move(M)) {}
  llvm::StringRef getLevel() const override { return "mir"; }
  Module M;
  /// The unit this one was lowered from (tp-select's tile IR), freed with
  /// this one rather than inside the lowering pass; may be null.
  std::unique_ptr<IRUnit> LoweredFrom;
};

} // namespace mir

/// The "mir" level: files that start (after comments) with `sass.func`.
IRLevel createMachineIRLevel();

} // namespace tp

#endif // TP_MIR_MIR_H
