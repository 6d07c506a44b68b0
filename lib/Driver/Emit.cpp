//===- Emit.cpp - The kernel tp ships: listing, cubin, manifest -----------===//
///
/// \file
/// finalizeKernel() makes the instruction stream final (padding, branches,
/// the oracle check); printListing(), printScheduleFigures() and
/// buildObject() write it.  In the library so that every caller of the library gets the same kernel and the same
/// guarantees: only forms NVIDIA's bytes confirm, a manifest that agrees
/// with the cubin.
///
//===----------------------------------------------------------------------===//

#include "tp/CodeGen/CodeGen.h"
#include "tp/Driver/Driver.h"
#include "tp/Object/CubinFile.h"
#include "tp/Object/Module.h"
#include "tp/Pass/Pass.h"
#include "tp/Support/Diagnostics.h"

#include "llvm/Support/Format.h"

#include <set>

using namespace llvm;

namespace tp {
namespace driver {

namespace {

/// Code generation emits only forms whose encoding NVIDIA's bytes confirm
/// (sass::isOracleVerified): every word of a kernel we ship must be one
/// that ptxas or the reference corpus has shown us.  Checked here, on the
/// final instruction stream (the NOP padding included), and not by the MIR
/// verifier: machine IR, like tp-mc's input, may hold any form the ISA
/// layer encodes (hand-written tests do), while this guarantee is about
/// what tp emits.  A failure is a bug in a pass (tp-select chose the
/// form), hence an internal error naming the instruction, unless the
/// instruction was read from machine IR text (it has a location): then it
/// is the input's, an error at its line.
Error checkOracleVerified(const mir::Function &F,
                          ArrayRef<std::string> AssumeUnverified,
                          const SourceMgr *SM) {
  std::set<std::string> Assumed;
  for (const std::string &Name : AssumeUnverified) {
    sass::Opcode Op;
    if (!sass::lookupOpcode(Name, Op))
      return makeError("-assume-unverified: no form named '" + Name + "'");
    Assumed.insert(Name);
  }
  // One pass over the forms; the address and the message only for the
  // first instruction that fails.  The answer depends on the form alone,
  // so a run of one form (the HMMAs, the padding) asks once.
  uint64_t Addr = 0;
  bool HaveLastPassed = false;
  sass::Opcode LastPassed{};
  for (const mir::Piece &P : F.Pieces)
    for (const mir::MInstr &MI : P.Instrs) {
      uint64_t At = Addr;
      Addr += 16;
      if (HaveLastPassed && MI.I.Op == LastPassed)
        continue;
      if (sass::isOracleVerified(MI.I.Op) &&
          (Assumed.empty() || !Assumed.count(MI.info().Name))) {
        HaveLastPassed = true;
        LastPassed = MI.I.Op;
        continue;
      }
      const char *Name = MI.info().Name;
      std::string Msg;
      raw_string_ostream OS(Msg);
      if (MI.Loc.isValid()) {
        OS << "form " << Name << " is one whose encoding no NVIDIA "
           << "reference word confirms (td/UnverifiedForms.txt); tp emits "
           << "only confirmed forms";
        if (SM)
          return makeSourceError(*SM, MI.Loc, OS.str());
        OS << " ('";
        sass::print(MI.I, At, OS);
        OS << "' at /*" << format_hex_no_prefix(At, 4) << "*/ in @" << F.Name
           << ", piece " << P.Name << ")";
        return makeError(OS.str());
      }
      OS << "internal error: code generation produced '";
      sass::print(MI.I, At, OS);
      OS << "' (form " << Name << ") at /*" << format_hex_no_prefix(At, 4)
         << "*/ in @" << F.Name << ", piece " << P.Name
         << ", whose encoding no NVIDIA reference word confirms "
            "(td/UnverifiedForms.txt)";
      return makeError(OS.str());
    }
  return Error::success();
}

/// Appends ptxas's NOP padding to a multiple of 128 bytes (the pad NOP's
/// control word is 0x7e0: stall 0, bit 109 clear, no scoreboards;
/// SASS_FACTS.md 1.2).
Error padFunction(mir::Function &F) {
  sass::Control C;
  C.Stall = 0;
  C.Yield = true;
  mir::Piece *Last = &F.Pieces.back();
  size_t Pad = (8 - F.size() % 8) % 8;
  if (!Pad)
    return Error::success();
  // One NOP built from its text, copied for the rest of the padding.
  Expected<mir::MInstr> Nop = mir::makeInstr("NOP", C);
  if (!Nop)
    return Nop.takeError();
  Last->Instrs.insert(Last->Instrs.end(), Pad, *Nop);
  return Error::success();
}

Expected<LaunchManifest> makeManifest(const mir::Function &F, bool Dynamic) {
  LaunchManifest M;
  M.Kernel = F.Name;
  M.Target = F.Target;
  auto Ints = [&](StringRef Key, char Sep) {
    SmallVector<StringRef, 3> P;
    F.getAttr(Key).getValueOr("").split(P, Sep);
    std::vector<uint64_t> V;
    for (StringRef X : P) {
      uint64_t I = 0;
      X.trim().getAsInteger(10, I);
      V.push_back(I);
    }
    return V;
  };
  std::vector<uint64_t> Grid = Ints("grid", ','), Shape = Ints("shape", 'x');
  if (Grid.size() != 3 || Shape.size() != 3)
    return makeError("@" + F.Name +
                     ": machine IR lacks grid() or shape() attributes");
  M.Grid = {uint32_t(Grid[0]), uint32_t(Grid[1]), uint32_t(Grid[2])};
  M.Block = {uint32_t(F.getIntAttr("threads").getValueOr(0)), 1, 1};
  M.DynamicSharedBytes = Dynamic ? F.SharedBytes : 0;
  M.StaticSharedBytes = Dynamic ? 0 : F.SharedBytes;
  M.M = Shape[0];
  M.N = Shape[1];
  M.K = Shape[2];
  M.LayoutA = parseLayoutName(F.getAttr("layout-a").getValueOr(""))
                  .getValueOr(OperandLayout::Rows);
  M.LayoutB = parseLayoutName(F.getAttr("layout-b").getValueOr(""))
                  .getValueOr(OperandLayout::Columns);
  M.Residual = F.getIntAttr("residual").getValueOr(0) != 0;
  if (Optional<StringRef> Types = F.getAttr("types")) {
    SmallVector<StringRef, 3> T;
    Types->split(T, ',');
    Optional<ElementType> A, B, D;
    if (T.size() == 3) {
      A = parseElementTypeName(T[0]);
      B = parseElementTypeName(T[1]);
      D = parseElementTypeName(T[2]);
    }
    if (!A || !B || !D)
      return makeError("@" + F.Name + ": types(" + *Types +
                       ") is not A,B,D (each f32, f16 or bf16)");
    M.AType = *A;
    M.BType = *B;
    M.DType = *D;
  }
  SmallVector<StringRef, 8> Params;
  F.getAttr("params").getValueOr("C,A,B").split(Params, ',');
  // Each parameter aligned to its size (pointers 8, alpha and beta 4).
  uint32_t Off = 0;
  for (StringRef P : Params) {
    Optional<ParamRole> R = parseRoleName(P.trim());
    if (!R)
      return makeError("@" + F.Name + ": unknown parameter role '" + P + "'");
    uint32_t Size = getRoleSize(*R);
    Off = alignTo(Off, Size);
    M.Params.push_back({P.trim().str(), *R, Off, Size});
    Off += Size;
  }
  if (Optional<StringRef> Epi = F.getAttr("epilogue")) {
    SmallVector<StringRef, 3> Parts;
    Epi->split(Parts, ',');
    for (StringRef X : Parts) {
      if (X == "scale")
        M.HasScale = true;
      else if (X == "bias")
        M.Bias = true;
      else if (X == "relu")
        M.Relu = true;
      else
        return makeError("@" + F.Name + ": epilogue(" + *Epi +
                         ") names '" + X + "' (scale, bias, relu)");
    }
  }
  bool Runtime = M.findParam(ParamRole::LDA) != nullptr;
  if (Runtime || M.HasScale || M.Bias || M.Relu || !M.hasDefaultTypes()) {
    // Format version 2: a run-time shape, the types or the epilogue.  It
    // records the leading dimensions the recorded shape runs with (a
    // run-time shape's dense ones rounded up to 8 elements, the copies'
    // alignment; a fixed shape's dense ones) and the block tile, from which
    // a tool computes the grid of any shape.
    std::vector<uint64_t> T = Ints("tile", ',');
    if (T.size() != 5)
      return makeError("@" + F.Name + ": machine IR lacks its tile() attribute");
    auto Aligned = [&](uint64_t X) { return Runtime ? (X + 7) / 8 * 8 : X; };
    M.FormatVersion = 2;
    M.LdA = Aligned(M.LayoutA == OperandLayout::Rows ? M.K : M.M);
    M.LdB = Aligned(M.LayoutB == OperandLayout::Rows ? M.K : M.N);
    M.LdC = Aligned(M.N);
    M.Tile = {uint32_t(16 * T[0] * T[2]), uint32_t(8 * T[1] * T[3])};
    M.Batch = M.Grid[2];
    if (M.findParam(ParamRole::StrideA)) {
      M.StrideA = (M.LayoutA == OperandLayout::Rows ? M.M : M.K) * M.LdA;
      M.StrideB = (M.LayoutB == OperandLayout::Rows ? M.N : M.K) * M.LdB;
      M.StrideC = M.M * M.LdC;
    }
  }
  return M;
}

Expected<std::vector<uint8_t>> makeCubin(const mir::Function &F, bool Dynamic,
                                         ArrayRef<ManifestParam> Params,
                                         sass::Target Tgt) {
  object::Kernel K;
  K.Name = F.Name;
  size_t N = F.size();
  K.Code.resize(16 * N);
  // The control flow from the instructions the words are encoded from
  // (nothing is decoded): what object::getTargetClassifier() answers for
  // the same words -- the form's IsExit / IsBranch, a branch's PC-relative
  // operand -- recorded only for the few words that are one.
  std::vector<object::WordFlow> Flow;
  uint64_t Off = 0;
  for (const mir::Piece &P : F.Pieces)
    for (const mir::MInstr &MI : P.Instrs) {
      sass::writeWord(sass::encode(MI.I, Tgt), K.Code.data() + Off);
      const sass::InstrInfo &II = MI.info();
      if (II.IsExit || II.IsBranch) {
        object::WordFlow W;
        W.Offset = Off;
        W.IsExit = II.IsExit;
        W.EndsBlock = true;
        if (II.IsBranch)
          W.BranchTarget = sass::getPCRelativeTarget(MI.I, Off);
        Flow.push_back(W);
      }
      Off += 16;
    }
  for (const ManifestParam &MP : Params) {
    object::KernelParam P;
    P.Offset = MP.Offset;
    P.Size = MP.Size;
    K.Params.push_back(P);
  }
  K.RegCount = F.Regs;
  K.NumBarriers = 1;
  if (Dynamic) {
    K.SharedBytes = 0;
    K.HasSharedSection = true;
  } else {
    K.SharedBytes = F.SharedBytes;
  }
  unsigned SM = sass::getTargetSM(Tgt);
  object::scanControlFlow(K, Flow);
  object::Module M;
  M.SM = SM;
  // Blackwell: tp does not model the Mercury encoding, so the cubin holds
  // the SASS alone (docs/targets.md: not verified to load).
  M.SassOnly = object::hasMercuryKind(SM);
  M.Tool.Version = "tp 0.1.0 (tensor-core backend for NVIDIA " +
                   sass::getTargetName(Tgt).str() + ")";
  M.Tool.Options = "-arch " + sass::getTargetName(Tgt).str() + " ";
  M.Kernels.push_back(std::move(K));
  Expected<object::CubinFile> CF = object::buildCubin(M);
  if (!CF)
    return CF.takeError();
  std::vector<uint8_t> Bytes;
  if (Error E = object::writeCubinFile(*CF, Bytes))
    return E;
  return Bytes;
}

} // namespace

Error finalizeKernel(mir::Function &F, ArrayRef<std::string> AssumeUnverified,
                     const SourceMgr *SM) {
  if (Error E = padFunction(F))
    return E;
  if (Error E = F.resolveBranches())
    return E;
  return checkOracleVerified(F, AssumeUnverified, SM);
}

Error verifyKernelSchedule(const mir::Function &F, SourceMgr &SM) {
  // The checked program of the loop as written: tp-form-loop's loop mode
  // differs from its checked mode only in the branches of `skip` and
  // `control` and in the second body + control, which walks the way back
  // round the loop.  After EXIT (ptxas's BRA to itself) nothing runs.
  mir::Function C = F;
  bool Loop = false;
  for (mir::Piece &P : C.Pieces) {
    if (P.Name != "skip" && P.Name != "control")
      continue;
    Loop |= P.Name == "control";
    llvm::erase_if(P.Instrs,
                   [](const mir::MInstr &MI) { return MI.isBranch(); });
  }
  int64_t N = F.getIntAttr("iterations").getValueOr(1);
  if (F.getIntAttr("runtime-count").getValueOr(0) != 0)
    N = 2; // a run-time count: both ways into the body
  mir::Piece *Body = C.getPiece("body");
  mir::Piece *Control = C.getPiece("control");
  // A checked program already (tp-form-loop checked=1) has its second body.
  bool Checked = C.getPiece("body.1") != nullptr;
  if (Loop && !Checked && Body && Control && N > 1 && Control == Body + 1) {
    mir::Piece B2 = *Body, C2 = *Control;
    B2.Name = "body.1";
    C2.Name = "control.1";
    for (mir::MInstr &MI : B2.Instrs)
      MI.Label.clear();
    size_t At = Control - C.Pieces.data() + 1;
    C.Pieces.insert(C.Pieces.begin() + At, {std::move(B2), std::move(C2)});
  }
  for (mir::Piece &P : C.Pieces)
    for (mir::MInstr &MI : P.Instrs) {
      MI.Label.clear();
      MI.Target.clear();
    }
  Expected<std::unique_ptr<Pass>> Verify =
      PassRegistry::get().createPass("tp-verify-schedule", "");
  if (!Verify)
    return Verify.takeError();
  mir::Module M;
  M.Functions.push_back(std::move(C));
  std::unique_ptr<IRUnit> Unit =
      std::make_unique<mir::MachineUnit>(std::move(M));
  // The pass alone: an analysis of a copy of \p F, which the pipeline has
  // verified already (a PassManager would verify it again).
  PassContext Ctx{SM};
  return (*Verify)->run(Unit, Ctx);
}

/// `/*0a50*/ `: \p Addr in lower-case hex, at least four digits (as
/// format_hex_no_prefix(Addr, 4), at a ninth of its cost a line).
static void printAddress(uint64_t Addr, raw_ostream &OS) {
  char Buf[2 + 16 + 3];
  char *End = Buf + sizeof(Buf), *P = End;
  *--P = ' ';
  *--P = '/';
  *--P = '*';
  for (int Digits = 0; Digits < 4 || Addr; ++Digits, Addr >>= 4)
    *--P = "0123456789abcdef"[Addr & 15];
  *--P = '*';
  *--P = '/';
  OS.write(P, End - P);
}

void printListing(const mir::Function &F, raw_ostream &OS) {
  OS << "// .text." << F.Name << "\n";
  F.forEach([&](const mir::Piece &, const mir::MInstr &MI, uint64_t Addr) {
    if (!MI.Label.empty())
      OS << "// ^" << MI.Label << ":\n";
    printAddress(Addr, OS);
    sass::print(MI.I, Addr, OS);
    OS << ' ';
    // As tp-mc --disassemble: operand reuse flags show as `.reuse` only.
    sass::Control C = MI.I.Ctrl;
    C.Reuse &= ~mir::operandReuseMask(MI.I.Op);
    sass::printControl(C, OS);
    OS << '\n';
  });
}

void printScheduleFigures(const mir::Function &F, raw_ostream &OS) {
  ScheduleStats S = computeStats(F);
  OS << "tp-llc statistics for @" << F.Name << ":\n"
     << "  instructions:                       " << S.Instructions << "\n"
     << "  loop body instructions:             " << S.LoopBody << "\n"
     << "  HMMA instructions:                  " << S.HMMAs << "\n"
     << "  loop HMMA instructions:             " << S.LoopHMMAs << "\n"
     << "  loop issue cycles:                  " << S.LoopCycles << "\n"
     << "  issue cycles per k-step per warp:   "
     << format("%.2f", S.cyclesPerKStep()) << "\n"
     << "  registers:                          " << F.Regs << "\n"
     << "  shared bytes:                       " << F.SharedBytes << "\n";
}

Expected<ObjectFile> buildObject(const mir::Function &F, sass::Target Target,
                                 StringRef ManifestName) {
  if (F.Target != sass::getTargetName(Target))
    return makeError("@" + F.Name + " is machine IR for " + F.Target +
                     " (its target(...)), but the object is for " +
                     sass::getTargetName(Target) + " (-mcpu)");
  // Static shared memory is limited to 48 KiB, sm_90's reserved 1 KiB
  // included (SASS_FACTS 3.3); above it the buffers are dynamic.
  bool Dynamic =
      F.SharedBytes + sass::getTargetInfo(Target).ReservedSharedBytes >
      48 * 1024;
  ObjectFile Obj;
  Expected<LaunchManifest> Manifest = makeManifest(F, Dynamic);
  if (!Manifest)
    return Manifest.takeError();
  if (Error E = validateLaunchManifest(*Manifest, ManifestName))
    return E;
  Obj.Manifest = std::move(*Manifest);
  Expected<std::vector<uint8_t>> Bytes =
      makeCubin(F, Dynamic, Obj.Manifest.Params, Target);
  if (!Bytes)
    return Bytes.takeError();
  Obj.Cubin = std::move(*Bytes);
  return Obj;
}

} // namespace driver
} // namespace tp
