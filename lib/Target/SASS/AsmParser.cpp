//===- AsmParser.cpp - nvdisasm text -> Instruction ------------------------===//
///
/// \file
/// Parses one instruction by matching the text against the generated
/// templates of every form of its mnemonic (the matcher tables), with
/// backtracking over modifier spellings (a modifier may spell as "", so
/// ".WIDE.U32.X" is tried against every combination) and over address
/// components that may be left out (`[R2]` for `[R2+0x0]`, `[0x10]` for
/// `[RZ+0x10]`).  The first form that matches the whole text wins.
///
/// Grammar (nvdisasm's):
///   instruction ::= ['@' ['!'] pred] mnemonic{'.'modifier} operands [';']
///   operand     ::= R<n> | RZ | UR<n> | URZ | P<n> | PT | UP<n> | UPT
///                 | ['-']0x<hex> | float | c[<bank>][<offset>]
///                 | '[' component {'+' component} ']' | desc[URx][...]
///                 | register '.reuse'
///
/// Every value is range-checked against its field; a value that does not
/// fit is an error, never truncated.
///
//===----------------------------------------------------------------------===//

#include "FloatFormat.h"
#include "SASSTables.h"
#include "tp/Support/Diagnostics.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/SourceMgr.h"

using namespace llvm;

namespace tp {
namespace sass {
using namespace detail;

bool operandFits(const OperandInfo &OI, int64_t V); // Encoder.cpp
int64_t defaultValue(const OperandInfo &OI);        // AsmPrinter.cpp

namespace {

bool isIdentChar(char C) { return isAlnum(C) || C == '_'; }
/// A character of a label name (`.L_x_3`, `$L1`).
bool isLabelChar(char C) { return isIdentChar(C) || C == '.' || C == '$'; }

/// "U+2713" for the UTF-8 sequence that starts \p S, "byte 0xff" for a
/// byte that starts none.
std::string describeNonASCII(StringRef S) {
  uint8_t B = S[0];
  unsigned Len = B >= 0xf0 ? 4 : B >= 0xe0 ? 3 : B >= 0xc0 ? 2 : 0;
  uint32_t CP = Len == 4 ? B & 0x07 : Len == 3 ? B & 0x0f : B & 0x1f;
  bool Valid = Len != 0 && S.size() >= Len;
  for (unsigned K = 1; Valid && K < Len; ++K) {
    Valid = (uint8_t(S[K]) & 0xc0) == 0x80;
    CP = (CP << 6) | (uint8_t(S[K]) & 0x3f);
  }
  if (!Valid)
    return "byte 0x" + utohexstr(B, /*LowerCase=*/true);
  std::string Hex = utohexstr(CP);
  return "U+" + std::string(Hex.size() < 4 ? 4 - Hex.size() : 0, '0') + Hex;
}

/// The float formats of immediates.
enum class FloatKind { F16, BF16, F32, F64 };

/// "float immediate 1e40 does not fit in f32 (it overflows to +INF; the
/// largest finite value is 3.40282346638528859812e+38)": the limits in
/// nvdisasm's spelling, so they can be pasted back.
std::string floatRangeMessage(StringRef Spelling, FloatRange R, FloatKind K) {
  static const char *Names[] = {"f16", "bf16", "f32", "f64"};
  // Largest finite value and smallest non-zero (subnormal) value.
  static const double Max[] = {65504.0, 3.38953138925153547590e+38,
                               3.40282346638528859812e+38,
                               1.79769313486231570815e+308};
  static const double Min[] = {
      5.9604644775390625e-08, 9.18354961579912115600e-41,
      1.4012984643248170709e-45, 4.9406564584124654418e-324};
  std::string Msg;
  raw_string_ostream OS(Msg);
  unsigned I = unsigned(K);
  OS << "float immediate " << Spelling << " does not fit in " << Names[I];
  if (R == FloatRange::Overflow) {
    OS << " (it overflows to " << (Spelling.startswith("-") ? '-' : '+')
       << "INF; the largest finite value is ";
    printFloat64(OS, Max[I]);
  } else {
    OS << " (it underflows to 0; the smallest non-zero value is ";
    printFloat64(OS, Min[I]);
  }
  OS << ")";
  return OS.str();
}

class Matcher {
public:
  Matcher(Instruction &I, uint64_t Addr, const StringMap<uint64_t> *Labels,
          Target T)
      : I(I), Addr(Addr), Labels(Labels), T(T) {}

  bool matchForm(unsigned Form, const char *S, const char *SE) {
    II = &InstrInfos[Form];
    FieldBase = formEncoding(Opcode(Form), T).FieldBase;
    I.Op = Opcode(Form);
    I.Ops.fill(0);
    I.Ctrl.Reuse = 0;
    Assigned = 0;
    const char *T = Templates[Form];
    TStart = T;
    return match(T, T + std::strlen(T), S, SE, /*Top=*/true);
  }

