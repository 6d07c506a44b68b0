/*===- tp.h - tp's C API: compile, assemble, disassemble, simulate -*- C -*-===*\
 *
 * \file
 * The C API of tp (C99, for FFI from any language; libtp.so, or libtp.a
 * with LLVM 14's static libraries).  It guarantees:
 *
 *  - every function returns 0 on success and non-zero on failure; on
 *    failure, when `error` is not NULL, `*error` receives the diagnostic
 *    tp's tools print (`file:line:col: error: ...` with the source line and
 *    a caret, or `tp: error: ...`), to be released with tp_string_free;
 *    on success `*error` is set to NULL;
 *  - no C++ exception and no abort crosses the boundary for bad input;
 *  - the kernel is the one `tp-llc` builds for the same options, byte for
 *    byte (cubin, listing and manifest).
 *
 * Strings and buffers the API returns are owned by the kernel (tp_kernel_*)
 * or by the caller (tp_assemble, tp_disassemble: release with
 * tp_string_free / tp_buffer_free).  Calls are not yet checked for use
 * from several threads at once: serialize them.  Fields added to the
 * structs go at their end; struct_size tells the library which layout the
 * caller was built with.
 *
\*===----------------------------------------------------------------------===*/
#ifndef TP_TP_H
#define TP_TP_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TP_VERSION_MAJOR 0
#define TP_VERSION_MINOR 1

/* The version of the library ("0.1.0"); static storage. */
const char *tp_version(void);

/* A GEMM: D = A B (+ R with residual).  Fill it with tp_gemm_desc_init,
 * then set fields; strings are borrowed for the duration of the call. */
typedef struct tp_gemm_desc {
  size_t struct_size;     /* sizeof(tp_gemm_desc), set by _init */
  int64_t m, n, k;        /* default 4096 x 4096 x 4096 */
  const char *a_layout;   /* "rows" (default) or "columns" */
  const char *b_layout;   /* "columns" (default) or "rows" */
  const char *tile;       /* "auto" (default), large, small, 128x64,
                             256x128 or "WM,WN,MT,NT,S" */
  int residual;           /* D = A B + R (R: M x N, of d_type) */
  const char *target;     /* "sm_86" (default), "sm_80", "sm_89", "sm_90",
                             "sm_100", "sm_120" or "sm_121" */
  const char *name;       /* the kernel symbol, default "gemm" */
  /* The general GEMM: types, D = alpha A B + beta C + bias,
   * ReLU.  alpha != 1 or beta != 0 builds the kernel that takes alpha and
   * beta as f32 parameters (C is its R operand, read only when beta != 0;
   * not with residual); these values are the manifest's: finite and exact
   * in binary32 (NaN, an infinity or 0.1 fails tp_gemm_compile). */
  const char *a_type;     /* "f16" (default) or "bf16" */
  const char *b_type;     /* "f16" (default) or "bf16"; a_type's type */
  const char *d_type;     /* "f32" (default), "f16" or "bf16" */
  double alpha;           /* 1 */
  double beta;            /* 0 (the residual is its own field) */
  int bias;               /* 0; 1: + bias[col], N f32 values */
  int relu;               /* 0; 1: max(x, 0) last, so a NaN becomes 0
                             (cuBLASLt's RELU epilogue and PTX max.f32;
                             PyTorch's relu keeps the NaN) */
  int64_t batch;          /* 1; > 1: strided batches (runtime_shape) */
  int runtime_shape;      /* 1 (default): M, N, K and the leading
                             dimensions are kernel parameters, m, n, k the
                             recorded shape; 0: the shape built into the
                             code (tp-llc --fixed-shape) */
} tp_gemm_desc;

typedef struct tp_kernel tp_kernel;

/* Sets every field of *desc to its default. */
void tp_gemm_desc_init(tp_gemm_desc *desc);

/* Compiles *desc; on success *kernel is a new kernel (tp_kernel_free). */
int tp_gemm_compile(const tp_gemm_desc *desc, tp_kernel **kernel,
                    char **error);

/* The cubin's bytes (owned by the kernel); *size receives their count. */
const uint8_t *tp_kernel_cubin(const tp_kernel *kernel, size_t *size);
/* The SASS listing, as tp-llc -filetype=asm writes it (owned by kernel).
 * It is printed on the first call, not by tp_gemm_compile (a caller that
 * only loads the cubin never pays for it); several threads may make the
 * first call on one kernel at once (one prints, the others wait). */
const char *tp_kernel_sass(const tp_kernel *kernel);
/* The launch manifest, as tp-llc writes <out>.json (owned by kernel). */
const char *tp_kernel_manifest_json(const tp_kernel *kernel);
/* The kernel's static figures as a JSON object (owned by the kernel):
 * instructions, loop_body_instructions, hmma, loop_hmma, loop_issue_cycles,
 * issue_cycles_per_kstep, registers, shared_bytes. */
const char *tp_kernel_stats_json(const tp_kernel *kernel);
void tp_kernel_free(tp_kernel *kernel);

/* Releases a string or buffer the API allocated (NULL is fine). */
void tp_string_free(char *s);
void tp_buffer_free(void *buffer);

/* Flags of tp_disassemble. */
#define TP_DISASSEMBLE_LISTING 0u /* `tp-mc --disassemble --show-control` */
#define TP_DISASSEMBLE_CUBIN_TEXT 1u /* whole-cubin .sass (tp-mc --format=sass) */

