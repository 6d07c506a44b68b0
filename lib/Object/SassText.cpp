//===- SassText.cpp - Whole-cubin SASS text (.sass), print and parse ------===//
///
/// \file
/// Printer: kernel form when kernelFormReproduces() (printKernelForm,
/// printKernelDirectives), else raw form (printRawForm).
/// Parser: one pass over lines; each line loses a leading `/*...*/`
/// address comment and a trailing `//` comment, then is a directive, a
/// label (`name:`) or an instruction line.  Each directive is one method
/// (parseTarget, parseKernel, parseParam, ... for the kernel form,
/// parseElfHeader, parseSection, ... for the raw form), found through the
/// form's directive table.  Instruction lines of a kernel (or of an
/// executable raw section) are collected with their byte offset and
/// encoded when the kernel ends, after all its labels are known; then the
/// kernel's metadata is checked against its code (checkRegisterCount).
///
/// Grammar (docs/sass-format.md has the full list):
///   file      ::= kernel-form | raw-form
///   kernel-form ::= module-directive* kernel+
///   kernel    ::= '.kernel' NAME kernel-directive* (label | insn)*
///   '.end_kernel' raw-form  ::= '.raw_cubin' raw-directive*
///
//===----------------------------------------------------------------------===//

#include "tp/Object/SassText.h"
#include "CubinBuild.h"
#include "tp/Object/NvInfo.h"
#include "tp/Support/Diagnostics.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace llvm;

