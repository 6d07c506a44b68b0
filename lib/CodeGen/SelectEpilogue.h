//===- SelectEpilogue.h - tp-select's epilogue value ops --------*- C++ -*-===//
///
/// \file
/// The lowering of the epilogue's value ops, apart from the
/// selector's loads and stores of C and R (Select.cpp): the ops between
/// the accumulators and the stores that compute what is stored.  Today
/// tp.pack: an accumulator pair (two f32) rounded to nearest even and
/// packed into one register of two D elements, F2FP.PACK_AB (f16) or
/// F2FP.BF16.PACK_AB (bf16) with the pair's second accumulator in the high
/// half (PTX cvt.rn.f16x2.f32 d, a, b puts a in the upper half; ptxas 13
/// emits exactly these words for it on sm_86 and sm_90); the scale and
/// bias ops (D = alpha acc + beta C + bias, ReLU):
///
///   tp.ldg_bias %off, %bias nt=    two LDG.E of the n-tile's bias pair
///   tp.ldg_beta %off, %beta pair=  P0 = beta != 0 (FSETP.NEU, once), the
///                                  pair zeroed (CS2R), @P0 two LDG.E of C's
///                                  pair: beta = 0 never reads C; C in
///                                  f16/bf16: one @P0 LDG.E of the packed
///                                  pair (zeroed first) widened exactly:
///                                  HADD2.F32 -RZ, .H0_H0/.H1_H1 (f16),
///                                  << 16 and & 0xffff0000 (bf16)
///   tp.ldg (the residual's R, D in f16/bf16)  the packed pair's word
///                                  (guarded: zeroed, @both the word, @first
///                                  its low half), widened as C's above
///   tp.scale %alpha                FMUL acc, acc, c[alpha] (each word)
///   tp.add_beta %beta              FFMA acc, c_pair, c[beta], acc
///   tp.add_bias                    FADD acc, acc, bias pair
///   tp.relu                        FMNMX acc, acc, RZ, !PT (max(acc, 0))
///
/// A tp.stg of a
/// packed pair stores that register, 4 bytes (STG.E), else the pair, 8
/// bytes (STG.E.64).
///
//===----------------------------------------------------------------------===//
#ifndef TP_LIB_CODEGEN_SELECTEPILOGUE_H
#define TP_LIB_CODEGEN_SELECTEPILOGUE_H

#include "tp/CodeGen/SelectForms.h"
#include "tp/TileIR/TileIR.h"
#include "tp/TileIR/TileModel.h"

#include "llvm/ADT/Optional.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <map>

namespace tp {
namespace isel {

/// What the epilogue's lowering needs of the selector: instructions
/// appended to the current piece, virtual registers, located errors.
class EpilogueEmitter {
public:
  virtual ~EpilogueEmitter() = default;
  /// Appends \p F's prototype; the caller sets its operands, then emit().
  virtual sass::Instruction &makeInstr(Form F) = 0;
  virtual void emitInstr(sass::Instruction &I, int WrSB = -1) = 0;
  virtual unsigned newVirtualReg(llvm::StringRef Name) = 0;
  virtual llvm::Error failAt(llvm::SMLoc L, const llvm::Twine &Msg) = 0;
  /// The pointer pair param + offset value \p Off (formed once a pair).
  virtual llvm::Expected<unsigned> pointerTo(const tile::Value &Off,
                                             const tile::Value &Param,
                                             llvm::StringRef Name) = 0;
  /// The constant-bank byte offset of kernel parameter \p Param.
  virtual llvm::Expected<unsigned> paramSlot(const tile::Value &Param) = 0;
  /// A predicate register for one value op's use (a run-time shape's
  /// guard ANDed with beta != 0), and its release after the last reader.
  virtual llvm::Expected<unsigned> takePredicate(llvm::SMLoc L) = 0;
  virtual void releasePredicate(unsigned P) = 0;
};

/// A run-time shape's guards of one pair op (guard=, guard_first=): the
/// predicate of both elements in range and the one of the first alone (7:
/// PT); none on a fixed shape.
struct PairGuard {
  bool On = false;
  unsigned Both = sass::PT, First = sass::PT;
};

/// What a tp.stg stores: the register and the form.
struct PairStore {
  unsigned Reg;
  Form StoreForm;
};

/// The value ops of one epilogue and the registers they define.
class EpilogueValues {
public:
  /// \p R: the epilogue's C input (its second operand), when it has one.
  EpilogueValues(const tile::Problem &P, EpilogueEmitter &E,
                 llvm::Optional<tile::Value> R)
      : P(P), E(E), R(std::move(R)) {}

