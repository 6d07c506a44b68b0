//===- tp-llc.cpp - Tile IR to SASS text or a cubin -----------------------===//
///
/// \file
/// The llc of tp: a thin command line over lib/Driver (the C++ API's
/// emitKernel, tp/Driver/Compile.h) and the default pipeline
/// (lib/Pass/DefaultPipeline.cpp)
///
///   tp-admit, tp-tile, tp-pipeline, tp-swizzle, tp-select, tp-interleave,
///   tp-regalloc, tp-compact-stalls, tp-form-loop
///
/// on a tile IR or machine IR file, or on the kernel the options describe:
///
///   tp-llc --gemm=MxNxK --layout-a=rows|columns --layout-b=rows|columns
///          --tile=large|small|128x64|256x128|WM,WN,MT,NT,S [--residual]
///          [--a-type=f16|bf16 --b-type=f16|bf16 --d-type=f32|f16|bf16]
///          [--fixed-shape | --batch=B] -filetype=asm|obj -o gemm.cubin
///
/// With no input and no options it builds the default example (recorded
/// shape 4096 x 4096 x 4096, A rows, B columns, the large tile) as a
/// run-time-shape kernel (any M, N, K >= 1; --fixed-shape builds the shape
/// into the code).
///
///  * -filetype=asm (default): the SASS listing, one instruction a line as
///    `tp-mc --disassemble --show-control` prints a cubin's code
///    (`/*addr*/ TEXT {control}`, after a `// .text.<kernel>` line), plus
///    `// ^label:` lines where labels start; ptxas's closing NOP padding to
///    128 bytes included.
///  * -filetype=obj: the cubin (TPObject's ptxas-13 layout) and, beside it,
///    `<out>.json`, the launch manifest, both or neither.
///  * -stop-after=PASS / -stop-before=PASS print the IR there instead
///    (text: -filetype=obj with them is an error); -start-after=PASS /
///    -start-before=PASS run the rest of the pipeline on an input of that
///    level (tile IR, or machine IR: `-x tile|mir`, else by extension .tp
///    / .mir, else recognised from the text), so edited IR of any stage
///    becomes a listing or a cubin.
///  * the pass manager's options, as tp-opt's (PassManagerOptions.h):
///    -print-before/-print-after[-all] (stderr), -verify-each, -time-passes,
///    --print-pipeline; -stats prints the passes' statistics and the
///    static figures (stderr); -tp-form-loop-checked builds the checked
///    program (loop unrolled twice, no branch; never a cubin).
///
/// Every instruction emitted must be of a form that NVIDIA's bytes confirm
/// (sass::isOracleVerified); otherwise tp-llc stops with an internal error.
///
/// Errors are reported LLVM-style and exit 1; nothing is written then.
///
//===----------------------------------------------------------------------===//

#include "tp/Driver/Compile.h"
#include "tp/Driver/Driver.h"
#include "tp/MIR/MIR.h"
#include "tp/Pass/DefaultPipeline.h"
#include "tp/Pass/Pass.h"
#include "tp/Pass/PassManagerOptions.h"
#include "tp/Pass/PassRegistration.h"
#include "tp/Support/Debug.h"
#include "tp/Support/Diagnostics.h"
#include "tp/Support/ToolOutput.h"
#include "tp/Target/SASS/SASS.h"
#include "tp/TileIR/TileOps.h"
#include "tp/TileIR/TileUnit.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Support/BuryPointer.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <cmath>

using namespace llvm;

