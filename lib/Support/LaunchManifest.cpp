//===- LaunchManifest.cpp - The launch description beside a cubin ---------===//
///
/// \file
/// Reader, validator and writer of launch manifests (docs/launch-manifest.md).
/// Every error names the file and the field and says what was expected and
/// what was found.
///
//===----------------------------------------------------------------------===//

#include "tp/Support/LaunchManifest.h"
#include "tp/Support/Diagnostics.h"
#include "tp/Support/ToolOutput.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace tp {

StringRef getRoleName(ParamRole R) {
  switch (R) {
  case ParamRole::C:
    return "C";
  case ParamRole::A:
    return "A";
  case ParamRole::B:
    return "B";
  case ParamRole::R:
    return "R";
  case ParamRole::M:
    return "M";
  case ParamRole::N:
    return "N";
  case ParamRole::K:
    return "K";
  case ParamRole::Alpha:
    return "alpha";
  case ParamRole::Beta:
    return "beta";
  case ParamRole::Bias:
    return "bias";
  case ParamRole::LDA:
    return "LDA";
  case ParamRole::LDB:
    return "LDB";
  case ParamRole::LDC:
    return "LDC";
  case ParamRole::StrideA:
    return "StrideA";
  case ParamRole::StrideB:
    return "StrideB";
  case ParamRole::StrideC:
    return "StrideC";
  }
  llvm_unreachable("unknown parameter role");
}

Optional<ParamRole> parseRoleName(StringRef S) {
  for (unsigned I = 0; I < NumParamRoles; ++I)
    if (S == getRoleName(ParamRole(I)))
      return ParamRole(I);
  return None;
}

unsigned getRoleSize(ParamRole R) {
  switch (R) {
  case ParamRole::C:
  case ParamRole::A:
  case ParamRole::B:
  case ParamRole::R:
  case ParamRole::Bias:
    return 8;
  default:
    return 4;
  }
}

const ManifestParam *LaunchManifest::findParam(ParamRole R) const {
  for (const ManifestParam &P : Params)
    if (P.Role == R)
      return &P;
  return nullptr;
}

uint32_t LaunchManifest::getParamBlockSize() const {
  uint32_t End = 0;
  for (const ManifestParam &P : Params)
    End = std::max<uint32_t>(End, P.Offset + P.Size);
  return End;
}

uint32_t getMaxDynamicSharedBytes(StringRef Target) {
  // CUDA C Programming Guide, "Technical Specifications per Compute
  // Capability": maximum shared memory per thread block, 163 KiB on 8.0,
  // 99 KiB on 8.6, 8.9 and 12.x and 227 KiB on 9.0 and 10.0 (the opt-in
  // limit, above the 48 KiB default).
  if (Target == "sm_80")
    return 163 * 1024;
  if (Target == "sm_86" || Target == "sm_89" || Target == "sm_120" ||
      Target == "sm_121")
    return 99 * 1024;
  if (Target == "sm_90" || Target == "sm_100")
    return 227 * 1024;
  return 0;
}

std::string getManifestPathFor(StringRef CubinPath) {
  return (CubinPath + ".json").str();
}

//===----------------------------------------------------------------------===//
// Reading
//===----------------------------------------------------------------------===//

namespace {

/// The fields of format version 1, in the order the writer prints them.
const char *const KnownFields[] = {"format_version",
                                   "kernel",
                                   "target",
                                   "grid",
                                   "block",
                                   "dynamic_shared_bytes",
                                   "static_shared_bytes",
                                   "params",
                                   "m",
                                   "n",
                                   "k",
                                   "layout_a",
                                   "layout_b",
                                   "residual",
                                   // Format version 2: the run-time shape.
                                   "lda",
                                   "ldb",
                                   "ldc",
                                   "tile",
                                   "batch",
                                   "stride_a",
                                   "stride_b",
                                   "stride_c",
                                   // Format version 2, optional: the types
                                   // (f16, f16, f32 when absent) and the
                                   // epilogue.
                                   "a_type",
                                   "b_type",
                                   "d_type",
                                   "alpha",
                                   "beta",
                                   "bias",
                                   "relu"};
/// Where version 1's fields end in KnownFields.
constexpr unsigned NumVersion1Fields = 14;

/// A short rendering of a JSON value for "found ..." in messages.
std::string describe(const json::Value &V) {
  std::string S;
  raw_string_ostream OS(S);
  OS << V;
  OS.flush();
  if (S.size() > 40)
    S = S.substr(0, 37) + "...";
  return S;
}

class Reader {
public:
  explicit Reader(StringRef File) : File(File) {}

