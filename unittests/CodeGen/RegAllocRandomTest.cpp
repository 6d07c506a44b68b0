//===- RegAllocRandomTest.cpp - tp-regalloc against a plain reference ------===//
///
/// \file
/// tp-regalloc's decisions (every register, regs(), counter(), and the
/// conservative waits it adds) on random functions of tp-select's pieces,
/// against a reference written from the pass's contract with sets and
/// maps and no shortcuts: widths from mir::getRegAccesses, liveness per
/// register of a tuple by a backward walk of every instruction to a fixed
/// point, interference as a set of pairs, first fit by trying every
/// aligned register, and the waits by scanning every register.  The
/// functions mix scalars, pairs and 4-tuples written by halves, guarded
/// writes, physical registers, values live into the body and around the
/// back edge, variable-latency writes and late reads on scoreboards, a
/// counter, and pre-assignments; some need more registers than max-regs
/// allows or pre-assign badly (both must then fail with the same message).
///
//===----------------------------------------------------------------------===//

#include "tp/CodeGen/CodeGen.h"
#include "tp/MIR/MIR.h"
#include "tp/Pass/Pass.h"
#include "tp/Support/Diagnostics.h"
#include "tp/Target/SASS/SASS.h"

#include "llvm/Support/MathExtras.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

namespace tp {
std::unique_ptr<Pass> createRegAllocPass(); // Passes.def's factory
} // namespace tp

using namespace tp;
using namespace llvm;

