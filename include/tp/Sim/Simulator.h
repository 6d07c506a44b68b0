//===- Simulator.h - A CPU simulator of sm_86/sm_90 SASS --------*- C++ -*-===//
///
/// \file
/// tp-sim's library (TPSim): executes one kernel of a cubin on a grid of
/// thread blocks, on the CPU, instruction by instruction, from the decoded
/// sass::Instruction values (never from text).
///
/// Model
/// -----
/// * A block's threads form 32-thread warps that execute in lockstep.  Each
///   instruction runs for the lanes of the running path whose guard
///   predicate holds.  A branch taken by part of a path splits it; the warp
///   runs one path at a time, and paths merge again at the BSYNC of the
///   convergence barrier BSSY set up, once every live lane of it arrived.
///   A predicated EXIT retires the lanes it covers.  Local memory
///   (LDL/STL) is per thread, the kernel's stack frame.
/// * Warps of a block run round-robin: each runs until it reaches BAR.SYNC
///   or exits; a barrier releases when every warp that has not exited
///   arrived.  Blocks are independent and may run on several host threads.
/// * State per warp: R0..R254 (RZ reads 0), P0..P6 (PT), UR0..UR62 (URZ),
///   UP0..UP6 (UPT), per-lane special registers.  Constant bank 0 holds
///   ntid, nctaid, the stack pointer, the dynamic shared size, the grid
///   id, the SM count, the reserved shared bytes, the cluster shape, the
///   default memory descriptor and the parameters, where the cubin's
///   target puts them (sass::TargetInfo's CB0* slots, DescriptorSlot and
///   ParamBase, td/Targets.td).  Other constant banks are errors.
/// * Shared memory is the block's window: on sm_90 the cluster (CGA)
///   window, (SR_CgaCtaId << 24) + offset with the first 1 KiB reserved,
///   for a cluster of one CTA (SR_CgaCtaId = 0); the reserved bytes and
///   other CTAs' windows (distributed shared memory) are errors.
/// * Global memory is a set of host buffers at distinct simulated
///   addresses, with gaps between them; any access outside a buffer is an
///   error naming the instruction (address, mnemonic, lane).
/// * LDGSTS (cp.async) reads global memory at issue but writes shared
///   memory only when its commit group completes: when a DEPBAR.LE or a
///   wait mask on the group's scoreboard requires it.  A kernel that reads
///   the bytes earlier therefore reads stale data, and hazard mode reports
///   it.
/// * HMMA: products of binary16 values are exact in binary64; the 16 (or 8)
///   products of a dot product and the accumulator are summed exactly in
///   binary64 and rounded once (round to nearest even) to the accumulator
///   type.  Hardware may round differently in the last bit when partial
///   sums exceed 2^53 ulp ranges; for the integer-valued tests this is
///   exact.
///
/// Hazard mode (CheckSchedule) adds a per-warp cycle model: an instruction
/// issues after the previous one's stall count, and after its wait mask's
/// scoreboards are released.  Every register read is checked against the
/// producer: a fixed-latency producer must have issued at least its RAW
/// latency earlier (sched::LatencyModel of the cubin's target, the model
/// tp-compact-stalls uses, with its classifier sched::describe); a
/// variable-latency producer's write scoreboard must have been waited for.
/// A general register read late by a variable-latency instruction must not
/// be overwritten before its read scoreboard was waited for.  Shared memory
/// read by LDS/LDSM must not be the target of an async copy whose group was
/// not yet waited for, or (for another warp) not yet published by a
/// BAR.SYNC after the wait.
///
//===----------------------------------------------------------------------===//
#ifndef TP_SIM_SIMULATOR_H
#define TP_SIM_SIMULATOR_H

