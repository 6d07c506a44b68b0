//===- Benchmarks.cpp - tp-ubench: the microbenchmark catalogue -----------===//
///
/// \file
/// Writes every microbenchmark of docs/ubench.md as .sass text for one
/// target.  Guarantees, each checked by test/tools/tp-ubench:
///  * every instruction is of a form NVIDIA's bytes confirm (tp-ubench
///    assembles with `tp-mc --fatal-warnings`);
///  * outside the measured pair, every dependency is spaced as the target's
///    latency model asks (fixed latency) or waits on its scoreboard, so
///    `tp-sim --check-schedule` is clean on every benchmark but the sweep
///    variants below the model's latency, which it must flag;
///  * each benchmark's result words have values the generator knows
///    (Expected), the same in tp-sim and on hardware unless a stall below
///    the true latency made an instruction read a stale register.
///
/// Every kernel runs its measured body twice (the first pass warms the
/// instruction cache) and stores the clocks of the second.
///
//===----------------------------------------------------------------------===//

#include "Benchmarks.h"

#include "tp/Target/SASS/LatencyModel.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstring>
#include <functional>

using namespace llvm;
using namespace tp;
using namespace tp::ubench;
using sched::InstrClass;
using sched::LatencyModel;
using sched::ReadSlot;

const char *tp::ubench::getKindName(Kind K) {
  switch (K) {
  case Kind::FixedSweep:
    return "fixed-sweep";
  case Kind::Variable:
    return "variable";
  case Kind::Throughput:
    return "throughput";
  case Kind::SharedBW:
    return "shared-bandwidth";
  case Kind::GlobalBW:
    return "global-bandwidth";
  case Kind::Barrier:
    return "barrier";
  }
  return "?";
}

namespace {

constexpr uint32_t F32One = 0x3f800000;  // 1.0f
constexpr uint32_t H2One = 0x3c003c00;   // two binary16 1.0
constexpr unsigned ClockT0 = 10, ClockT1 = 11; // R10, R11

uint32_t f32Bits(float F) {
  uint32_t B;
  std::memcpy(&B, &F, 4);
  return B;
}
/// binary16 of a small integer (exact below 2048), twice, packed.
uint32_t h2Bits(unsigned V) {
  // V = 2^e * m with 1 <= m < 2: exponent e + 15, 10 fraction bits.
  unsigned E = 31 - __builtin_clz(V);
  uint32_t H = ((E + 15) << 10) | (((V << 10) >> E) & 0x3ff);
  return H | H << 16;
}

std::string hex(uint64_t V) { return "0x" + utohexstr(V, /*LowerCase=*/true); }

std::string ctl(unsigned Stall, int Wr = -1, int Rd = -1,
                const std::string &Wait = "") {
  std::string S = "stall=" + std::to_string(Stall);
  if (Wr >= 0)
    S += " wr=" + std::to_string(Wr);
  if (Rd >= 0)
    S += " rd=" + std::to_string(Rd);
  if (!Wait.empty())
    S += " wait=" + Wait;
  return S;
}

ExpectedWord uniformWord(unsigned Word, uint32_t V) {
  ExpectedWord E;
  E.Word = Word;
  E.Lanes.fill(V);
  return E;
}
ExpectedWord laneWord(unsigned Word, std::function<uint32_t(unsigned)> F) {
  ExpectedWord E;
  E.Word = Word;
  for (unsigned L = 0; L < 32; ++L)
    E.Lanes[L] = F(L);
  return E;
}

/// The constants of a target (the descriptor slot, the parameter base and
/// the start of dynamic shared memory: td/Targets.td through
/// sass::getTargetInfo) and the SM count and L2 size of the card measured.
struct TargetInfo {
  unsigned DescOffset, ParamBase, SharedBase, NumSMs;
  uint64_t L2Bytes;
};
TargetInfo getBenchTarget(sass::Target T) {
  const sass::TargetInfo &TI = sass::getTargetInfo(T);
  // PERF_FACTS.md section 1: H100/H200 132 SMs, 50 MiB L2; RTX 3090 82
  // SMs, 6 MiB L2.
  bool Hopper = T == sass::Target::SM90;
  return {TI.DescriptorSlot, TI.ParamBase, TI.ReservedSharedBytes,
          Hopper ? 132u : 82u, Hopper ? 50ull << 20 : 6ull << 20};
}

/// One kernel's text, written instruction by instruction.
class KernelText {
public:
  KernelText(sass::Target T, unsigned SlotWords)
      : T(T), TI(getBenchTarget(T)), SlotWords(SlotWords) {}

  void op(const std::string &Text, const std::string &Ctrl) {
    settleScoreboards(Ctrl);
    LastStart = Code.size();
    Code += "  " + Text + " {" + defined(Ctrl) + "}\n";
    ++Count;
    noteRegisters(Text);
  }
  /// \p Text, then NOP fillers so that the next instruction issues
  /// \p Spacing cycles after it (a stall holds at most 15).
  void spaced(const std::string &Text, unsigned Spacing,
              const std::string &More = "") {
    unsigned First = std::min(Spacing, 15u);
    op(Text, "stall=" + std::to_string(First) + (More.empty() ? "" : " " + More));
    for (unsigned Left = Spacing - First; Left;) {
      unsigned S = std::min(Left, 15u);
      op("NOP", "stall=" + std::to_string(S));
      Left -= S;
    }
  }
  void label(const std::string &L) { Code += L + ":\n"; }
  /// \p Ctrl with the yield NVIDIA's tables require of a stall of 0 or
  /// 12..15 (sass::defineControl).
  static std::string defined(const std::string &Ctrl) {
    // The clause's stall and yield as sass::Control: which pairs are
    // defined is sass's rule (td/), not restated here.
    StringRef Rest(Ctrl);
    unsigned Stall = 0;
    if (Rest.consume_front("stall="))
      Rest.consumeInteger(10, Stall);
    sass::Control C;
    C.Stall = uint8_t(Stall);
    C.Yield = StringRef(Ctrl).contains("yield");
    if (sass::isDefinedControl(C))
      return Ctrl;
    return Ctrl.empty() ? "yield" : Ctrl + " yield";
  }
  const TargetInfo &info() const { return TI; }

