//===- tp-sim.cpp - Run an sm_86 or sm_90 cubin on the CPU ----------------===//
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
/// Exit codes (--help, docs/tp-sim.md): 0 success, 1 wrong result, hazards
/// or execution error (unsupported instructions and kernels included),
/// 2 usage or input errors: options, --param values, launches the hardware
/// refuses, sizes beyond the simulator's 4 GiB of global memory, unreadable
/// files.
///
//===----------------------------------------------------------------------===//
#include "tp/Target/SASS/LatencyEvidence.h"
#include "tp/Sim/Simulator.h"
#include "tp/Sim/Timing.h"
#include "tp/Support/LaunchManifest.h"
#include "tp/Support/ReferenceGemm.h"
#include "tp/Support/ToolOutput.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"
#include <chrono>
#include <functional>
#include <cmath>
#include <cstring>
#include <ctime>
#include <limits>

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
                          cl::desc("Host threads running blocks (default 1); "
                                   "results equal one thread's (a kernel "
                                   "that reads and writes one buffer is "
                                   "rerun on one)"),
                          cl::init(1), cl::cat(SimCat));
cl::alias ThreadsJ("j", cl::desc("Alias for --threads"),
                   cl::aliasopt(Threads), cl::cat(SimCat));
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
                    cl::desc("Print instruction counts and simulation speed "
                             "(the launch's wall time; warp and thread "
                             "instructions per second)"),
                    cl::cat(SimCat));
// GEMM mode's epilogue (issue 16).
cl::opt<std::string> AlphaOpt("alpha",
                              cl::desc("GEMM mode: the alpha to pass (default: "
                                       "the manifest's)"),
                              cl::value_desc("X"), cl::cat(SimCat));
cl::opt<std::string> BetaOpt("beta",
                             cl::desc("GEMM mode: the beta to pass (default: "
                                      "the manifest's)"),
                             cl::value_desc("Y"), cl::cat(SimCat));
cl::opt<std::string> CInput(
    "c-input",
    cl::desc("GEMM mode, a kernel with alpha and beta: what C (the R "
             "buffer) holds: random (default) values, or nan (quiet NaNs: "
             "with beta = 0 none may reach D)"),
    cl::value_desc("random|nan"), cl::init("random"), cl::cat(SimCat));