#include "tp/Target/SASS/SASS.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace tp {
namespace sim {

/// What the simulator needs of one kernel of a cubin.  loadKernel() fills
/// in the target's facts from the cubin; the defaults are sm_86's.
struct KernelImage {
  std::string Name;
  std::vector<uint8_t> Code;
  /// (offset, size) of each parameter in the parameter block, in order.
  std::vector<std::pair<uint32_t, uint32_t>> Params;
  uint32_t ParamBase = sass::getTargetInfo(sass::Target::SM86).ParamBase;
  uint64_t StaticSharedBytes = 0;
  unsigned RegCount = 0;
  unsigned SM = sass::getTargetInfo(sass::Target::SM86).SM;
  /// The target sm_SM names: whose tables decode the code and whose
  /// latency model the hazard mode checks it against (isSimTarget).
  sass::Target Target = sass::Target::SM86;
  /// The default memory descriptor's slot in c[0x0], and the reserved
  /// start of the shared window (sm_90: 1 KiB), the kernel's static and
  /// dynamic bytes following it (sass::TargetInfo; SASS_FACTS 3.3, 3.7).
  uint32_t DescriptorOffset =
      sass::getTargetInfo(sass::Target::SM86).DescriptorSlot;
  uint32_t ReservedSharedBytes =
      sass::getTargetInfo(sass::Target::SM86).ReservedSharedBytes;
  /// sm_90 thread block clusters the cubin asks for: the CTAs per cluster
  /// of `.reqnctapercluster` / `__cluster_dims__` (.nv.info
  /// CTA_PER_CLUSTER; 1,1,1 without one), and whether the kernel must be
  /// launched with cluster dimensions chosen at launch (`.explicitcluster`,
  /// EXPLICIT_CLUSTER).  launch() refuses clusters of more than one CTA
  /// and explicit-cluster kernels: block rank and distributed shared memory
  /// are not modelled.
  std::array<uint32_t, 3> ClusterDims = {1, 1, 1};
  bool ExplicitCluster = false;
  /// Local memory of each thread: the kernel's stack frame (.nv.info
  /// FRAME_SIZE, MIN_STACK_SIZE, the larger, rounded up to 16 bytes).  The
  /// stack pointer (TargetInfo::CB0StackPointer) starts at its top;
  /// LDL/STL addresses are offsets into it.
  uint32_t LocalBytes = 0;
};

/// Whether tp-sim runs code of target \p T: the targets tp-llc builds for
/// (TargetInfo::GemmCodeGen): sm_80, sm_86 and sm_89 (one semantics,
/// sm_86's: the same encodings, SASS_FACTS 1.1; each its own latency
/// model), sm_90 and Blackwell's sm_100, sm_120, sm_121 (sm_90's
/// semantics plus their own forms'; docs/targets.md).
bool isSimTarget(sass::Target T);
/// "sm_80, sm_86, sm_89, sm_90, sm_100, sm_120 or sm_121", for messages.
const std::string &getSimTargetList();
/// The shared memory of one SM of target \p T, the most a block may hold
/// with its reserved bytes (CUDA C++ Programming Guide, compute capability
/// table: 164 KiB on 8.0, 100 KiB on 8.6 and 8.9, 228 KiB on 9.0).
uint64_t getSharedBytesPerSM(sass::Target T);

/// Reads kernel \p Name (or the only kernel, when \p Name is empty) from the
/// cubin bytes \p Bytes; a cubin of a target that is not isSimTarget is an
/// error naming its SM.
llvm::Expected<KernelImage> loadKernel(llvm::ArrayRef<uint8_t> Bytes,
                                       llvm::StringRef Name);
/// The names of all kernels of a cubin.
llvm::Expected<std::vector<std::string>>
listKernels(llvm::ArrayRef<uint8_t> Bytes);

/// A kernel decoded once and ready to run (opaque).
class Program;
struct ProgramDeleter {
  void operator()(Program *P) const;
};
using ProgramPtr = std::unique_ptr<Program, ProgramDeleter>;

/// Decodes every instruction of \p K.  Fails on a word that decodes to no
/// form or to a form the simulator has no semantics for, naming the address
/// and the word: nothing is ever skipped.  Trailing NOP/self-BRA padding
/// is decoded too.
llvm::Expected<ProgramPtr> buildProgram(const KernelImage &K);
/// Number of instructions of \p P.
size_t getProgramSize(const Program &P);

/// Global memory: host buffers at simulated device addresses.
class GlobalMemory {
public:
  /// The most bytes all buffers of one GlobalMemory may hold together:
  /// 4 GiB.  The simulator keeps every buffer in host memory, so the limit
  /// keeps a mistyped size a clear error instead of an out-of-memory abort
  /// (a 16384^3 GEMM needs 2 GiB).
  static constexpr uint64_t MaxTotalBytes = uint64_t(4) << 30;

