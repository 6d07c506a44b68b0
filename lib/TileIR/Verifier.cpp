//===- Verifier.cpp - Tile IR verifier ------------------------------------===//
///
/// \file
/// Checks, in order: the kernel header (target, parameters), the one
/// tp.matmul and its problem, then every op of its region against the
/// schema below (where it may appear, its attributes and operands), that
/// values are defined once and before use, and that the numbers the tile
/// passes derived (tp.block, tp.grid, ... tp.pipeline) agree with tp.tile.
/// Each failure is one located error.
///
//===----------------------------------------------------------------------===//

#include "tp/Support/Diagnostics.h"
#include "tp/TileIR/TileOps.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"

#include <set>

using namespace llvm;

namespace tp {
namespace tile {

Problem getProblem(const Kernel &K) {
  const Op *MM = K.getMatmul();
  Problem P;
  P.M = *MM->getInt("m");
  P.N = *MM->getInt("n");
  P.K = *MM->getInt("k");
  P.A = *parseLayoutName(MM->getWord("a"));
  P.B = *parseLayoutName(MM->getWord("b"));
  readEpilogueAttr(*MM, P);
  P.Residual = !P.Scale && MM->Operands.size() == 4 + (P.Bias ? 1 : 0);
  if (Optional<MatmulTypes> Types = parseMatmulTypes(MM->getType())) {
    P.AType = Types->A;
    P.BType = Types->B;
    P.DType = Types->D;
  }
  P.Runtime = MM->getAttr("shape") != nullptr;
  P.Strided = MM->getAttr("strides") != nullptr;
  P.Batch = MM->getInt("batch").getValueOr(1);
  return P;
}

Optional<std::string> readEpilogueAttr(const Op &MM, Problem &P) {
  const Attr *A = MM.getAttr("epilogue");
  if (!A)
    return None;
  static const char *const Order[] = {"scale", "bias", "relu"};
  if (A->Val.K != Value::List || A->Val.elems().empty())
    return std::string("expected epilogue=[...] with scale, bias, relu in "
                       "that order");
  size_t Next = 0;
  for (const Value &V : A->Val.elems()) {
    size_t I = Next;
    while (I < 3 && (!V.isWord() || V.str() != Order[I]))
      ++I;
    if (I == 3)
      return "expected epilogue=[...] with scale, bias, relu in that order "
             "(each once), found '" +
             (V.isWord() ? V.str().str() : std::string("a non-word")) + "'";
    (I == 0 ? P.Scale : I == 1 ? P.Bias : P.Relu) = true;
    Next = I + 1;
  }
  return None;
}

Optional<MatmulTypes> parseMatmulTypes(StringRef Type) {
  SmallVector<StringRef, 5> Parts;
  Type.split(Parts, ' ', -1, false);
  if (Parts.size() != 5 || Parts[1] != "x" || Parts[3] != "->")
    return None;
  Optional<ElementType> A = parseElementTypeName(Parts[0]),
                        B = parseElementTypeName(Parts[2]),
                        D = parseElementTypeName(Parts[4]);
  if (!A || !B || !D)
    return None;
  return MatmulTypes{*A, *B, *D};
}

std::string printMatmulTypes(const Problem &P) {
  return (getElementTypeName(P.AType) + " x " + getElementTypeName(P.BType) +
          " -> " + getElementTypeName(P.DType))
      .str();
}

int64_t getParamOffset(const Kernel &K, unsigned Index) {
  int64_t Off = 0;
  for (unsigned I = 0; I < Index; ++I) {
    int64_t Size = K.Params[I].Scalar ? 4 : 8;
    Off = alignTo(Off, Size) + Size;
  }
  // The parameter itself starts at its own size's alignment.
  return alignTo(Off, Index < K.Params.size() && K.Params[Index].Scalar ? 4 : 8);
}

Optional<unsigned> getShapeParam(const Kernel &K, ShapeParam Which) {
  const Op *MM = K.getMatmul();
  bool Stride = Which >= ShapeParam::StrideA;
  const Attr *A = MM ? MM->getAttr(Stride ? "strides" : "shape") : nullptr;
  size_t At = size_t(Which) - (Stride ? size_t(ShapeParam::StrideA) : 0);
  if (!A || A->Val.K != Value::List || A->Val.elems().size() <= At)
    return None;
  const Value &V = A->Val.elems()[At];
  for (unsigned I = 0; I < K.Params.size(); ++I)
    if (V.isRef() && K.Params[I].Name == V.str())
      return I;
  return None;
}

TileParams getTileOp(const Op &T) {
  return TileParams{*T.getInt("warps_m"), *T.getInt("warps_n"),
                    *T.getInt("m_tiles"), *T.getInt("n_tiles"),
                    *T.getInt("stages")};
}

/// The target \p Name names, if the tile IR takes it.
static Optional<sass::Target> lookupTileTarget(StringRef Name) {
  sass::Target T;
  if (!sass::lookupTarget(Name, T) || !isTileTarget(T) ||
      sass::getTargetName(T) != Name)
    return None;
  return T;
}

sass::Target getTarget(const Kernel &K) {
  for (const Attr &A : K.Attrs)
    if (A.Key == "target" && A.Val.isWord())
      if (Optional<sass::Target> T = lookupTileTarget(A.Val.str()))
        return *T;
  return sass::Target::SM86;
}

TargetLimits getTargetLimits(const Kernel &K) {
  return getTargetLimits(getTarget(K));
}

int64_t getSharedLimit(const Kernel &K, const TargetLimits &L) {
  return K.getInt("shared_limit").getValueOr(L.SharedCapacity);
}

std::vector<Op> makeTilingOps(const Problem &P, const TileParams &T,
                              SMLoc Loc) {
  std::vector<Op> Ops;
  auto NewOp = [&](StringRef Name) -> Op & {
    return Ops.emplace_back(Name, Loc);
  };
  StringRef Name = tileName(T);
  Op &Tile = NewOp("tp.tile");
  if (!Name.empty())
    Tile.addWord("name", Name);
  Tile.addInt("warps_m", T.WarpsM)
      .addInt("warps_n", T.WarpsN)
      .addInt("m_tiles", T.MTiles)
      .addInt("n_tiles", T.NTiles)
      .addInt("stages", T.Stages);
  Op &Grid = NewOp("tp.grid");
  Grid.addInt("x", T.blockN() ? ceilDiv(P.N, T.blockN()) : 0)
      .addInt("y", T.blockM() ? ceilDiv(P.M, T.blockM()) : 0)
      .addInt("threads", T.threads());
  if (P.Strided)
    Grid.addInt("z", P.Batch);
  NewOp("tp.block")
      .addInt("m", T.blockM())
      .addInt("n", T.blockN())
      .addInt("warps", T.warps());
  NewOp("tp.warp")
      .addInt("m", T.warpM())
      .addInt("n", T.warpN())
      .addWord("mma", "m16n8k16");
  NewOp("tp.chunks")
      .addInt("a", T.chunksA())
      .addInt("b", T.chunksB())
      .addInt("bytes", 16);
  NewOp("tp.shared")
      .addInt("bytes", T.sharedBytes())
      .addInt("stage_bytes", T.stageBytes())
      .addInt("a_offset", 0)
      .addInt("b_offset", T.tileBytesA());
  NewOp("tp.registers").addInt("count", T.registers());
  return Ops;
}

Op makePipelineOp(const Problem &P, const TileParams &T, SMLoc Loc) {
  Op Pipe("tp.pipeline", Loc);
  // A run-time shape rounds the recorded K up to whole rings (the steps
  // beyond K are zero-filled); a fixed one is a multiple of 32 S.
  int64_t Iter = P.Runtime ? ceilDiv(P.K, 32 * T.Stages) : P.K / (32 * T.Stages);
  Pipe.setInt("stages", T.Stages)
      .setInt("ahead", T.Stages - 1)
      .setInt("wait", T.Stages - 2)
      .setInt("steps", P.Runtime ? Iter * T.Stages : P.K / 32)
      .setInt("iterations", Iter > 0 ? Iter - 1 : 0);
  return Pipe;
}

namespace {

/// Where an op may appear and what it carries.  Attribute lists are
/// space-separated names; ":w" marks a word, ":r" a value reference,
/// ":v" any value, otherwise a natural number.
struct Schema {
  const char *Name;
  const char *Parents;
  const char *Required;
  const char *Optional;
  int MinOperands, MaxOperands;
  bool Region, Result;
};

const Schema Schemas[] = {
    {"tp.matmul", "kernel", "m n k a:w b:w",
     "tile:v epilogue:v shape:v strides:v batch", 3, 7, true, false},
    {"tp.tile", "tp.matmul", "warps_m warps_n m_tiles n_tiles stages",
     "name:w", 0, 0, false, false},
    {"tp.grid", "tp.matmul", "x y threads", "z", 0, 0, false, false},
    {"tp.block", "tp.matmul", "m n warps", "", 0, 0, false, false},
    {"tp.warp", "tp.matmul", "m n mma:w", "", 0, 0, false, false},
    {"tp.chunks", "tp.matmul", "a b bytes", "", 0, 0, false, false},
    {"tp.shared", "tp.matmul", "bytes stage_bytes a_offset b_offset", "", 0,
     0, false, false},
    {"tp.registers", "tp.matmul", "count", "", 0, 0, false, false},
    {"tp.pipeline", "tp.matmul", "stages ahead wait steps iterations", "", 0,
     0, false, false},
    {"tp.addresses", "tp.matmul", "", "", 0, 0, true, false},
    {"tp.prologue", "tp.matmul", "", "", 0, 0, true, false},
    {"tp.loop", "tp.matmul", "iterations", "count:r", 0, 0, true, false},
    {"tp.tail", "tp.matmul", "", "", 0, 0, true, false},
    {"tp.step", "tp.loop tp.tail", "stage", "step", 0, 0, true, false},
    {"tp.copy", "tp.prologue tp.step", "stage", "step ahead", 0, 0, true,
     false},
    {"tp.commit", "tp.prologue tp.step", "", "", 0, 0, false, false},
    {"tp.wait_groups", "tp.step tp.tail", "max", "", 0, 0, false, false},
    {"tp.barrier", "tp.step", "", "", 0, 0, false, false},
    {"tp.products", "tp.step", "stage", "", 0, 0, true, false},
    {"tp.epilogue", "tp.tail", "pairs", "", 1, 2, true, false},
    {"tp.ldgsts", "tp.copy", "operand:w chunk smem_offset k_step_bytes:v",
     "guard:r fill:r", 3, 3, false, false},
    {"tp.ldsm", "tp.products", "operand:w kk index smem_offset shape:w", "",
     1, 1, false, false},
    {"tp.mma", "tp.products", "kk mt nt", "", 0, 0, false, false},
    {"tp.stg", "tp.epilogue", "pair mt nt half offset", "guard:r guard_first:r",
     1, 1, false, false},
    {"tp.ldg", "tp.epilogue", "pair mt nt half offset", "guard:r guard_first:r",
     1, 1, false, false},
    {"tp.add_residual", "tp.epilogue", "pair mt nt half", "", 0, 0, false,
     false},
    {"tp.pack", "tp.epilogue", "pair mt nt half type:w", "", 0, 0, false,
     false},
    {"tp.ldg_bias", "tp.epilogue", "nt offset", "guard:r guard_first:r", 2, 2,
     false, false},
    {"tp.ldg_beta", "tp.epilogue", "pair mt nt half offset",
     "guard:r guard_first:r", 2, 2, false, false},
    {"tp.scale", "tp.epilogue", "pair mt nt half", "", 1, 1, false, false},
    {"tp.add_beta", "tp.epilogue", "pair mt nt half", "", 1, 1, false, false},
    {"tp.add_bias", "tp.epilogue", "pair mt nt half", "", 0, 0, false, false},
    {"tp.relu", "tp.epilogue", "pair mt nt half", "", 0, 0, false, false},
#define TP_VALUE_PARENTS "tp.addresses tp.copy tp.epilogue"
    {"sreg", TP_VALUE_PARENTS, "", "", 1, 1, false, true},
    {"add", TP_VALUE_PARENTS, "", "", 2, 2, false, true},
    {"mul", TP_VALUE_PARENTS, "", "", 2, 2, false, true},
    {"mad", TP_VALUE_PARENTS, "", "", 3, 3, false, true},
    {"shr", TP_VALUE_PARENTS, "", "", 2, 2, false, true},
    {"and", TP_VALUE_PARENTS, "", "", 2, 2, false, true},
    {"xor", TP_VALUE_PARENTS, "", "", 2, 2, false, true},
    {"param", TP_VALUE_PARENTS, "", "", 1, 1, false, true},
    {"sub", TP_VALUE_PARENTS, "", "", 2, 2, false, true},
    {"lt", TP_VALUE_PARENTS, "", "", 2, 3, false, true},
    {"ltu", TP_VALUE_PARENTS, "", "", 2, 3, false, true},
    {"gt", TP_VALUE_PARENTS, "", "", 2, 3, false, true},
    {"eq", TP_VALUE_PARENTS, "", "", 2, 3, false, true},
    {"sel", TP_VALUE_PARENTS, "", "", 3, 3, false, true},
#undef TP_VALUE_PARENTS
};

/// Whether \p Name is a comparison: its value is a predicate.
bool isCompare(StringRef Name) {
  return Name == "lt" || Name == "ltu" || Name == "gt" || Name == "eq";
}

const Schema *lookupSchema(StringRef Name) {
  for (const Schema &S : Schemas)
    if (Name == S.Name)
      return &S;
  return nullptr;
}

bool listed(StringRef List, StringRef Word) {
  SmallVector<StringRef, 8> Parts;
  List.split(Parts, ' ', -1, false);
  for (StringRef P : Parts)
    if (P == Word)
      return true;
  return false;
}

class Verifier {
public:
  Verifier(const SourceMgr &SM) : SM(SM) {}

