//===- tp-sim.cpp - Run an sm_86 cubin on the CPU -------------------------===//
///
/// \file
/// Two modes:
///
///  * GEMM mode, `tp-sim gemm.cubin [--manifest M] [--seed S]`: reads the
///    launch manifest (default: gemm.cubin.json), fills A and B (and R)
///    with seeded binary16 values, poisons C, runs the kernel, computes the
///    product in double precision and prints the relative Frobenius error
///    and the largest element error.  Exit 0 only when every element of C
///    was written, the error is within --tolerance, and (with
///    --check-schedule) no hazard was reported.
///
///  * Generic mode, `tp-sim X.cubin --kernel K --grid X,Y,Z --block X,Y,Z
///    [--shared BYTES] --param P ...`: launches any kernel with parameters
///    given in order (see --help for the syntax) and writes output buffers
///    to files.
///
/// Exit codes: 0 success, 1 wrong result, hazards or execution error,
/// 2 bad usage or unreadable input.
///
//===----------------------------------------------------------------------===//
#include "tp/Target/SASS/LatencyEvidence.h"
#include "tp/Sim/Simulator.h"
#include "tp/Support/LaunchManifest.h"
#include "tp/Support/ReferenceGemm.h"
#include "tp/Support/ToolOutput.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"
#include <chrono>
#include <cmath>
#include <cstring>

using namespace llvm;
using namespace tp;