  const char *FailPos = nullptr;
  std::string FailMsg;
  const char *HardPos = nullptr;
  std::string HardMsg;

private:
  Instruction &I;
  uint64_t Addr;
  const StringMap<uint64_t> *Labels; ///< branch target names, may be null
  Target T;
  unsigned FieldBase = 0; ///< the form's fields on T (OperandFields)
  const InstrInfo *II = nullptr;
  const char *TStart = nullptr;
  uint32_t Assigned = 0;

  void fail(const char *P, const Twine &Msg) {
    if (!FailPos || P > FailPos) {
      FailPos = P;
      FailMsg = Msg.str();
    }
  }
  void hardFail(const char *P, const Twine &Msg) {
    if (!HardPos || P >= HardPos) {
      HardPos = P;
      HardMsg = Msg.str();
    }
  }

  static const char *skipSpaces(const char *S, const char *SE) {
    while (S < SE && (*S == ' ' || *S == '\t'))
      ++S;
    return S;
  }

  /// Parses an unsigned decimal or 0x-hex number; returns the end or null.
  static const char *parseNumber(const char *S, const char *SE, uint64_t &V,
                                 bool &Overflow) {
    V = 0;
    Overflow = false;
    const char *P = S;
    if (SE - P > 2 && P[0] == '0' && (P[1] == 'x' || P[1] == 'X')) {
      P += 2;
      const char *B = P;
      while (P < SE && isHexDigit(*P)) {
        if (V >> 60)
          Overflow = true;
        V = V * 16 + hexDigitValue(*P);
        ++P;
      }
      return P == B ? nullptr : P;
    }
    const char *B = P;
    while (P < SE && isDigit(*P)) {
      if (V > (~uint64_t(0)) / 10 - 10)
        Overflow = true;
      V = V * 10 + (*P - '0');
      ++P;
    }
    return P == B ? nullptr : P;
  }

  /// Register "<Prefix><n>" or "<Prefix>Z"/"<Prefix>T"; returns end or null.
  const char *parseReg(const char *S, const char *SE, StringRef Prefix,
                       char ZChar, unsigned Max, int64_t ZVal, int64_t &V,
                       StringRef What) {
    StringRef Txt(S, SE - S);
    if (!Txt.startswith(Prefix)) {
      fail(S, "expected " + What);
      return nullptr;
    }
    const char *P = S + Prefix.size();
    if (P < SE && *P == ZChar && (P + 1 == SE || !isIdentChar(P[1]))) {
      V = ZVal;
      return P + 1;
    }
    uint64_t N;
    bool Ov;
    const char *E = parseNumber(P, SE, N, Ov);
    if (!E || (E < SE && isIdentChar(*E) && *E != '_')) {
      fail(S, "expected " + What);
      return nullptr;
    }
    if (Ov || N > Max) {
      hardFail(S, What + " number " + Twine(N) + " out of range (0.." +
                      Twine(Max) + ")");
      return nullptr;
    }
    V = int64_t(N);
    return E;
  }

  /// Integer with optional sign, range-checked for operand \p OI.
  const char *parseInt(const char *S, const char *SE, const OperandInfo &OI,
                       int64_t &V) {
    const char *P = S;
    bool Neg = false;
    if (P < SE && (*P == '-' || *P == '+')) {
      Neg = *P == '-';
      ++P;
    }
    uint64_t N;
    bool Ov;
    const char *E = parseNumber(P, SE, N, Ov);
    if (!E || (E < SE && isIdentChar(*E))) {
      fail(S, "expected an immediate");
      return nullptr;
    }
    unsigned Bits = OI.Bits;
    auto OutOfRange = [&]() {
      hardFail(S, "immediate " + StringRef(S, E - S) + " does not fit in " +
                      Twine(Bits) + (OI.Signed ? " signed" : "") + " bits");
      return nullptr;
    };
    if (Ov)
      return OutOfRange();
    if (Bits >= 64)
      Bits = 63;
    if (Neg) {
      // An unsigned field takes no sign: its value is the bit pattern.
      if (!OI.Signed && N && N <= (uint64_t(1) << Bits) - 1) {
        StringRef Mn =
            StringRef(TStart).take_until([](char C) { return C == ' '; });
        hardFail(S, "immediate " + StringRef(S, E - S) + " is negative; " + Mn +
                        " takes an unsigned " + Twine(Bits) +
                        "-bit value here (write its bit pattern, 0x" +
                        Twine::utohexstr(((uint64_t(1) << Bits) - N)) + ")");
        return nullptr;
      }
      if (!OI.Signed || N > (uint64_t(1) << (Bits - 1)))
        return OutOfRange();
      V = -int64_t(N);
    } else {
      // A 32-bit signed immediate may also be spelled as its unsigned bit
      // pattern (0xffffffff for -0x1); narrower signed fields (offsets)
      // take only their signed range.
      bool Wrap = OI.Signed && OI.Kind == OperandKind::Imm && Bits >= 32;
      if (N >= (uint64_t(1) << (OI.Signed && !Wrap ? Bits - 1 : Bits)))
        return OutOfRange();
      V = int64_t(N);
      if (OI.Signed && N >= (uint64_t(1) << (Bits - 1)))
        V = int64_t(N) - int64_t(uint64_t(1) << Bits);
    }
    return E;
  }