  Error verify(const Module &M) {
    StringSet<> Names;
    for (const Kernel &K : M.Kernels) {
      if (!Names.insert(K.Name).second)
        return err(K.Loc, "kernel @" + K.Name + " is defined twice");
      if (Error E = verifyKernel(K))
        return E;
    }
    return Error::success();
  }

private:
  const SourceMgr &SM;
  StringSet<> Defined;
  StringSet<> Predicates; ///< the values comparisons define
  const Kernel *K = nullptr;
  Optional<Problem> Prob;
  Optional<TileParams> Tile;
  bool InLoop = false;
  /// The product's parameter roles and the kernel's parameter names.
  std::vector<ProductParam> Roles;
  std::vector<std::string> Params;

  Error err(SMLoc Loc, const Twine &Msg) {
    return makeSourceError(SM, Loc, Msg);
  }

  Error verifyKernel(const Kernel &Kn) {
    K = &Kn;
    const Kernel &K = Kn;
    Defined.clear();
    Predicates.clear();
    Prob.reset();
    bool HasTarget = false;
    for (const Attr &A : K.Attrs) {
      if (A.Key == "target") {
        HasTarget = true;
        if (!A.Val.isWord() || !lookupTileTarget(A.Val.str()))
          return err(A.Val.Loc, "unsupported target: expected " +
                                    sass::getGemmTargetList());
      } else if (A.Key == "shared_limit" || A.Key == "sms") {
        if (!A.Val.isInt() || A.Val.I < 1)
          return err(A.Val.Loc, "attribute '" + A.Key +
                                    "' expects a positive integer");
      } else {
        return err(A.getLoc(), "unknown kernel attribute '" + A.Key + "'");
      }
    }
    if (!HasTarget)
      return err(K.Loc, "kernel @" + K.Name + " has no target= (" +
                            sass::getGemmTargetList() + ")");
    for (const Param &P : K.Params) {
      if (!Defined.insert(P.Name).second)
        return err(P.Loc, "parameter %" + P.Name + " is declared twice");
    }
    const Op *MM = nullptr;
    for (const Op &O : K.Body) {
      if (O.Name != "tp.matmul")
        return err(O.Loc, "expected 'tp.matmul' in the kernel, found '" +
                              O.Name + "'");
      if (MM)
        return err(O.Loc, "kernel @" + K.Name + " has more than one tp.matmul");
      MM = &O;
    }
    if (!MM)
      return err(K.Loc, "kernel @" + K.Name + " has no tp.matmul");
    if (Error E = verifySchema(*MM, "kernel"))
      return E;
    if (Error E = verifyMatmul(K, *MM))
      return E;
    return verifyRegion(*MM, K);
  }