cl::opt<bool> InPlace(
    "in-place",
    cl::desc("GEMM mode, a kernel with alpha and beta: pass one buffer as C "
             "and D (R = C, holding C's values; D = alpha A B + beta C "
             "overwrites it)"),
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
cl::opt<std::string> TimingCard(
    "timing",
    cl::desc("Model the run's time on CARD (a name in bench/cards, e.g. "
             "rtx3090, a10, a40, a100, h100-sxm, h200, or a card file): the blocks "
             "one SM holds run through a cycle model of the SM, the grid in "
             "waves over the card's SMs (docs/timing-model.md)"),
    cl::value_desc("card"), cl::cat(SimCat));
cl::opt<std::string> TimingJSON(
    "timing-json",
    cl::desc("With --timing: also write the timing report as JSON to FILE"),
    cl::value_desc("file"), cl::cat(SimCat));
cl::opt<std::string> TimelineSVG(
    "timeline",
    cl::desc("With --timing: draw sub-partition 0's schedule over the "
             "middle 2048 cycles as an SVG picture (issues coloured by "
             "pipe, stalls by reason, the tensor pipe's busy time)"),
    cl::value_desc("file.svg"), cl::cat(SimCat));
cl::opt<bool> TimingSample(
    "timing-sample",
    cl::desc("With --timing: run only the blocks one SM holds at once (the "
             "ones the model needs), not the whole grid; GEMM mode then "
             "skips the result check"),
    cl::cat(SimCat));

cl::list<std::string> ParamOpts(
    "param",
    cl::desc("A kernel parameter, in parameter order (generic mode):\n"
             "  u32=V | s32=V | u64=V            an integer, range-checked\n"
             "  f32=V                            a number (within binary32)\n"
             "  bytes=HEX                        the parameter's bytes in\n"
             "                                   memory order (any size)\n"
             "  buf:in=FILE                      a buffer with FILE's bytes\n"
             "  buf:inout=FILE[:OUT]             same, written back to OUT\n"
             "                                   (default FILE) after the run\n"
             "  buf:out=FILE:BYTES               BYTES filled with 0xff,\n"
             "                                   written to FILE after the run\n"
             "  buf:zero=BYTES                   BYTES of zeros, not saved\n"
             "Buffers are passed as 64-bit global addresses; all of them\n"
             "together may hold at most 4 GiB."),
    cl::value_desc("spec"), cl::cat(SimCat));

const char *const Overview =
    "tp-sim: run a kernel of an sm_86 or sm_90 cubin on the CPU\n\n"
    "  tp-sim gemm.cubin [--manifest M] [--seed S] [--check-schedule]\n"
    "      runs a GEMM kernel described by its launch manifest and checks\n"
    "      C against a double-precision reference\n"
    "  tp-sim X.cubin --kernel K --grid X,Y,Z --block X,Y,Z [--shared B]\n"
    "      --param SPEC ...\n"
    "      runs a kernel with the given parameters (generic mode)\n"
    "  tp-sim --latency-report X.cubin [Y.cubin...]\n"
    "      checks the latency model against ptxas's schedules\n"
    "  tp-sim ... --timing=CARD [--timing-json=F] [--timing-sample]\n"
    "      also models the run's cycles on a card: cycles per block and\n"
    "      kernel, time, TFLOP/s (GEMM), issue and tensor-pipe use, stall\n"
    "      reasons (Nsight Compute's names); exit 1 on a timing hazard\n\n"
    "Supported (docs/tp-sim.md has the details):\n"
    "  integer  IMAD (all forms) IADD3 VIADD LOP3 MOV IABS SEL IMNMX SHF LEA\n"
    "           ISETP PRMT PLOP3 FLO POPC BREV\n"
    "  float    FADD FMUL FFMA FSETP FSEL FMNMX F2I I2F I2FP F2F F2FP.PACK_AB\n"
    "           HADD2 HMUL2 HFMA2 (f16)\n"
    "  uniform  S2R S2UR CS2R ULDC LDC UMOV UIADD3 ULOP3 USHF UIMAD ULEA\n"
    "           UISETP USEL VOTEU R2UR UFLO UPOPC UBREV\n"
    "  warp     VOTE SHFL (all modes) REDUX\n"
    "  memory   LDG STG LDS STS LDL STL LDSM LDGSTS LDGDEPBAR DEPBAR ATOMS\n"
    "           ATOMG RED REDG (32-bit, with a descriptor; ATOMG.CAS)\n"
    "  tensor   HMMA.16816/.1688 .F32/.F16 (f16 inputs), .F32.BF16\n"
    "  control  BRA (divergent paths reconverge at BSYNC) EXIT BSSY BSYNC\n"
    "           WARPSYNC BAR.SYNC 0 NOP\n"
    "Refused with an error: MUFU (hardware approximations), TF32/sparse\n"
    "HMMA, FP64, 64-bit and generic (ATOM) atomics, MATCH, LD/ST,\n"
    "CALL/RET/BRX, a SHFL or\n"
    "WARPSYNC needing lanes of another path, clusters of more than one CTA.\n"
    "Global memory: at most 4 GiB of buffers in all.\n\n"
    "Exit codes:\n"
    "  0  success (GEMM mode: PASS; no hazard with --check-schedule)\n"
    "  1  wrong result, hazards, or an execution error: an out-of-bounds\n"
    "     access, an instruction or kernel (clusters) the simulator does\n"
    "     not support, a convergence barrier that never completes (each\n"
    "     names block, warp, address and instruction)\n"
    "  2  usage or input errors: bad options or --param values, a launch\n"
    "     the hardware would refuse (block, grid, shared memory), sizes\n"
    "     beyond the simulator's memory, unreadable cubin or manifest\n";

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

/// The wall and CPU time (every host thread's) of one launch.
class LaunchClock {
public:
  struct Times {
    double Wall, CPU;
  };
  Times elapsed() const {
    return {std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                          Wall0)
                .count(),
            double(std::clock() - CPU0) / CLOCKS_PER_SEC};
  }

private:
  std::chrono::steady_clock::time_point Wall0 =
      std::chrono::steady_clock::now();
  std::clock_t CPU0 = std::clock();
};

