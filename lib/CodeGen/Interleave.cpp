//===- Interleave.cpp - tp-interleave: loads and copies under HMMA runs ---===//
///
/// \file
/// mir -> mir.  The seed's tpInterleave / tpProductsWith / tpStepProducts.
/// Requires k-steps in tp-select's order; in every piece, a k-step is the
/// code after a BAR.SYNC:
///
///   L0  k-half 0's LDSMs        H0  k-half 0's HMMAs
///   L1  k-half 1's LDSMs        H1  k-half 1's HMMAs
///   Q   the rest of the step up to its LDGDEPBAR (the next stage's copies,
///       pointer updates and group commit, or an empty group)
///
/// The step's head is [the DEPBAR.LE before the BAR.SYNC], the BAR.SYNC
/// and the LDSMs of L0 that H0's first run reads (with hoisting; without,
/// all of L0); L0' = the rest of L0.
///
/// Algorithm, per step:
///  1. split H0 and H1 into runs: consecutive HMMAs with the same A
///     fragment (an m-tile's n-tiles); groups = the number of runs;
///  2. H0' = after each run of H0, the next ceil(|L0' L1| / groups) LDSMs of
///     L0' L1 (then whatever is left); H1' the same with Q;
///  3. the step becomes head H0' H1'; in every run each HMMA but the last
///     sets the reuse flag of its A operand (the fragment stays in the
///     operand-reuse cache across the run).  Runs are never split.
/// Hoisting (option hoist: auto, the default, hoists unless tile() names
/// fewer than 8 warps a block; see hoistPays()): when step k + 1 follows
/// step k directly, its head goes before H1's last run of step k (H1' is
/// then spread over the other runs), when none of the head's loads writes
/// a register that run reads.  The next step's first fragments then load
/// under this step's last products instead of after a barrier every warp
/// must reach first (tp-sim --timing: the tensor pipe idled about 200
/// cycles a k-step there on the RTX 3090; docs/timing-model.md).  Across
/// the loop's back edge the loop is rotated: when the tail starts with the
/// body's first head, that head moves to the prologue's end and to the
/// body's last step (for the next iteration, or the tail), and the body
/// and the tail start without it; the stages need the same ring position,
/// which the identical heads (same offsets) show.
/// A step that is not in that shape (already interleaved, hand-written) is
/// left as it is.  Control fields are kept; the pass only reorders and sets
/// reuse flags.  It works on indices: a piece is cut into steps as index
/// ranges, its new order is a list of indices, and the piece is permuted in
/// place once (each instruction moved once where it moves at all); each
/// form's kind and A operand are looked up once a form.  tp-verify-schedule proves the result (utils/
/// prove-variants.sh: every layout x tile x residual x target).
///
//===----------------------------------------------------------------------===//

#include "tp/CodeGen/CodeGen.h"
#include "tp/MIR/MIR.h"
#include "tp/Support/Debug.h"
#include "tp/Support/Diagnostics.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Support/Compiler.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <array>

using namespace llvm;

#define DEBUG_TYPE "tp-interleave"

ALWAYS_ENABLED_STATISTIC(NumStepsInterleaved, "Steps interleaved");
ALWAYS_ENABLED_STATISTIC(NumInstrsMoved,
                         "Instructions moved (LDSMs and copies spread "
                         "between HMMA runs)");
ALWAYS_ENABLED_STATISTIC(NumHeadsHoisted,
                         "Step heads (DEPBAR, BAR, first LDSMs) hoisted "
                         "before the previous step's last HMMA run");
ALWAYS_ENABLED_STATISTIC(NumHeadsRotated,
                         "Loop bodies rotated (the first step's head at "
                         "the prologue's and the body's end)");

