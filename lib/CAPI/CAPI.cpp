//===- CAPI.cpp - tp's C API over the C++ API -----------------------------===//
///
/// \file
/// The functions of tp/tp.h.  Each one runs its body inside guard(): an
/// llvm::Error becomes the tools' diagnostic text in *error and status 1;
/// a C++ exception (std::bad_alloc, ...) becomes "tp: error: internal
/// error: ..." and status 1; nothing propagates into the caller.  Null
/// pointers where a value is required are errors, never dereferenced.
///
//===----------------------------------------------------------------------===//

#include "tp/tp.h"
#include "tp/Driver/Compile.h"
#include "tp/Object/SassCodec.h"
#include "tp/Object/SassListing.h"
#include "tp/Object/SassText.h"
#include "tp/Sim/Simulator.h"
#include "tp/Support/Diagnostics.h"
#include "tp/Support/ReferenceGemm.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <tuple>

using namespace llvm;

struct tp_kernel {
  tp::Kernel K;
  std::string StatsJSON;
};

namespace {

/// A malloc'ed copy of \p S (released by tp_string_free).
char *copyString(StringRef S) {
  char *P = static_cast<char *>(std::malloc(S.size() + 1));
  if (!P)
    return nullptr;
  std::memcpy(P, S.data(), S.size());
  P[S.size()] = '\0';
  return P;
}

int fail(char **Error, const std::string &Text) {
  if (Error)
    *Error = copyString(Text);
  return 1;
}

/// Runs \p Body (returning llvm::Error); the status of tp.h.
template <typename Fn> int guard(char **ErrorOut, Fn Body) {
  if (ErrorOut)
    *ErrorOut = nullptr;
  try {
    if (Error E = Body())
      return fail(ErrorOut, tp::renderErrors(std::move(E)));
    return 0;
  } catch (const std::exception &X) {
    return fail(ErrorOut, std::string("tp: error: internal error: ") + X.what() +
                              "\n");
  } catch (...) {
    return fail(ErrorOut, "tp: error: internal error: unknown exception\n");
  }
}

Error requireNonNull(const void *P, StringRef What) {
  if (!P)
    return tp::makeError(What + " is NULL");
  return Error::success();
}

/// A NULL string field keeps its default.
void readString(const char *S, std::string &Out) {
  if (S)
    Out = S;
}

Expected<tp::GemmDesc> toGemmDesc(const tp_gemm_desc &C) {
  if (C.struct_size != sizeof(tp_gemm_desc))
    return tp::makeError(formatv("tp_gemm_desc: struct_size is {0}, expected "
                                 "{1} (call tp_gemm_desc_init first)",
                                 C.struct_size, sizeof(tp_gemm_desc))
                             .str());
  tp::GemmDesc D;
  D.M = C.m;
  D.N = C.n;
  D.K = C.k;
  readString(C.a_layout, D.LayoutA);
  readString(C.b_layout, D.LayoutB);
  readString(C.tile, D.Tile);
  D.Residual = C.residual != 0;
  readString(C.target, D.Target);
  readString(C.name, D.Name);
  readString(C.a_type, D.AType);
  readString(C.b_type, D.BType);
  readString(C.d_type, D.DType);
  D.Alpha = C.alpha;
  D.Beta = C.beta;
  D.Bias = C.bias != 0;
  D.Relu = C.relu != 0;
  D.Batch = C.batch;
  D.FixedShape = C.runtime_shape == 0;
  return D;
}

std::string statsJSON(const tp::KernelStats &S) {
  return formatv("{{\"instructions\": {0}, \"loop_body_instructions\": {1}, "
                 "\"hmma\": {2}, \"loop_hmma\": {3}, \"loop_issue_cycles\": "
                 "{4}, \"issue_cycles_per_kstep\": {5:f2}, \"registers\": {6}, "
                 "\"shared_bytes\": {7}}",
                 S.Instructions, S.LoopBodyInstructions, S.HMMAs, S.LoopHMMAs,
                 S.LoopIssueCycles, S.IssueCyclesPerKStep, S.Registers,
                 S.SharedBytes)
      .str();
}

Expected<std::string> disassembleListing(ArrayRef<uint8_t> Bytes,
                                         tp::sass::Target T) {
  StringRef Str(reinterpret_cast<const char *>(Bytes.data()), Bytes.size());
  auto Lines = tp::object::disassembleCubinListing(
      "<cubin>", Str, T, [](StringRef, const std::string &) {});
  if (!Lines)
    return Lines.takeError();
  tp::object::ListingPrintOptions O;
  O.ShowControl = true;
  std::string Text;
  raw_string_ostream OS(Text);
  for (const tp::object::ListingLine &L : *Lines)
    tp::object::printListingLine(L, O, OS);
  return OS.str();
}


/// The shortest decimal that reads back as \p V (printf's %g with the
/// fewest significant digits that round-trip): 0.1, 1e-50,
/// 0.10000000149011612.
std::string formatDouble(double V) {
  char Buf[32];
  for (int Digits = 1; Digits <= 17; ++Digits) {
    snprintf(Buf, sizeof(Buf), "%.*g", Digits, V);
    if (std::strtod(Buf, nullptr) == V)
      break;
  }
  return Buf;
}

/// Why \p V cannot be alpha or beta (f32 kernel parameters, which take the
/// value exactly, as tp-llc, tp-sim and tp-run do), or "" when it can: not
/// finite, beyond binary32's range, or not exact (the nearest binary32
/// shown, so that 0.1 reads as the error it is).
std::string whyNotBinary32(double V) {
  if (!std::isfinite(V))
    return formatDouble(V) + " is not a finite number";
  if (std::fabs(V) > double(FLT_MAX))
    return formatDouble(V) + " is beyond binary32's range (the largest "
                             "finite binary32 is " +
           formatDouble(FLT_MAX) + ")";
  if (double(float(V)) != V)
    return formatDouble(V) + " is not exact in binary32 (the nearest "
                             "binary32 is " +
           formatDouble(float(V)) + ")";
  return "";
}

/// The launch a tp_gemm_run asks for: its shape (0: the kernel's
/// recorded one) checked against the kernel (a fixed-shape kernel only at
/// its own), the operands' storage padded to rows of 8 elements, the
/// epilogue's values (NaN: the manifest's).
Expected<tp::GemmLaunch> planRun(const tp::LaunchManifest &Man,
                                 const tp_gemm_run &Run) {
  tp::GemmShape Shape;
  Shape.M = Run.m ? uint64_t(Run.m) : Man.M;
  Shape.N = Run.n ? uint64_t(Run.n) : Man.N;
  Shape.K = Run.k ? uint64_t(Run.k) : Man.K;
  Shape.Batch = Run.batch ? uint64_t(Run.batch) : Man.Batch;
  if (Run.m < 0 || Run.n < 0 || Run.k < 0 || Run.batch < 0)
    return tp::makeError(formatv("tp_kernel_simulate: shape {0}x{1}x{2}, "
                                 "batch {3}: negative",
                                 Run.m, Run.n, Run.k, Run.batch)
                             .str());
  std::string What = formatv("tp_kernel_simulate: shape {0}x{1}x{2}{3}",
                             Shape.M, Shape.N, Shape.K,
                             Shape.Batch > 1
                                 ? "x" + std::to_string(Shape.Batch)
                                 : std::string())
                         .str();
  Expected<tp::GemmLaunch> L = tp::getGemmLaunch(Man, &Shape, 8, What);
  if (!L)
    return L.takeError();
  if (tp::hasRuntimeShape(Man))
    if (Error E = tp::checkGemmStorage(L->P, L->S))
      return tp::makeError("tp_kernel_simulate: " + toString(std::move(E)));
  for (auto [V, Dest, Name] :
       {std::tuple<double, double *, const char *>{Run.alpha, &L->P.Alpha,
                                                   "alpha"},
        {Run.beta, &L->P.Beta, "beta"}}) {
    if (std::isnan(V))
      continue; // the manifest's
    if (!Man.HasScale && V != (Dest == &L->P.Alpha ? 1.0 : 0.0))
      return tp::makeError("tp_kernel_simulate: " + Twine(Name) + " = " +
                           formatDouble(V) +
                           ", but the kernel takes no alpha and beta");
    std::string Why = whyNotBinary32(V);
    if (!Why.empty())
      return tp::makeError("tp_kernel_simulate: " + Twine(Name) + ": " + Why);
    if (Man.HasScale)
      *Dest = V;
  }
  return L;
}

/// tp_kernel_plan_launch's body.
Error planLaunch(const tp::LaunchManifest &Man, tp_gemm_storage &St) {
  tp_gemm_run Run;
  tp_gemm_run_init(&Run);
  Run.m = St.m;
  Run.n = St.n;
  Run.k = St.k;
  Run.batch = St.batch;
  Expected<tp::GemmLaunch> L = planRun(Man, Run);
  if (!L)
    return L.takeError();
  tp::GemmProblem &P = L->P;
  tp::GemmStorage &S = L->S;
  const bool Runtime = tp::hasRuntimeShape(Man);
  if (!Runtime)
    S = tp::GemmStorage::packed(P, 1, 1);
  const int64_t Given[6] = {St.lda,      St.ldb,      St.ldc,
                            St.stride_a, St.stride_b, St.stride_c};
  uint64_t *Dest[6] = {&S.LdA,     &S.LdB,     &S.LdC,
                       &S.StrideA, &S.StrideB, &S.StrideC};
  const char *Names[6] = {"lda",      "ldb",      "ldc",
                          "stride_a", "stride_b", "stride_c"};
  for (unsigned I = 0; I < 6; ++I) {
    if (Given[I] < 0)
      return tp::makeError(formatv("tp_kernel_plan_launch: {0} = {1} is "
                                   "negative",
                                   Names[I], Given[I])
                               .str());
    if (!Given[I] || uint64_t(Given[I]) == *Dest[I])
      continue;
    if (!Runtime)
      return tp::makeError(formatv("tp_kernel_plan_launch: {0} = {1}, but "
                                   "the kernel has its shape built in "
                                   "(dense operands: {0} = {2})",
                                   Names[I], Given[I], *Dest[I])
                               .str());
    *Dest[I] = uint64_t(Given[I]);
    // Strides not given follow the given leading dimensions.
    if (I < 3 && S.Batch > 1) {
      if (!St.stride_a)
        S.StrideA = P.rowsA() * S.LdA;
      if (!St.stride_b)
        S.StrideB = P.rowsB() * S.LdB;
      if (!St.stride_c)
        S.StrideC = P.M * S.LdC;
    }
  }
  if (Runtime)
    if (Error E = tp::checkGemmStorage(P, S))
      return tp::makeError("tp_kernel_plan_launch: " + toString(std::move(E)));
  St.m = int64_t(P.M);
  St.n = int64_t(P.N);
  St.k = int64_t(P.K);
  St.batch = int64_t(S.Batch);
  int64_t *Out[6] = {&St.lda,      &St.ldb,      &St.ldc,
                     &St.stride_a, &St.stride_b, &St.stride_c};
  for (unsigned I = 0; I < 6; ++I)
    *Out[I] = int64_t(*Dest[I]);
  for (unsigned I = 0; I < 3; ++I)
    St.grid[I] = L->Grid[I];
  return Error::success();
}

/// Dense rows x cols at \p Src into \p Dst with row pitch \p Ld (element
/// size \p ES), and back (\p ToDense).
void copyRows(uint8_t *Pitched, uint8_t *Dense, uint64_t Rows, uint64_t Cols,
              uint64_t Ld, unsigned ES, bool ToDense) {
  for (uint64_t R = 0; R < Rows; ++R) {
    uint8_t *P = Pitched + R * Ld * ES, *D = Dense + R * Cols * ES;
    std::memcpy(ToDense ? D : P, ToDense ? P : D, Cols * ES);
  }
}

/// Fills \p Buf with \p Count copies of the \p ES-byte pattern \p Bits.
void fillPattern(MutableArrayRef<uint8_t> Buf, uint32_t Bits, unsigned ES) {
  for (uint64_t I = 0; I + ES <= Buf.size(); I += ES)
    std::memcpy(&Buf[I], &Bits, ES);
}

/// tp_kernel_simulate_run's body: the operands in simulated memory
/// (pitched, NaN in A's and B's padding, D poisoned), the launch as
/// tp-sim's GEMM mode makes it, D copied back dense.
Error simulateRun(const tp::Kernel &K, const tp_gemm_run &Run) {
  for (auto [P, What] : {std::pair<const void *, StringRef>{Run.a, "a"},
                         {Run.b, "b"}, {Run.d, "d"}})
    if (Error E = requireNonNull(P, "tp_kernel_simulate: " + What.str()))
      return E;
  const tp::LaunchManifest &Man = K.Manifest;
  Expected<tp::GemmLaunch> LOrErr = planRun(Man, Run);
  if (!LOrErr)
    return LOrErr.takeError();
  const tp::GemmProblem &P = LOrErr->P;
  const tp::GemmStorage &S = LOrErr->S;
  const bool HasC = P.Residual || P.Scale;
  if (HasC && !Run.c)
    return tp::makeError(P.Residual ? "tp_kernel_simulate: the kernel has a "
                                      "residual operand; r is NULL"
                                    : "tp_kernel_simulate: the kernel reads C "
                                      "(alpha, beta); c is NULL");
  if (P.Bias && !Run.bias)
    return tp::makeError("tp_kernel_simulate: the kernel adds a bias; bias "
                         "is NULL");
  const bool InPlace = HasC && Run.c == Run.d;
  const unsigned DB = tp::getElementTypeBytes(P.DType);
  const uint64_t NB = S.Batch;
  Expected<tp::sim::KernelImage> Img = tp::sim::loadKernel(K.Cubin, Man.Kernel);
  if (!Img)
    return Img.takeError();
  Expected<tp::sim::ProgramPtr> Prog = tp::sim::buildProgram(*Img);
  if (!Prog)
    return Prog.takeError();
  // A, B, D, C (R) and the bias; the simulator's memory limit is an
  // error, not an abort.
  tp::sim::GlobalMemory Mem;
  uint64_t Addr[5] = {0, 0, 0, 0, 0};
  const uint64_t Bytes[5] = {S.spanA(P) * 2, S.spanB(P) * 2, S.spanC(P) * DB,
                             HasC && !InPlace ? S.spanC(P) * DB : 0,
                             P.Bias ? P.N * 4 : 0};
  for (unsigned I = 0; I < 5; ++I) {
    if (!Bytes[I])
      continue;
    Expected<uint64_t> At = Mem.allocate(Bytes[I]);
    if (!At)
      return tp::makeError("tp_kernel_simulate: " + toString(At.takeError()));
    Addr[I] = *At;
  }
  if (InPlace)
    Addr[3] = Addr[2];
  auto NaN16 = [](tp::ElementType T) -> uint32_t {
    return T == tp::ElementType::BF16 ? 0x7fc0 : 0x7e00;
  };
  const uint32_t PoisonD =
      DB == 4 ? tp::PoisonBits : tp::getPoison16(P.DType);
  fillPattern(Mem.getBuffer(Addr[0]), NaN16(P.AType), 2);
  fillPattern(Mem.getBuffer(Addr[1]), NaN16(P.BType), 2);
  fillPattern(Mem.getBuffer(Addr[2]), PoisonD, DB);
  auto *A = static_cast<uint8_t *>(const_cast<void *>(Run.a));
  auto *B = static_cast<uint8_t *>(const_cast<void *>(Run.b));
  auto *C = static_cast<uint8_t *>(const_cast<void *>(Run.c));
  for (uint64_t Bt = 0; Bt < NB; ++Bt) {
    copyRows(&Mem.getBuffer(Addr[0])[2 * Bt * S.StrideA],
             A + 2 * Bt * P.elementsA(), P.rowsA(), P.colsA(), S.LdA, 2,
             false);
    copyRows(&Mem.getBuffer(Addr[1])[2 * Bt * S.StrideB],
             B + 2 * Bt * P.elementsB(), P.rowsB(), P.colsB(), S.LdB, 2,
             false);
    if (HasC)
      copyRows(&Mem.getBuffer(Addr[3])[DB * Bt * S.StrideC],
               C + DB * Bt * P.elementsC(), P.M, P.N, S.LdC, DB, false);
  }
  if (P.Bias)
    std::memcpy(Mem.getBuffer(Addr[4]).data(), Run.bias, P.N * 4);
  tp::sim::LaunchConfig Cfg;
  Cfg.Grid = LOrErr->Grid;
  Cfg.Block = Man.Block;
  Cfg.DynamicSharedBytes = Man.DynamicSharedBytes;
  Cfg.CheckSchedule = Run.check_schedule != 0;
  Cfg.Params.resize(Man.getParamBlockSize());
  for (const tp::ManifestParam &MP : Man.Params) {
    uint64_t V = 0;
    switch (MP.Role) {
    case tp::ParamRole::A: V = Addr[0]; break;
    case tp::ParamRole::B: V = Addr[1]; break;
    case tp::ParamRole::C: V = Addr[2]; break;
    case tp::ParamRole::R: V = Addr[3]; break;
    case tp::ParamRole::Bias: V = Addr[4]; break;
    case tp::ParamRole::M: V = P.M; break;
    case tp::ParamRole::N: V = P.N; break;
    case tp::ParamRole::K: V = P.K; break;
    case tp::ParamRole::Alpha: V = tp::floatBits(float(P.Alpha)); break;
    case tp::ParamRole::Beta: V = tp::floatBits(float(P.Beta)); break;
    case tp::ParamRole::LDA: V = S.LdA; break;
    case tp::ParamRole::LDB: V = S.LdB; break;
    case tp::ParamRole::LDC: V = S.LdC; break;
    case tp::ParamRole::StrideA: V = S.StrideA; break;
    case tp::ParamRole::StrideB: V = S.StrideB; break;
    case tp::ParamRole::StrideC: V = S.StrideC; break;
    }
    std::memcpy(&Cfg.Params[MP.Offset], &V, MP.Size);
  }
  Expected<tp::sim::LaunchStats> Stats = tp::sim::launch(**Prog, Mem, Cfg);
  if (!Stats)
    return Stats.takeError();
  if (Stats->Hazards) {
    std::string Msg = formatv("tp_kernel_simulate: {0} schedule hazard(s)",
                              Stats->Hazards);
    for (const std::string &H : Stats->HazardReports)
      Msg += "\n  " + H;
    return tp::makeError(Msg);
  }
  // D back, dense; the padding between D's rows must still hold the
  // poison (in place: C's padding, which is poison too).
  MutableArrayRef<uint8_t> DBuf = Mem.getBuffer(Addr[2]);
  auto *Out = static_cast<uint8_t *>(Run.d);
  std::vector<bool> Inside(S.spanC(P), false);
  for (uint64_t Bt = 0; Bt < NB; ++Bt) {
    copyRows(&DBuf[DB * Bt * S.StrideC], Out + DB * Bt * P.elementsC(), P.M,
             P.N, S.LdC, DB, true);
    for (uint64_t I = 0; I < P.M; ++I)
      for (uint64_t J = 0; J < P.N; ++J)
        Inside[S.indexC(Bt, I, J)] = true;
  }
  uint64_t Outside = 0;
  for (uint64_t I = 0; I < Inside.size(); ++I) {
    uint32_t Bits = 0;
    std::memcpy(&Bits, &DBuf[DB * I], DB);
    Outside += !Inside[I] && Bits != PoisonD;
  }
  if (Outside)
    return tp::makeError(formatv("tp_kernel_simulate: the kernel wrote {0} "
                                 "element(s) outside D's M x N",
                                 Outside)
                             .str());
  return Error::success();
}

} // namespace

