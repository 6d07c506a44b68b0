//===- CAPITest.cpp - The C API of tp/tp.h --------------------------------===//
///
/// \file
/// The C API's contract: 0 on success, non-zero with the diagnostic in
/// *error on failure (never a crash, NULL pointers included); the kernel's
/// bytes are compileGemm's; disassemble/assemble round-trip a cubin; the
/// simulator's D equals the reference product for every layout pair.
///
//===----------------------------------------------------------------------===//

#include "tp/tp.h"
#include "tp/Driver/Compile.h"
#include "tp/Support/ReferenceGemm.h"

#include "llvm/ADT/StringRef.h"
#include "gtest/gtest.h"

#include <cmath>
#include <cstring>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

using namespace tp;

namespace {

struct Compiled {
  tp_kernel *K = nullptr;
  std::string Error;
  int Status = -1;
  ~Compiled() { tp_kernel_free(K); }
};

void compile(const tp_gemm_desc &D, Compiled &C) {
  char *Err = reinterpret_cast<char *>(1); // must be reset
  C.Status = tp_gemm_compile(&D, &C.K, &Err);
  if (Err)
    C.Error = Err;
  tp_string_free(Err);
}

tp_gemm_desc small() {
  tp_gemm_desc D;
  tp_gemm_desc_init(&D);
  D.m = D.n = D.k = 128;
  return D;
}

TEST(CAPITest, CompileMatchesTheCppAPI) {
  Compiled C;
  compile(small(), C);
  ASSERT_EQ(C.Status, 0) << C.Error;
  EXPECT_EQ(C.Error, "");
  GemmDesc D;
  D.M = D.N = D.K = 128;
  llvm::Expected<Kernel> K = compileGemm(D);
  ASSERT_TRUE(bool(K));
  size_t Size = 0;
  const uint8_t *Bytes = tp_kernel_cubin(C.K, &Size);
  EXPECT_EQ(std::vector<uint8_t>(Bytes, Bytes + Size), K->Cubin);
  EXPECT_EQ(std::string(tp_kernel_sass(C.K)), K->getSass());
  EXPECT_EQ(std::string(tp_kernel_manifest_json(C.K)), K->ManifestJSON);
  EXPECT_NE(std::string(tp_kernel_stats_json(C.K)).find("\"registers\": "),
            std::string::npos);
}

// tp_kernel_sass prints the listing on its first call; several threads
// making it at once on one kernel get the one text.
TEST(CAPITest, ListingFromSeveralThreads) {
  Compiled C;
  compile(small(), C);
  ASSERT_EQ(C.Status, 0) << C.Error;
  constexpr unsigned NumThreads = 8;
  std::vector<const char *> Seen(NumThreads);
  std::vector<std::thread> Threads;
  for (unsigned I = 0; I < NumThreads; ++I)
    Threads.emplace_back([&, I] { Seen[I] = tp_kernel_sass(C.K); });
  for (std::thread &T : Threads)
    T.join();
  ASSERT_NE(Seen[0], nullptr);
  for (const char *S : Seen)
    EXPECT_EQ(S, Seen[0]);
  EXPECT_EQ(std::strncmp(Seen[0], "// .text.gemm\n", 14), 0);
  EXPECT_EQ(tp_kernel_sass(C.K), Seen[0]);
  EXPECT_EQ(tp_kernel_sass(nullptr), nullptr);
}

TEST(CAPITest, ErrorsAreDiagnostics) {
  tp_gemm_desc D = small();
  D.b_layout = "sideways";
  Compiled C;
  compile(D, C);
  EXPECT_NE(C.Status, 0);
  EXPECT_EQ(C.K, nullptr);
  EXPECT_EQ(C.Error, "tp: error: --layout-b: expected rows or columns, found "
                     "'sideways'\n");
  D = small();
  D.a_type = "bf16";
  Compiled C2;
  compile(D, C2);
  EXPECT_NE(C2.Status, 0);
  EXPECT_NE(C2.Error.find("A is bf16 and B is f16: A and B must have one type"),
            std::string::npos);
}

TEST(CAPITest, NullAndUninitializedArguments) {
  char *Err = nullptr;
  tp_kernel *K = nullptr;
  EXPECT_NE(tp_gemm_compile(nullptr, &K, &Err), 0);
  EXPECT_STREQ(Err, "tp: error: tp_gemm_compile: desc is NULL\n");
  tp_string_free(Err);
  tp_gemm_desc D = small();
  EXPECT_NE(tp_gemm_compile(&D, nullptr, nullptr), 0); // no error wanted
  D.struct_size = 3;
  EXPECT_NE(tp_gemm_compile(&D, &K, &Err), 0);
  EXPECT_NE(std::string(Err).find("call tp_gemm_desc_init"), std::string::npos);
  tp_string_free(Err);
  char *Text = nullptr;
  EXPECT_NE(tp_disassemble(nullptr, 0, 0, &Text, &Err), 0);
  tp_string_free(Err);
  EXPECT_NE(tp_kernel_simulate(nullptr, nullptr, nullptr, nullptr, nullptr, 0,
                               &Err),
            0);
  EXPECT_STREQ(Err, "tp: error: tp_kernel_simulate: kernel is NULL\n");
  tp_string_free(Err);
  size_t Size = 7;
  EXPECT_EQ(tp_kernel_cubin(nullptr, &Size), nullptr);
  EXPECT_EQ(Size, 0u);
}

TEST(CAPITest, DisassembleAssembleRoundTrip) {
  Compiled C;
  compile(small(), C);
  ASSERT_EQ(C.Status, 0) << C.Error;
  size_t Size = 0;
  const uint8_t *Bytes = tp_kernel_cubin(C.K, &Size);
  char *Err = nullptr, *Listing = nullptr, *Whole = nullptr;
  ASSERT_EQ(tp_disassemble(Bytes, Size, TP_DISASSEMBLE_LISTING, &Listing, &Err),
            0)
      << Err;
  // The listing is the kernel's, but for tp-llc's `// ^label:` lines.
  std::string Expected;
  for (llvm::StringRef L : llvm::split(tp_kernel_sass(C.K), '\n'))
    if (!L.startswith("// ^") && !L.empty())
      Expected += L.str() + "\n";
  EXPECT_EQ(std::string(Listing), Expected);
  ASSERT_EQ(tp_disassemble(Bytes, Size, TP_DISASSEMBLE_CUBIN_TEXT, &Whole, &Err),
            0)
      << Err;
  void *Out = nullptr;
  size_t OutSize = 0;
  ASSERT_EQ(tp_assemble(Whole, std::strlen(Whole), "sm_86", &Out, &OutSize,
                        &Err),
            0)
      << Err;
  EXPECT_EQ(OutSize, Size);
  EXPECT_EQ(std::memcmp(Out, Bytes, Size), 0);
  // The text is for sm_86: asking for sm_90 is an error.
  void *Out90 = nullptr;
  EXPECT_NE(tp_assemble(Whole, std::strlen(Whole), "sm_90", &Out90, &OutSize,
                        &Err),
            0);
  EXPECT_NE(std::string(Err).find("the text is for sm_86"), std::string::npos);
  tp_string_free(Err);
  tp_buffer_free(Out);
  tp_string_free(Listing);
  tp_string_free(Whole);
}

TEST(CAPITest, BadTextAndBytesAreErrors) {
  char *Err = nullptr, *Text = nullptr;
  const char Junk[] = "not a cubin at all, but long enough for an ELF header "
                      "to be read from it.............";
  EXPECT_NE(tp_disassemble(Junk, sizeof(Junk), 0, &Text, &Err), 0);
  EXPECT_EQ(Text, nullptr);
  EXPECT_EQ(llvm::StringRef(Err).substr(0, 18), "tp: error: <cubin>");
  tp_string_free(Err);
  const char Sass[] = ".target sm_86\n.kernel k\n  FROB R1, R2\n";
  void *Out = nullptr;
  size_t Size = 0;
  EXPECT_NE(tp_assemble(Sass, sizeof(Sass) - 1, nullptr, &Out, &Size, &Err), 0);
  EXPECT_EQ(Out, nullptr);
  // A located diagnostic: file:line:col, the line and a caret.
  EXPECT_EQ(llvm::StringRef(Err).substr(0, 7), "<sass>:") << Err;
  EXPECT_NE(std::string(Err).find("^"), std::string::npos) << Err;
  tp_string_free(Err);
}

/// D = A B for one layout pair on the simulator, against the reference.
void checkSimulate(const char *LA, const char *LB, bool Residual) {
  tp_gemm_desc D = small();
  D.a_layout = LA;
  D.b_layout = LB;
  D.residual = Residual;
  Compiled C;
  compile(D, C);
  ASSERT_EQ(C.Status, 0) << C.Error;
  GemmProblem P;
  P.M = P.N = P.K = 128;
  P.LayoutA = llvm::StringRef(LA) == "rows" ? OperandLayout::Rows
                                            : OperandLayout::Columns;
  P.LayoutB = llvm::StringRef(LB) == "rows" ? OperandLayout::Rows
                                            : OperandLayout::Columns;
  P.Residual = Residual;
  std::vector<uint16_t> A(P.elementsA()), B(P.elementsB());
  std::vector<float> R(P.elementsC()), Out(P.elementsC());
  fillRandomHalves(A, 7, StreamA);
  fillRandomHalves(B, 7, StreamB);
  fillRandomFloats(R, 7, StreamR);
  char *Err = nullptr;
  ASSERT_EQ(tp_kernel_simulate(C.K, A.data(), B.data(),
                               Residual ? R.data() : nullptr, Out.data(),
                               /*check_schedule=*/1, &Err),
            0)
      << Err;
  std::vector<double> Ref;
  referenceGemm(P, A, B, R, Ref);
  GemmErrors E = compareGemm(Out, Ref);
  EXPECT_TRUE(E.passes(1e-6)) << LA << " " << LB << ": " << E.RelFrobenius;
}

TEST(CAPITest, SimulateEqualsTheReference) {
  for (const char *LA : {"rows", "columns"})
    for (const char *LB : {"rows", "columns"})
      checkSimulate(LA, LB, false);
  checkSimulate("rows", "columns", true);
}

TEST(CAPITest, SimulateWithoutResidualOperand) {
  tp_gemm_desc D = small();
  D.residual = 1;
  Compiled C;
  compile(D, C);
  ASSERT_EQ(C.Status, 0) << C.Error;
  std::vector<uint16_t> A(128 * 128);
  std::vector<float> Out(128 * 128);
  char *Err = nullptr;
  EXPECT_NE(tp_kernel_simulate(C.K, A.data(), A.data(), nullptr, Out.data(), 0,
                               &Err),
            0);
  EXPECT_NE(std::string(Err).find("r is NULL"), std::string::npos);
  tp_string_free(Err);
}

} // namespace

