//===- CubinGlobals.cpp - A module's .global and .const data in a cubin ---===//
///
/// \file
/// What ptxas 13 writes for a module's `.global` and `.const` variables
/// (Module::Globals), for every target (sm_80 to sm_121), as DataPlan
/// gives it to buildCubin (CubinLayout.cpp places the sections).  E = our
/// decoding of ptxas 13.0 cubins (test/Object/Inputs/globals: one, two and
/// six variables, `.global` and `.const` together, two kernels sharing one,
/// beside shared memory):
///
///  * sections: an uninitialised `.global` in NOBITS .nv.global, an
///    initialised one in PROGBITS .nv.global.init (both SHF_WRITE |
///    SHF_ALLOC), a `.const` in PROGBITS .nv.constant3 (SHF_ALLOC); each
///    section's alignment is its variables' largest, its size the end of
///    the last variable; .nv.constant4 (SHF_ALLOC, 8-aligned) holds an
///    8-byte slot per `.global`, in declaration order (the `.visible` ones
///    first), zero, filled by an
///    R_CUDA_64 relocation (addend 0) against the variable's symbol in
///    .rel.nv.constant4 (sm_90: RELA), last slot first;
///  * symbols, in kernel 0's group whatever kernel uses them (E: a second
///    kernel that alone uses them): for each variable in declaration order,
///    the `.visible` ones first, its section's symbol before the section's
///    first variable, the variable (LOCAL OBJECT, value its offset, size
///    its size; not a `.visible` one), and after the first `.global` the
///    section symbol of .nv.constant4;
///  * `.visible` variables (E: test/Object/Inputs/globals/visible_*.ptx):
///    GLOBAL OBJECT symbols right after kernel 0's FUNC symbol (before the
///    other kernels'), in declaration order, their names in .strtab right
///    after kernel 0's name; in the walk above they come first (E:
///    visible_order.ptx: a `.visible .const` declared after a plain
///    `.global` gives .nv.constant3's symbol first); nothing else changes
///    (sections, offsets, .shstrtab) but the order of .nv.constant4's
///    slots, which is that walk's (E: visible_mixed.ptx);
///  * `.extern` variables (E: test/Object/Inputs/globals/extern_*.ptx):
///    written as `.visible` ones; each kernel that addresses an `.extern
///    .global` (a device function's use is its caller's) gets the names
///    .rel.text.K (sm_90 and later: and .rela.text.K) in both string
///    tables, without such a section (Kernel::UsesExtern; an `.extern
///    .const` gets none);
///  * string tables: the same names in the same walk (variables in .strtab
///    only); after .debug_frame .rel.nv.constant4 (sm_80/86/89) or
///    .rel.nv.constant.pic and .rela.nv.constant.pic (sm_90) -- ptxas's own
///    names: on sm_90 it writes .nv.constant.pic and .nv.constant.user and
///    renames them in place, so ".nv.constant4" and ".nv.constant3" are
///    followed by 3 and 4 zero bytes in both tables, and .shstrtab's
///    ".rela.nv.constant4" by 3;
///  * Blackwell (sm_100/120/121): sm_90's, but .strtab keeps the first
///    names and adds ".nv.constant4" / ".nv.constant3" after the kernels'
///    names, 23 (.nv.constant4) + 3 (.nv.constant3) zero bytes follow
///    .strtab, and the Mercury copy has .nv.merc.rela.nv.constant.pic
///    (relocation type 0x10002) and headers aliasing the bytes of
///    .nv.constant4, .nv.constant3 and .nv.global.init, its symbols of the
///    variables st_info 0x0d, st_other 0x20 / 0x80 (docs/targets.md).
///
/// Where a variable lies in its section (Offset) is an input: ptxas places
/// them by decreasing alignment, and equal alignments in an order not
/// understood (E: x, y[8], z of align 4 at 4, 8, 0), so the kernel form
/// writes each offset; SassText's parser places variables given none by
/// decreasing alignment, then declaration order (placeGlobals).
///
//===----------------------------------------------------------------------===//

#include "CubinBuild.h"
#include "tp/Support/Diagnostics.h"
#include "llvm/BinaryFormat/ELF.h"

using namespace llvm;