  /// Whether \p Name is an epilogue value op this file lowers.
  static bool isValueOp(llvm::StringRef Name);

  /// Lowers value op \p O on accumulator pair \p Acc (two registers).
  llvm::Error lower(const tile::Op &O, unsigned Acc, PairGuard G = {});

  /// What the tp.stg \p O of accumulator pair \p Acc stores: the packed
  /// register for D in f16/bf16 (an error when no tp.pack made it), else
  /// the pair itself.
  llvm::Expected<PairStore> storeOf(const tile::Op &O, unsigned Acc);
  /// R's pair of the residual with D in f16/bf16 (tp.ldg; Select.cpp loads
  /// an f32 R itself): the 4-byte word of the packed pair at \p Offset
  /// from \p Ptr (under \p G: zeroed, the word @both, its low half
  /// @first), widened exactly to the f32 pair \p Dst, which
  /// tp.add_residual adds in f32 before the pair's one rounding to D.
  llvm::Error loadNarrowResidual(const tile::Op &O, unsigned Ptr,
                                 unsigned Dst, int64_t Offset, PairGuard G);
  /// The store of a packed pair's first element alone (the pair's second
  /// column beyond N): STG.E.U16 of the low half; for D in f32 STG.E.
  Form firstElementStore() const {
    return P.DType == ElementType::F32 ? Form::Stg32 : Form::Stg16;
  }

private:
  const tile::Problem &P;
  EpilogueEmitter &E;
  llvm::Optional<tile::Value> R;
  std::map<int64_t, unsigned> Packed; ///< pair -> its packed register
  std::map<int64_t, unsigned> BetaC;  ///< pair -> C's pair (or zeros)
  std::map<int64_t, unsigned> Bias;   ///< n-tile -> its bias pair
  bool BetaPredicate = false;         ///< P0 = beta != 0 is set
  PairGuard Guard;                    ///< the op being lowered's guards
  /// Loads of word(s) at \p Offset from \p Ptr into \p Dst under the
  /// guards: @both each word of form \p F (\p Words of them), @first the
  /// first alone with form \p FirstF; \p Beta: each guard ANDed with
  /// beta != 0 first (FSETP.NEU.AND Pt, PT, RZ, c[beta], guard).
  llvm::Error guardedLoads(const tile::Op &O, Form F, Form FirstF,
                           unsigned Words, unsigned Dst, unsigned Ptr,
                           int64_t Offset, llvm::Optional<unsigned> Beta);

  llvm::Error lowerLoadBias(const tile::Op &O);
  llvm::Error lowerLoadBeta(const tile::Op &O);
  llvm::Error lowerLoadNarrowBeta(const tile::Op &O, unsigned Ptr,
                                  unsigned Dst, unsigned Beta);
  /// Widens the packed pair \p Packed of D's type exactly to the f32 pair
  /// \p Dst (HADD2.F32 of each half for f16; << 16 and the high half
  /// masked for bf16).
  void widenPair(unsigned Packed, unsigned Dst);
  /// Two instructions of form \p F on the pair's words, \p Set filling in
  /// the operands of word W.
  template <typename SetFn> void onPair(Form F, unsigned Acc, SetFn Set);
};

} // namespace isel
} // namespace tp

#endif // TP_LIB_CODEGEN_SELECTEPILOGUE_H
