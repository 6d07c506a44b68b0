//===- Swizzle.cpp - tp-swizzle: explicit, swizzled addresses -------------===//
///
/// \file
/// tile IR -> tile IR.  Requires a pipelined product (tp.pipeline) whose
/// addresses are not yet explicit; guarantees:
///
///  * tp.addresses, before tp.prologue, computes from tid.x, ctaid.x
///    (the block's column of tiles) and ctaid.y (its row), in the seed's
///    order (tpPrologue, tpChunkAddresses, tpMatrixAddresses):
///      lane = tid & 31, warp = tid >> 5, warp_m = warp >> log2 warpsN,
///      warp_n = warp & (warpsN - 1);
///      per operand X and chunk c (chunk = tid + c threads):
///        row = chunk >> log2 perRow, col = chunk & (perRow - 1)
///        (perRow = 4 for rows, extent / 8 for columns);
///        goff = corner + row 2 stride + 16 col   (corner: the block's
///        first row, rows layout, or column, columns layout, in bytes);
///        sts = row perRow 16 + 16 (col ^ swz),
///        swz = (row >> 1) & 3 (rows) or row & 7 (columns);
///      per LDSM address (q = lane >> 3, r = lane & 7; rowBit / chunkBit
///      are q's bits, the row bit q & 1 for A as rows and B as columns,
///      q >> 1 for the others):
///        rows: row = origin + 8 rowBit + r, address i (the k-half) =
///              row 64 + 16 ((chunkBit + 2 i) ^ ((row >> 1) & 3));
///        columns: row = 8 rowBit + r, address i (m-tile, or n-tile pair) =
///              row 2 extent + 16 ((origin / 8 + chunkBit + 2 i) ^ r);
///      C's offset: ((ctaid.y BM + 16 MT warp_m + lane / 4) N +
///        ctaid.x BN + 8 NT warp_n + 2 (lane & 3)) e (e: D's element bytes).
///  * every tp.copy holds one tp.ldgsts a chunk (A's, then B's): 16 bytes
///    from param + goff + step k_step_bytes (64 for rows, 32 2 stride for
///    columns) to shared smem_offset + sts, smem_offset the stage's buffer;
///  * every tp.products holds the LDSMs and HMMAs of its step: k-half 0's
///    fragments (A's m-tiles, B's n-tile pairs), its products (an m-tile's
///    n-tiles in a run), then k-half 1's.  shape=mt88 (LDSM .T) for an
///    operand stored as columns.  smem_offset = buffer + (rows: 1024 an
///    m-tile or pair; columns: 32 extent a k-half);
///  * tp.epilogue holds C's 2 MT NT pair stores at the seed's offsets
///    (tpPairOffset): ((16 mt + 8 half) N + 8 nt) e, e = 4 bytes an element
///    of D in f32 (2 in f16 or bf16: each store then follows the tp.pack
///    that rounds its pair to D's type); with a residual R,
///    batches of 8 pairs: R's pairs loaded at the same offsets (tp.ldg),
///    added (tp.add_residual), stored (the seed's tpResidualC);
///  * no generated name is a parameter's (NameTable: `lane` becomes
///    `lane.1` when a parameter is named %lane).
///
/// These regions are the kernel's only statement of its addresses:
/// tp-select lowers them as they stand (test/CodeGen/Select/mutations.test
/// changes a term here and sees tp-sim fail).
///
//===----------------------------------------------------------------------===//

#include "tp/Support/Diagnostics.h"
#include "tp/TileIR/TileUnit.h"
#include "tp/Transforms/Passes.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MathExtras.h"


using namespace llvm;

#define DEBUG_TYPE "tp-swizzle"

ALWAYS_ENABLED_STATISTIC(NumAddressValues,
                         "Address values made explicit (tp.addresses)");

namespace tp {
namespace {

using namespace tile;

/// The names tp-swizzle defines: each generated name (its base, e.g.
/// `lane`) becomes a unique one that no kernel parameter or earlier
/// definition holds (`lane`, else `lane.1`, `lane.2`, ...), so a kernel
/// whose parameters are named %r or %tid keeps them apart.
class NameTable {
public:
  void reset(const Kernel &K) {
    Unique.clear();
    Taken.clear();
    for (const Param &P : K.Params)
      Taken.insert(P.Name);
  }
  /// Defines \p Base; returns its unique name.
  StringRef define(StringRef Base) {
    std::string N = Base.str();
    for (unsigned I = 1; Taken.count(N); ++I)
      N = (Base + "." + Twine(I)).str();
    Taken.insert(N);
    return Unique[Base] = N;
  }
  /// The unique name of the defined \p Base.
  StringRef lookup(StringRef Base) const {
    auto It = Unique.find(Base);
    if (It == Unique.end())
      report_fatal_error("tp-swizzle: reference to the undefined generated "
                         "name '" + Base + "'");
    return It->second;
  }

private:
  StringMap<std::string> Unique;
  StringSet<> Taken;
};

/// Appends `%name = opcode operands` to a region.  Names are bases
/// (NameTable): emit() defines one, ref() refers to one.
class Builder {
public:
  Builder(Op &Region, SMLoc L, NameTable &Names)
      : Region(Region), L(L), Names(Names) {}

