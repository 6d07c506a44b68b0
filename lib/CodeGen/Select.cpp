//===- Select.cpp - tp-select: swizzled tile IR -> machine IR -------------===//
///
/// \file
/// tile IR -> mir.  Requires a swizzled product (tp.addresses present, i.e.
/// tp-admit, tp-tile, tp-pipeline, tp-swizzle have run); guarantees a
/// `sass.func` per kernel holding the seed's program
/// (../shared/seed/TiledProductSM86.seed.txt) instruction by instruction,
/// before interleaving, stall compaction and loop formation:
///
///   piece prologue  tpPrologue: R1 = c[0x0][0x28] and ULDC.64 UR4 =
///                   c[0x0][0x118] first (as ptxas does), then the seed's
///                   S2Rs, addresses (tpChunkAddresses, tpMatrixAddresses),
///                   C's pointer, zeroed accumulators, stages-1 copy steps
///                   (tpCopyStep), the iteration counter (R44)
///   piece body      tpBody: `stages` k-steps (tpStageStep), each DEPBAR.LE
///                   SB0 stages-2, BAR.SYNC, k-half 0's LDSMs, its HMMAs,
///                   k-half 1's LDSMs, its HMMAs, then the copies of the step
///                   stages-1 on (tpCopiesFor) -- the order before
///                   tp-interleave spreads them over the HMMA runs
///   piece tail      tpTail: the last `stages` steps (the first copies the
///                   last step, the others commit empty groups), DEPBAR.LE
///                   SB0 0, C's pair stores (tpStoreC) or, for the residual
///                   variant, tpResidualC, EXIT, and ptxas's closing
///                   self-branch
///
/// Register plan: the seed's, unchanged (tpTid R0 ... tpC R42, tpCounter
/// R44, tpZero R45, accumulators from R48, fragments, chunk offsets;
/// tpRegisters registers).  R1 briefly holds the stack pointer ptxas loads
/// first; the seed's lane index overwrites it (the kernel has no stack).
///
/// Control fields are conservative: every instruction stalls 15 cycles; the
/// scoreboards are the seed's: S2R writes SB5 (its readers wait, saWait5),
/// LDSM writes SB1 (the first HMMA of a k-half waits), LDGSTS reads its
/// registers under SB3 (re-forming the first pointer waits), LDGDEPBAR
/// counts groups on SB0 (DEPBAR.LE), the residual's LDGs write SB2 (the
/// first FADD of a batch waits); EXIT waits for every scoreboard.
///
/// Attributes written: threads grid params shape layout-a layout-b tile
/// iterations residual counter(44).
///
//===----------------------------------------------------------------------===//

#include "tp/CodeGen/CodeGen.h"
#include "tp/MIR/MIR.h"
#include "tp/Support/Debug.h"
#include "tp/Support/Diagnostics.h"
#include "tp/TileIR/TileOps.h"
#include "tp/TileIR/TileUnit.h"

#include "llvm/ADT/Optional.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Support/MathExtras.h"

using namespace llvm;

#define DEBUG_TYPE "tp-select"

ALWAYS_ENABLED_STATISTIC(NumSelected, "Instructions selected");

namespace tp {
namespace {

using namespace tile;

// The seed's registers (-- ---- registers ---- and tpZero).
constexpr unsigned RTid = 0, RLane = 1, RWarp = 2, RWarpM = 3, RWarpN = 4,
                   ROne = 5, RTileM = 6, RTileN = 7, RScratch = 8,
                   RScratch2 = 9, RC = 42, RZero = 45, AccBase = 48;
unsigned aPointer(unsigned C) { return 10 + 2 * C; }
unsigned bPointer(unsigned C) { return 18 + 2 * C; }
unsigned aStore(unsigned C) { return 26 + C; }
unsigned bStore(unsigned C) { return 30 + C; }
unsigned aMatrix(unsigned I) { return 34 + I; }
unsigned bMatrix(unsigned I) { return 38 + I; }
unsigned temp(unsigned N) { return AccBase + N; } // tpT

std::string R(unsigned N) { return "R" + std::to_string(N); }
std::string hex(int64_t V) {
  if (V < 0)
    return "-0x" + utohexstr(uint64_t(-V), true);
  return "0x" + utohexstr(uint64_t(V), true);
}

/// What the selected code depends on besides the product: where the
/// target's constant bank and shared window put things (SASS_FACTS.md 3.3,
/// 3.7, 3.8; td/Targets.td).
struct TargetFacts {
  std::string Name = "sm_86";
  unsigned ParamBase = tp::ParamBase;  ///< first parameter in c[0x0]
  unsigned Descriptor = 0x118;         ///< default memory descriptor
  /// Shared memory the system reserves at the start of the CTA's window:
  /// the kernel's buffers start there (sm_90: 1 KiB; E, ptxas puts static
  /// shared data at 0x400 and dynamic shared after it).
  unsigned SharedBase = 0;
};

Optional<TargetFacts> lookupTargetFacts(StringRef Name) {
  TargetFacts F;
  F.Name = Name.str();
  if (Name == "sm_86")
    return F;
  if (Name == "sm_90") {
    F.ParamBase = 0x210;
    F.Descriptor = 0x208;
    F.SharedBase = 0x400;
    return F;
  }
  return None;
}

/// Collects the instructions of the pieces as text, then builds them.
class Emitter {
public:
  Emitter(const TileParams &T, const Problem &P,
          const TargetFacts &TF = TargetFacts())
      : T(T), P(P), TF(TF) {
    StrideA = P.A == Layout::Rows ? P.K : P.M;
    StrideB = P.B == Layout::Rows ? P.K : P.N;
    StrideC = P.N;
  }