namespace tp {
namespace {

using mir::MInstr;
using Seq = std::vector<MInstr>;
/// The helpers take a piece's instructions (and the pass's index and kind
/// buffers) as ArrayRefs, a pointer and a size in registers: through a
/// vector, every byte store (a reuse flag, a kind) would make the compiler
/// reload the vector's data pointer, which a char store may alias.
using Instrs = ArrayRef<MInstr>;
using MutableInstrs = MutableArrayRef<MInstr>;
/// An instruction of the piece being interleaved: its index in the piece.
using Index = uint32_t;
using IndexList = SmallVector<Index, 16>;

/// What the step parser looks for.
enum class Kind : uint8_t { Other, Bar, Ldsm, Hmma, Depbar, Ldgdepbar };

/// What the pass needs of a form.
struct Facts {
  Kind K = Kind::Other;
  int8_t AOperand = -1; ///< an HMMA's A fragment: its first register use
  uint8_t ReuseBit = 0; ///< the reuse flag of that operand's slot
  uint32_t UseMask = 0; ///< bit K: operand K is a GPR the form reads
  uint32_t DefMask = 0; ///< bit K: operand K is a GPR the form writes
};

/// Each form's Facts, made on the form's first use.
class FormFacts {
public:
  /// The Facts of \p MI's form.
  Facts get(const MInstr &MI) {
    auto Ins = Table.try_emplace(unsigned(MI.I.Op));
    if (Ins.second)
      Ins.first->second = make(MI.I.Op);
    return Ins.first->second;
  }
  /// The kind of \p MI's form (what the step parser looks for).
  Kind kind(const MInstr &MI) { return get(MI).K; }

private:
  static_assert(sass::MaxOperands <= 32, "an operand mask is 32 bits");
  static Facts make(sass::Opcode Op) {
    const sass::InstrInfo &II = sass::getInstrInfo(Op);
    Facts F;
    StringRef Mn = II.Mnemonic;
    F.K = Mn == "HMMA"        ? Kind::Hmma
          : Mn == "LDSM"      ? Kind::Ldsm
          : Mn == "BAR"       ? Kind::Bar
          : Mn == "DEPBAR"    ? Kind::Depbar
          : Mn == "LDGDEPBAR" ? Kind::Ldgdepbar
                              : Kind::Other;
    for (unsigned I = 0; I < II.NumOperands; ++I) {
      const sass::OperandInfo &O = II.Operands[I];
      if (O.Kind != sass::OperandKind::GPR)
        continue;
      if (O.IsDef) {
        F.DefMask |= 1u << I;
        continue;
      }
      if (!F.UseMask) { // the first use: the A operand
        F.AOperand = int8_t(I);
        if (O.ReuseSlot >= 0)
          F.ReuseBit = uint8_t(1u << O.ReuseSlot);
      }
      F.UseMask |= 1u << I;
    }
    return F;
  }
  DenseMap<unsigned, Facts> Table;
};

/// A run of consecutive instructions of the piece, [Begin, End).
struct Range {
  Index Begin = 0, End = 0;
  size_t size() const { return End - Begin; }
};

/// The end of the run (HMMAs sharing their A fragment) that starts at
/// \p Begin in \p H.
Index runEnd(FormFacts &FF, Instrs S, Range H, Index Begin) {
  if (Begin == H.End)
    return Begin;
  int A = FF.get(S[Begin]).AOperand;
  Index It = Begin;
  while (It != H.End && S[It].I.Ops[A] == S[Begin].I.Ops[A])
    ++It;
  return It;
}

/// Splits the HMMAs \p H into runs sharing their A fragment.
inline void runs(FormFacts &FF, Instrs S, Range H, SmallVectorImpl<Range> &Rs) {
  Rs.clear();
  for (Index B = H.Begin; B != H.End;) {
    Index E = runEnd(FF, S, H, B);
    Rs.push_back({B, E});
    B = E;
  }
}

/// Sets the reuse flag of \p Run's A operand on every HMMA but the last
/// (the fragment stays in the operand-reuse cache across the run).
inline void setReuse(FormFacts &FF, MutableInstrs S, Range Run) {
  if (!Run.size())
    return;
  sass::Opcode Op = S[Run.Begin].I.Op;
  uint8_t Bit = FF.get(S[Run.Begin]).ReuseBit;
  for (Index I = Run.Begin; I < Run.End; ++I) {
    if (S[I].I.Op != Op) { // a run of one form, as a rule
      Op = S[I].I.Op;
      Bit = FF.get(S[I]).ReuseBit;
    }
    if (I + 1 < Run.End)
      S[I].I.Ctrl.Reuse |= Bit;
    else
      S[I].I.Ctrl.Reuse &= ~Bit;
  }
}

/// tpInterleave groups n m over runs: each run, then m of Q; then the rest.
/// Q is \p QList followed by \p QRange.  Writes the order at \p Out
/// (advanced past it) and sets the runs' reuse flags.
void spread(FormFacts &FF, MutableInstrs S, ArrayRef<Range> Runs,
            ArrayRef<Index> QList, Range QRange, Index *&Out) {
  for (Range Run : Runs)
    setReuse(FF, S, Run);
  size_t QSize = QList.size() + QRange.size();
  auto QAt = [&](size_t I) {
    return I < QList.size() ? QList[I] : Index(QRange.Begin + I - QList.size());
  };
  size_t Groups = Runs.size();
  size_t M = Groups ? (QSize + Groups - 1) / Groups : 0;
  size_t QI = 0;
  for (Range Run : Runs) {
    for (Index I = Run.Begin; I < Run.End; ++I)
      *Out++ = I;
    for (size_t K = 0; K < M && QI < QSize; ++K)
      *Out++ = QAt(QI++);
  }
  for (; QI < QSize; ++QI)
    *Out++ = QAt(QI);
}

/// The registers of GPR operand \p K of \p MI: [first, first + width),
/// or {0, 0} for RZ.
std::pair<int64_t, int64_t> gprRange(const MInstr &MI, unsigned K) {
  int64_t V = MI.I.Ops[K];
  if (V == sass::RZ)
    return {0, 0};
  if (mir::isVirtualReg(V)) // one name, one range (sub-registers within)
    return {mir::virtualReg(mir::virtualRegId(V)),
            mir::virtualReg(mir::virtualRegId(V)) + 4};
  unsigned W = MI.info().Operands[K].Width;
  return {V, V + (W ? W : 1)};
}

/// The GPR ranges the HMMA run \p R reads.  The run's A fragment is the
/// same in each of its HMMAs: collected once for the run's form.
using RegRanges = SmallVector<std::pair<int64_t, int64_t>, 32>;
void collectUses(FormFacts &FF, Instrs S, Range R, RegRanges &Uses) {
  Uses.clear();
  if (!R.size())
    return;
  sass::Opcode First = S[R.Begin].I.Op;
  uint32_t SharedA = 0;
  for (Index It = R.Begin; It != R.End; ++It) {
    const MInstr &MI = S[It];
    Facts F = FF.get(MI);
    uint32_t Mask = F.UseMask & ~(MI.I.Op == First ? SharedA : 0);
    if (It == R.Begin && F.AOperand >= 0)
      SharedA = 1u << F.AOperand;
    for (uint32_t M = Mask; M; M &= M - 1) {
      auto Use = gprRange(MI, countTrailingZeros(M));
      if (Use.first != Use.second)
        Uses.push_back(Use);
    }
  }
}

/// Whether one of the register ranges \p Uses holds a register \p Load
/// writes.
bool readsResult(FormFacts &FF, const RegRanges &Uses, const MInstr &Load) {
  for (uint32_t M = FF.get(Load).DefMask; M; M &= M - 1) {
    auto Def = gprRange(Load, countTrailingZeros(M));
    if (Def.first == Def.second)
      continue;
    for (const auto &Use : Uses)
      if (Use.first < Def.second && Def.first < Use.second)
        return true;
  }
  return false;
}

bool sameInstr(const MInstr &A, const MInstr &B) {
  return A.I.Op == B.I.Op && A.I.Guard == B.I.Guard &&
         A.I.GuardNeg == B.I.GuardNeg && A.I.Ctrl == B.I.Ctrl &&
         A.I.Ops == B.I.Ops && A.Label.empty() && B.Label.empty() &&
         A.Target == B.Target;
}

/// A piece cut into k-steps in tp-select's shape and the code between
/// them (kept as it is), as indices into the piece: nothing is copied or
/// moved until the piece is written back in its new order.
struct Parsed {
  struct Step {
    /// [DEPBAR.LE] BAR.SYNC and the LDSMs of L0 that H0's first run reads.
    IndexList Head;
    IndexList L0Rest;       ///< the other LDSMs of L0
    Range H0, L1, H1, Q;    ///< Q ends with the step's LDGDEPBAR
  };
  /// Items in order: Verbatim[i] before Steps[i]; Verbatim.back() last.
  /// (A piece has a step a stage, four as a rule: room for them inline.)
  SmallVector<Range, 5> Verbatim;
  SmallVector<Step, 4> Steps;
  /// Whether step i is followed directly by step i + 1 (no code between).
  bool adjacent(size_t I) const {
    return I + 1 < Steps.size() && Verbatim[I + 1].size() == 0;
  }
  /// Whether the piece starts with a step / ends with one.
  bool startsWithStep() const {
    return !Steps.empty() && Verbatim.front().size() == 0;
  }
  bool endsWithStep() const {
    return !Steps.empty() && Verbatim.back().size() == 0;
  }
};

class InterleavePass : public Pass {
public:
  std::vector<PassOption> getOptions() const override {
    return {{"hoist", "auto",
             "1: each step's head (DEPBAR, BAR.SYNC and the fragments its "
             "first HMMA run reads) goes before the previous step's last "
             "HMMA run, and the loop is rotated so that this holds across "
             "its back edge; 0: every step keeps its head (the seed's "
             "order); auto: 1 unless the function's tile() has fewer than "
             "8 warps a block"}};
  }