namespace tp {
namespace object {

InstructionCodec::~InstructionCodec() = default;

namespace {

//===----------------------------------------------------------------------===//
// The raw-word codec
//===----------------------------------------------------------------------===//

class RawWordCodec : public InstructionCodec {
public:
  Expected<std::string>
  decode(ArrayRef<uint8_t> Word, uint64_t,
         const std::map<uint64_t, std::string> &) const override {
    if (Word.size() != 16)
      return makeError("an instruction is 16 bytes");
    std::string S = ".inst 0x";
    for (int I = 15; I >= 0; --I)
      S += utohexstr(Word[I] | 0x100, true).substr(1);
    return S;
  }
  Error encode(StringRef Text, uint64_t, const StringMap<uint64_t> &,
               std::array<uint8_t, 16> &Word) const override {
    StringRef Rest = Text.trim();
    if (!Rest.consume_front(".inst"))
      return makeError("expected '.inst 0x<32 hex digits>' (this build has "
                       "no instruction encoder), found '" +
                       Text + "'");
    Rest = Rest.trim();
    if (!Rest.consume_front("0x") || Rest.size() != 32 ||
        !all_of(Rest, isHexDigit))
      return makeError("expected 32 hex digits after '.inst 0x', found '" +
                       Rest + "'");
    for (int I = 0; I < 16; ++I)
      Word[15 - I] = hexFromNibbles(Rest[2 * I], Rest[2 * I + 1]);
    return Error::success();
  }
};

std::string hex(uint64_t V) { return "0x" + utohexstr(V, /*LowerCase=*/true); }

std::string quote(StringRef S) {
  std::string Q = "\"";
  for (unsigned char C : S) {
    if (C == '"' || C == '\\')
      Q += std::string("\\") + char(C);
    else if (C < 0x20 || C >= 0x7f)
      Q += "\\x" + utohexstr(C | 0x100, true).substr(1);
    else
      Q += char(C);
  }
  return Q + "\"";
}

std::string hexBytes(ArrayRef<uint8_t> B) {
  std::string S;
  for (uint8_t X : B)
    S += utohexstr(X | 0x100, true).substr(1);
  return S;
}

/// Appends the bytes hexBytes() spelled as \p H (checked by the caller:
/// an even number of hex digits) to \p Out.
void appendHexBytes(StringRef H, std::vector<uint8_t> &Out) {
  for (size_t J = 0; J + 1 < H.size(); J += 2)
    Out.push_back(hexFromNibbles(H[J], H[J + 1]));
}

/// The targets of PC-relative operands (BRA, BSSY, CALL.REL, ...) inside
/// [0, Size), named .L_x_0, .L_x_1, ... in address order.
std::map<uint64_t, std::string> findLabels(ArrayRef<uint8_t> Code,
                                           const InstrClassifier &C) {
  std::map<uint64_t, std::string> L;
  for (size_t Off = 0; Off + 16 <= Code.size(); Off += 16)
    if (Optional<uint64_t> T = C.pcRelativeTarget(Code.slice(Off, 16), Off))
      if (*T < Code.size() && *T % 16 == 0)
        L[*T] = "";
  unsigned N = 0;
  for (auto &KV : L)
    KV.second = ".L_x_" + std::to_string(N++);
  return L;
}

Error printCode(ArrayRef<uint8_t> Code, raw_ostream &OS,
                const SassOptions &Opts) {
  std::map<uint64_t, std::string> Labels = findLabels(Code, *Opts.Classifier);
  for (size_t Off = 0; Off + 16 <= Code.size(); Off += 16) {
    auto It = Labels.find(Off);
    if (It != Labels.end())
      OS << It->second << ":\n";
    Expected<std::string> T =
        Opts.Codec->decode(Code.slice(Off, 16), Off, Labels);
    if (!T)
      return T.takeError();
    OS << "  " << format("/*%04x*/", unsigned(Off)) << " " << *T << "\n";
  }
  return Error::success();
}

/// The raw-word codec and target \p SM's opcode classifier unless given.
SassOptions withDefaults(SassOptions O, unsigned SM) {
  if (!O.Codec)
    O.Codec = &getRawWordCodec();
  if (!O.Classifier)
    O.Classifier = &getTargetClassifier(SM);
  return O;
}

Expected<Module> recomputedModule(const CubinFile &F,
                                  const InstrClassifier &C) {
  Expected<Module> M = interpretCubin(F);
  if (!M)
    return M.takeError();
  for (Kernel &K : M->Kernels)
    scanControlFlow(K, C);
  return M;
}

} // namespace

const InstructionCodec &getRawWordCodec() {
  static RawWordCodec C;
  return C;
}

bool kernelFormReproduces(const CubinFile &F, const InstrClassifier &C) {
  Expected<Module> M = recomputedModule(F, C);
  if (!M) {
    consumeError(M.takeError());
    return false;
  }
  // `.info` spells SVAL payloads as u32 words.
  for (const Kernel &K : M->Kernels) {
    std::vector<const std::vector<NvInfoRecord> *> Lists = {
        &K.OtherInfoBeforeExit, &K.OtherInfoAfterExit};
    if (K.Mercury) {
      Lists.push_back(&K.Mercury->OtherInfoBeforeExit);
      Lists.push_back(&K.Mercury->OtherInfoAfterExit);
    }
    for (const auto *L : Lists)
      for (const NvInfoRecord &R : *L)
        if (R.Format == 4 && R.Payload.size() % 4)
          return false;
  }
  Expected<CubinFile> G = buildCubin(*M);
  if (!G) {
    consumeError(G.takeError());
    return false;
  }
  std::vector<uint8_t> A, B;
  if (Error E = writeCubinFile(F, A)) {
    consumeError(std::move(E));
    return false;
  }
  if (Error E = writeCubinFile(*G, B)) {
    consumeError(std::move(E));
    return false;
  }
  return A == B;
}

//===----------------------------------------------------------------------===//
// Printer
//===----------------------------------------------------------------------===//

namespace {
/// `.info` / `.mercury_info` lines for \p Before and \p After.
void printInfoLines(StringRef Directive, ArrayRef<NvInfoRecord> Before,
                    ArrayRef<NvInfoRecord> After, raw_ostream &OS) {
  for (const auto &[Where, L] :
       {std::make_pair("before_exit", Before),
        std::make_pair("after_exit", After)})
    for (const NvInfoRecord &R : L) {
      StringRef Name = getNvAttrName(R.Attr);
      OS << Directive << " " << Where << " "
         << (Name.empty() ? hex(R.Attr) : Name.str()) << " "
         << getNvFormatName(R.Format);
      if (R.Format == 4)
        for (uint32_t W : R.words())
          OS << " " << hex(W);
      else if (R.Format != 1 || R.Value)
        OS << " " << hex(R.Value);
      OS << "\n";
    }
}

/// Blackwell's Mercury copy of a kernel (docs/sass-format.md).
void printMercury(const MercuryCode &MC, raw_ostream &OS) {
  OS << ".mercury size=" << hex(MC.CodeSize)
     << " block_end=" << hex(MC.CfaBlockEnd);
  if (MC.ExitPoint)
    OS << " exit_point=" << hex(*MC.ExitPoint);
  OS << "\n";
  if (!MC.ExitOffsets.empty()) {
    OS << ".mercury_exits";
    for (uint32_t E : MC.ExitOffsets)
      OS << " " << hex(E);
    OS << "\n";
  }
  if (!MC.CapRelocs.empty()) {
    OS << ".mercury_smem_cap_relocs";
    for (uint32_t R : MC.CapRelocs)
      OS << " " << hex(R);
    OS << "\n";
  }
  for (const MercuryCode::CallReloc &R : MC.CallRelocs)
    OS << ".mercury_call_reloc offset=" << hex(R.Offset)
       << " addend=" << hex(R.Addend) << "\n";
  printInfoLines(".mercury_info", MC.OtherInfoBeforeExit,
                 MC.OtherInfoAfterExit, OS);
  for (size_t P = 0; P < MC.Bytes.size(); P += 32)
    OS << ".mercury_bytes "
       << hexBytes(ArrayRef<uint8_t>(MC.Bytes).slice(
              P, std::min<size_t>(32, MC.Bytes.size() - P)))
       << "\n";
}

/// Plain names as they are; anything else (possible in a cubin we read)
/// as a string.
std::string nameToken(StringRef Name) {
  bool Plain = !Name.empty() &&
               all_of(Name,
                      [](char C) {
                        return isAlnum(C) || C == '_' || C == '$' || C == '.';
                      }) &&
               Name[0] != '.' && Name[0] != '"';
  return Plain ? Name.str() : quote(Name);
}

/// The module's variables: `.global` / `.const` lines in declaration
/// order; `offset=` on every line unless placeGlobals gives them all.
void printGlobals(const Module &M, raw_ostream &OS) {
  std::vector<GlobalVar> Placed = M.Globals;
  placeGlobals(Placed);
  bool Derived = true;
  for (size_t I = 0; I < Placed.size(); ++I)
    Derived &= Placed[I].Offset == M.Globals[I].Offset;
  for (const GlobalVar &V : M.Globals) {
    OS << (V.Space == GlobalVar::Const ? ".const " : ".global ")
       << nameToken(V.Name) << " " << V.Size << " align=" << V.Align;
    if (!Derived)
      OS << " offset=" << hex(V.Offset);
    if (V.Visible)
      OS << " visible";
    if (V.Initialized || V.Space == GlobalVar::Const)
      OS << " init=" << hexBytes(V.Init);
    OS << "\n";
  }
}

/// A kernel's directives (`.kernel` ... before its code), in the order the
/// parser's methods read them.
void printKernelDirectives(const Kernel &K, const InstrClassifier &C,
                           raw_ostream &OS) {
  OS << "\n.kernel " << nameToken(K.Name) << "\n";
  for (const KernelParam &P : K.Params) {
    OS << ".param " << P.Offset << " " << P.Size;
    if (P.Index)
      OS << " index=" << P.Index;
    if (P.Flags)
      OS << " flags=" << hex(P.Flags);
    OS << "\n";
  }
  OS << ".regs " << K.RegCount << "\n";
  if (K.MaxRegCount != 0xff)
    OS << ".max_regs " << K.MaxRegCount << "\n";
  if (K.NumBarriers)
    OS << ".barriers " << K.NumBarriers << "\n";
  if (K.emitsSharedSection())
    OS << ".shared " << K.SharedBytes << " align=" << K.SharedAlign
       << (K.SharedUnused ? " unused" : "") << "\n";
  if (K.MaxThreads)
    OS << ".max_threads " << (*K.MaxThreads)[0] << " " << (*K.MaxThreads)[1]
       << " " << (*K.MaxThreads)[2] << "\n";
  if (K.ReqNTid)
    OS << ".reqntid " << (*K.ReqNTid)[0] << " " << (*K.ReqNTid)[1] << " "
       << (*K.ReqNTid)[2] << "\n";
  if (K.CtaidZUsed)
    OS << ".ctaidz_used\n";
  if (K.UsesExtern)
    OS << ".uses_extern\n";
  for (size_t P = 0; P < K.Constant2.size(); P += 32)
    OS << ".constant2 "
       << hexBytes(ArrayRef<uint8_t>(K.Constant2)
                       .slice(P, std::min<size_t>(32, K.Constant2.size() - P)))
       << "\n";
  printInfoLines(".info", K.OtherInfoBeforeExit, K.OtherInfoAfterExit, OS);
  if (K.FrameSize)
    OS << ".frame_size " << K.FrameSize << "\n";
  if (K.MinStackSize)
    OS << ".min_stack_size " << K.MinStackSize << "\n";
  if (K.FrameSize && K.FrameCfa != detail::deriveFrameCfa(K, C))
    OS << ".frame_cfa " << hex(K.FrameCfa) << "\n";
  for (const Callee &Cl : K.Callees) {
    OS << ".callee " << quote(Cl.Name) << " offset=" << hex(Cl.Offset)
       << " size=" << hex(Cl.Size);
    if (Cl.FrameSize)
      OS << " frame_size=" << Cl.FrameSize;
    if (Cl.ReturnReg != 2)
      OS << " return_reg=" << Cl.ReturnReg;
    if (!Cl.CallerRegs.empty()) {
      OS << " caller_regs=";
      ListSeparator Comma(",");
      for (unsigned R : Cl.CallerRegs)
        OS << Comma << R;
    }
    if (!Cl.FdeOps.empty())
      OS << " fde=" << hexBytes(Cl.FdeOps);
    if (Cl.MercuryOffset)
      OS << " mercury_offset=" << hex(*Cl.MercuryOffset);
    if (Cl.MercuryFrameSize)
      OS << " mercury_frame_size=" << Cl.MercuryFrameSize;
    if (!Cl.MercuryFdeOps.empty())
      OS << " mercury_fde=" << hexBytes(Cl.MercuryFdeOps);
    OS << "\n";
  }
  if (K.Mercury)
    printMercury(*K.Mercury, OS);
}

/// The kernel form of \p M: module directives, then each kernel.
Error printKernelForm(const Module &M, raw_ostream &OS,
                      const SassOptions &Opts) {
  OS << "// tp .sass, kernel form (docs/sass-format.md)\n";
  OS << ".target sm_" << M.SM << "\n";
  OS << ".cuda_api " << M.CudaApiVersion << "\n";
  OS << ".tool_note " << M.Tool.Format << " " << quote(M.Tool.ObjectName) << " "
     << quote(M.Tool.Tool) << " " << quote(M.Tool.Version) << " "
     << quote(M.Tool.BuildId) << " " << quote(M.Tool.Options) << "\n";
  if (M.Compat)
    OS << ".compat " << hexBytes(*M.Compat) << "\n";
  if (M.SassOnly)
    OS << ".binary_kind sass\n";
  printGlobals(M, OS);
  for (const Kernel &K : M.Kernels) {
    printKernelDirectives(K, *Opts.Classifier, OS);
    if (Error E = printCode(K.Code, OS, Opts))
      return E;
    OS << ".end_kernel\n";
  }
  return Error::success();
}

/// The raw form of \p F: every header field, section and program header.
Error printRawForm(const CubinFile &F, raw_ostream &OS,
                   const SassOptions &Opts) {
  const ElfHeader &H = F.Header;
  OS << "// tp .sass, raw form (docs/sass-format.md)\n.raw_cubin\n";
  OS << ".elf_header ident=" << hexBytes(H.Ident) << " type=" << H.Type
     << " machine=" << H.Machine << " version=" << H.Version
     << " entry=" << hex(H.Entry) << " phoff=" << hex(H.PhOff)
     << " shoff=" << hex(H.ShOff) << " flags=" << hex(H.Flags)
     << " ehsize=" << H.EhSize << " phentsize=" << H.PhEntSize
     << " shentsize=" << H.ShEntSize << " shstrndx=" << H.ShStrNdx << "\n";
  OS << ".file_size " << hex(F.FileSize) << "\n";
  for (size_t I = 0; I < F.Sections.size(); ++I) {
    const Section &S = F.Sections[I];
    OS << "\n.section " << I << " " << quote(S.Name)
       << " name=" << hex(S.NameOffset) << " type=" << hex(S.Type)
       << " flags=" << hex(S.Flags) << " addr=" << hex(S.Addr)
       << " offset=" << hex(S.Offset) << " size=" << hex(S.Size)
       << " link=" << S.Link << " info=" << hex(S.Info)
       << " align=" << S.AddrAlign << " entsize=" << S.EntSize << "\n";
    if (S.Data.empty())
      continue;
    bool Code = (S.Flags & ELF::SHF_EXECINSTR) && S.Data.size() % 16 == 0;
    if (Code) {
      if (Error E = printCode(S.Data, OS, Opts))
        return E;
      continue;
    }
    for (size_t P = 0; P < S.Data.size(); P += 32)
      OS << ".bytes "
         << hexBytes(ArrayRef<uint8_t>(S.Data).slice(
                P, std::min<size_t>(32, S.Data.size() - P)))
         << "\n";
  }
  OS << "\n";
  for (const ProgramHeader &P : F.ProgramHeaders)
    OS << ".phdr type=" << hex(P.Type) << " flags=" << hex(P.Flags)
       << " offset=" << hex(P.Offset) << " vaddr=" << hex(P.VAddr)
       << " paddr=" << hex(P.PAddr) << " filesz=" << hex(P.FileSz)
       << " memsz=" << hex(P.MemSz) << " align=" << P.Align << "\n";
  for (const auto &[Off, Bytes] : F.Filler)
    OS << ".filler " << hex(Off) << " " << hexBytes(Bytes) << "\n";
  return Error::success();
}
} // namespace

Error printSass(const CubinFile &F, raw_ostream &OS,
                const SassOptions &InOpts) {
  SassOptions Opts = withDefaults(InOpts, F.Header.sm());
  if (!Opts.ForceRaw && kernelFormReproduces(F, *Opts.Classifier))
    return printKernelForm(cantFail(recomputedModule(F, *Opts.Classifier)), OS,
                           Opts);
  return printRawForm(F, OS, Opts);
}

//===----------------------------------------------------------------------===//
// Parser
//===----------------------------------------------------------------------===//

namespace {

struct Token {
  StringRef Text;    ///< as written (quotes included for strings)
  std::string Value; ///< unescaped for strings, else Text
  bool IsString = false;
};

class Parser {
public:
  Parser(SourceMgr &SM, unsigned BufferID, const SassOptions &Opts)
      : SM(SM), Buffer(SM.getMemoryBuffer(BufferID)->getBuffer()), Opts(Opts) {}

