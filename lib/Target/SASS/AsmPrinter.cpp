//===- AsmPrinter.cpp - Instruction -> nvdisasm text
//-----------------------===//
///
/// \file
/// Interprets the form's generated template: literal text, `$x` operands
/// (x = 'a' + operand index) printed per OperandKind, and `<a+b+c>` memory
/// addresses printed as `[a+b+c]` without the components that hold their
/// default (a base of RZ, an offset of 0) -- `[RZ]` when all do.
///
//===----------------------------------------------------------------------===//

#include "FloatFormat.h"
#include "SASSTables.h"
#include "llvm/Support/Format.h"

using namespace llvm;

namespace tp {
namespace sass {
using namespace detail;

static void printHex(raw_ostream &OS, int64_t V, bool Signed) {
  if (Signed && V < 0)
    OS << "-0x" << format_hex_no_prefix(uint64_t(-V), 1);
  else
    OS << "0x" << format_hex_no_prefix(uint64_t(V), 1);
}

namespace {
/// Where an instruction is printed: its address and the labels of the
/// code around it (null: none).
struct PrintContext {
  uint64_t Addr;
  const LabelMap *Labels;
};
} // namespace

static void printOperand(raw_ostream &OS, const Instruction &I, unsigned K,
                         const PrintContext &PC, bool Next = false) {
  const OperandInfo &OI = InstrInfos[I.Op].Operands[K];
  int64_t V = I.Ops[K] + (Next ? 1 : 0);
  switch (OI.Kind) {
  case OperandKind::GPR:
  case OperandKind::MemBase:
    if (V == RZ)
      OS << "RZ";
    else
      OS << 'R' << V;
    if (OI.ReuseSlot >= 0 && ((I.Ctrl.Reuse >> OI.ReuseSlot) & 1))
      OS << ".reuse";
    return;
  case OperandKind::UGPR:
  case OperandKind::MemUR:
  case OperandKind::MemDesc:
    if (V == URZ)
      OS << "URZ";
    else
      OS << "UR" << V;
    return;
  case OperandKind::Pred:
    if (V == PT)
      OS << "PT";
    else
      OS << 'P' << V;
    return;
  case OperandKind::UPred:
    if (V == PT)
      OS << "UPT";
    else
      OS << "UP" << V;
    return;
  case OperandKind::Imm:
  case OperandKind::CBankIndex:
  case OperandKind::CBankOffset:
  case OperandKind::MemOffset:
    printHex(OS, V, OI.Signed);
    return;
  case OperandKind::FImm:
    printFloat32(OS, uint32_t(V));
    return;
  case OperandKind::HImm:
    // High half first (`HFMA2.MMA R40, -RZ, RZ, 0.662109375, -0.0116...`
    // holds 0x394ca1f9).
    printHalf(OS, uint16_t(V >> 16));
    OS << ", ";
    printHalf(OS, uint16_t(V));
    return;
  case OperandKind::DImmHi: {
    // nvdisasm shows the f64 whose high word this is.
    uint64_t Bits = uint64_t(uint32_t(V)) << 32;
    double D;
    std::memcpy(&D, &Bits, 8);
    printFloat64(OS, D);
    return;
  }
  case OperandKind::BImm:
    // bf16 halves are the top 16 bits of an f32.
    printFloat32(OS, uint32_t(V) & 0xffff0000u);
    OS << ", ";
    printFloat32(OS, uint32_t(V) << 16);
    return;
  case OperandKind::SReg:
  case OperandKind::Modifier: {
    const char *N = modifierName(OI, V);
    OS << (N ? N : "?");
    return;
  }
  case OperandKind::BranchTarget: {
    uint64_t Target = getBranchTarget(PC.Addr, V);
    auto It = PC.Labels ? PC.Labels->find(Target) : LabelMap::const_iterator();
    if (PC.Labels && It != PC.Labels->end())
      OS << It->second;
    else
      OS << "0x" << format_hex_no_prefix(Target, 1);
    return;
  }
  case OperandKind::SBIndex:
    OS << "SB" << V;
    return;
  case OperandKind::SBMask: {
    OS << '{';
    bool First = true;
    for (int B = 5; B >= 0; --B)
      if ((V >> B) & 1) {
        OS << (First ? "" : ",") << B;
        First = false;
      }
    OS << '}';
    return;
  }
  }
}

/// Prints template text [B, E) with no address groups inside.
static void printRange(raw_ostream &OS, const Instruction &I, const char *B,
                       const char *E, const PrintContext &PC) {
  uint32_t Printed = 0;
  for (const char *P = B; P < E; ++P) {
    if (*P == '$' || *P == '^') {
      unsigned K = unsigned(P[1] - 'a');
      const OperandInfo &OI = InstrInfos[I.Op].Operands[K];
      // `|R6|.reuse`: the reuse suffix follows the closing abs bar, i.e. a
      // modifier printed a second time right after the register.
      if (OI.Kind == OperandKind::GPR && OI.ReuseSlot >= 0 &&
          ((I.Ctrl.Reuse >> OI.ReuseSlot) & 1) && P + 3 < E && P[2] == '$' &&
          ((Printed >> (P[3] - 'a')) & 1)) {
        Instruction Tmp = I;
        Tmp.Ctrl.Reuse &= ~(1 << OI.ReuseSlot);
        printOperand(OS, Tmp, K, PC);
        printOperand(OS, I, unsigned(P[3] - 'a'), PC);
        OS << ".reuse";
        Printed |= 1u << K;
        P += 3;
        continue;
      }
      printOperand(OS, I, K, PC, *P == '^');
      Printed |= 1u << K;
      ++P;
    } else {
      OS << *P;
    }
  }
}

/// The value an optional address component holds when left out.
int64_t defaultValue(const OperandInfo &OI) {
  switch (OI.Kind) {
  case OperandKind::GPR:
  case OperandKind::MemBase:
    return RZ;
  case OperandKind::UGPR:
  case OperandKind::MemUR:
  case OperandKind::MemDesc:
    return URZ;
  default:
    return 0;
  }
}

/// Whether an address component [B, E) holds its default and may be left
/// out: its first operand is Optional and holds its default.
static bool componentIsDefault(const Instruction &I, const char *B,
                               const char *E) {
  for (const char *P = B; P < E; ++P)
    if (*P == '$') {
      const OperandInfo &OI = InstrInfos[I.Op].Operands[P[1] - 'a'];
      int64_t V = I.Ops[P[1] - 'a'];
      return OI.Optional && V == defaultValue(OI);
    }
  return false;
}

Optional<uint64_t> getPCRelativeTarget(const Instruction &I, uint64_t Addr) {
  const InstrInfo &II = InstrInfos[I.Op];
  for (unsigned K = 0; K < II.NumOperands; ++K)
    if (II.Operands[K].Kind == OperandKind::BranchTarget)
      return getBranchTarget(Addr, I.Ops[K]);
  return None;
}

static void printWith(const Instruction &I, const PrintContext &PC,
                      raw_ostream &OS) {
  if (I.Guard != PT || I.GuardNeg) {
    OS << '@' << (I.GuardNeg ? "!" : "");
    if (InstrInfos[I.Op].UniformGuard)
      OS << 'U';
    if (I.Guard == PT)
      OS << "PT";
    else
      OS << 'P' << unsigned(I.Guard);
    OS << ' ';
  }
  const char *T = Templates[I.Op];
  while (*T) {
    if (*T != '<') {
      const char *E = T;
      while (*E && *E != '<')
        E += (*E == '$' || *E == '^') ? 2 : 1;
      printRange(OS, I, T, E, PC);
      T = E;
      continue;
    }
    // Address group.
    const char *GE = T + 1;
    while (*GE && *GE != '>')
      ++GE;
    const char *Comp[8][2];
    unsigned N = 0;
    const char *S = T + 1;
    for (const char *P = S;; ++P) {
      if (P == GE || *P == '+') {
        if (N < 8) {
          Comp[N][0] = S;
          Comp[N][1] = P;
          ++N;
        }
        S = P + 1;
        if (P == GE)
          break;
      } else if (*P == '$' || *P == '^') {
        ++P;
      }
    }
    OS << '[';
    bool Any = false;
    for (unsigned C = 0; C < N; ++C) {
      if (componentIsDefault(I, Comp[C][0], Comp[C][1]))
        continue;
      if (Any)
        OS << '+';
      printRange(OS, I, Comp[C][0], Comp[C][1], PC);
      Any = true;
    }
    if (!Any && N)
      printRange(OS, I, Comp[0][0], Comp[0][1], PC);
    OS << ']';
    T = *GE ? GE + 1 : GE;
  }
}

void print(const Instruction &I, uint64_t Addr, raw_ostream &OS) {
  printWith(I, {Addr, nullptr}, OS);
}

void print(const Instruction &I, uint64_t Addr, const LabelMap &Labels,
           raw_ostream &OS) {
  printWith(I, {Addr, &Labels}, OS);
}

void printControl(const Control &C, raw_ostream &OS) {
  OS << '{';
  bool First = true;
  auto Sep = [&]() {
    if (!First)
      OS << ' ';
    First = false;
  };
  if (C.Stall) {
    Sep();
    OS << "stall=" << unsigned(C.Stall);
  }
  if (C.Yield) {
    Sep();
    OS << "yield";
  }
  if (C.WrSB != NoScoreboard) {
    Sep();
    OS << "wr=" << unsigned(C.WrSB);
  }
  if (C.RdSB != NoScoreboard) {
    Sep();
    OS << "rd=" << unsigned(C.RdSB);
  }
  if (C.WaitMask) {
    Sep();
    OS << "wait=";
    bool F = true;
    for (unsigned B = 0; B < 6; ++B)
      if ((C.WaitMask >> B) & 1) {
        OS << (F ? "" : ",") << B;
        F = false;
      }
  }
  if (C.Reuse) {
    Sep();
    OS << "reuse=";
    bool F = true;
    for (unsigned B = 0; B < 4; ++B)
      if ((C.Reuse >> B) & 1) {
        OS << (F ? "" : ",") << char('a' + B);
        F = false;
      }
  }
  OS << '}';
}

} // namespace sass
} // namespace tp
