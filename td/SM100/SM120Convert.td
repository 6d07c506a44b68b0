//===- SM120Convert.td - sm_120's uniform conversions ------*- tablegen -*-===//
//
// sm_120 and sm_121 convert uniform values in the uniform datapath: UF2F
// 0x25b, UI2F 0x25a and UF2I 0x25c, a uniform destination [16:23] and a
// uniform source in the B slot [32:39] (8-bit fields, URZ 0xff:
// SM100Uniform.td), [24:31] = 0, [91] = 1, fixed latency (no scoreboard
// in any word).  The type and rounding fields are those of the vector
// F2F, I2F and F2I (FloatInstrs.td) at the same bits.  Evidence (E = our
// decoding of `ptxas -arch=sm_120` output, CUDA 13.0; the words of
// test/MC/Inputs/float_forms.ptx and uniform_sources.ptx):
//
// * UF2F 0x25b: [75:77] destination, [84:85] source, [78:79] rounding
//   (`cvt.rn.f16.f32` `UF2F.F16.F32 UR7, UR8` 0x000fe20008200800_
//   000000080007725b, `cvt.rz.f16.f32` `UF2F.F16.F32.RZ UR6, UR4`
//   0x000fe2000820c800_000000040006725b).
// * UI2F 0x25a: [74] + [84:85] integer source, [75:76] destination,
//   [78:79] rounding (`cvt.rn.f32.s16` `UI2F.S16 UR4, UR8` 0x000fe200081014
//   00_000000080004725a, `cvt.rn.f32.u8` `UI2F.U8 UR6, UR6`
//   0x000fcc0008001000_000000060006725a).
// * UF2I 0x25c: [72] + [75:76] integer destination, [77] .NTZ, [78:79]
//   rounding, [84:85] source (`cvt.rzi.s32.f32` `UF2I.TRUNC.NTZ UR10,
//   UR14` 0x020fcc000820f100_0000000e000a725c, `cvt.rmi.u32.f32`
//   `UF2I.U32.FLOOR.NTZ UR11, UR9` 0x000fe40008207000_00000009000b725c).
//
// Only an F32 or F16 side and 8- to 32-bit integers: no word shows an
// F64 or 64-bit side (the vector ops use another opcode for those, so
// these do not take them), nor the source selectors ([60:61]), negate or
// absolute value ([62:63]), .FTZ ([80]): those bits must be 0 here, so a
// word with one of them is reported, never misprinted.  The types and
// roundings no word shows are inferred from the vector siblings' fields.
// The spellings are the vector ops' with a U, as for every uniform op.
//
//===----------------------------------------------------------------------===//

/// A uniform conversion: UR destination, UR source in the B slot.
class UCvtInst<bits<9> op, string asm, dag ins>
    : SM86ALU<op, 1, asm, (outs UGPR:$Rd), ins, UniformALU>,
      OnlyOn<ConsumerBlackwell> {
  bits<8> Rd;
  bits<8> Rb;
  let ReuseOperands = ["", "", "", ""];
  let UniformGuard = 1;
  let Inst{23-16} = Rd;
  let Inst{39-32} = Rb;
  let Inst{91} = 1;
}

def UF2F_rrr : UCvtInst<0x05b, "UF2F${dst}${src}${rnd} $Rd, $Rb",
                        (ins F2FDstN:$dst, F2FSrcN:$src, RndMod:$rnd,
                             UGPR:$Rb)> {
  bits<3> dst;
  bits<2> src;
  bits<2> rnd;
  let Inst{77-75} = dst;
  let Inst{85-84} = src;
  let Inst{79-78} = rnd;
}

def UI2FSrc : Mod<[0, 1, 2, 3, 4, 5], [".U8", ".S8", ".U16", ".S16", ".U32",
                                       ""]>;
def UI2F_rrr : UCvtInst<0x05a, "UI2F${dst}${src}${rnd} $Rd, $Rb",
                        (ins I2FDstN:$dst, UI2FSrc:$src, RndMod:$rnd,
                             UGPR:$Rb)> {
  bits<2> dst;
  bits<3> src;
  bits<2> rnd;
  let Inst{74} = src{0};
  let Inst{85-84} = src{2-1};
  let Inst{76-75} = dst;
  let Inst{79-78} = rnd;
}

def UF2I_rrr : UCvtInst<0x05c, "UF2I${dst}${src}${rnd}${ntz} $Rd, $Rb",
                        (ins F2IDstN:$dst, F2ISrcN:$src, F2IRnd:$rnd,
                             NtzMod:$ntz, UGPR:$Rb)> {
  bits<3> dst;
  bits<2> src;
  bits<2> rnd;
  bit ntz;
  let Inst{72} = dst{0};
  let Inst{76-75} = dst{2-1};
  let Inst{77} = ntz;
  let Inst{79-78} = rnd;
  let Inst{85-84} = src;
}