  Error run(std::unique_ptr<IRUnit> &IR, PassContext &) override {
    StringRef Mode = getOption("hoist");
    if (Mode != "auto" && Mode != "0" && Mode != "1")
      return makeError("tp-interleave: option 'hoist' expects auto, 0 or 1, "
                       "found '" +
                       Mode + "'");
    for (mir::Function &F : static_cast<mir::MachineUnit &>(*IR).M.Functions)
      interleave(F, Mode == "1" || (Mode == "auto" && hoistPays(F)));
    return Error::success();
  }

private:
  /// The pieces' instruction kinds (the piece being parsed), the order a
  /// piece is written back in, and the runs of a step: buffers reused from
  /// piece to piece.
  SmallVector<Index, 1024> Order;
  SmallVector<Range, 8> R0, R1;
  RegRanges Uses;
  FormFacts FF;

  /// Whether hoisting pays by tp-sim's timing model: with 8 or more warps
  /// a block (two or more per sub-partition, the large, 128x64 and 256x128
  /// tiles) every card models faster (docs/timing-model.md); with 4 (the
  /// small tile, three blocks an SM on the RTX 3090, whose warps fill each
  /// other's barrier gaps) the RTX 3090 models 0.5% slower, the A100 7%
  /// (more instructions, 88 registers instead of 80).  tile(WM,WN,...)
  /// names the warps; without it, hoist.
  static bool hoistPays(const mir::Function &F) {
    Optional<StringRef> Tile = F.getAttr("tile");
    if (!Tile)
      return true;
    SmallVector<StringRef, 5> Parts;
    Tile->split(Parts, ',');
    unsigned WM = 0, WN = 0;
    if (Parts.size() < 2 || Parts[0].trim().getAsInteger(10, WM) ||
        Parts[1].trim().getAsInteger(10, WN))
      return true;
    return WM * WN >= 8;
  }