  /// A 32-bit float immediate (FImm).
  /// Returns the end or null.
  const char *parseFloatImm(const char *S, const char *SE, int64_t &V) {
    const char *E = nullptr;
    uint32_t B;
    FloatRange R;
    size_t N = parseFloat32(StringRef(S, SE - S), B, &R);
    if (!N) {
      // `nan`, `INF`, `QNAN`: a special value in another spelling than
      // nvdisasm's (the message would otherwise be another form's).
      StringRef Word = StringRef(S, SE - S).take_while(
          [](char C) { return isAlnum(C) || C == '+' || C == '-'; });
      StringRef Bare =
          Word.drop_while([](char C) { return C == '+' || C == '-'; });
      std::string Low = Bare.lower();
      if (Low == "inf" || Low == "infinity" || Low == "nan" || Low == "qnan" ||
          Low == "snan") {
        hardFail(S, "float immediate '" + Word + "': the special values " +
                        "are spelled +INF, -INF, +QNAN and -QNAN");
        return nullptr;
      }
      fail(S, "expected a float immediate");
      return nullptr;
    }
    if (R != FloatRange::InRange) {
      hardFail(S, floatRangeMessage(StringRef(S, N), R, FloatKind::F32));
      return nullptr;
    }
    V = B;
    E = S + N;
    return E;
  }

  /// The high word of an f64 immediate (DImmHi), whose low word must be 0.
  /// Returns the end or null.
  const char *parseDoubleHighImm(const char *S, const char *SE, int64_t &V) {
    const char *E = nullptr;
    // Infinities are spelled as for f32 (`DSETP.NEU.OR P0, PT, |R2|,
    // +INF , P2` holds 0x7ff00000).
    StringRef Rest(S, SE - S);
    if (Rest.startswith("+INF") || Rest.startswith("-INF")) {
      V = Rest[0] == '-' ? 0xfff00000 : 0x7ff00000;
      E = S + 4;
      return E;
    }
    std::string Tmp = StringRef(S, SE - S)
                          .take_while([](char C) {
                            return isDigit(C) || C == '.' || C == '-' ||
                                   C == '+' || C == 'e' || C == 'E';
                          })
                          .str();
    char *End = nullptr;
    double D = Tmp.empty() ? 0 : std::strtod(Tmp.c_str(), &End);
    if (Tmp.empty() || End == Tmp.c_str()) {
      fail(S, "expected a float immediate");
      return nullptr;
    }
    StringRef Mantissa =
        StringRef(Tmp).take_until([](char C) { return C == 'e' || C == 'E'; });
    if (std::isinf(D) ||
        (D == 0 && Mantissa.find_first_of("123456789") != StringRef::npos)) {
      hardFail(S, floatRangeMessage(StringRef(S, End - Tmp.c_str()),
                                    std::isinf(D) ? FloatRange::Overflow
                                                  : FloatRange::Underflow,
                                    FloatKind::F64));
      return nullptr;
    }
    uint64_t Bits;
    std::memcpy(&Bits, &D, 8);
    if (Bits & 0xffffffffu) {
      hardFail(S, "immediate needs more than the high 32 bits of an f64");
      return nullptr;
    }
    V = int64_t(Bits >> 32);
    E = S + (End - Tmp.c_str());
    return E;
  }

  /// Two f16 (HImm) or bf16 (BImm) immediates, high half first.
  /// Returns the end or null.
  const char *parseHalfPairImm(const OperandInfo &OI, const char *S,
                               const char *SE, int64_t &V) {
    const char *E = nullptr;
    uint32_t B0, B1;
    FloatKind FK =
        OI.Kind == OperandKind::HImm ? FloatKind::F16 : FloatKind::BF16;
    size_t N0 = parseFloat32(StringRef(S, SE - S), B0);
    if (!N0) {
      fail(S, "expected an f16 immediate");
      return nullptr;
    }
    if (!checkHalfRange(S, N0, B0, FK))
      return nullptr;
    const char *P = skipSpaces(S + N0, SE);
    if (P >= SE || *P != ',') {
      fail(P, "expected ','");
      return nullptr;
    }
    P = skipSpaces(P + 1, SE);
    size_t N1 = parseFloat32(StringRef(P, SE - P), B1);
    if (!N1) {
      fail(P, "expected an f16 immediate");
      return nullptr;
    }
    if (!checkHalfRange(P, N1, B1, FK))
      return nullptr;
    V = (int64_t(toHalfBits(B0, FK)) << 16) | toHalfBits(B1, FK); // high first
    E = P + N1;
    return E;
  }