namespace {
cl::OptionCategory LlcCat("tp-llc options");

cl::opt<std::string> InputFilename(cl::Positional,
                                   cl::desc("[<input tile IR or machine IR>]"),
                                   cl::init(""), cl::cat(LlcCat));
cl::opt<std::string> OutputFilename("o", cl::desc("Output file"),
                                    cl::value_desc("filename"), cl::init(""),
                                    cl::cat(LlcCat));
enum FileType { Asm, Obj };
cl::opt<FileType> Filetype(
    "filetype", cl::desc("Output kind"), cl::init(Asm),
    cl::values(clEnumValN(Asm, "asm", "SASS listing"),
               clEnumValN(Obj, "obj", "cubin + launch manifest")),
    cl::cat(LlcCat));
cl::opt<std::string> InputLevel(
    "x", cl::desc("Input level: tile or mir (default: by extension .tp / "
                  ".mir, else from the text)"),
    cl::value_desc("tile|mir"), cl::cat(LlcCat));
cl::opt<std::string>
    Gemm("gemm",
         cl::desc("Product shape (default 4096x4096x4096; the shape rules "
                  "above)"),
         cl::value_desc("MxNxK"), cl::cat(LlcCat));
cl::opt<std::string> LayoutA("layout-a",
                             cl::desc("A stored as rows (default) or columns"),
                             cl::value_desc("rows|columns"), cl::cat(LlcCat));
cl::opt<std::string> LayoutB("layout-b",
                             cl::desc("B stored as columns (default) or rows"),
                             cl::value_desc("rows|columns"), cl::cat(LlcCat));
cl::opt<std::string>
    TileSpec("tile",
             cl::desc("large (128x128), small (64x64), 128x64, 256x128 or "
                      "WM,WN,MT,NT,S (default: tp-tile chooses)"),
             cl::value_desc("tile"), cl::cat(LlcCat));
cl::opt<bool> Residual("residual", cl::desc("C = A B + R"), cl::cat(LlcCat));
cl::opt<std::string> AType("a-type",
                           cl::desc("A's element type: f16 (default) or bf16 "
                                    "(A and B must have one type)"),
                           cl::value_desc("f16|bf16"), cl::cat(LlcCat));
cl::opt<std::string> BType("b-type",
                           cl::desc("B's element type: f16 (default) or bf16"),
                           cl::value_desc("f16|bf16"), cl::cat(LlcCat));
cl::opt<std::string>
    DType("d-type",
          cl::desc("D's element type (the C parameter, and R): f32 (default), "
                   "or f16 / bf16, the f32 accumulators rounded to nearest "
                   "even and packed before the stores (a residual's R of D's "
                   "type is widened and added in f32 first)"),
          cl::value_desc("f32|f16|bf16"), cl::cat(LlcCat));
cl::opt<std::string>
    Alpha("alpha",
          cl::desc("D = alpha A B + beta C: the kernel takes alpha and beta "
                   "as f32 parameters (C read from the R parameter only when "
                   "beta != 0; R may be D's buffer); X is the value the "
                   "manifest records (default 1)"),
          cl::value_desc("X"), cl::cat(LlcCat));
cl::opt<std::string>
    Beta("beta",
         cl::desc("beta of D = alpha A B + beta C (as --alpha; default 0)"),
         cl::value_desc("Y"), cl::cat(LlcCat));
cl::opt<bool> BiasOpt("bias",
                      cl::desc("Add bias[col] (an f32 pointer parameter, one "
                               "value a column of D) after the scale"),
                      cl::cat(LlcCat));
cl::opt<bool> ReluOpt("relu", cl::desc("max(x, 0) last, before the stores"),
                      cl::cat(LlcCat));
cl::opt<unsigned> BatchOpt(
    "batch",
    cl::desc("strided batches (a run-time shape, not --fixed-shape): B "
             "products, the grid's z; A, B and C of batch b start b times "
             "the strides the kernel takes as parameters (StrideA/B/C, in "
             "elements); the manifest records B and the dense strides"),
    cl::value_desc("B"), cl::cat(LlcCat));
cl::opt<bool> FixedShape(
    "fixed-shape", cl::init(false),
    cl::desc("build the --gemm shape into the code (M, N multiples of the "
             "tile, K of 32 x stages; the timing model has it about 0.3% "
             "faster at 4096^3, 0.7-2% at 1024^3: "
             "bench/results/fixed-shape.md); default (=false): M, "
             "N, K, lda, ldb, ldc are kernel parameters, any M, N, K >= 1 "
             "runs (edges predicated), --gemm is the shape the manifest "
             "records"),
    cl::cat(LlcCat));
cl::opt<std::string> KernelName("kernel-name",
                                cl::desc("Kernel symbol (default gemm)"),
                                cl::init("gemm"), cl::cat(LlcCat));
cl::opt<std::string> MCPU("mcpu",
                          cl::desc("Target: sm_86 (default), sm_80, sm_89, "
                                   "sm_90, sm_100, sm_120 or sm_121 "
                                   "(Blackwell: a cubin without the Mercury "
                                   "copy, docs/targets.md)"),
                          cl::init("sm_86"), cl::cat(LlcCat));
cl::opt<std::string> StopAfter("stop-after",
                               cl::desc("Stop after PASS, print its IR"),
                               cl::value_desc("PASS"), cl::cat(LlcCat));
cl::opt<std::string> StopBefore("stop-before",
                                cl::desc("Stop before PASS, print the IR"),
                                cl::value_desc("PASS"), cl::cat(LlcCat));
cl::opt<std::string>
    StartAfter("start-after",
               cl::desc("Read IR as PASS leaves it; run the passes after it"),
               cl::value_desc("PASS"), cl::cat(LlcCat));
cl::opt<std::string>
    StartBefore("start-before",
                cl::desc("Read IR as PASS takes it; run PASS and the rest"),
                cl::value_desc("PASS"), cl::cat(LlcCat));
cl::opt<bool> Checked("tp-form-loop-checked",
                      cl::desc("Build the checked program (loop unrolled "
                               "twice, no branch; a listing, never a cubin)"),
                      cl::cat(LlcCat));
cl::opt<std::string>
    CompactOptions("tp-compact-stalls",
                   cl::desc("Options for tp-compact-stalls: mode=compact "
                            "(default) or mode=conservative"),
                   cl::value_desc("mode=..."), cl::init(""), cl::cat(LlcCat));
cl::opt<std::string>
    RegAllocOptions("tp-regalloc",
                    cl::desc("Options for tp-regalloc: plan=allocator "
                             "(default) or plan=seed (the seed's register "
                             "plan pre-assigned), max-regs=N"),
                    cl::value_desc("plan=..."), cl::init(""), cl::cat(LlcCat));
cl::opt<bool> VerifyScheduleOpt(
    "verify-schedule",
    cl::desc("Verify the schedule of the kernel written (tp-verify-schedule "
             "on its checked program; every hazard an error, nothing "
             "written).  On by default; =false turns it off"),
    cl::init(true), cl::cat(LlcCat));
cl::opt<bool> NoCompact("no-compact-stalls",
                        cl::desc("Keep tp-select's conservative stalls"),
                        cl::cat(LlcCat));
// Testing only: shows the oracle check's error on a kernel that has no
// unverified form (test/tools/tp-llc/oracle-verified.test).
cl::list<std::string> AssumeUnverified(
    "assume-unverified",
    cl::desc("Treat this form (td def name) as one no oracle word reaches"),
    cl::Hidden, cl::CommaSeparated);
} // namespace

