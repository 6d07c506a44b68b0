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
/// reuse flags.  tp-verify-schedule proves the result (utils/
/// prove-variants.sh: every layout x tile x residual x target).
///
//===----------------------------------------------------------------------===//

#include "tp/CodeGen/CodeGen.h"
#include "tp/MIR/MIR.h"
#include "tp/Support/Debug.h"
#include "tp/Support/Diagnostics.h"

#include "llvm/ADT/Statistic.h"

#include <algorithm>

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

bool is(const MInstr &MI, StringRef Mn) { return MI.mnemonic() == Mn; }

/// The operand index of an HMMA's A fragment: its first register use.
int aOperand(const MInstr &MI) {
  const sass::InstrInfo &II = MI.info();
  for (unsigned I = 0; I < II.NumOperands; ++I)
    if (II.Operands[I].Kind == sass::OperandKind::GPR && !II.Operands[I].IsDef)
      return I;
  return -1;
}

using Seq = std::vector<MInstr>;

/// Splits HMMAs into runs sharing their A fragment.
std::vector<Seq> runs(Seq &&H) {
  std::vector<Seq> Rs;
  for (MInstr &MI : H) {
    int A = aOperand(MI);
    if (Rs.empty() || Rs.back().back().I.Ops[A] != MI.I.Ops[A])
      Rs.emplace_back();
    Rs.back().push_back(std::move(MI));
  }
  return Rs;
}

/// Sets the reuse flag of \p Run's A operand on every HMMA but the last
/// (the fragment stays in the operand-reuse cache across the run).
void setReuse(Seq &Run) {
  for (size_t I = 0; I < Run.size(); ++I) {
    int A = aOperand(Run[I]);
    int Slot = Run[I].info().Operands[A].ReuseSlot;
    uint8_t Bit = Slot >= 0 ? uint8_t(1u << Slot) : 0;
    if (I + 1 < Run.size())
      Run[I].I.Ctrl.Reuse |= Bit;
    else
      Run[I].I.Ctrl.Reuse &= ~Bit;
  }
}

/// The end of the run that starts at \p Begin in \p H.
Seq::const_iterator runEnd(const Seq &H, Seq::const_iterator Begin) {
  if (Begin == H.end())
    return Begin;
  int A = aOperand(*Begin);
  auto It = Begin;
  while (It != H.end() && It->I.Ops[A] == Begin->I.Ops[A])
    ++It;
  return It;
}

/// tpInterleave groups n m over runs: each run, then m of Q; then the rest.
Seq spread(std::vector<Seq> &&Runs, const Seq &Q) {
  for (Seq &Run : Runs)
    setReuse(Run);
  size_t Groups = Runs.size();
  size_t M = Groups ? (Q.size() + Groups - 1) / Groups : 0;
  Seq Out;
  size_t Total = Q.size();
  for (const Seq &Run : Runs)
    Total += Run.size();
  Out.reserve(Total);
  size_t QI = 0;
  for (Seq &Run : Runs) {
    Out.insert(Out.end(), std::make_move_iterator(Run.begin()),
               std::make_move_iterator(Run.end()));
    for (size_t K = 0; K < M && QI < Q.size(); ++K)
      Out.push_back(Q[QI++]);
  }
  Out.insert(Out.end(), Q.begin() + QI, Q.end());
  return Out;
}

/// The registers of operand \p K of \p MI: [first, first + width), or
/// {0, 0} when it is not a GPR.
std::pair<int64_t, int64_t> gprRange(const MInstr &MI, unsigned K) {
  const sass::OperandInfo &O = MI.info().Operands[K];
  if (O.Kind != sass::OperandKind::GPR || MI.I.Ops[K] == sass::RZ)
    return {0, 0};
  int64_t V = MI.I.Ops[K], W = O.Width ? O.Width : 1;
  if (mir::isVirtualReg(V)) // one name, one range (sub-registers within)
    return {mir::virtualReg(mir::virtualRegId(V)),
            mir::virtualReg(mir::virtualRegId(V)) + 4};
  return {V, V + W};
}

/// Whether an instruction of [\p Begin, \p End) reads a register \p Load
/// writes.
bool readsResult(Seq::const_iterator Begin, Seq::const_iterator End,
                 const MInstr &Load) {
  const sass::InstrInfo &LI = Load.info();
  for (unsigned D = 0; D < LI.NumOperands; ++D) {
    if (!LI.Operands[D].IsDef)
      continue;
    auto Def = gprRange(Load, D);
    if (Def.first == Def.second)
      continue;
    for (auto It = Begin; It != End; ++It) {
      const MInstr &MI = *It;
      const sass::InstrInfo &II = MI.info();
      for (unsigned K = 0; K < II.NumOperands; ++K) {
        if (II.Operands[K].IsDef)
          continue;
        auto Use = gprRange(MI, K);
        if (Use.first < Def.second && Def.first < Use.second)
          return true;
      }
    }
  }
  return false;
}