/// The launch's counts; with -print-stats its speed: wall time, warp and
/// thread instructions per wall second, and thread instructions per CPU
/// second (the per-core rate, which the load of a shared machine does not
/// change much).
void printStats(const sim::LaunchStats &S, LaunchClock::Times T) {
  outs() << "instructions: " << S.WarpInstructions << " warp, "
         << S.ThreadInstructions << " thread; blocks " << S.Blocks;
  if (CheckSchedule)
    outs() << "; longest warp " << S.MaxCycles << " cycles";
  outs() << "\n";
  if (Stats) {
    auto Rate = [](uint64_t N, double Secs) { return Secs > 0 ? N / Secs : 0.0; };
    outs() << format("speed: %.3f s, %.3g warp instructions/s, %.3g thread "
                     "instructions/s; CPU %.3f s, %.3g thread instructions "
                     "per CPU second\n",
                     T.Wall, Rate(S.WarpInstructions, T.Wall),
                     Rate(S.ThreadInstructions, T.Wall), T.CPU,
                     Rate(S.ThreadInstructions, T.CPU));
    if (S.Serialised)
      outs() << "serialised: a buffer is both read and written (blocks may "
                "communicate); the blocks ran on one host thread\n";
  }
}

int reportHazards(const sim::LaunchStats &S) {
  if (!CheckSchedule)
    return 0;
  for (const std::string &H : S.HazardReports)
    outs() << H << "\n";
  outs() << "hazards: " << S.Hazards << "\n";
  return S.Hazards ? 1 : 0;
}

/// --timing: the card, or a usage error (exit 2) in \p Rc.
Optional<sim::Card> loadTimingCard(const sim::KernelImage &K, int &Rc) {
  auto C = sim::loadCard(TimingCard, sim::getDefaultCardsDir());
  if (!C) {
    Rc = usage("--timing: " + toString(C.takeError()));
    return None;
  }
  // SASS runs only on its major architecture (sm_86 code on sm_8x cards).
  if (C->Arch / 10 != K.SM / 10) {
    Rc = usage("--timing: card '" + C->Name + "' is sm_" + Twine(C->Arch) +
               ", the cubin is sm_" + Twine(K.SM) + " code");
    return None;
  }
  return std::move(*C);
}

/// Models, prints and writes the timing report; the exit code (1 on a
/// timing hazard, 2 when the JSON cannot be written).
/// With --timing: the timing model of \p Prog on the card, observing the
/// launch \p Cfg (with --timing-sample, of the blocks it samples); 0, or
/// the exit status of the error it reported.
int attachTimingModel(const sim::KernelImage &K, const sim::Program &Prog,
                      sim::LaunchConfig &Cfg,
                      std::unique_ptr<sim::TimingModel> &TM) {
  if (TimingCard.empty())
    return 0;
  int Rc = 0;
  Optional<sim::Card> C = loadTimingCard(K, Rc);
  if (!C)
    return Rc;
  TM = std::make_unique<sim::TimingModel>(Prog, *C, Cfg);
  if (Error E = TM->checkFits())
    return usage("--timing: " + toString(std::move(E)));
  Cfg.Observer = TM.get();
  if (TimingSample)
    Cfg.MaxBlocks = TM->getSampledBlocks();
  return 0;
}

