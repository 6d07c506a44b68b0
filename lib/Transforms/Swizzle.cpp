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
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MathExtras.h"


using namespace llvm;

#define DEBUG_TYPE "tp-swizzle"

ALWAYS_ENABLED_STATISTIC(NumAddressValues,
                         "Address values made explicit (tp.addresses)");

namespace tp {
namespace {

using namespace tile;

/// A generated name's base spelled on the stack from its pieces: text,
/// single characters and decimal int64_t integers (Spelling(X.Name,
/// ".chunk", C) is "a.chunk3" for operand a's chunk 3).
/// NameTable::define saves it in the Arena.
class Spelling {
public:
  template <typename... Ps> explicit Spelling(const Ps &...Pieces) {
    (put(Pieces), ...);
  }
  StringRef str() const { return StringRef(Buf, Len); }

private:
  void put(char C) {
    reserve(1);
    Buf[Len++] = C;
  }
  void put(StringRef S) {
    reserve(S.size());
    std::memcpy(Buf + Len, S.data(), S.size());
    Len += unsigned(S.size());
  }
  template <size_t N> void put(const char (&Literal)[N]) {
    put(StringRef(Literal, N - 1));
  }
  void put(int64_t V) {
    if (V >= 0 && V < 10) // most indices
      return put(char('0' + V));
    char Digits[20];
    unsigned N = 0;
    uint64_t U = V < 0 ? 0 - uint64_t(V) : uint64_t(V);
    do
      Digits[N++] = char('0' + U % 10);
    while (U /= 10);
    reserve(N + (V < 0 ? 1 : 0));
    if (V < 0)
      Buf[Len++] = '-';
    while (N)
      Buf[Len++] = Digits[--N];
  }
  void reserve(size_t N) {
    if (LLVM_UNLIKELY(Len + N > sizeof(Buf)))
      report_fatal_error("tp-swizzle: a generated name longer than 63 "
                         "characters");
  }
  char Buf[63];
  unsigned char Len = 0;
};

/// The names tp-swizzle defines: each generated name (its base, e.g.
/// `lane`) becomes a unique one that no kernel parameter or earlier
/// definition holds (`lane`, else `lane.1`, `lane.2`, ...), so a kernel
/// whose parameters are named %r or %tid keeps them apart.
///
/// The generated bases are pairwise distinct, and each contains a '.' or is
/// one of tid, lane, warp, warp_m, warp_n, q and r.  So when no parameter's
/// name has a '.' or is one of those (every kernel tp-llc builds), every
/// base is its own unique name and the table keeps nothing (Direct); else
/// one table entry a name.
///
/// Every unique name it hands out is saved in the module's Arena (the IR
/// keeps it), once: a use of a name spelled on the spot refers to the
/// name define() returned (kept where it is defined), not to a copy, so
/// that the IR holds one spelling a generated name.
class NameTable {
public:
  /// A generated name's base as a builder is given it: a string literal,
  /// which outlives the module (the Direct case keeps it as the unique name:
  /// no copy, and the literal's uses share its characters), or a name
  /// spelled on the spot (saved in the Arena).
  struct BaseText {
    template <size_t N>
    BaseText(const char (&Literal)[N])
        : Text(Literal, N - 1), IsLiteral(true) {}
    BaseText(const Spelling &Spelled) : Text(Spelled.str()) {}
    StringRef Text;
    bool IsLiteral = false;
  };

  void reset(const Kernel &K, Arena &A) {
    Strings = &A;
    Names.clear();
    Direct = true;
    for (const Param &P : K.Params)
      if (P.Name.contains('.') || isUndottedBase(P.Name))
        Direct = false;
    if (!Direct)
      for (const Param &P : K.Params)
        Names[P.Name].Taken = true;
  }
  /// A defined base and its unique name (in the Arena).  The base is valid
  /// while the pass runs; Direct: the two are one string.
  struct Defined {
    StringRef Base, Unique;
  };
  /// Defines \p Base.
  Defined define(const BaseText &Base) {
    if (Direct) {
      StringRef S = Base.IsLiteral ? Base.Text : Strings->save(Base.Text);
      return {S, S};
    }
    StringRef Spelled = Base.Text;
    // One lookup when the base is free (nearly always): the base's entry
    // says both that the name is free and, once taken, what it stands for.
    // (StringMap's entries do not move when it grows.)
    StringMapEntry<Entry> &B = *Names.try_emplace(Spelled).first;
    B.second.Defined = true;
    if (!B.second.Taken) {
      B.second.Taken = true;
      B.second.Unique = Strings->save(B.first());
      return {B.first(), B.second.Unique};
    }
    for (unsigned I = 1;; ++I) {
      std::string N = (Spelled + "." + Twine(I)).str();
      Entry &Suffixed = Names[N];
      if (!Suffixed.Taken) {
        Suffixed.Taken = true;
        B.second.Unique = Strings->save(StringRef(N));
        return {B.first(), B.second.Unique};
      }
    }
  }
  /// The unique name of the defined \p Base, which outlives the module (a
  /// literal, or a Base that define() returned).
  StringRef lookup(StringRef Base) const {
    if (Direct)
      return Base;
    return find(Base);
  }

private:
  StringRef find(StringRef Base) const {
    auto It = Names.find(Base);
    if (It == Names.end() || !It->second.Defined)
      report_fatal_error("tp-swizzle: reference to the undefined generated "
                         "name '" + Base + "'");
    return It->second.Unique;
  }
  static bool isUndottedBase(StringRef N) {
    return N == "tid" || N == "lane" || N == "warp" || N == "warp_m" ||
           N == "warp_n" || N == "q" || N == "r";
  }
  /// A name in the kernel's scope: taken (a parameter's or a generated
  /// name) and, as a generated base, defined as Unique (in the Arena).
  /// One table, one entry a name: not a set of the taken names beside a
  /// map of the bases.
  struct Entry {
    bool Taken = false, Defined = false;
    StringRef Unique;
  };
  StringMap<Entry> Names;
  Arena *Strings = nullptr;
  bool Direct = true;

};

/// An op appended to a region with room for \p NumOperands operands and
/// \p NumAttrs attributes, its attributes appended by num, word, ref and
/// value (keys the op does not have yet; key and value at the op's
/// location).  Nothing else is appended to the region while a NewOp lives
/// (the op would move).
class NewOp {
public:
  NewOp(Op &Region, StringRef Name, SMLoc L, size_t NumOperands,
        size_t NumAttrs)
      : O(appendTo(Region, Name, L)) {
    O.Operands.reserve(NumOperands);
    O.Attrs.reserve(NumAttrs);
  }

