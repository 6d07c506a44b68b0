//===- SassCodec.cpp - The SASS instruction set as .sass instruction lines ===//
///
/// \file
/// SassCodec: decode() prints a word with sass::print, its branch target
/// as a label and its control clause, then encodes that text again and
/// keeps it only if it gives back the same 128 bits (else `.inst`).
/// encode() splits off the control clause, parses the rest with
/// sass::parse (labels through the kernel's table) and checks it with
/// sass::verify; in place when the text lies in the SourceMgr's buffer,
/// so errors are located in the `.sass` file.
///
//===----------------------------------------------------------------------===//

#include "tp/Object/SassCodec.h"
#include "tp/Object/Module.h"
#include "tp/Support/Diagnostics.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include <memory>
#include <vector>

using namespace llvm;

namespace tp {
namespace object {

namespace {

/// \p I as decode() prints it: nvdisasm text, every PC-relative operand
/// whose target has a label as that label (sass::getPCRelativeTarget: BRA,
/// BSSY, CALL.REL, RET.REL on every target, sm_90's split offsets
/// included), then the control fields that no operand shows as `.reuse`.
std::string instructionText(const sass::Instruction &I, uint64_t Pc,
                            const sass::LabelMap &Labels) {
  std::string Text;
  raw_string_ostream OS(Text);
  sass::print(I, Pc, Labels, OS);
  sass::Control C = I.Ctrl;
  const sass::InstrInfo &II = sass::getInstrInfo(I.Op);
  for (unsigned K = 0; K < II.NumOperands; ++K)
    if (II.Operands[K].ReuseSlot >= 0)
      C.Reuse &= ~(1u << II.Operands[K].ReuseSlot);
  OS << ' ';
  sass::printControl(C, OS);
  return OS.str();
}

/// Parses instruction text \p T (in a buffer of \p Buf) with its optional
/// control clause and checks that every value fits on \p Tgt.
Expected<sass::Instruction> parseLine(const SourceMgr &Buf, StringRef T,
                                      uint64_t Pc,
                                      const StringMap<uint64_t> &Labels,
                                      sass::Target Tgt) {
  StringRef C = T;
  sass::Control Ctl;
  bool HasCtl = false;
  if (C.endswith("}")) {
    size_t RB = C.rfind('{');
    if (RB != StringRef::npos) {
      Expected<sass::Control> CtlOr = sass::parseControl(C.substr(RB), Buf);
      if (!CtlOr)
        return CtlOr.takeError();
      Ctl = *CtlOr;
      HasCtl = true;
      C = C.substr(0, RB).rtrim();
    }
  }
  Expected<sass::Instruction> IOr = sass::parse(C, Pc, Buf, Tgt, &Labels);
  if (!IOr)
    return IOr.takeError();
  if (HasCtl)
    sass::applyControl(*IOr, Ctl);
  if (Error E = sass::verify(*IOr, Tgt))
    return makeSourceError(Buf, SMLoc::getFromPointer(C.data()),
                           toString(std::move(E)));
  return IOr;
}

/// The message of \p E without its location (the text it was located in
/// is a private copy).
std::string messageOf(Error E) {
  std::string Msg;
  handleAllErrors(
      std::move(E),
      [&](const SourceError &SE) {
        Msg = SE.getDiagnostic().getMessage().str();
      },
      [&](const ErrorInfoBase &EI) { Msg = EI.message(); });
  return Msg;
}

} // namespace

Expected<std::string>
SassCodec::decode(ArrayRef<uint8_t> Word, uint64_t Pc,
                  const std::map<uint64_t, std::string> &Labels) const {
  Expected<std::string> Raw = getRawWordCodec().decode(Word, Pc, Labels);
  if (!Raw || Word.size() != 16)
    return Raw;
  sass::Word128 W = sass::readWord(Word);
  Expected<sass::Instruction> IOr = sass::decodeOrError(W, Pc, Tgt);
  if (!IOr) {
    rawWord(toString(IOr.takeError()));
    return Raw;
  }
  std::string Text = instructionText(*IOr, Pc, Labels);
  // Only text that assembles back to the same word is used.
  StringMap<uint64_t> Back;
  for (const auto &KV : Labels)
    Back[KV.second] = KV.first;
  std::array<uint8_t, 16> Again;
  sass::Opcode Op;
  Error E = encodeLine(Text, Pc, Back, Again, Op);
  if (E || !std::equal(Again.begin(), Again.end(), Word.begin())) {
    std::string Why = E ? " (" + toString(std::move(E)) + ")" : "";
    rawWord("instruction at address 0x" +
            utohexstr(Pc, /*LowerCase=*/true) + ": " + Raw->substr(6) +
            " (" + Text + ") does not assemble back to its word" + Why);
    return Raw;
  }
  return Text;
}

Error SassCodec::encode(StringRef Text, uint64_t Pc,
                        const StringMap<uint64_t> &Labels,
                        std::array<uint8_t, 16> &Word) const {
  StringRef T = Text.trim();
  if (T.startswith(".inst"))
    return getRawWordCodec().encode(T, Pc, Labels, Word);
  sass::Opcode Op;
  if (Error E = encodeLine(T, Pc, Labels, Word, Op))
    return E;
  if (OnInstruction)
    OnInstruction(T, Op);
  return Error::success();
}

Error SassCodec::encodeLine(StringRef T, uint64_t Pc,
                            const StringMap<uint64_t> &Labels,
                            std::array<uint8_t, 16> &Word,
                            sass::Opcode &Op) const {
  Expected<sass::Instruction> IOr = [&]() -> Expected<sass::Instruction> {
    if (SM && SM->FindBufferContainingLoc(SMLoc::getFromPointer(T.data())))
      return parseLine(*SM, T, Pc, Labels, Tgt);
    SourceMgr Own;
    Own.AddNewSourceBuffer(MemoryBuffer::getMemBufferCopy(T, "<instruction>"),
                           SMLoc());
    Expected<sass::Instruction> I = parseLine(
        Own, Own.getMemoryBuffer(1)->getBuffer(), Pc, Labels, Tgt);
    if (!I)
      return makeError(messageOf(I.takeError()));
    return I;
  }();
  if (!IOr)
    return IOr.takeError();
  sass::writeWord(sass::encode(*IOr, Tgt), Word.data());
  Op = IOr->Op;
  return Error::success();
}

void SassCodec::rawWord(const std::string &Why) const {
  if (OnRawWord)
    OnRawWord(Why + "; printed as .inst");
}

SassOptions getSassOptions(sass::Target T) {
  static const std::vector<std::unique_ptr<SassCodec>> Codecs = [] {
    std::vector<std::unique_ptr<SassCodec>> V;
    for (unsigned I = 0; I < sass::getNumTargets(); ++I)
      V.push_back(std::make_unique<SassCodec>(sass::Target(I)));
    return V;
  }();
  SassOptions O;
  O.Codec = Codecs[unsigned(T)].get();
  O.Classifier = &getTargetClassifier(sass::getTargetSM(T));
  return O;
}

unsigned getCubinSM(ArrayRef<uint8_t> Bytes) {
  // e_flags is the u32 at 0x30 of the 64-byte ELF64 header.
  return Bytes.size() >= 64 ? Bytes[0x31] : 0;
}

Expected<sass::Target> getCubinTarget(ArrayRef<uint8_t> Bytes) {
  if (Bytes.size() < 64)
    return makeError("truncated cubin: " + Twine(Bytes.size()) +
                     " bytes, shorter than an ELF64 header (64 bytes)");
  unsigned SM = getCubinSM(Bytes);
  sass::Target T;
  if (!sass::lookupTarget("sm_" + std::to_string(SM), T))
    return makeError("the cubin is for sm_" + Twine(SM) +
                     " (ELF e_flags), which tp does not support (" +
                     sass::getTargetList() + ")");
  return T;
}

sass::Target getSassTextTarget(StringRef Text) {
  unsigned SM = 86;
  size_t P = Text.startswith(".target sm_") ? 0 : Text.find("\n.target sm_");
  if (P != StringRef::npos) {
    P += Text[P] == '\n';
    Text.substr(P + 11).take_while(isDigit).getAsInteger(10, SM);
  }
  // The raw form: `.elf_header ... flags=0x6005a04` (SM in bits 8..15).
  size_t E = Text.find(".elf_header ");
  size_t F = E == StringRef::npos ? E : Text.find(" flags=0x", E);
  uint64_t Flags;
  if (F != StringRef::npos && F < Text.find('\n', E) &&
      !Text.substr(F + 9).take_while(isHexDigit).getAsInteger(16, Flags))
    SM = (Flags >> 8) & 0xff;
  sass::Target T = sass::Target::SM86;
  sass::lookupTarget("sm_" + std::to_string(SM), T);
  return T;
}

} // namespace object
} // namespace tp
