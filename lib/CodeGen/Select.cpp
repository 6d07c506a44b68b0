//===- Select.cpp - tp-select: instruction selection from the tile IR -----===//
///
/// \file
/// tile IR -> mir.  Requires a swizzled product (tp-admit, tp-tile,
/// tp-pipeline, tp-swizzle have run); guarantees one `sass.func` per kernel
/// whose every instruction is the lowering of one op of its input, before
/// interleaving, stall compaction and loop formation.  The selector holds
/// no formula of the kernel: each address term is tp-swizzle's, each stage
/// offset, wait count and copy step tp-pipeline's (through tp-swizzle's
/// regions), each tile number tp-tile's.  Change the IR and the kernel
/// changes with it (test/CodeGen/Select/mutations.test).
///
/// One lowering per op kind:
///
///   tp.addresses   each value op in order, folded (below); values only the
///                  region itself reads live in registers freed after their
///                  last read, values a ring op reads keep theirs
///   sreg           S2R (write scoreboard 5)
///   add/mul/mad/shr/and/xor
///                  constants fold and become immediates; add of 0, mul by
///                  1, shr by 0, and with -1, xor with 0 and mad by 0 or
///                  into 0 vanish (the value is its operand's register);
///                  `and x, imm` is one LOP3 with the immediate, shr one
///                  SHF.R.U32.HI, mul by 2^n IMAD.SHL.U32, other muls
///                  IMAD with RZ, `mad x, 2^n, y` one LEA, other mads IMAD
///   tp.copy        per tp.ldgsts: LDGSTS.E.BYPASS.128 [sts + buffer],
///                  [param + goff + step k_step_bytes]; the pointer pair is
///                  formed once (IMAD.WIDE.U32 with a register holding 1,
///                  the one form that adds a constant-bank pointer) and,
///                  when a later copy follows, advanced after the copy by
///                  k_step_bytes (IADD3 + IMAD.WIDE.U32): the copies must
///                  name consecutive steps (checked; an error otherwise)
///   param          MOV R, c[0x0][ParamBase + the parameter's offset]
///   sub            IADD3 with the second source negated (a constant: an
///                  add of its negation)
///   lt/ltu/gt/eq   ISETP.<cmp>[.U32].AND Pd, PT, a, b, q (q: the optional
///                  predicate operand, else PT); predicates get P registers
///                  by liveness (a use count per value; P1 is tp-form-loop's
///                  and never holds a tp.addresses predicate; a predicate
///                  the loop body reads stays live over the whole loop)
///   sel            SEL Rd, a, b, P
///   value ops in tp.copy / tp.epilogue: lowered in place, as above
///   guard= / fill= on tp.ldgsts: the LDGSTS form with a source predicate
///                  (false: zeros, no read); with fill= .ZFILL from the
///                  stream's offset plus the fill bytes (the kernel's last
///                  copy moves its own stream, another one forms a pointer)
///   k_step_bytes=%v: the advance IADD3 adds the value's register
///   tp.loop count=%v: the counter is the value's copy; the function gets
///                  runtime-count(1) (tp-form-loop's skip piece)
///   guard= / guard_first= on tp.stg: @both STG.E.64, @first STG.E of the
///                  first element; on tp.ldg: R's pair zeroed (CS2R), then
///                  @both LDG.E x2 and @first LDG.E of the first
///   tp.commit      LDGDEPBAR (write scoreboard 0, DEPBAR counts groups)
///   tp.wait_groups DEPBAR.LE SB0, max
///   tp.barrier     BAR.SYNC.DEFER_BLOCKING 0x0
///   tp.ldsm        LDSM.16.M88.4 / .MT88.4 into its fragment (operand, kk,
///                  index), [address + buffer offset] (write scoreboard 1)
///   tp.mma         HMMA.16816.F32 acc(mt, nt), A(kk, mt), B(kk, nt)
///                  (.F32.BF16 when A and B are bf16)
///   tp.loop        the iteration counter (MOV, end of the prologue; the
///                  function attribute counter() names it) and piece body
///   tp.epilogue    C's pointer from its offset operand (IMAD.WIDE.U32),
///                  then per tp.ldg two LDG.E of R's pair (write scoreboard
///                  2), per tp.add_residual two FADDs, per tp.stg STG.E.64
///                  (STG.E of the packed pair when D is f16 or bf16); the
///                  value ops (tp.pack) in SelectEpilogue.cpp
///   the function   ULDC.64 UR4 (Blackwell: LDCU.64, write scoreboard 5)
///                  = the memory descriptor first (every global
///                  access names desc[UR4]); accumulators zeroed (CS2R
///                  pairs) after the prologue's copies; EXIT and ptxas's
///                  closing self-branch last
///
/// Pieces: prologue (addresses, tp.prologue, zeroed accumulators, the
/// counter), body (tp.loop: one iteration; empty when there is none), tail
/// (tp.tail).
///
/// Registers: virtual (tp/MIR/MIR.h), named after the value or role they
/// hold (`%a_sts0`, `%off_A_0`, `%ptr_A_0`, `%a_frag_<kk>_<i>`,
/// `%acc_<mt>_<nt>`, `%one`, `%counter`, `%c_ptr`, ...); regs(0).
/// tp-regalloc assigns them (and the waits that follow from them).  An
/// aliased value (an add of 0) is its operand's register; a copy stream's
/// running offset is its value's register when no other value shares it
/// (it is advanced in place), else a copy.
///
/// Values: every name the product defines or reads gets a dense id in one
/// walk before selection (indexProduct): a table by id holds each value's
/// lowering, the reads of it left (a predicate register is free after the
/// last) and whether a ring op reads it (its register is then shared).
///
/// Control fields are conservative (stall 15) with the scoreboards set
/// (S2R 5, LDSM 1, LDG 2, LDGSTS and STG reads 3, LDGDEPBAR 0); the waits depend
/// on the physical registers and are tp-regalloc's (CodeGen.h,
/// addConservativeWaits); tp-compact-stalls recomputes all of it.
///
/// Instructions are built as objects: each form's prototype comes from a
/// table of raw field values (SelectForms.h, checked against the forms'
/// spellings by a unit test), operands are set by their td names; no
/// instruction text is built or parsed.
///
/// Attributes written: threads grid params shape layout-a layout-b tile
/// iterations residual [epilogue(scale,bias,relu)] [types(A,B,D) unless
/// f16,f16,f32] counter; params lists the roles (C,A,B[,R][,alpha,beta]
/// [,bias]).
///
//===----------------------------------------------------------------------===//

#include "SelectEpilogue.h"
#include "tp/CodeGen/CodeGen.h"
#include "tp/CodeGen/SelectForms.h"
#include "tp/MIR/MIR.h"
#include "tp/Support/Debug.h"
#include "tp/Support/Diagnostics.h"
#include "tp/TileIR/TileOps.h"
#include "tp/TileIR/TileUnit.h"

#include "llvm/ADT/Optional.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Allocator.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#include <array>
#include <cassert>
#include <cstring>
#include <functional>
#include <map>
#include <set>
#include <string>

using namespace llvm;

#define DEBUG_TYPE "tp-select"

ALWAYS_ENABLED_STATISTIC(NumFolded,
                         "Address ops folded away (constants, identities)");
ALWAYS_ENABLED_STATISTIC(NumSelected, "Instructions selected");

