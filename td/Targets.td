//===- Targets.td - The GPUs that share this instruction set -*- tablegen -*-===//
//
// The Volta-family word (SM86/SM86InstrFormats.td) is shared by sm_80, sm_86
// and sm_90.  A form exists on every target unless it mixes in OnlyOn; where
// a target encodes a form differently, a def mixing in EncodingOn gives that
// target's encoding of the form (same operands, same AsmString, other bits).
// tp-tblgen emits one encoding and one decoder table per target; the C++
// API takes a tp::sm86::Target (default SM86), so the Opcode enum -- and
// every pass that builds instructions -- is the same for all targets.
//
//===----------------------------------------------------------------------===//

/// One target.  The enum name is derived from Name ("sm_90" -> SM90); CPUs
/// lists the -mcpu spellings that select it (sm_80 shares sm_86's
/// encodings: SASS_FACTS.md 1.1, every sm_80 TSV row is checked too).
class SASSTarget<string name, int sm, list<string> cpus> {
  string Name = name;
  int SM = sm;
  list<string> CPUs = cpus;
}
def TargetSM86 : SASSTarget<"sm_86", 86, ["sm_86", "sm_80"]>;
def TargetSM90 : SASSTarget<"sm_90", 90, ["sm_90"]>;

/// Mixin of a form that exists only on \p targets.
class OnlyOn<list<SASSTarget> targets> {
  list<SASSTarget> OnlyTargets = targets;
}

/// Mixin of a def that is not a form of its own but the encoding form
/// \p form has on \p targets.  Its operands (names, types, order) and its
/// AsmString must be the form's; tp-tblgen checks it.
class EncodingOn<string form, list<SASSTarget> targets> {
  string EncodingOf = form;
  list<SASSTarget> EncodingTargets = targets;
}
