//===- MIR.cpp - Machine IR: parser, printer, verifier --------------------===//
///
/// \file
/// The machine IR's text (see tp/MIR/MIR.h).  Parsing is two passes over
/// the lines: the first finds the structure (function header, pieces,
/// labels, instruction lines) and so every instruction's address; the second
/// parses each instruction with sass::parse at its address, a `^label`
/// branch target replaced by the label's address first.
///
//===----------------------------------------------------------------------===//

#include "tp/MIR/MIR.h"
#include "tp/Support/Diagnostics.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>
#include <atomic>
#include <memory>

using namespace llvm;

namespace tp {
namespace mir {

//===----------------------------------------------------------------------===//
// Function helpers
//===----------------------------------------------------------------------===//

Optional<StringRef> Function::getAttr(StringRef Key) const {
  for (const auto &A : Attrs)
    if (A.first == Key)
      return StringRef(A.second);
  return None;
}

Optional<int64_t> Function::getIntAttr(StringRef Key) const {
  auto A = getAttr(Key);
  int64_t V;
  if (!A || A->trim().getAsInteger(0, V))
    return None;
  return V;
}

void Function::setAttr(StringRef Key, StringRef Value) {
  for (auto &A : Attrs)
    if (A.first == Key) {
      A.second = Value.str();
      return;
    }
  Attrs.emplace_back(Key.str(), Value.str());
}

Piece *Function::getPiece(StringRef N) {
  for (auto &P : Pieces)
    if (P.Name == N)
      return &P;
  return nullptr;
}
const Piece *Function::getPiece(StringRef N) const {
  for (const auto &P : Pieces)
    if (P.Name == N)
      return &P;
  return nullptr;
}

Piece &Function::addPiece(StringRef N) {
  Pieces.emplace_back();
  Pieces.back().Name = N.str();
  return Pieces.back();
}

size_t Function::size() const {
  size_t N = 0;
  for (const auto &P : Pieces)
    N += P.Instrs.size();
  return N;
}

uint64_t Function::getAddress(const Piece &P, size_t Idx) const {
  uint64_t A = 0;
  for (const auto &Q : Pieces) {
    if (&Q == &P)
      return A + 16 * Idx;
    A += 16 * Q.Instrs.size();
  }
  assert(false && "piece not in function");
  return A;
}

Optional<uint64_t> Function::getLabelAddress(StringRef Label) const {
  uint64_t A = 0;
  for (const auto &P : Pieces)
    for (const auto &MI : P.Instrs) {
      if (MI.Label == Label)
        return A;
      A += 16;
    }
  return None;
}

void Function::forEach(
    const std::function<void(const Piece &, const MInstr &, uint64_t)> &F)
    const {
  uint64_t A = 0;
  for (const auto &P : Pieces)
    for (const auto &MI : P.Instrs) {
      F(P, MI, A);
      A += 16;
    }
}

unsigned Function::addVirtualReg(StringRef N) {
  // Built in place, once (a short name stays in the string's own buffer).
  bool Prefix = N.empty() || isDigit(N[0]);
  VRegNames.emplace_back(N.size() + Prefix, 'v');
  char *Out = &VRegNames.back()[Prefix];
  for (char C : N)
    *Out++ = isAlnum(C) || C == '_' ? C : '_';
  return unsigned(VRegNames.size() - 1);
}

/// Whether operand \p O names a general register (a tuple or an address).
static bool isGPROperand(const sass::OperandInfo &O) {
  return O.Kind == sass::OperandKind::GPR ||
         O.Kind == sass::OperandKind::MemBase;
}

/// The general-register masks of the forms (see gprOperandMask), one
/// atomic word a form, zero until made (static storage: no start-up cost);
/// bit 31 marks a made entry (a form has at most sass::MaxOperands < 31
/// operands).
static std::atomic<uint32_t> GPRMasks[sass::NUM_OPCODES];
constexpr uint32_t GPRMaskMade = uint32_t(1) << 31;
static_assert(sass::MaxOperands < 31, "the mask's made bit");

/// Makes form \p Op's entry (every thread that does makes the same).
LLVM_ATTRIBUTE_NOINLINE static uint32_t makeGPROperandMask(sass::Opcode Op) {
  if (unsigned(Op) >= sass::NUM_OPCODES)
    return 0;
  const sass::InstrInfo &II = sass::getInstrInfo(Op);
  uint32_t M = GPRMaskMade;
  for (unsigned K = 0; K < II.NumOperands; ++K)
    if (isGPROperand(II.Operands[K]))
      M |= uint32_t(1) << K;
  GPRMasks[Op].store(M, std::memory_order_relaxed);
  return M & ~GPRMaskMade;
}

/// Bit K set: operand K of form \p Op names a general register.  Made on
/// a form's first use and kept for the process; safe from several
/// threads.
static inline uint32_t gprOperandMask(sass::Opcode Op) {
  if (unsigned(Op) < sass::NUM_OPCODES)
    if (uint32_t M = GPRMasks[Op].load(std::memory_order_relaxed))
      return M & ~GPRMaskMade;
  return makeGPROperandMask(Op);
}

bool Function::hasVirtualRegs() const {
  for (const Piece &P : Pieces)
    for (const MInstr &MI : P.Instrs)
      for (uint32_t M = gprOperandMask(MI.I.Op); M; M &= M - 1)
        if (isVirtualReg(MI.I.Ops[countTrailingZeros(M)]))
          return true;
  return false;
}

Error requirePhysicalRegs(const Function &F, const SourceMgr &SM,
                          StringRef Pass) {
  if (!F.hasVirtualRegs())
    return Error::success();
  std::string Msg = (Pass + ": @" + F.Name +
                     " has virtual registers (run tp-regalloc first)")
                        .str();
  if (F.Loc.isValid())
    return makeSourceError(SM, F.Loc, Msg);
  return makeError(Msg);
}

std::vector<unsigned> getVirtualRegWidths(const Function &F) {
  std::vector<unsigned> W(F.VRegNames.size(), 0);
  for (const Piece &P : F.Pieces)
    for (const MInstr &MI : P.Instrs) {
      const sass::InstrInfo &II = MI.info();
      for (unsigned K = 0; K < II.NumOperands; ++K) {
        const sass::OperandInfo &O = II.Operands[K];
        int64_t V = MI.I.Ops[K];
        if (!isGPROperand(O) || !isVirtualReg(V))
          continue;
        unsigned Id = virtualRegId(V);
        if (Id >= W.size())
          W.resize(Id + 1, 0);
        W[Id] = std::max(W[Id], virtualRegSub(V) +
                                    std::max<unsigned>(1, O.Width));
      }
    }
  for (unsigned &X : W)
    if (X)
      X = unsigned(PowerOf2Ceil(X));
  return W;
}

/// The index of \p Op's branch-target operand, or -1.
static int branchOperand(sass::Opcode Op) {
  const sass::InstrInfo &II = sass::getInstrInfo(Op);
  for (unsigned I = 0; I < II.NumOperands; ++I)
    if (II.Operands[I].Kind == sass::OperandKind::BranchTarget)
      return I;
  return -1;
}

Error Function::resolveBranches() {
  // One walk records the labels and the branches with their addresses (a
  // function has a few of each: the loop's, the tail's, the closing
  // self-branch); each branch then finds its label among the few.
  struct At {
    MInstr *MI;
    uint64_t Addr;
  };
  SmallVector<At, 8> Labels, Branches;
  uint64_t Base = 0; // the piece's address
  for (auto &P : Pieces) {
    for (MInstr &MI : P.Instrs)
      if (LLVM_UNLIKELY(!MI.Label.empty() || MI.isBranch())) {
        uint64_t A = Base + 16 * uint64_t(&MI - P.Instrs.data());
        if (!MI.Label.empty())
          Labels.push_back({&MI, A});
        if (MI.isBranch())
          Branches.push_back({&MI, A});
      }
    Base += 16 * uint64_t(P.Instrs.size());
  }
  for (const At &B : Branches) {
    StringRef Target = B.MI->Target;
    // The last instruction with the label, as a map rewritten in layout
    // order keeps (the verifier rejects a label defined twice).
    auto It = std::find_if(Labels.rbegin(), Labels.rend(),
                           [&](const At &L) { return L.MI->Label == Target; });
    if (It == Labels.rend())
      return makeError("function @" + Name + ": branch at " +
                       Twine::utohexstr(B.Addr) + " to unknown label ^" +
                       Target);
    int Idx = branchOperand(B.MI->I.Op);
    if (Idx < 0)
      return makeError("function @" + Name + ": instruction at " +
                       Twine::utohexstr(B.Addr) +
                       " has a label target but no branch operand");
    B.MI->I.Ops[Idx] = sass::getBranchOffset(B.Addr, It->Addr);
  }
  return Error::success();
}

std::vector<RegAccess> getRegAccesses(const sass::Instruction &I) {
  std::vector<RegAccess> R;
  const sass::InstrInfo &II = sass::getInstrInfo(I.Op);
  for (unsigned K = 0; K < II.NumOperands; ++K) {
    const sass::OperandInfo &O = II.Operands[K];
    int64_t V = I.Ops[K];
    switch (O.Kind) {
    case sass::OperandKind::GPR:
    case sass::OperandKind::MemBase:
      if (V != 255)
        R.push_back({sass::OperandKind::GPR, unsigned(V),
                     std::max<unsigned>(1, O.Width), O.IsDef, K});
      break;
    case sass::OperandKind::UGPR:
    case sass::OperandKind::MemUR:
    case sass::OperandKind::MemDesc:
      if (V != 63)
        R.push_back({sass::OperandKind::UGPR, unsigned(V),
                     O.Kind == sass::OperandKind::MemDesc
                         ? 2u
                         : std::max<unsigned>(1, O.Width),
                     O.IsDef, K});
      break;
    case sass::OperandKind::Pred:
    case sass::OperandKind::UPred:
      if (V != 7)
        R.push_back({O.Kind, unsigned(V), 1, O.IsDef, K});
      break;
    default:
      break;
    }
  }
  if (I.Guard != 7)
    R.push_back({sass::OperandKind::Pred, I.Guard, 1, false, ~0u});
  return R;
}

//===----------------------------------------------------------------------===//
// Printer
//===----------------------------------------------------------------------===//

uint8_t operandReuseMask(sass::Opcode Op) {
  const sass::InstrInfo &II = sass::getInstrInfo(Op);
  uint8_t M = 0;
  for (unsigned I = 0; I < II.NumOperands; ++I)
    if (II.Operands[I].ReuseSlot >= 0)
      M |= uint8_t(1u << II.Operands[I].ReuseSlot);
  return M;
}

/// The spelling of virtual register value \p V: `%name[:sub]`.
static void printVirtualReg(int64_t V, const Function *F, raw_ostream &OS) {
  unsigned Id = virtualRegId(V), Sub = virtualRegSub(V);
  if (F && Id < F->VRegNames.size())
    OS << '%' << F->VRegNames[Id];
  else
    OS << "%v" << Id;
  if (Sub)
    OS << ':' << Sub;
}

/// sass::print writes a virtual register value as `R<value>` (a number
/// no physical register has): spell those as virtual registers.
static std::string spellVirtualRegs(StringRef Text, const Function *F) {
  std::string Out;
  raw_string_ostream OS(Out);
  for (size_t I = 0; I < Text.size();) {
    bool Start = Text[I] == 'R' && (I == 0 || !(isAlnum(Text[I - 1]) ||
                                               Text[I - 1] == '_'));
    size_t E = I + 1;
    while (Start && E < Text.size() && isDigit(Text[E]))
      ++E;
    int64_t V;
    if (Start && E > I + 1 && !Text.slice(I + 1, E).getAsInteger(10, V) &&
        isVirtualReg(V)) {
      printVirtualReg(V, F, OS);
      I = E;
      continue;
    }
    OS << Text[I++];
  }
  return OS.str();
}

void printInstr(const MInstr &MI, uint64_t Addr, raw_ostream &OS,
                const Function *F) {
  std::string Text;
  raw_string_ostream TS(Text);
  sass::print(MI.I, Addr, TS);
  TS.flush();
  if (Text.find("R1") != std::string::npos) {
    // (every virtual value VirtualRegBase + n prints as R1...)
    const sass::InstrInfo &II = MI.info();
    for (unsigned K = 0; K < II.NumOperands; ++K)
      if (isGPROperand(II.Operands[K]) && isVirtualReg(MI.I.Ops[K])) {
        Text = spellVirtualRegs(Text, F);
        break;
      }
  }
  if (MI.isBranch()) {
    // The target is the last operand: write the label instead.
    size_t Pos = Text.find_last_of(" ,");
    Text.resize(Pos + 1);
    Text += '^';
    Text.append(MI.Target.str().data(), MI.Target.str().size());
  }
  OS << Text << " ; ";
  sass::Control C = MI.I.Ctrl;
  C.Reuse &= ~operandReuseMask(MI.I.Op); // those are on the operands
  sass::printControl(C, OS);
  if (MI.isBranch()) {
    // The encoded displacement, for readers and tests (a comment: the
    // label is what the parser reads).
    int Idx = branchOperand(MI.I.Op);
    if (Idx >= 0) {
      int64_t Bytes = 4 * MI.I.Ops[Idx];
      OS << " // " << (Bytes < 0 ? "-" : "+") << "0x"
         << Twine::utohexstr(uint64_t(Bytes < 0 ? -Bytes : Bytes))
         << " bytes from the next instruction";
    }
  }
}

static void printAttrs(const Function &F, raw_ostream &OS) {
  OS << " target(\"" << F.Target << "\") regs(" << F.Regs << ") smem("
     << F.SharedBytes << ")";
  for (const auto &A : F.Attrs)
    OS << ' ' << A.first << '(' << A.second << ')';
}

void printFunction(const Function &F, raw_ostream &OS) {
  OS << "sass.func @" << F.Name;
  printAttrs(F, OS);
  OS << " {\n";
  uint64_t A = 0;
  for (const auto &P : F.Pieces) {
    OS << "piece " << P.Name << '\n';
    for (const auto &MI : P.Instrs) {
      if (!MI.Label.empty())
        OS << '^' << MI.Label << ":\n";
      OS << "  ";
      printInstr(MI, A, OS, &F);
      OS << '\n';
      A += 16;
    }
  }
  OS << "}\n";
}

void printModule(const Module &M, raw_ostream &OS) {
  for (size_t I = 0; I < M.Functions.size(); ++I) {
    if (I)
      OS << '\n';
    printFunction(M.Functions[I], OS);
  }
}

//===----------------------------------------------------------------------===//
// Parser
//===----------------------------------------------------------------------===//

namespace {
struct PendingInstr {
  StringRef Text;    ///< the instruction text (before ';')
  StringRef Control; ///< the control clause, or empty
  std::string Label;
  size_t Piece;
  uint64_t Addr;
};

bool isIdentChar(char C) { return isAlnum(C) || C == '_' || C == '.' || C == '-'; }
} // namespace

/// The line without its `//` comment, trimmed.
static StringRef stripLine(StringRef L) {
  size_t C = L.find("//");
  if (C != StringRef::npos)
    L = L.substr(0, C);
  return L.trim();
}

StringRef stripLineForLevel(StringRef L) { return stripLine(L); }

/// vreg ::= '%' name [':' sub]: replaces each virtual register of \p Text
/// by a placeholder physical register no physical operand of it names (a
/// multiple of 4, so any tuple is aligned), for sass::parse; \p Map gets
/// (placeholder, virtual register value).  New names get ids in \p F.
static Error substituteVirtualRegs(StringRef Text, SourceMgr &SM, Function &F,
                                   StringMap<unsigned> &Ids, std::string &Out,
                                   SmallVectorImpl<std::pair<int64_t, int64_t>>
                                       &Map) {
  // The physical registers the text names.
  std::vector<bool> Taken(256, false);
  for (size_t I = 0; I + 1 < Text.size(); ++I)
    if (Text[I] == 'R' && isDigit(Text[I + 1]) &&
        (I == 0 || !(isAlnum(Text[I - 1]) || Text[I - 1] == '_'))) {
      unsigned V = 0;
      size_t E = I + 1;
      while (E < Text.size() && isDigit(Text[E]) && V < 256)
        V = V * 10 + unsigned(Text[E++] - '0');
      if (V < 256)
        Taken[V] = true;
    }
  unsigned Next = 0;
  Out.clear();
  for (size_t I = 0; I < Text.size();) {
    if (Text[I] != '%') {
      Out += Text[I++];
      continue;
    }
    size_t E = I + 1;
    while (E < Text.size() && (isAlnum(Text[E]) || Text[E] == '_'))
      ++E;
    StringRef Name = Text.slice(I + 1, E);
    if (Name.empty() || isDigit(Name[0]))
      return makeSourceError(SM, SMLoc::getFromPointer(Text.begin() + I),
                             "expected a virtual register name after '%'");
    unsigned Sub = 0;
    if (E < Text.size() && Text[E] == ':') {
      size_t D = E + 1;
      while (D < Text.size() && isDigit(Text[D]))
        ++D;
      if (D == E + 1 || Text.slice(E + 1, D).getAsInteger(10, Sub) || Sub > 3)
        return makeSourceError(SM, SMLoc::getFromPointer(Text.begin() + E),
                               "expected a register index 0..3 after ':'");
      E = D;
    }
    auto It = Ids.find(Name);
    unsigned Id;
    if (It == Ids.end()) {
      F.VRegNames.push_back(Name.str());
      Id = unsigned(F.VRegNames.size() - 1);
      Ids[Name] = Id;
    } else {
      Id = It->second;
    }
    int64_t V = virtualReg(Id, Sub);
    int64_t PH = -1;
    for (auto &P : Map)
      if (P.second == V)
        PH = P.first;
    if (PH < 0) {
      while (Next < 252 && Taken[Next])
        Next += 4;
      if (Next >= 252)
        return makeSourceError(SM, SMLoc::getFromPointer(Text.begin() + I),
                               "too many registers in one instruction");
      PH = Next;
      Next += 4;
      Map.push_back({PH, V});
    }
    Out += "R" + std::to_string(PH);
    I = E;
  }
  return Error::success();
}

namespace {

/// The MIR text parser: one method per kind of line (the sass.func line,
/// `piece`, a label, an instruction) and one that finishes a function,
/// parsing its instructions once every label of the function is known.
class ModuleParser {
public:
  ModuleParser(SourceMgr &SM, unsigned BufferID)
      : SM(SM), Buf(SM.getMemoryBuffer(BufferID)->getBuffer()) {}

