//===- DecoderEmitter.cpp - tp-tblgen -gen-sass-decoder ------------------===//
///
/// \file
/// -gen-sass-decoder: per target, dispatch on the 12-bit opcode, then on up
/// to 8 key bits chosen from the forms (chooseKeyBits), to a short list of
/// candidate forms, most specific first; DecodeMaxCandidates is the longest
/// list.  GET_SASS_OPERAND_DECODERS: per target and form, a straight-line
/// function that decodes the operands from the target's fields (the same
/// values as a walk of the field tables), identical bodies shared.
///
//===----------------------------------------------------------------------===//

#include "SASSEmitter.h"
#include "SASSModel.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/TableGen/Error.h"
#include "llvm/TableGen/TableGenBackend.h"
#include <algorithm>
#include <map>
#include <tuple>

using namespace llvm;

namespace tp {
namespace tblgen {

namespace {

/// At most this many key bits per opcode (DecodeBucket::KeyBits).
constexpr unsigned MaxKeyBits = 8;
/// Key bits are added while some slot lists more forms than this.
constexpr unsigned Handful = 4;

bool bitOf(const uint64_t *W, unsigned B) { return (W[B / 64] >> (B % 64)) & 1; }

/// Whether form \p F may hold key value \p K: every key bit it fixes has
/// the value's bit.
bool agrees(const FormModel &F, ArrayRef<unsigned> Keys, unsigned K) {
  for (unsigned J = 0; J < Keys.size(); ++J)
    if (bitOf(F.Mask, Keys[J]) && bitOf(F.Value, Keys[J]) != ((K >> J) & 1))
      return false;
  return true;
}

unsigned slotSize(const std::vector<FormModel> &Forms,
                  ArrayRef<unsigned> Fs, ArrayRef<unsigned> Keys,
                  unsigned K) {
  unsigned N = 0;
  for (unsigned F : Fs)
    N += agrees(Forms[F], Keys, K);
  return N;
}

/// The key bits of one opcode's forms \p Fs, chosen greedily: each step
/// adds the bit in [12, 105) that most reduces the largest slot (then the
/// sum of the slots' sizes, then the lowest bit), until no slot holds more
/// than Handful forms, MaxKeyBits bits are used or no bit helps.  Computed
/// from whatever forms exist, so a new form never needs hand-tuned keys.
std::vector<unsigned> chooseKeyBits(const std::vector<FormModel> &Forms,
                                    ArrayRef<unsigned> Fs) {
  std::vector<unsigned> Keys;
  auto Cost = [&](ArrayRef<unsigned> Ks) {
    unsigned Max = 0, Sum = 0;
    for (unsigned K = 0; K < (1u << Ks.size()); ++K) {
      unsigned S = slotSize(Forms, Fs, Ks, K);
      Max = std::max(Max, S);
      Sum += S;
    }
    return std::make_pair(Max, Sum);
  };
  std::pair<unsigned, unsigned> Best = Cost(Keys);
  while (Best.first > Handful && Keys.size() < MaxKeyBits) {
    int BestBit = -1;
    std::pair<unsigned, unsigned> BitCost;
    for (unsigned B = 12; B < 105; ++B) {
      if (is_contained(Keys, B))
        continue;
      std::vector<unsigned> Try = Keys;
      Try.push_back(B);
      std::pair<unsigned, unsigned> C = Cost(Try);
      if (BestBit < 0 || C < BitCost) {
        BitCost = C;
        BestBit = int(B);
      }
    }
    // A bit that splits no form from another (each one in both halves, the
    // sum doubled) only doubles the table.
    if (BestBit < 0 ||
        (BitCost.first >= Best.first && BitCost.second >= 2 * Best.second))
      break;
    Keys.push_back(unsigned(BestBit));
    Best = BitCost;
  }
  return Keys;
}

/// The hashed key of word \p W (bits 0-63, 64-127): must equal
/// hashedKey() in lib/Target/SASS/Decoder.cpp.
unsigned hashedKey(const uint64_t W[2], const uint64_t Mask[2], uint64_t Mul,
                   unsigned NumBits) {
  uint64_t X = (W[0] & Mask[0]) ^ ((W[1] & Mask[1]) * 0x9e3779b97f4a7c15ULL);
  return unsigned((X * Mul) >> (64 - NumBits));
}

/// How an opcode's word picks its candidate list: the key bits, or (when
/// no few bits split the forms into handfuls, e.g. IMAD.SHL's 31 forms with
/// a one-hot immediate) a multiplicative hash of the bits HashMask selects.
struct KeyChoice {
  std::vector<unsigned> Bits;
  uint64_t HashMask[2] = {0, 0};
  uint64_t Mul = 0; ///< 0: the key is Bits
  unsigned NumBits = 0;

