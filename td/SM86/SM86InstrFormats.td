//===- SM86InstrFormats.td - The 128-bit Volta-family word --*- tablegen -*-===//
//
// The classes every sm_86 instruction form derives from.
//
// The word is 128 bits, stored as two little-endian u64 (bits 0..63 first).
// Layout shared by the Volta/Turing/Ampere family (SASS_FACTS.md 1.1; sources
// N = Mesa NAK sm70_encode.rs, T = turingas, C = CuAssembler sm_86 samples,
// all re-checked bit for bit against the reference TSVs by our corpus test):
//
//   127 126 125   122 121   116 115 113 112 110 109 108   105 104         91
//  +-------+--------+--------+-------+-------+---+--------+----------------+
//  |  0 0  | reuse  |  wait  | rd SB | wr SB | Y | stall  | modifiers, Pd, |
//  |       | D C B A|  mask  |       |       |   |        | Ps, flags      |
//  +-------+--------+--------+-------+-------+---+--------+----------------+
//   ^ control (class SM86Control only; forms leave 105..125 unset)
//
//   90            72 71      64 63              32 31   24 23   16 15 14 12 11  9 8     0
//  +----------------+----------+------------------+-------+-------+--+-----+-----+-------+
//  | modifiers,     | Rc / B   | Rb / imm32 /     |  Ra   |  Rd   |! | Pg  |form | opcode|
//  | carry preds    |          | c[bank][off]     |       |       |  |     |     |       |
//  +----------------+----------+------------------+-------+-------+--+-----+-----+-------+
//
// * Pg [12:14] guard predicate (7 = PT), [15] negate (`@!P0`).  (N, T, C)
// * ALU ops: [0:8] base opcode, [9:11] operand form (SASS_FACTS 1.3); memory
//   and control ops use the full [0:11] as opcode.
// * Bit 101 is don't-care: the TSV collection set it to make nvdisasm show
//   the default memory descriptor; ptxas writes 0 (SASS_FACTS 1.4 LDG/STG).
// * Bits 126..127 are 0 in every sample (C, E).
//
// Conventions for defs:
// * Each def is one encodable form.  Its operands are the named fields that
//   appear in its AsmString; every bit of Inst below 105 is either a
//   constant (part of the form's fixed mask) or a bit of an operand field.
// * AsmString syntax (interpreted by the generic printer and parser):
//     $name / ${name}  an operand, printed per its OperandType
//     <a+b+c>          a memory address "[a+b+c]": components whose value is
//                      the default (RZ, or offset 0) are left out; if all
//                      are, the first is printed ("[RZ]")
//     anything else    literal text
//
//===----------------------------------------------------------------------===//

/// Scheduling class (see SM86Schedule.td).
class SchedClass {
  /// 1: variable latency, the result is tracked by a write scoreboard.
  bit Variable = 0;
  /// Fixed latency in cycles (for Variable = 0).
  int Latency = 0;
  /// Operands (by name) read late, after issue: they need a read scoreboard
  /// before they may be overwritten.
  list<string> LateRead = [];
}

/// Root of every instruction form.
class SM86Inst<string asm, dag outs, dag ins, SchedClass sched> {
  field bits<128> Inst;
  string AsmString = asm;
  dag OutOperandList = outs;
  dag InOperandList = ins;
  SchedClass Sched = sched;
  /// Operand names owning the reuse flags [122], [123], [124], [125]
  /// ("" = no operand): printed as ".reuse" on that operand.
  list<string> ReuseOperands = ["Ra", "Rb", "Rc", ""];
  /// 1: the guard predicate is printed as a uniform predicate (`@UP0`);
  /// same bits (uniform-datapath ops, C).
  bit UniformGuard = 0;
  /// Control flow, for the readers of whole kernels (the cubin writer's
  /// EXIT offsets and first block, the .sass labels): 1 on EXIT; 1 on a
  /// direct branch (BRA), whose BranchTarget operand is where it jumps.
  /// Other PC-relative operands (BSSY, CALL.REL, RET.REL) are BranchTarget
  /// operands too (labels in .sass text), but whether they end ptxas's
  /// first block is not known (UNVERIFIED: the writer counts BRA, EXIT and
  /// the indirect branches below only, as every test cubin agrees).
  bit IsExit = 0;
  bit IsBranch = 0;
  /// An indirect branch (BRX, BRXU: a jump table's): it ends ptxas's first
  /// block as BRA does (E: a brx.idx kernel on sm_80/86/89, whose FDE's
  /// first block ends just past BRXU;
  /// test/Object/sass-roundtrip-jump-table-ptxas.test).
  bit IsIndirectBranch = 0;

  // Guard predicate (N, T, C).
  bits<3> Pg;
  bit PgNeg;