  Op &op() { return O; }
  NewOp &num(StringRef Key, int64_t V) {
    O.addInt(Key, V);
    return *this;
  }
  NewOp &word(StringRef Key, StringRef W) {
    O.addWord(Key, W);
    return *this;
  }
  NewOp &ref(StringRef Key, StringRef Name) {
    O.addRef(Key, Name);
    return *this;
  }
  /// \p V, at its own location when it has one (as Op::set keeps it).
  NewOp &value(StringRef Key, const Value &V) {
    Value &To = O.appendAttr(Key).Val;
    To = V;
    if (!V.Loc.isValid())
      To.Loc = O.Loc;
    return *this;
  }

private:
  static Op &appendTo(Op &Region, StringRef Name, SMLoc L) {
    Region.setHasRegion();
    return Region.Body.emplace_back(Name, L);
  }
  Op &O;
};

/// Appends `%name = opcode operands` to a region.  Names are bases
/// (NameTable): emit() defines one, ref() refers to one.
class Builder {
public:
  /// An operand of a value op, at the builder's location: a generated name
  /// (by its base), a name as it is (a parameter's, or a unique name the
  /// NameTable gave), a word or an integer.  Its text outlives the module.
  using Arg = Value;

  Builder(Op &Region, SMLoc L, NameTable &Names)
      : Region(Region), L(L), Names(Names) {}

  /// A generated name by its base: a literal, or a name emit() returned.
  Arg ref(StringRef Base) const {
    return Value(Value::Ref, Names.lookup(Base), L);
  }
  /// A name as it is: a unique name (the NameTable's) or a parameter's.
  Arg named(StringRef Unique) const { return Value(Value::Ref, Unique, L); }
  Arg imm(int64_t I) const { return Value::makeInt(I, L); }

  /// Defines \p Name as `opcode operands`; returns the name's base (valid
  /// while the pass runs).  The op is built in its region with its exact
  /// operand count (NewOp).
  template <typename... As>
  StringRef emit(const NameTable::BaseText &Name, StringRef Opcode,
                 const As &...Args) {
    static_assert((std::is_same<As, Value>::value && ...), "operands");
    Op &O = NewOp(Region, Opcode, L, sizeof...(Args), 0).op();
    (O.Operands.emplace_back(Args), ...);
    NameTable::Defined D = Names.define(Name);
    O.Result = D.Unique;
    return D.Base;
  }
  StringRef sreg(const NameTable::BaseText &N, StringRef R) {
    return emit(N, "sreg", Value(Value::Word, R, L));
  }
  StringRef add(const NameTable::BaseText &N, StringRef A, Arg B) {
    return emit(N, "add", ref(A), B);
  }
  StringRef mul(const NameTable::BaseText &N, StringRef A, int64_t B) {
    return emit(N, "mul", ref(A), imm(B));
  }
  StringRef mad(const NameTable::BaseText &N, StringRef A, Arg B, Arg C) {
    return emit(N, "mad", ref(A), B, C);
  }
  StringRef shr(const NameTable::BaseText &N, StringRef A, int64_t B) {
    return emit(N, "shr", ref(A), imm(B));
  }
  StringRef andi(const NameTable::BaseText &N, StringRef A, int64_t B) {
    return emit(N, "and", ref(A), imm(B));
  }
  StringRef xorr(const NameTable::BaseText &N, StringRef A, StringRef B) {
    return emit(N, "xor", ref(A), ref(B));
  }
  /// A kernel parameter's value (its name, not a generated one).
  StringRef param(const NameTable::BaseText &N, StringRef Param) {
    return emit(N, "param", named(Param));
  }
  StringRef sub(const NameTable::BaseText &N, StringRef A, Arg B) {
    return emit(N, "sub", ref(A), B);
  }
  /// A comparison (lt, ltu, gt, eq).
  StringRef cmp(const NameTable::BaseText &N, StringRef Code, StringRef A,
                Arg B) {
    return emit(N, Code, ref(A), B);
  }
  /// A comparison ANDed with predicate \p And.
  StringRef cmpAnd(const NameTable::BaseText &N, StringRef Code, StringRef A,
                   Arg B, Arg And) {
    return emit(N, Code, ref(A), B, And);
  }
  StringRef sel(const NameTable::BaseText &N, StringRef P, StringRef A, Arg B) {
    return emit(N, "sel", ref(P), ref(A), B);
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
  int64_t Stride;    // elements per stored row (fixed shape)
  int64_t Chunks;    // per thread
  int64_t Matrices;  // LDSM addresses
  bool RowIsHigh;    // the row bit is q >> 1
  StringRef Param; // %A / %B
  // A run-time shape: the leading dimension's and the extent's parameters
  // (lda / M for A, ldb / N for B), and the per-step advance in bytes (64
  // for rows; the value name 64 ld for columns).
  StringRef LdParam = {}, ExtentParam = {};
  Value StepValue = {};
  StringRef StrideParam = {}; // strided batches: the batch stride's parameter
  // The unique names of the LDSM addresses and of each chunk's shared
  // address and global offset, taken where they are defined; a run-time
  // shape: the shift and extent values, and each chunk's row guard and k
  // offset (none where chunk 0's serves, kofsDelta).  A use refers to the
  // definition's characters (tp-select then sees one spelling a name).
  std::vector<StringRef> LdsmNames = {}, StsNames = {}, GoffNames = {},
                         OkNames = {}, KofsNames = {};
  StringRef ShiftName = {}, ExtentName = {};
  bool columns() const { return L == Layout::Columns; }
  int64_t perRow() const { return columns() ? Extent / 8 : 4; }
  int64_t stepBytes() const { return columns() ? 32 * 2 * Stride : 64; }
};

class SwizzlePass : public Pass {
  NameTable Names;
  /// The unique name of a base that outlives the module (a literal, or a
  /// base the Builder returned).
  StringRef name(StringRef Base) const { return Names.lookup(Base); }
  // A run-time shape: the parameters' names, the last (partial) k-step.
  bool Runtime = false, Strided = false;
  StringRef KParam, MParam, NParam, LdcParam, StrideCParam;
  int64_t LastStep = 0;
  // What guardCopy and defineGuards have defined once: the tail's K values,
  // each row offset e.roff<mt>_<half> (index 2 mt + half; empty: not yet).
  bool TailKDefined = false;
  std::vector<StringRef> RowOffsetNames;

