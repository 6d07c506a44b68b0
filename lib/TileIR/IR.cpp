//===- IR.cpp - Tile IR data structures and printer -----------------------===//
///
/// \file
/// The ops' accessors and setters, and the printer (the grammar of
/// TileIR.h exactly).  Nothing here copies a string: the IR's strings live
/// in the module's Arena or are literals.
///
//===----------------------------------------------------------------------===//

#include "tp/TileIR/TileIR.h"

#include <memory>

using namespace llvm;

namespace tp {
namespace tile {

void Value::print(raw_ostream &OS) const {
  switch (K) {
  case Int:
    OS << I;
    return;
  case Word:
    OS << str();
    return;
  case Ref:
    OS << '%' << str();
    return;
  case Symbol:
    OS << '@' << str();
    return;
  case String:
    OS << '"' << str() << '"';
    return;
  case List:
    OS << '[';
    for (size_t J = 0; J < Elems.size(); ++J) {
      if (J)
        OS << ", ";
      elems()[J].print(OS);
    }
    OS << ']';
    return;
  }
}

Value Value::makeList(Arena &A, ArrayRef<Value> Elems, SMLoc L) {
  Value R;
  R.K = List;
  R.Loc = L;
  if (!Elems.empty()) {
    Value *Data = A.allocate<Value>(Elems.size());
    std::uninitialized_copy(Elems.begin(), Elems.end(), Data);
    R.Elems = llvm::makeArrayRef(Data, Elems.size());
  }
  return R;
}

const Attr *Op::getAttr(StringRef Key) const {
  for (const Attr &A : Attrs)
    if (A.Key == Key)
      return &A;
  return nullptr;
}

Attr *Op::getAttr(StringRef Key) {
  for (Attr &A : Attrs)
    if (A.Key == Key)
      return &A;
  return nullptr;
}

Optional<int64_t> Op::getInt(StringRef Key) const {
  const Attr *A = getAttr(Key);
  if (!A || !A->Val.isInt())
    return None;
  return A->Val.I;
}

StringRef Op::getWord(StringRef Key) const {
  const Attr *A = getAttr(Key);
  if (!A || !A->Val.isWord())
    return "";
  return A->Val.str();
}

Op &Op::set(StringRef Key, Value V) {
  if (!V.Loc.isValid())
    V.Loc = Loc;
  if (Attr *A = getAttr(Key)) {
    A->KeyLoc = A->getLoc(); // the key stays where it was
    A->Val = V;
    return *this;
  }
  Attr &A = appendAttr(Key);
  A.Val = V;
  A.KeyLoc = Loc;
  return *this;
}

Op &Op::setInt(StringRef Key, int64_t V) {
  return set(Key, Value::makeInt(V, Loc));
}

Op &Op::setWord(StringRef Key, StringRef W) {
  return set(Key, Value::makeWord(W, Loc));
}

void Op::removeAttr(StringRef Key) {
  Attrs.erase(std::remove_if(Attrs.begin(), Attrs.end(),
                             [&](const Attr &A) { return A.Key == Key; }),
              Attrs.end());
}

Op *Op::find(StringRef N) {
  for (Op &O : Body)
    if (O.Name == N)
      return &O;
  return nullptr;
}

const Op *Op::find(StringRef N) const {
  for (const Op &O : Body)
    if (O.Name == N)
      return &O;
  return nullptr;
}

Optional<int64_t> Kernel::getInt(StringRef Key) const {
  for (const Attr &A : Attrs)
    if (A.Key == Key && A.Val.isInt())
      return A.Val.I;
  return None;
}

StringRef Kernel::getWord(StringRef Key) const {
  for (const Attr &A : Attrs)
    if (A.Key == Key && A.Val.isWord())
      return A.Val.str();
  return "";
}

Op *Kernel::getMatmul() {
  for (Op &O : Body)
    if (O.Name == "tp.matmul")
      return &O;
  return nullptr;
}

const Op *Kernel::getMatmul() const {
  return const_cast<Kernel *>(this)->getMatmul();
}

static void printAttrs(ArrayRef<Attr> Attrs, raw_ostream &OS) {
  for (const Attr &A : Attrs) {
    OS << ' ' << A.Key << '=';
    A.Val.print(OS);
  }
}

void printOp(const Op &O, raw_ostream &OS, unsigned Indent) {
  OS.indent(Indent);
  if (!O.Result.empty())
    OS << '%' << O.Result << " = ";
  OS << O.Name;
  for (size_t I = 0; I < O.Operands.size(); ++I) {
    OS << (I ? ", " : " ");
    O.Operands[I].print(OS);
  }
  printAttrs(O.Attrs, OS);
  if (!O.getType().empty())
    OS << " : " << O.getType();
  if (O.hasRegion()) {
    OS << " {\n";
    for (const Op &C : O.Body)
      printOp(C, OS, Indent + 2);
    OS.indent(Indent) << '}';
  }
  OS << '\n';
}

void printModule(const Module &M, raw_ostream &OS) {
  for (size_t I = 0; I < M.Kernels.size(); ++I) {
    const Kernel &K = M.Kernels[I];
    if (I)
      OS << '\n';
    OS << "tp.kernel @" << K.Name << '(';
    for (size_t J = 0; J < K.Params.size(); ++J) {
      if (J)
        OS << ", ";
      if (K.Params[J].Scalar)
        OS << '%' << K.Params[J].Name << ": " << K.Params[J].Elem;
      else
        OS << '%' << K.Params[J].Name << ": ptr<" << K.Params[J].Elem << '>';
    }
    OS << ')';
    printAttrs(K.Attrs, OS);
    OS << " {\n";
    for (const Op &O : K.Body)
      printOp(O, OS, 2);
    OS << "}\n";
  }
}

} // namespace tile
} // namespace tp
