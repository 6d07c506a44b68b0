//===- tp-run.cpp - Run, verify and time a GEMM kernel on a GPU -----------===//
///
/// \file
/// tp-run loads a kernel (a cubin, or PTX text that the driver compiles)
/// with the CUDA Driver API, launches it as its launch manifest says, checks
/// C against a reference and, with --bench, times it.
///
///   tp-run gemm.cubin                     manifest gemm.cubin.json
///   tp-run X.ptx --manifest=X.json        any kernel the manifest describes
///
/// Steps (one function each: main, openDevice, loadFunction,
/// prepareOperands, runKernel's launch, verifyResult, benchmark):
///   1. read the input and the manifest (errors: exit 1), before touching
///      the driver, so that bad input is reported the same everywhere; a
///      cubin is read with the cubin reader (validateCubin);
///   2. open the driver (dlopen libcuda.so.1), cuInit, pick --device;
///      no driver or no device: exit 77 (skipped);
///   3. load the module, get the function, opt into dynamic shared memory
///      above 48 KiB (cuFuncSetAttribute);
///   4. fill A, B (and R) from --seed (tp::fillRandomHalves, the same inputs
///      tp-sim uses), fill C with tp::PoisonBits, launch, copy C back;
///   5. verify (--verify, below) and print the errors; exit 2 if wrong;
///   6. --bench: --warmup launches, then --iterations launches each timed
///      with a pair of events; print the median, minimum and TFLOP/s
///      (2 M N K / median).
///
/// Verification modes:
///   cpu      every element against the exact double-precision reference;
///   gpu      every element against tp_ref_gemm (ReferenceKernel.h) run on
///            the device in f32, which is itself checked at --samples points
///            against the exact reference first;
///   sampled  the exact reference at --samples points (corners included),
///            plus the poison check of every element;
///   none     no check (timing only);
///   auto     cpu when M*N*K <= 2^30, gpu above.
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
cl::opt<uint64_t> Seed("seed", cl::desc("Seed of the random A, B and R"),
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
                                   "passes (default 1e-3)"),
                          cl::init(1e-3), cl::cat(RunCat));
cl::opt<std::string> DumpC(
    "dump-c",
    cl::desc("Write C's bytes as the first launch left them (f32, row-major) "
             "to this file: the output buffer of a microbenchmark "
             "(tp-ubench, docs/ubench.md); written before verification"),
    cl::value_desc("file"), cl::cat(RunCat));
cl::opt<std::string> ShapeOpt(
    "shape",
    cl::desc("Run a run-time-shape kernel (manifest format 2) at MxNxK: "
             "dense operands (their leading dimensions multiples of 8 "
             "elements), the grid from the shape and the manifest's tile"),
    cl::value_desc("MxNxK"), cl::cat(RunCat));
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
    "shared memory, parameters (roles C, A, B, R, M, N, K), shape and "
    "layouts.\n\n"
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