  static StringRef shapeParam(const Kernel &K, ShapeParam W) {
    return K.Params[*getShapeParam(K, W)].Name;
  }

public:
  Error run(std::unique_ptr<IRUnit> &IR, PassContext &Ctx) override {
    Module &M = static_cast<TileUnit &>(*IR).M;
    for (Kernel &K : M.Kernels)
      if (Error E = swizzle(K, *M.Strings, Ctx))
        return E;
    return Error::success();
  }

private:
  Error swizzle(Kernel &K, Arena &Strings, PassContext &Ctx) {
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
    LastStep = *makePipelineOp(P, T, L).getInt("steps") - 1;

    OperandPlan A{'a', P.A, T.blockM(), P.A == Layout::Rows ? P.K : P.M,
                  T.chunksA(), P.A == Layout::Columns ? T.MTiles : 2,
                  /*RowIsHigh=*/P.A == Layout::Columns,
                  MM.Operands[1].str()};
    OperandPlan B{'b', P.B, T.blockN(), P.B == Layout::Rows ? P.K : P.N,
                  T.chunksB(), P.B == Layout::Columns ? T.NTiles / 2 : 2,
                  /*RowIsHigh=*/P.B == Layout::Rows, MM.Operands[2].str()};
    Runtime = P.Runtime;
    if (Runtime) {
      A.LdParam = shapeParam(K, ShapeParam::LDA);
      A.ExtentParam = shapeParam(K, ShapeParam::M);
      B.LdParam = shapeParam(K, ShapeParam::LDB);
      B.ExtentParam = shapeParam(K, ShapeParam::N);
      KParam = shapeParam(K, ShapeParam::K);
      MParam = shapeParam(K, ShapeParam::M);
      NParam = shapeParam(K, ShapeParam::N);
      LdcParam = shapeParam(K, ShapeParam::LDC);
    }
    Strided = P.Strided;
    if (Strided) {
      A.StrideParam = shapeParam(K, ShapeParam::StrideA);
      B.StrideParam = shapeParam(K, ShapeParam::StrideB);
      StrideCParam = shapeParam(K, ShapeParam::StrideC);
    }

    Op Addr("tp.addresses", L);
    Addr.setHasRegion();
    // Room for every value at once (the default kernel has 116, 256x128
    // 152): the region is not regrown, its ops not moved.
    Addr.Body.reserve(64 + 24 * (A.Chunks + B.Chunks) +
                      8 * (A.Matrices + B.Matrices));
    Names.reset(K, Strings);
    TailKDefined = false;
    RowOffsetNames.assign(2 * T.MTiles, StringRef());
    Builder Bd(Addr, L, Names);
    Bd.sreg("tid", "tid.x");
    Bd.sreg("ctaid.x", "ctaid.x");
    Bd.sreg("ctaid.y", "ctaid.y");
    Bd.andi("lane", "tid", 31);
    Bd.shr("warp", "tid", 5);
    Bd.shr("warp_m", "warp", Log2_64(T.WarpsN));
    Bd.andi("warp_n", "warp", T.WarpsN - 1);

    if (Runtime)
      defineRingCount(Bd, T);
    if (Strided)
      Bd.sreg("ctaid.z", "ctaid.z");
    // Each chunk's global offset and swizzled shared address.
    for (OperandPlan *X : {&A, &B})
      defineChunkAddresses(Bd, T, *X);

    // The warp's LDSM row addresses.
    Bd.shr("q", "lane", 3);
    Bd.andi("r", "lane", 7);
    for (OperandPlan *X : {&A, &B})
      defineLdsmAddresses(Bd, T, *X);

    // C's offset from its pointer, in bytes (a run-time shape computes it in
    // the epilogue, where the guards need the row and column too).
    if (!Runtime)
      defineCOffset(Bd, T, P);

    // Insert before the prologue.
    auto It = MM.Body.begin();
    while (It != MM.Body.end() && It->Name != "tp.prologue")
      ++It;
    NumAddressValues += Addr.Body.size();
    It = MM.Body.insert(It, std::move(Addr));
    if (Runtime)
      if (Op *Loop = MM.find("tp.loop"))
        Loop->set("count", Value::makeRef(name("k.iterations"), L));

    // Fill copies, products and the epilogue.
    FillContext C{T, P, MM, A, B};
    for (Op &O : MM.Body)
      if (O.Name != "tp.addresses")
        fill(O, C);
    return Error::success();
  }