static int fail(Error E) {
  tp::reportError(std::move(E), "tp-llc");
  return 1;
}

/// An error when option \p O was given with an empty value.
static Error checkNotEmpty(const cl::opt<std::string> &O) {
  if (O.getNumOccurrences() && O.empty())
    return tp::makeError("--" + O.ArgStr + "=: expected a value" +
                         (O.ValueStr.empty() ? Twine("")
                                             : " (" + O.ValueStr + ")"));
  return Error::success();
}

static Optional<std::string> given(const cl::opt<std::string> &O) {
  if (!O.getNumOccurrences())
    return None;
  return std::string(O);
}

/// The default pipeline's options from the command line.
static Expected<tp::DefaultPipelineOptions> pipelineOptions() {
  tp::DefaultPipelineOptions Opts;
  Opts.Checked = Checked;
  if (TileSpec.getNumOccurrences()) {
    Expected<std::string> T = tp::driver::normalizeTileOption(TileSpec);
    if (!T)
      return T.takeError();
    Opts.Tile = *T;
  }
  using Mode = tp::DefaultPipelineOptions::StallMode;
  if (CompactOptions == "mode=conservative")
    Opts.Stalls = Mode::Conservative;
  else if (!CompactOptions.empty() && CompactOptions != "mode=compact")
    return tp::makeError("--tp-compact-stalls: expected mode=compact or "
                         "mode=conservative, found '" +
                         CompactOptions + "'");
  if (NoCompact)
    Opts.Stalls = Mode::Off;
  // -tp-regalloc=plan=seed,max-regs=N: parsed into the structured options,
  // never passed on as text.
  SmallVector<StringRef, 2> Items;
  StringRef(RegAllocOptions).split(Items, ',', -1, /*KeepEmpty=*/false);
  for (StringRef Item : Items) {
    StringRef Key, Value;
    std::tie(Key, Value) = Item.trim().split('=');
    unsigned N;
    if (Key == "plan" && (Value == "allocator" || Value == "seed"))
      Opts.RegAllocPlan = Value.str();
    else if (Key == "max-regs" && !Value.getAsInteger(10, N) && N >= 1 &&
             N <= 255)
      Opts.MaxRegs = N;
    else
      return tp::makeError("--tp-regalloc: expected plan=allocator|seed or "
                           "max-regs=1..255, found '" +
                           Item + "'");
  }
  return Opts;
}