  /// A branch target: an address or a label.
  /// Returns the end or null.
  const char *parseBranchTarget(const OperandInfo &OI, const char *S,
                                const char *SE, int64_t &V) {
    const char *E = nullptr;
    uint64_t T;
    bool Ov = false;
    if (S < SE && (isLabelChar(*S) && !isDigit(*S))) {
      // A label: `.L_x_3`.
      E = S;
      while (E < SE && isLabelChar(*E))
        ++E;
      StringRef Name(S, E - S);
      if (!Labels || !Labels->count(Name)) {
        hardFail(S, "undefined label '" + Name + "'");
        return nullptr;
      }
      T = Labels->lookup(Name);
    } else {
      E = parseNumber(S, SE, T, Ov);
    }
    if (!E) {
      fail(S, "expected a branch target address or label");
      return nullptr;
    }
    if (Ov || (int64_t(T) - int64_t(Addr)) % 4) {
      hardFail(S, "branch target is not a multiple of 4 bytes");
      return nullptr;
    }
    V = getBranchOffset(Addr, T);
    if (!operandFits(OI, V)) {
      hardFail(S, "branch target out of range");
      return nullptr;
    }
    return E;
  }

  /// A scoreboard set `{5,4}` (SBMask).
  /// Returns the end or null.
  const char *parseSBMask(const char *S, const char *SE, int64_t &V) {
    const char *E = nullptr;
    if (S >= SE || *S != '{') {
      fail(S, "expected '{'");
      return nullptr;
    }
    const char *P = S + 1;
    while (P < SE && *P != '}') {
      P = skipSpaces(P, SE);
      if (P < SE && isDigit(*P) && *P <= '5') {
        V |= int64_t(1) << (*P - '0');
        ++P;
      } else if (P < SE && *P == ',') {
        ++P;
      } else if (P < SE && *P != '}') {
        hardFail(P, "expected a scoreboard number 0..5");
        return nullptr;
      }
    }
    if (P >= SE) {
      fail(P, "expected '}'");
      return nullptr;
    }
    E = P + 1;
    return E;
  }

  /// Parses operand \p K at S; returns the end or null.
  const char *parseOperand(unsigned K, const char *S, const char *SE) {
    const OperandInfo &OI = II->Operands[K];
    int64_t V = 0;
    const char *E = nullptr;
    switch (OI.Kind) {
    case OperandKind::GPR:
    case OperandKind::MemBase:
      E = parseReg(S, SE, "R", 'Z', RZ - 1, RZ, V, "register R");
      if (E) {
        std::string Why = registerTupleProblem(OI, V);
        if (!Why.empty()) {
          hardFail(S, Why);
          return nullptr;
        }
      }
      if (E && OI.ReuseSlot >= 0 && StringRef(E, SE - E).startswith(".reuse")) {
        I.Ctrl.Reuse |= 1 << OI.ReuseSlot;
        E += 6;
      }
      break;
    case OperandKind::UGPR:
    case OperandKind::MemUR:
    case OperandKind::MemDesc:
      // Blackwell's 8-bit fields hold UR0..UR254 (UR63 is the value UR63).
      if (OperandFields[FieldBase + K].WideUR) {
        E = parseReg(S, SE, "UR", 'Z', 0xfe, URZ, V, "uniform register UR");
        if (E && V == URZ && E[-1] != 'Z')
          V = UR63;
      } else {
        E = parseReg(S, SE, "UR", 'Z', URZ - 1, URZ, V, "uniform register UR");
      }
      break;
    case OperandKind::Pred:
      E = parseReg(S, SE, "P", 'T', PT - 1, PT, V, "predicate P");
      break;
    case OperandKind::UPred:
      E = parseReg(S, SE, "UP", 'T', PT - 1, PT, V, "uniform predicate UP");
      break;
    case OperandKind::Imm:
    case OperandKind::CBankIndex:
    case OperandKind::CBankOffset:
    case OperandKind::MemOffset:
      E = parseInt(S, SE, OI, V);
      break;
    case OperandKind::FImm:
      E = parseFloatImm(S, SE, V);
      break;
    case OperandKind::DImmHi:
      E = parseDoubleHighImm(S, SE, V);
      break;
    case OperandKind::BImm:
    case OperandKind::HImm:
      E = parseHalfPairImm(OI, S, SE, V);
      break;
    case OperandKind::BranchTarget:
      E = parseBranchTarget(OI, S, SE, V);
      break;
    case OperandKind::SBIndex:
      E = parseReg(S, SE, "SB", '\0', 5, 0, V, "scoreboard SB");
      break;
    case OperandKind::SBMask:
      E = parseSBMask(S, SE, V);
      break;
    case OperandKind::SReg:
    case OperandKind::Modifier:
      llvm_unreachable("handled by the matcher");
    }
    if (!E)
      return nullptr;
    // A wide uniform register field was range-checked above (the form's
    // default-target field may be sm_86's 6 bits).
    bool WideUR = (OI.Kind == OperandKind::UGPR ||
                   OI.Kind == OperandKind::MemUR ||
                   OI.Kind == OperandKind::MemDesc) &&
                  OperandFields[FieldBase + K].WideUR;
    if (!WideUR && !operandFits(OI, V)) {
      hardFail(S, Twine("value does not fit operand ") + OI.Name);
      return nullptr;
    }
    I.Ops[K] = V;
    return E;
  }