  /// The end of the run of unlabelled \p K instructions at \p I.
  Index span(Instrs S, Index I, Kind K) {
    Index N = S.size();
    while (I < N && FF.kind(S[I]) == K && S[I].Label.empty())
      ++I;
    return I;
  }

  /// Instructions of \p Q that spread() places before the last HMMA of
  /// the \p Groups runs (they were all after it): every one but those after
  /// the last run.
  static size_t countMoved(size_t Q, size_t Groups) {
    size_t M = Groups ? (Q + Groups - 1) / Groups : 0;
    return std::min(Q, M * (Groups ? Groups - 1 : 0));
  }

  /// Whether \p Head (instructions of \p HeadPiece) can go before the last
  /// of a step's H1 runs \p H1Runs: there are two runs or more, and none of
  /// the head's loads writes a register that run reads (with virtual
  /// registers, never: the k-halves' fragments have names of their own).
  bool hoistable(Instrs S, ArrayRef<Range> H1Runs, Instrs HeadPiece,
                 ArrayRef<Index> Head) {
    if (H1Runs.size() < 2)
      return false;
    collectUses(FF, S, H1Runs.back(), Uses);
    for (Index L : Head)
      if (readsResult(FF, Uses, HeadPiece[L]))
        return false;
    return true;
  }

