// tp-tblgen -gen-sim-dispatch: the semantic class of every form
// (td/SM86/Semantics.td) as lib/Sim's dispatch table.  A form given
// semantics twice is an error naming both records; a form that is no
// record fails in TableGen itself.
// RUN: tp-tblgen -gen-sim-dispatch -I %tp_src/td %s | FileCheck %s
// RUN: not tp-tblgen -gen-sim-dispatch -I %tp_src/td -DDUP %s 2>&1 | FileCheck %s --check-prefix=DUP
// RUN: not tp-tblgen -gen-sim-dispatch -I %tp_src/td -DNOFORM %s 2>&1 | FileCheck %s --check-prefix=NOFORM
// RUN: not tp-tblgen -gen-sim-dispatch -I %tp_src/td -DBOTH %s 2>&1 | FileCheck %s --check-prefix=BOTH

include "SM86/Semantics.td"

// CHECK: #ifdef GET_SIM_SEM_CLASSES
// CHECK-DAG: TP_SIM_SEM_CLASS(IMAD)
// CHECK-DAG: TP_SIM_SEM_CLASS(SHFL)
// CHECK: #ifdef GET_SIM_SEM_FLAGS
// CHECK: TP_SIM_SEM_FLAG(AddrUR, 0)
// CHECK: #ifdef GET_SIM_DISPATCH
// CHECK-DAG: {sass::HMMA_16816_F32_BF16, SemClass::HMMA, 0, 0x84, 16, 0},
// CHECK-DAG: {sass::IMAD_WIDE_rrr, SemClass::IMAD, uint8_t(IMADKind::Wide), 0x0, 0, 0},
// CHECK-DAG: {sass::LDL_S8, SemClass::Local, 0, 0x{{[0-9a-f]+}}, 1, 0},
// CHECK-DAG: {sass::UFLO_rrr, SemClass::UALU, uint8_t(UALUKind::UFLO), 0x0, 0, 0},
// CHECK: #ifdef GET_SIM_REFUSALS
// CHECK-DAG: {sass::MUFU_64H_rir, "MUFU.RCP64H/.RSQ64H (the seeds of f64 division
// CHECK-DAG: {sass::RET_ABS, "absolute calls and returns reach code the linker places

#ifdef DUP
// DUP: sim-dispatch.td:[[@LINE+1]]:1: error: form IMAD_WIDE_rrr has semantics twice
def : SimSemantics<SemNOP, [IMAD_WIDE_rrr]>;
// DUP: note: first given here
#endif

#ifdef NOFORM
// NOFORM: error: Variable not defined: 'NO_SUCH_FORM'
def : SimSemantics<SemNOP, [NO_SUCH_FORM]>;
#endif

#ifdef BOTH
// BOTH: sim-dispatch.td:[[@LINE+1]]:1: error: form IMAD_WIDE_rrr is refused and has semantics
def : SimRefusal<[IMAD_WIDE_rrr], "no">;
#endif
