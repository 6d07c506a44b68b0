//===- Compile.cpp - tp's C++ API: a GEMM description to a kernel ---------===//
///
/// \file
/// compileGemm(): the description is checked field by field (the reserved
/// issue-16 fields first, then tp-llc's own option checks through
/// describeKernel()), the tile IR it describes runs through the default
/// pipeline (buildDefaultPipeline, as tp-llc runs it), and emitKernel()
/// makes the kernel tp-llc would write.  Every failure is an llvm::Error
/// with tp-llc's diagnostic; nothing is printed.  compileGemm's listing is
/// lazy: the kernel keeps the finished machine function and prints it
/// (driver::printListing, the text tp-llc writes) on the first
/// Kernel::getSass() only, under a std::once_flag.
///
//===----------------------------------------------------------------------===//

#include "tp/Driver/Compile.h"
#include "tp/CodeGen/CodeGen.h"
#include "tp/Pass/DefaultPipeline.h"
#include "tp/Pass/PassRegistration.h"
#include "tp/Support/Diagnostics.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/WithColor.h"

#include <cmath>
#include <cstdio>
#include <mutex>

using namespace llvm;

namespace tp {

namespace {

/// The fields of a description not yet built here: the batch.
/// Types, alpha, beta, bias and relu are the kernel's (describe()).
Error checkReservedFields(const GemmDesc &D) {
  if (D.Batch < 1 || D.Batch > 65535)
    return makeError("batch=" + Twine(D.Batch) +
                     ": not supported (issue 16); batch must be 1 to 65535");
  if (D.Batch > 1 && D.FixedShape)
    return makeError("batch=" + Twine(D.Batch) +
                     ": strided batches need the run-time shape (FixedShape "
                     "= false, the default); batch must be 1 with a fixed "
                     "shape");
  for (auto [Name, V] : {std::pair<const char *, double>{"alpha", D.Alpha},
                         {"beta", D.Beta}})
    if (!std::isfinite(V) || double(float(V)) != V) {
      char Buf[32];
      snprintf(Buf, sizeof(Buf), "%.17g", V);
      return makeError(Twine(Name) + "=" + Buf +
                       ": expected a finite number exact in binary32");
    }
  return Error::success();
}

/// Whether \p D asks for the scaled epilogue: alpha or beta not the plain
/// product's 1 and 0.
bool wantsScale(const GemmDesc &D) { return D.Alpha != 1.0 || D.Beta != 0.0; }

Expected<sass::Target> parseTarget(StringRef Name) {
  sass::Target T;
  if (!sass::lookupTarget(Name, T) || !sass::getTargetInfo(T).GemmCodeGen)
    return makeError("-mcpu: unsupported target '" + Name + "' (" +
                     sass::getGemmTargetList() + ")");
  return T;
}

/// The tile IR text of \p D and the pipeline options that lower it.
Expected<std::string> describe(const GemmDesc &D,
                               DefaultPipelineOptions &Opts) {
  driver::KernelSpec Spec;
  Spec.Gemm = formatv("{0}x{1}x{2}", D.M, D.N, D.K).str();
  Spec.LayoutA = D.LayoutA;
  Spec.LayoutB = D.LayoutB;
  if (D.Tile != "auto") {
    Expected<std::string> T = driver::normalizeTileOption(D.Tile);
    if (!T)
      return T.takeError();
    Spec.Tile = D.Tile;
    Opts.Tile = *T;
  }
  Spec.Residual = D.Residual;
  Spec.AType = D.AType;
  Spec.BType = D.BType;
  Spec.DType = D.DType;
  Spec.Scale = wantsScale(D);
  Spec.Bias = D.Bias;
  Spec.Relu = D.Relu;
  Spec.FixedShape = D.FixedShape;
  if (D.Batch > 1)
    Spec.Batch = unsigned(D.Batch);
  Spec.Name = D.Name;
  // The tile IR states the kernel's target (its admission limits, its
  // card, tp-select's constants).
  if (!sass::lookupTarget(D.Target, Spec.Target))
    return makeError("-mcpu: unsupported target '" + D.Target + "'");
  return driver::describeKernel(Spec);
}

/// Runs the default pipeline on tile IR \p Text; the machine function.
Expected<mir::Function> lower(const std::string &Text,
                              const DefaultPipelineOptions &Opts) {
  static std::once_flag Registered;
  std::call_once(Registered, [] { registerAllPasses(); });
  auto Passes = buildDefaultPipeline(Opts);
  if (!Passes)
    return Passes.takeError();
  SourceMgr SM;
  unsigned ID = SM.AddNewSourceBuffer(
      MemoryBuffer::getMemBufferCopy(Text, "<command line>"), SMLoc());
  const IRLevel *Tile = PassRegistry::get().lookupLevel("tile");
  if (!Tile)
    return makeError("internal error: the tile IR level is not registered");
  auto IR = Tile->Parse(SM, ID);
  if (!IR)
    return IR.takeError();
  if (Error E = Tile->Verify(**IR, SM))
    return E;
  PassManager PM(PassManager::Options(), nulls());
  for (auto &P : *Passes)
    PM.add(std::move(P));
  std::unique_ptr<IRUnit> Unit = std::move(*IR);
  if (Error E = PM.run(Unit, SM))
    return E;
  if (Unit->getLevel() != "mir")
    return makeError("internal error: the default pipeline ended with " +
                     Unit->getLevel() + " IR");
  mir::Module &MM = static_cast<mir::MachineUnit &>(*Unit).M;
  if (MM.Functions.size() != 1)
    return makeError("internal error: expected one kernel, found " +
                     Twine(MM.Functions.size()));
  return std::move(MM.Functions.front());
}

KernelStats getStats(const mir::Function &F) {
  ScheduleStats S = computeStats(F);
  KernelStats K;
  K.Instructions = S.Instructions;
  K.LoopBodyInstructions = S.LoopBody;
  K.HMMAs = S.HMMAs;
  K.LoopHMMAs = S.LoopHMMAs;
  K.LoopIssueCycles = S.LoopCycles;
  K.IssueCyclesPerKStep = S.cyclesPerKStep();
  K.Registers = F.Regs;
  K.SharedBytes = F.SharedBytes;
  return K;
}

/// driver::printListing's text of \p F, printed through a buffered stream
/// into a string reserved for it: an unbuffered raw_string_ostream
/// appends every token to the string, a call and a copy each (a third of
/// the default kernel's listing time), and the string grows by doubling.
std::string printListingText(const mir::Function &F) {
  std::string Text;
  Text.reserve(64 * (F.size() + 1)); // ~55 bytes a line
  raw_string_ostream OS(Text);
  OS.SetBuffered();
  driver::printListing(F, OS);
  OS.flush();
  return Text;
}

} // namespace

/// The listing of one kernel: the finished machine function until the
/// first get(), the text after it.
class KernelListing {
public:
  explicit KernelListing(mir::Function F) : F(std::move(F)) {}
  explicit KernelListing(std::string Text) : Text(std::move(Text)) {}

