//===- tp-ubench.cpp - SASS microbenchmarks for sm_86 and sm_90 -----------===//
///
/// \file
/// `tp-ubench -mcpu=sm_90 -o DIR` writes, for every microbenchmark of
/// docs/ubench.md, into DIR:
///   NAME.sass        the kernel as readable .sass text;
///   NAME.cubin       that text assembled by tp-mc (--fatal-warnings: a
///                    form no NVIDIA word confirms is an error, no cubin);
///   NAME.cubin.json  its launch manifest (tp-run, tp-sim GEMM fields:
///                    C = the output slots, A = the input buffer);
///   NAME.expect.json what it measures, the latency model's value and the
///                    expected value of every result word, per lane
///                    (bench/ubench/ubench.py reads it).
/// Every benchmark is built first (tp-mc assembles a copy of the text in a
/// temporary directory); then all the files are written together
/// (tp::writeOutputs): on any error tp-ubench stops with exit 1 and leaves
/// none of them.
///
//===----------------------------------------------------------------------===//

#include "Benchmarks.h"

#include "tp/Support/LaunchManifest.h"
#include "tp/Support/ToolOutput.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/WithColor.h"

#define DEBUG_TYPE "tp-ubench"

using namespace llvm;
using namespace tp;
using namespace tp::ubench;

STATISTIC(NumBenchmarks, "Microbenchmarks written");