  let Inst{127-126} = 0b00;
  let Inst{125-105} = ?;   // control fields: class SM86Control only
  let Inst{104-102} = 0;
  let Inst{101} = ?;       // display hack of the TSV collection (see above)
  let Inst{100-16} = 0;
  let Inst{15} = PgNeg;
  let Inst{14-12} = Pg;
  let Inst{11-0} = 0;
}

/// An ALU op with a 9-bit base opcode and a 3-bit operand form [9:11]
/// (SASS_FACTS 1.3: 1 rr, 2 r-imm, 3 r-cbank, 4 imm-r, 5 cbank-r, 6 ur-r,
/// 7 r-ur).
class SM86ALU<bits<9> op, bits<3> form, string asm, dag outs, dag ins,
              SchedClass sched> : SM86Inst<asm, outs, ins, sched> {
  let Inst{8-0} = op;
  let Inst{11-9} = form;
}

/// An op whose opcode is the full 12 bits [0:11].
class SM86Op<bits<12> op, string asm, dag outs, dag ins, SchedClass sched>
    : SM86Inst<asm, outs, ins, sched> {
  let Inst{11-0} = op;
}

/// The control fields, owned by this class alone.  tp-tblgen reads it to
/// generate getControl()/setControl(); instruction forms never set these
/// bits.  (N set_instr_deps; C CuControlCode.py; J; E; SASS_FACTS 1.1/1.2.)
class SM86ControlWord {
  field bits<128> Inst;
  bits<4> Stall;    // cycles before the next issue of this warp
  bit Yield;        // raw bit 109 (CuAssembler shows 'Y' when it is 0)
  bits<3> WrSB;     // write scoreboard, 7 = none
  bits<3> RdSB;     // read scoreboard, 7 = none
  bits<6> WaitMask; // bit i: wait for scoreboard i
  bits<4> Reuse;    // operand reuse cache flags, slots A B C D
  let Inst{127-126} = ?;
  let Inst{125-122} = Reuse;
  let Inst{121-116} = WaitMask;
  let Inst{115-113} = RdSB;
  let Inst{112-110} = WrSB;
  let Inst{109} = Yield;
  let Inst{108-105} = Stall;
  let Inst{104-0} = ?;
  /// The values of v = Stall | Yield-bit << 4 (bits 105..109 read as one
  /// number) that are not instructions.
  list<int> UndefinedStallYield = [];
}
/// NVIDIA's disassembler reads bits 105..109 as one 5-bit value through a
/// table per instruction class.  Swept over every form on sm_80, sm_86,
/// sm_89 and sm_90 (all 32 values, nvdisasm 11.8; docs/nvdisasm.md), every
/// class leaves the same five undefined: stall 0 and stall 12..15 with bit
/// 109 set.  ptxas 13 writes none of them on any target, Blackwell included
/// (it clears bit 109 for a stall of 0 or 12..15), so the rule holds for
/// every target.
def SM86Control : SM86ControlWord {
  let UndefinedStallYield = [16, 28, 29, 30, 31];
}

//===----------------------------------------------------------------------===//
// Three-source ALU layouts (SASS_FACTS 1.3, N encode_alu_base, R over
// IMAD/IADD3/LOP3/SHF/MOV/ISETP samples).  Rd [16:23], A [24:31]; B and C
// move with the form:
//
//   form  B (src 1)          C (src 2)          negate B / C bits
//   1 rr  Rb  [32:39]        Rc  [64:71]        63 / 75
//   4 ir  imm [32:63]        Rc  [64:71]        -  / 75
//   5 cr  c[Bank][Off]       Rc  [64:71]        63 / 75
//   6 ur  Ur  [32:37], 91=1  Rc  [64:71]        63 / 75
//   2 ri  Rb  [64:71]        imm [32:63]        75 / -
//   3 rc  Rb  [64:71]        c[Bank][Off]       75 / 63
//   7 ru  Rb  [64:71]        Ur  [32:37], 91=1  75 / 63
//
// c[Bank][Off]: Bank [54:58], byte offset Off [38:53] (N, C, R, E).
// The negate bits sit with the slot, not the logical operand: IMAD.MOV R5,
// RZ, RZ, -c[0x0][0x1c0] (form 3) sets bit 63 (C, our corpus test).
// Negate of A is bit 72.  Forms bind only the fields they use (unbound
// fields encode 0).
//===----------------------------------------------------------------------===//

