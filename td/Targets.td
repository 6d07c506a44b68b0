//===- Targets.td - The GPUs that share this instruction set -*- tablegen -*-===//
//
// The Volta-family word (SM86/SM86InstrFormats.td) is shared by sm_80, sm_86,
// sm_89, sm_90 and Blackwell's sm_100, sm_120 and sm_121.  A form exists on every target unless it mixes in OnlyOn; where
// a target encodes a form differently, a def mixing in EncodingOn gives that
// target's encoding of the form (same operands, same AsmString, other bits).
// tp-tblgen emits one encoding and one decoder table per target; the C++
// API takes a tp::sass::Target (default SM86), so the Opcode enum -- and
// every pass that builds instructions -- is the same for all targets.
//
//===----------------------------------------------------------------------===//

/// One target.  The enum name is derived from Name ("sm_90" -> SM90); CPUs
/// lists the -mcpu spellings that select it.  IsDefault marks the target
/// the API defaults to (Target(0), sm_86); the others follow by SM.
///
/// The other fields are the target's facts of the programming model and
/// the cubin, read everywhere through sass::getTargetInfo (generated):
///   ParamBase        first kernel parameter in constant bank 0
///                    (SASS_FACTS 3.7: c[0x0][0x160] Ampere, 0x210 Hopper)
///   DescriptorSlot   the default 64-bit global memory descriptor,
///                    `ULDC.64 UR4, c[0x0][slot]` (SASS_FACTS 3.7, E)
///   ReservedSharedBytes  the start of a CTA's shared window the system
///                    keeps: .nv.shared.K is this much larger and the
///                    kernel's data starts there (SASS_FACTS 3.3 / 3.8)
///   ELFFlagsBase     e_flags = ELFFlagsBase | sm << 8 (SASS_FACTS 3.1:
///                    0x06005604 for sm_86)
///   MaxSharedBytesPerBlock  the most shared memory (static + dynamic) one
///                    block may use, the admission limit
///   MaxRegisters     registers per thread (R0..R254; REGCOUNT <= 255)
///   RegCountInTextInfo  .text.K sh_info carries regs << 24 (sm_80/86)
///   Attr5F           the value of the unnamed .nv.info attribute 0x5f (E)
///   GemmCodeGen      tp-llc builds the GEMM for the target and tp-sim runs
///                    its cubins: the hardware has mma.sync, ldmatrix and
///                    cp.async (PTX ISA: sm_80 and later) and tp reproduces
///                    its encodings and its cubin layout (Blackwell: not
///                    yet, so 0 there)
///   SharedCapacityNote  MaxSharedBytesPerBlock as the source spells it
///                    ("100 KiB - 2 KiB", "163 KiB"), for messages
///   CB0*             constant bank 0's launch values: where ptxas's code
///                    of the target reads each one (`c[0x0][off]`), which
///                    is where the driver writes it and tp-sim fills it;
///                    NoCB0Slot where the target's code reads it from no
///                    fixed slot of bank 0.  Evidence: ptxas 13 on
///                    test/Sim/cb0-layout.test's kernels (one special
///                    register each) built for every target, SASS_FACTS
///                    3.7 (sm_8x/sm_90).  32-bit unless said otherwise:
///     CB0NTid          %ntid.x, .y, .z (three words)
///     CB0NCtaid        %nctaid.x, .y, .z (three words)
///     CB0StackPointer  the initial stack pointer, the top of the thread's
///                      local memory (every kernel's first instruction
///                      loads it into R1)
///     CB0DynamicSharedBytes  %dynamic_smem_size
///     CB0GridId        %gridid (64-bit)
///     CB0NSMId         %nsmid
///     CB0ReservedSharedBytes  the shared bytes the system reserves per
///                      CTA: ptxas computes %total_smem_size as the shared
///                      window's size (S2R SR 0x32) less this word
///     CB0ClusterNCtaid  %cluster_nctaid.x, .y, .z (three words, sm_90+)
///     CB0ClusterNCtaidRcp  1.0f / %cluster_nctaid.x, .y, .z as binary32
///                      (three words: ptxas computes %cluster_ctaid and
///                      %clusterid as ctaid * this, truncated)
///     CB0NClusterId    %nclusterid.x, .y, .z (three words)
///     CB0ClusterNCtaRank  %cluster_nctarank
///                    Blackwell reads %dynamic_smem_size and the cluster
///                    values as c[0x0][R + off], R = -0xa0 times a special
///                    register (CS2R R, SR 0x8a) that tp-mc does not
///                    decode yet; the offsets below are those of index 0.
///   TileCard, TileCardSMs  the card whose multiprocessors the automatic
///                    tile's grid covers (tp-tile's sms default) and its
///                    SM count.  The SM count is a fact of a card, not of
///                    the instruction set: this is the one place that
///                    picks, per target, the card the default tile is
///                    sized for (PERF_FACTS.md section 1: A100 108 SMs,
///                    RTX 3090 82, H100 SXM and H200 132; the RTX 4090's
///                    128 from NVIDIA's Ada Lovelace architecture
///                    whitepaper: PERF_FACTS.md has no Ada card)
/// A launch value the target's code reads from no fixed slot of constant
/// bank 0 (beyond its 64 KiB, so no slot can be it).
defvar NoCB0Slot = 0x10000;