  Expected<Module> run() {
    SmallVector<StringRef, 0> Lines;
    Buf.split(Lines, '\n');
    for (StringRef Raw : Lines) {
      StringRef L = stripLine(Raw);
      if (L.empty())
        continue;
      Error E = Error::success();
      if (!F)
        E = parseFunctionLine(L);
      else if (L == "}")
        E = finishFunction();
      else if (L.startswith("piece ") || L == "piece")
        E = parsePieceLine(L);
      else if (L.startswith("^") && L.endswith(":"))
        E = parseLabelLine(L);
      else
        E = parseInstrLine(L);
      if (E)
        return E;
    }
    if (F)
      return err(Buf.end(), "expected '}' at the end of sass.func @" + F->Name);
    if (M.Functions.empty())
      return err(Buf.begin(), "expected a 'sass.func', found none (no "
                              "machine IR in the input)");
    return std::move(M);
  }

private:
  SourceMgr &SM;
  StringRef Buf;
  Module M;
  Function *F = nullptr;
  std::vector<PendingInstr> Pending;
  std::string PendingLabel;
  const char *PendingLabelLoc = nullptr;
  StringMap<uint64_t> Labels;
  StringMap<unsigned> VRegIds;
  /// Where each attribute's value starts on the current sass.func line.
  StringMap<const char *> AttrAt;
  uint64_t Addr = 0;

