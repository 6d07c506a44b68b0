//===- LaunchManifestTest.cpp - Reader, validator and writer tests --------===//
///
/// \file
/// The manifest round trip (print -> parse -> print is byte-identical), the
/// exact text the writer produces, and one test per validation rule: each
/// starts from a valid manifest, breaks one thing and checks the message
/// names the file, the field and what was expected.
///
//===----------------------------------------------------------------------===//

#include "tp/Support/LaunchManifest.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

using namespace llvm;
using namespace tp;

namespace {

LaunchManifest makeResidualManifest() {
  LaunchManifest M;
  M.Kernel = "tp_gemm_128x128_rc";
  M.Target = "sm_86";
  M.Grid = {32, 16, 1};
  M.Block = {256, 1, 1};
  M.DynamicSharedBytes = 65536;
  M.StaticSharedBytes = 0;
  M.Params = {{"C", ParamRole::C, 0, 8},
              {"A", ParamRole::A, 8, 8},
              {"B", ParamRole::B, 16, 8},
              {"R", ParamRole::R, 24, 8}};
  M.M = 2048;
  M.N = 4096;
  M.K = 256;
  M.LayoutA = OperandLayout::Columns;
  M.LayoutB = OperandLayout::Rows;
  M.Residual = true;
  return M;
}

const char *const ExpectedText = R"({
  "format_version": 1,
  "kernel": "tp_gemm_128x128_rc",
  "target": "sm_86",
  "grid": [32, 16, 1],
  "block": [256, 1, 1],
  "dynamic_shared_bytes": 65536,
  "static_shared_bytes": 0,
  "params": [
    {"name": "C", "role": "C", "offset": 0, "size": 8},
    {"name": "A", "role": "A", "offset": 8, "size": 8},
    {"name": "B", "role": "B", "offset": 16, "size": 8},
    {"name": "R", "role": "R", "offset": 24, "size": 8}
  ],
  "m": 2048,
  "n": 4096,
  "k": 256,
  "layout_a": "columns",
  "layout_b": "rows",
  "residual": true
}
)";

std::string errorOf(StringRef Text) {
  Expected<LaunchManifest> M = parseLaunchManifest(Text, "x.cubin.json");
  if (M)
    return "<no error>";
  return toString(M.takeError());
}

/// The valid text with the first occurrence of \p From replaced by \p To.
std::string mutate(StringRef From, StringRef To) {
  std::string S = ExpectedText;
  size_t Pos = S.find(From.str());
  EXPECT_NE(Pos, std::string::npos)
      << "bad test: '" << From.str() << "' not in the manifest";
  if (Pos != std::string::npos)
    S.replace(Pos, From.size(), To.str());
  return S;
}

TEST(LaunchManifest, PrintsFixedOrder) {
  EXPECT_EQ(printLaunchManifest(makeResidualManifest()), ExpectedText);
}

TEST(LaunchManifest, RoundTrip) {
  LaunchManifest M = makeResidualManifest();
  std::string Text = printLaunchManifest(M);
  Expected<LaunchManifest> P = parseLaunchManifest(Text, "x.json");
  ASSERT_TRUE(bool(P)) << toString(P.takeError());
  EXPECT_EQ(P->Kernel, M.Kernel);
  EXPECT_EQ(P->Target, M.Target);
  EXPECT_EQ(P->Grid, M.Grid);
  EXPECT_EQ(P->Block, M.Block);
  EXPECT_EQ(P->DynamicSharedBytes, M.DynamicSharedBytes);
  EXPECT_EQ(P->StaticSharedBytes, M.StaticSharedBytes);
  ASSERT_EQ(P->Params.size(), 4u);
  EXPECT_EQ(P->Params[3].Role, ParamRole::R);
  EXPECT_EQ(P->Params[3].Offset, 24u);
  EXPECT_EQ(P->M, 2048u);
  EXPECT_EQ(P->N, 4096u);
  EXPECT_EQ(P->K, 256u);
  EXPECT_EQ(P->LayoutA, OperandLayout::Columns);
  EXPECT_EQ(P->LayoutB, OperandLayout::Rows);
  EXPECT_TRUE(P->Residual);
  EXPECT_EQ(printLaunchManifest(*P), Text);
  EXPECT_EQ(P->getParamBlockSize(), 32u);
  EXPECT_EQ(P->findParam(ParamRole::B)->Offset, 16u);
  EXPECT_EQ(P->findParam(ParamRole::K), nullptr);
}