  struct Line {
    std::string Text;
    sass::Control Ctrl;
    std::string Label;
  };
  std::vector<std::pair<std::string, std::vector<Line>>> Pieces;

  void piece(StringRef Name) { Pieces.push_back({Name.str(), {}}); }

  /// One instruction, stall 15, the given scoreboards.
  void op(const std::string &Text, int Wr = -1, int Rd = -1,
          uint8_t Wait = 0) {
    sass::Control C;
    C.Stall = 15;
    C.WrSB = Wr < 0 ? 7 : Wr;
    C.RdSB = Rd < 0 ? 7 : Rd;
    C.WaitMask = Wait;
    Pieces.back().second.push_back({Text, C, PendingLabel});
    PendingLabel.clear();
  }
  void label(StringRef L) { PendingLabel = L.str(); }

  /// Kernel parameter \p I's byte in constant bank 0 (saArgument).
  unsigned argument(unsigned I) const { return TF.ParamBase + 8 * I; }
  /// Stage buffers in the shared window.
  int64_t bufferA(unsigned S) const { return TF.SharedBase + T.bufferA(S); }
  int64_t bufferB(unsigned S) const { return TF.SharedBase + T.bufferB(S); }

  // ---- the seed's small builders ----
  void movImm(unsigned D, int64_t I, uint8_t Wait = 0) {
    op("MOV " + R(D) + ", " + hex(I), -1, -1, Wait);
  }
  void andImm(unsigned D, unsigned A, int64_t I) { // tpAndImm, via T15
    movImm(temp(15), I);
    op("LOP3.LUT " + R(D) + ", " + R(A) + ", " + R(temp(15)) +
       ", RZ, 0xc0, !PT");
  }
  void shr(unsigned D, unsigned A, unsigned N) { // saShr
    op("SHF.R.U32.HI " + R(D) + ", RZ, " + hex(N) + ", " + R(A));
  }
  void imad(unsigned D, unsigned A, int64_t I, unsigned C) { // saImad
    op("IMAD " + R(D) + ", " + R(A) + ", " + hex(I) + ", " + R(C));
  }
  void addImm(unsigned D, unsigned A, int64_t I) { // saAddImm
    op("IADD3 " + R(D) + ", " + R(A) + ", " + hex(I) + ", RZ");
  }
  void add(unsigned D, unsigned A, unsigned B) { // tpAdd
    op("IADD3 " + R(D) + ", " + R(A) + ", " + R(B) + ", RZ");
  }
  void xorr(unsigned D, unsigned A, unsigned B) { // tpXor
    op("LOP3.LUT " + R(D) + ", " + R(A) + ", " + R(B) + ", RZ, 0x3c, !PT");
  }
  /// d (pair) = a b + c[0x0][offset] (saWide / tpWideAfter)
  void wide(unsigned D, unsigned A, unsigned B, unsigned Offset,
            uint8_t Wait = 0) {
    op("IMAD.WIDE.U32 " + R(D) + ", " + R(A) + ", " + R(B) + ", c[0x0][" +
           hex(Offset) + "]",
       -1, -1, Wait);
  }
  static std::string mem(unsigned Base, int64_t Off, bool Wide = false) {
    std::string S = "[" + R(Base) + (Wide ? ".64" : "");
    if (Off)
      S += "+" + hex(Off);
    return S + "]";
  }