  struct FillContext {
    const TileParams &T;
    const Problem &P;
    const Op &MM;
    OperandPlan &A, &B;
  };
  /// Fills \p O (a copy, products or the epilogue) and the ops it held
  /// before: the ops a fill appends (tp.ldgsts, tp.ldsm, tp.mma, values,
  /// the epilogue's pair ops) hold nothing to fill.
  void fill(Op &O, const FillContext &C) {
    size_t Children = O.Body.size();
    if (O.Name == "tp.copy")
      fillCopy(O, C.T, {&C.A, &C.B});
    else if (O.Name == "tp.products")
      fillProducts(O, C.T, C.A, C.B);
    else if (O.Name == "tp.epilogue")
      fillEpilogue(O, C.T, C.P, C.MM);
    for (size_t I = 0; I < Children; ++I)
      fill(O.Body[I], C);
  }

  /// Operand X's chunks: each one's global offset (and, for a run-time
  /// shape, its guard) and swizzled shared address.
  void defineChunkAddresses(Builder &Bd, const TileParams &T, OperandPlan &X) {
    auto N = [&](StringRef Base) { return Spelling(X.Name, Base); };
    X.StsNames.clear();
    X.GoffNames.clear();
    X.OkNames.clear();
    X.KofsNames.clear();
    X.StsNames.reserve(X.Chunks);
    X.GoffNames.reserve(X.Chunks);
    if (Runtime) {
      X.OkNames.reserve(X.Chunks);
      X.KofsNames.resize(X.Chunks);
    }
    StringRef BlockId = X.Name == 'a' ? "ctaid.y" : "ctaid.x";
    StringRef Corner, CornerIdx, RowBytes;
    if (!Runtime) {
      Corner = Bd.mul(N(".corner"), BlockId,
                      X.Extent * (X.columns() ? 2 : 2 * X.Stride));
    } else {
      CornerIdx = Bd.mul(N(".first"), BlockId, X.Extent);
      StringRef Ld = Bd.param(N(".ld"), X.LdParam);
      RowBytes = Bd.mul(N(".ldbytes"), Ld, 2);
      // Batch z's operand starts z stride elements in (strided batches).
      Builder::Arg Batch = Bd.imm(0);
      StringRef ZBytes;
      if (Strided) {
        StringRef Stride = Bd.param(N(".stride"), X.StrideParam);
        StringRef Z =
            Bd.mad(N(".zelems"), "ctaid.z", Bd.ref(Stride), Bd.imm(0));
        ZBytes = Bd.mul(N(".zbytes"), Z, 2);
        Batch = Bd.ref(ZBytes);
      }
      Corner = X.columns()
                   ? Bd.mad(N(".corner"), CornerIdx, Bd.imm(2), Batch)
                   : Bd.mad(N(".corner"), CornerIdx, Bd.ref(RowBytes), Batch);
      defineStepShift(Bd, X, RowBytes);
    }
    for (int64_t C = 0; C < X.Chunks; ++C) {
      // X's name for chunk C: "a.row" -> "a.row<C>".
      auto Pre = [&](StringRef Base) { return Spelling(X.Name, '.', Base, C); };
      StringRef Chunk = Bd.add(Pre("chunk"), "tid", Bd.imm(C * T.threads()));
      StringRef Row = Bd.shr(Pre("row"), Chunk, Log2_64(X.perRow()));
      StringRef Col = Bd.andi(Pre("col"), Chunk, X.perRow() - 1);
      StringRef RowOff = Bd.mad(
          Pre("rowoff"), Row, Runtime ? Bd.ref(RowBytes) : Bd.imm(2 * X.Stride),
          Bd.ref(Corner));
      if (!Runtime)
        X.GoffNames.push_back(
            name(Bd.mad(Pre("goff"), Col, Bd.imm(16), Bd.ref(RowOff))));
      else
        defineChunkGuard(Bd, X, C, Row, Col, RowOff, CornerIdx,
                         T.threads());
      StringRef Swz = X.columns()
                          ? Bd.andi(Pre("swz"), Row, 7)
                          : Bd.andi(Pre("swz"), Bd.shr(Pre("half"), Row, 1), 3);
      StringRef XC = Bd.xorr(Pre("xchunk"), Col, Swz);
      StringRef XB = Bd.mul(Pre("xbyte"), XC, 16);
      X.StsNames.push_back(
          name(Bd.mad(Pre("sts"), Row, Bd.imm(X.perRow() * 16), Bd.ref(XB))));
    }
  }

  /// The warp's LDSM row addresses of operand X.
  void defineLdsmAddresses(Builder &Bd, const TileParams &T, OperandPlan &X) {
    // X's names: "a." + Base, and "a." + Base + I for LDSM address I.
    auto N = [&](StringRef Base) { return Spelling(X.Name, '.', Base); };
    auto NI = [&](StringRef Base, int64_t I) {
      return Spelling(X.Name, '.', Base, I);
    };
    X.LdsmNames.clear();
    X.LdsmNames.reserve(X.Matrices);
    StringRef Origin = X.Name == 'a'
                           ? Bd.mul(N("origin"), "warp_m", 16 * T.MTiles)
                           : Bd.mul(N("origin"), "warp_n", 8 * T.NTiles);
    StringRef RowBit = X.RowIsHigh
                           ? Bd.andi(N("rowbit"), Bd.shr(N("qhi"), "q", 1), 1)
                           : Bd.andi(N("rowbit"), "q", 1);
    StringRef ChunkBit =
        X.RowIsHigh ? Bd.andi(N("chunkbit"), "q", 1)
                    : Bd.andi(N("chunkbit"), Bd.shr(N("qhi"), "q", 1), 1);
    StringRef Row0 = Bd.mad(N("mrow0"), RowBit, Bd.imm(8), Bd.ref("r"));
    if (!X.columns()) {
      StringRef Row = Bd.emit(N("mrow"), "add", Bd.ref(Row0), Bd.ref(Origin));
      StringRef Swz = Bd.andi(N("mswz"), Bd.shr(N("mhalf"), Row, 1), 3);
      for (int64_t I = 0; I < X.Matrices; ++I) {
        StringRef Ch = Bd.add(NI("mchunk", I), ChunkBit, Bd.imm(2 * I));
        StringRef XC = Bd.xorr(NI("mx", I), Ch, Swz);
        StringRef XB = Bd.mul(NI("mbyte", I), XC, 16);
        X.LdsmNames.push_back(
            name(Bd.mad(NI("ldsm", I), Row, Bd.imm(64), Bd.ref(XB))));
      }
    } else {
      StringRef OCol = Bd.shr(N("ocol"), Origin, 3);
      StringRef Base =
          Bd.emit(N("mbase"), "add", Bd.ref(OCol), Bd.ref(ChunkBit));
      for (int64_t I = 0; I < X.Matrices; ++I) {
        StringRef Ch = Bd.add(NI("mchunk", I), Base, Bd.imm(2 * I));
        StringRef XC = Bd.xorr(NI("mx", I), Ch, "r");
        StringRef XB = Bd.mul(NI("mbyte", I), XC, 16);
        X.LdsmNames.push_back(name(
            Bd.mad(NI("ldsm", I), Row0, Bd.imm(2 * X.Extent), Bd.ref(XB))));
      }
    }
  }

