//===- RegAlloc.cpp - tp-regalloc: virtual registers to R0..R254 ----------===//
///
/// \file
/// mir -> mir.  Requires tp-select's pieces (prologue, body, tail; the
/// body one iteration that repeats, no `control` piece yet) with virtual
/// registers (`%name[:k]`, tp/MIR/MIR.h) and possibly physical ones (kept:
/// they are pre-assigned).  Guarantees: no virtual register is left; every
/// tuple starts at a multiple of its width (an HMMA/LDSM 4-tuple at 4k, a
/// pointer or 64-bit datum at 2k); two virtual registers share a register
/// only where neither is live when the other is written; a value live
/// into the body is in the same register at the body's end (one register
/// a virtual register for its whole life: there is no splitting, so the
/// back edge needs no copies); regs() is the highest register used + 1;
/// the attribute counter(%x) names x's register.  Errors: more registers
/// live than max-regs allows, a misaligned or conflicting pre-assignment.
///
/// Where it runs: after tp-interleave, before tp-compact-stalls.  After
/// tp-interleave, because the interleaved order decides what is live at
/// once (a fragment loaded under the previous k-half's products must not
/// share the registers those products still read) and because the reuse
/// flags it sets name the A fragment of a run of HMMAs, which stays one
/// virtual register, hence one physical register, across the run (the
/// operand-reuse cache is keyed on the register).  Before
/// tp-compact-stalls, because stalls and scoreboards follow from physical
/// registers: the false dependencies of a shared register (WAR, WAW) are
/// seen and paid for by the schedule, and tp-verify-schedule checks them.
///
/// Algorithm:
///  1. widths (as mir::getVirtualRegWidths) and one liveness unit per
///     register of every tuple, so that a pair of a 4-tuple can be written
///     without killing the other pair (the accumulators are zeroed by
///     halves, R's values loaded by words);
///  2. liveness per piece to a fixed point over the pieces' graph:
///     prologue -> body -> tail, body -> body (the back edge; tp-form-loop
///     adds the branch), a branch to a label that starts a piece; the
///     counter is live at the body's end (the loop control reads it).
///     The forward walk that reads the operands (and finds the order of
///     first appearance) gives what each piece reads first (Gen) and
///     writes unguarded (Kill); the fixed point is then on whole sets;
///  3. interference: each written register against everything live after
///     the instruction and everything else the instruction reads (a result
///     never overlaps an operand of its own instruction), in one backward
///     sweep a piece: a def's row takes what is live before its
///     instruction, which is that union, and the instruction's other defs;
///  4. pre-assignments first (option plan=seed: the seed's register plan,
///     and the function attribute preassign(%x=Rn ...)), then every other
///     virtual register in the order of its first appearance, at the
///     lowest multiple of its width that no interfering register occupies
///     (first fit);
///  5. rewrite and, in the same walk, the scoreboard waits the
///     conservative schedule needs on the physical registers (tp-select's
///     waits, derived as before: a read or write of a register a pending
///     variable-latency write guards, a write of one a pending late read
///     guards; the body's first instruction waits for what either way into
///     it leaves pending, so one walk of the body gives every wait; EXIT
///     for all).
///     tp-compact-stalls recomputes every field.
///
/// Representation: the register operands of every instruction are read
/// once into one flat table, scanned (step 1, Gen and Kill) as they are
/// written (per form, the list of its general-register operands, defs
/// first, with their width masks, is made on the form's first use); each
/// operand keeps the units it names; unit and register sets are
/// arrays of 64-bit words indexed by unit, virtual register id or physical
/// register; interference is a bit matrix over the ids, a row per written
/// register, not made symmetric: a register placed marks its tuple for the
/// registers of its row (first fit reads those marks and the placed
/// registers of its own row); no map, set or name is consulted per
/// instruction.
///
/// The seed's plan (../shared/seed/TiledProductSM86.seed.txt, "registers"):
/// tid R0, lane R1, warp R2, warp_m R3, warp_n R4, one R5, ctaid.y R6,
/// ctaid.x R7, A's pointers R10+2c, B's R18+2c, A's shared addresses
/// R26+c, B's R30+c, A's LDSM addresses R34+i, B's R38+i, C's pointer
/// R42, the counter R44, accumulators from R48 (4 (mt NT + nt)), then A's
/// fragments (4 (kk MT + mt)), B's (2 (kk NT + nt)), then the chunks'
/// offsets (A's, B's).  Values the seed has no register for (tp-select's
/// address temporaries) are allocated around them.
///
//===----------------------------------------------------------------------===//

#include "tp/CodeGen/CodeGen.h"
#include "tp/MIR/MIR.h"
#include "tp/Support/Debug.h"
#include "tp/Support/Diagnostics.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <array>

using namespace llvm;

#define DEBUG_TYPE "tp-regalloc"

STATISTIC(NumVirtualRegs, "Virtual registers allocated");
STATISTIC(NumRegsUsed, "Registers used (the highest + 1)");
STATISTIC(NumPreassigned, "Virtual registers pre-assigned");
STATISTIC(NumShared, "Virtual registers placed in a register another "
                     "virtual register also holds");

