//===- SM86Operands.td - Operand kinds of sm_86 forms -------*- tablegen -*-===//
//
// An operand of a form is a dag argument `Type:$name`; the form binds the
// field `bits<N> name` to bit ranges of Inst.  The OperandType decides how
// the value prints and parses (tp-tblgen maps Kind onto tp::sm86::OperandKind):
//
//   GPR      R0..R254, 255 = RZ          UGPR   UR0..UR62, 63 = URZ
//   Pred     P0..P6, 7 = PT              UPred  UP0..UP6, 7 = UPT
//   Imm      0x.. (Signed: -0x.. too)    FImm   32-bit float, raw bits
//   HImm     two f16 halves, raw bits    CBankIndex / CBankOffset  c[..][..]
//   SReg     special register by name    Modifier  a code spelled as text
//   BranchTarget  word offset, printed as the absolute target address
//   MemBase / MemUR / MemDesc / MemOffset  parts of a memory address
//   SBIndex  SB0..SB5                    SBMask  {5,4,..}
//
// Register numbers: RZ = 255, URZ = 63, PT = 7 (N, T, C).
//
//===----------------------------------------------------------------------===//

// Dag operators of operand lists, as in LLVM's Target.td.
def outs;
def ins;

class OperandType<string kind> {
  string Kind = kind;
  int Width = 1;          // registers in a tuple
  bit Signed = 0;         // sign-extend the field
  list<int> Values = [];  // Modifier/SReg: codes ...
  list<string> Names = [];// ... and their spellings
  bit Optional = 0;       // address component left out at its default
  int XorMask = 0;        // field = value ^ XorMask (inverted encodings)
}

class Mod<list<int> values, list<string> names> : OperandType<"Modifier"> {
  let Values = values;
  let Names = names;
}

def GPR    : OperandType<"GPR">;
def GPR64  : OperandType<"GPR"> { let Width = 2; }
def GPR128 : OperandType<"GPR"> { let Width = 4; }
def UGPR   : OperandType<"UGPR">;
def UGPR64 : OperandType<"UGPR"> { let Width = 2; }
def Pred   : OperandType<"Pred">;
def UPred  : OperandType<"UPred">;
// A predicate stored inverted (field = 7 - P, so 0 means PT): LDG's
// optional trailing predicate [64:66] (`LDG.E.128 R128, [R144], P3` has
// 4 there; our corpus test).
def PredInv : OperandType<"Pred"> { let XorMask = 7; }
def SImm   : OperandType<"Imm"> { let Signed = 1; }
def UImm   : OperandType<"Imm">;
def FImm   : OperandType<"FImm">;
def HImm   : OperandType<"HImm">;
def BImm   : OperandType<"BImm">;
def DImmHi : OperandType<"DImmHi">;
def CBIdx  : OperandType<"CBankIndex">;
def CBOff  : OperandType<"CBankOffset">;
def BrTarget : OperandType<"BranchTarget"> { let Signed = 1; }
def MemBase   : OperandType<"MemBase"> { let Optional = 1; }
def MemBase64 : OperandType<"MemBase"> { let Width = 2; let Optional = 1; }
def MemUR     : OperandType<"MemUR">;
def MemUROpt  : OperandType<"MemUR"> { let Optional = 1; }  // URZ left out
def MemDesc   : OperandType<"MemDesc"> { let Width = 2; }
def MemOff    : OperandType<"MemOffset"> { let Signed = 1; let Optional = 1; }
def SBIdx  : OperandType<"SBIndex">;
def SBSet  : OperandType<"SBMask">;

// Source-operand prefixes.
def NegMod : Mod<[0, 1], ["", "-"]>;   // arithmetic negate
def NotMod : Mod<[0, 1], ["", "~"]>;   // bitwise not (.X carry forms)
def AbsMod : Mod<[0, 1], ["", "|"]>;   // |x|: written on both sides
def PNot   : Mod<[0, 1], ["", "!"]>;   // predicate source negate