/// --dump-c: C's bytes, written atomically (tp-ubench's output slots).
Error dumpOutput(StringRef Path, const std::vector<float> &C, raw_ostream &OS) {
  if (Error E = writeOutput(Path, /*Binary=*/true, [&](raw_ostream &Out) {
        Out.write(reinterpret_cast<const char *>(C.data()), C.size() * 4);
        return Error::success();
      }))
    return makeRunError(ExitInputError, "cannot write '" + Path + "': " +
                                            toString(std::move(E)));
  OS << "dump: " << C.size() * 4 << " bytes of C to " << Path << "\n";
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

void printErrors(raw_ostream &OS, const GemmErrors &E, uint64_t N,
                 StringRef What) {
  OS << "  " << What << ": " << E.Compared << " elements compared\n";
  OS << "  unwritten (poison) elements: " << E.Unwritten << "\n";
  OS << "  non-finite elements: " << E.NonFinite << "\n";
  if (E.FirstBad != UINT64_MAX)
    OS << "  first bad element: C(" << E.FirstBad / N << ", " << E.FirstBad % N
       << ")\n";
  OS << "  relative Frobenius error: " << format("%.3e", E.RelFrobenius)
     << "\n";
  OS << "  max abs error: " << format("%.3e", E.MaxAbsError) << " at C("
     << E.MaxIndex / N << ", " << E.MaxIndex % N << ")\n";
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

/// The GEMM's operands on the host and on the device.
struct Operands {
  std::vector<uint16_t> A, B;
  std::vector<float> R;
  DeviceBuffer DA, DB, DC, DR;
};

/// Step 4: A, B (and R) from --seed, C poisoned, the launch's grid, block,
/// shared memory and parameters in manifest order into \p L.
Error prepareOperands(const CudaDriver &D, const LaunchManifest &Man,
                      const GemmProblem &P, Operands &Ops, Launch &L,
                      raw_ostream &OS) {
  // Issue 16's types and epilogue are proven by tp-sim; tp-run's inputs and
  // check are still f16 x f16 -> f32, C = A B [+ R].
  if (!Man.hasDefaultTypes() || Man.HasScale || Man.Bias || Man.Relu)
    return makeRunError(ExitInputError, "the kernel's types (" +
                     getElementTypeName(Man.AType) + " x " +
                     getElementTypeName(Man.BType) + " -> " +
                     getElementTypeName(Man.DType) +
                     ") or epilogue (alpha/beta, bias, relu) are not yet "
                     "supported by tp-run; tp-sim runs and checks it");
  std::vector<uint16_t> &A = Ops.A, &B = Ops.B;
  std::vector<float> &R = Ops.R;
  DeviceBuffer &DA = Ops.DA, &DB = Ops.DB, &DC = Ops.DC, &DR = Ops.DR;
  A.resize(P.elementsA());
  B.resize(P.elementsB());
  R.resize(P.Residual ? P.elementsC() : 0);
  fillRandomHalves(A, Seed, StreamA);
  fillRandomHalves(B, Seed, StreamB);
  fillRandomFloats(R, Seed, StreamR);
  if (Error E = upload(D, DA, A, "A"))
    return E;
  if (Error E = upload(D, DB, B, "B"))
    return E;
  if (P.Residual)
    if (Error E = upload(D, DR, R, "R"))
      return E;
  if (Error E = allocate(D, DC, P.elementsC() * 4, "C"))
    return E;
  if (Error E = D.check(D.MemsetD32(DC.Ptr, PoisonBits, P.elementsC()),
                        "cuMemsetD32"))
    return E;

  L.Grid = Man.Grid;
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
    case ParamRole::C:
      V = DC.Ptr;
      break;
    case ParamRole::A:
      V = DA.Ptr;
      break;
    case ParamRole::B:
      V = DB.Ptr;
      break;
    case ParamRole::R:
      V = DR.Ptr;
      break;
    case ParamRole::M:
      V = P.M;
      break;
    case ParamRole::N:
      V = P.N;
      break;
    case ParamRole::K:
      V = P.K;
      break;
    case ParamRole::Alpha:
    case ParamRole::Beta:
    case ParamRole::Bias:
      return makeRunError(ExitInputError, "parameter role " + getRoleName(MP.Role) +
                       " is not supported by tp-run yet");
    // tp-run's operands are dense (checkDenseShape): ld = the stored row.
    case ParamRole::LDA:
      V = P.LayoutA == OperandLayout::Rows ? P.K : P.M;
      break;
    case ParamRole::LDB:
      V = P.LayoutB == OperandLayout::Rows ? P.K : P.N;
      break;
    case ParamRole::LDC:
      V = P.N;
      break;
    case ParamRole::StrideA:
    case ParamRole::StrideB:
    case ParamRole::StrideC:
      V = 0; // one product (checkDenseShape)
      break;
    }
    L.Storage.push_back(V);
    std::memcpy(L.Buffer.data() + MP.Offset, &V, MP.Size);
    OS << " " << getRoleName(MP.Role) << "@" << MP.Offset;
  }
  OS << (L.UseBuffer ? " (one buffer)\n" : "\n");
  L.finish();
  OS << "shape: " << P.M << "x" << P.N << "x" << P.K << ", A "
     << getLayoutName(P.LayoutA) << ", B " << getLayoutName(P.LayoutB)
     << (P.Residual ? ", C = A B + R" : ", C = A B") << ", seed " << Seed
     << "\n";
  OS.flush();

  return Error::success();
}

