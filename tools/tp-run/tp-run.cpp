//===- tp-run.cpp - Run, verify and time a GEMM kernel on a GPU -----------===//
///
/// \file
/// tp-run loads a kernel (a cubin, or PTX text that the driver compiles)
/// with the CUDA Driver API, launches it as its launch manifest says, checks
/// D against a reference and, with --bench, times it.  Every kernel a
/// manifest describes runs: f16/bf16 A and B, f32/f16/bf16 D, D = alpha A B
/// + beta C + bias with ReLU, the residual, run-time shapes (--shape, any
/// M, N, K >= 1; --lda/--ldb/--ldc) and strided batches.
///
///   tp-run gemm.cubin                     manifest gemm.cubin.json
///   tp-run X.ptx --manifest=X.json        any kernel the manifest describes
///
/// Steps (one function each: main, planRun, openDevice, loadFunction,
/// prepareOperands, runKernel's launch, verifyResult, benchmark):
///   1. read the input and the manifest and plan the launch (shape,
///      storage, epilogue values; every rule of run-time values checked,
///      checkGemmStorage); errors: exit 1, before touching the driver, so
///      that bad input is reported the same everywhere; a cubin is read
///      with the cubin reader (validateCubin);
///   2. open the driver (dlopen libcuda.so.1), cuInit, pick --device;
///      no driver or no device: exit 77 (skipped);
///   3. load the module, get the function, opt into dynamic shared memory
///      above 48 KiB (cuFuncSetAttribute);
///   4. A, B, C and the bias from --seed (the inputs tp-sim makes), rows
///      pitched with NaN padding, D poisoned, every parameter filled,
///      launch, copy D back;
///   5. verify (--verify, below) and print the errors; exit 2 if wrong;
///   6. --bench: --warmup launches, then --iterations launches each timed
///      with a pair of events; print the median, minimum and TFLOP/s
///      (2 M N K B / median).
///
/// Verification modes (the verdict: every element written, finite,
/// nothing written outside D's M x N, relative Frobenius error within
/// --tolerance, tp-sim's DefaultGemmTolerance):
///   cpu      every element against the exact double-precision reference;
///   gpu      every element against tp_ref_gemm (ReferenceKernel.h) run on
///            the device in f32 with the same epilogue and one rounding to
///            D's type, itself checked at --samples points against the
///            exact reference first;
///   sampled  the exact reference at --samples points (corners included),
///            plus the poison and NaN check of every element;
///   none     no check (timing only);
///   auto     cpu when M*N*K*B <= 2^30, gpu above.
///
//===----------------------------------------------------------------------===//

#include "CudaDriver.h"
#include "ReferenceKernel.h"
#include "tp/Object/CubinFile.h"
#include "tp/Support/Diagnostics.h"
#include "tp/Support/LaunchManifest.h"
#include "tp/Support/ReferenceGemm.h"
#include "tp/Support/ToolOutput.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

using namespace llvm;
using namespace tp;
using namespace tp::run;