namespace {
cl::OptionCategory UbenchCat("tp-ubench options");

cl::opt<std::string> CPU("mcpu",
                         cl::desc("Target: sm_86 (default), sm_80, sm_89 or sm_90"),
                         cl::init("sm_86"), cl::cat(UbenchCat));
cl::opt<std::string> OutputDir("o", cl::desc("Output directory (created)"),
                               cl::value_desc("dir"), cl::cat(UbenchCat));
cl::opt<std::string>
    Filter("filter",
           cl::desc("Only benchmarks whose name contains this string"),
           cl::cat(UbenchCat));
cl::opt<bool> List("list",
                   cl::desc("Print name, kind and what each benchmark "
                            "measures; write nothing"),
                   cl::cat(UbenchCat));
cl::opt<std::string>
    TpMc("tp-mc", cl::desc("The assembler (default: tp-mc beside tp-ubench)"),
         cl::cat(UbenchCat));
cl::opt<unsigned> GlobalBlocks(
    "global-blocks",
    cl::desc("Blocks of the global-bandwidth benchmarks (default 4 per SM of "
             "the target's card: 328 on sm_86, 528 on sm_90)"),
    cl::init(0), cl::cat(UbenchCat));
cl::opt<unsigned> GlobalIterations(
    "global-iterations",
    cl::desc("4 KiB copies per block per pass of the global-bandwidth "
             "benchmarks (a multiple of 4; default 256: 553 MB a launch on "
             "sm_90, long enough for tp-run's 4-digit milliseconds)"),
    cl::init(256), cl::cat(UbenchCat));

int fail(const Twine &Msg) {
  WithColor::error(errs(), "tp-ubench") << Msg << "\n";
  return 1;
}

/// The launch manifest: one block row of C per thread slot.
LaunchManifest makeManifest(const Benchmark &B, StringRef Target) {
  LaunchManifest M;
  M.Kernel = "ub_" + B.Name;
  std::replace(M.Kernel.begin(), M.Kernel.end(), '-', '_');
  M.Target = Target.str();
  M.Grid = {B.Grid, 1, 1};
  M.Block = {B.Block, 1, 1};
  M.DynamicSharedBytes = B.DynamicShared;
  M.Params = {{"out", ParamRole::C, 0, 8},
              {"in", ParamRole::A, 8, 8},
              {"unused", ParamRole::B, 16, 8}};
  M.M = uint64_t(B.Grid) * B.Block;
  M.N = B.SlotWords;
  M.K = std::max<uint64_t>(1, divideCeil(B.ABytes, 2 * M.M));
  return M;
}

json::Value expectJSON(const Benchmark &B, const LaunchManifest &M,
                       StringRef Target) {
  json::Array Words;
  for (const ExpectedWord &E : B.Expected) {
    json::Array Lanes;
    for (uint32_t V : E.Lanes)
      Lanes.push_back(int64_t(V));
    Words.push_back(json::Object{{"word", int64_t(E.Word)},
                                 {"lanes", std::move(Lanes)}});
  }
  return json::Object{
      {"format_version", 1},
      {"name", B.Name},
      {"kernel", M.Kernel},
      {"target", Target},
      {"family", B.Family},
      {"kind", getKindName(B.K)},
      {"pair", B.Pair},
      {"measures", B.Measures},
      {"model_cycles", B.ModelCycles < 0 ? json::Value(nullptr)
                                         : json::Value(B.ModelCycles)},
      {"spacing", int64_t(B.Spacing)},
      {"steps", int64_t(B.Steps)},
      {"fixed_cycles", int64_t(B.FixedCycles)},
      {"warps_per_smsp", int64_t(B.WarpsPerSMSP)},
      {"bytes_per_warp", int64_t(B.BytesPerWarp)},
      {"global_bytes", int64_t(B.GlobalBytes)},
      {"grid", int64_t(B.Grid)},
      {"block", int64_t(B.Block)},
      {"dynamic_shared_bytes", int64_t(B.DynamicShared)},
      {"slot_words", int64_t(B.SlotWords)},
      {"a_bytes", int64_t(M.M * M.K * 2)},
      {"b_bytes", int64_t(M.N * M.K * 2)},
      {"sim_supported", B.SimSupported},
      {"expected", std::move(Words)},
  };
}

std::string findAssembler(const char *Argv0) {
  if (!TpMc.empty())
    return TpMc;
  std::string Self = sys::fs::getMainExecutable(Argv0, (void *)&fail);
  SmallString<256> P(sys::path::parent_path(Self));
  sys::path::append(P, "tp-mc");
  return std::string(P);
}

/// The four files of one benchmark, in memory.
struct BenchmarkFiles {
  std::string Stem; ///< OutputDir/NAME
  std::string Sass, Manifest, Expect;
  std::unique_ptr<MemoryBuffer> Cubin;
};

/// Builds the four files of \p B: the .sass text is assembled by tp-mc
/// from a copy in \p TempDir (the cubin read back from there), so that
/// nothing is written into OutputDir before every benchmark is built.
Expected<BenchmarkFiles> buildBenchmark(const Benchmark &B, sass::Target T,
                                        StringRef Asm, StringRef TempDir) {
  StringRef Target = sass::getTargetName(T);
  BenchmarkFiles Out;
  SmallString<256> Stem(OutputDir);
  sys::path::append(Stem, B.Name);
  Out.Stem = std::string(Stem);
  Out.Sass = B.Sass;
  SmallString<256> TempStem(TempDir);
  sys::path::append(TempStem, B.Name);
  std::string Sass = (TempStem + ".sass").str(),
              Cubin = (TempStem + ".cubin").str();
  if (Error E = writeOutputBytes(Sass, false, B.Sass))
    return E;
  std::string Err;
  std::string McpuArg = ("-mcpu=" + Target).str();
  StringRef Args[] = {Asm,        McpuArg, "--assemble", "-filetype=obj",
                      "--fatal-warnings", Sass, "-o", Cubin};
  int RC = sys::ExecuteAndWait(Asm, Args, None, {}, 0, 0, &Err);
  if (RC != 0)
    return createStringError(inconvertibleErrorCode(),
                             "tp-mc failed on '" + Stem + ".sass' (exit " +
                                 std::to_string(RC) + ")" +
                                 (Err.empty() ? "" : ": " + Err));
  ErrorOr<std::unique_ptr<MemoryBuffer>> Bytes =
      MemoryBuffer::getFile(Cubin, /*IsText=*/false);
  if (!Bytes)
    return createStringError(inconvertibleErrorCode(),
                             "cannot read '" + Cubin +
                                 "': " + Bytes.getError().message());
  Out.Cubin = std::move(*Bytes);
  LaunchManifest M = makeManifest(B, Target);
  std::string ManifestPath = (Stem + ".cubin.json").str();
  if (Error E = validateLaunchManifest(M, ManifestPath))
    return E;
  Out.Manifest = printLaunchManifest(M);
  Out.Expect = formatv("{0:2}", expectJSON(B, M, Target)).str() + "\n";
  return Out;
}

/// Builds every benchmark of \p Chosen, then writes all their files into
/// OutputDir together: all of them or, on any error, none.
Error writeBenchmarks(ArrayRef<const Benchmark *> Chosen, sass::Target T,
                      StringRef Asm) {
  SmallString<128> TempDir;
  if (std::error_code EC = sys::fs::createUniqueDirectory("tp-ubench", TempDir))
    return createStringError(EC, "cannot create a temporary directory: " +
                                     EC.message());
  std::vector<BenchmarkFiles> Built;
  Error Err = Error::success();
  for (const Benchmark *B : Chosen) {
    LLVM_DEBUG(dbgs() << "tp-ubench: " << B->Name << "\n");
    Expected<BenchmarkFiles> F = buildBenchmark(*B, T, Asm, TempDir);
    if (!F) {
      Err = createStringError(inconvertibleErrorCode(),
                              B->Name + ": " + toString(F.takeError()));
      break;
    }
    Built.push_back(std::move(*F));
  }
  sys::fs::remove_directories(TempDir);
  if (Err)
    return Err;
  std::vector<OutputFile> Files;
  for (const BenchmarkFiles &F : Built) {
    Files.push_back({F.Stem + ".sass", false, StringRef(F.Sass)});
    Files.push_back({F.Stem + ".cubin", true, F.Cubin->getBuffer()});
    Files.push_back({F.Stem + ".cubin.json", false, StringRef(F.Manifest)});
    Files.push_back({F.Stem + ".expect.json", false, StringRef(F.Expect)});
  }
  if (Error E = writeOutputs(Files))
    return E;
  NumBenchmarks += Built.size();
  return Error::success();
}
} // namespace