namespace {

/// tp_kernel_simulate_run at a shape that cuts every edge, with a batch,
/// bf16 inputs, an f16 D and the epilogue (C in D's type, in place),
/// against the exact reference.
TEST(CAPITest, SimulateRunAtAnyShape) {
  tp_gemm_desc D = small();
  D.runtime_shape = 1;
  D.batch = 2;
  D.a_type = D.b_type = "bf16";
  D.d_type = "f16";
  D.alpha = 0.5;
  D.beta = 2;
  D.bias = 1;
  Compiled C;
  compile(D, C);
  ASSERT_EQ(C.Status, 0) << C.Error;
  GemmProblem P;
  P.M = 37;
  P.N = 29;
  P.K = 23;
  P.AType = P.BType = ElementType::BF16;
  P.DType = ElementType::F16;
  P.Scale = P.Bias = true;
  P.Alpha = 0.5;
  P.Beta = 2;
  const uint64_t NB = 3;
  std::vector<uint16_t> A(NB * P.elementsA()), B(NB * P.elementsB()),
      CD(NB * P.elementsC());
  std::vector<float> Bias(P.N), R(P.elementsC());
  fillRandomOperand(A, 3, StreamA, ElementType::BF16);
  fillRandomOperand(B, 3, StreamB, ElementType::BF16);
  fillRandomOperand(CD, 3, StreamR, ElementType::F16);
  fillRandomFloats(Bias, 3, StreamBias);
  std::vector<std::vector<double>> Ref(NB);
  for (uint64_t Bt = 0; Bt < NB; ++Bt) {
    for (uint64_t I = 0; I < P.elementsC(); ++I)
      R[I] = halfToFloat(CD[Bt * P.elementsC() + I]);
    referenceGemm(P,
                  llvm::makeArrayRef(A).slice(Bt * P.elementsA(),
                                              P.elementsA()),
                  llvm::makeArrayRef(B).slice(Bt * P.elementsB(),
                                              P.elementsB()),
                  R, Bias, Ref[Bt]);
  }
  tp_gemm_run Run;
  tp_gemm_run_init(&Run);
  Run.m = P.M;
  Run.n = P.N;
  Run.k = P.K;
  Run.batch = NB;
  Run.a = A.data();
  Run.b = B.data();
  Run.c = Run.d = CD.data(); // in place
  Run.bias = Bias.data();
  char *Err = nullptr;
  ASSERT_EQ(tp_kernel_simulate_run(C.K, &Run, &Err), 0) << Err;
  for (uint64_t Bt = 0; Bt < NB; ++Bt) {
    std::vector<float> Out(P.elementsC());
    for (uint64_t I = 0; I < P.elementsC(); ++I)
      Out[I] = halfToFloat(CD[Bt * P.elementsC() + I]);
    GemmErrors E = compareGemm(Out, Ref[Bt]);
    EXPECT_TRUE(E.passes(DefaultGemmTolerance))
        << "batch " << Bt << ": " << E.RelFrobenius << " " << E.Unwritten;
  }
  // A fixed-shape kernel runs at its own shape only.
  tp_gemm_desc FD = small();
  FD.runtime_shape = 0;
  Compiled F;
  compile(FD, F);
  ASSERT_EQ(F.Status, 0) << F.Error;
  EXPECT_NE(tp_kernel_simulate_run(F.K, &Run, &Err), 0);
  EXPECT_NE(std::string(Err).find("the kernel has its shape, 128x128x128, "
                                  "built in"),
            std::string::npos)
      << Err;
  tp_string_free(Err);
}

TEST(CAPITest, PlanLaunchChecksTheRules) {
  tp_gemm_desc D = small();
  D.runtime_shape = 1;
  D.batch = 2;
  Compiled C;
  compile(D, C);
  ASSERT_EQ(C.Status, 0) << C.Error;
  tp_gemm_storage S;
  tp_gemm_storage_init(&S);
  S.m = 37;
  S.n = 29;
  S.k = 23;
  S.batch = 3;
  char *Err = nullptr;
  ASSERT_EQ(tp_kernel_plan_launch(C.K, &S, &Err), 0) << Err;
  // A rows: lda = K rounded up; B columns: ldb = N; strides rows x ld.
  EXPECT_EQ(S.lda, 24);
  EXPECT_EQ(S.ldb, 32);
  EXPECT_EQ(S.ldc, 32);
  EXPECT_EQ(S.stride_a, 37 * 24);
  EXPECT_EQ(S.stride_c, 37 * 32);
  EXPECT_EQ(S.grid[2], 3u);
  tp_gemm_storage_init(&S);
  S.m = 37;
  S.n = 29;
  S.k = 23;
  S.ldc = 30;
  EXPECT_NE(tp_kernel_plan_launch(C.K, &S, &Err), 0);
  EXPECT_STREQ(Err, "tp: error: tp_kernel_plan_launch: ldc = 30 is not a "
                    "multiple of 8 elements (the copies move 16-byte chunks "
                    "of aligned rows)\n");
  tp_string_free(Err);
}

} // namespace

