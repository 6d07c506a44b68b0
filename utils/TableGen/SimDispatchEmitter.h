//===- SimDispatchEmitter.h - tp-sim's dispatch table backend -*- C++ -*-===//
///
/// \file
/// -gen-sim-dispatch: the semantic class of every form (td/SM86/
/// Semantics.td) as lib/Sim's dispatch table.
///
//===----------------------------------------------------------------------===//
#ifndef TP_UTILS_TABLEGEN_SIMDISPATCHEMITTER_H
#define TP_UTILS_TABLEGEN_SIMDISPATCHEMITTER_H

namespace llvm {
class RecordKeeper;
class raw_ostream;
} // namespace llvm

namespace tp {
namespace tblgen {
void emitSimDispatch(llvm::RecordKeeper &RK, llvm::raw_ostream &OS);
} // namespace tblgen
} // namespace tp

#endif