  /// Cuts \p S into steps L0 H0 L1 H1 Q (after a BAR.SYNC, with the
  /// DEPBAR.LE just before it) and the code around them.
  /// (Into \p R, empty: parsed in place.)  Each instruction's kind is
  /// read where the walk needs it, most of them once.
  void parse(Instrs S, bool Hoist, Parsed &R) {
    Index N = S.size();
    auto KindAt = [&](Index I) { return FF.kind(S[I]); };
    // The code since the last step (kept as it is) starts at Rest.
    Index I = 0, Rest = 0;
    while (I < N) {
      if (KindAt(I) != Kind::Bar) {
        ++I;
        continue;
      }
      Index L0End = span(S, I + 1, Kind::Ldsm),
            H0End = span(S, L0End, Kind::Hmma),
            L1End = span(S, H0End, Kind::Ldsm), J = span(S, L1End, Kind::Hmma);
      Index K = J;
      // Q holds no products or fragment loads (else the step is already
      // interleaved).
      Kind QK = Kind::Other;
      for (; K < N; ++K) {
        QK = KindAt(K);
        if (QK == Kind::Ldgdepbar || QK == Kind::Bar || QK == Kind::Hmma ||
            QK == Kind::Ldsm || !S[K].Label.empty())
          break;
      }
      bool Shaped = L0End > I + 1 && H0End > L0End && L1End > H0End &&
                    J > L1End && K < N && QK == Kind::Ldgdepbar &&
                    S[K].Label.empty() && H0End - L0End == J - L1End &&
                    S[I].Label.empty();
      if (!Shaped) {
        ++I;
        continue;
      }
      Parsed::Step &St = R.Steps.emplace_back();
      St.H0 = {L0End, H0End};
      St.L1 = {H0End, L1End};
      St.H1 = {L1End, J};
      St.Q = {J, K + 1};
      Range Before = {Rest, I};
      if (Before.size() && KindAt(Before.End - 1) == Kind::Depbar &&
          S[Before.End - 1].Label.empty())
        St.Head.push_back(--Before.End);
      R.Verbatim.push_back(Before);
      St.Head.push_back(I);
      if (Hoist)
        collectUses(FF, S, {St.H0.Begin, runEnd(FF, S, St.H0, St.H0.Begin)},
                    Uses);
      for (Index L = I + 1; L < L0End; ++L)
        (!Hoist || readsResult(FF, Uses, S[L]) ? St.Head : St.L0Rest)
            .push_back(L);
      I = Rest = K + 1;
    }
    R.Verbatim.push_back({Rest, N});
  }

  static void append(Index *&Out, Range R) {
    for (Index I = R.Begin; I < R.End; ++I)
      *Out++ = I;
  }
  static void append(Index *&Out, ArrayRef<Index> L) {
    Out = std::copy(L.begin(), L.end(), Out);
  }

