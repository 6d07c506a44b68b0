//===- AsmPrinter.cpp - Instruction -> nvdisasm text -----------------------===//
///
/// \file
/// Interprets the form's generated template: literal text, `$x` operands
/// (x = 'a' + operand index) printed per OperandKind, and `<a+b+c>` memory
/// addresses printed as `[a+b+c]` without the components that hold their
/// default (a base of RZ, an offset of 0) -- `[RZ]` when all do.
///
/// Each instruction (and each control clause) is built in a fixed buffer
/// and reaches the stream in one write, literal runs of the template in
/// one copy each, numbers without a format object: the text is the same
/// as streaming it piece by piece, about 5x faster into the unbuffered
/// string streams the schedule classifier and the listings print to.
///
//===----------------------------------------------------------------------===//

#include "SASSTables.h"
#include "FloatFormat.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

using namespace llvm;

namespace tp {
namespace sass {
using namespace detail;

namespace {

/// The text of one instruction or control clause, built in a fixed buffer
/// and handed to the stream in one write: an instruction is a few dozen
/// characters, and a write per character (an unbuffered raw_string_ostream
/// goes to the string every time) cost more than the rest of printing.
class LineBuffer {
public:
  explicit LineBuffer(raw_ostream &OS) : OS(OS) {}
  ~LineBuffer() { flush(); }
  LineBuffer(const LineBuffer &) = delete;
  LineBuffer &operator=(const LineBuffer &) = delete;

  void put(char C) {
    if (Len == Capacity)
      flush();
    Buf[Len++] = C;
  }
  void put(const char *S, size_t N) {
    if (Len + N > Capacity) {
      flush();
      if (N > Capacity) {
        OS.write(S, N);
        return;
      }
    }
    std::memcpy(Buf + Len, S, N);
    Len += N;
  }
  void put(StringRef S) { put(S.data(), S.size()); }
  void put(const char *S) { put(S, std::strlen(S)); }

  /// \p V in decimal.
  void putDecimal(uint64_t V) {
    char T[20];
    unsigned N = 0;
    do {
      T[N++] = char('0' + V % 10);
      V /= 10;
    } while (V);
    while (N)
      put(T[--N]);
  }
  void putSigned(int64_t V) {
    if (V < 0) {
      put('-');
      putDecimal(uint64_t(0) - uint64_t(V));
    } else {
      putDecimal(uint64_t(V));
    }
  }
  /// \p V as lower-case hex digits, no prefix, at least one digit.
  void putHexDigits(uint64_t V) {
    char T[16];
    unsigned N = 0;
    do {
      T[N++] = "0123456789abcdef"[V & 15];
      V >>= 4;
    } while (V);
    while (N)
      put(T[--N]);
  }
  /// Text printed through a raw_ostream (the float spellings).
  template <typename Fn> void putFormatted(Fn Print) {
    SmallString<64> S;
    raw_svector_ostream SOS(S);
    Print(SOS);
    put(S.str());
  }

  void flush() {
    if (Len)
      OS.write(Buf, Len);
    Len = 0;
  }

private:
  static constexpr size_t Capacity = 256;
  raw_ostream &OS;
  char Buf[Capacity];
  size_t Len = 0;
};

} // namespace

static void printHex(LineBuffer &OS, int64_t V, bool Signed) {
  if (Signed && V < 0) {
    OS.put("-0x", 3);
    OS.putHexDigits(uint64_t(0) - uint64_t(V));
  } else {
    OS.put("0x", 2);
    OS.putHexDigits(uint64_t(V));
  }
}

static void printRegister(LineBuffer &OS, const char *Prefix, int64_t V,
                          int64_t Zero, const char *ZeroName) {
  if (V == Zero) {
    OS.put(ZeroName);
    return;
  }
  OS.put(Prefix);
  OS.putSigned(V);
}

static void printOperand(LineBuffer &OS, const Instruction &I, unsigned K,
                         uint64_t Addr, bool Next = false) {
  const OperandInfo &OI = InstrInfos[I.Op].Operands[K];
  int64_t V = I.Ops[K] + (Next ? 1 : 0);
  switch (OI.Kind) {
  case OperandKind::GPR:
  case OperandKind::MemBase:
    printRegister(OS, "R", V, 255, "RZ");
    if (OI.ReuseSlot >= 0 && ((I.Ctrl.Reuse >> OI.ReuseSlot) & 1))
      OS.put(".reuse", 6);
    return;
  case OperandKind::UGPR:
  case OperandKind::MemUR:
  case OperandKind::MemDesc:
    printRegister(OS, "UR", V, 63, "URZ");
    return;
  case OperandKind::Pred:
    printRegister(OS, "P", V, 7, "PT");
    return;
  case OperandKind::UPred:
    printRegister(OS, "UP", V, 7, "UPT");
    return;
  case OperandKind::Imm:
  case OperandKind::CBankIndex:
  case OperandKind::CBankOffset:
  case OperandKind::MemOffset:
    printHex(OS, V, OI.Signed);
    return;
  case OperandKind::FImm:
    OS.putFormatted([&](raw_ostream &S) { printFloat32(S, uint32_t(V)); });
    return;
  case OperandKind::HImm:
    // High half first (`HFMA2.MMA R40, -RZ, RZ, 0.662109375, -0.0116...`
    // holds 0x394ca1f9).
    OS.putFormatted([&](raw_ostream &S) {
      printHalf(S, uint16_t(V >> 16));
      S << ", ";
      printHalf(S, uint16_t(V));
    });
    return;
  case OperandKind::DImmHi: {
    // nvdisasm shows the f64 whose high word this is.
    uint64_t Bits = uint64_t(uint32_t(V)) << 32;
    double D;
    std::memcpy(&D, &Bits, 8);
    OS.putFormatted([&](raw_ostream &S) { printFloat64(S, D); });
    return;
  }
  case OperandKind::BImm:
    // bf16 halves are the top 16 bits of an f32.
    OS.putFormatted([&](raw_ostream &S) {
      printFloat32(S, uint32_t(V) & 0xffff0000u);
      S << ", ";
      printFloat32(S, uint32_t(V) << 16);
    });
    return;
  case OperandKind::SReg:
  case OperandKind::Modifier: {
    const char *N = modifierName(OI, V);
    OS.put(N ? N : "?");
    return;
  }
  case OperandKind::BranchTarget:
    OS.put("0x", 2);
    OS.putHexDigits(getBranchTarget(Addr, V));
    return;
  case OperandKind::SBIndex:
    OS.put("SB", 2);
    OS.putSigned(V);
    return;
  case OperandKind::SBMask: {
    OS.put('{');
    bool First = true;
    for (int B = 5; B >= 0; --B)
      if ((V >> B) & 1) {
        if (!First)
          OS.put(',');
        OS.put(char('0' + B));
        First = false;
      }
    OS.put('}');
    return;
  }
  }
}

/// Prints template text [B, E) with no address groups inside.
static void printRange(LineBuffer &OS, const Instruction &I, const char *B,
                       const char *E, uint64_t Addr) {
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
        printOperand(OS, Tmp, K, Addr);
        printOperand(OS, I, unsigned(P[3] - 'a'), Addr);
        OS.put(".reuse", 6);
        Printed |= 1u << K;
        P += 3;
        continue;
      }
      printOperand(OS, I, K, Addr, *P == '^');
      Printed |= 1u << K;
      ++P;
    } else {
      // A run of literal text in one copy.
      const char *L = P;
      while (P + 1 < E && P[1] != '$' && P[1] != '^')
        ++P;
      OS.put(L, size_t(P + 1 - L));
    }
  }
}