TEST(LaunchManifest, Version2RoundTripAndRules) {
  // A run-time-shape kernel with strided batches: C, A, B, then M, N, K,
  // LDA, LDB, LDC, StrideA, StrideB, StrideC (4 bytes each).
  LaunchManifest M = makeResidualManifest();
  M.FormatVersion = 2;
  M.Residual = false;
  M.Params = {{"C", ParamRole::C, 0, 8}, {"A", ParamRole::A, 8, 8},
              {"B", ParamRole::B, 16, 8}};
  ParamRole Roles[] = {ParamRole::M,       ParamRole::N,       ParamRole::K,
                       ParamRole::LDA,     ParamRole::LDB,     ParamRole::LDC,
                       ParamRole::StrideA, ParamRole::StrideB,
                       ParamRole::StrideC};
  for (unsigned I = 0; I < 9; ++I)
    M.Params.push_back({std::string(getRoleName(Roles[I])), Roles[I],
                        24 + 4 * I, 4});
  M.LdA = 2048; // A columns: K x M, pitch >= M
  M.LdB = 4096; // B rows: K x N
  M.LdC = 4096;
  M.Tile = {128, 128};
  M.Batch = 3;
  M.StrideA = 256 * 2048;
  M.StrideB = 256 * 4096;
  M.StrideC = 2048 * 4096;
  M.Grid[2] = 3;
  std::string Text = printLaunchManifest(M);
  Expected<LaunchManifest> P = parseLaunchManifest(Text, "v2.json");
  ASSERT_TRUE(bool(P)) << toString(P.takeError());
  EXPECT_EQ(printLaunchManifest(*P), Text);
  EXPECT_EQ(P->Batch, 3u);
  EXPECT_EQ(P->Tile[1], 128u);
  EXPECT_EQ(P->getParamBlockSize(), 60u);
  // Each rule names the field and the numbers.
  auto Bad = [&](LaunchManifest X) {
    Error E = validateLaunchManifest(X, "v2.json");
    return E ? toString(std::move(E)) : std::string();
  };
  LaunchManifest X = M;
  X.LdA = 1000;
  EXPECT_EQ(Bad(X), "v2.json: field 'lda': expected at least M = 2048, "
                    "found 1000");
  X = M;
  X.StrideC = 5;
  EXPECT_NE(Bad(X).find("field 'stride_c': expected at least m x ldc = "
                        "8388608 (batches of C must not overlap), found 5"),
            std::string::npos);
  X = M;
  X.FormatVersion = 1;
  EXPECT_NE(Bad(X).find("role LDA needs format_version 2"), std::string::npos)
      << Bad(X);
}

TEST(LaunchManifest, ShapeParametersForHandWrittenManifests) {
  // The reference PTX GEMM: (A, B, C, M, N, K) with 4-byte shape values.
  LaunchManifest M = makeResidualManifest();
  M.Residual = false;
  M.Target = "sm_90";
  M.Params = {{"a", ParamRole::A, 0, 8},  {"b", ParamRole::B, 8, 8},
              {"c", ParamRole::C, 16, 8}, {"m", ParamRole::M, 24, 4},
              {"n", ParamRole::N, 28, 4}, {"k", ParamRole::K, 32, 4}};
  std::string Text = printLaunchManifest(M);
  Expected<LaunchManifest> P = parseLaunchManifest(Text, "ref.json");
  ASSERT_TRUE(bool(P)) << toString(P.takeError());
  EXPECT_EQ(P->getParamBlockSize(), 36u);
  EXPECT_EQ(printLaunchManifest(*P), Text);
}

TEST(LaunchManifest, WriteAndRead) {
  SmallString<128> Dir;
  ASSERT_FALSE(sys::fs::createUniqueDirectory("tp-manifest", Dir));
  SmallString<128> Path(Dir);
  sys::path::append(Path, "gemm.cubin.json");
  EXPECT_EQ(getManifestPathFor((Dir + "/gemm.cubin").str()), Path.str());
  ASSERT_FALSE(bool(writeLaunchManifest(makeResidualManifest(), Path)));
  Expected<LaunchManifest> P = readLaunchManifest(Path);
  ASSERT_TRUE(bool(P)) << toString(P.takeError());
  EXPECT_EQ(printLaunchManifest(*P), ExpectedText);

  // An invalid manifest is refused by the writer and leaves no file.
  LaunchManifest Bad = makeResidualManifest();
  Bad.Target = "sm_70";
  SmallString<128> BadPath(Dir);
  sys::path::append(BadPath, "bad.json");
  Error E = writeLaunchManifest(Bad, BadPath);
  ASSERT_TRUE(bool(E));
  EXPECT_NE(toString(std::move(E)).find("field 'target'"), std::string::npos);
  EXPECT_FALSE(sys::fs::exists(BadPath));

  SmallString<128> Missing(Dir);
  sys::path::append(Missing, "missing.json");
  Expected<LaunchManifest> NoFile = readLaunchManifest(Missing);
  ASSERT_FALSE(bool(NoFile));
  std::string Msg = toString(NoFile.takeError());
  EXPECT_NE(Msg.find("cannot read launch manifest"), std::string::npos);
  EXPECT_NE(Msg.find("missing.json"), std::string::npos);
  sys::fs::remove(Path);
  sys::fs::remove(Dir);
}