  Expected<CubinFile> run();

private:
  enum class Form { Unknown, Kernel, Raw };

  struct PendingInsn {
    StringRef Text;
    uint64_t Pc;
  };
  /// The code being collected (a kernel's or a raw section's).
  struct CodeBlock {
    std::vector<PendingInsn> Insns;
    StringMap<uint64_t> Labels;
    uint64_t Pc = 0;
  };
  using Tokens = std::vector<Token>;
  using KeyValueMap = std::map<std::string, std::pair<uint64_t, StringRef>>;
  /// A directive's method: \p Toks[0] is the directive.
  using DirectiveFn = Error (Parser::*)(Tokens &Toks);

  Error err(StringRef At, const Twine &Msg) {
    return makeSourceError(SM, SMLoc::getFromPointer(At.data()), Msg);
  }
  Error tokenize(StringRef Line, std::vector<Token> &Out);
  Expected<uint64_t> number(const Token &T, uint64_t Max = ~0ull);
  /// key=value tokens starting at \p From.
  Error keyValues(ArrayRef<Token> Toks, size_t From, KeyValueMap &KV,
                  ArrayRef<StringRef> Allowed,
                  ArrayRef<StringRef> Optional = {});
  Error needArgs(ArrayRef<Token> Toks, size_t N, StringRef Usage);
  Error finishCode(CodeBlock &B, std::vector<uint8_t> &Out);
  /// Checks that \p K's register count (the `.regs` operand \p RegsValue,
  /// empty when the kernel has none; then the error is at \p KernelStart)
  /// covers every register its code uses.
  Error checkRegisterCount(const Kernel &K, const InstrClassifier &C,
                           StringRef RegsValue, StringRef KernelStart);
  Error addCodeLine(StringRef Line, CodeBlock &B);

  /// One line without its `//` comment and leading /*addr*/, trimmed.
  Expected<StringRef> stripLine(StringRef Line);
  /// Whether \p Line is code (a label or an instruction) of the kernel or
  /// raw section being read, rather than a directive.
  bool isCodeLine(StringRef Line) const;
  /// The method of directive \p D in the current form, or null.
  DirectiveFn rawDirective(StringRef D) const;
  DirectiveFn kernelDirective(StringRef D) const;
  /// Ends the raw section being read (its code encoded, its size checked).
  Error finishRawSection();
  Expected<CubinFile> finishRaw();
  Expected<CubinFile> finishKernelForm();

  // Raw form (`.raw_cubin`).
  Error parseElfHeader(Tokens &Toks);
  Error parseFileSize(Tokens &Toks);
  Error parseSection(Tokens &Toks);
  Error parseBytes(Tokens &Toks);
  Error parsePhdr(Tokens &Toks);
  Error parseFiller(Tokens &Toks);
  // Kernel form: module directives.
  Error parseTarget(Tokens &Toks);
  Error parseCudaApi(Tokens &Toks);
  Error parseToolNote(Tokens &Toks);
  Error parseCompat(Tokens &Toks);
  Error parseBinaryKind(Tokens &Toks);
  /// `.global` and `.const`: a module variable (Module::Globals).
  Error parseGlobal(Tokens &Toks);
  /// The variables' offsets (given on all or none) and overlaps.
  Error finishGlobals();
  Error parseKernel(Tokens &Toks);
  // Kernel form: directives inside `.kernel` ... `.end_kernel`.
  Error parseEndKernel(Tokens &Toks);
  Error parseParam(Tokens &Toks);
  /// `.regs`, `.max_regs`, `.barriers`, `.frame_size`, `.min_stack_size`,
  /// `.frame_cfa`.
  Error parseCount(Tokens &Toks);
  /// At `.end_kernel`: the stack-frame directives of \p K against its code
  /// (CubinFrames.cpp), each error at the directive's operand.
  Error checkStackFrameDirectives(Kernel &K, const InstrClassifier &C);
  Error parseShared(Tokens &Toks);
  /// `.callee`: a device function the kernel calls (Kernel::Callees).
  Error parseCallee(Tokens &Toks);
  Error parseInfo(Tokens &Toks);
  Error parseCtaidZUsed(Tokens &Toks);
  Error parseUsesExtern(Tokens &Toks);
  /// `.constant2 <hex>`: bytes of constant bank 2 (Kernel::Constant2).
  Error parseConstant2(Tokens &Toks);
  /// `.max_threads` and `.reqntid`.
  Error parseThreadBounds(Tokens &Toks);
  // Blackwell's Mercury copy of the kernel.
  Error parseMercury(Tokens &Toks);
  /// `.mercury_exits` and `.mercury_smem_cap_relocs`.
  Error parseMercuryOffsets(Tokens &Toks);
  Error parseMercuryBytes(Tokens &Toks);
  /// `.mercury_call_reloc`: a call's .nv.merc.rela.text.K entry.
  Error parseMercuryCallReloc(Tokens &Toks);
  /// The Mercury copy, or an error at \p D when `.mercury` has not come.
  Expected<MercuryCode *> mercury(StringRef D);

  SourceMgr &SM;
  StringRef Buffer;
  SassOptions Opts;