namespace tp {
namespace {

using namespace tile;
using isel::Form;
using isel::operand;
using isel::Slot;

/// Whether \p S spells literal \p L (the length a constant, so the
/// comparison is inlined: the selector compares op and attribute names a
/// few thousand times).
template <size_t N> bool is(StringRef S, const char (&L)[N]) {
  return S.size() == N - 1 && std::memcmp(S.data(), L, N - 1) == 0;
}

/// The integer attribute \p Key of \p O (Op::getInt with is()); the
/// verifier has checked that each attribute read here is present.
template <size_t N> int64_t intAttr(const Op &O, const char (&Key)[N]) {
  for (const Attr &A : O.Attrs)
    if (is(A.Key, Key) && A.Val.isInt())
      return A.Val.I;
  return 0;
}

/// `<Prefix><Sep><A>_<B>` (the names of fragments and accumulators), built
/// in place.
SmallString<32> indexedName(StringRef Prefix, StringRef Sep, int64_t A,
                            int64_t B) {
  SmallString<32> N(Prefix);
  N += Sep;
  N += std::to_string(A);
  N += '_';
  N += std::to_string(B);
  return N;
}

/// The attribute \p Key of \p O, or null (Op::getAttr with is()).
template <size_t N> const Attr *findAttr(const Op &O, const char (&Key)[N]) {
  for (const Attr &A : O.Attrs)
    if (is(A.Key, Key))
      return &A;
  return nullptr;
}

/// The word attribute \p Key of \p O, or "" (Op::getWord with is()).
template <size_t N> StringRef wordAttr(const Op &O, const char (&Key)[N]) {
  const Attr *A = findAttr(O, Key);
  return A && A->Val.isWord() ? StringRef(A->Val.str()) : StringRef();
}

/// The integer attributes \p Keys (two characters each) of \p O in one
/// pass over its attributes, each as intAttr reads it.
template <size_t N>
std::array<int64_t, N> intAttrs2(const Op &O, const char *const (&Keys)[N]) {
  std::array<int64_t, N> V{};
  std::array<bool, N> Seen{};
  for (const Attr &A : O.Attrs) {
    if (A.Key.size() != 2 || !A.Val.isInt())
      continue;
    for (size_t I = 0; I < N; ++I)
      if (!Seen[I] && A.Key[0] == Keys[I][0] && A.Key[1] == Keys[I][1]) {
        V[I] = A.Val.I;
        Seen[I] = true;
      }
  }
  return V;
}

//===----------------------------------------------------------------------===//
// Forms
//===----------------------------------------------------------------------===//

using sass::PT;
using sass::RZ;

/// A lowered tile value: a constant, the register holding it, or (a
/// comparison's) the predicate register.
struct Lowered {
  int64_t C = 0;
  unsigned Reg = 0; ///< a virtual register, or P0..P6 for a predicate
  bool IsConst = false;
  bool IsPred = false;
  static Lowered constant(int64_t V) {
    Lowered L;
    L.IsConst = true;
    L.C = V;
    return L;
  }
  static Lowered reg(unsigned R) {
    Lowered L;
    L.Reg = R;
    return L;
  }
};

/// The value ops tp-select lowers (Other: none of them), by name once an op.
enum class ValueOp : uint8_t {
  Param, Sreg, Add, Mul, Mad, Shr, And, Xor, Sub, Sel, Lt, Ltu, Gt, Eq, Other
};

ValueOp classifyValueOp(StringRef N) {
  switch (N.size()) {
  case 2:
    return is(N, "lt")   ? ValueOp::Lt
           : is(N, "gt") ? ValueOp::Gt
           : is(N, "eq") ? ValueOp::Eq
                         : ValueOp::Other;
  case 3:
    return is(N, "add")   ? ValueOp::Add
           : is(N, "mad") ? ValueOp::Mad
           : is(N, "mul") ? ValueOp::Mul
           : is(N, "shr") ? ValueOp::Shr
           : is(N, "and") ? ValueOp::And
           : is(N, "xor") ? ValueOp::Xor
           : is(N, "sub") ? ValueOp::Sub
           : is(N, "sel") ? ValueOp::Sel
           : is(N, "ltu") ? ValueOp::Ltu
                          : ValueOp::Other;
  case 4:
    return is(N, "sreg") ? ValueOp::Sreg : ValueOp::Other;
  case 5:
    return is(N, "param") ? ValueOp::Param : ValueOp::Other;
  default:
    return ValueOp::Other;
  }
}

/// sel and the comparisons read a predicate.
bool readsPredicate(ValueOp V) {
  return V == ValueOp::Sel || V == ValueOp::Lt || V == ValueOp::Ltu ||
         V == ValueOp::Gt || V == ValueOp::Eq;
}

/// What the target puts where (SASS_FACTS.md 3.3, 3.7, 3.8; td/Targets.td).
struct TargetFacts {
  std::string Name;                    ///< "sm_86"
  unsigned ParamBase = 0;              ///< first parameter in c[0x0]
  unsigned Descriptor = 0;             ///< default memory descriptor
  /// The system's reserved start of the shared window (sm_90: 1 KiB).
  unsigned SharedBase = 0;
  /// The forms the target has for the descriptor load and the copies:
  /// ULDC.64 and sm_80..sm_90's LDGSTS, or Blackwell's LDCU.64 (a
  /// variable-latency load: write scoreboard 5) and LDGSTS (td/SM100).
  Form DescLoad = Form::UldcDesc;
  Form Copy = Form::Ldgsts, GuardedCopy = Form::LdgstsP;
};

/// The facts of target \p Name, from td/Targets.td (sass::getTargetInfo);
/// tp-select lowers for the targets with GemmCodeGen (sm_80 to sm_121).
Optional<TargetFacts> lookupTargetFacts(StringRef Name) {
  sass::Target T;
  if (!sass::lookupTarget(Name, T) || !sass::getTargetInfo(T).GemmCodeGen)
    return None;
  const sass::TargetInfo &TI = sass::getTargetInfo(T);
  TargetFacts F;
  F.Name = Name.str();
  F.ParamBase = TI.ParamBase;
  F.Descriptor = TI.DescriptorSlot;
  F.SharedBase = TI.ReservedSharedBytes;
  // Where LDCU exists, ptxas 13 loads the descriptor with it (no ULDC in
  // any Blackwell word of the corpus: docs/targets.md).
  if (sass::isAvailable(sass::LDCU_64, T))
    F.DescLoad = Form::LdcuDesc;
  if (!sass::isAvailable(sass::LDGSTS_DESC, T)) {
    F.Copy = Form::LdgstsBw;
    F.GuardedCopy = Form::LdgstsPBw;
  }
  return F;
}

//===----------------------------------------------------------------------===//
// The selector
//===----------------------------------------------------------------------===//

class Selector : isel::EpilogueEmitter {
public:
  Selector(const Kernel &K, const Op &MM, const TargetFacts &TF,
           PassContext &Ctx)
      : K(K), MM(MM), TF(TF), Ctx(Ctx), P(getProblem(K)),
        T(getTileOp(*MM.find("tp.tile"))) {}

  Expected<mir::Function> run();

private:
  /// No value: a constant operand, a name nothing defines.
  static constexpr unsigned NoValue = ~0u;

  // ---- emission ----
  /// Appends \p F's prototype to the current piece; the caller sets its
  /// operands (every operand computed first: nothing may be emitted in
  /// between) and then calls emit() on it.
  sass::Instruction &make(Form F) {
    return Instrs->emplace_back(isel::getPrototype(F)).I;
  }
  /// Sets the control fields of \p I, the piece's last instruction.
  void emit(sass::Instruction &I, int WrSB = -1, int RdSB = -1);
  /// Starts piece \p Name, room for \p Reserve instructions.
  void piece(StringRef Name, size_t Reserve) {
    Instrs = &Fn.addPiece(Name).Instrs;
    Instrs->reserve(Reserve);
  }
  /// A new virtual register named after \p Name (unique in the function).
  unsigned newReg(StringRef Name);
  /// Renames virtual register \p Reg (a value taken over by a role).
  void renameReg(unsigned Reg, StringRef Name);

  // ---- values (dense ids: ValueSlot) ----
  /// The id of name \p Name, a new one when it has none.
  unsigned intern(StringRef Name) {
    auto Ins = ValueIds.try_emplace(Name, unsigned(Slots.size()));
    if (Ins.second)
      Slots.emplace_back();
    return Ins.first->second;
  }
  /// The id of \p Name, or NoValue.
  unsigned findValue(StringRef Name) const {
    auto It = ValueIds.find(Name);
    return It == ValueIds.end() ? NoValue : It->second;
  }
  /// The id of the name tile IR value \p V spells (NoValue: none).
  unsigned findValue(const Value &V) { return findValue(V.str()); }
  /// The same, a new id when the name has none (\p V must be the tile
  /// IR's).
  unsigned internValue(const Value &V) { return intern(V.str()); }
  /// Interns the name \p O defines and the names it reads, counts the
  /// reads (operands, guard=, guard_first=) and, when \p RingReads, marks
  /// its operands as read outside tp.addresses.
  void indexOp(const Op &O, bool RingReads) {
    if (!O.Result.empty())
      intern(O.Result);
    indexOperands(O, RingReads);
    for (const Attr &A : O.Attrs)
      if (A.Val.isRef() && (is(A.Key, "guard") || is(A.Key, "guard_first")))
        ++Slots[intern(A.Val.str())].UsesLeft;
  }
  /// indexOp()'s part for the operands of \p O.
  void indexOperands(const Op &O, bool RingReads) {
    for (const Value &V : O.Operands)
      if (V.isRef()) {
        ValueSlot &S = Slots[intern(V.str())];
        ++S.UsesLeft;
        S.RingRead |= RingReads;
      }
  }
  /// indexValues() of tp.products region \p Prod: its ops (tp.ldsm and
  /// tp.mma, the verifier's schema) define no value and have no region and
  /// no reference attribute, so only their operands are read (a third of
  /// the walk's ops, each of tp.mma's three attributes a test).
  size_t indexProducts(const Op &Prod, bool RingReads) {
    for (const Op &C : Prod.Body)
      indexOperands(C, RingReads);
    return Prod.Body.size();
  }
  /// indexOp() of every op in \p Region (nested; \p RingReads for them
  /// but a nested tp.addresses and its ops); the count of those ops.
  size_t indexValues(const Op &Region, bool RingReads);
  /// indexOp() of the product and every op in it (the ring: every op but
  /// tp.addresses and its region), and RegionOps.
  void indexProduct();
  /// Counts the registers of the address values ring ops read.
  void countSharers();
  /// The id of the lowered value \p V names; an error when it names none.
  Expected<unsigned> definedValue(const Value &V) {
    unsigned Id = findValue(V);
    if (LLVM_UNLIKELY(Id == NoValue || !Slots[Id].Defined))
      return notAddressValue(V);
    return Id;
  }
  Error notAddressValue(const Value &V);
  Error lowerAddresses(const Op &Region);
  /// Lowers value op \p O in place (tp.addresses, or a copy's or the
  /// epilogue's guards and addresses).
  Error lowerValue(const Op &O);
  Expected<Lowered> lowerValueOp(const Op &O);
  Expected<Lowered> lowerShapeOp(const Op &O, ValueOp Kind,
                                 ArrayRef<Lowered> In);
  // ---- predicates (P registers, by liveness; P1 is tp-form-loop's) ----
  Expected<unsigned> allocatePredicate(SMLoc L, bool LoopLive);
  /// The predicate register of value \p V (a use: the last one frees it).
  Expected<unsigned> usePredicate(const Value &V);
  std::array<bool, 7> PredBusy{};
  bool DeferPredFrees = false;
  std::vector<unsigned> DeferredFrees;
  bool InAddresses = false;
  /// The lowering of \p V: an integer, or a value lowered before (an
  /// error otherwise).
  Expected<Lowered> get(const Value &V);
  unsigned inRegister(Lowered L);
  /// A register for the result of the address op being lowered.
  unsigned defineTemp() { return newReg(ResultName); }
  Lowered emitShl(Lowered A, int64_t Shift);
  Lowered emitMul(Lowered A, int64_t M);
  Lowered emitAdd(Lowered A, Lowered B);
  Lowered emitMad(Lowered A, int64_t M, Lowered C);

