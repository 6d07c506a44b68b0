//===- BitInstrs.td - sm_86 bit-field, predicate-register and pack ops -*- tablegen -*-===//
//
// SGXT, BMSK, FLO, BREV, R2P, P2R, I2I, I2IP, F2IP: every form here is one
// that rows of shared/reference/sm_{86,80}.encodings.tsv exercise (our
// corpus test checks every row of these mnemonics both ways); operand forms
// and modifiers no row shows are left out rather than guessed.
// Layout as SM86InstrFormats.td (ALU3): Rd [16:23], A [24:31], B [32:39]
// (or an immediate [32:63], c[][] or a UR with [91]), C [64:71].
// Scheduling (SASS_FACTS 2.1): SGXT, BMSK, R2P, P2R are plain integer ALU
// ops (CoupledALU); FLO and BREV need a scoreboard (N needs_scoreboards:
// POPC/FLO/BREV) as does F2IP ("all conversions"); I2I and I2IP are
// fixed latency (below).
//
//===----------------------------------------------------------------------===//

// SGXT 0x01a: sign-extend A from the bit width B.  [73] = 1 for the
// signed version (`SGXT R7, R7, 0x8`), 0 for .U32 (`SGXT.U32 R3, R11,
// 0x1`).  Forms 1 (`SGXT.U32 R9, R9, R10`), 4 (immediate) and 6 (UR,
// `SGXT.U32 R5, R5, UR7`); no row has a c[][] source.
def SgxtU : Mod<[0, 1], [".U32", ""]>;
foreach F = [FormRR, FormIR, FormUR] in {
  defvar B = SrcOp<F.BK, "Rb", UImm, NegMod, "">;
  def SGXT_ # F.Sfx :
    ALU3<0x01a, F.Form, "SGXT${s} $Rd, $Ra, " # B.Text, (outs GPR:$Rd),
         !con((ins SgxtU:$s, GPR:$Ra), B.Ins), CoupledALU> {
    bit s;
    let Inst{73} = s;
  }
}

// BMSK 0x01b: a mask of B bits from bit A.  Forms 1 (`BMSK R5, R8, R5`)
// and 4 (`BMSK R1, R0, 0x1`); no row sets a wrap bit.
foreach F = [FormRR, FormIR] in {
  defvar B = SrcOp<F.BK, "Rb", UImm, NegMod, "">;
  def BMSK_ # F.Sfx :
    ALU3<0x01b, F.Form, "BMSK $Rd, $Ra, " # B.Text, (outs GPR:$Rd),
         !con((ins GPR:$Ra), B.Ins), CoupledALU>;
}

// FLO 0x100: find the leading one of B.  [74] .SH (`FLO.U32.SH R44, R2`),
// [63] bitwise not of B (`FLO.U32 R6, ~R6`).  Every row is .U32 ([73] = 0)
// and writes no predicate (Pu [81:83] = 7).  Forms 1, 5 (c[][]), 6 (UR).
def FloSh : Mod<[0, 1], ["", ".SH"]>;
foreach F = [FormRR, FormCR, FormUR] in {
  defvar B = SrcOp<F.BK, "Rb", UImm, NotMod, "nb">;
  def FLO_ # F.Sfx :
    ALU3<0x100, F.Form, "FLO.U32${sh} $Rd, " # B.Text, (outs GPR:$Rd),
         !con((ins FloSh:$sh), B.Ins), Decoupled> {
    bit sh;
    let Inst{74} = sh;
    let Inst{83-81} = 0b111;
  }
}

// BREV 0x101: bit reverse of B; register form only (`BREV R10, R8`).
def BREV_rrr : ALU3<0x101, 1, "BREV $Rd, $Rb", (outs GPR:$Rd), (ins GPR:$Rb),
                    Decoupled>;

