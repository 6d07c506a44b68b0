//===- MemoryInstrs.td - sm_86 memory instructions ----------*- tablegen -*-===//
//
// LDG, STG, LDS, STS, LDSM, LDGSTS, LDGDEPBAR, DEPBAR, LDL, STL, MEMBAR,
// ERRBAR, CCTL, LD, ST.
// Bit facts: SASS_FACTS.md 1.4 (N, T, C, R, E), and our corpus test over
// every reference TSV row of these mnemonics.
//
// Common fields: Rd [16:23], address register Ra [24:31], a signed 24-bit
// byte offset [40:63] (LDGSTS: see below), a uniform register [32:37] or
// [64:69].  Rd's width follows the access size, so every size is its own
// form (InstrInfo then gives the right register tuple).
//
//===----------------------------------------------------------------------===//

class MemInst<bits<12> op, string asm, dag outs, dag ins, SchedClass s>
    : SM86Op<op, asm, outs, ins, s> {
  bits<8> Rd;
  bits<8> Ra;
  bits<8> Rb;
  bits<6> Ur;
  bits<24> off;
}

/// An access size: [73:75] code, its spelling, and the data register type.
class MemSize<bits<3> cd, string name, string sfx, OperandType t> {
  bits<3> Code = cd;
  string Name = name;
  string Sfx = sfx;
  OperandType RegT = t;
}
def SzU8   : MemSize<0, ".U8", "U8", GPR>;
def SzS8   : MemSize<1, ".S8", "S8", GPR>;
def SzU16  : MemSize<2, ".U16", "U16", GPR>;
def SzS16  : MemSize<3, ".S16", "S16", GPR>;
def Sz32   : MemSize<4, "", "32", GPR>;
def Sz64   : MemSize<5, ".64", "64", GPR64>;
def Sz128  : MemSize<6, ".128", "128", GPR128>;
defvar MemSizes = [SzU8, SzS8, SzU16, SzS16, Sz32, Sz64, Sz128];

// [72] .E (64-bit address).  [77:80] memory order (sm_80+, N, C):
def EMod      : Mod<[0, 1], ["", ".E"]>;
def MemOrder  : Mod<[0, 4, 5, 7, 10],
                    ["", ".CONSTANT", ".STRONG.SM", ".STRONG.GPU",
                     ".STRONG.SYS"]>;
// [84:86] eviction priority (N: first, normal, last, last-use, unchanged,
// no-allocate).
def Evict     : Mod<[0, 1, 2, 3, 4, 5], [".EF", "", ".EL", ".LU", ".EU", ".NA"]>;
// [69] .LTC128B (L2 prefetch 128 B) for LDG (C).
def Ltc       : Mod<[0, 1], ["", ".LTC128B"]>;
// Address width of the 0x981/0x986 forms, [90]: .64 pair or .U32.
def AddrW     : Mod<[0, 1], [".U32", ".64"]>;

