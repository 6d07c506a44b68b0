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

#include <cstdlib>
#include <cmath>
#include <cstring>
#include <exception>

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
  return K ? K->K.Sass.c_str() : nullptr;
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
      if ((StringRef(Target) != "sm_86" && StringRef(Target) != "sm_90") ||
          !tp::sass::lookupTarget(Target, Want))
        return tp::makeError("target: unsupported target '" + Twine(Target) +
                             "' (sm_86 or sm_90)");
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

int tp_kernel_simulate(const tp_kernel *Kernel, const uint16_t *A,
                       const uint16_t *B, const float *R, float *D,
                       int CheckSchedule, char **ErrorOut) {
  if (Kernel && (!Kernel->K.Manifest.hasDefaultTypes() ||
                 Kernel->K.Manifest.HasScale || Kernel->K.Manifest.Bias))
    return guard(ErrorOut, []() -> Error {
      return tp::makeError("tp_kernel_simulate: the kernel has issue 16's "
                           "types or epilogue; use tp_kernel_simulate_gemm");
    });
  return tp_kernel_simulate_gemm(Kernel, A, B, R, nullptr, D, 1.0, 0.0,
                                 CheckSchedule, ErrorOut);
}

int tp_kernel_simulate_gemm(const tp_kernel *Kernel, const uint16_t *A,
                            const uint16_t *B, const float *C,
                            const float *Bias, void *D, double Alpha,
                            double Beta, int CheckSchedule, char **ErrorOut) {
  return guard(ErrorOut, [&]() -> Error {
    for (auto [P, What] : {std::pair<const void *, StringRef>{Kernel, "kernel"},
                           {A, "a"}, {B, "b"}, {D, "d"}})
      if (Error E = requireNonNull(P, "tp_kernel_simulate: " + What.str()))
        return E;
    const tp::LaunchManifest &Man = Kernel->K.Manifest;
    tp::GemmProblem Prob = tp::GemmProblem::fromManifest(Man);
    bool HasC = Prob.Residual || Prob.Scale;
    if (HasC && !C)
      return tp::makeError(Prob.Residual
                               ? "tp_kernel_simulate: the kernel has a "
                                 "residual operand; r is NULL"
                               : "tp_kernel_simulate: the kernel reads C "
                                 "(alpha, beta); c is NULL");
    if (Prob.Scale && Prob.DType != tp::ElementType::F32)
      return tp::makeError("tp_kernel_simulate: a kernel with alpha and beta "
                           "and d_type " +
                           tp::getElementTypeName(Prob.DType) +
                           " reads C in that type; the library's c is f32 "
                           "(not supported yet: tp-sim runs it)");
    if (Prob.Bias && !Bias)
      return tp::makeError("tp_kernel_simulate: the kernel adds a bias; bias "
                           "is NULL");
    for (double V : {Alpha, Beta})
      if (!std::isfinite(V) || double(float(V)) != V)
        return tp::makeError(formatv("tp_kernel_simulate: alpha and beta "
                                     "must be finite and exact in binary32, "
                                     "found {0}",
                                     V)
                                 .str());
    // A run-time-shape kernel runs here at its recorded shape on dense
    // operands: one product, each leading dimension its stored row's
    // extent, a multiple of 8 elements (the copies' 16-byte chunks).
    uint64_t Dense[3] = {
        Prob.LayoutA == tp::OperandLayout::Rows ? Prob.K : Prob.M,
        Prob.LayoutB == tp::OperandLayout::Rows ? Prob.K : Prob.N, Prob.N};
    if (Man.findParam(tp::ParamRole::LDA)) {
      if (Man.Batch != 1)
        return tp::makeError("tp_kernel_simulate: the kernel's batch is " +
                             Twine(Man.Batch) + "; it runs one product");
      const char *Names[3] = {"lda", "ldb", "ldc"};
      for (unsigned I = 0; I < 3; ++I)
        if (Dense[I] % 8)
          return tp::makeError(
              Twine("tp_kernel_simulate: ") + Names[I] + " = " +
              Twine(Dense[I]) +
              " (dense) is not a multiple of 8 elements (the copies move "
              "16-byte chunks of aligned rows)");
    }
    Expected<tp::sim::KernelImage> Img =
        tp::sim::loadKernel(Kernel->K.Cubin, Man.Kernel);
    if (!Img)
      return Img.takeError();
    Expected<tp::sim::ProgramPtr> Prog = tp::sim::buildProgram(*Img);
    if (!Prog)
      return Prog.takeError();
    tp::sim::GlobalMemory Mem;
    // A, B, D, C (R) and the bias; the simulator's memory limit is an
    // error, not an abort.
    const unsigned DBytes = tp::getElementTypeBytes(Prob.DType);
    bool InPlace = HasC && C == D;
    uint64_t Addr[5] = {0, 0, 0, 0, 0};
    const uint64_t Bytes[5] = {Prob.elementsA() * 2, Prob.elementsB() * 2,
                               Prob.elementsC() * DBytes,
                               HasC && !InPlace ? Prob.elementsC() * 4 : 0,
                               Prob.Bias ? Prob.N * 4 : 0};
    if (InPlace && DBytes != 4)
      return tp::makeError("tp_kernel_simulate: c may be d only when d_type "
                           "is f32");
    for (unsigned I = 0; I < 5; ++I) {
      if (!Bytes[I])
        continue;
      Expected<uint64_t> At = Mem.allocate(Bytes[I]);
      if (!At)
        return At.takeError();
      Addr[I] = *At;
    }
    if (InPlace)
      Addr[3] = Addr[2];
    std::memcpy(Mem.getBuffer(Addr[0]).data(), A, Prob.elementsA() * 2);
    std::memcpy(Mem.getBuffer(Addr[1]).data(), B, Prob.elementsB() * 2);
    if (HasC)
      std::memcpy(Mem.getBuffer(Addr[3]).data(), C, Prob.elementsC() * 4);
    if (Prob.Bias)
      std::memcpy(Mem.getBuffer(Addr[4]).data(), Bias, Prob.N * 4);
    // As tp-sim: D starts as poison, so that an element the kernel never
    // writes shows.
    MutableArrayRef<uint8_t> DBuf = Mem.getBuffer(Addr[2]);
    uint16_t Poison16 = tp::getPoison16(Prob.DType);
    for (uint64_t I = 0; I < Prob.elementsC() && !InPlace; ++I)
      if (DBytes == 4)
        std::memcpy(&DBuf[4 * I], &tp::PoisonBits, 4);
      else
        std::memcpy(&DBuf[2 * I], &Poison16, 2);
    tp::sim::LaunchConfig Cfg;
    Cfg.Grid = Man.Grid;
    Cfg.Block = Man.Block;
    Cfg.DynamicSharedBytes = Man.DynamicSharedBytes;
    Cfg.CheckSchedule = CheckSchedule != 0;
    Cfg.Params.resize(Man.getParamBlockSize());
    for (const tp::ManifestParam &MP : Man.Params) {
      uint64_t V = 0;
      switch (MP.Role) {
      case tp::ParamRole::A: V = Addr[0]; break;
      case tp::ParamRole::B: V = Addr[1]; break;
      case tp::ParamRole::C: V = Addr[2]; break;
      case tp::ParamRole::R: V = Addr[3]; break;
      case tp::ParamRole::M: V = Prob.M; break;
      case tp::ParamRole::N: V = Prob.N; break;
      case tp::ParamRole::K: V = Prob.K; break;
      case tp::ParamRole::Alpha: V = tp::floatBits(float(Alpha)); break;
      case tp::ParamRole::Beta: V = tp::floatBits(float(Beta)); break;
      case tp::ParamRole::Bias: V = Addr[4]; break;
      case tp::ParamRole::LDA: V = Dense[0]; break;
      case tp::ParamRole::LDB: V = Dense[1]; break;
      case tp::ParamRole::LDC: V = Dense[2]; break;
      case tp::ParamRole::StrideA:
      case tp::ParamRole::StrideB:
      case tp::ParamRole::StrideC: V = 0; break;
      }
      std::memcpy(&Cfg.Params[MP.Offset], &V, MP.Size);
    }
    Expected<tp::sim::LaunchStats> S = tp::sim::launch(**Prog, Mem, Cfg);
    if (!S)
      return S.takeError();
    if (S->Hazards) {
      std::string Msg = formatv("tp_kernel_simulate: {0} schedule hazard(s)",
                                S->Hazards);
      for (const std::string &H : S->HazardReports)
        Msg += "\n  " + H;
      return tp::makeError(Msg);
    }
    std::memcpy(D, Mem.getBuffer(Addr[2]).data(), Prob.elementsC() * DBytes);
    return Error::success();
  });
}

} // extern "C"