  void defineCOffset(Builder &Bd, const TileParams &T, const Problem &P) {
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
  }

  /// A run-time shape's ring count (tp.loop's count): with KT = ceil(K /
  /// 32) k-steps, rings = ceil(K / 32 S) and iterations = rings - 1; the
  /// ring holds S rings steps, the first `empty` = S rings - KT of them
  /// before k = 0 (zero-filled: skipped = 32 empty k-elements), so that
  /// only the last step can be partial.
  void defineRingCount(Builder &Bd, const TileParams &T) {
    int64_t Ring = 32 * T.Stages;
    StringRef K = Bd.param("k.K", KParam);
    StringRef Steps = Bd.shr("k.steps", Bd.add("k.steps1", K, Bd.imm(31)), 5);
    StringRef Rings = Bd.shr("k.rings", Bd.add("k.rings1", K, Bd.imm(Ring - 1)),
                               Log2_64(Ring));
    Bd.sub("k.iterations", Rings, Bd.imm(1));
    StringRef Total = Bd.mul("k.total", Rings, T.Stages);
    StringRef Empty = Bd.sub("k.empty", Total, Bd.ref(Steps));
    Bd.mul("k.skipped", Empty, 32);
  }

  /// Operand X's per-step advance (64 bytes along a stored row; 32 stored
  /// rows of 2 ld bytes for columns) and the shift of its copies' start
  /// by the empty steps; its extent (M or N) for the row guards.
  void defineStepShift(Builder &Bd, OperandPlan &X, StringRef RowBytes) {
    auto N = [&](StringRef Base) { return Spelling(X.Name, Base); };
    if (X.columns()) {
      StringRef Step = Bd.mul(N(".kstep"), RowBytes, 32);
      X.StepValue = Value::makeRef(name(Step), X.StepValue.Loc);
      X.ShiftName =
          name(Bd.mad(N(".shift"), "k.empty", Bd.ref(Step), Bd.imm(0)));
    } else {
      X.StepValue = Value::makeInt(64);
      X.ShiftName = name(Bd.mul(N(".shift"), "k.empty", 64));
    }
    X.ExtentName = name(Bd.param(N(".extent"), X.ExtentParam));
  }

  /// Chunk C's start offset (step 0, before the empty steps: the copies of
  /// the first real step read at goff0), its row guard (the chunk's row, or
  /// for columns its first column, within M or N) and its k offset from the
  /// step's first k (kofs = the chunk's k in the step - skipped).
  void defineChunkGuard(Builder &Bd, OperandPlan &X, int64_t C,
                        StringRef Row, StringRef Col, StringRef RowOff,
                        StringRef CornerIdx, int64_t Threads) {
    auto Pre = [&](StringRef Base) { return Spelling(X.Name, '.', Base, C); };
    StringRef Goff0 = Bd.mad(Pre("goff0"), Col, Bd.imm(16), Bd.ref(RowOff));
    X.GoffNames.push_back(
        name(Bd.sub(Pre("goff"), Goff0, Bd.named(X.ShiftName))));
    StringRef First, KOff;
    if (X.columns()) {
      First = Bd.mad(Pre("grow"), Col, Bd.imm(8), Bd.ref(CornerIdx));
      KOff = Row;
    } else {
      First = Bd.add(Pre("grow"), CornerIdx, Bd.ref(Row));
      KOff = Bd.mul(Pre("koff"), Col, 8);
    }
    X.OkNames.push_back(
        name(Bd.cmp(Pre("ok"), "lt", First, Bd.named(X.ExtentName))));
    // Chunk c's k offset is chunk 0's plus a constant (kofsDelta) when the
    // threads split the rows evenly: one value live over the prologue.
    if (C == 0 || kofsDelta(X, C, Threads) < 0)
      X.KofsNames[C] = name(Bd.sub(Pre("kofs"), KOff, Bd.ref("k.skipped")));
  }

  /// How many k-rows chunk C's k offset is beyond chunk 0's: 0 for rows
  /// (the threads a row are a multiple of 4, so every chunk has the same
  /// column), C threads / perRow for columns when that divides, else -1
  /// (chunk C has its own kofs value).
  static int64_t kofsDelta(const OperandPlan &X, int64_t C, int64_t Threads) {
    if (!X.columns())
      return Threads % X.perRow() ? -1 : 0;
    return (C * Threads) % X.perRow() ? -1 : C * Threads / X.perRow();
  }

