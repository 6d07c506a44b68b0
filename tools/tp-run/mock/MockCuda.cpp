//===- MockCuda.cpp - A CPU stand-in for libcuda, for tp-run's tests ------===//
///
/// \file
/// A shared library with the driver entry points tp-run resolves, run on the
/// CPU, so that the test suite can drive every host-side path of tp-run
/// without a GPU: parameter order and values, the opt-in to large dynamic
/// shared memory, the poison fill, the copy back, each verification mode,
/// the timing arithmetic and the reporting of failed calls.  It is loaded
/// through tp-run's TP_RUN_LIBCUDA hook and never by anything else.
///
/// It cannot execute SASS or PTX.  A module is text holding lines
///   // tp-mock-kernel NAME m=M n=N k=K a=rows|columns b=rows|columns
///   //   residual=0|1 params=C,A,B[,R] shared=BYTES grid=X,Y,Z
///   //   mode=correct|unwritten|wrong
/// (on one line), each declaring a kernel that computes C = A B [+ R] with
/// f32 accumulation, reading its parameters in the declared role order;
/// launching it with another grid or shared size than declared fails with
/// CUDA_ERROR_INVALID_VALUE.  A module containing `.entry tp_ref_gemm` is
/// tp-run's reference kernel, computed as its PTX does.  Anything else is
/// CUDA_ERROR_INVALID_IMAGE, with a message in the JIT error log; an ELF
/// image (a cubin) is CUDA_ERROR_NO_BINARY_FOR_GPU.
///
/// Environment:
///   TP_MOCK_CUDA_DEVICES=n    device count (default 1; 0: cuInit says
///                             CUDA_ERROR_NO_DEVICE)
///   TP_MOCK_CUDA_SM=86|90     compute capability (default 86)
///   TP_MOCK_CUDA_FAIL=name    that entry point returns an error
///   TP_MOCK_CUDA_BAD_REFERENCE=1  tp_ref_gemm adds 1 to C(0, 0)
///   TP_MOCK_CUDA_NO_PROC_ADDRESS=1  cuGetProcAddress finds nothing
///   Each launch takes 0.001 ms of event time.
///
//===----------------------------------------------------------------------===//

#include "tp/Support/FloatConversion.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <cuda.h>
#include <map>
#include <sstream>
#include <string>
#include <vector>

struct CUctx_st {
  int Dummy;
};
struct CUfunc_st {
  std::string Name;
  bool IsReference = false;
  uint64_t M = 0, N = 0, K = 0;
  bool ARows = true, BRows = false, Residual = false;
  std::vector<std::string> Params;
  unsigned Shared = 0;
  unsigned Grid[3] = {1, 1, 1};
  std::string Mode = "correct";
  int MaxDynamicShared = 48 * 1024;
};
struct CUmod_st {
  std::vector<CUfunc_st *> Functions;
};
struct CUevent_st {
  uint64_t Launches = 0;
};

namespace {

CUctx_st TheContext;
uint64_t LaunchCount = 0;
/// Live allocations and their sizes: a kernel whose buffers are too small
/// for its shape fails with CUDA_ERROR_ILLEGAL_ADDRESS instead of running
/// off the end of host memory.
std::map<uint64_t, size_t> Allocations;

bool fits(uint64_t Ptr, uint64_t Bytes) {
  auto It = Allocations.upper_bound(Ptr);
  if (It == Allocations.begin())
    return false;
  --It;
  return Ptr >= It->first && Ptr + Bytes <= It->first + It->second;
}

bool failing(const char *Name) {
  const char *F = std::getenv("TP_MOCK_CUDA_FAIL");
  return F && std::strcmp(F, Name) == 0;
}

int envInt(const char *Name, int Default) {
  const char *V = std::getenv(Name);
  return V && *V ? std::atoi(V) : Default;
}

void gemm(float *C, const uint16_t *A, const uint16_t *B, const float *R,
          uint64_t M, uint64_t N, uint64_t K, uint64_t SAi, uint64_t SAk,
          uint64_t SBk, uint64_t SBj) {
  for (uint64_t I = 0; I < M; ++I)
    for (uint64_t J = 0; J < N; ++J) {
      float Acc = 0;
      for (uint64_t Kk = 0; Kk < K; ++Kk)
        Acc = std::fma(tp::halfToFloat(A[I * SAi + Kk * SAk]),
                       tp::halfToFloat(B[Kk * SBk + J * SBj]),
                       Acc);
      if (R)
        Acc += R[I * N + J];
      C[I * N + J] = Acc;
    }
}

/// Parameter I's bytes: kernelParams[I], or the extra buffer at the natural
/// offset of the declared sizes.
const void *param(void **KernelParams, void **Extra,
                  const std::vector<unsigned> &Sizes, unsigned I) {
  if (KernelParams)
    return KernelParams[I];
  const char *Buf = nullptr;
  for (unsigned J = 0; Extra && Extra[J] != CU_LAUNCH_PARAM_END; J += 2)
    if (Extra[J] == CU_LAUNCH_PARAM_BUFFER_POINTER)
      Buf = static_cast<const char *>(Extra[J + 1]);
  unsigned Offset = 0;
  for (unsigned J = 0; J < I; ++J)
    Offset = (Offset + Sizes[J] - 1) / Sizes[J] * Sizes[J] + Sizes[J];
  Offset = (Offset + Sizes[I] - 1) / Sizes[I] * Sizes[I];
  return Buf ? Buf + Offset : nullptr;
}

uint64_t readParam(const void *P, unsigned Size) {
  uint64_t V = 0;
  std::memcpy(&V, P, Size);
  return V;
}

} // namespace

