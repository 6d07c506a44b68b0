//===- SASSEmitter.h - Backends for the sm_86 instruction tables -*- C++ -*-===//
///
/// \file
/// Each function reads every SM86Inst record of the RecordKeeper, builds the
/// form model (SASSModel.h) and writes one generated .inc; each lives in a
/// file of its own and is registered in SASSBackends.def.
///
//===----------------------------------------------------------------------===//
#ifndef TP_UTILS_TABLEGEN_SASSEMITTER_H
#define TP_UTILS_TABLEGEN_SASSEMITTER_H

namespace llvm {
class RecordKeeper;
class raw_ostream;
} // namespace llvm

namespace tp {
namespace tblgen {
void emitInstrInfo(llvm::RecordKeeper &RK, llvm::raw_ostream &OS);
void emitEncoder(llvm::RecordKeeper &RK, llvm::raw_ostream &OS);
void emitDecoder(llvm::RecordKeeper &RK, llvm::raw_ostream &OS);
void emitAsmPrinter(llvm::RecordKeeper &RK, llvm::raw_ostream &OS);
void emitAsmMatcher(llvm::RecordKeeper &RK, llvm::raw_ostream &OS);
void emitLatency(llvm::RecordKeeper &RK, llvm::raw_ostream &OS);
void printForms(llvm::RecordKeeper &RK, llvm::raw_ostream &OS);
} // namespace tblgen
} // namespace tp

#endif
