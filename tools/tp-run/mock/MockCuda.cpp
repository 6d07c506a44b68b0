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
///   //   residual=0|1 params=ROLE,... shared=BYTES grid=X,Y,Z
///   //   [a_type=f16|bf16] [b_type=f16|bf16] [d_type=f32|f16|bf16]
///   //   [relu=0|1] [tile=BM,BN] mode=MODE
/// (on one line), each declaring a kernel that computes what tp's kernel of
/// that manifest computes: D = alpha A B + beta C + bias (C read only when
/// beta != 0; the residual is alpha = beta = 1 with C = R), ReLU, in f32
/// (fma in k order, as tp_ref_gemm), rounded once to D's type.  It reads
/// its parameters in the declared role order (the manifest's roles: C, A,
/// B, R, alpha, beta, bias, M, N, K, LDA, LDB, LDC, StrideA, StrideB,
/// StrideC; pointers 8 bytes, the others 4).  Without an LDA parameter the
/// shape is m, n, k, dense, and the launch must have grid and shared as
/// declared; with one (a run-time shape) M, N, K and the leading dimensions
/// come from the parameters, the grid must be [ceil(N / BN), ceil(M / BM),
/// batch] for tile=BM,BN (batch: the grid's z, which must be 1 without
/// StrideA), and a leading dimension, stride or pointer that breaks the
/// 16-byte rule fails with CUDA_ERROR_MISALIGNED_ADDRESS; other wrong
/// launches fail with CUDA_ERROR_INVALID_VALUE, an operand beyond its
/// allocation with CUDA_ERROR_ILLEGAL_ADDRESS.
///
/// MODE is what the kernel gets wrong, so that tests show each check fails:
///   correct        nothing
///   wrong          D(1, 2) of batch 0 is off by 1
///   unwritten      the last element of the last batch is not written
///   wrong-alpha    alpha is taken as 1
///   leak-nan       C is read (beta C added) even when beta = 0
///   truncate       D is rounded toward zero instead of to nearest even
///   ignore-ld      the leading dimensions are taken as the dense extents
///   ignore-stride  every batch reads batch 0's A and B
///   no-bias, no-relu   the bias, the ReLU left out
/// A module containing `.entry tp_ref_gemm` is tp-run's reference kernel,
/// computed as its PTX does (ReferenceKernel.h).  Anything else is
/// CUDA_ERROR_INVALID_IMAGE, with a message in the JIT error log; an ELF
/// image (a cubin) is CUDA_ERROR_NO_BINARY_FOR_GPU.
///
/// Environment:
///   TP_MOCK_CUDA_DEVICES=n    device count (default 1; 0: cuInit says
///                             CUDA_ERROR_NO_DEVICE)
///   TP_MOCK_CUDA_SM=86|90     compute capability (default 86)
///   TP_MOCK_CUDA_FAIL=name    that entry point returns an error
///   TP_MOCK_CUDA_BAD_REFERENCE=1  tp_ref_gemm adds 1 to D(0, 0)
///   TP_MOCK_CUDA_NO_PROC_ADDRESS=1  cuGetProcAddress finds nothing
///   Each launch takes 0.001 ms of event time.
///
//===----------------------------------------------------------------------===//

#include "tp/Support/FloatConversion.h"
#include "tp/Target/SASS/SASS.h"

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
  bool ARows = true, BRows = false, Residual = false, Relu = false;
  int AType = 1, BType = 1, DType = 0; ///< 0 f32, 1 f16, 2 bf16
  unsigned Tile[2] = {0, 0};
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

/// 0 f32, 1 f16, 2 bf16; -1 for anything else.
int typeCode(const std::string &S) {
  return S == "f32" ? 0 : S == "f16" ? 1 : S == "bf16" ? 2 : -1;
}

float widen(uint16_t Bits, int Type) {
  return Type == 2 ? tp::bfloat16ToFloat(Bits) : tp::halfToFloat(Bits);
}

/// One product as a kernel (or tp_ref_gemm) sees it: element strides of
/// A(i, k) and B(k, j), D's pitch, batch strides, types and epilogue.
struct MockGemm {
  uint64_t M = 0, N = 0, K = 0, Batch = 1;
  const uint16_t *A = nullptr, *B = nullptr;
  const void *C = nullptr; ///< D's type; read only when ReadC
  const float *Bias = nullptr;
  void *D = nullptr;
  uint64_t SAi = 0, SAk = 0, SBk = 0, SBj = 0, LdC = 0;
  uint64_t StrideA = 0, StrideB = 0, StrideC = 0;
  int AType = 1, BType = 1, DType = 0;
  float Alpha = 1, Beta = 0;
  bool ReadC = false, Relu = false;
};