struct BadCase {
  const char *From, *To, *Expected;
};

TEST(LaunchManifest, EveryValidationError) {
  const BadCase Cases[] = {
      // Syntax and shape of the document.
      {"\"residual\": true\n}", "\"residual\": true,\n}", "invalid JSON"},
      {"\"format_version\": 1", "\"format_version\": 3",
       "field 'format_version': expected 1 or 2, found 3"},
      {"\"format_version\": 1", "\"format_version\": 2",
       "field 'lda': missing"},
      {"\"m\": 2048", "\"m\": 2048, \"lda\": 8",
       "field 'lda': a field of format version 2 (found format_version 1)"},
      {"\"role\": \"R\"", "\"role\": \"LDA\"",
       "field 'params[3].size': expected 4 for role LDA"},
      {"\"format_version\": 1,", "", "field 'format_version': missing"},
      {"\"kernel\": \"tp_gemm_128x128_rc\"", "\"kernel\": 7",
       "field 'kernel': expected a string, found 7"},
      {"\"kernel\": \"tp_gemm_128x128_rc\"", "\"kernel\": \"\"",
       "field 'kernel': expected a non-empty symbol name"},
      {"\"kernel\": \"tp_gemm_128x128_rc\"", "\"kernel\": \"a b\"",
       "field 'kernel': expected a symbol name without white space"},
      {"\"target\": \"sm_86\"", "\"target\": \"sm_75\"",
       "field 'target': expected \"sm_80\", \"sm_86\", \"sm_89\", "
       "\"sm_90\", \"sm_100\", \"sm_120\" or \"sm_121\", found "
       "\"sm_75\""},
      {"\"grid\": [32, 16, 1]", "\"grid\": [32, 16]",
       "field 'grid': expected an array of 3 integers"},
      {"\"grid\": [32, 16, 1]", "\"grid\": [32, 0, 1]",
       "field 'grid[1]': expected an integer in [1, 4294967295], found 0"},
      {"\"grid\": [32, 16, 1]", "\"grid\": [32, 70000, 1]",
       "field 'grid': expected y in [1, 65535], found 70000"},
      {"\"block\": [256, 1, 1]", "\"block\": [256, 1.5, 1]",
       "field 'block[1]': expected an integer"},
      {"\"block\": [256, 1, 1]", "\"block\": [2048, 1, 1]",
       "field 'block': expected x in [1, 1024], found 2048"},
      {"\"block\": [256, 1, 1]", "\"block\": [256, 8, 1]",
       "field 'block': expected at most 1024 threads per block, found 2048"},
      {"\"dynamic_shared_bytes\": 65536", "\"dynamic_shared_bytes\": -1",
       "field 'dynamic_shared_bytes': expected an integer in [0, "},
      {"\"dynamic_shared_bytes\": 65536", "\"dynamic_shared_bytes\": 101377",
       "dynamic + static shared memory is 101377 bytes, more than the 101376 "
       "bytes a block may use on sm_86"},
      {"\"static_shared_bytes\": 0", "\"static_shared_bytes\": \"0\"",
       "field 'static_shared_bytes': expected an integer"},
      {"\"params\": [", "\"params\": {}, \"x\": [", "field 'x': unknown field"},
      {"\"m\": 2048", "\"m\": 0",
       "field 'm': expected an integer in [1, 2147483647], found 0"},
      {"\"n\": 4096", "\"n\": 4294967296", "field 'n': expected an integer"},
      {"\"k\": 256,", "", "field 'k': missing"},
      {"\"layout_a\": \"columns\"", "\"layout_a\": \"cols\"",
       "field 'layout_a': expected \"rows\" or \"columns\", found \"cols\""},
      {"\"layout_b\": \"rows\"", "\"layout_b\": true",
       "field 'layout_b': expected a string"},
      {"\"residual\": true", "\"residual\": 1",
       "field 'residual': expected true or false, found 1"},
      {"\"residual\": true", "\"residual\": false",
       "field 'params[3].role': role R needs \"residual\": true"},
      // Parameters.
      {"{\"name\": \"C\", \"role\": \"C\", \"offset\": 0, \"size\": 8}", "[]",
       "field 'params[0]': expected an object"},
      {"\"role\": \"A\"", "\"role\": \"X\"",
       "field 'params[1].role': expected one of"},
      {"\"role\": \"A\"", "\"role\": \"C\"",
       "field 'params[1].role': role C appears more than once"},
      {"\"name\": \"B\"", "\"name\": \"\"",
       "field 'params[2].name': expected a non-empty name"},
      {"\"name\": \"B\", ", "", "field 'params[2].name': missing"},
      {"\"offset\": 16, \"size\": 8}", "\"offset\": 16, \"size\": 4}",
       "field 'params[2].size': expected 8 for role B, found 4"},
      {"\"offset\": 16", "\"offset\": 12",
       "field 'params[2].offset': expected a multiple of 8, found 12"},
      {"\"offset\": 16", "\"offset\": 0",
       "field 'params[2].offset': expected parameters in block order without "
       "overlap"},
      {"\"offset\": 24", "\"offset\": 4096",
       "field 'params[3].offset': expected an integer in [0, 4095]"},
      {"\"offset\": 24", "\"offset\": 4092",
       "field 'params[3].offset': expected a multiple of 8"},
      {"\"offset\": 24, \"size\": 8", "\"offset\": 24, \"size\": 8, \"x\": 1",
       "field 'params[3].x': unknown field"},
      {",\n    {\"name\": \"R\", \"role\": \"R\", \"offset\": 24, \"size\": 8}",
       "", "field 'params': \"residual\" is true but no parameter has role R"},
      {"{\"name\": \"A\", \"role\": \"A\", \"offset\": 8, \"size\": 8},", "",
       "field 'params': expected a parameter of role A, found none"},
      {"\"params\": [", "\"params\": 3, \"y\": [", "field 'y': unknown field"},
      // A key twice (llvm::json would keep one of them silently).
      {"\"m\": 2048", "\"m\": 2048, \"m\": 1024",
       "field 'm': appears more than once"},
      {"\"role\": \"A\"", "\"role\": \"A\", \"role\": \"B\"",
       "field 'role' (in a parameter): appears more than once"},
  };
  for (const BadCase &C : Cases) {
    std::string Msg = errorOf(mutate(C.From, C.To));
    EXPECT_NE(Msg.find(C.Expected), std::string::npos)
        << "mutation '" << C.From << "' -> '" << C.To
        << "'\n  expected: " << C.Expected << "\n  got:      " << Msg;
    EXPECT_EQ(Msg.rfind("x.cubin.json", 0), 0u) << Msg;
  }
  // Not an object at all; empty parameter list; params of the wrong type.
  EXPECT_NE(errorOf("[1, 2]").find("expected a JSON object at the top level"),
            std::string::npos);
  EXPECT_NE(errorOf("").find("invalid JSON"), std::string::npos);
  std::string Empty = ExpectedText;
  size_t B = Empty.find("\"params\": [") + 11;
  size_t E = Empty.find("]", B);
  Empty.erase(B, E - B);
  EXPECT_NE(errorOf(Empty).find("field 'params': expected at least the C, A "
                                "and B pointers"),
            std::string::npos)
      << errorOf(Empty);
}