  Error fail(const Twine &Field, const Twine &Msg) {
    return makeError(File + ": field '" + Field + "': " + Msg);
  }

  Expected<const json::Value *> get(const json::Object &O, StringRef Key,
                                    const Twine &Path) {
    const json::Value *V = O.get(Key);
    if (!V)
      return fail(Path, "missing");
    return V;
  }

  Expected<int64_t> getInt(const json::Object &O, StringRef Key,
                           const Twine &Path, int64_t Min, int64_t Max) {
    auto V = get(O, Key, Path);
    if (!V)
      return V.takeError();
    return asInt(**V, Path, Min, Max);
  }

  Expected<int64_t> asInt(const json::Value &V, const Twine &Path, int64_t Min,
                          int64_t Max) {
    Optional<int64_t> I = V.getAsInteger();
    if (!I || *I < Min || *I > Max)
      return fail(Path, "expected an integer in [" + Twine(Min) + ", " +
                            Twine(Max) + "], found " + describe(V));
    return *I;
  }

  Expected<std::string> getString(const json::Object &O, StringRef Key,
                                  const Twine &Path) {
    auto V = get(O, Key, Path);
    if (!V)
      return V.takeError();
    Optional<StringRef> S = (*V)->getAsString();
    if (!S)
      return fail(Path, "expected a string, found " + describe(**V));
    return S->str();
  }

  Expected<std::array<uint32_t, 3>> getDim3(const json::Object &O,
                                            StringRef Key) {
    auto V = get(O, Key, Key);
    if (!V)
      return V.takeError();
    const json::Array *A = (*V)->getAsArray();
    if (!A || A->size() != 3)
      return fail(Key, "expected an array of 3 integers [x, y, z], found " +
                           describe(**V));
    std::array<uint32_t, 3> D;
    for (unsigned I = 0; I < 3; ++I) {
      auto X = asInt((*A)[I], Key + "[" + Twine(I) + "]", 1, UINT32_MAX);
      if (!X)
        return X.takeError();
      D[I] = uint32_t(*X);
    }
    return D;
  }

  Expected<OperandLayout> getLayout(const json::Object &O, StringRef Key) {
    auto S = getString(O, Key, Key);
    if (!S)
      return S.takeError();
    if (Optional<OperandLayout> L = parseLayoutName(*S))
      return *L;
    return fail(Key, "expected \"rows\" or \"columns\", found \"" + *S + "\"");
  }

  Expected<ManifestParam> getParam(const json::Value &V, unsigned Index) {
    std::string Path = ("params[" + Twine(Index) + "]").str();
    const json::Object *O = V.getAsObject();
    if (!O)
      return fail(Path, "expected an object {name, role, offset, size}, "
                        "found " +
                            describe(V));
    for (const auto &KV : *O) {
      StringRef Key = KV.first;
      if (!is_contained(ArrayRef<StringRef>{"name", "role", "offset", "size"},
                        Key))
        return fail(Path + "." + Key,
                    "unknown field (expected name, role, offset, size)");
    }
    ManifestParam P;
    auto Name = getString(*O, "name", Path + ".name");
    if (!Name)
      return Name.takeError();
    P.Name = *Name;
    auto Role = getString(*O, "role", Path + ".role");
    if (!Role)
      return Role.takeError();
    Optional<ParamRole> R = parseRoleName(*Role);
    if (!R)
      return fail(Path + ".role",
                  "expected one of \"C\", \"A\", \"B\", \"R\", \"M\", \"N\", "
                  "\"K\", found \"" +
                      *Role + "\"");
    P.Role = *R;
    auto Offset = getInt(*O, "offset", Path + ".offset", 0, 4095);
    if (!Offset)
      return Offset.takeError();
    P.Offset = uint32_t(*Offset);
    auto Size = getInt(*O, "size", Path + ".size", 1, 4096);
    if (!Size)
      return Size.takeError();
    P.Size = uint32_t(*Size);
    return P;
  }