/// The option errors found before anything runs.
static Error checkCommandLine() {
  tp::sass::Target T;
  if (!tp::sass::lookupTarget(MCPU, T) ||
      !tp::sass::getTargetInfo(T).GemmCodeGen)
    return tp::makeError("-mcpu: unsupported target '" + MCPU + "' (" +
                         tp::sass::getGemmTargetList() + ")");
  for (const cl::opt<std::string> *O :
       {&Gemm, &LayoutA, &LayoutB, &TileSpec, &KernelName, &StopAfter,
        &StopBefore, &StartAfter, &StartBefore, &InputLevel})
    if (Error E = checkNotEmpty(*O))
      return E;
  if (!InputLevel.empty() && InputLevel != "tile" && InputLevel != "mir")
    return tp::makeError("-x: expected tile or mir, found '" + InputLevel +
                         "'");
  // The checked program runs the loop body exactly twice, whatever K says:
  // a listing to verify, not a kernel to launch.
  if (Checked && Filetype == Obj)
    return tp::makeError(
        "--tp-form-loop-checked builds the checked program (the loop body "
        "twice, no branch), which does not compute the product; it cannot "
        "be written as a cubin (use -filetype=asm or -stop-after)");
  if (Filetype == Obj && OutputFilename == "-")
    return tp::makeError("-filetype=obj needs an output file (-o)");
  if (Filetype == Obj && (!StopAfter.empty() || !StopBefore.empty()))
    return tp::makeError("-stop-after and -stop-before print IR text; it "
                         "cannot be written with -filetype=obj (use "
                         "-filetype=asm)");
  bool FromFile = !InputFilename.empty();
  if (FromFile && (Gemm.getNumOccurrences() || LayoutA.getNumOccurrences() ||
                   LayoutB.getNumOccurrences() || Residual ||
                   AType.getNumOccurrences() || BType.getNumOccurrences() ||
                   DType.getNumOccurrences() || Alpha.getNumOccurrences() ||
                   Beta.getNumOccurrences() || BiasOpt || ReluOpt ||
                   FixedShape.getNumOccurrences() ||
                   BatchOpt.getNumOccurrences()))
    return tp::makeError("--gemm, --layout-a, --layout-b, --residual, "
                         "--a-type, --b-type, --d-type, --alpha, --beta, "
                         "--bias, --relu, --fixed-shape and --batch describe "
                         "a kernel; they cannot be combined with an input "
                         "file");
  if (FromFile && KernelName.getNumOccurrences())
    return tp::makeError("--kernel-name names the kernel the options "
                         "describe; an input file names its own kernels");
  if (!FromFile && !tp::shouldPrintPipeline() &&
      (!StartAfter.empty() || !StartBefore.empty()))
    return tp::makeError("-start-after and -start-before read IR from an "
                         "input file");
  return tp::checkDebugTypes([] {
    std::vector<std::string> Names;
    for (const tp::PassInfo &P : tp::PassRegistry::get().passes())
      Names.push_back(P.Name);
    return Names;
  }());
}