// Issue 16's optional fields: printed only when used, read back to the
// same manifest, and checked against the parameters.
TEST(LaunchManifest, TypesAndEpilogueRoundTrip) {
  LaunchManifest M = makeResidualManifest();
  M.Residual = false;
  M.AType = M.BType = ElementType::BF16;
  M.HasScale = true;
  M.Alpha = 0.5;
  M.Beta = -2;
  M.Bias = M.Relu = true;
  M.Params.push_back({"alpha", ParamRole::Alpha, 32, 4});
  M.Params.push_back({"beta", ParamRole::Beta, 36, 4});
  M.Params.push_back({"bias", ParamRole::Bias, 40, 8});
  // The types and the epilogue are fields of format version 2.
  EXPECT_EQ(toString(validateLaunchManifest(M, "m.json")),
            "m.json: field 'format_version': the types and the epilogue are "
            "fields of format version 2 (found format_version 1)");
  M.FormatVersion = 2;
  M.LdA = M.LdB = M.LdC = 4096;
  M.Tile = {64, 64};
  ASSERT_FALSE(errorToBool(validateLaunchManifest(M, "m.json")));
  std::string Text = printLaunchManifest(M);
  EXPECT_NE(Text.find("\"stride_c\": 0,\n  \"alpha\": 0.5,\n  \"beta\": "
                      "-2,\n  \"bias\": true,\n  \"relu\": true,\n  "
                      "\"a_type\": \"bf16\",\n  \"b_type\": \"bf16\",\n  "
                      "\"d_type\": \"f32\"\n}\n"),
            std::string::npos)
      << Text;
  Expected<LaunchManifest> P = parseLaunchManifest(Text, "m.json");
  ASSERT_TRUE(bool(P)) << toString(P.takeError());
  EXPECT_EQ(printLaunchManifest(*P), Text);
  EXPECT_EQ(P->AType, ElementType::BF16);
  EXPECT_EQ(P->Alpha, 0.5);
  EXPECT_EQ(P->Beta, -2);
  EXPECT_TRUE(P->Bias && P->Relu && P->HasScale);
  // The seed's manifest prints none of them.
  EXPECT_EQ(printLaunchManifest(makeResidualManifest()).find("_type"),
            std::string::npos);

  LaunchManifest Bad = M;
  Bad.Bias = false;
  EXPECT_EQ(toString(validateLaunchManifest(Bad, "m.json")),
            "m.json: field 'params[6].role': role bias needs \"bias\": true");
  Bad = M;
  Bad.Params.pop_back();
  EXPECT_EQ(toString(validateLaunchManifest(Bad, "m.json")),
            "m.json: field 'params': the epilogue needs a parameter of role "
            "bias, found none");
  Bad = M;
  Bad.AType = ElementType::F32;
  EXPECT_EQ(toString(validateLaunchManifest(Bad, "m.json")),
            "m.json: field 'a_type': expected \"f16\" or \"bf16\" (the types "
            "of A and B), found \"f32\"");
  Expected<LaunchManifest> T = parseLaunchManifest(
      StringRef(Text).str().replace(Text.find("\"f32\""), 5, "\"f64\""),
      "m.json");
  ASSERT_FALSE(bool(T));
  EXPECT_EQ(toString(T.takeError()),
            "m.json: field 'd_type': expected \"f32\", \"f16\" or \"bf16\", "
            "found \"f64\"");
}