  /// Whether the f16 or bf16 (\p FK) immediate spelled by the \p N
  /// characters at \p S, read as the f32 \p FB, fits its format; a hard
  /// error if not.
  bool checkHalfRange(const char *S, size_t N, uint32_t FB, FloatKind FK) {
    float F = bitsToFloat(FB);
    uint16_t H = toHalfBits(FB, FK);
    uint16_t Inf = FK == FloatKind::F16 ? 0x7c00 : 0x7f80;
    FloatRange R = FloatRange::InRange;
    parseFloat32(StringRef(S, N), FB, &R);
    if (R == FloatRange::InRange && !std::isinf(F) && (H & 0x7fff) == Inf)
      R = FloatRange::Overflow;
    if (R == FloatRange::InRange && F != 0 && (H & 0x7fff) == 0)
      R = FloatRange::Underflow;
    if (R == FloatRange::InRange)
      return true;
    hardFail(S, floatRangeMessage(StringRef(S, N), R, FK));
    return false;
  }

  /// The f16 (\p FK F16) or bf16 bits of the f32 with bits \p FB, rounded
  /// to nearest even (FloatConversion.h).
  static uint16_t toHalfBits(uint32_t FB, FloatKind FK) {
    float F = bitsToFloat(FB);
    return FK == FloatKind::F16 ? tp::floatToHalf(F) : floatToBFloat16(F);
  }

  /// The number [S, SN) is not the immediate the form's template fixes.
  void failFixedImmediate(const char *S, const char *SN) {
    StringRef Tok(S, SN - S);
    uint64_t V;
    bool Ov;
    if (parseNumber(S, SN, V, Ov) != SN) {
      fail(S, "expected an immediate");
      return;
    }
    // Every immediate field of the instruction set is at most 32 bits.
    if (Ov || V >> 32) {
      fail(S, "immediate " + Tok + " does not fit in 32 bits");
      return;
    }
    StringRef Mn =
        StringRef(TStart).take_until([](char C) { return C == ' '; });
    fail(S, "immediate " + Tok + " is not a value " + Mn + " takes");
  }

  /// Sets the operands of address component [T, TE) to their defaults;
  /// false if the component cannot be left out.
  bool setComponentDefault(const char *T, const char *TE) {
    bool First = true;
    for (const char *P = T; P < TE; ++P) {
      if (*P != '$')
        continue;
      unsigned K = P[1] - 'a';
      ++P;
      const OperandInfo &OI = II->Operands[K];
      if (First) {
        if (!OI.Optional)
          return false;
        I.Ops[K] = defaultValue(OI);
        First = false;
        continue;
      }
      if (OI.Kind != OperandKind::Modifier)
        return false;
      const ModTableRef &MT = ModTables[OI.ModTable];
      bool Found = false;
      for (unsigned M = MT.Begin; M < MT.Begin + MT.Count; ++M)
        if (!*ModEntries[M].Name) {
          I.Ops[K] = ModEntries[M].Value;
          Found = true;
          break;
        }
      if (!Found)
        return false;
    }
    return !First;
  }

  bool
  matchGroup(const char *const (*Comp)[2], unsigned NC, unsigned CI,
             const std::vector<std::pair<const char *, const char *>> &Parts,
             unsigned PJ) {
    if (CI == NC)
      return PJ == Parts.size();
    uint32_t SavedA = Assigned;
    uint8_t SavedR = I.Ctrl.Reuse;
    if (PJ < Parts.size() &&
        match(Comp[CI][0], Comp[CI][1], Parts[PJ].first, Parts[PJ].second,
              false) &&
        matchGroup(Comp, NC, CI + 1, Parts, PJ + 1))
      return true;
    Assigned = SavedA;
    I.Ctrl.Reuse = SavedR;
    if (setComponentDefault(Comp[CI][0], Comp[CI][1]) &&
        matchGroup(Comp, NC, CI + 1, Parts, PJ))
      return true;
    return false;
  }