  Error verifyMatmul(const Kernel &K, const Op &MM) {
    Problem Typed;
    if (Optional<std::string> Bad = readEpilogueAttr(MM, Typed))
      return err(MM.getAttr("epilogue")->Val.Loc, *Bad);
    size_t Base = 3 + (Typed.Scale ? 3 : 0) + (Typed.Bias ? 1 : 0);
    Typed.Residual = !Typed.Scale && MM.Operands.size() == Base + 1;
    std::string Expect = Typed.Scale ? "C, A, B, R, alpha, beta" : "C, A, B[, R]";
    if (Typed.Bias)
      Expect += ", bias";
    if (MM.Operands.size() != Base && !Typed.Residual)
      return err(MM.Loc, formatv("the product names {0} operands; expected "
                                 "{1}",
                                 MM.Operands.size(), Expect));
    const Attr *Shape = MM.getAttr("shape");
    const Attr *Strides = MM.getAttr("strides");
    size_t Values = (Shape ? size_t(ShapeParam::Count) : 0) + (Strides ? 3 : 0);
    if (K.Params.size() != MM.Operands.size() + Values)
      return err(MM.Loc, formatv("the kernel has {0} parameters but the "
                                 "product names {1} ({2}{3}{4})",
                                 K.Params.size(), MM.Operands.size() + Values,
                                 Expect, Shape ? ", the shape's 6" : "",
                                 Strides ? ", the strides' 3" : ""));
    if (Error E = verifyShapeAttr(K, MM, Shape))
      return E;
    if (Error E = verifyStridesAttr(K, MM, Shape, Strides))
      return E;
    Optional<MatmulTypes> Types = parseMatmulTypes(MM.getType());
    if (!Types)
      return err(MM.getType().empty() ? MM.Loc : MM.getTypeLoc(),
                 "expected the element types ': A x B -> D' (A and B f16 or "
                 "bf16, D f32, f16 or bf16, e.g. ': f16 x f16 -> f32'), "
                 "found " +
                     (MM.getType().empty() ? std::string("none")
                                           : "': " + MM.getType() + "'"));
    Typed.AType = Types->A;
    Typed.BType = Types->B;
    Typed.DType = Types->D;
    if (Optional<Violation> V = checkTypes(Typed))
      return err(MM.getTypeLoc().isValid() ? MM.getTypeLoc() : MM.Loc,
                 V->Message);
    Roles = getProductParams(Typed);
    Params.clear();
    for (const Param &P : K.Params)
      Params.push_back(P.Name.str());
    for (size_t I = 0; I < MM.Operands.size(); ++I) {
      const Value &V = MM.Operands[I];
      if (!V.isRef() || V.str() != K.Params[I].Name)
        return err(V.Loc, Twine("operand ") + Roles[I].Role +
                              " must be the kernel's parameter " +
                              Twine(I + 1) + ", %" + K.Params[I].Name +
                              " (parameters are in the order " + Expect +
                              ")");
      std::string Want =
          Roles[I].Scalar
              ? getElementTypeName(Roles[I].Elem).str()
              : ("ptr<" + getElementTypeName(Roles[I].Elem) + ">").str();
      std::string Found = K.Params[I].Scalar
                              ? K.Params[I].Elem.str()
                              : ("ptr<" + K.Params[I].Elem + ">").str();
      if (Want != Found)
        return err(K.Params[I].Loc, Twine("parameter %") + K.Params[I].Name +
                                        " is " + Roles[I].Role + ": expected " +
                                        Want + ", found " + Found +
                                        " (the product's types are " +
                                        MM.getType() + ")");
    }
    for (const char *Key : {"m", "n", "k"}) {
      const Attr *A = MM.getAttr(Key);
      if (A->Val.I < 0)
        return err(A->Val.Loc, Twine("attribute '") + Key +
                                   "' expects a natural number");
    }
    for (const char *Key : {"a", "b"}) {
      const Attr *A = MM.getAttr(Key);
      if (!parseLayoutName(A->Val.str()))
        return err(A->Val.Loc, Twine("layout of ") + (Key[0] == 'a' ? "A" : "B") +
                                   " must be 'rows' or 'columns', found '" +
                                   A->Val.str() + "'");
    }
    if (const Attr *A = MM.getAttr("tile")) {
      std::string Spec;
      if (A->Val.isWord())
        Spec = A->Val.str();
      else if (A->Val.K == Value::List) {
        for (size_t I = 0; I < A->Val.elems().size(); ++I) {
          if (!A->Val.elems()[I].isInt())
            return err(A->Val.elems()[I].Loc, "tile fields must be integers");
          Spec += (I ? "," : "") + std::to_string(A->Val.elems()[I].I);
        }
      } else
        return err(A->Val.Loc, "expected a tile name or [WM, WN, MT, NT, S]");
      auto T = parseTileSpec(Spec);
      if (!T)
        return err(A->Val.Loc, toString(T.takeError()));
    }
    Prob = getProblem(K);
    return Error::success();
  }