/// x rounded to D's type, to nearest even (or toward zero), as its bits.
uint16_t narrow(float X, int Type, bool Truncate) {
  uint16_t H = Type == 2 ? tp::floatToBFloat16(X) : tp::floatToHalf(X);
  float Back = widen(H, Type);
  if (Truncate && std::isfinite(X) && std::fabs(Back) > std::fabs(X))
    --H; // one step toward zero: the bit patterns are ordered by magnitude
  return H;
}

/// D as tp_ref_gemm computes it: f32 fma in k order, x = alpha acc, + beta
/// C, + bias, ReLU, one rounding.  \p Mode: the kernel's defect (above).
void runGemm(const MockGemm &G, const std::string &Mode) {
  for (uint64_t Bt = 0; Bt < G.Batch; ++Bt)
    for (uint64_t I = 0; I < G.M; ++I)
      for (uint64_t J = 0; J < G.N; ++J) {
        if (Mode == "unwritten" && Bt == G.Batch - 1 && I == G.M - 1 &&
            J == G.N - 1)
          continue;
        uint64_t AB = Mode == "ignore-stride" ? 0 : Bt;
        float Acc = 0;
        for (uint64_t Kk = 0; Kk < G.K; ++Kk)
          Acc = std::fma(
              widen(G.A[AB * G.StrideA + I * G.SAi + Kk * G.SAk], G.AType),
              widen(G.B[AB * G.StrideB + Kk * G.SBk + J * G.SBj], G.BType),
              Acc);
        float X = Acc * (Mode == "wrong-alpha" ? 1.0f : G.Alpha);
        uint64_t At = Bt * G.StrideC + I * G.LdC + J;
        if (G.ReadC || (Mode == "leak-nan" && G.C)) {
          float CV;
          if (G.DType == 0)
            CV = static_cast<const float *>(G.C)[At];
          else
            CV = widen(static_cast<const uint16_t *>(G.C)[At], G.DType);
          X = std::fma(G.Beta, CV, X);
        }
        if (G.Bias && Mode != "no-bias")
          X += G.Bias[J];
        if (G.Relu && Mode != "no-relu")
          X = std::fmax(X, 0.0f);
        if (Mode == "wrong" && Bt == 0 && I == 1 && J == 2)
          X += 1.0f;
        if (G.DType == 0)
          static_cast<float *>(G.D)[At] = X;
        else
          static_cast<uint16_t *>(G.D)[At] =
              narrow(X, G.DType, Mode == "truncate");
      }
}