  /// The prologue's k of chunk C of X at step \p Step.
  StringRef prologueK(Builder &Bd, const OperandPlan &X, int64_t C,
                        int64_t Step, const TileParams &T) {
    Spelling Name(X.Name, ".pk", Step, '_', C);
    int64_t Delta = kofsDelta(X, C, T.threads());
    if (Delta < 0)
      return Bd.emit(Name, "add", Bd.named(X.KofsNames[C]), Bd.imm(32 * Step));
    return Bd.emit(Name, "add", Bd.named(X.KofsNames[0]),
                   Bd.imm(32 * Step + Delta));
  }

  /// The unique names of a tp.ldgsts's guard and, for a partial chunk of
  /// a rows operand, its zero-fill byte count (else empty).
  struct CopyGuard {
    StringRef Fill, Guard;
  };
  /// The guard (and the zero-fill byte count) of chunk C of X in the copy
  /// of step \p Step (none: the loop's) of a run-time shape, its values
  /// defined now: the loop's copies are whole k-steps (the row guard
  /// alone); the prologue's steps j may be empty (k = kofs + 32 j below K,
  /// unsigned); the tail's, the last step, may be partial: its k from K
  /// itself.
  CopyGuard guardCopy(Builder &Bd, Optional<int64_t> Step, const OperandPlan &X,
                      int64_t C, const TileParams &T) {
    auto Pre = [&](StringRef Base) { return Spelling(X.Name, '.', Base, C); };
    CopyGuard G;
    if (!Step) { // the loop
      G.Guard = X.OkNames[C];
      return G;
    }
    if (*Step != LastStep) { // the prologue
      StringRef KC = prologueK(Bd, X, C, *Step, T);
      G.Guard = name(Bd.cmpAnd(Spelling(X.Name, ".pg", *Step, '_', C), "ltu",
                               KC, Bd.ref("k.K"), Bd.named(X.OkNames[C])));
      return G;
    }
    if (!TailKDefined) {
      TailKDefined = true;
      Bd.sreg("t.tid", "tid.x");
      StringRef K = Bd.param("t.K", KParam);
      StringRef Up = Bd.andi("t.kup", Bd.add("t.k31", K, Bd.imm(31)),
                               0xffffffe0);
      Bd.sub("t.klast", Up, Bd.imm(32));
    }
    StringRef Chunk = Bd.add(Pre("tchunk"), "t.tid", Bd.imm(C * T.threads()));
    StringRef KOff =
        X.columns() ? Bd.shr(Pre("tkoff"), Chunk, Log2_64(X.perRow()))
                    : Bd.mul(Pre("tkoff"),
                             Bd.andi(Pre("tcol"), Chunk, X.perRow() - 1), 8);
    StringRef KC = Bd.emit(Pre("tk"), "add", Bd.ref("t.klast"), Bd.ref(KOff));
    if (!X.columns()) {
      // Elements left d = K - k; partial when d < 8: zero-fill 16 - 2 d
      // bytes (the fill first: one predicate live at a time beside the
      // row guards).
      StringRef D = Bd.sub(Pre("td"), "t.K", Bd.ref(KC));
      StringRef Part = Bd.cmp(Pre("tpart"), "lt", D, Bd.imm(8));
      StringRef Over = Bd.sub(Pre("tover"), Bd.add(Pre("tk8"), KC, Bd.imm(8)),
                              Bd.ref("t.K"));
      StringRef Bytes = Bd.mul(Pre("tfillb"), Over, 2);
      G.Fill = name(Bd.sel(Pre("tfill"), Part, Bytes, Bd.imm(0)));
    }
    G.Guard = name(
        Bd.cmpAnd(Pre("tg"), "ltu", KC, Bd.ref("t.K"), Bd.named(X.OkNames[C])));
    return G;
  }

  /// The ops fillCopy appends to \p Copy, at most: a tp.ldgsts a chunk and,
  /// for a run-time shape, its guard's values (guardCopy): none in the loop,
  /// two in the prologue, up to 11 a chunk stored as rows (4 as columns) in
  /// the tail, and the tail's 5 shared ones.
  size_t copyOps(const Op &Copy, std::initializer_list<OperandPlan *> Ops) {
    Optional<int64_t> Step = Copy.getInt("step");
    size_t N = 0;
    for (const OperandPlan *X : Ops) {
      size_t PerChunk = 1;
      if (Runtime && Step)
        PerChunk = *Step != LastStep ? 3 : X->columns() ? 5 : 12;
      N += PerChunk * size_t(X->Chunks);
    }
    return N + (Runtime && Step && *Step == LastStep ? 5 : 0);
  }

  void fillCopy(Op &Copy, const TileParams &T,
                std::initializer_list<OperandPlan *> Ops) {
    int64_t Stage = *Copy.getInt("stage");
    Copy.setHasRegion();
    Copy.Body.reserve(Copy.Body.size() + copyOps(Copy, Ops));
    Optional<int64_t> Step = Copy.getInt("step");
    SMLoc L = Copy.Loc;
    Builder Bd(Copy, L, Names);
    for (OperandPlan *X : Ops) {
      Value KStep = Runtime ? X->StepValue : Value::makeInt(X->stepBytes());
      KStep.Loc = L;
      int64_t Buffer = X->Name == 'a' ? T.bufferA(Stage) : T.bufferB(Stage);
      for (int64_t C = 0; C < X->Chunks; ++C) {
        // A run-time shape's guard values go before the copy.
        CopyGuard G;
        if (Runtime)
          G = guardCopy(Bd, Step, *X, C, T);
        NewOp O(Copy, "tp.ldgsts", L, 3,
                4 + (G.Guard.empty() ? 0 : 1) + (G.Fill.empty() ? 0 : 1));
        O.op()
            .addRefOperand(X->StsNames[C], L)
            .addRefOperand(X->Param, L)
            .addRefOperand(X->GoffNames[C], L);
        O.word("operand", X->Name == 'a' ? "a" : "b")
            .num("chunk", C)
            .num("smem_offset", Buffer)
            .value("k_step_bytes", KStep);
        if (!G.Fill.empty())
          O.ref("fill", G.Fill);
        if (!G.Guard.empty())
          O.ref("guard", G.Guard);
      }
    }
  }