  /// shape=[%M, %N, %K, %lda, %ldb, %ldc]: the kernel's i32 parameters
  /// after the pointers, in that order; without shape= every parameter is
  /// a pointer.
  Error verifyShapeAttr(const Kernel &K, const Op &MM, const Attr *Shape) {
    size_t Pointers = MM.Operands.size();
    if (!Shape) {
      for (size_t I = 0; I < K.Params.size(); ++I)
        if (K.Params[I].Elem == "i32")
          return err(K.Params[I].Loc,
                     "parameter %" + K.Params[I].Name +
                         " is an i32 but the product has no run-time "
                         "shape (shape=[%M, %N, %K, %lda, %ldb, %ldc])");
      return Error::success();
    }
    static const char *const Names[] = {"M", "N", "K", "lda", "ldb", "ldc"};
    if (Shape->Val.K != Value::List ||
        Shape->Val.elems().size() != size_t(ShapeParam::Count))
      return err(Shape->Val.Loc, "expected shape=[%M, %N, %K, %lda, %ldb, "
                                 "%ldc] (six i32 parameters)");
    for (size_t I = 0; I < Shape->Val.elems().size(); ++I) {
      const Value &V = Shape->Val.elems()[I];
      const Param &P = K.Params[Pointers + I];
      if (!V.isRef() || V.str() != P.Name)
        return err(V.Loc, Twine("shape entry ") + Twine(I + 1) + " (" +
                              Names[I] + ") must be the kernel's parameter " +
                              Twine(Pointers + I + 1) + ", %" + P.Name +
                              " (the pointers, then M, N, K, lda, ldb, ldc)");
      if (P.Elem != "i32")
        return err(P.Loc, Twine("parameter %") + P.Name + " is " + Names[I] +
                              ": expected i32, found ptr<" + P.Elem + ">");
    }
    return Error::success();
  }

