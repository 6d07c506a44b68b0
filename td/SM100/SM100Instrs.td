//===- SM100Instrs.td - What Blackwell (sm_100, sm_120) adds -*- tablegen -*-===//
//
// Blackwell decodes with sm_90's forms (Targets.td: SM90Family) and these.
// Evidence (E = our decoding of `ptxas -arch=sm_100 / sm_120` output, CUDA
// 13.0, for the corpus of test/MC/SM100/ptxas-roundtrip.test).  The
// words that still do not decode are listed in docs/targets.md.
//
// * LDCU 0x7ac: a constant-bank load into uniform registers, in every
//   kernel's prologue (`LDCU.64 UR4, c[0x0][0x358]`, the default memory
//   descriptor; sm_90: ULDC.64).  URd [16:23], [24:31] = 0xff, the byte
//   offset at [37:52] (0x358 is 0x6b00 in bits [32:63]; the parameters
//   0x380, 0x390, 0x374 likewise), bank [54:58] (0 in every word), size
//   [73:75] as LDC (.U8 0, .U16 2, 32-bit 4, .64 5, .128 6 seen; .S8 1,
//   .S16 3 as LDC's), [91] = 1 (E, 41 files each for sm_100 and sm_120).  The spelling is public Blackwell listings'.
//
//===----------------------------------------------------------------------===//

def UGPR128 : OperandType<"UGPR"> { let Width = 4; }

/// A size of LDCU: the destination type and the size modifier (one value
/// for the UR tuples, LDC's sub-word sizes for one UR).
class LdcuSize<string sfx, OperandType t, Mod sz> {
  string Sfx = sfx;
  OperandType RegT = t;
  Mod Size = sz;
}
foreach S = [LdcuSize<"", UGPR, LdcSize>,
             LdcuSize<"_64", UGPR64, Mod<[5], [".64"]>>,
             LdcuSize<"_128", UGPR128, Mod<[6], [".128"]>>] in
  def LDCU # S.Sfx :
    SM86Op<0x7ac, "LDCU${sz} $Rd, c[$Bank][$Off]", (outs S.RegT:$Rd),
           (ins S.Size:$sz, CBIdx:$Bank, CBOff:$Off), ConstLoad>,
    OnlyOn<[TargetSM100, TargetSM120, TargetSM121]> {
    bits<6> Rd;
    bits<3> sz;
    bits<5> Bank;
    bits<16> Off;
    let ReuseOperands = ["", "", "", ""];
    let Inst{21-16} = Rd;
    let Inst{23-22} = 0b00;
    let Inst{31-24} = 0xff;
    let Inst{52-37} = Off;
    let Inst{58-54} = Bank;
    let Inst{75-73} = sz;
    let Inst{91} = 1;
  }
