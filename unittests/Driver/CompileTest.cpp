//===- CompileTest.cpp - The C++ API: compileGemm, emitKernel -------------===//
///
/// \file
/// compileGemm() builds the kernel tp-llc builds (the lit test
/// test/Package/consumer.test compares the bytes with tp-llc's); here: what
/// the Kernel holds, and that every bad field is an Error with tp-llc's
/// diagnostic, the reserved issue-16 fields included.
///
//===----------------------------------------------------------------------===//

#include "tp/Driver/Compile.h"
#include "tp/Driver/Driver.h"
#include "tp/MIR/MIR.h"

#include "llvm/Support/JSON.h"
#include "gtest/gtest.h"

#include <thread>
#include <vector>

using namespace llvm;
using namespace tp;

namespace {

GemmDesc small() {
  GemmDesc D;
  D.M = D.N = 128;
  D.K = 128;
  return D;
}

std::string errorOf(const GemmDesc &D) {
  Expected<Kernel> K = compileGemm(D);
  if (K)
    return "(no error)";
  return renderErrors(K.takeError(), "tp");
}

TEST(CompileTest, KernelHoldsCubinListingManifestStats) {
  GemmDesc D = small();
  D.Name = "my_gemm";
  Expected<Kernel> K = compileGemm(D);
  ASSERT_TRUE(bool(K)) << toString(K.takeError());
  EXPECT_EQ(K->Name, "my_gemm");
  EXPECT_EQ(K->Target, "sm_86");
  ASSERT_GE(K->Cubin.size(), 64u);
  EXPECT_EQ(std::string(K->Cubin.begin(), K->Cubin.begin() + 4), "\x7f"
                                                                 "ELF");
  EXPECT_EQ(StringRef(K->getSass()).substr(0, 17), "// .text.my_gemm\n");
  EXPECT_EQ(K->Manifest.Kernel, "my_gemm");
  EXPECT_EQ(K->Manifest.M, 128u);
  EXPECT_EQ(K->Manifest.K, 128u);
  Expected<json::Value> J = json::parse(K->ManifestJSON);
  ASSERT_TRUE(bool(J)) << toString(J.takeError());
  EXPECT_GT(K->Stats.Instructions, 0u);
  EXPECT_GT(K->Stats.HMMAs, 0u);
  EXPECT_GT(K->Stats.Registers, 0u);
  // One `/*addr*/` line an instruction.
  EXPECT_EQ(StringRef(K->getSass()).count("\n/*"), K->Stats.Instructions);
  EXPECT_GT(K->Cubin.size(), K->Stats.Instructions * 16);
}

// The listing's addresses: lower-case hex, four digits at least, more past
// 0xffff (driver::printListing writes them by hand).
TEST(CompileTest, ListingAddressesPastFourDigits) {
  Expected<mir::MInstr> Nop = mir::makeInstr("NOP", sass::Control());
  ASSERT_TRUE(bool(Nop)) << toString(Nop.takeError());
  mir::Function F;
  F.Name = "nops";
  F.addPiece("body").Instrs.assign(4097, *Nop);
  std::string Text;
  raw_string_ostream OS(Text);
  driver::printListing(F, OS);
  OS.flush();
  SmallVector<StringRef, 0> Lines;
  StringRef(Text).split(Lines, '\n', -1, /*KeepEmpty=*/false);
  ASSERT_EQ(Lines.size(), 4098u);
  EXPECT_EQ(Lines[0], "// .text.nops");
  EXPECT_TRUE(Lines[1].startswith("/*0000*/ NOP "));
  EXPECT_TRUE(Lines[0xab + 1].startswith("/*0ab0*/ NOP "));
  EXPECT_TRUE(Lines[4096].startswith("/*fff0*/ NOP "));
  EXPECT_TRUE(Lines[4097].startswith("/*10000*/ NOP "));
}

TEST(CompileTest, Deterministic) {
  Expected<Kernel> A = compileGemm(small()), B = compileGemm(small());
  ASSERT_TRUE(A && B);
  EXPECT_EQ(A->Cubin, B->Cubin);
  EXPECT_EQ(A->getSass(), B->getSass());
}

// The listing is printed on the first getSass(), once: threads asking at
// once all get the one text (the same storage), copies of the kernel share
// it, and it is the text the kernel's own instructions give.
TEST(CompileTest, ListingPrintedOnceOnFirstRequest) {
  Expected<Kernel> K = compileGemm(small());
  ASSERT_TRUE(bool(K)) << toString(K.takeError());
  ASSERT_TRUE(K->Listing != nullptr);
  const Kernel Copy = *K;
  constexpr unsigned NumThreads = 8;
  std::vector<const std::string *> Seen(NumThreads);
  std::vector<std::thread> Threads;
  for (unsigned I = 0; I < NumThreads; ++I)
    Threads.emplace_back([&, I] {
      Seen[I] = &(I % 2 ? Copy : *K).getSass();
    });
  for (std::thread &T : Threads)
    T.join();
  for (const std::string *S : Seen)
    EXPECT_EQ(S, Seen[0]);
  EXPECT_EQ(StringRef(*Seen[0]).count("\n/*"), K->Stats.Instructions);
  EXPECT_EQ(&K->getSass(), Seen[0]);
  // A second compile prints the same text.
  Expected<Kernel> Again = compileGemm(small());
  ASSERT_TRUE(bool(Again));
  EXPECT_EQ(Again->getSass(), *Seen[0]);
  // A kernel with no listing source has an empty listing.
  EXPECT_EQ(Kernel().getSass(), "");
}

TEST(CompileTest, TargetSM90) {
  GemmDesc D = small();
  D.Target = "sm_90";
  Expected<Kernel> K = compileGemm(D);
  ASSERT_TRUE(bool(K)) << toString(K.takeError());
  EXPECT_EQ(K->Manifest.Target, "sm_90");
}

TEST(CompileTest, ErrorsNameTheField) {
  GemmDesc D = small();
  D.M = 100; // a multiple of the tile only with the shape built in
  D.FixedShape = true;
  EXPECT_EQ(errorOf(D).substr(0, 32), "tp: error: --gemm=100x128x128: n");
  D = small();
  D.LayoutA = "diagonal";
  EXPECT_EQ(errorOf(D), "tp: error: --layout-a: expected rows or columns, "
                        "found 'diagonal'\n");
  D = small();
  D.Tile = "huge";
  EXPECT_EQ(errorOf(D).substr(0, 23), "tp: error: --tile=huge:");
  D = small();
  D.Target = "sm_75";
  EXPECT_EQ(errorOf(D),
            "tp: error: -mcpu: unsupported target 'sm_75' (sm_80, sm_86, "
            "sm_89, sm_90, sm_90a, sm_100, sm_120 or sm_121)\n");
  D = small();
  D.Name = "9lives";
  EXPECT_EQ(errorOf(D).substr(0, 32), "tp: error: --kernel-name=9lives:");
  D = small();
  D.M = -1;
  EXPECT_EQ(errorOf(D).substr(0, 30), "tp: error: --gemm: expected Mx");
}

TEST(CompileTest, TypesAndEpilogueAreBuilt) {
  GemmDesc D = small();
  D.AType = D.BType = "bf16";
  D.DType = "f16";
  Expected<Kernel> K = compileGemm(D);
  ASSERT_TRUE(bool(K)) << toString(K.takeError());
  EXPECT_EQ(K->Manifest.AType, ElementType::BF16);
  EXPECT_EQ(K->Manifest.DType, ElementType::F16);
  EXPECT_NE(K->getSass().find("HMMA.16816.F32.BF16"), std::string::npos);
  EXPECT_NE(K->getSass().find("F2FP.PACK_AB"), std::string::npos);
  EXPECT_NE(K->ManifestJSON.find("\"d_type\": \"f16\""), std::string::npos);
  D = small();
  D.Alpha = 0.5;
  D.Beta = 2;
  D.Bias = D.Relu = true;
  K = compileGemm(D);
  ASSERT_TRUE(bool(K)) << toString(K.takeError());
  EXPECT_TRUE(K->Manifest.HasScale && K->Manifest.Bias && K->Manifest.Relu);
  EXPECT_EQ(K->Manifest.Alpha, 0.5);
  EXPECT_EQ(K->Manifest.Beta, 2);
  // C, A, B, R, alpha, beta, bias, then the run-time shape's M .. LDC.
  ASSERT_EQ(K->Manifest.Params.size(), 13u);
  EXPECT_EQ(K->Manifest.Params[4].Role, ParamRole::Alpha);
  EXPECT_EQ(K->Manifest.Params[4].Offset, 32u);
  EXPECT_EQ(K->Manifest.Params[6].Offset, 40u);
  EXPECT_EQ(K->Manifest.Params[7].Role, ParamRole::M);
  EXPECT_EQ(K->Manifest.Params[7].Offset, 48u);
}

TEST(CompileTest, RefusedCombinationsNameTheRule) {
  GemmDesc D = small();
  D.AType = "bf16";
  EXPECT_NE(errorOf(D).find("A is bf16 and B is f16: A and B must have one "
                            "type"),
            std::string::npos);
  D = small();
  D.DType = "f64";
  EXPECT_NE(errorOf(D).find("--d-type=f64: expected f32, f16 or bf16"),
            std::string::npos);
  D = small();
  D.Residual = true;
  D.Beta = 1;
  EXPECT_NE(errorOf(D).find("--residual is the kernel C = A B + R"),
            std::string::npos);
  D = small();
  D.Alpha = 0.1;
  EXPECT_NE(errorOf(D).find("alpha=0.10000000000000001: expected a finite number "
                            "exact in "
                            "binary32"),
            std::string::npos);
  D = small();
  D.Residual = true;
  EXPECT_EQ(errorOf(D), "(no error)");
  D = small();
  D.Batch = 3; // strided batches of a run-time shape (the default)
  EXPECT_EQ(errorOf(D), "(no error)");
  D.FixedShape = true;
  EXPECT_NE(errorOf(D).find("batch=3"), std::string::npos);
}

TEST(CompileTest, RuntimeShape) {
  GemmDesc D = small();
  EXPECT_FALSE(D.FixedShape); // the default, as tp-llc's
  D.M = 100; // not a multiple of the tile: a run-time shape takes it
  D.K = 7;
  Expected<Kernel> K = compileGemm(D);
  ASSERT_TRUE(bool(K)) << toString(K.takeError());
  EXPECT_EQ(K->Manifest.FormatVersion, 2);
  EXPECT_NE(K->Manifest.findParam(ParamRole::LDA), nullptr);
  EXPECT_EQ(K->Manifest.LdA, 8u); // K = 7 rounded up to 8 elements
  D.FixedShape = true;
  EXPECT_NE(errorOf(D).find("M = 100 is not a multiple"), std::string::npos);
}

} // namespace
