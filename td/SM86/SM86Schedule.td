//===- SM86Schedule.td - Latency classes for sm_86 ----------*- tablegen -*-===//
//
// Scheduling classes: fixed latency in cycles (result ready for a dependent
// ALU reader after Latency cycles, protected by stall counts only) or
// variable latency (result tracked by a write scoreboard; LateRead operands
// are read after issue and need a read scoreboard before being overwritten).
//
// Sources (SASS_FACTS.md section 2):
//   N  Mesa NAK sm80_instr_latencies.rs (covers sm_80/86/89; numbers from
//      NVIDIA's spreadsheet), needs_scoreboards(), exec_latency()
//   E  what ptxas 13.0 schedules in our reference cubins (SASS_FACTS 2.3)
//
//===----------------------------------------------------------------------===//

class FixedLatency<int cycles> : SchedClass { let Latency = cycles; }
class VariableLatency<list<string> late = []> : SchedClass {
  let Variable = 1;
  let LateRead = late;
}

// N: CoupledAlu -> CoupledAlu reader 4 cycles; E: IADD3/LOP3/MOV -> IADD3 4.
def CoupledALU : FixedLatency<4>;
// N: CoupledFMA (IMAD, FFMA, FADD, FMUL) -> FMA reader 4, -> ALU reader 5;
// E: IMAD -> IADD3 5.  We record the worst case towards any reader.
def CoupledFMA : FixedLatency<5>;
// N: IMAD.WIDE high half -> ALU reader 5, -> IMAD.WIDE 6; worst case.
def IMADWide : FixedLatency<6>;
// N: FP16 ALU (HADD2/HFMA2) -> any reader 5.
def FP16ALU : FixedLatency<5>;
// HFMA2.MMA: FP16ALU's 5 on sm_86/89/90/Blackwell; on sm_80 ptxas 13
// spaces its readers as N's HFMA2_MMA row (10 to coupled readers):
// lib/Target/SASS/LatencyModel.cpp, RawSM80.
def FP16MMA : FixedLatency<5>;
// N: uniform datapath (Udp) -> GPR-ALU reader 6 (ULDC/UMOV -> 2).
def UniformALU : FixedLatency<6>;
def UniformMove : FixedLatency<2>;
// E: ptxas 13 keeps >= 24 cycles between HMMA.16816.F32 and any consumer of
// D on sm_80/86 and puts it on no scoreboard (NAK's table says 17/18).
def MMA16816 : FixedLatency<24>;
// N: MMA 16x8x8 ("1x collect") -> ALU reader 13 (ptxas spacing not measured).
def MMA1688 : FixedLatency<13>;
// N needs_scoreboards: S2R, conversions, memory ops, R2UR are decoupled.
// FP64 (DADD, DMUL, DFMA, DSETP, DMMA) is "redirected" on sm_86 and needs a
// scoreboard too (N sm80_instr_latencies.rs, needs_scoreboards; SASS_FACTS
// 2.1; E: ptxas puts DMMA and DADD on a write scoreboard): the same class.
def Decoupled : VariableLatency;
// FP64 (DADD, DMUL, DFMA, DSETP): variable where it is redirected (sm_80,
// 86, 89, 120: ptxas 13 gives 21 of the 28 FP64 ops of
// test/MC/Inputs/fp64_forms.ptx a write scoreboard), a fixed-latency pipe
// on sm_90 and sm_100 (0 of 29 scoreboarded): LatencyModel.cpp,
// TargetLatencies::FP64Fixed.  Its own class so the model can tell.
def FP64Sched : VariableLatency;
// N: memory ops read their address (and store data) after issue;
// E: ptxas gives LDGSTS and STG a read scoreboard.  Uniform operands (the
// UR of an address, a descriptor) are read at issue: ptxas rewrites the UR
// of an LDSM address in the next instruction without waiting
// (test/Sim/latency-evidence.test, WAR UGPR DecoupledAgu -> UniformALU 1).
def MemLoad : VariableLatency<["Ra"]>;
// LDC reads its index register after issue like a load, but is timed as a
// decoupled op, not a memory one: ptxas issues it 4 cycles after the LOP3
// that computes its index (N's Decoupled column; the memory column is 5;
// E, test/Sim/constants.ptx on sm_86 and sm_90).
def ConstLoad : VariableLatency<["Ra"]>;
def MemStore : VariableLatency<["Ra", "Rb"]>;
def MemAsyncCopy : VariableLatency<["Rs", "Ra"]>;
// N: branches and barriers are variable (no register result); exec latency
// of BAR is 6 on sm_80+ (N exec_latency; E: BAR.SYNC S06).
def Branch : VariableLatency;
def Barrier : VariableLatency;
// CS2R is fixed latency (N needs_scoreboards excludes CS2R.32/64).
def CS2RSched : FixedLatency<4>;
// NOP: no result.
def NoResult : FixedLatency<1>;
// SASS_FACTS 2.1 (N needs_scoreboards): SHFL, ATOM/ATOMS/ATOMG/RED and the
// local/generic loads and stores are memory ops: variable latency, their
// register sources read after issue (as MemLoad/MemStore; NAK times them
// as DecoupledAgu readers).
def Shuffle : VariableLatency<["Ra", "Rb", "Rc"]>;
def MemAtomic : VariableLatency<["Ra", "Rb", "Rc"]>;