  const std::string &get() {
    std::call_once(Printed, [this] {
      if (!F)
        return;
      Text = printListingText(*F);
      F.reset();
    });
    return Text;
  }

private:
  std::once_flag Printed;
  Optional<mir::Function> F;
  std::string Text;
};

const std::string &Kernel::getSass() const {
  static const std::string None;
  return Listing ? Listing->get() : None;
}

Expected<Kernel> emitKernel(mir::Function &F, sass::Target Target,
                            const EmitOptions &Opts) {
  if (Error E = driver::finalizeKernel(F, Opts.AssumeUnverified, Opts.SM))
    return E;
  Kernel K;
  K.Name = F.Name;
  K.Target = sass::getTargetName(Target).str();
  if (Opts.BuildObject) {
    Expected<driver::ObjectFile> Obj =
        driver::buildObject(F, Target, Opts.ManifestName);
    if (!Obj)
      return Obj.takeError();
    K.Cubin = std::move(Obj->Cubin);
    if (Obj->Manifest.HasScale) {
      Obj->Manifest.Alpha = Opts.Alpha;
      Obj->Manifest.Beta = Opts.Beta;
    }
    K.ManifestJSON = printLaunchManifest(Obj->Manifest);
    K.Manifest = std::move(Obj->Manifest);
  }
  if (Opts.BuildListing)
    K.Listing = std::make_shared<KernelListing>(printListingText(F));
  K.Stats = getStats(F);
  return K;
}

Expected<Kernel> compileGemm(const GemmDesc &Desc) {
  Expected<sass::Target> Target = parseTarget(Desc.Target);
  if (!Target)
    return Target.takeError();
  if (Error E = checkReservedFields(Desc))
    return E;
  DefaultPipelineOptions Opts;
  Expected<std::string> Text = describe(Desc, Opts);
  if (!Text)
    return Text.takeError();
  Expected<mir::Function> F = lower(*Text, Opts);
  if (!F)
    return F.takeError();
  EmitOptions EO;
  EO.ManifestName = Desc.Name + ".cubin.json";
  EO.Alpha = Desc.Alpha;
  EO.Beta = Desc.Beta;
  EO.BuildListing = false; // printed on the first getSass()
  Expected<Kernel> K = emitKernel(*F, *Target, EO);
  if (!K)
    return K.takeError();
  K->Listing = std::make_shared<KernelListing>(std::move(*F));
  return K;
}

std::string renderErrors(Error E, StringRef Tool) {
  std::string S;
  raw_string_ostream OS(S);
  handleAllErrors(
      std::move(E),
      [&](const SourceError &SE) {
        SE.getDiagnostic().print(/*ProgName=*/nullptr, OS, /*ShowColors=*/false);
      },
      [&](const ErrorInfoBase &EI) {
        OS << Tool << ": error: " << EI.message() << "\n";
      });
  return OS.str();
}

} // namespace tp
