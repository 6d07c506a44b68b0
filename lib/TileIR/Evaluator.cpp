//===- Evaluator.cpp - Evaluate tp.addresses for one thread ---------------===//

#include "tp/TileIR/Evaluator.h"
#include "tp/Support/Diagnostics.h"

using namespace llvm;

namespace tp {
namespace tile {

Expected<StringMap<uint64_t>> evaluateAddresses(const Op &Addresses,
                                                ThreadIds Ids) {
  StringMap<uint64_t> Vals;
  auto Get = [&](const Value &V, uint64_t &Out) -> Error {
    if (V.isInt()) {
      Out = uint64_t(V.I);
      return Error::success();
    }
    auto It = Vals.find(V.str());
    if (!V.isRef() || It == Vals.end())
      return makeError("evaluator: undefined operand");
    Out = It->second;
    return Error::success();
  };
  for (const Op &O : Addresses.Body) {
    uint64_t X[3] = {0, 0, 0};
    if (O.Name == "sreg") {
      StringRef R = O.Operands[0].str();
      Vals[O.Result] = R == "tid.x" ? Ids.Tid : R == "ctaid.x" ? Ids.CtaX
                                                               : Ids.CtaY;
      continue;
    }
    for (size_t I = 0; I < O.Operands.size() && I < 3; ++I)
      if (Error E = Get(O.Operands[I], X[I]))
        return E;
    uint64_t R;
    if (O.Name == "add")
      R = X[0] + X[1];
    else if (O.Name == "mul")
      R = X[0] * X[1];
    else if (O.Name == "mad")
      R = X[0] * X[1] + X[2];
    else if (O.Name == "shr")
      R = X[0] >> X[1];
    else if (O.Name == "and")
      R = X[0] & X[1];
    else if (O.Name == "xor")
      R = X[0] ^ X[1];
    else
      return makeError("evaluator: unknown operation '" + O.Name + "'");
    Vals[O.Result] = R;
  }
  return Vals;
}

} // namespace tile
} // namespace tp