bool sameInstr(const MInstr &A, const MInstr &B) {
  return A.I.Op == B.I.Op && A.I.Guard == B.I.Guard &&
         A.I.GuardNeg == B.I.GuardNeg && A.I.Ctrl == B.I.Ctrl &&
         A.I.Ops == B.I.Ops && A.Label.empty() && B.Label.empty() &&
         A.Target == B.Target;
}

bool sameSeq(const Seq &A, const Seq &B) {
  return A.size() == B.size() &&
         std::equal(A.begin(), A.end(), B.begin(), sameInstr);
}

/// A piece cut into k-steps in tp-select's shape and the code between
/// them (kept as it is).
struct Parsed {
  struct Step {
    /// [DEPBAR.LE] BAR.SYNC and the LDSMs of L0 that H0's first run reads.
    Seq Head;
    Seq L0Rest;         ///< the other LDSMs of L0
    Seq H0, L1, H1, Q;  ///< Q ends with the step's LDGDEPBAR
  };
  /// Items in order: Verbatim[i] before Steps[i]; Verbatim.back() last.
  std::vector<Seq> Verbatim;
  std::vector<Step> Steps;
  /// Whether step i is followed directly by step i + 1 (no code between).
  bool adjacent(size_t I) const {
    return I + 1 < Steps.size() && Verbatim[I + 1].empty();
  }
  /// Whether the piece starts with a step / ends with one.
  bool startsWithStep() const {
    return !Steps.empty() && Verbatim.front().empty();
  }
  bool endsWithStep() const {
    return !Steps.empty() && Verbatim.back().empty();
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

  /// The end of the run of unlabelled \p Mn instructions at \p I.
  static size_t span(const Seq &S, size_t I, StringRef Mn) {
    while (I < S.size() && is(S[I], Mn) && S[I].Label.empty())
      ++I;
    return I;
  }

  /// Moves S[Begin, End) to the end of \p Out.
  static void moveTo(Seq &S, size_t Begin, size_t End, Seq &Out) {
    Out.insert(Out.end(), std::make_move_iterator(S.begin() + Begin),
               std::make_move_iterator(S.begin() + End));
  }

  /// Instructions of \p Q that spread() places before the last HMMA of
  /// the \p Groups runs (they were all after it): every one but those after
  /// the last run.
  static size_t countMoved(const Seq &Q, size_t Groups) {
    size_t M = Groups ? (Q.size() + Groups - 1) / Groups : 0;
    return std::min(Q.size(), M * (Groups ? Groups - 1 : 0));
  }

  /// Whether \p Head can go before \p St's last H1 run: there are two
  /// runs or more, and none of the head's loads writes a register that run
  /// reads (with virtual registers, never: the k-halves' fragments have
  /// names of their own).
  static bool hoistable(const Parsed::Step &St, const Seq &Head) {
    // The last run's start: the start of the run that ends at H1's end.
    auto Last = St.H1.cbegin(), Next = runEnd(St.H1, Last);
    unsigned Runs = 1;
    for (; Next != St.H1.cend(); ++Runs) {
      Last = Next;
      Next = runEnd(St.H1, Last);
    }
    if (Runs < 2)
      return false;
    for (const MInstr &L : Head)
      if (readsResult(Last, St.H1.cend(), L))
        return false;
    return true;
  }

  /// Cuts \p S into steps L0 H0 L1 H1 Q (after a BAR.SYNC, with the
  /// DEPBAR.LE just before it) and the code around them.
  static Parsed parse(Seq &S, bool Hoist) {
    Parsed R;
    R.Verbatim.emplace_back();
    size_t I = 0;
    while (I < S.size()) {
      if (!is(S[I], "BAR")) {
        R.Verbatim.back().push_back(std::move(S[I++]));
        continue;
      }
      // The step's parts as index ranges first: nothing moves unless the
      // step has the shape.
      size_t L0End = span(S, I + 1, "LDSM"), H0End = span(S, L0End, "HMMA"),
             L1End = span(S, H0End, "LDSM"), J = span(S, L1End, "HMMA");
      size_t K = J;
      // Q holds no products or fragment loads (else the step is already
      // interleaved).
      while (K < S.size() && !is(S[K], "LDGDEPBAR") && !is(S[K], "BAR") &&
             !is(S[K], "HMMA") && !is(S[K], "LDSM") && S[K].Label.empty())
        ++K;
      bool Shaped = L0End > I + 1 && H0End > L0End && L1End > H0End &&
                    J > L1End && K < S.size() && is(S[K], "LDGDEPBAR") &&
                    S[K].Label.empty() && H0End - L0End == J - L1End &&
                    S[I].Label.empty();
      if (!Shaped) {
        R.Verbatim.back().push_back(std::move(S[I++]));
        continue;
      }
      Parsed::Step St;
      Seq L0;
      moveTo(S, I + 1, L0End, L0);
      moveTo(S, L0End, H0End, St.H0);
      moveTo(S, H0End, L1End, St.L1);
      moveTo(S, L1End, J, St.H1);
      Seq &Before = R.Verbatim.back();
      if (!Before.empty() && is(Before.back(), "DEPBAR") &&
          Before.back().Label.empty()) {
        St.Head.push_back(Before.back());
        Before.pop_back();
      }
      St.Head.push_back(std::move(S[I]));
      auto FirstEnd = runEnd(St.H0, St.H0.cbegin());
      for (MInstr &L : L0)
        (!Hoist || readsResult(St.H0.cbegin(), FirstEnd, L) ? St.Head
                                                              : St.L0Rest)
            .push_back(std::move(L));
      St.Q.assign(std::make_move_iterator(S.begin() + J),
                  std::make_move_iterator(S.begin() + K + 1));
      R.Steps.push_back(std::move(St));
      R.Verbatim.emplace_back();
      I = K + 1;
    }
    return R;
  }

  /// Writes \p R's piece back, each step as L0 H0' H1' (H0' = H0's runs
  /// with L1 spread between them, H1' = H1's runs with Q).  The head of
  /// the step after (its DEPBAR, BAR and L0), when it follows directly,
  /// goes before H1's last run, so that its fragments load under this
  /// step's last products instead of after a barrier every warp has
  /// reached; \p TrailingHead is that head for the piece's last step (the
  /// next piece's first, rotated), and \p DropFirstHead drops the first
  /// step's head (it ran at the end of the piece before).
  static Seq emit(Parsed &R, const std::string &Name, bool Hoist,
                  bool DropFirstHead, const Seq *TrailingHead) {
    Seq Out;
    std::vector<bool> HeadDone(R.Steps.size(), false);
    if (DropFirstHead && R.startsWithStep())
      HeadDone[0] = true;
    for (size_t I = 0; I < R.Steps.size(); ++I) {
      Out.insert(Out.end(), std::make_move_iterator(R.Verbatim[I].begin()),
                 std::make_move_iterator(R.Verbatim[I].end()));
      Parsed::Step &St = R.Steps[I];
      const Seq *Next = !Hoist          ? nullptr
                        : R.adjacent(I) ? &R.Steps[I + 1].Head
                        : I + 1 == R.Steps.size() && R.endsWithStep()
                            ? TrailingHead
                            : nullptr;
      if (Next && !hoistable(St, *Next))
        Next = nullptr;
      std::vector<Seq> R0 = runs(std::move(St.H0)),
                       R1 = runs(std::move(St.H1));
      TP_DEBUG(dbgs() << "tp-interleave: @" << Name << ": step " << I << ": "
                      << St.L1.size() << " LDSMs of k-half 1 after the "
                      << R0.size() << " HMMA runs of k-half 0, "
                      << St.Q.size() << " other instructions after the "
                      << R1.size() << " runs of k-half 1\n");
      ++NumStepsInterleaved;
      NumInstrsMoved +=
          countMoved(St.L1, R0.size()) + countMoved(St.Q, R1.size());
      auto Append = [&Out](Seq &&S) {
        Out.insert(Out.end(), std::make_move_iterator(S.begin()),
                   std::make_move_iterator(S.end()));
      };
      if (!HeadDone[I])
        Append(std::move(St.Head));
      Seq Loads = std::move(St.L0Rest);
      Loads.insert(Loads.end(), std::make_move_iterator(St.L1.begin()),
                   std::make_move_iterator(St.L1.end()));
      Append(spread(std::move(R0), Loads));
      if (!Next) {
        Append(spread(std::move(R1), St.Q));
        continue;
      }
      // The head goes before H1's last run: the next step's first
      // fragments load under this step's last products.
      Seq Last = std::move(R1.back());
      R1.pop_back();
      setReuse(Last);
      Append(spread(std::move(R1), St.Q));
      Out.insert(Out.end(), Next->begin(), Next->end());
      Append(std::move(Last));
      ++NumHeadsHoisted;
      if (R.adjacent(I))
        HeadDone[I + 1] = true;
    }
    Out.insert(Out.end(), std::make_move_iterator(R.Verbatim.back().begin()),
               std::make_move_iterator(R.Verbatim.back().end()));
    return Out;
  }

  void interleave(mir::Function &F, bool Hoist) {
    std::vector<Parsed> Ps;
    for (mir::Piece &P : F.Pieces)
      Ps.push_back(parse(P.Instrs, Hoist));
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
      Rotate = B.startsWithStep() && B.endsWithStep() && T.startsWithStep() &&
               sameSeq(B.Steps.front().Head, T.Steps.front().Head) &&
               hoistable(B.Steps.back(), B.Steps.front().Head);
    }
    Seq BodyHead = Rotate ? Ps[IndexOf(Body)].Steps.front().Head : Seq();
    for (size_t I = 0; I < F.Pieces.size(); ++I) {
      mir::Piece &P = F.Pieces[I];
      bool IsBody = &P == Body, IsTail = &P == Tail;
      P.Instrs = emit(Ps[I], P.Name, Hoist, Rotate && (IsBody || IsTail),
                      Rotate && IsBody ? &BodyHead : nullptr);
      if (Rotate && &P == Pro) {
        P.Instrs.insert(P.Instrs.end(), BodyHead.begin(), BodyHead.end());
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