namespace tp {
namespace {

using mir::Function;
using mir::MInstr;

constexpr unsigned NumPhysRegs = sass::RZ; // R0..R254

//===----------------------------------------------------------------------===//
// Dense bit sets: arrays of 64-bit words, indexed by unit, register or id
//===----------------------------------------------------------------------===//

size_t wordsFor(size_t Bits) { return (Bits + 63) / 64; }

void setBit(uint64_t *W, size_t I) { W[I / 64] |= uint64_t(1) << (I % 64); }

/// Bits [First, First + N) of \p W set, tested for any.  A
/// range of at most 64 bits (a tuple, a register's units) touches at most
/// two words.
template <typename Fn> void forRangeWords(size_t First, size_t N, Fn F) {
  while (N > 64) {
    forRangeWords(First, 64, F);
    First += 64;
    N -= 64;
  }
  if (!N)
    return;
  uint64_t M = N == 64 ? ~uint64_t(0) : (uint64_t(1) << N) - 1;
  size_t B = First % 64;
  F(First / 64, M << B);
  if (B + N > 64)
    F(First / 64 + 1, M >> (64 - B));
}
void setRange(uint64_t *W, size_t First, size_t N) {
  forRangeWords(First, N, [W](size_t I, uint64_t M) { W[I] |= M; });
}
bool anyInRange(const uint64_t *W, size_t First, size_t N) {
  bool Any = false;
  forRangeWords(First, N,
                [&](size_t I, uint64_t M) { Any |= (W[I] & M) != 0; });
  return Any;
}

/// Calls \p F with the index of every set bit of \p W (\p NW words), in
/// increasing order.
template <typename Fn> void forEachBit(const uint64_t *W, size_t NW, Fn F) {
  for (size_t I = 0; I < NW; ++I)
    for (uint64_t X = W[I]; X; X &= X - 1)
      F(unsigned(I * 64 + countTrailingZeros(X)));
}

/// A square bit matrix over the virtual registers, rows of whole words.
class BitMatrix {
public:
  void reset(size_t N) {
    RowWords = wordsFor(N);
    Bits.assign(N * RowWords, 0);
  }
  size_t rowWords() const { return RowWords; }
  uint64_t *row(size_t R) { return &Bits[R * RowWords]; }
  const uint64_t *row(size_t R) const { return &Bits[R * RowWords]; }
  bool test(size_t R, size_t C) const {
    return (row(R)[C / 64] >> (C % 64)) & 1;
  }

private:
  size_t RowWords = 0;
  std::vector<uint64_t> Bits;
};

/// A set of physical registers, a tuple's overhang past R254 included.
struct PhysSet {
  static constexpr unsigned NumBits = NumPhysRegs + 8;
  std::array<uint64_t, 5> W{};
  /// Registers [R, R + N) clipped to NumBits.
  static size_t clip(unsigned R, unsigned N) {
    return R >= NumBits ? 0 : std::min<size_t>(N, NumBits - R);
  }
  void set(unsigned R, unsigned N) {
    if (R % 64 + N <= 64 && R + N <= NumBits && N) // an aligned tuple
      W[R / 64] |= (N == 64 ? ~uint64_t(0) : (uint64_t(1) << N) - 1)
                   << (R % 64);
    else if (size_t K = clip(R, N))
      setRange(W.data(), R, K);
  }
  bool any(unsigned R, unsigned N) const {
    size_t K = clip(R, N);
    return K && anyInRange(W.data(), R, K);
  }
};

//===----------------------------------------------------------------------===//
// Register operands, collected once
//===----------------------------------------------------------------------===//

/// A register operand of an instruction, in allocation terms.
struct Ref {
  uint32_t Reg;  ///< virtual id or physical register
  uint8_t Sub;   ///< virtual: first register in the tuple
  uint8_t Width;
  uint8_t OpIdx;
  bool Virtual;
  bool IsDef;
  /// Virtual: the units (registers of its tuple) the operand names, bit k
  /// for register k (Sub + Width <= 16: see RefTable::formOf).
  uint16_t Units;
};

/// The register operands of every instruction of a function, flat: those
/// of instruction I (layout order) are refs()[Begin[I] .. Begin[I + 1]).
struct RefTable {
  std::vector<uint32_t> Begin;
  /// The first instruction of piece P; PieceFirst[P + 1] ends it.
  std::vector<uint32_t> PieceFirst;
  /// Per instruction, for the conservative waits: the scoreboard its
  /// variable-latency writes set (bits 0-2; 0: none), the one its late
  /// reads set (bits 3-5), and whether it is an EXIT (bit 6).
  std::vector<uint8_t> Flags;
  static constexpr uint8_t ExitFlag = 0x40;

  ArrayRef<Ref> refs() const { return {Data.get(), Begin.back()}; }
  MutableArrayRef<Ref> of(size_t I) {
    return {Data.get() + Begin[I], Data.get() + Begin[I + 1]};
  }
  ArrayRef<Ref> of(size_t I) const {
    return {Data.get() + Begin[I], Data.get() + Begin[I + 1]};
  }

  void collect(const Function &F) {
    collect(
        F, [](Ref, const MInstr &, size_t) {}, [] {});
  }

  /// collect(), calling \p Visit with each operand as it is written (with
  /// its instruction and piece) and \p EndInstr after each instruction's:
  /// tp-regalloc scans the operands in the same walk.
  template <typename VisitFn, typename EndFn>
  void collect(const Function &F, VisitFn Visit, EndFn EndInstr) {
    size_t N = F.size();
    // Room left uninitialized, checked an instruction (not an operand) and
    // grown when an instruction's operands might not fit; sized for the usual
    // count (2.5 an instruction in tp-select's kernels), not for every
    // operand of every instruction: that would be an mmap'd block, fresh
    // pages for the passes after this one too.
    size_t Capacity = 4 * N + sass::MaxOperands;
    Data.reset(new Ref[Capacity]);
    Begin.resize(N + 1);
    Flags.resize(N);
    PieceFirst.assign(1, 0);
    // Past Last, an instruction's operands might not fit.
    Ref *Base = Data.get(), *Out = Base,
        *Last = Base + Capacity - sass::MaxOperands;
    uint32_t *B = Begin.data();
    uint8_t *X = Flags.data();
    for (size_t PI = 0; PI < F.Pieces.size(); ++PI) {
      for (const MInstr &MI : F.Pieces[PI].Instrs) {
        if (Out > Last) {
          // Twice the room, the operands written so far kept.
          size_t Used = size_t(Out - Base);
          Capacity *= 2;
          std::unique_ptr<Ref[]> New(new Ref[Capacity]);
          std::copy(Base, Out, New.get());
          Data = std::move(New);
          Base = Data.get();
          Out = Base + Used;
          Last = Base + Capacity - sass::MaxOperands;
        }
        const FormDesc &D = formOf(MI.I.Op);
        *B++ = uint32_t(Out - Base);
        *X++ = flags(MI.I.Ctrl, D.IsExit);
        Out = add(MI, D, Out, PI, Visit);
        EndInstr();
      }
      PieceFirst.push_back(uint32_t(B - Begin.data()));
    }
    *B = uint32_t(Out - Base);
  }

private:
  std::unique_ptr<Ref[]> Data;

