//===- Hazards.cpp - tp-sim's hazard mode ---------------------------------===//
///
/// \file
/// The per-warp cycle model of --check-schedule: RAW latencies from the
/// target's latency model, scoreboards, late reads (docs/tp-sim.md).
///
//===----------------------------------------------------------------------===//
#include "ExecState.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace tp;
using namespace tp::sim;

void Exec::hazard(const Twine &Msg) {
  ++*HazardCount;
  if (Hazards->size() >= Cfg->MaxHazardReports)
    return;
  std::string S;
  raw_string_ostream OS(S);
  OS << "hazard: block (" << B->Ctaid[0] << "," << B->Ctaid[1] << ","
     << B->Ctaid[2] << ") warp " << W->Id << " cycle " << W->Now << ": "
     << Prog->describe(Idx) << ": " << Msg;
  Hazards->push_back(OS.str());
}

//===----------------------------------------------------------------------===//
// Hazard model
//===----------------------------------------------------------------------===//

unsigned sim::getRAWLatency(const sched::LatencyModel &M, unsigned Reg,
                            sched::InstrClass Writer, sched::InstrClass Reader,
                            const RegUse &U, bool LowHalf) {
  if (Reg >= HzUP)
    return M.rawUPred(Writer, Reader, U.How);
  if (Reg >= HzP)
    return M.rawPred(Writer, Reader, U.How);
  if (Reg >= HzUR)
    return M.rawUGPR(Writer, Reader);
  return M.rawGPR(Writer, Reader, U.Slot, LowHalf);
}

std::string sim::getHazardRegName(unsigned Reg) {
  return Reg < HzUR    ? "R" + std::to_string(Reg)
         : Reg < HzP  ? "UR" + std::to_string(Reg - HzUR)
         : Reg < HzUP ? "P" + std::to_string(Reg - HzP)
                      : "UP" + std::to_string(Reg - HzUP);
}

/// The queue whose instructions read their late sources in issue order, or
/// -1.  A unit takes one instruction after another from its queue and reads
/// its operands as it takes it, so an instruction's late reads are done
/// once a younger instruction of the same queue has read its own, and a
/// younger one's result (written after its reads) cannot overwrite a
/// source an older one has yet to read.  ptxas relies on both, on every
/// target (E, ptxas 13; test/Sim/read-queue.test):
///  * global: of two LDGs from one address register only the younger
///    carries a read scoreboard, and the register is rewritten after a wait
///    on that one alone (sm_90..sm_121 int-float.ptx, uniform_sources.ptx,
///    float_forms.ptx, mma_indep); an LDG rewrites the address register of
///    older LDGs with no wait (sm_120 memory_forms.ptx);
///  * MUFU: MUFU.RSQ R7, R7 follows MUFU.LG2 R11, R7 by 1 (sm_120) to 24
///    cycles with no wait on MUFU.LG2's scoreboard (mufu.ptx, every target),
///    while an ALU writer of a MUFU source waits on a read scoreboard 9
///    cycles later (sm_80 mufu.ptx, float_forms.ptx): the reads are late,
///    but in order;
///  * shared: LDS/STS/LDSM, one MIO queue (SASS_FACTS 1.4: LDSM results
///    complete in order).
static int readQueue(const DInst &D) {
  if (D.Fn == execShared || D.Fn == execLDSM)
    return 0;
  if (D.Fn == execGlobal)
    return 1;
  if (D.Fn == execLocal)
    return 2;
  if (D.Fn == execMUFU)
    return 3;
  return -1;
}

uint16_t sim::guardOf(const DInst &D) {
  if (D.UniformGuard || D.I.Guard == sass::PT)
    return NoGuard;
  return uint16_t(D.I.Guard << 1 | (D.I.GuardNeg ? 1 : 0));
}

bool sim::PredicateWrites::complements(const DInst &D, uint16_t Guard,
                                       uint32_t Ver) const {
  uint16_t G = guardOf(D);
  return G != NoGuard && Guard != NoGuard && (G ^ Guard) == 1 &&
         Count[G >> 1] == Ver;
}

void sim::PredicateWrites::count(const DInst &D) {
  for (const RegUse &U : D.Uses)
    if (U.Def && U.First >= HzP && U.First < HzUP)
      for (unsigned I = 0; I < U.Count && U.First + I < HzUP; ++I)
        ++Count[U.First + I - HzP];
}

void sim::foldReadMarks(Warp &W, unsigned SB) {
  auto &Marks = W.ReadMarks[SB];
  while (!Marks.empty() && int32_t(Marks.front().Seq - W.SBReleased[SB]) < 0) {
    uint32_t &Done = W.QueueReadsDone[Marks.front().Queue];
    Done = std::max(Done, Marks.front().Done);
    Marks.pop_front();
  }
}

