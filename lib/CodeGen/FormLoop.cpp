//===- FormLoop.cpp - tp-form-loop: the counted loop ----------------------===//
///
/// \file
/// mir -> mir.  The seed's tpControl / tpBranch / tpAssemble.  Requires
/// tp-select's pieces: `body` is one steady iteration, run `iterations(N)`
/// times, counted down in the register `counter(R)` (which the prologue
/// sets to N); there is no `control` piece yet.  Guarantees:
///
///  * N = 0: the body is removed (the prologue runs straight into the tail);
///  * otherwise (loop mode, the default) the body's first instruction gets
///    label ^loop and a `control` piece follows it:
///        IADD3 Rc, Rc, -0x1, RZ           one iteration fewer
///        ISETP.GT.AND P1, PT, Rc, RZ, PT  P1 = any left
///        @P1 BRA ^loop                    back over body + control
///    with the largest stalls (15), so the path round the back edge leaves
///    every fixed-latency result ready.  The branch's displacement,
///    -16 (body + 3) bytes from the instruction after it, does not depend
///    on K, nor does the code size;
///  * a run-time count (attribute runtime-count(1): the counter holds K's
///    iterations, possibly 0) keeps the body and puts a `skip` piece before
///    it, `ISETP.LT.AND P1, PT, Rc, 0x1, PT ; @P1 BRA ^tail` (stall 15),
///    the tail's first instruction labelled ^tail: every piece drains its
///    own latencies (tp-compact-stalls), so the prologue may run straight
///    into the tail;
///  * checked mode (`checked=1`, or tp-llc -tp-form-loop-checked): the
///    seed's checked program, body + control (no BRA) once, and, when N > 1,
///    again as pieces `body.1`, `control.1`: both ways into the body (from
///    the prologue, from itself) for the schedule verifier.  The function
///    gets attribute checked(1).
///
//===----------------------------------------------------------------------===//

#include "tp/CodeGen/CodeGen.h"
#include "tp/CodeGen/SelectForms.h"
#include "tp/MIR/MIR.h"
#include "tp/Support/Debug.h"
#include "tp/Support/Diagnostics.h"

#include "llvm/ADT/Statistic.h"

using namespace llvm;

#define DEBUG_TYPE "tp-form-loop"

ALWAYS_ENABLED_STATISTIC(NumLoops, "Counted loops formed");
ALWAYS_ENABLED_STATISTIC(NumChecked, "Checked programs built (no branch)");
ALWAYS_ENABLED_STATISTIC(NumBodiesRemoved,
                         "Bodies removed (zero iterations)");
ALWAYS_ENABLED_STATISTIC(NumLoopInstrs,
                         "Loop instructions (body + control)");

namespace tp {
namespace {

using isel::Form;
using isel::operand;
using isel::Slot;

/// The loop's instructions, built from tp-select's form table (no text
/// parsed; the forms' spellings are checked by SelectFormsTest) with
/// control fields \p Ctl: `IADD3 Rc, Rc, -0x1, RZ`.
mir::MInstr makeDecrement(unsigned Counter, const sass::Control &Ctl) {
  mir::MInstr MI(isel::getPrototype(Form::IAdd3Imm));
  operand(MI.I, Slot::Rd) = Counter;
  operand(MI.I, Slot::Ra) = Counter;
  operand(MI.I, Slot::Imm) = -1;
  sass::applyControl(MI.I, Ctl);
  return MI;
}

/// `ISETP.GT.AND P1, PT, Rc, RZ, PT` (any iteration left), or with
/// \p LessThanOne `ISETP.LT.AND P1, PT, Rc, 0x1, PT` (none).
mir::MInstr makeTest(unsigned Counter, bool LessThanOne,
                     const sass::Control &Ctl) {
  mir::MInstr MI(
      isel::getPrototype(LessThanOne ? Form::ISetpImm : Form::ISetp));
  operand(MI.I, Slot::Pd) = 1;
  operand(MI.I, Slot::CmpOp) = LessThanOne ? sass::ICmpLT : sass::ICmpGT;
  operand(MI.I, Slot::Sgn) = 1;
  operand(MI.I, Slot::Ra) = Counter;
  if (LessThanOne)
    operand(MI.I, Slot::Imm) = 1;
  else
    operand(MI.I, Slot::Rb) = sass::RZ;
  operand(MI.I, Slot::Pp) = sass::PT;
  sass::applyControl(MI.I, Ctl);
  return MI;
}

/// `@P1 BRA ^Label` (the offset set by resolveBranches).
mir::MInstr makeBranch(StringRef Label, const sass::Control &Ctl) {
  mir::MInstr MI(isel::getPrototype(Form::Bra));
  MI.I.Guard = 1;
  sass::applyControl(MI.I, Ctl);
  MI.Target = Label;
  return MI;
}

class FormLoopPass : public Pass {
public:
  std::vector<PassOption> getOptions() const override {
    return {{"checked", "0",
             "1: unroll the loop twice with no branch (the checked "
             "program)"}};
  }