namespace {
cl::OptionCategory SimCat("tp-sim options");

cl::opt<std::string> InputFilename(cl::Positional, cl::desc("<cubin>"),
                                   cl::Required, cl::cat(SimCat));
cl::list<std::string> MoreInputs(cl::Positional,
                                 cl::desc("[<cubin>...] (--latency-report)"),
                                 cl::ZeroOrMore, cl::cat(SimCat));
cl::opt<bool> LatencyReport(
    "latency-report",
    cl::desc("Check the latency model of the cubins' target against the "
             "stalls ptxas wrote in them (every kernel of every cubin "
             "given; one target): print each dependency pair's model "
             "cycles, ptxas's smallest spacing and count; fail when the "
             "model is above any spacing or below the smallest"),
    cl::cat(SimCat));
cl::opt<std::string> ManifestPath(
    "manifest", cl::desc("Launch manifest (default: <cubin>.json)"),
    cl::value_desc("file"), cl::cat(SimCat));
cl::opt<uint64_t> Seed("seed", cl::desc("Seed of the random A, B, R"),
                       cl::init(1), cl::cat(SimCat));
cl::opt<double> Tolerance("tolerance",
                          cl::desc("Largest relative Frobenius error "
                                   "accepted (default 1e-3)"),
                          cl::init(1e-3), cl::cat(SimCat));
cl::opt<unsigned> Threads("threads",
                          cl::desc("Host threads running blocks (default 1)"),
                          cl::init(1), cl::cat(SimCat));
cl::opt<bool> CheckSchedule(
    "check-schedule",
    cl::desc("Hazard mode: report any register read before its producer's "
             "latency or scoreboard allows it, and any shared-memory read "
             "of async-copied bytes not yet waited for and published by a "
             "barrier; hazards make the run fail"),
    cl::cat(SimCat));
cl::opt<unsigned> MaxHazards("max-hazards",
                             cl::desc("Hazard reports printed (default 20)"),
                             cl::init(20), cl::cat(SimCat));
cl::opt<bool> Stats("print-stats",
                    cl::desc("Print instruction counts and simulation speed"),
                    cl::cat(SimCat));
// Generic mode.
cl::opt<std::string> KernelName("kernel",
                                cl::desc("Kernel to run (generic mode)"),
                                cl::cat(SimCat));
cl::opt<std::string> GridOpt("grid", cl::desc("Grid X[,Y[,Z]] (generic mode)"),
                             cl::cat(SimCat));
cl::opt<std::string> BlockOpt("block",
                              cl::desc("Block X[,Y[,Z]] (generic mode)"),
                              cl::cat(SimCat));
cl::opt<unsigned> SharedOpt("shared",
                            cl::desc("Dynamic shared memory bytes (generic "
                                     "mode; static shared comes from the "
                                     "cubin)"),
                            cl::init(0), cl::cat(SimCat));
cl::list<std::string> ParamOpts(
    "param",
    cl::desc("A kernel parameter, in parameter order (generic mode):\n"
             "  u32=V | s32=V | f32=V | u64=V    a scalar\n"
             "  bytes=HEX                        the parameter's bytes in\n"
             "                                   memory order (any size)\n"
             "  buf:in=FILE                      a buffer with FILE's bytes\n"
             "  buf:inout=FILE[:OUT]             same, written back to OUT\n"
             "                                   (default FILE) after the run\n"
             "  buf:out=FILE:BYTES               BYTES filled with 0xff,\n"
             "                                   written to FILE after the run\n"
             "  buf:zero=BYTES                   BYTES of zeros, not saved\n"
             "Buffers are passed as 64-bit global addresses."),
    cl::value_desc("spec"), cl::cat(SimCat));

int usage(const Twine &Msg) {
  WithColor::error(errs(), "tp-sim") << Msg << "\n";
  return 2;
}

bool parseDim(StringRef S, std::array<uint32_t, 3> &Out) {
  SmallVector<StringRef, 3> Parts;
  S.split(Parts, ',');
  if (Parts.empty() || Parts.size() > 3)
    return false;
  Out = {1, 1, 1};
  for (unsigned I = 0; I < Parts.size(); ++I)
    if (Parts[I].trim().getAsInteger(0, Out[I]) || !Out[I])
      return false;
  return true;
}

void printStats(const sim::LaunchStats &S, double Seconds) {
  outs() << "instructions: " << S.WarpInstructions << " warp, "
         << S.ThreadInstructions << " thread; blocks " << S.Blocks;
  if (CheckSchedule)
    outs() << "; longest warp " << S.MaxCycles << " cycles";
  outs() << "\n";
  if (Stats)
    outs() << format("speed: %.3f s, %.3g warp instructions/s\n", Seconds,
                     Seconds > 0 ? S.WarpInstructions / Seconds : 0.0);
}

int reportHazards(const sim::LaunchStats &S) {
  if (!CheckSchedule)
    return 0;
  for (const std::string &H : S.HazardReports)
    outs() << H << "\n";
  outs() << "hazards: " << S.Hazards << "\n";
  return S.Hazards ? 1 : 0;
}

struct OutBuf {
  uint64_t Addr;
  std::string Path;
};

int runGeneric(ArrayRef<uint8_t> Bytes) {
  auto K = sim::loadKernel(Bytes, KernelName);
  if (!K)
    return usage(InputFilename + ": " + toString(K.takeError()));
  sim::LaunchConfig Cfg;
  if (!parseDim(GridOpt, Cfg.Grid))
    return usage("--grid: expected X[,Y[,Z]] of positive integers, found '" +
                 GridOpt + "'");
  if (!parseDim(BlockOpt, Cfg.Block))
    return usage("--block: expected X[,Y[,Z]] of positive integers, found '" +
                 BlockOpt + "'");
  Cfg.DynamicSharedBytes = SharedOpt;
  Cfg.CheckSchedule = CheckSchedule;
  Cfg.Threads = Threads;
  Cfg.MaxHazardReports = MaxHazards;
  if (ParamOpts.size() != K->Params.size())
    return usage("kernel '" + K->Name + "' takes " + Twine(K->Params.size()) +
                 " parameters, " + Twine(ParamOpts.size()) + " given");
  sim::GlobalMemory Mem;
  std::vector<OutBuf> Outs;
  for (unsigned I = 0; I < ParamOpts.size(); ++I) {
    StringRef Spec = ParamOpts[I];
    auto [Off, Size] = K->Params[I];
    if (Cfg.Params.size() < Off + Size)
      Cfg.Params.resize(Off + Size);
    uint8_t *Dst = &Cfg.Params[Off];
    auto Bad = [&](const Twine &Why) {
      return usage("--param " + Spec + " (parameter " + Twine(I) + "): " +
                   Why);
    };
    auto [Kind, Value] = Spec.split('=');
    if (Kind == "u32" || Kind == "s32" || Kind == "f32") {
      if (Size != 4)
        return Bad("the parameter has " + Twine(Size) + " bytes, expected 4");
      uint32_t V;
      if (Kind == "f32") {
        double D;
        if (Value.getAsDouble(D))
          return Bad("expected a number");
        V = floatBits(float(D));
      } else {
        int64_t S;
        if (Value.getAsInteger(0, S))
          return Bad("expected an integer");
        V = uint32_t(S);
      }
      memcpy(Dst, &V, 4);
      continue;
    }
    if (Kind == "u64") {
      uint64_t V;
      if (Size != 8)
        return Bad("the parameter has " + Twine(Size) + " bytes, expected 8");
      if (Value.getAsInteger(0, V))
        return Bad("expected an integer");
      memcpy(Dst, &V, 8);
      continue;
    }
    if (Kind == "bytes") {
      if (Value.size() != 2 * Size)
        return Bad("the parameter has " + Twine(Size) + " bytes, " +
                   Twine(Value.size()) + " hex digits given");
      for (unsigned B = 0; B < Size; ++B)
        if (Value.substr(2 * B, 2).getAsInteger(16, Dst[B]))
          return Bad("expected hex digits");
      continue;
    }
    if (!Kind.startswith("buf:"))
      return Bad("expected u32=, s32=, f32=, u64=, bytes= or buf:...");
    if (Size != 8)
      return Bad("a buffer is a 64-bit pointer; the parameter has " +
                 Twine(Size) + " bytes");
    StringRef How = Kind.drop_front(4);
    uint64_t Addr;
    if (How == "in" || How == "inout") {
      auto [File, OutFile] = Value.split(':');
      auto MB = MemoryBuffer::getFile(File, /*IsText=*/false);
      if (!MB)
        return Bad("cannot read '" + File + "': " + MB.getError().message());
      Addr = Mem.allocate((*MB)->getBufferSize());
      memcpy(Mem.getBuffer(Addr).data(), (*MB)->getBufferStart(),
             (*MB)->getBufferSize());
      if (How == "inout")
        Outs.push_back({Addr, (OutFile.empty() ? File : OutFile).str()});
    } else if (How == "out") {
      auto [File, BytesS] = Value.rsplit(':');
      uint64_t N;
      if (File.empty() || BytesS.getAsInteger(0, N))
        return Bad("expected buf:out=FILE:BYTES");
      Addr = Mem.allocate(N);
      memset(Mem.getBuffer(Addr).data(), 0xff, N);
      Outs.push_back({Addr, File.str()});
    } else if (How == "zero") {
      uint64_t N;
      if (Value.getAsInteger(0, N))
        return Bad("expected buf:zero=BYTES");
      Addr = Mem.allocate(N);
    } else {
      return Bad("unknown buffer kind '" + How +
                 "' (expected in, inout, out, zero)");
    }
    memcpy(Dst, &Addr, 8);
  }
  auto P = sim::buildProgram(*K);
  if (!P) {
    WithColor::error(errs(), "tp-sim") << toString(P.takeError()) << "\n";
    return 1;
  }
  auto T0 = std::chrono::steady_clock::now();
  auto S = sim::launch(**P, Mem, Cfg);
  double Secs = std::chrono::duration<double>(
                    std::chrono::steady_clock::now() - T0)
                    .count();
  if (!S) {
    WithColor::error(errs(), "tp-sim") << toString(S.takeError()) << "\n";
    return 1;
  }
  for (const OutBuf &O : Outs) {
    auto Buf = Mem.getBuffer(O.Addr);
    if (Error E = writeOutput(O.Path, /*Binary=*/true,
                              [&](raw_ostream &OS) -> Error {
                                OS.write((const char *)Buf.data(), Buf.size());
                                return Error::success();
                              })) {
      WithColor::error(errs(), "tp-sim") << toString(std::move(E)) << "\n";
      return 2;
    }
  }
  printStats(*S, Secs);
  return reportHazards(*S);
}

int runGemm(ArrayRef<uint8_t> Bytes) {
  std::string MPath = ManifestPath.empty()
                          ? getManifestPathFor(InputFilename)
                          : std::string(ManifestPath);
  auto Man = readLaunchManifest(MPath);
  if (!Man)
    return usage(toString(Man.takeError()));
  auto K = sim::loadKernel(Bytes, Man->Kernel);
  if (!K)
    return usage(InputFilename + ": " + toString(K.takeError()));
  if (Man->Target != "sm_" + std::to_string(K->SM))
    return usage(MPath + ": the manifest is for " + Man->Target + ", " +
                 InputFilename + " is an sm_" + Twine(K->SM) + " cubin");
  GemmProblem Prob = GemmProblem::fromManifest(*Man);
  sim::GlobalMemory Mem;
  std::vector<uint16_t> A(Prob.elementsA()), B(Prob.elementsB());
  std::vector<float> R(Prob.Residual ? Prob.elementsC() : 0);
  fillRandomHalves(A, Seed, StreamA);
  fillRandomHalves(B, Seed, StreamB);
  if (Prob.Residual)
    fillRandomFloats(R, Seed, StreamR);
  uint64_t AAddr = Mem.allocate(A.size() * 2), BAddr = Mem.allocate(B.size() * 2),
           CAddr = Mem.allocate(Prob.elementsC() * 4),
           RAddr = Prob.Residual ? Mem.allocate(R.size() * 4) : 0;
  memcpy(Mem.getBuffer(AAddr).data(), A.data(), A.size() * 2);
  memcpy(Mem.getBuffer(BAddr).data(), B.data(), B.size() * 2);
  if (Prob.Residual)
    memcpy(Mem.getBuffer(RAddr).data(), R.data(), R.size() * 4);
  {
    auto C = Mem.getBuffer(CAddr);
    for (uint64_t I = 0; I < Prob.elementsC(); ++I)
      memcpy(&C[4 * I], &PoisonBits, 4);
  }
  sim::LaunchConfig Cfg;
  Cfg.Grid = Man->Grid;
  Cfg.Block = Man->Block;
  Cfg.DynamicSharedBytes = Man->DynamicSharedBytes;
  Cfg.CheckSchedule = CheckSchedule;
  Cfg.Threads = Threads;
  Cfg.MaxHazardReports = MaxHazards;
  Cfg.Params.resize(Man->getParamBlockSize());
  for (const ManifestParam &MP : Man->Params) {
    uint64_t V = 0;
    switch (MP.Role) {
    case ParamRole::A: V = AAddr; break;
    case ParamRole::B: V = BAddr; break;
    case ParamRole::C: V = CAddr; break;
    case ParamRole::R: V = RAddr; break;
    case ParamRole::M: V = Prob.M; break;
    case ParamRole::N: V = Prob.N; break;
    case ParamRole::K: V = Prob.K; break;
    }
    memcpy(&Cfg.Params[MP.Offset], &V, MP.Size);
  }
  if (K->StaticSharedBytes != Man->StaticSharedBytes)
    WithColor::warning(errs(), "tp-sim")
        << "the manifest says " << Man->StaticSharedBytes
        << " static shared bytes, the cubin " << K->StaticSharedBytes << "\n";
  auto P = sim::buildProgram(*K);
  if (!P) {
    WithColor::error(errs(), "tp-sim") << toString(P.takeError()) << "\n";
    return 1;
  }
  outs() << "kernel " << K->Name << ": " << Prob.M << "x" << Prob.N << "x"
         << Prob.K << ", A " << getLayoutName(Prob.LayoutA) << ", B "
         << getLayoutName(Prob.LayoutB)
         << (Prob.Residual ? ", residual" : "") << "; grid " << Cfg.Grid[0]
         << "," << Cfg.Grid[1] << "," << Cfg.Grid[2] << " block "
         << Cfg.Block[0] << "," << Cfg.Block[1] << "," << Cfg.Block[2]
         << "; seed " << Seed << "\n";
  auto T0 = std::chrono::steady_clock::now();
  auto S = sim::launch(**P, Mem, Cfg);
  double Secs = std::chrono::duration<double>(
                    std::chrono::steady_clock::now() - T0)
                    .count();
  if (!S) {
    WithColor::error(errs(), "tp-sim") << toString(S.takeError()) << "\n";
    return 1;
  }
  printStats(*S, Secs);
  std::vector<float> C(Prob.elementsC());
  memcpy(C.data(), Mem.getBuffer(CAddr).data(), C.size() * 4);
  std::vector<double> Ref;
  referenceGemm(Prob, A, B, R, Ref);
  GemmErrors E = compareGemm(C, Ref);
  outs() << format("relative Frobenius error: %.3e\n", E.RelFrobenius)
         << format("max element error: %.3e at (%llu, %llu)\n", E.MaxAbsError,
                   (unsigned long long)(E.MaxIndex / Prob.N),
                   (unsigned long long)(E.MaxIndex % Prob.N))
         << "unwritten elements: " << E.Unwritten
         << ", non-finite: " << E.NonFinite << "\n";
  if (E.FirstBad != UINT64_MAX)
    outs() << "first bad element: (" << E.FirstBad / Prob.N << ", "
           << E.FirstBad % Prob.N << ")\n";
  int HRc = reportHazards(*S);
  bool Pass = E.passes(Tolerance) && !HRc;
  outs() << (Pass ? "PASS" : "FAIL") << "\n";
  return Pass ? 0 : 1;
}
/// --latency-report: every kernel of every input into one LatencyEvidence.
int runLatencyReport() {
  std::vector<std::string> Files = {InputFilename};
  Files.insert(Files.end(), MoreInputs.begin(), MoreInputs.end());
  Optional<sass::Target> Target;
  Optional<sched::LatencyEvidence> Evidence;
  for (const std::string &F : Files) {
    auto MB = MemoryBuffer::getFile(F, /*IsText=*/false);
    if (!MB)
      return usage("cannot read '" + F + "': " + MB.getError().message());
    ArrayRef<uint8_t> Bytes((const uint8_t *)(*MB)->getBufferStart(),
                            (*MB)->getBufferSize());
    auto Names = sim::listKernels(Bytes);
    if (!Names)
      return usage(F + ": " + toString(Names.takeError()));
    for (const std::string &N : *Names) {
      auto K = sim::loadKernel(Bytes, N);
      if (!K)
        return usage(F + ": " + toString(K.takeError()));
      sass::Target T = K->SM == 90 ? sass::Target::SM90 : sass::Target::SM86;
      if (Target && *Target != T)
        return usage(F + ": kernel '" + N + "' is sm_" + Twine(K->SM) +
                     "; --latency-report takes cubins of one target");
      Target = T;
      if (!Evidence)
        Evidence.emplace(T);
      std::vector<sass::Instruction> Code(K->Code.size() / 16);
      for (size_t I = 0; I < Code.size(); ++I) {
        sass::Word128 W;
        memcpy(&W.Lo, &K->Code[I * 16], 8);
        memcpy(&W.Hi, &K->Code[I * 16 + 8], 8);
        auto In = sass::decodeOrError(W, I * 16, T);
        if (!In)
          return usage(F + ": kernel '" + N + "': " + toString(In.takeError()));
        Code[I] = *In;
      }
      if (Error E = Evidence->addKernel(F + ":" + N, Code)) {
        WithColor::error(errs(), "tp-sim") << toString(std::move(E)) << "\n";
        return 1;
      }
    }
  }
  return Evidence->report(outs()) ? 1 : 0;
}
} // namespace

