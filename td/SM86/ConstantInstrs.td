//===- ConstantInstrs.td - LDC: constant-bank loads ---------*- tablegen -*-===//
//
// LDC 0xb82 (sm_80/86 TSV rows, checked by the corpus test; ptxas 13 emits
// it on sm_90 for the stack pointer and the parameters: `LDC R1,
// c[0x0][0x28]`, `LDC.64 R2, c[0x0][0x210]`, E).
//   Rd [16:23], index register Ra [24:31] (RZ: printed `c[b][off]`),
//   signed byte offset [38:53], bank [54:58], size [73:75] as ULDC
//   (.U8 0, .S8 1, .U16 2, .S16 3, 32-bit 4, .64 5).
// nvdisasm prints the address like a memory operand: `c[0x3][R11+-0x10]`,
// `c[0x3][RZ]`, `c[0x0][0x180]`.  Variable latency (N needs_scoreboards).
//
//===----------------------------------------------------------------------===//

def LdcSize : Mod<[0, 1, 2, 3, 4], [".U8", ".S8", ".U16", ".S16", ""]>;
foreach W = [0, 1] in
  def LDC # !if(W, "_64", "") :
    SM86Op<0xb82, "LDC${sz} $Rd, c[$Bank]<$Ra+$Off>",
           !if(W, (outs GPR64:$Rd), (outs GPR:$Rd)),
           (ins !if(W, Mod<[5], [".64"]>, LdcSize):$sz, CBIdx:$Bank,
                MemBase:$Ra, CBOffS:$Off), ConstLoad> {
    bits<8> Rd;
    bits<8> Ra;
    bits<3> sz;
    bits<5> Bank;
    bits<16> Off;
    let ReuseOperands = ["", "", "", ""];
    let Inst{23-16} = Rd;
    let Inst{31-24} = Ra;
    let Inst{53-38} = Off;
    let Inst{58-54} = Bank;
    let Inst{75-73} = sz;
  }