/// Step 5, --verify=gpu: C against tp_ref_gemm on the device, itself first
/// checked at --samples elements against the exact reference.
Expected<GemmErrors> verifyOnGPU(const CudaDriver &D, const GemmProblem &P,
                                 const Operands &Ops,
                                 const std::vector<float> &C,
                                 raw_ostream &OS) {
  const std::vector<uint16_t> &A = Ops.A, &B = Ops.B;
  const std::vector<float> &R = Ops.R;
  const DeviceBuffer &DA = Ops.DA, &DB = Ops.DB, &DR = Ops.DR;
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
  if (Error E = allocate(D, DRef, P.elementsC() * 4, "the reference C"))
    return E;
  if (Error E = D.check(D.MemsetD32(DRef.Ptr, PoisonBits, P.elementsC()),
                        "cuMemsetD32"))
    return E;
  bool ARows = P.LayoutA == OperandLayout::Rows;
  bool BRows = P.LayoutB == OperandLayout::Rows;
  RL.addPointer(DRef.Ptr);
  RL.addPointer(DA.Ptr);
  RL.addPointer(DB.Ptr);
  RL.addPointer(P.Residual ? DR.Ptr : 0);
  RL.addU32(uint32_t(P.M));
  RL.addU32(uint32_t(P.N));
  RL.addU32(uint32_t(P.K));
  RL.addU32(ARows ? uint32_t(P.K) : 1); // sAi
  RL.addU32(ARows ? 1 : uint32_t(P.M)); // sAk
  RL.addU32(BRows ? 1 : uint32_t(P.N)); // sBk
  RL.addU32(BRows ? uint32_t(P.K) : 1); // sBj
  RL.finish();
  RL.Block = {ReferenceBlockX, ReferenceBlockY, 1};
  RL.Grid = {uint32_t((P.N + ReferenceBlockX - 1) / ReferenceBlockX),
             uint32_t((P.M + ReferenceBlockY - 1) / ReferenceBlockY), 1};
  if (Error E = launch(D, RL))
    return E;
  if (Error E = D.check(D.CtxSynchronize(),
                        "cuCtxSynchronize (after the reference kernel)"))
    return E;
  std::vector<float> RefC(P.elementsC());
  if (Error E = D.check(D.MemcpyDtoH(RefC.data(), DRef.Ptr, RefC.size() * 4),
                        "cuMemcpyDtoH"))
    return E;
  // The reference kernel must itself be right before it judges anything.
  std::vector<uint64_t> Idx =
      sampleIndices(P.M, P.N, std::max(1u, Samples.getValue()), Seed);
  std::vector<double> Exact;
  for (uint64_t I : Idx)
    Exact.push_back(referenceElement(P, A, B, R, I / P.N, I % P.N));
  GemmErrors RefErr = compareGemmAt(RefC, Idx, Exact);
  uint64_t First;
  if (!RefErr.passes(Tolerance) || countPoisoned(RefC, First)) {
    printErrors(OS, RefErr, P.N, "reference kernel vs exact, sampled");
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

/// Step 5: checks C as --verify says (\p Mode resolved), prints the errors
/// and the verdict, and adds the summary fields to \p SS; ExitSuccess or
/// ExitVerifyFailed.
Expected<int> verifyResult(VerifyMode Mode, const CudaDriver &D,
                           const GemmProblem &P, const Operands &Ops,
                           const std::vector<float> &C, raw_ostream &OS,
                           raw_ostream &SS) {
  const std::vector<uint16_t> &A = Ops.A, &B = Ops.B;
  const std::vector<float> &R = Ops.R;
  int Exit = ExitSuccess;
  auto Judge = [&](const GemmErrors &E, StringRef What) {
    printErrors(OS, E, P.N, What);
    bool Pass = E.passes(Tolerance);
    OS << "  result: " << (Pass ? "PASS" : "FAIL") << " (tolerance "
       << format("%.1e", Tolerance.getValue()) << ")\n";
    SS << "verify=" << (Pass ? "PASS" : "FAIL")
       << " rel_err=" << format("%.3e", E.RelFrobenius)
       << " max_err=" << format("%.3e", E.MaxAbsError)
       << " unwritten=" << E.Unwritten;
    if (!Pass)
      Exit = ExitVerifyFailed;
  };
  switch (Mode) {
  case VerifyMode::CPU: {
    OS << "verify: cpu, exact double-precision reference, every element\n";
    std::vector<double> Ref;
    referenceGemm(P, A, B, R, Ref);
    Judge(compareGemm(C, Ref), "all elements");
    break;
  }
  case VerifyMode::Sampled: {
    OS << "verify: sampled, exact double-precision reference at " << Samples
       << " elements, poison check of every element\n";
    std::vector<uint64_t> Idx =
        sampleIndices(P.M, P.N, std::max(1u, Samples.getValue()), Seed);
    std::vector<double> Ref;
    for (uint64_t I : Idx)
      Ref.push_back(referenceElement(P, A, B, R, I / P.N, I % P.N));
    GemmErrors E = compareGemmAt(C, Idx, Ref);
    uint64_t First;
    uint64_t Poisoned = countPoisoned(C, First);
    // Elements outside the sample still count when unwritten.
    E.Unwritten = std::max(E.Unwritten, Poisoned);
    if (Poisoned)
      E.FirstBad = std::min(E.FirstBad, First);
    Judge(E, "sampled elements");
    break;
  }
  case VerifyMode::GPU: {
    Expected<GemmErrors> E = verifyOnGPU(D, P, Ops, C, OS);
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
/// --shape (a run-time-shape kernel) into \p Man, and the rules tp-run's
/// dense operands keep: one product, each leading dimension its stored
/// row's extent and a multiple of 8 elements (the copies' 16-byte chunks).
Error checkDenseShape(LaunchManifest &Man) {
  bool Runtime = Man.findParam(ParamRole::LDA) != nullptr;
  if (!ShapeOpt.empty()) {
    if (!Runtime)
      return makeRunError(ExitInputError,
                          "--shape=" + ShapeOpt + ": the kernel has its "
                          "shape built in (its manifest names no LDA "
                          "parameter)");
    SmallVector<StringRef, 3> Parts;
    StringRef(ShapeOpt).split(Parts, 'x');
    uint64_t V[3] = {0, 0, 0};
    bool Ok = Parts.size() == 3;
    for (unsigned I = 0; Ok && I < 3; ++I)
      Ok = !Parts[I].getAsInteger(10, V[I]) && V[I] >= 1 && V[I] <= INT32_MAX;
    if (!Ok)
      return makeRunError(ExitInputError, "--shape: expected MxNxK "
                                          "(integers >= 1), found '" +
                                              ShapeOpt + "'");
    Man.M = V[0];
    Man.N = V[1];
    Man.K = V[2];
    uint64_t GY = (Man.M + Man.Tile[0] - 1) / Man.Tile[0];
    if (GY > 65535)
      return makeRunError(ExitInputError,
                          "--shape=" + ShapeOpt + ": " + Twine(GY) +
                              " blocks along M, more than a grid's 65535");
    Man.Grid = {uint32_t((Man.N + Man.Tile[1] - 1) / Man.Tile[1]),
                uint32_t(GY), 1};
    Man.Batch = 1;
    Man.LdA = Man.LayoutA == OperandLayout::Rows ? Man.K : Man.M;
    Man.LdB = Man.LayoutB == OperandLayout::Rows ? Man.K : Man.N;
    Man.LdC = Man.N;
  }
  if (!Runtime)
    return Error::success();
  if (Man.Batch != 1)
    return makeRunError(ExitInputError, "the manifest's batch is " +
                                            Twine(Man.Batch) +
                                            "; tp-run runs one product");
  struct Rule {
    const char *Name;
    uint64_t Ld, Dense;
  } Rules[] = {{"lda", Man.LdA,
                Man.LayoutA == OperandLayout::Rows ? Man.K : Man.M},
               {"ldb", Man.LdB,
                Man.LayoutB == OperandLayout::Rows ? Man.K : Man.N},
               {"ldc", Man.LdC, Man.N}};
  for (const Rule &R : Rules) {
    if (R.Ld != R.Dense)
      return makeRunError(ExitInputError,
                          Twine(R.Name) + " = " + Twine(R.Ld) +
                              ": tp-run's operands are dense (ld = " +
                              Twine(R.Dense) + ")");
    if (R.Ld % 8)
      return makeRunError(ExitInputError,
                          Twine(R.Name) + " = " + Twine(R.Ld) +
                              " is not a multiple of 8 elements (the copies "
                              "move 16-byte chunks of aligned rows)");
  }
  return Error::success();
}

Expected<int> runKernel(const LaunchManifest &ManIn, StringRef Image,
                        bool IsPTX, raw_ostream &OS) {
  LaunchManifest Man = ManIn;
  if (Error E = checkDenseShape(Man))
    return std::move(E);
  const GemmProblem P = GemmProblem::fromManifest(Man);
  const double Flops = 2.0 * double(P.M) * double(P.N) * double(P.K);
  VerifyMode Mode = Verify;
  if (Mode == VerifyMode::Auto)
    Mode = double(P.M) * double(P.N) * double(P.K) <= double(1ull << 30)
               ? VerifyMode::CPU
               : VerifyMode::GPU;
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
  if (Error E = prepareOperands(D, Man, P, Ops, L, OS))
    return E;
  if (Error E = launch(D, L))
    return E;
  if (Error E = D.check(D.CtxSynchronize(), "cuCtxSynchronize (after the "
                                            "kernel)"))
    return E;
  std::vector<float> C(P.elementsC());
  if (Error E =
          D.check(D.MemcpyDtoH(C.data(), Ops.DC.Ptr, C.size() * 4),
                  "cuMemcpyDtoH"))
    return E;
  if (!DumpC.empty())
    if (Error E = dumpOutput(DumpC, C, OS))
      return E;

  std::string Summary;
  raw_string_ostream SS(Summary);
  Expected<int> Exit = verifyResult(Mode, D, P, Ops, C, OS, SS);
  if (!Exit)
    return Exit.takeError();
  if (Bench && *Exit == ExitSuccess)
    if (Error E = benchmark(D, L, Flops, OS, SS))
      return E;
  D.ModuleUnload(Mod);
  D.DevicePrimaryCtxRelease(Dv->Dev);
  SS.flush();
  OS << "summary: kernel=" << Man.Kernel << " device=sm_" << Dv->Major
     << Dv->Minor << " shape=" << P.M << "x" << P.N << "x" << P.K << " "
     << Summary << "\n";
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