  /// Matches modifier or special-register operand \p K (at template \p T)
  /// against every spelling of its table, then the rest of the template.
  bool matchModifier(unsigned K, const char *T, const char *TE, const char *S,
                     const char *SE, bool Top) {
    const OperandInfo &OI = II->Operands[K];
    const ModTableRef &MT = ModTables[OI.ModTable];
    bool Again = (Assigned >> K) & 1;
    for (unsigned M = MT.Begin; M < MT.Begin + MT.Count; ++M) {
      const ModEntry &ME = ModEntries[M];
      if (Again && ME.Value != I.Ops[K])
        continue;
      size_t L = std::strlen(ME.Name);
      if (size_t(SE - S) < L || std::memcmp(S, ME.Name, L) != 0)
        continue;
      // A spelling ending in a letter must not stop inside a word.
      if (L && isIdentChar(ME.Name[L - 1]) && S + L < SE && isIdentChar(S[L]) &&
          OI.Kind == OperandKind::SReg)
        continue;
      uint32_t SavedA = Assigned;
      uint8_t SavedR = I.Ctrl.Reuse;
      int64_t SavedV = I.Ops[K];
      I.Ops[K] = ME.Value;
      Assigned |= 1u << K;
      size_t Skip = L;
      // `|R6|.reuse`: a closing modifier right after a register may be
      // followed by that register's reuse suffix.
      if (Again && L && T - 2 >= TStart && T[-2] == '$') {
        const OperandInfo &PO = II->Operands[T[-1] - 'a'];
        if (PO.Kind == OperandKind::GPR && PO.ReuseSlot >= 0 &&
            StringRef(S + L, SE - S - L).startswith(".reuse")) {
          I.Ctrl.Reuse |= 1 << PO.ReuseSlot;
          Skip += 6;
        }
      }
      if (match(T + 2, TE, S + Skip, SE, Top))
        return true;
      Assigned = SavedA;
      I.Ctrl.Reuse = SavedR;
      I.Ops[K] = SavedV;
    }
    if (OI.Kind == OperandKind::SReg)
      fail(S, "expected a special register name");
    else
      fail(S,
           "unexpected '" + StringRef(S, std::min<size_t>(SE - S, 12)) + "'");
    return false;
  }

  /// Matches the address group `<...>` at template \p T (advanced past
  /// it) against the bracketed address at \p S; returns the end or null.
  const char *matchAddress(const char *&T, const char *TE, const char *S,
                           const char *SE) {
    const char *GE = T + 1;
    while (GE < TE && *GE != '>')
      ++GE;
    const char *Comp[8][2];
    unsigned NC = 0;
    const char *CS = T + 1;
    for (const char *P = CS;; ++P) {
      if (P == GE || *P == '+') {
        if (NC < 8) {
          Comp[NC][0] = CS;
          Comp[NC][1] = P;
          ++NC;
        }
        CS = P + 1;
        if (P == GE)
          break;
      } else if (*P == '$' || *P == '^') {
        ++P;
      }
    }
    S = skipSpaces(S, SE);
    if (S >= SE || *S != '[') {
      fail(S, "expected '['");
      return nullptr;
    }
    const char *RB = S + 1;
    while (RB < SE && *RB != ']')
      ++RB;
    if (RB >= SE) {
      fail(RB, "expected ']'");
      return nullptr;
    }
    std::vector<std::pair<const char *, const char *>> Parts;
    const char *PS = S + 1;
    for (const char *P = PS;; ++P) {
      if (P == RB || *P == '+') {
        const char *A = skipSpaces(PS, P), *B = P;
        while (B > A && (B[-1] == ' ' || B[-1] == '\t'))
          --B;
        Parts.push_back({A, B});
        PS = P + 1;
        if (P == RB)
          break;
      }
    }
    if (!matchGroup(Comp, NC, 0, Parts, 0)) {
      fail(S, "invalid address");
      return nullptr;
    }
    T = GE < TE ? GE + 1 : GE;
    return RB + 1;
  }