/// The input's level: -x, else the file's extension, else its text.
static Expected<const tp::IRLevel *> inputLevel(StringRef Text) {
  tp::PassRegistry &R = tp::PassRegistry::get();
  StringRef Name = InputLevel;
  StringRef Ext = sys::path::extension(InputFilename);
  if (Name.empty() && Ext == ".tp")
    Name = "tile";
  if (Name.empty() && Ext == ".mir")
    Name = "mir";
  if (!Name.empty())
    return R.lookupLevel(Name);
  if (const tp::IRLevel *L = R.recognize(Text))
    return L;
  return R.lookupLevel("tile");
}

/// The IR's target is its own (a tile IR kernel's target=, a machine IR
/// function's target(...)); -mcpu (default sm_86) must name the same one.
static Error checkInputTarget(const tp::IRUnit &Unit) {
  auto Check = [](StringRef Name, StringRef Level, StringRef Where,
                  StringRef Target) -> Error {
    if (Target == MCPU)
      return Error::success();
    return tp::makeError("@" + Name + " is " + Level + " IR for " + Target +
                         " (its " + Where + "), but the object is for " +
                         MCPU + " (-mcpu)");
  };
  if (Unit.getLevel() == "tile") {
    for (const tp::tile::Kernel &K :
         static_cast<const tp::tile::TileUnit &>(Unit).M.Kernels)
      if (Error E = Check(K.Name, "tile", "target=",
                          tp::sass::getTargetName(tp::tile::getTarget(K))))
        return E;
  } else if (Unit.getLevel() == "mir") {
    for (const tp::mir::Function &F :
         static_cast<const tp::mir::MachineUnit &>(Unit).M.Functions)
      if (Error E = Check(F.Name, "machine", "target(...)", F.Target))
        return E;
  }
  return Error::success();
}

/// The value of --alpha or --beta: a finite number that binary32 holds
/// exactly as written (the manifest records it, tp-sim passes it as f32).
static Expected<double> parseScaleOption(StringRef V, StringRef Opt) {
  double D;
  if (V.trim().getAsDouble(D) || !std::isfinite(D) || double(float(D)) != D)
    return tp::makeError("--" + Opt + "=" + V +
                         ": expected a finite number exact in binary32 "
                         "(e.g. 0.5, 2, -1.25)");
  return D;
}

