//===- CubinText.cpp - tp-mc: whole cubins as .sass text -------------------===//
///
/// \file
/// The cubin side of --disassemble and --assemble (docs/sass-format.md):
///
///   tp-mc --disassemble X.cubin -o X.sass            whole cubin -> .sass
///   tp-mc --assemble -filetype=obj X.sass -o Y.cubin .sass -> cubin
///
/// --disassemble of a cubin prints this text when the output file name ends
/// in ".sass" (otherwise the per-section listing of Disassemble.cpp, which
/// other tests read).  Instruction lines go through SASSCodec: the ISA
/// layer's decoder and printer (nvdisasm syntax, control clause, branch
/// targets as labels) for every word that prints and parses back to the
/// same 128 bits, `.inst 0x<32 hex digits>` for any other word.  So
/// disassemble then assemble is the identity on bytes.  --assemble
/// warns about each instruction of a form no oracle word reaches, at its
/// line of the .sass file (UnverifiedFormWarnings).
///
//===----------------------------------------------------------------------===//

#include "Commands.h"
#include "tp/Object/CubinFile.h"
#include "tp/Object/SassText.h"
#include "tp/Support/Diagnostics.h"
#include "tp/Support/ToolOutput.h"
#include "tp/Target/SASS/SASS.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

using namespace llvm;
using namespace tp;

namespace {

bool isWordChar(char C) { return isAlnum(C) || C == '_' || C == '.' || C == '$'; }

/// Replaces whole-word occurrences of \p From in \p S by \p To.
std::string replaceWord(StringRef S, StringRef From, StringRef To) {
  std::string Out;
  size_t I = 0;
  while (I < S.size()) {
    size_t P = S.find(From, I);
    if (P == StringRef::npos) {
      Out += S.substr(I).str();
      break;
    }
    bool Left = P == 0 || !isWordChar(S[P - 1]);
    bool Right = P + From.size() >= S.size() || !isWordChar(S[P + From.size()]);
    Out += S.slice(I, P).str();
    Out += (Left && Right) ? To.str() : From.str();
    I = P + From.size();
  }
  return Out;
}

class SASSCodec : public object::InstructionCodec {
public:
  /// The target whose encodings the words use (sm_90: td/Targets.td).
  explicit SASSCodec(sass::Target T = sass::Target::SM86) : Tgt(T) {}
  sass::Target Tgt;
  Expected<std::string>
  decode(ArrayRef<uint8_t> Word, uint64_t Pc,
         const std::map<uint64_t, std::string> &Labels) const override {
    Expected<std::string> Raw =
        object::getRawWordCodec().decode(Word, Pc, Labels);
    if (!Raw || Word.size() != 16)
      return Raw;
    sass::Instruction I;
    if (!sass::decode(sass::readWord(Word), I, Tgt))
      return Raw;
    std::string Text;
    raw_string_ostream OS(Text);
    // Every PC-relative operand whose target has a label prints it.
    sass::print(I, Pc, Labels, OS);
    OS.flush();
    // The control fields that no operand shows as `.reuse`.
    sass::Control C = I.Ctrl;
    const sass::InstrInfo &II = sass::getInstrInfo(I.Op);
    for (unsigned K = 0; K < II.NumOperands; ++K)
      if (II.Operands[K].ReuseSlot >= 0)
        C.Reuse &= ~(1u << II.Operands[K].ReuseSlot);
    raw_string_ostream CS(Text);
    CS << ' ';
    sass::printControl(C, CS);
    CS.flush();
    // Only text that assembles back to the same word is used.
    StringMap<uint64_t> Back;
    for (const auto &KV : Labels)
      Back[KV.second] = KV.first;
    std::array<uint8_t, 16> Again;
    if (Error E = encode(Text, Pc, Back, Again)) {
      consumeError(std::move(E));
      return Raw;
    }
    if (!std::equal(Again.begin(), Again.end(), Word.begin()))
      return Raw;
    return Text;
  }

  /// Where encode() reports instructions of unverified forms: their text
  /// lies in a buffer of *SM (the .sass file).  Null: no warnings (the
  /// round-trip check of decode(), the disassembler).
  mc::UnverifiedFormWarnings *Warnings = nullptr;
  const SourceMgr *SM = nullptr;

