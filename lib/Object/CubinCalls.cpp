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
///    Callee::ReturnReg) and FDE (location the callee's offset, range its size, its
///    instructions copied: Callee::FdeOps);
///  * relocations against the kernel symbol: the callees' FDE locations
///    last first, the kernel's FDE, the callees' CIE addresses last first.
///
/// The writer models sm_80/86/89 and sm_90 (no Mercury copy): a Blackwell
/// kernel with callees is refused (the Mercury copy's callee offsets are
/// not read), so such cubins keep the raw form.  The order of the callees'
/// code is not understood (E: call_two.ptx places `thrice` before
/// `twice`), so offsets and sizes are stated, not derived.
///
//===----------------------------------------------------------------------===//

#include "CubinBuild.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Support/Endian.h"
#include <algorithm>
#include <array>
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

/// CalleeCie for a callee whose return address is in R\p Reg.
std::array<uint8_t, sizeof(CalleeCie)> calleeCie(unsigned Reg) {
  std::array<uint8_t, sizeof(CalleeCie)> B;
  std::copy(std::begin(CalleeCie), std::end(CalleeCie), B.begin());
  for (size_t At : CalleeCieRetReg)
    B[At] = 0x80 | Reg;
  return B;
}

std::string calleeSymbolName(const Kernel &K, const Callee &C) {
  return "$" + K.Name + "$" + C.Name;
}

/// The module .nv.info FRAME_SIZE values by symbol index.
std::map<uint32_t, uint32_t> frameSizesBySymbol(const CubinFile &F) {
  std::map<uint32_t, uint32_t> Out;
  int SI = F.findSection(".nv.info");
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

/// The call-frame instructions of the FDE at \p LocOff (the offset of its
/// location in \p Fr) when it follows a CalleeCie, trailing DW_CFA_nops
/// dropped, and its CIE's return register; false when it is not such an
/// FDE.
bool readCalleeFde(ArrayRef<uint8_t> Fr, uint64_t LocOff, uint32_t Offset,
                   Callee &C) {
  if (LocOff < 20 || LocOff + 16 > Fr.size())
    return false;
  const uint64_t Start = LocOff - 20;
  if (support::endian::read32le(Fr.data() + Start) != 0xffffffff)
    return false;
  const uint64_t Len = support::endian::read64le(Fr.data() + Start + 4);
  const uint64_t Cie = support::endian::read64le(Fr.data() + Start + 12);
  if (Len < 24 || Len > Fr.size() - Start - 12 ||
      Cie + sizeof(CalleeCie) > Fr.size() ||
      support::endian::read64le(Fr.data() + LocOff) != Offset)
    return false;
  const unsigned Reg = Fr[Cie + CalleeCieRetReg[0]] & 0x7f;
  const auto Want = calleeCie(Reg);
  if (!std::equal(Want.begin(), Want.begin() + CalleeCieAddr, Fr.begin() + Cie) ||
      !std::equal(Want.begin() + CalleeCieAddr + 8, Want.end(),
                  Fr.begin() + Cie + CalleeCieAddr + 8))
    return false;
  C.ReturnReg = Reg;
  std::vector<uint8_t> &Ops = C.FdeOps;
  Ops.assign(Fr.begin() + LocOff + 16, Fr.begin() + Start + 12 + Len);
  while (!Ops.empty() && Ops.back() == 0)
    Ops.pop_back();
  return true;
}
} // namespace

void readCallees(const CubinFile &F, ArrayRef<Symbol> Syms, Module &M) {
  const std::map<uint32_t, uint32_t> Frames = frameSizesBySymbol(F);
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
      if (DF >= 0 && RDF >= 0) {
        const std::vector<uint8_t> &Rel = F.Sections[RDF].Data;
        for (size_t R = 0; R + RelSize <= Rel.size(); R += RelSize)
          if (readCalleeFde(F.Sections[DF].Data,
                            support::endian::read64le(Rel.data() + R),
                            C.Offset, C))
            break;
      }
      ++NumCalleesRead;
      K.Callees.push_back(std::move(C));
    }
    llvm::sort(K.Callees, [](const Callee &A, const Callee &B) {
      return A.Offset < B.Offset;
    });
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

uint32_t kernelCodeEnd(const Kernel &K) {
  return K.Callees.empty() ? static_cast<uint32_t>(K.Code.size())
                           : K.Callees.front().Offset;
}

Error checkCallees(const Kernel &K, bool Blackwell) {
  if (K.Callees.empty())
    return Error::success();
  auto Fail = [&](const Twine &Why) {
    return make_error<StringError>("kernel '" + K.Name + "': " + Why,
                                   inconvertibleErrorCode());
  };
  if (Blackwell)
    return Fail("callees on Blackwell (sm_100/120/121) are not modelled "
                "(the Mercury copy's callees are not read)");
  uint32_t End = 16;
  for (const Callee &C : K.Callees) {
    if (C.Name.empty())
      return Fail("a callee has an empty name");
    if (C.ReturnReg > 0x7f)
      return Fail("callee '" + C.Name + "': return register R" +
                  Twine(C.ReturnReg) + " is not one ptxas's CIE encodes "
                  "in one byte (R0..R127)");
    if (C.Offset % 16 || C.Offset < End || !C.Size || C.Size % 16 ||
        C.Size > K.Code.size() - std::min<size_t>(C.Offset, K.Code.size()))
      return Fail("callee '" + C.Name + "' at " + hex(C.Offset) + " size " +
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
                            std::vector<NvInfoRecord> &Recs) {
  for (size_t J = K.Callees.size(); J-- > 0;)
    Recs.push_back(NvInfoRecord::sval(NvAttr::FRAME_SIZE,
                                      {Indices[J], K.Callees[J].FrameSize}));
}

void appendCalleeFrames(const Kernel &K, std::vector<uint8_t> &Frame,
                        std::vector<CalleeFrameReloc> &Relocs) {
  Relocs.clear();
  for (const Callee &C : K.Callees) {
    ++NumCalleeFdes;
    const uint64_t CieOff = Frame.size();
    const auto Cie = calleeCie(C.ReturnReg);
    Frame.insert(Frame.end(), Cie.begin(), Cie.end());
    std::vector<uint8_t> Body;
    put<uint64_t>(Body, CieOff);
    CalleeFrameReloc R;
    R.FdeLocation = Frame.size() + 12 + Body.size();
    R.CieAddress = CieOff + CalleeCieAddr;
    R.Offset = C.Offset;
    Relocs.push_back(R);
    put<uint64_t>(Body, C.Offset); // R_CUDA_64 to the kernel + offset
    put<uint64_t>(Body, C.Size);
    Body.insert(Body.end(), C.FdeOps.begin(), C.FdeOps.end());
    while ((12 + Body.size()) % 8)
      Body.push_back(0); // DW_CFA_nop
    put<uint32_t>(Frame, 0xffffffff);
    put<uint64_t>(Frame, Body.size());
    Frame.insert(Frame.end(), Body.begin(), Body.end());
  }
}

} // namespace detail
} // namespace object
} // namespace tp