/// Reads and verifies the input (the file, or the kernel of the options).
static Expected<std::unique_ptr<tp::IRUnit>>
readInput(SourceMgr &SM, ArrayRef<std::unique_ptr<tp::Pass>> Passes) {
  unsigned ID;
  if (InputFilename.empty()) {
    tp::driver::KernelSpec Spec;
    Spec.Gemm = given(Gemm);
    Spec.LayoutA = given(LayoutA);
    Spec.LayoutB = given(LayoutB);
    Spec.Tile = given(TileSpec);
    Spec.Residual = Residual;
    Spec.AType = given(AType);
    Spec.BType = given(BType);
    Spec.DType = given(DType);
    Spec.Scale = Alpha.getNumOccurrences() || Beta.getNumOccurrences();
    Spec.Bias = BiasOpt;
    Spec.Relu = ReluOpt;
    Spec.FixedShape = FixedShape;
    if (BatchOpt.getNumOccurrences())
      Spec.Batch = BatchOpt;
    Spec.Name = KernelName;
    tp::sass::lookupTarget(MCPU, Spec.Target); // checked: a GEMM target
    Expected<std::string> Text = tp::driver::describeKernel(Spec);
    if (!Text)
      return Text.takeError();
    ID = SM.AddNewSourceBuffer(
        MemoryBuffer::getMemBufferCopy(*Text, "<command line>"), SMLoc());
  } else {
    auto Buffer = MemoryBuffer::getFileOrSTDIN(InputFilename);
    if (std::error_code EC = Buffer.getError())
      return tp::makeError("cannot read '" + InputFilename +
                           "': " + EC.message());
    ID = SM.AddNewSourceBuffer(std::move(*Buffer), SMLoc());
  }
  Expected<const tp::IRLevel *> Level =
      inputLevel(SM.getMemoryBuffer(ID)->getBuffer());
  if (!Level)
    return Level.takeError();
  if (!Passes.empty()) {
    const tp::PassInfo *First =
        tp::PassRegistry::get().lookupPass(Passes.front()->getName());
    if (First->InputLevel != (*Level)->Name)
      return tp::makeError(
          "the pipeline starts at " + First->Name + ", which reads " +
          First->InputLevel + " IR, but the input is " + (*Level)->Name +
          " IR (-start-after / -start-before choose where it starts)");
  }
  auto IR = (*Level)->Parse(SM, ID);
  if (!IR)
    return IR.takeError();
  if (Error E = (*Level)->Verify(**IR, SM))
    return E;
  if (Error E = checkInputTarget(**IR))
    return E;
  return std::move(*IR);
}

/// Writes the kernel of \p Unit (machine IR after the whole pipeline).
static Error emit(tp::IRUnit &Unit, tp::sass::Target Tgt, SourceMgr &SM) {
  if (Unit.getLevel() != "mir")
    return tp::makeError("the pipeline ends with " + Unit.getLevel() +
                         " IR; a listing or cubin needs machine IR");
  tp::mir::Module &MM = static_cast<tp::mir::MachineUnit &>(Unit).M;
  if (MM.Functions.size() != 1)
    return tp::makeError("expected one kernel, found " +
                         Twine(MM.Functions.size()));
  tp::mir::Function &F = MM.Functions.front();
  if (F.Target != MCPU)
    return tp::makeError("@" + F.Name + " is machine IR for " + F.Target +
                         " (its target(...)), but the object is for " + MCPU +
                         " (-mcpu)");
  if (VerifyScheduleOpt)
    if (Error E = tp::driver::verifyKernelSchedule(F, SM))
      return E;
  std::string Out = OutputFilename;
  if (Filetype == Obj && Out.empty())
    Out = F.Name + ".cubin";
  if (Filetype == Obj && Out == "-")
    return tp::makeError("-filetype=obj needs an output file (-o)");
  // The same step as the C++ API's compileGemm (tp/Driver/Compile.h).
  tp::EmitOptions EO;
  for (auto [Opt, Dest] : {std::pair<cl::opt<std::string> *, double *>{
                               &Alpha, &EO.Alpha},
                           {&Beta, &EO.Beta}}) {
    if (!Opt->getNumOccurrences())
      continue;
    Expected<double> V = parseScaleOption(*Opt, Opt->ArgStr);
    if (!V)
      return V.takeError();
    *Dest = *V;
  }
  EO.BuildObject = Filetype == Obj;
  EO.BuildListing = Filetype == Asm;
  EO.ManifestName = EO.BuildObject ? tp::getManifestPathFor(Out) : "";
  EO.AssumeUnverified.assign(AssumeUnverified.begin(), AssumeUnverified.end());
  EO.SM = &SM;
  Expected<tp::Kernel> K = tp::emitKernel(F, Tgt, EO);
  if (!K)
    return K.takeError();
  // -stats is LLVM Support's own flag; the passes' counters print at exit.
  if (AreStatisticsEnabled())
    tp::driver::printScheduleFigures(F, errs());

  // The bytes are in memory already: written as they are, not copied.
  if (Filetype == Asm)
    return tp::writeOutputBytes(Out.empty() ? "-" : Out, false, K->getSass());
  // The cubin and its manifest appear together or not at all.
  tp::OutputFile Files[] = {
      {Out, /*Binary=*/true, toStringRef(K->Cubin)},
      {EO.ManifestName, /*Binary=*/false, K->ManifestJSON}};
  return tp::writeOutputs(Files);
}