//===----------------------------------------------------------------------===//
// LDG: 0x381 (register address) and 0x981 (with a uniform register: added
// to the address when [76] = 0, a memory descriptor `desc[URx]` when [76]
// = 1; [91] = 1).  [81:83] predicate result (PT), [64:68] 0.
//===----------------------------------------------------------------------===//
class LDGInst<bits<12> op, MemSize sz, string addr, dag ains, bit desc,
              bit wide, bit hasP>
    : MemInst<op, "LDG${e}${ev}${ltc}" # sz.Name # "${ord} $Rd, " # addr #
                    !if(hasP, ", $Pl", ""),
              (outs sz.RegT:$Rd),
              !con((ins EMod:$e, Evict:$ev, Ltc:$ltc, MemOrder:$ord), ains,
                   !if(hasP, (ins PredInv:$Pl), (ins))),
              MemLoad> {
  bit e;
  bits<3> ev;
  bit ltc;
  bits<4> ord;
  bit aw;
  bits<3> Pl;
  let ReuseOperands = ["", "", "", ""];
  let Inst{23-16} = Rd;
  let Inst{31-24} = Ra;
  let Inst{63-40} = off;
  let Inst{66-64} = !if(hasP, Pl, 0b000);
  let Inst{69} = ltc;
  let Inst{72} = e;
  let Inst{75-73} = sz.Code;
  let Inst{76} = desc;
  let Inst{80-77} = ord;
  let Inst{83-81} = 0b111;
  let Inst{86-84} = ev;
  let Inst{90} = !if(wide, aw, 0);
  let Inst{91} = wide;
  let Inst{37-32} = !if(wide, Ur, 0b000000);
}
// Without a base register (Ra = RZ) nvdisasm prints `[URx+off]` and hides
// the address width [90]; both values occur in the TSVs with the same text
// (`LDG.E.64 R34, [UR16]` has 1, `LDG.U16 R9, [UR4]` 0), so there is one
// form for each (RZA: .64, RZB: .U32); the parser picks RZA.
foreach S = MemSizes in
  foreach P = [0, 1] in {
    defvar PS = !if(P, "P_", "");
    def LDG_ # PS # S.Sfx : LDGInst<0x381, S, "<$Ra+$off>",
                                    (ins MemBase:$Ra, MemOff:$off), 0, 0, P>;
    def LDG_UR_ # PS # S.Sfx : LDGInst<0x981, S, "<$Ra${aw}+$Ur+$off>",
                                       (ins MemBase:$Ra, AddrW:$aw, MemUR:$Ur,
                                            MemOff:$off), 0, 1, P>;
    foreach A = [1, 0] in
      def LDG_RZ # !if(A, "A_", "B_") # PS # S.Sfx :
        LDGInst<0x981, S, "<$Ur+$off>", (ins MemUR:$Ur, MemOff:$off), 0, 1, P> {
        let Ra = 0xff;
        let aw = A;
      }
    def LDG_DESC_ # PS # S.Sfx : LDGInst<0x981, S, "desc[$Ur]<$Ra${aw}+$off>",
                                         (ins MemDesc:$Ur, MemBase:$Ra,
                                              AddrW:$aw, MemOff:$off),
                                         1, 1, P>;
  }

//===----------------------------------------------------------------------===//
// STG: 0x386 / 0x986.  Data register Rb [32:39]; the uniform register of
// the 0x986 forms is [64:69] (C, R).
//===----------------------------------------------------------------------===//
class STGInst<bits<12> op, MemSize sz, string addr, dag ains, bit desc,
              bit wide>
    : MemInst<op, "STG${e}${ev}" # sz.Name # "${ord} " # addr # ", $Rb",
              (outs),
              !con((ins EMod:$e, Evict:$ev, MemOrder:$ord), ains,
                   !dag(ins, [sz.RegT], ["Rb"])),
              MemStore> {
  bit e;
  bits<3> ev;
  bits<4> ord;
  bit aw;
  let ReuseOperands = ["", "", "", ""];
  let Inst{31-24} = Ra;
  let Inst{39-32} = Rb;
  let Inst{63-40} = off;
  let Inst{69-64} = !if(wide, Ur, 0b000000);
  let Inst{72} = e;
  let Inst{75-73} = sz.Code;
  let Inst{76} = desc;
  let Inst{80-77} = ord;
  let Inst{86-84} = ev;
  let Inst{90} = !if(wide, aw, 0);
  let Inst{91} = wide;
}
foreach S = MemSizes in {
  def STG_ # S.Sfx : STGInst<0x386, S, "<$Ra+$off>",
                             (ins MemBase:$Ra, MemOff:$off), 0, 0>;
  // Ra = RZ: see LDG_RZA/LDG_RZB.
  foreach A = [1, 0] in
    def STG_RZ # !if(A, "A_", "B_") # S.Sfx :
      STGInst<0x986, S, "<$Ur+$off>", (ins MemUR:$Ur, MemOff:$off), 0, 1> {
      let Ra = 0xff;
      let aw = A;
    }
  def STG_UR_ # S.Sfx : STGInst<0x986, S, "<$Ra${aw}+$Ur+$off>",
                                (ins MemBase:$Ra, AddrW:$aw, MemUR:$Ur,
                                     MemOff:$off), 0, 1>;
  def STG_DESC_ # S.Sfx : STGInst<0x986, S, "desc[$Ur]<$Ra${aw}+$off>",
                                  (ins MemDesc:$Ur, MemBase:$Ra, AddrW:$aw,
                                       MemOff:$off), 1, 1>;
}