  void fillProducts(Op &Prod, const TileParams &T, const OperandPlan &A,
                    const OperandPlan &B) {
    int64_t Stage = *Prod.getInt("stage");
    Prod.setHasRegion();
    Prod.Body.reserve(Prod.Body.size() +
                      2 * (T.MTiles + T.NTiles / 2 + T.MTiles * T.NTiles));
    // Each op is built in its region, its attributes appended in place.
    auto Ldsm = [&](const OperandPlan &X, int64_t KK, int64_t Index) {
      NewOp O(Prod, "tp.ldsm", Prod.Loc, 1, 5);
      int64_t Address = X.columns() ? Index : KK;
      O.op().addRefOperand(X.LdsmNames[Address], Prod.Loc);
      int64_t Buffer = X.Name == 'a' ? T.bufferA(Stage) : T.bufferB(Stage);
      O.word("operand", X.Name == 'a' ? "a" : "b")
          .num("kk", KK)
          .num("index", Index)
          .num("smem_offset",
               Buffer + (X.columns() ? KK * 16 * X.Extent * 2 : Index * 1024))
          .word("shape", X.columns() ? "mt88" : "m88");
    };
    for (int64_t KK = 0; KK < 2; ++KK) {
      for (int64_t MT = 0; MT < T.MTiles; ++MT)
        Ldsm(A, KK, MT);
      for (int64_t Pair = 0; Pair < T.NTiles / 2; ++Pair)
        Ldsm(B, KK, Pair);
      for (int64_t MT = 0; MT < T.MTiles; ++MT)
        for (int64_t NT = 0; NT < T.NTiles; ++NT) {
          NewOp(Prod, "tp.mma", Prod.Loc, 0, 3)
              .num("kk", KK)
              .num("mt", MT)
              .num("nt", NT);
        }
    }
  }

  /// C's pair stores; with a residual R (the epilogue's second operand),
  /// batches of ResidualBatch pairs: R's pairs loaded (tp.ldg), added to
  /// the accumulators (tp.add_residual), stored (the seed's tpResidualC).
  /// A run-time shape's C addresses, at the epilogue's start: the thread's
  /// first row and column of C, its offset (row ldc + col) x D's element
  /// size, ldc in bytes, the bias pair's offset (col x 4), and the rows and
  /// columns left (M - row, N - col) for the guards.
  void defineEpilogueValues(Builder &Bd, const TileParams &T,
                            const Problem &P) {
    Bd.sreg("e.tid", "tid.x");
    Bd.sreg("e.ctaid.x", "ctaid.x");
    Bd.sreg("e.ctaid.y", "ctaid.y");
    Bd.andi("e.lane", "e.tid", 31);
    Bd.shr("e.warp", "e.tid", 5);
    Bd.shr("e.warp_m", "e.warp", Log2_64(T.WarpsN));
    Bd.andi("e.warp_n", "e.warp", T.WarpsN - 1);
    Bd.shr("e.r0", "e.lane", 2);
    Bd.mad("e.r1", "e.warp_m", Bd.imm(16 * T.MTiles), Bd.ref("e.r0"));
    Bd.mad("e.row", "e.ctaid.y", Bd.imm(T.blockM()), Bd.ref("e.r1"));
    Bd.andi("e.q", "e.lane", 3);
    Bd.mul("e.c0", "e.q", 2);
    Bd.mad("e.c1", "e.warp_n", Bd.imm(8 * T.NTiles), Bd.ref("e.c0"));
    Bd.mad("e.col", "e.ctaid.x", Bd.imm(T.blockN()), Bd.ref("e.c1"));
    StringRef Ldc = Bd.param("e.ldc", LdcParam);
    StringRef Elem = Bd.mad("e.elem", "e.row", Bd.ref(Ldc), Bd.ref("e.col"));
    if (Strided) {
      Bd.sreg("e.ctaid.z", "ctaid.z");
      StringRef Z = Bd.mad("e.zelems", "e.ctaid.z",
                             Bd.ref(Bd.param("e.stride", StrideCParam)),
                             Bd.imm(0));
      Elem = Bd.emit("e.elemz", "add", Bd.ref(Elem), Bd.ref(Z));
    }
    Bd.mul("e.off", Elem, P.dBytes());
    Bd.mul("e.ldc4", Ldc, P.dBytes());
    if (P.Bias)
      Bd.mul("bias.off", "e.col", 4); // the thread's f32 bias pair
    Bd.sub("e.rows", Bd.param("e.M", MParam), Bd.ref("e.row"));
    Bd.sub("e.cols", Bd.param("e.N", NParam), Bd.ref("e.col"));
  }

  /// The unique names (in the Arena) of a pair's row offset and the
  /// guards of its load or store.
  struct PairGuards {
    StringRef Row, Both, First;
  };
  /// Pair \p I's guards, defined now (\p Kind 's' or 'l'): its row offset
  /// (defined at its first use), both elements in C (row < M and col + 1
  /// < N), only the first (col + 1 = N).
  PairGuards defineGuards(Builder &Bd, const TileParams &T, int64_t I,
                          char Kind) {
    int64_t H = I % 2, MT = I / 2 / T.NTiles, NT = I / 2 % T.NTiles;
    PairGuards G;
    StringRef &RowName = RowOffsetNames[2 * MT + H];
    if (RowName.empty())
      RowName = name(Bd.mad(Spelling("e.roff", MT, '_', H), "e.ldc4",
                            Bd.imm(16 * MT + 8 * H), Bd.ref("e.off")));
    G.Row = RowName;
    // "e." Kind Base I, e.g. e.srow5.
    auto Pre = [&](StringRef Base) { return Spelling("e.", Kind, Base, I); };
    StringRef In = Bd.cmp(Pre("row"), "gt", "e.rows", Bd.imm(16 * MT + 8 * H));
    G.Both = name(
        Bd.cmpAnd(Pre("both"), "gt", "e.cols", Bd.imm(8 * NT + 1), Bd.ref(In)));
    G.First = name(Bd.cmpAnd(Pre("first"), "eq", "e.cols", Bd.imm(8 * NT + 1),
                             Bd.ref(In)));
    return G;
  }