  /// strides=[%sa, %sb, %sc] (batch b of A, B, C at b times these many
  /// elements): only with a run-time shape, the i32 parameters after the
  /// shape's; batch= (the recorded count, the grid's z) only with them.
  Error verifyStridesAttr(const Kernel &K, const Op &MM, const Attr *Shape,
                          const Attr *Strides) {
    const Attr *Batch = MM.getAttr("batch");
    if (Batch && !Strides)
      return err(Batch->getLoc(), "batch= needs strides=[%sa, %sb, %sc]");
    if (Batch && (Batch->Val.I < 1 || Batch->Val.I > 65535))
      return err(Batch->Val.Loc, "batch = " + Twine(Batch->Val.I) +
                                     ": expected 1 to 65535 (the grid's z)");
    if (!Strides)
      return Error::success();
    if (!Shape)
      return err(Strides->getLoc(), "strides= needs a run-time shape (shape=)");
    size_t First = MM.Operands.size() + size_t(ShapeParam::Count);
    if (Strides->Val.K != Value::List || Strides->Val.elems().size() != 3)
      return err(Strides->Val.Loc,
                 "expected strides=[%sa, %sb, %sc] (three i32 parameters)");
    for (size_t I = 0; I < 3; ++I) {
      const Value &V = Strides->Val.elems()[I];
      const Param &P = K.Params[First + I];
      if (!V.isRef() || V.str() != P.Name || P.Elem != "i32")
        return err(V.Loc, "strides entry " + Twine(I + 1) +
                              " must be the kernel's i32 parameter " +
                              Twine(First + I + 1) + ", %" + P.Name +
                              " (after the shape's)");
    }
    return Error::success();
  }