  Expected<LaunchManifest> read(const json::Value &Root) {
    const json::Object *O = Root.getAsObject();
    if (!O)
      return makeError(File + ": expected a JSON object at the top level");
    for (const auto &KV : *O)
      if (!is_contained(KnownFields, StringRef(KV.first)))
        return fail(KV.first.str(), "unknown field (format version 2 has "
                                    "none of this name)");
    LaunchManifest M;
    // The version first: a newer file should say so before any other field
    // is misread.
    auto Version = getInt(*O, "format_version", "format_version", 0, INT64_MAX);
    if (!Version)
      return Version.takeError();
    M.FormatVersion = *Version;
    if (M.FormatVersion != 1 && M.FormatVersion != 2)
      return fail("format_version",
                  "expected 1 or 2, found " + Twine(M.FormatVersion));
    if (M.FormatVersion == 1)
      for (const auto &KV : *O)
        if (!is_contained(makeArrayRef(KnownFields, NumVersion1Fields),
                          StringRef(KV.first)))
          return fail(KV.first.str(), "a field of format version 2 (found "
                                      "format_version 1)");

    auto Kernel = getString(*O, "kernel", "kernel");
    if (!Kernel)
      return Kernel.takeError();
    M.Kernel = *Kernel;
    auto Target = getString(*O, "target", "target");
    if (!Target)
      return Target.takeError();
    M.Target = *Target;
    auto Grid = getDim3(*O, "grid");
    if (!Grid)
      return Grid.takeError();
    M.Grid = *Grid;
    auto Block = getDim3(*O, "block");
    if (!Block)
      return Block.takeError();
    M.Block = *Block;
    auto Dyn = getInt(*O, "dynamic_shared_bytes", "dynamic_shared_bytes", 0,
                      UINT32_MAX);
    if (!Dyn)
      return Dyn.takeError();
    M.DynamicSharedBytes = uint32_t(*Dyn);
    auto Static =
        getInt(*O, "static_shared_bytes", "static_shared_bytes", 0, UINT32_MAX);
    if (!Static)
      return Static.takeError();
    M.StaticSharedBytes = uint32_t(*Static);

    auto ParamsV = get(*O, "params", "params");
    if (!ParamsV)
      return ParamsV.takeError();
    const json::Array *Params = (*ParamsV)->getAsArray();
    if (!Params)
      return fail("params", "expected an array of parameters, found " +
                                describe(**ParamsV));
    for (unsigned I = 0; I < Params->size(); ++I) {
      auto P = getParam((*Params)[I], I);
      if (!P)
        return P.takeError();
      M.Params.push_back(std::move(*P));
    }

    // Shapes up to 2^31 - 1: every element count then fits in 64 bits with
    // room for byte sizes.
    for (auto [Key, Dest] : {std::pair<StringRef, uint64_t *>{"m", &M.M},
                             {"n", &M.N},
                             {"k", &M.K}}) {
      auto X = getInt(*O, Key, Key, 1, INT32_MAX);
      if (!X)
        return X.takeError();
      *Dest = uint64_t(*X);
    }
    auto LA = getLayout(*O, "layout_a");
    if (!LA)
      return LA.takeError();
    M.LayoutA = *LA;
    auto LB = getLayout(*O, "layout_b");
    if (!LB)
      return LB.takeError();
    M.LayoutB = *LB;
    auto ResV = get(*O, "residual", "residual");
    if (!ResV)
      return ResV.takeError();
    Optional<bool> Res = (*ResV)->getAsBoolean();
    if (!Res)
      return fail("residual",
                  "expected true or false, found " + describe(**ResV));
    M.Residual = *Res;
    for (auto [Key, Dest] :
         {std::pair<StringRef, ElementType *>{"a_type", &M.AType},
          {"b_type", &M.BType},
          {"d_type", &M.DType}}) {
      if (!O->get(Key))
        continue;
      auto TV = getString(*O, Key, Key);
      if (!TV)
        return TV.takeError();
      Optional<ElementType> T = parseElementTypeName(*TV);
      if (!T)
        return fail(Key, "expected \"f32\", \"f16\" or \"bf16\", found \"" +
                             *TV + "\"");
      *Dest = *T;
    }
    if (M.FormatVersion == 2)
      if (Error E = readVersion2(*O, M))
        return E;

    if (Error E = readEpilogue(*O, M))
      return E;
    if (Error E = validateLaunchManifest(M, File))
      return E;
    return M;
  }

