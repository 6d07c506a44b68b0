//===- DecoderEmitter.cpp - tp-tblgen -gen-sass-decoder ------------------===//
///
/// \file
/// -gen-sass-decoder: per target, dispatch on the 12-bit opcode, then on up
/// to 6 key bits, to a short list of candidate forms, most specific first.
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

void emitDecoder(RecordKeeper &RK, raw_ostream &OS) {
  SASSModel M(RK);
  emitSourceFileHeader("sm_86 decoder: dispatch on the 12-bit opcode", OS);
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
    auto Bit = [](const uint64_t *W, unsigned B) {
      return (W[B / 64] >> (B % 64)) & 1;
    };
    // Second level: within an opcode, up to 6 key bits that every form of
    // the opcode fixes and that tell forms apart; each key value lists the
    // forms whose fixed bits agree with it, most specific first.
    OS << "const uint16_t DecodeList" << Sfx << "[] = {\n";
    std::vector<std::string> BucketRows;
    std::vector<unsigned> SubBegin;
    unsigned N = 0;
    std::vector<unsigned> BucketOf(4096, 0);
    for (auto &P : ByOpc) {
      std::vector<unsigned> &Fs = P.second;
      std::vector<unsigned> Keys;
      for (unsigned B = 12; B < 105 && Keys.size() < 6 && Fs.size() > 4; ++B) {
        bool AllFixed = true, Differ = false;
        for (unsigned F : Fs) {
          AllFixed &= Bit(TForms[F].Mask, B) != 0;
          Differ |= Bit(TForms[F].Value, B) != Bit(TForms[Fs[0]].Value, B);
        }
        if (AllFixed && Differ)
          Keys.push_back(B);
      }
      unsigned NK = 1u << Keys.size();
      unsigned SubBase = SubBegin.size();
      for (unsigned K = 0; K < NK; ++K) {
        std::vector<unsigned> L;
        for (unsigned F : Fs) {
          bool Match = true;
          for (unsigned J = 0; J < Keys.size(); ++J)
            Match &= Bit(TForms[F].Value, Keys[J]) == ((K >> J) & 1);
          if (Match)
            L.push_back(F);
        }
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
                        std::to_string(Keys.size()) + ", {";
      for (unsigned J = 0; J < 6; ++J)
        Row += std::to_string(J < Keys.size() ? Keys[J] : 0) + ",";
      Row += "}}, // 0x" + utohexstr(P.first);
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
          "key bits.\nconst DecodeBucket DecodeBuckets"
       << Sfx
       << "[] = {\n  {0, 0, {0,0,0,0,0,0}},"
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
  OS << "// Per target.\nconst DecodeTables DecodeTablesOf[] = {\n";
  for (unsigned T = 0; T < M.Targets.size(); ++T) {
    std::string Sfx = T ? "_" + M.Targets[T].Enum : "";
    OS << "  {DecodeList" << Sfx << ", DecodeSubBegin" << Sfx
       << ", DecodeBuckets" << Sfx << ", DecodeBucketOf" << Sfx << "},\n";
  }
  OS << "};\n#undef GET_SASS_DECODER\n#endif\n";
}

} // namespace tblgen
} // namespace tp