extern "C" {

CUresult cuGetErrorName(CUresult E, const char **S) {
  switch (E) {
  case CUDA_SUCCESS:
    *S = "CUDA_SUCCESS";
    return CUDA_SUCCESS;
  case CUDA_ERROR_INVALID_VALUE:
    *S = "CUDA_ERROR_INVALID_VALUE";
    return CUDA_SUCCESS;
  case CUDA_ERROR_OUT_OF_MEMORY:
    *S = "CUDA_ERROR_OUT_OF_MEMORY";
    return CUDA_SUCCESS;
  case CUDA_ERROR_NO_DEVICE:
    *S = "CUDA_ERROR_NO_DEVICE";
    return CUDA_SUCCESS;
  case CUDA_ERROR_INVALID_IMAGE:
    *S = "CUDA_ERROR_INVALID_IMAGE";
    return CUDA_SUCCESS;
  case CUDA_ERROR_NOT_FOUND:
    *S = "CUDA_ERROR_NOT_FOUND";
    return CUDA_SUCCESS;
  case CUDA_ERROR_LAUNCH_FAILED:
    *S = "CUDA_ERROR_LAUNCH_FAILED";
    return CUDA_SUCCESS;
  case CUDA_ERROR_ILLEGAL_ADDRESS:
    *S = "CUDA_ERROR_ILLEGAL_ADDRESS";
    return CUDA_SUCCESS;
  case CUDA_ERROR_NO_BINARY_FOR_GPU:
    *S = "CUDA_ERROR_NO_BINARY_FOR_GPU";
    return CUDA_SUCCESS;
  default:
    *S = nullptr;
    return CUDA_ERROR_INVALID_VALUE;
  }
}

CUresult cuGetErrorString(CUresult E, const char **S) {
  *S = E == CUDA_ERROR_LAUNCH_FAILED ? "unspecified launch failure"
                                     : "mock driver error";
  return CUDA_SUCCESS;
}

CUresult cuInit(unsigned) {
  if (envInt("TP_MOCK_CUDA_DEVICES", 1) == 0)
    return CUDA_ERROR_NO_DEVICE;
  return failing("cuInit") ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
}
CUresult cuDriverGetVersion(int *V) {
  *V = 12040;
  return CUDA_SUCCESS;
}
CUresult cuDeviceGetCount(int *N) {
  *N = envInt("TP_MOCK_CUDA_DEVICES", 1);
  return CUDA_SUCCESS;
}
CUresult cuDeviceGet(CUdevice *D, int I) {
  *D = I;
  return CUDA_SUCCESS;
}
CUresult cuDeviceGetName(char *Name, int Len, CUdevice) {
  std::strncpy(Name, "tp mock GPU", size_t(Len));
  return CUDA_SUCCESS;
}
CUresult cuDeviceGetAttribute(int *V, CUdevice_attribute A, CUdevice) {
  int SM = envInt("TP_MOCK_CUDA_SM", 86);
  switch (A) {
  case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR:
    *V = SM / 10;
    break;
  case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR:
    *V = SM % 10;
    break;
  case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT:
    *V = 2;
    break;
  case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN:
    *V = SM >= 90 ? 232448 : 101376;
    break;
  default:
    *V = 0;
    break;
  }
  return CUDA_SUCCESS;
}
CUresult cuDeviceTotalMem_v2(size_t *B, CUdevice) {
  *B = size_t(1) << 30;
  return CUDA_SUCCESS;
}
CUresult cuDevicePrimaryCtxRetain(CUcontext *C, CUdevice) {
  *C = &TheContext;
  return CUDA_SUCCESS;
}
CUresult cuDevicePrimaryCtxRelease_v2(CUdevice) { return CUDA_SUCCESS; }
CUresult cuCtxSetCurrent(CUcontext) { return CUDA_SUCCESS; }
CUresult cuCtxSynchronize() {
  return failing("cuCtxSynchronize") ? CUDA_ERROR_LAUNCH_FAILED : CUDA_SUCCESS;
}

CUresult cuModuleLoadDataEx(CUmodule *Mod, const void *Image, unsigned NumOpts,
                            CUjit_option *Opts, void **Vals) {
  if (failing("cuModuleLoadDataEx"))
    return CUDA_ERROR_INVALID_IMAGE;
  // A cubin: the mock cannot run SASS, so it answers as a driver does for a
  // cubin built for another GPU.
  if (std::memcmp(Image,
                  "\x7f"
                  "ELF",
                  4) == 0)
    return CUDA_ERROR_NO_BINARY_FOR_GPU;
  std::string Text(static_cast<const char *>(Image));
  CUmod_st *M = new CUmod_st();
  if (Text.find(".entry tp_ref_gemm") != std::string::npos) {
    CUfunc_st *F = new CUfunc_st();
    F->Name = "tp_ref_gemm";
    F->IsReference = true;
    M->Functions.push_back(F);
  }
  std::istringstream Lines(Text);
  std::string Line;
  while (std::getline(Lines, Line)) {
    std::istringstream W(Line);
    std::string Slashes, Tag, Word;
    if (!(W >> Slashes >> Tag) || Slashes != "//" || Tag != "tp-mock-kernel")
      continue;
    CUfunc_st *F = new CUfunc_st();
    W >> F->Name;
    while (W >> Word) {
      size_t Eq = Word.find('=');
      std::string Key = Word.substr(0, Eq), Val = Word.substr(Eq + 1);
      if (Key == "m")
        F->M = std::stoull(Val);
      else if (Key == "n")
        F->N = std::stoull(Val);
      else if (Key == "k")
        F->K = std::stoull(Val);
      else if (Key == "a")
        F->ARows = Val == "rows";
      else if (Key == "b")
        F->BRows = Val == "rows";
      else if (Key == "residual")
        F->Residual = Val == "1";
      else if (Key == "shared")
        F->Shared = unsigned(std::stoul(Val));
      else if (Key == "mode")
        F->Mode = Val;
      else if (Key == "grid")
        std::sscanf(Val.c_str(), "%u,%u,%u", &F->Grid[0], &F->Grid[1],
                    &F->Grid[2]);
      else if (Key == "params") {
        std::istringstream P(Val);
        std::string Role;
        while (std::getline(P, Role, ','))
          F->Params.push_back(Role);
      }
    }
    M->Functions.push_back(F);
  }
  if (M->Functions.empty()) {
    for (unsigned I = 0; I < NumOpts; ++I)
      if (Opts[I] == CU_JIT_ERROR_LOG_BUFFER)
        std::strcpy(static_cast<char *>(Vals[I]),
                    "mock: no tp-mock-kernel line and no tp_ref_gemm");
    delete M;
    return CUDA_ERROR_INVALID_IMAGE;
  }
  *Mod = M;
  return CUDA_SUCCESS;
}

CUresult cuModuleGetFunction(CUfunction *Fn, CUmodule Mod, const char *Name) {
  for (CUfunc_st *F : Mod->Functions)
    if (F->Name == Name) {
      *Fn = F;
      return CUDA_SUCCESS;
    }
  return CUDA_ERROR_NOT_FOUND;
}
CUresult cuModuleUnload(CUmodule) { return CUDA_SUCCESS; }

CUresult cuFuncSetAttribute(CUfunction Fn, CUfunction_attribute A, int V) {
  if (failing("cuFuncSetAttribute"))
    return CUDA_ERROR_INVALID_VALUE;
  if (A == CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES)
    Fn->MaxDynamicShared = V;
  return CUDA_SUCCESS;
}
CUresult cuFuncGetAttribute(int *V, CUfunction_attribute A, CUfunction) {
  switch (A) {
  case CU_FUNC_ATTRIBUTE_NUM_REGS:
    *V = 128;
    break;
  case CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK:
    *V = 1024;
    break;
  default:
    *V = 0;
    break;
  }
  return CUDA_SUCCESS;
}

CUresult cuMemAlloc_v2(CUdeviceptr *P, size_t Bytes) {
  if (failing("cuMemAlloc"))
    return CUDA_ERROR_OUT_OF_MEMORY;
  *P = CUdeviceptr(std::malloc(Bytes ? Bytes : 1));
  if (!*P)
    return CUDA_ERROR_OUT_OF_MEMORY;
  Allocations[*P] = Bytes;
  return CUDA_SUCCESS;
}
CUresult cuMemFree_v2(CUdeviceptr P) {
  Allocations.erase(P);
  std::free(reinterpret_cast<void *>(P));
  return CUDA_SUCCESS;
}
CUresult cuMemcpyHtoD_v2(CUdeviceptr D, const void *S, size_t N) {
  std::memcpy(reinterpret_cast<void *>(D), S, N);
  return CUDA_SUCCESS;
}
CUresult cuMemcpyDtoH_v2(void *D, CUdeviceptr S, size_t N) {
  std::memcpy(D, reinterpret_cast<void *>(S), N);
  return CUDA_SUCCESS;
}
CUresult cuMemsetD32_v2(CUdeviceptr D, unsigned V, size_t N) {
  uint32_t *P = reinterpret_cast<uint32_t *>(D);
  for (size_t I = 0; I < N; ++I)
    P[I] = V;
  return CUDA_SUCCESS;
}

CUresult cuLaunchKernel(CUfunction F, unsigned GX, unsigned GY, unsigned GZ,
                        unsigned BX, unsigned BY, unsigned BZ, unsigned Shared,
                        CUstream, void **KernelParams, void **Extra) {
  if (failing("cuLaunchKernel"))
    return CUDA_ERROR_LAUNCH_FAILED;
  if (!KernelParams == !Extra)
    return CUDA_ERROR_INVALID_VALUE;
  // As the driver: above 48 KiB only after the opt-in.
  if (int(Shared) > F->MaxDynamicShared)
    return CUDA_ERROR_INVALID_VALUE;
  ++LaunchCount;
  if (F->IsReference) {
    std::vector<unsigned> Sizes = {8, 8, 8, 8, 4, 4, 4, 4, 4, 4, 4};
    uint64_t V[11];
    for (unsigned I = 0; I < 11; ++I)
      V[I] = readParam(param(KernelParams, Extra, Sizes, I), Sizes[I]);
    // One thread per element: the grid must cover C.
    if (uint64_t(GX) * BX < V[5] || uint64_t(GY) * BY < V[4] || BZ != 1 ||
        GZ != 1)
      return CUDA_ERROR_INVALID_VALUE;
    uint64_t M = V[4], N = V[5], K = V[6];
    if (!fits(V[0], M * N * 4) || !fits(V[1], M * K * 2) ||
        !fits(V[2], N * K * 2) || (V[3] && !fits(V[3], M * N * 4)))
      return CUDA_ERROR_ILLEGAL_ADDRESS;
    float *C = reinterpret_cast<float *>(V[0]);
    gemm(C, reinterpret_cast<const uint16_t *>(V[1]),
         reinterpret_cast<const uint16_t *>(V[2]),
         reinterpret_cast<const float *>(V[3]), V[4], V[5], V[6], V[7], V[8],
         V[9], V[10]);
    if (envInt("TP_MOCK_CUDA_BAD_REFERENCE", 0))
      C[0] += 1.0f;
    return CUDA_SUCCESS;
  }
  if (GX != F->Grid[0] || GY != F->Grid[1] || GZ != F->Grid[2] ||
      Shared != F->Shared)
    return CUDA_ERROR_INVALID_VALUE;
  std::vector<unsigned> Sizes;
  for (const std::string &R : F->Params)
    Sizes.push_back(R == "M" || R == "N" || R == "K" ? 4 : 8);
  float *C = nullptr;
  const uint16_t *A = nullptr, *B = nullptr;
  const float *R = nullptr;
  for (unsigned I = 0; I < F->Params.size(); ++I) {
    uint64_t V = readParam(param(KernelParams, Extra, Sizes, I), Sizes[I]);
    const std::string &Role = F->Params[I];
    if (Role == "C")
      C = reinterpret_cast<float *>(V);
    else if (Role == "A")
      A = reinterpret_cast<const uint16_t *>(V);
    else if (Role == "B")
      B = reinterpret_cast<const uint16_t *>(V);
    else if (Role == "R")
      R = reinterpret_cast<const float *>(V);
    else if ((Role == "M" && V != F->M) || (Role == "N" && V != F->N) ||
             (Role == "K" && V != F->K))
      return CUDA_ERROR_INVALID_VALUE;
  }
  if (!C || !A || !B || (F->Residual && !R))
    return CUDA_ERROR_INVALID_VALUE;
  if (!fits(uint64_t(C), F->M * F->N * 4) ||
      !fits(uint64_t(A), F->M * F->K * 2) ||
      !fits(uint64_t(B), F->N * F->K * 2) ||
      (F->Residual && !fits(uint64_t(R), F->M * F->N * 4)))
    return CUDA_ERROR_ILLEGAL_ADDRESS;
  std::vector<float> Out(F->M * F->N);
  gemm(Out.data(), A, B, F->Residual ? R : nullptr, F->M, F->N, F->K,
       F->ARows ? F->K : 1, F->ARows ? 1 : F->M, F->BRows ? 1 : F->N,
       F->BRows ? F->K : 1);
  if (F->Mode == "wrong")
    Out[1 * F->N + 2] += 1.0f;
  size_t Count = Out.size() - (F->Mode == "unwritten" ? 1 : 0);
  std::memcpy(C, Out.data(), Count * 4);
  return CUDA_SUCCESS;
}

CUresult cuEventCreate(CUevent *E, unsigned) {
  *E = new CUevent_st();
  return CUDA_SUCCESS;
}
CUresult cuEventRecord(CUevent E, CUstream) {
  E->Launches = LaunchCount;
  return CUDA_SUCCESS;
}
CUresult cuEventSynchronize(CUevent) { return CUDA_SUCCESS; }
CUresult cuEventElapsedTime(float *Ms, CUevent Start, CUevent Stop) {
  *Ms = float(Stop->Launches - Start->Launches) * 0.001f;
  return CUDA_SUCCESS;
}
CUresult cuEventDestroy_v2(CUevent E) {
  delete E;
  return CUDA_SUCCESS;
}

CUresult cuGetProcAddress_v2(const char *Symbol, void **Fn, int, cuuint64_t,
                             CUdriverProcAddressQueryResult *Status) {
  static const std::map<std::string, void *> Table = {
      {"cuGetErrorName", (void *)&cuGetErrorName},
      {"cuGetErrorString", (void *)&cuGetErrorString},
      {"cuInit", (void *)&cuInit},
      {"cuDriverGetVersion", (void *)&cuDriverGetVersion},
      {"cuDeviceGetCount", (void *)&cuDeviceGetCount},
      {"cuDeviceGet", (void *)&cuDeviceGet},
      {"cuDeviceGetName", (void *)&cuDeviceGetName},
      {"cuDeviceGetAttribute", (void *)&cuDeviceGetAttribute},
      {"cuDeviceTotalMem", (void *)&cuDeviceTotalMem_v2},
      {"cuDevicePrimaryCtxRetain", (void *)&cuDevicePrimaryCtxRetain},
      {"cuDevicePrimaryCtxRelease", (void *)&cuDevicePrimaryCtxRelease_v2},
      {"cuCtxSetCurrent", (void *)&cuCtxSetCurrent},
      {"cuCtxSynchronize", (void *)&cuCtxSynchronize},
      {"cuModuleLoadDataEx", (void *)&cuModuleLoadDataEx},
      {"cuModuleGetFunction", (void *)&cuModuleGetFunction},
      {"cuModuleUnload", (void *)&cuModuleUnload},
      {"cuFuncSetAttribute", (void *)&cuFuncSetAttribute},
      {"cuFuncGetAttribute", (void *)&cuFuncGetAttribute},
      {"cuMemAlloc", (void *)&cuMemAlloc_v2},
      {"cuMemFree", (void *)&cuMemFree_v2},
      {"cuMemcpyHtoD", (void *)&cuMemcpyHtoD_v2},
      {"cuMemcpyDtoH", (void *)&cuMemcpyDtoH_v2},
      {"cuMemsetD32", (void *)&cuMemsetD32_v2},
      {"cuLaunchKernel", (void *)&cuLaunchKernel},
      {"cuEventCreate", (void *)&cuEventCreate},
      {"cuEventRecord", (void *)&cuEventRecord},
      {"cuEventSynchronize", (void *)&cuEventSynchronize},
      {"cuEventElapsedTime", (void *)&cuEventElapsedTime},
      {"cuEventDestroy", (void *)&cuEventDestroy_v2},
  };
  auto It = Table.find(Symbol);
  if (envInt("TP_MOCK_CUDA_NO_PROC_ADDRESS", 0) || It == Table.end()) {
    *Fn = nullptr;
    if (Status)
      *Status = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
    return CUDA_ERROR_NOT_FOUND;
  }
  *Fn = It->second;
  if (Status)
    *Status = CU_GET_PROC_ADDRESS_SUCCESS;
  return CUDA_SUCCESS;
}

} // extern "C"