  // ---- the ring ----
  Error lowerRegion(const Op &Region, bool InLoop);
  Error lowerOp(const Op &O, bool InLoop);
  Error lowerCopy(const Op &Copy, bool InLoop);
  struct CopyStream;
  Expected<unsigned> lowerGuardedCopy(const Op &G, CopyStream &S, Lowered Sts,
                                      unsigned Param, bool Final);
  Error lowerProducts(const Op &Prod);
  Error lowerEpilogue(const Op &Epi);
  Expected<unsigned> paramIndex(const Value &V);
  unsigned formPointer(unsigned Pointer, unsigned Offset, unsigned Param);
  unsigned one();
  unsigned fragment(StringRef Operand, int64_t KK, int64_t Index);
  unsigned accumulator(int64_t MT, int64_t NT) {
    assert(MT >= 0 && MT < T.MTiles && NT >= 0 && NT < T.NTiles &&
           "checked by the callers");
    if (!Accumulators.empty())
      if (unsigned R = Accumulators[size_t(MT * T.NTiles + NT)])
        return R;
    return newAccumulator(MT, NT);
  }
  /// accumulator()'s first use of (\p MT, \p NT): its register.
  LLVM_ATTRIBUTE_NOINLINE unsigned newAccumulator(int64_t MT, int64_t NT);
  void printDecisions(raw_ostream &OS) const;
  Error fail(SMLoc L, const Twine &Msg) {
    return makeSourceError(Ctx.SM, L, "tp-select: " + Msg);
  }
  // isel::EpilogueEmitter (SelectEpilogue.cpp's ops).
  sass::Instruction &makeInstr(Form F) override { return make(F); }
  void emitInstr(sass::Instruction &I, int WrSB) override { emit(I, WrSB); }
  Expected<unsigned> pointerTo(const Value &Off, const Value &Param,
                               StringRef Name) override;
  Expected<unsigned> paramSlot(const Value &Param) override {
    Expected<unsigned> I = paramIndex(Param);
    if (!I)
      return I.takeError();
    return TF.ParamBase + paramOffset(*I);
  }
  /// Byte offset of parameter \p I in the block (tile::getParamOffset:
  /// pointers 8 bytes, f32 and i32 values 4, each aligned to its size).
  unsigned paramOffset(unsigned I) const {
    return unsigned(getParamOffset(K, I));
  }
  /// A pointer pair formed once: (param, offset value id) -> its register.
  struct PointerKey {
    unsigned Param, Offset, Reg;
  };
  using PointerCache = SmallVector<PointerKey, 16>;
  /// A pointer cache's key of offset \p Off: its value's id (every
  /// constant is one key).
  unsigned pointerKey(const Value &Off) {
    return Off.isRef() ? internValue(Off) : NoValue;
  }
  /// The register of (\p Param, \p Offset) in \p Cache, or 0.
  static unsigned findPointer(const PointerCache &Cache, unsigned Param,
                              unsigned Offset) {
    for (const PointerKey &P : Cache)
      if (P.Param == Param && P.Offset == Offset)
        return P.Reg;
    return 0;
  }
  /// The epilogue's pointers (SelectEpilogue.cpp's).
  PointerCache EpiloguePointers;
  unsigned newVirtualReg(StringRef Name) override { return newReg(Name); }
  Expected<unsigned> takePredicate(SMLoc L) override {
    return allocatePredicate(L, /*LoopLive=*/false);
  }
  void releasePredicate(unsigned Pr) override { PredBusy[Pr] = false; }
  Error failAt(SMLoc L, const Twine &Msg) override { return fail(L, Msg); }

  const Kernel &K;
  const Op &MM;
  TargetFacts TF;
  PassContext &Ctx;
  Problem P;
  TileParams T;
  mir::Function Fn;
  /// The piece being selected into.
  std::vector<mir::MInstr> *Instrs = nullptr;
  /// Instructions selected (NumSelected, added once at the end).
  unsigned Selected = 0;
  /// Virtual register names taken, each with the last "_<n>" it got; the
  /// value op being lowered (its id, its name: the name of its
  /// temporaries).
  StringMap<unsigned> RegNames;
  unsigned ResultId = NoValue;
  StringRef ResultName = "imm";

  /// Every name the product defines or reads, by a dense id in order of
  /// first appearance: how it is lowered (once Defined), the reads of it
  /// left (a predicate's register is free after the last), whether an op
  /// outside tp.addresses reads it (its register is then shared).
  struct ValueSlot {
    Lowered L;
    unsigned UsesLeft = 0;
    bool Defined = false;
    bool RingRead = false;
  };
  std::vector<ValueSlot> Slots;
  /// Each name's id.
  StringMap<unsigned> ValueIds;
  /// The ops in each region of the product (nested), in its order.
  std::vector<size_t> RegionOps;
  size_t regionOps(const Op *Region) const {
    return Region ? RegionOps[size_t(Region - MM.Body.data())] : 0;
  }
  /// Registers of a value and the values that share it (aliases).
  DenseMap<unsigned, unsigned> Sharers;

  /// One stream of copies: (param, offset value) -> its running offset
  /// register, pointer pair and the step the pointer points at.
  struct CopyStream {
    unsigned Param = 0;
    unsigned OffsetValue = NoValue; ///< the offset's id (NoValue: a constant)
    unsigned Offset = 0, Pointer = 0;
    int64_t Step = 0;
    int64_t StepBytes = 0;
    /// The advance's value id (a run-time stride), or NoValue.
    unsigned StepValue = NoValue;
  };
  /// In order of creation (a handful: searched linearly).
  std::vector<CopyStream> Streams;
  /// The step the next copy must name; the loop's copies as counted.
  int64_t NextCopyStep = 0;
  int64_t LoopStep = 0;
  /// The kernel's last copy (no advance after it), or null.
  const Op *FinalCopy = nullptr;
  std::vector<unsigned> OwnedOffsets;

  /// Fragment (operand, kk, index) -> its 4-register tuple, once loaded.
  std::map<std::tuple<char, int64_t, int64_t>, unsigned> Fragments;
  /// The register of (operand, kk, index)'s fragment, or 0 (none loaded).
  unsigned findFragment(char Operand, int64_t KK, int64_t Index) const {
    auto It = Fragments.find({Operand, KK, Index});
    return It == Fragments.end() ? 0 : It->second;
  }
  unsigned NumFragments = 0; ///< for -debug
  /// Accumulator (mt, nt)'s register at mt NTiles + nt, 0 until used.
  std::vector<unsigned> Accumulators;
  Optional<unsigned> One;
  Optional<unsigned> CounterReg;