  /// The order \p R's piece \p S is written back in (into Order), each step
  /// as L0 H0' H1' (H0' = H0's runs with L1 spread between them, H1' =
  /// H1's runs with Q); sets the runs' reuse flags in \p S.  The head of
  /// the step after (its DEPBAR, BAR and L0), when it follows directly,
  /// goes before H1's last run, so that its fragments load under this
  /// step's last products instead of after a barrier every warp has
  /// reached; \p TrailingHead is that head for the piece's last step (the
  /// next piece's first, rotated: instructions of this piece, \p S), and
  /// \p DropFirstHead drops the first step's head (it ran at the end of the
  /// piece before).  Order is then a permutation of the piece: the
  /// indices kept, in their new order, then the dropped ones; returns how
  /// many are kept.
  size_t emit(MutableInstrs S, Parsed &R, StringRef Name, bool Hoist,
              bool DropFirstHead, const IndexList *TrailingHead) {
    // Every index once (a head is placed once: hoisted, kept, or dropped
    // when it ran at the end of the piece before).
    Order.resize_for_overwrite(S.size());
    Index *Out = Order.data();
    SmallVector<bool, 16> HeadDone(R.Steps.size(), false);
    if (DropFirstHead && R.startsWithStep())
      HeadDone[0] = true;
    for (size_t I = 0; I < R.Steps.size(); ++I) {
      append(Out, R.Verbatim[I]);
      Parsed::Step &St = R.Steps[I];
      const IndexList *Next = !Hoist          ? nullptr
                              : R.adjacent(I) ? &R.Steps[I + 1].Head
                              : I + 1 == R.Steps.size() && R.endsWithStep()
                                  ? TrailingHead
                                  : nullptr;
      runs(FF, S, St.H0, R0);
      runs(FF, S, St.H1, R1);
      if (Next && !hoistable(S, R1, S, *Next))
        Next = nullptr;
      TP_DEBUG(dbgs() << "tp-interleave: @" << Name << ": step " << I << ": "
                      << St.L1.size() << " LDSMs of k-half 1 after the "
                      << R0.size() << " HMMA runs of k-half 0, "
                      << St.Q.size() << " other instructions after the "
                      << R1.size() << " runs of k-half 1\n");
      ++NumStepsInterleaved;
      NumInstrsMoved += countMoved(St.L1.size(), R0.size()) +
                        countMoved(St.Q.size(), R1.size());
      if (!HeadDone[I])
        append(Out, St.Head);
      spread(FF, S, R0, St.L0Rest, St.L1, Out);
      if (!Next) {
        spread(FF, S, R1, {}, St.Q, Out);
        continue;
      }
      // The head goes before H1's last run: the next step's first
      // fragments load under this step's last products.
      Range Last = R1.pop_back_val();
      setReuse(FF, S, Last);
      spread(FF, S, R1, {}, St.Q, Out);
      append(Out, *Next);
      append(Out, Last);
      ++NumHeadsHoisted;
      if (R.adjacent(I))
        HeadDone[I + 1] = true;
    }
    append(Out, R.Verbatim.back());
    size_t Kept = Out - Order.data();
    // Left out: the first step's head, dropped (unless it came back as the
    // trailing head).
    if (Kept < S.size())
      append(Out, R.Steps.front().Head);
    assert(size_t(Out - Order.data()) == S.size() &&
           "the order is a permutation of the piece");
    return Kept;
  }

  /// Moves \p From to \p To, which holds no label or branch target (a
  /// moved-from instruction); the instruction word and location alone when
  /// \p From has none either (every instruction of a step), which leaves
  /// \p From as \p To was.
  static void moveInstr(MInstr &From, MInstr &To) {
    assert(To.Label.empty() && To.Target.empty() && "To was moved from");
    if (From.Label.empty() && From.Target.empty()) {
      To.I = From.I;
      To.Loc = From.Loc;
      return;
    }
    To = std::move(From);
  }