  Error run(std::unique_ptr<IRUnit> &IR, PassContext &Ctx) override {
    Expected<int64_t> Checked = getIntOption("checked");
    if (!Checked)
      return Checked.takeError();
    for (mir::Function &F : static_cast<mir::MachineUnit &>(*IR).M.Functions)
      if (Error E = form(F, *Checked != 0, Ctx))
        return E;
    return Error::success();
  }

private:
  /// The `skip` piece before the body at \p BodyIndex: no iteration left
  /// (counter \p C < 1) branches to the tail (without the branch in the
  /// checked program, which walks the loop's way).
  Error insertSkip(mir::Function &F, size_t BodyIndex, unsigned C,
                   sass::Control Ctl, bool Branch) {
    mir::Piece Skip;
    Skip.Name = "skip";
    Skip.Instrs.push_back(makeTest(C, /*LessThanOne=*/true, Ctl));
    if (Branch) {
      mir::Piece *Tail = F.getPiece("tail");
      if (!Tail || Tail->Instrs.empty() || !Tail->Instrs.front().Label.empty())
        return makeError("@" + F.Name + ": tp-form-loop needs an unlabelled "
                         "'tail' piece to skip to");
      Tail->Instrs.front().Label = "tail";
      Skip.Instrs.push_back(makeBranch("tail", Ctl));
    }
    F.Pieces.insert(F.Pieces.begin() + BodyIndex, std::move(Skip));
    return Error::success();
  }

  Error form(mir::Function &F, bool Checked, PassContext &Ctx) {
    auto Fail = [&](const Twine &Msg) {
      if (F.Loc.isValid())
        return makeSourceError(Ctx.SM, F.Loc, Msg);
      return makeError("@" + F.Name + ": " + Msg);
    };
    if (F.getPiece("control"))
      return Fail("tp-form-loop: the loop is already formed (piece "
                  "'control' exists)");
    mir::Piece *Body = F.getPiece("body");
    if (!Body)
      return Fail("tp-form-loop needs a 'body' piece (run tp-select first)");
    Optional<int64_t> N = F.getIntAttr("iterations");
    Optional<int64_t> Counter = F.getIntAttr("counter");
    if (!N || *N < 0)
      return Fail("tp-form-loop needs attribute iterations(N), N >= 0");
    if (!Counter || *Counter < 0 || *Counter > 254)
      return Fail("tp-form-loop needs attribute counter(R), a register");
    bool Runtime = F.getIntAttr("runtime-count").getValueOr(0) != 0;
    if (Runtime && *N == 0)
      N = 2; // the checked program's both ways into the body
    size_t BodyIndex = Body - F.Pieces.data();
    TP_DEBUG(dbgs() << "tp-form-loop: @" << F.Name << ": "
                    << (*N == 0   ? "no iterations: the body is removed"
                        : Checked ? "checked program: body + control"
                                  : "counted loop over the body")
                    << " (" << *N << " iterations, counter R" << *Counter
                    << ", " << Body->Instrs.size()
                    << " body instructions)\n");
    if (*N == 0) {
      ++NumBodiesRemoved;
      F.Pieces.erase(F.Pieces.begin() + BodyIndex);
      if (Checked)
        F.setAttr("checked", "1");
      return Error::success();
    }
    if (Body->Instrs.empty())
      return Fail("tp-form-loop: the body is empty");
    unsigned C = unsigned(*Counter);
    std::vector<mir::MInstr> Control;
    Control.reserve(3);
    sass::Control Ctl;
    Ctl.Stall = 15; // with yield: a stall of 12..15 is defined only so
    Ctl.Yield = true;
    Control.push_back(makeDecrement(C, Ctl));
    Control.push_back(makeTest(C, /*LessThanOne=*/false, Ctl));
    if (!Checked) {
      if (!Body->Instrs.front().Label.empty())
        return Fail("tp-form-loop: the body already starts a label");
      Body->Instrs.front().Label = "loop";
      Control.push_back(makeBranch("loop", Ctl));
      mir::Piece CP;
      CP.Name = "control";
      CP.Instrs = std::move(Control);
      NumLoopInstrs += Body->Instrs.size() + CP.Instrs.size();
      F.Pieces.insert(F.Pieces.begin() + BodyIndex + 1, std::move(CP));
      ++NumLoops;
      if (Runtime)
        if (Error E = insertSkip(F, BodyIndex, C, Ctl, true))
          return E;
      return F.resolveBranches();
    }
    if (Runtime)
      if (Error E = insertSkip(F, BodyIndex, C, Ctl, false))
        return E;
    BodyIndex += Runtime;
    Body = &F.Pieces[BodyIndex];
    F.setAttr("checked", "1");
    ++NumChecked;
    mir::Piece CP;
    CP.Name = "control";
    CP.Instrs = Control;
    std::vector<mir::Piece> Copies;
    Copies.push_back(CP);
    if (*N > 1) {
      mir::Piece B2 = *Body;
      B2.Name = "body.1";
      for (mir::MInstr &MI : B2.Instrs) {
        if (MI.isBranch())
          return Fail("tp-form-loop: a branch inside the body cannot be "
                      "unrolled");
        MI.Label.clear();
      }
      mir::Piece C2 = CP;
      C2.Name = "control.1";
      Copies.push_back(std::move(B2));
      Copies.push_back(std::move(C2));
    }
    F.Pieces.insert(F.Pieces.begin() + BodyIndex + 1, Copies.begin(),
                    Copies.end());
    return F.resolveBranches();
  }
};

} // namespace

std::unique_ptr<Pass> createFormLoopPass() {
  return std::make_unique<FormLoopPass>();
}

} // namespace tp