  /// The optional epilogue fields: "alpha" and "beta" (numbers, both or
  /// neither), "bias" and "relu" (booleans).
  Error readEpilogue(const json::Object &O, LaunchManifest &M) {
    const json::Value *A = O.get("alpha"), *B = O.get("beta");
    if (bool(A) != bool(B))
      return fail(A ? "beta" : "alpha",
                  "expected \"alpha\" and \"beta\" together, found only \"" +
                      Twine(A ? "alpha" : "beta") + "\"");
    if (A) {
      Optional<double> AV = A->getAsNumber(), BV = B->getAsNumber();
      if (!AV)
        return fail("alpha", "expected a number, found " + describe(*A));
      if (!BV)
        return fail("beta", "expected a number, found " + describe(*B));
      M.HasScale = true;
      M.Alpha = *AV;
      M.Beta = *BV;
    }
    for (auto [Key, Dest] : {std::pair<StringRef, bool *>{"bias", &M.Bias},
                             {"relu", &M.Relu}}) {
      const json::Value *V = O.get(Key);
      if (!V)
        continue;
      Optional<bool> X = V->getAsBoolean();
      if (!X)
        return fail(Key, "expected true or false, found " + describe(*V));
      *Dest = *X;
    }
    return Error::success();
  }

private:
  std::string File;

  /// Version 2: leading dimensions, the block tile, batch and strides.
  Error readVersion2(const json::Object &O, LaunchManifest &M) {
    for (auto [Key, Dest] : {std::pair<StringRef, uint64_t *>{"lda", &M.LdA},
                             {"ldb", &M.LdB},
                             {"ldc", &M.LdC},
                             {"batch", &M.Batch}}) {
      auto X = getInt(O, Key, Key, 1, INT32_MAX);
      if (!X)
        return X.takeError();
      *Dest = uint64_t(*X);
    }
    for (auto [Key, Dest] :
         {std::pair<StringRef, uint64_t *>{"stride_a", &M.StrideA},
          {"stride_b", &M.StrideB},
          {"stride_c", &M.StrideC}}) {
      auto X = getInt(O, Key, Key, 0, UINT32_MAX);
      if (!X)
        return X.takeError();
      *Dest = uint64_t(*X);
    }
    auto TileV = get(O, "tile", "tile");
    if (!TileV)
      return TileV.takeError();
    const json::Array *T = (*TileV)->getAsArray();
    if (!T || T->size() != 2)
      return fail("tile", "expected [BM, BN], found " + describe(**TileV));
    for (unsigned I = 0; I < 2; ++I) {
      Optional<int64_t> V = (*T)[I].getAsInteger();
      if (!V || *V < 1 || *V > 4096)
        return fail("tile[" + std::to_string(I) + "]",
                    "expected an integer in [1, 4096], found " +
                        describe((*T)[I]));
      M.Tile[I] = uint32_t(*V);
    }
    return Error::success();
  }
};

} // namespace