/// The value an optional address component holds when left out.
int64_t defaultValue(const OperandInfo &OI) {
  switch (OI.Kind) {
  case OperandKind::GPR:
  case OperandKind::MemBase:
    return 255;
  case OperandKind::UGPR:
  case OperandKind::MemUR:
  case OperandKind::MemDesc:
    return 63;
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

/// Prints the address group `<a+b+c>` starting at \p T; returns the
/// template position after it.
static const char *printAddressGroup(LineBuffer &OS, const Instruction &I,
                                     const char *T, uint64_t Addr) {
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
  OS.put('[');
  bool Any = false;
  for (unsigned C = 0; C < N; ++C) {
    if (componentIsDefault(I, Comp[C][0], Comp[C][1]))
      continue;
    if (Any)
      OS.put('+');
    printRange(OS, I, Comp[C][0], Comp[C][1], Addr);
    Any = true;
  }
  if (!Any && N)
    printRange(OS, I, Comp[0][0], Comp[0][1], Addr);
  OS.put(']');
  return *GE ? GE + 1 : GE;
}

void print(const Instruction &I, uint64_t Addr, raw_ostream &Stream) {
  LineBuffer OS(Stream);
  if (I.Guard != 7 || I.GuardNeg) {
    OS.put('@');
    if (I.GuardNeg)
      OS.put('!');
    if (InstrInfos[I.Op].UniformGuard)
      OS.put('U');
    if (I.Guard == 7) {
      OS.put("PT", 2);
    } else {
      OS.put('P');
      OS.putDecimal(unsigned(I.Guard));
    }
    OS.put(' ');
  }
  const char *T = Templates[I.Op];
  while (*T) {
    if (*T == '<') {
      T = printAddressGroup(OS, I, T, Addr);
      continue;
    }
    const char *E = T;
    while (*E && *E != '<')
      E += (*E == '$' || *E == '^') ? 2 : 1;
    printRange(OS, I, T, E, Addr);
    T = E;
  }
}

void printControl(const Control &C, raw_ostream &Stream) {
  LineBuffer OS(Stream);
  OS.put('{');
  bool First = true;
  auto Sep = [&]() {
    if (!First)
      OS.put(' ');
    First = false;
  };
  if (C.Stall) {
    Sep();
    OS.put("stall=", 6);
    OS.putDecimal(unsigned(C.Stall));
  }
  if (C.Yield) {
    Sep();
    OS.put("yield", 5);
  }
  if (C.WrSB != 7) {
    Sep();
    OS.put("wr=", 3);
    OS.putDecimal(unsigned(C.WrSB));
  }
  if (C.RdSB != 7) {
    Sep();
    OS.put("rd=", 3);
    OS.putDecimal(unsigned(C.RdSB));
  }
  if (C.WaitMask) {
    Sep();
    OS.put("wait=", 5);
    bool F = true;
    for (unsigned B = 0; B < 6; ++B)
      if ((C.WaitMask >> B) & 1) {
        if (!F)
          OS.put(',');
        OS.put(char('0' + B));
        F = false;
      }
  }
  if (C.Reuse) {
    Sep();
    OS.put("reuse=", 6);
    bool F = true;
    for (unsigned B = 0; B < 4; ++B)
      if ((C.Reuse >> B) & 1) {
        if (!F)
          OS.put(',');
        OS.put(char('a' + B));
        F = false;
      }
  }
  OS.put('}');
}

} // namespace sass
} // namespace tp