/* The text of cubin bytes: the instruction listing of every .text section
 * (flags 0) or the whole cubin as .sass text, which tp_assemble reads
 * back to the same bytes (TP_DISASSEMBLE_CUBIN_TEXT).  Words no form
 * matches print as `.inst 0x...`.  *text: tp_string_free. */
int tp_disassemble(const void *cubin, size_t size, unsigned flags,
                   char **text, char **error);

/* Assembles whole-cubin .sass text (docs/sass-format.md; what
 * tp_disassemble writes with TP_DISASSEMBLE_CUBIN_TEXT) to cubin bytes.
 * `target` (any tp-mc target, e.g. "sm_86", or NULL) must agree with the
 * text's .target
 * when given.  *cubin: tp_buffer_free. */
int tp_assemble(const char *text, size_t length, const char *target,
                void **cubin, size_t *size, char **error);

/* One simulated run of a kernel (tp_kernel_simulate_run): the shape, the
 * host arrays and the epilogue's values.  Fill it with tp_gemm_run_init,
 * then set fields. */
typedef struct tp_gemm_run {
  size_t struct_size;   /* sizeof(tp_gemm_run), set by _init */
  /* The shape; 0 (the default): the kernel's recorded m, n, k and batch.
   * A run-time-shape kernel runs at any M, N, K >= 1 (batch > 1 only when
   * it was built with batch > 1); a fixed-shape kernel only at its own. */
  int64_t m, n, k, batch;
  /* Dense arrays, row-major, as the layouts store them, batches back to
   * back: a is batch x (M x K for rows, K x M for columns) of a_type's
   * bits (binary16 or bfloat16); b is batch x (K x N for columns, N x K
   * for rows); c (the C of a kernel with alpha and beta, or the
   * residual's R; NULL for a kernel that reads none) and d are batch x
   * M x N of d_type (f32, or binary16 / bfloat16 bits); c may be d (in
   * place); bias N f32 values (a kernel with bias, else NULL). */
  const void *a, *b, *c;
  const float *bias;
  void *d;
  /* The alpha and beta to pass; NaN (the default, any NaN): the
   * manifest's; other values finite and exact in binary32 (an infinity or
   * 0.1 is an error that names the nearest binary32). */
  double alpha, beta;
  int check_schedule;   /* 1 (default): a schedule hazard is an error */
} tp_gemm_run;

/* Sets every field of *run to its default. */
void tp_gemm_run_init(tp_gemm_run *run);

/* Runs the kernel on tp-sim's engine (CPU), as tp-sim's GEMM mode does:
 * the arrays are copied into the simulator's memory with each row padded
 * to a multiple of 8 elements (the copies' 16-byte chunks; NaN in A's and
 * B's padding), D poisoned first, the grid from the shape and the
 * kernel's tile; d receives D.  Errors: a shape the kernel cannot run, a
 * missing operand, a hazard (with check_schedule), an element never
 * written is not an error (it keeps the poison: 0x7fbadbad, 0x7dad f16,
 * 0x7fad bf16), one written outside D's M x N is. */
int tp_kernel_simulate_run(const tp_kernel *kernel, const tp_gemm_run *run,
                           char **error);

/* How a launch's operands lie in device memory (elements), for callers
 * that launch the kernel themselves (the Python module's GPU call):
 * tp_kernel_plan_launch fills every 0 field and the grid, and checks the
 * rules (docs/launch-manifest.md) naming the rule and the numbers. */
typedef struct tp_gemm_storage {
  size_t struct_size;     /* sizeof(tp_gemm_storage), set by _init */
  int64_t m, n, k, batch; /* 0: the kernel's recorded shape (as tp_gemm_run) */
  /* 0: the extent rounded up to 8 elements (a run-time-shape kernel) or
   * the extent (a fixed-shape kernel, whose operands are dense). */
  int64_t lda, ldb, ldc;
  /* 0: batches back to back (rows x ld); batch 1: 0. */
  int64_t stride_a, stride_b, stride_c;
  uint32_t grid[3];       /* out: the launch's grid */
} tp_gemm_storage;

void tp_gemm_storage_init(tp_gemm_storage *storage);

/* Resolves and checks *storage for the kernel: a shape it cannot run,
 * leading dimensions below their extents or not multiples of 8 elements,
 * strides not multiples of 8, overlapping batches of D, operands of 2^32
 * bytes or more, too many blocks: an error. */
int tp_kernel_plan_launch(const tp_kernel *kernel, tp_gemm_storage *storage,
                          char **error);

/* tp_kernel_simulate_run at the recorded shape, one product, with f16
 * a and b, r the residual's M x N f32 R (or NULL) and d M x N f32; for
 * kernels of the seed's types and epilogue only. */
int tp_kernel_simulate(const tp_kernel *kernel, const uint16_t *a,
                       const uint16_t *b, const float *r, float *d,
                       int check_schedule, char **error);

/* tp_kernel_simulate_run at the recorded shape, one product (batch 1),
 * with c as f32 (the residual's R or the C of alpha/beta, for a kernel
 * whose d_type is f32: another is an error), alpha and beta given: finite
 * and exact in binary32 (a NaN is an error here, not "the manifest's"). */
int tp_kernel_simulate_gemm(const tp_kernel *kernel, const uint16_t *a,
                            const uint16_t *b, const float *c,
                            const float *bias, void *d, double alpha,
                            double beta, int check_schedule, char **error);

#ifdef __cplusplus
}
#endif

#endif /* TP_TP_H */