/// Version 2's values: each leading dimension at least its stored row's
/// extent (A rows: K, A columns: M, B rows: K, B columns: N, C: N); batches
/// of C that do not overlap.
static Error validateVersion2(const LaunchManifest &M, StringRef FileName) {
  auto Fail = [&](const Twine &Field, const Twine &Msg) {
    return makeError(FileName + ": field '" + Field + "': " + Msg);
  };
  auto Dense = [&](OperandLayout L, uint64_t RowsExtent, uint64_t ColsExtent) {
    return L == OperandLayout::Rows ? RowsExtent : ColsExtent;
  };
  struct LdRule {
    const char *Field;
    uint64_t Ld, Min;
    const char *What;
  } Rules[] = {{"lda", M.LdA, Dense(M.LayoutA, M.K, M.M),
                M.LayoutA == OperandLayout::Rows ? "K" : "M"},
               {"ldb", M.LdB, Dense(M.LayoutB, M.K, M.N),
                M.LayoutB == OperandLayout::Rows ? "K" : "N"},
               {"ldc", M.LdC, M.N, "N"}};
  for (const LdRule &R : Rules)
    if (R.Ld < R.Min)
      return Fail(R.Field, "expected at least " + Twine(R.What) + " = " +
                               Twine(R.Min) + ", found " + Twine(R.Ld));
  if (M.Batch > 1 && M.StrideC < M.M * M.LdC)
    return Fail("stride_c", "expected at least m x ldc = " +
                                Twine(M.M * M.LdC) +
                                " (batches of C must not overlap), found " +
                                Twine(M.StrideC));
  if (M.Batch > 65535)
    return Fail("batch", "expected at most 65535 (grid z), found " +
                             Twine(M.Batch));
  return Error::success();
}