  Error err(const char *P, const Twine &Msg) {
    return makeSourceError(SM, SMLoc::getFromPointer(P), Msg);
  }

  /// `sass.func @name key(value)... {`
  Error parseFunctionLine(StringRef L) {
    if (!L.startswith("sass.func"))
      return err(L.begin(), "expected 'sass.func'");
    M.Functions.emplace_back();
    F = &M.Functions.back();
    F->Loc = SMLoc::getFromPointer(L.begin());
    StringRef R = L.drop_front(strlen("sass.func")).ltrim();
    if (!R.consume_front("@"))
      return err(R.begin(), "expected '@name' after sass.func");
    size_t E = 0;
    while (E < R.size() && isIdentChar(R[E]))
      ++E;
    if (E == 0)
      return err(R.begin(), "expected a function name");
    F->Name = R.substr(0, E).str();
    R = R.drop_front(E).ltrim();
    bool SawRegs = false;
    while (!R.empty() && R[0] != '{') {
      size_t Open = R.find('(');
      if (Open == StringRef::npos)
        return err(R.begin(), "expected 'key(value)' or '{'");
      StringRef Key = R.substr(0, Open).trim();
      size_t Close = R.find(')', Open);
      if (Close == StringRef::npos)
        return err(R.begin() + Open, "expected ')'");
      StringRef Val = R.slice(Open + 1, Close).trim();
      if (Key.empty())
        return err(R.begin(), "expected an attribute name");
      if (Error Er = parseAttribute(Key, Val, R.begin() + Open + 1, SawRegs))
        return Er;
      R = R.drop_front(Close + 1).ltrim();
    }
    if (R != "{")
      return err(R.empty() ? L.end() : R.begin(),
                 "expected '{' at the end of the sass.func line");
    if (!SawRegs)
      return err(L.begin(), "sass.func @" + F->Name + " needs regs(N)");
    if (Error E = checkLaunchAttributes())
      return E;
    AttrAt.clear();
    Addr = 0;
    return Error::success();
  }

