//===- tp-sim.cpp - Run an sm_80/86/89/90 cubin on the CPU ----------------===//
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
#include "tp/Support/Diagnostics.h"
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
cl::opt<std::string> ShapeOpt(
    "shape",
    cl::desc("GEMM mode: run a run-time-shape kernel (manifest format 2) at "
             "MxNxK or MxNxKxB (B products, each 16 elements beyond the "
             "previous one's extent), dense leading dimensions rounded up "
             "to 8 elements, the grid from the shape and the manifest's "
             "tile (default: the recorded shape)"),
    cl::value_desc("MxNxK[xB]"), cl::cat(SimCat));
cl::opt<uint64_t> Seed("seed", cl::desc("Seed of the random A, B, R"),
                       cl::init(1), cl::cat(SimCat));
cl::opt<double> Tolerance("tolerance",
                          cl::desc("Largest relative Frobenius error "
                                   "accepted (default 1e-3)"),
                          cl::init(DefaultGemmTolerance), cl::cat(SimCat));
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
cl::opt<uint64_t> MaxWarpInstructions(
    "max-warp-instructions",
    cl::desc("Stop with an error when a warp has issued this many "
             "instructions (default 2^26; 0: no limit)"),
    cl::init(sim::LaunchConfig().MaxWarpInstructions), cl::cat(SimCat));
cl::opt<bool> Stats("print-stats",
                    cl::desc("Print instruction counts and simulation speed "
                             "(the launch's wall time; warp and thread "
                             "instructions per second)"),
                    cl::cat(SimCat));
// GEMM mode's epilogue.
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
             "buffer) holds: auto (default, as tp-run's: quiet NaNs when "
             "beta = 0, which must not reach D; random values otherwise), "
             "random, or nan"),
    cl::value_desc("auto|random|nan"), cl::init("auto"), cl::cat(SimCat));
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
    "tp-sim: run a kernel of an sm_80, sm_86, sm_89, sm_90, sm_100, sm_120\n"
    "or sm_121 cubin on the CPU (the target from the cubin's ELF flags;\n"
    "sm_80 and sm_89 run with sm_86's semantics, Blackwell with sm_90's and\n"
    "its own forms', each with its own latency model)\n\n"
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
    "           ISETP PRMT PLOP3 FLO POPC BREV IADD.64 (sm_120)\n"
    "  float    FADD FMUL FFMA FSETP FSEL FMNMX F2I I2F I2FP F2F F2FP.PACK_AB\n"
    "           HADD2 HMUL2 HFMA2 (f16)\n"
    "  uniform  S2R S2UR CS2R ULDC LDC UMOV UIADD3 ULOP3 USHF UIMAD ULEA\n"
    "           UISETP USEL VOTEU R2UR UFLO UPOPC UBREV LDCU (Blackwell)\n"
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
    else if (S.Threads.size() > 1) {
      // How the work divided: blocks and CPU time of each host thread.
      outs() << "host threads: " << S.Threads.size() << "; blocks";
      for (const sim::LaunchStats::HostThread &H : S.Threads)
        outs() << " " << H.Blocks;
      outs() << "; CPU";
      for (const sim::LaunchStats::HostThread &H : S.Threads)
        outs() << format(" %.3f", H.CPUSeconds);
      outs() << " s\n";
    }
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

/// What --timing-json and --timeline write, rendered before any file is
/// touched (written with the run's other outputs, all or none).
struct TimingFiles {
  std::string JSON, SVG;
};

/// Models, prints and renders the timing report into \p Files; the exit
/// code (1 on a timing hazard).
int reportTiming(const sim::TimingModel &TM, double Flops, double Bytes,
                 TimingFiles &Files) {
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
  if (!TimingJSON.empty()) {
    raw_string_ostream OS(Files.JSON);
    sim::writeTimingJSON(OS, R);
  }
  if (!TimelineSVG.empty()) {
    raw_string_ostream OS(Files.SVG);
    sim::writeTimelineSVG(OS, TL, R.Card);
  }
  return R.Hazards ? 1 : 0;
}