class ALU3<bits<9> op, bits<3> form, string asm, dag outs, dag ins,
           SchedClass sched> : SM86ALU<op, form, asm, outs, ins, sched> {
  bits<8> Rd;
  bits<8> Ra;
  bits<8> Rb;
  bits<8> Rc;
  bits<32> Imm;
  bits<5> Bank;
  bits<16> Off;
  bits<6> Ur;
  bit na;
  bit nb;
  bit nc;
  bit aa;
  bit ab;
  bit ac;
  let Inst{23-16} = Rd;
  let Inst{31-24} = Ra;
  let Inst{72} = na;
  // Forms 1, 4, 5, 6 keep B in the low slot; 2, 3, 7 move it to [64:71].
  let Inst{37-32} = !cond(!eq(form, 1): Rb{5-0}, !or(!eq(form, 2), !eq(form, 4)): Imm{5-0},
                          !or(!eq(form, 6), !eq(form, 7)): Ur, true: 0b000000);
  let Inst{39-38} = !cond(!eq(form, 1): Rb{7-6}, !or(!eq(form, 2), !eq(form, 4)): Imm{7-6},
                          !or(!eq(form, 3), !eq(form, 5)): Off{1-0}, true: 0b00);
  let Inst{53-40} = !cond(!or(!eq(form, 2), !eq(form, 4)): Imm{21-8}, !or(!eq(form, 3), !eq(form, 5)): Off{15-2},
                          true: 0b00000000000000);
  let Inst{58-54} = !cond(!or(!eq(form, 2), !eq(form, 4)): Imm{26-22}, !or(!eq(form, 3), !eq(form, 5)): Bank, true: 0b00000);
  let Inst{61-59} = !cond(!or(!eq(form, 2), !eq(form, 4)): Imm{29-27}, true: 0b000);
  // abs of the low slot [62] (next to its negate [63]), of the [64:71]
  // slot [74] (next to [75]), of A [73]: the float ops (FADD, FFMA, FMUL,
  // FSETP; C, our corpus test).  Integer ops use 73/74 for other things
  // and override them.
  let Inst{62} = !cond(!or(!eq(form, 2), !eq(form, 4)): Imm{30},
                       !or(!eq(form, 2), !eq(form, 3), !eq(form, 7)): ac,
                       true: ab);
  let Inst{74} = !if(!or(!eq(form, 2), !eq(form, 3), !eq(form, 7)), ab, ac);
  let Inst{73} = aa;
  let Inst{63} = !cond(!or(!eq(form, 2), !eq(form, 4)): Imm{31}, !or(!eq(form, 2), !eq(form, 3), !eq(form, 7)): nc, true: nb);
  let Inst{71-64} = !if(!or(!eq(form, 2), !eq(form, 3), !eq(form, 7)), Rb, Rc);
  let Inst{75} = !if(!or(!eq(form, 2), !eq(form, 3), !eq(form, 7)), nb, nc);
  let Inst{91} = !or(!eq(form, 6), !eq(form, 7));
}

/// The seven forms (name suffix: A, B, C source letters).
class SrcForm<bits<3> form, string sfx, string b, string c> {
  bits<3> Form = form;
  string Sfx = sfx;
  string BK = b;
  string CK = c;
}
def FormRR : SrcForm<1, "rrr", "r", "r">;
def FormIR : SrcForm<4, "rir", "i", "r">;
def FormCR : SrcForm<5, "rcr", "c", "r">;
def FormUR : SrcForm<6, "rur", "u", "r">;
def FormRI : SrcForm<2, "rri", "r", "i">;
def FormRC : SrcForm<3, "rrc", "r", "c">;
def FormRU : SrcForm<7, "rru", "r", "u">;
defvar ALU3Forms = [FormRR, FormIR, FormCR, FormUR, FormRI, FormRC, FormRU];

/// Text and operands of one source of kind k ("r", "i", "c", "u"): register
/// $reg, immediate $Imm of type immT, c[$Bank][$Off], or $Ur; with the
/// prefix modifier $neg (of type negT) unless neg is "" or k is "i".
class SrcOp<string k, string reg, OperandType immT, OperandType negT,
            string neg, OperandType regT = GPR, string abs = ""> {
  string N = !if(!eq(k, "i"), "", neg);
  string A = !if(!eq(k, "i"), "", abs);
  string AT = !if(!eq(A, ""), "", "${" # A # "}");
  string Text = !if(!eq(N, ""), "", "${" # N # "}") # AT #
                !cond(!eq(k, "r"): "$" # reg, !eq(k, "i"): "$Imm",
                      !eq(k, "c"): "c[$Bank][$Off]", true: "$Ur") # AT;
  dag Ins = !con(!if(!eq(N, ""), (ins), !dag(ins, [negT], [N])),
                 !if(!eq(A, ""), (ins), !dag(ins, [AbsMod], [A])),
                 !cond(!eq(k, "r"): !dag(ins, [regT], [reg]),
                       !eq(k, "i"): (ins immT:$Imm),
                       !eq(k, "c"): (ins CBIdx:$Bank, CBOff:$Off),
                       true: (ins UGPR:$Ur)));
}