  Value ref(StringRef Name) { return Value::makeRef(Names.lookup(Name), L); }
  Value imm(int64_t I) { return Value::makeInt(I, L); }

  std::string emit(const Twine &Name, StringRef Opcode,
                   std::initializer_list<Value> Operands) {
    Op O(Opcode, L);
    std::string Base = Name.str();
    O.Result = Names.define(Base).str();
    for (const Value &V : Operands)
      O.addOperand(V);
    Region.add(std::move(O));
    return Base;
  }
  std::string sreg(const Twine &N, StringRef R) {
    return emit(N, "sreg", {Value::makeWord(R, L)});
  }
  std::string add(const Twine &N, StringRef A, Value B) {
    return emit(N, "add", {ref(A), B});
  }
  std::string mul(const Twine &N, StringRef A, int64_t B) {
    return emit(N, "mul", {ref(A), imm(B)});
  }
  std::string mad(const Twine &N, StringRef A, Value B, Value C) {
    return emit(N, "mad", {ref(A), B, C});
  }
  std::string shr(const Twine &N, StringRef A, int64_t B) {
    return emit(N, "shr", {ref(A), imm(B)});
  }
  std::string andi(const Twine &N, StringRef A, int64_t B) {
    return emit(N, "and", {ref(A), imm(B)});
  }
  std::string xorr(const Twine &N, StringRef A, StringRef B) {
    return emit(N, "xor", {ref(A), ref(B)});
  }

private:
  Op &Region;
  SMLoc L;
  NameTable &Names;
};

struct OperandPlan {
  char Name;         // 'a' or 'b'
  Layout L;
  int64_t Extent;    // BM or BN
  int64_t Stride;    // elements per stored row
  int64_t Chunks;    // per thread
  int64_t Matrices;  // LDSM addresses
  bool RowIsHigh;    // the row bit is q >> 1
  std::string Param; // %A / %B
  bool columns() const { return L == Layout::Columns; }
  int64_t perRow() const { return columns() ? Extent / 8 : 4; }
  int64_t stepBytes() const { return columns() ? 32 * 2 * Stride : 64; }
};

class SwizzlePass : public Pass {
  NameTable Names;
  std::string name(StringRef Base) const { return Names.lookup(Base).str(); }

public:
  Error run(std::unique_ptr<IRUnit> &IR, PassContext &Ctx) override {
    Module &M = static_cast<TileUnit &>(*IR).M;
    for (Kernel &K : M.Kernels)
      if (Error E = swizzle(K, Ctx))
        return E;
    return Error::success();
  }

private:
  Error swizzle(Kernel &K, PassContext &Ctx) {
    Op &MM = *K.getMatmul();
    if (!MM.find("tp.pipeline"))
      return makeSourceError(Ctx.SM, MM.Loc,
                             "tp-swizzle needs a pipelined product (run "
                             "tp-pipeline first)");
    if (const Op *Old = MM.find("tp.addresses"))
      return makeSourceError(Ctx.SM, Old->Loc,
                             "the product's addresses are already explicit");
    Problem P = getProblem(K);
    TileParams T = getTileOp(*MM.find("tp.tile"));
    SMLoc L = MM.Loc;

    OperandPlan A{'a', P.A, T.blockM(), P.A == Layout::Rows ? P.K : P.M,
                  T.chunksA(), P.A == Layout::Columns ? T.MTiles : 2,
                  /*RowIsHigh=*/P.A == Layout::Columns,
                  MM.Operands[1].S};
    OperandPlan B{'b', P.B, T.blockN(), P.B == Layout::Rows ? P.K : P.N,
                  T.chunksB(), P.B == Layout::Columns ? T.NTiles / 2 : 2,
                  /*RowIsHigh=*/P.B == Layout::Rows, MM.Operands[2].S};

    Op Addr("tp.addresses", L);
    Addr.HasRegion = true;
    Names.reset(K);
    Builder Bd(Addr, L, Names);
    Bd.sreg("tid", "tid.x");
    Bd.sreg("ctaid.x", "ctaid.x");
    Bd.sreg("ctaid.y", "ctaid.y");
    Bd.andi("lane", "tid", 31);
    Bd.shr("warp", "tid", 5);
    Bd.shr("warp_m", "warp", Log2_64(T.WarpsN));
    Bd.andi("warp_n", "warp", T.WarpsN - 1);

    // Each chunk's global offset and swizzled shared address.
    for (OperandPlan *X : {&A, &B}) {
      std::string N(1, X->Name);
      StringRef BlockId = X->Name == 'a' ? "ctaid.y" : "ctaid.x";
      std::string Corner = Bd.mul(
          N + ".corner", BlockId,
          X->Extent * (X->columns() ? 2 : 2 * X->Stride));
      for (int64_t C = 0; C < X->Chunks; ++C) {
        std::string Pre = N + ".";
        std::string Idx = std::to_string(C);
        std::string Chunk =
            Bd.add(Pre + "chunk" + Idx, "tid", Bd.imm(C * T.threads()));
        std::string Row =
            Bd.shr(Pre + "row" + Idx, Chunk, Log2_64(X->perRow()));
        std::string Col = Bd.andi(Pre + "col" + Idx, Chunk, X->perRow() - 1);
        std::string RowOff = Bd.mad(Pre + "rowoff" + Idx, Row,
                                    Bd.imm(2 * X->Stride), Bd.ref(Corner));
        Bd.mad(Pre + "goff" + Idx, Col, Bd.imm(16), Bd.ref(RowOff));
        std::string Swz =
            X->columns()
                ? Bd.andi(Pre + "swz" + Idx, Row, 7)
                : Bd.andi(Pre + "swz" + Idx,
                          Bd.shr(Pre + "half" + Idx, Row, 1), 3);
        std::string XC = Bd.xorr(Pre + "xchunk" + Idx, Col, Swz);
        std::string XB = Bd.mul(Pre + "xbyte" + Idx, XC, 16);
        Bd.mad(Pre + "sts" + Idx, Row, Bd.imm(X->perRow() * 16), Bd.ref(XB));
      }
    }

    // The warp's LDSM row addresses.
    Bd.shr("q", "lane", 3);
    Bd.andi("r", "lane", 7);
    for (OperandPlan *X : {&A, &B}) {
      std::string N = std::string(1, X->Name) + ".";
      std::string Origin =
          X->Name == 'a' ? Bd.mul(N + "origin", "warp_m", 16 * T.MTiles)
                         : Bd.mul(N + "origin", "warp_n", 8 * T.NTiles);
      std::string RowBit =
          X->RowIsHigh ? Bd.andi(N + "rowbit", Bd.shr(N + "qhi", "q", 1), 1)
                       : Bd.andi(N + "rowbit", "q", 1);
      std::string ChunkBit =
          X->RowIsHigh ? Bd.andi(N + "chunkbit", "q", 1)
                       : Bd.andi(N + "chunkbit", Bd.shr(N + "qhi", "q", 1), 1);
      std::string Row0 =
          Bd.mad(N + "mrow0", RowBit, Bd.imm(8), Bd.ref("r"));
      if (!X->columns()) {
        std::string Row =
            Bd.emit(N + "mrow", "add", {Bd.ref(Row0), Bd.ref(Origin)});
        std::string Swz =
            Bd.andi(N + "mswz", Bd.shr(N + "mhalf", Row, 1), 3);
        for (int64_t I = 0; I < X->Matrices; ++I) {
          std::string Idx = std::to_string(I);
          std::string Ch =
              Bd.add(N + "mchunk" + Idx, ChunkBit, Bd.imm(2 * I));
          std::string XC = Bd.xorr(N + "mx" + Idx, Ch, Swz);
          std::string XB = Bd.mul(N + "mbyte" + Idx, XC, 16);
          Bd.mad(N + "ldsm" + Idx, Row, Bd.imm(64), Bd.ref(XB));
        }
      } else {
        std::string OCol = Bd.shr(N + "ocol", Origin, 3);
        std::string Base =
            Bd.emit(N + "mbase", "add", {Bd.ref(OCol), Bd.ref(ChunkBit)});
        for (int64_t I = 0; I < X->Matrices; ++I) {
          std::string Idx = std::to_string(I);
          std::string Ch = Bd.add(N + "mchunk" + Idx, Base, Bd.imm(2 * I));
          std::string XC = Bd.xorr(N + "mx" + Idx, Ch, "r");
          std::string XB = Bd.mul(N + "mbyte" + Idx, XC, 16);
          Bd.mad(N + "ldsm" + Idx, Row0, Bd.imm(2 * X->Extent), Bd.ref(XB));
        }
      }
    }

    // C's offset from its pointer, in bytes.
    Bd.shr("c.r0", "lane", 2);
    Bd.mad("c.r1", "warp_m", Bd.imm(16 * T.MTiles), Bd.ref("c.r0"));
    Bd.mad("c.row", "ctaid.y", Bd.imm(T.blockM()), Bd.ref("c.r1"));
    Bd.andi("c.q", "lane", 3);
    Bd.mul("c.c0", "c.q", 2);
    Bd.mad("c.c1", "warp_n", Bd.imm(8 * T.NTiles), Bd.ref("c.c0"));
    Bd.mad("c.col", "ctaid.x", Bd.imm(T.blockN()), Bd.ref("c.c1"));
    Bd.mad("c.elem", "c.row", Bd.imm(P.N), Bd.ref("c.col"));
    Bd.mul("c.off", "c.elem", P.dBytes());
    if (P.Bias)
      Bd.mul("bias.off", "c.col", 4); // the thread's f32 bias pair

    // Insert before the prologue.
    auto It = MM.Body.begin();
    while (It != MM.Body.end() && It->Name != "tp.prologue")
      ++It;
    NumAddressValues += Addr.Body.size();
    It = MM.Body.insert(It, std::move(Addr));

    // Fill copies, products and the epilogue.
    std::function<void(Op &)> Fill = [&](Op &O) {
      if (O.Name == "tp.copy")
        fillCopy(O, T, {&A, &B});
      else if (O.Name == "tp.products")
        fillProducts(O, T, A, B);
      else if (O.Name == "tp.epilogue")
        fillEpilogue(O, T, P, MM);
      for (Op &C : O.Body)
        Fill(C);
    };
    for (Op &O : MM.Body)
      if (O.Name != "tp.addresses")
        Fill(O);
    return Error::success();
  }

