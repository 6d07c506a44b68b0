//===- PassManagerOptions.h - The pass manager's command line ---*- C++ -*-===//
///
/// \file
/// The options every driver of the pass manager takes, defined once so that
/// tp-opt and tp-llc spell and describe them the same way:
///
///   -print-before=PASS,..  -print-after=PASS,..  -print-before-all
///   -print-after-all  -verify-each  -time-passes
///   -print-pipeline (hidden alias -print-pipeline-passes, tp-opt's old name)
///
/// A tool lists them in its own category (addPassManagerOptions) and reads
/// them with getPassManagerOptions after parsing the command line.
///
//===----------------------------------------------------------------------===//
#ifndef TP_PASS_PASSMANAGEROPTIONS_H
#define TP_PASS_PASSMANAGEROPTIONS_H

#include "tp/Pass/Pass.h"

namespace llvm {
namespace cl {
class OptionCategory;
} // namespace cl
} // namespace llvm

namespace tp {

/// Lists the pass manager's options in \p Cat (call before parsing).
/// \p VerifyEachByDefault is -verify-each's value when it is not given:
/// true in tp-opt (its tests check each pass's output), false in tp-llc
/// (the input and the final IR are verified either way; PassManager).
void addPassManagerOptions(llvm::cl::OptionCategory &Cat,
                           bool VerifyEachByDefault = false);

/// The options as given.  Names in -print-before / -print-after must be
/// registered passes (else an error naming the option).
llvm::Expected<PassManager::Options> getPassManagerOptions();

/// True when -print-pipeline was given.
bool shouldPrintPipeline();

} // namespace tp

#endif // TP_PASS_PASSMANAGEROPTIONS_H