namespace {

std::string takeError(char *Err) {
  std::string S = Err ? Err : "";
  tp_string_free(Err);
  return S;
}

/// alpha and beta are f32 kernel parameters: tp_gemm_run's NaN (its
/// default) passes the manifest's value; an infinity, a value beyond
/// binary32's range or one it does not hold is an error showing the value
/// and the nearest binary32 (0.1 read "found 0.10", 1e-50 "found 0.00");
/// tp_kernel_simulate_gemm takes the values themselves, so its NaN is an
/// error (it was the manifest's alpha).
TEST(CAPITest, AlphaBetaAreFiniteBinary32) {
  tp_gemm_desc D = small();
  D.alpha = 8;
  D.beta = 1;
  Compiled C;
  compile(D, C);
  ASSERT_EQ(C.Status, 0) << C.Error;
  const uint16_t One = 0x3c00; // binary16 1.0
  std::vector<uint16_t> A(128 * 128, One);
  std::vector<float> CIn(128 * 128, 1.0f), Out(128 * 128);
  tp_gemm_run Run;
  tp_gemm_run_init(&Run);
  Run.a = Run.b = A.data();
  Run.c = CIn.data();
  Run.d = Out.data();
  Run.check_schedule = 0;
  char *Err = nullptr;
  ASSERT_EQ(tp_kernel_simulate_run(C.K, &Run, &Err), 0) << Err;
  EXPECT_EQ(Out[0], 8.0f * 128 + 1); // the manifest's alpha and beta
  const std::pair<double, const char *> Cases[] = {
      {0.1, "tp: error: tp_kernel_simulate: alpha: 0.1 is not exact in "
            "binary32 (the nearest binary32 is 0.10000000149011612)"},
      {1e-50, "alpha: 1e-50 is not exact in binary32 (the nearest binary32 "
              "is 0)"},
      {INFINITY, "alpha: inf is not a finite number"},
      {-INFINITY, "alpha: -inf is not a finite number"},
      {1e40, "alpha: 1e+40 is beyond binary32's range (the largest finite "
             "binary32 is 3.4028234663852886e+38)"}};
  for (auto [V, Want] : Cases) {
    Run.alpha = V;
    EXPECT_NE(tp_kernel_simulate_run(C.K, &Run, &Err), 0) << V;
    std::string Msg = takeError(Err);
    EXPECT_NE(Msg.find(Want), std::string::npos) << Msg;
  }
  Run.alpha = NAN;
  Run.beta = 0.3;
  EXPECT_NE(tp_kernel_simulate_run(C.K, &Run, &Err), 0);
  EXPECT_NE(takeError(Err).find("beta: 0.3 is not exact in binary32 (the "
                                "nearest binary32 is 0.30000001192092896)"),
            std::string::npos);
  for (auto [Alpha, Beta, Want] :
       {std::tuple<double, double, const char *>{
            NAN, 1, "tp_kernel_simulate: alpha: nan is not a finite number"},
        {8, NAN, "tp_kernel_simulate: beta: nan is not a finite number"}}) {
    EXPECT_NE(tp_kernel_simulate_gemm(C.K, A.data(), A.data(), CIn.data(),
                                      nullptr, Out.data(), Alpha, Beta, 0,
                                      &Err),
              0);
    std::string Msg = takeError(Err);
    EXPECT_NE(Msg.find(Want), std::string::npos) << Msg;
  }
  ASSERT_EQ(tp_kernel_simulate_gemm(C.K, A.data(), A.data(), CIn.data(),
                                    nullptr, Out.data(), 0.5, 2, 0, &Err),
            0)
      << Err;
  EXPECT_EQ(Out[0], 0.5f * 128 + 2);
  // A kernel without alpha and beta: the value in the message is the one
  // given (it read "0.50").
  Compiled Plain;
  compile(small(), Plain);
  ASSERT_EQ(Plain.Status, 0) << Plain.Error;
  tp_gemm_run_init(&Run);
  Run.a = Run.b = A.data();
  Run.d = Out.data();
  Run.alpha = 0.25;
  EXPECT_NE(tp_kernel_simulate_run(Plain.K, &Run, &Err), 0);
  EXPECT_NE(takeError(Err).find("alpha = 0.25, but the kernel takes no "
                                "alpha and beta"),
            std::string::npos);
}

/// The residual's R has D's type: tp_kernel_simulate_gemm, whose c is f32,
/// refuses a kernel with an f16 or bf16 D (it ran, reading the f32 R as
/// halves), as it refuses one with alpha and beta.
TEST(CAPITest, SimulateGemmRefusesAnF32RForANarrowD) {
  for (const char *DType : {"f16", "bf16"}) {
    tp_gemm_desc D = small();
    D.residual = 1;
    D.d_type = DType;
    Compiled C;
    compile(D, C);
    ASSERT_EQ(C.Status, 0) << C.Error;
    std::vector<uint16_t> A(128 * 128), Out(128 * 128);
    std::vector<float> R(128 * 128, 1.0f);
    char *Err = nullptr;
    EXPECT_NE(tp_kernel_simulate_gemm(C.K, A.data(), A.data(), R.data(),
                                      nullptr, Out.data(), 1, 0, 0, &Err),
              0);
    std::string Msg = takeError(Err);
    EXPECT_NE(Msg.find(std::string("a kernel with the residual and d_type ") +
                       DType + " reads R in that type; this call's c is f32"),
              std::string::npos)
        << Msg;
  }
}

} // namespace