static int run() {
  if (Error E = checkCommandLine())
    return fail(std::move(E));
  tp::sass::Target Tgt;
  tp::sass::lookupTarget(MCPU, Tgt);

  Expected<tp::DefaultPipelineOptions> PipelineOpts = pipelineOptions();
  if (!PipelineOpts)
    return fail(PipelineOpts.takeError());
  auto Passes = tp::buildDefaultPipeline(*PipelineOpts);
  if (!Passes)
    return fail(Passes.takeError());
  if (Error E = tp::selectRange(
          *Passes, {StartAfter, StartBefore, StopAfter, StopBefore}))
    return fail(std::move(E));
  if (tp::shouldPrintPipeline()) {
    outs() << tp::printPipeline(*Passes) << "\n";
    return 0;
  }

  SourceMgr SM;
  Expected<std::unique_ptr<tp::IRUnit>> IR = readInput(SM, *Passes);
  if (!IR)
    return fail(IR.takeError());
  std::string InputLevel = (*IR)->getLevel().str();
  Expected<tp::PassManager::Options> Opts = tp::getPassManagerOptions();
  if (!Opts)
    return fail(Opts.takeError());
  // The pass manager and the IR live until the process exits: tearing
  // them down (the tile IR the machine IR keeps, every pass) cost a
  // twentieth of the run and frees nothing the process still needs.  As
  // clang's -disable-free, through BuryPointer, so leak checkers still see
  // them reachable.
  auto *PM = new tp::PassManager(std::move(*Opts), errs());
  llvm::BuryPointer(PM);
  for (auto &P : *Passes)
    PM->add(std::move(P));
  std::unique_ptr<tp::IRUnit> Owned = std::move(*IR);
  Error RunErr = PM->run(Owned, SM);
  tp::IRUnit *Unit = Owned.release();
  llvm::BuryPointer(Unit);
  if (RunErr)
    return fail(std::move(RunErr));

  if (!StopAfter.empty() || !StopBefore.empty() ||
      (Unit->getLevel() != "mir" && Filetype == Asm)) {
    const tp::IRLevel *L =
        tp::PassRegistry::get().lookupLevel(Unit->getLevel());
    std::string Out = OutputFilename.empty() ? "-" : OutputFilename.getValue();
    if (Error E = tp::writeOutput(Out, false, [&](raw_ostream &OS) {
                                    L->Print(*Unit, OS);
                                    return Error::success();
                                  }))
      return fail(std::move(E));
    return 0;
  }
  if (Error E = emit(*Unit, Tgt, SM))
    return fail(std::move(E));
  return 0;
}

