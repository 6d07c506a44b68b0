//===- NvInfo.h - .nv.info attribute records --------------------*- C++ -*-===//
///
/// \file
/// A .nv.info section (module-wide `.nv.info` or per-kernel `.nv.info.K`;
/// also sm_90's `.nv.compat`) is a list of records
///
///   u8 format, u8 attribute, payload
///
/// with format 1 NVAL (two zero bytes follow), 2 BVAL (one byte and a pad
/// byte), 3 HVAL (a u16), 4 SVAL (a u16 length, then that many bytes,
/// a list of u32 for every attribute ptxas 13 writes).  Sources:
/// SASS_FACTS.md 3.6 (CuAssembler CuNVInfo.py, denvdis; checked against
/// every reference cubin).  Records round-trip exactly: parse then
/// serialize gives the same bytes, including the 16-bit value of NVAL and
/// BVAL records.
///
//===----------------------------------------------------------------------===//
#ifndef TP_OBJECT_NVINFO_H
#define TP_OBJECT_NVINFO_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <array>
#include <cstdint>
#include <vector>

namespace tp {
namespace object {

/// Attribute numbers (EIATTR_*).
enum class NvAttr : uint8_t {
#define TP_EIATTR(Name, Number, Format) Name = Number,
#include "tp/Object/NvInfoAttributes.def"
  Unnamed5F = 0x5f, ///< new in CUDA 13, unnamed (SASS_FACTS 3.6)
};

/// Record formats.
enum class NvFormat : uint8_t { NVal = 1, BVal = 2, HVal = 3, SVal = 4 };

/// One record.
struct NvInfoRecord {
  uint8_t Format = 0;
  uint8_t Attr = 0;
  uint16_t Value = 0;           ///< formats 1-3: the 16 bits after the key
  std::vector<uint8_t> Payload; ///< format 4: the bytes after the length

  static NvInfoRecord nval(NvAttr A);
  static NvInfoRecord bval(NvAttr A, uint8_t V);
  static NvInfoRecord hval(NvAttr A, uint16_t V);
  static NvInfoRecord sval(NvAttr A, llvm::ArrayRef<uint32_t> Words);

  NvAttr attr() const { return static_cast<NvAttr>(Attr); }
  /// Format 4 payload as u32 words (a trailing partial word is dropped).
  std::vector<uint32_t> words() const;
  bool operator==(const NvInfoRecord &O) const {
    return Format == O.Format && Attr == O.Attr && Value == O.Value &&
           Payload == O.Payload;
  }
};

/// "REGCOUNT", ..., or "" for an unknown number; 0x5f is "ATTR_5F".
llvm::StringRef getNvAttrName(uint8_t Attr);
/// The number for a name (without the EIATTR_ prefix), or -1.
int lookupNvAttr(llvm::StringRef Name);
/// "NVAL", "BVAL", "HVAL", "SVAL" or "".
llvm::StringRef getNvFormatName(uint8_t Format);

/// Parses a section's bytes; \p BaseOffset (its file offset) is used in
/// messages.  A record that runs past the end or has an unknown format is
/// an error naming its file offset.
llvm::Expected<std::vector<NvInfoRecord>>
parseNvInfo(llvm::ArrayRef<uint8_t> Bytes, uint64_t BaseOffset);

/// The inverse of parseNvInfo.
std::vector<uint8_t> serializeNvInfo(llvm::ArrayRef<NvInfoRecord> Records);

/// The three words of a KPARAM_INFO record, packed and unpacked in this
/// one place (E, every ptxas 13 cubin; SASS_FACTS 3.6):
///   word 0  Index
///   word 1  Offset << 16 | Ordinal
///   word 2  Size << 18 | Space << 12 | Flags
/// Space is 0x1f (the constant bank) in every record ptxas writes; Flags is
/// KernelParam::Flags (Module.h).
struct KParamInfo {
  uint32_t Index = 0;
  uint32_t Ordinal = 0;               ///< 16 bits
  uint32_t Offset = 0;                ///< 16 bits
  uint32_t Size = 0;                  ///< 14 bits
  uint32_t Space = ConstantBankSpace; ///< 6 bits
  uint32_t Flags = 0;                 ///< 12 bits
  static constexpr uint32_t ConstantBankSpace = 0x1f;

  std::array<uint32_t, 3> pack() const {
    return {Index, Offset << 16 | (Ordinal & 0xffff),
            Size << 18 | (Space & 0x3f) << 12 | (Flags & 0xfff)};
  }
  /// \p W must hold three words.
  static KParamInfo unpack(llvm::ArrayRef<uint32_t> W) {
    KParamInfo P;
    P.Index = W[0];
    P.Ordinal = W[1] & 0xffff;
    P.Offset = W[1] >> 16;
    P.Size = W[2] >> 18;
    P.Space = (W[2] >> 12) & 0x3f;
    P.Flags = W[2] & 0xfff;
    return P;
  }
};

} // namespace object
} // namespace tp

#endif // TP_OBJECT_NVINFO_H