void sim::waitScoreboard(Exec &X, unsigned SB) {
  Warp &W = *X.W;
  // A wait sees an increment only from an instruction issued at least
  // ScoreboardSetCycles (2) cycles before it (tp-ubench's finding, NAK's
  // calc_delays; tp-compact-stalls and tp-verify-schedule keep the same
  // rule).  Instructions issue at least a cycle apart and each increments
  // a scoreboard once, so at most the latest increment is too recent; it
  // stays pending and a read of its result is reported as unwaited.
  bool TooRecent = W.SBIssued[SB] != W.SBReleased[SB] &&
                   W.Now < W.SBSetCycle[SB] + sched::ScoreboardSetCycles;
  W.SBReleased[SB] = W.SBIssued[SB] - (TooRecent ? 1 : 0);
  if (TooRecent) {
    W.SBMissedSeq[SB] = W.SBIssued[SB];
    W.SBMissedGap[SB] = uint32_t(W.Now - W.SBSetCycle[SB]);
  }
  foldReadMarks(W, SB);
}

void sim::checkIssue(Exec &X, const DInst &D) {
  Warp &W = *X.W;
  uint64_t T = W.Now;
  if (!sass::isDefinedControl(D.I.Ctrl))
    X.hazard("stall " + Twine(unsigned(D.I.Ctrl.Stall)) +
             " without yield: NVIDIA's tables leave this control value "
             "undefined");
  // Reads.
  for (const RegUse &U : D.Uses) {
    if (U.Def)
      continue;
    for (unsigned I = 0; I < U.Count; ++I) {
      RegHz &H = W.Hz[U.First + I];
      unsigned Hi = U.First + I;
      auto RegName = [Hi]() { return getHazardRegName(Hi); };
      if (H.Unprotected) {
        X.hazard("reads " + RegName() + ", written by the variable-latency " +
                 X.Prog->describe(H.WrInst) + " with no write scoreboard");
        continue;
      }
      if (H.WrSB >= 0 && int32_t(H.WrSeq - W.SBReleased[H.WrSB]) >= 0) {
        std::string Missed;
        if (W.SBMissedSeq[H.WrSB] == H.WrSeq + 1)
          Missed = "; the wait came " +
                   std::to_string(W.SBMissedGap[H.WrSB]) +
                   " cycle(s) after it was set, needs " +
                   std::to_string(sched::ScoreboardSetCycles);
        X.hazard("reads " + RegName() + " before scoreboard SB" +
                 Twine(int(H.WrSB)) + " of its producer (" +
                 X.Prog->describe(H.WrInst) + ") was waited for" + Missed);
        continue;
      }
      if (H.Fixed) {
        unsigned Lat = getRAWLatency(*X.Prog->Model, Hi, H.WC, D.Class, U,
                                     H.LowHalf);
        if (T < H.IssueCycle + Lat)
          X.hazard("reads " + RegName() + " " + Twine(T - H.IssueCycle) +
                   " cycles after its producer issued (" +
                   X.Prog->describe(H.WrInst) + "), needs " + Twine(Lat));
      }
    }
  }
  // Writes.
  int Queue = readQueue(D);
  for (const RegUse &U : D.Uses) {
    if (!U.Def)
      continue;
    for (unsigned I = 0; I < U.Count; ++I) {
      RegHz &H = W.Hz[U.First + I];
      // The late read is done when its scoreboard was released, when that
      // of a younger instruction of its queue was, or, for a writer of the
      // same queue, before this write (readQueue).
      bool ReadDone = H.RdQueue >= 0 &&
                      (H.RdQueue == Queue ||
                       int32_t(H.RdOrder - W.QueueReadsDone[H.RdQueue]) < 0);
      ReadDone |= W.PredWrites.complements(D, H.RdGuard, H.RdGuardVer);
      if (H.RdSB >= 0 && int32_t(H.RdSeq - W.SBReleased[H.RdSB]) >= 0 &&
          !ReadDone)
        X.hazard("overwrites " + getHazardRegName(U.First + I) +
                 " while it may still be read by " +
                 X.Prog->describe(H.RdInst) + " (read scoreboard SB" +
                 Twine(int(H.RdSB)) + " not waited for)");
      else if (H.WrSB >= 0 && int32_t(H.WrSeq - W.SBReleased[H.WrSB]) >= 0 &&
               !W.PredWrites.complements(D, H.WrGuard, H.WrGuardVer))
        X.hazard("overwrites " + getHazardRegName(U.First + I) +
                 " while the variable-latency write of " +
                 X.Prog->describe(H.WrInst) + " is pending (SB" +
                 Twine(int(H.WrSB)) + ")");
    }
  }
}

