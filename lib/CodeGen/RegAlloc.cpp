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
///  1. widths (mir::getVirtualRegWidths) and one liveness unit per
///     register of every tuple, so that a pair of a 4-tuple can be written
///     without killing the other pair (the accumulators are zeroed by
///     halves, R's values loaded by words);
///  2. liveness per piece to a fixed point over the pieces' graph:
///     prologue -> body -> tail, body -> body (the back edge; tp-form-loop
///     adds the branch), a branch to a label that starts a piece; the
///     counter is live at the body's end (the loop control reads it);
///  3. interference: each written register against everything live after
///     the instruction and everything else the instruction reads (a result
///     never overlaps an operand of its own instruction);
///  4. pre-assignments first (option plan=seed: the seed's register plan,
///     and the function attribute preassign(%x=Rn ...)), then every other
///     virtual register in the order of its first appearance, at the
///     lowest multiple of its width that no interfering register occupies
///     (first fit);
///  5. rewrite; then the scoreboard waits the conservative schedule needs
///     on the physical registers are added (tp-select's waits, derived as
///     before: a read or write of a register a pending variable-latency
///     write guards, a write of one a pending late read guards; the body's
///     first instruction waits for what either way into it leaves pending;
///     EXIT for all).  tp-compact-stalls recomputes every field.
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

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#include <array>
#include <bitset>

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

constexpr unsigned NumPhysRegs = 255; // R0..R254 (RZ = 255)
/// A set of physical registers, a tuple's overhang past R254 included.
using PhysSet = std::bitset<NumPhysRegs + 8>;

/// A register operand of an instruction, in allocation terms.
struct Ref {
  bool Virtual;
  unsigned Reg; ///< virtual id or physical register
  unsigned Sub; ///< virtual: first register in the tuple
  unsigned Width;
  bool IsDef;
  unsigned OpIdx;
};

void collectRefs(const MInstr &MI, SmallVectorImpl<Ref> &Out) {
  Out.clear();
  const sass::InstrInfo &II = MI.info();
  for (unsigned K = 0; K < II.NumOperands; ++K) {
    const sass::OperandInfo &O = II.Operands[K];
    if (O.Kind != sass::OperandKind::GPR &&
        O.Kind != sass::OperandKind::MemBase)
      continue;
    int64_t V = MI.I.Ops[K];
    unsigned W = std::max<unsigned>(1, O.Width);
    if (mir::isVirtualReg(V))
      Out.push_back({true, mir::virtualRegId(V), mir::virtualRegSub(V), W,
                     O.IsDef, K});
    else if (V != 255)
      Out.push_back({false, unsigned(V), 0, W, O.IsDef, K});
  }
}

/// The register operands of every instruction of a function, by piece.
using PieceRefTable = std::vector<std::vector<SmallVector<Ref, 6>>>;

void addConservativeWaits(mir::Function &F, const PieceRefTable &Refs);

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
  std::string name(unsigned V) const { return "%" + F.VRegNames[V]; }
  void computeLiveness();
  void buildInterference();
  Error preassign(bool SeedPlan);
  Error assign(unsigned V, unsigned Reg);
  Error allocateRest();
  void rewrite();
  void seedPlan(StringMap<unsigned> &Plan) const;
  void printDecisions(raw_ostream &OS) const;

  /// The register operands of every instruction, by piece (computed once:
  /// liveness walks the pieces to a fixed point).
  PieceRefTable PieceRefs;
  /// Live units after a piece's last instruction / before its first.
  std::vector<BitVector> LiveIn, LiveOut;
  std::vector<std::vector<unsigned>> Succs;

  Function &F;
  PassContext &Ctx;
  unsigned MaxRegs;
  std::vector<unsigned> Width, Base; ///< per virtual register
  std::vector<unsigned> UnitOwner;   ///< unit -> virtual register
  unsigned NumUnits = 0;
  std::vector<BitVector> Interferes;
  BitVector ReservedPhys; ///< physical registers the input names
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
        Err = makeError("tp-regalloc: @" + F.Name + ": branch to ^" +
                        MI.Target + ", which does not start a piece");
        return S;
      }
      S[P].push_back(It->second);
    }
  }
  return S;
}

/// Marks units [First, First + N) in \p BV.
void setUnits(BitVector &BV, unsigned First, unsigned N) {
  BV.set(First, First + N);
}

