//===- CubinFile.h - A cubin as an ELF container, read and written -*- C++ -*-//
///
/// \file
/// The container level of a cubin: the ELF header, every section with all
/// of its header fields and its bytes, the program headers, and the bytes
/// between them.  Nothing here knows what a kernel is; Module.h interprets
/// a CubinFile and builds one from kernels.
///
/// Reading (readCubinFile) goes through llvm::object::ELFFile and checks,
/// before it touches a byte, that every offset and size it follows lies in
/// the file, so a truncated, corrupt or hostile input is an llvm::Error that
/// names the offending file offset, never an out-of-bounds read.
///
/// Writing (writeCubinFile) is faithful: a CubinFile read from bytes B is
/// written back as exactly B (header, section and program-header tables at
/// their recorded offsets, section bytes, and the recorded non-zero filler
/// between them).  The from-scratch writer in Module.h fills a CubinFile
/// with ptxas 13's layout and then uses the same serializer.
///
//===----------------------------------------------------------------------===//
#ifndef TP_OBJECT_CUBINFILE_H
#define TP_OBJECT_CUBINFILE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace tp {
namespace object {

// ELF constants specific to CUDA (SASS_FACTS.md section 3; names from
// redplait/denvdis and LLVM's BinaryFormat/ELF.h where they exist).
constexpr uint16_t EM_CUDA = 190;                   // LLVM ELF.h
constexpr uint8_t ELFOSABI_CUDA_V2 = 0x41;          // what ptxas 13 writes (E)
constexpr uint8_t ELFABIVERSION_CUDA_V2 = 8;        // LLVM ELF.h (newer), E
constexpr uint32_t SHT_CUDA_INFO = 0x70000000;      // .nv.info*
constexpr uint32_t SHT_CUDA_CALLGRAPH = 0x70000001; // .nv.callgraph
constexpr uint32_t SHT_CUDA_GLOBAL = 0x70000007;    // ET_REL .nv.global (E)
constexpr uint32_t SHT_CUDA_SHARED = 0x7000000a;    // ET_REL .nv.shared.*
constexpr uint32_t SHT_CUDA_RELOCINFO = 0x7000000b; // .nv.rel.action
constexpr uint32_t SHT_CUDA_CONSTANT_B0 = 0x70000064; // ET_REL constant0
constexpr uint32_t SHT_CUDA_COMPAT = 0x70000086;      // sm_90 .nv.compat
constexpr uint64_t SHF_CUDA_INFO_LINK = 0x40;         // = SHF_INFO_LINK
constexpr uint8_t STO_CUDA_ENTRY = 0x10;              // kernel entry symbol

/// The ELF header fields (64-bit little-endian only: every cubin is).
struct ElfHeader {
  std::array<uint8_t, 16> Ident{};
  uint16_t Type = 0;
  uint16_t Machine = 0;
  uint32_t Version = 0;
  uint64_t Entry = 0;
  uint64_t PhOff = 0;
  uint64_t ShOff = 0;
  uint32_t Flags = 0;
  uint16_t EhSize = 64;
  uint16_t PhEntSize = 56;
  uint16_t PhNum = 0;
  uint16_t ShEntSize = 64;
  uint16_t ShNum = 0;
  uint16_t ShStrNdx = 0;

  uint8_t osAbi() const { return Ident[7]; }
  uint8_t abiVersion() const { return Ident[8]; }
  /// The SM number from e_flags (ABI v8: bits 8..15; SASS_FACTS 3.1).
  unsigned sm() const { return (Flags >> 8) & 0xff; }
};

/// One section: all header fields as read, its name resolved, its bytes.
struct Section {
  std::string Name; ///< resolved through e_shstrndx ("" for index 0)
  uint32_t NameOffset = 0;
  uint32_t Type = 0;
  uint64_t Flags = 0;
  uint64_t Addr = 0;
  uint64_t Offset = 0;
  uint64_t Size = 0; ///< sh_size (for NOBITS: the memory size)
  uint32_t Link = 0;
  uint32_t Info = 0;
  uint64_t AddrAlign = 0;
  uint64_t EntSize = 0;
  std::vector<uint8_t> Data; ///< file bytes; empty for NOBITS

  bool isNoBits() const;
};

/// One program header.
struct ProgramHeader {
  uint32_t Type = 0;
  uint32_t Flags = 0;
  uint64_t Offset = 0;
  uint64_t VAddr = 0;
  uint64_t PAddr = 0;
  uint64_t FileSz = 0;
  uint64_t MemSz = 0;
  uint64_t Align = 0;
};

/// A symbol-table entry (Elf64_Sym) with its name resolved.
struct Symbol {
  std::string Name;
  uint32_t NameOffset = 0;
  uint8_t Info = 0;  ///< binding << 4 | type
  uint8_t Other = 0; ///< visibility and CUDA flags (STO_CUDA_ENTRY, ...)
  uint16_t Shndx = 0;
  uint64_t Value = 0;
  uint64_t Size = 0;

  uint8_t binding() const { return Info >> 4; }
  uint8_t type() const { return Info & 0xf; }
};

/// A whole cubin at the container level.
struct CubinFile {
  ElfHeader Header;
  std::vector<Section> Sections; ///< index order, [0] the null one
  std::vector<ProgramHeader> ProgramHeaders;
  /// Bytes not covered by the ELF header, a section or a header table that
  /// are not zero, as (file offset, bytes): kept so that writing is exact.
  std::vector<std::pair<uint64_t, std::vector<uint8_t>>> Filler;
  uint64_t FileSize = 0; ///< total size (the writer pads up to it)

  /// The index of the first section called \p Name, or -1.
  int findSection(llvm::StringRef Name) const;
  /// The symbols of the (first) SHT_SYMTAB section, checked when read.
  llvm::Expected<std::vector<Symbol>> symbols() const;
};

/// Reads and validates \p Bytes.  Errors name the file offset at fault.
llvm::Expected<CubinFile> readCubinFile(llvm::ArrayRef<uint8_t> Bytes);

/// Serializes \p F exactly: tables at their offsets, section bytes, filler.
/// Fails when two pieces overlap or an offset is inconsistent.
llvm::Error writeCubinFile(const CubinFile &F, std::vector<uint8_t> &Out);

/// Lays out \p F's sections as ptxas 13 does: from offset 0x40 in index
/// order, each at its alignment, NOBITS taking no space; then the section
/// header table (8-aligned) and the program headers right after it.  Sets
/// Offset of every section, e_shoff, e_phoff, e_shnum, e_phnum, FileSize.
/// Program headers' offsets/sizes are the caller's (see Module.h).
/// \p ShStrTabSlack zero bytes follow the section-name string table
/// (e_shstrndx; sm_90 ptxas leaves some, Module.h), and \p StrTabSlack
/// the section \p StrTabIndex (Blackwell ptxas leaves some after .strtab
/// with module variables).
void layoutCubinFile(CubinFile &F, uint64_t ShStrTabSlack = 0,
                     unsigned StrTabIndex = 0, uint64_t StrTabSlack = 0);

} // namespace object
} // namespace tp

#endif // TP_OBJECT_CUBINFILE_H
