//===- CubinConstant2.cpp - A kernel's constant bank 2 in a cubin --------===//
///
/// \file
/// .nv.constant2.K, the kernel's constant bank 2 (Kernel::Constant2), as
/// ptxas 13 writes it on sm_80, sm_86 and sm_89 (docs/targets.md,
/// "Constant bank 2").  E = our decoding of ptxas 13.0
/// cubins (test/Object/Inputs/const2, test/Object/Inputs/noexit):
///
///  * ptxas puts there the 64-bit immediates an instruction cannot hold:
///    an f64 operand of DFMA/DADD whose low 32 bits are not 0, an address
///    offset or integer beyond 32 bits of 64-bit arithmetic; the code reads
///    them as c[0x2][N].  Which constants go there, and in what order, is
///    ptxas's choice: the bytes are stated, not derived;
///  * PROGBITS, SHF_ALLOC | SHF_INFO_LINK, sh_link 0, sh_info the kernel's
///    .text.K, alignment 4 (f64 constants too), no relocation, no
///    .nv.info record;
///  * the section right before the kernel's .nv.constant0.K (so inside the
///    LOAD of the constants and code), its LOCAL SECTION symbol right
///    before .nv.constant0.K's, its name in both string tables right
///    before the .nv.constant0.K / .rel.nv.constant0.K pair;
///  * sm_90 and later: ptxas writes no bank 2 for such constants (it
///    builds them in registers); a jump table (brx.idx) gets one there
///    with a .rela.nv.constant2.K and, on Blackwell, a Mercury
///    .nv.merc.rela.nv.constant.optimizer.K: not modelled (raw form).
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
constexpr StringLiteral Prefix = ".nv.constant2.";
} // namespace

bool hasConstant2Bank(unsigned SM) { return SM < 90; }

std::string constant2Name(const Kernel &K) { return (Prefix + K.Name).str(); }

Error checkConstant2(const Kernel &K, unsigned SM) {
  if (K.Constant2.empty())
    return Error::success();
  if (!hasConstant2Bank(SM))
    return kernelError(K, "constant bank 2 (.nv.constant2.K) is modelled on "
                          "sm_80, sm_86 and sm_89 only, not sm_" +
                              Twine(SM));
  if (K.Constant2.size() > MaxConstant2Bytes)
    return kernelError(K, "constant bank 2 holds " + Twine(K.Constant2.size()) +
                              " bytes, at most " + Twine(MaxConstant2Bytes));
  return Error::success();
}

Section makeConstant2Section(const Kernel &K, uint32_t TextSec) {
  return makeSection(constant2Name(K), ELF::SHT_PROGBITS,
                     ELF::SHF_ALLOC | SHF_CUDA_INFO_LINK, 0, TextSec, 4, 0,
                     K.Constant2);
}

void readConstant2(const CubinFile &F, Module &M) {
  for (const Section &S : F.Sections) {
    StringRef Name = S.Name;
    if (S.Type != ELF::SHT_PROGBITS || !Name.consume_front(Prefix))
      continue;
    for (Kernel &K : M.Kernels)
      if (K.Name == Name)
        K.Constant2 = S.Data;
  }
}

} // namespace detail
} // namespace object
} // namespace tp