// R2P 0x004, form 4: predicates from the bits of A (or of its byte
// [76:77], `R2P PR, R16.B1, 0xf`) under the mask [32:39].  nvdisasm leaves
// the mask out when it is 0xff (`R2P PR, R141` holds 0xff): a form of its
// own, preferred when decoding.
foreach M = [0, 1] in
  def R2P # !if(M, "_M", "") :
    ALU3<0x004, 4, "R2P PR, ${Ra}${sel}" # !if(M, ", $Imm", ""), (outs),
         !con((ins GPR:$Ra, ByteSel:$sel), !if(M, (ins UImm:$Imm), (ins))),
         CoupledALU> {
    bits<2> sel;
    let ReuseOperands = ["Ra", "", "", ""];
    let Inst{77-76} = sel;
    let Inst{63-32} = !if(M, {0b000000000000000000000000, Imm{7-0}}, 0xff);
  }

// P2R 0x003, form 4: the predicates under the mask [32:39] into Rd (or
// into its byte [76:77], .B1..B3, merging the rest from A: `P2R.B2 R14,
// PR, R14, 0xf`).
def P2RB : Mod<[0, 1, 2, 3], ["", ".B1", ".B2", ".B3"]>;
def P2R : ALU3<0x003, 4, "P2R${sel} $Rd, PR, $Ra, $Imm", (outs GPR:$Rd),
               (ins P2RB:$sel, GPR:$Ra, UImm:$Imm), CoupledALU> {
  bits<2> sel;
  let Inst{77-76} = sel;
  let Inst{63-40} = 0;
}

// I2I 0x038 and I2IP 0x039 (form 1): saturating narrowing of a signed
// 32-bit B (I2IP: of B and A, packed into the low bytes of C).  [76:77]
// destination: .U8 0, .S8 1 (`I2IP.S8.S32.SAT R4, R46, R27, R4`), .U16 2
// (`I2I.U16.S32.SAT R7, R6`), .S16 3 (`I2I.S16.S32.SAT R10, R10`).  No row
// has another source type or I2I.S8.  Fixed latency, unlike the other
// conversions: ptxas 13 gives I2I and I2IP no scoreboard on sm_86 and
// sm_90 (E, test/MC/Inputs/bit_forms.ptx; the 4 cycles of CoupledALU are
// an assumption no ptxas pair checks yet).  On sm_90 I2IP also sets [74]
// (td/SM90/SM90Instrs.td).
def I2IDst : Mod<[0, 2, 3], [".U8", ".U16", ".S16"]>;
def I2IPDst : Mod<[0, 1], [".U8", ".S8"]>;
def I2I : ALU3<0x038, 1, "I2I${dst}.S32.SAT $Rd, $Rb", (outs GPR:$Rd),
               (ins I2IDst:$dst, GPR:$Rb), CoupledALU> {
  bits<2> dst;
  let Inst{77-76} = dst;
}
class I2IPInst : ALU3<0x039, 1, "I2IP${dst}.S32.SAT $Rd, $Ra, $Rb, $Rc",
                     (outs GPR:$Rd),
                     (ins I2IPDst:$dst, GPR:$Ra, GPR:$Rb, GPR:$Rc),
                     CoupledALU> {
  bits<2> dst;
  let Inst{77-76} = dst;
}
def I2IP : I2IPInst;

// F2IP 0x043 (form 1; sm_86 rows only, sm_80 has none): F32 B and A to
// 8-bit integers packed into C, as I2IP.  [76] .S8, [75] .RELU
// (`F2IP.S8.F32.NTZ.RELU R7, R7, R18, RZ`); [74] is set in every row
// (.F32.NTZ; which of the two it encodes no row tells).  Not on sm_80:
// nvdisasm 11.8's SM80 tables recognise no F2IP.
def F2IPDst : Mod<[0, 1], [".U8", ".S8"]>;
def F2IPRelu : Mod<[0, 1], ["", ".RELU"]>;
def F2IP : ALU3<0x043, 1, "F2IP${dst}.F32.NTZ${relu} $Rd, $Ra, $Rb, $Rc",
                (outs GPR:$Rd),
                (ins F2IPDst:$dst, F2IPRelu:$relu, GPR:$Ra, GPR:$Rb, GPR:$Rc),
                Decoupled>,
           OnlyOn<!listconcat([TargetSM86, TargetSM89], SM90Family)> {
  bit dst;
  bit relu;
  let Inst{74} = 1;
  let Inst{75} = relu;
  let Inst{76} = dst;
}