  void fillCopy(Op &Copy, const TileParams &T,
                std::initializer_list<OperandPlan *> Ops) {
    int64_t Stage = *Copy.getInt("stage");
    Copy.HasRegion = true;
    for (OperandPlan *X : Ops) {
      std::string N(1, X->Name);
      for (int64_t C = 0; C < X->Chunks; ++C) {
        Op G("tp.ldgsts", Copy.Loc);
        G.addOperand(
            Value::makeRef(name(N + ".sts" + std::to_string(C)), Copy.Loc));
        G.addOperand(Value::makeRef(X->Param, Copy.Loc));
        G.addOperand(
            Value::makeRef(name(N + ".goff" + std::to_string(C)), Copy.Loc));
        G.setWord("operand", N);
        G.setInt("chunk", C);
        G.setInt("smem_offset",
                 X->Name == 'a' ? T.bufferA(Stage) : T.bufferB(Stage));
        G.setInt("k_step_bytes", X->stepBytes());
        Copy.add(std::move(G));
      }
    }
  }

  void fillProducts(Op &Prod, const TileParams &T, const OperandPlan &A,
                    const OperandPlan &B) {
    int64_t Stage = *Prod.getInt("stage");
    Prod.HasRegion = true;
    Prod.Body.reserve(Prod.Body.size() +
                      2 * (T.MTiles + T.NTiles / 2 + T.MTiles * T.NTiles));
    auto Ldsm = [&](const OperandPlan &X, int64_t KK, int64_t Index) {
      Op O("tp.ldsm", Prod.Loc);
      int64_t Address = X.columns() ? Index : KK;
      O.addOperand(Value::makeRef(name(std::string(1, X.Name) + ".ldsm" +
                                       std::to_string(Address)),
                                  Prod.Loc));
      O.setWord("operand", std::string(1, X.Name));
      O.setInt("kk", KK);
      O.setInt("index", Index);
      int64_t Buffer = X.Name == 'a' ? T.bufferA(Stage) : T.bufferB(Stage);
      O.setInt("smem_offset", Buffer + (X.columns() ? KK * 16 * X.Extent * 2
                                                    : Index * 1024));
      O.setWord("shape", X.columns() ? "mt88" : "m88");
      Prod.add(std::move(O));
    };
    for (int64_t KK = 0; KK < 2; ++KK) {
      for (int64_t MT = 0; MT < T.MTiles; ++MT)
        Ldsm(A, KK, MT);
      for (int64_t Pair = 0; Pair < T.NTiles / 2; ++Pair)
        Ldsm(B, KK, Pair);
      for (int64_t MT = 0; MT < T.MTiles; ++MT)
        for (int64_t NT = 0; NT < T.NTiles; ++NT) {
          Op O("tp.mma", Prod.Loc);
          O.setInt("kk", KK).setInt("mt", MT).setInt("nt", NT);
          Prod.add(std::move(O));
        }
    }
  }