  // ---- tpChunkAddresses ----
  void chunkAddresses(Layout L, int64_t Extent, int64_t Stride,
                      unsigned Argument, unsigned (*Pointer)(unsigned),
                      unsigned OffsetBase, unsigned (*Store)(unsigned)) {
    bool Columns = L == Layout::Columns;
    int64_t PerRow = Columns ? Extent / 8 : 4;
    for (unsigned C = 0; C < T.chunks(Extent); ++C) {
      addImm(temp(0), RTid, C * T.threads());
      shr(temp(1), temp(0), Log2_64(PerRow));
      andImm(temp(2), temp(0), PerRow - 1);
      imad(OffsetBase + C, temp(1), 2 * Stride, RScratch);
      imad(OffsetBase + C, temp(2), 16, OffsetBase + C);
      wide(Pointer(C), OffsetBase + C, ROne, Argument);
      shr(temp(3), temp(1), Columns ? 0 : 1);
      andImm(temp(3), temp(3), Columns ? 7 : 3);
      xorr(temp(3), temp(3), temp(2));
      imad(temp(3), temp(3), 16, RZero);
      imad(Store(C), temp(1), PerRow * 16, temp(3));
    }
  }

  // ---- tpMatrixAddresses ----
  void matrixAddresses(Layout L, bool IsB, int64_t Extent, unsigned Origin,
                       unsigned Count, unsigned (*Address)(unsigned)) {
    bool Columns = L == Layout::Columns;
    bool RowIsHigh = Columns != IsB; // naturalSelect (columns == isB) 0 1
    shr(temp(4), RLane, 3);
    andImm(temp(7), RLane, 7);
    shr(temp(5), temp(4), RowIsHigh ? 1 : 0);
    andImm(temp(5), temp(5), 1);
    shr(temp(6), temp(4), RowIsHigh ? 0 : 1);
    andImm(temp(6), temp(6), 1);
    imad(temp(8), temp(5), 8, temp(7));
    if (!Columns) {
      add(temp(8), temp(8), Origin);
      shr(temp(9), temp(8), 1);
      andImm(temp(9), temp(9), 3);
      for (unsigned I = 0; I < Count; ++I) {
        addImm(temp(10), temp(6), 2 * I);
        xorr(temp(10), temp(10), temp(9));
        imad(temp(10), temp(10), 16, RZero);
        imad(Address(I), temp(8), 64, temp(10));
      }
    } else {
      shr(temp(9), Origin, 3);
      for (unsigned I = 0; I < Count; ++I) {
        add(temp(10), temp(9), temp(6));
        addImm(temp(10), temp(10), 2 * I);
        xorr(temp(10), temp(10), temp(7));
        imad(temp(10), temp(10), 16, RZero);
        imad(Address(I), temp(8), Extent * 2, temp(10));
      }
    }
  }

  unsigned offsetBase() const {
    return AccBase + T.accumulators() + 8 * T.MTiles + 4 * T.NTiles;
  }
  unsigned aOffset(unsigned C) const { return offsetBase() + C; }
  unsigned bOffset(unsigned C) const {
    return offsetBase() + T.chunksA() + C;
  }
  unsigned acc(unsigned Mt, unsigned Nt) const {
    return AccBase + 4 * (Mt * T.NTiles + Nt);
  }
  unsigned aFragment(unsigned Mt, unsigned Kk) const {
    return AccBase + T.accumulators() + 4 * (Kk * T.MTiles + Mt);
  }
  unsigned bFragment(unsigned Nt, unsigned Kk) const {
    return AccBase + T.accumulators() + 8 * T.MTiles +
           2 * (Kk * T.NTiles + Nt);
  }
  int64_t stepOffset(Layout L, int64_t Stride) const { // tpStepOffset, 1
    return L == Layout::Columns ? 32 * 2 * Stride : 64;
  }