//===----------------------------------------------------------------------===//
// LDS (0x984) / STS (0x388, 0x988 with a UR): shared memory (C, R).
//   [78:79] index scale of Ra: "", .X4, .X8, .X16;  [91] UR [32:37] present
//   (LDS), STS data register Rb [32:39] and UR [64:69].
//===----------------------------------------------------------------------===//
def Scale : Mod<[0, 1, 2, 3], ["", ".X4", ".X8", ".X16"]>;
foreach S = MemSizes in
  foreach U = [0, 1] in {
    def LDS_ # !if(U, "UR_", "") # S.Sfx :
      MemInst<0x984, "LDS" # S.Name # " $Rd, " #
                !if(U, "<$Ra${sc}+$Ur+$off>", "<$Ra${sc}+$off>"),
              (outs S.RegT:$Rd),
              !con((ins MemBase:$Ra, Scale:$sc), !if(U, (ins MemUR:$Ur), (ins)),
                   (ins MemOff:$off)), MemLoad> {
      bits<2> sc;
      let ReuseOperands = ["", "", "", ""];
      let Inst{23-16} = Rd;
      let Inst{31-24} = Ra;
      let Inst{37-32} = !if(U, Ur, 0b000000);
      let Inst{63-40} = off;
      let Inst{75-73} = S.Code;
      let Inst{79-78} = sc;
      let Inst{91} = U;
    }
    def STS_ # !if(U, "UR_", "") # S.Sfx :
      MemInst<!if(U, 0x988, 0x388), "STS" # S.Name # " " #
                !if(U, "<$Ra${sc}+$Ur+$off>", "<$Ra${sc}+$off>") # ", $Rb",
              (outs),
              !con((ins MemBase:$Ra, Scale:$sc), !if(U, (ins MemUR:$Ur), (ins)),
                   (ins MemOff:$off), !dag(ins, [S.RegT], ["Rb"])),
              MemStore> {
      bits<2> sc;
      let ReuseOperands = ["", "", "", ""];
      let Inst{31-24} = Ra;
      let Inst{39-32} = Rb;
      let Inst{63-40} = off;
      let Inst{69-64} = !if(U, Ur, 0b000000);
      let Inst{75-73} = S.Code;
      let Inst{79-78} = sc;
      let Inst{91} = U;
    }
  }

//===----------------------------------------------------------------------===//
// LDSM (ldmatrix): 0x83b (N*, T, C, R 21/21, E).
//   [72:73] count: .1 (printed as nothing) 0, .2 1, .4 2 -- one form each,
//   since Rd is 1, 2 or 4 registers; [78:79] layout .M88 0, .MT88 1;
//   UR [32:37] with [91] = 1.
//===----------------------------------------------------------------------===//
def LdsmLayout : Mod<[0, 1], [".M88", ".MT88"]>;
foreach C = [[0, 1], [1, 2], [2, 4]] in
  foreach U = [0, 1] in {
    defvar N = C[1];
    def LDSM_16_ # !if(U, "UR_", "") # N :
      MemInst<0x83b, "LDSM.16${lay}" # !if(!eq(N, 1), "", "." # N) # " $Rd, " #
                !if(U, "<$Ra+$Ur+$off>", "<$Ra+$off>"),
              !cond(!eq(N, 1): (outs GPR:$Rd), !eq(N, 2): (outs GPR64:$Rd),
                    true: (outs GPR128:$Rd)),
              !con((ins LdsmLayout:$lay, MemBase:$Ra),
                   !if(U, (ins MemUR:$Ur), (ins)), (ins MemOff:$off)),
              MemLoad> {
      bits<2> lay;
      let ReuseOperands = ["", "", "", ""];
      let Inst{23-16} = Rd;
      let Inst{31-24} = Ra;
      let Inst{37-32} = !if(U, Ur, 0b000000);
      let Inst{63-40} = off;
      let Inst{73-72} = C[0];
      let Inst{79-78} = lay;
      let Inst{91} = U;
    }
  }