  /// R0 = global thread index, R1 = ctaid.x, R2:R3 = this thread's slot,
  /// R6 = tid.x, R7 = lane, R20 = passes left, R21 = 1, UR4:UR5 = the
  /// memory descriptor; then the label of the two-pass loop.
  void prologue() {
    op("S2R R6, SR_TID.X", ctl(1, 5));
    op("S2R R1, SR_CTAID.X", ctl(1, 5));
    op("S2R R7, SR_LANEID", ctl(1, 5));
    op("ULDC.64 UR4, c[0x0][" + hex(TI.DescOffset) + "]", ctl(1));
    op("MOV R5, " + hex(SlotWords * 4), ctl(1));
    op("MOV R21, 0x1", ctl(1));
    op("MOV R20, 0x2", ctl(6, -1, -1, "5"));
    op("IMAD R0, R1, c[0x0][0x0], R6", ctl(6));
    op("IMAD.WIDE.U32 R2, R0, R5, c[0x0][" + hex(TI.ParamBase) + "]", ctl(6));
    label(".L_x_0");
  }
  /// A barrier, so that every warp of the block begins the timed body at
  /// once: a benchmark whose number spans several warps (cycles per
  /// instruction per sub-partition) needs their bodies to overlap, which a
  /// scheduler that runs one warp ahead of the others would not give.
  void startTogether() { op("BAR.SYNC.DEFER_BLOCKING 0x0", ctl(6)); }
  /// The first clock read, after the initialisation has settled (8 cycles:
  /// more than any fixed latency of an initialising instruction but the
  /// HMMA's, which initialisation never uses).
  void beginTimed() {
    op("NOP", ctl(8));
    op("CS2R.32 R10, SR_CLOCKLO", ctl(1));
  }
  /// The second clock read (waiting for \p Wait), a drain longer than any
  /// write-after-write latency of the body, and the loop's back edge.
  void endTimed(const std::string &Wait = "") {
    op("CS2R.32 R11, SR_CLOCKLO", ctl(1, -1, -1, Wait));
    op("NOP", ctl(15));
    op("NOP", ctl(15));
    op("IADD3 R20, R20, -0x1, RZ", ctl(4));
    op("ISETP.NE.AND P0, PT, R20, RZ, PT", ctl(13));
    op("@P0 BRA .L_x_0", ctl(5));
  }
  /// Stores the clocks and \p Results (registers, in slot order from word
  /// 2), then EXIT and ptxas's padding to a multiple of 128 bytes.
  void epilogue(const std::vector<unsigned> &Results) {
    op("STG.E desc[UR4][R2.64], R10", ctl(1));
    op("STG.E desc[UR4][R2.64+0x4], R11", ctl(1));
    for (unsigned I = 0; I < Results.size(); ++I)
      op("STG.E desc[UR4][R2.64+" + hex(8 + 4 * I) + "], R" +
             std::to_string(Results[I]),
         ctl(1));
    op("EXIT", ctl(1, -1, -1, "0,1,2,3,4,5"));
    label(".L_x_1");
    op("BRA .L_x_1", ctl(1));
    while (Count % 8)
      op("NOP", "yield");
  }

  /// The .sass text of kernel ub_<Name>.
  std::string finish(const std::string &Name, const std::string &Measures,
                     bool Barrier, bool Shared) const {
    std::string S;
    raw_string_ostream OS(S);
    OS << "// tp-ubench " << Name << ": " << Measures << "\n"
       << "// generated by tp-ubench (docs/ubench.md); assemble with\n"
       << "// tp-mc -mcpu=" << sass::getTargetName(T)
       << " --assemble -filetype=obj --fatal-warnings\n"
       << ".target " << sass::getTargetName(T) << "\n.cuda_api 130\n\n"
       << ".kernel " << kernelName(Name) << "\n"
       << ".param 0 8\n.param 8 8\n.param 16 8\n"
       << ".regs " << alignTo(MaxReg + 1, 8) << "\n";
    if (Barrier)
      OS << ".barriers 1\n";
    if (Shared)
      OS << ".shared 0 align=16\n";
    OS << Code << ".end_kernel\n";
    return OS.str();
  }
  static std::string kernelName(const std::string &Name) {
    std::string K = "ub_" + Name;
    std::replace(K.begin(), K.end(), '-', '_');
    return K;
  }

private:
  /// Tracks the highest register named (a tuple's width from .64/.128 or
  /// HMMA/LDSM operands is covered by the +4 margin).
  void noteRegisters(StringRef Text) {
    for (size_t I = 0; I + 1 < Text.size(); ++I) {
      if (Text[I] != 'R' || !isDigit(Text[I + 1]) ||
          (I && (isAlnum(Text[I - 1]) || Text[I - 1] == '_')))
        continue;
      unsigned N = 0;
      size_t J = I + 1;
      while (J < Text.size() && isDigit(Text[J]))
        N = N * 10 + (Text[J++] - '0');
      MaxReg = std::max(MaxReg, N + 3);
    }
  }

  /// A wait sees a scoreboard increment only from an instruction issued
  /// at least sched::ScoreboardSetCycles (2) before it (NAK calc_delays):
  /// when the instruction before a wait sets a scoreboard it waits on, its
  /// stall is raised to that.
  void settleScoreboards(StringRef Ctrl) {
    size_t W = Ctrl.find("wait=");
    if (W == StringRef::npos || LastStart == std::string::npos)
      return;
    StringRef Waits = Ctrl.substr(W + 5).split(' ').first;
    StringRef Last = StringRef(Code).substr(LastStart);
    size_t Open = Last.rfind('{');
    StringRef LastCtrl = Last.substr(Open);
    bool Sets = false;
    for (StringRef Key : {"wr=", "rd="}) {
      size_t K = LastCtrl.find(Key);
      if (K != StringRef::npos &&
          Waits.contains(LastCtrl.substr(K + 3, 1)))
        Sets = true;
    }
    unsigned Stall = 0;
    if (!Sets || !LastCtrl.startswith("{stall=") ||
        LastCtrl.substr(7).consumeInteger(10, Stall) ||
        Stall >= sched::ScoreboardSetCycles)
      return;
    size_t At = LastStart + Open + 7;
    Code.replace(At, std::to_string(Stall).size(),
                 std::to_string(sched::ScoreboardSetCycles));
  }