  /// The epilogue: the bias pairs first (tp.ldg_bias, one an n-tile); then
  /// per batch R's pairs (the residual: tp.ldg, tp.add_residual) or C's
  /// pairs loaded when beta != 0 (tp.ldg_beta), and per pair tp.scale
  /// (alpha), tp.add_beta, tp.add_bias, tp.relu, tp.pack (D in f16/bf16),
  /// in that order, then the stores.  A run-time shape guards the loads
  /// and stores per element pair (defineGuards).
  void fillEpilogue(Op &Epi, const TileParams &T, const Problem &P,
                    const Op &MM) {
    const int64_t ResidualBatch = 8;
    Epi.setHasRegion();
    int64_t Pairs = 2 * T.MTiles * T.NTiles;
    // Room for every op at once (values, guards, pair ops: the run-time
    // default kernel's epilogue has 158 for 32 pairs).
    Epi.Body.reserve(Epi.Body.size() + 48 + Pairs * (Runtime ? 8 : 2) +
                     (P.Residual || P.Scale ? 4 * Pairs : 0));
    bool Residual = P.Residual;
    Builder Bd(Epi, Epi.Loc, Names);
    if (Runtime)
      defineEpilogueValues(Bd, T, P);
    // The scale's and the bias's parameters: C, A, B, R, alpha,
    // beta[, bias], or C, A, B, bias.
    StringRef Alpha, Beta, BiasParam;
    if (P.Scale) {
      Alpha = MM.Operands[4].str();
      Beta = MM.Operands[5].str();
    }
    if (P.Bias)
      BiasParam = MM.Operands.back().str();
    // A run-time shape's store guards are computed StoreGuardsAhead pairs
    // before their stores (the ISETP -> guard latency, 13 cycles, hidden
    // behind the stores between): at most 3 pairs' guards live, 6 of the
    // 7 predicate registers.
    const int64_t StoreGuardsAhead = 2;
    // Pair i's store guards, once defined (each is used by its store only,
    // after every pair before it has been stored).
    std::vector<PairGuards> StoreGuards(Runtime ? Pairs : 0);
    std::vector<uint8_t> StoreGuarded(Runtime ? Pairs : 0, 0);
    // C's offset (a fixed shape's stores and loads), looked up once.
    StringRef COffName = Runtime ? "" : name("c.off");
    auto PairOp = [&](StringRef Name, int64_t I, bool Offset,
                      ArrayRef<StringRef> Params = {}) {
      int64_t H = I % 2, J = I / 2;
      int64_t MT = J / T.NTiles, NT = J % T.NTiles;
      PairGuards G;
      bool Guarded = Offset && Runtime;
      // The guards' values first (they go before the op), then the op,
      // built in its region.
      if (Guarded && Name == "tp.stg") {
        if (StoreGuarded[I])
          G = std::move(StoreGuards[I]);
        else
          G = defineGuards(Bd, T, I, 's');
      } else if (Guarded) {
        G = defineGuards(Bd, T, I, 'l');
      }
      NewOp O(Epi, Name, Epi.Loc, (Offset ? 1 : 0) + Params.size(),
              4 + (Offset ? 1 : 0) + (Guarded ? 2 : 0) +
                  (Name == "tp.pack" ? 1 : 0));
      // A guarded op's row offset is its first operand.
      if (Offset)
        O.op().addRefOperand(Guarded ? G.Row : COffName, Epi.Loc);
      for (StringRef Param : Params)
        O.op().addRefOperand(Param, Epi.Loc);
      O.num("pair", I).num("mt", MT).num("nt", NT).num("half", H);
      if (Offset)
        O.num("offset", Runtime
                            ? NT * 8 * P.dBytes()
                            : ((16 * MT + 8 * H) * P.N + NT * 8) * P.dBytes());
      if (Name == "tp.pack")
        O.word("type", getElementTypeName(P.DType));
      // The pair's attributes first, its guards after (as the printer
      // writes them: guards are set after the numbers).
      if (Guarded)
        O.ref("guard", G.Both).ref("guard_first", G.First);
    };
    // The thread's bias pairs, one an n-tile (columns c.col + 8 nt, + 1).
    if (P.Bias)
      for (int64_t NT = 0; NT < T.NTiles; ++NT) {
        // Columns col + 8 nt (+ 1) within N: both, or the first alone
        // (their values before the load).
        StringRef Both, First;
        if (Runtime) {
          Both = name(Bd.cmp(Spelling("e.bboth", NT), "gt", "e.cols",
                             Bd.imm(8 * NT + 1)));
          First = name(Bd.cmp(Spelling("e.bfirst", NT), "eq", "e.cols",
                              Bd.imm(8 * NT + 1)));
        }
        NewOp O(Epi, "tp.ldg_bias", Epi.Loc, 2, Runtime ? 4 : 2);
        O.op()
            .addRefOperand(name("bias.off"), Epi.Loc)
            .addRefOperand(BiasParam, Epi.Loc);
        O.num("nt", NT).num("offset", NT * 8 * 4);
        if (Runtime)
          O.ref("guard", Both).ref("guard_first", First);
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
        for (int64_t J = I; Runtime && J <= I + StoreGuardsAhead && J < Last;
             ++J)
          if (!StoreGuarded[J]) {
            StoreGuarded[J] = 1;
            StoreGuards[J] = defineGuards(Bd, T, J, 's');
          }
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