//===----------------------------------------------------------------------===//
// LDGSTS (cp.async): 0xfae, and 0xdae when the UR adds to the shared
// address (T, C, R, E).
//   Rs (shared address) [16:23], signed 20-bit shared offset [44:63];
//   Ra (global address) [24:31], signed 12-bit global offset [32:43];
//   UR [64:69] (desc[URx] with [76] = 1, else added; URZ left out);
//   [70] address width (.64 / .U32);  [72] .LTC128B;  [73:75] size (4 = 32,
//   5 = .64, 6 = .128);  [79] .CONSTANT;  [81] 0 = .BYPASS;  [82] .ZFILL;
//   [84:86] eviction 1;  [87:89]+[90] predicate (printed when not PT);
//   [91] = 1 in every sample.  No register result; the sources are read
//   late (ptxas gives it a read scoreboard, E).
//===----------------------------------------------------------------------===//
def Bypass   : Mod<[1, 0], ["", ".BYPASS"]>;
def LtcMod   : Mod<[0, 1], ["", ".LTC128B"]>;
def CpSize   : Mod<[4, 5, 6], ["", ".64", ".128"]>;
def ConstMod : Mod<[0, 1], ["", ".CONSTANT"]>;
def ZFill    : Mod<[0, 1], ["", ".ZFILL"]>;
class LDGSTSInst<bits<12> op, string addrs, dag ains, bit desc, bit hasP>
    : SM86Op<op, "LDGSTS.E${byp}${ltc}${sz}${cst}${zf} " # addrs #
                   !if(hasP, ", ${Ppn}$Pp", ""), (outs),
             !con((ins Bypass:$byp, LtcMod:$ltc, CpSize:$sz, ConstMod:$cst,
                       ZFill:$zf), ains,
                  !if(hasP, (ins PNot:$Ppn, Pred:$Pp), (ins))),
             MemAsyncCopy>,
      OnlyOn<[TargetSM80, TargetSM86, TargetSM89, TargetSM90]> { // SM100Instrs.td
  bits<8> Rs;
  bits<20> soff;
  bits<8> Ra;
  bits<12> goff;
  bits<6> Ur;
  bit aw;
  bit byp;
  bit ltc;
  bits<3> sz;
  bit cst;
  bit zf;
  bits<3> Pp;
  bit Ppn;
  let ReuseOperands = ["", "", "", ""];
  let Inst{23-16} = Rs;
  let Inst{31-24} = Ra;
  let Inst{43-32} = goff;
  let Inst{63-44} = soff;
  let Inst{69-64} = Ur;
  let Inst{70} = aw;
  let Inst{72} = ltc;
  let Inst{75-73} = sz;
  let Inst{76} = desc;
  let Inst{79} = cst;
  let Inst{81} = byp;
  let Inst{82} = zf;
  let Inst{86-84} = 0b001;
  let Inst{89-87} = !if(hasP, Pp, 0b111);
  let Inst{90} = !if(hasP, Ppn, 0);
  let Inst{91} = 1;
}
foreach P = [0, 1] in {
  defvar Sfx = !if(P, "_P", "");
  def LDGSTS # Sfx : LDGSTSInst<0xfae, "<$Rs+$soff>, <$Ra${aw}+$Ur+$goff>",
      (ins MemBase:$Rs, MemOff:$soff, MemBase:$Ra, AddrW:$aw, MemUROpt:$Ur,
           MemOff:$goff), 0, P>;
  def LDGSTS_DESC # Sfx : LDGSTSInst<0xfae,
      "<$Rs+$soff>, desc[$Ur]<$Ra${aw}+$goff>",
      (ins MemBase:$Rs, MemOff:$soff, MemDesc:$Ur, MemBase:$Ra, AddrW:$aw,
           MemOff:$goff), 1, P>;
  def LDGSTS_SUR # Sfx : LDGSTSInst<0xdae,
      "<$Rs+$Ur+$soff>, <$Ra${aw}+$goff>",
      (ins MemBase:$Rs, MemUR:$Ur, MemOff:$soff, MemBase:$Ra, AddrW:$aw,
           MemOff:$goff), 0, P>;
  // 0xdae with [76] = 1: the one UR field names a pair; nvdisasm prints
  // its first register on the shared side and the second as the
  // descriptor (`[R81+UR4], desc[UR5][R64.64]`, sm_80/86 TSV rows).
  def LDGSTS_SUR_DESC # Sfx : LDGSTSInst<0xdae,
      "<$Rs+$Ur+$soff>, desc[${Ur:next}]<$Ra${aw}+$goff>",
      (ins MemBase:$Rs, MemUR:$Ur, MemOff:$soff, MemBase:$Ra, AddrW:$aw,
           MemOff:$goff), 1, P>;
}

