//===- CubinFrames.cpp - Kernels with a stack frame in ptxas 13's layout --===//
///
/// \file
/// What a stack frame (FRAME_SIZE != 0: `.local` arrays indexed at run
/// time) changes in ptxas 13's cubin, and nothing else: the module's
/// FRAME_SIZE / MIN_STACK_SIZE records (written by CubinLayout.cpp from
/// Kernel::FrameSize / MinStackSize) and the call-frame instructions of
/// the kernel's FDE in .debug_frame (and in .nv.merc.debug_frame on
/// Blackwell), which this file writes.  Section set, order, symbols,
/// relocations and the .nv.info.K records are those of a kernel without a
/// frame (E, ptxas 13.0 on every target sm_80..sm_121:
/// test/Object/Inputs/stack_frame.ptx and frames.ptx).
///
/// The FDE of a kernel with a frame of F bytes (E, the same files):
///
///  * sm_80/86/89 and Blackwell's Mercury copy: DW_CFA_advance_loc4 to the
///    0x10-byte prologue; to FrameCfa (just past the instruction that
///    moves the stack pointer, `IADD3 R1, R1, -F, RZ`; `VIADD R1, R1, -F`
///    on sm_90+); DW_CFA_def_cfa r(0x5000001) F; then, when the first
///    basic block holds the kernel's last EXIT (no branch or EXIT before
///    it), an advance of 0 and DW_CFA_def_cfa r(0x5000001) 0, otherwise
///    an advance to the last EXIT;
///  * sm_90, sm_100, sm_120, sm_121 (no prologue advance): the same rows
///    but where two fall on one address only the last is written (the
///    first block holding the last EXIT: one advance to FrameCfa and
///    DW_CFA_def_cfa 0).
///
/// FrameCfa is read from the FDE; the kernel form derives it from the code
/// (deriveFrameCfa: past the first unpredicated instruction that writes R1
/// from R1) and writes `.frame_cfa` only where ptxas's differs.  The
/// Mercury copy's is copied (its `block_end`).  What no cubin of the corpus shows
/// is refused rather than guessed: an EXIT before FrameCfa,
/// MIN_STACK_SIZE != FRAME_SIZE (calls).
///
/// A kernel without an EXIT (an endless loop; E, ptxas 13.0 on every
/// target: test/Object/Inputs/noexit, 32 kernels, docs/targets.md
/// "Kernels without an EXIT") has the FDE of a kernel whose
/// last EXIT is at its ExitPoint, frame or not: the instruction before the
/// block that holds the last branch (not counting the padding
/// BRA-to-self), or that block's start where the instruction before it is
/// a NOP (the NOP that aligns a Blackwell loop head).  deriveExitPoint
/// finds it in the code; the Mercury copy's is read from its FDE and
/// stated (`.mercury exit_point=`).  In address order (sm_90+) a row at 0
/// is not written (it is the FDE's initial row).  A kernel with an EXIT
/// has the row at the later of its last EXIT and its exit point (E:
/// test/Object/Inputs/noexit/exits.ptx, an EXIT before an endless loop).
///
//===----------------------------------------------------------------------===//

#include "CubinBuild.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Endian.h"

#define DEBUG_TYPE "cubin-frames"

using namespace llvm;

STATISTIC(NumStackFrameFdes,
          "FDEs written for kernels with a stack frame (Mercury copies too)");