namespace {

std::string randomFunction(std::mt19937 &G) {
  auto Pick = [&](unsigned N) { return unsigned(G() % N); };
  unsigned NS = 2 + Pick(8), NP = 1 + Pick(3), NQ = 1 + Pick(4);
  auto S = [&] { return "%s" + std::to_string(Pick(NS)); };
  auto P = [&] { return "%p" + std::to_string(Pick(NP)); };
  auto Q = [&] { return "%q" + std::to_string(Pick(NQ)); };
  auto Instr = [&]() -> std::string {
    std::string Guard = Pick(8) == 0 ? "@P0 " : "";
    switch (Pick(13)) {
    case 0:
      return "S2R " + S() + ", SR_TID.X ; {stall=15 yield wr=5}";
    case 1:
      return Guard + "IADD3 " + S() + ", " + S() + ", 0x1, RZ ; {stall=15 yield}";
    case 2:
      return Guard + "IADD3 " + S() + ", " + S() + ", " + S() +
             ", RZ ; {stall=15 yield}";
    case 3:
      return Guard + "IMAD.WIDE.U32 " + P() + ", " + S() + ", " + S() +
             ", c[0x0][0x160] ; {stall=15 yield}";
    case 4:
      return Guard + "CS2R " + P() + ", SRZ ; {stall=15 yield}";
    case 5:
      return "CS2R " + Q() + (Pick(2) ? ":2" : "") + ", SRZ ; {stall=15 yield}";
    case 6:
      return "LDSM.16.M88.4 " + Q() + ", [" + S() + "] ; {stall=15 yield wr=" +
             std::to_string(1 + Pick(2)) + "}";
    case 7:
      return "HMMA.16816.F32 " + Q() + ", " + Q() + ", " + Q() +
             (Pick(2) ? ":2" : "") + ", " + Q() + " ; {stall=15 yield}";
    case 8:
      return "STS [" + S() + "], " + S() + " ; {stall=15 yield rd=" +
             std::to_string(2 + Pick(3)) + "}";
    case 9:
      return "STG.E.64 desc[UR4][" + P() + ".64], " + Q() +
             (Pick(2) ? ":2" : "") + " ; {stall=15 yield}";
    case 10:
      return Guard + "IADD3 R" + std::to_string(Pick(12)) + ", " + S() +
             ", 0x1, RZ ; {stall=15 yield}";
    case 11:
      return "LDG.E " + S() + ", desc[UR4][" + P() + ".64] ; {stall=15 yield wr=" +
             std::to_string(Pick(6)) + (Pick(2) ? "" : " rd=7") + "}";
    default:
      return Guard + "MOV " + S() + ", 0x3 ; {stall=15 yield}";
    }
  };
  std::string Counter = Pick(2) ? " counter(%s0)" : "";
  // Pre-assignments, aligned or not, some of them conflicting (a name no
  // operand uses is ignored).
  std::string Pre;
  for (unsigned I = 0, N = Pick(3) ? 0 : 1 + Pick(5); I < N; ++I) {
    std::string R = std::to_string(4 * Pick(3) + (Pick(4) ? 0 : Pick(4)));
    Pre += (I ? " " : "") +
           (Pick(2) ? S() : Pick(2) ? P() : Q()) + "=R" + R;
  }
  if (!Pre.empty())
    Pre = " preassign(" + Pre + ")";
  std::string T = "sass.func @k target(\"sm_86\") regs(0) smem(0) "
                  "iterations(2)" +
                  Counter + Pre + " {\n";
  const char *Pieces[] = {"prologue", "body", "tail"};
  for (const char *Name : Pieces) {
    T += std::string("piece ") + Name + "\n";
    unsigned N = Pick(14);
    if (Counter.size() && std::string(Name) == "prologue")
      T += "  MOV %s0, 0x3 ; {stall=15 yield}\n";
    for (unsigned I = 0; I < N; ++I)
      T += "  " + Instr() + "\n";
    if (std::string(Name) == "tail")
      T += "  EXIT ; {stall=15 yield}\n";
  }
  return T + "}\n";
}

/// A GPR operand: its instruction, virtual register (or -1), register or
/// first register of the tuple, width, def.
struct Access {
  int V; // -1: physical
  unsigned Reg, Width, OpIdx;
  bool IsDef;
};

std::vector<Access> accesses(const sass::Instruction &I) {
  std::vector<Access> A;
  for (const mir::RegAccess &R : mir::getRegAccesses(I)) {
    if (R.Kind != sass::OperandKind::GPR)
      continue;
    int64_t Op = I.Ops[R.OpIdx];
    if (mir::isVirtualReg(Op))
      A.push_back({int(mir::virtualRegId(Op)), mir::virtualRegSub(Op),
                   R.Width, R.OpIdx, R.IsDef});
    else
      A.push_back({-1, unsigned(Op), R.Width, R.OpIdx, R.IsDef});
  }
  return A;
}

using Unit = std::pair<int, unsigned>; // (virtual register, register k)

/// The reference: the error's message (after "tp-regalloc: "), or empty.
std::string referenceAllocate(mir::Function &F, unsigned MaxRegs) {
  size_t NP = F.Pieces.size();
  std::map<int, unsigned> Width;
  std::vector<int> Order;
  std::set<unsigned> Reserved;
  for (mir::Piece &P : F.Pieces)
    for (mir::MInstr &MI : P.Instrs)
      for (const Access &A : accesses(MI.I)) {
        if (A.V < 0) {
          for (unsigned R = A.Reg; R < A.Reg + A.Width && R < 255; ++R)
            Reserved.insert(R);
          continue;
        }
        if (!Width.count(A.V))
          Order.push_back(A.V);
        Width[A.V] = std::max(Width[A.V], A.Reg + A.Width);
      }
  for (auto &E : Width)
    E.second = unsigned(PowerOf2Ceil(E.second));
  int Counter = -1;
  if (Optional<StringRef> C = F.getAttr("counter"))
    for (unsigned V = 0; V < F.VRegNames.size(); ++V)
      if ("%" + F.VRegNames[V] == *C)
        Counter = int(V);
  auto Units = [&](const Access &A) {
    std::set<Unit> U;
    for (unsigned K = A.Reg; K < A.Reg + A.Width; ++K)
      U.insert({A.V, K});
    return U;
  };
  // Liveness: prologue -> body -> tail, body -> body.
  std::vector<std::set<Unit>> In(NP), Out(NP);
  std::set<std::pair<int, int>> Edges;
  auto Walk = [&](size_t P, bool Record) {
    std::set<Unit> Live = Out[P];
    if (F.Pieces[P].Name == "body" && Counter >= 0)
      for (unsigned K = 0; K < Width[Counter]; ++K)
        Live.insert({Counter, K});
    for (size_t I = F.Pieces[P].Instrs.size(); I-- > 0;) {
      const mir::MInstr &MI = F.Pieces[P].Instrs[I];
      std::vector<Access> As = accesses(MI.I);
      for (const Access &D : As)
        if (D.V >= 0 && D.IsDef && Record) {
          for (const Unit &U : Live)
            Edges.insert({D.V, U.first});
          for (const Access &O : As)
            if (O.V >= 0)
              Edges.insert({D.V, O.V});
        }
      if (MI.I.Guard == 7 && !MI.I.GuardNeg)
        for (const Access &D : As)
          if (D.V >= 0 && D.IsDef)
            for (const Unit &U : Units(D))
              Live.erase(U);
      for (const Access &R : As)
        if (R.V >= 0 && !R.IsDef)
          for (const Unit &U : Units(R))
            Live.insert(U);
    }
    if (P == 0 && Record)
      for (const Unit &A : Live)
        for (const Unit &B : Live)
          Edges.insert({A.first, B.first});
    return Live;
  };
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (size_t P = NP; P-- > 0;) {
      std::set<Unit> O;
      if (P + 1 < NP)
        O.insert(In[P + 1].begin(), In[P + 1].end());
      if (F.Pieces[P].Name == "body")
        O.insert(In[P].begin(), In[P].end());
      Out[P] = O;
      std::set<Unit> I = Walk(P, false);
      if (I != In[P]) {
        In[P] = I;
        Changed = true;
      }
    }
  }
  for (size_t P = 0; P < NP; ++P)
    Walk(P, true);
  auto Name = [&](int V) { return "%" + F.VRegNames[V]; };
  auto Interfere = [&](int A, int B) {
    return A != B && (Edges.count({A, B}) || Edges.count({B, A}));
  };
  std::map<int, int> Assigned;
  // preassign(%x=Rn ...): the last item for a name wins.
  std::map<std::string, unsigned> Plan;
  if (Optional<StringRef> A = F.getAttr("preassign")) {
    SmallVector<StringRef, 4> Items;
    A->split(Items, ' ', -1, false);
    for (StringRef It : Items) {
      unsigned R = 0;
      It.split('=').second.drop_front().getAsInteger(10, R);
      Plan[It.split('=').first.str()] = R;
    }
  }
  for (int V : Order) {
    auto It = Plan.find(Name(V));
    if (It == Plan.end())
      continue;
    unsigned R = It->second, W = Width[V];
    std::string Pre = "pre-assignment of " + Name(V) + " to R" +
                      std::to_string(R);
    if (R % W)
      return Pre + " is not aligned: a tuple of " + std::to_string(W) +
             " registers starts at a multiple of " + std::to_string(W);
    if (R + W > MaxRegs)
      return Pre + " is outside R0..R" + std::to_string(MaxRegs - 1);
    for (auto &E : Assigned) // in increasing id order
      if (Interfere(V, E.first) && unsigned(E.second) < R + W &&
          R < E.second + Width[E.first])
        return Pre + " conflicts with " + Name(E.first) + " in R" +
               std::to_string(E.second) + ", live at the same time";
    Assigned[V] = int(R);
  }
  for (int V : Order) {
    if (Assigned.count(V))
      continue;
    unsigned W = Width[V];
    int Found = -1;
    for (unsigned R = 0; R + W <= MaxRegs && Found < 0; R += W) {
      bool Free = true;
      for (unsigned X = R; X < R + W; ++X)
        Free &= !Reserved.count(X);
      for (auto &E : Assigned)
        if (Interfere(V, E.first) && unsigned(E.second) < R + W &&
            R < E.second + Width[E.first])
          Free = false;
      if (Free)
        Found = int(R);
    }
    if (Found < 0) {
      unsigned LiveWith = 0;
      for (auto &E : Width)
        if (Interfere(V, E.first))
          LiveWith += E.second;
      return Name(V) + " (" + std::to_string(W) + " register" +
             (W > 1 ? "s" : "") + ") does not fit in R0..R" +
             std::to_string(MaxRegs - 1) + ": " + std::to_string(LiveWith) +
             " registers of other values are live with it";
    }
    Assigned[V] = Found;
  }
  unsigned High = 0;
  for (mir::Piece &P : F.Pieces)
    for (mir::MInstr &MI : P.Instrs)
      for (const Access &A : accesses(MI.I)) {
        unsigned Phys = A.V >= 0 ? Assigned[A.V] + A.Reg : A.Reg;
        if (A.V >= 0)
          MI.I.Ops[A.OpIdx] = Phys;
        High = std::max(High, Phys + A.Width);
      }
  if (Counter >= 0)
    F.setAttr("counter", std::to_string(Assigned[Counter]));
  F.Regs = High;
  return "";
}