  /// Allocates \p Bytes (zeroed) and returns its device address.  Buffers
  /// are 256-byte aligned and separated by unmapped gaps.  Fails, allocating
  /// nothing, when the buffers would hold more than MaxTotalBytes.
  llvm::Expected<uint64_t> allocate(uint64_t Bytes);
  /// Bytes allocated so far.
  uint64_t getAllocatedBytes() const { return Allocated; }
  /// The host bytes of the buffer at \p Addr (as returned by allocate).
  llvm::MutableArrayRef<uint8_t> getBuffer(uint64_t Addr);
  /// How a kernel touches a buffer (translate()).
  enum Access : uint8_t { Read = 1, Write = 2 };
  /// Host pointer for [Addr, Addr+Size), or null when not inside a buffer.
  /// \p A is what the caller does there: while tracking, each buffer
  /// remembers whether it was read and whether it was written.
  uint8_t *translate(uint64_t Addr, uint64_t Size, Access A);

  /// Starts remembering accesses (forgetting earlier ones), or stops.
  void trackAccesses(bool On);
  /// While tracking: whether some buffer was both read and written, the
  /// only way blocks of a kernel can see each other's results (launch()
  /// serialises such a kernel's blocks).
  bool someBufferReadAndWritten() const;
  /// Every buffer's bytes, and putting them back (launch()'s rerun).
  std::vector<std::vector<uint8_t>> saveContents() const;
  void restoreContents(const std::vector<std::vector<uint8_t>> &Saved);

private:
  struct Buffer {
    uint64_t Base;
    std::vector<uint8_t> Bytes;
  };
  std::vector<Buffer> Buffers;
  /// Per buffer while tracking: Read | Write seen (null: not tracking).
  std::unique_ptr<std::atomic<uint8_t>[]> Seen;
  uint64_t Next = 0x7f0000000000ull;
  uint64_t Allocated = 0;
};

/// Sees every warp instruction a launch issues (the timing model's feed,
/// include/tp/Sim/Timing.h).  observesBlock() is asked once per block;
/// onIssue() is then called for each instruction a warp of that block
/// issues, in the warp's program order, after it executed: \p Index is the
/// instruction's index in the Program, \p Mask the lanes that executed it
/// (guard applied), \p LaneAddr[lane] the byte address each lane of Mask
/// accessed for LDS/STS/LDSM (its 8 x count row lanes), LDG/STG, and the
/// shared destination of LDGSTS, whose global source (lanes with a true
/// source predicate; ~0 for the others) is at \p LaneAddr[32 + lane] (null
/// otherwise).  Blocks may run on
/// several host threads: calls for one block come from one thread.
class IssueObserver {
public:
  virtual ~IssueObserver() = default;
  virtual bool observesBlock(uint64_t LinearBlock) const = 0;
  virtual void onIssue(uint64_t LinearBlock, unsigned Warp, uint32_t Index,
                       uint32_t Mask, const uint64_t *LaneAddr) = 0;
};

/// How to launch.
struct LaunchConfig {
  std::array<uint32_t, 3> Grid = {1, 1, 1};
  std::array<uint32_t, 3> Block = {1, 1, 1};
  uint32_t DynamicSharedBytes = 0;
  /// The parameter block (placed at the target's parameter base).
  std::vector<uint8_t> Params;
  /// Hazard mode (see the file comment).
  bool CheckSchedule = false;
  /// Host threads running blocks (1 = sequential).  Results are those of
  /// a sequential run: a kernel whose blocks may communicate (some buffer
  /// both read and written) is rerun on one thread (LaunchStats::
  /// Serialised), or refused with an Observer attached.
  unsigned Threads = 1;
  /// Stop after this many hazard reports (the count keeps going).
  unsigned MaxHazardReports = 20;
  /// Abort a warp that executes more than this many instructions (a guard
  /// against endless loops); 0 = no limit.
  uint64_t MaxWarpInstructions = 1ull << 26;
  /// Receives every issued instruction of the blocks it observes.
  IssueObserver *Observer = nullptr;
  /// Run only the first MaxBlocks blocks (in linear order) of the grid;
  /// 0 = all.  The timing model's sampling mode uses it.
  uint64_t MaxBlocks = 0;
};

/// What a launch did.
struct LaunchStats {
  uint64_t WarpInstructions = 0;   ///< instructions issued, per warp
  uint64_t ThreadInstructions = 0; ///< lane-instructions executed
  uint64_t Blocks = 0;
  uint64_t Hazards = 0;            ///< hazard reports (CheckSchedule)
  std::vector<std::string> HazardReports; ///< the first MaxHazardReports
  uint64_t MaxCycles = 0;          ///< longest warp in the cycle model
  /// Run on one host thread although more were asked for: a buffer was
  /// both read and written, so blocks could see each other's stores; the
  /// parallel run was undone and the blocks rerun in order.
  bool Serialised = false;
  /// What each host thread did (-j N): the blocks it ran and its CPU
  /// time, in the order the threads were started (one entry with -j 1).
  struct HostThread {
    uint64_t Blocks = 0;
    double CPUSeconds = 0; ///< the thread's own CPU time (0 if unknown)
  };
  std::vector<HostThread> Threads;
};

/// Whether \p Config is a launch of \p K that the hardware and the
/// simulator take: 1..1024 threads a block (x, y <= 1024, z <= 64), a grid
/// of x <= 2^31-1, y, z <= 65535, the kernel's parameter bytes, and the
/// shared memory of a block (reserved, static and dynamic) within the
/// target's 100 KiB (sm_86) or 228 KiB (sm_90).  launch() checks it too.
llvm::Error checkLaunchConfig(const KernelImage &K, const LaunchConfig &Config);

/// Whether \p K can run in the simulator's model of clusters (one CTA per
/// cluster): an error naming the kernel and the cluster shape otherwise.
llvm::Error checkClusterShape(const KernelImage &K);

/// Runs \p P on \p Mem; refuses what checkClusterShape refuses.  An
/// execution error (out-of-bounds access, divergent
/// branch, ...) is returned as an llvm::Error naming block, warp, address
/// and instruction; hazards are not errors, they are counted in the stats.
llvm::Expected<LaunchStats> launch(const Program &P, GlobalMemory &Mem,
                                   const LaunchConfig &Config);

//===----------------------------------------------------------------------===//
// Semantic helpers, exposed for unit tests.
//===----------------------------------------------------------------------===//

/// D = A x B + C of one m16n8k16 (K = 16) or m16n8k8 (K = 8) HMMA for a
/// whole warp, on register values: \p A[lane][0..K/4), \p B[lane][0..K/8),
/// \p C/\p D[lane][0..4) (f32 accumulators) or [0..2) (f16x2 accumulators).
/// Fragment layouts are those of PTX mma.m16n8k16 / m16n8k8 (.row.col).
/// \p BF16: the A and B elements are bfloat16 (HMMA.16816.F32.BF16,
/// .1688.F32.BF16; f32 accumulators only), with the same layouts.
void hmmaWarp(unsigned K, bool F32Acc, const uint32_t A[32][4],
              const uint32_t B[32][2], const uint32_t C[32][4],
              uint32_t D[32][4], bool BF16 = false);

/// SHFL for one lane, as PTX shfl.sync defines it: \p Mode 0 IDX, 1 UP,
/// 2 DOWN, 3 BFLY; \p B the lane or offset (bits 4:0), \p C the packed
/// clamp (bits 4:0) and segment mask (bits 12:8).  Returns the source lane
/// and sets \p InRange (the predicate result); out of range the lane reads
/// its own value.
unsigned shflSourceLane(unsigned Mode, unsigned Lane, uint32_t B, uint32_t C,
                        bool &InRange);

/// LDSM for a warp: \p RowAddr[lane] are the byte addresses lanes give;
/// \p Count matrices (1, 2, 4) of 8x8 b16; \p Trans for .MT88.  \p Load
/// returns 16 bytes of shared memory at an address.  Out[lane][i] is the
/// register of matrix i.
void ldsmWarp(unsigned Count, bool Trans, const uint32_t RowAddr[32],
              const uint8_t *Shared, uint32_t Out[32][4]);

/// Rounds a binary64 value to binary16 (round to nearest even, through
/// tp::roundToHalf); a NaN gives the quiet NaN 0x7e00 with its sign,
/// without payload (UNVERIFIED on hardware).
uint16_t doubleToHalf(double D);

} // namespace sim
} // namespace tp

#endif // TP_SIM_SIMULATOR_H
