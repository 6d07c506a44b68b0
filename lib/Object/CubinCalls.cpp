//===- CubinCalls.cpp - Kernels that call device functions ---------------===//
///
/// \file
/// What calls to device functions (PTX `.func`, `call.uni`) change in
/// ptxas 13's cubin, and nothing else (E, ptxas 13.0 on sm_80..sm_121:
/// test/Object/Inputs/calls; docs/targets.md "Calls"):
///
///  * each callee's code follows the kernel's in .text.K, named by a LOCAL
///    FUNC symbol `$K$callee` (value its offset, size to the next callee or
///    the section's end) after the section symbols of the kernel's group
///    (and sm_90's reserved-window symbols); `.strtab` names it there too;
///  * the module .nv.info has a FRAME_SIZE record per callee after the
///    kernel's REGCOUNT, last callee first;
///  * .debug_frame: the kernel's FDE ranges up to the first callee and its
///    first block ends at the first CALL to a callee (endFirstBlockAtCall);
///    after it each callee has its own CIE (CalleeCie: the return address
///    is R2 plus the kernel's address, a DW_OP_addr relocated against the
///    kernel; the register that holds it, R2 or another, is
///    Callee::ReturnReg; a callee called by other callees names their
///    return registers before its own, Callee::CallerRegs) and FDE
///    (location the callee's offset, range its size, its instructions
///    copied: Callee::FdeOps);
///  * relocations against the kernel symbol: the callees' FDE locations
///    last first, the kernel's FDE, the callees' CIE addresses last first.
///
/// Blackwell's Mercury copy (E, sm_100/120/121) has the same shape in
/// its own sections: `$K$callee` in .nv.merc.symtab (value its offset in
/// the Mercury code, size to the next callee or the code's end), a
/// FRAME_SIZE record per callee in .nv.merc.nv.info (0 for call_frame's
/// callee, whose .nv.info record says 128), CalleeCie with code
/// alignment 1 and an FDE per callee in .nv.merc.debug_frame, the same
/// relocations in .nv.merc.rela.debug_frame (R_MERC_64, the FDE
/// location's addend the callee's Mercury offset), and one
/// .nv.merc.rela.text.K entry per call, in the kernel's code or a
/// callee's (type 0x10008 against the kernel, the addend the return
/// address, in the same function; MercuryCode::CallRelocs).
///
/// The order of the callees' code is not understood (E: call_two.ptx
/// places `thrice` before `twice`), so offsets and sizes are stated, not
/// derived; tp does not decode Mercury code, so the Mercury offsets, the
/// Mercury FDE's instructions and the call relocations are stated too.
/// A SASS-only Blackwell cubin (`.binary_kind sass`) with callees is
/// refused: no ptxas cubin shows one.
///
//===----------------------------------------------------------------------===//

#include "CubinBuild.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/MathExtras.h"
#include <algorithm>
#include <map>

#define DEBUG_TYPE "cubin-calls"

using namespace llvm;

STATISTIC(NumCalleesRead, "callees read from cubins");
STATISTIC(NumCalleeFdes, "callee CIE/FDE pairs written");