  // ---- tpCopyStep ----
  void copyStep(unsigned Stage) {
    for (unsigned C = 0; C < T.chunksA(); ++C)
      op("LDGSTS.E.BYPASS.128 " + mem(aStore(C), bufferA(Stage)) +
             ", " + desc() + mem(aPointer(C), 0, true),
         -1, 3);
    for (unsigned C = 0; C < T.chunksB(); ++C)
      op("LDGSTS.E.BYPASS.128 " + mem(bStore(C), bufferB(Stage)) +
             ", " + desc() + mem(bPointer(C), 0, true),
         -1, 3);
    unsigned Max = std::max(T.chunksA(), T.chunksB());
    for (unsigned C = 0; C < Max; ++C) {
      if (C < T.chunksA()) {
        addImm(aOffset(C), aOffset(C), stepOffset(P.A, StrideA));
        wide(aPointer(C), aOffset(C), ROne, argument(1),
             C == 0 ? 1u << 3 : 0);
      }
      if (C < T.chunksB()) {
        addImm(bOffset(C), bOffset(C), stepOffset(P.B, StrideB));
        wide(bPointer(C), bOffset(C), ROne, argument(2));
      }
    }
    commit();
  }
  void commit() { op("LDGDEPBAR", 0); }

  // ---- tpLoadA / tpLoadB / tpProducts ----
  void ldsm(unsigned D, unsigned Address, int64_t Offset, bool Transpose) {
    op(std::string("LDSM.16.") + (Transpose ? "MT88" : "M88") + ".4 " + R(D) +
           ", " + mem(Address, Offset),
       1);
  }
  void loadA(unsigned Buffer, unsigned Kk) {
    bool Columns = P.A == Layout::Columns;
    for (unsigned Mt = 0; Mt < T.MTiles; ++Mt)
      ldsm(aFragment(Mt, Kk), Columns ? aMatrix(Mt) : aMatrix(Kk),
           bufferA(Buffer) +
               (Columns ? Kk * 16 * T.blockM() * 2 : Mt * 1024),
           Columns);
  }
  void loadB(unsigned Buffer, unsigned Kk) {
    bool Columns = P.B == Layout::Columns;
    for (unsigned Pair = 0; Pair < T.NTiles / 2; ++Pair)
      ldsm(bFragment(2 * Pair, Kk), Columns ? bMatrix(Pair) : bMatrix(Kk),
           bufferB(Buffer) +
               (Columns ? Kk * 16 * T.blockN() * 2 : Pair * 1024),
           Columns);
  }
  /// k-half kk's products; reuse bits are tp-interleave's.
  void products(unsigned Kk) {
    for (unsigned I = 0; I < T.MTiles * T.NTiles; ++I) {
      unsigned Mt = I / T.NTiles, Nt = I % T.NTiles;
      op("HMMA.16816.F32 " + R(acc(Mt, Nt)) + ", " + R(aFragment(Mt, Kk)) +
             ", " + R(bFragment(Nt, Kk)) + ", " + R(acc(Mt, Nt)),
         -1, -1, I == 0 ? 1u << 1 : 0);
    }
  }

  /// tpStageStep with the copies given as a callback (tpCopiesFor or an
  /// empty group), in the order before interleaving.
  void stageStep(unsigned Stage, bool Copies) {
    op("DEPBAR.LE SB0, " + hex(std::max<int64_t>(T.Stages - 2, 0)));
    op("BAR.SYNC.DEFER_BLOCKING 0x0");
    loadA(Stage, 0);
    loadB(Stage, 0);
    products(0);
    loadA(Stage, 1);
    loadB(Stage, 1);
    products(1);
    if (Copies)
      copyStep((Stage + T.Stages - 1) % T.Stages);
    else
      commit();
  }

  int64_t iterations() const { return P.K / (T.Stages * 32) - 1; }