int main(int argc, char **argv) {
  InitLLVM X(argc, argv);
  setToolVersionPrinter();
  cl::HideUnrelatedOptions(SimCat);
  cl::ParseCommandLineOptions(
      argc, argv,
      "tp-sim: run an sm_86 cubin on the CPU\n\n"
      "  tp-sim gemm.cubin [--manifest M] [--seed S] [--check-schedule]\n"
      "      runs a GEMM kernel described by its launch manifest and checks\n"
      "      C against a double-precision reference\n"
      "  tp-sim X.cubin --kernel K --grid X,Y,Z --block X,Y,Z [--shared B]\n"
      "      --param SPEC ...\n"
      "      runs any kernel (generic mode)\n"
      "  tp-sim --latency-report X.cubin [Y.cubin...]\n"
      "      checks the latency model against ptxas's schedules\n");
  if (LatencyReport)
    return runLatencyReport();
  if (!MoreInputs.empty())
    return usage("one cubin expected (several only with --latency-report)");
  auto MB = MemoryBuffer::getFile(InputFilename, /*IsText=*/false);
  if (!MB)
    return usage("cannot read '" + InputFilename +
                 "': " + MB.getError().message());
  ArrayRef<uint8_t> Bytes((const uint8_t *)(*MB)->getBufferStart(),
                          (*MB)->getBufferSize());
  if (!GridOpt.empty() || !BlockOpt.empty() || !ParamOpts.empty()) {
    if (GridOpt.empty() || BlockOpt.empty())
      return usage("generic mode needs --grid and --block");
    return runGeneric(Bytes);
  }
  return runGemm(Bytes);
}