  Error verifySchema(const Op &O, StringRef Parent) {
    const Schema *S = lookupSchema(O.Name);
    if (!S)
      return err(O.Loc, "unknown operation '" + O.Name + "'");
    if (!listed(S->Parents, Parent))
      return err(O.Loc, "'" + O.Name + "' may not appear in " +
                            (Parent == "kernel" ? std::string("a kernel")
                                                : "'" + Parent.str() + "'") +
                            " (expected in " + S->Parents + ")");
    if (S->Result && O.Result.empty())
      return err(O.Loc, "'" + O.Name + "' must define a value '%name = '");
    if (!S->Result && !O.Result.empty())
      return err(O.Loc, "'" + O.Name + "' defines no value");
    int N = O.Operands.size();
    if (N < S->MinOperands || N > S->MaxOperands)
      return err(O.Loc, formatv("'{0}' expects {1} operands, found {2}",
                                O.Name,
                                S->MinOperands == S->MaxOperands
                                    ? std::to_string(S->MinOperands)
                                    : formatv("{0} to {1}", S->MinOperands,
                                              S->MaxOperands)
                                          .str(),
                                N));
    if (O.hasRegion() && !S->Region)
      return err(O.Loc, "'" + O.Name + "' has no region");
    if (O.Name != "tp.matmul" && !O.getType().empty())
      return err(O.Loc, "'" + O.Name + "' has no type");
    SmallVector<StringRef, 8> Req;
    StringRef(S->Required).split(Req, ' ', -1, false);
    for (StringRef R : Req) {
      StringRef Key = R.split(':').first;
      if (!O.getAttr(Key))
        return err(O.Loc, "'" + O.Name + "' needs attribute '" + Key + "'");
    }
    for (const Attr &A : O.Attrs) {
      StringRef Spec;
      SmallVector<StringRef, 8> All;
      StringRef(S->Required).split(All, ' ', -1, false);
      StringRef(S->Optional).split(All, ' ', -1, false);
      for (StringRef R : All)
        if (R.split(':').first == A.Key)
          Spec = R;
      if (Spec.empty())
        return err(A.getLoc(),
                   "unknown attribute '" + A.Key + "' of '" + O.Name + "'");
      StringRef Kind = Spec.split(':').second;
      if (Kind == "w" && !A.Val.isWord())
        return err(A.Val.Loc, "attribute '" + A.Key + "' expects a word");
      if (Kind == "r" && !A.Val.isRef())
        return err(A.Val.Loc, "attribute '" + A.Key + "' expects a value");
      if (Kind.empty() && (!A.Val.isInt() || A.Val.I < 0))
        return err(A.Val.Loc,
                   "attribute '" + A.Key + "' expects a natural number");
    }
    return Error::success();
  }

  Error use(const Value &V) {
    if (V.isRef() && !Defined.count(V.str()))
      return err(V.Loc, "use of undefined value %" + V.str());
    return Error::success();
  }

  /// A use of \p V where a predicate (\p Pred) or an integer value is
  /// expected.
  Error useAs(const Value &V, bool Pred, const Twine &What) {
    if (Error E = use(V))
      return E;
    if (V.isRef() && (Predicates.count(V.str()) != 0) != Pred)
      return err(V.Loc, What + " must be " +
                            (Pred ? "a predicate (lt, ltu, gt, eq)"
                                  : "an integer value, not a predicate"));
    return Error::success();
  }

  /// The value ops beyond the address arithmetic: param names an i32
  /// parameter; comparisons take two values (or a value and a natural
  /// number) and optionally a predicate to AND; sel a predicate and two
  /// values or natural numbers; sub a value and a value or natural number.
  Error verifyValueOp(const Op &O) {
    StringRef N = O.Name;
    if (N == "param") {
      const Value &V = O.Operands[0];
      bool IsI32 = false;
      for (const Param &P : K->Params)
        IsI32 |= V.isRef() && P.Name == V.str() && P.Elem == "i32";
      if (!IsI32)
        return err(V.Loc, "'param' reads an i32 parameter of the kernel");
      return Error::success();
    }
    for (size_t I = 0; I < O.Operands.size(); ++I) {
      const Value &V = O.Operands[I];
      bool PredSlot = (isCompare(N) && I == 2) || (N == "sel" && I == 0);
      bool MayBeInt = !PredSlot && (N == "sel" ? I > 0 : I == 1);
      if (V.isInt() && MayBeInt && V.I >= 0)
        continue;
      if (!V.isRef())
        return err(V.Loc, "operand " + Twine(I + 1) + " of '" + N +
                              "' must be " +
                              (PredSlot   ? "a predicate"
                               : MayBeInt ? "a value or a natural number"
                                          : "a value"));
      if (Error E = useAs(V, PredSlot,
                          "operand " + Twine(I + 1) + " of '" + N + "'"))
        return E;
    }
    if (isCompare(N))
      Predicates.insert(O.Result);
    return Error::success();
  }

  /// guard=, guard_first= (predicates), fill= (a value), count= and a
  /// value-valued k_step_bytes= (values).
  Error verifyValueAttrs(const Op &O) {
    for (const Attr &A : O.Attrs) {
      bool Pred = A.Key == "guard" || A.Key == "guard_first";
      bool ValueAttr = A.Key == "fill" ||
                       (A.Key == "count" && O.Name == "tp.loop") ||
                       (A.Key == "k_step_bytes" && O.Name == "tp.ldgsts");
      if (!Pred && !ValueAttr)
        continue;
      if (A.Key == "k_step_bytes" && A.Val.isInt()) {
        if (A.Val.I < 0)
          return err(A.Val.Loc,
                     "attribute 'k_step_bytes' expects a natural number or a "
                     "value");
        continue;
      }
      if (!A.Val.isRef())
        return err(A.Val.Loc, "attribute '" + A.Key + "' expects a value");
      if (Error E = useAs(A.Val, Pred, "attribute '" + A.Key + "'"))
        return E;
    }
    return Error::success();
  }

