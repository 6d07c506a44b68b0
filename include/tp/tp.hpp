//===- tp.hpp - tp's C API in C++: RAII, exceptions --------------*- C++ -*-===//
///
/// \file
/// A header-only C++17 layer over tp/tp.h for programs that link the
/// installed libtp.so (tp::tp): it needs no LLVM headers.  Kernels are
/// owned objects; a failing call throws tp::Error carrying the diagnostic
/// the tools print.  (Inside tp's build, the C++ API with llvm::Expected
/// errors is tp/Driver/Compile.h.)
///
///   tp::GemmOptions O;  O.m = O.n = 256;  O.k = 512;
///   tp::Kernel K = tp::compile(O);
///   std::vector<uint8_t> Cubin = K.cubin();  std::string Sass = K.sass();
///
//===----------------------------------------------------------------------===//
#ifndef TP_TP_HPP
#define TP_TP_HPP

#include "tp/tp.h"

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace tp {

/// A failed call: what() is the diagnostic (file:line:col: error: ...).
class Error : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

namespace detail {
/// Throws tp::Error when \p Status is non-zero; frees \p Message.
inline void check(int Status, char *Message) {
  std::string Text = Message ? Message : "tp: error: unknown failure\n";
  tp_string_free(Message);
  if (Status)
    throw Error(Text);
}
struct KernelDeleter {
  void operator()(tp_kernel *K) const { tp_kernel_free(K); }
};
} // namespace detail

/// The description of tp_gemm_desc with C++ strings (same defaults).
struct GemmOptions {
  int64_t m = 4096, n = 4096, k = 4096;
  std::string a_layout = "rows", b_layout = "columns", tile = "auto";
  bool residual = false;
  std::string target = "sm_86", name = "gemm";
};

/// A compiled kernel (move-only).
class Kernel {
public:
  explicit Kernel(tp_kernel *K) : K(K) {}
  std::vector<uint8_t> cubin() const {
    size_t Size = 0;
    const uint8_t *Bytes = tp_kernel_cubin(K.get(), &Size);
    return std::vector<uint8_t>(Bytes, Bytes + Size);
  }
  std::string sass() const { return tp_kernel_sass(K.get()); }
  std::string manifestJSON() const { return tp_kernel_manifest_json(K.get()); }
  std::string statsJSON() const { return tp_kernel_stats_json(K.get()); }
  const tp_kernel *get() const { return K.get(); }

private:
  std::unique_ptr<tp_kernel, detail::KernelDeleter> K;
};

/// Compiles \p O; throws tp::Error.
inline Kernel compile(const GemmOptions &O) {
  tp_gemm_desc D;
  tp_gemm_desc_init(&D);
  D.m = O.m;
  D.n = O.n;
  D.k = O.k;
  D.a_layout = O.a_layout.c_str();
  D.b_layout = O.b_layout.c_str();
  D.tile = O.tile.c_str();
  D.residual = O.residual;
  D.target = O.target.c_str();
  D.name = O.name.c_str();
  tp_kernel *K = nullptr;
  char *Message = nullptr;
  int Status = tp_gemm_compile(&D, &K, &Message);
  detail::check(Status, Message);
  return Kernel(K);
}

/// The listing (or, with TP_DISASSEMBLE_CUBIN_TEXT, the .sass text) of a
/// cubin; throws tp::Error.
inline std::string disassemble(const std::vector<uint8_t> &Cubin,
                               unsigned Flags = TP_DISASSEMBLE_LISTING) {
  char *Text = nullptr, *Message = nullptr;
  int Status =
      tp_disassemble(Cubin.data(), Cubin.size(), Flags, &Text, &Message);
  detail::check(Status, Message);
  std::string Out = Text;
  tp_string_free(Text);
  return Out;
}

/// Whole-cubin .sass text to cubin bytes; throws tp::Error.
inline std::vector<uint8_t> assemble(const std::string &Text,
                                     const char *Target = nullptr) {
  void *Bytes = nullptr;
  size_t Size = 0;
  char *Message = nullptr;
  int Status = tp_assemble(Text.data(), Text.size(), Target, &Bytes, &Size,
                           &Message);
  detail::check(Status, Message);
  const uint8_t *P = static_cast<const uint8_t *>(Bytes);
  std::vector<uint8_t> Out(P, P + Size);
  tp_buffer_free(Bytes);
  return Out;
}

} // namespace tp

#endif // TP_TP_HPP