void Allocator::computeLiveness() {
  size_t N = F.Pieces.size();
  LiveIn.assign(N, BitVector(NumUnits));
  LiveOut.assign(N, BitVector(NumUnits));
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (size_t P = N; P-- > 0;) {
      BitVector Live(NumUnits);
      for (unsigned S : Succs[P])
        Live |= LiveIn[S];
      if (Counter && F.Pieces[P].Name == "body")
        setUnits(Live, Base[*Counter], Width[*Counter]);
      LiveOut[P] = Live;
      const auto &Is = F.Pieces[P].Instrs;
      for (size_t I = Is.size(); I-- > 0;) {
        const auto &Refs = PieceRefs[P][I];
        bool Guarded = Is[I].I.Guard != 7 || Is[I].I.GuardNeg;
        for (const Ref &R : Refs)
          if (R.Virtual && R.IsDef && !Guarded)
            Live.reset(Base[R.Reg] + R.Sub, Base[R.Reg] + R.Sub + R.Width);
        for (const Ref &R : Refs)
          if (R.Virtual && !R.IsDef)
            setUnits(Live, Base[R.Reg] + R.Sub, R.Width);
      }
      if (Live != LiveIn[P]) {
        LiveIn[P] = Live;
        Changed = true;
      }
    }
  }
}

void Allocator::buildInterference() {
  size_t NV = Width.size();
  Interferes.assign(NV, BitVector(NV));
  for (size_t P = 0; P < F.Pieces.size(); ++P) {
    // Live units, and the virtual registers with a live unit (counted, so
    // that a def is one word-wise OR of the live registers).
    BitVector Live(NumUnits), LiveV(NV);
    std::vector<unsigned> LiveUnits(NV, 0);
    auto Set = [&](unsigned First, unsigned N) {
      for (unsigned U = First; U < First + N; ++U)
        if (!Live.test(U)) {
          Live.set(U);
          if (LiveUnits[UnitOwner[U]]++ == 0)
            LiveV.set(UnitOwner[U]);
        }
    };
    auto Reset = [&](unsigned First, unsigned N) {
      for (unsigned U = First; U < First + N; ++U)
        if (Live.test(U)) {
          Live.reset(U);
          if (--LiveUnits[UnitOwner[U]] == 0)
            LiveV.reset(UnitOwner[U]);
        }
    };
    for (unsigned U : LiveOut[P].set_bits())
      Set(U, 1);
    const auto &Is = F.Pieces[P].Instrs;
    for (size_t I = Is.size(); I-- > 0;) {
      const auto &Refs = PieceRefs[P][I];
      bool Guarded = Is[I].I.Guard != 7 || Is[I].I.GuardNeg;
      for (const Ref &D : Refs) {
        if (!D.Virtual || !D.IsDef)
          continue;
        Interferes[D.Reg] |= LiveV;
        for (const Ref &O : Refs)
          if (O.Virtual)
            Interferes[D.Reg].set(O.Reg);
      }
      for (const Ref &R : Refs)
        if (R.Virtual && R.IsDef && !Guarded)
          Reset(Base[R.Reg] + R.Sub, R.Width);
      for (const Ref &R : Refs)
        if (R.Virtual && !R.IsDef)
          Set(Base[R.Reg] + R.Sub, R.Width);
    }
    // Live at a piece's start with no definition before: live from the
    // function's entry, together with everything else live there.
    if (P == 0)
      for (unsigned A : LiveV.set_bits())
        Interferes[A] |= LiveV;
  }
  // Symmetric, without self edges.
  for (unsigned V = 0; V < NV; ++V) {
    Interferes[V].reset(V);
    for (unsigned U : Interferes[V].set_bits())
      Interferes[U].set(V);
  }
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
  for (unsigned U : Interferes[V].set_bits())
    if (Assigned[U] >= 0 && unsigned(Assigned[U]) < Reg + W &&
        Reg < unsigned(Assigned[U]) + Width[U])
      return fail(formatv("pre-assignment of {0} to R{1} conflicts with {2} "
                          "in R{3}, live at the same time",
                          name(V), Reg, name(U), Assigned[U])
                      .str());
  Assigned[V] = int(Reg);
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
  for (unsigned V : Order) {
    auto It = Plan.find(F.VRegNames[V]);
    if (It != Plan.end())
      if (Error E = assign(V, It->second))
        return E;
  }
  return Error::success();
}

