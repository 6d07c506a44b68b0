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
/// Algorithm, per step:
///  1. split H0 and H1 into runs: consecutive HMMAs with the same A
///     fragment (an m-tile's n-tiles); groups = the number of runs;
///  2. H0' = after each run of H0, the next ceil(|L1| / groups) LDSMs of L1
///     (then whatever is left); H1' the same with Q;
///  3. the step becomes L0 H0' H1'; in every run each HMMA but the last sets
///     the reuse flag of its A operand (the fragment stays in the
///     operand-reuse cache across the run).  Runs are never split.
/// A step that is not in that shape (already interleaved, hand-written) is
/// left as it is.  Control fields are kept; the pass only reorders and sets
/// reuse flags.
///
//===----------------------------------------------------------------------===//

#include "tp/CodeGen/CodeGen.h"
#include "tp/MIR/MIR.h"
#include "tp/Support/Debug.h"

#include "llvm/ADT/Statistic.h"

using namespace llvm;

#define DEBUG_TYPE "tp-interleave"

ALWAYS_ENABLED_STATISTIC(NumStepsInterleaved, "Steps interleaved");
ALWAYS_ENABLED_STATISTIC(NumInstrsMoved,
                         "Instructions moved (LDSMs and copies spread "
                         "between HMMA runs)");

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
std::vector<Seq> runs(const Seq &H) {
  std::vector<Seq> Rs;
  for (const MInstr &MI : H) {
    int A = aOperand(MI);
    if (Rs.empty() || Rs.back().back().I.Ops[A] != MI.I.Ops[A])
      Rs.emplace_back();
    Rs.back().push_back(MI);
  }
  return Rs;
}

/// tpInterleave groups n m over runs: each run, then m of Q; then the rest.
Seq spread(std::vector<Seq> &&Runs, const Seq &Q) {
  for (Seq &Run : Runs)
    for (size_t I = 0; I < Run.size(); ++I) {
      int A = aOperand(Run[I]);
      int Slot = Run[I].info().Operands[A].ReuseSlot;
      uint8_t Bit = Slot >= 0 ? uint8_t(1u << Slot) : 0;
      if (I + 1 < Run.size())
        Run[I].I.Ctrl.Reuse |= Bit;
      else
        Run[I].I.Ctrl.Reuse &= ~Bit;
    }
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

class InterleavePass : public Pass {
public:
  Error run(std::unique_ptr<IRUnit> &IR, PassContext &) override {
    for (mir::Function &F : static_cast<mir::MachineUnit &>(*IR).M.Functions)
      for (mir::Piece &P : F.Pieces)
        interleave(P);
    return Error::success();
  }

private:
  static size_t take(const Seq &S, size_t I, StringRef Mn, Seq &Out) {
    while (I < S.size() && is(S[I], Mn) && S[I].Label.empty())
      Out.push_back(S[I++]);
    return I;
  }

  /// Instructions of \p Q that spread() places before the last HMMA of
  /// the \p Groups runs (they were all after it): every one but those after
  /// the last run.
  static size_t countMoved(const Seq &Q, size_t Groups) {
    size_t M = Groups ? (Q.size() + Groups - 1) / Groups : 0;
    return std::min(Q.size(), M * (Groups ? Groups - 1 : 0));
  }

  void interleave(mir::Piece &P) {
    Seq &S = P.Instrs;
    Seq Out;
    Out.reserve(S.size());
    size_t I = 0;
    while (I < S.size()) {
      Out.push_back(S[I]);
      if (!is(S[I++], "BAR"))
        continue;
      Seq L0, H0, L1, H1, Q;
      size_t J = take(S, I, "LDSM", L0);
      J = take(S, J, "HMMA", H0);
      J = take(S, J, "LDSM", L1);
      J = take(S, J, "HMMA", H1);
      size_t K = J;
      // Q holds no products or fragment loads (else the step is already
      // interleaved).
      while (K < S.size() && !is(S[K], "LDGDEPBAR") && !is(S[K], "BAR") &&
             !is(S[K], "HMMA") && !is(S[K], "LDSM") && S[K].Label.empty())
        ++K;
      bool Shaped = !L0.empty() && !H0.empty() && !L1.empty() &&
                    !H1.empty() && K < S.size() && is(S[K], "LDGDEPBAR") &&
                    S[K].Label.empty() && H0.size() == H1.size();
      if (!Shaped)
        continue;
      Q.assign(S.begin() + J, S.begin() + K + 1);
      TP_DEBUG(dbgs() << "tp-interleave: @" << P.Name << ": step at "
                      << Out.size() - 1 << ": " << L1.size()
                      << " LDSMs of k-half 1 after the " << runs(H0).size()
                      << " HMMA runs of k-half 0, " << Q.size()
                      << " other instructions after the "
                      << runs(H1).size() << " runs of k-half 1\n");
      Out.insert(Out.end(), L0.begin(), L0.end());
      std::vector<Seq> R0 = runs(H0), R1 = runs(H1);
      ++NumStepsInterleaved;
      NumInstrsMoved += countMoved(L1, R0.size()) + countMoved(Q, R1.size());
      Seq A = spread(std::move(R0), L1), B = spread(std::move(R1), Q);
      Out.insert(Out.end(), A.begin(), A.end());
      Out.insert(Out.end(), B.begin(), B.end());
      I = K + 1;
    }
    S = std::move(Out);
  }
};

} // namespace

std::unique_ptr<Pass> createInterleavePass() {
  return std::make_unique<InterleavePass>();
}

} // namespace tp