/// The reference waits on physical registers: per register the
/// scoreboards of pending variable-latency writes and of late reads.
struct Guards {
  uint8_t Write[263] = {}, Read[263] = {};
  uint8_t pending() const {
    uint8_t M = 0;
    for (unsigned R = 0; R < 263; ++R)
      M |= Write[R] | Read[R];
    return M;
  }
};

void referenceWaits(mir::Function &F) {
  auto Step = [](mir::MInstr &MI, Guards &G) {
    sass::Control &C = MI.I.Ctrl;
    std::vector<Access> As = accesses(MI.I);
    uint8_t Wait = C.WaitMask;
    for (const Access &A : As)
      for (unsigned R = A.Reg; R < A.Reg + A.Width && R < 263; ++R)
        Wait |= (G.Write[R] | (A.IsDef ? G.Read[R] : 0)) & 0x3e;
    if (sass::getInstrInfo(MI.I.Op).IsExit)
      Wait = 0x3f;
    for (unsigned R = 0; R < 263; ++R) {
      G.Write[R] &= ~Wait;
      G.Read[R] &= ~Wait;
    }
    C.WaitMask = Wait;
    unsigned WrSB = C.WrSB >= 1 && C.WrSB <= 5 ? C.WrSB : 0;
    unsigned RdSB = C.RdSB >= 1 && C.RdSB <= 5 ? C.RdSB
                    : C.RdSB >= 6              ? WrSB
                                               : 0;
    for (const Access &A : As) {
      unsigned SB = A.IsDef ? WrSB : RdSB;
      if (SB)
        for (unsigned R = A.Reg; R < A.Reg + A.Width && R < 263; ++R)
          (A.IsDef ? G.Write : G.Read)[R] |= uint8_t(1u << SB);
    }
  };
  auto Merge = [](Guards &A, const Guards &B) {
    for (unsigned R = 0; R < 263; ++R) {
      A.Write[R] |= B.Write[R];
      A.Read[R] |= B.Read[R];
    }
  };
  Guards St;
  for (mir::Piece &P : F.Pieces) {
    if (P.Name == "body" && !P.Instrs.empty()) {
      Guards Entry = St, First = St;
      for (mir::MInstr &MI : P.Instrs)
        Step(MI, First);
      P.Instrs.front().I.Ctrl.WaitMask |= St.pending() | First.pending();
      Merge(St, First);
      for (mir::MInstr &MI : P.Instrs)
        Step(MI, St);
      Merge(St, Entry);
      continue;
    }
    for (mir::MInstr &MI : P.Instrs)
      Step(MI, St);
  }
}