//===----------------------------------------------------------------------===//
// LDGDEPBAR (cp.async.commit_group): 0x9af, no operands (T, C, R); ptxas
// gives it a write scoreboard (E).
// DEPBAR: 0x91a (T, C, R 6/6, E).  [47] .LE, [44:46] scoreboard,
// [38:43] count, [32:37] extra scoreboards `{5,4,...}`.
//===----------------------------------------------------------------------===//
def LDGDEPBAR : SM86Op<0x9af, "LDGDEPBAR", (outs), (ins), Decoupled>;
class DEPBARInst<string asm, dag ins, bit hasSet>
    : SM86Op<0x91a, asm, (outs), ins, Barrier> {
  bits<3> sb;
  bits<6> cnt;
  bits<6> set;
  let Inst{37-32} = !if(hasSet, set, 0b000000);
  let Inst{43-38} = cnt;
  let Inst{46-44} = sb;
  let Inst{47} = 1;
}
def DEPBAR_LE : DEPBARInst<"DEPBAR.LE $sb, $cnt", (ins SBIdx:$sb, UImm:$cnt), 0>;
def DEPBAR_LE_SET : DEPBARInst<"DEPBAR.LE $sb, $cnt, $set",
                               (ins SBIdx:$sb, UImm:$cnt, SBSet:$set), 1>;

