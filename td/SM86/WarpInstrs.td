//===- WarpInstrs.td - sm_86 warp data exchange -------------*- tablegen -*-===//
//
// SHFL, REDUX, MATCH.  Every bit below is read off the reference TSV rows
// (sm_86 and sm_80 encodings.tsv, checked both ways by the corpus test);
// SASS_FACTS 2.1 (N needs_scoreboards) puts SHFL with the memory ops (variable
// latency, a write scoreboard for Rd and Pd).
//
//===----------------------------------------------------------------------===//

//===----------------------------------------------------------------------===//
// SHFL: Pd [81:83] (PT = 7), Rd [16:23], value Ra [24:31].
//   Opcode by source kinds (lane B, clamp/mask C):
//     0x389  B register [32:39], C register [64:71]
//     0x589  B register [32:39], C immediate 13 bits [40:52]
//     0x989  B immediate 5 bits [53:57], C register [64:71]
//     0xf89  B immediate [53:57], C immediate [40:52]
//   (`SHFL.DOWN P0, R0, R9, 0x1, 0x1e01` = 0xf89 with 0x3e01 in [40:53]:
//   lane 1 at [53], 0x1e01 below it; `SHFL.IDX PT, R72, R71, RZ, 0x101f`
//   has 0x101f at [40:52] and RZ at [32:39].)
//   [58:59] mode: .IDX 0, .UP 1, .DOWN 2, .BFLY 3 (rows of all four).
//===----------------------------------------------------------------------===//
def ShflMode : Mod<[0, 1, 2, 3], [".IDX", ".UP", ".DOWN", ".BFLY"]>;
foreach BI = [0, 1] in
  foreach CI = [0, 1] in
    def SHFL_ # !if(BI, "i", "r") # !if(CI, "i", "r") :
      SM86Op<!cond(!and(BI, CI): 0xf89, BI: 0x989, CI: 0x589, true: 0x389),
             "SHFL${mode} $Pd, $Rd, $Ra, " # !if(BI, "$lane", "$Rb") # ", " #
               !if(CI, "$cmask", "$Rc"),
             (outs Pred:$Pd, GPR:$Rd),
             !con((ins ShflMode:$mode, GPR:$Ra),
                  !if(BI, (ins UImm:$lane), (ins GPR:$Rb)),
                  !if(CI, (ins UImm:$cmask), (ins GPR:$Rc))),
             Shuffle> {
      bits<3> Pd;
      bits<8> Rd;
      bits<8> Ra;
      bits<8> Rb;
      bits<8> Rc;
      bits<5> lane;
      bits<13> cmask;
      bits<2> mode;
      let ReuseOperands = ["", "", "", ""];
      let Inst{23-16} = Rd;
      let Inst{31-24} = Ra;
      let Inst{39-32} = !if(BI, 0b00000000, Rb);
      let Inst{52-40} = !if(CI, cmask, 0b0000000000000);
      let Inst{57-53} = !if(BI, lane, 0b00000);
      let Inst{59-58} = mode;
      let Inst{71-64} = !if(CI, 0b00000000, Rc);
      let Inst{83-81} = Pd;
    }

//===----------------------------------------------------------------------===//
// REDUX 0x3c4: warp reduction into a uniform register.  URd [16:21], Ra
// [24:31]; [73] .S32; [78:80] op: AND 0 (printed as nothing: `REDUX UR5,
// R8`), OR 1, XOR 2, SUM 3, MIN 4, MAX 5 (rows of each; MIN/MAX only with
// .S32).  Variable latency (SASS_FACTS 2.1: REDUX needs a scoreboard).
//===----------------------------------------------------------------------===//
def ReduxOp   : Mod<[0, 1, 2, 3, 4, 5],
                    ["", ".OR", ".XOR", ".SUM", ".MIN", ".MAX"]>;
def ReduxType : Mod<[0, 1], ["", ".S32"]>;
def REDUX : SM86Op<0x3c4, "REDUX${rop}${ty} $Rd, $Ra", (outs UGPR:$Rd),
                   (ins ReduxOp:$rop, ReduxType:$ty, GPR:$Ra), Decoupled> {
  bits<6> Rd;
  bits<8> Ra;
  bits<3> rop;
  bit ty;
  let ReuseOperands = ["", "", "", ""];
  let Inst{21-16} = Rd;
  let Inst{31-24} = Ra;
  let Inst{73} = ty;
  let Inst{80-78} = rop;
}

//===----------------------------------------------------------------------===//
// MATCH 0x3a1: Rd [16:23], Ra [24:31]; [73] .U64 (Ra a pair); [79] = 1 is
// .ANY, the only mode in the rows; [81:83] = 7 (no predicate result
// printed).  Variable latency (SASS_FACTS 2.1).
//===----------------------------------------------------------------------===//
foreach W = [32, 64] in
  def MATCH_ANY_ # W :
    SM86Op<0x3a1, "MATCH.ANY" # !if(!eq(W, 64), ".U64", "") # " $Rd, $Ra",
           (outs GPR:$Rd), !if(!eq(W, 64), (ins GPR64:$Ra), (ins GPR:$Ra)),
           Decoupled> {
    bits<8> Rd;
    bits<8> Ra;
    let ReuseOperands = ["", "", "", ""];
    let Inst{23-16} = Rd;
    let Inst{31-24} = Ra;
    let Inst{73} = !eq(W, 64);
    let Inst{79} = 1;
    let Inst{83-81} = 0b111;
  }
