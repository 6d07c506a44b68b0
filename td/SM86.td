//===- SM86.td - The sm_86 (Ampere GA10x) instruction set ---*- tablegen -*-===//
//
// Root of the instruction description: includes only.  Every instruction
// family has its own file under SM86/ so that families can be added in
// parallel; a new family is one new include line here.
//
//===----------------------------------------------------------------------===//

include "Targets.td"
include "SM86/SM86Operands.td"
include "SM86/SM86InstrFormats.td"
include "SM86/SM86Schedule.td"
include "SM86/IntegerInstrs.td"
include "SM86/FloatInstrs.td"
include "SM86/FP64Instrs.td"
include "SM86/BitInstrs.td"
include "SM86/FloatMiscInstrs.td"
include "SM86/IntSIMDInstrs.td"
include "SM86/UniformInstrs.td"
include "SM86/MemoryInstrs.td"
include "SM86/ControlInstrs.td"
include "SM86/SpecialRegInstrs.td"
include "SM86/MMAInstrs.td"
include "SM86/ConstantInstrs.td"
include "SM86/WarpInstrs.td"
include "SM86/AtomicInstrs.td"
include "SM90/SM90Instrs.td"
include "SM90/SM90AInstrs.td"
include "SM100/SM100Instrs.td"