//===----------------------------------------------------------------------===//
// LDL (0x983) / STL (0x387, 0x987 with a UR): local memory (sm_86/sm_80 TSV
// rows, checked both ways by the corpus test).
//   Rd [16:23] (LDL), Ra [24:31], signed byte offset [40:63] (`[R17+-0x4]`
//   has 0xfffffc there), size [73:75] as LDG (rows of U8 U16 S16 32 64 128),
//   [84:86] eviction 1 (""), LDL also 3 (.LU); no other value in the rows.
//   LDL: UR [32:37] with [91] = 1 (`LDL R17, [R4+UR5]`); STL: data Rb
//   [32:39], UR [64:69] with [91] = 1 and opcode 0x987.
//===----------------------------------------------------------------------===//
def LocalEvict : Mod<[1, 3], ["", ".LU"]>;
// The UR forms only in the sizes whose rows or ptxas words exist (ptxas 13
// emits none of them; the TSV rows have LDL [UR] .U16 32 .64 .128 and STL
// [UR] .U8 .U16 32 .64 .128): the sign-extending UR forms are left out
// rather than kept unverified.
defvar LdlURSizes = [SzU16, Sz32, Sz64, Sz128];
defvar StlURSizes = [SzU8, SzU16, Sz32, Sz64, Sz128];
foreach U = [0, 1] in {
  foreach S = !if(U, LdlURSizes, MemSizes) in
    def LDL_ # !if(U, "UR_", "") # S.Sfx :
      MemInst<0x983, "LDL${ev}" # S.Name # " $Rd, " #
                !if(U, "<$Ra+$Ur+$off>", "<$Ra+$off>"),
              (outs S.RegT:$Rd),
              !con((ins LocalEvict:$ev, MemBase:$Ra),
                   !if(U, (ins MemUR:$Ur), (ins)), (ins MemOff:$off)),
              MemLoad> {
      bits<3> ev;
      let ReuseOperands = ["", "", "", ""];
      let Inst{23-16} = Rd;
      let Inst{31-24} = Ra;
      let Inst{37-32} = !if(U, Ur, 0b000000);
      let Inst{63-40} = off;
      let Inst{75-73} = S.Code;
      let Inst{86-84} = ev;
      let Inst{91} = U;
    }
  foreach S = !if(U, StlURSizes, MemSizes) in
    def STL_ # !if(U, "UR_", "") # S.Sfx :
      MemInst<!if(U, 0x987, 0x387), "STL" # S.Name # " " #
                !if(U, "<$Ra+$Ur+$off>", "<$Ra+$off>") # ", $Rb",
              (outs),
              !con((ins MemBase:$Ra), !if(U, (ins MemUR:$Ur), (ins)),
                   (ins MemOff:$off), !dag(ins, [S.RegT], ["Rb"])),
              MemStore> {
      let ReuseOperands = ["", "", "", ""];
      let Inst{31-24} = Ra;
      let Inst{39-32} = Rb;
      let Inst{63-40} = off;
      let Inst{69-64} = !if(U, Ur, 0b000000);
      let Inst{75-73} = S.Code;
      let Inst{86-84} = 0b001;
      let Inst{91} = U;
    }
}

//===----------------------------------------------------------------------===//
// MEMBAR 0x992: [79:80] mode .SC 0, .ALL 1, none 2 (`MEMBAR.GPU`);
// [76:77] scope .CTA 0, .GPU 2, .SYS 3 (rows MEMBAR.SC.CTA/.SC.GPU/.SC.SYS,
// .ALL.GPU/.ALL.SYS, .GPU).  ERRBAR 0x9ab: no operands.  Both are barriers:
// variable latency, exec latency 6 (SASS_FACTS 2.1/2.2, N exec_latency).
//===----------------------------------------------------------------------===//
def MembarMode  : Mod<[0, 1, 2], [".SC", ".ALL", ""]>;
def MembarScope : Mod<[0, 2, 3], [".CTA", ".GPU", ".SYS"]>;
def MEMBAR : SM86Op<0x992, "MEMBAR${mode}${scope}", (outs),
                    (ins MembarMode:$mode, MembarScope:$scope), Barrier> {
  bits<2> mode;
  bits<2> scope;
  let ReuseOperands = ["", "", "", ""];
  let Inst{77-76} = scope;
  let Inst{80-79} = mode;
}
def ERRBAR : SM86Op<0x9ab, "ERRBAR", (outs), (ins), Barrier> {
  let ReuseOperands = ["", "", "", ""];
}