  /// The launch attributes a kernel's manifest is made from (threads,
  /// grid, shape, tile, params), each checked at its value's text: the
  /// hardware's limits, then their agreement (the grid covers the shape
  /// with the tile's blocks; a grid z > 1 is a batch, which needs the
  /// stride parameters).  An absent attribute is not checked.
  Error checkLaunchAttributes() {
    auto Ints = [](StringRef V, char Sep, size_t N,
                   SmallVectorImpl<uint64_t> &Out) {
      SmallVector<StringRef, 5> P;
      V.split(P, Sep);
      if (P.size() != N)
        return false;
      for (StringRef X : P) {
        uint64_t I;
        if (X.trim().getAsInteger(10, I))
          return false;
        Out.push_back(I);
      }
      return true;
    };
    SmallVector<uint64_t, 1> Threads;
    SmallVector<uint64_t, 3> Grid, Shape;
    SmallVector<uint64_t, 5> Tile;
    if (Optional<StringRef> V = F->getAttr("threads")) {
      if (!Ints(*V, ',', 1, Threads) || Threads[0] < 32 || Threads[0] > 1024 ||
          Threads[0] % 32)
        return err(AttrAt["threads"], "threads(" + *V +
                                          "): expected a block of whole warps, "
                                          "32..1024 threads in steps of 32");
    }
    if (Optional<StringRef> V = F->getAttr("grid")) {
      if (!Ints(*V, ',', 3, Grid))
        return err(AttrAt["grid"],
                   "grid(" + *V + "): expected X,Y,Z (three integers)");
      static const char *const Axis[] = {"x", "y", "z"};
      for (unsigned I = 0; I < 3; ++I) {
        uint64_t Max = I == 0 ? uint64_t(INT32_MAX) : 65535;
        if (Grid[I] < 1 || Grid[I] > Max)
          return err(AttrAt["grid"], "grid(" + *V + "): expected " + Axis[I] +
                                         " in [1, " + Twine(Max) + "], found " +
                                         Twine(Grid[I]));
      }
    }
    if (Optional<StringRef> V = F->getAttr("shape"))
      if (!Ints(*V, 'x', 3, Shape) || llvm::any_of(Shape, [](uint64_t X) {
            return X < 1 || X > uint64_t(INT32_MAX);
          }))
        return err(AttrAt["shape"], "shape(" + *V +
                                        "): expected MxNxK, each in [1, " +
                                        Twine(INT32_MAX) + "]");
    if (Optional<StringRef> V = F->getAttr("tile"))
      if (!Ints(*V, ',', 5, Tile) ||
          llvm::any_of(Tile, [](uint64_t X) { return X < 1 || X > 64; }))
        return err(AttrAt["tile"],
                   "tile(" + *V +
                       "): expected warpsM,warpsN,mTiles,nTiles,"
                       "stages (five integers 1..64)");
    if (!Threads.empty() && !Tile.empty() &&
        Threads[0] != 32 * Tile[0] * Tile[1])
      return err(AttrAt["threads"],
                 "threads(" + Twine(Threads[0]) + ") disagrees with tile(" +
                     *F->getAttr("tile") + "): " + Twine(Tile[0] * Tile[1]) +
                     " warps are " + Twine(32 * Tile[0] * Tile[1]) +
                     " threads");
    if (!Grid.empty() && !Shape.empty() && !Tile.empty()) {
      uint64_t BM = 16 * Tile[0] * Tile[2], BN = 8 * Tile[1] * Tile[3];
      uint64_t GX = (Shape[1] + BN - 1) / BN, GY = (Shape[0] + BM - 1) / BM;
      if (Grid[0] != GX || Grid[1] != GY)
        return err(AttrAt["grid"],
                   "grid(" + *F->getAttr("grid") + ") disagrees with shape(" +
                       *F->getAttr("shape") + ") and tile(" +
                       *F->getAttr("tile") + "): " + Twine(BM) + "x" +
                       Twine(BN) + " blocks need grid x = " + Twine(GX) +
                       ", y = " + Twine(GY));
    }
    if (Grid.size() == 3 && Grid[2] > 1) {
      SmallVector<StringRef, 12> Roles;
      F->getAttr("params").getValueOr("").split(Roles, ',');
      if (!llvm::is_contained(Roles, "StrideA"))
        return err(AttrAt["grid"],
                   "grid(" + *F->getAttr("grid") + "): a grid z of " +
                       Twine(Grid[2]) +
                       " is a batch, which needs the "
                       "StrideA, StrideB and StrideC parameters (params(...))");
    }
    return Error::success();
  }