  Error encode(StringRef Text, uint64_t Pc, const StringMap<uint64_t> &Labels,
               std::array<uint8_t, 16> &Word) const override {
    StringRef T = Text.trim();
    if (T.startswith(".inst"))
      return object::getRawWordCodec().encode(T, Pc, Labels, Word);
    sass::Opcode Op;
    if (Error E = encodeInstruction(T, Pc, Labels, Word, Op))
      return E;
    if (Warnings && SM && SM->FindBufferContainingLoc(
                              SMLoc::getFromPointer(T.data())))
      Warnings->check(*SM, T, Op);
    return Error::success();
  }

private:
  /// encode() of an instruction (not `.inst`); its form in \p Op.
  Error encodeInstruction(StringRef T, uint64_t Pc,
                          const StringMap<uint64_t> &Labels,
                          std::array<uint8_t, 16> &Word,
                          sass::Opcode &Op) const {
    std::string S = T.str();
    for (const auto &KV : Labels)
      if (StringRef(S).contains(KV.getKey()))
        S = replaceWord(S, KV.getKey(), "0x" + utohexstr(KV.getValue(), true));
    SourceMgr SM;
    SM.AddNewSourceBuffer(MemoryBuffer::getMemBufferCopy(S, "<instruction>"),
                          SMLoc());
    StringRef C = SM.getMemoryBuffer(SM.getMainFileID())->getBuffer();
    sass::Control Ctl;
    bool HasCtl = false;
    if (C.endswith("}")) {
      size_t RB = C.rfind('{');
      if (RB != StringRef::npos) {
        Expected<sass::Control> CtlOr = sass::parseControl(C.substr(RB), SM);
        if (!CtlOr)
          return CtlOr.takeError();
        Ctl = *CtlOr;
        HasCtl = true;
        C = C.substr(0, RB).rtrim();
      }
    }
    Expected<sass::Instruction> IOr = sass::parse(C, Pc, SM, Tgt);
    if (!IOr) {
      // The .sass parser reports at the instruction's line: keep only the
      // message of the ISA parser's located error.
      std::string Msg;
      handleAllErrors(
          IOr.takeError(),
          [&](const SourceError &SE) {
            Msg = SE.getDiagnostic().getMessage().str();
          },
          [&](const ErrorInfoBase &EI) { Msg = EI.message(); });
      return makeError(Msg);
    }
    if (HasCtl) {
      uint8_t Reuse = IOr->Ctrl.Reuse | Ctl.Reuse;
      IOr->Ctrl = Ctl;
      IOr->Ctrl.Reuse = Reuse;
    }
    if (Error E = sass::verify(*IOr, Tgt))
      return E;
    sass::writeWord(sass::encode(*IOr, Tgt), Word.data());
    Op = IOr->Op;
    return Error::success();
  }
};

sass::Target codecTarget(unsigned SM) {
  return SM == 90 ? sass::Target::SM90 : sass::Target::SM86;
}

object::SassOptions sassOptions(unsigned SM = 86) {
  static SASSCodec Codec86(sass::Target::SM86), Codec90(sass::Target::SM90);
  object::SassOptions O;
  O.Codec = codecTarget(SM) == sass::Target::SM90 ? &Codec90 : &Codec86;
  O.Classifier = &object::getTargetClassifier(SM);
  return O;
}

/// The SM of an ELF cubin's e_flags (bits 8..15, SASS_FACTS 3.1), 86 if
/// the bytes are no ELF header.
unsigned cubinSM(ArrayRef<uint8_t> Bytes) {
  if (Bytes.size() < 0x34 || Bytes[0] != 0x7f || Bytes[1] != 'E')
    return 86;
  return Bytes[0x31];
}

} // namespace

int tp::mc::runDisassembleCubin(const Options &Opts) {
  auto BufOr = MemoryBuffer::getFileOrSTDIN(Opts.Input, /*IsText=*/false);
  if (!BufOr) {
    reportError(makeError(Opts.Input + ": " + BufOr.getError().message()),
                "tp-mc");
    return 1;
  }
  ArrayRef<uint8_t> Bytes(
      reinterpret_cast<const uint8_t *>((*BufOr)->getBufferStart()),
      (*BufOr)->getBufferSize());
  Error E = writeOutput(Opts.Output, /*Binary=*/false, [&](raw_ostream &OS) {
    // sm_90 words (BRA's split offset, VIADD) need sm_90's tables.
    return object::disassembleCubinToSass(Bytes, OS, sassOptions(cubinSM(Bytes)));
  });
  if (E) {
    reportError(makeError(Opts.Input + ": " + toString(std::move(E))),
                "tp-mc");
    return 1;
  }
  return 0;
}

int tp::mc::runAssembleCubin(const Options &Opts) {
  auto BufOr = MemoryBuffer::getFileOrSTDIN(Opts.Input, /*IsText=*/true);
  if (!BufOr) {
    reportError(makeError(Opts.Input + ": " + BufOr.getError().message()),
                "tp-mc");
    return 1;
  }
  // The words of an `.target sm_90` file use sm_90's encodings.
  unsigned TargetSM = 86;
  {
    StringRef Text = (*BufOr)->getBuffer();
    size_t P = Text.find("\n.target sm_");
    if (Text.startswith(".target sm_"))
      P = 0;
    else if (P != StringRef::npos)
      ++P;
    if (P != StringRef::npos)
      Text.substr(P + 11).take_while(isDigit).getAsInteger(10, TargetSM);
    // The raw form: `.elf_header ... flags=0x6005a04` (SM in bits 8..15).
    size_t E = Text.find(".elf_header ");
    size_t F = E == StringRef::npos ? E : Text.find(" flags=0x", E);
    uint64_t Flags;
    if (F != StringRef::npos && F < Text.find('\n', E) &&
        !Text.substr(F + 9).take_while(isHexDigit).getAsInteger(16, Flags))
      TargetSM = (Flags >> 8) & 0xff;
  }
  SourceMgr SM;
  unsigned ID = SM.AddNewSourceBuffer(std::move(*BufOr), SMLoc());
  // A codec of its own that reports unverified forms at their lines.
  mc::UnverifiedFormWarnings Warnings(Opts);
  SASSCodec Codec(codecTarget(TargetSM));
  Codec.Warnings = &Warnings;
  Codec.SM = &SM;
  object::SassOptions SassOpts = sassOptions(TargetSM);
  SassOpts.Codec = &Codec;
  Expected<std::vector<uint8_t>> Out = object::assembleCubin(SM, ID, SassOpts);
  if (!Out)
    return reportError(Out.takeError(), "tp-mc") ? 1 : 0;
  if (Warnings.hasErrors())
    return 1;
  Error E = writeOutput(Opts.Output, /*Binary=*/true, [&](raw_ostream &OS) {
    OS.write(reinterpret_cast<const char *>(Out->data()), Out->size());
    return Error::success();
  });
  return reportError(std::move(E), "tp-mc") ? 1 : 0;
}