  static uint8_t flags(const sass::Control &C, bool IsExit) {
    unsigned WrSB = C.WrSB > 0 && C.WrSB < 6 ? C.WrSB : 0;
    // A load without a read scoreboard reads its address late too: its
    // write scoreboard covers the sources (tp-verify-schedule's model).
    unsigned RdSB = C.RdSB > 0 && C.RdSB < 6 ? C.RdSB
                    : C.RdSB >= 6            ? WrSB
                                             : 0;
    return uint8_t(WrSB | RdSB << 3 | (IsExit ? ExitFlag : 0));
  }

  /// A form's general-register operands (GPR, MemBase), listed once per
  /// form the function uses: FormOperands[First .. End).
  struct GPROperand {
    uint8_t OpIdx, Width;
    bool IsDef;
    uint16_t Mask; ///< Width ones: the units at sub-register 0
  };
  struct FormDesc {
    uint32_t First, End;
    bool IsExit;
  };
  std::vector<uint16_t> Forms; ///< per opcode: its Descs index + 1, or 0
  std::vector<FormDesc> Descs;
  std::vector<GPROperand> FormOperands;

  /// The description of form \p Op, made on its first use.
  const FormDesc &formOf(sass::Opcode Op) {
    if (Forms.empty())
      Forms.assign(sass::getNumOpcodes(), 0);
    if (unsigned Slot = Forms[Op])
      return Descs[Slot - 1];
    const sass::InstrInfo &II = sass::getInstrInfo(Op);
    uint32_t First = uint32_t(FormOperands.size());
    for (unsigned K = 0; K < II.NumOperands; ++K) {
      const sass::OperandInfo &O = II.Operands[K];
      if (O.Kind != sass::OperandKind::GPR &&
          O.Kind != sass::OperandKind::MemBase)
        continue;
      // A sub-register index is below 4, so the units of an operand of at
      // most 13 registers fit Ref::Units (the forms' widest has 4).
      unsigned Width = std::max<unsigned>(1, O.Width);
      if (Width > 13)
        report_fatal_error(Twine("tp-regalloc: form ") + II.Name +
                           " has an operand of more than 13 registers");
      FormOperands.push_back(
          {uint8_t(K), uint8_t(Width), O.IsDef, uint16_t((1u << Width) - 1)});
    }
    // The defs first (every form lists them first already: this only makes
    // it a property of the table), so that interference's backward walk
    // ends the defs' lives before the reads start theirs in one loop.
    std::stable_partition(FormOperands.begin() + First, FormOperands.end(),
                          [](const GPROperand &O) { return O.IsDef; });
    Descs.push_back({First, uint32_t(FormOperands.size()), II.IsExit});
    Forms[Op] = uint16_t(Descs.size());
    return Descs.back();
  }

  /// Writes \p MI's register operands (form \p D, piece \p PI) at \p Out,
  /// each visited once written; the end.
  template <typename VisitFn>
  Ref *add(const MInstr &MI, const FormDesc &D, Ref *Out, size_t PI,
           VisitFn &Visit) const {
    const GPROperand *O = FormOperands.data();
    for (uint32_t G = D.First; G < D.End; ++G) {
      int64_t V = MI.I.Ops[O[G].OpIdx];
      Ref R;
      if (mir::isVirtualReg(V)) {
        unsigned Sub = mir::virtualRegSub(V);
        R = {mir::virtualRegId(V),
             uint8_t(Sub),
             O[G].Width,
             O[G].OpIdx,
             true,
             O[G].IsDef,
             uint16_t(O[G].Mask << Sub)};
      } else if (V != sass::RZ)
        R = {uint32_t(V), 0, O[G].Width, O[G].OpIdx, false, O[G].IsDef, 0};
      else
        continue;
      // Visited from a copy: the stores into the table do not make the
      // visitor read the operand back.
      *Out++ = R;
      Visit(R, MI, PI);
    }
    return Out;
  }
};

template <typename PhysFn>
void addConservativeWaits(mir::Function &F, const RefTable &Refs,
                          PhysFn PhysOf);

/// Whether \p MI's result is written only under a guard (it does not end
/// the life of what it writes).
bool isGuarded(const MInstr &MI) {
  return MI.I.Guard != sass::PT || MI.I.GuardNeg;
}

/// The allocation of one function.
class Allocator {
public:
  Allocator(Function &F, PassContext &Ctx, unsigned MaxRegs)
      : F(F), Ctx(Ctx), MaxRegs(MaxRegs) {}

  Error run(bool SeedPlan);

private:
  Error fail(const Twine &Msg) const {
    if (F.Loc.isValid())
      return makeSourceError(Ctx.SM, F.Loc, "tp-regalloc: " + Msg);
    return makeError("tp-regalloc: @" + F.Name + ": " + Msg);
  }
  std::string name(unsigned V) const {
    return V < F.VRegNames.size() ? "%" + F.VRegNames[V]
                                  : "%v" + std::to_string(V);
  }
  Error scanOperands();
  void computeLiveness();
  void buildInterference();
  Error preassign(bool SeedPlan);
  Error assign(unsigned V, unsigned Reg);
  Error allocateRest();
  Error noRoom(unsigned V) const;
  bool interferes(unsigned U, unsigned V) const {
    return Interferes.test(U, V) || Interferes.test(V, U);
  }
  PhysSet busyFor(unsigned V) const;
  void place(unsigned V);
  void rewrite();
  void seedPlan(StringMap<unsigned> &Plan) const;
  void printDecisions(raw_ostream &OS) const;

  uint64_t *liveIn(size_t P) { return LiveIn.data() + P * Width.size(); }
  uint64_t *liveOut(size_t P) { return LiveOut.data() + P * Width.size(); }