class SASSTarget<string name, int sm, list<string> cpus> {
  string Name = name;
  int SM = sm;
  list<string> CPUs = cpus;
  bit IsDefault = 0;
  int ParamBase = 0x160;
  int DescriptorSlot = 0x118;
  int ReservedSharedBytes = 0;
  int ELFFlagsBase = 0x06000004;
  int MaxSharedBytesPerBlock = ?;
  int MaxRegisters = 255;
  bit RegCountInTextInfo = 1;
  int Attr5F = 0;
  bit GemmCodeGen = 0;
  string SharedCapacityNote = ?;
  string TileCard = ?;
  int TileCardSMs = ?;
  // Constant bank 0, Ampere's layout (SASS_FACTS 3.7; ptxas 13 -arch=sm_80,
  // sm_86, sm_89 on test/Sim/cb0-layout.test).  No clusters before sm_90.
  int CB0NTid = 0x0;
  int CB0NCtaid = 0xc;
  int CB0StackPointer = 0x28;
  int CB0DynamicSharedBytes = 0x2c;
  int CB0GridId = 0x30;
  int CB0NSMId = 0x10c;
  int CB0ReservedSharedBytes = 0x114;
  int CB0ClusterNCtaid = NoCB0Slot;
  int CB0ClusterNCtaidRcp = NoCB0Slot;
  int CB0NClusterId = NoCB0Slot;
  int CB0ClusterNCtaRank = NoCB0Slot;
}
// Shared memory: 100 KiB per SM on sm_86 (PERF_FACTS 2: Accel-Sim's
// -gpgpu_shmem_size 102400, the CUDA guide); tp admits 100 KiB - 2 KiB =
// 100352 bytes per block (docs DESIGN 1: the driver reserves 1 KiB per
// resident block, and tp leaves room for two).
def TargetSM86 : SASSTarget<"sm_86", 86, ["sm_86"]> {
  let IsDefault = 1;
  let MaxSharedBytesPerBlock = 100352;
  let GemmCodeGen = 1;
  let SharedCapacityNote = "100 KiB - 2 KiB";
  let TileCard = "RTX 3090";
  let TileCardSMs = 82;
}
// sm_80 (A100) encodes every form as sm_86 does: SASS_FACTS.md 1.1, every
// sm_80 TSV row (shared/reference/sm_80.encodings.tsv) and every word
// ptxas -arch=sm_80 emits for the corpus (test/MC/SM80/ptxas-roundtrip.test).
// Its cubins are laid out as sm_86's, e_flags 0x06005004 (ptxas 13,
// test/Object/sass-roundtrip-sm80-ptxas.test).  Shared memory: 163 KiB =
// 166912 bytes per block (CUDA C++ Programming Guide, compute capability
// 8.0; 164 KiB per SM), tp-admit's limit.  tp-llc generates sm_86's code
// for it (the instructions, parameter base 0x160 and descriptor slot 0x118
// are sm_86's: ptxas -arch=sm_80 on the reference GEMMs) and tp-sim runs it
// with sm_86's semantics; its latency table is its own
// (LatencyModel.cpp, test/Sim/latency-evidence-sm80-sm89.test).
def TargetSM80 : SASSTarget<"sm_80", 80, ["sm_80"]> {
  let MaxSharedBytesPerBlock = 166912;
  let GemmCodeGen = 1;
  let SharedCapacityNote = "163 KiB";
  let TileCard = "A100";
  let TileCardSMs = 108;
}
// sm_89 (Ada: RTX 40, L4, L40S): sm_86's encodings for every word ptxas
// -arch=sm_89 emits for the corpus (test/MC/SM89/ptxas-roundtrip.test; no
// form moves), sm_86's cubin layout with e_flags 0x06005904 (ptxas 13,
// test/Object/sass-roundtrip-sm89-ptxas.test).  Shared memory: 99 KiB =
// 101376 bytes per block (CUDA C++ Programming Guide, compute capability
// 8.9; 100 KiB per SM), tp-admit's limit.  tp-llc generates sm_86's code
// for it and tp-sim runs it with sm_86's semantics and latencies (ptxas's
// sm_89 schedules are sm_86's: test/Sim/latency-evidence-sm80-sm89.test).
def TargetSM89 : SASSTarget<"sm_89", 89, ["sm_89"]> {
  let MaxSharedBytesPerBlock = 101376;
  let GemmCodeGen = 1;
  let SharedCapacityNote = "99 KiB";
  let TileCard = "RTX 4090";
  let TileCardSMs = 128;
}
// E, mma_tile_sm90.cubin (SASS_FACTS 3.3, 3.7).  Shared memory: 228 KiB
// per SM (PERF_FACTS 2), of which 227 KiB = 232448 bytes one block may use
// (CUDA C++ Programming Guide, compute capability 9.0).
def TargetSM90 : SASSTarget<"sm_90", 90, ["sm_90", "sm_90a"]> {
  let ParamBase = 0x210;
  let DescriptorSlot = 0x208;
  let ReservedSharedBytes = 0x400;
  let MaxSharedBytesPerBlock = 232448;
  let RegCountInTextInfo = 0;
  let Attr5F = 0x101;
  let GemmCodeGen = 1;
  let SharedCapacityNote = "227 KiB";
  let TileCard = "H100/H200";
  let TileCardSMs = 132;
  // ptxas 13 -arch=sm_90 (test/Sim/cb0-layout.test): Ampere's slots up to
  // 0x114; the cluster values at 0x144..0x188 (SASS_FACTS 3.7: "cluster
  // fields 0x13c..0x188").
  let CB0ClusterNCtaid = 0x144;
  let CB0ClusterNCtaidRcp = 0x150;
  let CB0NClusterId = 0x15c;
  let CB0ClusterNCtaRank = 0x188;
}

