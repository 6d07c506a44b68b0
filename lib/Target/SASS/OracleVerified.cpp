//===- OracleVerified.cpp - Which forms NVIDIA's bytes confirm -------------===//
///
/// \file
/// sass::isOracleVerified: the table generated at build time from
/// td/UnverifiedForms.txt (GenUnverifiedForms.cmake), the
/// list of forms that no oracle word reaches.  The coverage test
/// (unittests/Target/SM86CoverageTest.cpp) keeps that list equal to what
/// the oracles reach; this file only turns it into a lookup.
///
//===----------------------------------------------------------------------===//

#include "tp/Target/SASS/SASS.h"
#include "llvm/ADT/ArrayRef.h"
#include <bitset>

namespace tp {
namespace sass {

namespace {
/// The listed forms, as opcodes: an unknown name is a compile error (the
/// generator reports it first, with its line of the list).
const Opcode UnverifiedForms[] = {
#define TP_SASS_UNVERIFIED_FORM(Name) Name,
#include "tp/Target/SASS/SASSGenUnverifiedForms.inc"
#undef TP_SASS_UNVERIFIED_FORM
};

const std::bitset<NUM_OPCODES> &getUnverifiedSet() {
  static const std::bitset<NUM_OPCODES> Set = [] {
    std::bitset<NUM_OPCODES> S;
    for (Opcode Op : UnverifiedForms)
      S.set(Op);
    return S;
  }();
  return Set;
}
} // namespace

bool isOracleVerified(Opcode Op) {
  return Op < NUM_OPCODES && !getUnverifiedSet().test(Op);
}

llvm::ArrayRef<Opcode> getUnverifiedForms() { return UnverifiedForms; }

} // namespace sass
} // namespace tp
