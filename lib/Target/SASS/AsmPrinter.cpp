//===- AsmPrinter.cpp - Instruction -> nvdisasm text -----------------------===//
///
/// \file
/// Interprets the form's generated template: literal text, `$x` operands
/// (x = 'a' + operand index) printed per OperandKind, and `<a+b+c>` memory
/// addresses printed as `[a+b+c]` without the components that hold their
/// default (a base of RZ, an offset of 0) -- `[RZ]` when all do.
///
/// Each template is compiled once (on its form's first print) into
/// tokens: literal runs, operands (with the abs-bar reuse partner found at
/// compile time) and address groups whose components know the operand that
/// lets them be left out; printing walks the tokens, never the text.  Each
/// instruction (and each control clause) is built in a fixed buffer and
/// reaches the stream in one write, numbers without a format object: the
/// text is the same as interpreting the template character by character.
///
//===----------------------------------------------------------------------===//

#include "FloatFormat.h"
#include "SASSTables.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/raw_ostream.h"

#include <atomic>
#include <cstring>
#include <memory>
#include <mutex>
#include <vector>

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
    // Template runs and names are a few characters: a loop, not a call.
    if (N <= 16) {
      for (size_t K = 0; K < N; ++K)
        Buf[Len + K] = S[K];
    } else {
      std::memcpy(Buf + Len, S, N);
    }
    Len += N;
  }
  void put(StringRef S) { put(S.data(), S.size()); }
  void put(const char *S) { put(S, std::strlen(S)); }

  /// Room for \p N more characters without a check per character (a
  /// bounded token: a register, a number); flushes when there is not.
  void reserve(size_t N) {
    if (Len + N > Capacity)
      flush();
  }
  /// After reserve(): appends without a check.
  void putRaw(char C) { Buf[Len++] = C; }
  void putRaw(const char *S, size_t N) {
    for (size_t K = 0; K < N; ++K)
      Buf[Len + K] = S[K];
    Len += N;
  }

  /// \p N characters at \p S, where 16 bytes from \p S may be read (the
  /// padded texts of compiled templates and spelling tables): one 16-byte
  /// copy for the short runs nearly all are.
  void putPadded(const char *S, size_t N) {
    if (N > 16) {
      put(S, N);
      return;
    }
    reserve(16);
    std::memcpy(Buf + Len, S, 16);
    Len += N;
  }

  /// \p V in decimal.
  void putDecimal(uint64_t V) {
    // Register numbers and small fields: a digit-pair table, no loop.
    static constexpr char Pairs[] =
        "00010203040506070809101112131415161718192021222324252627282930313233"
        "34353637383940414243444546474849505152535455565758596061626364656667"
        "6869707172737475767778798081828384858687888990919293949596979899";
    reserve(20);
    if (V < 10) {
      Buf[Len++] = char('0' + V);
      return;
    }
    if (V < 100) {
      Buf[Len] = Pairs[2 * V];
      Buf[Len + 1] = Pairs[2 * V + 1];
      Len += 2;
      return;
    }
    if (V < 1000) {
      Buf[Len] = char('0' + V / 100);
      Buf[Len + 1] = Pairs[2 * (V % 100)];
      Buf[Len + 2] = Pairs[2 * (V % 100) + 1];
      Len += 3;
      return;
    }
    char T[20];
    unsigned N = 0;
    do {
      T[N++] = char('0' + V % 10);
      V /= 10;
    } while (V);
    while (N)
      Buf[Len++] = T[--N];
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
    unsigned N = V ? (64 - unsigned(__builtin_clzll(V)) + 3) / 4 : 1;
    reserve(16);
    for (unsigned K = N; K--; V >>= 4)
      Buf[Len + K] = "0123456789abcdef"[V & 15];
    Len += N;
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

/// Where an instruction is printed: its address and the labels of the
/// code around it (null: none).
struct PrintContext {
  uint64_t Addr;
  const LabelMap *Labels;
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

template <size_t PrefixLen, size_t ZeroLen>
static void printRegister(LineBuffer &OS, const char (&Prefix)[PrefixLen],
                          int64_t V, int64_t Zero,
                          const char (&ZeroName)[ZeroLen]) {
  if (V == Zero) {
    OS.put(ZeroName, ZeroLen - 1);
    return;
  }
  OS.put(Prefix, PrefixLen - 1);
  OS.putSigned(V);
}

static void printOperand(LineBuffer &OS, const Instruction &I, unsigned K,
                         const PrintContext &PC, bool Next = false) {
  const OperandInfo &OI = InstrInfos[I.Op].Operands[K];
  int64_t V = I.Ops[K] + (Next ? 1 : 0);
  switch (OI.Kind) {
  case OperandKind::GPR:
  case OperandKind::MemBase:
    printRegister(OS, "R", V, RZ, "RZ");
    if (OI.ReuseSlot >= 0 && ((I.Ctrl.Reuse >> OI.ReuseSlot) & 1))
      OS.put(".reuse", 6);
    return;
  case OperandKind::UGPR:
  case OperandKind::MemUR:
  case OperandKind::MemDesc:
    if (V == UR63)
      OS.put("UR63", 4);
    else
      printRegister(OS, "UR", V, URZ, "URZ");
    return;
  case OperandKind::Pred:
    printRegister(OS, "P", V, PT, "PT");
    return;
  case OperandKind::UPred:
    printRegister(OS, "UP", V, PT, "UPT");
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
  case OperandKind::BranchTarget: {
    // A target with a label prints as the label (every PC-relative
    // operand, on every target), else as its address.
    uint64_t Target = getBranchTarget(PC.Addr, V);
    if (PC.Labels) {
      auto It = PC.Labels->find(Target);
      if (It != PC.Labels->end()) {
        OS.put(It->second);
        return;
      }
    }
    OS.put("0x", 2);
    OS.putHexDigits(Target);
    return;
  }
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

namespace {

/// The spellings of one modifier table's values 0..63 (nullptr: none),
/// with their lengths, in a padded copy (LineBuffer::putPadded): a
/// modifier prints without a search, a strlen or a loop.
struct FastModTable {
  std::string Pool;
  const char *Name[64] = {};
  uint8_t Len[64] = {};
};

/// One step of a compiled template (compileTemplate()).
struct Token {
  enum Kind : uint8_t {
    Literal, ///< template text [Off, Off + Len)
    Operand, ///< operand Index; Len = 1 for `^` (the register after it)
    Group,   ///< an address group: the next Len tokens, Index components
    Component ///< a group's component: the next Len tokens; Index = the
              ///< operand whose default lets it be left out, or NoOperand
  };
  /// How an Operand token prints, decided at compile time from its
  /// OperandKind: the common kinds without printOperand's lookups.
  enum PrintKind : uint8_t {
    PK_Other, ///< printOperand
    PK_GPR,   ///< R<n> / RZ, `.reuse` from ReuseSlot
    PK_UGPR,  ///< UR<n> / URZ
    PK_Pred,  ///< P<n> / PT
    PK_UPred, ///< UP<n> / UPT
    PK_Hex,   ///< 0x<hex>
    PK_SHex,  ///< 0x<hex> or -0x<hex>
    PK_Mod    ///< a spelling from Mods (values 0..63), else modifierName
  };
  static constexpr uint8_t NoOperand = 0xff;
  Kind K;
  uint8_t Index;
  /// Operand: the operand printed right after this one inside abs bars
  /// (`|$b$a|` with $a already printed: `|R6|.reuse`), or -1.
  int8_t Partner = -1;
  uint16_t Off = 0, Len = 0;
  /// Operand: the literal text printed before it ([PreOff, PreOff +
  /// PreLen)), merged into the token at compile time.
  uint16_t PreOff = 0, PreLen = 0;
  PrintKind PK = PK_Other;
  int8_t ReuseSlot = -1; ///< PK_GPR: the operand's reuse flag, or -1
  const FastModTable *Mods = nullptr; ///< PK_Mod
};

/// A form's template, parsed once: literal runs, operands and address
/// groups, so that printing never scans the template text.
/// Text is the template's text followed by 16 bytes of padding
/// (LineBuffer::putPadded); Literal offsets index it.
struct CompiledTemplate : std::vector<Token> {
  std::string Text;
};

/// Form \p Op's compiled template, or null before its first print.
/// Written only under TemplateMutex (compiledTemplate()).
std::mutex TemplateMutex;

/// The fast spellings of modifier table \p Table (built under
/// TemplateMutex, kept for the process's life).
const FastModTable *fastModTable(uint16_t Table) {
  static std::vector<std::unique_ptr<FastModTable>> Cache;
  if (Table >= Cache.size())
    Cache.resize(Table + 1);
  if (!Cache[Table]) {
    auto FM = std::make_unique<FastModTable>();
    const ModTableRef &R = ModTables[Table];
    // The first entry of a value wins, as in modifierName().
    size_t Off[64];
    for (unsigned I = R.Begin + R.Count; I-- > R.Begin;) {
      const ModEntry &E = ModEntries[I];
      size_t N = std::strlen(E.Name);
      if (E.Value >= 0 && E.Value < 64 && N < 256) {
        Off[E.Value] = FM->Pool.size();
        FM->Pool.append(E.Name, N);
        FM->Len[E.Value] = uint8_t(N);
        FM->Name[E.Value] = E.Name; // marks the value spelled
      }
    }
    FM->Pool.append(16, '\0');
    for (unsigned V = 0; V < 64; ++V)
      if (FM->Name[V])
        FM->Name[V] = FM->Pool.data() + Off[V];
    Cache[Table] = std::move(FM);
  }
  return Cache[Table].get();
}

/// Sets \p T's print kind from operand \p OI (under TemplateMutex).
void setPrintKind(Token &T, const OperandInfo &OI) {
  switch (OI.Kind) {
  case OperandKind::GPR:
  case OperandKind::MemBase:
    T.PK = Token::PK_GPR;
    T.ReuseSlot = OI.ReuseSlot;
    return;
  case OperandKind::UGPR:
  case OperandKind::MemUR:
  case OperandKind::MemDesc:
    T.PK = Token::PK_UGPR;
    return;
  case OperandKind::Pred:
    T.PK = Token::PK_Pred;
    return;
  case OperandKind::UPred:
    T.PK = Token::PK_UPred;
    return;
  case OperandKind::Imm:
  case OperandKind::CBankIndex:
  case OperandKind::CBankOffset:
  case OperandKind::MemOffset:
    T.PK = OI.Signed ? Token::PK_SHex : Token::PK_Hex;
    return;
  case OperandKind::SReg:
  case OperandKind::Modifier:
    T.PK = Token::PK_Mod;
    T.Mods = fastModTable(OI.ModTable);
    return;
  default:
    T.PK = Token::PK_Other;
    return;
  }
}

/// Compiles template text [B, E) with no address groups inside (one scope
/// of already-printed operands, as an abs-bar pair sees them).
void compileRange(CompiledTemplate &Out, const InstrInfo &Info,
                  const char *Tpl, const char *B, const char *E) {
  uint32_t Printed = 0;
  size_t RangeStart = Out.size();
  for (const char *P = B; P < E; ++P) {
    if (*P == '$' || *P == '^') {
      unsigned K = unsigned(P[1] - 'a');
      const OperandInfo &OI = Info.Operands[K];
      Token T{Token::Operand, uint8_t(K)};
      T.Len = *P == '^';
      setPrintKind(T, OI);
      // The literal right before it (in this range) prints with it.
      if (Out.size() > RangeStart && Out.back().K == Token::Literal) {
        T.PreOff = Out.back().Off;
        T.PreLen = Out.back().Len;
        Out.pop_back();
      }
      if (OI.Kind == OperandKind::GPR && OI.ReuseSlot >= 0 && P + 3 < E &&
          P[2] == '$' && ((Printed >> (P[3] - 'a')) & 1))
        T.Partner = int8_t(P[3] - 'a');
      Out.push_back(T);
      Printed |= 1u << K;
      ++P;
      continue;
    }
    const char *L = P;
    while (P + 1 < E && P[1] != '$' && P[1] != '^')
      ++P;
    Out.push_back(Token{Token::Literal, 0, -1, uint16_t(L - Tpl),
                        uint16_t(P + 1 - L)});
  }
}

/// Compiles the address group `<a+b+c>` at \p T; returns the template
/// position after it.
const char *compileGroup(CompiledTemplate &Out, const InstrInfo &Info,
                         const char *Tpl, const char *T) {
  const char *GE = T + 1;
  while (*GE && *GE != '>')
    ++GE;
  size_t GroupAt = Out.size();
  Out.push_back(Token{Token::Group, 0});
  unsigned N = 0;
  const char *S = T + 1;
  for (const char *P = S;; ++P) {
    if (P == GE || *P == '+') {
      if (N < 8) {
        // Left out when its first `$` operand is optional at its default.
        uint8_t Default = Token::NoOperand;
        for (const char *Q = S; Q < P; ++Q)
          if (*Q == '$') {
            Default = uint8_t(Q[1] - 'a');
            break;
          }
        size_t CompAt = Out.size();
        Out.push_back(Token{Token::Component, Default});
        compileRange(Out, Info, Tpl, S, P);
        Out[CompAt].Len = uint16_t(Out.size() - CompAt - 1);
        ++N;
      }
      S = P + 1;
      if (P == GE)
        break;
    } else if (*P == '$' || *P == '^') {
      ++P;
    }
  }
  Out[GroupAt].Index = uint8_t(N);
  Out[GroupAt].Len = uint16_t(Out.size() - GroupAt - 1);
  return *GE ? GE + 1 : GE;
}

CompiledTemplate compileTemplate(unsigned Op) {
  CompiledTemplate Out;
  const InstrInfo &Info = InstrInfos[Op];
  const char *Tpl = Templates[Op];
  Out.Text = Tpl;
  Out.Text.append(16, '\0');
  const char *T = Tpl;
  while (*T) {
    if (*T == '<') {
      T = compileGroup(Out, Info, Tpl, T);
      continue;
    }
    const char *E = T;
    while (*E && *E != '<')
      E += (*E == '$' || *E == '^') ? 2 : 1;
    compileRange(Out, Info, Tpl, T, E);
    T = E;
  }
  return Out;
}

/// Form \p Op's compiled template, built on its first print (once, also
/// with several threads printing; afterwards one load): a tool that prints
/// a few forms compiles only those.
const CompiledTemplate &compiledTemplate(unsigned Op) {
  static std::atomic<const CompiledTemplate *> Table[NUM_OPCODES];
  if (const CompiledTemplate *CT = Table[Op].load(std::memory_order_acquire))
    return *CT;
  std::lock_guard<std::mutex> G(TemplateMutex);
  const CompiledTemplate *CT = Table[Op].load(std::memory_order_relaxed);
  if (!CT) {
    CT = new CompiledTemplate(compileTemplate(Op));
    Table[Op].store(CT, std::memory_order_release);
  }
  return *CT;
}

/// A register operand: \p ZeroName for \p Zero, else \p Prefix and the
/// number (negative values as printOperand prints them).
inline void putRegister(LineBuffer &OS, const char *Prefix, unsigned PLen,
                        int64_t V, int64_t Zero, const char *ZeroName,
                        unsigned ZLen) {
  OS.reserve(8);
  if (V == Zero) {
    OS.putRaw(ZeroName, ZLen);
    return;
  }
  OS.putRaw(Prefix, PLen);
  OS.putSigned(V);
}

} // namespace

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

/// Prints tokens [B, E) of \p I's compiled template \p Tpl.
static void printTokens(LineBuffer &OS, const Instruction &I,
                        const Token *B, const Token *E, const char *Tpl,
                        const PrintContext &PC) {
  const OperandInfo *Ops = InstrInfos[I.Op].Operands;
  for (const Token *T = B; T < E; ++T) {
    switch (T->K) {
    case Token::Literal:
      OS.putPadded(Tpl + T->Off, T->Len);
      break;
    case Token::Operand: {
      const OperandInfo &OI = Ops[T->Index];
      if (T->PreLen)
        OS.putPadded(Tpl + T->PreOff, T->PreLen);
      // `|R6|.reuse`: the reuse suffix follows the closing abs bar, i.e. a
      // modifier printed a second time right after the register.
      if (T->Partner >= 0 && ((I.Ctrl.Reuse >> OI.ReuseSlot) & 1)) {
        Instruction Tmp = I;
        Tmp.Ctrl.Reuse &= ~(1 << OI.ReuseSlot);
        printOperand(OS, Tmp, T->Index, PC);
        printOperand(OS, I, unsigned(T->Partner), PC);
        OS.put(".reuse", 6);
        ++T; // the partner's own token
        break;
      }
      int64_t V = I.Ops[T->Index] + T->Len;
      switch (T->PK) {
      case Token::PK_GPR:
        putRegister(OS, "R", 1, V, RZ, "RZ", 2);
        if (T->ReuseSlot >= 0 && ((I.Ctrl.Reuse >> T->ReuseSlot) & 1))
          OS.put(".reuse", 6);
        break;
      case Token::PK_UGPR:
        if (V == UR63)
          OS.put("UR63", 4);
        else
          putRegister(OS, "UR", 2, V, URZ, "URZ", 3);
        break;
      case Token::PK_Pred:
        putRegister(OS, "P", 1, V, PT, "PT", 2);
        break;
      case Token::PK_UPred:
        putRegister(OS, "UP", 2, V, PT, "UPT", 3);
        break;
      case Token::PK_Hex:
      case Token::PK_SHex:
        printHex(OS, V, T->PK == Token::PK_SHex);
        break;
      case Token::PK_Mod:
        if (V >= 0 && V < 64 && T->Mods->Name[V]) {
          OS.putPadded(T->Mods->Name[V], T->Mods->Len[V]);
        } else {
          const char *N = modifierName(OI, V);
          OS.put(N ? N : "?");
        }
        break;
      case Token::PK_Other:
        printOperand(OS, I, T->Index, PC, T->Len != 0);
        break;
      }
      break;
    }
    case Token::Group: {
      const Token *GE = T + 1 + T->Len;
      const Token *First = T + 1;
      OS.put('[');
      bool Any = false;
      for (const Token *C = First; C < GE; C += 1 + C->Len) {
        if (C->Index != Token::NoOperand) {
          const OperandInfo &OI = Ops[C->Index];
          if (OI.Optional && I.Ops[C->Index] == defaultValue(OI))
            continue;
        }
        if (Any)
          OS.put('+');
        printTokens(OS, I, C + 1, C + 1 + C->Len, Tpl, PC);
        Any = true;
      }
      if (!Any && T->Index)
        printTokens(OS, I, First + 1, First + 1 + First->Len, Tpl, PC);
      OS.put(']');
      T = GE - 1;
      break;
    }
    case Token::Component:
      break; // only inside a group
    }
  }
}

Optional<uint64_t> getPCRelativeTarget(const Instruction &I, uint64_t Addr) {
  const InstrInfo &II = InstrInfos[I.Op];
  for (unsigned K = 0; K < II.NumOperands; ++K)
    if (II.Operands[K].Kind == OperandKind::BranchTarget)
      return getBranchTarget(Addr, I.Ops[K]);
  return None;
}

static void printWith(const Instruction &I, const PrintContext &PC,
                      raw_ostream &Stream) {
  LineBuffer OS(Stream);
  if (I.Guard != PT || I.GuardNeg) {
    OS.put('@');
    if (I.GuardNeg)
      OS.put('!');
    if (InstrInfos[I.Op].UniformGuard)
      OS.put('U');
    if (I.Guard == PT) {
      OS.put("PT", 2);
    } else {
      OS.put('P');
      OS.putDecimal(unsigned(I.Guard));
    }
    OS.put(' ');
  }
  const CompiledTemplate &CT = compiledTemplate(I.Op);
  printTokens(OS, I, CT.data(), CT.data() + CT.size(), CT.Text.data(), PC);
}

void print(const Instruction &I, uint64_t Addr, raw_ostream &OS) {
  printWith(I, {Addr, nullptr}, OS);
}

/// Appends \p Piece to the mnemonic \p Out (leading spaces dropped) up to
/// its first space; true when that space ended the mnemonic.
static bool appendUntilSpace(std::string &Out, StringRef Piece) {
  if (Out.empty())
    Piece = Piece.ltrim(' ');
  size_t Sp = Piece.find(' ');
  Out.append(Piece.data(), std::min(Sp, Piece.size()));
  return Sp != StringRef::npos;
}

std::string getMnemonic(const Instruction &I) {
  // The template's tokens up to the first space after the mnemonic's first
  // character: literal runs and modifiers, as print() writes them.
  std::string Out;
  const CompiledTemplate &CT = compiledTemplate(I.Op);
  const char *Tpl = CT.Text.data();
  const OperandInfo *Ops = InstrInfos[I.Op].Operands;
  for (const Token &T : CT) {
    if (T.K == Token::Literal) {
      if (appendUntilSpace(Out, StringRef(Tpl + T.Off, T.Len)))
        return Out;
      continue;
    }
    if (T.K == Token::Operand && T.PreLen &&
        appendUntilSpace(Out, StringRef(Tpl + T.PreOff, T.PreLen)))
      return Out;
    const OperandInfo &OI = Ops[T.Index];
    if (T.K != Token::Operand || T.Len ||
        (OI.Kind != OperandKind::Modifier && OI.Kind != OperandKind::SReg))
      break; // not a mnemonic of modifiers: print the whole instruction
    const char *N = modifierName(OI, I.Ops[T.Index]);
    if (appendUntilSpace(Out, N ? N : "?"))
      return Out;
  }
  SmallString<64> Text;
  raw_svector_ostream TOS(Text);
  Instruction Unguarded = I;
  Unguarded.Guard = PT;
  Unguarded.GuardNeg = false;
  printWith(Unguarded, {0, nullptr}, TOS);
  return StringRef(Text).ltrim(' ').split(' ').first.str();
}

void print(const Instruction &I, uint64_t Addr, const LabelMap &Labels,
           raw_ostream &OS) {
  printWith(I, {Addr, &Labels}, OS);
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
  if (C.WrSB != NoScoreboard) {
    Sep();
    OS.put("wr=", 3);
    OS.putDecimal(unsigned(C.WrSB));
  }
  if (C.RdSB != NoScoreboard) {
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