//===----------------------------------------------------------------------===//
// CCTL 0x98f: cache control.  Ra [24:31] (no offset in any row), [72] .E,
// [87:90] op .PF1 0, .IV 3, .IVALL 4 (no address: Ra = RZ, not printed);
// rows CCTL.E.PF1 [R10], CCTL.E.IV [R188], CCTL.IVALL.  No result; timed
// as a barrier (SASS_FACTS 2.2: exec latency 11).
//===----------------------------------------------------------------------===//
def CctlOp : Mod<[0, 3], [".PF1", ".IV"]>;
def CCTL : MemInst<0x98f, "CCTL${e}${cop} <$Ra>", (outs),
                   (ins EMod:$e, CctlOp:$cop, MemBase:$Ra), Barrier> {
  bit e;
  bits<4> cop;
  let ReuseOperands = ["", "", "", ""];
  let Inst{31-24} = Ra;
  let Inst{72} = e;
  let Inst{90-87} = cop;
}
def CCTL_IVALL : SM86Op<0x98f, "CCTL.IVALL", (outs), (ins), Barrier> {
  let ReuseOperands = ["", "", "", ""];
  let Inst{31-24} = 0b11111111;
  let Inst{90-87} = 0b0100;
}

//===----------------------------------------------------------------------===//
// LD (0x980) / ST (0x385, 0x985 with a UR): generic memory (sm_86/sm_80 TSV
// rows, checked both ways by the corpus test).  The fields are LDG's/STG's
// ([72] .E, [73:75] size, [76] desc, [77:80] order, [90] address width,
// [91] UR present; LD's UR [32:37], ST's data Rb [32:39] and UR [64:69]),
// but: one opcode for LD with and without a UR; [81:83] = 0 (LDG: 7);
// [84:86] = 1 in every row (no eviction modifier); without a UR the base
// prints without its width (`LD.E R10, [R24]`); orders .STRONG.SM/.GPU/
// .SYS only.  `[URx]` hides [90] as for LDG (RZA/RZB forms).
// Without a UR ([91] = 0) the layout moves: the offset is at [32:55] and
// ST's data register at [64:71] (`ST [R7], R4`: 4 there; `LD.E.128 R40,
// [R46+0x100]`: 0x100 at [32:55]).  Those rows have only non-negative
// offsets below 0x1000, so the field's width and sign are unknown: it is
// taken as unsigned [32:55] with [56:63] = 0 (a word with any of [56:63]
// set does not decode).
//===----------------------------------------------------------------------===//
def GenOffU : OperandType<"MemOffset"> { let Optional = 1; }
def GenOrder : Mod<[0, 5, 7, 10],
                   ["", ".STRONG.SM", ".STRONG.GPU", ".STRONG.SYS"]>;
class LDInst<MemSize sz, string addr, dag ains, bit desc, bit wide>
    : MemInst<0x980, "LD${e}" # sz.Name # "${ord} $Rd, " # addr,
              (outs sz.RegT:$Rd),
              !con((ins EMod:$e, GenOrder:$ord), ains), MemLoad> {
  bit e;
  bits<4> ord;
  bit aw;
  let ReuseOperands = ["", "", "", ""];
  let Inst{23-16} = Rd;
  let Inst{31-24} = Ra;
  let Inst{37-32} = !if(wide, Ur, off{5-0});
  let Inst{55-38} = !if(wide, {off{15-0}, 0b00}, off{23-6});
  let Inst{63-56} = !if(wide, off{23-16}, 0b00000000);
  let Inst{72} = e;
  let Inst{75-73} = sz.Code;
  let Inst{76} = desc;
  let Inst{80-77} = ord;
  let Inst{86-84} = 0b001;
  let Inst{90} = !if(wide, aw, 0);
  let Inst{91} = wide;
}
class STInst<bits<12> op, MemSize sz, string addr, dag ains, bit desc,
             bit wide>
    : MemInst<op, "ST${e}" # sz.Name # "${ord} " # addr # ", $Rb", (outs),
              !con((ins EMod:$e, GenOrder:$ord), ains,
                   !dag(ins, [sz.RegT], ["Rb"])), MemStore> {
  bit e;
  bits<4> ord;
  bit aw;
  let ReuseOperands = ["", "", "", ""];
  let Inst{31-24} = Ra;
  let Inst{39-32} = !if(wide, Rb, off{7-0});
  let Inst{55-40} = !if(wide, off{15-0}, off{23-8});
  let Inst{63-56} = !if(wide, off{23-16}, 0b00000000);
  let Inst{69-64} = !if(wide, Ur, Rb{5-0});
  let Inst{71-70} = !if(wide, 0b00, Rb{7-6});
  let Inst{72} = e;
  let Inst{75-73} = sz.Code;
  let Inst{76} = desc;
  let Inst{80-77} = ord;
  let Inst{86-84} = 0b001;
  let Inst{90} = !if(wide, aw, 0);
  let Inst{91} = wide;
}
// Each address form only in the sizes its TSV rows or ptxas words show (the
// others would be unverified combinations): desc[] every size (ptxas
// 13, test/MC/Inputs/generic_memory.ptx); [Rx] LD .U8 32 .64 .128, ST .U8
// 32 .64; [Rx.64+URy] LD .U8, ST .U8 .64; [URx] .64 with [90] = 1 (RZA),
// 32 and .64 with [90] = 0 (RZB).
class GenSizes<list<MemSize> plain, list<MemSize> ur, list<MemSize> rza,
               list<MemSize> rzb> {
  list<MemSize> Plain = plain;
  list<MemSize> UR = ur;
  list<MemSize> RZA = rza;
  list<MemSize> RZB = rzb;
}
defvar LDSizes = GenSizes<[SzU8, Sz32, Sz64, Sz128], [SzU8], [Sz64],
                          [Sz32, Sz64]>;