  sass::Target T;
  TargetInfo TI;
  unsigned SlotWords;
  std::string Code;
  size_t LastStart = std::string::npos; ///< the last instruction's line
  unsigned Count = 0;
  unsigned MaxReg = 21;
};

/// The builder of one target's catalogue.
class Catalogue {
public:
  Catalogue(sass::Target T, const CatalogueOptions &Opts)
      : T(T), M(LatencyModel::get(T)), Opts(Opts) {}
  std::vector<Benchmark> build() {
    fixedSweeps();
    variableLatencies();
    throughputs();
    sharedBandwidth();
    globalBandwidth();
    barriers();
    return std::move(All);
  }

private:
  sass::Target T;
  const LatencyModel &M;
  CatalogueOptions Opts;
  std::vector<Benchmark> All;

  unsigned gpr(InstrClass W, InstrClass R) const {
    return M.rawGPR(W, R, ReadSlot::Normal);
  }
  void add(Benchmark B, KernelText &K, bool Barrier, bool Shared) {
    B.Sass = K.finish(B.Name, B.Measures, Barrier, Shared);
    All.push_back(std::move(B));
  }

  /// A dependent chain for each spacing model-2 .. model+2 (at least 1).
  /// \p Emit writes the initialisation and, after beginTimed(), the chain
  /// at spacing S; it returns the result registers and fills Expected.
  void sweep(const std::string &Name, const std::string &Pair,
             const std::string &Measures, unsigned Model,
             const std::function<std::vector<unsigned>(
                 KernelText &, unsigned, Benchmark &)> &Emit,
             const std::function<void(KernelText &)> &Post = nullptr) {
    for (int D = -2; D <= 2; ++D) {
      int S = int(Model) + D;
      if (S < 1)
        continue;
      Benchmark B;
      B.Name = "lat-" + Name + "-s" + std::to_string(S);
      B.Family = "lat-fixed";
      B.K = Kind::FixedSweep;
      B.Pair = Pair;
      B.Measures = Measures;
      B.ModelCycles = Model;
      B.Spacing = S;
      if (StringRef(Name).endswith("-stg"))
        B.SlotWords = 16; // the STG variants store words 2..9 in the body
      KernelText K(T, B.SlotWords);
      K.prologue();
      std::vector<unsigned> Results = Emit(K, S, B);
      K.endTimed("0,1,2,3,4,5");
      if (Post)
        Post(K);
      K.epilogue(Results);
      add(std::move(B), K, false, false);
    }
  }