void sim::recordIssue(Exec &X, const DInst &D) {
  Warp &W = *X.W;
  const sass::Control &C = D.I.Ctrl;
  uint32_t WrSeq = C.WrSB < 6 ? W.SBIssued[C.WrSB] : 0;
  uint32_t RdSeq = C.RdSB < 6 ? W.SBIssued[C.RdSB] : 0;
  // Variable-latency results of one queue complete in issue order (ptxas
  // relies on it: of two back-to-back LDSMs only the second carries a write
  // scoreboard, SASS_FACTS.md 1.4 LDSM).  Results written without a
  // scoreboard are covered by the next instruction of the same queue that
  // has one.
  unsigned Queue = D.Fn == execShared || D.Fn == execLDSM ? 0
                   : D.Fn == execGlobal                   ? 1
                   : D.Fn == execS2R                      ? 2
                   : D.Fn == execLocal                    ? 4
                                                          : 3;
  int RdQueue = readQueue(D);
  uint32_t RdOrder = RdQueue >= 0 ? W.QueueIssued[RdQueue]++ : 0;
  if (RdQueue >= 0) {
    // Either scoreboard, released, shows this instruction's reads done.
    // (A scoreboard counts to 63: older marks are dropped, which only
    // loses what they would prove.)
    for (unsigned SB : {unsigned(C.WrSB), unsigned(C.RdSB)})
      if (SB < 6) {
        auto &Marks = W.ReadMarks[SB];
        if (Marks.size() >= 64)
          Marks.pop_front();
        Marks.push_back(
            {SB == C.WrSB ? WrSeq : RdSeq, uint8_t(RdQueue), RdOrder + 1});
      }
  }
  if (D.Variable && C.WrSB < 6) {
    for (uint16_t R : W.Unscoreboarded[Queue]) {
      RegHz &H = W.Hz[R];
      if (H.Unprotected) {
        H.Unprotected = false;
        H.WrSB = int8_t(C.WrSB);
        H.WrSeq = WrSeq;
      }
    }
    W.Unscoreboarded[Queue].clear();
  }
  for (const RegUse &U : D.Uses) {
    for (unsigned I = 0; I < U.Count; ++I) {
      RegHz &H = W.Hz[U.First + I];
      if (U.Def) {
        // A write under the complement of the pending read's or variable
        // write's guard leaves them pending in their lanes.
        bool KeepRead = W.PredWrites.complements(D, H.RdGuard, H.RdGuardVer);
        bool KeepWrite = H.WrSB >= 0 && !D.Variable &&
                         W.PredWrites.complements(D, H.WrGuard, H.WrGuardVer);
        if (!KeepWrite)
          H.WrInst = uint32_t(X.Idx);
        H.Unprotected = false;
        if (!KeepRead)
          H.RdSB = -1;
        if (D.Variable) {
          H.WrSB = C.WrSB < 6 ? int8_t(C.WrSB) : -1;
          H.WrSeq = WrSeq;
          H.WrGuard = guardOf(D);
          H.WrGuardVer = W.PredWrites.versionOf(H.WrGuard);
          H.Unprotected = C.WrSB >= 6;
          H.Fixed = false;
          if (H.Unprotected)
            W.Unscoreboarded[Queue].push_back(uint16_t(U.First + I));
        } else {
          // Kept: a later reader still waits on the variable write's
          // scoreboard, then is checked against this fixed latency.
          if (!KeepWrite)
            H.WrSB = -1;
          H.IssueCycle = W.Now;
          H.Fixed = D.Class != sched::InstrClass::Nop;
          H.WC = D.Class;
          H.LowHalf =
              D.Class == sched::InstrClass::IMADWide && U.Count == 2 && I == 0;
        }
      } else if (U.Late && D.Variable) {
        // Only GPRs are read late (sched::describe): uniform operands are
        // read at issue (ptxas overwrites the UR of an LDSM address in the
        // very next instruction without a read scoreboard).
        // Read after issue: protected by the read scoreboard, or by the
        // write scoreboard (waiting on it implies the reads are done).
        int8_t SB = C.RdSB < 6 ? int8_t(C.RdSB)
                    : C.WrSB < 6 ? int8_t(C.WrSB) : -1;
        if (SB >= 0) {
          H.RdSB = SB;
          H.RdSeq = C.RdSB < 6 ? RdSeq : WrSeq;
          H.RdInst = uint32_t(X.Idx);
          H.RdQueue = int8_t(RdQueue);
          H.RdOrder = RdOrder;
          H.RdGuard = guardOf(D);
          H.RdGuardVer = W.PredWrites.versionOf(H.RdGuard);
        }
      }
    }
  }
  W.PredWrites.count(D);
  if (C.WrSB < 6) {
    ++W.SBIssued[C.WrSB];
    W.SBSetCycle[C.WrSB] = W.Now;
  }
  if (C.RdSB < 6 && C.RdSB != C.WrSB) {
    ++W.SBIssued[C.RdSB];
    W.SBSetCycle[C.RdSB] = W.Now;
  }
}