Error Allocator::allocateRest() {
  // Physical registers a fixed-size set (no allocation a register): the
  // reserved ones, then those of the interfering registers placed so far.
  PhysSet Reserved;
  for (unsigned R : ReservedPhys.set_bits())
    Reserved.set(R);
  // The virtual registers placed so far: only those of V's interfering
  // ones are visited (one word-wise AND, not a test of each).
  BitVector Placed(Width.size()), Near(Width.size());
  for (unsigned V = 0; V < Width.size(); ++V)
    if (Assigned[V] >= 0)
      Placed.set(V);
  for (unsigned V : Order) {
    if (Assigned[V] >= 0)
      continue;
    PhysSet Busy = Reserved;
    Near = Interferes[V];
    Near &= Placed;
    for (unsigned U : Near.set_bits())
      for (unsigned R = Assigned[U], E = R + Width[U]; R < E; ++R)
        Busy[R] = true;
    unsigned W = Width[V], Reg = 0;
    auto Free = [&](unsigned First) {
      for (unsigned R = First; R < First + W; ++R)
        if (Busy[R])
          return false;
      return true;
    };
    while (Reg + W <= MaxRegs && !Free(Reg))
      Reg += W;
    if (Reg + W > MaxRegs) {
      unsigned LiveWith = 0;
      for (unsigned U : Interferes[V].set_bits())
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
    Assigned[V] = int(Reg);
    Placed.set(V);
  }
  return Error::success();
}

void Allocator::rewrite() {
  BitVector Held(NumPhysRegs + 4);
  for (unsigned V : Order) {
    if (Held.find_first_in(Assigned[V], Assigned[V] + Width[V]) >= 0)
      ++NumShared;
    Held.set(Assigned[V], Assigned[V] + Width[V]);
  }
  unsigned High = 0;
  // The operands collected before allocation (PieceRefs) name the same
  // operands: the rewrite changes only their values.
  for (size_t PI = 0; PI < F.Pieces.size(); ++PI)
    for (size_t II = 0; II < F.Pieces[PI].Instrs.size(); ++II) {
      MInstr &MI = F.Pieces[PI].Instrs[II];
      for (Ref &R : PieceRefs[PI][II]) {
        unsigned Phys = R.Virtual ? unsigned(Assigned[R.Reg]) + R.Sub : R.Reg;
        if (R.Virtual)
          MI.I.Ops[R.OpIdx] = Phys;
        High = std::max(High, Phys + R.Width);
        // Now the operand collectRefs() finds in the rewritten instruction.
        R = Ref{false, Phys, 0, R.Width, R.IsDef, R.OpIdx};
      }
    }
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

Error Allocator::run(bool SeedPlan) {
  // The register operands of every instruction, collected once: the
  // widths (as mir::getVirtualRegWidths computes them), the first
  // appearances, liveness, interference and the rewrite all read them.
  PieceRefs.resize(F.Pieces.size());
  Width.assign(F.VRegNames.size(), 0);
  for (size_t PI = 0; PI < F.Pieces.size(); ++PI)
    for (const MInstr &MI : F.Pieces[PI].Instrs) {
      PieceRefs[PI].emplace_back();
      collectRefs(MI, PieceRefs[PI].back());
      for (const Ref &R : PieceRefs[PI].back()) {
        if (!R.Virtual)
          continue;
        if (R.Reg >= Width.size())
          Width.resize(R.Reg + 1, 0);
        Width[R.Reg] = std::max(Width[R.Reg], R.Sub + R.Width);
      }
    }
  for (unsigned &X : Width)
    if (X)
      X = unsigned(PowerOf2Ceil(X));
  size_t NV = Width.size();
  Base.assign(NV, 0);
  for (unsigned V = 0; V < NV; ++V) {
    Base[V] = NumUnits;
    NumUnits += Width[V];
    UnitOwner.resize(NumUnits, V);
  }
  ReservedPhys = BitVector(NumPhysRegs + 4);
  BitVector Seen(NV);
  FirstLoc.assign(NV, SMLoc());
  for (size_t PI = 0; PI < F.Pieces.size(); ++PI)
    for (size_t II = 0; II < F.Pieces[PI].Instrs.size(); ++II)
      for (const Ref &R : PieceRefs[PI][II]) {
        if (!R.Virtual) {
          ReservedPhys.set(R.Reg, std::min(R.Reg + R.Width, NumPhysRegs));
        } else if (!Seen.test(R.Reg)) {
          Seen.set(R.Reg);
          Order.push_back(R.Reg);
          FirstLoc[R.Reg] = F.Pieces[PI].Instrs[II].Loc;
        }
      }
  if (Optional<StringRef> C = F.getAttr("counter"))
    if (C->startswith("%")) {
      for (unsigned V = 0; V < NV; ++V)
        if (F.VRegNames[V] == C->drop_front())
          Counter = V;
      if (!Counter || !Seen.test(*Counter))
        return fail("counter(" + *C + ") names no virtual register of the "
                                      "function");
    }
  Error Err = Error::success();
  Succs = pieceGraph(F, Err);
  if (Err)
    return Err;
  computeLiveness();
  buildInterference();
  Assigned.assign(NV, -1);
  if (Error E = preassign(SeedPlan))
    return E;
  if (Error E = allocateRest())
    return E;
  NumVirtualRegs += Order.size();
  rewrite();
  addConservativeWaits(F, PieceRefs);
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
/// when a pending late read does.  A wait clears its scoreboards' bits in
/// every register at once; the body's two walks merge by OR.
struct SBState {
  static constexpr unsigned NumRegs = NumPhysRegs + 8; ///< tuples' overhang
  std::array<uint8_t, NumRegs> Write{}, Read{};
  uint8_t Pending = 0; ///< the scoreboards with some register
  uint8_t pending() const { return Pending; }
  /// The scoreboards guarding any register of [R, R + W), by \p Of.
  static uint8_t guarding(const std::array<uint8_t, NumRegs> &Of, unsigned R,
                          unsigned W) {
    uint8_t M = 0;
    for (unsigned X = R; X < R + W && X < NumRegs; ++X)
      M |= Of[X];
    return M;
  }
  void guard(std::array<uint8_t, NumRegs> &Of, unsigned R, unsigned W,
             unsigned SB) {
    for (unsigned X = R; X < R + W && X < NumRegs; ++X)
      Of[X] |= uint8_t(1u << SB);
    Pending |= uint8_t(1u << SB);
  }
  void clear(uint8_t Mask) {
    if (!(Pending & Mask))
      return;
    uint8_t Keep = uint8_t(~Mask);
    for (unsigned X = 0; X < NumRegs; ++X) {
      Write[X] &= Keep;
      Read[X] &= Keep;
    }
    Pending &= Keep;
  }
  void merge(const SBState &O) {
    for (unsigned X = 0; X < NumRegs; ++X) {
      Write[X] |= O.Write[X];
      Read[X] |= O.Read[X];
    }
    Pending |= O.Pending;
  }
};

void addWaits(MInstr &MI, ArrayRef<Ref> Refs, SBState &St) {
  sass::Instruction &I = MI.I;
  uint8_t Wait = I.Ctrl.WaitMask;
  // Scoreboards 1..5 guard registers (0 counts the copy groups).
  for (const Ref &R : Refs) {
    uint8_t G = SBState::guarding(St.Write, R.Reg, R.Width);
    if (R.IsDef)
      G |= SBState::guarding(St.Read, R.Reg, R.Width);
    Wait |= G & 0x3e;
  }
  if (MI.mnemonic() == StringRef("EXIT"))
    Wait = 0x3f;
  St.clear(Wait);
  I.Ctrl.WaitMask = Wait;
  for (const Ref &R : Refs) {
    if (R.IsDef && I.Ctrl.WrSB > 0 && I.Ctrl.WrSB < 6)
      St.guard(St.Write, R.Reg, R.Width, I.Ctrl.WrSB);
    if (!R.IsDef && I.Ctrl.RdSB > 0 && I.Ctrl.RdSB < 6)
      St.guard(St.Read, R.Reg, R.Width, I.Ctrl.RdSB);
    // A load without a read scoreboard reads its address late too: its
    // write scoreboard covers the sources (tp-verify-schedule's model).
    else if (!R.IsDef && I.Ctrl.RdSB >= 6 && I.Ctrl.WrSB > 0 &&
             I.Ctrl.WrSB < 6)
      St.guard(St.Read, R.Reg, R.Width, I.Ctrl.WrSB);
  }
}
} // namespace

namespace {
/// addConservativeWaits() with the register operands of every instruction
/// (\p Refs, by piece) given: tp-regalloc has them from its rewrite.
void addConservativeWaits(mir::Function &F, const PieceRefTable &Refs) {
  SBState St, Entry;
  for (size_t PI = 0; PI < F.Pieces.size(); ++PI) {
    mir::Piece &P = F.Pieces[PI];
    auto Walk = [&](SBState &S) {
      for (size_t I = 0; I < P.Instrs.size(); ++I)
        addWaits(P.Instrs[I], Refs[PI][I], S);
    };
    if (P.Name == "body" && !P.Instrs.empty()) {
      // Twice: the second walk starts from what the body leaves pending
      // (the back edge) besides what the prologue does.
      Entry = St;
      SBState First = St;
      Walk(First);
      P.Instrs.front().I.Ctrl.WaitMask |= St.pending() | First.pending();
      St.merge(First);
      Walk(St);
      // The tail follows the body or, with no iteration, the prologue.
      St.merge(Entry);
      continue;
    }
    Walk(St);
  }
}
} // namespace

void addConservativeWaits(mir::Function &F) {
  PieceRefTable Refs(F.Pieces.size());
  for (size_t PI = 0; PI < F.Pieces.size(); ++PI)
    for (const MInstr &MI : F.Pieces[PI].Instrs) {
      Refs[PI].emplace_back();
      collectRefs(MI, Refs[PI].back());
    }
  addConservativeWaits(F, Refs);
}

std::unique_ptr<Pass> createRegAllocPass() {
  return std::make_unique<RegAllocPass>();
}

} // namespace tp