int reportTiming(const sim::TimingModel &TM, double Flops, double Bytes) {
  auto T0 = std::chrono::steady_clock::now();
  sim::Timeline TL;
  sim::TimingResult R =
      TM.model(Flops, Bytes, TimelineSVG.empty() ? nullptr : &TL);
  double Secs = std::chrono::duration<double>(
                    std::chrono::steady_clock::now() - T0)
                    .count();
  sim::printTiming(outs(), R);
  if (Stats)
    outs() << format("timing speed: %.3f s, %.3g warp instructions/s\n",
                     Secs, Secs > 0 ? R.WarpInstructions / Secs : 0.0);
  if (!TimingJSON.empty())
    if (Error E = writeOutput(TimingJSON, /*Binary=*/false,
                              [&](raw_ostream &OS) -> Error {
                                sim::writeTimingJSON(OS, R);
                                return Error::success();
                              })) {
      WithColor::error(errs(), "tp-sim") << toString(std::move(E)) << "\n";
      return 2;
    }
  if (!TimelineSVG.empty())
    if (Error E = writeOutput(TimelineSVG, /*Binary=*/false,
                              [&](raw_ostream &OS) -> Error {
                                sim::writeTimelineSVG(OS, TL, R.Card);
                                return Error::success();
                              })) {
      WithColor::error(errs(), "tp-sim") << toString(std::move(E)) << "\n";
      return 2;
    }
  return R.Hazards ? 1 : 0;
}

struct OutBuf {
  uint64_t Addr;
  std::string Path;
};

/// The value of an integer parameter kind, range-checked: u32 0..2^32-1,
/// s32 -2^31..2^31-1, u64 0..2^64-1 (decimal, 0x hex, 0b binary, 0 or 0o
/// octal: StringRef::getAsInteger with radix 0).
Expected<uint64_t> parseIntParam(StringRef Kind, StringRef Value) {
  auto Range = [&](const char *R) {
    return createStringError(inconvertibleErrorCode(),
                             "expected an integer in %s, found '%s'", R,
                             Value.str().c_str());
  };
  if (Kind == "s32") {
    int32_t V;
    if (Value.getAsInteger(0, V))
      return Range("-2147483648..2147483647");
    return uint64_t(uint32_t(V));
  }
  if (Kind == "u32") {
    uint32_t V;
    if (Value.getAsInteger(0, V))
      return Range("0..4294967295");
    return V;
  }
  uint64_t V;
  if (Value.getAsInteger(0, V))
    return Range("0..18446744073709551615");
  return V;
}

/// A buffer parameter `buf:KIND=...`: allocates it in \p Mem and returns
/// its address; output buffers are added to \p Outs.
Expected<uint64_t> parseBufferParam(StringRef How, StringRef Value,
                                    sim::GlobalMemory &Mem,
                                    std::vector<OutBuf> &Outs) {
  auto Fail = [](const Twine &Msg) {
    return createStringError(inconvertibleErrorCode(), Msg);
  };
  auto Size = [&](StringRef S, const char *Form) -> Expected<uint64_t> {
    uint64_t N;
    if (S.getAsInteger(0, N))
      return Fail(Twine("expected ") + Form + ", BYTES an integer");
    return N;
  };
  if (How == "in" || How == "inout") {
    auto [File, OutFile] = Value.split(':');
    auto MB = MemoryBuffer::getFile(File, /*IsText=*/false);
    if (!MB)
      return Fail("cannot read '" + File + "': " + MB.getError().message());
    Expected<uint64_t> Addr = Mem.allocate((*MB)->getBufferSize());
    if (!Addr)
      return Addr.takeError();
    memcpy(Mem.getBuffer(*Addr).data(), (*MB)->getBufferStart(),
           (*MB)->getBufferSize());
    if (How == "inout")
      Outs.push_back({*Addr, (OutFile.empty() ? File : OutFile).str()});
    return Addr;
  }
  if (How == "out") {
    auto [File, BytesS] = Value.rsplit(':');
    if (File.empty())
      return Fail("expected buf:out=FILE:BYTES");
    Expected<uint64_t> N = Size(BytesS, "buf:out=FILE:BYTES");
    if (!N)
      return N.takeError();
    Expected<uint64_t> Addr = Mem.allocate(*N);
    if (!Addr)
      return Addr.takeError();
    memset(Mem.getBuffer(*Addr).data(), 0xff, *N);
    Outs.push_back({*Addr, File.str()});
    return Addr;
  }
  if (How == "zero") {
    Expected<uint64_t> N = Size(Value, "buf:zero=BYTES");
    if (!N)
      return N.takeError();
    return Mem.allocate(*N);
  }
  return Fail("unknown buffer kind '" + How +
              "' (expected in, inout, out, zero)");
}