  void prologue() {
    piece("prologue");
    int64_t BM = T.blockM(), BN = T.blockN();
    bool AC = P.A == Layout::Columns, BC = P.B == Layout::Columns;
    op("IMAD.MOV.U32 R1, RZ, RZ, c[0x0][0x28]");
    if (Desc)
      op("ULDC.64 UR4, c[0x0][" + hex(TF.Descriptor) + "]");
    op("S2R " + R(RTid) + ", SR_TID.X", 5);
    op("S2R " + R(RTileN) + ", SR_CTAID.X", 5);
    op("S2R " + R(RTileM) + ", SR_CTAID.Y", 5);
    movImm(ROne, 1);
    movImm(RZero, 0, 1u << 5);
    andImm(RLane, RTid, 31);
    shr(RWarp, RTid, 5);
    shr(RWarpM, RWarp, Log2_64(T.WarpsN));
    andImm(RWarpN, RWarp, T.WarpsN - 1);
    imad(RScratch, RTileM, BM * (AC ? 2 : 2 * StrideA), RZero);
    chunkAddresses(P.A, BM, StrideA, argument(1), aPointer, aOffset(0),
                   aStore);
    imad(RScratch, RTileN, BN * (BC ? 2 : 2 * StrideB), RZero);
    chunkAddresses(P.B, BN, StrideB, argument(2), bPointer, bOffset(0),
                   bStore);
    imad(RScratch, RWarpM, 16 * T.MTiles, RZero);
    matrixAddresses(P.A, false, BM, RScratch, AC ? T.MTiles : 2, aMatrix);
    imad(RScratch, RWarpN, 8 * T.NTiles, RZero);
    matrixAddresses(P.B, true, BN, RScratch, BC ? T.NTiles / 2 : 2, bMatrix);
    shr(RScratch, RLane, 2);
    imad(RScratch, RWarpM, 16 * T.MTiles, RScratch);
    imad(RScratch, RTileM, BM, RScratch);
    andImm(RScratch2, RLane, 3);
    imad(RScratch2, RScratch2, 2, RZero);
    imad(RScratch2, RWarpN, 8 * T.NTiles, RScratch2);
    imad(RScratch2, RTileN, BN, RScratch2);
    imad(RScratch, RScratch, StrideC, RScratch2);
    imad(RScratch, RScratch, 4, RZero);
    wide(RC, RScratch, ROne, argument(0));
    for (unsigned I = 0; I < T.accumulators(); ++I)
      movImm(AccBase + I, 0);
    for (unsigned S = 0; S + 1 < T.Stages; ++S)
      copyStep(S);
    movImm(CounterRegister, std::max<int64_t>(iterations(), 0));
  }

  void body() {
    piece("body");
    for (unsigned S = 0; S < T.Stages; ++S)
      stageStep(S, true);
  }

  unsigned pairAccumulator(unsigned I) const {
    unsigned J = I / 2;
    return acc(J / T.NTiles, J % T.NTiles) + 2 * (I % 2);
  }
  int64_t pairOffset(unsigned I) const {
    unsigned H = I % 2, J = I / 2;
    return (16 * (J / T.NTiles) + 8 * H) * StrideC * 4 + (J % T.NTiles) * 32;
  }
  unsigned pairs() const { return 2 * T.MTiles * T.NTiles; }

  void storePair(unsigned I) {
    op("STG.E.64 " + desc() + mem(RC, pairOffset(I), Desc) + ", " +
       R(pairAccumulator(I)));
  }

  void tail() {
    piece("tail");
    for (unsigned S = 0; S < T.Stages; ++S)
      stageStep(S, S == 0);
    op("DEPBAR.LE SB0, 0x0");
    if (!P.Residual) {
      for (unsigned I = 0; I < pairs(); ++I)
        storePair(I);
    } else {
      // tpResidualC: R's pointer in the first A fragment's pair, eight
      // pairs of R at a time after it, under SB2.
      const unsigned Batch = 8;
      unsigned Pointer = aFragment(0, 0);
      wide(Pointer, RScratch, ROne, argument(3));
      // The seed's batches are whole (2 MT NT is a multiple of 8 for its
      // tiles); a smaller last batch covers the other tiles.
      for (unsigned First = 0; First < pairs(); First += Batch) {
        unsigned Count = std::min(Batch, pairs() - First);
        for (unsigned W = 0; W < 2 * Count; ++W)
          op("LDG.E " + R(Pointer + 2 + W) + ", " + desc() +
                 mem(Pointer, pairOffset(First + W / 2) + 4 * (W % 2), Desc),
             2);
        for (unsigned W = 0; W < 2 * Count; ++W) {
          unsigned Acc = pairAccumulator(First + W / 2) + W % 2;
          op("FADD " + R(Acc) + ", " + R(Acc) + ", " + R(Pointer + 2 + W), -1,
             -1, W == 0 ? 1u << 2 : 0);
        }
        for (unsigned K = 0; K < Count; ++K)
          storePair(First + K);
      }
    }
    op("EXIT", -1, -1, 0x3f);
    // ptxas closes every function with a branch to itself.
    label("halt");
    op("BRA ^halt");
  }

  /// The memory descriptor operand: ptxas's `desc[UR4]` (UR4 = the
  /// default descriptor at c[0x0][0x118]) when the instruction set has
  /// ULDC, else none (the plain global forms, also valid; SASS_FACTS 1.4).
  std::string desc() const { return Desc ? "desc[UR4]" : ""; }
  bool Desc = sass::isSupportedMnemonic("ULDC");

