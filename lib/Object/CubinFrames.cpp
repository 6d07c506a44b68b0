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
/// is refused rather than guessed: a frame without an EXIT, an EXIT before
/// FrameCfa, MIN_STACK_SIZE != FRAME_SIZE (calls).
///
//===----------------------------------------------------------------------===//

#include "CubinBuild.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/ADT/Twine.h"

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
} // namespace

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
  if (LastOffset == 0 && !K.ExitOffsets.empty())
    K.CfaBlockEnd = K.ExitOffsets.back() + 16;
}

uint32_t deriveFrameCfa(const Kernel &K, const InstrClassifier &C) {
  for (size_t Off = 0; Off + 16 <= K.Code.size(); Off += 16)
    if (C.movesStackPointer(ArrayRef<uint8_t>(K.Code).slice(Off, 16)))
      return static_cast<uint32_t>(Off + 16);
  return 0;
}

bool firstBlockHoldsLastExit(const Kernel &K) {
  return !K.ExitOffsets.empty() && K.CfaBlockEnd > K.ExitOffsets.back();
}

Error checkStackFrame(const Kernel &K, uint32_t Prologue) {
  if (!K.FrameSize && !K.MinStackSize)
    return Error::success();
  auto Fail = [&](const Twine &Why) {
    return make_error<StringError>("kernel '" + K.Name + "': " + Why,
                                   inconvertibleErrorCode());
  };
  if (K.MinStackSize != K.FrameSize)
    return Fail("minimum stack size " + Twine(K.MinStackSize) +
                " differs from the frame size " + Twine(K.FrameSize) +
                " (calls; not modelled)");
  if (K.FrameCfa <= Prologue || K.FrameCfa > K.Code.size() ||
      K.FrameCfa % 16)
    return Fail("the stack frame's CFA offset " + hex(K.FrameCfa) +
                " is not the end of an instruction of the code after the " +
                hex(Prologue) + "-byte prologue");
  if (K.ExitOffsets.empty())
    return Fail("a stack frame in a kernel without an EXIT is not modelled");
  if (K.ExitOffsets.back() < K.FrameCfa)
    return Fail("a stack frame whose CFA offset " + hex(K.FrameCfa) +
                " follows the last EXIT is not modelled");
  if (K.Mercury) {
    const MercuryCode &MC = *K.Mercury;
    if (MC.CfaBlockEnd <= 0x10 || MC.ExitOffsets.empty() ||
        MC.ExitOffsets.back() < MC.CfaBlockEnd)
      return Fail("the Mercury copy's stack frame (CFA offset " +
                  hex(MC.CfaBlockEnd) + ") is not modelled");
  }
  return Error::success();
}

void appendStackFrameCfa(const Kernel &K, bool Mercury, bool AddressOrder,
                         uint32_t Align, uint32_t &Pc,
                         std::vector<uint8_t> &Body) {
  const uint32_t FrameCfa = Mercury ? K.Mercury->CfaBlockEnd : K.FrameCfa;
  const uint32_t LastExit =
      Mercury ? K.Mercury->ExitOffsets.back() : K.ExitOffsets.back();
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
