//===- PassRegistration.h - Register everything in Passes.def ---*- C++ -*-===//
///
/// \file
/// Included by the tools only (they link every pass library): declares each
/// factory of Passes.def and registers them all.
///
//===----------------------------------------------------------------------===//
#ifndef TP_PASS_PASSREGISTRATION_H
#define TP_PASS_PASSREGISTRATION_H

#include "tp/Pass/Pass.h"

namespace tp {

#define TP_IR_LEVEL(NAME, FACTORY) IRLevel FACTORY();
#define TP_PASS(NAME, CLASS, INPUT, OUTPUT, DESCRIPTION)                       \
  std::unique_ptr<Pass> create##CLASS();
#include "tp/Pass/Passes.def"

/// Registers every level and pass of Passes.def (once).
inline void registerAllPasses() {
  static bool Done = false;
  if (Done)
    return;
  Done = true;
  PassRegistry &R = PassRegistry::get();
#define TP_IR_LEVEL(NAME, FACTORY) R.addLevel(FACTORY());
#define TP_PASS(NAME, CLASS, INPUT, OUTPUT, DESCRIPTION)                       \
  R.addPass(PassInfo{NAME, DESCRIPTION, INPUT, OUTPUT, &create##CLASS});
#include "tp/Pass/Passes.def"
}

} // namespace tp

#endif // TP_PASS_PASSREGISTRATION_H