  /// C's pair stores; with a residual R (the epilogue's second operand),
  /// batches of ResidualBatch pairs: R's pairs loaded (tp.ldg), added to
  /// the accumulators (tp.add_residual), stored (the seed's tpResidualC).
  /// Issue 16's epilogue: the bias pairs first (tp.ldg_bias, one an
  /// n-tile); then per batch C's pairs loaded when beta != 0
  /// (tp.ldg_beta), and per pair tp.scale (alpha), tp.add_beta, tp.add_bias,
  /// tp.relu, tp.pack (D in f16/bf16), in that order, then the stores.
  void fillEpilogue(Op &Epi, const TileParams &T, const Problem &P,
                    const Op &MM) {
    const int64_t ResidualBatch = 8;
    Epi.HasRegion = true;
    int64_t Pairs = 2 * T.MTiles * T.NTiles;
    bool Residual = P.Residual;
    // The scale's and the bias's parameters (issue 16): C, A, B, R, alpha,
    // beta[, bias], or C, A, B, bias.
    std::string Alpha, Beta, BiasParam;
    if (P.Scale) {
      Alpha = MM.Operands[4].S;
      Beta = MM.Operands[5].S;
    }
    if (P.Bias)
      BiasParam = MM.Operands.back().S;
    auto PairOp = [&](StringRef Name, int64_t I, bool Offset,
                      ArrayRef<std::string> Params = {}) {
      int64_t H = I % 2, J = I / 2;
      int64_t MT = J / T.NTiles, NT = J % T.NTiles;
      Op O(Name, Epi.Loc);
      if (Offset)
        O.addOperand(Value::makeRef(name("c.off"), Epi.Loc));
      for (const std::string &Param : Params)
        O.addOperand(Value::makeRef(Param, Epi.Loc));
      O.setInt("pair", I).setInt("mt", MT).setInt("nt", NT).setInt("half", H);
      if (Offset)
        O.setInt("offset", ((16 * MT + 8 * H) * P.N + NT * 8) * P.dBytes());
      if (Name == "tp.pack")
        O.setWord("type", getElementTypeName(P.DType));
      Epi.add(std::move(O));
    };
    // The thread's bias pairs, one an n-tile (columns c.col + 8 nt, + 1).
    if (P.Bias)
      for (int64_t NT = 0; NT < T.NTiles; ++NT) {
        Op O("tp.ldg_bias", Epi.Loc);
        O.addOperand(Value::makeRef(name("bias.off"), Epi.Loc));
        O.addOperand(Value::makeRef(BiasParam, Epi.Loc));
        O.setInt("nt", NT).setInt("offset", NT * 8 * 4);
        Epi.add(std::move(O));
      }
    bool Batched = Residual || P.Scale;
    int64_t Batch = Batched ? ResidualBatch : Pairs;
    for (int64_t First = 0; First < Pairs; First += Batch) {
      int64_t Last = std::min(Pairs, First + Batch);
      if (Residual) {
        for (int64_t I = First; I < Last; ++I)
          PairOp("tp.ldg", I, true);
        for (int64_t I = First; I < Last; ++I)
          PairOp("tp.add_residual", I, false);
      }
      // D = alpha acc + beta C (C loaded only when beta != 0) + bias, ReLU.
      if (P.Scale)
        for (int64_t I = First; I < Last; ++I)
          PairOp("tp.ldg_beta", I, true, {Beta});
      for (int64_t I = First; I < Last; ++I) {
        if (P.Scale) {
          PairOp("tp.scale", I, false, {Alpha});
          PairOp("tp.add_beta", I, false, {Beta});
        }
        if (P.Bias)
          PairOp("tp.add_bias", I, false);
        if (P.Relu)
          PairOp("tp.relu", I, false);
      }
      for (int64_t I = First; I < Last; ++I) {
        if (P.DType != ElementType::F32)
          PairOp("tp.pack", I, false);
        PairOp("tp.stg", I, true);
      }
    }
  }
};

} // namespace

std::unique_ptr<Pass> createSwizzlePass() {
  return std::make_unique<SwizzlePass>();
}

} // namespace tp
