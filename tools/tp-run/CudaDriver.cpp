//===- CudaDriver.cpp - The CUDA driver API, loaded at run time -----------===//
///
/// \file
/// Resolution order for each entry point:
///   1. cuGetProcAddress_v2 (drivers from CUDA 12.0 on) with the plain name
///      and the API version 12000, which returns the variant whose signature
///      cuda.h declares for that name (e.g. cuMemAlloc_v2 for cuMemAlloc);
///   2. otherwise dlsym of the versioned ABI names, newest first.
/// The signatures of every function below are the same in all the variants
/// tried, so either route gives a pointer of the declared type.
///
//===----------------------------------------------------------------------===//

#include "CudaDriver.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdlib>
#include <dlfcn.h>
#include <initializer_list>

using namespace llvm;

namespace tp {
namespace run {

char RunError::ID = 0;

void RunError::log(raw_ostream &OS) const { OS << Msg; }

std::error_code RunError::convertToErrorCode() const {
  return inconvertibleErrorCode();
}

Error makeRunError(int Code, const Twine &Msg) {
  return make_error<RunError>(Code, Msg.str());
}

CudaDriver::~CudaDriver() {
  // The library stays loaded: the driver's own atexit handlers may still
  // run, and unloading it first would leave them dangling.
}

namespace {

/// cuGetProcAddress_v2's type (CUDA 12.0 on), spelled out so that the build
/// does not depend on which name cuda.h maps cuGetProcAddress to.
using GetProcAddressV2Fn = CUresult (*)(const char *, void **, int, cuuint64_t,
                                        CUdriverProcAddressQueryResult *);

} // namespace

Expected<std::unique_ptr<CudaDriver>> CudaDriver::load() {
  std::unique_ptr<CudaDriver> D(new CudaDriver());
  const char *Env = std::getenv("TP_RUN_LIBCUDA");
  D->LibraryName = Env && *Env ? Env : "libcuda.so.1";
  D->Handle = dlopen(D->LibraryName.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!D->Handle) {
    const char *Why = dlerror();
    return makeRunError(ExitNoDevice, "no CUDA driver: cannot load '" +
                                          D->LibraryName + "' (" +
                                          (Why ? Why : "unknown reason") + ")");
  }
  auto GetProc = reinterpret_cast<GetProcAddressV2Fn>(
      dlsym(D->Handle, "cuGetProcAddress_v2"));
  std::string Missing;
  unsigned ByDlsym = 0;
  auto Resolve = [&](auto &Fn, const char *Name,
                     std::initializer_list<const char *> Symbols) {
    void *P = nullptr;
    if (GetProc) {
      CUdriverProcAddressQueryResult Status;
      if (GetProc(Name, &P, 12000, CU_GET_PROC_ADDRESS_DEFAULT, &Status) !=
              CUDA_SUCCESS ||
          Status != CU_GET_PROC_ADDRESS_SUCCESS)
        P = nullptr;
    }
    for (const char *S : Symbols) {
      if (P)
        break;
      if ((P = dlsym(D->Handle, S)))
        ++ByDlsym;
    }
    if (!P)
      Missing += std::string(Missing.empty() ? "" : ", ") + Name;
    Fn = reinterpret_cast<std::remove_reference_t<decltype(Fn)>>(P);
  };
  Resolve(D->GetErrorName, "cuGetErrorName", {"cuGetErrorName"});
  Resolve(D->GetErrorString, "cuGetErrorString", {"cuGetErrorString"});
  Resolve(D->Init, "cuInit", {"cuInit"});
  Resolve(D->DriverGetVersion, "cuDriverGetVersion", {"cuDriverGetVersion"});
  Resolve(D->DeviceGetCount, "cuDeviceGetCount", {"cuDeviceGetCount"});
  Resolve(D->DeviceGet, "cuDeviceGet", {"cuDeviceGet"});
  Resolve(D->DeviceGetName, "cuDeviceGetName", {"cuDeviceGetName"});
  Resolve(D->DeviceGetAttribute, "cuDeviceGetAttribute",
          {"cuDeviceGetAttribute"});
  Resolve(D->DeviceTotalMem, "cuDeviceTotalMem", {"cuDeviceTotalMem_v2"});
  Resolve(D->DevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain",
          {"cuDevicePrimaryCtxRetain"});
  Resolve(D->DevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease",
          {"cuDevicePrimaryCtxRelease_v2", "cuDevicePrimaryCtxRelease"});
  Resolve(D->CtxSetCurrent, "cuCtxSetCurrent", {"cuCtxSetCurrent"});
  Resolve(D->CtxSynchronize, "cuCtxSynchronize", {"cuCtxSynchronize"});
  Resolve(D->ModuleLoadDataEx, "cuModuleLoadDataEx", {"cuModuleLoadDataEx"});
  Resolve(D->ModuleGetFunction, "cuModuleGetFunction", {"cuModuleGetFunction"});
  Resolve(D->ModuleUnload, "cuModuleUnload", {"cuModuleUnload"});
  Resolve(D->FuncSetAttribute, "cuFuncSetAttribute", {"cuFuncSetAttribute"});
  Resolve(D->FuncGetAttribute, "cuFuncGetAttribute", {"cuFuncGetAttribute"});
  Resolve(D->MemAlloc, "cuMemAlloc", {"cuMemAlloc_v2"});
  Resolve(D->MemFree, "cuMemFree", {"cuMemFree_v2"});
  Resolve(D->MemcpyHtoD, "cuMemcpyHtoD", {"cuMemcpyHtoD_v2"});
  Resolve(D->MemcpyDtoH, "cuMemcpyDtoH", {"cuMemcpyDtoH_v2"});
  Resolve(D->MemsetD32, "cuMemsetD32", {"cuMemsetD32_v2"});
  Resolve(D->LaunchKernel, "cuLaunchKernel", {"cuLaunchKernel"});
  Resolve(D->EventCreate, "cuEventCreate", {"cuEventCreate"});
  Resolve(D->EventRecord, "cuEventRecord", {"cuEventRecord"});
  Resolve(D->EventSynchronize, "cuEventSynchronize", {"cuEventSynchronize"});
  Resolve(D->EventElapsedTime, "cuEventElapsedTime",
          {"cuEventElapsedTime", "cuEventElapsedTime_v2"});
  Resolve(D->EventDestroy, "cuEventDestroy",
          {"cuEventDestroy_v2", "cuEventDestroy"});
  D->Resolver = !GetProc       ? "dlsym"
                : ByDlsym == 0 ? "cuGetProcAddress"
                               : "cuGetProcAddress and dlsym";
  if (!Missing.empty())
    return makeRunError(ExitNoDevice, "unusable CUDA driver '" +
                                          D->LibraryName +
                                          "': missing entry points " + Missing);
  return D;
}

std::string CudaDriver::getErrorName(CUresult R) const {
  const char *Name = nullptr;
  if (GetErrorName && GetErrorName(R, &Name) == CUDA_SUCCESS && Name)
    return Name;
  return "CUresult " + std::to_string(int(R));
}

Error CudaDriver::check(CUresult R, StringRef Call) const {
  if (R == CUDA_SUCCESS)
    return Error::success();
  const char *Text = nullptr;
  std::string Msg = (Call + " failed: " + getErrorName(R)).str();
  if (GetErrorString && GetErrorString(R, &Text) == CUDA_SUCCESS && Text)
    Msg += std::string(" (") + Text + ")";
  return makeRunError(ExitDriverError, Msg);
}

} // namespace run
} // namespace tp