Error validateLaunchManifest(const LaunchManifest &M, StringRef FileName) {
  auto Fail = [&](const Twine &Field, const Twine &Msg) {
    return makeError(FileName + ": field '" + Field + "': " + Msg);
  };
  if (M.FormatVersion != 1 && M.FormatVersion != 2)
    return Fail("format_version",
                "expected 1 or 2, found " + Twine(M.FormatVersion));
  if (M.FormatVersion == 2)
    if (Error E = validateVersion2(M, FileName))
      return E;
  if (M.FormatVersion == 1 &&
      (M.HasScale || M.Bias || M.Relu || !M.hasDefaultTypes()))
    return Fail("format_version", "the types and the epilogue are fields of "
                                  "format version 2 (found format_version 1)");
  if (M.Kernel.empty())
    return Fail("kernel", "expected a non-empty symbol name");
  if (any_of(M.Kernel, [](char C) { return isSpace(C) || C == '\0'; }))
    return Fail("kernel", "expected a symbol name without white space, "
                          "found \"" +
                              M.Kernel + "\"");
  uint32_t MaxShared = getMaxDynamicSharedBytes(M.Target);
  if (!MaxShared)
    return Fail("target", "expected \"sm_80\", \"sm_86\", \"sm_89\", "
                          "\"sm_90\", \"sm_100\", \"sm_120\" or "
                          "\"sm_121\", found \"" +
                              M.Target + "\"");

  // CUDA limits: grid y and z at most 65535; block x, y at most 1024, z at
  // most 64, and at most 1024 threads in all.
  static const char *const Axis[] = {"x", "y", "z"};
  for (unsigned I = 0; I < 3; ++I) {
    uint32_t GMax = I == 0 ? uint32_t(INT32_MAX) : 65535u;
    if (M.Grid[I] < 1 || M.Grid[I] > GMax)
      return Fail("grid", "expected " + Twine(Axis[I]) + " in [1, " +
                              Twine(GMax) + "], found " + Twine(M.Grid[I]));
    uint32_t BMax = I == 2 ? 64u : 1024u;
    if (M.Block[I] < 1 || M.Block[I] > BMax)
      return Fail("block", "expected " + Twine(Axis[I]) + " in [1, " +
                               Twine(BMax) + "], found " + Twine(M.Block[I]));
  }
  if (M.getThreadsPerBlock() > 1024)
    return Fail("block", "expected at most 1024 threads per block, found " +
                             Twine(M.getThreadsPerBlock()));
  if (uint64_t(M.DynamicSharedBytes) + M.StaticSharedBytes > MaxShared)
    return Fail(
        "dynamic_shared_bytes",
        "dynamic + static shared memory is " +
            Twine(uint64_t(M.DynamicSharedBytes) + M.StaticSharedBytes) +
            " bytes, more than the " + Twine(MaxShared) +
            " bytes a block may use on " + M.Target);

  if (M.M < 1 || M.N < 1 || M.K < 1 || M.M > INT32_MAX || M.N > INT32_MAX ||
      M.K > INT32_MAX)
    return Fail(M.M < 1 || M.M > INT32_MAX   ? "m"
                : M.N < 1 || M.N > INT32_MAX ? "n"
                                             : "k",
                "expected an integer in [1, " + Twine(INT32_MAX) + "]");

  if (!isOperandType(M.AType) || !isOperandType(M.BType))
    return Fail(isOperandType(M.AType) ? "b_type" : "a_type",
                "expected \"f16\" or \"bf16\" (the types of A and B), "
                "found \"f32\"");

  // The parameter list: in block order, aligned, not overlapping, each role
  // at most once, exactly the pointers the product needs.
  if (M.Params.empty())
    return Fail("params", "expected at least the C, A and B pointers");
  uint32_t End = 0;
  bool Seen[NumParamRoles] = {};
  for (unsigned I = 0; I < M.Params.size(); ++I) {
    const ManifestParam &P = M.Params[I];
    std::string Path = ("params[" + Twine(I) + "]").str();
    if (P.Name.empty())
      return Fail(Path + ".name", "expected a non-empty name");
    if (P.Size != getRoleSize(P.Role))
      return Fail(Path + ".size", "expected " + Twine(getRoleSize(P.Role)) +
                                      " for role " + getRoleName(P.Role) +
                                      ", found " + Twine(P.Size));
    if (P.Offset % P.Size)
      return Fail(Path + ".offset", "expected a multiple of " + Twine(P.Size) +
                                        ", found " + Twine(P.Offset));
    if (I && P.Offset < End)
      return Fail(Path + ".offset",
                  "expected parameters in block order without overlap: "
                  "offset " +
                      Twine(P.Offset) + " is before the end (" + Twine(End) +
                      ") of params[" + Twine(I - 1) + "]");
    if (uint64_t(P.Offset) + P.Size > 4096)
      return Fail(Path + ".offset",
                  "the parameter block is limited to 4096 bytes");
    End = P.Offset + P.Size;
    unsigned R = unsigned(P.Role);
    if (Seen[R])
      return Fail(Path + ".role",
                  "role " + getRoleName(P.Role) + " appears more than once");
    Seen[R] = true;
    if (P.Role == ParamRole::R && !M.Residual && !M.HasScale)
      return Fail(Path + ".role",
                  "role R needs \"residual\": true or \"alpha\"/\"beta\" "
                  "(found neither)");
    if ((P.Role == ParamRole::Alpha || P.Role == ParamRole::Beta) &&
        !M.HasScale)
      return Fail(Path + ".role", "role " + getRoleName(P.Role) +
                                      " needs the \"alpha\" and \"beta\" "
                                      "fields (found none)");
    if (P.Role == ParamRole::Bias && !M.Bias)
      return Fail(Path + ".role", "role bias needs \"bias\": true");
    if (P.Role >= ParamRole::Alpha && M.FormatVersion < 2)
      return Fail(Path + ".role", "role " + getRoleName(P.Role) +
                                      " needs format_version 2");
  }
  if (M.HasScale && M.Residual)
    return Fail("residual", "a residual kernel takes no alpha and beta "
                            "(its epilogue is C = A B + R)");
  for (auto [On, R] :
       {std::pair<bool, ParamRole>{M.HasScale, ParamRole::R},
        {M.HasScale, ParamRole::Alpha},
        {M.HasScale, ParamRole::Beta},
        {M.Bias, ParamRole::Bias}})
    if (On && !Seen[unsigned(R)])
      return Fail("params", "the epilogue needs a parameter of role " +
                                getRoleName(R) + ", found none");
  for (ParamRole R : {ParamRole::C, ParamRole::A, ParamRole::B})
    if (!Seen[unsigned(R)])
      return Fail("params", "expected a parameter of role " + getRoleName(R) +
                                ", found none");
  if (M.Residual && !Seen[unsigned(ParamRole::R)])
    return Fail("params", "\"residual\" is true but no parameter has role R");
  return Error::success();
}

