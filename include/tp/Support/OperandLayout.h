//===- OperandLayout.h - How a GEMM operand is stored -----------*- C++ -*-===//
///
/// \file
/// The storage order of A and B (DESIGN.md section 1), shared by the tile
/// IR, the launch manifest, the reference GEMM and the tools.
///
//===----------------------------------------------------------------------===//
#ifndef TP_SUPPORT_OPERANDLAYOUT_H
#define TP_SUPPORT_OPERANDLAYOUT_H

#include "llvm/ADT/Optional.h"
#include "llvm/ADT/StringRef.h"

namespace tp {

/// How an operand is stored.  A rows = M x K, A columns = K x M, B rows =
/// N x K (C = A B^T), B columns = K x N; all row-major.
enum class OperandLayout { Rows, Columns };

/// "rows" or "columns", the spelling of the tile IR, the manifest and the
/// tools' --layout-a/--layout-b.
llvm::StringRef getLayoutName(OperandLayout L);
llvm::Optional<OperandLayout> parseLayoutName(llvm::StringRef S);

} // namespace tp

#endif // TP_SUPPORT_OPERANDLAYOUT_H
