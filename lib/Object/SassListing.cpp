//===- SassListing.cpp - Line-oriented SASS: the instruction listing -----===//
///
/// \file
/// Printing, the cubin and word disassemblers and the line assembler of
/// the listing format (tp/Object/SassListing.h).  A word no form matches
/// is a raw line and a hook call, never a wrong instruction.
///
//===----------------------------------------------------------------------===//

#include "tp/Object/SassListing.h"
#include "tp/Object/CubinFile.h"
#include "tp/Support/Diagnostics.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/SourceMgr.h"

#include <cassert>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

using namespace llvm;

namespace tp {
namespace object {

namespace {
/// \p V as exactly \p Digits lower-case hex digits (zero-padded; wider
/// values keep every digit), as format_hex_no_prefix(V, Digits) prints it
/// but without a format object per number.
void writeHex(raw_ostream &OS, uint64_t V, unsigned Digits) {
  char Buf[16];
  unsigned N = 0;
  do {
    Buf[15 - N++] = "0123456789abcdef"[V & 15];
    V >>= 4;
  } while (V);
  while (N < Digits && N < 16)
    Buf[15 - N++] = '0';
  OS.write(Buf + 16 - N, N);
}

/// \p V as 16 lower-case hex digits at \p Out, most significant first.
void formatHex64(uint64_t V, char *Out) {
#if defined(__SSE2__)
  // One nibble a byte (the most significant first), then '0' + n, plus
  // 'a' - '0' - 10 where n > 9.
  __m128i B = _mm_cvtsi64_si128(int64_t(__builtin_bswap64(V)));
  __m128i Nib = _mm_and_si128(
      _mm_unpacklo_epi8(_mm_srli_epi16(B, 4), B), _mm_set1_epi8(0x0f));
  __m128i Letter = _mm_cmpgt_epi8(Nib, _mm_set1_epi8(9));
  __m128i Chars = _mm_add_epi8(
      _mm_add_epi8(Nib, _mm_set1_epi8('0')),
      _mm_and_si128(Letter, _mm_set1_epi8('a' - '0' - 10)));
  _mm_storeu_si128(reinterpret_cast<__m128i *>(Out), Chars);
#else
  for (unsigned K = 16; K--; V >>= 4)
    Out[K] = "0123456789abcdef"[V & 15];
#endif
}

/// The 128-bit word as 32 hex digits, most significant first, after
/// \p Prefix and before \p Suffix: one write.
void writeWord(raw_ostream &OS, const sass::Word128 &W, StringRef Prefix,
               StringRef Suffix = "") {
  char Buf[64];
  assert(Prefix.size() + Suffix.size() <= 32 && "a short prefix and suffix");
  std::memcpy(Buf, Prefix.data(), Prefix.size());
  char *P = Buf + Prefix.size();
  formatHex64(W.Hi, P);
  formatHex64(W.Lo, P + 16);
  std::memcpy(P + 32, Suffix.data(), Suffix.size());
  OS.write(Buf, Prefix.size() + 32 + Suffix.size());
}

#if !defined(__SSE2__)
/// The value of the 8 hex digits in the bytes of \p X (the first digit,
/// the most significant, in the lowest byte); false if a byte is not a hex
/// digit.  All 8 at once (SWAR): range checks per byte without carries
/// between bytes (every byte is below 0x80 when they run), then the
/// nibbles packed pairwise.
bool readHex32(uint64_t X, uint32_t &V) {
  constexpr uint64_t Ones = 0x0101010101010101ULL, High = Ones * 0x80;
  if (X & High)
    return false;
  // Bytes >= K get their high bit (K <= 0x80, bytes < 0x80).
  auto AtLeast = [](uint64_t B, uint64_t K) {
    return (B + Ones * (0x80 - K)) & High;
  };
  uint64_t Lower = X | Ones * 0x20; // 'A'-'F' -> 'a'-'f'
  uint64_t Digit = AtLeast(X, '0') & ~AtLeast(X, '9' + 1);
  uint64_t Letter = AtLeast(Lower, 'a') & ~AtLeast(Lower, 'f' + 1);
  if ((Digit | Letter) != High)
    return false;
  uint64_t N = (X & Ones * 0x0f) + (Letter >> 7) * 9; // one nibble a byte
  N = ((N & 0x00ff00ff00ff00ffULL) << 4) | ((N >> 8) & 0x00ff00ff00ff00ffULL);
  N = ((N & 0x0000ffff0000ffffULL) << 8) | ((N >> 16) & 0x0000ffff0000ffffULL);
  V = uint32_t(((N & 0xffff) << 16) | (N >> 32));
  return true;
}
#endif

/// Reads 16 hex digits at \p P; false if one is not a hex digit.
bool readHex64(const char *P, uint64_t &V) {
#if defined(__SSE2__)
  // The 16 bytes at once: digits c - '0' <= 9, letters (c | 0x20) - 'a'
  // <= 5 (unsigned), then nibble pairs packed to bytes, the first digit
  // the most significant.
  __m128i C = _mm_loadu_si128(reinterpret_cast<const __m128i *>(P));
  __m128i D = _mm_sub_epi8(C, _mm_set1_epi8('0'));
  __m128i L = _mm_sub_epi8(_mm_or_si128(C, _mm_set1_epi8(0x20)),
                           _mm_set1_epi8('a'));
  __m128i IsD = _mm_cmpeq_epi8(_mm_min_epu8(D, _mm_set1_epi8(9)), D);
  __m128i IsL = _mm_cmpeq_epi8(_mm_min_epu8(L, _mm_set1_epi8(5)), L);
  if (_mm_movemask_epi8(_mm_or_si128(IsD, IsL)) != 0xffff)
    return false;
  __m128i Nib = _mm_or_si128(
      _mm_and_si128(IsD, D),
      _mm_andnot_si128(IsD, _mm_add_epi8(L, _mm_set1_epi8(10))));
  __m128i Pair = _mm_and_si128(
      _mm_or_si128(_mm_slli_epi16(Nib, 4), _mm_srli_epi16(Nib, 8)),
      _mm_set1_epi16(0x00ff));
  uint64_t Bytes = uint64_t(_mm_cvtsi128_si64(_mm_packus_epi16(Pair, Pair)));
  V = __builtin_bswap64(Bytes);
  return true;
#else
  uint32_t Hi, Lo;
  if (!readHex32(support::endian::read64le(P), Hi) ||
      !readHex32(support::endian::read64le(P + 8), Lo))
    return false;
  V = uint64_t(Hi) << 32 | Lo;
  return true;
#endif
}
} // namespace

void printListingLine(const ListingLine &L, const ListingPrintOptions &O,
                      raw_ostream &OS) {
  if (!L.Section.empty()) {
    OS << "// " << L.Section << "\n";
    return;
  }
  if (L.ShowAddr) {
    OS << "/*";
    writeHex(OS, L.Addr, 4);
    OS << "*/ ";
  }
  if (L.Raw) {
    writeWord(OS, L.W, ".inst 0x");
  } else {
    sass::print(L.I, L.Addr, OS);
    if (O.ShowControl) {
      // Reuse flags of slots an operand owns are shown as `.reuse` on it.
      sass::Control C = L.I.Ctrl;
      const sass::InstrInfo &II = sass::getInstrInfo(L.I.Op);
      for (unsigned K = 0; K < II.NumOperands; ++K)
        if (II.Operands[K].ReuseSlot >= 0)
          C.Reuse &= ~(1u << II.Operands[K].ReuseSlot);
      OS << ' ';
      sass::printControl(C, OS);
    }
  }
  if (O.ShowEncoding) {
    writeWord(OS, L.W, " // encoding: 0x", "\n");
    return;
  }
  OS << '\n';
}

namespace {
/// The line for word \p W at \p Addr: its instruction, or a raw word with
/// a call of \p OnRaw (given decodeOrError's message).
template <typename RawFn>
ListingLine decodeLine(sass::Word128 W, uint64_t Addr, sass::Target Tgt,
                       RawFn OnRaw) {
  ListingLine L;
  L.W = W;
  L.Addr = Addr;
  // Decoded in place; decodeOrError only for the message of a raw word.
  if (sass::decode(W, L.I, Tgt))
    return L;
  L.I = sass::Instruction();
  L.Raw = true;
  Expected<sass::Instruction> IOr = sass::decodeOrError(W, Addr, Tgt);
  OnRaw(IOr ? std::string("unknown instruction; printed as .inst")
            : toString(IOr.takeError()) + "; printed as .inst");
  return L;
}
} // namespace

Expected<std::vector<ListingLine>> disassembleCubinListing(
    StringRef Name, StringRef Bytes, sass::Target Tgt,
    const std::function<void(StringRef, const std::string &)> &OnRawWord) {
  // The one cubin reader (readCubinFile) and its checks, as every other
  // reader of a cubin: a damaged file is an error, never a listing.
  Expected<CubinFile> F = readCubinFile(arrayRefFromStringRef(Bytes));
  if (!F)
    return makeError(Name + ": " + toString(F.takeError()));
  std::vector<ListingLine> Lines;
  for (const Section &Sec : F->Sections) {
    if (!StringRef(Sec.Name).startswith(".text"))
      continue;
    ArrayRef<uint8_t> Data = Sec.Data;
    if (Data.size() % 16)
      return makeError(Name + ": section " + Sec.Name +
                       " is not a multiple of 16 bytes");
    ListingLine H;
    H.Section = Sec.Name;
    Lines.push_back(H);
    for (size_t Off = 0; Off < Data.size(); Off += 16) {
      sass::Word128 W;
      W.Lo = support::endian::read64le(Data.data() + Off);
      W.Hi = support::endian::read64le(Data.data() + Off + 8);
      ListingLine L = decodeLine(W, Off, Tgt, [&](const std::string &Why) {
        if (OnRawWord)
          OnRawWord(Sec.Name, Why);
      });
      L.ShowAddr = true;
      Lines.push_back(L);
    }
  }
  return Lines;
}

bool WordListingReader::readBareWord(StringRef L, ListingLine &Out) {
  sass::Word128 W;
  if (L.size() != 32 || !readHex64(L.data(), W.Hi) ||
      !readHex64(L.data() + 16, W.Lo))
    return false;
  Out.W = W;
  Out.Addr = Addr;
  Out.Raw = !sass::decode(W, Out.I, Tgt);
  if (Out.Raw)
    reportRawWord(L, Out);
  Addr += 16;
  return true;
}

void WordListingReader::reportRawWord(StringRef L, ListingLine &Out) {
  Out.I = sass::Instruction();
  Expected<sass::Instruction> IOr = sass::decodeOrError(Out.W, Addr, Tgt);
  std::string Why = IOr ? std::string("unknown instruction; printed as .inst")
                        : toString(IOr.takeError()) + "; printed as .inst";
  if (OnRawWord)
    OnRawWord(SMLoc::getFromPointer(L.data()), Why);
}

Expected<Optional<ListingLine>> WordListingReader::addLine(StringRef L) {
  // The common line, a bare word (`0x` optional), read without a search
  // for comments or a validation pass of its own.
  StringRef Bare = L;
  if (Bare.endswith("\r"))
    Bare = Bare.drop_back();
  if (Bare.size() == 34 && (Bare.startswith("0x") || Bare.startswith("0X")))
    Bare = Bare.drop_front(2);
  sass::Word128 FastW;
  if (Bare.size() == 32 && readHex64(Bare.data(), FastW.Hi) &&
      readHex64(Bare.data() + 16, FastW.Lo)) {
    ListingLine Out =
        decodeLine(FastW, Addr, Tgt, [&](const std::string &Why) {
          if (OnRawWord)
            OnRawWord(SMLoc::getFromPointer(L.data()), Why);
        });
    Addr += 16;
    return Out;
  }
  StringRef C = L;
  size_t Cm = std::min(C.find('#'), C.find("//"));
  C = C.substr(0, Cm).trim();
  if (C.empty())
    return None;
  // An optional `/*0x0010*/` (or `/*0010*/`) prefix gives the address.
  if (C.startswith("/*")) {
    size_t E = C.find("*/");
    StringRef In = E == StringRef::npos ? "" : C.slice(2, E).trim();
    if (In.startswith("0x") || In.startswith("0X"))
      In = In.drop_front(2);
    uint64_t A;
    if (In.empty() || In.getAsInteger(16, A) || A % 16)
      return makeSourceError(SM, SMLoc::getFromPointer(C.data()),
                             "expected an address prefix /*hex*/, a "
                             "multiple of 16");
    Addr = A;
    C = C.drop_front(E + 2).ltrim();
  }
  StringRef Digits = C;
  if (Digits.startswith("0x") || Digits.startswith("0X"))
    Digits = Digits.drop_front(2);
  size_t Bad = Digits.find_first_not_of("0123456789abcdefABCDEF");
  if (Bad != StringRef::npos || Digits.size() != 32) {
    const char *P = Bad != StringRef::npos ? Digits.data() + Bad : C.data();
    return makeSourceError(SM, SMLoc::getFromPointer(P),
                           "expected a word of 32 hex digits");
  }
  sass::Word128 W;
  Digits.substr(0, 16).getAsInteger(16, W.Hi);
  Digits.substr(16, 16).getAsInteger(16, W.Lo);
  ListingLine Out = decodeLine(W, Addr, Tgt, [&](const std::string &Why) {
    if (OnRawWord)
      OnRawWord(SMLoc::getFromPointer(C.data()), Why);
  });
  Addr += 16;
  return Out;
}

Error ListingAssembler::stripComments(StringRef L, StringRef &C,
                                      uint64_t &LineAddr) const {
  C = L.ltrim();
  // An nvdisasm address prefix `/*0x0010*/` or `/*0010*/` sets the
  // address; any other leading /* */ comment is skipped.
  bool HaveAddr = false;
  while (C.startswith("/*")) {
    size_t E = C.find("*/");
    if (E == StringRef::npos)
      return makeSourceError(SM, SMLoc::getFromPointer(C.data()),
                             "unterminated comment");
    StringRef In = C.slice(2, E).trim();
    if (In.startswith("0x") || In.startswith("0X"))
      In = In.drop_front(2);
    uint64_t A;
    if (!In.empty() && !In.getAsInteger(16, A)) {
      LineAddr = A;
      HaveAddr = true;
    }
    C = C.drop_front(E + 2).ltrim();
  }
  size_t Cm = std::min(C.find("//"), C.find('#'));
  C = C.substr(0, Cm).rtrim();
  if (!C.empty() && HaveAddr && LineAddr % 16)
    return makeSourceError(SM, SMLoc::getFromPointer(L.data()),
                           "instruction address is not a multiple of 16");
  return Error::success();
}

Expected<sass::Instruction>
ListingAssembler::parseInstruction(StringRef C, uint64_t Pc) const {
  sass::Control Ctl;
  bool HasCtl = false;
  if (C.endswith("}")) {
    size_t RB = C.rfind('{');
    StringRef Clause = C.substr(RB);
    if (RB != StringRef::npos &&
        (Clause.contains('=') || Clause.contains("yield") || Clause == "{}")) {
      Expected<sass::Control> CtlOr = sass::parseControl(Clause, SM);
      if (!CtlOr)
        return CtlOr.takeError();
      Ctl = *CtlOr;
      HasCtl = true;
      C = C.substr(0, RB).rtrim();
    }
  }
  if (size_t P = C.find("/*"); P != StringRef::npos)
    return makeSourceError(SM, SMLoc::getFromPointer(C.data() + P),
                           "comment inside an instruction");
  Expected<sass::Instruction> IOr = sass::parse(C, Pc, SM, Tgt);
  if (!IOr)
    return IOr.takeError();
  if (HasCtl)
    sass::applyControl(*IOr, Ctl);
  if (Error E = sass::verify(*IOr, Tgt))
    return makeSourceError(SM, SMLoc::getFromPointer(C.data()),
                           toString(std::move(E)));
  if (OnInstruction)
    OnInstruction(C, IOr->Op);
  return IOr;
}

Expected<Optional<ListingLine>> ListingAssembler::addLine(StringRef L) {
  StringRef C;
  uint64_t LineAddr = Addr;
  if (Error E = stripComments(L, C, LineAddr))
    return E;
  if (C.empty())
    return None;
  ListingLine Out;
  Out.Addr = LineAddr;
  if (C.startswith(".inst") && (C.size() == 5 || isSpace(C[5]))) {
    StringRef Rest = C.drop_front(5).ltrim();
    StringRef Digits = Rest;
    if (!Digits.consume_front("0x") || Digits.size() != 32 ||
        !all_of(Digits, isHexDigit))
      return makeSourceError(SM, SMLoc::getFromPointer(Rest.data()),
                             "expected '.inst 0x<32 hex digits>'");
    Digits.substr(0, 16).getAsInteger(16, Out.W.Hi);
    Digits.substr(16, 16).getAsInteger(16, Out.W.Lo);
    Out.Raw = true;
  } else {
    Expected<sass::Instruction> IOr = parseInstruction(C, LineAddr);
    if (!IOr)
      return IOr.takeError();
    Out.I = *IOr;
    Out.W = sass::encode(Out.I, Tgt);
  }
  Addr = LineAddr + 16;
  return Out;
}

} // namespace object
} // namespace tp