/// What llvm::json hides: it keeps one of two equal keys silently (a
/// manifest with a key twice is ambiguous, so it is refused), and it reads
/// an integer beyond 64 bits as the largest one (9223372036854775807, which
/// the text does not say), so such an integer is refused as written.
/// \p Text is valid JSON already, so a key is a string followed by ':'
/// inside an object, and a number starts with '-' or a digit.
static Error checkDuplicateKeys(StringRef Text, StringRef FileName) {
  // One entry per open object ('{') or array ('['); objects keep their keys.
  SmallVector<std::pair<bool, StringSet<>>, 4> Stack;
  StringRef LastKey;
  for (size_t I = 0, E = Text.size(); I < E; ++I) {
    char C = Text[I];
    if (C == '-' || isDigit(C)) {
      size_t Begin = I;
      while (I + 1 < E && (isAlnum(Text[I + 1]) || Text[I + 1] == '.' ||
                           Text[I + 1] == '-' || Text[I + 1] == '+'))
        ++I;
      StringRef Num = Text.slice(Begin, I + 1);
      int64_t V;
      if (Num.find_first_of(".eE") == StringRef::npos &&
          Num.getAsInteger(10, V))
        return makeError(
            FileName + ": field '" + LastKey + "'" +
            (llvm::count_if(Stack, [](const auto &S) { return S.first; }) > 1
                 ? " (in a parameter)"
                 : "") +
            ": " + Num +
            " is beyond the range of a 64-bit "
            "integer");
    } else if (C == '{' || C == '[') {
      Stack.emplace_back(C == '{', StringSet<>());
    } else if ((C == '}' || C == ']') && !Stack.empty()) {
      Stack.pop_back();
    } else if (C == '"') {
      size_t Begin = ++I;
      while (I < E && Text[I] != '"')
        I += Text[I] == '\\' ? 2 : 1;
      StringRef Str = Text.slice(Begin, std::min(I, E));
      size_t Next = Text.find_first_not_of(" \t\r\n", I + 1);
      bool IsKey = Next != StringRef::npos && Text[Next] == ':';
      if (IsKey)
        LastKey = Str;
      if (IsKey && !Stack.empty() && Stack.back().first &&
          !Stack.back().second.insert(Str).second)
        return makeError(FileName + ": field '" + Str + "'" +
                         (Stack.size() > 1 ? " (in a parameter)" : "") +
                         ": appears more than once");
    }
  }
  return Error::success();
}

Expected<LaunchManifest> parseLaunchManifest(StringRef Text,
                                             StringRef FileName) {
  Expected<json::Value> Root = json::parse(Text);
  if (!Root)
    return makeError(FileName +
                     ": invalid JSON: " + toString(Root.takeError()));
  if (Error E = checkDuplicateKeys(Text, FileName))
    return E;
  return Reader(FileName).read(*Root);
}

Expected<LaunchManifest> readLaunchManifest(StringRef Path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf =
      MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buf)
    return makeError("cannot read launch manifest '" + Path +
                     "': " + Buf.getError().message());
  return parseLaunchManifest((*Buf)->getBuffer(), Path);
}