  /// One `key(value)` of the sass.func line; \p At is the value's text.
  Error parseAttribute(StringRef Key, StringRef Val, const char *At,
                       bool &SawRegs) {
    if (!AttrAt.try_emplace(Key, At).second)
      return err(Key.data(), "attribute '" + Key +
                                 "' given twice on sass.func @" + F->Name);
    if (Key == "target") {
      if (!Val.consume_front("\"") || !Val.consume_back("\""))
        return err(At, "expected a quoted target");
      sass::Target T;
      if (!sass::lookupTarget(Val, T) || !sass::getTargetInfo(T).GemmCodeGen ||
          sass::getTargetName(T) != Val)
        return err(At, "unsupported target '" + Val + "', expected " +
                           sass::getGemmTargetList());
      F->Target = Val.str();
    } else if (Key == "regs") {
      if (Val.getAsInteger(0, F->Regs) || F->Regs > 255)
        return err(At, "expected a register count 0..255, found '" + Val +
                           "'");
      SawRegs = true;
    } else if (Key == "smem") {
      if (Val.getAsInteger(0, F->SharedBytes))
        return err(At, "expected a byte count, found '" + Val + "'");
    } else {
      F->Attrs.emplace_back(Key.str(), Val.str());
    }
    return Error::success();
  }