  /// Puts \p S in Order in place: Order (a permutation of the piece, the
  /// \p Kept indices kept first) applied cycle by cycle (an instruction
  /// moved once where it moves at all), then the dropped ones cut off the
  /// end.
  void reorder(Seq &Piece, size_t Kept) {
    MutableInstrs S(Piece); // see Instrs
    MutableArrayRef<Index> Perm(Order);
    Index N = S.size();
    // The part that stays where it is (the piece's head) is not touched.
    Index Same = 0;
    while (Same < Kept && Perm[Same] == Same)
      ++Same;
    if (Same == N)
      return;
    // Position P takes S[Perm[P]]; a position done is marked Perm[P] = P.
    // Each cycle starts by moving S[P] out, and every later move's
    // destination is the instruction the one before moved out: no
    // destination holds a label or branch target (moveInstr).
    for (Index P = Same; P < N; ++P) {
      if (Perm[P] == P)
        continue;
      MInstr First = std::move(S[P]);
      Index J = P;
      for (;;) {
        Index K = Perm[J];
        Perm[J] = J;
        if (K == P) {
          S[J] = std::move(First);
          break;
        }
        moveInstr(S[K], S[J]);
        J = K;
      }
    }
    Piece.resize(Kept);
  }

  void interleave(mir::Function &F, bool Hoist) {
    std::vector<Parsed> Ps(F.Pieces.size());
    for (size_t I = 0; I < F.Pieces.size(); ++I)
      parse(F.Pieces[I].Instrs, Hoist, Ps[I]);
    // The loop's rotation: the body's first head moves to the body's end
    // (for the next iteration) and to the prologue's end (for the first),
    // when the tail starts with the same head, which the body's end then
    // runs instead.
    mir::Piece *Pro = F.getPiece("prologue"), *Body = F.getPiece("body"),
               *Tail = F.getPiece("tail");
    auto IndexOf = [&](mir::Piece *P) { return size_t(P - F.Pieces.data()); };
    bool Rotate = false;
    if (Hoist && Pro && Body && Tail) {
      Parsed &B = Ps[IndexOf(Body)], &T = Ps[IndexOf(Tail)];
      const IndexList &BH = B.Steps.empty() ? IndexList() : B.Steps.front().Head;
      Rotate = B.startsWithStep() && B.endsWithStep() && T.startsWithStep() &&
               BH.size() == T.Steps.front().Head.size() &&
               std::equal(BH.begin(), BH.end(), T.Steps.front().Head.begin(),
                          [&](Index X, Index Y) {
                            return sameInstr(Body->Instrs[X], Tail->Instrs[Y]);
                          });
      if (Rotate) {
        runs(FF, Body->Instrs, B.Steps.back().H1, R1);
        Rotate = hoistable(Body->Instrs, R1, Body->Instrs, BH);
      }
    }
    // The prologue's copy of the body's first head is taken from the body
    // before the body is written back (set aside first only when the body
    // comes before the prologue).
    IndexList BodyHead;
    Seq BodyHeadCopy;
    if (Rotate) {
      BodyHead = Ps[IndexOf(Body)].Steps.front().Head;
      if (IndexOf(Body) < IndexOf(Pro))
        for (Index I : BodyHead)
          BodyHeadCopy.push_back(Body->Instrs[I]);
    }
    for (size_t I = 0; I < F.Pieces.size(); ++I) {
      mir::Piece &P = F.Pieces[I];
      bool IsBody = &P == Body, IsTail = &P == Tail;
      size_t Kept =
          emit(P.Instrs, Ps[I], P.Name, Hoist, Rotate && (IsBody || IsTail),
               Rotate && IsBody ? &BodyHead : nullptr);
      reorder(P.Instrs, Kept);
      if (Rotate && &P == Pro) {
        if (BodyHeadCopy.empty())
          for (Index H : BodyHead)
            P.Instrs.push_back(Body->Instrs[H]);
        else
          P.Instrs.insert(P.Instrs.end(), BodyHeadCopy.begin(),
                          BodyHeadCopy.end());
        ++NumHeadsRotated;
      }
    }
  }
};

} // namespace

std::unique_ptr<Pass> createInterleavePass() {
  return std::make_unique<InterleavePass>();
}

} // namespace tp
