//===- LatencyEvidence.cpp - The model against ptxas's spacing ------------===//
///
/// \file
/// LatencyEvidence (see the header): one walk per straight-line block over
/// the classifier's view of each instruction (describe()), the same
/// register units and model lookups as tp-compact-stalls and
/// tp-verify-schedule (ScheduleUnits.h).
///
//===----------------------------------------------------------------------===//

#include "tp/Target/SASS/LatencyEvidence.h"
#include "tp/Target/SASS/ScheduleUnits.h"
#include "tp/Support/Diagnostics.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace llvm;

namespace tp {
namespace sched {

using namespace units;

StringRef getClassName(InstrClass C) {
  switch (C) {
  case InstrClass::CoupledALU:
    return "CoupledALU";
  case InstrClass::CoupledFMA:
    return "CoupledFMA";
  case InstrClass::IMADWide:
    return "IMADWide";
  case InstrClass::FP16:
    return "FP16";
  case InstrClass::FP16MMA:
    return "FP16MMA";
  case InstrClass::MMA16816:
    return "MMA16816";
  case InstrClass::MMA1688:
    return "MMA1688";
  case InstrClass::UniformALU:
    return "UniformALU";
  case InstrClass::UniformMove:
    return "UniformMove";
  case InstrClass::Decoupled:
    return "Decoupled";
  case InstrClass::DecoupledAgu:
    return "DecoupledAgu";
  case InstrClass::Control:
    return "Control";
  case InstrClass::Nop:
    return "Nop";
  case InstrClass::FP64:
    return "FP64";
  }
  return "?";
}

static StringRef fileName(RegFile F) {
  switch (F) {
  case RegFile::GPR:
    return "GPR";
  case RegFile::UGPR:
    return "UGPR";
  case RegFile::Pred:
    return "Pred";
  case RegFile::UPred:
    return "UPred";
  }
  return "?";
}

/// The mnemonic without modifiers after the first dot, except the ones
/// that change the class (IMAD.WIDE, IMAD.HI, HMMA.16816).
static std::string shortName(const SchedInstr &S) {
  std::string Name = S.Name.str();
  StringRef N = Name;
  if (N.startswith("IMAD.WIDE") || N.startswith("IMAD.HI") ||
      N.startswith("HMMA."))
    return N.split('.').first.str() + "." +
           N.split('.').second.split('.').first.str();
  return N.split('.').first.str();
}

static std::string addr(uint64_t Index) {
  std::string S;
  raw_string_ostream OS(S);
  OS << format_hex(Index * 16, 6);
  return OS.str();
}

static std::string where(StringRef Kernel, unsigned From, unsigned To) {
  std::string S;
  raw_string_ostream OS(S);
  OS << Kernel << " " << format_hex(uint64_t(From) * 16, 6) << "->"
     << format_hex(uint64_t(To) * 16, 6);
  return OS.str();
}

namespace {
/// A kernel's code as the evidence walks it: each instruction described,
/// the block leaders (branch targets and what follows a control op), the
/// issue cycles inside each block and the prefix count of instructions
/// after which the warp may have waited longer than the stalls say.
struct Timeline {
  std::vector<SchedInstr> P;
  std::vector<bool> Leader;
  std::vector<int64_t> Cycle;
  std::vector<unsigned> Waits; ///< Waits[I]: waits among [0, I)
};

Expected<Timeline> buildTimeline(StringRef Name,
                                 ArrayRef<sass::Instruction> Code) {
  size_t N = Code.size();
  Timeline TL;
  TL.P.reserve(N);
  TL.Leader.assign(N + 1, false);
  TL.Leader[0] = true;
  for (size_t I = 0; I < N; ++I) {
    Expected<SchedInstr> S = describe(Code[I]);
    if (!S)
      return makeError(Twine("kernel '") + Name + "' at " + addr(I) + ": " +
                       toString(S.takeError()));
    TL.P.push_back(std::move(*S));
    if (Optional<uint64_t> T = sass::getPCRelativeTarget(Code[I], I * 16))
      if (*T / 16 <= N)
        TL.Leader[*T / 16] = true;
    if (TL.P.back().Class == InstrClass::Control)
      TL.Leader[I + 1] = true;
  }
  TL.Cycle.assign(N, 0);
  TL.Waits.assign(N + 1, 0);
  for (size_t I = 0; I < N; ++I) {
    if (I && !TL.Leader[I])
      TL.Cycle[I] =
          TL.Cycle[I - 1] + std::max<unsigned>(1, Code[I - 1].Ctrl.Stall);
    bool Blocks = TL.P[I].Kind == SpecialKind::Barrier ||
                  TL.P[I].Kind == SpecialKind::WaitGroups;
    TL.Waits[I + 1] =
        TL.Waits[I] + (Code[I].Ctrl.WaitMask != 0 ? 1 : 0) + (Blocks ? 1 : 0);
  }
  return TL;
}
} // namespace

Error LatencyEvidence::addKernel(StringRef Name,
                                 ArrayRef<sass::Instruction> Code) {
  ++Kernels;
  Instructions += Code.size();
  size_t N = Code.size();
  Expected<Timeline> TL = buildTimeline(Name, Code);
  if (!TL)
    return TL.takeError();
  const std::vector<SchedInstr> &P = TL->P;
  const std::vector<bool> &Leader = TL->Leader;
  const std::vector<int64_t> &Cycle = TL->Cycle;
  const std::vector<unsigned> &Waits = TL->Waits;
  for (size_t I = 0; I < N; ++I) {
    auto &Y = Yields[shortName(P[I])];
    Y.first += Code[I].Ctrl.Yield;
    ++Y.second;
  }
  // A wait on the consumer or anything between, or a blocking producer.
  auto Waited = [&](unsigned From, unsigned To) {
    bool Blocks = P[From].Kind == SpecialKind::Barrier ||
                  P[From].Kind == SpecialKind::WaitGroups;
    return Blocks || Waits[To + 1] - Waits[From + 1] != 0;
  };

  struct Unit {
    int LastWrite = -1;
    SmallVector<int, 4> Reads; ///< read at issue since the last write
  };
  std::vector<Unit> Units(NumUnits);
  std::vector<bool> Done(N, false); ///< first dependent seen
  /// The buckets one pair belongs to: those of its registers that need the
  /// most (a reader of both halves of an IMAD.WIDE result that needs as
  /// much for each is evidence for both).
  struct Candidate {
    unsigned Need = 0;
    std::vector<std::string> Keys;
  };
  for (size_t I = 0; I < N; ++I) {
    if (Leader[I]) {
      for (Unit &U : Units)
        U = Unit();
    }
    const SchedInstr &In = P[I];
    if (In.NeverExecutes)
      continue;
    // Producer (instruction, kind 0 RAW / 1 WAW / 2 WAR) -> the binding
    // register of the pair.
    std::map<std::pair<int, int>, Candidate> Pairs;
    auto Offer = [&](int Q, int Kind, unsigned Need, std::string Key) {
      Candidate &C = Pairs[{Q, Kind}];
      if (C.Keys.empty() || Need > C.Need)
        C = Candidate{Need, {}};
      if (Need == C.Need && !is_contained(C.Keys, Key))
        C.Keys.push_back(std::move(Key));
    };
    std::string Reader = getClassName(In.Class).str();
    for (const RegUse &U : In.Uses)
      forEachUnit(U.Regs, [&](unsigned X) {
        int W = Units[X].LastWrite;
        if (W < 0 || Done[W] || isVariable(P[W].Class))
          return;
        std::string Writer = getClassName(P[W].Class).str();
        if (isLowHalf(P[W], X))
          Writer += "(low)";
        std::string R = Reader;
        if (U.Slot == ReadSlot::IMADWideAB)
          R += "(A/B)";
        else if (U.Slot == ReadSlot::IMADWideCHigh)
          R += "(C high)";
        else if (U.Slot == ReadSlot::IMADWideC)
          R += "(C)";
        // A guard predicate is read alike by every instruction (N, and the
        // model's rawPred): one bucket, so that the tightest guard of any
        // kind of instruction is the evidence for all.
        if (U.How == PredRead::Guard)
          R = U.Regs.File == RegFile::Pred ? "any(guard)" : R + "(guard)";
        Offer(W, 0, raw(M, P[W], In, U, X),
              "RAW " + fileName(U.Regs.File).str() + " " + Writer + " -> " + R);
      });
    for (const RegRange &D : In.Defs)
      forEachUnit(D, [&](unsigned X) {
        int W = Units[X].LastWrite;
        // A consumer that also reads the result is a RAW pair.
        if (W >= 0 && !Done[W] && !isVariable(P[W].Class) &&
            !Pairs.count({W, 0}))
          Offer(W, 1, waw(M, P[W], In, D.File),
                "WAW " + fileName(D.File).str() + " " +
                    getClassName(P[W].Class).str() +
                    (P[W].Predicated ? "(predicated)" : "") + " -> " + Reader);
        for (int Q : Units[X].Reads)
          if (Q != int(I))
            Offer(Q, 2, war(M, P[Q], In, D.File),
                  "WAR " + fileName(D.File).str() + " " +
                      getClassName(P[Q].Class).str() + " -> " + Reader);
      });
    for (auto &KV : Pairs) {
      unsigned Q = unsigned(KV.first.first);
      const Candidate &C = KV.second;
      if (KV.first.second != 2)
        Done[Q] = true;
      bool IsWaited = Waited(Q, unsigned(I));
      unsigned Have = unsigned(Cycle[I] - Cycle[Q]);
      for (const std::string &Key : C.Keys) {
        Bucket &B = Buckets[Key];
        if (B.Count + B.Waited && B.Model != C.Need)
          return makeError("latency evidence: bucket '" + Key +
                           "' has two model values (" + Twine(B.Model) + ", " +
                           Twine(C.Need) + "): the key misses an input");
        B.Model = C.Need;
        ++B.Examples[shortName(P[Q]) + " -> " + shortName(In)];
        // A wait between the two may have stretched the spacing, but ptxas
        // cannot count on it (the scoreboard may be free already): the
        // stalls alone are what it relies on, so a waited pair is
        // evidence for (a) and for the minimum too; only a bucket with no
        // unwaited pair is left out of (b), its spacings being possibly
        // slack that a wait filled.
        ++(IsWaited ? B.Waited : B.Count);
        if (Have < B.Min) {
          B.Min = Have;
          B.MinAt = where(Name, Q, unsigned(I));
        }
        if (Have < C.Need && Have < B.Below) {
          B.Below = Have;
          B.BelowAt = where(Name, Q, unsigned(I));
        }
      }
    }
    // The state after the instruction.
    for (const RegUse &U : In.Uses)
      if (!U.Late)
        forEachUnit(U.Regs, [&](unsigned X) { Units[X].Reads.push_back(I); });
    for (const RegRange &D : In.Defs)
      forEachUnit(D, [&](unsigned X) {
        Units[X].LastWrite = int(I);
        Units[X].Reads.clear();
      });
  }
  return Error::success();
}

unsigned LatencyEvidence::report(raw_ostream &OS) const {
  OS << "latency evidence for "
     << sass::getTargetName(M.target()) << ": "
     << Kernels << " kernels, " << Instructions << " instructions\n";
  OS << format("%-52s %5s %5s %5s %6s  %s\n", (const char *)"pair",
               (const char *)"model", (const char *)"min",
               (const char *)"count", (const char *)"waited",
               (const char *)"examples");
  unsigned Violations = 0, Untight = 0;
  std::string Errors;
  raw_string_ostream ES(Errors);
  for (const auto &KV : Buckets) {
    const Bucket &B = KV.second;
    std::string Ex;
    for (const auto &E : B.Examples)
      Ex +=
          (Ex.empty() ? "" : ", ") + E.first + " x" + std::to_string(E.second);
    if (B.Count + B.Waited)
      OS << format("%-52s %5u %5u %5u %6u  %s\n", KV.first.c_str(), B.Model,
                   B.Min, B.Count, B.Waited, Ex.c_str());
    else
      OS << format("%-52s %5u %5s %5u %6u  %s\n", KV.first.c_str(), B.Model,
                   (const char *)"-", B.Count, B.Waited, Ex.c_str());
    if (B.Below != ~0u) {
      ++Violations;
      ES << "error: " << KV.first << ": (a) ptxas issues the consumer "
         << B.Below << " cycles after the producer (" << B.BelowAt
         << "), the model needs " << B.Model << "\n";
    } else if (!B.Count) {
      continue; // only waited pairs: no tight evidence for (b)
    } else if (B.Model < B.Min && !StringRef(KV.first).startswith("RAW")) {
      // (b) is a latency claim: a WAR or WAW pair's spacing in ptxas's code
      // is where its register allocator happened to reuse a register, not
      // a latency it waits out (a read-then-overwrite at the issue
      // interval, 1, shows up only where the allocator reuses at once).
      ++Untight;
    } else if (B.Model < B.Min) {
      ++Violations;
      ES << "error: " << KV.first << ": (b) the model's " << B.Model
         << " cycles are less than ptxas's tightest spacing " << B.Min << " ("
         << B.MinAt << ")\n";
    }
  }
  OS << "yield (bit 109 = 0) by mnemonic:";
  for (const auto &KV : Yields)
    if (KV.second.first)
      OS << " " << KV.first << " " << KV.second.first << "/"
         << KV.second.second;
  OS << "\n";
  OS << ES.str();
  OS << (Violations ? "FAIL" : "PASS") << ": " << Buckets.size() << " pairs, "
     << Violations << " violations; " << Untight
     << " WAR/WAW pairs never as tight as the model (not checked by (b))\n";
  return Violations;
}

} // namespace sched
} // namespace tp
