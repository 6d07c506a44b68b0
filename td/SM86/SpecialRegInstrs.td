//===- SpecialRegInstrs.td - S2R, CS2R, S2UR ----------------*- tablegen -*-===//
//
// Special-register reads.  SR index [72:79] (N, T, C, R).  The names are
// those the reference TSVs show with their index (our extraction over the
// sm_75/80/86 rows); other indices decode as unknown.
//
//===----------------------------------------------------------------------===//

class SRegT<list<int> v, list<string> n> : OperandType<"SReg"> {
  let Values = v;
  let Names = n;
}
def SRName : SRegT<
  [0x00, 0x03, 0x21, 0x22, 0x23, 0x25, 0x26, 0x27, 0x38, 0x39, 0x3a, 0x3b,
   0x3c, 0x43, 0x50, 0x51, 0x52, 0x53, 0x88, 0x2f],
  ["SR_LANEID", "SR_VIRTID", "SR_TID.X", "SR_TID.Y", "SR_TID.Z",
   "SR_CTAID.X", "SR_CTAID.Y", "SR_CTAID.Z", "SR_EQMASK", "SR_LTMASK",
   "SR_LEMASK", "SR_GTMASK", "SR_GEMASK", "SR_VIRTUALSMID", "SR_CLOCKLO",
   "SR_CLOCKHI", "SR_GLOBALTIMERLO", "SR_GLOBALTIMERHI",
   "SR_CgaCtaId",  // 0x88: sm_90's CTA id in its cluster (E; SASS_FACTS 1.5)
   "SR_SWINHI"]>;  // 0x2f: sm_90's shared window (ld.shared::cluster; E,
                   // test/MC/SM90A/Inputs/cluster.ptx, HOPPER_FACTS 1.2)
// CS2R reads SR_CLOCKLO, SR_GLOBALTIMERLO, the PM counters, or SRZ (255:
// zero a register pair, as ptxas does for accumulators).
def CSRName : SRegT<
  [0x50, 0x52, 0x64, 0x66, 0x68, 0x6a, 0xff],
  ["SR_CLOCKLO", "SR_GLOBALTIMERLO", "SR_PM0", "SR_PM1", "SR_PM2", "SR_PM3",
   "SRZ"]>;

// S2R 0x919: variable latency (N needs_scoreboards; E: ptxas gives W1).
def S2R : SM86Op<0x919, "S2R $Rd, $sr", (outs GPR:$Rd), (ins SRName:$sr),
                 Decoupled> {
  bits<8> Rd;
  bits<8> sr;
  let ReuseOperands = ["", "", "", ""];
  let Inst{23-16} = Rd;
  let Inst{79-72} = sr;
}
// S2UR 0x9c3: uniform destination.
def S2UR : SM86Op<0x9c3, "S2UR $Ud, $sr", (outs UGPR:$Ud), (ins SRName:$sr),
                  Decoupled> {
  bits<6> Ud;
  bits<8> sr;
  let ReuseOperands = ["", "", "", ""];
  let Inst{21-16} = Ud;
  let Inst{79-72} = sr;
}
// CS2R 0x805: [80] = 1 for the 64-bit form (a register pair), 0 for .32.
// Fixed latency (N).
def CS2R : SM86Op<0x805, "CS2R $Rd, $sr", (outs GPR64:$Rd), (ins CSRName:$sr),
                  CS2RSched> {
  bits<8> Rd;
  bits<8> sr;
  let ReuseOperands = ["", "", "", ""];
  let Inst{23-16} = Rd;
  let Inst{79-72} = sr;
  let Inst{80} = 1;
}
def CS2R_32 : SM86Op<0x805, "CS2R.32 $Rd, $sr", (outs GPR:$Rd),
                     (ins CSRName:$sr), CS2RSched> {
  bits<8> Rd;
  bits<8> sr;
  let ReuseOperands = ["", "", "", ""];
  let Inst{23-16} = Rd;
  let Inst{79-72} = sr;
}
