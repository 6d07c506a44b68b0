//===- LatencyModelTest.cpp - The sm_80/86/89/90 latency tables ----------===//
//
// The numbers ptxas 13 was seen to use (SASS_FACTS 2.3) come out of the
// model; the td schedule classes agree with it; every form's class is one
// the model knows.  (test/Sim/latency-evidence.test checks every pair
// against ptxas's schedules.)
//
//===----------------------------------------------------------------------===//

#include "tp/Target/SASS/LatencyModel.h"
#include "tp/Target/SASS/Schedule.h"

#include "gtest/gtest.h"

#include <algorithm>

using namespace tp;
using namespace tp::sched;

namespace {

const LatencyModel &M86 = LatencyModel::get(sass::Target::SM86);
const LatencyModel &M90 = LatencyModel::get(sass::Target::SM90);
const LatencyModel &M80 = LatencyModel::get(sass::Target::SM80);
const LatencyModel &M89 = LatencyModel::get(sass::Target::SM89);

TEST(LatencyModel, PtxasObservedPairs) {
  // SASS_FACTS 2.3 (E), each equal to NAK's table (N).
  EXPECT_EQ(M86.rawGPR(InstrClass::CoupledALU, InstrClass::CoupledALU,
                       ReadSlot::Normal),
            4u); // IADD3 -> IADD3
  EXPECT_EQ(M86.rawGPR(InstrClass::CoupledFMA, InstrClass::CoupledALU,
                       ReadSlot::Normal),
            5u); // IMAD -> IADD3
  EXPECT_EQ(M86.rawGPR(InstrClass::CoupledFMA, InstrClass::IMADWide,
                       ReadSlot::IMADWideAB),
            4u); // IMAD -> IMAD.WIDE A/B
  EXPECT_EQ(M86.rawPred(InstrClass::CoupledALU, InstrClass::CoupledFMA,
                        PredRead::Operand),
            5u); // IADD3 carry-out -> IMAD.X carry-in
  EXPECT_EQ(M86.rawGPR(InstrClass::CoupledFMA, InstrClass::DecoupledAgu,
                       ReadSlot::Normal),
            5u); // IMAD -> LDGSTS/STG address
  EXPECT_EQ(M86.rawPred(InstrClass::CoupledALU, InstrClass::CoupledFMA,
                        PredRead::Guard),
            13u); // ISETP -> @P IMAD
  EXPECT_EQ(M86.minStallAfter(InstrClass::DecoupledAgu, true, false), 6u);
}

TEST(LatencyModel, HmmaAsPtxasSpacesIt) {
  // ptxas's 24 (E) for every consumer but memory (23, E), where NAK says
  // 15..18.
  for (const LatencyModel *M : {&M86, &M90}) {
    EXPECT_EQ(M->hmmaConsumerCycles(), 24u);
    for (InstrClass R : {InstrClass::CoupledALU, InstrClass::CoupledFMA,
                         InstrClass::MMA16816, InstrClass::Decoupled})
      EXPECT_EQ(M->rawGPR(InstrClass::MMA16816, R, ReadSlot::Normal), 24u);
    EXPECT_EQ(M->rawGPR(InstrClass::MMA16816, InstrClass::DecoupledAgu,
                        ReadSlot::Normal),
              23u);
  }
  EXPECT_EQ(M86.wawGPR(InstrClass::MMA16816, InstrClass::MMA16816, false), 24u);
  EXPECT_EQ(M86.worstGPR(InstrClass::MMA16816), 24u);
}

TEST(LatencyModel, VariableProducersNeedOnlyTheirScoreboard) {
  EXPECT_TRUE(isVariable(InstrClass::Decoupled));
  EXPECT_TRUE(isVariable(InstrClass::DecoupledAgu));
  EXPECT_FALSE(isVariable(InstrClass::MMA16816)); // E: no SB on sm_86
  EXPECT_EQ(M86.rawGPR(InstrClass::DecoupledAgu, InstrClass::MMA16816,
                       ReadSlot::Normal),
            1u);
  // N: a variable-latency writer after a coupled reader / writer.
  EXPECT_EQ(M86.warGPR(InstrClass::CoupledALU, InstrClass::DecoupledAgu), 2u);
  EXPECT_EQ(M86.warGPR(InstrClass::MMA16816, InstrClass::DecoupledAgu), 1u);
  EXPECT_EQ(M86.wawGPR(InstrClass::CoupledALU, InstrClass::DecoupledAgu, false),
            5u);
  EXPECT_EQ(M86.wawGPR(InstrClass::CoupledALU, InstrClass::DecoupledAgu, true),
            6u);
}

// FP64 is redirected (variable, scoreboarded) on sm_80/86/89/120 and a
// fixed-latency pipe on sm_90/sm_100 (E: ptxas 13's fp64_forms.ptx): there
// a coupled reader's register may be rewritten by DADD the next cycle.
TEST(LatencyModel, FP64FixedOnSM90AndSM100) {
  EXPECT_TRUE(isVariable(InstrClass::FP64)); // the target-free answer
  for (sass::Target T : {sass::Target::SM80, sass::Target::SM86,
                         sass::Target::SM89, sass::Target::SM120}) {
    const LatencyModel &M = LatencyModel::get(T);
    EXPECT_FALSE(M.isFP64Fixed());
    EXPECT_EQ(M.warGPR(InstrClass::CoupledALU, InstrClass::FP64), 2u);
  }
  for (sass::Target T : {sass::Target::SM90, sass::Target::SM100}) {
    const LatencyModel &M = LatencyModel::get(T);
    EXPECT_TRUE(M.isFP64Fixed());
    EXPECT_EQ(M.warGPR(InstrClass::CoupledALU, InstrClass::FP64), 1u);
    // Other variable writers keep N's 2.
    EXPECT_EQ(M.warGPR(InstrClass::CoupledALU, InstrClass::Decoupled), 2u);
  }
}

TEST(LatencyModel, BoundaryIsTheWorstOfEveryConsumer) {
  EXPECT_EQ(M86.worstGPR(InstrClass::CoupledALU), 7u); // ALU -> HMMA reader
  EXPECT_EQ(M86.worstPred(InstrClass::CoupledALU), 13u);
  EXPECT_EQ(M86.worstUGPR(InstrClass::UniformALU), 11u);
  EXPECT_EQ(M86.worstWARGPR(),
            2u); // N: variable/MMA writer after a coupled read
  EXPECT_EQ(M86.worstWARPred(), 1u);
  EXPECT_EQ(M86.worstWARUGPR(), 3u); // N: Uldc/Umov writer after a Udp read
}

// worstGPR() reads the writer's RAW row as a maximum: the same as asking
// rawGPR() of every reader class and slot (and wawGPR() of every later
// writer), on every target; the worst WAR spacings (compile-time constants)
// are the largest warGPR() etc. of every pair.
TEST(LatencyModel, WorstIsTheMaximumOfEveryPair) {
  const InstrClass All[] = {
      InstrClass::CoupledALU,   InstrClass::CoupledFMA,  InstrClass::IMADWide,
      InstrClass::FP16,         InstrClass::FP16MMA,     InstrClass::MMA16816,    InstrClass::MMA1688,
      InstrClass::UniformALU,   InstrClass::UniformMove, InstrClass::Decoupled,
      InstrClass::DecoupledAgu, InstrClass::Control,     InstrClass::Nop};
  for (sass::Target T :
       {sass::Target::SM80, sass::Target::SM86, sass::Target::SM89,
        sass::Target::SM90, sass::Target::SM100, sass::Target::SM120,
        sass::Target::SM121}) {
    const LatencyModel &M = LatencyModel::get(T);
    for (InstrClass W : All) {
      unsigned Worst = 1;
      for (InstrClass R : All) {
        for (ReadSlot S : {ReadSlot::Normal, ReadSlot::IMADWideAB,
                           ReadSlot::IMADWideC, ReadSlot::IMADWideCHigh})
          Worst = std::max(Worst, M.rawGPR(W, R, S));
        Worst = std::max(Worst, M.wawGPR(W, R, true));
      }
      EXPECT_EQ(M.worstGPR(W), Worst)
          << "target " << unsigned(T) << " writer " << unsigned(W);
    }
    unsigned War[4] = {1, 1, 1, 1};
    for (InstrClass R : All)
      for (InstrClass W : All) {
        War[0] = std::max(War[0], M.warGPR(R, W));
        War[1] = std::max(War[1], M.warPred(R, W));
        War[2] = std::max(War[2], M.warUGPR(R, W));
        War[3] = std::max(War[3], M.warUPred(R, W));
      }
    EXPECT_EQ(M.worstWARGPR(), War[0]);
    EXPECT_EQ(M.worstWARPred(), War[1]);
    EXPECT_EQ(M.worstWARUGPR(), War[2]);
    EXPECT_EQ(M.worstWARUPred(), War[3]);
  }
}

TEST(LatencyModel, SM90DiffersWherePtxasDoes) {
  // E (test/Sim/latency-evidence.test): IMAD.WIDE -> IMAD.WIDE C 6 on
  // sm_86, 4 on sm_90; IMAD -> the high register of a C pair 4 / 2.  ULDC
  // -> memory reader 2, ALU -> either register of the C pair 5, UIADD3 ->
  // IMAD reading a UR 6 on both
  // (test/Sim/latency-evidence-corpus.test).  The rest is the same table.
  EXPECT_EQ(M86.rawGPR(InstrClass::IMADWide, InstrClass::IMADWide,
                       ReadSlot::IMADWideC),
            6u);
  EXPECT_EQ(M90.rawGPR(InstrClass::IMADWide, InstrClass::IMADWide,
                       ReadSlot::IMADWideC),
            4u);
  EXPECT_EQ(M86.rawUGPR(InstrClass::UniformMove, InstrClass::DecoupledAgu), 2u);
  EXPECT_EQ(M90.rawUGPR(InstrClass::UniformMove, InstrClass::DecoupledAgu), 2u);
  EXPECT_EQ(M86.rawGPR(InstrClass::CoupledFMA, InstrClass::IMADWide,
                       ReadSlot::IMADWideCHigh),
            4u);
  EXPECT_EQ(M90.rawGPR(InstrClass::CoupledFMA, InstrClass::IMADWide,
                       ReadSlot::IMADWideCHigh),
            2u);
  EXPECT_EQ(M90.rawGPR(InstrClass::CoupledFMA, InstrClass::IMADWide,
                       ReadSlot::IMADWideC),
            4u);
  EXPECT_EQ(M86.rawGPR(InstrClass::CoupledALU, InstrClass::IMADWide,
                       ReadSlot::IMADWideC),
            5u);
  EXPECT_EQ(M90.rawGPR(InstrClass::CoupledALU, InstrClass::IMADWide,
                       ReadSlot::IMADWideC),
            5u);
  EXPECT_EQ(M86.rawGPR(InstrClass::CoupledALU, InstrClass::IMADWide,
                       ReadSlot::IMADWideCHigh),
            5u);
  // sm_90: the high register 3 (IADD3.X -> IMAD.WIDE.U32, latency-pairs.ptx
  // wide_chigh), as on sm_100/sm_120.
  EXPECT_EQ(M90.rawGPR(InstrClass::CoupledALU, InstrClass::IMADWide,
                       ReadSlot::IMADWideCHigh),
            3u);
  EXPECT_EQ(M86.rawUGPR(InstrClass::UniformALU, InstrClass::CoupledFMA), 6u);
  EXPECT_EQ(M90.rawUGPR(InstrClass::UniformALU, InstrClass::CoupledFMA), 6u);
  // Both targets: HMMA.1688 -> a store of D 15 (E; N 12).
  EXPECT_EQ(M86.rawGPR(InstrClass::MMA1688, InstrClass::DecoupledAgu,
                       ReadSlot::Normal),
            15u);
  EXPECT_EQ(M90.rawGPR(InstrClass::MMA1688, InstrClass::DecoupledAgu,
                       ReadSlot::Normal),
            15u);
  EXPECT_EQ(M90.rawGPR(InstrClass::CoupledALU, InstrClass::CoupledALU,
                       ReadSlot::Normal),
            4u);
  EXPECT_EQ(M90.rawPred(InstrClass::CoupledALU, InstrClass::CoupledFMA,
                        PredRead::Guard),
            13u);
  EXPECT_EQ(&LatencyModel::get(sass::Target::SM90), &M90);
  EXPECT_EQ(M90.target(), sass::Target::SM90);
}

/// Every RAW/WAW/WAR number of \p A and \p B, pair by pair: the number of
/// pairs where they differ.
unsigned countDifferences(const LatencyModel &A, const LatencyModel &B) {
  static const InstrClass All[] = {
      InstrClass::CoupledALU,   InstrClass::CoupledFMA,  InstrClass::IMADWide,
      InstrClass::FP16,         InstrClass::FP16MMA,     InstrClass::MMA16816,    InstrClass::MMA1688,
      InstrClass::UniformALU,   InstrClass::UniformMove, InstrClass::Decoupled,
      InstrClass::DecoupledAgu, InstrClass::Control,     InstrClass::Nop};
  unsigned N = 0;
  for (InstrClass W : All)
    for (InstrClass R : All) {
      for (ReadSlot S : {ReadSlot::Normal, ReadSlot::IMADWideAB,
                         ReadSlot::IMADWideC, ReadSlot::IMADWideCHigh})
        for (bool Low : {false, true})
          N += A.rawGPR(W, R, S, Low) != B.rawGPR(W, R, S, Low);
      for (PredRead H : {PredRead::Operand, PredRead::Guard})
        N += (A.rawPred(W, R, H) != B.rawPred(W, R, H)) +
             (A.rawUPred(W, R, H) != B.rawUPred(W, R, H));
      for (bool P : {false, true})
        N += (A.wawGPR(W, R, P) != B.wawGPR(W, R, P)) +
             (A.wawPred(W, R, P) != B.wawPred(W, R, P));
      N += (A.rawUGPR(W, R) != B.rawUGPR(W, R)) +
           (A.wawUGPR(W, R) != B.wawUGPR(W, R)) +
           (A.warGPR(W, R) != B.warGPR(W, R)) +
           (A.warUGPR(W, R) != B.warUGPR(W, R)) +
           (A.wawUPred(W, R) != B.wawUPred(W, R));
    }
  return N;
}

TEST(LatencyModel, SM80AndSM89AsTheEvidenceSays) {
  // E (test/Sim/latency-evidence.test, sm_80 and sm_89 reports): sm_89's
  // schedules are sm_86's pair for pair; sm_80's differ in one writer,
  // HFMA2.MMA (class FP16MMA), which ptxas spaces 10 cycles from an
  // IMAD.WIDE reading it (N HFMA2_MMA), where sm_86 has 5; the other FP16
  // ops are timed as on sm_86.
  EXPECT_EQ(M80.target(), sass::Target::SM80);
  EXPECT_EQ(M89.target(), sass::Target::SM89);
  EXPECT_EQ(&LatencyModel::get(sass::Target::SM80), &M80);
  EXPECT_EQ(countDifferences(M89, M86), 0u);
  EXPECT_EQ(M80.rawGPR(InstrClass::FP16MMA, InstrClass::IMADWide,
                       ReadSlot::IMADWideAB),
            10u);
  EXPECT_EQ(M86.rawGPR(InstrClass::FP16MMA, InstrClass::IMADWide,
                       ReadSlot::IMADWideAB),
            5u);
  EXPECT_EQ(M80.rawGPR(InstrClass::FP16MMA, InstrClass::DecoupledAgu,
                       ReadSlot::Normal),
            7u);
  // Only the HFMA2.MMA writer row differs: 10 columns x the reader
  // classes that map onto them.
  for (InstrClass W : {InstrClass::CoupledALU, InstrClass::CoupledFMA,
                       InstrClass::FP16,
                       InstrClass::IMADWide, InstrClass::MMA16816,
                       InstrClass::MMA1688, InstrClass::UniformALU})
    for (InstrClass R : {InstrClass::CoupledALU, InstrClass::CoupledFMA,
                         InstrClass::IMADWide, InstrClass::DecoupledAgu,
                         InstrClass::MMA16816})
      EXPECT_EQ(M80.rawGPR(W, R, ReadSlot::Normal),
                M86.rawGPR(W, R, ReadSlot::Normal));
  EXPECT_EQ(M80.rawUGPR(InstrClass::UniformALU, InstrClass::CoupledFMA), 6u);
  EXPECT_EQ(M80.rawUGPR(InstrClass::UniformMove, InstrClass::DecoupledAgu),
            2u);
  EXPECT_EQ(M80.worstGPR(InstrClass::CoupledALU),
            M86.worstGPR(InstrClass::CoupledALU));
}

TEST(LatencyModel, PtxasTightestSpacingsOfTheCorpus) {
  // E (test/Sim/latency-evidence-corpus.test): on every target VOTEU's
  // uniform register is read 2 cycles later (UFLO, FLO, POPC); HSETP2 ->
  // the HSETP2 combining its predicate 10 on sm_80/86/89, 12 on sm_90 and
  // Blackwell.
  for (sass::Target T : {sass::Target::SM80, sass::Target::SM86,
                         sass::Target::SM89, sass::Target::SM90,
                         sass::Target::SM100, sass::Target::SM120,
                         sass::Target::SM121}) {
    const LatencyModel &M = LatencyModel::get(T);
    for (InstrClass R : {InstrClass::UniformALU, InstrClass::Decoupled,
                         InstrClass::CoupledALU})
      EXPECT_EQ(M.rawUGPR(InstrClass::CoupledALU, R), 2u);
    unsigned SM = sass::getTargetInfo(T).SM;
    EXPECT_EQ(M.rawPred(InstrClass::FP16, InstrClass::FP16,
                        PredRead::Operand),
              SM < 90 ? 10u : 12u);
    EXPECT_EQ(M.rawPred(InstrClass::CoupledALU, InstrClass::FP16,
                        PredRead::Operand),
              13u);
  }
}

TEST(LatencyModel, EveryFormHasAKnownClassAndTheTdAgrees) {
  unsigned N = sass::getNumOpcodes();
  ASSERT_GT(N, 0u);
  for (unsigned Op = 0; Op < N; ++Op) {
    const sass::InstrInfo &Info = sass::getInstrInfo(sass::Opcode(Op));
    llvm::Expected<InstrClass> C = classOfForm(sass::Opcode(Op));
    ASSERT_TRUE(bool(C)) << llvm::toString(C.takeError());
    EXPECT_EQ(Info.Sched.Variable, isVariable(*C)) << Info.Name;
    // The td's one number per class is the model's cycles to an ALU reader
    // for the ALU classes, and the safe HMMA value for MMA16816.
    if (*C == InstrClass::MMA16816) {
      EXPECT_EQ(Info.Sched.Latency, M86.hmmaConsumerCycles()) << Info.Name;
    }
    if (*C == InstrClass::CoupledALU || *C == InstrClass::CoupledFMA) {
      EXPECT_EQ(Info.Sched.Latency,
                M86.rawGPR(*C, InstrClass::CoupledALU, ReadSlot::Normal))
          << Info.Name;
    }
  }
}

} // namespace