  bool match(const char *T, const char *TE, const char *S, const char *SE,
             bool Top) {
    while (T < TE) {
      char C = *T;
      if (C == ' ') {
        S = skipSpaces(S, SE);
        ++T;
        continue;
      }
      if (C == ',') {
        S = skipSpaces(S, SE);
        if (S >= SE || *S != ',') {
          fail(S, "expected ','");
          return false;
        }
        ++S;
        ++T;
        continue;
      }
      if (C == '$') {
        unsigned K = T[1] - 'a';
        const OperandInfo &OI = II->Operands[K];
        if (OI.Kind == OperandKind::Modifier || OI.Kind == OperandKind::SReg)
          return matchModifier(K, T, TE, S, SE, Top);
        S = skipSpaces(S, SE);
        bool Again = (Assigned >> K) & 1;
        int64_t Prev = I.Ops[K];
        const char *E = parseOperand(K, S, SE);
        if (!E)
          return false;
        if (Again && I.Ops[K] != Prev) {
          // An operand printed twice must be spelled the same both times.
          fail(S, "expected the same operand as before");
          return false;
        }
        Assigned |= 1u << K;
        S = E;
        T += 2;
        continue;
      }
      if (C == '^') {
        // The register after an operand parsed before.
        unsigned K = T[1] - 'a';
        int64_t Saved = I.Ops[K];
        S = skipSpaces(S, SE);
        const char *E = parseOperand(K, S, SE);
        int64_t Got = I.Ops[K];
        I.Ops[K] = Saved;
        if (!E)
          return false;
        if (Got != Saved + 1) {
          fail(S, "expected the register after the one named before");
          return false;
        }
        S = E;
        T += 2;
        continue;
      }
      if (C == '<') {
        S = matchAddress(T, TE, S, SE);
        if (!S)
          return false;
        continue;
      }
      if (C == '0' && T + 1 < TE && T[1] == 'x' && T > TStart && T[-1] == ' ') {
        // An immediate the form fixes (IMAD.SHL.U32's 2^k): the whole
        // number must be the same, not just its first digits.
        const char *TN = T, *SN = S;
        while (TN < TE && isAlnum(*TN))
          ++TN;
        while (SN < SE && isAlnum(*SN))
          ++SN;
        if (StringRef(T, TN - T) != StringRef(S, SN - S)) {
          failFixedImmediate(S, SN);
          return false;
        }
        S = SN;
        T = TN;
        continue;
      }
      if (S >= SE || *S != C) {
        fail(S, Twine("expected '") + StringRef(T, 1) + "'");
        return false;
      }
      ++S;
      ++T;
    }
    if (Top) {
      S = skipSpaces(S, SE);
      if (S < SE && *S == ';')
        S = skipSpaces(S + 1, SE);
    }
    if (S != SE) {
      fail(S,
           "unexpected '" + StringRef(S, std::min<size_t>(SE - S, 12)) + "'");
      return false;
    }
    return true;
  }
};

} // namespace

Expected<Instruction> parse(StringRef Text, uint64_t Addr, const SourceMgr &SM,
                            Target T, const StringMap<uint64_t> *Labels) {
  Instruction I;
  const char *S = Text.begin(), *SE = Text.end();
  while (S < SE && isSpace(*S))
    ++S;
  while (SE > S && isSpace(SE[-1]))
    --SE;
  auto Err = [&](const char *P, const Twine &Msg) {
    return makeSourceError(SM, SMLoc::getFromPointer(P), Msg);
  };
  for (const char *P = S; P < SE; ++P)
    if (uint8_t(*P) >= 0x80)
      return Err(P, "unexpected non-ASCII character " +
                        describeNonASCII(StringRef(P, SE - P)));
  bool UGuard = false;
  const char *GuardPos = nullptr;
  if (S < SE && *S == '@') {
    const char *P = S + 1;
    if (P < SE && *P == '!') {
      I.GuardNeg = true;
      ++P;
    }
    GuardPos = P;
    if (P < SE && *P == 'U') {
      UGuard = true;
      ++P;
    }
    if (P < SE && *P == 'P' && P + 1 < SE && P[1] == 'T') {
      I.Guard = PT;
      P += 2;
    } else if (P + 1 < SE && *P == 'P' && isDigit(P[1]) &&
               (P + 2 == SE || !isAlnum(P[2]))) {
      if (P[1] > '6')
        return Err(P, "predicate number out of range (P0..P6, PT)");
      I.Guard = P[1] - '0';
      P += 2;
    } else {
      return Err(P, "expected a guard predicate (P0..P6, PT)");
    }
    if (P < SE && !isSpace(*P))
      return Err(P, "expected a blank after the guard predicate");
    while (P < SE && isSpace(*P))
      ++P;
    S = P;
  }
  const char *ME = S;
  while (ME < SE && isIdentChar(*ME))
    ++ME;
  StringRef Mn(S, ME - S);
  if (Mn.empty())
    return Err(S, "expected an instruction mnemonic");
  const MnemonicEntry *B = Mnemonics, *E = Mnemonics + NumMnemonics;
  const MnemonicEntry *It =
      std::lower_bound(B, E, Mn, [](const MnemonicEntry &M, StringRef N) {
        return StringRef(M.Mnemonic) < N;
      });
  if (It == E || Mn != It->Mnemonic)
    return Err(S, "unknown or unsupported instruction mnemonic '" + Mn + "'");
  Matcher M(I, Addr, Labels, T);
  bool GuardKindMismatch = false, AnyOnTarget = false;
  for (unsigned K = It->Begin; K < unsigned(It->Begin + It->Count); ++K) {
    if (!formEncoding(MatchList[K], T).Available)
      continue;
    AnyOnTarget = true;
    if (GuardPos && InstrInfos[MatchList[K]].UniformGuard != UGuard) {
      GuardKindMismatch = true;
      continue;
    }
    if (M.matchForm(MatchList[K], S, SE))
      return I;
  }
  if (!AnyOnTarget)
    return Err(S, "instruction '" + Mn + "' does not exist on " +
                      getTargetName(T));
  if (GuardKindMismatch && !M.FailPos && !M.HardPos)
    return Err(GuardPos, UGuard ? "this instruction takes a predicate guard "
                                  "(@Px), not a uniform one"
                                : "this instruction takes a uniform "
                                  "predicate guard (@UPx)");
  if (M.HardPos)
    return Err(M.HardPos, M.HardMsg);
  const char *MnEnd = ME;
  while (MnEnd < SE && !isSpace(*MnEnd))
    ++MnEnd;
  if (M.FailPos && M.FailPos < MnEnd)
    return Err(ME, "invalid modifiers '" + StringRef(ME, MnEnd - ME) +
                       "' for " + Mn);
  if (M.FailPos)
    return Err(M.FailPos, M.FailMsg);
  return Err(S, "invalid instruction");
}

} // namespace sass
} // namespace tp

