//===- FormSamples.cpp - Instances of every form, for outside oracles -----===//
///
/// \file
/// tp-form-samples: prints instances of every form a target has, one per
/// line as `<form>\t<32 hex digits, high half first>\t<tp's text>`, with the
/// control fields given (`--control=V`: bits 105..109 = V, 0..31; the other
/// control fields 0).  The first instance of a form has every operand that
/// is not a register at 0 (where that verifies), the others are random
/// (FormInstance.h, a fixed seed).  The nvdisasm oracle tests
/// (utils/nvdisasm-oracle.py, test/Nvdisasm) feed these words to NVIDIA's
/// disassembler.  A test utility: it is not installed.
///
//===----------------------------------------------------------------------===//

#include "FormInstance.h"
#include "tp/Target/SASS/SASS.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace tp;

static cl::opt<std::string> CPU("mcpu", cl::desc("Target (sm_86 ...)"),
                                cl::init("sm_86"));
static cl::opt<unsigned> PerForm("per-form",
                                 cl::desc("Instances of each form"),
                                 cl::init(1));
static cl::opt<unsigned> ControlValue(
    "control", cl::desc("Bits 105..109 of every word (0..31)"),
    cl::init(18));
static cl::opt<uint64_t> Seed("seed", cl::desc("Random seed"),
                              cl::init(0x9e3779b97f4a7c15ull));

/// \p I with every operand that is not a register, predicate, modifier or
/// special register set to 0, if that verifies on \p T.
static sass::Instruction quiet(const sass::Instruction &I, sass::Target T) {
  const sass::InstrInfo &II = sass::getInstrInfo(I.Op);
  sass::Instruction Q = I;
  Q.Guard = sass::PT;
  Q.GuardNeg = false;
  for (unsigned K = 0; K < II.NumOperands; ++K) {
    switch (II.Operands[K].Kind) {
    case sass::OperandKind::GPR:
    case sass::OperandKind::UGPR:
    case sass::OperandKind::Pred:
    case sass::OperandKind::UPred:
    case sass::OperandKind::MemBase:
    case sass::OperandKind::MemUR:
    case sass::OperandKind::MemDesc:
    case sass::OperandKind::SReg:
      break;
    default:
      Q.Ops[K] = 0;
    }
  }
  if (Error E = sass::verify(Q, T)) {
    consumeError(std::move(E));
    return I;
  }
  return Q;
}

int main(int argc, char **argv) {
  cl::ParseCommandLineOptions(argc, argv, "instances of every form\n");
  sass::Target T;
  if (!sass::lookupTarget(CPU, T)) {
    errs() << "tp-form-samples: unknown target '" << CPU << "'\n";
    return 1;
  }
  if (ControlValue > 31) {
    errs() << "tp-form-samples: --control must be 0..31\n";
    return 1;
  }
  uint64_t R = Seed;
  for (unsigned Op = 0; Op < sass::getNumOpcodes(); ++Op) {
    if (!sass::isAvailable(Op, T))
      continue;
    for (unsigned K = 0; K < PerForm; ++K) {
      sass::Instruction I;
      if (!test::randomInstance(sass::Opcode(Op), T, R, I))
        continue;
      if (K == 0)
        I = quiet(I, T);
      I.Ctrl = sass::Control();
      sass::Word128 W = sass::encode(I, T);
      // encode() writes what it is given; the value is set here, defined
      // or not, since the oracle is asked about every one.
      for (unsigned B = 0; B < 5; ++B)
        W.setBit(105 + B, (ControlValue >> B) & 1);
      outs() << sass::getInstrInfo(sass::Opcode(Op)).Name << '\t'
             << format_hex_no_prefix(W.Hi, 16) << format_hex_no_prefix(W.Lo, 16)
             << '\t';
      sass::print(I, 0, outs());
      outs() << '\n';
    }
  }
  return 0;
}