/// Adds --timing-json's and --timeline's files (when asked for) to \p Out.
void addTimingFiles(const TimingFiles &T, std::vector<OutputFile> &Out) {
  if (!TimingJSON.empty())
    Out.push_back({TimingJSON, /*Binary=*/false, StringRef(T.JSON)});
  if (!TimelineSVG.empty())
    Out.push_back({TimelineSVG, /*Binary=*/false, StringRef(T.SVG)});
}

/// Writes every output file of the run or none (ToolOutput.h); 2 when one
/// cannot be written, after an error naming it.
int writeRunOutputs(ArrayRef<OutputFile> Files) {
  if (Error E = writeOutputs(Files)) {
    WithColor::error(errs(), "tp-sim") << toString(std::move(E)) << "\n";
    return 2;
  }
  return 0;
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
  Cfg.MaxWarpInstructions = MaxWarpInstructions;
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
  printStats(*S, Secs);
  int Rc = reportHazards(*S);
  TimingFiles TF;
  if (TM)
    Rc = std::max(Rc, reportTiming(*TM, 0, 0, TF));
  // Every output buffer's file and the timing files, or none of them
  // (ToolOutput.h): a failure at the last file must not leave the first.
  std::vector<OutputFile> Files;
  for (const OutBuf &O : Outs) {
    ArrayRef<uint8_t> Buf = Mem.getBuffer(O.Addr);
    Files.push_back({O.Path, /*Binary=*/true,
                     StringRef((const char *)Buf.data(), Buf.size())});
  }
  addTimingFiles(TF, Files);
  if (int WRc = writeRunOutputs(Files))
    return WRc;
  return Rc;
}