namespace tp {
namespace object {
namespace detail {

namespace {
/// DW_CFA_def_cfa r(0x5000001) \p Offset, as ptxas encodes it (ULEB128).
void appendDefCfa(std::vector<uint8_t> &Body, uint32_t Offset) {
  Body.insert(Body.end(), std::begin(DefCfa), std::end(DefCfa) - 1);
  do {
    uint8_t B = Offset & 0x7f;
    Offset >>= 7;
    Body.push_back(Offset ? B | 0x80 : B);
  } while (Offset);
}

/// Skips a ULEB128 at \p P in \p Ops; false when it runs past the end.
bool skipUleb(ArrayRef<uint8_t> Ops, size_t &P) {
  while (P < Ops.size())
    if (!(Ops[P++] & 0x80))
      return true;
  return false;
}
} // namespace

Optional<uint32_t> readExitPoint(ArrayRef<uint8_t> Ops, uint32_t Align) {
  // The advance after the first DW_CFA_def_cfa; else, with two advances
  // before it (address order, the point first), the first's address; else
  // the DW_CFA_def_cfa's own (the point is on it or at 0: the same bytes).
  uint32_t Pc = 0, Before = 0;
  unsigned Advances = 0;
  Optional<uint32_t> DefPc;
  size_t P = 0;
  while (P < Ops.size()) {
    if (Ops[P] == DW_CFA_advance_loc4 && P + 5 <= Ops.size()) {
      if (DefPc)
        return Pc + support::endian::read32le(Ops.data() + P + 1) * Align;
      Before = Pc;
      Pc += support::endian::read32le(Ops.data() + P + 1) * Align;
      ++Advances;
      P += 5;
    } else if (Ops[P] == DefCfa[0]) {
      ++P;
      if (!skipUleb(Ops, P) || !skipUleb(Ops, P))
        return None;
      if (!DefPc)
        DefPc = Pc;
    } else if (Ops[P] == 0) {
      ++P; // DW_CFA_nop
    } else {
      return None;
    }
  }
  if (!DefPc)
    return None;
  return Advances >= 2 ? Before : *DefPc;
}

Optional<uint32_t> deriveExitPoint(const Kernel &K, const InstrClassifier &C) {
  auto Word = [&](uint64_t Off) {
    return ArrayRef<uint8_t>(K.Code).slice(Off, 16);
  };
  // The last branch that is not the padding BRA-to-self, and the offsets
  // where blocks start: branch targets and past each block end.
  Optional<uint64_t> Last;
  std::vector<uint64_t> Starts;
  for (uint64_t Off = 0; Off + 16 <= K.Code.size(); Off += 16) {
    Optional<uint64_t> T = C.branchTarget(Word(Off), Off);
    if (T && *T != Off) {
      Last = Off;
      Starts.push_back(*T);
    }
    if (C.endsBlock(Word(Off)))
      Starts.push_back(Off + 16);
  }
  if (!Last)
    return None;
  uint64_t Start = 0;
  for (uint64_t S : Starts)
    if (S <= *Last)
      Start = std::max(Start, S);
  if (Start < 16)
    return None; // the block starts at 0: not seen (ptxas loads R1 there)
  if (C.isNop(Word(Start - 16)))
    return static_cast<uint32_t>(Start);
  return static_cast<uint32_t>(Start - 16);
}

Optional<uint32_t> fdeLastExit(const Kernel &K, bool Mercury) {
  const std::vector<uint32_t> &Exits =
      Mercury ? K.Mercury->ExitOffsets : K.ExitOffsets;
  // The Mercury copy's point is stated where it is not its last EXIT.
  Optional<uint32_t> Point = Mercury ? K.Mercury->ExitPoint : K.ExitPoint;
  if (Exits.empty() || (Point && *Point > Exits.back()))
    return Point;
  return Exits.back();
}

Error checkExitPoint(const Kernel &K, bool Mercury) {
  if (!Mercury) {
    if (!K.ExitOffsets.empty())
      return Error::success();
    if (!K.ExitPoint)
      return kernelError(
          K, "no EXIT, and the code places no exit point for its FDE "
             "(no branch but the padding BRA-to-self, or the last "
             "branch's block starts at 0): not modelled");
    if (*K.ExitPoint % 16 || *K.ExitPoint >= K.Code.size())
      return kernelError(K, "the exit point " + hex(*K.ExitPoint) +
                                " is not an instruction of the code");
    return Error::success();
  }
  if (!K.Mercury)
    return Error::success();
  const MercuryCode &MC = *K.Mercury;
  if (!MC.ExitPoint)
    return MC.ExitOffsets.empty()
               ? kernelError(K,
                             "the Mercury copy has no EXIT and no exit point "
                             "('.mercury exit_point=')")
               : Error::success();
  if (*MC.ExitPoint >= MC.CodeSize)
    return kernelError(K, "the Mercury copy's exit point " +
                              hex(*MC.ExitPoint) + " is past its size " +
                              hex(MC.CodeSize));
  if (!MC.ExitOffsets.empty() && *MC.ExitPoint <= MC.ExitOffsets.back())
    return kernelError(
        K, "the Mercury copy's exit point " + hex(*MC.ExitPoint) +
               " is not after its last EXIT " + hex(MC.ExitOffsets.back()) +
               " (the FDE's row is then at the EXIT: leave it out)");
  return Error::success();
}

void readStackFrameCfa(Kernel &K, uint32_t Pc, ArrayRef<uint8_t> Ops) {
  K.FrameCfa = Pc;
  K.CfaBlockEnd = Pc;
  // The offset of the last DW_CFA_def_cfa: 0 when the frame is popped in
  // the first block (both orders, see the file comment).
  uint64_t LastOffset = K.FrameSize;
  size_t P = 0;
  auto Uleb = [&](uint64_t &V) {
    V = 0;
    for (unsigned Shift = 0; P < Ops.size() && Shift < 64; Shift += 7) {
      uint8_t B = Ops[P++];
      V |= uint64_t(B & 0x7f) << Shift;
      if (!(B & 0x80))
        return true;
    }
    return false;
  };
  while (P < Ops.size()) {
    uint64_t Reg, Off;
    if (Ops[P] == DW_CFA_advance_loc4 && P + 5 <= Ops.size()) {
      P += 5;
    } else if (Ops[P] == DefCfa[0]) {
      ++P;
      if (!Uleb(Reg) || !Uleb(Off))
        return;
      LastOffset = Off;
    } else if (Ops[P] == 0) {
      ++P; // DW_CFA_nop
    } else {
      return;
    }
  }
  if (LastOffset == 0)
    if (Optional<uint32_t> X = fdeLastExit(K, false))
      K.CfaBlockEnd = *X + 16;
}

uint32_t deriveFrameCfa(const Kernel &K, const InstrClassifier &C) {
  for (size_t Off = 0; Off + 16 <= K.Code.size(); Off += 16)
    if (C.movesStackPointer(ArrayRef<uint8_t>(K.Code).slice(Off, 16)))
      return static_cast<uint32_t>(Off + 16);
  return 0;
}

bool firstBlockHoldsLastExit(const Kernel &K) {
  Optional<uint32_t> X = fdeLastExit(K, false);
  return X && K.CfaBlockEnd > *X;
}

Error checkStackFrame(const Kernel &K, uint32_t Prologue) {
  if (!K.FrameSize && !K.MinStackSize)
    return Error::success();
  if (K.MinStackSize != K.FrameSize)
    return kernelError(K, "minimum stack size " + Twine(K.MinStackSize) +
                              " differs from the frame size " +
                              Twine(K.FrameSize) + " (calls; not modelled)");
  if (K.FrameCfa <= Prologue || K.FrameCfa > K.Code.size() ||
      K.FrameCfa % 16)
    return kernelError(
        K, "the stack frame's CFA offset " + hex(K.FrameCfa) +
               " is not the end of an instruction of the code after the " +
               hex(Prologue) + "-byte prologue");
  Optional<uint32_t> X = fdeLastExit(K, false);
  if (X && *X < K.FrameCfa)
    return kernelError(K, "a stack frame whose CFA offset " + hex(K.FrameCfa) +
                              " follows the last EXIT is not modelled");
  if (K.Mercury) {
    const MercuryCode &MC = *K.Mercury;
    Optional<uint32_t> MX = fdeLastExit(K, true);
    if (MC.CfaBlockEnd <= 0x10 || (MX && *MX < MC.CfaBlockEnd))
      return kernelError(K, "the Mercury copy's stack frame (CFA offset " +
                                hex(MC.CfaBlockEnd) + ") is not modelled");
  }
  return Error::success();
}

void appendStackFrameCfa(const Kernel &K, bool Mercury, bool AddressOrder,
                         uint32_t Align, uint32_t &Pc,
                         std::vector<uint8_t> &Body) {
  const uint32_t FrameCfa = Mercury ? K.Mercury->CfaBlockEnd : K.FrameCfa;
  const uint32_t LastExit = *fdeLastExit(K, Mercury); // checkExitPoint
  auto Advance = [&](uint32_t To) {
    Body.push_back(DW_CFA_advance_loc4);
    put<uint32_t>(Body, (To - Pc) / Align);
    Pc = To;
  };
  // The Mercury copy's shape is taken from the SASS code's (UNVERIFIED
  // beyond the corpus: both are single-block in every cubin seen).
  const bool PopInFirstBlock = firstBlockHoldsLastExit(K);
  ++NumStackFrameFdes;
  Advance(FrameCfa);
  if (PopInFirstBlock && AddressOrder) {
    appendDefCfa(Body, 0);
    return;
  }
  appendDefCfa(Body, K.FrameSize);
  if (PopInFirstBlock) {
    Advance(FrameCfa);
    appendDefCfa(Body, 0);
  } else {
    Advance(LastExit);
  }
}

void appendFde(std::vector<uint8_t> &Frame, std::vector<uint8_t> &Body) {
  while ((12 + Body.size()) % 8)
    Body.push_back(0); // DW_CFA_nop
  put<uint32_t>(Frame, 0xffffffff);
  put<uint64_t>(Frame, Body.size());
  Frame.insert(Frame.end(), Body.begin(), Body.end());
}

FrameRelocs findFrameRelocs(const CubinFile &F) {
  FrameRelocs R;
  R.Section = F.findSection(".rel.debug_frame");
  if (R.Section < 0) {
    R.Section = F.findSection(".rela.debug_frame");
    R.EntrySize = 24;
  }
  return R;
}

} // namespace detail
} // namespace object
} // namespace tp