extern "C" {

const char *tp_version(void) { return "0.1.0"; }

void tp_gemm_desc_init(tp_gemm_desc *D) {
  if (!D)
    return;
  std::memset(D, 0, sizeof(*D));
  D->struct_size = sizeof(*D);
  D->m = D->n = D->k = 4096;
  D->a_layout = "rows";
  D->b_layout = "columns";
  D->tile = "auto";
  D->target = "sm_86";
  D->name = "gemm";
  D->a_type = D->b_type = "f16";
  D->d_type = "f32";
  D->alpha = 1.0;
  D->beta = 0.0;
  D->batch = 1;
  D->runtime_shape = 1;
}

int tp_gemm_compile(const tp_gemm_desc *Desc, tp_kernel **Kernel,
                    char **ErrorOut) {
  return guard(ErrorOut, [&]() -> Error {
    if (Error E = requireNonNull(Kernel, "tp_gemm_compile: kernel"))
      return E;
    *Kernel = nullptr;
    if (Error E = requireNonNull(Desc, "tp_gemm_compile: desc"))
      return E;
    Expected<tp::GemmDesc> D = toGemmDesc(*Desc);
    if (!D)
      return D.takeError();
    Expected<tp::Kernel> K = tp::compileGemm(*D);
    if (!K)
      return K.takeError();
    auto *Result = new tp_kernel{std::move(*K), ""};
    Result->StatsJSON = statsJSON(Result->K.Stats);
    *Kernel = Result;
    return Error::success();
  });
}

const uint8_t *tp_kernel_cubin(const tp_kernel *K, size_t *Size) {
  if (Size)
    *Size = K ? K->K.Cubin.size() : 0;
  return K ? K->K.Cubin.data() : nullptr;
}

const char *tp_kernel_sass(const tp_kernel *K) {
  return K ? K->K.getSass().c_str() : nullptr;
}

const char *tp_kernel_manifest_json(const tp_kernel *K) {
  return K ? K->K.ManifestJSON.c_str() : nullptr;
}

const char *tp_kernel_stats_json(const tp_kernel *K) {
  return K ? K->StatsJSON.c_str() : nullptr;
}

void tp_kernel_free(tp_kernel *K) { delete K; }

void tp_string_free(char *S) { std::free(S); }

void tp_buffer_free(void *B) { std::free(B); }

int tp_disassemble(const void *Cubin, size_t Size, unsigned Flags,
                   char **Text, char **ErrorOut) {
  return guard(ErrorOut, [&]() -> Error {
    if (Error E = requireNonNull(Text, "tp_disassemble: text"))
      return E;
    *Text = nullptr;
    if (Error E = requireNonNull(Cubin, "tp_disassemble: cubin"))
      return E;
    if (Flags > TP_DISASSEMBLE_CUBIN_TEXT)
      return tp::makeError(formatv("tp_disassemble: unknown flags {0:x}", Flags)
                               .str());
    ArrayRef<uint8_t> Bytes(static_cast<const uint8_t *>(Cubin), Size);
    Expected<tp::sass::Target> T = tp::object::getCubinTarget(Bytes);
    if (!T)
      return tp::makeError("<cubin>: " + toString(T.takeError()));
    std::string Out;
    if (Flags == TP_DISASSEMBLE_LISTING) {
      Expected<std::string> L = disassembleListing(Bytes, *T);
      if (!L)
        return tp::makeError("<cubin>: " + toString(L.takeError()));
      Out = std::move(*L);
    } else {
      raw_string_ostream OS(Out);
      if (Error E = tp::object::disassembleCubinToSass(
              Bytes, OS, tp::object::getSassOptions(*T)))
        return tp::makeError("<cubin>: " + toString(std::move(E)));
      OS.flush();
    }
    *Text = copyString(Out);
    return Error::success();
  });
}

int tp_assemble(const char *Text, size_t Length, const char *Target,
                void **Cubin, size_t *Size, char **ErrorOut) {
  return guard(ErrorOut, [&]() -> Error {
    if (Error E = requireNonNull(Cubin, "tp_assemble: cubin"))
      return E;
    *Cubin = nullptr;
    if (Error E = requireNonNull(Size, "tp_assemble: size"))
      return E;
    *Size = 0;
    if (Error E = requireNonNull(Text, "tp_assemble: text"))
      return E;
    StringRef Str(Text, Length);
    tp::sass::Target T = tp::object::getSassTextTarget(Str);
    if (Target) {
      tp::sass::Target Want;
      if (!tp::sass::lookupTarget(Target, Want))
        return tp::makeError("target: unsupported target '" + Twine(Target) +
                             "' (" + tp::sass::getTargetList() + ")");
      if (Want != T)
        return tp::makeError("target " + Twine(Target) + ": the text is for " +
                             tp::sass::getTargetName(T) +
                             " (its .target line)");
    }
    SourceMgr SM;
    unsigned ID = SM.AddNewSourceBuffer(
        MemoryBuffer::getMemBufferCopy(Str, "<sass>"), SMLoc());
    tp::object::SassCodec Codec(T);
    Codec.setSourceMgr(&SM);
    tp::object::SassOptions Opts = tp::object::getSassOptions(T);
    Opts.Codec = &Codec;
    Expected<std::vector<uint8_t>> Bytes =
        tp::object::assembleCubin(SM, ID, Opts);
    if (!Bytes)
      return Bytes.takeError();
    void *P = std::malloc(Bytes->size() ? Bytes->size() : 1);
    if (!P)
      return tp::makeError("tp_assemble: out of memory");
    std::memcpy(P, Bytes->data(), Bytes->size());
    *Cubin = P;
    *Size = Bytes->size();
    return Error::success();
  });
}

void tp_gemm_run_init(tp_gemm_run *R) {
  if (!R)
    return;
  std::memset(R, 0, sizeof(*R));
  R->struct_size = sizeof(*R);
  R->alpha = R->beta = NAN;
  R->check_schedule = 1;
}

int tp_kernel_simulate_run(const tp_kernel *Kernel, const tp_gemm_run *Run,
                           char **ErrorOut) {
  return guard(ErrorOut, [&]() -> Error {
    if (Error E = requireNonNull(Kernel, "tp_kernel_simulate: kernel"))
      return E;
    if (Error E = requireNonNull(Run, "tp_kernel_simulate: run"))
      return E;
    if (Run->struct_size != sizeof(tp_gemm_run))
      return tp::makeError(formatv("tp_gemm_run: struct_size is {0}, "
                                   "expected {1} (call tp_gemm_run_init "
                                   "first)",
                                   Run->struct_size, sizeof(tp_gemm_run))
                               .str());
    return simulateRun(Kernel->K, *Run);
  });
}

void tp_gemm_storage_init(tp_gemm_storage *S) {
  if (!S)
    return;
  std::memset(S, 0, sizeof(*S));
  S->struct_size = sizeof(*S);
}

int tp_kernel_plan_launch(const tp_kernel *Kernel, tp_gemm_storage *S,
                          char **ErrorOut) {
  return guard(ErrorOut, [&]() -> Error {
    if (Error E = requireNonNull(Kernel, "tp_kernel_plan_launch: kernel"))
      return E;
    if (Error E = requireNonNull(S, "tp_kernel_plan_launch: storage"))
      return E;
    if (S->struct_size != sizeof(tp_gemm_storage))
      return tp::makeError(formatv("tp_gemm_storage: struct_size is {0}, "
                                   "expected {1} (call tp_gemm_storage_init "
                                   "first)",
                                   S->struct_size, sizeof(tp_gemm_storage))
                               .str());
    return planLaunch(Kernel->K.Manifest, *S);
  });
}

int tp_kernel_simulate(const tp_kernel *Kernel, const uint16_t *A,
                       const uint16_t *B, const float *R, float *D,
                       int CheckSchedule, char **ErrorOut) {
  if (Kernel && (!Kernel->K.Manifest.hasDefaultTypes() ||
                 Kernel->K.Manifest.HasScale || Kernel->K.Manifest.Bias))
    return guard(ErrorOut, []() -> Error {
      return tp::makeError("tp_kernel_simulate: the kernel has issue 16's "
                           "types or epilogue; use tp_kernel_simulate_run");
    });
  return tp_kernel_simulate_gemm(Kernel, A, B, R, nullptr, D, 1.0, 0.0,
                                 CheckSchedule, ErrorOut);
}

int tp_kernel_simulate_gemm(const tp_kernel *Kernel, const uint16_t *A,
                            const uint16_t *B, const float *C,
                            const float *Bias, void *D, double Alpha,
                            double Beta, int CheckSchedule, char **ErrorOut) {
  // c is f32 here; the kernel reads C (alpha, beta) and the residual's R
  // in D's type.
  if (Kernel &&
      (Kernel->K.Manifest.HasScale || Kernel->K.Manifest.Residual) &&
      Kernel->K.Manifest.DType != tp::ElementType::F32)
    return guard(ErrorOut, [&]() -> Error {
      return tp::makeError(
          Twine("tp_kernel_simulate: a kernel with ") +
          (Kernel->K.Manifest.Residual ? "the residual" : "alpha and beta") +
          " and d_type " + tp::getElementTypeName(Kernel->K.Manifest.DType) +
          " reads " + (Kernel->K.Manifest.Residual ? "R" : "C") +
          " in that type; this call's c is f32 (use tp_kernel_simulate_run)");
    });
  // The values are given here: NaN (tp_gemm_run's "the manifest's") is an
  // error like any other value that is not finite.
  for (auto [V, Name] : {std::pair<double, const char *>{Alpha, "alpha"},
                         {Beta, "beta"}})
    if (std::isnan(V))
      return guard(ErrorOut, [&, Name = Name]() -> Error {
        return tp::makeError("tp_kernel_simulate: " + Twine(Name) + ": " +
                             whyNotBinary32(NAN));
      });
  tp_gemm_run Run;
  tp_gemm_run_init(&Run);
  Run.batch = 1;
  Run.a = A;
  Run.b = B;
  Run.c = C;
  Run.bias = Bias;
  Run.d = D;
  Run.alpha = Alpha;
  Run.beta = Beta;
  Run.check_schedule = CheckSchedule;
  return tp_kernel_simulate_run(Kernel, &Run, ErrorOut);
}

} // extern "C"