/// --alpha, --beta and --c-input against the manifest's kernel: the
/// values into \p Prob; a usage error (2) when the kernel takes none.
int applyEpilogueOptions(const LaunchManifest &Man, GemmProblem &Prob) {
  if (CInput != "auto" && CInput != "random" && CInput != "nan")
    return usage("--c-input=" + CInput + ": expected auto, random or nan");
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

/// Whether C (the R buffer of a kernel with alpha and beta) holds NaN:
/// --c-input=nan, or auto (the default, as tp-run's) with beta = 0.
bool isCInputNaN(const GemmProblem &Prob) {
  return Prob.Scale &&
         (CInput == "nan" || (CInput == "auto" && Prob.Beta == 0));
}

/// The shape a GEMM run uses: the manifest's, or --shape's (a run-time-shape
/// kernel only), with its storage (tp::GemmStorage: leading dimensions,
/// batch and strides, in elements) and grid.
struct RunShape : GemmStorage {
  GemmProblem P; ///< one product, dense (the reference's view)
  std::array<uint32_t, 3> Grid = {1, 1, 1};
};

/// The rules a run-time shape's values must keep (the copies' 16-byte
/// chunks, the kernel's 32-bit offsets): tp::checkGemmStorage, tp-run's
/// and the library's; the message names the rule and the numbers.
Error checkRunShape(const RunShape &S) { return checkGemmStorage(S.P, S); }

Expected<RunShape> chooseRunShape(const LaunchManifest &Man) {
  RunShape S;
  S.P = GemmProblem::fromManifest(Man);
  S.Grid = Man.Grid;
  bool Runtime = Man.findParam(ParamRole::LDA) != nullptr;
  S.LdA = Runtime ? Man.LdA : S.P.colsA();
  S.LdB = Runtime ? Man.LdB : S.P.colsB();
  S.LdC = Runtime ? Man.LdC : S.P.N;
  S.Batch = Man.Batch;
  S.StrideA = Man.StrideA;
  S.StrideB = Man.StrideB;
  S.StrideC = Man.StrideC;
  if (ShapeOpt.empty())
    return S;
  if (!Runtime)
    return makeError("--shape=" + ShapeOpt + ": the kernel has its shape " +
                     "built in (its manifest names no LDA parameter); build "
                     "it with tp-llc --fixed-shape=false");
  SmallVector<StringRef, 4> Parts;
  StringRef(ShapeOpt).split(Parts, 'x');
  uint64_t V[4] = {0, 0, 0, 1};
  bool Ok = Parts.size() == 3 || Parts.size() == 4;
  for (unsigned I = 0; Ok && I < Parts.size(); ++I)
    Ok = !Parts[I].getAsInteger(10, V[I]) && V[I] >= 1 && V[I] <= INT32_MAX;
  if (!Ok)
    return makeError("--shape: expected MxNxK or MxNxKxB (integers >= 1), "
                     "found '" + ShapeOpt + "'");
  if (Parts.size() == 4 && V[3] > 1 && !Man.findParam(ParamRole::StrideA))
    return makeError("--shape=" + ShapeOpt + ": the kernel takes no batch "
                     "strides (build it with tp-llc --batch)");
  if (V[3] > 65535)
    return makeError("--shape=" + ShapeOpt + ": batch " + Twine(V[3]) +
                     " is more than the 65535 a grid's z extent may have");
  S.P.M = V[0];
  S.P.N = V[1];
  S.P.K = V[2];
  S.Batch = V[3];
  S.LdA = (S.P.colsA() + 7) / 8 * 8;
  S.LdB = (S.P.colsB() + 7) / 8 * 8;
  S.LdC = (S.P.N + 7) / 8 * 8;
  // Batches 16 elements apart beyond the dense extent (NaN and poison in
  // the gaps): a stride the kernel ignored would show.
  S.StrideA = S.P.rowsA() * S.LdA + 16;
  S.StrideB = S.P.rowsB() * S.LdB + 16;
  S.StrideC = S.P.M * S.LdC + 16;
  uint64_t GX = (S.P.N + Man.Tile[1] - 1) / Man.Tile[1];
  uint64_t GY = (S.P.M + Man.Tile[0] - 1) / Man.Tile[0];
  if (GY > 65535)
    return makeError("--shape=" + ShapeOpt + ": M = " + Twine(S.P.M) +
                     " gives " + Twine(GY) + " blocks along M (tile " +
                     Twine(Man.Tile[0]) + "), more than the 65535 a grid's "
                     "y extent may have");
  S.Grid = {uint32_t(GX), uint32_t(GY), uint32_t(S.Batch)};
  return S;
}

/// Copies dense rows x cols \p Src (element size \p ES) into \p Dst with
/// row pitch \p Ld; the rest of each row keeps \p Dst's fill.
void copyPitched(uint8_t *Dst, const void *Src, uint64_t Rows, uint64_t Cols,
                 uint64_t Ld, unsigned ES) {
  for (uint64_t R = 0; R < Rows; ++R)
    memcpy(Dst + R * Ld * ES, (const uint8_t *)Src + R * Cols * ES, Cols * ES);
}

/// A GEMM run's operands: the host matrices (dense, one set a batch: A, B
/// of their types, R = C's values in D's type as floats, NaN with
/// --c-input=nan), the bias, and their simulated-memory addresses.
struct GemmOperands {
  std::vector<std::vector<uint16_t>> A, B;
  std::vector<std::vector<float>> R;
  std::vector<float> Bias;
  uint64_t AAddr = 0, BAddr = 0, CAddr = 0, RAddr = 0, BiasAddr = 0;
};

/// Batch \p Bt's C input (R) from --seed: f32, or f16/bf16 values exact in
/// D's type; all NaN with --c-input=nan.
std::vector<float> makeCInput(const GemmProblem &Prob, uint64_t Bt) {
  std::vector<float> R(Prob.elementsC());
  fillRandomFloats(R, Seed + Bt, StreamR);
  if (getElementTypeBytes(Prob.DType) == 2) {
    std::vector<uint16_t> R16(R.size());
    fillRandomOperand(R16, Seed + Bt, StreamR, Prob.DType);
    for (size_t I = 0; I < R.size(); ++I)
      R[I] = float(operandValue(R16[I], Prob.DType));
  }
  if (isCInputNaN(Prob))
    std::fill(R.begin(), R.end(), std::numeric_limits<float>::quiet_NaN());
  return R;
}

/// \p R's values as D's bytes (f32, f16 or bf16).
std::vector<uint8_t> toDBytes(ArrayRef<float> R, ElementType DType) {
  const unsigned DBytes = getElementTypeBytes(DType);
  std::vector<uint8_t> Out;
  Out.reserve(R.size() * DBytes);
  for (float X : R) {
    uint32_t W = DBytes == 4 ? floatBits(X)
                 : DType == ElementType::BF16 ? floatToBFloat16(X)
                                              : floatToHalf(X);
    for (unsigned Byte = 0; Byte < DBytes; ++Byte)
      Out.push_back(uint8_t(W >> (8 * Byte)));
  }
  return Out;
}

/// Fills A, B, R and the bias from --seed (batch b from seed + b) and
/// places them in \p Mem with their pitch and strides, NaN in every
/// padding element of A and B; D poisoned (or, --in-place, holding C with
/// the poison between its rows).  \p ElemsA.. are the storage sizes in
/// elements (checked against the memory limit by the caller).
GemmOperands placeOperands(const RunShape &RS, sim::GlobalMemory &Mem,
                           uint64_t ElemsA, uint64_t ElemsB, uint64_t ElemsC) {
  const GemmProblem &Prob = RS.P;
  const unsigned DBytes = getElementTypeBytes(Prob.DType);
  const bool HasR = Prob.Residual || Prob.Scale;
  uint64_t NB = RS.Batch;
  GemmOperands Ops;
  Ops.A.resize(NB);
  Ops.B.resize(NB);
  Ops.R.resize(NB);
  for (uint64_t Bt = 0; Bt < NB; ++Bt) {
    Ops.A[Bt].resize(Prob.elementsA());
    Ops.B[Bt].resize(Prob.elementsB());
    fillRandomOperand(Ops.A[Bt], Seed + Bt, StreamA, Prob.AType);
    fillRandomOperand(Ops.B[Bt], Seed + Bt, StreamB, Prob.BType);
    if (HasR)
      Ops.R[Bt] = makeCInput(Prob, Bt);
  }
  if (Prob.Bias) {
    Ops.Bias.resize(Prob.N);
    fillRandomFloats(Ops.Bias, Seed, StreamBias);
  }
  Ops.AAddr = cantFail(Mem.allocate(ElemsA * 2));
  Ops.BAddr = cantFail(Mem.allocate(ElemsB * 2));
  Ops.CAddr = cantFail(Mem.allocate(ElemsC * DBytes));
  Ops.RAddr = HasR && !InPlace ? cantFail(Mem.allocate(ElemsC * DBytes))
              : InPlace        ? Ops.CAddr
                               : 0;
  Ops.BiasAddr = Prob.Bias ? cantFail(Mem.allocate(Prob.N * 4)) : 0;
  if (Prob.Bias)
    memcpy(Mem.getBuffer(Ops.BiasAddr).data(), Ops.Bias.data(), Prob.N * 4);
  // The padding beyond each row (and between batches) holds NaN: an edge
  // the copies do not zero-fill shows in the result.
  auto DA = Mem.getBuffer(Ops.AAddr), DB = Mem.getBuffer(Ops.BAddr);
  auto NaN16 = [](ElementType T) -> uint16_t {
    return T == ElementType::BF16 ? 0x7fc0 : 0x7e00;
  };
  const uint16_t NaNA = NaN16(Prob.AType), NaNB = NaN16(Prob.BType);
  for (uint64_t I = 0; I < ElemsA; ++I)
    memcpy(&DA[2 * I], &NaNA, 2);
  for (uint64_t I = 0; I < ElemsB; ++I)
    memcpy(&DB[2 * I], &NaNB, 2);
  auto C = Mem.getBuffer(Ops.CAddr);
  uint16_t Poison16 = getPoison16(Prob.DType);
  for (uint64_t I = 0; I < ElemsC; ++I)
    if (DBytes == 4)
      memcpy(&C[4 * I], &PoisonBits, 4);
    else
      memcpy(&C[2 * I], &Poison16, 2);
  for (uint64_t Bt = 0; Bt < NB; ++Bt) {
    copyPitched(&DA[2 * Bt * RS.StrideA], Ops.A[Bt].data(), RS.P.rowsA(),
                RS.P.colsA(), RS.LdA, 2);
    copyPitched(&DB[2 * Bt * RS.StrideB], Ops.B[Bt].data(), RS.P.rowsB(),
                RS.P.colsB(), RS.LdB, 2);
    if (HasR)
      copyPitched(&Mem.getBuffer(Ops.RAddr)[DBytes * Bt * RS.StrideC],
                  toDBytes(Ops.R[Bt], Prob.DType).data(), Prob.M, Prob.N,
                  RS.LdC, DBytes);
  }
  return Ops;
}

/// Every batch's M x N of D against its reference, as one matrix of NB M
/// rows; \p Outside counts the other elements of D's storage that no
/// longer hold the poison (the first at \p FirstOutside).
GemmErrors checkResult(const RunShape &RS, sim::GlobalMemory &Mem,
                       const GemmOperands &Ops, uint64_t ElemsC,
                       uint64_t &Outside, uint64_t &FirstOutside) {
  const GemmProblem &Prob = RS.P;
  const unsigned DBytes = getElementTypeBytes(Prob.DType);
  uint64_t NB = RS.Batch;
  std::vector<uint8_t> Inner(NB * Prob.elementsC() * DBytes);
  std::vector<double> Ref;
  auto DC = Mem.getBuffer(Ops.CAddr);
  std::vector<bool> Inside(ElemsC, false);
  for (uint64_t Bt = 0; Bt < NB; ++Bt) {
    for (uint64_t I = 0; I < Prob.M; ++I)
      for (uint64_t J = 0; J < Prob.N; ++J) {
        uint64_t At = Bt * RS.StrideC + I * RS.LdC + J;
        Inside[At] = true;
        memcpy(&Inner[((Bt * Prob.M + I) * Prob.N + J) * DBytes],
               &DC[DBytes * At], DBytes);
      }
    std::vector<double> One;
    referenceGemm(Prob, Ops.A[Bt], Ops.B[Bt], Ops.R[Bt], Ops.Bias, One);
    Ref.insert(Ref.end(), One.begin(), One.end());
  }
  uint16_t Poison16 = getPoison16(Prob.DType);
  for (uint64_t I = 0; I < ElemsC; ++I) {
    uint32_t Bits = 0;
    memcpy(&Bits, &DC[DBytes * I], DBytes);
    bool Poison = DBytes == 4 ? Bits == PoisonBits : Bits == Poison16;
    if (!Inside[I] && !Poison && !Outside++)
      FirstOutside = I;
  }
  return compareGemm(widenD(Inner, Prob.DType), Ref);
}

int runGemm(ArrayRef<uint8_t> Bytes) {
  // The input first: a file that is no cubin is the error to report, not
  // the manifest beside it (which may be missing for that very reason).
  if (Expected<std::vector<std::string>> Names = sim::listKernels(Bytes);
      !Names)
    return usage(InputFilename + ": " + toString(Names.takeError()));
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
  Expected<RunShape> Shape = chooseRunShape(*Man);
  if (!Shape)
    return usage(toString(Shape.takeError()));
  if (int Rc = applyEpilogueOptions(*Man, Shape->P))
    return Rc;
  if (Error E = checkRunShape(*Shape))
    return usage(MPath + ": " + toString(std::move(E)));
  const RunShape &RS = *Shape;
  GemmProblem Prob = RS.P;
  uint64_t NB = RS.Batch;
  // Storage: batch b of X at b stride (the last one's rows x ld).
  uint64_t ElemsA = RS.spanA(RS.P), ElemsB = RS.spanB(RS.P),
           ElemsC = RS.spanC(RS.P);
  // A, B, C and R in simulated global memory, checked against its limit
  // before the host arrays are made.
  const unsigned DBytes = getElementTypeBytes(Prob.DType);
  double Need = 2.0 * (double(ElemsA) + double(ElemsB)) +
                double(DBytes) * double(ElemsC) *
                    (Prob.Residual || Prob.Scale ? 2 : 1) +
                (Prob.Bias ? 4.0 * Prob.N : 0);
  if (Need > double(sim::GlobalMemory::MaxTotalBytes))
    return usage(MPath + ": a " + Twine(Prob.M) + "x" + Twine(Prob.N) + "x" +
                 Twine(Prob.K) + " GEMM needs " +
                 Twine(uint64_t(std::min(Need, 1e19))) +
                 " bytes of global memory, beyond the simulator's " +
                 Twine(sim::GlobalMemory::MaxTotalBytes) + " (4 GiB)");
  sim::GlobalMemory Mem;
  GemmOperands Ops = placeOperands(RS, Mem, ElemsA, ElemsB, ElemsC);
  const uint64_t AAddr = Ops.AAddr, BAddr = Ops.BAddr, CAddr = Ops.CAddr,
                 RAddr = Ops.RAddr, BiasAddr = Ops.BiasAddr;
  sim::LaunchConfig Cfg;
  Cfg.Grid = RS.Grid;
  Cfg.Block = Man->Block;
  Cfg.DynamicSharedBytes = Man->DynamicSharedBytes;
  Cfg.CheckSchedule = CheckSchedule;
  Cfg.Threads = Threads;
  Cfg.MaxHazardReports = MaxHazards;
  Cfg.MaxWarpInstructions = MaxWarpInstructions;
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
    case ParamRole::LDA: V = RS.LdA; break;
    case ParamRole::LDB: V = RS.LdB; break;
    case ParamRole::LDC: V = RS.LdC; break;
    case ParamRole::StrideA: V = RS.StrideA; break;
    case ParamRole::StrideB: V = RS.StrideB; break;
    case ParamRole::StrideC: V = RS.StrideC; break;
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
                                  isCInputNaN(Prob) ? " (C all NaN)" : "",
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
         << (NB > 1 ? ", batch " + std::to_string(NB) : std::string())
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
  TimingFiles TF;
  if (TM) {
    // Compulsory DRAM traffic: A and B read once, C written (R read) once.
    double Bytes = NB * (2.0 * (double(Prob.M) * Prob.K +
                                double(Prob.K) * Prob.N) +
                         double(DBytes) * Prob.M * Prob.N *
                             (Prob.Residual || Prob.Scale ? 2 : 1));
    TimingRc =
        reportTiming(*TM, 2.0 * NB * Prob.M * Prob.N * Prob.K, Bytes, TF);
    if (TimingSample) {
      outs() << "timing sample: " << S->Blocks
             << " block(s) run, result check skipped\n";
      int Rc = std::max(TimingRc, reportHazards(*S));
      std::vector<OutputFile> Files;
      addTimingFiles(TF, Files);
      if (int WRc = writeRunOutputs(Files))
        return WRc;
      return Rc;
    }
  }
  uint64_t Outside = 0, FirstOutside = UINT64_MAX;
  GemmErrors E = checkResult(RS, Mem, Ops, ElemsC, Outside, FirstOutside);
  outs() << format("relative Frobenius error: %.3e\n", E.RelFrobenius)
         << format("max element error: %.3e at (%llu, %llu)\n", E.MaxAbsError,
                   (unsigned long long)(E.MaxIndex / Prob.N),
                   (unsigned long long)(E.MaxIndex % Prob.N))
         << "unwritten elements: " << E.Unwritten
         << ", non-finite: " << E.NonFinite << "\n";
  if (E.FirstBad != UINT64_MAX)
    outs() << "first bad element: (" << E.FirstBad / Prob.N << ", "
           << E.FirstBad % Prob.N << ")\n";
  if (Outside)
    outs() << "written outside C's M x N: " << Outside
           << " elements (the first at element " << FirstOutside
           << " of C's storage)\n";
  int HRc = reportHazards(*S);
  bool Pass = E.passes(Tolerance) && !HRc && !Outside;
  outs() << (Pass ? "PASS" : "FAIL") << "\n";
  std::vector<OutputFile> Files;
  addTimingFiles(TF, Files);
  if (int WRc = writeRunOutputs(Files))
    return WRc;
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
      sass::Target T = K->Target;
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
  setClosedPipeHandler("tp-sim", 2);
  setToolVersionPrinter();
  cl::HideUnrelatedOptions(SimCat);
  // Usage errors exit 2 here, as documented, not cl's 1.
  if (!cl::ParseCommandLineOptions(argc, argv, Overview, &errs()))
    return 2;
  // A tolerance no error is below (negative, NaN) would turn every run
  // into FAIL; infinity would pass any result.
  if (!(Tolerance >= 0) || !std::isfinite(Tolerance)) {
    std::string V;
    raw_string_ostream(V) << format("%g", Tolerance.getValue());
    return usage("--tolerance=" + V + ": expected a finite number >= 0");
  }
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