std::string print(const mir::Module &M) {
  std::string S;
  raw_string_ostream OS(S);
  mir::printModule(M, OS);
  return OS.str();
}

/// Runs tp-regalloc and the reference on \p Text: the reference's error
/// message (then the pass's must hold it), or empty (then both outputs
/// must be equal).
std::string compareWithReference(const std::string &Text, unsigned MaxRegs) {
  SourceMgr SM;
  unsigned Buf =
      SM.AddNewSourceBuffer(MemoryBuffer::getMemBufferCopy(Text), SMLoc());
  Expected<mir::Module> M = mir::parseModule(SM, Buf);
  if (!M) {
    ADD_FAILURE() << toString(M.takeError()) << "\n" << Text;
    return "";
  }
  mir::Module Ref = *M;
  std::string RefMsg = referenceAllocate(Ref.Functions[0], MaxRegs);
  if (RefMsg.empty())
    referenceWaits(Ref.Functions[0]);

  std::unique_ptr<IRUnit> IR = std::make_unique<mir::MachineUnit>(*M);
  std::unique_ptr<Pass> RA = createRegAllocPass();
  EXPECT_FALSE(bool(RA->setOption("max-regs", std::to_string(MaxRegs))));
  PassContext Ctx{SM};
  Error E = RA->run(IR, Ctx);
  std::string Msg = E ? toString(std::move(E)) : "";
  if (!RefMsg.empty())
    // At the function, or (running out) at the register's first operand.
    EXPECT_NE(Msg.find("error: tp-regalloc: " + RefMsg), std::string::npos)
        << Msg << "\n" << Text;
  else if (Msg.empty())
    EXPECT_EQ(print(static_cast<mir::MachineUnit &>(*IR).M), print(Ref))
        << Text;
  else
    ADD_FAILURE() << Msg << "\n" << Text;
  return RefMsg;
}

