//===- KernelSpec.cpp - The kernel the command-line options describe ------===//
///
/// \file
/// describeKernel(): option values -> tile IR text, with every value
/// checked first (format, then the admission rules of TileModel.h, the
/// ones tp-admit and tp-tile apply), so that each error names the option
/// and the rule.  The IR it returns is then admitted by the pipeline.
///
//===----------------------------------------------------------------------===//

#include "tp/Driver/Driver.h"
#include "tp/Support/Diagnostics.h"
#include "tp/TileIR/TileOps.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace tp {
namespace driver {

namespace {

using tile::TileParams;

/// The default example: 4096^3, the large tile.
constexpr int64_t DefaultExtent = 4096;

Expected<tile::Layout> parseLayoutOption(const Optional<std::string> &V,
                                         const char *Opt,
                                         tile::Layout Default) {
  if (!V)
    return Default;
  if (V->empty())
    return makeError(Twine(Opt) + "=: expected rows or columns, found an "
                                  "empty value");
  Optional<OperandLayout> L = parseLayoutName(*V);
  if (!L)
    return makeError(Twine(Opt) + ": expected rows or columns, found '" + *V +
                     "'");
  return *L;
}

Error parseShape(const Optional<std::string> &Gemm, tile::Problem &P) {
  P.M = P.N = P.K = DefaultExtent;
  if (!Gemm)
    return Error::success();
  if (Gemm->empty())
    return makeError("--gemm=: expected MxNxK (three decimal integers), "
                     "found an empty value");
  SmallVector<StringRef, 3> Parts;
  StringRef(*Gemm).split(Parts, 'x');
  int64_t *Extents[] = {&P.M, &P.N, &P.K};
  bool Ok = Parts.size() == 3;
  for (unsigned I = 0; Ok && I < 3; ++I)
    Ok = !Parts[I].empty() && llvm::all_of(Parts[I], isDigit);
  if (!Ok)
    return makeError("--gemm: expected MxNxK (three decimal integers), "
                     "found '" +
                     *Gemm + "'");
  // Digits, so only the range is left to check (a value too large for
  // getAsInteger is out of range too).
  static const char *const Names[] = {"M", "N", "K"};
  for (unsigned I = 0; I < 3; ++I)
    if (Parts[I].getAsInteger(10, *Extents[I]) || *Extents[I] > INT32_MAX)
      return makeError("--gemm=" + *Gemm + ": " + Names[I] + " = " + Parts[I] +
                       " is out of range (at most " + Twine(INT32_MAX) + ")");
  return Error::success();
}

/// The value of --a-type/--b-type/--d-type (\p Opt), \p Default when not
/// given; \p Allowed lists the spellings the option takes.
Expected<ElementType> parseTypeOption(const Optional<std::string> &V,
                                      const char *Opt, ElementType Default,
                                      bool OperandOnly) {
  if (!V)
    return Default;
  Optional<ElementType> T = parseElementTypeName(*V);
  const char *Allowed = OperandOnly ? "f16 or bf16" : "f32, f16 or bf16";
  if (!T || (OperandOnly && !isOperandType(*T)))
    return makeError(Twine(Opt) + "=" + *V + ": expected " + Allowed +
                     (V->empty() ? ", found an empty value" : ""));
  return *T;
}

/// The element types the options give, checked against the type rules
/// (tile::checkTypes), the error naming the options.
Error parseTypes(const KernelSpec &Spec, tile::Problem &P) {
  Expected<ElementType> A =
      parseTypeOption(Spec.AType, "--a-type", ElementType::F16, true);
  if (!A)
    return A.takeError();
  Expected<ElementType> B =
      parseTypeOption(Spec.BType, "--b-type", ElementType::F16, true);
  if (!B)
    return B.takeError();
  Expected<ElementType> D =
      parseTypeOption(Spec.DType, "--d-type", ElementType::F32, false);
  if (!D)
    return D.takeError();
  P.AType = *A;
  P.BType = *B;
  P.DType = *D;
  if (Optional<tile::Violation> V = tile::checkTypes(P))
    return makeError(formatv("--a-type={0} --b-type={1} --d-type={2}{3}: {4}",
                             getElementTypeName(P.AType),
                             getElementTypeName(P.BType),
                             getElementTypeName(P.DType),
                             P.Residual ? " --residual" : "", V->Message)
                         .str());
  return Error::success();
}

std::string tileLabel(const TileParams &T) {
  StringRef Name = tile::tileName(T);
  return Name.empty() ? T.str() : Name.str();
}

/// The admission check of \p P with the tile the options give (or the one
/// tp-tile would choose); errors name the option and the rule.
Error checkAdmission(const KernelSpec &Spec, const tile::Problem &P,
                     Optional<TileParams> T) {
  std::string Gemm =
      "--gemm=" + Spec.Gemm.getValueOr(formatv("{0}x{0}x{0}", DefaultExtent));
  tile::TargetLimits L = tile::getTargetLimits(Spec.Target);
  if (!T) {
    T = tile::chooseTile(P, L.SharedCapacity, L.CardSMs, L);
    if (!T) {
      const tile::NamedTile &Smallest = tile::namedTiles().back();
      tile::Violation V =
          *tile::checkAdmission(P, Smallest.Params, L.SharedCapacity, L);
      return makeError(Gemm + ": no tile admits this product; the smallest, " +
                       Smallest.Name + ": " + V.Message);
    }
  }
  Optional<tile::Violation> V =
      tile::checkAdmission(P, *T, L.SharedCapacity, L);
  if (!V)
    return Error::success();
  if (V->Field == "tile")
    return makeError("--tile=" + Spec.Tile.getValueOr(tileLabel(*T)) + ": " +
                     V->Message);
  return makeError(Gemm + ": " + V->Message + " (tile " + tileLabel(*T) + ")");
}

} // namespace

Expected<std::string> normalizeTileOption(StringRef Value) {
  if (Value.empty())
    return makeError("--tile=: expected large, small, 128x64, 256x128 or "
                     "WM,WN,MT,NT,S, found an empty value");
  Expected<TileParams> T = tile::parseTileSpec(Value);
  if (!T)
    return makeError("--tile=" + Value + ": " + toString(T.takeError()));
  if (Optional<tile::Violation> V = tile::checkTileRange(*T))
    return makeError("--tile=" + Value + ": " + V->Message);
  return tileLabel(*T);
}

namespace {

/// A kernel symbol: [A-Za-z_][A-Za-z0-9_]*, which the tile IR, the cubin's
/// symbol table and the driver API all take as it is.
Error checkKernelName(StringRef Name) {
  bool Ok = !Name.empty() && (isAlpha(Name[0]) || Name[0] == '_');
  for (char C : Name)
    Ok &= isAlnum(C) || C == '_';
  if (!Ok)
    return makeError("--kernel-name=" + Name +
                     ": expected a symbol of letters, digits and '_' that "
                     "does not start with a digit");
  return Error::success();
}

} // namespace

Expected<std::string> describeKernel(const KernelSpec &Spec) {
  if (Error E = checkKernelName(Spec.Name))
    return E;
  if (!tile::isTileTarget(Spec.Target))
    return makeError("-mcpu=" + sass::getTargetName(Spec.Target) +
                     ": a GEMM kernel is built for " +
                     sass::getGemmTargetList());
  tile::Problem P;
  if (Error E = parseShape(Spec.Gemm, P))
    return E;
  Expected<tile::Layout> A =
      parseLayoutOption(Spec.LayoutA, "--layout-a", tile::Layout::Rows);
  if (!A)
    return A.takeError();
  Expected<tile::Layout> B =
      parseLayoutOption(Spec.LayoutB, "--layout-b", tile::Layout::Columns);
  if (!B)
    return B.takeError();
  P.A = *A;
  P.B = *B;
  P.Residual = Spec.Residual;
  P.Scale = Spec.Scale;
  P.Bias = Spec.Bias;
  P.Relu = Spec.Relu;
  if (Spec.Residual && Spec.Scale)
    return makeError("--residual is the kernel C = A B + R (alpha = beta = "
                     "1, built in); it cannot be combined with --alpha or "
                     "--beta (give --alpha=1 --beta=1 for the general form)");
  if (Error E = parseTypes(Spec, P))
    return E;
  P.Runtime = !Spec.FixedShape;
  if (Spec.Batch) {
    if (Spec.FixedShape)
      return makeError("--batch=" + Twine(*Spec.Batch) +
                       ": strided batches need a run-time shape (the "
                       "default), not --fixed-shape");
    if (*Spec.Batch < 1 || *Spec.Batch > 65535)
      return makeError("--batch=" + Twine(*Spec.Batch) +
                       ": expected 1 to 65535 products (the grid's z)");
    P.Strided = true;
    P.Batch = *Spec.Batch;
  }
  // The default example uses the large tile; otherwise tp-tile chooses
  // unless --tile says (tp-tile's option).
  Optional<TileParams> T;
  if (Spec.Tile) {
    Expected<std::string> Norm = normalizeTileOption(*Spec.Tile);
    if (!Norm)
      return Norm.takeError();
    T = cantFail(tile::parseTileSpec(*Norm));
  }
  bool DefaultTile = !Spec.Tile && !Spec.Gemm;
  if (DefaultTile)
    T = tile::namedTiles()[1].Params; // large
  if (Error E = checkAdmission(Spec, P, T))
    return E;

  std::string S;
  raw_string_ostream OS(S);
  std::string Params, Operands;
  for (const tile::ProductParam &PP : tile::getProductParams(P)) {
    std::string Name = PP.Role.str();
    Params += (Params.empty() ? "%" : ", %") + Name + ": " +
              (PP.Scalar ? getElementTypeName(PP.Elem).str()
                         : ("ptr<" + getElementTypeName(PP.Elem) + ">").str());
    Operands += (Operands.empty() ? "%" : ", %") + Name;
  }
  if (P.Runtime)
    Params += ", %M: i32, %N: i32, %K: i32, %lda: i32, %ldb: i32, %ldc: i32";
  if (P.Strided)
    Params += ", %sa: i32, %sb: i32, %sc: i32";
  OS << "tp.kernel @" << Spec.Name << "(" << Params
     << ") target=" << sass::getTargetName(Spec.Target) << " {\n"
     << "  tp.matmul " << Operands << " m=" << P.M << " n=" << P.N
     << " k=" << P.K << " a=" << getLayoutName(P.A)
     << " b=" << getLayoutName(P.B);
  if (P.Scale || P.Bias || P.Relu)
    OS << " epilogue=[" << P.getEpilogueList(", ") << "]";
  if (DefaultTile)
    OS << " tile=large";
  if (P.Runtime)
    OS << " shape=[%M, %N, %K, %lda, %ldb, %ldc]";
  if (P.Strided)
    OS << " strides=[%sa, %sb, %sc] batch=" << P.Batch;
  OS << " : " << tile::printMatmulTypes(P) << "\n}\n";
  return OS.str();
}

} // namespace driver
} // namespace tp