namespace {
cl::OptionCategory RunCat("tp-run options");

cl::opt<std::string> InputFilename(cl::Positional,
                                   cl::desc("<cubin or PTX file>"),
                                   cl::cat(RunCat));
cl::opt<std::string>
    ManifestFilename("manifest",
                     cl::desc("Launch manifest (default: <input>.json)"),
                     cl::value_desc("file"), cl::cat(RunCat));
cl::opt<unsigned> DeviceIndex("device", cl::desc("CUDA device index"),
                              cl::init(0), cl::cat(RunCat));
cl::opt<uint64_t> Seed("seed", cl::desc("Seed of the random A, B, C and bias "
                                        "(batch b: seed + b)"),
                       cl::init(1), cl::cat(RunCat));

enum class VerifyMode { Auto, CPU, GPU, Sampled, None };
cl::opt<VerifyMode> Verify(
    "verify", cl::desc("How C is checked:"),
    cl::values(clEnumValN(VerifyMode::Auto, "auto",
                          "cpu when M*N*K <= 2^30, gpu above (default)"),
               clEnumValN(VerifyMode::CPU, "cpu",
                          "every element against the exact double reference"),
               clEnumValN(VerifyMode::GPU, "gpu",
                          "every element against a simple f32 reference kernel "
                          "(PTX) run on the device"),
               clEnumValN(VerifyMode::Sampled, "sampled",
                          "--samples elements against the exact reference, and "
                          "every element against the poison"),
               clEnumValN(VerifyMode::None, "none", "no check")),
    cl::init(VerifyMode::Auto), cl::cat(RunCat));
cl::opt<unsigned> Samples("samples",
                          cl::desc("Elements checked on the CPU by "
                                   "--verify=sampled and --verify=gpu "
                                   "(default 1024)"),
                          cl::init(1024), cl::cat(RunCat));
cl::opt<double> Tolerance("tolerance",
                          cl::desc("Largest relative Frobenius error that "
                                   "passes (default 1e-3, as tp-sim)"),
                          cl::init(DefaultGemmTolerance), cl::cat(RunCat));
cl::opt<std::string> DumpC(
    "dump-c",
    cl::desc("Write C's bytes as the first launch left them (f32, row-major) "
             "to this file: the output buffer of a microbenchmark "
             "(tp-ubench, docs/ubench.md); written before verification"),
    cl::value_desc("file"), cl::cat(RunCat));
cl::opt<std::string> ShapeOpt(
    "shape",
    cl::desc("Run a run-time-shape kernel (manifest format 2) at MxNxK, or "
             "MxNxKxB (B strided batches: a kernel built with --batch): each "
             "leading dimension its extent rounded up to 8 elements, batches "
             "back to back, the grid from the shape and the manifest's tile "
             "(a fixed-shape kernel only at its own shape)"),
    cl::value_desc("MxNxK[xB]"), cl::cat(RunCat));
cl::opt<uint64_t> LdAOpt("lda",
                         cl::desc("A's leading dimension in elements (a "
                                  "run-time-shape kernel; default: the "
                                  "manifest's, or --shape's)"),
                         cl::value_desc("elements"), cl::cat(RunCat));
cl::opt<uint64_t> LdBOpt("ldb", cl::desc("B's leading dimension (as --lda)"),
                         cl::value_desc("elements"), cl::cat(RunCat));
cl::opt<uint64_t> LdCOpt("ldc",
                         cl::desc("C's and D's leading dimension (as --lda)"),
                         cl::value_desc("elements"), cl::cat(RunCat));
cl::opt<std::string> AlphaOpt("alpha",
                              cl::desc("The alpha to pass, a kernel with "
                                       "alpha and beta (default: the "
                                       "manifest's)"),
                              cl::value_desc("X"), cl::cat(RunCat));
cl::opt<std::string> BetaOpt("beta",
                             cl::desc("The beta to pass (default: the "
                                      "manifest's)"),
                             cl::value_desc("Y"), cl::cat(RunCat));
cl::opt<std::string> CInput(
    "c-input",
    cl::desc("What C (a kernel with alpha and beta reads it from role R) "
             "holds: auto (default, as tp-sim's: NaN when beta = 0, which "
             "must not reach D; random values otherwise), random, or nan"),
    cl::value_desc("auto|random|nan"), cl::init("auto"), cl::cat(RunCat));
cl::opt<bool> InPlace(
    "in-place",
    cl::desc("A kernel with alpha and beta: pass one buffer as C and D (it "
             "holds C's values, and D = alpha A B + beta C overwrites it)"),
    cl::cat(RunCat));
cl::opt<bool> Bench("bench", cl::desc("Time the kernel and print TFLOP/s"),
                    cl::cat(RunCat));
cl::opt<unsigned> Warmup("warmup",
                         cl::desc("Untimed launches before timing "
                                  "(default 10)"),
                         cl::init(10), cl::cat(RunCat));
cl::opt<unsigned> Iterations("iterations",
                             cl::desc("Timed launches; the median is "
                                      "reported (default 50)"),
                             cl::init(50), cl::cat(RunCat));

enum class ParamPassing { Pointers, Buffer };
cl::opt<ParamPassing> Passing(
    "param-passing", cl::desc("How the parameters reach cuLaunchKernel:"),
    cl::values(clEnumValN(ParamPassing::Pointers, "pointers",
                          "kernelParams, one pointer per parameter (the "
                          "driver places them; default)"),
               clEnumValN(ParamPassing::Buffer, "buffer",
                          "one buffer laid out at the manifest's offsets "
                          "(CU_LAUNCH_PARAM_BUFFER_POINTER)")),
    cl::init(ParamPassing::Pointers), cl::cat(RunCat));
cl::opt<bool> PrintReferencePTX(
    "print-reference-ptx",
    cl::desc("Print the PTX of the --verify=gpu reference kernel and exit"),
    cl::cat(RunCat));

cl::opt<bool> Probe(
    "probe",
    cl::desc("Print the CUDA devices and exit: 0 when there is one, 77 when "
             "there is no driver or no device (used by the test suite)"),
    cl::cat(RunCat));

const char *const Overview =
    "tp-run: load a GEMM kernel with the CUDA Driver API, run it, verify C "
    "and time it\n\n"
    "  tp-run gemm.cubin [--bench]              (manifest: gemm.cubin.json)\n"
    "  tp-run kernel.ptx --manifest=kernel.json (PTX is compiled by the "
    "driver)\n\n"
    "The manifest (docs/launch-manifest.md) gives the kernel, grid, block, "
    "shared memory, parameters (roles C, A, B, R, alpha, beta, bias, M, N, "
    "K, LDA, LDB, LDC, StrideA, StrideB, StrideC), shape, layouts, types "
    "and epilogue; tp-run fills every role, and --shape runs a run-time-"
    "shape kernel at another shape.\n\n"
    "Exit codes:\n"
    "  0   launched, and C verified (unless --verify=none)\n"
    "  1   bad options, input file, manifest or device index (a cubin the\n"
    "      cubin reader rejects, or not for the manifest's target and\n"
    "      kernel), or a launch the device cannot take\n"
    "  2   verification failed (wrong, unwritten or non-finite elements)\n"
    "  3   a CUDA driver call failed (the call and error are named)\n"
    "  77  no CUDA driver library or no CUDA device: nothing was run "
    "(the test suite counts this as skipped)\n";

/// Device memory freed on scope exit (errors on the way out are ignored:
/// the first error is the one reported).
struct DeviceBuffer {
  const CudaDriver *D = nullptr;
  CUdeviceptr Ptr = 0;
  ~DeviceBuffer() {
    if (Ptr)
      D->MemFree(Ptr);
  }
};

Error allocate(const CudaDriver &D, DeviceBuffer &Buf, uint64_t Bytes,
               StringRef What) {
  Buf.D = &D;
  if (Error E = D.check(D.MemAlloc(&Buf.Ptr, Bytes), "cuMemAlloc"))
    return makeRunError(ExitDriverError, toString(std::move(E)) + " for " +
                                             What + " (" + Twine(Bytes) +
                                             " bytes)");
  return Error::success();
}

template <typename T>
Error upload(const CudaDriver &D, DeviceBuffer &Buf, const std::vector<T> &V,
             StringRef What) {
  if (Error E = allocate(D, Buf, V.size() * sizeof(T), What))
    return E;
  return D.check(D.MemcpyHtoD(Buf.Ptr, V.data(), V.size() * sizeof(T)),
                 "cuMemcpyHtoD");
}

/// Loads \p Image (a cubin, or NUL-terminated PTX) and reports the JIT's
/// error log with the failure.
Error loadModule(const CudaDriver &D, const void *Image, CUmodule &Mod,
                 StringRef What) {
  char Log[8192] = {0};
  CUjit_option Opts[] = {CU_JIT_ERROR_LOG_BUFFER,
                         CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *Vals[] = {Log, reinterpret_cast<void *>(uintptr_t(sizeof Log))};
  CUresult R = D.ModuleLoadDataEx(&Mod, Image, 2, Opts, Vals);
  if (R == CUDA_SUCCESS)
    return Error::success();
  std::string Msg =
      toString(D.check(R, "cuModuleLoadDataEx")) + " for " + What.str();
  Log[sizeof Log - 1] = 0;
  if (Log[0])
    Msg += "\n" + std::string(Log);
  return makeRunError(ExitDriverError, Msg);
}

struct Launch {
  CUfunction Fn = nullptr;
  std::array<uint32_t, 3> Grid, Block;
  uint32_t SharedBytes = 0;
  std::vector<uint64_t> Storage; ///< One 8-byte slot per parameter.
  std::vector<void *> Pointers;  ///< kernelParams.
  std::vector<char>
      Buffer; ///< The parameter block, for --param-passing=buffer.
  size_t BufferSize = 0;
  bool UseBuffer = false;

  void addPointer(CUdeviceptr P) { Storage.push_back(uint64_t(P)); }
  void addU32(uint32_t V) { Storage.push_back(V); }
  void finish() {
    Pointers.clear();
    for (uint64_t &S : Storage)
      Pointers.push_back(&S); // little endian: a u32 is the slot's low bytes
  }
};

/// --dump-c: D's storage bytes as the launch left them, written
/// atomically (tp-ubench's output slots).
Error dumpOutput(StringRef Path, const std::vector<uint8_t> &C,
                 raw_ostream &OS) {
  if (Error E = writeOutput(Path, /*Binary=*/true, [&](raw_ostream &Out) {
        Out.write(reinterpret_cast<const char *>(C.data()), C.size());
        return Error::success();
      }))
    return makeRunError(ExitInputError, toString(std::move(E)));
  OS << "dump: " << C.size() << " bytes of C to " << Path << "\n";
  return Error::success();
}

Error launch(const CudaDriver &D, Launch &L) {
  void *Extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, L.Buffer.data(),
                   CU_LAUNCH_PARAM_BUFFER_SIZE, &L.BufferSize,
                   CU_LAUNCH_PARAM_END};
  return D.check(D.LaunchKernel(L.Fn, L.Grid[0], L.Grid[1], L.Grid[2],
                                L.Block[0], L.Block[1], L.Block[2],
                                L.SharedBytes, /*hStream=*/nullptr,
                                L.UseBuffer ? nullptr : L.Pointers.data(),
                                L.UseBuffer ? Extra : nullptr),
                 "cuLaunchKernel");
}

/// Element \p I of the NB M rows of N that verification compares:
/// "C(i, j)", or "D[b](i, j)" in a batch.
std::string elementName(const GemmLaunch &L, uint64_t I) {
  uint64_t Row = I / L.P.N, Col = I % L.P.N;
  if (L.S.Batch == 1)
    return "C(" + std::to_string(Row) + ", " + std::to_string(Col) + ")";
  return "D[" + std::to_string(Row / L.P.M) + "](" +
         std::to_string(Row % L.P.M) + ", " + std::to_string(Col) + ")";
}

void printErrors(raw_ostream &OS, const GemmErrors &E, const GemmLaunch &L,
                 StringRef What) {
  OS << "  " << What << ": " << E.Compared << " elements compared\n";
  OS << "  unwritten (poison) elements: " << E.Unwritten << "\n";
  OS << "  non-finite elements: " << E.NonFinite << "\n";
  if (E.FirstBad != UINT64_MAX)
    OS << "  first bad element: " << elementName(L, E.FirstBad) << "\n";
  OS << "  relative Frobenius error: " << format("%.3e", E.RelFrobenius)
     << "\n";
  OS << "  max abs error: " << format("%.3e", E.MaxAbsError) << " at "
     << elementName(L, E.MaxIndex) << "\n";
}

/// cuInit and at least one device; ExitNoDevice errors when there is none.
Error initDriver(const CudaDriver &D) {
  CUresult InitR = D.Init(0);
  if (InitR == CUDA_ERROR_NO_DEVICE)
    return makeRunError(ExitNoDevice, "no CUDA device: cuInit returned " +
                                          D.getErrorName(InitR));
  // The toolkit's link stub (lib64/stubs/libcuda.so) answers every call
  // with CUDA_ERROR_STUB_LIBRARY: there is no real driver.
  if (InitR == CUDA_ERROR_STUB_LIBRARY)
    return makeRunError(ExitNoDevice,
                        "no CUDA driver: '" + D.getLibraryName() +
                            "' is the CUDA toolkit's stub library "
                            "(CUDA_ERROR_STUB_LIBRARY)");
  if (Error E = D.check(InitR, "cuInit"))
    return E;
  int Count = 0;
  if (Error E = D.check(D.DeviceGetCount(&Count), "cuDeviceGetCount"))
    return E;
  if (Count == 0)
    return makeRunError(ExitNoDevice, "no CUDA device: the driver reports 0");
  return Error::success();
}

/// --probe: one line per device, "device N: NAME sm_XY".
Expected<int> probeDevices(raw_ostream &OS) {
  auto DOrErr = CudaDriver::load();
  if (!DOrErr)
    return DOrErr.takeError();
  const CudaDriver &D = **DOrErr;
  if (Error E = initDriver(D))
    return E;
  int Count = 0;
  if (Error E = D.check(D.DeviceGetCount(&Count), "cuDeviceGetCount"))
    return E;
  for (int I = 0; I < Count; ++I) {
    CUdevice Dev;
    char Name[256] = {0};
    int Major = 0, Minor = 0;
    if (Error E = D.check(D.DeviceGet(&Dev, I), "cuDeviceGet"))
      return E;
    if (Error E = D.check(D.DeviceGetName(Name, sizeof Name - 1, Dev),
                          "cuDeviceGetName"))
      return E;
    if (Error E = D.check(
            D.DeviceGetAttribute(
                &Major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, Dev),
            "cuDeviceGetAttribute"))
      return E;
    if (Error E = D.check(
            D.DeviceGetAttribute(
                &Minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, Dev),
            "cuDeviceGetAttribute"))
      return E;
    OS << "device " << I << ": " << Name << " sm_" << Major << Minor << "\n";
  }
  return ExitSuccess;
}

/// The device tp-run runs on (step 2): the driver, the device and its
/// primary context, and what the later steps need of it.
struct Device {
  const CudaDriver *D = nullptr;
  std::unique_ptr<CudaDriver> Owner;
  CUdevice Dev = 0;
  int Major = 0, Minor = 0, OptinShared = 0;
};

/// Step 2: opens the driver, picks --device, prints it, makes its primary
/// context current.
Expected<Device> openDevice(raw_ostream &OS) {
  auto DOrErr = CudaDriver::load();
  if (!DOrErr)
    return DOrErr.takeError();
  Device Result;
  Result.Owner = std::move(*DOrErr);
  Result.D = Result.Owner.get();
  const CudaDriver &D = *Result.D;
  if (Error E = initDriver(D))
    return E;
  int Count = 0;
  if (Error E = D.check(D.DeviceGetCount(&Count), "cuDeviceGetCount"))
    return E;
  if (int(DeviceIndex) >= Count)
    return makeRunError(ExitInputError,
                        "--device=" + Twine(DeviceIndex.getValue()) +
                            " does not exist: the driver reports " +
                            Twine(Count) + " device(s), 0 to " +
                            Twine(Count - 1));
  CUdevice &Dev = Result.Dev;
  if (Error E = D.check(D.DeviceGet(&Dev, int(DeviceIndex)), "cuDeviceGet"))
    return E;
  char Name[256] = {0};
  int SMs = 0, DriverVersion = 0;
  if (Error E = D.check(D.DeviceGetName(Name, sizeof Name - 1, Dev),
                        "cuDeviceGetName"))
    return E;
  for (auto [Attr, Dest] :
       {std::pair<CUdevice_attribute, int *>{
            CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, &Result.Major},
        {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, &Result.Minor},
        {CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, &SMs},
        {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
         &Result.OptinShared}})
    if (Error E = D.check(D.DeviceGetAttribute(Dest, Attr, Dev),
                          "cuDeviceGetAttribute"))
      return E;
  if (Error E =
          D.check(D.DriverGetVersion(&DriverVersion), "cuDriverGetVersion"))
    return E;
  OS << "device " << DeviceIndex << ": " << Name << ", sm_" << Result.Major
     << Result.Minor << ", " << SMs << " SMs, driver "
     << DriverVersion / 1000 << "." << (DriverVersion % 1000) / 10 << " ("
     << D.getLibraryName() << ", " << D.getResolver() << ")\n";
  CUcontext Ctx;
  if (Error E = D.check(D.DevicePrimaryCtxRetain(&Ctx, Dev),
                        "cuDevicePrimaryCtxRetain"))
    return E;
  if (Error E = D.check(D.CtxSetCurrent(Ctx), "cuCtxSetCurrent"))
    return E;
  return Result;
}

/// Step 3: loads the module, gets the function into \p L.Fn, checks the
/// launch against the function's limits and opts into large dynamic
/// shared memory.
Error loadFunction(const Device &Dv, const LaunchManifest &Man,
                   StringRef Image, bool IsPTX, CUmodule &Mod, Launch &L,
                   raw_ostream &OS) {
  const CudaDriver &D = *Dv.D;
  int Major = Dv.Major, Minor = Dv.Minor, OptinShared = Dv.OptinShared;
  std::string Hint;
  if (!IsPTX && ("sm_" + Twine(Major) + Twine(Minor)).str() != Man.Target)
    Hint = " (the cubin is for " + Man.Target + ", device " +
           std::to_string(DeviceIndex) + " is sm_" + std::to_string(Major) +
           std::to_string(Minor) + ")";
  if (Error E = loadModule(D, Image.data(), Mod, "the kernel's module" + Hint))
    return E;
  if (Error E = D.check(D.ModuleGetFunction(&L.Fn, Mod, Man.Kernel.c_str()),
                        "cuModuleGetFunction"))
    return makeRunError(ExitDriverError, toString(std::move(E)) +
                                             " for kernel '" + Man.Kernel +
                                             "'");
  int Regs = 0, StaticShared = 0, MaxThreads = 0;
  if (Error E =
          D.check(D.FuncGetAttribute(&Regs, CU_FUNC_ATTRIBUTE_NUM_REGS, L.Fn),
                  "cuFuncGetAttribute"))
    return E;
  if (Error E =
          D.check(D.FuncGetAttribute(&StaticShared,
                                     CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, L.Fn),
                  "cuFuncGetAttribute"))
    return E;
  if (Error E = D.check(
          D.FuncGetAttribute(&MaxThreads,
                             CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, L.Fn),
          "cuFuncGetAttribute"))
    return E;
  OS << "kernel " << Man.Kernel << ": " << Regs << " registers, "
     << StaticShared << " bytes static shared, at most " << MaxThreads
     << " threads a block\n";
  if (Man.getThreadsPerBlock() > uint64_t(MaxThreads))
    return makeRunError(ExitInputError,
                        "the manifest's block has " +
                            Twine(Man.getThreadsPerBlock()) +
                            " threads; the kernel allows at most " +
                            Twine(MaxThreads) + " on this device");
  if (uint64_t(Man.DynamicSharedBytes) + uint64_t(StaticShared) >
      uint64_t(OptinShared))
    return makeRunError(ExitInputError,
                        "the kernel needs " + Twine(Man.DynamicSharedBytes) +
                            " bytes of dynamic shared memory beside " +
                            Twine(StaticShared) + " static; device allows " +
                            Twine(OptinShared) + " a block");
  // Above 48 KiB a kernel must opt in (CUDA Programming Guide, "Shared
  // Memory": dynamic allocations above 48 KB need an explicit opt-in).
  if (Man.DynamicSharedBytes > 48 * 1024)
    if (Error E = D.check(
            D.FuncSetAttribute(L.Fn,
                               CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                               int(Man.DynamicSharedBytes)),
            "cuFuncSetAttribute(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_"
            "BYTES)"))
      return E;

  return Error::success();
}

/// The product tp-run launches (step 1, before any driver call): the
/// manifest's recorded one or --shape's, with --lda/--ldb/--ldc, the
/// epilogue's values and what C holds.
struct RunPlan {
  GemmLaunch L;
  bool NaNC = false; ///< C (the R buffer of alpha/beta) all NaN
  uint64_t batches() const { return L.S.Batch; }
};

/// --alpha, --beta: a finite value exact in binary32, for a kernel that
/// takes them.
Error readEpilogueValue(const cl::opt<std::string> &Opt, bool Takes,
                        double &Out) {
  if (!Opt.getNumOccurrences())
    return Error::success();
  if (!Takes)
    return makeRunError(ExitInputError,
                        "--" + Opt.ArgStr + ": the kernel takes no alpha and "
                        "beta (its manifest has no \"alpha\" field)");
  double D;
  if (StringRef(Opt).getAsDouble(D) || !std::isfinite(D) ||
      double(float(D)) != D)
    return makeRunError(ExitInputError,
                        "--" + Opt.ArgStr + "=" + Opt +
                            ": expected a finite number exact in binary32");
  Out = D;
  return Error::success();
}

/// Step 1's plan of the launch; every rule a run-time value must keep is
/// checked here (checkGemmStorage), with the rule and the numbers.
Expected<RunPlan> planRun(const LaunchManifest &Man) {
  GemmShape Shape;
  if (!ShapeOpt.empty() && !parseGemmShape(ShapeOpt, Shape))
    return makeRunError(ExitInputError,
                        "--shape: expected MxNxK or MxNxKxB (integers >= 1), "
                        "found '" + ShapeOpt + "'");
  Expected<GemmLaunch> L =
      getGemmLaunch(Man, ShapeOpt.empty() ? nullptr : &Shape, 8,
                    "--shape=" + ShapeOpt);
  if (!L)
    return makeRunError(ExitInputError, toString(L.takeError()));
  RunPlan Plan;
  Plan.L = std::move(*L);
  GemmProblem &P = Plan.L.P;
  GemmStorage &S = Plan.L.S;
  const bool Runtime = hasRuntimeShape(Man);
  bool LdGiven = false;
  for (auto [Opt, Dest] : {std::pair<cl::opt<uint64_t> *, uint64_t *>{
                               &LdAOpt, &S.LdA},
                           {&LdBOpt, &S.LdB},
                           {&LdCOpt, &S.LdC}}) {
    if (!Opt->getNumOccurrences())
      continue;
    if (!Runtime)
      return makeRunError(ExitInputError,
                          "--" + Opt->ArgStr + ": the kernel has its shape "
                          "built in (dense operands; its manifest names no "
                          "LDA parameter)");
    *Dest = *Opt;
    LdGiven = true;
  }
  if (LdGiven && S.Batch > 1) {
    // Batches back to back at the given pitch.
    S.StrideA = P.rowsA() * S.LdA;
    S.StrideB = P.rowsB() * S.LdB;
    S.StrideC = P.M * S.LdC;
  }
  if (Runtime)
    if (Error E = checkGemmStorage(P, S))
      return makeRunError(ExitInputError, toString(std::move(E)));
  if (Error E = readEpilogueValue(AlphaOpt, Man.HasScale, P.Alpha))
    return E;
  if (Error E = readEpilogueValue(BetaOpt, Man.HasScale, P.Beta))
    return E;
  if (CInput != "auto" && CInput != "random" && CInput != "nan")
    return makeRunError(ExitInputError, "--c-input=" + CInput +
                                            ": expected auto, random or nan");
  if ((CInput.getNumOccurrences() || InPlace) && !Man.HasScale)
    return makeRunError(ExitInputError,
                        Twine(InPlace ? "--in-place" : "--c-input") +
                            ": the kernel reads no C (no alpha and beta)");
  Plan.NaNC = P.Scale && (CInput == "nan" || (CInput == "auto" && P.Beta == 0));
  return Plan;
}

/// The GEMM's operands on the host (dense, one set a batch: A, B of their
/// types, R = the residual's R or alpha/beta's C, as floats exact in D's
/// type) and on the device (pitched as the plan says).
struct Operands {
  std::vector<std::vector<uint16_t>> A, B;
  std::vector<std::vector<float>> R;
  std::vector<float> Bias;
  DeviceBuffer DA, DB, DC, DR, DBias;
};

/// Each batch's inputs from --seed (batch b from seed + b, as tp-sim):
/// A, B of their types, R (f32, or values exact in D's type; NaN when the
/// plan says), the bias (stream 3).
void makeInputs(const RunPlan &Plan, Operands &Ops) {
  const GemmProblem &P = Plan.L.P;
  const bool HasR = P.Residual || P.Scale;
  uint64_t NB = Plan.batches();
  Ops.A.resize(NB);
  Ops.B.resize(NB);
  Ops.R.resize(NB);
  for (uint64_t Bt = 0; Bt < NB; ++Bt) {
    Ops.A[Bt].resize(P.elementsA());
    Ops.B[Bt].resize(P.elementsB());
    fillRandomOperand(Ops.A[Bt], Seed + Bt, StreamA, P.AType);
    fillRandomOperand(Ops.B[Bt], Seed + Bt, StreamB, P.BType);
    if (!HasR)
      continue;
    std::vector<float> &R = Ops.R[Bt];
    R.resize(P.elementsC());
    fillRandomFloats(R, Seed + Bt, StreamR);
    if (getElementTypeBytes(P.DType) == 2) {
      std::vector<uint16_t> R16(R.size());
      fillRandomOperand(R16, Seed + Bt, StreamR, P.DType);
      for (size_t I = 0; I < R.size(); ++I)
        R[I] = float(operandValue(R16[I], P.DType));
    }
    if (Plan.NaNC)
      std::fill(R.begin(), R.end(), std::numeric_limits<float>::quiet_NaN());
  }
  if (P.Bias) {
    Ops.Bias.resize(P.N);
    fillRandomFloats(Ops.Bias, Seed, StreamBias);
  }
}

/// One element of type \p T (f32, or the bits of f16/bf16) as bytes.
void putElement(uint8_t *At, float X, ElementType T) {
  if (T == ElementType::F32) {
    std::memcpy(At, &X, 4);
    return;
  }
  uint16_t H = T == ElementType::BF16 ? floatToBFloat16(X) : floatToHalf(X);
  std::memcpy(At, &H, 2);
}

/// Rows x cols of \p Dense (element size \p ES) at \p Dst with row pitch
/// \p Ld; the rest of each row keeps \p Dst's fill.
void copyPitched(uint8_t *Dst, const uint8_t *Dense, uint64_t Rows,
                 uint64_t Cols, uint64_t Ld, unsigned ES) {
  for (uint64_t R = 0; R < Rows; ++R)
    std::memcpy(Dst + R * Ld * ES, Dense + R * Cols * ES, Cols * ES);
}

/// A's or B's storage: every batch pitched, NaN in the padding (an edge
/// the kernel reads beyond shows).
std::vector<uint8_t> operandStorage(const std::vector<std::vector<uint16_t>> &X,
                                    uint64_t Span, uint64_t Rows,
                                    uint64_t Cols, uint64_t Ld,
                                    uint64_t Stride, ElementType T) {
  std::vector<uint8_t> Out(Span * 2);
  uint16_t NaN = T == ElementType::BF16 ? 0x7fc0 : 0x7e00;
  for (uint64_t I = 0; I < Span; ++I)
    std::memcpy(&Out[2 * I], &NaN, 2);
  for (uint64_t Bt = 0; Bt < X.size(); ++Bt)
    copyPitched(&Out[2 * Bt * Stride],
                reinterpret_cast<const uint8_t *>(X[Bt].data()), Rows, Cols,
                Ld, 2);
  return Out;
}

/// D's storage filled with the poison of its type (PoisonBits, or
/// getPoison16): an element never written shows.
std::vector<uint8_t> poisonedD(const GemmLaunch &L) {
  const unsigned DB = getElementTypeBytes(L.P.DType);
  std::vector<uint8_t> Out(L.S.spanC(L.P) * DB);
  uint16_t P16 = getPoison16(L.P.DType);
  for (uint64_t I = 0, E = Out.size() / DB; I < E; ++I)
    std::memcpy(&Out[DB * I], DB == 4 ? (const void *)&PoisonBits : &P16, DB);
  return Out;
}

/// The launch's C input storage (role R): every batch's R in D's type,
/// pitched, poison in the padding.
std::vector<uint8_t> cInputStorage(const RunPlan &Plan, const Operands &Ops) {
  const GemmLaunch &L = Plan.L;
  const unsigned DB = getElementTypeBytes(L.P.DType);
  std::vector<uint8_t> Out = poisonedD(L);
  for (uint64_t Bt = 0; Bt < Plan.batches(); ++Bt)
    for (uint64_t I = 0; I < L.P.M; ++I)
      for (uint64_t J = 0; J < L.P.N; ++J)
        putElement(&Out[DB * L.S.indexC(Bt, I, J)],
                   Ops.R[Bt][I * L.P.N + J], L.P.DType);
  return Out;
}

/// The elements of each batch's M x N in D's storage \p Bytes, as floats
/// (NB M rows of N; a 16-bit poison becomes PoisonBits); \p Outside counts
/// the other elements that no longer hold the poison.
std::vector<float> extractD(const GemmLaunch &L,
                            const std::vector<uint8_t> &Bytes,
                            uint64_t &Outside) {
  const unsigned DB = getElementTypeBytes(L.P.DType);
  const uint64_t M = L.P.M, N = L.P.N;
  std::vector<uint8_t> Inner(L.S.Batch * M * N * DB);
  std::vector<bool> Inside(Bytes.size() / DB, false);
  for (uint64_t Bt = 0; Bt < L.S.Batch; ++Bt)
    for (uint64_t I = 0; I < M; ++I)
      for (uint64_t J = 0; J < N; ++J) {
        uint64_t At = L.S.indexC(Bt, I, J);
        Inside[At] = true;
        std::memcpy(&Inner[((Bt * M + I) * N + J) * DB], &Bytes[DB * At], DB);
      }
  std::vector<uint8_t> Poison = poisonedD(L);
  Outside = 0;
  for (uint64_t I = 0; I < Inside.size(); ++I)
    if (!Inside[I] && std::memcmp(&Bytes[DB * I], &Poison[DB * I], DB))
      ++Outside;
  return widenD(Inner, L.P.DType);
}

/// A short description of the product for the "shape:" line.
std::string describeProblem(const RunPlan &Plan) {
  const GemmProblem &P = Plan.L.P;
  std::string S;
  raw_string_ostream OS(S);
  OS << P.M << "x" << P.N << "x" << P.K << ", A " << getLayoutName(P.LayoutA)
     << ", B " << getLayoutName(P.LayoutB);
  if (P.Scale)
    OS << ", D = " << format("%g", P.Alpha) << " A B + " << format("%g", P.Beta) << " C"
       << (Plan.NaNC ? " (C all NaN)" : "");
  else
    OS << (P.Residual ? ", C = A B + R" : ", C = A B");
  OS << (P.Bias ? ", bias" : "") << (P.Relu ? ", relu" : "");
  if (P.AType != ElementType::F16 || P.BType != ElementType::F16 ||
      P.DType != ElementType::F32)
    OS << ", " << getElementTypeName(P.AType) << " x "
       << getElementTypeName(P.BType) << " -> " << getElementTypeName(P.DType);
  if (Plan.batches() > 1)
    OS << ", batch " << Plan.batches() << " (strides " << Plan.L.S.StrideA
       << ", " << Plan.L.S.StrideB << ", " << Plan.L.S.StrideC << ")";
  return OS.str();
}

/// Step 4: the inputs from --seed on the device (pitched), D poisoned, the
/// launch's grid, block, shared memory and parameters in manifest order
/// into \p L.
Error prepareOperands(const CudaDriver &D, const LaunchManifest &Man,
                      const RunPlan &Plan, Operands &Ops, Launch &L,
                      raw_ostream &OS) {
  const GemmProblem &P = Plan.L.P;
  const GemmStorage &S = Plan.L.S;
  makeInputs(Plan, Ops);
  if (Error E = upload(D, Ops.DA,
                       operandStorage(Ops.A, S.spanA(P), P.rowsA(), P.colsA(),
                                      S.LdA, S.StrideA, P.AType),
                       "A"))
    return E;
  if (Error E = upload(D, Ops.DB,
                       operandStorage(Ops.B, S.spanB(P), P.rowsB(), P.colsB(),
                                      S.LdB, S.StrideB, P.BType),
                       "B"))
    return E;
  // R keeps C's values for the reference kernel even when the kernel
  // overwrites them in place (--in-place: D's buffer starts as C).
  if (P.Residual || P.Scale)
    if (Error E = upload(D, Ops.DR, cInputStorage(Plan, Ops), "R"))
      return E;
  if (P.Bias)
    if (Error E = upload(D, Ops.DBias, Ops.Bias, "bias"))
      return E;
  if (Error E = upload(D, Ops.DC,
                       InPlace ? cInputStorage(Plan, Ops) : poisonedD(Plan.L),
                       "C"))
    return E;

  L.Grid = Plan.L.Grid;
  L.Block = Man.Block;
  L.SharedBytes = Man.DynamicSharedBytes;
  L.UseBuffer = Passing == ParamPassing::Buffer;
  L.BufferSize = Man.getParamBlockSize();
  L.Buffer.assign(L.BufferSize, 0);
  OS << "launch: grid [" << L.Grid[0] << ", " << L.Grid[1] << ", " << L.Grid[2]
     << "] block [" << L.Block[0] << ", " << L.Block[1] << ", " << L.Block[2]
     << "], " << L.SharedBytes << " bytes dynamic shared, params";
  for (const ManifestParam &MP : Man.Params) {
    uint64_t V = 0;
    switch (MP.Role) {
    case ParamRole::C: V = Ops.DC.Ptr; break;
    case ParamRole::A: V = Ops.DA.Ptr; break;
    case ParamRole::B: V = Ops.DB.Ptr; break;
    case ParamRole::R: V = InPlace ? Ops.DC.Ptr : Ops.DR.Ptr; break;
    case ParamRole::Bias: V = Ops.DBias.Ptr; break;
    case ParamRole::Alpha: V = floatBits(float(P.Alpha)); break;
    case ParamRole::Beta: V = floatBits(float(P.Beta)); break;
    case ParamRole::M: V = P.M; break;
    case ParamRole::N: V = P.N; break;
    case ParamRole::K: V = P.K; break;
    case ParamRole::LDA: V = S.LdA; break;
    case ParamRole::LDB: V = S.LdB; break;
    case ParamRole::LDC: V = S.LdC; break;
    case ParamRole::StrideA: V = S.StrideA; break;
    case ParamRole::StrideB: V = S.StrideB; break;
    case ParamRole::StrideC: V = S.StrideC; break;
    }
    L.Storage.push_back(V);
    std::memcpy(L.Buffer.data() + MP.Offset, &V, MP.Size);
    OS << " " << getRoleName(MP.Role) << "@" << MP.Offset;
  }
  OS << (L.UseBuffer ? " (one buffer)\n" : "\n");
  L.finish();
  OS << "shape: " << describeProblem(Plan) << (InPlace ? ", C = D in place" : "")
     << ", seed " << Seed << "\n";
  if (hasRuntimeShape(Man))
    OS << "storage: lda " << S.LdA << ", ldb " << S.LdB << ", ldc " << S.LdC
       << " elements\n";
  OS.flush();
  return Error::success();
}

/// tp_ref_gemm's flags for \p P (ReferenceKernel.h).
uint32_t getReferenceFlags(const GemmProblem &P) {
  uint32_t F = 0;
  if (P.AType == ElementType::BF16)
    F |= RefABF16;
  if (P.BType == ElementType::BF16)
    F |= RefBBF16;
  if (P.DType == ElementType::F16)
    F |= RefDF16;
  if (P.DType == ElementType::BF16)
    F |= RefDBF16;
  if (P.Relu)
    F |= RefRelu;
  if (P.Residual || (P.Scale && P.Beta != 0))
    F |= RefReadC;
  return F;
}

/// tp_ref_gemm's launch over the kernel's operands, writing \p DRef.
void setReferenceLaunch(const GemmLaunch &GL, const Operands &Ops,
                        CUdeviceptr DRef, Launch &RL) {
  const GemmProblem &P = GL.P;
  const GemmStorage &S = GL.S;
  bool ARows = P.LayoutA == OperandLayout::Rows;
  bool BRows = P.LayoutB == OperandLayout::Rows;
  RL.addPointer(DRef);
  RL.addPointer(Ops.DA.Ptr);
  RL.addPointer(Ops.DB.Ptr);
  RL.addPointer(Ops.DR.Ptr);
  RL.addPointer(Ops.DBias.Ptr);
  // The residual is alpha = beta = 1 (x + R, one rounding).
  RL.addU32(floatBits(P.Scale ? float(P.Alpha) : 1.0f));
  RL.addU32(floatBits(P.Scale ? float(P.Beta) : 1.0f));
  RL.addU32(uint32_t(P.M));
  RL.addU32(uint32_t(P.N));
  RL.addU32(uint32_t(P.K));
  RL.addU32(ARows ? uint32_t(S.LdA) : 1); // sAi
  RL.addU32(ARows ? 1 : uint32_t(S.LdA)); // sAk
  RL.addU32(BRows ? 1 : uint32_t(S.LdB)); // sBk
  RL.addU32(BRows ? uint32_t(S.LdB) : 1); // sBj
  RL.addU32(uint32_t(S.LdC));
  RL.addU32(uint32_t(S.StrideA));
  RL.addU32(uint32_t(S.StrideB));
  RL.addU32(uint32_t(S.StrideC));
  RL.addU32(getReferenceFlags(P));
  RL.finish();
  RL.Block = {ReferenceBlockX, ReferenceBlockY, 1};
  RL.Grid = {uint32_t((P.N + ReferenceBlockX - 1) / ReferenceBlockX),
             uint32_t((P.M + ReferenceBlockY - 1) / ReferenceBlockY),
             uint32_t(S.Batch)};
}

/// The exact reference of every batch's M x N, as one matrix of NB M rows.
std::vector<double> exactReference(const GemmLaunch &L, const Operands &Ops) {
  std::vector<double> Ref;
  for (uint64_t Bt = 0; Bt < L.S.Batch; ++Bt) {
    std::vector<double> One;
    referenceGemm(L.P, Ops.A[Bt], Ops.B[Bt], Ops.R[Bt], Ops.Bias, One);
    Ref.insert(Ref.end(), One.begin(), One.end());
  }
  return Ref;
}

/// The exact reference at row-major indices \p Idx of the NB M x N matrix.
std::vector<double> exactAt(const GemmLaunch &L, const Operands &Ops,
                            ArrayRef<uint64_t> Idx) {
  std::vector<double> Ref;
  const uint64_t M = L.P.M, N = L.P.N;
  for (uint64_t I : Idx) {
    uint64_t Row = I / N, Bt = Row / M;
    Ref.push_back(referenceElement(L.P, Ops.A[Bt], Ops.B[Bt], Ops.R[Bt],
                                   Ops.Bias, Row % M, I % N));
  }
  return Ref;
}

/// Step 5, --verify=gpu: D against tp_ref_gemm on the device, itself first
/// checked at --samples elements against the exact reference.
Expected<GemmErrors> verifyOnGPU(const CudaDriver &D, const GemmLaunch &GL,
                                 const Operands &Ops,
                                 const std::vector<float> &C,
                                 raw_ostream &OS) {
  OS << "verify: gpu, f32 reference kernel " << getReferenceKernelName()
     << " (checked at " << Samples
     << " elements against the exact reference), every element\n";
  CUmodule RefMod;
  if (Error E = loadModule(D, getReferenceKernelPTX(), RefMod,
                           "the reference kernel (PTX)"))
    return E;
  Launch RL;
  if (Error E =
          D.check(D.ModuleGetFunction(&RL.Fn, RefMod,
                                      getReferenceKernelName().str().c_str()),
                  "cuModuleGetFunction"))
    return E;
  DeviceBuffer DRef;
  std::vector<uint8_t> RefBytes = poisonedD(GL);
  if (Error E = upload(D, DRef, RefBytes, "the reference D"))
    return E;
  setReferenceLaunch(GL, Ops, DRef.Ptr, RL);
  if (Error E = launch(D, RL))
    return E;
  if (Error E = D.check(D.CtxSynchronize(),
                        "cuCtxSynchronize (after the reference kernel)"))
    return E;
  if (Error E = D.check(D.MemcpyDtoH(RefBytes.data(), DRef.Ptr,
                                     RefBytes.size()),
                        "cuMemcpyDtoH"))
    return E;
  uint64_t Outside = 0;
  std::vector<float> RefC = extractD(GL, RefBytes, Outside);
  // The reference kernel must itself be right before it judges anything.
  const uint64_t Rows = GL.S.Batch * GL.P.M;
  std::vector<uint64_t> Idx = sampleIndices(Rows, GL.P.N, Samples, Seed);
  GemmErrors RefErr = compareGemmAt(RefC, Idx, exactAt(GL, Ops, Idx));
  uint64_t First;
  if (!RefErr.passes(Tolerance) || countPoisoned(RefC, First) || Outside) {
    printErrors(OS, RefErr, GL, "reference kernel vs exact, sampled");
    return makeRunError(ExitVerifyFailed,
                        "the GPU reference kernel disagrees with the CPU "
                        "reference; no verdict on the kernel (try "
                        "--verify=sampled)");
  }
  OS << "  reference kernel vs exact at " << Idx.size()
     << " elements: relative Frobenius error "
     << format("%.3e", RefErr.RelFrobenius) << "\n";
  std::vector<double> RefD(RefC.begin(), RefC.end());
  D.ModuleUnload(RefMod);
  return compareGemm(C, RefD);
}

/// Step 5: checks D as --verify says (\p Mode resolved), prints the errors
/// and the verdict, and adds the summary fields to \p SS; ExitSuccess or
/// ExitVerifyFailed.  \p Outside: elements written outside D's M x N.
Expected<int> verifyResult(VerifyMode Mode, const CudaDriver &D,
                           const GemmLaunch &GL, const Operands &Ops,
                           const std::vector<float> &C, uint64_t Outside,
                           raw_ostream &OS, raw_ostream &SS) {
  int Exit = ExitSuccess;
  auto Judge = [&](const GemmErrors &E, StringRef What) {
    printErrors(OS, E, GL, What);
    if (Outside)
      OS << "  written outside D's M x N: " << Outside << " elements\n";
    bool Pass = E.passes(Tolerance) && !Outside;
    OS << "  result: " << (Pass ? "PASS" : "FAIL") << " (tolerance "
       << format("%.1e", Tolerance.getValue()) << ")\n";
    SS << "verify=" << (Pass ? "PASS" : "FAIL")
       << " rel_err=" << format("%.3e", E.RelFrobenius)
       << " max_err=" << format("%.3e", E.MaxAbsError)
       << " unwritten=" << E.Unwritten;
    if (!Pass)
      Exit = ExitVerifyFailed;
  };
  const uint64_t Rows = GL.S.Batch * GL.P.M;
  switch (Mode) {
  case VerifyMode::CPU:
    OS << "verify: cpu, exact double-precision reference, every element\n";
    Judge(compareGemm(C, exactReference(GL, Ops)), "all elements");
    break;
  case VerifyMode::Sampled: {
    OS << "verify: sampled, exact double-precision reference at " << Samples
       << " elements, poison and NaN check of every element\n";
    std::vector<uint64_t> Idx = sampleIndices(Rows, GL.P.N, Samples, Seed);
    GemmErrors E = compareGemmAt(C, Idx, exactAt(GL, Ops, Idx));
    // Elements outside the sample still count when unwritten or not
    // finite (a NaN C leaked into D).
    uint64_t Poisoned = 0, NonFinite = 0;
    for (uint64_t I = 0; I < C.size(); ++I) {
      bool Poison = floatBits(C[I]) == PoisonBits;
      if (!Poison && std::isfinite(C[I]))
        continue;
      ++(Poison ? Poisoned : NonFinite);
      E.FirstBad = std::min(E.FirstBad, I);
    }
    E.Unwritten = std::max(E.Unwritten, Poisoned);
    E.NonFinite = std::max(E.NonFinite, NonFinite);
    Judge(E, "sampled elements");
    break;
  }
  case VerifyMode::GPU: {
    Expected<GemmErrors> E = verifyOnGPU(D, GL, Ops, C, OS);
    if (!E)
      return E.takeError();
    Judge(*E, "all elements vs the reference kernel");
    break;
  }
  case VerifyMode::None:
  case VerifyMode::Auto:
    OS << "verify: none\n";
    SS << "verify=none";
    break;
  }
  return Exit;
}

/// Step 6, --bench: --warmup launches, then --iterations launches each
/// between two events; prints the median, minimum, maximum and TFLOP/s and
/// adds them to the summary \p SS.
Error benchmark(const CudaDriver &D, Launch &L, double Flops,
                raw_ostream &OS, raw_ostream &SS) {
  CUevent Start, Stop;
  if (Error E =
          D.check(D.EventCreate(&Start, CU_EVENT_DEFAULT), "cuEventCreate"))
    return E;
  if (Error E =
          D.check(D.EventCreate(&Stop, CU_EVENT_DEFAULT), "cuEventCreate"))
    return E;
  for (unsigned I = 0; I < Warmup; ++I)
    if (Error E = launch(D, L))
      return E;
  if (Error E = D.check(D.CtxSynchronize(), "cuCtxSynchronize (warm-up)"))
    return E;
  std::vector<double> Ms;
  for (unsigned I = 0; I < Iterations; ++I) {
    if (Error E = D.check(D.EventRecord(Start, nullptr), "cuEventRecord"))
      return E;
    if (Error E = launch(D, L))
      return E;
    if (Error E = D.check(D.EventRecord(Stop, nullptr), "cuEventRecord"))
      return E;
    if (Error E = D.check(D.EventSynchronize(Stop), "cuEventSynchronize"))
      return E;
    float T = 0;
    if (Error E = D.check(D.EventElapsedTime(&T, Start, Stop),
                          "cuEventElapsedTime"))
      return E;
    Ms.push_back(T);
  }
  std::sort(Ms.begin(), Ms.end());
  double Median = Ms.size() % 2
                      ? Ms[Ms.size() / 2]
                      : (Ms[Ms.size() / 2 - 1] + Ms[Ms.size() / 2]) / 2;
  double TFlops = Median > 0 ? Flops / (Median * 1e-3) / 1e12 : 0;
  OS << "bench: " << Warmup << " warm-up + " << Iterations
     << " timed launches: median " << format("%.4f", Median) << " ms, min "
     << format("%.4f", Ms.front()) << " ms, max " << format("%.4f", Ms.back())
     << " ms, " << format("%.2f", TFlops) << " TFLOP/s\n";
  SS << " median_ms=" << format("%.4f", Median)
     << " tflops=" << format("%.2f", TFlops);
  D.EventDestroy(Start);
  D.EventDestroy(Stop);
  return Error::success();
}

/// Everything after the manifest is read: steps 2 to 6.  Returns the exit
/// code or an error carrying one.
Expected<int> runKernel(const LaunchManifest &Man, StringRef Image,
                        bool IsPTX, raw_ostream &OS) {
  Expected<RunPlan> PlanOrErr = planRun(Man);
  if (!PlanOrErr)
    return PlanOrErr.takeError();
  const RunPlan &Plan = *PlanOrErr;
  const GemmLaunch &GL = Plan.L;
  const GemmProblem &P = GL.P;
  const double Work = double(P.M) * double(P.N) * double(P.K) *
                      double(GL.S.Batch);
  VerifyMode Mode = Verify;
  if (Mode == VerifyMode::Auto)
    Mode = Work <= double(1ull << 30) ? VerifyMode::CPU : VerifyMode::GPU;
  if (Mode == VerifyMode::GPU &&
      (P.M + ReferenceBlockY - 1) / ReferenceBlockY > 65535)
    return makeRunError(ExitInputError, "--verify=gpu supports M up to " +
                                            Twine(65535 * ReferenceBlockY) +
                                            "; use --verify=sampled");

  Expected<Device> Dv = openDevice(OS);
  if (!Dv)
    return Dv.takeError();
  const CudaDriver &D = *Dv->D;
  CUmodule Mod;
  Launch L;
  if (Error E = loadFunction(*Dv, Man, Image, IsPTX, Mod, L, OS))
    return E;
  Operands Ops;
  if (Error E = prepareOperands(D, Man, Plan, Ops, L, OS))
    return E;
  if (Error E = launch(D, L))
    return E;
  if (Error E = D.check(D.CtxSynchronize(), "cuCtxSynchronize (after the "
                                            "kernel)"))
    return E;
  std::vector<uint8_t> DBytes(GL.S.spanC(P) * getElementTypeBytes(P.DType));
  if (Error E = D.check(D.MemcpyDtoH(DBytes.data(), Ops.DC.Ptr, DBytes.size()),
                        "cuMemcpyDtoH"))
    return E;
  if (!DumpC.empty())
    if (Error E = dumpOutput(DumpC, DBytes, OS))
      return E;
  uint64_t Outside = 0;
  std::vector<float> C = extractD(GL, DBytes, Outside);

  std::string Summary;
  raw_string_ostream SS(Summary);
  Expected<int> Exit = verifyResult(Mode, D, GL, Ops, C, Outside, OS, SS);
  if (!Exit)
    return Exit.takeError();
  if (Bench && *Exit == ExitSuccess)
    if (Error E = benchmark(D, L, 2 * Work, OS, SS))
      return E;
  D.ModuleUnload(Mod);
  D.DevicePrimaryCtxRelease(Dv->Dev);
  SS.flush();
  OS << "summary: kernel=" << Man.Kernel << " device=sm_" << Dv->Major
     << Dv->Minor << " shape=" << P.M << "x" << P.N << "x" << P.K
     << (GL.S.Batch > 1 ? "x" + std::to_string(GL.S.Batch) : std::string())
     << " " << Summary << "\n";
  return *Exit;
}

/// A cubin is read with the cubin reader (lib/Object) before the driver
/// sees it: a damaged or truncated file gets the reader's error, a cubin for
/// another target than the manifest's or without the manifest's kernel is
/// refused (exit 1, no driver call).
Error validateCubin(StringRef Image, const LaunchManifest &Man) {
  ArrayRef<uint8_t> Bytes(reinterpret_cast<const uint8_t *>(Image.data()),
                          Image.size());
  Expected<object::CubinFile> F = object::readCubinFile(Bytes);
  if (!F)
    return makeRunError(ExitInputError, "'" + InputFilename + "': " +
                                            toString(F.takeError()));
  std::string Target = "sm_" + std::to_string(F->Header.sm());
  if (Target != Man.Target)
    return makeRunError(ExitInputError, "'" + InputFilename + "' is an " +
                                            Target + " cubin; the manifest "
                                            "is for " + Man.Target);
  if (F->findSection(".text." + Man.Kernel) < 0)
    return makeRunError(ExitInputError,
                        "'" + InputFilename + "' has no kernel named '" +
                            Man.Kernel + "' (no section .text." + Man.Kernel +
                            ")");
  return Error::success();
}

int finish(Expected<int> Result);
} // namespace