TEST(RegAllocRandom, MatchesTheReference) {
  std::mt19937 G(20261201);
  unsigned Compared = 0, NoRoom = 0, Bad = 0;
  for (unsigned Case = 0; Case < 1000; ++Case) {
    unsigned MaxRegs = Case % 4 == 3 ? 8 + unsigned(G() % 16) : 255;
    std::string Msg = compareWithReference(randomFunction(G), MaxRegs);
    ++(Msg.empty()                                 ? Compared
       : Msg.find("does not fit") != std::string::npos ? NoRoom
                                                       : Bad);
  }
  // The generator reaches every outcome.
  EXPECT_GT(Compared, 600u);
  EXPECT_GT(NoRoom, 20u);
  EXPECT_GT(Bad, 20u);
}

// Instructions of five register operands each (sparse HMMA: D, A, B, C and
// the metadata), more than the operand table's first room (four an
// instruction): it grows, the operands written so far kept.
TEST(RegAllocRandom, ManyOperandsAnInstruction) {
  std::mt19937 G(7);
  for (unsigned Case = 0; Case < 20; ++Case) {
    std::string T = "sass.func @k target(\"sm_86\") regs(0) smem(0) {\n"
                    "piece prologue\n";
    auto R = [&](const char *Kind) {
      return "%" + std::string(Kind) + std::to_string(G() % 3);
    };
    for (unsigned I = 0, N = 30 + G() % 40; I < N; ++I)
      T += "  HMMA.SP.16832.F16 " + R("d") + ", " + R("a") + ", " + R("b") +
           ", " + R("c") + ", " + R("e") + ", 0x0 ; {stall=15 yield}\n";
    T += "  EXIT ; {stall=15 yield}\n}\n";
    EXPECT_EQ(compareWithReference(T, 255), "");
  }
}

// tp-regalloc keeps an operand's units (its registers of the tuple, from a
// sub-register index below 4) in 16 bits, and stops on a form whose general
// register operand is wider than 13 registers: none is.
TEST(RegAllocRandom, OperandUnitsFitSixteenBits) {
  for (unsigned Op = 0; Op < sass::getNumOpcodes(); ++Op) {
    const sass::InstrInfo &II = sass::getInstrInfo(sass::Opcode(Op));
    for (unsigned K = 0; K < II.NumOperands; ++K) {
      const sass::OperandInfo &O = II.Operands[K];
      if (O.Kind == sass::OperandKind::GPR ||
          O.Kind == sass::OperandKind::MemBase) {
        EXPECT_LE(O.Width + 3u, 16u) << II.Name << " operand " << K;
      }
    }
  }
}

} // namespace