/// Whether \p G's operands lie inside their allocations.
bool operandsFit(const MockGemm &G) {
  auto Span = [&](uint64_t Stride, uint64_t Last) {
    return (G.Batch - 1) * Stride + Last + 1;
  };
  if (!G.M || !G.N)
    return true;
  uint64_t DBytes = G.DType == 0 ? 4 : 2;
  uint64_t LastA = G.K ? (G.M - 1) * G.SAi + (G.K - 1) * G.SAk : 0;
  uint64_t LastB = G.K ? (G.K - 1) * G.SBk + (G.N - 1) * G.SBj : 0;
  uint64_t LastC = (G.M - 1) * G.LdC + G.N - 1;
  return (!G.K || (fits(uint64_t(G.A), 2 * Span(G.StrideA, LastA)) &&
                   fits(uint64_t(G.B), 2 * Span(G.StrideB, LastB)))) &&
         fits(uint64_t(G.D), DBytes * Span(G.StrideC, LastC)) &&
         (!G.ReadC || fits(uint64_t(G.C), DBytes * Span(G.StrideC, LastC))) &&
         (!G.Bias || fits(uint64_t(G.Bias), 4 * G.N));
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

/// tp_ref_gemm's launch (ReferenceKernel.h's parameters).
CUresult launchReference(unsigned GX, unsigned GY, unsigned GZ, unsigned BX,
                         unsigned BY, unsigned BZ, void **KernelParams,
                         void **Extra) {
  std::vector<unsigned> Sizes = {8, 8, 8, 8, 8, 4, 4, 4, 4, 4,
                                 4, 4, 4, 4, 4, 4, 4, 4, 4};
  uint64_t V[19];
  for (unsigned I = 0; I < 19; ++I)
    V[I] = readParam(param(KernelParams, Extra, Sizes, I), Sizes[I]);
  MockGemm G;
  G.D = reinterpret_cast<void *>(V[0]);
  G.A = reinterpret_cast<const uint16_t *>(V[1]);
  G.B = reinterpret_cast<const uint16_t *>(V[2]);
  G.C = reinterpret_cast<const void *>(V[3]);
  G.Bias = reinterpret_cast<const float *>(V[4]);
  uint32_t AlphaBits = uint32_t(V[5]), BetaBits = uint32_t(V[6]);
  std::memcpy(&G.Alpha, &AlphaBits, 4);
  std::memcpy(&G.Beta, &BetaBits, 4);
  G.M = V[7];
  G.N = V[8];
  G.K = V[9];
  G.SAi = V[10];
  G.SAk = V[11];
  G.SBk = V[12];
  G.SBj = V[13];
  G.LdC = V[14];
  G.StrideA = V[15];
  G.StrideB = V[16];
  G.StrideC = V[17];
  uint32_t Flags = uint32_t(V[18]);
  G.AType = Flags & 1 ? 2 : 1;
  G.BType = Flags & 2 ? 2 : 1;
  G.DType = (Flags >> 2) & 3;
  G.Relu = Flags & 16;
  G.ReadC = Flags & 32;
  G.Batch = GZ;
  // One thread per element: the grid must cover D.
  if (uint64_t(GX) * BX < G.N || uint64_t(GY) * BY < G.M || BZ != 1 ||
      G.DType > 2)
    return CUDA_ERROR_INVALID_VALUE;
  if (!operandsFit(G))
    return CUDA_ERROR_ILLEGAL_ADDRESS;
  runGemm(G, "correct");
  if (envInt("TP_MOCK_CUDA_BAD_REFERENCE", 0)) {
    if (G.DType == 0)
      static_cast<float *>(G.D)[0] += 1.0f;
    else
      static_cast<uint16_t *>(G.D)[0] ^= 0x4000;
  }
  return CUDA_SUCCESS;
}

/// A declared kernel's launch (the module's tp-mock-kernel line).
CUresult launchDeclared(CUfunc_st *F, unsigned GX, unsigned GY, unsigned GZ,
                        unsigned Shared, void **KernelParams, void **Extra) {
  if (Shared != F->Shared || F->AType < 1 || F->BType < 1 || F->DType < 0)
    return CUDA_ERROR_INVALID_VALUE;
  std::vector<unsigned> Sizes;
  for (const std::string &R : F->Params)
    Sizes.push_back(R == "C" || R == "A" || R == "B" || R == "R" ||
                            R == "bias"
                        ? 8
                        : 4);
  std::map<std::string, uint64_t> V;
  for (unsigned I = 0; I < F->Params.size(); ++I)
    V[F->Params[I]] = readParam(param(KernelParams, Extra, Sizes, I), Sizes[I]);
  auto Get = [&](const char *Role) -> uint64_t {
    auto It = V.find(Role);
    return It == V.end() ? 0 : It->second;
  };
  const bool Runtime = V.count("LDA"), Batched = V.count("StrideA");
  MockGemm G;
  G.M = Runtime ? Get("M") : F->M;
  G.N = Runtime ? Get("N") : F->N;
  G.K = Runtime ? Get("K") : F->K;
  uint64_t Extent[3] = {F->ARows ? G.K : G.M, F->BRows ? G.K : G.N, G.N};
  uint64_t Ld[3] = {Runtime ? Get("LDA") : Extent[0],
                    Runtime ? Get("LDB") : Extent[1],
                    Runtime ? Get("LDC") : Extent[2]};
  // The copies' 16-byte chunks: what the real kernel assumes of its
  // run-time values (it would read the wrong bytes otherwise).
  if (Runtime) {
    for (uint64_t X : {Ld[0], Ld[1], Ld[2], Get("StrideA"), Get("StrideB"),
                       Get("StrideC")})
      if (X % 8)
        return CUDA_ERROR_MISALIGNED_ADDRESS;
    for (const char *Pointer : {"A", "B", "C", "R"})
      if (Get(Pointer) % 16)
        return CUDA_ERROR_MISALIGNED_ADDRESS;
  }
  if (F->Mode == "ignore-ld")
    std::copy(Extent, Extent + 3, Ld);
  // A fixed kernel that takes M, N, K (as the reference PTX GEMM) checks
  // that it gets its own shape.
  for (auto [Role, Want] : {std::pair<const char *, uint64_t>{"M", F->M},
                            {"N", F->N},
                            {"K", F->K}})
    if (!Runtime && V.count(Role) && Get(Role) != Want)
      return CUDA_ERROR_INVALID_VALUE;
  if (Runtime) {
    if (!F->Tile[0] || !F->Tile[1] || !G.M || !G.N || !G.K)
      return CUDA_ERROR_INVALID_VALUE;
    if (GX != (G.N + F->Tile[1] - 1) / F->Tile[1] ||
        GY != (G.M + F->Tile[0] - 1) / F->Tile[0] || (!Batched && GZ != 1))
      return CUDA_ERROR_INVALID_VALUE;
  } else if (GX != F->Grid[0] || GY != F->Grid[1] || GZ != F->Grid[2]) {
    return CUDA_ERROR_INVALID_VALUE;
  }
  G.Batch = Batched ? GZ : 1;
  G.StrideA = Batched ? Get("StrideA") : 0;
  G.StrideB = Batched ? Get("StrideB") : 0;
  G.StrideC = Batched ? Get("StrideC") : 0;
  G.SAi = F->ARows ? Ld[0] : 1;
  G.SAk = F->ARows ? 1 : Ld[0];
  G.SBk = F->BRows ? 1 : Ld[1];
  G.SBj = F->BRows ? Ld[1] : 1;
  G.LdC = Ld[2];
  G.A = reinterpret_cast<const uint16_t *>(Get("A"));
  G.B = reinterpret_cast<const uint16_t *>(Get("B"));
  G.D = reinterpret_cast<void *>(Get("C"));
  G.AType = F->AType;
  G.BType = F->BType;
  G.DType = F->DType;
  G.Relu = F->Relu;
  const bool Scale = V.count("alpha");
  if (Scale) {
    uint32_t AlphaBits = uint32_t(Get("alpha")), BetaBits = uint32_t(Get("beta"));
    std::memcpy(&G.Alpha, &AlphaBits, 4);
    std::memcpy(&G.Beta, &BetaBits, 4);
  } else if (F->Residual) {
    G.Beta = 1;
  }
  G.C = reinterpret_cast<const void *>(Get("R"));
  G.ReadC = (F->Residual || Scale) && G.Beta != 0;
  G.Bias = reinterpret_cast<const float *>(Get("bias"));
  if (!G.A || !G.B || !G.D || ((F->Residual || Scale) && !G.C) ||
      (V.count("bias") && !G.Bias))
    return CUDA_ERROR_INVALID_VALUE;
  if (!operandsFit(G))
    return CUDA_ERROR_ILLEGAL_ADDRESS;
  // In place (C = D) is fine: each element's C is read before its D is
  // written.
  runGemm(G, F->Mode);
  return CUDA_SUCCESS;
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
  case CUDA_ERROR_MISALIGNED_ADDRESS:
    *S = "CUDA_ERROR_MISALIGNED_ADDRESS";
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
  case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN: {
    // The target's limit a block (td/Targets.td's MaxSharedBytesPerBlock).
    tp::sass::Target T;
    if (!tp::sass::lookupTarget("sm_" + std::to_string(SM), T))
      return CUDA_ERROR_INVALID_DEVICE;
    *V = int(tp::sass::getTargetInfo(T).MaxSharedBytesPerBlock);
    break;
  }
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
      else if (Key == "relu")
        F->Relu = Val == "1";
      else if (Key == "a_type")
        F->AType = typeCode(Val);
      else if (Key == "b_type")
        F->BType = typeCode(Val);
      else if (Key == "d_type")
        F->DType = typeCode(Val);
      else if (Key == "tile")
        std::sscanf(Val.c_str(), "%u,%u", &F->Tile[0], &F->Tile[1]);
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
  if (F->IsReference)
    return launchReference(GX, GY, GZ, BX, BY, BZ, KernelParams, Extra);
  return launchDeclared(F, GX, GY, GZ, Shared, KernelParams, Extra);
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