TEST(LaunchManifest, DuplicateKeyCheckReadsOnlyKeys) {
  // Values equal to a key, in objects and arrays, and escaped quotes inside
  // strings, are not duplicate keys.
  std::string S =
      mutate("\"kernel\": \"tp_gemm_128x128_rc\"", "\"kernel\": \"m\"");
  const std::string From = "{\"name\": \"C\"";
  S.replace(S.find(From), From.size(), "{\"name\": \"m\"");
  Expected<LaunchManifest> M = parseLaunchManifest(S, "x.json");
  ASSERT_TRUE(bool(M)) << toString(M.takeError());
  EXPECT_EQ(M->Kernel, "m");
  EXPECT_EQ(M->Params[0].Name, "m");
  std::string T = mutate("\"name\": \"B\"", "\"name\": \"B\\\": 1, \\\"name\"");
  M = parseLaunchManifest(T, "x.json");
  ASSERT_TRUE(bool(M)) << toString(M.takeError());
  EXPECT_EQ(M->Params[2].Name, "B\": 1, \"name");
}

TEST(LaunchManifest, ParamsNotAnArray) {
  std::string S = mutate("\"params\": [", "\"params\": 3, \"ignored\": [");
  // The unknown key is found first; without it, params itself is refused.
  std::string T = ExpectedText;
  size_t B = T.find("\"params\": [");
  size_t E = T.find("],", B) + 2;
  T.replace(B, E - B, "\"params\": 3,");
  EXPECT_NE(errorOf(T).find("field 'params': expected an array of "
                            "parameters, found 3"),
            std::string::npos)
      << errorOf(T);
  EXPECT_NE(errorOf(S).find("unknown field"), std::string::npos);
}

TEST(LaunchManifest, SharedLimitPerTarget) {
  LaunchManifest M = makeResidualManifest();
  M.DynamicSharedBytes = 200 * 1024;
  Error E86 = validateLaunchManifest(M, "f");
  ASSERT_TRUE(bool(E86));
  consumeError(std::move(E86));
  M.Target = "sm_90";
  EXPECT_FALSE(bool(validateLaunchManifest(M, "f")));
  M.StaticSharedBytes = 28 * 1024;
  Error E90 = validateLaunchManifest(M, "f");
  ASSERT_TRUE(bool(E90));
  EXPECT_NE(toString(std::move(E90)).find("more than the 232448 bytes"),
            std::string::npos);
}

} // namespace