  Error verifyOperands(const Op &O) {
    StringRef N = O.Name;
    if (Error E = verifyValueAttrs(O))
      return E;
    if (N == "param" || N == "sub" || N == "sel" || isCompare(N)) {
      if (Error E = verifyValueOp(O))
        return E;
    } else if (N == "sreg") {
      const Value &V = O.Operands[0];
      if (!V.isWord() || (V.str() != "tid.x" && V.str() != "ctaid.x" &&
                          V.str() != "ctaid.y" && V.str() != "ctaid.z"))
        return err(V.Loc, "expected a special register tid.x, ctaid.x, "
                          "ctaid.y or ctaid.z");
    } else {
      for (size_t I = 0; I < O.Operands.size(); ++I) {
        const Value &V = O.Operands[I];
        bool MayBeInt = (N == "add" || N == "mad" || N == "mul" ||
                         N == "shr" || N == "and") &&
                        I > 0;
        if (N == "mul" || N == "shr" || N == "and")
          MayBeInt = I == 1;
        if (V.isInt() && MayBeInt && V.I >= 0)
          continue;
        if (!V.isRef())
          return err(V.Loc, "operand " + Twine(I + 1) + " of '" + N +
                                "' must be " +
                                (MayBeInt ? "a value or a natural number"
                                          : "a value"));
        if (Error E = useAs(V, false,
                            "operand " + Twine(I + 1) + " of '" + N + "'"))
          return E;
      }
      if ((N == "mul" || N == "shr" || N == "and") && !O.Operands[1].isInt())
        return err(O.Operands[1].Loc,
                   "operand 2 of '" + N + "' must be a natural number");
    }
    if (!O.Result.empty() && !Defined.insert(O.Result).second)
      return err(O.Loc, "value %" + O.Result + " is defined twice");
    StringRef Operand = O.getWord("operand");
    if (O.getAttr("operand") && Operand != "a" && Operand != "b")
      return err(O.getAttr("operand")->Val.Loc,
                 "expected operand=a or operand=b");
    if (const Attr *A = O.getAttr("shape"))
      if (A->Val.str() != "m88" && A->Val.str() != "mt88")
        return err(A->Val.Loc, "expected shape=m88 or shape=mt88");
    return Error::success();
  }

  /// The numbers tp-tile and tp-pipeline derived must agree with tp.tile.
  Error verifyDerived(const Op &O, const Op &Expected) {
    for (const Attr &E : Expected.Attrs) {
      const Attr *A = O.getAttr(E.Key);
      if (!A)
        continue; // the schema already required what must be there
      bool Same =
          A->Val.K == E.Val.K &&
          (A->Val.isInt() ? A->Val.I == E.Val.I : A->Val.str() == E.Val.str());
      if (!Same) {
        std::string Want, Got;
        raw_string_ostream WS(Want), GS(Got);
        E.Val.print(WS);
        A->Val.print(GS);
        return err(A->Val.Loc, "'" + O.Name + "' " + E.Key + " = " + GS.str() +
                                   " does not agree with the tile: expected " +
                                   WS.str());
      }
    }
    return Error::success();
  }

  Error verifyRegion(const Op &MM, const Kernel &K) {
    const Op *TileOp = MM.find("tp.tile");
    Optional<TileParams> T;
    if (TileOp) {
      if (Error E = verifySchema(*TileOp, "tp.matmul"))
        return E;
      T = getTileOp(*TileOp);
      if (auto Bad = checkTileRange(*T))
        return err(TileOp->Loc, Bad->Message);
    }
    Tile = T;
    std::vector<Op> Derived;
    if (T) {
      Derived = makeTilingOps(*Prob, *T, MM.Loc);
      Derived.push_back(makePipelineOp(*Prob, *T, MM.Loc));
    }
    if (Prob->Runtime && MM.find("tp.pipeline") && !MM.find("tp.loop"))
      return err(MM.Loc, "a run-time shape's pipeline needs its tp.loop "
                         "(the iterations are counted at run time)");
    if (Prob->Runtime && MM.find("tp.addresses") && MM.find("tp.loop") &&
        !MM.find("tp.loop")->getAttr("count"))
      return err(MM.find("tp.loop")->Loc,
                 "a run-time shape's tp.loop needs count= (the value that "
                 "holds its iterations)");
    for (const Op &O : MM.Body) {
      if (!T && O.Name != "tp.addresses" && lookupSchema(O.Name) &&
          StringRef(lookupSchema(O.Name)->Parents) == "tp.matmul")
        return err(O.Loc, "'" + O.Name + "' needs a tp.tile in the product");
      if (Error E = verifyTree(O, "tp.matmul"))
        return E;
      for (const Op &D : Derived)
        if (D.Name == O.Name && O.Name != "tp.tile")
          if (Error E = verifyDerived(O, D))
            return E;
    }
    return Error::success();
  }