  Error parsePieceLine(StringRef L) {
    StringRef N = L.drop_front(5).trim();
    if (N.empty() || !llvm::all_of(N, isIdentChar))
      return err(L.begin(), "expected a piece name");
    if (F->getPiece(N))
      return err(N.begin(), "piece '" + N + "' defined twice");
    if (!PendingLabel.empty())
      return err(PendingLabelLoc, "label ^" + PendingLabel +
                                      " does not start an instruction");
    F->addPiece(N).Loc = SMLoc::getFromPointer(L.begin());
    return Error::success();
  }

  Error parseLabelLine(StringRef L) {
    StringRef N = L.drop_front().drop_back().trim();
    if (N.empty() || !llvm::all_of(N, isIdentChar))
      return err(L.begin(), "expected a label name");
    if (!PendingLabel.empty())
      return err(L.begin(), "two labels on one instruction");
    if (Labels.count(N))
      return err(L.begin(), "label ^" + N + " defined twice");
    Labels[N] = Addr;
    PendingLabel = N.str();
    PendingLabelLoc = L.begin();
    return Error::success();
  }

  /// An instruction line, kept until the function's end (a branch may
  /// name a label further down).
  Error parseInstrLine(StringRef L) {
    if (F->Pieces.empty())
      return err(L.begin(), "expected 'piece NAME' before the first "
                            "instruction");
    PendingInstr PI;
    size_t Semi = L.rfind(';');
    if (Semi != StringRef::npos) {
      PI.Text = L.substr(0, Semi).rtrim();
      PI.Control = L.substr(Semi + 1).trim();
      if (PI.Control.empty())
        PI.Control = StringRef();
    } else {
      PI.Text = L;
    }
    PI.Label = PendingLabel;
    PendingLabel.clear();
    PI.Piece = F->Pieces.size() - 1;
    PI.Addr = Addr;
    Addr += 16;
    Pending.push_back(PI);
    return Error::success();
  }

  /// The closing `}`: every pending instruction parsed into its piece.
  Error finishFunction() {
    if (!PendingLabel.empty())
      return err(PendingLabelLoc, "label ^" + PendingLabel +
                                      " does not start an instruction");
    // The function's target decides which forms exist (VIADD: sm_90).
    sass::Target T = sass::Target::SM86;
    sass::lookupTarget(F->Target, T);
    for (PendingInstr &PI : Pending) {
      Expected<MInstr> MI = parseInstr(PI, T);
      if (!MI)
        return MI.takeError();
      F->Pieces[PI.Piece].Instrs.push_back(std::move(*MI));
    }
    Pending.clear();
    Labels.clear();
    VRegIds.clear();
    F = nullptr;
    return Error::success();
  }

