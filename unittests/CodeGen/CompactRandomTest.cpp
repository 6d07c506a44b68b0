//===- CompactRandomTest.cpp - The compaction walk on random pieces -------===//
//
// Random pieces whose register ranges overlap in every way (a read of part
// of what one instruction wrote, a write over parts of two earlier writes,
// pairs, quads, predicates, uniform registers, late reads of stores and
// copies, scoreboard waits, barriers), compacted by one StallCompactor
// reused from piece to piece as tp-compact-stalls reuses it.  Every
// decision (stall, wait mask, scoreboards, reason, required waits, delay)
// must equal unittests/CodeGen/Inputs/compact-random.txt, which the walk
// with per-unit state (main 9aecb4c) wrote: the walk with per-group state
// must decide exactly as it did.  TP_WRITE_COMPACT_RANDOM=FILE writes the
// table instead.
//
//===----------------------------------------------------------------------===//

#include "SchedTestUtil.h"
#include "tp/Target/SASS/ScheduleOps.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

using namespace tp;
using namespace tp::sched;
using namespace tp::sched::test;

namespace {

/// A random instruction over a small window of registers (R0..R19,
/// UR0..UR5, P0..P3), so that ranges meet often and partly.
SchedInstr randomInstr(std::mt19937 &G) {
  auto Pick = [&](unsigned N) { return unsigned(G() % N); };
  auto Gpr = [&](unsigned Width) {
    unsigned First = Pick(20 - Width + 1);
    if (Width > 1 && Pick(3)) // mostly aligned, sometimes not
      First &= ~(Width - 1);
    return gpr(First, Width);
  };
  SchedInstr I;
  switch (Pick(18)) {
  case 0:
  case 1:
    I = mk("IADD3", {Gpr(1)}, {Gpr(1), Gpr(1)});
    break;
  case 2:
    I = mk("IMAD", {Gpr(1)}, {Gpr(1), Gpr(1), Gpr(1)});
    break;
  case 3:
    I = mk("IMAD.WIDE", {Gpr(2)}, {Gpr(1), Gpr(1), Gpr(2)});
    break;
  case 4:
    I = mk("HADD2", {Gpr(1)}, {Gpr(1)});
    break;
  case 5:
  case 6: {
    RegRange D = Gpr(4);
    I = mk("HMMA.16816.F32", {D}, {Gpr(4), Gpr(2), Pick(2) ? D : Gpr(4)});
    break;
  }
  case 7:
    I = mk("LDSM.16.M88.4", {Gpr(4)}, {Gpr(1)});
    break;
  case 8:
    I = mk("LDS.64", {Gpr(2)}, {Gpr(1)});
    break;
  case 9:
    I = mk("LDG.E.64", {Gpr(2)}, {Gpr(2)});
    break;
  case 10:
    I = mk("STS.128", {}, {Gpr(1), Gpr(4)});
    break;
  case 11:
    I = ldgsts(Pick(20), 0, Pick(19));
    break;
  case 12:
    I = mk("S2R", {Gpr(1)}, {});
    break;
  case 13:
    I = mk("ISETP.GT.AND", {pred(Pick(4))}, {Gpr(1), Gpr(1)});
    break;
  case 14:
    I = mk("ULDC.64", {ugpr(Pick(3) * 2, 2)}, {});
    break;
  case 15:
    I = mk("UIADD3", {ugpr(Pick(6))}, {ugpr(Pick(6)), ugpr(Pick(6))});
    break;
  case 16:
    I = Pick(2) ? makeInstr("BAR.SYNC") : makeInstr("LDGDEPBAR");
    break;
  case 17:
    I = depbar(Pick(3));
    break;
  }
  unsigned Guard = Pick(12);
  if (Guard < 2)
    I.guard(Pick(4), Pick(2));
  else if (Guard == 2)
    I.guard(sass::PT, true); // never executes
  if (Pick(4) == 0) // the input's SB4/SB5 choice is kept
    I.Ctrl.WrSB = uint8_t(4 + Pick(2));
  return I;
}

/// One line a piece: per instruction (and the drain NOP) its stall, wait
/// mask, write and read scoreboards, reason, required waits and delay.
std::string digest(const OpSeq &Seq, const CompactResult &R) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  for (size_t K = 0; K < R.Cycles.size(); ++K) {
    const sass::Control &C =
        K < Seq.Ops.size() ? Seq.Ops[K].Ctrl : R.DrainCtrl;
    OS << llvm::format("%x%02x%x%x%x%02x%x ", C.Stall, C.WaitMask, C.WrSB,
                       C.RdSB, unsigned(R.Reasons[K]), R.RequiredWaits[K],
                       C.Yield)
       << R.Cycles[K];
    OS << (K + 1 < R.Cycles.size() ? "," : "");
  }
  return OS.str();
}

std::vector<std::string> compactRandomPieces() {
  std::mt19937 G(20261201);
  StallCompactor C;
  CompactResult R;
  std::vector<std::string> Lines;
  for (unsigned Piece = 0; Piece < 240; ++Piece) {
    OpSeq Seq;
    unsigned N = 4 + G() % 28;
    for (unsigned K = 0; K < N; ++K)
      appendView(randomInstr(G), Seq);
    if (G() % 10 == 0)
      appendView(makeInstr("EXIT"), Seq);
    CompactOptions O;
    O.Conservative = Piece % 17 == 5;
    O.Drain = Piece % 13 != 3;
    O.Target = Piece % 3 == 1 ? sass::Target::SM90 : sass::Target::SM86;
    llvm::Error E = C.run(Seq, Seq.Ops, O, R);
    Lines.push_back(E ? "error: " + llvm::toString(std::move(E))
                      : digest(Seq, R));
  }
  return Lines;
}

TEST(CompactRandom, DecisionsEqualThePerUnitWalks) {
  std::vector<std::string> Got = compactRandomPieces();
  if (const char *Path = std::getenv("TP_WRITE_COMPACT_RANDOM")) {
    std::ofstream Out(Path);
    for (const std::string &L : Got)
      Out << L << "\n";
    return;
  }
  std::ifstream In(TP_UNITTEST_DIR "/Inputs/compact-random.txt");
  ASSERT_TRUE(In.good()) << "cannot read Inputs/compact-random.txt";
  std::vector<std::string> Want;
  for (std::string L; std::getline(In, L);)
    Want.push_back(L);
  ASSERT_EQ(Got.size(), Want.size());
  for (size_t K = 0; K < Got.size(); ++K)
    EXPECT_EQ(Got[K], Want[K]) << "piece " << K;
}

} // namespace
