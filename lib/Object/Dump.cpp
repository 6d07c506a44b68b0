//===- Dump.cpp - Human-readable cubin dump -------------------------------===//
///
/// \file
/// Straight-line printing of a validated CubinFile (docs/dump-cubin.md).
/// The only parsing done here is of .nv.info records and, through
/// interpretCubin, of the notes and .debug_frame; their errors are
/// returned, never printed half-way without a message.
///
//===----------------------------------------------------------------------===//

#include "tp/Object/Dump.h"
#include "tp/Object/Module.h"
#include "tp/Object/NvInfo.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Support/Format.h"

using namespace llvm;

namespace tp {
namespace object {

namespace {
std::string sectionTypeName(uint32_t T) {
  switch (T) {
  case ELF::SHT_NULL:
    return "NULL";
  case ELF::SHT_PROGBITS:
    return "PROGBITS";
  case ELF::SHT_SYMTAB:
    return "SYMTAB";
  case ELF::SHT_STRTAB:
    return "STRTAB";
  case ELF::SHT_RELA:
    return "RELA";
  case ELF::SHT_NOTE:
    return "NOTE";
  case ELF::SHT_NOBITS:
    return "NOBITS";
  case ELF::SHT_REL:
    return "REL";
  case SHT_CUDA_INFO:
    return "CUDA_INFO";
  case SHT_CUDA_CALLGRAPH:
    return "CUDA_CALLGRAPH";
  case SHT_CUDA_SHARED:
    return "CUDA_SHARED";
  case SHT_CUDA_RELOCINFO:
    return "CUDA_RELOCINFO";
  case SHT_CUDA_CONSTANT_B0:
    return "CUDA_CONSTANT_B0";
  case SHT_CUDA_COMPAT:
    return "CUDA_COMPAT";
  default:
    return "0x" + utohexstr(T, true);
  }
}

const char *phdrTypeName(uint32_t T) {
  switch (T) {
  case ELF::PT_NULL:
    return "NULL";
  case ELF::PT_LOAD:
    return "LOAD";
  case ELF::PT_PHDR:
    return "PHDR";
  case ELF::PT_NOTE:
    return "NOTE";
  default:
    return "OTHER";
  }
}

std::string phdrFlags(uint32_t F) {
  std::string S;
  if (F & ELF::PF_R)
    S += "R";
  if (F & ELF::PF_W)
    S += S.empty() ? "W" : "+W";
  if (F & ELF::PF_X)
    S += S.empty() ? "X" : "+X";
  return S.empty() ? "0" : S;
}

const char *symTypeName(uint8_t T) {
  switch (T) {
  case ELF::STT_NOTYPE:
    return "NOTYPE";
  case ELF::STT_OBJECT:
    return "OBJECT";
  case ELF::STT_FUNC:
    return "FUNC";
  case ELF::STT_SECTION:
    return "SECTION";
  case ELF::STT_FILE:
    return "FILE";
  case 13:
    return "CUDA_OBJECT"; // STT_LOPROC (SASS_FACTS 3.4)
  default:
    return "OTHER";
  }
}

const char *symBindName(uint8_t B) {
  switch (B) {
  case ELF::STB_LOCAL:
    return "LOCAL";
  case ELF::STB_GLOBAL:
    return "GLOBAL";
  case ELF::STB_WEAK:
    return "WEAK";
  default:
    return "OTHER";
  }
}

std::string w32(uint32_t V) {
  std::string S;
  raw_string_ostream OS(S);
  OS << format("0x%08x", V);
  return OS.str();
}

/// Explanation of a record's words, after the raw words.
std::string explain(const NvInfoRecord &R, const std::vector<Symbol> &Syms) {
  std::vector<uint32_t> W = R.words();
  auto SymName = [&](uint32_t I) -> std::string {
    return I < Syms.size() ? Syms[I].Name : "?";
  };
  std::string S;
  raw_string_ostream OS(S);
  switch (R.attr()) {
  case NvAttr::REGCOUNT:
  case NvAttr::FRAME_SIZE:
  case NvAttr::MIN_STACK_SIZE:
  case NvAttr::MAX_STACK_SIZE:
  case NvAttr::CRS_STACK_SIZE:
    if (W.size() == 2)
      OS << "  ; " << SymName(W[0]) << ": " << W[1];
    break;
  case NvAttr::PARAM_CBANK:
    if (W.size() == 2)
      OS << "  ; " << SymName(W[0]) << ", offset 0x"
         << utohexstr(W[1] & 0xffff, true) << ", size 0x"
         << utohexstr(W[1] >> 16, true);
    break;
  case NvAttr::KPARAM_INFO:
    if (W.size() == 3) {
      KParamInfo P = KParamInfo::unpack(W);
      OS << "  ; index " << P.Index << ", ordinal " << P.Ordinal
         << ", offset 0x" << utohexstr(P.Offset, true) << ", size " << P.Size
         << ", space 0x" << utohexstr(P.Space, true) << ", flags 0x"
         << utohexstr(P.Flags, true);
    }
    // Pointer parameters (E, .ptr experiments; see KernelParam::Flags).
    if (W.size() == 3 && (W[2] & 0xf00)) {
      static const char *Spaces[] = {
          "?", "local", "shared", "const", "global", "generic", "?", "?",
          "?", "?",     "?",      "?",     "?",      "?",       "?", "?"};
      OS << " (ptr " << Spaces[(W[2] >> 8) & 0xf] << ", align "
         << (uint64_t(1) << (W[2] & 0x3f)) << ")";
    }
    break;
  case NvAttr::CUDA_API_VERSION:
    if (W.size() == 1)
      OS << "  ; CUDA " << W[0] / 10 << "." << W[0] % 10;
    break;
  default:
    break;
  }
  return OS.str();
}

void dumpRecords(ArrayRef<NvInfoRecord> Recs, const std::vector<Symbol> &Syms,
                 bool Compat, raw_ostream &OS) {
  for (const NvInfoRecord &R : Recs) {
    // .nv.compat (sm_90) uses the record format with its own attribute
    // numbers (SASS_FACTS 3.3), which we do not name.
    StringRef Name = Compat ? "" : getNvAttrName(R.Attr);
    OS << "    "
       << (Name.empty() ? (Compat ? "COMPAT_0x" : "ATTR_0x") +
                              utohexstr(R.Attr | 0x100, true).substr(1)
                        : Name.str())
       << " (" << format("0x%02x%02x", R.Attr, R.Format) << ") "
       << getNvFormatName(R.Format);
    if (R.Format == 4) {
      OS << " [";
      std::vector<uint32_t> W = R.words();
      for (size_t I = 0; I < W.size(); ++I)
        OS << (I ? ", " : "") << w32(W[I]);
      OS << "]";
      if (R.Payload.size() % 4)
        OS << " +" << R.Payload.size() % 4 << " bytes";
      if (!Compat)
        OS << explain(R, Syms);
    } else if (R.Format != 1 || R.Value) {
      OS << " 0x" << utohexstr(R.Value, true);
    }
    OS << "\n";
  }
}
} // namespace

Error dumpCubin(const CubinFile &F, raw_ostream &OS) {
  const ElfHeader &H = F.Header;
  OS << "ELF header:\n";
  OS << "  ident: class " << unsigned(H.Ident[4]) << ", data "
     << unsigned(H.Ident[5]) << ", version " << unsigned(H.Ident[6])
     << ", OS/ABI " << format("0x%02x", H.osAbi()) << ", ABI version "
     << unsigned(H.abiVersion()) << "\n";
  OS << "  type: " << H.Type
     << (H.Type == ELF::ET_EXEC  ? " (EXEC)"
         : H.Type == ELF::ET_REL ? " (REL)"
                                 : "")
     << "\n";
  OS << "  machine: " << H.Machine << (H.Machine == EM_CUDA ? " (CUDA)" : "")
     << "\n";
  OS << "  version: " << H.Version << "\n";
  OS << "  entry: 0x" << utohexstr(H.Entry, true) << "\n";
  OS << "  flags: " << w32(H.Flags) << " (sm_" << H.sm() << ")\n";
  OS << "  ehsize: " << H.EhSize << ", phentsize: " << H.PhEntSize
     << ", shentsize: " << H.ShEntSize << "\n";
  OS << "  program headers: " << F.ProgramHeaders.size() << " at 0x"
     << utohexstr(H.PhOff, true) << "\n";
  OS << "  section headers: " << F.Sections.size() << " at 0x"
     << utohexstr(H.ShOff, true) << "\n";
  OS << "  shstrndx: " << H.ShStrNdx << "\n";
  OS << "  file size: 0x" << utohexstr(F.FileSize, true) << "\n";

  OS << "\nSections:\n";
  for (size_t I = 0; I < F.Sections.size(); ++I) {
    const Section &S = F.Sections[I];
    OS << format("  [%2u] ", unsigned(I))
       << (S.Name.empty() ? "<null>" : S.Name)
       << " type=" << sectionTypeName(S.Type) << " flags=0x"
       << utohexstr(S.Flags, true) << " addr=0x" << utohexstr(S.Addr, true)
       << " off=0x" << utohexstr(S.Offset, true) << " size=0x"
       << utohexstr(S.Size, true) << " link=" << S.Link << " info=";
    if (S.Info > 0xffff)
      OS << w32(S.Info);
    else
      OS << S.Info;
    OS << " align=" << S.AddrAlign << " entsize=" << S.EntSize;
    if (StringRef(S.Name).startswith(".text.") && S.Info >> 24)
      OS << "  ; regs " << (S.Info >> 24) << ", symbol " << (S.Info & 0xffffff);
    OS << "\n";
  }

  OS << "\nProgram headers:\n";
  for (size_t I = 0; I < F.ProgramHeaders.size(); ++I) {
    const ProgramHeader &P = F.ProgramHeaders[I];
    OS << "  [" << I << "] " << phdrTypeName(P.Type)
       << " flags=" << phdrFlags(P.Flags) << " off=0x"
       << utohexstr(P.Offset, true) << " vaddr=0x" << utohexstr(P.VAddr, true)
       << " paddr=0x" << utohexstr(P.PAddr, true) << " filesz=0x"
       << utohexstr(P.FileSz, true) << " memsz=0x" << utohexstr(P.MemSz, true)
       << " align=" << P.Align << "\n";
  }

  Expected<std::vector<Symbol>> SymsOrErr = F.symbols();
  if (!SymsOrErr)
    return SymsOrErr.takeError();
  const std::vector<Symbol> &Syms = *SymsOrErr;
  OS << "\nSymbols:\n";
  for (size_t I = 0; I < Syms.size(); ++I) {
    const Symbol &S = Syms[I];
    OS << format("  [%2u] ", unsigned(I))
       << (S.Name.empty() ? "<null>" : S.Name) << " value=0x"
       << utohexstr(S.Value, true) << " size=0x" << utohexstr(S.Size, true)
       << " bind=" << symBindName(S.binding())
       << " type=" << symTypeName(S.type()) << " other=0x"
       << utohexstr(S.Other, true) << " shndx=" << S.Shndx << "\n";
  }

  for (size_t I = 0; I < F.Sections.size(); ++I) {
    const Section &S = F.Sections[I];
    if (S.Type != SHT_CUDA_INFO && S.Type != SHT_CUDA_COMPAT)
      continue;
    Expected<std::vector<NvInfoRecord>> Recs = parseNvInfo(S.Data, S.Offset);
    if (!Recs)
      return Recs.takeError();
    OS << "\n"
       << S.Name << " (section " << I << ", " << Recs->size() << " records):\n";
    dumpRecords(*Recs, Syms, S.Type == SHT_CUDA_COMPAT, OS);
  }

  Expected<Module> M = interpretCubin(F);
  if (!M) {
    OS << "\nKernels: not interpreted (" << toString(M.takeError()) << ")\n";
    return Error::success();
  }
  OS << "\nTool note: format " << M->Tool.Format << ", object '"
     << M->Tool.ObjectName << "', tool '" << M->Tool.Tool << "', version '"
     << M->Tool.Version << "', build '" << M->Tool.BuildId << "', options '"
     << M->Tool.Options << "'\n";
  OS << "CUDA API version: " << M->CudaApiVersion << "\n";
  OS << "\nKernels:\n";
  for (const Kernel &K : M->Kernels) {
    OS << "  " << K.Name << ": code 0x" << utohexstr(K.Code.size(), true)
       << " bytes, regs " << K.RegCount << ", max regs " << K.MaxRegCount
       << ", barriers " << K.NumBarriers << ", shared "
       << (K.HasSharedSection ? "0x" + utohexstr(K.SharedBytes, true) +
                                    " align " + std::to_string(K.SharedAlign) +
                                    (K.SharedUnused ? " (unused)" : "")
                              : std::string("none"))
       << ", frame " << K.FrameSize << ", min stack " << K.MinStackSize << "\n";
    OS << "    params (" << K.Params.size() << ", 0x"
       << utohexstr(K.paramBytes(), true) << " bytes):";
    for (const KernelParam &P : K.Params)
      OS << " " << P.Offset << ":" << P.Size;
    OS << "\n    exits:";
    for (uint32_t E : K.ExitOffsets)
      OS << " 0x" << utohexstr(E, true);
    OS << "; first block end 0x" << utohexstr(K.CfaBlockEnd, true);
    if (K.MaxThreads)
      OS << "; maxntid " << (*K.MaxThreads)[0] << "," << (*K.MaxThreads)[1]
         << "," << (*K.MaxThreads)[2];
    if (K.CtaidZUsed)
      OS << "; ctaid.z used";
    if (K.ReqNTid)
      OS << "; reqntid " << (*K.ReqNTid)[0] << "," << (*K.ReqNTid)[1] << ","
         << (*K.ReqNTid)[2];
    OS << "\n";
  }
  return Error::success();
}

} // namespace object
} // namespace tp