  /// One instruction: virtual registers replaced by placeholders, a `^label`
  /// by its address, the text parsed for \p T, then the placeholders put
  /// back and the control clause applied.
  Expected<MInstr> parseInstr(const PendingInstr &PI, sass::Target T) {
    MInstr MI;
    MI.Loc = SMLoc::getFromPointer(PI.Text.begin());
    MI.Label = PI.Label;
    StringRef Text = PI.Text;
    std::string Subst;
    SmallVector<std::pair<int64_t, int64_t>, 4> Placeholders;
    if (Text.contains('%')) {
      if (Error E = substituteVirtualRegs(Text, SM, *F, VRegIds, Subst,
                                          Placeholders))
        return E;
    }
    StringRef Work = Placeholders.empty() ? Text : StringRef(Subst);
    size_t Caret = Work.find('^');
    if (Caret != StringRef::npos) {
      size_t E = Caret + 1;
      while (E < Work.size() && isIdentChar(Work[E]))
        ++E;
      StringRef Name = Work.slice(Caret + 1, E);
      const char *At =
          Placeholders.empty() ? Text.begin() + Caret : Text.begin();
      if (Name.empty())
        return err(At, "expected a label name after '^'");
      auto It = Labels.find(Name);
      if (It == Labels.end())
        return err(At, "unknown label ^" + Name);
      MI.Target = Name;
      Subst = (Work.substr(0, Caret) + "0x" + Twine::utohexstr(It->second) +
               Work.substr(E))
                  .str();
      Work = Subst;
    }
    Expected<sass::Instruction> I = sass::Instruction();
    if (Work.data() != Text.data()) {
      unsigned B = SM.AddNewSourceBuffer(
          MemoryBuffer::getMemBufferCopy(
              Work, Placeholders.empty() ? "<branch>" : "<virtual registers>"),
          MI.Loc);
      I = sass::parse(SM.getMemoryBuffer(B)->getBuffer(), PI.Addr, SM, T);
    } else {
      I = sass::parse(Text, PI.Addr, SM, T);
    }
    if (!I)
      return I.takeError();
    MI.I = *I;
    if (!Placeholders.empty()) {
      const sass::InstrInfo &II = MI.info();
      for (unsigned K = 0; K < II.NumOperands; ++K)
        if (isGPROperand(II.Operands[K]))
          for (auto &PH : Placeholders)
            if (MI.I.Ops[K] == PH.first)
              MI.I.Ops[K] = PH.second;
    }
    if (!PI.Control.empty()) {
      Expected<sass::Control> C = sass::parseControl(PI.Control, SM);
      if (!C)
        return C.takeError();
      sass::applyControl(MI.I, *C);
    }
    return MI;
  }
};

} // namespace

Expected<Module> parseModule(SourceMgr &SM, unsigned BufferID) {
  return ModuleParser(SM, BufferID).run();
}

//===----------------------------------------------------------------------===//
// Verifier
//===----------------------------------------------------------------------===//

/// Names the first duplicate among \p F's virtual register names, if any.
static Error checkVirtualRegNames(const Function &F) {
  DenseSet<StringRef> Names;
  Names.reserve(unsigned(F.VRegNames.size()));
  for (const std::string &N : F.VRegNames)
    if (!Names.insert(N).second)
      return makeError("@" + F.Name + ": virtual register %" + N +
                       " defined twice");
  return Error::success();
}

/// The first operand of \p MI whose general register is wrong, found
/// without building text (the message is made only for an error): a
/// virtual register with no name or not at a multiple of the operand's
/// width in its tuple (\p Virtual); a physical tuple not aligned to its
/// width or past regs() (\p Physical); -1 where there is none.
static bool scanGPROperands(const Function &F, const MInstr &MI,
                            int &Virtual, int &Physical) {
  const sass::InstrInfo &II = MI.info();
  bool HasVirtual = false;
  Virtual = Physical = -1;
  for (uint32_t M = gprOperandMask(MI.I.Op); M; M &= M - 1) {
    unsigned K = countTrailingZeros(M);
    const sass::OperandInfo &O = II.Operands[K];
    int64_t V = MI.I.Ops[K];
    unsigned W = std::max<unsigned>(1, O.Width);
    if (isVirtualReg(V)) {
      HasVirtual = true;
      if (Virtual < 0 && (virtualRegId(V) >= F.VRegNames.size() ||
                          virtualRegSub(V) % W))
        Virtual = int(K);
    } else if (V != sass::RZ && Physical < 0) {
      unsigned Reg = unsigned(V);
      if ((W > 1 && Reg % W) || Reg + W > F.Regs)
        Physical = int(K);
    }
  }
  return HasVirtual;
}

/// The message for operand \p K that scanGPROperands() found wrong.
static std::string gprOperandError(const Function &F, const MInstr &MI,
                                   unsigned K) {
  const sass::OperandInfo &O = MI.info().Operands[K];
  int64_t V = MI.I.Ops[K];
  unsigned W = std::max<unsigned>(1, O.Width);
  if (isVirtualReg(V)) {
    unsigned Id = virtualRegId(V), Sub = virtualRegSub(V);
    if (Id >= F.VRegNames.size())
      return ("virtual register %v" + Twine(Id) + " has no name in @" +
              F.Name)
          .str();
    return ("register %" + F.VRegNames[Id] + ":" + Twine(Sub) + " of " +
            Twine(W) + " registers must start at a multiple of " + Twine(W) +
            " in its tuple of " + Twine(getVirtualRegWidths(F)[Id]))
        .str();
  }
  unsigned Reg = unsigned(V);
  if (W > 1 && Reg % W)
    return ("register tuple R" + Twine(Reg) + " of " + Twine(W) +
            " registers must be aligned to " + Twine(W))
        .str();
  return ("register R" + Twine(Reg + W - 1) +
          " is outside the function's regs(" + Twine(F.Regs) + ")")
      .str();
}

Error verifyFunction(const Function &F, const SourceMgr &SM) {
  auto At = [&](const MInstr &MI, const Piece &P, uint64_t A,
                const Twine &Msg) -> Error {
    if (MI.Loc.isValid())
      return makeSourceError(SM, MI.Loc, Msg);
    return makeError("@" + F.Name + ", piece " + P.Name + ", /*" +
                     Twine::utohexstr(A) + "*/: " + Msg);
  };
  StringSet<> PieceNames, Labels;
  for (const auto &P : F.Pieces) {
    if (!PieceNames.insert(P.Name).second)
      return makeError("@" + F.Name + ": piece '" + P.Name +
                       "' defined twice");
    for (const auto &MI : P.Instrs)
      if (!MI.Label.empty() && !Labels.insert(MI.Label).second)
        return makeError("@" + Twine(F.Name) + ": label ^" + MI.Label.str() +
                         " defined twice");
  }
  if (Error E = checkVirtualRegNames(F))
    return E;
  // The forms and field widths are the function's target's (VIADD exists
  // on sm_90 only, sm_90's BRA offset is wider).
  sass::Target T = sass::Target::SM86;
  sass::lookupTarget(F.Target, T);
  uint64_t A = 0;
  for (const auto &P : F.Pieces) {
    for (const auto &MI : P.Instrs) {
      int Virtual, Physical;
      bool HasVirtual = scanGPROperands(F, MI, Virtual, Physical);
      if (Virtual >= 0)
        return At(MI, P, A, gprOperandError(F, MI, unsigned(Virtual)));
      // The form's field ranges hold for the physical registers; a virtual
      // one was checked for its place in its tuple (and is verified as R0).
      if (HasVirtual) {
        sass::Instruction Phys = MI.I;
        const sass::InstrInfo &II = MI.info();
        for (unsigned K = 0; K < II.NumOperands; ++K)
          if (isGPROperand(II.Operands[K]) && isVirtualReg(MI.I.Ops[K]))
            Phys.Ops[K] = 0;
        if (Error E = sass::verify(Phys, T))
          return At(MI, P, A, toString(std::move(E)));
      } else if (Error E = sass::verify(MI.I, T)) {
        return At(MI, P, A, toString(std::move(E)));
      }
      if (Physical >= 0)
        return At(MI, P, A, gprOperandError(F, MI, unsigned(Physical)));
      if (MI.isBranch() && !Labels.count(MI.Target))
        return At(MI, P, A, "branch to unknown label ^" + MI.Target);
      A += 16;
    }
  }
  return Error::success();
}

Error verifyModule(const Module &M, const SourceMgr &SM) {
  for (const auto &F : M.Functions)
    if (Error E = verifyFunction(F, SM))
      return E;
  return Error::success();
}

Expected<MInstr> makeInstr(StringRef Text, const sass::Control &Ctrl) {
  SourceMgr SM;
  std::string T = Text.str();
  std::string Target;
  size_t Caret = T.find('^');
  if (Caret != std::string::npos) {
    size_t E = Caret + 1;
    while (E < T.size() && isIdentChar(T[E]))
      ++E;
    Target = T.substr(Caret + 1, E - Caret - 1);
    T = T.substr(0, Caret) + "0x10" + T.substr(E);
  }
  SM.AddNewSourceBuffer(MemoryBuffer::getMemBufferCopy(T, "<generated>"),
                        SMLoc());
  Expected<sass::Instruction> I =
      sass::parse(SM.getMemoryBuffer(1)->getBuffer(), 0, SM);
  if (!I) {
    std::string Msg;
    raw_string_ostream OS(Msg);
    handleAllErrors(I.takeError(), [&](const ErrorInfoBase &EI) {
      EI.log(OS);
    });
    return makeError("cannot build instruction '" + Text + "': " + OS.str());
  }
  MInstr MI(*I);
  sass::applyControl(MI.I, Ctrl);
  MI.Target = Target;
  return MI;
}

} // namespace mir

//===----------------------------------------------------------------------===//
// The "mir" level
//===----------------------------------------------------------------------===//

namespace mir {
StringRef stripLineForLevel(StringRef L);
}

IRLevel createMachineIRLevel() {
  IRLevel L;
  L.Name = "mir";
  L.Description = "machine IR: sm_86 SASS in named pieces (sass.func)";
  L.Recognizes = [](StringRef Text) {
    SmallVector<StringRef, 0> Lines;
    Text.split(Lines, '\n');
    for (StringRef Raw : Lines) {
      StringRef Ln = mir::stripLineForLevel(Raw);
      if (!Ln.empty())
        return Ln.startswith("sass.func");
    }
    return false;
  };
  L.Parse = [](SourceMgr &SM,
               unsigned BufferID) -> Expected<std::unique_ptr<IRUnit>> {
    Expected<mir::Module> M = mir::parseModule(SM, BufferID);
    if (!M)
      return M.takeError();
    return std::unique_ptr<IRUnit>(new mir::MachineUnit(std::move(*M)));
  };
  L.Print = [](const IRUnit &U, raw_ostream &OS) {
    mir::printModule(static_cast<const mir::MachineUnit &>(U).M, OS);
  };
  L.Verify = [](const IRUnit &U, const SourceMgr &SM) {
    return mir::verifyModule(static_cast<const mir::MachineUnit &>(U).M, SM);
  };
  return L;
}

} // namespace tp