  /// The register operands of every instruction (computed once: every
  /// step below and the conservative waits read them).
  RefTable T;
  /// Live units before a piece's first instruction / after its last: a
  /// mask per virtual register (bit k: register k of its tuple), a row of
  /// them per piece.
  std::vector<uint64_t> LiveIn, LiveOut;
  /// Per virtual register, a mask per piece (Gen[V * pieces + P]): units
  /// read before written (Gen), units written unguarded (Kill).
  std::vector<uint64_t> Gen, Kill;
  std::vector<std::vector<unsigned>> Succs;

  Function &F;
  PassContext &Ctx;
  unsigned MaxRegs;
  std::vector<unsigned> Width; ///< per virtual register (at most 64)
  /// Per virtual register, the end of its widest operand (Sub + Width);
  /// the end of the widest physical operand.
  std::vector<unsigned> End;
  unsigned PhysEnd = 0;
  /// Row D: the registers D is written against (live after a def of D,
  /// or registers of its instruction; no self edge).  Two registers
  /// interfere when either's row has the other: the matrix is not made
  /// symmetric, placing a register tells the registers of its row instead.
  BitMatrix Interferes;
  /// Placed registers (pre-assigned or allocated), a bit per id; each
  /// one's tuple as a word of the physical set: the word and its bits (an
  /// aligned tuple of at most 64 never crosses a word); per register, the
  /// physical registers of the placed registers whose rows have it.
  std::vector<uint64_t> Placed;
  std::vector<uint8_t> TupleWord;
  std::vector<uint64_t> TupleBits;
  std::vector<PhysSet> BusyFrom;
  PhysSet ReservedPhys; ///< physical registers the input names
  std::vector<int> Assigned;
  std::vector<unsigned> Order; ///< first appearance
  std::vector<SMLoc> FirstLoc; ///< where each first appears (if parsed)
  Optional<unsigned> Counter;
};

/// The successors of every piece (see the \file comment).
std::vector<std::vector<unsigned>> pieceGraph(const Function &F,
                                              Error &Err) {
  size_t N = F.Pieces.size();
  std::vector<std::vector<unsigned>> S(N);
  StringMap<unsigned> PieceOfLabel;
  for (size_t P = 0; P < N; ++P)
    if (!F.Pieces[P].Instrs.empty() && !F.Pieces[P].Instrs[0].Label.empty())
      PieceOfLabel[F.Pieces[P].Instrs[0].Label] = P;
  bool Formed = F.getPiece("control") != nullptr;
  for (size_t P = 0; P < N; ++P) {
    const mir::Piece &Pc = F.Pieces[P];
    if (P + 1 < N)
      S[P].push_back(P + 1);
    if (Pc.Name == "body" && !Formed)
      S[P].push_back(P);
    for (const MInstr &MI : Pc.Instrs) {
      if (!MI.isBranch() || MI.Target == MI.Label)
        continue; // ptxas's closing self-branch reads nothing
      auto It = PieceOfLabel.find(MI.Target);
      if (It == PieceOfLabel.end()) {
        Err = makeError("tp-regalloc: @" + Twine(F.Name) + ": branch to ^" +
                        MI.Target.str() + ", which does not start a piece");
        return S;
      }
      S[P].push_back(It->second);
    }
  }
  return S;
}

/// The units (registers of its tuple) of virtual register \p R.Reg that
/// \p R names: bit k for register k.
uint64_t unitsOf(const Ref &R) { return R.Units; }

/// Liveness: the pieces' graph to a fixed point on whole sets, LiveIn =
/// Gen | (LiveOut & ~Kill), with Gen and Kill from scanOperands().  A set
/// holds, per virtual register, the mask of its live units.
void Allocator::computeLiveness() {
  size_t N = F.Pieces.size(), NV = Width.size();
  LiveIn.assign(N * NV, 0);
  LiveOut.assign(N * NV, 0);
  std::vector<uint64_t> In(NV);
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (size_t P = N; P-- > 0;) {
      uint64_t *Out = liveOut(P);
      for (unsigned S : Succs[P])
        for (size_t V = 0; V < NV; ++V)
          Out[V] |= liveIn(S)[V];
      if (Counter && F.Pieces[P].Name == "body")
        Out[*Counter] |= Width[*Counter] >= 64
                             ? ~uint64_t(0)
                             : (uint64_t(1) << Width[*Counter]) - 1;
      const uint64_t *G = &Gen[P], *K = &Kill[P];
      for (size_t V = 0; V < NV; ++V)
        In[V] = G[V * N] | (Out[V] & ~K[V * N]);
      if (!std::equal(In.begin(), In.end(), liveIn(P))) {
        std::copy(In.begin(), In.end(), liveIn(P));
        Changed = true;
      }
    }
  }
}

/// Interference: each written register against everything live after the
/// instruction and the instruction's other registers (a row per written
/// register; see Interferes).  Each virtual
/// register keeps the mask of its live units (bit k: register k of its
/// tuple), so that the registers with a live unit (LiveV) are at hand for
/// a def: one word-wise OR into its row.
void Allocator::buildInterference() {
  size_t NV = Width.size();
  Interferes.reset(NV);
  size_t RW = Interferes.rowWords();
  std::vector<uint64_t> LiveV(RW), LiveMask(NV);
  auto Set = [&](unsigned V, uint64_t M) {
    if (!LiveMask[V])
      LiveV[V / 64] |= uint64_t(1) << (V % 64);
    LiveMask[V] |= M;
  };
  auto Reset = [&](unsigned V, uint64_t M) {
    if (LiveMask[V] && !(LiveMask[V] &= ~M))
      LiveV[V / 64] &= ~(uint64_t(1) << (V % 64));
  };
  for (size_t P = 0; P < F.Pieces.size(); ++P) {
    std::fill(LiveV.begin(), LiveV.end(), 0);
    std::copy_n(liveOut(P), NV, LiveMask.begin());
    for (unsigned V = 0; V < NV; ++V)
      if (LiveMask[V])
        setBit(LiveV.data(), V);
    const auto &Is = F.Pieces[P].Instrs;
    for (size_t I = Is.size(); I-- > 0;) {
      ArrayRef<Ref> Refs = T.of(T.PieceFirst[P] + I);
      // An unguarded def ends its units' lives, then the reads start
      // theirs: LiveV becomes what is live before the instruction.
      // (The table lists an instruction's defs before its reads.)
      unsigned NumDefs = 0;
      bool Kills = !isGuarded(Is[I]);
      for (const Ref &R : Refs) {
        if (!R.Virtual)
          continue;
        if (!R.IsDef) {
          Set(R.Reg, R.Units);
          continue;
        }
        ++NumDefs;
        if (Kills)
          Reset(R.Reg, R.Units);
      }
      if (!NumDefs)
        continue;
      // A def's row takes what is live after the instruction and every
      // register of it, which is what is live before it (only a def
      // leaves LiveV, and every read is in it) and its defs.
      for (const Ref &D : Refs) {
        if (!D.Virtual || !D.IsDef)
          continue;
        uint64_t *Row = Interferes.row(D.Reg);
        for (size_t W = 0; W < RW; ++W)
          Row[W] |= LiveV[W];
        if (NumDefs > 1)
          for (const Ref &O : Refs)
            if (O.Virtual && O.IsDef)
              setBit(Row, O.Reg);
      }
    }
    // Live at a piece's start with no definition before: live from the
    // function's entry, together with everything else live there.
    if (P == 0)
      forEachBit(LiveV.data(), RW, [&](unsigned A) {
        uint64_t *Row = Interferes.row(A);
        for (size_t W = 0; W < RW; ++W)
          Row[W] |= LiveV[W];
      });
  }
  // No self edges.
  for (unsigned V = 0; V < NV; ++V)
    Interferes.row(V)[V / 64] &= ~(uint64_t(1) << (V % 64));
}

Error Allocator::assign(unsigned V, unsigned Reg) {
  unsigned W = Width[V];
  if (Reg % W)
    return fail(formatv("pre-assignment of {0} to R{1} is not aligned: a "
                        "tuple of {2} registers starts at a multiple of {2}",
                        name(V), Reg, W)
                    .str());
  if (Reg + W > MaxRegs)
    return fail(formatv("pre-assignment of {0} to R{1} is outside "
                        "R0..R{2}",
                        name(V), Reg, MaxRegs - 1)
                    .str());
  if (busyFor(V).any(Reg, W))
    // The interfering register placed there with the lowest id.
    for (unsigned U = 0; U < Width.size(); ++U)
      if (Assigned[U] >= 0 && unsigned(Assigned[U]) < Reg + W &&
          Reg < unsigned(Assigned[U]) + Width[U] && interferes(U, V))
        return fail(formatv("pre-assignment of {0} to R{1} conflicts with "
                            "{2} in R{3}, live at the same time",
                            name(V), Reg, name(U), Assigned[U])
                        .str());
  Assigned[V] = int(Reg);
  place(V);
  ++NumPreassigned;
  return Error::success();
}
/// The seed's plan for the virtual registers tp-select names (see the
/// \file comment).
void Allocator::seedPlan(StringMap<unsigned> &Plan) const {
  SmallVector<StringRef, 5> T;
  F.getAttr("tile").getValueOr("").split(T, ',');
  int64_t MT = 0, NT = 0;
  if (T.size() != 5 || T[2].trim().getAsInteger(10, MT) ||
      T[3].trim().getAsInteger(10, NT))
    return;
  StringMap<unsigned> Names;
  for (unsigned V = 0; V < F.VRegNames.size(); ++V)
    Names[F.VRegNames[V]] = V;
  auto Count = [&](StringRef Prefix) {
    unsigned C = 0;
    while (Names.count((Prefix + Twine(C)).str()))
      ++C;
    return C;
  };
  const unsigned Acc = 48, AccCount = unsigned(4 * MT * NT);
  const unsigned AFrag = Acc + AccCount, BFrag = AFrag + unsigned(8 * MT);
  const unsigned Offsets = BFrag + unsigned(4 * NT);
  const unsigned ChunksA = Count("off_A_");
  std::vector<std::pair<std::string, unsigned>> Fixed = {
      {"tid", 0},     {"lane", 1},    {"warp", 2},    {"warp_m", 3},
      {"warp_n", 4},  {"one", 5},     {"ctaid_y", 6}, {"ctaid_x", 7},
      {"c_ptr", 42},  {"counter", 44}, {"r_ptr", AFrag}};
  for (auto &E : Fixed)
    Plan[E.first] = E.second;
  for (unsigned C = 0; C < 4; ++C) {
    Plan["ptr_A_" + std::to_string(C)] = 10 + 2 * C;
    Plan["ptr_B_" + std::to_string(C)] = 18 + 2 * C;
    Plan["a_sts" + std::to_string(C)] = 26 + C;
    Plan["b_sts" + std::to_string(C)] = 30 + C;
    Plan["a_ldsm" + std::to_string(C)] = 34 + C;
    Plan["b_ldsm" + std::to_string(C)] = 38 + C;
    Plan["off_A_" + std::to_string(C)] = Offsets + C;
    Plan["off_B_" + std::to_string(C)] = Offsets + ChunksA + C;
  }
  for (int64_t M = 0; M < MT; ++M)
    for (int64_t N = 0; N < NT; ++N)
      Plan[formatv("acc_{0}_{1}", M, N).str()] =
          Acc + unsigned(4 * (M * NT + N));
  for (int64_t KK = 0; KK < 2; ++KK) {
    for (int64_t M = 0; M < MT; ++M)
      Plan[formatv("a_frag_{0}_{1}", KK, M).str()] =
          AFrag + unsigned(4 * (KK * MT + M));
    for (int64_t P = 0; 2 * P < NT; ++P)
      Plan[formatv("b_frag_{0}_{1}", KK, P).str()] =
          BFrag + unsigned(2 * (KK * NT + 2 * P));
  }
}

Error Allocator::preassign(bool SeedPlan) {
  StringMap<unsigned> Plan;
  if (SeedPlan)
    seedPlan(Plan);
  // preassign(%x=Rn %y=Rm ...)
  if (Optional<StringRef> A = F.getAttr("preassign")) {
    SmallVector<StringRef, 8> Items;
    A->split(Items, ' ', -1, false);
    for (StringRef It : Items) {
      StringRef N, R;
      std::tie(N, R) = It.split('=');
      unsigned Reg;
      if (!N.consume_front("%") || !R.consume_front("R") ||
          R.getAsInteger(10, Reg))
        return fail("preassign() expects '%name=Rn' items, found '" + It +
                    "'");
      Plan[N] = Reg;
    }
  }
  if (Plan.empty()) // (the usual case: no name to look up)
    return Error::success();
  for (unsigned V : Order) {
    auto It = Plan.find(F.VRegNames[V]);
    if (It != Plan.end())
      if (Error E = assign(V, It->second))
        return E;
  }
  return Error::success();
}

/// The lowest multiple of \p W (a power of two) at which \p W registers
/// are free in \p Busy and end by \p MaxRegs, or -1: the first fit.
int firstFit(const PhysSet &Busy, unsigned W, unsigned MaxRegs) {
  if (W > 64) { // (no form has such tuples; the plain search)
    for (unsigned Reg = 0; Reg + W <= MaxRegs; Reg += W)
      if (!Busy.any(Reg, W))
        return int(Reg);
    return -1;
  }
  // Bit p of a word's Fits: [p, p + W) free, p a multiple of W (an aligned
  // tuple never crosses a word).
  uint64_t Aligned = W == 64 ? 1 : ~uint64_t(0) / ((uint64_t(1) << W) - 1);
  for (size_t I = 0; I < Busy.W.size(); ++I) {
    uint64_t Fits = ~Busy.W[I];
    for (unsigned S = 1; S < W; S *= 2)
      Fits &= Fits >> S;
    Fits &= Aligned;
    if (Fits) {
      unsigned Reg = unsigned(I * 64 + countTrailingZeros(Fits));
      return Reg + W <= MaxRegs ? int(Reg) : -1;
    }
  }
  return -1;
}

/// First fit: every virtual register not pre-assigned, in the order of its
/// first appearance, at the lowest multiple of its width that neither a
/// reserved physical register nor an interfering register already placed
/// occupies.
Error Allocator::allocateRest() {
  for (unsigned V : Order) {
    if (Assigned[V] >= 0)
      continue;
    PhysSet Busy = busyFor(V);
    for (size_t I = 0; I < Busy.W.size(); ++I)
      Busy.W[I] |= ReservedPhys.W[I];
    int Reg = firstFit(Busy, Width[V], MaxRegs);
    if (Reg < 0)
      return noRoom(V);
    Assigned[V] = Reg;
    place(V);
  }
  return Error::success();
}

/// The physical registers the placed registers interfering with \p V
/// occupy: those whose rows have \p V, and those of \p V's row.
PhysSet Allocator::busyFor(unsigned V) const {
  PhysSet Busy = BusyFrom[V];
  const uint64_t *Row = Interferes.row(V);
  for (size_t I = 0; I < Interferes.rowWords(); ++I)
    for (uint64_t X = Row[I] & Placed[I]; X; X &= X - 1) {
      unsigned U = unsigned(I * 64 + countTrailingZeros(X));
      Busy.W[TupleWord[U]] |= TupleBits[U];
    }
  return Busy;
}

/// Records \p V placed at Assigned[V], and tells the registers of its row
/// not yet placed.
void Allocator::place(unsigned V) {
  unsigned R = unsigned(Assigned[V]), W = Width[V];
  unsigned Word = R / 64;
  uint64_t Bits = (W == 64 ? ~uint64_t(0) : (uint64_t(1) << W) - 1) << (R % 64);
  TupleWord[V] = uint8_t(Word);
  TupleBits[V] = Bits;
  setBit(Placed.data(), V);
  const uint64_t *Row = Interferes.row(V);
  for (size_t I = 0; I < Interferes.rowWords(); ++I)
    for (uint64_t X = Row[I] & ~Placed[I]; X; X &= X - 1)
      BusyFrom[I * 64 + countTrailingZeros(X)].W[Word] |= Bits;
}

Error Allocator::noRoom(unsigned V) const {
  unsigned LiveWith = 0, W = Width[V];
  for (unsigned U = 0; U < Width.size(); ++U)
    if (interferes(U, V))
      LiveWith += Width[U];
  std::string Msg =
      formatv("tp-regalloc: {0} ({1} register{2}) does not fit in "
              "R0..R{3}: {4} registers of other values are live with it",
              name(V), W, W > 1 ? "s" : "", MaxRegs - 1, LiveWith)
          .str();
  if (FirstLoc[V].isValid())
    return makeSourceError(Ctx.SM, FirstLoc[V], Msg);
  return fail(Msg.substr(strlen("tp-regalloc: ")));
}

/// The registers used (regs()) and the counter's register; the operands
/// themselves are rewritten in the waits' walk (run).
void Allocator::rewrite() {
#if LLVM_ENABLE_STATS
  PhysSet Held;
  for (unsigned V : Order) {
    if (Held.any(unsigned(Assigned[V]), Width[V]))
      ++NumShared;
    Held.set(unsigned(Assigned[V]), Width[V]);
  }
#endif
  // The highest register an operand names + 1: per virtual register, the
  // end of the widest operand that names it (End), not of its tuple.
  unsigned High = PhysEnd;
  for (unsigned V : Order)
    High = std::max(High, unsigned(Assigned[V]) + End[V]);
  if (Counter)
    F.setAttr("counter", std::to_string(Assigned[*Counter]));
  F.Regs = High;
  NumRegsUsed += High;
}

void Allocator::printDecisions(raw_ostream &OS) const {
  OS << "tp-regalloc: @" << F.Name << ": " << Width.size()
     << " virtual registers in " << F.Regs << " registers\n";
  for (unsigned V : Order)
    OS << "  " << name(V) << " -> R" << Assigned[V]
       << (Width[V] > 1 ? "..R" + std::to_string(Assigned[V] + Width[V] - 1)
                        : std::string())
       << "\n";
}

/// In the walk that writes the operand table: the widths (as
/// mir::getVirtualRegWidths computes them; at most 64: a sub-register
/// index is below 4 and no form's operand is wider than 8 registers), the
/// reserved physical registers, the order of first appearance, and each
/// piece's Gen (units read before an unguarded write in the piece: an
/// instruction's reads come before its writes) and Kill (units written
/// unguarded); then the counter's virtual register.
Error Allocator::scanOperands() {
  size_t NP = F.Pieces.size(), NV = 0;
  // Raw pointers into the tables (a width of 0: not seen yet), sized by the
  // names; an id past them (a hand-written input) grows every table.
  unsigned *W = nullptr;
  uint64_t *G = nullptr, *K = nullptr;
  auto Grow = [&](size_t N) {
    Width.resize(N, 0);
    FirstLoc.resize(N, SMLoc());
    Gen.resize(N * NP, 0);
    Kill.resize(N * NP, 0);
    NV = N;
    W = Width.data();
    G = Gen.data();
    K = Kill.data();
  };
  Grow(F.VRegNames.size());
  Order.reserve(NV);
  // An instruction's unguarded defs (indices into Kill: a growth keeps
  // them), killed once its reads are in Gen.
  size_t Kills[sass::MaxOperands];
  uint64_t KillUnits[sass::MaxOperands];
  unsigned NumKills = 0;
  auto Visit = [&](Ref R, const MInstr &MI, size_t PI) {
    if (!R.Virtual) {
      if (R.Reg < NumPhysRegs)
        ReservedPhys.set(R.Reg, std::min(R.Reg + R.Width, NumPhysRegs) - R.Reg);
      PhysEnd = std::max(PhysEnd, R.Reg + R.Width);
      return;
    }
    unsigned V = R.Reg;
    if (V >= NV)
      Grow(V + 1);
    if (!W[V]) {
      Order.push_back(V);
      FirstLoc[V] = MI.Loc;
    }
    W[V] = std::max<unsigned>(W[V], R.Sub + R.Width);
    if (!R.IsDef) {
      G[V * NP + PI] |= unitsOf(R) & ~K[V * NP + PI];
    } else if (!isGuarded(MI)) {
      Kills[NumKills] = V * NP + PI;
      KillUnits[NumKills++] = unitsOf(R);
    }
  };
  auto EndInstr = [&] {
    for (unsigned I = 0; I < NumKills; ++I)
      K[Kills[I]] |= KillUnits[I];
    NumKills = 0;
  };
  T.collect(F, Visit, EndInstr);
  End = Width;
  for (unsigned &X : Width)
    if (X)
      X = unsigned(PowerOf2Ceil(X));
  for (unsigned V = 0; V < NV; ++V)
    if (Width[V] > 64)
      return fail(name(V) + " is a tuple of " + Twine(Width[V]) +
                  " registers (at most 64)");
  if (Optional<StringRef> C = F.getAttr("counter"))
    if (C->startswith("%")) {
      for (unsigned V = 0; V < F.VRegNames.size(); ++V)
        if (F.VRegNames[V] == C->drop_front())
          Counter = V;
      if (!Counter || !Width[*Counter])
        return fail("counter(" + *C + ") names no virtual register of the "
                                      "function");
    }
  return Error::success();
}

Error Allocator::run(bool SeedPlan) {
  if (Error E = scanOperands())
    return E;
  Error Err = Error::success();
  Succs = pieceGraph(F, Err);
  if (Err)
    return Err;
  computeLiveness();
  buildInterference();
  Assigned.assign(Width.size(), -1);
  Placed.assign(Interferes.rowWords(), 0);
  TupleWord.resize(Width.size());
  TupleBits.resize(Width.size());
  BusyFrom.resize(Width.size());
  if (Error E = preassign(SeedPlan))
    return E;
  if (Error E = allocateRest())
    return E;
  NumVirtualRegs += Order.size();
  rewrite();
  // The operands are rewritten as the waits' walk meets them.
  addConservativeWaits(F, T, [this](MInstr &MI, const Ref &R) {
    if (!R.Virtual)
      return unsigned(R.Reg);
    unsigned Phys = unsigned(Assigned[R.Reg]) + R.Sub;
    MI.I.Ops[R.OpIdx] = Phys;
    return Phys;
  });
  TP_DEBUG(printDecisions(dbgs()));
  return Error::success();
}

class RegAllocPass : public Pass {
public:
  std::vector<PassOption> getOptions() const override {
    return {{"plan", "allocator",
             "allocator: every register the allocator's choice; seed: the "
             "seed's register plan pre-assigned, the rest around it"},
            {"max-regs", "255", "registers available (R0..R(max-regs - 1))"}};
  }

