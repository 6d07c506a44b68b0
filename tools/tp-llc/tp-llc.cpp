//===- tp-llc.cpp - Tile IR to sm_86 SASS text or a cubin -----------------===//
///
/// \file
/// The llc of tp: runs the whole pipeline
///
///   tp-admit, tp-tile, tp-pipeline, tp-swizzle, tp-select, tp-interleave,
///   tp-regalloc, tp-compact-stalls (when registered), tp-form-loop
///
/// on a tile IR file, or on the kernel the options describe:
///
///   tp-llc --gemm=MxNxK --layout-a=rows|columns --layout-b=rows|columns
///          --tile=large|small|128x64|256x128|WM,WN,MT,NT,S [--residual]
///          -filetype=asm|obj -o gemm.cubin
///
/// With no input and no options it builds the default example (4096 x 4096
/// x 4096, A rows, B columns, the large tile).
///
///  * -filetype=asm (default): the SASS listing, one instruction a line as
///    `tp-mc --disassemble --show-control` prints a cubin's code
///    (`/*addr*/ TEXT {control}`, after a `// .text.<kernel>` line), plus
///    `// ^label:` lines where labels start; ptxas's closing NOP padding to
///    128 bytes included.
///  * -filetype=obj: the cubin (TPObject's ptxas-13 layout) and, beside it,
///    `<out>.json`, the launch manifest.  A block's shared memory above
///    48 KiB is dynamic (the manifest's dynamic_shared_bytes), else static.
///  * -stop-after=PASS prints the IR after PASS instead; -print-after-all
///    dumps after every pass (stderr); --print-pipeline prints the passes;
///    -stats prints the static figures (stderr); -tp-form-loop-checked
///    builds the checked program (loop unrolled twice, no branch).
///
/// Every instruction emitted must be of a form that NVIDIA's bytes confirm
/// (sass::isOracleVerified); otherwise tp-llc stops with an internal error.
///
/// Errors are reported LLVM-style and exit 1; nothing is written then.
///
//===----------------------------------------------------------------------===//

#include "tp/CodeGen/CodeGen.h"
#include "tp/MIR/MIR.h"
#include "tp/Object/CubinFile.h"
#include "tp/Object/Module.h"
#include "tp/Pass/Pass.h"
#include "tp/Pass/PassRegistration.h"
#include "tp/Support/Debug.h"
#include "tp/Support/Diagnostics.h"
#include "tp/Support/LaunchManifest.h"
#include "tp/Support/ToolOutput.h"
#include "tp/TileIR/TileModel.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/ADT/Statistic.h"
#include <set>

using namespace llvm;