defvar STSizes = GenSizes<[SzU8, Sz32, Sz64], [SzU8, Sz64], [Sz64],
                          [Sz32, Sz64]>;
foreach S = LDSizes.Plain in
  def LD_ # S.Sfx : LDInst<S, "<$Ra+$off>", (ins MemBase:$Ra, GenOffU:$off),
                           0, 0>;
foreach S = LDSizes.UR in
  def LD_UR_ # S.Sfx : LDInst<S, "<$Ra${aw}+$Ur+$off>",
                              (ins MemBase:$Ra, AddrW:$aw, MemUR:$Ur,
                                   MemOff:$off), 0, 1>;
foreach A = [1, 0] in
  foreach S = !if(A, LDSizes.RZA, LDSizes.RZB) in
    def LD_RZ # !if(A, "A_", "B_") # S.Sfx :
      LDInst<S, "<$Ur+$off>", (ins MemUR:$Ur, MemOff:$off), 0, 1> {
      let Ra = 0xff;
      let aw = A;
    }
foreach S = MemSizes in
  def LD_DESC_ # S.Sfx : LDInst<S, "desc[$Ur]<$Ra${aw}+$off>",
                                (ins MemDesc:$Ur, MemBase:$Ra, AddrW:$aw,
                                     MemOff:$off), 1, 1>;
foreach S = STSizes.Plain in
  def ST_ # S.Sfx : STInst<0x385, S, "<$Ra+$off>",
                           (ins MemBase:$Ra, GenOffU:$off), 0, 0>;
foreach S = STSizes.UR in
  def ST_UR_ # S.Sfx : STInst<0x985, S, "<$Ra${aw}+$Ur+$off>",
                              (ins MemBase:$Ra, AddrW:$aw, MemUR:$Ur,
                                   MemOff:$off), 0, 1>;
foreach A = [1, 0] in
  foreach S = !if(A, STSizes.RZA, STSizes.RZB) in
    def ST_RZ # !if(A, "A_", "B_") # S.Sfx :
      STInst<0x985, S, "<$Ur+$off>", (ins MemUR:$Ur, MemOff:$off), 0, 1> {
      let Ra = 0xff;
      let aw = A;
    }
foreach S = MemSizes in
  def ST_DESC_ # S.Sfx : STInst<0x985, S, "desc[$Ur]<$Ra${aw}+$off>",
                                (ins MemDesc:$Ur, MemBase:$Ra, AddrW:$aw,
                                     MemOff:$off), 1, 1>;