int main(int argc, char **argv) {
  InitLLVM X(argc, argv);
  tp::setClosedPipeHandler("tp-run", ExitInputError);
  tp::setToolVersionPrinter();
  cl::HideUnrelatedOptions(RunCat);
  cl::ParseCommandLineOptions(argc, argv, Overview);
  const char *Tool = "tp-run";
  auto Fail = [&](int Code, const Twine &Msg) {
    WithColor::error(errs(), Tool) << Msg << "\n";
    return Code;
  };

  if (PrintReferencePTX) {
    outs() << getReferenceKernelPTX();
    return ExitSuccess;
  }
  if (Probe)
    return finish(probeDevices(outs()));
  if (InputFilename.empty())
    return Fail(ExitInputError,
                "no input: give a cubin or PTX file (see --help)");
  if (Iterations == 0)
    return Fail(ExitInputError, "--iterations must be at least 1");
  // A sample of no element would check nothing and pass.
  if (Samples == 0)
    return Fail(ExitInputError, "--samples must be at least 1");
  if (!(Tolerance >= 0) || !std::isfinite(Tolerance))
    return Fail(ExitInputError, "--tolerance must be a finite number >= 0");

  // 1. The input and the manifest.
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf =
      MemoryBuffer::getFile(InputFilename, /*IsText=*/false,
                            /*RequiresNullTerminator=*/true);
  if (!Buf)
    return Fail(ExitInputError, "cannot read '" + InputFilename +
                                    "': " + Buf.getError().message());
  StringRef Image = (*Buf)->getBuffer();
  bool IsPTX = false;
  if (Image.startswith("\x7f"
                       "ELF")) {
    IsPTX = false;
  } else if (Image.startswith("\x50\xed\x55\xba")) { // 0xba55ed50, LE
    return Fail(ExitInputError,
                "'" + InputFilename +
                    "' is a fatbin (magic 0xba55ed50), not a cubin: tp-run "
                    "takes one of the cubins inside it; extract them first "
                    "(cuobjdump -xelf all " +
                    InputFilename + ")");
  } else if (Image.contains(".entry") && Image.contains(".version") &&
             !Image.contains('\0')) {
    IsPTX = true; // MemoryBuffer keeps a NUL after the text, as PTX needs.
  } else {
    return Fail(ExitInputError,
                "'" + InputFilename +
                    "' is neither a cubin (ELF) nor PTX text (with .version "
                    "and .entry)");
  }
  std::string ManifestPath = ManifestFilename.empty()
                                 ? getManifestPathFor(InputFilename)
                                 : std::string(ManifestFilename);
  Expected<LaunchManifest> Man = readLaunchManifest(ManifestPath);
  if (!Man) {
    reportError(Man.takeError(), Tool);
    return ExitInputError;
  }
  if (!IsPTX)
    if (Error E = validateCubin(Image, *Man))
      return finish(std::move(E));
  outs() << "tp-run: " << (IsPTX ? "PTX " : "cubin ") << InputFilename
         << ", manifest " << ManifestPath << "\n";

  return finish(runKernel(*Man, Image, IsPTX, outs()));
}

namespace {
int finish(Expected<int> Result) {
  const char *Tool = "tp-run";
  outs().flush();
  if (Result)
    return *Result;
  int Code = ExitDriverError;
  handleAllErrors(
      Result.takeError(),
      [&](const RunError &E) {
        Code = E.getExitCode();
        if (Code == ExitNoDevice)
          WithColor::note(errs(), Tool)
              << E.message() << "; nothing was run (exit code 77: skipped)\n";
        else
          WithColor::error(errs(), Tool) << E.message() << "\n";
      },
      [&](const ErrorInfoBase &E) {
        WithColor::error(errs(), Tool) << E.message() << "\n";
      });
  return Code;
}
} // namespace