namespace {
cl::OptionCategory LlcCat("tp-llc options");

cl::opt<std::string> InputFilename(cl::Positional,
                                   cl::desc("[<input tile IR>]"),
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
cl::opt<std::string> Gemm("gemm", cl::desc("Product shape MxNxK"),
                          cl::value_desc("MxNxK"), cl::cat(LlcCat));
cl::opt<std::string> LayoutA("layout-a", cl::desc("rows or columns"),
                             cl::cat(LlcCat));
cl::opt<std::string> LayoutB("layout-b", cl::desc("rows or columns"),
                             cl::cat(LlcCat));
cl::opt<std::string>
    TileSpec("tile",
             cl::desc("large, small, 128x64, 256x128 or WM,WN,MT,NT,S"),
             cl::cat(LlcCat));
cl::opt<bool> Residual("residual", cl::desc("C = A B + R"), cl::cat(LlcCat));
cl::opt<std::string> KernelName("kernel-name",
                                cl::desc("Kernel symbol (default gemm)"),
                                cl::init("gemm"), cl::cat(LlcCat));
cl::opt<std::string> MCPU("mcpu", cl::desc("Target: sm_86 (default) or sm_90"),
                          cl::init("sm_86"), cl::cat(LlcCat));
cl::opt<bool> TimePasses("time-passes",
                         cl::desc("Time each pass and print the report to "
                                  "stderr"),
                         cl::cat(LlcCat));
cl::opt<bool> PrintAfterAll("print-after-all",
                            cl::desc("Print the IR after every pass"),
                            cl::cat(LlcCat));
cl::opt<std::string> StopAfter("stop-after",
                               cl::desc("Stop after PASS, print its IR"),
                               cl::value_desc("PASS"), cl::cat(LlcCat));
cl::opt<bool> PrintPipeline("print-pipeline",
                            cl::desc("Print the pass pipeline and stop"),
                            cl::cat(LlcCat));
cl::opt<bool> Checked("tp-form-loop-checked",
                      cl::desc("Build the checked program (loop unrolled "
                               "twice, no branch)"),
                      cl::cat(LlcCat));
cl::opt<std::string>
    CompactOptions("tp-compact-stalls",
                   cl::desc("Options for tp-compact-stalls (e.g. "
                            "mode=conservative)"),
                   cl::init(""), cl::cat(LlcCat));
cl::opt<std::string>
    RegAllocOptions("tp-regalloc",
                    cl::desc("Options for tp-regalloc (e.g. plan=seed: the "
                             "seed's register plan pre-assigned)"),
                    cl::init(""), cl::cat(LlcCat));
cl::opt<bool> NoCompact("no-compact-stalls",
                        cl::desc("Keep tp-select's conservative stalls"),
                        cl::cat(LlcCat));
// Testing only: shows checkOracleVerified's error on a kernel that has no
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

/// Code generation emits only forms whose encoding NVIDIA's bytes confirm
/// (sass::isOracleVerified): every word of a kernel we ship must be one
/// that ptxas or the reference corpus has shown us.  Checked here, on the
/// final instruction stream (the NOP padding included), and not by the MIR
/// verifier: machine IR, like tp-mc's input, may hold any form the ISA
/// layer encodes (hand-written tests do), while this guarantee is about
/// what tp-llc emits.  A failure is a bug in a pass (tp-select chose the
/// form), hence an internal error naming the instruction.
static Error checkOracleVerified(const tp::mir::Function &F) {
  std::set<std::string> Assumed;
  for (const std::string &Name : AssumeUnverified) {
    tp::sass::Opcode Op;
    if (!tp::sass::lookupOpcode(Name, Op))
      return tp::makeError("-assume-unverified: no form named '" + Name + "'");
    Assumed.insert(Name);
  }
  Error Err = Error::success();
  F.forEach([&](const tp::mir::Piece &P, const tp::mir::MInstr &MI,
                uint64_t Addr) {
    const char *Name = tp::sass::getInstrInfo(MI.I.Op).Name;
    if (Err || (tp::sass::isOracleVerified(MI.I.Op) && !Assumed.count(Name)))
      return;
    std::string Msg;
    raw_string_ostream OS(Msg);
    OS << "internal error: code generation produced '";
    tp::sass::print(MI.I, Addr, OS);
    OS << "' (form " << Name << ") at /*" << format_hex_no_prefix(Addr, 4)
       << "*/ in @" << F.Name << ", piece " << P.Name
       << ", whose encoding no NVIDIA reference word confirms "
          "(unittests/Target/SM86UncoveredForms.txt)";
    Err = tp::makeError(OS.str());
  });
  return Err;
}

/// The tile IR of the kernel the options describe.
static Expected<std::string> describeKernel() {
  int64_t M = 4096, N = 4096, K = 4096;
  if (!Gemm.empty()) {
    SmallVector<StringRef, 3> Parts;
    StringRef(Gemm).split(Parts, 'x');
    if (Parts.size() != 3 || Parts[0].getAsInteger(10, M) ||
        Parts[1].getAsInteger(10, N) || Parts[2].getAsInteger(10, K))
      return tp::makeError("--gemm: expected MxNxK (three decimal "
                           "integers), found '" +
                           Gemm + "'");
  }
  auto Layout = [](const std::string &V, const char *Opt,
                   const char *Default) -> Expected<std::string> {
    if (V.empty())
      return std::string(Default);
    if (V != "rows" && V != "columns")
      return tp::makeError(Twine(Opt) + ": expected rows or columns, found '" +
                           V + "'");
    return V;
  };
  Expected<std::string> A = Layout(LayoutA, "--layout-a", "rows");
  if (!A)
    return A.takeError();
  Expected<std::string> B = Layout(LayoutB, "--layout-b", "columns");
  if (!B)
    return B.takeError();
  std::string S;
  raw_string_ostream OS(S);
  OS << "tp.kernel @" << KernelName
     << "(%C: ptr<f32>, %A: ptr<f16>, %B: ptr<f16>"
     << (Residual ? ", %R: ptr<f32>" : "") << ") target=sm_86 {\n"
     << "  tp.matmul %C, %A, %B" << (Residual ? ", %R" : "") << " m=" << M
     << " n=" << N << " k=" << K << " a=" << *A << " b=" << *B;
  // The default example uses the large tile; otherwise tp-tile chooses
  // unless --tile says (passed as tp-tile's option).
  if (TileSpec.empty() && Gemm.empty())
    OS << " tile=large";
  OS << " : f16 x f16 -> f32\n}\n";
  return OS.str();
}

static void printListing(const tp::mir::Function &F, raw_ostream &OS) {
  OS << "// .text." << F.Name << "\n";
  F.forEach([&](const tp::mir::Piece &, const tp::mir::MInstr &MI,
                uint64_t Addr) {
    if (!MI.Label.empty())
      OS << "// ^" << MI.Label << ":\n";
    OS << "/*" << format_hex_no_prefix(Addr, 4) << "*/ ";
    tp::sass::print(MI.I, Addr, OS);
    OS << ' ';
    // As tp-mc --disassemble: operand reuse flags show as `.reuse` only.
    tp::sass::Control C = MI.I.Ctrl;
    C.Reuse &= ~tp::mir::operandReuseMask(MI.I.Op);
    tp::sass::printControl(C, OS);
    OS << '\n';
  });
}

/// Appends ptxas's NOP padding to a multiple of 128 bytes (the pad NOP's
/// control word is 0x7e0: stall 0, bit 109 clear, no scoreboards;
/// SASS_FACTS.md 1.2).
static Error padFunction(tp::mir::Function &F) {
  tp::sass::Control C;
  C.Stall = 0;
  C.Yield = true;
  tp::mir::Piece *Last = &F.Pieces.back();
  while (F.size() % 8) {
    Expected<tp::mir::MInstr> Nop = tp::mir::makeInstr("NOP", C);
    if (!Nop)
      return Nop.takeError();
    Last->Instrs.push_back(*Nop);
  }
  return Error::success();
}

static void printStats(const tp::mir::Function &F, raw_ostream &OS) {
  tp::ScheduleStats S = tp::computeStats(F);
  OS << "tp-llc statistics for @" << F.Name << ":\n"
     << "  instructions:                       " << S.Instructions << "\n"
     << "  loop body instructions:             " << S.LoopBody << "\n"
     << "  HMMA instructions:                  " << S.HMMAs << "\n"
     << "  loop HMMA instructions:             " << S.LoopHMMAs << "\n"
     << "  loop issue cycles:                  " << S.LoopCycles << "\n"
     << "  issue cycles per k-step per warp:   "
     << format("%.2f", S.cyclesPerKStep()) << "\n"
     << "  registers:                          " << F.Regs << "\n"
     << "  shared bytes:                       " << F.SharedBytes << "\n";
}

static Expected<tp::LaunchManifest> makeManifest(const tp::mir::Function &F,
                                                 bool Dynamic) {
  tp::LaunchManifest M;
  M.Kernel = F.Name;
  M.Target = F.Target;
  auto Ints = [&](StringRef Key, char Sep) {
    SmallVector<StringRef, 3> P;
    F.getAttr(Key).getValueOr("").split(P, Sep);
    std::vector<uint64_t> V;
    for (StringRef X : P) {
      uint64_t I = 0;
      X.trim().getAsInteger(10, I);
      V.push_back(I);
    }
    return V;
  };
  std::vector<uint64_t> Grid = Ints("grid", ','), Shape = Ints("shape", 'x');
  if (Grid.size() != 3 || Shape.size() != 3)
    return tp::makeError("@" + F.Name +
                         ": machine IR lacks grid() or shape() attributes");
  M.Grid = {uint32_t(Grid[0]), uint32_t(Grid[1]), uint32_t(Grid[2])};
  M.Block = {uint32_t(F.getIntAttr("threads").getValueOr(0)), 1, 1};
  M.DynamicSharedBytes = Dynamic ? F.SharedBytes : 0;
  M.StaticSharedBytes = Dynamic ? 0 : F.SharedBytes;
  M.M = Shape[0];
  M.N = Shape[1];
  M.K = Shape[2];
  M.LayoutA = tp::parseLayoutName(F.getAttr("layout-a").getValueOr(""))
                  .getValueOr(tp::OperandLayout::Rows);
  M.LayoutB = tp::parseLayoutName(F.getAttr("layout-b").getValueOr(""))
                  .getValueOr(tp::OperandLayout::Columns);
  M.Residual = F.getIntAttr("residual").getValueOr(0) != 0;
  SmallVector<StringRef, 4> Params;
  F.getAttr("params").getValueOr("C,A,B").split(Params, ',');
  uint32_t Off = 0;
  for (StringRef P : Params) {
    Optional<tp::ParamRole> R = tp::parseRoleName(P.trim());
    if (!R)
      return tp::makeError("@" + F.Name + ": unknown parameter role '" + P +
                           "'");
    M.Params.push_back({P.trim().str(), *R, Off, 8});
    Off += 8;
  }
  return M;
}

static Expected<std::vector<uint8_t>> makeCubin(const tp::mir::Function &F,
                                                bool Dynamic,
                                                size_t NumParams,
                                                tp::sass::Target Tgt) {
  tp::object::Kernel K;
  K.Name = F.Name;
  F.forEach([&](const tp::mir::Piece &, const tp::mir::MInstr &MI,
                uint64_t) {
    tp::sass::Word128 W = tp::sass::encode(MI.I, Tgt);
    for (unsigned B = 0; B < 8; ++B)
      K.Code.push_back(uint8_t(W.Lo >> (8 * B)));
    for (unsigned B = 0; B < 8; ++B)
      K.Code.push_back(uint8_t(W.Hi >> (8 * B)));
  });
  for (size_t I = 0; I < NumParams; ++I) {
    tp::object::KernelParam P;
    P.Offset = 8 * I;
    P.Size = 8;
    K.Params.push_back(P);
  }
  K.RegCount = F.Regs;
  K.NumBarriers = 1;
  if (Dynamic) {
    K.SharedBytes = 0;
    K.HasSharedSection = true;
  } else {
    K.SharedBytes = F.SharedBytes;
  }
  unsigned SM = tp::sass::getTargetSM(Tgt);
  tp::object::scanControlFlow(K, tp::object::getOpcodeClassifier(SM));
  tp::object::Module M;
  M.SM = SM;
  M.Tool.Version = "tp 0.1.0 (tensor-core backend for NVIDIA " +
                   tp::sass::getTargetName(Tgt).str() + ")";
  M.Tool.Options = "-arch " + tp::sass::getTargetName(Tgt).str() + " ";
  M.Kernels.push_back(std::move(K));
  Expected<tp::object::CubinFile> CF = tp::object::buildCubin(M);
  if (!CF)
    return CF.takeError();
  std::vector<uint8_t> Bytes;
  if (Error E = tp::object::writeCubinFile(*CF, Bytes))
    return E;
  return Bytes;
}

int main(int argc, char **argv) {
  InitLLVM X(argc, argv);
  tp::setToolVersionPrinter();
  tp::registerAllPasses();
  tp::PassRegistry &Registry = tp::PassRegistry::get();
  cl::HideUnrelatedOptions({&LlcCat, &tp::getDebugCategory()});
  cl::ParseCommandLineOptions(argc, argv,
                              "tp-llc: tile IR to sm_86 SASS or a cubin\n");

  // sm_90 (td/Targets.td): tp-select takes the target's constant bank and
  // shared window; the words are encoded for it; the cubin is ptxas's
  // sm_90 layout.  The tile IR keeps target=sm_86 (its admission limits
  // are the stricter ones).
  tp::sass::Target Tgt;
  if ((MCPU != "sm_86" && MCPU != "sm_90") ||
      !tp::sass::lookupTarget(MCPU, Tgt))
    return fail(tp::makeError("-mcpu: unsupported target '" + MCPU +
                              "' (sm_86 or sm_90)"));
  const bool Hopper = Tgt == tp::sass::Target::SM90;
  if (!InputFilename.empty() &&
      (!Gemm.empty() || !LayoutA.empty() || !LayoutB.empty() || Residual))
    return fail(tp::makeError("--gemm, --layout-a, --layout-b and --residual "
                              "describe a kernel; they cannot be combined "
                              "with an input file"));

  // The pipeline.
  std::vector<std::pair<std::string, std::string>> Names = {
      {"tp-admit", ""},     {"tp-tile", ""},       {"tp-pipeline", ""},
      {"tp-swizzle", ""},   {"tp-select", ""},     {"tp-interleave", ""},
      {"tp-regalloc", RegAllocOptions},
      {"tp-compact-stalls", CompactOptions}, {"tp-form-loop", ""}};
  if (!TileSpec.empty())
    Names[1].second = "tile=" + TileSpec;
  if (Hopper)
    Names[4].second = "target=sm_90";
  if (Checked)
    Names.back().second = "checked=1";
  std::vector<std::unique_ptr<tp::Pass>> Passes;
  for (auto &N : Names) {
    if (!Registry.lookupPass(N.first)) {
      if (N.first == "tp-compact-stalls")
        continue; // not built into this tree yet: conservative stalls stay
      return fail(tp::makeError("pass '" + N.first + "' is not registered"));
    }
    if (N.first == "tp-compact-stalls" && NoCompact)
      continue; // the conservative stalls of tp-select stay
    auto P = Registry.createPass(N.first, N.second);
    if (!P)
      return fail(P.takeError());
    Passes.push_back(std::move(*P));
  }
  if (!StopAfter.empty()) {
    auto It = llvm::find_if(Passes, [](const std::unique_ptr<tp::Pass> &P) {
      return P->getName() == StopAfter;
    });
    if (It == Passes.end())
      return fail(tp::makeError("-stop-after: pass '" + StopAfter +
                                "' is not in the pipeline"));
    Passes.erase(It + 1, Passes.end());
  }
  if (PrintPipeline) {
    for (size_t I = 0; I < Passes.size(); ++I) {
      outs() << (I ? "," : "") << Passes[I]->getName();
      for (auto &N : Names)
        if (N.first == Passes[I]->getName() && !N.second.empty())
          outs() << '{' << N.second << '}';
    }
    outs() << "\n";
    return 0;
  }

  // The input.
  SourceMgr SM;
  unsigned ID;
  if (InputFilename.empty()) {
    Expected<std::string> Text = describeKernel();
    if (!Text)
      return fail(Text.takeError());
    ID = SM.AddNewSourceBuffer(
        MemoryBuffer::getMemBufferCopy(*Text, "<command line>"), SMLoc());
  } else {
    auto Buffer = MemoryBuffer::getFileOrSTDIN(InputFilename);
    if (std::error_code EC = Buffer.getError())
      return fail(tp::makeError("cannot read '" + InputFilename +
                                "': " + EC.message()));
    ID = SM.AddNewSourceBuffer(std::move(*Buffer), SMLoc());
  }
  const tp::IRLevel *Tile = Registry.lookupLevel("tile");
  auto IR = Tile->Parse(SM, ID);
  if (!IR)
    return fail(IR.takeError());
  if (Error E = Tile->Verify(**IR, SM))
    return fail(std::move(E));

  tp::PassManager::Options Opts;
  Opts.PrintAfterAll = PrintAfterAll;
  Opts.TimePasses = TimePasses;
  tp::PassManager PM(std::move(Opts), errs());
  for (auto &P : Passes)
    PM.add(std::move(P));
  std::unique_ptr<tp::IRUnit> Unit = std::move(*IR);
  if (Error E = PM.run(Unit, SM))
    return fail(std::move(E));

  std::string Out = OutputFilename;
  if (!StopAfter.empty() || Unit->getLevel() != "mir") {
    const tp::IRLevel *L = Registry.lookupLevel(Unit->getLevel());
    if (Error E = tp::writeOutput(Out.empty() ? "-" : Out, false,
                                  [&](raw_ostream &OS) {
                                    L->Print(*Unit, OS);
                                    return Error::success();
                                  }))
      return fail(std::move(E));
    return 0;
  }

  tp::mir::Module &MM = static_cast<tp::mir::MachineUnit &>(*Unit).M;
  if (MM.Functions.size() != 1)
    return fail(tp::makeError("expected one kernel, found " +
                              Twine(MM.Functions.size())));
  tp::mir::Function &F = MM.Functions.front();
  if (Error E = padFunction(F))
    return fail(std::move(E));
  if (Error E = F.resolveBranches())
    return fail(std::move(E));
  if (Error E = checkOracleVerified(F))
    return fail(std::move(E));
  // -stats is LLVM Support's own flag.
  if (AreStatisticsEnabled())
    printStats(F, errs());

  if (Filetype == Asm) {
    if (Error E = tp::writeOutput(Out.empty() ? "-" : Out, false,
                                  [&](raw_ostream &OS) {
                                    printListing(F, OS);
                                    return Error::success();
                                  }))
      return fail(std::move(E));
    return 0;
  }

  if (Out.empty())
    Out = F.Name + ".cubin";
  if (Out == "-")
    return fail(tp::makeError("-filetype=obj needs an output file (-o)"));
  // Static shared memory is limited to 48 KiB, sm_90's reserved 1 KiB
  // included (SASS_FACTS 3.3); above it the buffers are dynamic.
  bool Dynamic = F.SharedBytes + (Hopper ? 0x400 : 0) > 48 * 1024;
  Expected<tp::LaunchManifest> Manifest = makeManifest(F, Dynamic);
  if (!Manifest)
    return fail(Manifest.takeError());
  if (Error E = tp::validateLaunchManifest(*Manifest, Out + ".json"))
    return fail(std::move(E));
  Expected<std::vector<uint8_t>> Bytes =
      makeCubin(F, Dynamic, Manifest->Params.size(), Tgt);
  if (!Bytes)
    return fail(Bytes.takeError());
  if (Error E = tp::writeOutput(Out, true, [&](raw_ostream &OS) {
        OS.write(reinterpret_cast<const char *>(Bytes->data()),
                 Bytes->size());
        return Error::success();
      }))
    return fail(std::move(E));
  if (Error E = tp::writeLaunchManifest(*Manifest,
                                        tp::getManifestPathFor(Out)))
    return fail(std::move(E));
  return 0;
}