namespace tp {
namespace object {
namespace detail {

namespace {
/// The CIE ptxas 13 writes before each callee's FDE (E, every cubin of
/// test/Object/Inputs/calls): return-address rule r(0x5000100),
/// DW_CFA_def_cfa r(0x5000001) 0, DW_CFA_same_value r(0x50000ff),
/// r(0x5000001), r(0x5000002), DW_CFA_val_expression r(0x5000100)
/// { DW_OP_addr 0 (relocated), DW_OP_bregx r(0x5000002) 0, DW_OP_plus }.
constexpr uint8_t CalleeCie[72] = {
    0xff, 0xff, 0xff, 0xff, 0x3c, 0,    0,    0,    0,    0,    0,    0,
    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x03, 0x00, 0x04, 0x7c,
    0x80, 0x82, 0x80, 0x28, 0x0c, 0x81, 0x80, 0x80, 0x28, 0x00, 0x08, 0xff,
    0x81, 0x80, 0x28, 0x08, 0x81, 0x80, 0x80, 0x28, 0x08, 0x82, 0x80, 0x80,
    0x28, 0x16, 0x80, 0x82, 0x80, 0x28, 0x10, 0x03, 0,    0,    0,    0,
    0,    0,    0,    0,    0x92, 0x82, 0x80, 0x80, 0x28, 0x00, 0x22, 0x00};
/// Where CalleeCie's DW_OP_addr operand is.
constexpr size_t CalleeCieAddr = 56;
/// The two bytes of CalleeCie that name the register holding the return
/// address, 0x80 | R (R2 above; R6 in call_frame.ptx's callee, which
/// keeps R2 for its own use, E): DW_CFA_same_value's and DW_OP_bregx's.
constexpr size_t CalleeCieRetReg[2] = {45, 65};
/// Where a callee called by other callees has a DW_CFA_same_value per
/// Callee::CallerRegs (before the return register's: E, call_nested.ptx,
/// call_deep.ptx), and the bytes of each: 0x08 r(0x5000000 + R).
constexpr size_t CalleeCieCallers = 44;
constexpr size_t SameValueSize = 5;
/// CalleeCie's last byte is a DW_CFA_nop padding it to 8 bytes.
constexpr size_t CalleeCieUsed = sizeof(CalleeCie) - 1;

/// The CIE of \p C (code alignment \p Align, the Mercury copy's 1, E):
/// CalleeCie with its return register and caller registers, padded to 8
/// bytes with DW_CFA_nops.
std::vector<uint8_t> calleeCie(const Callee &C, uint8_t Align) {
  std::vector<uint8_t> B(std::begin(CalleeCie),
                         std::begin(CalleeCie) + CalleeCieUsed);
  for (size_t At : CalleeCieRetReg)
    B[At] = 0x80 | C.ReturnReg;
  B[CieCodeAlignByte] = Align;
  std::vector<uint8_t> Callers;
  for (unsigned R : C.CallerRegs)
    Callers.insert(Callers.end(), {0x08, uint8_t(0x80 | R), 0x80, 0x80, 0x28});
  B.insert(B.begin() + CalleeCieCallers, Callers.begin(), Callers.end());
  B.resize(alignTo(B.size(), 8), 0);
  support::endian::write64le(B.data() + 4, B.size() - 12);
  return B;
}

/// Where calleeCie(C, ...)'s DW_OP_addr operand is.
size_t calleeCieAddr(const Callee &C) {
  return CalleeCieAddr + SameValueSize * C.CallerRegs.size();
}

std::string calleeSymbolName(const Kernel &K, const Callee &C) {
  return "$" + K.Name + "$" + C.Name;
}

/// The FRAME_SIZE values of \p InfoName (.nv.info or .nv.merc.nv.info) by
/// symbol index.
std::map<uint32_t, uint32_t> frameSizesBySymbol(const CubinFile &F,
                                                StringRef InfoName) {
  std::map<uint32_t, uint32_t> Out;
  int SI = F.findSection(InfoName);
  if (SI < 0)
    return Out;
  const Section &S = F.Sections[SI];
  Expected<std::vector<NvInfoRecord>> Recs = parseNvInfo(S.Data, S.Offset);
  if (!Recs) {
    consumeError(Recs.takeError());
    return Out;
  }
  for (const NvInfoRecord &R : *Recs) {
    std::vector<uint32_t> W = R.words();
    if (R.Format == 4 && W.size() == 2 && R.attr() == NvAttr::FRAME_SIZE)
      Out[W[0]] = W[1];
  }
  return Out;
}

/// The DW_CFA_same_value registers of the CIE at \p Cie in \p Fr from
/// CalleeCieCallers on: the caller registers, then the return register.
/// Stops at the first other instruction.
std::vector<unsigned> readSameValues(ArrayRef<uint8_t> Fr, uint64_t Cie) {
  std::vector<unsigned> Regs;
  for (uint64_t At = Cie + CalleeCieCallers; At + SameValueSize <= Fr.size();
       At += SameValueSize) {
    if (Fr[At] != 0x08 || !(Fr[At + 1] & 0x80) || Fr[At + 2] != 0x80 ||
        Fr[At + 3] != 0x80 || Fr[At + 4] != 0x28)
      break;
    Regs.push_back(Fr[At + 1] & 0x7f);
  }
  return Regs;
}

/// The call-frame instructions of the FDE at \p LocOff (the offset of its
/// location in \p Fr) when it locates \p Offset and follows a calleeCie
/// of code alignment \p Align, trailing DW_CFA_nops dropped, and its
/// CIE's return and caller registers (in \p C); false when it is not
/// such an FDE.
bool readCalleeFde(ArrayRef<uint8_t> Fr, uint64_t LocOff, uint32_t Offset,
                   uint8_t Align, Callee &C, std::vector<uint8_t> &Ops) {
  if (LocOff < 20 || LocOff + 16 > Fr.size())
    return false;
  const uint64_t Start = LocOff - 20;
  if (support::endian::read32le(Fr.data() + Start) != 0xffffffff)
    return false;
  const uint64_t Len = support::endian::read64le(Fr.data() + Start + 4);
  const uint64_t Cie = support::endian::read64le(Fr.data() + Start + 12);
  if (Len < 24 || Len > Fr.size() - Start - 12 || Cie >= Fr.size() ||
      support::endian::read64le(Fr.data() + LocOff) != Offset)
    return false;
  std::vector<unsigned> Regs = readSameValues(Fr, Cie);
  if (Regs.empty())
    return false;
  Callee Got;
  Got.ReturnReg = Regs.back();
  Regs.pop_back();
  Got.CallerRegs = std::move(Regs);
  const std::vector<uint8_t> Want = calleeCie(Got, Align);
  const size_t Addr = calleeCieAddr(Got);
  if (Cie + Want.size() > Fr.size() ||
      !std::equal(Want.begin(), Want.begin() + Addr, Fr.begin() + Cie) ||
      !std::equal(Want.begin() + Addr + 8, Want.end(),
                  Fr.begin() + Cie + Addr + 8))
    return false;
  C.ReturnReg = Got.ReturnReg;
  C.CallerRegs = std::move(Got.CallerRegs);
  Ops.assign(Fr.begin() + LocOff + 16, Fr.begin() + Start + 12 + Len);
  while (!Ops.empty() && Ops.back() == 0)
    Ops.pop_back();
  return true;
}

/// readCalleeFde over the FDEs that the relocations \p Rel (entries of
/// \p RelSize bytes) locate in \p Fr.
bool findCalleeFde(ArrayRef<uint8_t> Fr, ArrayRef<uint8_t> Rel, size_t RelSize,
                   uint32_t Offset, uint8_t Align, Callee &C,
                   std::vector<uint8_t> &Ops) {
  for (size_t R = 0; R + RelSize <= Rel.size(); R += RelSize)
    if (readCalleeFde(Fr, support::endian::read64le(Rel.data() + R), Offset,
                      Align, C, Ops))
      return true;
  return false;
}

/// The index of the LOCAL FUNC symbol \p Name of section \p Shndx in the
/// symbol table bytes \p Tab (names in \p Str).
Optional<uint32_t> findLocalFunc(ArrayRef<uint8_t> Tab, ArrayRef<uint8_t> Str,
                                 int Shndx, StringRef Name) {
  for (size_t Off = 0; Off + 24 <= Tab.size(); Off += 24) {
    const uint8_t *P = Tab.data() + Off;
    const uint32_t NameOff = support::endian::read32le(P);
    if (P[4] != (ELF::STB_LOCAL << 4 | ELF::STT_FUNC) ||
        int(support::endian::read16le(P + 6)) != Shndx || NameOff >= Str.size())
      continue;
    StringRef S(reinterpret_cast<const char *>(Str.data()) + NameOff,
                Str.size() - NameOff);
    if (S.take_until([](char C) { return C == 0; }) == Name)
      return static_cast<uint32_t>(Off / 24);
  }
  return None;
}
} // namespace

void readCallees(const CubinFile &F, ArrayRef<Symbol> Syms, Module &M) {
  const std::map<uint32_t, uint32_t> Frames = frameSizesBySymbol(F, ".nv.info");
  int DF = F.findSection(".debug_frame");
  const FrameRelocs Relocs = findFrameRelocs(F);
  const int RDF = Relocs.Section;
  const size_t RelSize = Relocs.EntrySize;
  for (Kernel &K : M.Kernels) {
    const int Text = F.findSection(".text." + K.Name);
    const std::string Prefix = "$" + K.Name + "$";
    for (size_t SI = 0; SI < Syms.size(); ++SI) {
      const Symbol &S = Syms[SI];
      if (int(S.Shndx) != Text || S.binding() != ELF::STB_LOCAL ||
          S.type() != ELF::STT_FUNC || !StringRef(S.Name).startswith(Prefix))
        continue;
      Callee C;
      C.Name = S.Name.substr(Prefix.size());
      C.Offset = static_cast<uint32_t>(S.Value);
      C.Size = static_cast<uint32_t>(S.Size);
      auto It = Frames.find(SI);
      if (It != Frames.end())
        C.FrameSize = It->second;
      if (DF >= 0 && RDF >= 0)
        findCalleeFde(F.Sections[DF].Data, F.Sections[RDF].Data, RelSize,
                      C.Offset, CodeAlign, C, C.FdeOps);
      ++NumCalleesRead;
      K.Callees.push_back(std::move(C));
    }
    llvm::sort(K.Callees, [](const Callee &A, const Callee &B) {
      return A.Offset < B.Offset;
    });
  }
}

void readMercuryCallees(const CubinFile &F, Module &M) {
  const int SymSec = F.findSection(".nv.merc.symtab");
  if (SymSec < 0 || F.Sections[SymSec].Link >= F.Sections.size())
    return;
  const Section &Tab = F.Sections[SymSec];
  const std::vector<uint8_t> &Str = F.Sections[Tab.Link].Data;
  const std::map<uint32_t, uint32_t> Frames =
      frameSizesBySymbol(F, ".nv.merc.nv.info");
  const int DF = F.findSection(".nv.merc.debug_frame");
  const int RDF = F.findSection(".nv.merc.rela.debug_frame");
  for (Kernel &K : M.Kernels) {
    if (!K.Mercury)
      continue;
    const int Code = F.findSection(".nv.capmerc.text." + K.Name);
    for (Callee &C : K.Callees) {
      const std::string Name = calleeSymbolName(K, C);
      Optional<uint32_t> SI = findLocalFunc(Tab.Data, Str, Code, Name);
      if (!SI)
        continue; // buildCubin refuses it: the raw form
      // The value's low 32 bits (a larger one fails the round trip check).
      C.MercuryOffset =
          support::endian::read32le(Tab.Data.data() + *SI * 24 + 8);
      auto It = Frames.find(*SI);
      if (It != Frames.end())
        C.MercuryFrameSize = It->second;
      // The registers are the SASS CIE's (a Mercury CIE that differs fails
      // the round trip check).
      Callee Regs;
      if (DF >= 0 && RDF >= 0)
        findCalleeFde(F.Sections[DF].Data, F.Sections[RDF].Data, 24,
                      *C.MercuryOffset, 1, Regs, C.MercuryFdeOps);
    }
  }
}

void endFirstBlockAtCall(Kernel &K, const InstrClassifier &C) {
  if (K.Callees.empty())
    return;
  for (size_t Off = 0; Off + 16 <= K.Callees.front().Offset; Off += 16) {
    Optional<uint64_t> T =
        C.pcRelativeTarget(ArrayRef<uint8_t>(K.Code).slice(Off, 16), Off);
    if (T && any_of(K.Callees, [&](const Callee &X) { return X.Offset == *T; })) {
      K.CfaBlockEnd = std::min<uint32_t>(K.CfaBlockEnd, Off);
      return;
    }
  }
}

uint32_t kernelCodeEnd(const Kernel &K, bool Mercury) {
  if (Mercury)
    return K.Callees.empty() ? K.Mercury->CodeSize
                             : *K.Callees.front().MercuryOffset;
  return K.Callees.empty() ? static_cast<uint32_t>(K.Code.size())
                           : K.Callees.front().Offset;
}

uint32_t mercuryCalleeSize(const Kernel &K, size_t J) {
  const uint32_t End = J + 1 < K.Callees.size()
                           ? *K.Callees[J + 1].MercuryOffset
                           : K.Mercury->CodeSize;
  return End - *K.Callees[J].MercuryOffset;
}

namespace {
/// The Mercury facts of the callees: each callee's offset in the Mercury
/// code where the kernel has a Mercury copy, none where it has not.
Error checkMercuryCallees(const Kernel &K) {
  if (!K.Mercury) {
    for (const Callee &C : K.Callees)
      if (C.MercuryOffset || C.MercuryFrameSize || !C.MercuryFdeOps.empty())
        return kernelError(K, "callee '" + C.Name +
                                  "': mercury_offset=, mercury_frame_size= "
                                  "and mercury_fde= describe the Mercury "
                                  "copy, which this kernel lacks (no "
                                  "'.mercury')");
    return Error::success();
  }
  const MercuryCode &MC = *K.Mercury;
  uint32_t End = 0;
  for (const Callee &C : K.Callees) {
    if (!C.MercuryOffset)
      return kernelError(K, "callee '" + C.Name +
                                "' needs mercury_offset=<n> (its offset in "
                                "the Mercury code of '.mercury')");
    if (*C.MercuryOffset <= End || *C.MercuryOffset >= MC.CodeSize)
      return kernelError(K, "callee '" + C.Name + "' at Mercury offset " +
                                hex(*C.MercuryOffset) +
                                " is not after the kernel's Mercury code "
                                "and the callees before it, within its "
                                "size " +
                                hex(MC.CodeSize));
    End = *C.MercuryOffset;
  }
  const uint32_t KernelEnd = kernelCodeEnd(K, /*Mercury=*/true);
  if (MC.CfaBlockEnd > KernelEnd ||
      any_of(MC.ExitOffsets, [&](uint32_t E) { return E >= KernelEnd; }))
    return kernelError(K, "the Mercury copy's first block end or an EXIT "
                          "is not before the first callee's Mercury offset " +
                              hex(KernelEnd));
  return Error::success();
}
} // namespace

Error checkMercuryCallRelocs(const Kernel &K) {
  if (!K.Mercury || K.Mercury->CallRelocs.empty())
    return Error::success();
  const MercuryCode &MC = *K.Mercury;
  if (K.Callees.empty())
    return kernelError(K, "Mercury call relocations in a kernel without "
                          "callees");
  if (Error E = checkMercuryCallees(K))
    return E;
  if (!MC.CapRelocs.empty())
    return kernelError(K, "Mercury call relocations and "
                          ".nv.reservedSmem.cap relocations in one kernel "
                          "are not modelled (their order is not measured)");
  // A call and its return address are in one function's Mercury code: the
  // kernel's or a callee's (a callee that calls, E: call_nested.ptx,
  // call_deep.ptx).  0 is the kernel's, J + 1 callee J's.
  auto FunctionAt = [&](uint32_t Off) -> Optional<size_t> {
    if (Off >= MC.CodeSize)
      return None;
    size_t F = 0;
    while (F < K.Callees.size() && *K.Callees[F].MercuryOffset <= Off)
      ++F;
    return F;
  };
  for (const MercuryCode::CallReloc &R : MC.CallRelocs) {
    Optional<size_t> At = FunctionAt(R.Offset);
    if (!At || At != FunctionAt(R.Addend))
      return kernelError(K, "Mercury call relocation at " + hex(R.Offset) +
                                " (return address " + hex(R.Addend) +
                                ") is not in one function's Mercury code "
                                "(the kernel's, before " +
                                hex(kernelCodeEnd(K, /*Mercury=*/true)) +
                                ", or a callee's, within " + hex(MC.CodeSize) +
                                ")");
  }
  return Error::success();
}

Error checkCallees(const Kernel &K, bool SassOnly) {
  if (K.Callees.empty())
    return Error::success();
  if (SassOnly)
    return kernelError(
        K, "callees in a SASS-only Blackwell cubin (.binary_kind sass) "
           "are not modelled (no ptxas cubin shows one)");
  if (Error E = checkMercuryCallees(K))
    return E;
  uint32_t End = 16;
  for (const Callee &C : K.Callees) {
    if (C.Name.empty())
      return kernelError(K, "a callee has an empty name");
    if (C.ReturnReg > 0x7f)
      return kernelError(K, "callee '" + C.Name + "': return register R" +
                                Twine(C.ReturnReg) +
                                " is not one ptxas's CIE encodes "
                                "in one byte (R0..R127)");
    for (unsigned R : C.CallerRegs)
      if (R > 0x7f)
        return kernelError(K, "callee '" + C.Name + "': caller register R" +
                                  Twine(R) +
                                  " is not one ptxas's CIE encodes in one byte "
                                  "(R0..R127)");
    if (C.Offset % 16 || C.Offset < End || !C.Size || C.Size % 16 ||
        C.Size > K.Code.size() - std::min<size_t>(C.Offset, K.Code.size()))
      return kernelError(
          K, "callee '" + C.Name + "' at " + hex(C.Offset) + " size " +
                 hex(C.Size) +
                 " is not within the code after the kernel's and the "
                 "callees before it (16-byte aligned)");
    End = C.Offset + C.Size;
  }
  return Error::success();
}

void addCalleeNames(StrTab &Str, const Kernel &K) {
  for (const Callee &C : K.Callees)
    Str.add(calleeSymbolName(K, C));
}

void appendCalleeSymbols(const Kernel &K, const StrTab &Str, uint16_t TextSec,
                         std::vector<Symbol> &Syms,
                         std::vector<uint32_t> &Indices) {
  Indices.clear();
  for (const Callee &C : K.Callees) {
    Symbol S;
    S.NameOffset = Str.at(calleeSymbolName(K, C));
    S.Info = ELF::STB_LOCAL << 4 | ELF::STT_FUNC;
    S.Shndx = TextSec;
    S.Value = C.Offset;
    S.Size = C.Size;
    Indices.push_back(static_cast<uint32_t>(Syms.size()));
    Syms.push_back(S);
  }
}

void appendCalleeFrameSizes(const Kernel &K, ArrayRef<uint32_t> Indices,
                            bool Mercury, std::vector<NvInfoRecord> &Recs) {
  for (size_t J = K.Callees.size(); J-- > 0;) {
    const Callee &C = K.Callees[J];
    Recs.push_back(NvInfoRecord::sval(
        NvAttr::FRAME_SIZE,
        {Indices[J], Mercury ? C.MercuryFrameSize : C.FrameSize}));
  }
}

void toMercuryCalleeSymbol(const Kernel &K, ArrayRef<uint32_t> Indices,
                           uint32_t SI, Symbol &S) {
  for (size_t J = 0; J < Indices.size(); ++J)
    if (Indices[J] == SI) {
      S.Value = *K.Callees[J].MercuryOffset;
      S.Size = mercuryCalleeSize(K, J);
    }
}

void appendCalleeFrames(const Kernel &K, bool Mercury,
                        std::vector<uint8_t> &Frame,
                        std::vector<CalleeFrameReloc> &Relocs) {
  Relocs.clear();
  for (size_t J = 0; J < K.Callees.size(); ++J) {
    const Callee &C = K.Callees[J];
    const uint32_t Offset = Mercury ? *C.MercuryOffset : C.Offset;
    const uint32_t Size = Mercury ? mercuryCalleeSize(K, J) : C.Size;
    const std::vector<uint8_t> &Ops = Mercury ? C.MercuryFdeOps : C.FdeOps;
    ++NumCalleeFdes;
    const uint64_t CieOff = Frame.size();
    const std::vector<uint8_t> Cie = calleeCie(C, Mercury ? 1 : CodeAlign);
    Frame.insert(Frame.end(), Cie.begin(), Cie.end());
    std::vector<uint8_t> Body;
    put<uint64_t>(Body, CieOff);
    CalleeFrameReloc R;
    R.FdeLocation = Frame.size() + 12 + Body.size();
    R.CieAddress = CieOff + calleeCieAddr(C);
    R.Offset = Offset;
    Relocs.push_back(R);
    put<uint64_t>(Body, Offset); // R_CUDA_64 to the kernel + offset
    put<uint64_t>(Body, Size);
    Body.insert(Body.end(), Ops.begin(), Ops.end());
    appendFde(Frame, Body);
  }
}

void appendMercuryCallRelocs(const Kernel &K, uint32_t KernelSym,
                             std::vector<uint8_t> &Rela) {
  for (const MercuryCode::CallReloc &R : K.Mercury->CallRelocs) {
    put<uint64_t>(Rela, R.Offset);
    put<uint64_t>(Rela, uint64_t(KernelSym) << 32 | R_MERC_CALL_RETURN);
    put<uint64_t>(Rela, R.Addend);
  }
}

} // namespace detail
} // namespace object
} // namespace tp