  Error run(std::unique_ptr<IRUnit> &IR, PassContext &Ctx) override {
    StringRef Plan = getOption("plan");
    if (Plan != "allocator" && Plan != "seed")
      return makeError("tp-regalloc: option 'plan' expects allocator or "
                       "seed, found '" +
                       Plan + "'");
    Expected<int64_t> Max = getIntOption("max-regs");
    if (!Max)
      return Max.takeError();
    if (*Max < 1 || *Max > 255)
      return makeError("tp-regalloc: option 'max-regs' expects 1..255, "
                       "found " +
                       Twine(*Max));
    for (Function &F : static_cast<mir::MachineUnit &>(*IR).M.Functions)
      if (Error E = Allocator(F, Ctx, unsigned(*Max)).run(Plan == "seed"))
        return E;
    return Error::success();
  }
};

} // namespace

//===----------------------------------------------------------------------===//
// Conservative scoreboard waits
//===----------------------------------------------------------------------===//

namespace {
/// The scoreboards guarding each register: bit S of Write[r] when a
/// pending variable-latency write on SB S guards register r, of Read[r]
/// when a pending late read does (S = 1..5; 0 counts the copy groups and
/// guards none).  Each scoreboard lists the registers it guards, so that
/// a wait clears only those; states merge by OR.
struct SBState {
  static constexpr unsigned NumRegs = NumPhysRegs + 8; ///< tuples' overhang
  static constexpr unsigned NumSB = 6;
  std::array<uint8_t, NumRegs> Write{}, Read{};
  /// The registers with scoreboard S's bit in Write or Read (each once).
  std::array<std::vector<uint16_t>, NumSB> Guarded;
  uint8_t Pending = 0; ///< the scoreboards with some register
  uint8_t pending() const { return Pending; }
  /// The scoreboards guarding any register of [R, R + W), by \p Of.
  static uint8_t guarding(const std::array<uint8_t, NumRegs> &Of, unsigned R,
                          unsigned W) {
    if (R + W <= NumRegs) {
      const uint8_t *X = &Of[R];
      switch (W) {
      case 1:
        return X[0];
      case 2:
        return X[0] | X[1];
      case 4:
        return X[0] | X[1] | X[2] | X[3];
      }
    }
    uint8_t M = 0;
    for (unsigned X = R; X < R + W && X < NumRegs; ++X)
      M |= Of[X];
    return M;
  }
  void guard(std::array<uint8_t, NumRegs> &Of, unsigned R, unsigned W,
             unsigned SB) {
    uint8_t Bit = uint8_t(1u << SB);
    for (unsigned X = R; X < R + W && X < NumRegs; ++X) {
      if (!((Write[X] | Read[X]) & Bit))
        Guarded[SB].push_back(uint16_t(X));
      Of[X] |= Bit;
    }
    Pending |= Bit;
  }
  void clear(uint8_t Mask) {
    for (unsigned Bits = Pending & Mask; Bits; Bits &= Bits - 1) {
      unsigned S = countTrailingZeros(Bits);
      uint8_t Keep = uint8_t(~(1u << S));
      for (uint16_t X : Guarded[S]) {
        Write[X] &= Keep;
        Read[X] &= Keep;
      }
      Guarded[S].clear();
    }
    Pending &= uint8_t(~Mask);
  }
  void merge(const SBState &O) {
    for (unsigned S = 0; S < NumSB; ++S) {
      uint8_t Bit = uint8_t(1u << S);
      for (uint16_t X : O.Guarded[S])
        if (!((Write[X] | Read[X]) & Bit))
          Guarded[S].push_back(X);
    }
    for (unsigned X = 0; X < NumRegs; ++X) {
      Write[X] |= O.Write[X];
      Read[X] |= O.Read[X];
    }
    Pending |= O.Pending;
  }
};

/// The waits of \p MI (its register operands \p Refs, RefTable::Flags
/// \p Flags) from \p St, which then takes what \p MI leaves pending.
/// \p PhysOf gives an operand's physical register, once per operand and
/// before anything else reads it (tp-regalloc writes it into \p MI then:
/// the table holds the virtual registers); later reads are from \p MI.
/// (Inlined into the walk: it runs once an instruction.)
template <typename PhysFn>
LLVM_ATTRIBUTE_ALWAYS_INLINE void addWaits(MInstr &MI, ArrayRef<Ref> Refs,
                                           uint8_t Flags, SBState &St,
                                           PhysFn PhysOf) {
  auto RegOf = [&MI](const Ref &R) { return unsigned(MI.I.Ops[R.OpIdx]); };
  uint8_t &WaitMask = MI.I.Ctrl.WaitMask;
  uint8_t Wait = WaitMask;
  // Scoreboards 1..5 guard registers (0 counts the copy groups).
  if (St.pending()) {
    for (const Ref &R : Refs) {
      unsigned Reg = PhysOf(MI, R);
      uint8_t G = SBState::guarding(St.Write, Reg, R.Width);
      if (R.IsDef)
        G |= SBState::guarding(St.Read, Reg, R.Width);
      Wait |= G & 0x3e;
    }
  } else {
    for (const Ref &R : Refs)
      PhysOf(MI, R);
  }
  if (Flags & RefTable::ExitFlag)
    Wait = 0x3f;
  if (Wait & St.pending())
    St.clear(Wait);
  WaitMask = Wait;
  unsigned WrSB = Flags & 7, RdSB = (Flags >> 3) & 7;
  if (!WrSB && !RdSB)
    return;
  for (const Ref &R : Refs) {
    if (R.IsDef && WrSB)
      St.guard(St.Write, RegOf(R), R.Width, WrSB);
    else if (!R.IsDef && RdSB)
      St.guard(St.Read, RegOf(R), R.Width, RdSB);
  }
}

/// addConservativeWaits() with the register operands of every instruction
/// (\p Refs) given: tp-regalloc has them from its allocation.  \p PhysOf
/// (see addWaits) gives each operand's physical register: tp-regalloc
/// rewrites the operands in this walk.
template <typename PhysFn>
void addConservativeWaits(mir::Function &F, const RefTable &Refs,
                          PhysFn PhysOf) {
  SBState St, Entry;
  for (size_t PI = 0; PI < F.Pieces.size(); ++PI) {
    mir::Piece &P = F.Pieces[PI];
    auto Walk = [&](SBState &S) {
      size_t First = Refs.PieceFirst[PI], N = P.Instrs.size();
      const uint8_t *Flags = Refs.Flags.data() + First;
      MInstr *MI = P.Instrs.data();
      for (size_t I = 0; I < N; ++I)
        addWaits(MI[I], Refs.of(First + I), Flags[I], S, PhysOf);
    };
    if (P.Name == "body" && !P.Instrs.empty()) {
      // The body's first instruction waits for everything either way into
      // it (the prologue, the back edge) leaves pending.  So a second walk
      // from what the body leaves would add no wait: past the first
      // instruction its state holds only the body's own guards, which the
      // first walk holds too, cleared by the same waits.  The tail follows
      // the body or, with no iteration, the prologue: what they leave
      // (the first walk's state besides the entry's, which is the second
      // walk's besides the entry's).
      Entry = St;
      Walk(St);
      P.Instrs.front().I.Ctrl.WaitMask |= Entry.pending() | St.pending();
      St.merge(Entry);
      continue;
    }
    Walk(St);
  }
}
} // namespace

void addConservativeWaits(mir::Function &F) {
  RefTable Refs;
  Refs.collect(F);
  addConservativeWaits(F, Refs,
                       [](MInstr &, const Ref &R) { return unsigned(R.Reg); });
}

std::unique_ptr<Pass> createRegAllocPass() {
  return std::make_unique<RegAllocPass>();
}

} // namespace tp
