//===- IntegerInstrs.td - sm_86 integer ALU instructions ----*- tablegen -*-===//
//
// IMAD, IADD3, LOP3, MOV, SHF, LEA, SEL, ISETP, PRMT, IABS, IMNMX, PLOP3.
// Bit facts: SASS_FACTS.md 1.3/1.4 (sources N, T, C, R), re-checked against
// every row of the reference TSVs by unittests/Target/SM86CorpusTest.
//
//===----------------------------------------------------------------------===//

def U32Mod : Mod<[1, 0], ["", ".U32"]>;   // bit 73: 1 = signed

//===----------------------------------------------------------------------===//
// IMAD: base 0x024, .WIDE 0x025, .HI 0x027 (N, T, C, R).
//   [73] signed (0 prints .U32)   [74] .X (add carry-in)
//   [81:83] carry-out predicate (PT = 7 when not printed)
//   [87:89] carry-in predicate, [90] its negate; !PT (0xf) unless .X
// Negation is only seen on C: '-' (or '~' in .X forms).
//===----------------------------------------------------------------------===//

class IMADInst<bits<9> op, bits<3> form, string asm, dag outs, dag ins,
               bit hasPu, bit hasX, SchedClass s>
    : ALU3<op, form, asm, outs, ins, s> {
  bit u;
  bits<3> Pu;
  bits<3> Pc;
  bit Pcn;
  let Inst{73} = u;
  let Inst{74} = hasX;
  let Inst{83-81} = !if(hasPu, Pu, 0b111);
  let Inst{89-87} = !if(hasX, Pc, 0b111);
  let Inst{90} = !if(hasX, Pcn, 1);
}

// name, opcode, mnemonic text, sched
multiclass IMADAll<string mn, bits<9> op, SchedClass s, OperandType dT = GPR,
                    OperandType cT = GPR> {
  foreach F = ALU3Forms in {
    foreach X = [0, 1] in {
      foreach P = [0, 1] in {
        defvar B = SrcOp<F.BK, "Rb", SImm, NotMod, !if(X, "nb", "")>;
        defvar C = SrcOp<F.CK, "Rc", SImm, !if(X, NotMod, NegMod), "nc", cT>;
        defvar Sfx = !if(X, "X_", "") # !if(P, "P_", "") # F.Sfx;
        def Sfx : IMADInst<op, F.Form,
            mn # "${u}" # !if(X, ".X", "") # " $Rd, " # !if(P, "$Pu, ", "") #
              "$Ra, " # B.Text # ", " # C.Text # !if(X, ", ${Pcn}$Pc", ""),
            !con((outs dT:$Rd), !if(P, (outs Pred:$Pu), (outs))),
            !con((ins U32Mod:$u, GPR:$Ra), B.Ins, C.Ins,
                 !if(X, (ins PNot:$Pcn, Pred:$Pc), (ins))),
            P, X, s>;
      }
    }
  }
}
defm IMAD_ : IMADAll<"IMAD", 0x024, CoupledFMA>;
defm IMAD_WIDE_ : IMADAll<"IMAD.WIDE", 0x025, IMADWide, GPR64, GPR64>;
defm IMAD_HI_ : IMADAll<"IMAD.HI", 0x027, IMADWide>;