  /// Copy streams a parameter has (names their registers).
  std::map<unsigned, unsigned> StreamsOfParam;
};

void Selector::emit(sass::Instruction &I, int WrSB, int RdSB) {
  assert(&I == &Instrs->back().I && "emit the last make()");
  // The longest stall, in its defined form (yield: sass::defineControl);
  // tp-compact-stalls computes the real ones.
  I.Ctrl.Stall = 15;
  I.Ctrl.Yield = true;
  I.Ctrl.WrSB = WrSB < 0 ? 7 : WrSB;
  I.Ctrl.RdSB = RdSB < 0 ? 7 : RdSB;
  ++Selected;
}

unsigned Selector::newReg(StringRef Name) {
  // mir::Function::addVirtualReg's rule: [A-Za-z0-9_] as they are, any
  // other character '_'; taken names get the first free "_<n>".
  std::string Base = Name.str();
  for (char &C : Base)
    if (!isAlnum(C) && C != '_')
      C = '_';
  auto Ins = RegNames.try_emplace(Base, 0);
  std::string Unique = Base;
  if (!Ins.second) {
    unsigned &Suffix = Ins.first->second;
    do
      Unique = Base + "_" + std::to_string(++Suffix);
    while (!RegNames.try_emplace(Unique, 0).second);
  }
  // A name that would start with a digit (or be empty) gets a 'v' before
  // it (addVirtualReg's other rule).
  if (Unique.empty() || isDigit(Unique[0]))
    Unique.insert(Unique.begin(), 'v');
  Fn.VRegNames.push_back(std::move(Unique));
  return unsigned(mir::virtualReg(unsigned(Fn.VRegNames.size() - 1)));
}

void Selector::renameReg(unsigned Reg, StringRef Name) {
  unsigned Id = mir::virtualRegId(Reg);
  unsigned Tmp = newReg(Name);
  assert(mir::virtualRegId(Tmp) == Fn.VRegNames.size() - 1 && "the last");
  (void)Tmp;
  Fn.VRegNames[Id] = std::move(Fn.VRegNames.back());
  Fn.VRegNames.pop_back();
}

//===----------------------------------------------------------------------===//
// tp.addresses
//===----------------------------------------------------------------------===//

size_t Selector::indexValues(const Op &Region, bool RingReads) {
  // The ops without a region (most: the products' tp.mma and tp.ldsm, the
  // value ops) are indexed here, not by a call each.
  size_t Ops = Region.Body.size();
  // (Only a region's name is compared: tp.addresses, a child of tp.matmul
  // alone, has no operands, and its ops are not the ring's.)
  for (const Op &C : Region.Body) {
    indexOp(C, RingReads);
    if (!C.Body.empty())
      Ops += is(C.Name, "tp.products")
                 ? indexProducts(C, RingReads)
                 : indexValues(C, RingReads && !is(C.Name, "tp.addresses"));
  }
  return Ops;
}

void Selector::indexProduct() {
  // The parameters first: defined before every op (the references to all
  // but the product's operands share their characters).
  for (const Param &Pa : K.Params)
    intern(Pa.Name);
  indexOp(MM, /*RingReads=*/false);
  // The ring: every op of the product but tp.addresses and its region.
  for (const Op &C : MM.Body) {
    bool Ring = !is(C.Name, "tp.addresses");
    indexOp(C, Ring);
    RegionOps.push_back(C.Body.empty() ? 0 : indexValues(C, Ring));
  }
}

/// A copy stream may advance its offset in place only when no other value
/// the ring reads shares its register: the tp.addresses values (the ones
/// defined so far) that an op outside tp.addresses reads (the ring's and
/// the epilogue's operands), counted by register.
void Selector::countSharers() {
  for (const ValueSlot &S : Slots)
    if (S.Defined && S.RingRead && !S.L.IsConst)
      ++Sharers[S.L.Reg];
}

Error Selector::notAddressValue(const Value &V) {
  return fail(V.Loc, "value %" + V.str() + " is not an address value");
}

Expected<Lowered> Selector::get(const Value &V) {
  if (V.isInt())
    return Lowered::constant(V.I);
  if (!V.isRef())
    return fail(V.Loc, "expected a value or an integer");
  Expected<unsigned> Id = definedValue(V);
  if (!Id)
    return Id.takeError();
  return Slots[*Id].L;
}

unsigned Selector::inRegister(Lowered L) {
  if (!L.IsConst)
    return L.Reg;
  if (L.C == 0)
    return RZ;
  unsigned R = defineTemp();
  sass::Instruction &I = make(Form::Mov);
  operand(I, Slot::Rd) = R;
  operand(I, Slot::Imm) = uint32_t(L.C);
  emit(I);
  return R;
}

Lowered Selector::emitShl(Lowered A, int64_t Shift) {
  unsigned D = defineTemp();
  if (!isel::hasShlAlias(unsigned(Shift))) {
    // No alias for this power of two: IMAD by it, plus RZ.
    sass::Instruction &I = make(Form::IMadImm);
    operand(I, Slot::Rd) = D;
    operand(I, Slot::Ra) = A.Reg;
    operand(I, Slot::Imm) = int64_t(int32_t(uint32_t(1) << Shift));
    operand(I, Slot::Rc) = RZ;
    emit(I);
    return Lowered::reg(D);
  }
  // IMAD.SHL.U32 is one form a shift (the multiplier is fixed bits).
  sass::Instruction &I = make(Form::ShlImm);
  I.Op = isel::getShlOpcode(Shift);
  operand(I, Slot::Rd) = D;
  operand(I, Slot::Ra) = A.Reg;
  emit(I);
  return Lowered::reg(D);
}

/// Address values are 32-bit and their arithmetic wraps, as the
/// registers' does: constants fold modulo 2^32 and an immediate is the
/// field's 32 bits (IMAD's signed, the others' raw).
int64_t wrap32(int64_t V) { return int64_t(uint32_t(V)); }
int64_t signed32(int64_t V) { return int64_t(int32_t(uint32_t(V))); }

Lowered Selector::emitMul(Lowered A, int64_t M) {
  M = wrap32(M);
  if (A.IsConst)
    return ++NumFolded, Lowered::constant(wrap32(A.C * M));
  if (M == 0)
    return ++NumFolded, Lowered::constant(0);
  if (M == 1)
    return ++NumFolded, A;
  if (isPowerOf2_64(M))
    return emitShl(A, Log2_64(M));
  unsigned D = defineTemp();
  sass::Instruction &I = make(Form::IMadImm);
  operand(I, Slot::Rd) = D;
  operand(I, Slot::Ra) = A.Reg;
  operand(I, Slot::Imm) = signed32(M);
  operand(I, Slot::Rc) = RZ;
  emit(I);
  return Lowered::reg(D);
}

Lowered Selector::emitAdd(Lowered A, Lowered B) {
  if (A.IsConst && B.IsConst)
    return ++NumFolded, Lowered::constant(wrap32(A.C + B.C));
  if (A.IsConst)
    std::swap(A, B);
  if (B.IsConst && B.C == 0)
    return ++NumFolded, A;
  unsigned D = defineTemp();
  sass::Instruction &I = make(B.IsConst ? Form::IAdd3Imm : Form::IAdd3);
  operand(I, Slot::Rd) = D;
  operand(I, Slot::Ra) = A.Reg;
  if (B.IsConst)
    operand(I, Slot::Imm) = signed32(B.C);
  else
    operand(I, Slot::Rb) = B.Reg;
  emit(I);
  return Lowered::reg(D);
}

Lowered Selector::emitMad(Lowered A, int64_t M, Lowered C) {
  M = wrap32(M);
  if (A.IsConst || M == 0 || M == 1)
    return emitAdd(emitMul(A, M), C);
  if (C.IsConst && C.C == 0)
    return ++NumFolded, emitMul(A, M);
  if (C.IsConst) // two immediates: the product, then the sum
    return emitAdd(emitMul(A, M), C);
  unsigned D = defineTemp();
  if (isPowerOf2_64(M)) {
    sass::Instruction &I = make(Form::Lea);
    operand(I, Slot::Rd) = D;
    operand(I, Slot::Ra) = A.Reg;
    operand(I, Slot::Rb) = C.Reg;
    operand(I, Slot::Sh) = Log2_64(M);
    emit(I);
  } else {
    sass::Instruction &I = make(Form::IMadImm);
    operand(I, Slot::Rd) = D;
    operand(I, Slot::Ra) = A.Reg;
    operand(I, Slot::Imm) = signed32(M);
    operand(I, Slot::Rc) = C.Reg;
    emit(I);
  }
  return Lowered::reg(D);
}

Expected<Lowered> Selector::lowerValueOp(const Op &O) {
  ValueOp Kind = classifyValueOp(O.Name);
  // A value op has at most three operands (the verifier's arities): they
  // are lowered into a fixed array (a SmallVector's growth checks and
  // constructors were a tenth of a value op).  Any beyond (an op the
  // selector has no lowering for) are still read, for their errors.
  std::array<Lowered, 3> In{};
  size_t NumIn = 0;
  if (Kind == ValueOp::Param) {
    Expected<unsigned> Index = paramIndex(O.Operands[0]);
    if (!Index)
      return Index.takeError();
    unsigned D = defineTemp();
    sass::Instruction &I = make(Form::MovConst);
    operand(I, Slot::Rd) = D;
    operand(I, Slot::COff) = TF.ParamBase + getParamOffset(K, *Index);
    emit(I);
    return Lowered::reg(D);
  }
  bool ReadsPredicate = false;
  if (Kind != ValueOp::Sreg)
    for (const Value &V : O.Operands) {
      Expected<Lowered> L = get(V);
      if (!L)
        return L.takeError();
      ReadsPredicate |= L->IsPred;
      if (NumIn < In.size())
        In[NumIn++] = *L;
    }
  if (ReadsPredicate && !readsPredicate(Kind))
    return fail(O.Loc, "'" + O.Name + "' takes no predicate");
  if (Kind == ValueOp::Sub || readsPredicate(Kind))
    return lowerShapeOp(O, Kind, makeArrayRef(In.data(), NumIn));
  auto Imm = [&](unsigned I) -> Expected<int64_t> {
    if (!In[I].IsConst)
      return fail(O.Operands[I].Loc, "'" + O.Name + "' takes an integer here");
    return In[I].C;
  };
  if (Kind == ValueOp::Sreg) {
    StringRef S = O.Operands[0].str();
    Form F = S == "tid.x"     ? Form::S2RTid
             : S == "ctaid.x" ? Form::S2RCtaidX
             : S == "ctaid.y" ? Form::S2RCtaidY
             : S == "ctaid.z" ? Form::S2RCtaidZ
                              : Form::Count;
    if (F == Form::Count)
      return fail(O.Operands[0].Loc, "unknown special register '" + S +
                                         "' (tid.x, ctaid.x, ctaid.y, "
                                         "ctaid.z)");
    unsigned D = defineTemp();
    sass::Instruction &I = make(F);
    operand(I, Slot::Rd) = D;
    emit(I, /*WrSB=*/5);
    return Lowered::reg(D);
  }
  if (Kind == ValueOp::Add)
    return emitAdd(In[0], In[1]);
  if (Kind == ValueOp::Mul) {
    Expected<int64_t> M = Imm(1);
    if (!M)
      return M.takeError();
    return emitMul(In[0], *M);
  }
  if (Kind == ValueOp::Mad) {
    if (In[1].IsConst)
      return emitMad(In[0], In[1].C, In[2]);
    if (In[0].IsConst)
      return emitMad(In[1], In[0].C, In[2]);
    unsigned Addend = inRegister(In[2]);
    unsigned D = defineTemp();
    sass::Instruction &I = make(Form::IMad);
    operand(I, Slot::Rd) = D;
    operand(I, Slot::Ra) = In[0].Reg;
    operand(I, Slot::Rb) = In[1].Reg;
    operand(I, Slot::Rc) = Addend;
    emit(I);
    return Lowered::reg(D);
  }
  if (Kind == ValueOp::Shr || Kind == ValueOp::And) {
    Expected<int64_t> B = Imm(1);
    if (!B)
      return B.takeError();
    bool Shr = Kind == ValueOp::Shr;
    if (Shr && (*B < 0 || *B > 31))
      return fail(O.Operands[1].Loc, "shift count must be 0..31");
    if (In[0].IsConst)
      return ++NumFolded, Lowered::constant(
                              Shr ? int64_t(uint32_t(In[0].C) >> *B)
                                  : int64_t(uint32_t(In[0].C) & *B));
    if (Shr ? *B == 0 : uint32_t(*B) == 0xffffffffu)
      return ++NumFolded, In[0];
    if (!Shr && *B == 0)
      return ++NumFolded, Lowered::constant(0);
    unsigned D = defineTemp();
    sass::Instruction &I = make(Shr ? Form::ShrImm : Form::LopAndImm);
    operand(I, Slot::Rd) = D;
    operand(I, Shr ? Slot::Rc : Slot::Ra) = In[0].Reg;
    operand(I, Slot::Imm) = uint32_t(*B);
    emit(I);
    return Lowered::reg(D);
  }
  if (Kind == ValueOp::Xor) {
    if (In[0].IsConst)
      std::swap(In[0], In[1]);
    if (In[0].IsConst)
      return ++NumFolded,
             Lowered::constant(int64_t(uint32_t(In[0].C ^ In[1].C)));
    if (In[1].IsConst && In[1].C == 0)
      return ++NumFolded, In[0];
    unsigned D = defineTemp();
    sass::Instruction &I = make(In[1].IsConst ? Form::LopXorImm : Form::LopXor);
    operand(I, Slot::Rd) = D;
    operand(I, Slot::Ra) = In[0].Reg;
    if (In[1].IsConst)
      operand(I, Slot::Imm) = uint32_t(In[1].C);
    else
      operand(I, Slot::Rb) = In[1].Reg;
    emit(I);
    return Lowered::reg(D);
  }
  return fail(O.Loc, "no lowering for '" + O.Name + "' in tp.addresses");
}

/// sub, the comparisons (ISETP, ANDed with a predicate operand) and sel.
Expected<Lowered> Selector::lowerShapeOp(const Op &O, ValueOp Kind,
                                        ArrayRef<Lowered> In) {
  if (Kind == ValueOp::Sub) {
    if (In[1].IsConst)
      return emitAdd(In[0], Lowered::constant(wrap32(-In[1].C)));
    unsigned A = inRegister(In[0]);
    unsigned D = defineTemp();
    sass::Instruction &I = make(Form::IAdd3);
    operand(I, Slot::Rd) = D;
    operand(I, Slot::Ra) = A;
    operand(I, Slot::Rb) = In[1].Reg;
    operand(I, Slot::NegB) = 1;
    emit(I);
    return Lowered::reg(D);
  }
  if (Kind == ValueOp::Sel) {
    Expected<unsigned> P = usePredicate(O.Operands[0]);
    if (!P)
      return P.takeError();
    unsigned A = inRegister(In[1]);
    unsigned D = defineTemp();
    bool Imm = In[2].IsConst && In[2].C != 0;
    sass::Instruction &I = make(Imm ? Form::SelImm : Form::Sel);
    operand(I, Slot::Rd) = D;
    operand(I, Slot::Ra) = A;
    if (Imm)
      operand(I, Slot::Imm) = uint32_t(In[2].C);
    else
      operand(I, Slot::Rb) = In[2].IsConst ? RZ : In[2].Reg;
    operand(I, Slot::Pp) = *P;
    emit(I);
    return Lowered::reg(D);
  }
  // A comparison: ISETP.<cmp>[.U32].AND Pd, PT, a, b, And.
  sass::IntCompare Cmp = Kind == ValueOp::Eq   ? sass::ICmpEQ
                         : Kind == ValueOp::Gt ? sass::ICmpGT
                                               : sass::ICmpLT;
  unsigned A = inRegister(In[0]);
  unsigned And = PT;
  if (O.Operands.size() > 2) {
    Expected<unsigned> P = usePredicate(O.Operands[2]);
    if (!P)
      return P.takeError();
    And = *P;
  }
  Expected<unsigned> Pd = allocatePredicate(O.Loc, InAddresses);
  if (!Pd)
    return Pd.takeError();
  sass::Instruction &I = make(In[1].IsConst ? Form::ISetpImm : Form::ISetp);
  operand(I, Slot::Pd) = *Pd;
  operand(I, Slot::CmpOp) = Cmp;
  operand(I, Slot::Sgn) = Kind == ValueOp::Ltu ? 0 : 1;
  operand(I, Slot::Ra) = A;
  if (In[1].IsConst)
    operand(I, Slot::Imm) = signed32(In[1].C);
  else
    operand(I, Slot::Rb) = In[1].Reg;
  operand(I, Slot::Pp) = And;
  emit(I);
  if (!Slots[ResultId].UsesLeft)
    PredBusy[*Pd] = false; // never read: the register is free again
  Lowered L;
  L.IsPred = true;
  L.Reg = *Pd;
  return L;
}

Expected<unsigned> Selector::allocatePredicate(SMLoc L, bool LoopLive) {
  for (unsigned P = 0; P < 7; ++P)
    if (!PredBusy[P] && !(LoopLive && P == 1)) {
      PredBusy[P] = true;
      return P;
    }
  return fail(L, "no predicate register left (P0..P6, P1 the loop's, hold "
                 "live guards)");
}

Expected<unsigned> Selector::usePredicate(const Value &V) {
  if (!V.isRef()) { // an integer (not a predicate) or no value at all
    Expected<Lowered> L = get(V);
    if (!L)
      return L.takeError();
    return fail(V.Loc, "%" + V.str() + " is not a predicate");
  }
  Expected<unsigned> Id = definedValue(V);
  if (!Id)
    return Id.takeError();
  ValueSlot &S = Slots[*Id];
  if (!S.L.IsPred)
    return fail(V.Loc, "%" + V.str() + " is not a predicate");
  if (S.UsesLeft && --S.UsesLeft == 0) {
    if (DeferPredFrees)
      DeferredFrees.push_back(S.L.Reg);
    else
      PredBusy[S.L.Reg] = false;
  }
  return S.L.Reg;
}

Error Selector::lowerValue(const Op &O) {
  ResultId = intern(O.Result);
  ResultName = O.Result;
  Expected<Lowered> L = lowerValueOp(O);
  if (!L)
    return L.takeError();
  ValueSlot &S = Slots[ResultId];
  S.L = *L;
  S.Defined = true;
  ResultName = "imm";
  ResultId = NoValue;
  return Error::success();
}

Error Selector::lowerAddresses(const Op &Region) {
  InAddresses = true;
  for (const Op &O : Region.Body)
    if (Error E = lowerValue(O))
      return E;
  InAddresses = false;
  return Error::success();
}

//===----------------------------------------------------------------------===//
// The stage ring
//===----------------------------------------------------------------------===//

Expected<unsigned> Selector::paramIndex(const Value &V) {
  if (V.isRef())
    for (size_t I = 0; I < K.Params.size(); ++I)
      if (K.Params[I].Name == V.str())
        return unsigned(I);
  return fail(V.Loc, "expected a kernel parameter");
}

unsigned Selector::one() {
  if (!One) {
    One = newReg("one");
    sass::Instruction &I = make(Form::Mov);
    operand(I, Slot::Rd) = *One;
    operand(I, Slot::Imm) = 1;
    emit(I);
  }
  return *One;
}

unsigned Selector::formPointer(unsigned Pointer, unsigned Offset,
                               unsigned Param) {
  unsigned One = one();
  sass::Instruction &I = make(Form::WideParam);
  operand(I, Slot::Rd) = Pointer;
  operand(I, Slot::Ra) = Offset;
  operand(I, Slot::Rb) = One;
  operand(I, Slot::COff) = TF.ParamBase + paramOffset(Param);
  emit(I);
  return Pointer;
}

unsigned Selector::fragment(StringRef Operand, int64_t KK, int64_t Index) {
  char Op = Operand.empty() ? '?' : Operand[0];
  if (unsigned R = findFragment(Op, KK, Index))
    return R;
  unsigned R = newReg(
      indexedName(StringRef(&Op, 1), "_frag_", KK, Index));
  ++NumFragments;
  Fragments[{Op, KK, Index}] = R;
  return R;
}

unsigned Selector::newAccumulator(int64_t MT, int64_t NT) {
  if (Accumulators.empty())
    Accumulators.assign(size_t(T.MTiles * T.NTiles), 0);
  unsigned &R = Accumulators[size_t(MT * T.NTiles + NT)];
  if (!R)
    R = newReg(indexedName("acc", "_", MT, NT));
  return R;
}

Error Selector::lowerCopy(const Op &Copy, bool InLoop) {
  int64_t Step = InLoop ? LoopStep + intAttr(Copy, "ahead")
                        : intAttr(Copy, "step");
  if (Step != NextCopyStep)
    return fail(Copy.Loc, formatv("the copy of step {0} does not follow the "
                                  "previous one: expected step {1} (each "
                                  "copy advances the pointers one step)",
                                  Step, NextCopyStep)
                              .str());
  SmallVector<unsigned, 8> Used; // the streams read, as indices
  for (const Op &G : Copy.Body) {
    if (!G.Result.empty()) { // a guard's or a fill's value
      if (Error E = lowerValue(G))
        return E;
      continue;
    }
    if (!is(G.Name, "tp.ldgsts"))
      return fail(G.Loc, "no lowering for '" + G.Name + "' in tp.copy");
    const Attr *StepAttr = findAttr(G, "k_step_bytes");
    unsigned StepValue =
        StepAttr->Val.isRef() ? internValue(StepAttr->Val) : NoValue;
    Expected<Lowered> Sts = get(G.Operands[0]);
    Expected<unsigned> Param = paramIndex(G.Operands[1]);
    Expected<Lowered> Off = get(G.Operands[2]);
    if (!Sts)
      return Sts.takeError();
    if (!Param)
      return Param.takeError();
    if (!Off)
      return Off.takeError();
    // Streams are keyed by the offset's value (every constant offset of a
    // parameter is one stream).
    unsigned OffsetValue =
        G.Operands[2].isRef() ? internValue(G.Operands[2]) : NoValue;
    unsigned Index = 0;
    while (Index < Streams.size() && (Streams[Index].Param != *Param ||
                                      Streams[Index].OffsetValue != OffsetValue))
      ++Index;
    if (Index == Streams.size()) {
      CopyStream S;
      S.Param = *Param;
      S.OffsetValue = OffsetValue;
      std::string Role =
          (K.Params[*Param].Name + "_" + Twine(StreamsOfParam[*Param]++)).str();
      // The running offset: the value's own register when no other value
      // shares it (renamed after its role), else a copy.
      if (!Off->IsConst && Sharers[Off->Reg] == 1) {
        S.Offset = Off->Reg;
        renameReg(S.Offset, "off_" + Role);
      } else {
        S.Offset = newReg("off_" + Role);
        OwnedOffsets.push_back(S.Offset);
        sass::Instruction &I = make(Off->IsConst ? Form::Mov : Form::IAdd3);
        operand(I, Slot::Rd) = S.Offset;
        if (Off->IsConst) {
          operand(I, Slot::Imm) = uint32_t(Off->C);
        } else {
          operand(I, Slot::Ra) = Off->Reg;
          operand(I, Slot::Rb) = RZ;
        }
        emit(I);
      }
      S.Pointer = formPointer(newReg("ptr_" + Role), S.Offset, *Param);
      S.Step = Step;
      S.StepBytes = intAttr(G, "k_step_bytes");
      S.StepValue = StepValue;
      Streams.push_back(S);
    }
    CopyStream &S = Streams[Index];
    if (S.Step != Step || S.StepBytes != intAttr(G, "k_step_bytes") ||
        S.StepValue != StepValue)
      return fail(G.Loc, "copies of one source must advance by one "
                         "k_step_bytes a step");
    if (StepValue != NoValue) {
      Expected<Lowered> SV = get(StepAttr->Val);
      if (!SV)
        return SV.takeError();
    }
    Expected<unsigned> Copied =
        lowerGuardedCopy(G, S, *Sts, *Param, &Copy == FinalCopy);
    if (!Copied)
      return Copied.takeError();
    if (!is_contained(Used, Index))
      Used.push_back(Index);
  }
  ++NextCopyStep;
  if (&Copy == FinalCopy)
    return Error::success();
  // Advance every stream this copy read to the next step.
  for (unsigned Index : Used) {
    CopyStream &S = Streams[Index];
    bool ByValue = S.StepValue != NoValue;
    sass::Instruction &I = make(ByValue ? Form::IAdd3 : Form::IAdd3Imm);
    operand(I, Slot::Rd) = S.Offset;
    operand(I, Slot::Ra) = S.Offset;
    if (ByValue)
      operand(I, Slot::Rb) = Slots[S.StepValue].L.Reg;
    else
      operand(I, Slot::Imm) = signed32(S.StepBytes);
    emit(I);
    formPointer(S.Pointer, S.Offset, S.Param);
    ++S.Step;
  }
  return Error::success();
}

/// One tp.ldgsts: LDGSTS, or with guard= the predicated form (false: zeros,
/// no read), with fill= .ZFILL from the stream's address plus the fill
/// bytes (the zero-filled tail; ptxas's src-size lowering).  The kernel's
/// last copy (\p Final) moves its stream's own offset and pointer (nothing
/// reads them after it); another one forms a pointer of its own.
Expected<unsigned> Selector::lowerGuardedCopy(const Op &G, CopyStream &S,
                                              Lowered Sts, unsigned Param,
                                              bool Final) {
  unsigned Pointer = S.Pointer;
  const Attr *Fill = findAttr(G, "fill");
  if (Fill) {
    Expected<Lowered> F = get(Fill->Val);
    if (!F)
      return F.takeError();
    unsigned Off = Final ? S.Offset : newReg("off_fill");
    sass::Instruction &I = make(Form::IAdd3);
    operand(I, Slot::Rd) = Off;
    operand(I, Slot::Ra) = S.Offset;
    operand(I, Slot::Rb) = inRegister(*F);
    emit(I);
    Pointer = formPointer(Final ? S.Pointer : newReg("ptr_fill"), Off, Param);
  }
  const Attr *Guard = findAttr(G, "guard");
  unsigned P = PT;
  if (Guard) {
    Expected<unsigned> GP = usePredicate(Guard->Val);
    if (!GP)
      return GP.takeError();
    P = *GP;
  }
  unsigned Shared = inRegister(Sts);
  sass::Instruction &I = make(Guard ? TF.GuardedCopy : TF.Copy);
  operand(I, Slot::Rs) = Shared;
  operand(I, Slot::SOff) = TF.SharedBase + intAttr(G, "smem_offset");
  operand(I, Slot::Ra) = Pointer;
  if (Guard)
    operand(I, Slot::Pp) = P;
  if (Fill)
    operand(I, Slot::ZFill) = 1;
  emit(I, -1, /*RdSB=*/3);
  return Pointer;
}

Error Selector::lowerProducts(const Op &Prod) {
  for (const Op &O : Prod.Body) {
    if (is(O.Name, "tp.ldsm")) {
      Expected<Lowered> A = get(O.Operands[0]);
      if (!A)
        return A.takeError();
      StringRef Operand = wordAttr(O, "operand");
      if (Operand != "a" && Operand != "b")
        return fail(O.getAttr("operand")->Val.Loc, "operand must be a or b");
      StringRef Shape = wordAttr(O, "shape");
      if (Shape != "m88" && Shape != "mt88")
        return fail(O.getAttr("shape")->Val.Loc,
                    "shape must be m88 or mt88");
      unsigned Address = inRegister(*A);
      unsigned Fragment =
          fragment(Operand, intAttr(O, "kk"), intAttr(O, "index"));
      sass::Instruction &I =
          make(Shape == "mt88" ? Form::LdsmMT88 : Form::LdsmM88);
      operand(I, Slot::Rd) = Fragment;
      operand(I, Slot::Ra) = Address;
      operand(I, Slot::MOff) = TF.SharedBase + intAttr(O, "smem_offset");
      emit(I, /*WrSB=*/1);
      continue;
    }
    if (is(O.Name, "tp.mma")) {
      std::array<int64_t, 3> KMN = intAttrs2(O, {"kk", "mt", "nt"});
      int64_t KK = KMN[0], MT = KMN[1], NT = KMN[2];
      if (MT < 0 || NT < 0 || MT >= T.MTiles || NT >= T.NTiles)
        return fail(O.Loc, "mt/nt out of the warp's tiles");
      // B's fragments hold two n-tiles each (one LDSM .x4).
      unsigned A = findFragment('a', KK, MT), B = findFragment('b', KK, NT / 2);
      if (!A || !B)
        return fail(O.Loc, formatv("no tp.ldsm loads the {0} fragment of "
                                   "kk={1} {2}={3} this product reads",
                                   !A ? "A" : "B", KK, !A ? "index" : "pair",
                                   !A ? MT : NT / 2)
                               .str());
      unsigned Acc = accumulator(MT, NT);
      sass::Instruction &I = make(
          P.AType == ElementType::BF16 ? Form::HmmaBF16 : Form::Hmma);
      operand(I, Slot::Rd) = Acc;
      operand(I, Slot::Ra) = A;
      operand(I, Slot::Rb) = B + 2 * (NT % 2);
      operand(I, Slot::Rc) = Acc;
      emit(I);
      continue;
    }
    return fail(O.Loc, "no lowering for '" + O.Name + "' in tp.products");
  }
  return Error::success();
}

Error Selector::lowerEpilogue(const Op &Epi) {
  Expected<unsigned> CParam = paramIndex(Epi.Operands[0]);
  if (!CParam)
    return CParam.takeError();
  Optional<unsigned> RParam;
  if (Epi.Operands.size() > 1) {
    Expected<unsigned> RP = paramIndex(Epi.Operands[1]);
    if (!RP)
      return RP.takeError();
    RParam = *RP;
  }
  PointerCache CPointers, RPointers;
  std::map<int64_t, unsigned> Loaded; // pair -> R's pair in registers
  isel::EpilogueValues ValueOps(
      P, *this,
      Epi.Operands.size() > 1 ? Optional<Value>(Epi.Operands[1]) : None);
  auto Pointer = [&](const Value &Off, unsigned Param,
                     PointerCache &Cache) -> Expected<unsigned> {
    unsigned Key = pointerKey(Off);
    if (unsigned R = findPointer(Cache, Param, Key))
      return R;
    Expected<Lowered> L = get(Off);
    if (!L)
      return L.takeError();
    unsigned R = formPointer(newReg(&Cache == &CPointers ? "c_ptr" : "r_ptr"),
                             inRegister(*L), Param);
    Cache.push_back({Param, Key, R});
    return R;
  };
  auto Pair = [&](const Op &O) -> Expected<unsigned> {
    int64_t MT = intAttr(O, "mt"), NT = intAttr(O, "nt"),
            H = intAttr(O, "half");
    if (MT < 0 || NT < 0 || H < 0 || MT >= T.MTiles || NT >= T.NTiles || H > 1)
      return fail(O.Loc, "mt/nt/half out of the warp's tiles");
    return accumulator(MT, NT) + 2 * H;
  };
  for (const Op &O : Epi.Body) {
    if (!O.Result.empty()) { // the guards' and row addresses' values
      if (Error E = lowerValue(O))
        return E;
      continue;
    }
    // Guards: guard= both elements of the pair, guard_first= only the first
    // (the pair's second column is beyond N); none: unguarded.
    unsigned Both = PT, First = PT;
    const Attr *GuardBoth = findAttr(O, "guard");
    const Attr *GuardFirst = findAttr(O, "guard_first");
    bool Guarded = GuardBoth;
    // A value op's guards stay taken while it lowers (its beta-ANDed
    // temporaries must not reuse them).
    bool HoldGuards = Guarded && !DeferPredFrees &&
                      isel::EpilogueValues::isValueOp(O.Name);
    DeferPredFrees |= HoldGuards;
    for (const Attr *A : {GuardBoth, GuardFirst})
      if (A) {
        Expected<unsigned> P = usePredicate(A->Val);
        if (!P)
          return P.takeError();
        (A == GuardFirst ? First : Both) = *P;
      }
    Expected<unsigned> Acc = Pair(O);
    if (!Acc)
      return Acc.takeError();
    int64_t PairId = intAttr(O, "pair");
    if (is(O.Name, "tp.stg") || is(O.Name, "tp.ldg")) {
      bool Load = is(O.Name, "tp.ldg");
      if (Load && !RParam)
        return fail(O.Loc, "tp.ldg needs the epilogue's residual operand");
      Expected<unsigned> Ptr = Pointer(O.Operands[0], Load ? *RParam : *CParam,
                                       Load ? RPointers : CPointers);
      if (!Ptr)
        return Ptr.takeError();
      int64_t Offset = intAttr(O, "offset");
      if (!Load) {
        Expected<isel::PairStore> Src = ValueOps.storeOf(O, *Acc);
        if (!Src)
          return Src.takeError();
        sass::Instruction &I = make(Src->StoreForm);
        operand(I, Slot::Ra) = *Ptr;
        operand(I, Slot::MOff) = Offset;
        operand(I, Slot::Rb) = Src->Reg;
        I.Guard = uint8_t(Both);
        emit(I, -1, /*RdSB=*/3); // its sources are read late
        if (Guarded) {
          // The first element alone: STG.E of an f32 pair's first word,
          // STG.E.U16 of a packed pair's low half.
          sass::Instruction &F = make(ValueOps.firstElementStore());
          operand(F, Slot::Ra) = *Ptr;
          operand(F, Slot::MOff) = Offset;
          operand(F, Slot::Rb) = Src->Reg;
          F.Guard = uint8_t(First);
          emit(F, -1, /*RdSB=*/3);
        }
        continue;
      }
      unsigned Dst = newReg("r_pair" + std::to_string(PairId));
      Loaded[PairId] = Dst;
      if (P.DType != ElementType::F32) { // R of D's type, widened to f32
        if (Error E = ValueOps.loadNarrowResidual(O, *Ptr, Dst, Offset,
                                                  {Guarded, Both, First}))
          return E;
        continue;
      }
      if (Guarded) { // defined whole (zeros) before the guarded loads
        sass::Instruction &Z = make(Form::ZeroPair);
        operand(Z, Slot::Rd) = Dst;
        emit(Z);
      }
      for (unsigned W = 0; W < (Guarded ? 3u : 2u); ++W) {
        sass::Instruction &I = make(Form::Ldg32);
        operand(I, Slot::Rd) = Dst + W % 2;
        operand(I, Slot::Ra) = *Ptr;
        operand(I, Slot::MOff) = Offset + 4 * (W % 2);
        I.Guard = uint8_t(W == 2 ? First : Both);
        emit(I, /*WrSB=*/2);
      }
      continue;
    }
    if (is(O.Name, "tp.add_residual")) {
      auto It = Loaded.find(PairId);
      if (It == Loaded.end())
        return fail(O.Loc, formatv("pair {0} of R is not loaded (tp.ldg "
                                   "pair={0} must precede)",
                                   PairId)
                               .str());
      for (unsigned W = 0; W < 2; ++W) {
        sass::Instruction &I = make(Form::FAdd);
        operand(I, Slot::Rd) = *Acc + W;
        operand(I, Slot::Ra) = *Acc + W;
        operand(I, Slot::Rb) = It->second + W;
        emit(I);
      }
      Loaded.erase(It);
      continue;
    }
    if (isel::EpilogueValues::isValueOp(O.Name)) {
      if (Error E = ValueOps.lower(O, *Acc, {Guarded, Both, First}))
        return E;
      if (HoldGuards) {
        DeferPredFrees = false;
        for (unsigned Pr : DeferredFrees)
          PredBusy[Pr] = false;
        DeferredFrees.clear();
      }
      continue;
    }
    return fail(O.Loc, "no lowering for '" + O.Name + "' in tp.epilogue");
  }
  return Error::success();
}

Expected<unsigned> Selector::pointerTo(const Value &Off, const Value &Param,
                                       StringRef Name) {
  Expected<unsigned> PI = paramIndex(Param);
  if (!PI)
    return PI.takeError();
  unsigned Key = pointerKey(Off);
  if (unsigned R = findPointer(EpiloguePointers, *PI, Key))
    return R;
  Expected<Lowered> L = get(Off);
  if (!L)
    return L.takeError();
  unsigned R = formPointer(newReg(Name), inRegister(*L), *PI);
  EpiloguePointers.push_back({*PI, Key, R});
  return R;
}

Error Selector::lowerOp(const Op &O, bool InLoop) {
  if (is(O.Name, "tp.copy"))
    return lowerCopy(O, InLoop);
  if (is(O.Name, "tp.commit")) {
    emit(make(Form::LdgDepbar), /*WrSB=*/0);
    return Error::success();
  }
  if (is(O.Name, "tp.wait_groups")) {
    int64_t Max = intAttr(O, "max");
    if (Max < 0 || Max > 63)
      return fail(O.getAttr("max")->Val.Loc, "max must be 0..63");
    sass::Instruction &I = make(Form::Depbar);
    operand(I, Slot::Cnt) = Max;
    emit(I);
    return Error::success();
  }
  if (is(O.Name, "tp.barrier")) {
    emit(make(Form::Bar));
    return Error::success();
  }
  if (is(O.Name, "tp.products"))
    return lowerProducts(O);
  if (is(O.Name, "tp.epilogue"))
    return lowerEpilogue(O);
  if (is(O.Name, "tp.step")) {
    if (Error E = lowerRegion(O, InLoop))
      return E;
    LoopStep += InLoop;
    return Error::success();
  }
  return fail(O.Loc, "no lowering for '" + O.Name + "'");
}

Error Selector::lowerRegion(const Op &Region, bool InLoop) {
  for (const Op &O : Region.Body)
    if (Error E = lowerOp(O, InLoop))
      return E;
  return Error::success();
}

/// The last tp.copy in region \p O (nested), or null.
const Op *lastCopy(const Op &O) {
  const Op *Last = nullptr;
  for (const Op &C : O.Body)
    if (is(C.Name, "tp.copy"))
      Last = &C;
    else if (const Op *N = lastCopy(C))
      Last = N;
  return Last;
}

/// What -debug-only=tp-select prints: the target's facts, the virtual
/// registers by role, the pieces' sizes.
void Selector::printDecisions(raw_ostream &OS) const {
  OS << "tp-select: @" << K.Name << ": " << TF.Name
     << ", parameters at c[0x0][0x" << utohexstr(TF.ParamBase, true)
     << "], stages from shared 0x" << utohexstr(TF.SharedBase, true) << "\n  "
     << Fn.VRegNames.size() << " virtual registers: "
     << llvm::count_if(Accumulators, [](unsigned R) { return R != 0; })
     << " accumulator tuples, " << NumFragments << " fragment tuples, "
     << Streams.size() << " copy streams\n  " << Slots.size()
     << " tile IR names\n";
  for (const mir::Piece &Pc : Fn.Pieces)
    OS << "  piece " << Pc.Name << ": " << Pc.Instrs.size()
       << " instructions\n";
}

Expected<mir::Function> Selector::run() {
  const Op *Addresses = MM.find("tp.addresses");
  const Op *Prologue = MM.find("tp.prologue");
  const Op *Loop = MM.find("tp.loop");
  const Op *Tail = MM.find("tp.tail");
  const Op *Grid = MM.find("tp.grid");
  if (!Prologue || !Tail || !Grid)
    return fail(MM.Loc, "the product has no tp.grid, tp.prologue or tp.tail");
  // The last copy in layout order outside the loop (the loop's copies
  // always advance: the body repeats).
  const Op *PrologueCopy = lastCopy(*Prologue);
  const Op *TailCopy = lastCopy(*Tail);
  FinalCopy = TailCopy ? TailCopy : PrologueCopy;
  if (Loop && FinalCopy == PrologueCopy && lastCopy(*Loop))
    FinalCopy = nullptr;

  indexProduct();
  piece("prologue", 2 * (regionOps(Addresses) + regionOps(Prologue)) +
                        2 * size_t(T.MTiles * T.NTiles) + 16);
  sass::Instruction &Desc = make(TF.DescLoad);
  operand(Desc, Slot::COff) = TF.Descriptor;
  emit(Desc, TF.DescLoad == Form::LdcuDesc ? 5 : -1);
  if (Error E = lowerAddresses(*Addresses))
    return E;
  countSharers();
  if (Error E = lowerRegion(*Prologue, false))
    return E;
  for (int64_t MT = 0; MT < T.MTiles; ++MT)
    for (int64_t NT = 0; NT < T.NTiles; ++NT)
      for (unsigned H = 0; H < 2; ++H) {
        sass::Instruction &I = make(Form::ZeroPair);
        operand(I, Slot::Rd) = accumulator(MT, NT) + 2 * H;
        emit(I);
      }
  int64_t Iterations = Loop ? *Loop->getInt("iterations") : 0;
  const Attr *Count = Loop ? Loop->getAttr("count") : nullptr;
  if (Loop) {
    CounterReg = newReg("counter");
    if (Count) { // a run-time count: the value's copy, counted down
      Expected<Lowered> N = get(Count->Val);
      if (!N)
        return N.takeError();
      sass::Instruction &I = make(Form::IAdd3);
      operand(I, Slot::Rd) = *CounterReg;
      operand(I, Slot::Ra) = inRegister(*N);
      operand(I, Slot::Rb) = RZ;
      emit(I);
    } else {
      sass::Instruction &I = make(Form::Mov);
      operand(I, Slot::Rd) = *CounterReg;
      operand(I, Slot::Imm) = Iterations;
      emit(I);
    }
  }
  piece("body", 2 * regionOps(Loop) + 8);
  if (Loop) {
    int64_t Before = NextCopyStep;
    // A predicate the body reads stays live over every iteration.
    DeferPredFrees = true;
    if (Error E = lowerRegion(*Loop, true))
      return E;
    DeferPredFrees = false;
    for (unsigned P : DeferredFrees)
      PredBusy[P] = false;
    DeferredFrees.clear();
    // The body runs Iterations times: it must copy one step a step, so
    // that the pointers stay where the next iteration's copies expect.
    if (NextCopyStep - Before != LoopStep)
      return fail(Loop->Loc, formatv("the loop computes {0} steps an "
                                     "iteration but copies {1}",
                                     LoopStep, NextCopyStep - Before)
                                 .str());
    NextCopyStep += (Iterations - 1) * LoopStep;
    for (CopyStream &S : Streams)
      S.Step += (Iterations - 1) * LoopStep;
  }

  piece("tail", 2 * regionOps(Tail) + 8);
  if (Error E = lowerRegion(*Tail, false))
    return E;
  emit(make(Form::Exit));
  // ptxas closes every function with a branch to itself.  The prototype's
  // offset is that branch's (-4 words: relative, at any address), and it is
  // the function's only branch: no label to resolve
  // (mir::Function::resolveBranches walked every instruction twice).
  mir::MInstr &Halt = [&]() -> mir::MInstr & {
    emit(make(Form::Bra));
    return Fn.Pieces.back().Instrs.back();
  }();
  Halt.Label = "halt";
  Halt.Target = "halt";
  NumSelected += Selected;

  Fn.Name = K.Name;
  Fn.Target = TF.Name;
  Fn.Regs = 0; // every register is virtual: tp-regalloc sets regs()
  Fn.SharedBytes = T.sharedBytes();
  Fn.Loc = K.Loc;
  Fn.setAttr("threads", std::to_string(*Grid->getInt("threads")));
  Fn.setAttr("grid", std::to_string(*Grid->getInt("x")) + "," +
                         std::to_string(*Grid->getInt("y")) + "," +
                         std::to_string(Grid->getInt("z").getValueOr(1)));
  std::string Roles;
  for (const ProductParam &PP : getProductParams(P))
    Roles += (Roles.empty() ? "" : ",") + PP.Role.str();
  if (P.Runtime)
    Roles += ",M,N,K,LDA,LDB,LDC";
  if (P.Strided)
    Roles += ",StrideA,StrideB,StrideC";
  Fn.setAttr("params", Roles);
  if (Count)
    Fn.setAttr("runtime-count", "1");
  Fn.setAttr("shape", std::to_string(P.M) + "x" + std::to_string(P.N) + "x" +
                          std::to_string(P.K));
  Fn.setAttr("layout-a", getLayoutName(P.A));
  Fn.setAttr("layout-b", getLayoutName(P.B));
  Fn.setAttr("tile", T.str());
  Fn.setAttr("iterations", std::to_string(Iterations));
  Fn.setAttr("residual", P.Residual ? "1" : "0");
  // The epilogue, when there is one.
  if (P.Scale || P.Bias || P.Relu)
    Fn.setAttr("epilogue", P.getEpilogueList(","));
  // A, B and D's element types, when not the seed's f16, f16, f32 (whose
  // machine IR stays as it was).
  if (!P.defaultTypes())
    Fn.setAttr("types", (getElementTypeName(P.AType) + "," +
                         getElementTypeName(P.BType) + "," +
                         getElementTypeName(P.DType))
                            .str());
  Fn.setAttr("counter",
             CounterReg ? "%" + Fn.VRegNames[mir::virtualRegId(*CounterReg)]
                        : std::string("0"));
  TP_DEBUG(printDecisions(dbgs()));
  assert(sass::getPCRelativeTarget(Halt.I, 0) == uint64_t(0) &&
         "the halt branch jumps to itself");
  return std::move(Fn);
}

class SelectPass : public Pass {
public:
  Error run(std::unique_ptr<IRUnit> &IR, PassContext &Ctx) override {
    tile::Module &TM = static_cast<TileUnit &>(*IR).M;
    mir::Module MM;
    for (Kernel &K : TM.Kernels) {
      // The kernel's target= (verified: a tile target) gives the parameter
      // base, the descriptor slot and the reserved shared window.
      Optional<TargetFacts> TF =
          lookupTargetFacts(sass::getTargetName(tile::getTarget(K)));
      if (!TF)
        return makeSourceError(Ctx.SM, K.Loc,
                               "tp-select: the kernel's target is not " +
                                   sass::getGemmTargetList());
      Op *Matmul = K.getMatmul();
      if (!Matmul || !Matmul->find("tp.addresses") ||
          !Matmul->find("tp.tile"))
        return makeSourceError(Ctx.SM, Matmul ? Matmul->Loc : K.Loc,
                               "tp-select needs a swizzled product (run "
                               "tp-admit, tp-tile, tp-pipeline, tp-swizzle "
                               "first)");
      Expected<mir::Function> F = Selector(K, *Matmul, *TF, Ctx).run();
      if (!F)
        return F.takeError();
      MM.Functions.push_back(std::move(*F));
    }
    // The tile IR goes with the machine IR, not here: freeing a few
    // thousand small strings and vectors is no part of selection.
    auto MU = std::make_unique<mir::MachineUnit>(std::move(MM));
    MU->LoweredFrom = std::move(IR);
    IR = std::move(MU);
    return Error::success();
  }
};

} // namespace

std::unique_ptr<Pass> createSelectPass() {
  return std::make_unique<SelectPass>();
}

} // namespace tp
