//===- SimInternal.h - Decoded program and warp state of tp-sim -*- C++ -*-===//
///
/// \file
/// Internal to lib/Sim.  A Program is the kernel's instructions decoded
/// once into DInst records: the sass::Instruction, the operand values by
/// field name (Field), the resolved sources A/B/C, the semantics and
/// handler of the form (the dispatch table generated from
/// td/SM86/Semantics.td), and what hazard mode needs (register uses and
/// definitions, writer/reader latency classes).  Handlers run one
/// instruction for one warp over a lane mask.
///
//===----------------------------------------------------------------------===//
#ifndef TP_LIB_SIM_SIMINTERNAL_H
#define TP_LIB_SIM_SIMINTERNAL_H

#include "tp/Target/SASS/Schedule.h"
#include "tp/Sim/Simulator.h"
#include "tp/Target/SASS/SASS.h"
#include <bitset>
#include <string>
#include <vector>

namespace tp {
namespace sim {

/// Operand fields by td operand name.  Absent fields keep their default
/// (registers RZ/URZ, predicates PT, everything else 0).
#define TP_SIM_FIELDS(X)                                                       \
  X(Rd) X(Ra) X(Rb) X(Rc) X(Rs) X(Imm) X(Bank) X(Off) X(Ur) X(na) X(nb) X(nc)  \
  X(aa) X(ab) X(ac) X(u) X(Pu) X(Pv) X(Pp) X(Ppn) X(Pq) X(Pqn) X(Pe) X(Pen)    \
  X(Pc) X(Pcn) X(Pa) X(Pan) X(Pb) X(Pbn) X(Pl) X(lut) X(lut2) X(sh) X(cmp)     \
  X(bop) X(mode) X(dir) X(wrap) X(type) X(hi) X(mask) X(e) X(aw) X(off)        \
  X(sc) X(lay) X(soff) X(goff) X(sz) X(zf) X(sb) X(cnt) X(set) X(sr) X(rnd)    \
  X(ftz) X(sat) X(target) X(id) X(Urd) X(Ura) X(Urb) X(Urc) X(UPu) X(UPv)      \
  X(UPp) X(UPpn) X(UPq) X(UPqn) X(UPr) X(UPrn) X(dst) X(src) X(fmt) X(ofmt)    \
  X(ifmt) X(x) X(ex) X(Uimm) X(Pd) X(Pdn) X(tgt) X(Ud) X(sgn) X(scale) X(sa) X(bf) X(f32) X(sel) X(nan) X(ntz) \
  X(lane) X(cmask) X(ev) X(b) X(aop) X(ty) X(cop) X(rop) X(urn) X(ninc) X(fn)

enum Field : uint8_t {
#define TP_SIM_ENUM(N) F_##N,
  TP_SIM_FIELDS(TP_SIM_ENUM)
#undef TP_SIM_ENUM
      NumFields
};

/// A source operand resolved at decode time.
struct Src {
  enum Kind : uint8_t { KNone, KReg, KImm, KCB, KUR } K = KNone;
  bool Neg = false;
  bool Abs = false;
  uint8_t Swz = 0;    ///< f16x2 swizzle: 0 H1_H0, 2 H0_H0, 3 H1_H1, 4 H0_NH1
  uint16_t Reg = 255; ///< GPR or UR number
  uint32_t Val = 0;   ///< immediate bits, or constant-bank byte offset
};

/// Register name spaces in hazard mode: one index per architectural
/// register.  GPR 0..254, UR 256..318, P 320..326, UP 328..334.
enum : uint16_t { HzGPR = 0, HzUR = 256, HzP = 320, HzUP = 328, HzNum = 336 };

/// The name of hazard-mode register index \p Reg (R5, UR2, P0, UP1).
std::string getHazardRegName(unsigned Reg);

/// One register (tuple) an instruction reads or writes, as the one
/// classifier (sched::describe) sees it.
struct RegUse {
  uint16_t First = 0; ///< hazard index of the first register
  uint8_t Count = 1;  ///< registers in the tuple
  bool Def = false;   ///< written
  bool Late = false;  ///< read after issue (a GPR source of a variable op)
  sched::ReadSlot Slot = sched::ReadSlot::Normal;
  sched::PredRead How = sched::PredRead::Operand;
};

/// The latency model's RAW cycles from a fixed-latency writer of class
/// \p Writer to the read \p U of register \p Reg by an instruction of
/// class \p Reader (\p LowHalf: the writer's IMAD.WIDE low half), for
/// the register's file: the rule tp-sim's hazard mode and the timing
/// model both check (and tp-compact-stalls schedules with).
unsigned getRAWLatency(const sched::LatencyModel &M, unsigned Reg,
                       sched::InstrClass Writer, sched::InstrClass Reader,
                       const RegUse &U, bool LowHalf);

/// The semantic classes of td/SM86/Semantics.td: one handler each
/// (exec<Class>, ExecState.h).
enum class SemClass : uint8_t {
#define TP_SIM_SEM_CLASS(Name) Name,
#define GET_SIM_SEM_CLASSES
#include "SimGenDispatch.inc"
#undef TP_SIM_SEM_CLASS
};

/// The flags of td/SM86/Semantics.td, one bit each.
namespace SemFlag {
enum : uint32_t {
#define TP_SIM_SEM_FLAG(Name, Bit) Name = 1u << Bit,
#define GET_SIM_SEM_FLAGS
#include "SimGenDispatch.inc"
#undef TP_SIM_SEM_FLAG
};
} // namespace SemFlag

/// The variants a semantic class distinguishes (SimSemantics::Variant).
enum class IMADKind : uint8_t { Plain, Wide, Hi, Shl, Mov, IAdd };
enum class FArithKind : uint8_t { Add, Mul, Fma }; ///< FADD..., HADD2...
enum class I2FKind : uint8_t { I2F, I2FP };
enum class UALUKind : uint8_t {
  UMOV, UIADD3, ULOP3, USHF, UIMAD, ULEA, UISETP, USEL, VOTEU, R2UR, UFLO,
  UPOPC, UBREV, ELECT
};
enum class BitOp : uint8_t { Flo, Popc, Brev };
enum class AtomsKind : uint8_t { Op, Cas, PopcInc }; ///< ATOMS forms
enum class BarKind : uint8_t { Sync, Red, Arv };   ///< BAR forms

/// One row of the generated dispatch table (SimGenDispatch.inc).
struct FormSemantics {
  sass::Opcode Form;
  SemClass Class;
  uint8_t Variant; ///< the class's kind enum, as a number
  uint32_t Flags;  ///< SemFlag bits
  uint8_t Size;    ///< access bytes, LDSM matrices or HMMA K
  uint8_t Shift;   ///< IMAD.SHL's shift
};
/// The semantics of form \p Op, or null when it has none.
const FormSemantics *getFormSemantics(sass::Opcode Op);

struct Exec;
struct DInst;
using Handler = void (*)(Exec &X, const DInst &D, uint32_t Mask);
/// The handler of a semantic class.
Handler getHandler(SemClass C);

struct DInst {
  Handler Fn = nullptr;
  sass::Instruction I;
  uint64_t Addr = 0;
  int64_t F[NumFields];
  std::bitset<NumFields> Has; ///< fields the form has as operands
  Src A, B, C;
  // What the form's semantics say (FormSemantics).
  SemClass Sem = SemClass::NOP;
  uint8_t Variant = 0;
  uint8_t Size = 0;
  uint8_t Shift = 0;
  uint32_t Flags = 0;
  uint8_t SReg = 0; ///< S2R/S2UR/CS2R: the special register (SRId)
  int32_t Target = -1; ///< branch target (instruction index)
  /// CALL.REL Ra / RET.REL: the address the register pair is added to.
  uint64_t TargetBase = 0;
  bool IsBarrier = false, IsExit = false, IsBranch = false;
  bool UniformGuard = false; ///< the guard is a UP (InstrInfo::UniformGuard)
  // Hazard mode.
  std::vector<RegUse> Uses;
  bool Variable = false;
  sched::InstrClass Class = sched::InstrClass::Nop; ///< latency class
  bool Predicated = false;                          ///< has a guard
  const char *Name = "";

  bool has(uint32_t Flag) const { return Flags & Flag; }
  template <typename KindT> KindT kind() const { return KindT(Variant); }
};

class Program {
public:
  KernelImage Kernel;
  const sched::LatencyModel *Model = nullptr; ///< the cubin's target's
  std::vector<DInst> Insts;
  std::string describe(size_t Idx) const;
};

/// Fills the handler-specific parts of \p D (sources, special register).
/// Returns an
/// error text, or "" when the instruction is supported.
std::string prepareInst(DInst &D);

} // namespace sim
} // namespace tp

#endif // TP_LIB_SIM_SIMINTERNAL_H