  Form F = Form::Unknown;
  CodeBlock Code;
  // Kernel form.
  Module M;
  bool HaveTarget = false;
  Kernel *K = nullptr;   ///< the kernel being read
  StringRef KernelStart; ///< its `.kernel`, for errors
  StringRef RegsValue;   ///< its `.regs` operand, for errors
  /// Its `.frame_size`, `.min_stack_size` and `.frame_cfa` operands, for
  /// errors (checkStackFrame).
  StringRef FrameSizeValue, MinStackValue, FrameCfaValue;
  std::vector<StringRef> GlobalAt; ///< each variable's name, for errors
  StringRef FirstCallee; ///< the kernel's first `.callee`, for errors
  StringRef FirstCallReloc; ///< its first `.mercury_call_reloc`, for errors
  /// Its `.mercury` directive and exit_point= key, for errors (checkExitPoint).
  StringRef MercuryAt, MercuryExitPoint;
  StringRef OffsetGiven, OffsetMissing; ///< a variable with / without offset=
  // Raw form.
  CubinFile Raw;
  bool HaveHeader = false;
  bool HaveFileSize = false;
  Section *RawSec = nullptr; ///< the section being read
  bool RawSecIsCode = false;
  StringRef RawSecStart;
};

Error Parser::tokenize(StringRef Line, std::vector<Token> &Out) {
  size_t I = 0;
  while (I < Line.size()) {
    if (isSpace(Line[I])) {
      ++I;
      continue;
    }
    size_t Start = I;
    Token T;
    if (Line[I] == '"') {
      T.IsString = true;
      ++I;
      while (true) {
        if (I >= Line.size())
          return err(Line.substr(Start), "unterminated string");
        char C = Line[I];
        if (C == '"') {
          ++I;
          break;
        }
        if (C == '\\') {
          if (I + 1 >= Line.size())
            return err(Line.substr(I), "unterminated escape");
          char E = Line[I + 1];
          if (E == '"' || E == '\\') {
            T.Value += E;
            I += 2;
          } else if (E == 'x' && I + 3 < Line.size() + 0 &&
                     isHexDigit(Line[I + 2]) && isHexDigit(Line[I + 3])) {
            T.Value += char(hexFromNibbles(Line[I + 2], Line[I + 3]));
            I += 4;
          } else {
            return err(Line.substr(I), "unknown escape in string");
          }
          continue;
        }
        T.Value += C;
        ++I;
      }
      T.Text = Line.slice(Start, I);
    } else {
      while (I < Line.size() && !isSpace(Line[I]))
        ++I;
      T.Text = Line.slice(Start, I);
      T.Value = T.Text.str();
    }
    Out.push_back(std::move(T));
  }
  return Error::success();
}

Expected<uint64_t> Parser::number(const Token &T, uint64_t Max) {
  uint64_t V;
  if (T.IsString || StringRef(T.Value).getAsInteger(0, V))
    return err(T.Text, "expected a number, found '" + T.Text + "'");
  if (V > Max)
    return err(T.Text, "value " + T.Text + " is out of range (at most " +
                           Twine(Max) + ")");
  return V;
}

Error Parser::needArgs(ArrayRef<Token> Toks, size_t N, StringRef Usage) {
  if (Toks.size() < N + 1)
    return err(Toks[0].Text, "expected " + Usage);
  return Error::success();
}

Error Parser::keyValues(
    ArrayRef<Token> Toks, size_t From,
    std::map<std::string, std::pair<uint64_t, StringRef>> &KV,
    ArrayRef<StringRef> Allowed, ArrayRef<StringRef> Optional) {
  for (size_t I = From; I < Toks.size(); ++I) {
    StringRef Key, Val;
    std::tie(Key, Val) = Toks[I].Text.split('=');
    if (Toks[I].IsString || !Toks[I].Text.contains('='))
      return err(Toks[I].Text,
                 "expected key=value, found '" + Toks[I].Text + "'");
    if (!is_contained(Allowed, Key) && !is_contained(Optional, Key))
      return err(Toks[I].Text, "unknown key '" + Key + "'");
    if (KV.count(Key.str()))
      return err(Toks[I].Text, "key '" + Key + "' given twice");
    uint64_t V = 0;
    if (Key != "ident" && Val.getAsInteger(0, V))
      return err(Toks[I].Text,
                 "expected a number after '" + Key + "=', found '" + Val + "'");
    KV[Key.str()] = {V, Val};
  }
  for (StringRef K : Allowed)
    if (!KV.count(K.str()))
      return err(Toks[0].Text, "missing key '" + K + "'");
  return Error::success();
}

Error Parser::addCodeLine(StringRef Line, CodeBlock &B) {
  if (Line.endswith(":") && !Line.contains(' ')) {
    StringRef Name = Line.drop_back();
    if (Name.empty())
      return err(Line, "empty label");
    if (!B.Labels.try_emplace(Name, B.Pc).second)
      return err(Line, "label '" + Name + "' defined twice");
    return Error::success();
  }
  B.Insns.push_back({Line, B.Pc});
  B.Pc += 16;
  return Error::success();
}

Error Parser::finishCode(CodeBlock &B, std::vector<uint8_t> &Out) {
  Out.clear();
  for (const PendingInsn &I : B.Insns) {
    std::array<uint8_t, 16> W{};
    if (Error E = Opts.Codec->encode(I.Text, I.Pc, B.Labels, W)) {
      // A codec that parsed the line in place located the error itself.
      if (E.isA<SourceError>())
        return E;
      return err(I.Text, toString(std::move(E)));
    }
    Out.insert(Out.end(), W.begin(), W.end());
  }
  B = CodeBlock();
  return Error::success();
}

Error Parser::checkRegisterCount(const Kernel &K, const InstrClassifier &C,
                                 StringRef RegsValue, StringRef KernelStart) {
  auto [Used, UsedAt] = getRegistersUsed(K, C);
  if (K.RegCount >= Used)
    return Error::success();
  std::string Where;
  raw_string_ostream(Where) << format("/*%04x*/", unsigned(UsedAt));
  std::string Why = "kernel '" + K.Name + "' uses R" +
                    std::to_string(Used - 1) + " (at " + Where + "), ";
  if (RegsValue.empty())
    return err(KernelStart, Why + "but has no '.regs' (at least " +
                                Twine(Used) + " needed)");
  return err(RegsValue, Why + "more than the " + Twine(K.RegCount) +
                            " registers '.regs' gives (at least " +
                            Twine(Used) + " needed)");
}

Expected<StringRef> Parser::stripLine(StringRef Line) {
  // Strip a `//` comment outside strings, then a leading /*addr*/.
  bool InStr = false;
  for (size_t I = 0; I < Line.size(); ++I) {
    if (Line[I] == '\\' && InStr) {
      ++I;
      continue;
    }
    if (Line[I] == '"')
      InStr = !InStr;
    if (!InStr && Line.substr(I).startswith("//")) {
      Line = Line.take_front(I);
      break;
    }
  }
  Line = Line.trim();
  if (Line.startswith("/*")) {
    size_t End = Line.find("*/");
    if (End == StringRef::npos)
      return err(Line, "unterminated '/*'");
    Line = Line.drop_front(End + 2).trim();
  }
  return Line;
}

bool Parser::isCodeLine(StringRef Line) const {
  // Inside code, a line is a directive only if its first word is one of
  // the directives allowed there; anything else is a label or an
  // instruction for the codec.
  StringRef First = Line.split(' ').first.split('\t').first;
  if (F == Form::Kernel && K)
    return !kernelDirective(First) && First != ".global" &&
           First != ".const"; // misplaced: parseGlobal says so

  return F == Form::Raw && RawSec && RawSecIsCode && !rawDirective(First);
}

Parser::DirectiveFn Parser::rawDirective(StringRef D) const {
  return StringSwitch<DirectiveFn>(D)
      .Case(".elf_header", &Parser::parseElfHeader)
      .Case(".file_size", &Parser::parseFileSize)
      .Case(".section", &Parser::parseSection)
      .Case(".bytes", &Parser::parseBytes)
      .Case(".phdr", &Parser::parsePhdr)
      .Case(".filler", &Parser::parseFiller)
      .Default(nullptr);
}

Parser::DirectiveFn Parser::kernelDirective(StringRef D) const {
  return StringSwitch<DirectiveFn>(D)
      .Case(".end_kernel", &Parser::parseEndKernel)
      .Case(".param", &Parser::parseParam)
      .Cases(".regs", ".max_regs", ".barriers", ".frame_size",
             ".min_stack_size", ".frame_cfa", &Parser::parseCount)
      .Case(".shared", &Parser::parseShared)
      .Case(".callee", &Parser::parseCallee)
      .Case(".info", &Parser::parseInfo)
      .Case(".ctaidz_used", &Parser::parseCtaidZUsed)
      .Case(".uses_extern", &Parser::parseUsesExtern)
      .Case(".constant2", &Parser::parseConstant2)
      .Cases(".max_threads", ".reqntid", &Parser::parseThreadBounds)
      .Case(".mercury", &Parser::parseMercury)
      .Cases(".mercury_exits", ".mercury_smem_cap_relocs",
             &Parser::parseMercuryOffsets)
      .Case(".mercury_info", &Parser::parseInfo)
      .Case(".mercury_bytes", &Parser::parseMercuryBytes)
      .Case(".mercury_call_reloc", &Parser::parseMercuryCallReloc)
      .Default(nullptr);
}

Expected<CubinFile> Parser::run() {
  SmallVector<StringRef, 0> Lines;
  Buffer.split(Lines, '\n');
  for (StringRef RawLine : Lines) {
    Expected<StringRef> Line = stripLine(RawLine);
    if (!Line)
      return Line.takeError();
    if (Line->empty())
      continue;
    if (isCodeLine(*Line)) {
      if (Error E = addCodeLine(*Line, Code))
        return E;
      continue;
    }
    Tokens Toks;
    if (Error E = tokenize(*Line, Toks))
      return E;
    StringRef D = Toks[0].Text;
    if (F == Form::Unknown) {
      F = D == ".raw_cubin" ? Form::Raw : Form::Kernel;
      if (F == Form::Raw)
        continue;
    }
    DirectiveFn Fn = nullptr;
    if (F == Form::Raw) {
      Fn = rawDirective(D);
      if (!Fn)
        return err(D, "unknown directive '" + D + "' in the raw form");
    } else {
      Fn = StringSwitch<DirectiveFn>(D)
               .Case(".target", &Parser::parseTarget)
               .Case(".cuda_api", &Parser::parseCudaApi)
               .Case(".tool_note", &Parser::parseToolNote)
               .Case(".compat", &Parser::parseCompat)
               .Case(".binary_kind", &Parser::parseBinaryKind)
               .Cases(".global", ".const", &Parser::parseGlobal)
               .Case(".kernel", &Parser::parseKernel)
               .Default(nullptr);
      if (!Fn && !K)
        return err(D, "unknown or misplaced directive '" + D +
                          "' (kernel directives go after '.kernel')");
      if (!Fn)
        Fn = kernelDirective(D);
      if (!Fn)
        return err(D, "unknown directive '" + D + "'");
    }
    if (Error E = (this->*Fn)(Toks))
      return E;
  }
  return F == Form::Raw ? finishRaw() : finishKernelForm();
}

//===--- The raw form ---------------------------------------------------===//

Error Parser::finishRawSection() {
  if (!RawSec)
    return Error::success();
  if (RawSecIsCode)
    if (Error E = finishCode(Code, RawSec->Data))
      return E;
  if (!RawSec->isNoBits() && RawSec->Type != ELF::SHT_NULL &&
      RawSec->Data.size() != RawSec->Size)
    return err(RawSecStart, "section has size " + hex(RawSec->Size) + " but " +
                                Twine(RawSec->Data.size()) +
                                " bytes of content");
  RawSec = nullptr;
  return Error::success();
}

Error Parser::parseElfHeader(Tokens &Toks) {
  KeyValueMap KV;
  if (Error E = keyValues(Toks, 1, KV,
                          {"ident", "type", "machine", "version", "entry",
                           "phoff", "shoff", "flags", "ehsize", "phentsize",
                           "shentsize", "shstrndx"}))
    return E;
  StringRef Id = KV["ident"].second;
  if (Id.size() != 32 || !all_of(Id, isHexDigit))
    return err(Toks[1].Text, "ident must be 32 hex digits");
  ElfHeader &H = Raw.Header;
  for (int I = 0; I < 16; ++I)
    H.Ident[I] = hexFromNibbles(Id[2 * I], Id[2 * I + 1]);
  H.Type = KV["type"].first;
  H.Machine = KV["machine"].first;
  H.Version = KV["version"].first;
  H.Entry = KV["entry"].first;
  H.PhOff = KV["phoff"].first;
  H.ShOff = KV["shoff"].first;
  H.Flags = KV["flags"].first;
  H.EhSize = KV["ehsize"].first;
  H.PhEntSize = KV["phentsize"].first;
  H.ShEntSize = KV["shentsize"].first;
  H.ShStrNdx = KV["shstrndx"].first;
  HaveHeader = true;
  return Error::success();
}

Error Parser::parseFileSize(Tokens &Toks) {
  if (Error E = needArgs(Toks, 1, "'.file_size <bytes>'"))
    return E;
  Expected<uint64_t> V = number(Toks[1], uint64_t(1) << 32);
  if (!V)
    return V.takeError();
  Raw.FileSize = *V;
  HaveFileSize = true;
  return Error::success();
}

Error Parser::parseSection(Tokens &Toks) {
  StringRef D = Toks[0].Text;
  if (Error E = finishRawSection())
    return E;
  if (Toks.size() < 3 || !Toks[2].IsString)
    return err(D, "expected '.section <index> \"<name>\" key=value...'");
  Expected<uint64_t> Idx = number(Toks[1], 0xfeff);
  if (!Idx)
    return Idx.takeError();
  if (*Idx != Raw.Sections.size())
    return err(Toks[1].Text,
               "expected section index " + Twine(Raw.Sections.size()));
  KeyValueMap KV;
  if (Error E = keyValues(Toks, 3, KV,
                          {"name", "type", "flags", "addr", "offset", "size",
                           "link", "info", "align", "entsize"}))
    return E;
  Section S;
  S.Name = Toks[2].Value;
  S.NameOffset = KV["name"].first;
  S.Type = KV["type"].first;
  S.Flags = KV["flags"].first;
  S.Addr = KV["addr"].first;
  S.Offset = KV["offset"].first;
  S.Size = KV["size"].first;
  S.Link = KV["link"].first;
  S.Info = KV["info"].first;
  S.AddrAlign = KV["align"].first;
  S.EntSize = KV["entsize"].first;
  Raw.Sections.push_back(std::move(S));
  RawSec = &Raw.Sections.back();
  RawSecStart = D;
  RawSecIsCode = (RawSec->Flags & ELF::SHF_EXECINSTR) && !RawSec->isNoBits() &&
                 RawSec->Size % 16 == 0 && RawSec->Size;
  return Error::success();
}

Error Parser::parseBytes(Tokens &Toks) {
  StringRef D = Toks[0].Text;
  if (!RawSec || RawSecIsCode)
    return err(D, "'.bytes' outside a data section");
  for (size_t I = 1; I < Toks.size(); ++I) {
    StringRef H = Toks[I].Text;
    if (H.size() % 2 || !all_of(H, isHexDigit))
      return err(H, "expected an even number of hex digits");
    appendHexBytes(H, RawSec->Data);
  }
  if (RawSec->Data.size() > RawSec->Size)
    return err(D, "more bytes than the section's size " + hex(RawSec->Size));
  return Error::success();
}

Error Parser::parsePhdr(Tokens &Toks) {
  if (Error E = finishRawSection())
    return E;
  KeyValueMap KV;
  if (Error E = keyValues(Toks, 1, KV,
                          {"type", "flags", "offset", "vaddr", "paddr",
                           "filesz", "memsz", "align"}))
    return E;
  ProgramHeader P;
  P.Type = KV["type"].first;
  P.Flags = KV["flags"].first;
  P.Offset = KV["offset"].first;
  P.VAddr = KV["vaddr"].first;
  P.PAddr = KV["paddr"].first;
  P.FileSz = KV["filesz"].first;
  P.MemSz = KV["memsz"].first;
  P.Align = KV["align"].first;
  Raw.ProgramHeaders.push_back(P);
  return Error::success();
}

Error Parser::parseFiller(Tokens &Toks) {
  if (Error E = finishRawSection())
    return E;
  if (Error E = needArgs(Toks, 2, "'.filler <offset> <hex bytes>'"))
    return E;
  Expected<uint64_t> Off = number(Toks[1], uint64_t(1) << 32);
  if (!Off)
    return Off.takeError();
  StringRef H = Toks[2].Text;
  if (H.size() % 2 || H.empty() || !all_of(H, isHexDigit))
    return err(H, "expected an even number of hex digits");
  std::vector<uint8_t> B;
  appendHexBytes(H, B);
  Raw.Filler.emplace_back(*Off, std::move(B));
  return Error::success();
}

Expected<CubinFile> Parser::finishRaw() {
  if (Error E = finishRawSection())
    return E;
  if (!HaveHeader || !HaveFileSize)
    return err(Buffer.take_front(1), "the raw form needs '.elf_header' and "
                                     "'.file_size'");
  Raw.Header.ShNum = Raw.Sections.size();
  Raw.Header.PhNum = Raw.ProgramHeaders.size();
  return Raw;
}

//===--- The kernel form: module directives ------------------------------===//

Error Parser::parseTarget(Tokens &Toks) {
  if (Error E = needArgs(Toks, 1, "'.target sm_<N>'"))
    return E;
  StringRef T = Toks[1].Text;
  unsigned SMNum;
  if (!T.consume_front("sm_") || T.getAsInteger(10, SMNum) ||
      !getTargetInfo(SMNum))
    return err(Toks[1].Text, "unknown target '" + Toks[1].Text +
                                 "' (expected " + sass::getTargetList() + ")");
  M.SM = SMNum;
  HaveTarget = true;
  return Error::success();
}

Error Parser::parseCudaApi(Tokens &Toks) {
  if (Error E = needArgs(Toks, 1, "'.cuda_api <version>'"))
    return E;
  Expected<uint64_t> V = number(Toks[1], 0xffff);
  if (!V)
    return V.takeError();
  M.CudaApiVersion = *V;
  return Error::success();
}

Error Parser::parseToolNote(Tokens &Toks) {
  if (Toks.size() != 7 || !Toks[2].IsString || !Toks[3].IsString ||
      !Toks[4].IsString || !Toks[5].IsString || !Toks[6].IsString)
    return err(Toks[0].Text, "expected '.tool_note <format> \"object\" "
                             "\"tool\" \"version\" \"build\" \"options\"'");
  Expected<uint64_t> V = number(Toks[1], 0xffffffff);
  if (!V)
    return V.takeError();
  M.Tool = {static_cast<uint32_t>(*V),
            Toks[2].Value,
            Toks[3].Value,
            Toks[4].Value,
            Toks[5].Value,
            Toks[6].Value};
  return Error::success();
}

Error Parser::parseCompat(Tokens &Toks) {
  StringRef D = Toks[0].Text;
  if (K)
    return err(D, "'.compat' goes before the first '.kernel'");
  if (Toks.size() != 2)
    return err(D, "expected '.compat <hex bytes>'");
  StringRef H = Toks[1].Text;
  if (H.empty() || H.size() % 8 || Toks[1].IsString || !all_of(H, isHexDigit))
    return err(H, "expected .nv.compat's bytes: a multiple of 4, in hex");
  std::vector<uint8_t> B;
  appendHexBytes(H, B);
  M.Compat = std::move(B);
  return Error::success();
}

/// `.binary_kind sass`: a Blackwell cubin without the Mercury copy
/// (Module::SassOnly, what tp-llc writes); capmerc, ptxas's kind, is the
/// default and needs no directive.
Error Parser::parseBinaryKind(Tokens &Toks) {
  StringRef D = Toks[0].Text;
  if (K)
    return err(D, "'.binary_kind' goes before the first '.kernel'");
  if (Toks.size() != 2 || Toks[1].IsString ||
      (Toks[1].Text != "sass" && Toks[1].Text != "capmerc"))
    return err(D, "expected '.binary_kind sass' or '.binary_kind capmerc'");
  if (!hasMercuryKind(M.SM))
    return err(Toks[1].Text, "sm_" + Twine(M.SM) +
                                 " cubins have one binary kind; "
                                 "'.binary_kind' is for sm_100, sm_120 "
                                 "and sm_121");
  M.SassOnly = Toks[1].Text == "sass";
  if (M.SassOnly && !M.Globals.empty())
    return err(Toks[1].Text, "a SASS-only cubin with '.global' or '.const' "
                             "variables: no ptxas cubin confirms that layout");
  return Error::success();
}

/// `.global <name> <size> [align=N] [offset=N] [init=<hex>]` (without
/// init=: .nv.global, NOBITS) and `.const <name> <size> [align=N]
/// [offset=N] [init=<hex>]` (without init=: zero bytes).
Error Parser::parseGlobal(Tokens &Toks) {
  StringRef D = Toks[0].Text;
  if (K || !M.Kernels.empty())
    return err(D, "'" + D + "' goes before the first '.kernel'");
  if (M.SassOnly)
    return err(D, "'" + D + "' variables in a SASS-only cubin (.binary_kind "
                      "sass): no ptxas cubin confirms that layout");
  if (Toks.size() < 3 || Toks[1].Value.empty())
    return err(D, "expected '" + D +
                      " <name> <size> [align=<n>] [offset=<n>] [visible] "
                      "[init=<hex bytes>]'");
  GlobalVar V;
  V.Name = Toks[1].Value;
  V.Space = D == ".const" ? GlobalVar::Const : GlobalVar::Global;
  for (size_t I = 0; I < M.Globals.size(); ++I)
    if (M.Globals[I].Name == V.Name)
      return err(Toks[1].Text, "variable '" + V.Name + "' defined twice");
  const uint64_t MaxSize =
      V.Space == GlobalVar::Const ? 0x10000 : 0xffffffffull;
  Expected<uint64_t> Size = number(Toks[2], MaxSize);
  if (!Size)
    return Size.takeError();
  if (!*Size)
    return err(Toks[2].Text, "a variable has at least one byte");
  V.Size = *Size;
  StringRef Offset;
  for (size_t I = 3; I < Toks.size(); ++I) {
    StringRef Key, Val;
    std::tie(Key, Val) = Toks[I].Text.split('=');
    uint64_t N = 0;
    if (Toks[I].Text == "visible" && !Toks[I].IsString) {
      if (V.Visible)
        return err(Toks[I].Text, "'visible' given twice");
      V.Visible = true;
    } else if (Key == "init" && !Toks[I].IsString) {
      if (Val.size() != 2 * V.Size || !all_of(Val, isHexDigit))
        return err(Toks[I].Text, "expected init=<" + Twine(2 * V.Size) +
                                     " hex digits> (the " + Twine(V.Size) +
                                     " bytes)");
      appendHexBytes(Val, V.Init);
      V.Initialized = true;
    } else if (Key == "align" && !Val.getAsInteger(0, N)) {
      if (!N || !isPowerOf2_64(N) || N > 4096)
        return err(Toks[I].Text, "expected align=<power of two, at most 4096>");
      V.Align = N;
    } else if (Key == "offset" && !Val.getAsInteger(0, N)) {
      if (N > MaxSize - V.Size)
        return err(Toks[I].Text, "offset " + Val + " puts the variable's end "
                                 "past " + hex(MaxSize));
      V.Offset = N;
      Offset = Toks[I].Text;
    } else {
      return err(Toks[I].Text, "expected align=<n>, offset=<n>, visible or "
                               "init=<hex bytes>, found '" +
                                   Toks[I].Text + "'");
    }
  }
  if (!Offset.empty() && V.Offset % V.Align)
    return err(Offset, "offset " + hex(V.Offset) +
                           " is not a multiple of the alignment " +
                           Twine(V.Align));
  if (V.Space == GlobalVar::Const && !V.Initialized)
    V.Init.assign(V.Size, 0);
  (Offset.empty() ? OffsetMissing : OffsetGiven) =
      Offset.empty() ? Toks[1].Text : Offset;
  if (!OffsetGiven.empty() && !OffsetMissing.empty())
    return err(Offset.empty() ? Toks[1].Text : Offset,
               "give offset= to every variable or to none (then they are "
               "placed by decreasing alignment)");
  GlobalAt.push_back(Toks[1].Text);
  M.Globals.push_back(std::move(V));
  return Error::success();
}

Error Parser::finishGlobals() {
  if (OffsetGiven.empty())
    placeGlobals(M.Globals);
  // .nv.constant3, .nv.global.init, .nv.global.
  auto SectionOf = [](const GlobalVar &V) {
    return V.Space == GlobalVar::Const ? 0 : V.Initialized ? 1 : 2;
  };
  for (size_t I = 0; I < M.Globals.size(); ++I) {
    const GlobalVar &V = M.Globals[I];
    for (const Kernel &Kn : M.Kernels)
      if (Kn.Name == V.Name)
        return err(GlobalAt[I], "variable '" + V.Name +
                                    "' has the name of a kernel");
    for (size_t J = 0; J < I; ++J) {
      const GlobalVar &O = M.Globals[J];
      if (SectionOf(O) == SectionOf(V) && V.Offset < O.Offset + O.Size &&
          O.Offset < V.Offset + V.Size)
        return err(GlobalAt[I],
                   "variable '" + V.Name + "' (offset " + hex(V.Offset) +
                       ", " + Twine(V.Size) + " bytes) overlaps variable '" +
                       O.Name + "' (offset " + hex(O.Offset) + ", " +
                       Twine(O.Size) + " bytes)");
    }
  }
  return Error::success();
}

Error Parser::parseKernel(Tokens &Toks) {
  StringRef D = Toks[0].Text;
  if (K)
    return err(D, "'.kernel' inside kernel '" + K->Name +
                      "' (missing '.end_kernel')");
  if (Toks.size() != 2 || Toks[1].Value.empty())
    return err(D, "expected '.kernel <name>' (a quoted string for a "
                  "name with other characters)");
  for (const Kernel &O : M.Kernels)
    if (O.Name == Toks[1].Value)
      return err(Toks[1].Text, "kernel '" + O.Name + "' defined twice");
  M.Kernels.emplace_back();
  K = &M.Kernels.back();
  K->Name = Toks[1].Value;
  KernelStart = D;
  RegsValue = FrameSizeValue = MinStackValue = FrameCfaValue = StringRef();
  FirstCallee = FirstCallReloc = MercuryAt = MercuryExitPoint = StringRef();
  return Error::success();
}

Expected<CubinFile> Parser::finishKernelForm() {
  if (K)
    return err(KernelStart, "kernel '" + K->Name + "' has no '.end_kernel'");
  if (!HaveTarget)
    return err(Buffer.take_front(1), "missing '.target'");
  if (M.Kernels.empty())
    return err(Buffer.take_front(1), "no '.kernel'");
  if (Error E = finishGlobals())
    return E;
  Expected<CubinFile> Out = buildCubin(M);
  if (!Out)
    return err(Buffer.take_front(1), toString(Out.takeError()));
  return Out;
}

//===--- The kernel form: inside a kernel ---------------------------------===//

Error Parser::parseEndKernel(Tokens &Toks) {
  if (Error E = finishCode(Code, K->Code))
    return E;
  if (K->Code.empty())
    return err(Toks[0].Text, "kernel '" + K->Name + "' has no instructions");
  const InstrClassifier &C =
      Opts.Classifier ? *Opts.Classifier : getTargetClassifier(M.SM);
  if (Error E = checkRegisterCount(*K, C, RegsValue, KernelStart))
    return E;
  if (!FirstCallee.empty())
    if (Error E = detail::checkCallees(*K, /*SassOnly=*/false))
      return err(FirstCallee, toString(std::move(E)));
  if (!FirstCallReloc.empty())
    if (Error E = detail::checkMercuryCallRelocs(*K))
      return err(FirstCallReloc, toString(std::move(E)));
  scanControlFlow(*K, C);
  // (A code size buildCubin refuses is its error, reported first.)
  if (K->Code.size() % 128 == 0)
    if (Error E = detail::checkExitPoint(*K, /*Mercury=*/false))
      return err(KernelStart, toString(std::move(E)));
  // (Mercury code on another target: buildCubin's error.)
  if (hasMercuryKind(M.SM))
    if (Error E = detail::checkExitPoint(*K, /*Mercury=*/true))
      return err(MercuryExitPoint.empty() ? MercuryAt : MercuryExitPoint,
                 toString(std::move(E)));
  if (Error E = checkStackFrameDirectives(*K, C))
    return E;
  K = nullptr;
  return Error::success();
}

Error Parser::checkStackFrameDirectives(Kernel &Kn, const InstrClassifier &C) {
  if (!Kn.FrameSize) {
    if (!FrameCfaValue.empty())
      return err(FrameCfaValue, "'.frame_cfa' without a stack frame "
                                "('.frame_size' is 0 or absent)");
    if (!MinStackValue.empty())
      return err(MinStackValue,
                 "'.min_stack_size' without '.frame_size' (calls are not "
                 "modelled; the kernel form needs the two equal)");
    return Error::success();
  }
  if (Kn.MinStackSize != Kn.FrameSize)
    return err(MinStackValue.empty() ? FrameSizeValue : MinStackValue,
               "kernel '" + Kn.Name + "': '.min_stack_size' " +
                   Twine(Kn.MinStackSize) + " must equal '.frame_size' " +
                   Twine(Kn.FrameSize) +
                   " (a larger stack means calls, which are not modelled)");
  if (FrameCfaValue.empty()) {
    Kn.FrameCfa = detail::deriveFrameCfa(Kn, C);
    if (!Kn.FrameCfa)
      return err(FrameSizeValue,
                 "kernel '" + Kn.Name +
                     "' has a stack frame, but no instruction moves the "
                     "stack pointer (writes R1 from R1) and no '.frame_cfa' "
                     "gives the offset past it");
  }
  if (Error E = detail::checkStackFrame(Kn, detail::fdePrologueBytes(M.SM)))
    return err(FrameCfaValue.empty() ? FrameSizeValue : FrameCfaValue,
               toString(std::move(E)));
  return Error::success();
}

Error Parser::parseParam(Tokens &Toks) {
  if (Toks.size() < 3)
    return err(Toks[0].Text,
               "expected '.param <offset> <size> [index=N] [flags=N]'");
  KernelParam P;
  Expected<uint64_t> Off = number(Toks[1], 0xffff);
  if (!Off)
    return Off.takeError();
  Expected<uint64_t> Size = number(Toks[2], (1u << 14) - 1);
  if (!Size)
    return Size.takeError();
  P.Offset = *Off;
  P.Size = *Size;
  for (const KernelParam &O : K->Params)
    if (P.Offset < O.Offset + O.Size && O.Offset < P.Offset + P.Size)
      return err(Toks[1].Text,
                 "parameter bytes " + Twine(P.Offset) + ".." +
                     Twine(P.Offset + P.Size - 1) +
                     " overlap those of the parameter at offset " +
                     Twine(O.Offset) + " (" + Twine(O.Size) + " bytes)");
  for (size_t I = 3; I < Toks.size(); ++I) {
    StringRef Key, Val;
    std::tie(Key, Val) = Toks[I].Text.split('=');
    uint64_t V;
    if (Val.getAsInteger(0, V) || V > 0xffffffff ||
        (Key != "index" && Key != "flags") || (Key == "flags" && V > 0xfff))
      return err(Toks[I].Text, "expected index=<n> or flags=<n < 0x1000>");
    (Key == "index" ? P.Index : P.Flags) = V;
  }
  K->Params.push_back(P);
  return Error::success();
}

Error Parser::parseCount(Tokens &Toks) {
  StringRef D = Toks[0].Text;
  if (Toks.size() != 2)
    return err(D, "expected '" + D + " <n>'");
  // M.SM is valid: '.target' accepts only known targets, and the default
  // (86) is one.
  uint64_t Max = D == ".regs"       ? getTargetInfo(M.SM)->MaxRegisters
                 : D == ".max_regs" ? 0xffff
                 : D == ".barriers" ? 16
                                    : 0xffffffff;
  Expected<uint64_t> V = number(Toks[1], Max);
  if (!V)
    return V.takeError();
  if (D == ".regs") {
    K->RegCount = *V;
    RegsValue = Toks[1].Text;
  } else if (D == ".max_regs") {
    K->MaxRegCount = *V;
  } else if (D == ".barriers") {
    K->NumBarriers = *V;
  } else if (D == ".frame_size") {
    K->FrameSize = *V;
    FrameSizeValue = Toks[1].Text;
  } else if (D == ".frame_cfa") {
    K->FrameCfa = *V;
    FrameCfaValue = Toks[1].Text;
  } else {
    K->MinStackSize = *V;
    MinStackValue = Toks[1].Text;
  }
  return Error::success();
}

Error Parser::parseShared(Tokens &Toks) {
  StringRef D = Toks[0].Text;
  if (Toks.size() < 2 || Toks.size() > 4)
    return err(D, "expected '.shared <static bytes> [align=<n>] [unused]'");
  // CUDA limit for static shared memory per block: 48 KiB.
  Expected<uint64_t> V = number(Toks[1], 48 * 1024);
  if (!V)
    return V.takeError();
  K->SharedBytes = *V;
  K->HasSharedSection = true;
  if (Toks.back().Text == "unused" && Toks.size() > 2) {
    K->SharedUnused = true;
    Toks.pop_back();
  }
  if (Toks.size() == 4)
    return err(Toks[3].Text, "expected 'unused'");
  if (Toks.size() == 3) {
    StringRef A = Toks[2].Text;
    uint64_t Al;
    if (!A.consume_front("align=") || A.getAsInteger(0, Al) || !Al ||
        !isPowerOf2_64(Al) || Al > 4096)
      return err(Toks[2].Text, "expected align=<power of two>");
    K->SharedAlign = Al;
  }
  return Error::success();
}

Error Parser::parseCallee(Tokens &Toks) {
  StringRef D = Toks[0].Text;
  if (Toks.size() < 3 || Toks[1].Value.empty())
    return err(D, "expected '.callee <name> offset=<n> size=<n> "
                  "[frame_size=<n>] [return_reg=<n>] [caller_regs=<n>,...] "
                  "[fde=<hex bytes>] "
                  "[mercury_offset=<n>] [mercury_frame_size=<n>] "
                  "[mercury_fde=<hex bytes>]'");
  Callee Cl;
  Cl.Name = Toks[1].Value;
  for (const Callee &O : K->Callees)
    if (O.Name == Cl.Name)
      return err(Toks[1].Text, "callee '" + Cl.Name + "' given twice");
  bool HaveOffset = false, HaveSize = false;
  for (size_t I = 2; I < Toks.size(); ++I) {
    StringRef Key, Val;
    std::tie(Key, Val) = Toks[I].Text.split('=');
    uint64_t N = 0;
    if ((Key == "fde" || Key == "mercury_fde") && !Toks[I].IsString) {
      if (Val.empty() || Val.size() % 2 || !all_of(Val, isHexDigit))
        return err(Toks[I].Text, "expected " + Key +
                                     "=<hex bytes> (the FDE's call-frame "
                                     "instructions)");
      appendHexBytes(Val, Key == "fde" ? Cl.FdeOps : Cl.MercuryFdeOps);
    } else if (Key == "caller_regs" && !Toks[I].IsString) {
      SmallVector<StringRef, 4> Regs;
      Val.split(Regs, ',');
      for (StringRef R : Regs) {
        unsigned Reg = 0;
        if (R.getAsInteger(10, Reg))
          return err(Toks[I].Text, "expected caller_regs=<n>,... (the "
                                   "register numbers of the CIE's "
                                   "DW_CFA_same_value rows before the "
                                   "return register's)");
        Cl.CallerRegs.push_back(Reg);
      }
    } else if ((Key == "offset" || Key == "size" || Key == "frame_size" ||
                Key == "return_reg" || Key == "mercury_offset" ||
                Key == "mercury_frame_size") &&
               !Val.getAsInteger(0, N) && N <= 0xffffffff) {
      if (Key == "return_reg")
        Cl.ReturnReg = N;
      else if (Key == "offset")
        Cl.Offset = N, HaveOffset = true;
      else if (Key == "size")
        Cl.Size = N, HaveSize = true;
      else if (Key == "frame_size")
        Cl.FrameSize = N;
      else if (Key == "mercury_offset")
        Cl.MercuryOffset = N;
      else
        Cl.MercuryFrameSize = N;
    } else {
      return err(Toks[I].Text, "expected offset=<n>, size=<n>, "
                               "frame_size=<n>, return_reg=<n>, "
                               "caller_regs=<n>,..., "
                               "fde=<hex bytes>, mercury_offset=<n>, "
                               "mercury_frame_size=<n> or "
                               "mercury_fde=<hex bytes>, found '" +
                                   Toks[I].Text + "'");
    }
  }
  if (!HaveOffset || !HaveSize)
    return err(D, "'.callee " + Cl.Name + "' needs offset=<n> and size=<n>");
  if (FirstCallee.empty())
    FirstCallee = D;
  K->Callees.push_back(std::move(Cl));
  return Error::success();
}

Error Parser::parseInfo(Tokens &Toks) {
  StringRef D = Toks[0].Text;
  if (Toks.size() < 4 ||
      (Toks[1].Text != "before_exit" && Toks[1].Text != "after_exit"))
    return err(D, "expected '" + D +
                      " before_exit|after_exit <attribute> "
                      "NVAL|BVAL|HVAL|SVAL [values]'");
  MercuryCode *MC = nullptr;
  if (D == ".mercury_info") {
    Expected<MercuryCode *> P = mercury(D);
    if (!P)
      return P.takeError();
    MC = *P;
  }
  NvInfoRecord R;
  int A = lookupNvAttr(Toks[2].Text);
  uint64_t Num;
  if (A < 0 && !Toks[2].Text.getAsInteger(0, Num) && Num < 256)
    A = static_cast<int>(Num);
  if (A < 0)
    return err(Toks[2].Text, "unknown attribute '" + Toks[2].Text + "'");
  R.Attr = A;
  R.Format = StringSwitch<uint8_t>(Toks[3].Text)
                 .Case("NVAL", 1)
                 .Case("BVAL", 2)
                 .Case("HVAL", 3)
                 .Case("SVAL", 4)
                 .Default(0);
  if (!R.Format)
    return err(Toks[3].Text, "expected NVAL, BVAL, HVAL or SVAL");
  if (R.Format != 4 && Toks.size() > 5)
    return err(Toks[5].Text, "a " + Toks[3].Text + " takes one value");
  std::vector<uint32_t> Words;
  for (size_t I = 4; I < Toks.size(); ++I) {
    Expected<uint64_t> V = number(Toks[I], R.Format == 2   ? 0xff
                                           : R.Format == 4 ? 0xffffffff
                                                           : 0xffff);
    if (!V)
      return V.takeError();
    if (R.Format == 4)
      Words.push_back(*V);
    else
      R.Value = *V;
  }
  if (R.Format == 4) {
    if (Words.size() > 0x3fff)
      return err(D, "too many words");
    R = NvInfoRecord::sval(static_cast<NvAttr>(R.Attr), Words);
  }
  const bool Before = Toks[1].Text == "before_exit";
  if (MC)
    (Before ? MC->OtherInfoBeforeExit : MC->OtherInfoAfterExit).push_back(R);
  else
    (Before ? K->OtherInfoBeforeExit : K->OtherInfoAfterExit).push_back(R);
  return Error::success();
}

Expected<MercuryCode *> Parser::mercury(StringRef D) {
  if (!K->Mercury)
    return err(D, "'" + D + "' before '.mercury' (the Mercury copy of "
                            "kernel '" + K->Name + "' starts there)");
  return &*K->Mercury;
}

Error Parser::parseMercury(Tokens &Toks) {
  StringRef D = Toks[0].Text;
  if (K->Mercury)
    return err(D, "kernel '" + K->Name + "' has a second '.mercury'");
  KeyValueMap KV;
  if (Error E = keyValues(Toks, 1, KV, {"size", "block_end"}, {"exit_point"}))
    return E;
  MercuryAt = D;
  MercuryCode MC;
  for (const auto &[Key, Value] : KV)
    if (Value.first > 0xffffffff)
      return err(Value.second, "value is out of range (32 bits)");
  MC.CodeSize = KV["size"].first;
  MC.CfaBlockEnd = KV["block_end"].first;
  if (MC.CfaBlockEnd > MC.CodeSize)
    return err(KV["block_end"].second,
               "the first block end is past the Mercury code's size");
  if (KV.count("exit_point")) {
    MercuryExitPoint = KV["exit_point"].second;
    MC.ExitPoint = KV["exit_point"].first;
    if (*MC.ExitPoint >= MC.CodeSize)
      return err(MercuryExitPoint,
                 "the exit point is past the Mercury code's size");
  }
  K->Mercury = std::move(MC);
  return Error::success();
}

Error Parser::parseMercuryOffsets(Tokens &Toks) {
  StringRef D = Toks[0].Text;
  Expected<MercuryCode *> MC = mercury(D);
  if (!MC)
    return MC.takeError();
  if (Toks.size() < 2)
    return err(D, "expected '" + D + " <offset>...'");
  std::vector<uint32_t> &Out =
      D == ".mercury_exits" ? (*MC)->ExitOffsets : (*MC)->CapRelocs;
  for (size_t I = 1; I < Toks.size(); ++I) {
    Expected<uint64_t> V = number(Toks[I], 0xffffffff);
    if (!V)
      return V.takeError();
    if (D == ".mercury_exits" && *V >= (*MC)->CodeSize)
      return err(Toks[I].Text,
                 "EXIT offset is past the Mercury code's size " +
                     hex((*MC)->CodeSize));
    Out.push_back(*V);
  }
  return Error::success();
}

Error Parser::parseMercuryBytes(Tokens &Toks) {
  StringRef D = Toks[0].Text;
  Expected<MercuryCode *> MC = mercury(D);
  if (!MC)
    return MC.takeError();
  if (Toks.size() < 2)
    return err(D, "expected '.mercury_bytes <hex bytes>'");
  for (size_t I = 1; I < Toks.size(); ++I) {
    StringRef H = Toks[I].Text;
    if (H.size() % 2 || Toks[I].IsString || !all_of(H, isHexDigit))
      return err(H, "expected an even number of hex digits");
    appendHexBytes(H, (*MC)->Bytes);
  }
  return Error::success();
}

Error Parser::parseMercuryCallReloc(Tokens &Toks) {
  StringRef D = Toks[0].Text;
  Expected<MercuryCode *> MC = mercury(D);
  if (!MC)
    return MC.takeError();
  KeyValueMap KV;
  if (Error E = keyValues(Toks, 1, KV, {"offset", "addend"}))
    return E;
  for (const char *Key : {"offset", "addend"})
    if (KV[Key].first > 0xffffffff)
      return err(KV[Key].second, "value is out of range (32 bits)");
  (*MC)->CallRelocs.push_back({static_cast<uint32_t>(KV["offset"].first),
                               static_cast<uint32_t>(KV["addend"].first)});
  if (FirstCallReloc.empty())
    FirstCallReloc = D;
  return Error::success();
}

Error Parser::parseCtaidZUsed(Tokens &Toks) {
  if (Toks.size() != 1)
    return err(Toks[1].Text, "'.ctaidz_used' takes no operand");
  K->CtaidZUsed = true;
  return Error::success();
}

Error Parser::parseUsesExtern(Tokens &Toks) {
  if (Toks.size() != 1)
    return err(Toks[1].Text, "'.uses_extern' takes no operand");
  if (K->UsesExtern)
    return err(Toks[0].Text, "'.uses_extern' given twice");
  if (!detail::hasVisibleGlobal(M))
    return err(Toks[0].Text, "'.uses_extern' needs a visible '.global' "
                             "variable (ptxas writes an '.extern .global' as "
                             "a '.visible' one)");
  K->UsesExtern = true;
  return Error::success();
}

/// Each line appends its bytes (the printer writes 32 a line).
Error Parser::parseConstant2(Tokens &Toks) {
  StringRef D = Toks[0].Text;
  if (!detail::hasConstant2Bank(M.SM))
    return err(D, "'.constant2' is for sm_80, sm_86 and sm_89 (ptxas "
                  "writes no constant bank 2 of this kind for sm_" +
                      Twine(M.SM) + ")");
  if (Toks.size() != 2)
    return err(D, "expected '.constant2 <hex bytes>'");
  StringRef H = Toks[1].Text;
  if (H.empty() || H.size() % 2 || Toks[1].IsString || !all_of(H, isHexDigit))
    return err(H, "expected constant bank 2's bytes: an even number of hex "
                  "digits");
  if (K->Constant2.size() + H.size() / 2 > detail::MaxConstant2Bytes)
    return err(H, "constant bank 2 holds at most " +
                      Twine(detail::MaxConstant2Bytes) + " bytes");
  appendHexBytes(H, K->Constant2);
  return Error::success();
}

Error Parser::parseThreadBounds(Tokens &Toks) {
  StringRef D = Toks[0].Text;
  if (Toks.size() != 4)
    return err(D, "expected '" + D + " <x> <y> <z>'");
  std::array<uint32_t, 3> V;
  for (int I = 0; I < 3; ++I) {
    Expected<uint64_t> X = number(Toks[1 + I], 1024);
    if (!X)
      return X.takeError();
    V[I] = *X;
  }
  (D == ".reqntid" ? K->ReqNTid : K->MaxThreads) = V;
  if (K->ReqNTid && K->MaxThreads)
    return err(D, "'.max_threads' and '.reqntid' exclude each other");
  return Error::success();
}
} // namespace

Expected<CubinFile> parseSass(SourceMgr &SM, unsigned BufferID,
                              const SassOptions &Opts) {
  SassOptions WithCodec = Opts;
  if (!WithCodec.Codec)
    WithCodec.Codec = &getRawWordCodec();
  // The classifier, unless given, follows the text's `.target`.
  Parser P(SM, BufferID, WithCodec);
  return P.run();
}

Error disassembleCubinToSass(ArrayRef<uint8_t> Bytes, raw_ostream &OS,
                             const SassOptions &Opts) {
  Expected<CubinFile> F = readCubinFile(Bytes);
  if (!F)
    return F.takeError();
  return printSass(*F, OS, Opts);
}

Expected<std::vector<uint8_t>> assembleCubin(SourceMgr &SM, unsigned BufferID,
                                             const SassOptions &Opts) {
  Expected<CubinFile> F = parseSass(SM, BufferID, Opts);
  if (!F)
    return F.takeError();
  std::vector<uint8_t> Out;
  if (Error E = writeCubinFile(*F, Out))
    return E;
  return Out;
}

Expected<CubinFile> parseSassString(StringRef Text, StringRef Name,
                                    const SassOptions &Opts) {
  SourceMgr SM;
  unsigned ID = SM.AddNewSourceBuffer(
      MemoryBuffer::getMemBufferCopy(Text, Name), SMLoc());
  Expected<CubinFile> F = parseSass(SM, ID, Opts);
  if (!F) {
    // The SourceMgr dies here: render SourceErrors to text now.
    return makeError(toString(F.takeError()));
  }
  return F;
}

} // namespace object
} // namespace tp