// Blackwell: sm_100 (B200, B300), sm_120 (RTX 50), sm_121 (GB10).  ptxas 13
// builds them; tp-mc decodes their words with sm_90's forms, Blackwell's
// encodings of the uniform forms (8-bit uniform register fields, URZ
// 0xff) and the forms only Blackwell has (td/SM100): every word of the
// corpus on sm_100, sm_120 and sm_121 decodes and re-encodes to
// the same 128 bits (test/MC/SM100, test/MC/SM120; docs/targets.md lists
// the rest).  Cubins: e_flags 0x06000002 | sm << 8 (ptxas 13: 0x06006402,
// 0x06007802, 0x06007902), sm_90's layout plus the Mercury copy of each
// kernel (lib/Object/CubinLayout.cpp; the Mercury code is copied, not
// modelled).  Parameters at c[0x0][0x380], the
// default descriptor at c[0x0][0x358] (ptxas 13: `LDC.64 R2,
// c[0x0][0x380]`, `LDCU.64 UR4, c[0x0][0x358]`); the reserved shared
// window is 0x400 as on sm_90 (.nv.shared.K sizes).  Shared memory per
// block (CUDA C++ Programming Guide, compute capability 10.0 and 12.0):
// 227 KiB (sm_100), 99 KiB (sm_120); sm_121 by the seed's rule 100 KiB
// less 2 KiB.  tp-llc generates sm_90's code for them with the forms
// Blackwell has instead (LDCU.64 for the descriptor, Blackwell's LDGSTS:
// tp-select picks them by sass::isAvailable) and writes a cubin without
// the Mercury sections (docs/targets.md: whether the driver loads it is
// not verified); tp-sim runs them with sm_90's semantics plus those forms'.
// Register file: 64K 32-bit registers per SM, 255 a thread, as sm_90
// (CUDA C++ Programming Guide, compute capabilities 10.0 and 12.0).
//
// The card of the automatic tile: PERF_FACTS.md cites no SM count of a
// B200, RTX 50 or GB10 card, so each keeps a cited rule of an earlier
// target: sm_100 sm_90's (132 SMs), sm_120 and sm_121 sm_86's (the RTX
// 3090's 82).
class BlackwellTarget<string name, int sm, int shared, string sharedNote,
                      string card, int cardSMs>
    : SASSTarget<name, sm, [name]> {
  let ParamBase = 0x380;
  let DescriptorSlot = 0x358;
  let ReservedSharedBytes = 0x400;
  let ELFFlagsBase = 0x06000002;
  let MaxSharedBytesPerBlock = shared;
  let RegCountInTextInfo = 0;
  let Attr5F = 0x101;
  let GemmCodeGen = 1;
  let SharedCapacityNote = sharedNote;
  let TileCard = card;
  let TileCardSMs = cardSMs;
  // Constant bank 0 moves (ptxas 13 -arch=sm_100, sm_120, sm_121 on
  // test/Sim/cb0-layout.test: `LDC R1, c[0x0][0x37c]` first, ntid at
  // 0x360, nctaid at 0x370, gridid 0x140, nsmid 0x2d0; the indexed ones at
  // R + 0x2ac (dynamic shared), 0x2a0, 0x2c0, 0x2cc (cluster); the
  // reciprocals through a uniform index tp-mc does not decode: none).
  let CB0NTid = 0x360;
  let CB0NCtaid = 0x370;
  let CB0StackPointer = 0x37c;
  let CB0DynamicSharedBytes = 0x2ac;
  let CB0GridId = 0x140;
  let CB0NSMId = 0x2d0;
  let CB0ReservedSharedBytes = 0x16c;
  let CB0ClusterNCtaid = 0x2a0;
  let CB0NClusterId = 0x2c0;
  let CB0ClusterNCtaRank = 0x2cc;
}
def TargetSM100 : BlackwellTarget<"sm_100", 100, 232448, "227 KiB",
                                  "no B200 SM count cited: sm_90's H100/H200",
                                  132>;
