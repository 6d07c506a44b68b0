//===- CudaDriver.h - The CUDA driver API, loaded at run time ---*- C++ -*-===//
///
/// \file
/// tp-run never links libcuda: it opens `libcuda.so.1` with dlopen and looks
/// every entry point up by name (cuGetProcAddress where the driver has it,
/// dlsym of the versioned symbol otherwise), so the same binary runs, and
/// says why it cannot launch, on a machine with no driver.  The function
/// types come from `cuda.h` (decltype of its declarations), so a call with
/// the wrong arguments does not compile.
///
/// Every call's result goes through CudaDriver::check, which turns a failure
/// into a RunError naming the call and the driver's error name
/// (cuGetErrorName) and text, e.g.
///   cuModuleLoadDataEx failed: CUDA_ERROR_NO_BINARY_FOR_GPU (no kernel
///   image is available for execution on the device)
///
/// Testing hook: the environment variable TP_RUN_LIBCUDA names another
/// library to open instead of libcuda.so.1 (the test suite's mock driver,
/// or a path that does not exist, to test the no-driver path).
///
//===----------------------------------------------------------------------===//
#ifndef TP_TOOLS_TPRUN_CUDADRIVER_H
#define TP_TOOLS_TPRUN_CUDADRIVER_H

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"
#include <cuda.h>
#include <memory>
#include <string>

namespace tp {
namespace run {

/// tp-run's exit codes (also in `tp-run --help` and docs/tp-run.md).
enum ExitCode : int {
  ExitSuccess = 0,      ///< Launched, and verified when asked to.
  ExitInputError = 1,   ///< Bad options, input file, manifest or device index.
  ExitVerifyFailed = 2, ///< The kernel's C is wrong or incomplete.
  ExitDriverError = 3,  ///< A driver call failed (named in the message).
  ExitNoDevice = 77,    ///< No CUDA driver library or no CUDA device: skipped.
};

/// An error that carries the exit code the tool should end with.
class RunError : public llvm::ErrorInfo<RunError> {
public:
  static char ID;
  RunError(int Code, std::string Msg) : Code(Code), Msg(std::move(Msg)) {}
  int getExitCode() const { return Code; }
  void log(llvm::raw_ostream &OS) const override;
  std::error_code convertToErrorCode() const override;

private:
  int Code;
  std::string Msg;
};

llvm::Error makeRunError(int Code, const llvm::Twine &Msg);

/// The entry points tp-run uses, resolved from the driver library.
class CudaDriver {
public:
  /// Opens the driver library and resolves every entry point.  Fails with
  /// ExitNoDevice when the library is absent or lacks an entry point.
  static llvm::Expected<std::unique_ptr<CudaDriver>> load();
  ~CudaDriver();

  /// Success, or a RunError(ExitDriverError) "<Call> failed: NAME (text)".
  llvm::Error check(CUresult R, llvm::StringRef Call) const;
  /// "CUDA_ERROR_..." for \p R (or "CUresult <n>" if the driver does not
  /// know it).
  std::string getErrorName(CUresult R) const;
  /// The path or name that was opened.
  const std::string &getLibraryName() const { return LibraryName; }
  /// How the entry points were found: "cuGetProcAddress", "dlsym", or
  /// "cuGetProcAddress and dlsym" when some were found only by dlsym.
  llvm::StringRef getResolver() const { return Resolver; }

  decltype(&::cuGetErrorName) GetErrorName = nullptr;
  decltype(&::cuGetErrorString) GetErrorString = nullptr;
  decltype(&::cuInit) Init = nullptr;
  decltype(&::cuDriverGetVersion) DriverGetVersion = nullptr;
  decltype(&::cuDeviceGetCount) DeviceGetCount = nullptr;
  decltype(&::cuDeviceGet) DeviceGet = nullptr;
  decltype(&::cuDeviceGetName) DeviceGetName = nullptr;
  decltype(&::cuDeviceGetAttribute) DeviceGetAttribute = nullptr;
  decltype(&::cuDeviceTotalMem) DeviceTotalMem = nullptr;
  decltype(&::cuDevicePrimaryCtxRetain) DevicePrimaryCtxRetain = nullptr;
  decltype(&::cuDevicePrimaryCtxRelease) DevicePrimaryCtxRelease = nullptr;
  decltype(&::cuCtxSetCurrent) CtxSetCurrent = nullptr;
  decltype(&::cuCtxSynchronize) CtxSynchronize = nullptr;
  decltype(&::cuModuleLoadDataEx) ModuleLoadDataEx = nullptr;
  decltype(&::cuModuleGetFunction) ModuleGetFunction = nullptr;
  decltype(&::cuModuleUnload) ModuleUnload = nullptr;
  decltype(&::cuFuncSetAttribute) FuncSetAttribute = nullptr;
  decltype(&::cuFuncGetAttribute) FuncGetAttribute = nullptr;
  decltype(&::cuMemAlloc) MemAlloc = nullptr;
  decltype(&::cuMemFree) MemFree = nullptr;
  decltype(&::cuMemcpyHtoD) MemcpyHtoD = nullptr;
  decltype(&::cuMemcpyDtoH) MemcpyDtoH = nullptr;
  decltype(&::cuMemsetD32) MemsetD32 = nullptr;
  decltype(&::cuLaunchKernel) LaunchKernel = nullptr;
  decltype(&::cuEventCreate) EventCreate = nullptr;
  decltype(&::cuEventRecord) EventRecord = nullptr;
  decltype(&::cuEventSynchronize) EventSynchronize = nullptr;
  decltype(&::cuEventElapsedTime) EventElapsedTime = nullptr;
  decltype(&::cuEventDestroy) EventDestroy = nullptr;

private:
  CudaDriver() = default;
  void *Handle = nullptr;
  std::string LibraryName;
  llvm::StringRef Resolver;
};

} // namespace run
} // namespace tp

#endif // TP_TOOLS_TPRUN_CUDADRIVER_H