/// --help's overview; the limits and cards are the targets' own
/// (tile::getTargetLimits).
static std::string getOverview() {
  std::string Limits, Cards;
  for (tp::sass::Target T : tp::tile::getTileTargets()) {
    tp::tile::TargetLimits L = tp::tile::getTargetLimits(T);
    Limits += "    " + L.Name.str() + ": registers <= " +
              std::to_string(L.RegisterLimit) +
              "; shared stages x (BM + BN) x 64 <= " +
              std::to_string(L.SharedCapacity) + " bytes\n";
    Cards += (Cards.empty() ? "" : ", ") + std::to_string(L.CardSMs) +
             " for " + L.Name.str() + " (" + L.Card.str() + ")";
  }
  return "tp-llc: tile IR or machine IR to SASS or a cubin, for " +
         tp::sass::getGemmTargetList() +
         "\n\n"
         "  tp-llc [--gemm=MxNxK] [--layout-a=..] [--layout-b=..] [--tile=..]\n"
         "         [--residual] [--a-type=f16|bf16] [--b-type=f16|bf16]\n"
         "         [--d-type=f32|f16|bf16] [--alpha=X --beta=Y] [--bias] [--relu]\n"
         "         [--fixed-shape | --batch=B]\n"
         "         [-mcpu=sm_86|sm_80|sm_89|sm_90|sm_100|sm_120|sm_121]\n"
         "         [-filetype=asm|obj] -o OUT\n"
         "  tp-llc IN.tp|IN.mir [-start-after=PASS] [-filetype=asm|obj] -o OUT\n"
         "\n"
         "  The target is the IR's (target= in tile IR, target(...) in machine\n"
         "  IR); -mcpu (default sm_86) must name it.\n"
         "  The kernel takes its shape at run time (the default): M, N, K, lda,\n"
         "  ldb, ldc are parameters, any M, N, K >= 1 runs (the edges\n"
         "  predicated), --gemm is the shape the manifest records; at run time\n"
         "  lda, ldb, ldc and the pointers multiples of 8 elements, each operand\n"
         "  < 2^32 bytes. --fixed-shape builds --gemm's shape into the code.\n"
         "  Shapes tp-admit admits (docs/tile-ir.md; BM = 16 warpsM mTiles,\n"
         "  BN = 8 warpsN nTiles; large = 2,4,4,4,4: 128x128, small = 2,2,2,4,4:\n"
         "  64x64, 128x64 = 4,2,2,4,4, 256x128 = 4,2,4,8,4; all 4 stages):\n"
         "    M, N, K >= 1; 4 M N, 2 M K, 2 N K < 2^32 (the recorded shape)\n"
         "    run-time shape: ceil(M / BM) <= 65535, stages a power of two, at\n"
         "      most 6 chunks a thread\n"
         "    --fixed-shape: M % BM = 0, N % BN = 0, K % (32 x stages) = 0,\n"
         "      M / BM <= 65535\n"
         "    16-byte chunks a thread copies a step: 1, 2 or 4 for A and for B\n"
         "    a columns-stored operand: its block extent a power of two >= 64,\n"
         "    at most 4 LDSM addresses a warp (mTiles for A, nTiles / 2 for B)\n" +
         Limits +
         "  Without --tile, tp-tile takes the largest admitted tile whose grid\n"
         "  gives each SM of the target's card a block: " +
         Cards +
         ".\n\n"
         "  Exit status: 0 on success, 1 on any error (the diagnostic on stderr,\n"
         "  no output file).\n";
}

int main(int argc, char **argv) {
  InitLLVM X(argc, argv);
  tp::setClosedPipeHandler("tp-llc");
  tp::setToolVersionPrinter();
  tp::registerAllPasses();
  // -stats (LLVM Support's flag) belongs in this tool's --help.
  if (cl::Option *Stats = cl::getRegisteredOptions().lookup("stats")) {
    Stats->addCategory(LlcCat);
    Stats->setHiddenFlag(cl::NotHidden);
    Stats->setDescription("Print each pass's statistics and the kernel's "
                          "static schedule figures (stderr)");
  }
  tp::addPassManagerOptions(LlcCat);
  cl::HideUnrelatedOptions({&LlcCat, &tp::getDebugCategory()});
  std::string Overview = getOverview();
  cl::ParseCommandLineOptions(argc, argv, Overview);
  int Status = run();
  tp::printStatistics(errs());
  return Status;
}