/// One --param \p Spec for parameter \p Size bytes at \p Dst.
Error parseParam(StringRef Spec, unsigned Size, uint8_t *Dst,
                 sim::GlobalMemory &Mem, std::vector<OutBuf> &Outs) {
  auto Fail = [](const Twine &Msg) {
    return createStringError(inconvertibleErrorCode(), Msg);
  };
  auto Expect = [&](unsigned Bytes) -> Error {
    if (Size != Bytes)
      return Fail("the parameter has " + Twine(Size) + " bytes, expected " +
                  Twine(Bytes));
    return Error::success();
  };
  auto [Kind, Value] = Spec.split('=');
  if (Kind == "u32" || Kind == "s32" || Kind == "u64") {
    if (Error E = Expect(Kind == "u64" ? 8 : 4))
      return E;
    Expected<uint64_t> V = parseIntParam(Kind, Value);
    if (!V)
      return V.takeError();
    memcpy(Dst, &*V, Size); // little endian: the low bytes
    return Error::success();
  }
  if (Kind == "f32") {
    if (Error E = Expect(4))
      return E;
    double D;
    if (Value.getAsDouble(D))
      return Fail("expected a number");
    // Rounded to the nearest binary32; a finite value beyond its range is
    // an error, never infinity.
    if (std::isfinite(D) && !std::isfinite(float(D)))
      return Fail("'" + Value + "' is beyond the range of binary32");
    uint32_t V = floatBits(float(D));
    memcpy(Dst, &V, 4);
    return Error::success();
  }
  if (Kind == "bytes") {
    if (Value.size() != 2 * uint64_t(Size))
      return Fail("the parameter has " + Twine(Size) + " bytes, " +
                  Twine(Value.size()) + " hex digits given");
    for (unsigned B = 0; B < Size; ++B)
      if (Value.substr(2 * B, 2).getAsInteger(16, Dst[B]))
        return Fail("expected hex digits");
    return Error::success();
  }
  if (!Kind.startswith("buf:"))
    return Fail("expected u32=, s32=, f32=, u64=, bytes= or buf:...");
  if (Size != 8)
    return Fail("a buffer is a 64-bit pointer; the parameter has " +
                Twine(Size) + " bytes");
  Expected<uint64_t> Addr = parseBufferParam(Kind.drop_front(4), Value, Mem,
                                             Outs);
  if (!Addr)
    return Addr.takeError();
  memcpy(Dst, &*Addr, 8);
  return Error::success();
}

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
    auto [Off, Size] = K->Params[I];
    if (Cfg.Params.size() < Off + Size)
      Cfg.Params.resize(Off + Size);
    if (Error E = parseParam(ParamOpts[I], Size, &Cfg.Params[Off], Mem, Outs))
      return usage("--param " + ParamOpts[I] + " (parameter " + Twine(I) +
                   "): " + toString(std::move(E)));
  }
  if (Error E = sim::checkLaunchConfig(*K, Cfg))
    return usage(toString(std::move(E)));
  auto P = sim::buildProgram(*K);
  if (!P) {
    WithColor::error(errs(), "tp-sim") << toString(P.takeError()) << "\n";
    return 1;
  }
  std::unique_ptr<sim::TimingModel> TM;
  if (int Rc = attachTimingModel(*K, **P, Cfg, TM))
    return Rc;
  if (TM) // the grid touches at most the launch's buffers
    TM->setFootprint(Mem.getAllocatedBytes());
  LaunchClock Clock;
  auto S = sim::launch(**P, Mem, Cfg);
  LaunchClock::Times Secs = Clock.elapsed();
  if (!S) {
    WithColor::error(errs(), "tp-sim") << toString(S.takeError()) << "\n";
    return 1;
  }
  // Every output buffer's file, or none of them (ToolOutput.h): a failure
  // at the second file must not leave the first behind.
  std::vector<std::function<Error(raw_ostream &)>> Writers;
  for (const OutBuf &O : Outs)
    Writers.push_back([&Mem, Addr = O.Addr](raw_ostream &OS) -> Error {
      ArrayRef<uint8_t> Buf = Mem.getBuffer(Addr);
      OS.write((const char *)Buf.data(), Buf.size());
      return Error::success();
    });
  std::vector<OutputFile> Files;
  for (size_t I = 0; I < Outs.size(); ++I)
    Files.push_back({Outs[I].Path, /*Binary=*/true, Writers[I]});
  if (Error E = writeOutputs(Files)) {
    WithColor::error(errs(), "tp-sim") << toString(std::move(E)) << "\n";
    return 2;
  }
  printStats(*S, Secs);
  int Rc = reportHazards(*S);
  if (TM)
    Rc = std::max(Rc, reportTiming(*TM, 0, 0));
  return Rc;
}