  void fixedSweeps();
  void hmmaSweeps();
  void variableLatencies();
  void throughputs();
  void sharedBandwidth();
  void globalBandwidth();
  void barriers();
};

void Catalogue::fixedSweeps() {
  constexpr unsigned N = 32;
  // x += 1 by IADD3: a read before the write lands loses an increment.
  sweep("alu-alu", "CoupledALU -> CoupledALU (IADD3 -> IADD3)",
        "smallest IADD3 -> IADD3 spacing with right values",
        gpr(InstrClass::CoupledALU, InstrClass::CoupledALU),
        [&](KernelText &K, unsigned S, Benchmark &B) {
          K.op("MOV R12, 0x0", ctl(1));
          K.beginTimed();
          for (unsigned I = 0; I < N; ++I)
            K.spaced("IADD3 R12, R12, 0x1, RZ", S);
          B.Steps = N;
          B.Expected = {uniformWord(2, N)};
          return std::vector<unsigned>{12};
        });
  sweep("fma-fma", "CoupledFMA -> CoupledFMA (FFMA -> FFMA)",
        "smallest FFMA -> FFMA spacing with right values",
        gpr(InstrClass::CoupledFMA, InstrClass::CoupledFMA),
        [&](KernelText &K, unsigned S, Benchmark &B) {
          K.op("MOV R12, 0x0", ctl(1));
          K.op("MOV R8, " + hex(F32One), ctl(1));
          K.beginTimed();
          for (unsigned I = 0; I < N; ++I)
            K.spaced("FFMA R12, R12, R8, R8", S);
          B.Steps = N;
          B.Expected = {uniformWord(2, f32Bits(float(N)))};
          return std::vector<unsigned>{12};
        });
  sweep("imad-imad", "CoupledFMA -> CoupledFMA (IMAD -> IMAD)",
        "smallest IMAD -> IMAD spacing with right values",
        gpr(InstrClass::CoupledFMA, InstrClass::CoupledFMA),
        [&](KernelText &K, unsigned S, Benchmark &B) {
          K.op("MOV R12, 0x0", ctl(1));
          K.beginTimed();
          for (unsigned I = 0; I < N; ++I)
            K.spaced("IMAD R12, R12, R21, R21", S);
          B.Steps = N;
          B.Expected = {uniformWord(2, N)};
          return std::vector<unsigned>{12};
        });
  unsigned AluFma = gpr(InstrClass::CoupledALU, InstrClass::CoupledFMA);
  unsigned FmaAlu = gpr(InstrClass::CoupledFMA, InstrClass::CoupledALU);
  sweep("alu-fma", "CoupledALU -> CoupledFMA (IADD3 -> IMAD)",
        "smallest IADD3 -> IMAD spacing with right values", AluFma,
        [&](KernelText &K, unsigned S, Benchmark &B) {
          K.op("MOV R12, 0x0", ctl(1));
          K.beginTimed();
          for (unsigned I = 0; I < N / 2; ++I) {
            K.spaced("IADD3 R12, R12, 0x1, RZ", S);
            K.spaced("IMAD R12, R12, R21, R21", FmaAlu);
          }
          B.Steps = N / 2;
          B.FixedCycles = FmaAlu;
          B.Expected = {uniformWord(2, N)};
          return std::vector<unsigned>{12};
        });
  sweep("fma-alu", "CoupledFMA -> CoupledALU (IMAD -> IADD3)",
        "smallest IMAD -> IADD3 spacing with right values", FmaAlu,
        [&](KernelText &K, unsigned S, Benchmark &B) {
          K.op("MOV R12, 0x0", ctl(1));
          K.beginTimed();
          for (unsigned I = 0; I < N / 2; ++I) {
            K.spaced("IMAD R12, R12, R21, R21", S);
            K.spaced("IADD3 R12, R12, 0x1, RZ", AluFma);
          }
          B.Steps = N / 2;
          B.FixedCycles = AluFma;
          B.Expected = {uniformWord(2, N)};
          return std::vector<unsigned>{12};
        });
  // IMAD.WIDE reading the previous result as its C pair: low register as
  // C (IMADWideC), high register as C's high half.
  unsigned Wide = std::max(
      M.rawGPR(InstrClass::IMADWide, InstrClass::IMADWide, ReadSlot::IMADWideC,
               /*LowHalf=*/true),
      M.rawGPR(InstrClass::IMADWide, InstrClass::IMADWide,
               ReadSlot::IMADWideCHigh, /*LowHalf=*/false));
  sweep("imadwide-c", "IMADWide -> IMAD.WIDE C pair",
        "smallest IMAD.WIDE -> IMAD.WIDE (as C) spacing with right values",
        Wide, [&](KernelText &K, unsigned S, Benchmark &B) {
          K.op("MOV R12, 0x0", ctl(1));
          K.op("MOV R13, 0x0", ctl(1));
          K.beginTimed();
          for (unsigned I = 0; I < N; ++I)
            K.spaced("IMAD.WIDE.U32 R12, R21, R21, R12", S);
          B.Steps = N;
          B.Expected = {uniformWord(2, N), uniformWord(3, 0)};
          return std::vector<unsigned>{12, 13};
        });
  unsigned UniModel = M.rawUGPR(InstrClass::UniformALU, InstrClass::UniformALU);
  // The vector MOV reading the result: the worst uniform-to-anything
  // latency (MOV Rd, URa is classified as the model's describe() says).
  unsigned UniToVec = M.worstUGPR(InstrClass::UniformALU);
  sweep("uniform-uniform", "UniformALU -> UniformALU (UIADD3 -> UIADD3)",
        "smallest UIADD3 -> UIADD3 spacing with right values", UniModel,
        [&](KernelText &K, unsigned S, Benchmark &B) {
          K.op("UMOV UR6, 0x0", ctl(1));
          K.beginTimed();
          for (unsigned I = 0; I < N; ++I)
            K.spaced("UIADD3 UR6, UR6, 0x1, URZ", S);
          B.Steps = N;
          B.Expected = {uniformWord(2, N)};
          return std::vector<unsigned>{12};
        },
        // The result to a vector register for the store, after the loop:
        // outside the timed body, whose cycles are the chain's alone.
        [&](KernelText &K) {
          K.op("NOP", ctl(UniToVec)); // the last UIADD3 -> MOV: > the model
          K.op("MOV R12, UR6",
               ctl(gpr(InstrClass::CoupledALU, InstrClass::DecoupledAgu)));
        });
  hmmaSweeps();
}

/// HMMA.16816 -> HMMA (D as C), -> FADD/HADD2, -> STG.  A and B are all
/// 1.0, so each HMMA adds 16 to every element of D.
void Catalogue::hmmaSweeps() {
  auto InitAB = [](KernelText &K) {
    for (unsigned R = 24; R < 30; ++R)
      K.op("MOV R" + std::to_string(R) + ", " + hex(H2One), ctl(1));
  };
  unsigned ToMMA = gpr(InstrClass::MMA16816, InstrClass::MMA16816);
  for (bool F16 : {false, true}) {
    std::string Ty = F16 ? "F16" : "F32";
    std::string Lower = F16 ? "f16" : "f32";
    unsigned DRegs = F16 ? 2 : 4;
    auto Val = [&](unsigned V) { return F16 ? h2Bits(V) : f32Bits(float(V)); };
    std::string Hmma = "HMMA.16816." + Ty;
    sweep("hmma" + Lower + "-hmma", "MMA16816 -> MMA16816 (" + Hmma + " D -> C)",
          "smallest " + Hmma + " -> HMMA (accumulator) spacing with right values",
          ToMMA, [&](KernelText &K, unsigned S, Benchmark &B) {
            InitAB(K);
            for (unsigned R = 0; R < DRegs; ++R)
              K.op("MOV R" + std::to_string(12 + R) + ", 0x0", ctl(1));
            K.beginTimed();
            constexpr unsigned N = 16;
            for (unsigned I = 0; I < N; ++I)
              K.spaced(Hmma + " R12, R24, R28, R12", S);
            B.Steps = N;
            std::vector<unsigned> Res;
            for (unsigned R = 0; R < DRegs; ++R) {
              B.Expected.push_back(uniformWord(2 + R, Val(16 * N)));
              Res.push_back(12 + R);
            }
            return Res;
          });
    // -> the FP32 (FADD) or FP16 (HADD2) consumer, written back into D[0].
    InstrClass RC = F16 ? InstrClass::FP16 : InstrClass::CoupledFMA;
    std::string Use = F16 ? "HADD2 R12, R12, R8" : "FADD R12, R12, R8";
    unsigned Back = gpr(RC, InstrClass::MMA16816);
    sweep("hmma" + Lower + "-" + (F16 ? "hadd2" : "fadd"),
          "MMA16816 -> " + std::string(F16 ? "FP16 (" : "CoupledFMA (") + Hmma +
              (F16 ? " D -> HADD2)" : " D -> FADD)"),
          "smallest " + Hmma + " -> " + (F16 ? "HADD2" : "FADD") +
              " spacing with right values",
          gpr(InstrClass::MMA16816, RC),
          [&, F16, DRegs, Hmma, Use, Back](KernelText &K, unsigned S,
                                           Benchmark &B) {
            InitAB(K);
            K.op("MOV R8, " + hex(F16 ? H2One : F32One), ctl(1));
            for (unsigned R = 0; R < DRegs; ++R)
              K.op("MOV R" + std::to_string(12 + R) + ", 0x0", ctl(1));
            K.beginTimed();
            constexpr unsigned N = 8;
            for (unsigned I = 0; I < N; ++I) {
              // The next HMMA reads D again: at least its own latency apart.
              K.spaced(Hmma + " R12, R24, R28, R12", S);
              K.spaced(Use, std::max(Back, ToMMA > S ? ToMMA - S : 1));
            }
            B.Steps = N;
            B.FixedCycles = std::max(Back, ToMMA > S ? ToMMA - S : 1);
            std::vector<unsigned> Res;
            for (unsigned R = 0; R < DRegs; ++R) {
              B.Expected.push_back(
                  uniformWord(2 + R, R == 0 ? (F16 ? h2Bits(17 * N)
                                                   : f32Bits(17.0f * N))
                                            : Val(16 * N)));
              Res.push_back(12 + R);
            }
            return Res;
          });
    // -> STG of D: two accumulators alternate, so that HMMA -> HMMA of one
    // accumulator stays at the model's spacing; each STG's source read is
    // waited on (rd scoreboard 4) before the HMMA rewrites it.
    sweep("hmma" + Lower + "-stg", "MMA16816 -> DecoupledAgu (" + Hmma + " D -> STG)",
          "smallest " + Hmma + " -> STG spacing with right values",
          gpr(InstrClass::MMA16816, InstrClass::DecoupledAgu),
          [&, F16, Hmma](KernelText &K, unsigned S, Benchmark &B) {
            InitAB(K);
            for (unsigned R = 12; R < 20; ++R)
              K.op("MOV R" + std::to_string(R) + ", 0x0", ctl(1));
            K.beginTimed();
            constexpr unsigned N = 8;
            for (unsigned I = 0; I < N; ++I) {
              unsigned D = I % 2 ? 16 : 12;
              K.spaced(Hmma + " R" + std::to_string(D) + ", R24, R28, R" +
                           std::to_string(D),
                       S, I >= 2 ? "wait=4" : "");
              K.op("STG.E desc[UR4][R2.64+" + hex(8 + 4 * I) + "], R" +
                       std::to_string(D),
                   ctl(1, -1, 4));
              B.Expected.push_back(uniformWord(2 + I, F16 ? h2Bits(16 * (I / 2 + 1))
                                                          : f32Bits(16.0f * (I / 2 + 1))));
            }
            B.Steps = N;
            B.FixedCycles = 1;
            return std::vector<unsigned>{};
          });
  }
}


/// A benchmark outside the sweeps: prologue, \p Emit (initialisation,
/// beginTimed(), the body), the second clock waiting for every scoreboard,
/// \p Post (after the loop: results from the final pass) and the stores.
struct Shape {
  unsigned Grid = 1, Block = 32, Shared = 0, SlotWords = 8;
  bool Barrier = false;
};

using EmitFn = std::function<std::vector<unsigned>(KernelText &, Benchmark &)>;

void addBench(std::vector<Benchmark> &All, sass::Target T, Benchmark B,
              const Shape &S, const EmitFn &Emit,
              const std::function<void(KernelText &)> &Post = nullptr) {
  B.Grid = S.Grid;
  B.Block = S.Block;
  B.DynamicShared = S.Shared;
  B.SlotWords = S.SlotWords;
  KernelText K(T, B.SlotWords);
  K.prologue();
  std::vector<unsigned> Results = Emit(K, B);
  K.endTimed("0,1,2,3,4,5");
  if (Post)
    Post(K);
  K.epilogue(Results);
  B.Sass = K.finish(B.Name, B.Measures, S.Barrier, S.Shared != 0);
  All.push_back(std::move(B));
}

Benchmark named(const std::string &Name, const std::string &Family, Kind K,
                const std::string &Pair, const std::string &Measures) {
  Benchmark B;
  B.Name = Name;
  B.Family = Family;
  B.K = K;
  B.Pair = Pair;
  B.Measures = Measures;
  return B;
}

void initAB(KernelText &K) {
  for (unsigned R = 24; R < 30; ++R)
    K.op("MOV R" + std::to_string(R) + ", " + hex(H2One), ctl(1));
}
std::string reg(unsigned R) { return "R" + std::to_string(R); }

void Catalogue::variableLatencies() {
  unsigned SB = getBenchTarget(T).SharedBase;
  constexpr unsigned N = 32;
  // LDS pointer chase: the word at the shared base holds its own address.
  addBench(All, T,
           named("lat-lds", "lat-var", Kind::Variable, "LDS -> LDS address",
                 "cycles from an LDS to the LDS that uses its result as address"),
           {1, 32, 64, 8, false}, [&](KernelText &K, Benchmark &B) {
             K.op("MOV R12, " + hex(SB), ctl(6));
             K.op("STS [R12], R12", ctl(1, -1, 2));
             K.beginTimed();
             for (unsigned I = 0; I < N; ++I)
               K.op(I % 2 ? "LDS R12, [R13]" : "LDS R13, [R12]",
                    ctl(1, 0, -1, I == 0 ? "" : I == 1 ? "0,2" : "0"));
             B.Steps = N;
             B.Expected = {uniformWord(2, SB)};
             return std::vector<unsigned>{12};
           });
  // LDSM.x4 -> the HMMA reading it as A; eight accumulators rotate so that
  // HMMA -> HMMA of one accumulator keeps the model's spacing.
  addBench(All, T,
           named("lat-ldsm-hmma", "lat-var", Kind::Variable,
                 "LDSM.16.M88.4 -> HMMA.16816.F32 (A operand)",
                 "cycles from an LDSM to the HMMA reading its fragment"),
           {1, 32, 512, 8, false}, [&](KernelText &K, Benchmark &B) {
             initAB(K);
             for (unsigned R = 40; R < 72; ++R)
               K.op("MOV " + reg(R) + ", 0x0", ctl(1));
             K.op("MOV R30, " + hex(SB), ctl(6));
             K.op("IMAD R31, R7, 0x10, R30", ctl(6));
             K.op("STS.128 [R31], R24", ctl(1, -1, 2));
             K.beginTimed();
             for (unsigned I = 0; I < N; ++I) {
               K.op("LDSM.16.M88.4 R24, [R31]", ctl(1, 1, -1, I ? "" : "2"));
               unsigned D = 40 + 4 * (I % 8);
               K.op("HMMA.16816.F32 " + reg(D) + ", R24, R28, " + reg(D),
                    ctl(2, -1, -1, "1"));
             }
             B.Steps = N;
             B.FixedCycles = 2;
             B.Expected = {uniformWord(2, f32Bits(16.0f * N / 8)),
                           uniformWord(3, f32Bits(16.0f * N / 8))};
             return std::vector<unsigned>{40, 68};
           });
  // LDG pointer chase through this thread's scratch words 12-13, which hold
  // their own address (the chain hits in L1 after its first load).
  addBench(All, T,
           named("lat-ldg", "lat-var", Kind::Variable, "LDG.E.64 -> LDG address",
                 "cycles from an LDG to the LDG that uses its result as address "
                 "(L1 hit)"),
           {1, 32, 0, 16, false}, [&](KernelText &K, Benchmark &B) {
             K.op("MOV R22, 0x30", ctl(6));
             K.op("IMAD.WIDE.U32 R8, R22, R21, R2", ctl(6));
             K.op("STG.E.64 desc[UR4][R8.64], R8", ctl(1, -1, 4));
             K.beginTimed();
             for (unsigned I = 0; I < N; ++I)
               K.op(I % 2 ? "LDG.E.64 R14, desc[UR4][R12.64]"
                          : I ? "LDG.E.64 R12, desc[UR4][R14.64]"
                              : "LDG.E.64 R12, desc[UR4][R8.64]",
                    ctl(1, 0, -1, I ? "0" : "4"));
             B.Steps = N;
             B.Expected = {uniformWord(2, 0), uniformWord(3, 0)};
             return std::vector<unsigned>{16, 17};
           },
           [](KernelText &K) {
             K.op("IADD3 R16, R14, -R8, RZ", ctl(1));
             K.op("IADD3 R17, R15, -R9, RZ", ctl(6));
           });
  // LDGSTS of 16 bytes this thread stored, committed and waited for.
  addBench(All, T,
           named("lat-ldgsts", "lat-var", Kind::Variable,
                 "LDGSTS.E.BYPASS.128 + LDGDEPBAR -> DEPBAR.LE SB0, 0x0",
                 "cycles from an LDGSTS (L2 hit) to the release of DEPBAR.LE "
                 "SB0, 0x0"),
           {1, 32, 512, 16, true}, [&](KernelText &K, Benchmark &B) {
             K.op("MOV R22, 0x30", ctl(6));
             K.op("IMAD.WIDE.U32 R8, R22, R21, R2", ctl(6));
             const uint32_t V[4] = {0x11111111, 0x22222222, 0x33333333,
                                    0x44444444};
             for (unsigned I = 0; I < 4; ++I)
               K.op("MOV " + reg(16 + I) + ", " + hex(V[I]), ctl(1));
             K.op("MOV R30, " + hex(SB), ctl(6));
             K.op("STG.E.128 desc[UR4][R8.64], R16", ctl(1, -1, 4));
             K.op("IMAD R31, R6, 0x10, R30", ctl(6));
             K.beginTimed();
             constexpr unsigned NC = 16;
             for (unsigned I = 0; I < NC; ++I) {
               K.op("LDGSTS.E.BYPASS.128 [R31], desc[UR4][R8.64]",
                    ctl(1, -1, 3, I ? "" : "4"));
               K.op("LDGDEPBAR", ctl(1, 0));
               K.op("DEPBAR.LE SB0, 0x0", ctl(4));
             }
             B.Steps = NC;
             B.FixedCycles = 4;
             B.Expected = {uniformWord(2, V[0]), uniformWord(3, V[3])};
             return std::vector<unsigned>{12, 13};
           },
           [](KernelText &K) {
             // The copy's bytes are published by a barrier, as any shared
             // data written asynchronously (one warp here).
             K.op("BAR.SYNC.DEFER_BLOCKING 0x0", ctl(6));
             K.op("LDS R12, [R31]", ctl(1, 1));
             K.op("LDS R13, [R31+0xc]", ctl(1, 1));
             K.op("NOP", ctl(1, -1, -1, "1"));
           });
  // S2R and LDC, each consumed by an IADD3 that waits for it.
  auto Consumed = [&](const std::string &Name, const std::string &Producer,
                      const std::string &Pair,
                      std::function<uint32_t(unsigned)> Value) {
    addBench(All, T,
             named(Name, "lat-var", Kind::Variable, Pair,
                   "cycles from " + Producer + " to the IADD3 using its result"),
             {1, 32, 0, 8, false}, [&](KernelText &K, Benchmark &B) {
               K.op("MOV R13, 0x0", ctl(1));
               K.beginTimed();
               for (unsigned I = 0; I < N; ++I) {
                 K.op(Producer, ctl(1, 0));
                 K.op("IADD3 R13, R13, R12, RZ", ctl(4, -1, -1, "0"));
               }
               B.Steps = N;
               B.FixedCycles = 4;
               B.Expected = {laneWord(2, Value)};
               return std::vector<unsigned>{13};
             });
  };
  Consumed("lat-s2r", "S2R R12, SR_LANEID", "S2R -> CoupledALU",
           [](unsigned L) { return N * L; });
  Consumed("lat-ldc", "LDC R12, c[0x0][0x0]", "LDC -> CoupledALU",
           [](unsigned) { return N * 32; });
}

void Catalogue::throughputs() {
  for (unsigned W = 1; W <= 4; ++W)
    for (bool F16 : {false, true}) {
      std::string Ty = F16 ? "f16" : "f32";
      std::string Hmma = F16 ? "HMMA.16816.F16" : "HMMA.16816.F32";
      addBench(All, T,
               named("tput-hmma" + Ty + "-w" + std::to_string(W), "tput",
                     Kind::Throughput, Hmma,
                     "cycles per " + Hmma + " per sub-partition, " +
                         std::to_string(W) + " warp(s) per sub-partition"),
               {1, 128 * W, 0, 8, true}, [&](KernelText &K, Benchmark &B) {
                 initAB(K);
                 for (unsigned A = 0; A < 12; ++A)
                   for (unsigned R = 0; R < (F16 ? 2u : 4u); ++R)
                     K.op("MOV " + reg(40 + 4 * A + R) + ", 0x0", ctl(1));
                 K.startTogether();
                 K.beginTimed();
                 for (unsigned Round = 0; Round < 8; ++Round)
                   for (unsigned A = 0; A < 12; ++A)
                     // A and B from the operand reuse cache, as ptxas
                     // reads A: the register file's ports are not measured.
                     K.op(Hmma + " " + reg(40 + 4 * A) + ", R24.reuse, R28.reuse, " +
                              reg(40 + 4 * A),
                          ctl(2));
                 B.Steps = 96;
                 B.WarpsPerSMSP = W;
                 uint32_t V = F16 ? h2Bits(128) : f32Bits(128.0f);
                 B.Expected = {uniformWord(2, V), uniformWord(3, V)};
                 return std::vector<unsigned>{40, 84};
               });
    }
  for (unsigned W : {1u, 4u}) {
    std::string Ws = "-w" + std::to_string(W);
    auto Indep = [&](const std::string &Name, const std::string &Op,
                     const std::string &Pair, uint32_t Value) {
      addBench(All, T,
               named(Name + Ws, "tput", Kind::Throughput, Pair,
                     "cycles per " + Pair + " per sub-partition, " +
                         std::to_string(W) + " warp(s) per sub-partition"),
               {1, 128 * W, 0, 8, true}, [&](KernelText &K, Benchmark &B) {
                 K.op("MOV R8, " + hex(F32One), ctl(1));
                 for (unsigned A = 0; A < 8; ++A)
                   K.op("MOV " + reg(40 + A) + ", 0x0", ctl(1));
                 K.startTogether();
                 K.beginTimed();
                 for (unsigned Round = 0; Round < 16; ++Round)
                   for (unsigned A = 0; A < 8; ++A) {
                     std::string D = reg(40 + A);
                     std::string Text = Op;
                     for (size_t P; (P = Text.find("$D")) != std::string::npos;)
                       Text.replace(P, 2, D);
                     K.op(Text, ctl(1));
                   }
                 B.Steps = 128;
                 B.WarpsPerSMSP = W;
                 B.Expected = {uniformWord(2, Value), uniformWord(3, Value)};
                 return std::vector<unsigned>{40, 47};
               });
    };
    Indep("tput-ffma", "FFMA $D, $D, R8.reuse, R8", "FFMA", f32Bits(16.0f));
    Indep("tput-iadd3", "IADD3 $D, $D, 0x1, RZ", "IADD3", 16);
    // MUFU.RCP of 1.0 into 32 registers per round; each round waits for the
    // previous one (its results are overwritten).
    addBench(All, T,
             named("tput-mufu" + Ws, "tput", Kind::Throughput, "MUFU.RCP",
                   "cycles per MUFU.RCP per sub-partition, " + std::to_string(W) +
                       " warp(s) per sub-partition (one drain per 32)"),
             {1, 128 * W, 0, 8, true}, [&](KernelText &K, Benchmark &B) {
               K.op("MOV R8, " + hex(F32One), ctl(1));
               K.startTogether();
               K.beginTimed();
               for (unsigned Round = 0; Round < 4; ++Round)
                 for (unsigned A = 0; A < 32; ++A)
                   K.op("MUFU.RCP " + reg(48 + A) + ", R8",
                        ctl(1, 0, -1, Round && !A ? "0" : ""));
               B.Steps = 128;
               B.WarpsPerSMSP = W;
               B.SimSupported = false; // tp-sim has no MUFU
               B.Expected = {uniformWord(2, F32One), uniformWord(3, F32One)};
               return std::vector<unsigned>{48, 79};
             });
  }
}

void Catalogue::sharedBandwidth() {
  unsigned SB = getBenchTarget(T).SharedBase;
  // 1024 words of shared memory, word w holding w; 16 warps.
  auto Init = [&](KernelText &K) {
    K.op("MOV R30, " + hex(SB), ctl(6));
    K.op("IMAD R31, R6, 0x4, R30", ctl(1));
    K.op("IADD3 R33, R6, 0x200, RZ", ctl(6));
    K.op("STS [R31], R6", ctl(1, -1, 2));
    K.op("STS [R31+0x800], R33", ctl(1, -1, 2));
    K.op("BAR.SYNC.DEFER_BLOCKING 0x0", ctl(6));
  };
  for (unsigned Stride : {4u, 8u, 128u}) {
    unsigned Ways = Stride == 4 ? 1 : Stride / 4;
    addBench(All, T,
             named("shared-lds-" + std::to_string(Ways) + "way", "shared-bw",
                   Kind::SharedBW, "LDS.32",
                   "LDS bytes per cycle per SM, " + std::to_string(Ways) +
                       "-way bank conflict, 16 warps"),
             {1, 512, 4096, 8, true}, [&](KernelText &K, Benchmark &B) {
               Init(K);
               K.op("IMAD R34, R7, " + hex(Stride) + ", R30", ctl(6));
               K.beginTimed();
               for (unsigned Round = 0; Round < 4; ++Round)
                 for (unsigned A = 0; A < 32; ++A)
                   K.op("LDS " + reg(48 + A) + ", [R34]",
                        ctl(1, 0, -1, Round && !A ? "0" : ""));
               B.Steps = 128;
               B.BytesPerWarp = 128 * 128;
               auto V = [Stride](unsigned L) { return L * Stride / 4; };
               B.Expected = {laneWord(2, V), laneWord(3, V)};
               return std::vector<unsigned>{48, 79};
             });
  }
  for (unsigned RowStride : {16u, 128u}) {
    std::string Kind_ = RowStride == 16 ? "free" : "8way";
    addBench(All, T,
             named("shared-ldsm-" + Kind_, "shared-bw", Kind::SharedBW,
                   "LDSM.16.M88.4",
                   std::string("LDSM.x4 bytes per cycle per SM, ") +
                       (RowStride == 16 ? "conflict-free rows"
                                        : "rows 128 bytes apart (8-way)") +
                       ", 16 warps"),
             {1, 512, 4096, 8, true}, [&](KernelText &K, Benchmark &B) {
               Init(K);
               K.op("IMAD R34, R7, " + hex(RowStride) + ", R30", ctl(6));
               K.beginTimed();
               for (unsigned Round = 0; Round < 4; ++Round)
                 for (unsigned A = 0; A < 16; ++A)
                   K.op("LDSM.16.M88.4 " + reg(48 + 4 * A) + ", [R34]",
                        ctl(1, 1, -1, Round && !A ? "1" : ""));
               B.Steps = 64;
               B.BytesPerWarp = 64 * 512;
               for (unsigned Q = 0; Q < 4; ++Q)
                 B.Expected.push_back(laneWord(2 + Q, [=](unsigned L) {
                   return ((8 * Q + L / 4) * RowStride + (L % 4) * 4) / 4;
                 }));
               return std::vector<unsigned>{48, 49, 50, 51};
             });
  }
}

void Catalogue::globalBandwidth() {
  const TargetInfo TI = getBenchTarget(T);
  unsigned G = Opts.GlobalBlocks ? Opts.GlobalBlocks : 4 * TI.NumSMs;
  unsigned I = Opts.GlobalIterations;
  uint64_t PerBlock = uint64_t(I) * 4096;
  // The L2 footprint: a power of two of the blocks' windows, at most half
  // the card's L2.
  unsigned L2Windows = 1;
  while (2 * L2Windows <= G && 2 * L2Windows * PerBlock <= TI.L2Bytes / 2)
    L2Windows *= 2;
  for (bool Dram : {false, true}) {
    unsigned Windows = Dram ? G : L2Windows;
    uint32_t Mask = Dram ? 0xffffffff : L2Windows - 1;
    Benchmark Bw = named(
        Dram ? "global-ldgsts-dram" : "global-ldgsts-l2", "global-bw",
        Kind::GlobalBW, "LDGSTS.E.BYPASS.128",
        std::string("LDGSTS bytes per second, ") + std::to_string(G) +
            " blocks of 256 threads, " +
            (Dram ? "every block its own 4 KiB pages (DRAM)"
                  : std::to_string(Windows) + " windows of " +
                        std::to_string(PerBlock >> 10) +
                        " KiB shared by all blocks (L2)"));
    Bw.GlobalBytes = 2 * uint64_t(G) * PerBlock; // two passes
    Bw.ABytes = uint64_t(Windows) * PerBlock;
    Bw.Steps = I;
    addBench(All, T, std::move(Bw), {G, 256, 16384, 8, false},
             [&](KernelText &K, Benchmark &B) {
               K.op("LOP3.LUT R24, R1, " + hex(Mask) + ", RZ, 0xc0, !PT", ctl(1));
               K.op("MOV R25, " + hex(PerBlock), ctl(1));
               K.op("IMAD R26, R6, 0x10, RZ", ctl(6));
               K.op("IMAD.WIDE.U32 R8, R24, R25, c[0x0][" +
                        hex(TI.ParamBase + 8) + "]",
                    ctl(6));
               K.op("IMAD.WIDE.U32 R8, R26, R21, R8", ctl(6));
               K.op("MOV R22, 0x1000", ctl(6));
               K.op("IMAD.WIDE.U32 R14, R22, R21, R8", ctl(6));
               K.op("IMAD.WIDE.U32 R16, R22, R21, R14", ctl(6));
               K.op("IMAD.WIDE.U32 R18, R22, R21, R16", ctl(1));
               K.op("MOV R27, 0x4000", ctl(1)); // the step of each address
               K.op("MOV R30, " + hex(TI.SharedBase), ctl(6));
               K.op("IMAD R31, R6, 0x10, R30", ctl(1));
               K.op("MOV R23, " + hex(I / 4), ctl(1));
               K.op("MOV R12, 0x0", ctl(6));
               K.beginTimed();
               K.label(".L_x_2");
               const unsigned Addr[4] = {8, 14, 16, 18};
               for (unsigned S = 0; S < 4; ++S) {
                 K.op("DEPBAR.LE SB0, 0x3", ctl(4));
                 K.op("LDGSTS.E.BYPASS.128 [R31" +
                          (S ? "+" + hex(S * 4096) : std::string()) +
                          "], desc[UR4][" + reg(Addr[S]) + ".64]",
                      ctl(1, -1, 3));
                 K.op("LDGDEPBAR", ctl(1, 0));
               }
               for (unsigned S = 0; S < 4; ++S)
                 K.op("IMAD.WIDE.U32 " + reg(Addr[S]) + ", R27, R21, " +
                          reg(Addr[S]),
                      ctl(1, -1, -1, S ? "" : "3"));
               K.op("IADD3 R12, R12, 0x4, RZ", ctl(1));
               K.op("IADD3 R23, R23, -0x1, RZ", ctl(4));
               K.op("ISETP.NE.AND P1, PT, R23, RZ, PT", ctl(13));
               K.op("@P1 BRA .L_x_2", ctl(5));
               K.op("DEPBAR.LE SB0, 0x0", ctl(4));
               B.Expected = {uniformWord(2, I)};
               return std::vector<unsigned>{12};
             });
  }
}

void Catalogue::barriers() {
  for (unsigned W = 1; W <= 8; ++W)
    addBench(All, T,
             named("bar-sync-w" + std::to_string(W), "barrier", Kind::Barrier,
                   "BAR.SYNC.DEFER_BLOCKING",
                   "cycles per BAR.SYNC of " + std::to_string(W) + " warp(s)"),
             {1, 32 * W, 0, 8, true}, [&](KernelText &K, Benchmark &B) {
               K.op("MOV R12, 0x0", ctl(1));
               K.beginTimed();
               constexpr unsigned N = 32;
               for (unsigned I = 0; I < N; ++I) {
                 K.op("BAR.SYNC.DEFER_BLOCKING 0x0", ctl(6));
                 K.op("IADD3 R12, R12, 0x1, RZ", ctl(1));
               }
               B.Steps = N;
               B.FixedCycles = 1;
               B.Expected = {uniformWord(2, N)};
               return std::vector<unsigned>{12};
             });
}


} // namespace

std::vector<Benchmark> tp::ubench::buildCatalogue(sass::Target T,
                                                  const CatalogueOptions &Opts) {
  return Catalogue(T, Opts).build();
}