  /// The stage ring's numbers: stages and steps in range, a copy's step
  /// absolute outside the loop and relative (ahead=) inside it.
  Error verifyRing(const Op &O) {
    if (!Tile || (O.Name != "tp.step" && O.Name != "tp.copy" &&
                  O.Name != "tp.products" && O.Name != "tp.ldgsts"))
      return Error::success();
    int64_t Stages = Tile->Stages;
    int64_t Steps = Prob->Runtime
                        ? ceilDiv(Prob->K, 32 * Stages) * Stages
                        : Prob->K / 32;
    if (const Attr *A = O.getAttr("stage"))
      if (A->Val.I >= Stages)
        return err(A->Val.Loc, formatv("stage = {0} is out of range: the tile "
                                       "has {1} stages",
                                       A->Val.I, Stages));
    if (const Attr *A = O.getAttr("step"))
      if (A->Val.I >= Steps)
        return err(A->Val.Loc, formatv("step = {0} is out of range: K = {1} "
                                       "has {2} steps of 32",
                                       A->Val.I, Prob->K, Steps));
    if (O.Name == "tp.copy") {
      bool Step = O.getAttr("step"), Ahead = O.getAttr("ahead");
      if (InLoop && (Step || !Ahead))
        return err(O.Loc, "a copy in the loop names its step relative to the "
                          "current one: expected ahead=, not step=");
      if (!InLoop && (Ahead || !Step))
        return err(O.Loc, "a copy outside the loop names its step: expected "
                          "step=, not ahead=");
      if (Ahead && *O.getInt("ahead") != Stages - 1)
        return err(O.getAttr("ahead")->Val.Loc,
                   formatv("copies run stages - 1 = {0} steps ahead, found {1}",
                           Stages - 1, *O.getInt("ahead")));
    }
    if (O.Name == "tp.ldgsts") {
      int64_t Chunks =
          O.getWord("operand") == "a" ? Tile->chunksA() : Tile->chunksB();
      if (*O.getInt("chunk") >= Chunks)
        return err(O.getAttr("chunk")->Val.Loc,
                   formatv("chunk = {0} is out of range: a thread copies {1} "
                           "chunks of {2}",
                           *O.getInt("chunk"), Chunks,
                           O.getWord("operand") == "a" ? "A" : "B"));
    }
    return Error::success();
  }

  /// An epilogue value op appears only with its part of the
  /// product's epilogue and names the parameter of its role.
  Error verifyEpilogueOp(const Op &O) {
    struct Rule {
      const char *Op, *Part;
      bool Present;
      int ParamOperand; ///< operand that names the role's parameter, or -1
      const char *Role;
    };
    const Rule Rules[] = {
        {"tp.ldg_beta", "scale", Prob->Scale, 1, "beta"},
        {"tp.scale", "scale", Prob->Scale, 0, "alpha"},
        {"tp.add_beta", "scale", Prob->Scale, 0, "beta"},
        {"tp.ldg_bias", "bias", Prob->Bias, 1, "bias"},
        {"tp.add_bias", "bias", Prob->Bias, -1, ""},
        {"tp.relu", "relu", Prob->Relu, -1, ""}};
    for (const Rule &R : Rules) {
      if (O.Name != R.Op)
        continue;
      if (!R.Present)
        return err(O.Loc, "'" + O.Name + "' needs the product's epilogue=[" +
                              R.Part + "]");
      if (R.ParamOperand < 0)
        return Error::success();
      const Value &V = O.Operands[R.ParamOperand];
      std::string Want;
      for (size_t I = 0; I < Roles.size(); ++I)
        if (Roles[I].Role == R.Role)
          Want = Params[I];
      if (!V.isRef() || V.str() != Want)
        return err(V.Loc, "'" + O.Name + "' reads " + R.Role +
                              ": expected the kernel's parameter %" + Want);
    }
    return Error::success();
  }

  /// The epilogue's value ops against D's type: with D in f16 or bf16
  /// every tp.stg stores a pair a tp.pack to D's type rounded before it;
  /// with D in f32 nothing is packed.
  Error verifyEpilogue(const Op &Epi) {
    StringRef D = getElementTypeName(Prob->DType);
    std::set<int64_t> Packed;
    for (const Op &O : Epi.Body) {
      int64_t Pair = O.getInt("pair").getValueOr(-1);
      if (Error E = verifyEpilogueOp(O))
        return E;
      if (O.Name == "tp.pack") {
        const Attr *Ty = O.getAttr("type");
        if (Prob->DType == ElementType::F32 || Ty->Val.str() != D)
          return err(Ty->Val.Loc,
                     "tp.pack rounds a pair to D's type, " + D +
                         (Prob->DType == ElementType::F32
                              ? std::string(" (nothing to pack)")
                              : std::string("")) +
                         ", found type=" + Ty->Val.str());
        Packed.insert(Pair);
      } else if (O.Name == "tp.stg" && Prob->DType != ElementType::F32 &&
                 !Packed.count(Pair)) {
        return err(O.Loc, formatv("tp.stg of pair {0} stores D in {1}: a "
                                  "tp.pack pair={0} type={1} must precede it",
                                  Pair, D));
      }
    }
    return Error::success();
  }

  Error verifyTree(const Op &O, StringRef Parent) {
    if (Error E = verifySchema(O, Parent))
      return E;
    if (Error E = verifyOperands(O))
      return E;
    if (Error E = verifyRing(O))
      return E;
    if (O.Name == "tp.epilogue")
      if (Error E = verifyEpilogue(O))
        return E;
    bool WasInLoop = InLoop;
    if (O.Name == "tp.loop")
      InLoop = true;
    for (const Op &C : O.Body)
      if (Error E = verifyTree(C, O.Name))
        return E;
    InLoop = WasInLoop;
    return Error::success();
  }
};

} // namespace

Error verifyModule(const Module &M, const SourceMgr &SM) {
  return Verifier(SM).verify(M);
}

} // namespace tile
} // namespace tp