def TargetSM120 : BlackwellTarget<"sm_120", 120, 101376, "99 KiB",
                                  "no RTX 50 SM count cited: sm_86's RTX 3090",
                                  82>;
def TargetSM121 : BlackwellTarget<"sm_121", 121, 100352, "100 KiB - 2 KiB",
                                  "no GB10 SM count cited: sm_86's RTX 3090",
                                  82>;

/// The targets with sm_90's encodings (Hopper and Blackwell).
defvar SM90Family = [TargetSM90, TargetSM100, TargetSM120, TargetSM121];

/// Mixin of a form that exists only on \p targets.
class OnlyOn<list<SASSTarget> targets> {
  list<SASSTarget> OnlyTargets = targets;
}

/// Mixin of a def that is not a form of its own but the encoding form
/// \p form has on \p targets.  Its operands (names, types, order) and its
/// AsmString must be the form's; tp-tblgen checks it.
class EncodingOn<string form, list<SASSTarget> targets> {
  string EncodingOf = form;
  list<SASSTarget> EncodingTargets = targets;
}

//===----------------------------------------------------------------------===//
// Cubin layouts
//===----------------------------------------------------------------------===//

/// The layout of the cubins tp writes for \p target: the sections, their
/// order, the records and the padding ptxas gives that target's cubins
/// (lib/Object/CubinLayout.cpp defines each layout by this name).
/// \p sassOnly names the layout of a cubin without the Mercury copy
/// (Blackwell's SASS-only flavour, what tp-llc writes there), "" for a
/// target whose cubins have no Mercury copy.  sass::getTargetInfo's
/// CubinLayout and SassOnlyCubinLayout.
class CubinLayoutOf<SASSTarget target, string layout, string sassOnly = ""> {
  SASSTarget Target = target;
  string Layout = layout;
  string SassOnlyLayout = sassOnly;
}
// sm_80's cubins are sm_86's byte for byte but for the SM
// (test/Object/sass-roundtrip-sm80-ptxas.test).
def : CubinLayoutOf<TargetSM80, "SM86">;
def : CubinLayoutOf<TargetSM86, "SM86">;
def : CubinLayoutOf<TargetSM89, "SM89">;
def : CubinLayoutOf<TargetSM90, "SM90">;
def : CubinLayoutOf<TargetSM100, "SM100", "SM100Sass">;
def : CubinLayoutOf<TargetSM120, "SM120", "SM120Sass">;
def : CubinLayoutOf<TargetSM121, "SM121", "SM121Sass">;

//===----------------------------------------------------------------------===//
// Shared memory per multiprocessor
//===----------------------------------------------------------------------===//

/// The shared memory of one multiprocessor of \p target, in bytes: the most
/// a block may use in tp-sim (sass::getTargetInfo's SharedBytesPerSM).
/// PERF_FACTS 2 and the CUDA C++ Programming Guide's table of compute
/// capabilities: 164 KiB on 8.0, 100 KiB on 8.6, 8.9 and 12.x, 228 KiB on
/// 9.0 and 10.0.
class SharedMemoryPerSM<SASSTarget target, int bytes> {
  SASSTarget Target = target;
  int Bytes = bytes;
}
def : SharedMemoryPerSM<TargetSM80, 167936>;
def : SharedMemoryPerSM<TargetSM86, 102400>;
def : SharedMemoryPerSM<TargetSM89, 102400>;
def : SharedMemoryPerSM<TargetSM90, 233472>;
def : SharedMemoryPerSM<TargetSM100, 233472>;
def : SharedMemoryPerSM<TargetSM120, 102400>;
def : SharedMemoryPerSM<TargetSM121, 102400>;
