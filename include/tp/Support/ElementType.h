//===- ElementType.h - The element types of a GEMM's matrices ---*- C++ -*-===//
///
/// \file
/// The element types a GEMM's matrices may have, shared by the
/// tile IR (`: bf16 x bf16 -> f16`), the launch manifest (`a_type`,
/// `b_type`, `d_type`), the reference GEMM and the tools' `--a-type`,
/// `--b-type`, `--d-type`.  A and B are f16 or bf16 (one type for both:
/// HMMA.16816 reads both fragments in one format); the accumulation is f32;
/// D (the kernel's C parameter) and the residual R, the beta input, are
/// f32, f16 or bf16.  The spellings are the tile IR's and PTX's.
///
//===----------------------------------------------------------------------===//
#ifndef TP_SUPPORT_ELEMENTTYPE_H
#define TP_SUPPORT_ELEMENTTYPE_H

#include "llvm/ADT/Optional.h"
#include "llvm/ADT/StringRef.h"

namespace tp {

enum class ElementType { F32, F16, BF16 };

/// "f32", "f16" or "bf16".
inline llvm::StringRef getElementTypeName(ElementType T) {
  switch (T) {
  case ElementType::F32:
    return "f32";
  case ElementType::F16:
    return "f16";
  case ElementType::BF16:
    return "bf16";
  }
  return "f32";
}

inline llvm::Optional<ElementType> parseElementTypeName(llvm::StringRef S) {
  if (S == "f32")
    return ElementType::F32;
  if (S == "f16")
    return ElementType::F16;
  if (S == "bf16")
    return ElementType::BF16;
  return llvm::None;
}

/// Bytes an element takes in memory: 4 or 2.
inline unsigned getElementTypeBytes(ElementType T) {
  return T == ElementType::F32 ? 4 : 2;
}

/// Whether \p T is a type A and B may have (f16 or bf16).
inline bool isOperandType(ElementType T) { return T != ElementType::F32; }

} // namespace tp

#endif // TP_SUPPORT_ELEMENTTYPE_H
