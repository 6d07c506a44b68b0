//===- CubinFile.cpp - A cubin as an ELF container, read and written ------===//
///
/// \file
/// readCubinFile: the ELF identification is checked by hand (llvm::object
/// assumes a class and byte order once chosen), then llvm::object::ELFFile
/// gives the header, the section table and the program-header table, each
/// checked against the file size by LLVM and again here so that our
/// messages name the file offset.  Section names, symbol names and symbol
/// section indices are checked before use.  Finally every byte not covered
/// by a table or a section is recorded when it is not zero (Filler).
///
/// writeCubinFile: the exact inverse; layoutCubinFile: ptxas's placement.
///
//===----------------------------------------------------------------------===//

#include "tp/Object/CubinFile.h"
#include "tp/Support/Diagnostics.h"
#include "llvm/ADT/Twine.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Object/ELF.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MathExtras.h"
#include <algorithm>
#include <cstring>

using namespace llvm;
using namespace llvm::support;

namespace tp {
namespace object {

namespace {
using ELFT = llvm::object::ELF64LE;

std::string hex(uint64_t V) { return "0x" + utohexstr(V, /*LowerCase=*/true); }

/// "<what> at file offset 0x..: <msg>".
Error errAt(uint64_t Off, const Twine &Msg) {
  return makeError("at file offset " + hex(Off) + ": " + Msg);
}

/// Reads a NUL-terminated string at \p Off of string-table section \p Tab.
Expected<std::string> stringAt(const Section &Tab, uint64_t Off,
                               const Twine &What) {
  if (Off >= Tab.Data.size())
    return makeError(What + ": name offset " + hex(Off) +
                     " is past the end of " +
                     (Tab.Name.empty() ? std::string("its string table")
                                       : "'" + Tab.Name + "'") +
                     " (size " + hex(Tab.Data.size()) + ")");
  auto Begin = Tab.Data.begin() + Off;
  auto End = std::find(Begin, Tab.Data.end(), 0);
  if (End == Tab.Data.end())
    return makeError(What + ": name at offset " + hex(Off) +
                     " of its string table is not NUL-terminated");
  return std::string(Begin, End);
}
} // namespace

// ET_REL cubins give .nv.shared.K the type SHT_CUDA_SHARED and .nv.global
// (uninitialised `.global` variables) SHT_CUDA_GLOBAL; like NOBITS they
// occupy no file bytes (E, mma_tile_sm86_reloc.cubin: .nv.shared.K's size
// is the static shared size; ptxas -c of a kernel with a `.global`
// variable, every target: .nv.global's offset is where the next section
// or the section header table starts).
bool Section::isNoBits() const {
  return Type == ELF::SHT_NOBITS || Type == SHT_CUDA_SHARED ||
         Type == SHT_CUDA_GLOBAL;
}

int CubinFile::findSection(StringRef Name) const {
  for (size_t I = 0; I < Sections.size(); ++I)
    if (Sections[I].Name == Name)
      return static_cast<int>(I);
  return -1;
}

Expected<std::vector<Symbol>> CubinFile::symbols() const {
  std::vector<Symbol> Syms;
  for (size_t SI = 0; SI < Sections.size(); ++SI) {
    const Section &S = Sections[SI];
    if (S.Type != ELF::SHT_SYMTAB)
      continue;
    std::string Where =
        ("symbol table [" + Twine(SI) + "] '" + S.Name + "'").str();
    if (S.EntSize != sizeof(ELFT::Sym))
      return makeError(Where + ": sh_entsize is " + Twine(S.EntSize) +
                       ", expected 24");
    if (S.Data.size() % sizeof(ELFT::Sym))
      return makeError(Where + ": size " + hex(S.Data.size()) +
                       " is not a multiple of 24");
    if (S.Link == 0 || S.Link >= Sections.size() ||
        Sections[S.Link].Type != ELF::SHT_STRTAB)
      return makeError(Where + ": sh_link " + Twine(S.Link) +
                       " is not a string table");
    const Section &Str = Sections[S.Link];
    for (size_t I = 0; I < S.Data.size() / 24; ++I) {
      const uint8_t *P = S.Data.data() + I * 24;
      Symbol Sym;
      Sym.NameOffset = endian::read32le(P);
      Sym.Info = P[4];
      Sym.Other = P[5];
      Sym.Shndx = endian::read16le(P + 6);
      Sym.Value = endian::read64le(P + 8);
      Sym.Size = endian::read64le(P + 16);
      uint64_t Off = S.Offset + I * 24;
      Expected<std::string> Name =
          stringAt(Str, Sym.NameOffset,
                   "symbol " + Twine(I) + " (file offset " + hex(Off) + ")");
      if (!Name)
        return Name.takeError();
      Sym.Name = std::move(*Name);
      if (Sym.Shndx != ELF::SHN_UNDEF && Sym.Shndx < ELF::SHN_LORESERVE &&
          Sym.Shndx >= Sections.size())
        return errAt(Off, "symbol " + Twine(I) + " '" + Sym.Name +
                              "' has section index " + Twine(Sym.Shndx) +
                              " but there are " + Twine(Sections.size()) +
                              " sections");
      Syms.push_back(std::move(Sym));
    }
    break;
  }
  return Syms;
}

namespace {
/// The identification bytes: ELFFile<ELF64LE> would read a 32-bit or
/// big-endian file with the wrong layout.
Error checkIdentification(ArrayRef<uint8_t> Bytes) {
  if (Bytes.size() < ELF::EI_NIDENT ||
      !std::equal(Bytes.begin(), Bytes.begin() + 4,
                  "\x7f"
                  "ELF"))
    return makeError("not an ELF file (bad magic at file offset 0x0)");
  if (Bytes[ELF::EI_CLASS] != ELF::ELFCLASS64)
    return errAt(ELF::EI_CLASS, "ELF class " +
                                    Twine(unsigned(Bytes[ELF::EI_CLASS])) +
                                    ", a cubin is ELFCLASS64 (2)");
  if (Bytes[ELF::EI_DATA] != ELF::ELFDATA2LSB)
    return errAt(ELF::EI_DATA, "ELF data encoding " +
                                   Twine(unsigned(Bytes[ELF::EI_DATA])) +
                                   ", a cubin is little-endian (1)");
  if (Bytes.size() < sizeof(ELFT::Ehdr))
    return makeError("truncated ELF header: the file has " +
                     Twine(Bytes.size()) + " bytes, the header needs 64");
  return Error::success();
}

/// The header fields the model reads, and the table bounds.
Error checkHeader(const ElfHeader &H, ArrayRef<uint8_t> Bytes) {
  if (H.Machine != EM_CUDA)
    return errAt(0x12, "e_machine is " + Twine(H.Machine) + ", expected " +
                           Twine(EM_CUDA) + " (EM_CUDA)");
  if (H.osAbi() != ELFOSABI_CUDA_V2 || H.abiVersion() != ELFABIVERSION_CUDA_V2)
    return errAt(ELF::EI_OSABI,
                 "OS/ABI " + hex(H.osAbi()) + " version " +
                     Twine(unsigned(H.abiVersion())) +
                     ": only the CUDA ABI v8 of ptxas 13 (0x41, 8) is read");
  if (H.EhSize != sizeof(ELFT::Ehdr))
    return errAt(0x34, "e_ehsize is " + Twine(H.EhSize) + ", expected 64");
  if (H.ShNum == 0 || H.ShOff == 0)
    return errAt(0x28, "the file has no section header table");
  if (H.ShEntSize != sizeof(ELFT::Shdr))
    return errAt(0x3a,
                 "e_shentsize is " + Twine(H.ShEntSize) + ", expected 64");
  // Checked here so that the message names the offsets; ELFFile checks it
  // again in sections().
  if (H.ShOff > Bytes.size() || uint64_t(H.ShNum) * 64 > Bytes.size() - H.ShOff)
    return errAt(H.ShOff, "the section header table (" + Twine(H.ShNum) +
                              " entries) goes past the end of the file (size " +
                              hex(Bytes.size()) + ")");
  if (H.ShOff % 8)
    return errAt(H.ShOff, "the section header table is not 8-byte aligned");
  if (H.PhNum) {
    if (H.PhEntSize != sizeof(ELFT::Phdr))
      return errAt(0x36,
                   "e_phentsize is " + Twine(H.PhEntSize) + ", expected 56");
    if (H.PhOff > Bytes.size() ||
        uint64_t(H.PhNum) * 56 > Bytes.size() - H.PhOff)
      return errAt(H.PhOff, "the program header table (" + Twine(H.PhNum) +
                                " entries) goes past the end of the file "
                                "(size " +
                                hex(Bytes.size()) + ")");
    if (H.PhOff % 8)
      return errAt(H.PhOff, "the program header table is not 8-byte aligned");
  }
  if (H.ShStrNdx == ELF::SHN_UNDEF || H.ShStrNdx >= H.ShNum)
    return errAt(0x3e, "e_shstrndx is " + Twine(H.ShStrNdx) +
                           " but there are " + Twine(H.ShNum) + " sections");

  return Error::success();
}

/// The sections with their contents, bounds-checked.
Error readSections(const llvm::object::ELFFile<ELFT> &Obj,
                   ArrayRef<uint8_t> Bytes, CubinFile &F) {
  const ElfHeader &H = F.Header;
  auto SecsOrErr = Obj.sections();
  if (!SecsOrErr)
    return SecsOrErr.takeError();
  unsigned Index = 0;
  for (const ELFT::Shdr &S : *SecsOrErr) {
    uint64_t HdrOff = H.ShOff + uint64_t(Index) * 64;
    Section Sec;
    Sec.NameOffset = S.sh_name;
    Sec.Type = S.sh_type;
    Sec.Flags = S.sh_flags;
    Sec.Addr = S.sh_addr;
    Sec.Offset = S.sh_offset;
    Sec.Size = S.sh_size;
    Sec.Link = S.sh_link;
    Sec.Info = S.sh_info;
    Sec.AddrAlign = S.sh_addralign;
    Sec.EntSize = S.sh_entsize;
    if (Sec.AddrAlign > 1 && !isPowerOf2_64(Sec.AddrAlign))
      return errAt(HdrOff, "section [" + Twine(Index) + "] has alignment " +
                               Twine(Sec.AddrAlign) + ", not a power of two");
    if (!Sec.isNoBits() && Sec.Type != ELF::SHT_NULL) {
      if (Sec.Offset > Bytes.size() || Sec.Size > Bytes.size() - Sec.Offset)
        return errAt(HdrOff, "section [" + Twine(Index) + "] has offset " +
                                 hex(Sec.Offset) + " and size " +
                                 hex(Sec.Size) +
                                 ", past the end of the file (size " +
                                 hex(Bytes.size()) + ")");
      Sec.Data.assign(Bytes.begin() + Sec.Offset,
                      Bytes.begin() + Sec.Offset + Sec.Size);
    }
    if (Sec.Link >= H.ShNum)
      return errAt(HdrOff, "section [" + Twine(Index) + "] has sh_link " +
                               Twine(Sec.Link) + " but there are " +
                               Twine(H.ShNum) + " sections");
    F.Sections.push_back(std::move(Sec));
    ++Index;
  }
  if (F.Sections.size() != H.ShNum)
    return errAt(H.ShOff, "section count mismatch");

  return Error::success();
}

/// The section names, from .shstrtab.
Error nameSections(CubinFile &F) {
  const ElfHeader &H = F.Header;
  const Section &ShStr = F.Sections[H.ShStrNdx];
  if (ShStr.Type != ELF::SHT_STRTAB)
    return errAt(0x3e, "e_shstrndx " + Twine(H.ShStrNdx) +
                           " is not a string table (type " + hex(ShStr.Type) +
                           ")");
  for (size_t I = 0; I < F.Sections.size(); ++I) {
    Expected<std::string> Name =
        stringAt(ShStr, F.Sections[I].NameOffset,
                 "section [" + Twine(I) + "] (header at file offset " +
                     hex(H.ShOff + I * 64) + ")");
    if (!Name)
      return Name.takeError();
    F.Sections[I].Name = std::move(*Name);
  }

  return Error::success();
}

Error readProgramHeaders(const llvm::object::ELFFile<ELFT> &Obj,
                         ArrayRef<uint8_t> Bytes, CubinFile &F) {
  const ElfHeader &H = F.Header;
  auto PhdrsOrErr = Obj.program_headers();
  if (!PhdrsOrErr)
    return PhdrsOrErr.takeError();
  for (const ELFT::Phdr &P : *PhdrsOrErr) {
    ProgramHeader PH;
    PH.Type = P.p_type;
    PH.Flags = P.p_flags;
    PH.Offset = P.p_offset;
    PH.VAddr = P.p_vaddr;
    PH.PAddr = P.p_paddr;
    PH.FileSz = P.p_filesz;
    PH.MemSz = P.p_memsz;
    PH.Align = P.p_align;
    if (PH.Offset > Bytes.size() || PH.FileSz > Bytes.size() - PH.Offset)
      return errAt(H.PhOff + F.ProgramHeaders.size() * 56,
                   "program header " + Twine(F.ProgramHeaders.size()) +
                       " covers " + hex(PH.Offset) + "+" + hex(PH.FileSz) +
                       ", past the end of the file (size " + hex(Bytes.size()) +
                       ")");
    F.ProgramHeaders.push_back(PH);
  }

  return Error::success();
}

Error checkNoOverlap(const CubinFile &F) {
  const ElfHeader &H = F.Header;
  // No two pieces may share a byte, but for a section whose bytes are
  // exactly another section's (ptxas 13 on Blackwell points
  // .nv.merc.nv.constant.pic and .nv.merc.nv.constant.user at the bytes of
  // .nv.constant4 and .nv.constant3, E: a `.global` or `.const` variable);
  // the faithful writer places each piece at its offset.
  struct FileRange {
    uint64_t Off, Size;
    std::string What;
    bool IsSection = false;
  };
  std::vector<FileRange> Ranges = {
      {0, 64, "the ELF header"},
      {H.ShOff, uint64_t(H.ShNum) * 64, "the section header table"}};
  if (H.PhNum)
    Ranges.push_back(
        {H.PhOff, uint64_t(H.PhNum) * 56, "the program header table"});
  for (size_t I = 0; I < F.Sections.size(); ++I)
    if (!F.Sections[I].Data.empty())
      Ranges.push_back(
          {F.Sections[I].Offset, F.Sections[I].Data.size(),
           "section [" + std::to_string(I) + "] '" + F.Sections[I].Name + "'",
           true});
  std::stable_sort(
      Ranges.begin(), Ranges.end(),
      [](const FileRange &A, const FileRange &B) { return A.Off < B.Off; });
  for (size_t I = 1; I < Ranges.size(); ++I)
    if (Ranges[I].Off < Ranges[I - 1].Off + Ranges[I - 1].Size &&
        !(Ranges[I].IsSection && Ranges[I - 1].IsSection &&
          Ranges[I].Off == Ranges[I - 1].Off &&
          Ranges[I].Size == Ranges[I - 1].Size))
      return errAt(Ranges[I].Off, Ranges[I].What + " overlaps " +
                                      Ranges[I - 1].What + " (" +
                                      hex(Ranges[I - 1].Off) + "+" +
                                      hex(Ranges[I - 1].Size) + ")");
  return Error::success();
}

/// Filler: the bytes no piece covers that are not zero, kept so that the
/// writer reproduces the file.
void collectFiller(ArrayRef<uint8_t> Bytes, CubinFile &F) {
  const ElfHeader &H = F.Header;
  std::vector<bool> Covered(Bytes.size(), false);
  auto Cover = [&](uint64_t Off, uint64_t Size) {
    std::fill(Covered.begin() + Off, Covered.begin() + Off + Size, true);
  };
  Cover(0, 64);
  Cover(H.ShOff, uint64_t(H.ShNum) * 64);
  if (H.PhNum)
    Cover(H.PhOff, uint64_t(H.PhNum) * 56);
  for (const Section &S : F.Sections)
    if (!S.Data.empty())
      Cover(S.Offset, S.Data.size());
  for (uint64_t I = 0; I < Bytes.size();) {
    if (Covered[I] || Bytes[I] == 0) {
      ++I;
      continue;
    }
    uint64_t J = I;
    while (J < Bytes.size() && !Covered[J])
      ++J;
    F.Filler.emplace_back(
        I, std::vector<uint8_t>(Bytes.begin() + I, Bytes.begin() + J));
    I = J;
  }
}
} // namespace

Expected<CubinFile> readCubinFile(ArrayRef<uint8_t> Bytes) {
  if (Error E = checkIdentification(Bytes))
    return E;
  StringRef Buf(reinterpret_cast<const char *>(Bytes.data()), Bytes.size());
  Expected<llvm::object::ELFFile<ELFT>> ObjOrErr =
      llvm::object::ELFFile<ELFT>::create(Buf);
  if (!ObjOrErr)
    return ObjOrErr.takeError();
  const llvm::object::ELFFile<ELFT> &Obj = *ObjOrErr;
  const ELFT::Ehdr &E = Obj.getHeader();

  CubinFile F;
  F.FileSize = Bytes.size();
  ElfHeader &H = F.Header;
  std::copy(std::begin(E.e_ident), std::end(E.e_ident), H.Ident.begin());
  H.Type = E.e_type;
  H.Machine = E.e_machine;
  H.Version = E.e_version;
  H.Entry = E.e_entry;
  H.PhOff = E.e_phoff;
  H.ShOff = E.e_shoff;
  H.Flags = E.e_flags;
  H.EhSize = E.e_ehsize;
  H.PhEntSize = E.e_phentsize;
  H.PhNum = E.e_phnum;
  H.ShEntSize = E.e_shentsize;
  H.ShNum = E.e_shnum;
  H.ShStrNdx = E.e_shstrndx;

  if (Error E = checkHeader(H, Bytes))
    return E;
  if (Error E = readSections(Obj, Bytes, F))
    return E;
  if (Error E = nameSections(F))
    return E;
  if (Error E = readProgramHeaders(Obj, Bytes, F))
    return E;
  // Symbols are checked now so that a bad name or index is a read error.
  if (Expected<std::vector<Symbol>> Syms = F.symbols(); !Syms)
    return Syms.takeError();

  if (Error E = checkNoOverlap(F))
    return E;
  collectFiller(Bytes, F);
  return F;
}

namespace {
/// A byte image that refuses overlapping writes (but an exact alias).
class Image {
public:
  explicit Image(uint64_t Size) : Bytes(Size, 0) {}
  Error put(uint64_t Off, ArrayRef<uint8_t> Data, const Twine &What) {
    if (Off > Bytes.size() || Data.size() > Bytes.size() - Off)
      return makeError("cannot write " + What + " at " + hex(Off) + "+" +
                       hex(Data.size()) + ": past the file size " +
                       hex(Bytes.size()));
    if (Data.empty())
      return Error::success();
    // The first byte of [Off, End) that an earlier piece wrote (a few dozen
    // pieces a cubin: a scan of the ranges, not a flag a byte).
    uint64_t End = Off + Data.size(), FirstOverlap = End;
    // A piece may alias one written before exactly, byte for byte (a
    // section sharing another's bytes: checkNoOverlap).
    bool Alias = false;
    for (const auto &R : Written)
      if (R.first == Off && R.second == End &&
          std::memcmp(Bytes.data() + Off, Data.data(), Data.size()) == 0)
        Alias = true;
    if (Alias)
      return Error::success();
    for (const auto &R : Written)
      if (R.first < End && Off < R.second)
        FirstOverlap = std::min(FirstOverlap, std::max(Off, R.first));
    if (FirstOverlap != End)
      return makeError("cannot write " + What + " at " + hex(Off) +
                       ": it overlaps something already written at " +
                       hex(FirstOverlap));
    Written.emplace_back(Off, End);
    std::memcpy(Bytes.data() + Off, Data.data(), Data.size());
    return Error::success();
  }
  std::vector<uint8_t> Bytes;

private:
  std::vector<std::pair<uint64_t, uint64_t>> Written; ///< [begin, end)
};

template <typename T> void append(std::vector<uint8_t> &V, T X) {
  uint8_t B[sizeof(T)];
  endian::write<T, little, unaligned>(B, X);
  V.insert(V.end(), B, B + sizeof(T));
}
} // namespace

Error writeCubinFile(const CubinFile &F, std::vector<uint8_t> &Out) {
  const ElfHeader &H = F.Header;
  uint64_t Size = F.FileSize;
  // Never truncate: the size covers every piece.
  Size = std::max<uint64_t>(Size, 64);
  Size = std::max<uint64_t>(Size, H.ShOff + F.Sections.size() * 64);
  if (!F.ProgramHeaders.empty())
    Size = std::max<uint64_t>(Size, H.PhOff + F.ProgramHeaders.size() * 56);
  for (size_t I = 0; I < F.Sections.size(); ++I) {
    const Section &S = F.Sections[I];
    if (S.Data.empty())
      continue; // NULL, NOBITS or empty: no bytes, offset unchecked
    if (S.Size != S.Data.size())
      return makeError("section [" + Twine(I) + "] '" + S.Name + "': sh_size " +
                       hex(S.Size) + " differs from its " +
                       Twine(S.Data.size()) + " bytes");
    if (S.Offset > (uint64_t(1) << 40))
      return makeError("section [" + Twine(I) + "] '" + S.Name + "': offset " +
                       hex(S.Offset) + " is not plausible");
    Size = std::max<uint64_t>(Size, S.Offset + S.Data.size());
  }
  // A limit well above any real cubin, so that a hostile description
  // (the raw .sass form) cannot ask for an absurd allocation.
  if (Size > (uint64_t(1) << 30))
    return makeError("refusing to write a " + hex(Size) +
                     "-byte cubin (more than 1 GiB)");
  if (F.Sections.size() > 0xff00)
    return makeError("too many sections: " + Twine(F.Sections.size()));
  Image Img(Size);

  std::vector<uint8_t> Ehdr;
  Ehdr.reserve(64);
  Ehdr.insert(Ehdr.end(), H.Ident.begin(), H.Ident.end());
  append<uint16_t>(Ehdr, H.Type);
  append<uint16_t>(Ehdr, H.Machine);
  append<uint32_t>(Ehdr, H.Version);
  append<uint64_t>(Ehdr, H.Entry);
  append<uint64_t>(Ehdr, H.PhOff);
  append<uint64_t>(Ehdr, H.ShOff);
  append<uint32_t>(Ehdr, H.Flags);
  append<uint16_t>(Ehdr, H.EhSize);
  append<uint16_t>(Ehdr, H.PhEntSize);
  append<uint16_t>(Ehdr, static_cast<uint16_t>(F.ProgramHeaders.size()));
  append<uint16_t>(Ehdr, H.ShEntSize);
  append<uint16_t>(Ehdr, static_cast<uint16_t>(F.Sections.size()));
  append<uint16_t>(Ehdr, H.ShStrNdx);
  if (Error E = Img.put(0, Ehdr, "the ELF header"))
    return E;

  std::vector<uint8_t> Shdrs;
  Shdrs.reserve(64 * F.Sections.size());
  for (const Section &S : F.Sections) {
    append<uint32_t>(Shdrs, S.NameOffset);
    append<uint32_t>(Shdrs, S.Type);
    append<uint64_t>(Shdrs, S.Flags);
    append<uint64_t>(Shdrs, S.Addr);
    append<uint64_t>(Shdrs, S.Offset);
    append<uint64_t>(Shdrs, S.Size);
    append<uint32_t>(Shdrs, S.Link);
    append<uint32_t>(Shdrs, S.Info);
    append<uint64_t>(Shdrs, S.AddrAlign);
    append<uint64_t>(Shdrs, S.EntSize);
  }
  if (Error E = Img.put(H.ShOff, Shdrs, "the section header table"))
    return E;

  if (!F.ProgramHeaders.empty()) {
    std::vector<uint8_t> Phdrs;
    Phdrs.reserve(56 * F.ProgramHeaders.size());
    for (const ProgramHeader &P : F.ProgramHeaders) {
      append<uint32_t>(Phdrs, P.Type);
      append<uint32_t>(Phdrs, P.Flags);
      append<uint64_t>(Phdrs, P.Offset);
      append<uint64_t>(Phdrs, P.VAddr);
      append<uint64_t>(Phdrs, P.PAddr);
      append<uint64_t>(Phdrs, P.FileSz);
      append<uint64_t>(Phdrs, P.MemSz);
      append<uint64_t>(Phdrs, P.Align);
    }
    if (Error E = Img.put(H.PhOff, Phdrs, "the program header table"))
      return E;
  }
  for (size_t I = 0; I < F.Sections.size(); ++I) {
    const Section &S = F.Sections[I];
    if (S.isNoBits() || S.Data.empty())
      continue;
    if (Error E = Img.put(S.Offset, S.Data,
                          "section [" + Twine(I) + "] '" + S.Name + "'"))
      return E;
  }
  for (const auto &[Off, Data] : F.Filler)
    if (Error E = Img.put(Off, Data, "filler"))
      return E;
  Out = std::move(Img.Bytes);
  return Error::success();
}

void layoutCubinFile(CubinFile &F, uint64_t ShStrTabSlack,
                     unsigned StrTabIndex, uint64_t StrTabSlack) {
  uint64_t Off = 64;
  for (size_t I = 1; I < F.Sections.size(); ++I) {
    Section &S = F.Sections[I];
    Off = alignTo(Off, std::max<uint64_t>(S.AddrAlign, 1));
    S.Offset = Off;
    if (!S.isNoBits()) {
      S.Size = S.Data.size();
      Off += S.Data.size();
    }
    if (I == F.Header.ShStrNdx)
      Off += ShStrTabSlack;
    if (StrTabIndex && I == StrTabIndex)
      Off += StrTabSlack;
  }
  // Section 0 has offset 0 (E: every reference cubin).
  if (!F.Sections.empty())
    F.Sections[0].Offset = 0;
  F.Header.ShOff = alignTo(Off, 8);
  F.Header.ShNum = static_cast<uint16_t>(F.Sections.size());
  F.Header.PhNum = static_cast<uint16_t>(F.ProgramHeaders.size());
  F.Header.PhOff =
      F.ProgramHeaders.empty() ? 0 : F.Header.ShOff + F.Sections.size() * 64;
  F.FileSize = F.Header.PhOff ? F.Header.PhOff + F.ProgramHeaders.size() * 56
                              : F.Header.ShOff + F.Sections.size() * 64;
  F.Filler.clear();
}

} // namespace object
} // namespace tp