/// --alpha, --beta and --c-input against the manifest's kernel: the
/// values into \p Prob; a usage error (2) when the kernel takes none.
int applyEpilogueOptions(const LaunchManifest &Man, GemmProblem &Prob) {
  if (CInput != "random" && CInput != "nan")
    return usage("--c-input=" + CInput + ": expected random or nan");
  for (auto [Opt, Dest] : {std::pair<cl::opt<std::string> *, double *>{
                               &AlphaOpt, &Prob.Alpha},
                           {&BetaOpt, &Prob.Beta}}) {
    if (!Opt->getNumOccurrences())
      continue;
    if (!Man.HasScale)
      return usage("--" + Opt->ArgStr +
                   ": the kernel takes no alpha and beta (its manifest has "
                   "no \"alpha\" field)");
    double D;
    if (StringRef(*Opt).getAsDouble(D) || !std::isfinite(D) ||
        double(float(D)) != D)
      return usage("--" + Opt->ArgStr + "=" + *Opt +
                   ": expected a finite number exact in binary32");
    *Dest = D;
  }
  if ((CInput.getNumOccurrences() || InPlace) && !Man.HasScale)
    return usage(Twine(InPlace ? "--in-place" : "--c-input") +
                 ": the kernel reads no C (no alpha and beta)");
  return 0;
}

/// A GEMM's host operands and where they sit in simulated memory.
struct GemmOperands {
  std::vector<uint16_t> A, B;
  std::vector<float> R, Bias; ///< R: C's values (any D type) as floats
  uint64_t AAddr = 0, BAddr = 0, CAddr = 0, RAddr = 0, BiasAddr = 0;
};