  const TileParams &T;
  const Problem &P;
  TargetFacts TF;
  int64_t StrideA, StrideB, StrideC;
  std::string PendingLabel;
};

class SelectPass : public Pass {
public:
  std::vector<PassOption> getOptions() const override {
    return {{"target", "sm_86",
             "sm_86 or sm_90: the parameter base (0x160 / 0x210), the "
             "memory descriptor (c[0x0][0x118] / c[0x0][0x208]) and the "
             "shared window's first byte (0 / 0x400)"}};
  }

  Error run(std::unique_ptr<IRUnit> &IR, PassContext &Ctx) override {
    Optional<TargetFacts> TF = lookupTargetFacts(getOption("target"));
    if (!TF)
      return makeError("tp-select: unknown target '" + getOption("target") +
                       "' (sm_86 or sm_90)");
    Facts = *TF;
    tile::Module &TM = static_cast<TileUnit &>(*IR).M;
    mir::Module MM;
    for (const Kernel &K : TM.Kernels) {
      const Op *Matmul = K.getMatmul();
      if (!Matmul || !Matmul->find("tp.addresses") ||
          !Matmul->find("tp.tile"))
        return makeSourceError(Ctx.SM, Matmul ? Matmul->Loc : K.Loc,
                               "tp-select needs a swizzled product (run "
                               "tp-admit, tp-tile, tp-pipeline, tp-swizzle "
                               "first)");
      Expected<mir::Function> F = select(K, *Matmul);
      if (!F)
        return F.takeError();
      NumSelected += F->size();
      MM.Functions.push_back(std::move(*F));
    }
    IR = std::make_unique<mir::MachineUnit>(std::move(MM));
    return Error::success();
  }

private:
  Expected<mir::Function> select(const Kernel &K, const Op &Matmul) {
    Problem P = getProblem(K);
    TileParams T = getTileOp(*Matmul.find("tp.tile"));
    Emitter E(T, P, Facts);
    E.prologue();
    E.body();
    E.tail();
    TP_DEBUG({
      auto Range = [](unsigned First, int64_t Count) {
        return "R" + std::to_string(First) + "..R" +
               std::to_string(First + Count - 1);
      };
      dbgs() << "tp-select: @" << K.Name << ": " << Facts.Name
             << ", parameters at c[0x0][" << hex(Facts.ParamBase)
             << "], stages from shared " << hex(Facts.SharedBase) << "\n"
             << "  accumulators " << Range(E.acc(0, 0), T.accumulators())
             << ", A fragments " << Range(E.aFragment(0, 0), 8 * T.MTiles)
             << ", B fragments " << Range(E.bFragment(0, 0), 4 * T.NTiles)
             << ", copy offsets "
             << Range(E.aOffset(0), T.chunksA() + T.chunksB()) << "; "
             << T.registers() << " registers a thread\n";
      for (auto &PL : E.Pieces)
        dbgs() << "  piece " << PL.first << ": " << PL.second.size()
               << " instructions\n";
    });

    mir::Function F;
    F.Name = K.Name;
    F.Target = Facts.Name;
    F.Regs = T.registers();
    F.SharedBytes = T.sharedBytes();
    F.Loc = K.Loc;
    F.setAttr("threads", std::to_string(T.threads()));
    F.setAttr("grid", std::to_string(P.N / T.blockN()) + "," +
                          std::to_string(P.M / T.blockM()) + ",1");
    F.setAttr("params", P.Residual ? "C,A,B,R" : "C,A,B");
    F.setAttr("shape", std::to_string(P.M) + "x" + std::to_string(P.N) +
                           "x" + std::to_string(P.K));
    F.setAttr("layout-a", getLayoutName(P.A));
    F.setAttr("layout-b", getLayoutName(P.B));
    F.setAttr("tile", T.str());
    F.setAttr("iterations", std::to_string(std::max<int64_t>(
                                E.iterations(), 0)));
    F.setAttr("residual", P.Residual ? "1" : "0");
    F.setAttr("counter", std::to_string(CounterRegister));
    for (auto &PL : E.Pieces) {
      mir::Piece &Pc = F.addPiece(PL.first);
      for (auto &L : PL.second) {
        Expected<mir::MInstr> MI = mir::makeInstr(L.Text, L.Ctrl);
        if (!MI)
          return MI.takeError();
        MI->Label = L.Label;
        Pc.Instrs.push_back(std::move(*MI));
      }
    }
    if (Error Err = F.resolveBranches())
      return Err;
    return F;
  }

  TargetFacts Facts;
};

} // namespace

std::unique_ptr<Pass> createSelectPass() {
  return std::make_unique<SelectPass>();
}

} // namespace tp
