//===- OperandLayout.cpp - How a GEMM operand is stored -------------------===//

#include "tp/Support/OperandLayout.h"

using namespace llvm;

namespace tp {

StringRef getLayoutName(OperandLayout L) {
  return L == OperandLayout::Rows ? "rows" : "columns";
}

Optional<OperandLayout> parseLayoutName(StringRef S) {
  if (S == "rows")
    return OperandLayout::Rows;
  if (S == "columns")
    return OperandLayout::Columns;
  return None;
}

} // namespace tp