/// Fills A, B (their types' values), R (C's, in D's type; NaN with
/// --c-input=nan) and the bias from --seed, places them in \p Mem with D
/// poisoned (or, --in-place, holding C), within the size checked before.
GemmOperands prepareGemmOperands(const GemmProblem &Prob,
                                 sim::GlobalMemory &Mem) {
  GemmOperands Ops;
  std::vector<uint16_t> &A = Ops.A, &B = Ops.B;
  std::vector<float> &R = Ops.R, &Bias = Ops.Bias;
  const unsigned DBytes = getElementTypeBytes(Prob.DType);
  A.resize(Prob.elementsA());
  B.resize(Prob.elementsB());
  const bool HasR = Prob.Residual || Prob.Scale;
  R.resize(HasR ? Prob.elementsC() : 0);
  Bias.resize(Prob.Bias ? Prob.N : 0);
  fillRandomOperand(A, Seed, StreamA, Prob.AType);
  fillRandomOperand(B, Seed, StreamB, Prob.BType);
  // C (the R buffer) holds D's type: f32, or f16/bf16 values exact in it.
  std::vector<uint8_t> RBytes;
  if (HasR) {
    fillRandomFloats(R, Seed, StreamR);
    if (DBytes == 2) {
      std::vector<uint16_t> R16(R.size());
      fillRandomOperand(R16, Seed, StreamR, Prob.DType);
      for (size_t I = 0; I < R.size(); ++I)
        R[I] = float(operandValue(R16[I], Prob.DType));
    }
  }
  if (Prob.Scale && CInput == "nan")
    std::fill(R.begin(), R.end(), std::numeric_limits<float>::quiet_NaN());
  for (float X : R) {
    uint32_t W = DBytes == 4 ? floatBits(X)
                 : Prob.DType == ElementType::BF16 ? floatToBFloat16(X)
                                                   : floatToHalf(X);
    for (unsigned Byte = 0; Byte < DBytes; ++Byte)
      RBytes.push_back(uint8_t(W >> (8 * Byte)));
  }
  if (Prob.Bias)
    fillRandomFloats(Bias, Seed, StreamBias);
  uint64_t &AAddr = Ops.AAddr, &BAddr = Ops.BAddr, &CAddr = Ops.CAddr,
           &RAddr = Ops.RAddr, &BiasAddr = Ops.BiasAddr;
  AAddr = cantFail(Mem.allocate(A.size() * 2));
  BAddr = cantFail(Mem.allocate(B.size() * 2));
  CAddr = cantFail(Mem.allocate(Prob.elementsC() * DBytes));
  RAddr = HasR && !InPlace ? cantFail(Mem.allocate(RBytes.size()))
          : InPlace       ? CAddr
                          : 0;
  BiasAddr = Prob.Bias ? cantFail(Mem.allocate(Bias.size() * 4)) : 0;
  memcpy(Mem.getBuffer(AAddr).data(), A.data(), A.size() * 2);
  memcpy(Mem.getBuffer(BAddr).data(), B.data(), B.size() * 2);
  if (HasR && !InPlace)
    memcpy(Mem.getBuffer(RAddr).data(), RBytes.data(), RBytes.size());
  if (Prob.Bias)
    memcpy(Mem.getBuffer(BiasAddr).data(), Bias.data(), Bias.size() * 4);
  if (InPlace) {
    memcpy(Mem.getBuffer(CAddr).data(), RBytes.data(), RBytes.size());
  } else {
    auto C = Mem.getBuffer(CAddr);
    uint16_t Poison16 = getPoison16(Prob.DType);
    for (uint64_t I = 0; I < Prob.elementsC(); ++I)
      if (DBytes == 4)
        memcpy(&C[4 * I], &PoisonBits, 4);
      else
        memcpy(&C[2 * I], &Poison16, 2);
  }
  return Ops;
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
  if (int Rc = applyEpilogueOptions(*Man, Prob))
    return Rc;
  // A, B, C and R in simulated global memory, checked against its limit
  // before the host arrays are made.
  const unsigned DBytes = getElementTypeBytes(Prob.DType);
  double Need = 2.0 * (double(Prob.M) * Prob.K + double(Prob.K) * Prob.N) +
                double(DBytes) * Prob.M * Prob.N *
                    (Prob.Residual || Prob.Scale ? 2 : 1);
  if (Need > double(sim::GlobalMemory::MaxTotalBytes))
    return usage(MPath + ": a " + Twine(Prob.M) + "x" + Twine(Prob.N) + "x" +
                 Twine(Prob.K) + " GEMM needs " +
                 Twine(uint64_t(std::min(Need, 1e19))) +
                 " bytes of global memory, beyond the simulator's " +
                 Twine(sim::GlobalMemory::MaxTotalBytes) + " (4 GiB)");
  sim::GlobalMemory Mem;
  GemmOperands Ops = prepareGemmOperands(Prob, Mem);
  const std::vector<uint16_t> &A = Ops.A, &B = Ops.B;
  const std::vector<float> &R = Ops.R, &Bias = Ops.Bias;
  const uint64_t AAddr = Ops.AAddr, BAddr = Ops.BAddr, CAddr = Ops.CAddr,
                 RAddr = Ops.RAddr, BiasAddr = Ops.BiasAddr;
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
    case ParamRole::Alpha: V = floatBits(float(Prob.Alpha)); break;
    case ParamRole::Beta: V = floatBits(float(Prob.Beta)); break;
    case ParamRole::Bias: V = BiasAddr; break;
    }
    memcpy(&Cfg.Params[MP.Offset], &V, MP.Size);
  }
  if (Error E = sim::checkLaunchConfig(*K, Cfg))
    return usage(MPath + ": " + toString(std::move(E)));
  if (K->StaticSharedBytes != Man->StaticSharedBytes)
    WithColor::warning(errs(), "tp-sim")
        << "the manifest says " << Man->StaticSharedBytes
        << " static shared bytes, the cubin " << K->StaticSharedBytes << "\n";
  auto P = sim::buildProgram(*K);
  if (!P) {
    WithColor::error(errs(), "tp-sim") << toString(P.takeError()) << "\n";
    return 1;
  }
  std::unique_ptr<sim::TimingModel> TM;
  if (int Rc = attachTimingModel(*K, **P, Cfg, TM))
    return Rc;
  outs() << "kernel " << K->Name << ": " << Prob.M << "x" << Prob.N << "x"
         << Prob.K << ", A " << getLayoutName(Prob.LayoutA) << ", B "
         << getLayoutName(Prob.LayoutB)
         << (Prob.Residual ? ", residual" : "")
         << (Prob.Scale ? formatv(", alpha {0} beta {1}{2}{3}", Prob.Alpha,
                                  Prob.Beta,
                                  CInput == "nan" ? " (C all NaN)" : "",
                                  InPlace ? ", C = D in place" : "")
                              .str()
                        : std::string())
         << (Prob.Bias ? ", bias" : "") << (Prob.Relu ? ", relu" : "")
         << (Man->hasDefaultTypes()
                 ? std::string()
                 : (", " + getElementTypeName(Prob.AType) + " x " +
                    getElementTypeName(Prob.BType) + " -> " +
                    getElementTypeName(Prob.DType))
                       .str())
         << "; grid " << Cfg.Grid[0]
         << "," << Cfg.Grid[1] << "," << Cfg.Grid[2] << " block "
         << Cfg.Block[0] << "," << Cfg.Block[1] << "," << Cfg.Block[2]
         << "; seed " << Seed << "\n";
  LaunchClock Clock;
  auto S = sim::launch(**P, Mem, Cfg);
  LaunchClock::Times Secs = Clock.elapsed();
  if (!S) {
    WithColor::error(errs(), "tp-sim") << toString(S.takeError()) << "\n";
    return 1;
  }
  printStats(*S, Secs);
  int TimingRc = 0;
  if (TM) {
    // Compulsory DRAM traffic: A and B read once, C written (R read) once.
    double Bytes = 2.0 * (double(Prob.M) * Prob.K + double(Prob.K) * Prob.N) +
                   double(DBytes) * Prob.M * Prob.N *
                       (Prob.Residual || Prob.Scale ? 2 : 1);
    TimingRc = reportTiming(*TM, 2.0 * Prob.M * Prob.N * Prob.K, Bytes);
    if (TimingSample) {
      outs() << "timing sample: " << S->Blocks
             << " block(s) run, result check skipped\n";
      return std::max(TimingRc, reportHazards(*S));
    }
  }
  std::vector<float> C =
      widenD(Mem.getBuffer(CAddr).take_front(Prob.elementsC() * DBytes),
             Prob.DType);
  std::vector<double> Ref;
  referenceGemm(Prob, A, B, R, Bias, Ref);
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
  return Pass ? TimingRc : 1;
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
        sass::Word128 W = sass::readWord(makeArrayRef(K->Code).slice(I * 16));
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
  // Usage errors exit 2 here, as documented, not cl's 1.
  if (!cl::ParseCommandLineOptions(argc, argv, Overview, &errs()))
    return 2;
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
