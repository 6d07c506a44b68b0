//===- NvInfo.cpp - .nv.info attribute records ----------------------------===//
///
/// \file
/// Parsing checks every record's length against what is left of the
/// section before reading it; serializing writes the records back in order
/// (format 4 length = payload size).  Names come from
/// NvInfoAttributes.def.
///
//===----------------------------------------------------------------------===//

#include "tp/Object/NvInfo.h"
#include "tp/Support/Diagnostics.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Endian.h"

using namespace llvm;
using namespace llvm::support;

namespace tp {
namespace object {

NvInfoRecord NvInfoRecord::nval(NvAttr A) {
  NvInfoRecord R;
  R.Format = 1;
  R.Attr = static_cast<uint8_t>(A);
  return R;
}
NvInfoRecord NvInfoRecord::bval(NvAttr A, uint8_t V) {
  NvInfoRecord R;
  R.Format = 2;
  R.Attr = static_cast<uint8_t>(A);
  R.Value = V;
  return R;
}
NvInfoRecord NvInfoRecord::hval(NvAttr A, uint16_t V) {
  NvInfoRecord R;
  R.Format = 3;
  R.Attr = static_cast<uint8_t>(A);
  R.Value = V;
  return R;
}
NvInfoRecord NvInfoRecord::sval(NvAttr A, ArrayRef<uint32_t> Words) {
  NvInfoRecord R;
  R.Format = 4;
  R.Attr = static_cast<uint8_t>(A);
  for (uint32_t W : Words) {
    uint8_t B[4];
    endian::write32le(B, W);
    R.Payload.insert(R.Payload.end(), B, B + 4);
  }
  return R;
}

std::vector<uint32_t> NvInfoRecord::words() const {
  std::vector<uint32_t> W;
  for (size_t I = 0; I + 4 <= Payload.size(); I += 4)
    W.push_back(endian::read32le(Payload.data() + I));
  return W;
}

StringRef getNvAttrName(uint8_t Attr) {
  switch (Attr) {
#define TP_EIATTR(Name, Number, Format)                                        \
  case Number:                                                                 \
    return #Name;
#include "tp/Object/NvInfoAttributes.def"
  case 0x5f:
    return "ATTR_5F";
  default:
    return "";
  }
}

int lookupNvAttr(StringRef Name) {
  for (unsigned A = 0; A < 256; ++A)
    if (!getNvAttrName(A).empty() && getNvAttrName(A) == Name)
      return static_cast<int>(A);
  return -1;
}

StringRef getNvFormatName(uint8_t Format) {
  switch (Format) {
  case 1:
    return "NVAL";
  case 2:
    return "BVAL";
  case 3:
    return "HVAL";
  case 4:
    return "SVAL";
  default:
    return "";
  }
}

Expected<std::vector<NvInfoRecord>> parseNvInfo(ArrayRef<uint8_t> Bytes,
                                                uint64_t BaseOffset) {
  std::vector<NvInfoRecord> Records;
  size_t P = 0;
  while (P < Bytes.size()) {
    uint64_t At = BaseOffset + P;
    if (Bytes.size() - P < 4)
      return makeError("at file offset 0x" + utohexstr(At, true) +
                       ": truncated .nv.info record (" +
                       Twine(Bytes.size() - P) + " bytes left, need 4)");
    NvInfoRecord R;
    R.Format = Bytes[P];
    R.Attr = Bytes[P + 1];
    if (R.Format < 1 || R.Format > 4)
      return makeError("at file offset 0x" + utohexstr(At, true) +
                       ": .nv.info record with unknown format " +
                       Twine(unsigned(R.Format)) + " (attribute 0x" +
                       utohexstr(R.Attr, true) + ")");
    uint16_t Half = endian::read16le(Bytes.data() + P + 2);
    P += 4;
    if (R.Format == 4) {
      if (Bytes.size() - P < Half)
        return makeError(
            "at file offset 0x" + utohexstr(At, true) + ": .nv.info record " +
            (getNvAttrName(R.Attr).empty() ? "0x" + utohexstr(R.Attr, true)
                                           : getNvAttrName(R.Attr).str()) +
            " has length " + Twine(Half) + " but only " +
            Twine(Bytes.size() - P) + " bytes follow");
      R.Payload.assign(Bytes.begin() + P, Bytes.begin() + P + Half);
      P += Half;
    } else {
      R.Value = Half;
    }
    Records.push_back(std::move(R));
  }
  return Records;
}

std::vector<uint8_t> serializeNvInfo(ArrayRef<NvInfoRecord> Records) {
  std::vector<uint8_t> Out;
  for (const NvInfoRecord &R : Records) {
    Out.push_back(R.Format);
    Out.push_back(R.Attr);
    uint16_t Half =
        R.Format == 4 ? static_cast<uint16_t>(R.Payload.size()) : R.Value;
    Out.push_back(Half & 0xff);
    Out.push_back(Half >> 8);
    if (R.Format == 4)
      Out.insert(Out.end(), R.Payload.begin(), R.Payload.end());
  }
  return Out;
}

} // namespace object
} // namespace tp