namespace tp {
namespace sass {

Expected<Control> parseControl(StringRef Text, const SourceMgr &SM) {
  Control C;
  C.Yield = false; // in a clause, yield is written when it is set
  auto Err = [&](const char *P, const Twine &Msg) {
    return makeSourceError(SM, SMLoc::getFromPointer(P), Msg);
  };
  StringRef T = Text.trim();
  if (!T.startswith("{") || !T.endswith("}"))
    return Err(T.begin(), "expected a control clause '{...}'");
  const char *P = T.begin() + 1, *E = T.end() - 1;
  // A decimal number; one too large for any field saturates at 1000, and
  // the messages quote the digits as written.
  StringRef Digits;
  unsigned Seen = 0; // the fields given, a bit each (Fields below)
  auto Num = [&](const char *&Q, unsigned &V) {
    const char *B = Q;
    V = 0;
    while (Q < E && isDigit(*Q)) {
      V = V * 10 + (*Q - '0');
      if (V > 1000)
        V = 1000;
      ++Q;
    }
    Digits = StringRef(B, Q - B);
    return Q != B;
  };
  while (P < E) {
    if (isSpace(*P)) {
      ++P;
      continue;
    }
    const char *W = P;
    while (P < E && (isAlpha(*P)))
      ++P;
    StringRef Key(W, P - W);
    // Each field once: a second `wr=` would silently replace the first.
    static const char *const Fields[] = {"stall", "yield", "wr",
                                         "rd",    "wait",  "reuse"};
    for (unsigned F = 0; F < std::size(Fields); ++F)
      if (Key == Fields[F]) {
        if (Seen & (1u << F))
          return Err(W, "control field '" + Key + "' given twice");
        Seen |= 1u << F;
      }
    if (Key == "yield") {
      C.Yield = true;
      continue;
    }
    if (P >= E || *P != '=')
      return Err(W, "expected stall=, yield, wr=, rd=, wait= or reuse=");
    ++P;
    const char *VP = P;
    unsigned V;
    if (Key == "stall") {
      if (!Num(P, V))
        return Err(VP, "expected a number");
      if (V > 15)
        return Err(VP, "stall " + Digits + " exceeds 15");
      C.Stall = V;
    } else if (Key == "wr" || Key == "rd") {
      if (!Num(P, V))
        return Err(VP, "expected a scoreboard number");
      if (V > 5 && V != NoScoreboard)
        return Err(VP, "scoreboard " + Digits + " is not 0..5 (or 7, none)");
      (Key == "wr" ? C.WrSB : C.RdSB) = V;
    } else if (Key == "wait") {
      do {
        const char *Q = P;
        if (!Num(P, V))
          return Err(Q, "expected a scoreboard number");
        if (V > 5)
          return Err(Q, "scoreboard " + Digits + " is not 0..5");
        C.WaitMask |= 1 << V;
      } while (P < E && *P == ',' && ++P);
    } else if (Key == "reuse") {
      do {
        if (P >= E || *P < 'a' || *P > 'd')
          return Err(P, "expected a reuse slot a..d");
        C.Reuse |= 1 << (*P - 'a');
        ++P;
      } while (P < E && *P == ',' && ++P);
    } else {
      return Err(W, "unknown control field '" + Key + "'");
    }
  }
  if (!isDefinedControl(C))
    return Err(T.begin(),
               "stall " + Twine(unsigned(C.Stall)) +
                   " without yield is undefined: NVIDIA's tables define a "
                   "stall of 0 or 12..15 only with yield (bit 109 clear); "
                   "add 'yield'");
  return C;
}

} // namespace sass
} // namespace tp