int main(int argc, char **argv) {
  InitLLVM X(argc, argv);
  tp::setClosedPipeHandler("tp-ubench");
  tp::setToolVersionPrinter();
  cl::HideUnrelatedOptions(UbenchCat);
  cl::ParseCommandLineOptions(
      argc, argv,
      "tp-ubench: SASS microbenchmarks (docs/ubench.md)\n\n"
      "Writes, for each microbenchmark, NAME.sass, NAME.cubin (assembled by\n"
      "tp-mc, oracle-verified forms only), NAME.cubin.json (launch manifest)\n"
      "and NAME.expect.json (what it measures, the latency model's value,\n"
      "the expected results) into the -o directory.  Run them with\n"
      "`tp-run NAME.cubin --verify=none --dump-c=NAME.out` on a GPU or\n"
      "tp-sim here; bench/ubench/ubench.py checks and reports.\n");
  sass::Target T;
  // The targets whose latency model and cubins tp covers (GemmCodeGen):
  // a benchmark measures a modelled latency, assembled by tp-mc.  Not
  // Blackwell: the benchmarks' SASS is written with ULDC and sm_80..sm_90's
  // LDGSTS, and their cubins would need `.binary_kind sass`.
  if (!sass::lookupTarget(CPU, T) || !sass::getTargetInfo(T).GemmCodeGen ||
      sass::getTargetSM(T) >= 100)
    return fail("unsupported -mcpu '" + CPU +
                "' (sm_80, sm_86, sm_89 or sm_90; not yet Blackwell)");
  if (GlobalIterations == 0 || GlobalIterations % 4)
    return fail("--global-iterations must be a positive multiple of 4");
  CatalogueOptions Opts;
  Opts.GlobalBlocks = GlobalBlocks;
  Opts.GlobalIterations = GlobalIterations;
  std::vector<Benchmark> All = buildCatalogue(T, Opts);
  std::vector<const Benchmark *> Chosen;
  for (const Benchmark &B : All)
    if (StringRef(B.Name).contains(Filter))
      Chosen.push_back(&B);
  if (Chosen.empty())
    return fail("no benchmark matches --filter='" + Filter + "'");
  if (List) {
    for (const Benchmark *B : Chosen)
      outs() << left_justify(B->Name, 28) << " "
             << left_justify(getKindName(B->K), 16) << " " << B->Measures
             << "\n";
    return 0;
  }
  if (OutputDir.empty())
    return fail("no output directory: give -o DIR (or --list)");
  if (std::error_code EC = sys::fs::create_directories(OutputDir))
    return fail("cannot create '" + OutputDir + "': " + EC.message());
  std::string Asm = findAssembler(argv[0]);
  if (!sys::fs::can_execute(Asm))
    return fail("no assembler at '" + Asm + "' (build tp-mc, or --tp-mc=)");
  if (Error E = writeBenchmarks(Chosen, T, Asm)) {
    handleAllErrors(std::move(E),
                    [&](const ErrorInfoBase &EI) { fail(EI.message()); });
    return 1;
  }
  outs() << "tp-ubench: wrote " << Chosen.size() << " microbenchmarks for "
         << sass::getTargetName(T) << " in " << OutputDir << "\n";
  return 0;
}