namespace tp {
namespace object {
namespace detail {

namespace {
constexpr uint32_t R_CUDA_64 = 2;
constexpr uint64_t SlotBytes = 8;

StringRef sectionName(DataSection S, bool Sm90) {
  switch (S) {
  case DataSection::AddressRel:
    return Sm90 ? ".rela.nv.constant4" : ".rel.nv.constant4";
  case DataSection::Addresses:
    return ".nv.constant4";
  case DataSection::Const:
    return ".nv.constant3";
  case DataSection::Init:
    return ".nv.global.init";
  case DataSection::Zero:
    return ".nv.global";
  }
  llvm_unreachable("a data section");
}

/// Zero bytes after a name ptxas renamed in place on sm_90 (the longer
/// name it had: .nv.constant.pic, .nv.constant.user, .rela.nv.constant.pic).
unsigned renamedTail(DataSection S) {
  switch (S) {
  case DataSection::Addresses:
  case DataSection::AddressRel:
    return 3;
  case DataSection::Const:
    return 4;
  default:
    return 0;
  }
}

void addName(StrTab &Tab, StringRef Name, unsigned Tail) {
  Tab.add(Name);
  Tab.Bytes.insert(Tab.Bytes.end(), Tail, 0);
}
} // namespace

DataSection sectionOf(const GlobalVar &V) {
  if (V.Space == GlobalVar::Const)
    return DataSection::Const;
  return V.Initialized ? DataSection::Init : DataSection::Zero;
}

DataPlan::DataPlan(const Module &M, bool Sm90Names, bool Mercury)
    : M(M), Sm90(Sm90Names), Merc(Mercury), VarSym(M.Globals.size()),
      MercVarSym(M.Globals.size()) {
  for (const GlobalVar &V : M.Globals) {
    Present[unsigned(sectionOf(V))] = true;
    if (V.Space == GlobalVar::Global)
      Present[unsigned(DataSection::Addresses)] =
          Present[unsigned(DataSection::AddressRel)] = true;
  }
}

std::vector<size_t> DataPlan::walkOrder() const {
  std::vector<size_t> Order;
  for (bool Visible : {true, false})
    for (size_t I = 0; I < M.Globals.size(); ++I)
      if (M.Globals[I].Visible == Visible)
        Order.push_back(I);
  return Order;
}

bool DataPlan::constFirst() const {
  for (size_t I : walkOrder())
    return M.Globals[I].Space == GlobalVar::Const &&
           has(DataSection::Addresses);
  return false;
}

std::vector<size_t> DataPlan::slottedGlobals() const {
  std::vector<size_t> Slotted;
  for (size_t I : walkOrder())
    if (M.Globals[I].Space == GlobalVar::Global)
      Slotted.push_back(I);
  return Slotted;
}

void DataPlan::addGroupNames(StrTab &Tab, bool IsStr) const {
  bool Seen[5] = {};
  auto Section = [&](DataSection S) {
    if (Seen[unsigned(S)])
      return;
    Seen[unsigned(S)] = true;
    // Blackwell's .strtab keeps the names ptxas wrote first.
    if (Merc && IsStr && S == DataSection::Addresses)
      Tab.add(".nv.constant.pic");
    else if (Merc && IsStr && S == DataSection::Const)
      Tab.add(".nv.constant.user");
    else
      addName(Tab, sectionName(S, Sm90), Sm90 ? renamedTail(S) : 0);
  };
  for (size_t I : walkOrder()) {
    const GlobalVar &V = M.Globals[I];
    Section(sectionOf(V));
    if (IsStr && !V.Visible)
      Tab.add(V.Name);
    if (V.Space == GlobalVar::Global)
      Section(DataSection::Addresses);
  }
}

void DataPlan::addVisibleNames(StrTab &Tab) const {
  for (const GlobalVar &V : M.Globals)
    if (V.Visible)
      Tab.add(V.Name);
}

void DataPlan::addRelocationNames(StrTab &Tab, bool IsStr) const {
  if (!has(DataSection::AddressRel))
    return;
  if (!Sm90) {
    Tab.add(".rel.nv.constant4");
    return;
  }
  Tab.add(".rel.nv.constant.pic");
  if (IsStr)
    Tab.add(".rela.nv.constant.pic");
  else
    addName(Tab, ".rela.nv.constant4", renamedTail(DataSection::AddressRel));
}

void DataPlan::addNamesAfterKernels(StrTab &Tab) const {
  if (!Merc)
    return;
  bool Seen[5] = {};
  for (const GlobalVar &V : M.Globals)
    for (DataSection S : {sectionOf(V), DataSection::Addresses})
      if ((S == DataSection::Const ||
           (S == DataSection::Addresses && V.Space == GlobalVar::Global)) &&
          !Seen[unsigned(S)]) {
        Seen[unsigned(S)] = true;
        Tab.add(sectionName(S, Sm90));
      }
}

uint64_t DataPlan::strTabSlack() const {
  if (!Merc)
    return 0;
  return (has(DataSection::Addresses) ? 23 : 0) +
         (has(DataSection::Const) ? 3 : 0);
}

StringRef DataPlan::mercurySectionName(DataSection S) {
  switch (S) {
  case DataSection::AddressRel:
    return ".nv.merc.rela.nv.constant.pic";
  case DataSection::Addresses:
    return ".nv.merc.nv.constant.pic";
  case DataSection::Const:
    return ".nv.merc.nv.constant.user";
  case DataSection::Init:
    return ".nv.merc.nv.global.init";
  case DataSection::Zero:
    break;
  }
  llvm_unreachable(".nv.global has no Mercury copy");
}

void DataPlan::toMercurySymbol(size_t SI, size_t MercSI, const StrTab &Str,
                               Symbol &S) {
  if (int(SI) == SectionSymOf[unsigned(DataSection::Addresses)])
    S.NameOffset = Str.at(".nv.constant.pic");
  if (int(SI) == SectionSymOf[unsigned(DataSection::Const)])
    S.NameOffset = Str.at(".nv.constant.user");
  for (size_t I = 0; I < M.Globals.size(); ++I)
    if (VarSym[I] == SI) {
      const GlobalVar &V = M.Globals[I];
      // E: type 13 (STT_LOPROC), the binding kept (0x0d, `.visible` 0x1d).
      S.Info = uint8_t(S.binding() << 4 | 13);
      S.Other = V.Space == GlobalVar::Const ? 0x80 : 0x20;
      S.Value = V.Offset;
      MercVarSym[I] = MercSI;
    }
}

Section DataPlan::makeMercurySection(DataSection S,
                                     function_ref<uint32_t(DataSection)> MercSecOf,
                                     uint32_t MercSymTab) const {
  constexpr uint64_t SHF_MERC = 0x10000000;
  Section Out;
  Out.Name = mercurySectionName(S).str();
  Out.Flags = SHF_MERC;
  if (S == DataSection::AddressRel) {
    Out.Type = 0x70000082; // SHT_MERC_RELA
    Out.Flags |= SHF_CUDA_INFO_LINK;
    Out.Link = MercSymTab;
    Out.Info = MercSecOf(DataSection::Addresses);
    Out.AddrAlign = 8;
    Out.EntSize = 24;
    const std::vector<size_t> Slotted = slottedGlobals();
    for (size_t J = Slotted.size(); J-- > 0;) {
      put<uint64_t>(Out.Data, J * SlotBytes);
      put<uint64_t>(Out.Data, uint64_t(MercVarSym[Slotted[J]]) << 32 |
                                  0x10002); // E: Mercury's R_CUDA_64
      put<uint64_t>(Out.Data, 0);
    }
    Out.Size = Out.Data.size();
    return Out;
  }
  // An alias: the header only (E: section types 0x7000007d, 0x7000007c,
  // 0x70000008).
  Section Of = makeSection(S, [](DataSection) { return 0u; }, 0);
  Out.Type = S == DataSection::Addresses ? 0x7000007d
             : S == DataSection::Const   ? 0x7000007c
                                         : 0x70000008;
  Out.Flags |= Of.Flags;
  Out.AddrAlign = Of.AddrAlign;
  return Out;
}

void DataPlan::appendSymbols(const StrTab &Str,
                             function_ref<uint32_t(DataSection)> SecOf,
                             std::vector<Symbol> &Syms) {
  bool Seen[5] = {};
  auto SectionSym = [&](DataSection S) {
    if (Seen[unsigned(S)])
      return;
    Seen[unsigned(S)] = true;
    SectionSymOf[unsigned(S)] = Syms.size();
    Symbol Sym;
    Sym.NameOffset = Str.at(sectionName(S, Sm90));
    Sym.Info = ELF::STB_LOCAL << 4 | ELF::STT_SECTION;
    Sym.Shndx = SecOf(S);
    Syms.push_back(Sym);
  };
  for (size_t I : walkOrder()) {
    const GlobalVar &V = M.Globals[I];
    SectionSym(sectionOf(V));
    if (!V.Visible)
      appendVariableSymbol(I, Str, SecOf, Syms);
    if (V.Space == GlobalVar::Global)
      SectionSym(DataSection::Addresses);
  }
}

void DataPlan::appendVariableSymbol(size_t I, const StrTab &Str,
                                    function_ref<uint32_t(DataSection)> SecOf,
                                    std::vector<Symbol> &Syms) {
  const GlobalVar &V = M.Globals[I];
  Symbol Sym;
  Sym.NameOffset = Str.at(V.Name);
  Sym.Info = uint8_t((V.Visible ? ELF::STB_GLOBAL : ELF::STB_LOCAL) << 4 |
                     ELF::STT_OBJECT);
  Sym.Shndx = SecOf(sectionOf(V));
  Sym.Value = V.Offset;
  Sym.Size = V.Size;
  VarSym[I] = Syms.size();
  Syms.push_back(Sym);
}

void DataPlan::appendVisibleSymbols(
    const StrTab &Str, function_ref<uint32_t(DataSection)> SecOf,
    std::vector<Symbol> &Syms) {
  for (size_t I = 0; I < M.Globals.size(); ++I)
    if (M.Globals[I].Visible)
      appendVariableSymbol(I, Str, SecOf, Syms);
}

Section DataPlan::makeSection(DataSection S,
                              function_ref<uint32_t(DataSection)> SecOf,
                              uint32_t SymTab) const {
  Section Out;
  Out.Name = sectionName(S, Sm90).str();
  if (S == DataSection::AddressRel || S == DataSection::Addresses) {
    const std::vector<size_t> Slotted = slottedGlobals();
    if (S == DataSection::Addresses) {
      Out.Type = ELF::SHT_PROGBITS;
      Out.Flags = ELF::SHF_ALLOC;
      Out.AddrAlign = SlotBytes;
      Out.Data.assign(Slotted.size() * SlotBytes, 0);
    } else {
      Out.Type = Sm90 ? ELF::SHT_RELA : ELF::SHT_REL;
      Out.Flags = SHF_CUDA_INFO_LINK;
      Out.Link = SymTab;
      Out.Info = SecOf(DataSection::Addresses);
      Out.AddrAlign = 8;
      Out.EntSize = Sm90 ? 24 : 16;
      for (size_t J = Slotted.size(); J-- > 0;) {
        put<uint64_t>(Out.Data, J * SlotBytes);
        put<uint64_t>(Out.Data, uint64_t(VarSym[Slotted[J]]) << 32 | R_CUDA_64);
        if (Sm90)
          put<uint64_t>(Out.Data, 0);
      }
    }
    Out.Size = Out.Data.size();
    return Out;
  }
  uint64_t End = 0, Align = 1;
  for (const GlobalVar &V : M.Globals)
    if (sectionOf(V) == S) {
      End = std::max(End, V.Offset + V.Size);
      Align = std::max(Align, V.Align);
    }
  Out.AddrAlign = Align;
  Out.Flags = ELF::SHF_ALLOC;
  if (S != DataSection::Const)
    Out.Flags |= ELF::SHF_WRITE;
  Out.Type = S == DataSection::Zero ? ELF::SHT_NOBITS : ELF::SHT_PROGBITS;
  if (S != DataSection::Zero) {
    Out.Data.assign(End, 0);
    for (const GlobalVar &V : M.Globals)
      if (sectionOf(V) == S)
        std::copy(V.Init.begin(), V.Init.end(), Out.Data.begin() + V.Offset);
  }
  Out.Size = End;
  return Out;
}

void readGlobals(const CubinFile &F, ArrayRef<Symbol> Syms, Module &M) {
  for (const Symbol &Sym : Syms) {
    if (Sym.type() != ELF::STT_OBJECT || Sym.Shndx >= F.Sections.size() ||
        (Sym.binding() != ELF::STB_LOCAL && Sym.binding() != ELF::STB_GLOBAL))
      continue;
    const Section &S = F.Sections[Sym.Shndx];
    GlobalVar V;
    if (S.Name == ".nv.global" && S.isNoBits()) {
      V.Space = GlobalVar::Global;
    } else if (S.Name == ".nv.global.init" && !S.isNoBits()) {
      V.Space = GlobalVar::Global;
      V.Initialized = true;
    } else if (S.Name == ".nv.constant3" && !S.isNoBits()) {
      V.Space = GlobalVar::Const;
    } else {
      continue;
    }
    V.Name = Sym.Name;
    V.Visible = Sym.binding() == ELF::STB_GLOBAL;
    V.Size = Sym.Size;
    V.Offset = Sym.Value;
    const uint64_t SecAlign = std::max<uint64_t>(S.AddrAlign, 1);
    V.Align = SecAlign;
    if (V.Offset)
      V.Align = std::min({SecAlign, V.Offset & -V.Offset,
                          uint64_t(PowerOf2Floor(std::max<uint64_t>(V.Size, 1)))});
    if (!S.isNoBits()) {
      // A symbol past its section's bytes is kept as is: buildCubin
      // refuses it (checkGlobals), so the cubin takes the raw form.
      if (V.Offset <= S.Data.size() && V.Size <= S.Data.size() - V.Offset)
        V.Init.assign(S.Data.begin() + V.Offset,
                      S.Data.begin() + V.Offset + V.Size);
    }
    M.Globals.push_back(std::move(V));
  }
  // A kernel that addresses an .extern variable: the name .rel.text.K
  // without such a section (sm_90: nor .rela.text.K, whose names a kernel
  // that addresses shared memory or calls writes anyway).
  const int ShStr = F.findSection(".shstrtab");
  if (ShStr < 0)
    return;
  const std::vector<uint8_t> &Names = F.Sections[ShStr].Data;
  const StringRef Table(reinterpret_cast<const char *>(Names.data()),
                        Names.size());
  for (Kernel &K : M.Kernels) {
    const std::string Rel = ".rel.text." + K.Name;
    K.UsesExtern = F.findSection(Rel) < 0 &&
                   F.findSection(".rela.text." + K.Name) < 0 &&
                   Table.contains(std::string(1, '\0') + Rel + '\0');
  }
}

bool hasVisibleGlobal(const Module &M) {
  return any_of(M.Globals, [](const GlobalVar &V) {
    return V.Visible && V.Space == GlobalVar::Global;
  });
}

Error checkGlobals(const Module &M) {
  for (const Kernel &K : M.Kernels)
    if (K.UsesExtern && !hasVisibleGlobal(M))
      return makeError("kernel '" + K.Name +
                       "' addresses an .extern variable, but the module has "
                       "no visible .global one (ptxas writes an .extern "
                       ".global as a .visible one)");
  if (M.Globals.empty())
    return Error::success();
  if (M.SassOnly)
    return makeError("a SASS-only cubin (.binary_kind sass) with .global or "
                     ".const variables: no ptxas cubin confirms its layout");
  StringMap<bool> Names;
  for (const Kernel &K : M.Kernels)
    Names[K.Name] = true;
  for (size_t I = 0; I < M.Globals.size(); ++I) {
    const GlobalVar &V = M.Globals[I];
    const std::string What = "variable '" + V.Name + "'";
    if (V.Name.empty())
      return makeError("a variable has an empty name");
    if (!Names.try_emplace(V.Name, true).second)
      return makeError("the name of " + What +
                       " is taken by a kernel or another variable");
    if (!V.Size || V.Size >= (uint64_t(1) << 32))
      return makeError(What + ": size " + Twine(V.Size) +
                       " is not between 1 and 2^32 - 1");
    if (!V.Align || !isPowerOf2_64(V.Align) || V.Offset % V.Align)
      return makeError(What + ": offset " + hex(V.Offset) +
                       " is not a multiple of its alignment " +
                       Twine(V.Align) + " (a power of two)");
    if (V.Space == GlobalVar::Const && V.Offset + V.Size > 0x10000)
      return makeError(What + ": its bytes end past constant bank 3's 64 KiB");
    if ((V.Initialized || V.Space == GlobalVar::Const) &&
        V.Init.size() != V.Size)
      return makeError(What + ": " + Twine(V.Init.size()) +
                       " initial bytes for a size of " + Twine(V.Size));
    for (size_t J = 0; J < I; ++J) {
      const GlobalVar &O = M.Globals[J];
      if (sectionOf(O) == sectionOf(V) && V.Offset < O.Offset + O.Size &&
          O.Offset < V.Offset + V.Size)
        return makeError(What + " (offset " + hex(V.Offset) + ", " +
                         Twine(V.Size) + " bytes) overlaps variable '" +
                         O.Name + "' (offset " + hex(O.Offset) + ", " +
                         Twine(O.Size) + " bytes)");
    }
  }
  return Error::success();
}

} // namespace detail

void placeGlobals(std::vector<GlobalVar> &Globals) {
  using namespace detail;
  std::vector<size_t> Order(Globals.size());
  for (size_t I = 0; I < Order.size(); ++I)
    Order[I] = I;
  std::stable_sort(Order.begin(), Order.end(), [&](size_t A, size_t B) {
    return Globals[A].Align > Globals[B].Align;
  });
  uint64_t End[5] = {};
  for (size_t I : Order) {
    GlobalVar &V = Globals[I];
    uint64_t &E = End[unsigned(sectionOf(V))];
    V.Offset = alignTo(E, std::max<uint64_t>(V.Align, 1));
    E = V.Offset + V.Size;
  }
}

} // namespace object
} // namespace tp