//===----------------------------------------------------------------------===//
// Writing
//===----------------------------------------------------------------------===//

std::string printLaunchManifest(const LaunchManifest &M) {
  std::string S;
  raw_string_ostream OS(S);
  // Buffered: the ~270 small writes go to the stream's buffer, and the
  // string gets one append at the flush (unbuffered, each is a call into
  // std::string).
  OS.SetBuffered();
  auto Str = [&](StringRef X) { OS << json::Value(X.str()); };
  auto Dim = [&](const std::array<uint32_t, 3> &D) {
    OS << "[" << D[0] << ", " << D[1] << ", " << D[2] << "]";
  };
  OS << "{\n";
  OS << "  \"format_version\": " << M.FormatVersion << ",\n";
  OS << "  \"kernel\": ";
  Str(M.Kernel);
  OS << ",\n  \"target\": ";
  Str(M.Target);
  OS << ",\n  \"grid\": ";
  Dim(M.Grid);
  OS << ",\n  \"block\": ";
  Dim(M.Block);
  OS << ",\n  \"dynamic_shared_bytes\": " << M.DynamicSharedBytes << ",\n";
  OS << "  \"static_shared_bytes\": " << M.StaticSharedBytes << ",\n";
  OS << "  \"params\": [";
  for (unsigned I = 0; I < M.Params.size(); ++I) {
    const ManifestParam &P = M.Params[I];
    OS << (I ? ",\n" : "\n") << "    {\"name\": ";
    Str(P.Name);
    OS << ", \"role\": ";
    Str(getRoleName(P.Role));
    OS << ", \"offset\": " << P.Offset << ", \"size\": " << P.Size << "}";
  }
  OS << (M.Params.empty() ? "],\n" : "\n  ],\n");
  OS << "  \"m\": " << M.M << ",\n";
  OS << "  \"n\": " << M.N << ",\n";
  OS << "  \"k\": " << M.K << ",\n";
  OS << "  \"layout_a\": ";
  Str(getLayoutName(M.LayoutA));
  OS << ",\n  \"layout_b\": ";
  Str(getLayoutName(M.LayoutB));
  OS << ",\n  \"residual\": " << (M.Residual ? "true" : "false");
  if (M.FormatVersion >= 2) {
    OS << ",\n  \"lda\": " << M.LdA << ",\n  \"ldb\": " << M.LdB
       << ",\n  \"ldc\": " << M.LdC << ",\n  \"tile\": [" << M.Tile[0] << ", "
       << M.Tile[1] << "],\n  \"batch\": " << M.Batch
       << ",\n  \"stride_a\": " << M.StrideA << ",\n  \"stride_b\": "
       << M.StrideB << ",\n  \"stride_c\": " << M.StrideC;
  }
  // The epilogue and the types (format version 2) only when there is one /
  // they are not f16, f16, f32.
  if (M.HasScale)
    OS << ",\n  \"alpha\": " << json::Value(M.Alpha) << ",\n  \"beta\": "
       << json::Value(M.Beta);
  if (M.Bias)
    OS << ",\n  \"bias\": true";
  if (M.Relu)
    OS << ",\n  \"relu\": true";
  if (!M.hasDefaultTypes()) {
    OS << ",\n  \"a_type\": ";
    Str(getElementTypeName(M.AType));
    OS << ",\n  \"b_type\": ";
    Str(getElementTypeName(M.BType));
    OS << ",\n  \"d_type\": ";
    Str(getElementTypeName(M.DType));
  }
  OS << "\n}\n";
  OS.flush();
  return S;
}

Error writeLaunchManifest(const LaunchManifest &M, StringRef Path) {
  if (Error E = validateLaunchManifest(M, Path))
    return E;
  return writeOutput(Path, /*Binary=*/false, [&](raw_ostream &OS) {
    OS << printLaunchManifest(M);
    return Error::success();
  });
}

} // namespace tp