  /// Whether form \p F may be behind key \p K: it agrees with the key
  /// bits it fixes; for a hash, it fixes every hashed bit and hashes to K,
  /// or it leaves one free (then it is behind every key).
  bool mayHold(const FormModel &F, unsigned K) const {
    if (!Mul)
      return agrees(F, Bits, K);
    if ((F.Mask[0] & HashMask[0]) != HashMask[0] ||
        (F.Mask[1] & HashMask[1]) != HashMask[1])
      return true;
    return hashedKey(F.Value, HashMask, Mul, NumBits) == K;
  }
  unsigned largestSlot(const std::vector<FormModel> &Forms,
                       ArrayRef<unsigned> Fs) const {
    unsigned Max = 0;
    for (unsigned K = 0; K < (1u << NumBits); ++K) {
      unsigned S = 0;
      for (unsigned F : Fs)
        S += mayHold(Forms[F], K);
      Max = std::max(Max, S);
    }
    return Max;
  }
};

/// The key of one opcode's forms: chooseKeyBits, or a hash when that
/// leaves a slot of more than Handful forms and a hash does better.  The
/// hash covers the bits in [12, 105) that more than half of the forms fix;
/// its multiplier and width (1..MaxKeyBits bits, smallest first) are found
/// by a deterministic search.
KeyChoice chooseKey(const std::vector<FormModel> &Forms,
                    ArrayRef<unsigned> Fs) {
  KeyChoice Best;
  Best.Bits = chooseKeyBits(Forms, Fs);
  Best.NumBits = Best.Bits.size();
  unsigned BestMax = Best.largestSlot(Forms, Fs);
  if (BestMax <= Handful)
    return Best;
  KeyChoice H;
  for (unsigned B = 12; B < 105; ++B) {
    unsigned Fixing = 0;
    for (unsigned F : Fs)
      Fixing += bitOf(Forms[F].Mask, B);
    if (2 * Fixing > Fs.size())
      H.HashMask[B / 64] |= uint64_t(1) << (B % 64);
  }
  uint64_t Seed = 0x2545f4914f6cdd1dULL;
  for (unsigned NB = 1; NB <= MaxKeyBits && BestMax > Handful; ++NB)
    for (unsigned Try = 0; Try < 256 && BestMax > Handful; ++Try) {
      Seed ^= Seed << 13, Seed ^= Seed >> 7, Seed ^= Seed << 17;
      H.Mul = Seed | 1;
      H.NumBits = NB;
      unsigned Max = H.largestSlot(Forms, Fs);
      if (Max < BestMax) {
        Best = H;
        BestMax = Max;
      }
    }
  return Best;
}

/// The C++ expression of segment \p S's bits of a word held in `Lo`
/// (bits 0-63) and `Hi` (64-127), at its field position.
std::string segmentExpr(const Seg &S) {
  std::string Mask =
      S.Width >= 64
          ? ""
          : " & 0x" + utohexstr((uint64_t(1) << S.Width) - 1) + "ULL";
  std::string Bits;
  if (S.InstBit >= 64)
    Bits = "(Hi >> " + std::to_string(S.InstBit - 64) + ")";
  else if (S.InstBit + S.Width <= 64)
    Bits = "(Lo >> " + std::to_string(S.InstBit) + ")";
  else // crosses bit 64 (InstBit is then 1..63)
    Bits = "((Lo >> " + std::to_string(S.InstBit) + ") | (Hi << " +
           std::to_string(64 - S.InstBit) + "))";
  std::string E = "(" + Bits + Mask + ")";
  if (S.FieldBit)
    E = "(" + E + " << " + std::to_string(S.FieldBit) + ")";
  return E;
}

/// The body of a function that decodes the operands of form \p F as
/// target encoding \p Enc lays them out (\p Own: the form's own fields)
/// into `Out.Ops`; false when a modifier holds an unspelled value.  Every
/// value is what the field table interpreter (tryForm) computed: the
/// segments' bits, XOR mask, Blackwell's 8-bit uniform register fields
/// (0xff is URZ), sign extension from the form's declared width (its own
/// fields) or the target's field width.
std::string operandDecoderBody(const FormModel &F, const FormModel &Enc,
                               bool Own) {
  std::string B;
  for (unsigned K = 0; K < F.Ops.size(); ++K) {
    const OperandModel &O = F.Ops[K];
    const OperandModel &EO = Enc.Ops[K];
    std::string V;
    unsigned Width = 0;
    for (const Seg &S : EO.Segs) {
      V += (V.empty() ? "" : " | ") + segmentExpr(S);
      Width += S.Width;
    }
    if (V.empty())
      V = "0";
    int64_t Xor = EO.Type->getValueAsInt("XorMask");
    B += "  {\n    uint64_t V = " + V + ";\n";
    if (Xor)
      B += "    V ^= 0x" + utohexstr(uint64_t(Xor)) + "ULL;\n";
    if (isWideURField(O, EO.Segs)) // URZ is 0xff, UR63 the value UR63
      B += "    if (V == 0xff)\n      V = URZ;\n"
           "    else if (V == URZ)\n      V = UR63;\n";
    unsigned Bits = Own ? O.FieldBits : Width;
    if (O.Signed && Bits > 0 && Bits < 64)
      B += "    if ((V >> " + std::to_string(Bits - 1) +
           ") & 1)\n      V |= ~uint64_t(0) << " + std::to_string(Bits) +
           ";\n";
    if (O.Kind == "Modifier" || O.Kind == "SReg")
      B += "    if (!isSpelled(" +
           std::to_string(O.ModTable < 0 ? 0 : O.ModTable) +
           ", int64_t(V)))\n      return false;\n";
    B += "    Out.Ops[" + std::to_string(K) + "] = int64_t(V);\n  }\n";
  }
  return B;
}

/// GET_SASS_OPERAND_DECODERS: per target, per form, a function that
/// decodes the form's operands from a word whose fixed bits matched
/// (identical bodies shared), and the table of them.
void emitOperandDecoders(const SASSModel &M, raw_ostream &OS) {
  OS << "#ifdef GET_SASS_OPERAND_DECODERS\n"
        "// Decodes the operands of a form whose fixed bits matched: Lo, Hi\n"
        "// are word bits 0-63 and 64-127; false when a modifier field holds\n"
        "// a value with no spelling.  Needs isSpelled(ModTable, Value).\n";
  emitFunctionsByForm(
      OS, M, "bool", "decodeOperands",
      "(uint64_t Lo, uint64_t Hi, Instruction &Out)",
      "  (void)Lo;\n  (void)Hi;\n", "  return true;\n", "OperandDecoder",
      "OperandDecoders", [&](unsigned T, unsigned F) {
        int E = M.EncodingFor[T][F];
        const FormModel &Enc = E >= 0 ? M.Encodings[E] : M.Forms[F];
        return operandDecoderBody(M.Forms[F], Enc, E < 0);
      });
  OS << "#undef GET_SASS_OPERAND_DECODERS\n#endif\n";
}

} // namespace

void emitDecoder(RecordKeeper &RK, raw_ostream &OS) {
  SASSModel M(RK);
  emitSourceFileHeader("sm_86 decoder: dispatch on the 12-bit opcode", OS);
  unsigned MaxSlot = 0;
  OS << "#ifdef GET_SASS_DECODER\n";
  // One set of tables per target (target 0 unsuffixed, others _<ENUM>),
  // over the forms that exist on the target, as it encodes them.
  for (unsigned T = 0; T < M.Targets.size(); ++T) {
    const std::vector<FormModel> TForms = M.formsFor(T);
    const std::string Sfx = T ? "_" + M.Targets[T].Enum : "";
    OS << "// " << M.Targets[T].Name << "\n";
    std::map<unsigned, std::vector<unsigned>> ByOpc;
    for (unsigned I = 0; I < TForms.size(); ++I)
      if (M.availableOn(I, T))
        ByOpc[TForms[I].Value[0] & 0xfff].push_back(I);
    // Second level: within an opcode, key bits chosen by chooseKeyBits;
    // each key value lists the forms whose fixed bits agree with it (a form
    // that leaves a key bit free is listed under both values), most
    // specific first.
    OS << "const uint16_t DecodeList" << Sfx << "[] = {\n";
    std::vector<std::string> BucketRows;
    std::vector<unsigned> SubBegin;
    unsigned N = 0;
    std::vector<unsigned> BucketOf(4096, 0);
    for (auto &P : ByOpc) {
      std::vector<unsigned> &Fs = P.second;
      KeyChoice Key = chooseKey(TForms, Fs);
      MaxSlot = std::max(MaxSlot, Key.largestSlot(TForms, Fs));
      unsigned NK = 1u << Key.NumBits;
      unsigned SubBase = SubBegin.size();
      for (unsigned K = 0; K < NK; ++K) {
        std::vector<unsigned> L;
        for (unsigned F : Fs)
          if (Key.mayHold(TForms[F], K))
            L.push_back(F);
        std::stable_sort(L.begin(), L.end(), [&](unsigned A, unsigned B) {
          return TForms[A].specificity() > TForms[B].specificity();
        });
        SubBegin.push_back(N);
        if (!L.empty()) {
          OS << "  /* 0x" << utohexstr(P.first) << " key " << K << " */ ";
          for (unsigned F : L)
            OS << F << ", ";
          OS << "\n";
        }
        N += L.size();
      }
      std::string Row = "  {" + std::to_string(SubBase) + ", " +
                        std::to_string(Key.NumBits) + ", {";
      for (unsigned J = 0; J < MaxKeyBits; ++J)
        Row += std::to_string(J < Key.Bits.size() ? Key.Bits[J] : 0) + ",";
      Row += "}, {0x" + utohexstr(Key.HashMask[0]) + "ULL, 0x" +
             utohexstr(Key.HashMask[1]) + "ULL}, 0x" + utohexstr(Key.Mul) +
             "ULL}, // 0x" + utohexstr(P.first);
      BucketRows.push_back(Row);
      BucketOf[P.first] = BucketRows.size();
    }
    SubBegin.push_back(N);
    if (N == 0)
      OS << "  0\n";
    OS << "};\n// Start of each (opcode, key) candidate list in DecodeList.\n"
          "const uint16_t DecodeSubBegin"
       << Sfx << "[] = {";
    for (unsigned I = 0; I < SubBegin.size(); ++I)
      OS << (I % 16 ? " " : "\n  ") << SubBegin[I] << ",";
    OS << "\n};\n// Per used opcode: first key slot, number of key bits, "
          "key bits, hash mask, hash multiplier (0: no hash).\n"
          "const DecodeBucket DecodeBuckets"
       << Sfx
       << "[] = {\n  {0, 0, {0,0,0,0,0,0,0,0}, {0, 0}, 0},"
          " // unused opcodes\n";
    for (auto &R : BucketRows)
      OS << R << "\n";
    OS << "};\n// Bucket of each 12-bit opcode (0: no form).\n"
          "const uint16_t DecodeBucketOf"
       << Sfx << "[4096] = {";
    for (unsigned I = 0; I < 4096; ++I)
      OS << (I % 32 ? " " : "\n  ") << BucketOf[I] << ",";
    OS << "\n};\n";
    if (BucketRows.size() > 65535)
      PrintFatalError("more than 65535 opcodes: widen DecodeBucketOf");
  }
  OS << "// The largest candidate list of any (opcode, key) slot.\n"
        "constexpr unsigned DecodeMaxCandidates = "
     << MaxSlot << ";\n";
  OS << "// Per target.\nconst DecodeTables DecodeTablesOf[] = {\n";
  for (unsigned T = 0; T < M.Targets.size(); ++T) {
    std::string Sfx = T ? "_" + M.Targets[T].Enum : "";
    OS << "  {DecodeList" << Sfx << ", DecodeSubBegin" << Sfx
       << ", DecodeBuckets" << Sfx << ", DecodeBucketOf" << Sfx << "},\n";
  }
  OS << "};\n#undef GET_SASS_DECODER\n#endif\n";
  emitOperandDecoders(M, OS);
}

} // namespace tblgen
} // namespace tp
