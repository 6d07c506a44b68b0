//===- ReferenceKernel.cpp - A simple GEMM in PTX for checking on the GPU -===//
///
/// \file
/// The PTX of tp_ref_gemm (see ReferenceKernel.h).  Written by hand for
/// clarity, not speed: the loop is the textbook one, so that what it
/// computes is evident from reading it.  PTX ISA 6.5 / sm_70 so that every
/// driver from CUDA 10.2 on can JIT it for the GPU at hand: bfloat16 is
/// widened by a shift and rounded to by integer arithmetic (cvt's .bf16
/// forms need sm_80 and PTX 7.0).
///
//===----------------------------------------------------------------------===//

#include "ReferenceKernel.h"

namespace tp {
namespace run {

static const char ReferencePTX[] = R"PTX(//
// tp_ref_gemm: D(b, i, j) = epilogue(sum_k A(b, i, k) * B(b, k, j))
//   epilogue(x) = relu?(alpha x [+ beta C(b, i, j)] [+ bias(j)]), in f32,
//   then rounded once to D's type (to nearest even)
// one thread per element; j from x, i from y, the batch b from z;
// A, B f16 or bf16 widened to f32, fma.rn.f32 in k order
//
.version 6.5
.target sm_70
.address_size 64

.visible .entry tp_ref_gemm(
	.param .u64 tp_ref_gemm_d,
	.param .u64 tp_ref_gemm_a,
	.param .u64 tp_ref_gemm_b,
	.param .u64 tp_ref_gemm_c,
	.param .u64 tp_ref_gemm_bias,
	.param .f32 tp_ref_gemm_alpha,
	.param .f32 tp_ref_gemm_beta,
	.param .u32 tp_ref_gemm_m,
	.param .u32 tp_ref_gemm_n,
	.param .u32 tp_ref_gemm_k,
	.param .u32 tp_ref_gemm_sai,
	.param .u32 tp_ref_gemm_sak,
	.param .u32 tp_ref_gemm_sbk,
	.param .u32 tp_ref_gemm_sbj,
	.param .u32 tp_ref_gemm_ldc,
	.param .u32 tp_ref_gemm_stride_a,
	.param .u32 tp_ref_gemm_stride_b,
	.param .u32 tp_ref_gemm_stride_c,
	.param .u32 tp_ref_gemm_flags
)
{
	.reg .pred 	%p<12>;
	.reg .b16 	%h<4>;
	.reg .b32 	%r<30>;
	.reg .f32 	%f<8>;
	.reg .b64 	%rd<20>;

	ld.param.u64 	%rd1, [tp_ref_gemm_d];
	ld.param.u64 	%rd2, [tp_ref_gemm_a];
	ld.param.u64 	%rd3, [tp_ref_gemm_b];
	ld.param.u64 	%rd4, [tp_ref_gemm_c];
	ld.param.u64 	%rd5, [tp_ref_gemm_bias];
	ld.param.f32 	%f1, [tp_ref_gemm_alpha];
	ld.param.f32 	%f2, [tp_ref_gemm_beta];
	ld.param.u32 	%r1, [tp_ref_gemm_m];
	ld.param.u32 	%r2, [tp_ref_gemm_n];
	ld.param.u32 	%r3, [tp_ref_gemm_k];
	ld.param.u32 	%r4, [tp_ref_gemm_sai];
	ld.param.u32 	%r5, [tp_ref_gemm_sak];
	ld.param.u32 	%r6, [tp_ref_gemm_sbk];
	ld.param.u32 	%r7, [tp_ref_gemm_sbj];
	ld.param.u32 	%r8, [tp_ref_gemm_ldc];
	ld.param.u32 	%r9, [tp_ref_gemm_stride_a];
	ld.param.u32 	%r10, [tp_ref_gemm_stride_b];
	ld.param.u32 	%r11, [tp_ref_gemm_stride_c];
	ld.param.u32 	%r12, [tp_ref_gemm_flags];
	// j = ctaid.x * ntid.x + tid.x;  i = ctaid.y * ntid.y + tid.y;  b = ctaid.z
	mov.u32 	%r13, %ctaid.x;
	mov.u32 	%r14, %ntid.x;
	mov.u32 	%r15, %tid.x;
	mad.lo.s32 	%r16, %r13, %r14, %r15;
	mov.u32 	%r13, %ctaid.y;
	mov.u32 	%r14, %ntid.y;
	mov.u32 	%r15, %tid.y;
	mad.lo.s32 	%r17, %r13, %r14, %r15;
	mov.u32 	%r18, %ctaid.z;
	setp.ge.u32 	%p1, %r16, %r2;
	setp.ge.u32 	%p2, %r17, %r1;
	or.pred 	%p3, %p1, %p2;
	@%p3 bra 	$L_done;
	cvta.to.global.u64 	%rd1, %rd1;
	cvta.to.global.u64 	%rd2, %rd2;
	cvta.to.global.u64 	%rd3, %rd3;
	// pa = &A(b, i, 0) = A + 2 (b strideA + i sAi)
	mul.wide.u32 	%rd6, %r18, %r9;
	mul.wide.u32 	%rd7, %r17, %r4;
	add.s64 	%rd6, %rd6, %rd7;
	shl.b64 	%rd6, %rd6, 1;
	add.s64 	%rd6, %rd2, %rd6;
	// pb = &B(b, 0, j) = B + 2 (b strideB + j sBj)
	mul.wide.u32 	%rd8, %r18, %r10;
	mul.wide.u32 	%rd9, %r16, %r7;
	add.s64 	%rd8, %rd8, %rd9;
	shl.b64 	%rd8, %rd8, 1;
	add.s64 	%rd8, %rd3, %rd8;
	// byte steps per k: 2 sAk, 2 sBk
	mul.wide.u32 	%rd10, %r5, 2;
	mul.wide.u32 	%rd11, %r6, 2;
	// flags bit 0: A is bf16; bit 1: B is bf16
	and.b32 	%r19, %r12, 1;
	setp.ne.u32 	%p4, %r19, 0;
	and.b32 	%r19, %r12, 2;
	setp.ne.u32 	%p5, %r19, 0;
	mov.f32 	%f3, 0f00000000;
	mov.u32 	%r20, %r3;
	setp.eq.u32 	%p6, %r20, 0;
	@%p6 bra 	$L_epilogue;
$L_loop:
	ld.global.b16 	%h1, [%rd6];
	ld.global.b16 	%h2, [%rd8];
	cvt.f32.f16 	%f4, %h1;
	cvt.f32.f16 	%f5, %h2;
	// a bfloat16 is the high half of its binary32
	@%p4 cvt.u32.u16 	%r21, %h1;
	@%p4 shl.b32 	%r21, %r21, 16;
	@%p4 mov.b32 	%f4, %r21;
	@%p5 cvt.u32.u16 	%r22, %h2;
	@%p5 shl.b32 	%r22, %r22, 16;
	@%p5 mov.b32 	%f5, %r22;
	fma.rn.f32 	%f3, %f4, %f5, %f3;
	add.s64 	%rd6, %rd6, %rd10;
	add.s64 	%rd8, %rd8, %rd11;
	sub.s32 	%r20, %r20, 1;
	setp.ne.u32 	%p6, %r20, 0;
	@%p6 bra 	$L_loop;
$L_epilogue:
	// x = alpha acc
	mul.rn.f32 	%f3, %f3, %f1;
	// element index of D(b, i, j) and C(b, i, j): b strideC + i ldc + j
	mul.wide.u32 	%rd12, %r18, %r11;
	mul.wide.u32 	%rd13, %r17, %r8;
	add.s64 	%rd12, %rd12, %rd13;
	cvt.u64.u32 	%rd14, %r16;
	add.s64 	%rd12, %rd12, %rd14;
	// flags bits 2-3: D's (and C's) type, 0 f32, 1 f16, 2 bf16
	shr.u32 	%r23, %r12, 2;
	and.b32 	%r23, %r23, 3;
	setp.eq.u32 	%p7, %r23, 0;
	setp.eq.u32 	%p8, %r23, 1;
	// flags bit 5: x += beta C (never read otherwise: beta = 0)
	and.b32 	%r24, %r12, 32;
	setp.eq.u32 	%p9, %r24, 0;
	@%p9 bra 	$L_bias;
	cvta.to.global.u64 	%rd15, %rd4;
	@%p7 bra 	$L_c32;
	shl.b64 	%rd16, %rd12, 1;
	add.s64 	%rd16, %rd15, %rd16;
	ld.global.b16 	%h3, [%rd16];
	cvt.f32.f16 	%f6, %h3;
	@%p8 bra 	$L_cfma;
	cvt.u32.u16 	%r25, %h3;
	shl.b32 	%r25, %r25, 16;
	mov.b32 	%f6, %r25;
	bra.uni 	$L_cfma;
$L_c32:
	shl.b64 	%rd16, %rd12, 2;
	add.s64 	%rd16, %rd15, %rd16;
	ld.global.f32 	%f6, [%rd16];
$L_cfma:
	fma.rn.f32 	%f3, %f2, %f6, %f3;
$L_bias:
	// x += bias(j) when the bias pointer is not null
	setp.eq.u64 	%p10, %rd5, 0;
	@%p10 bra 	$L_relu;
	cvta.to.global.u64 	%rd17, %rd5;
	mul.wide.u32 	%rd18, %r16, 4;
	add.s64 	%rd17, %rd17, %rd18;
	ld.global.f32 	%f7, [%rd17];
	add.rn.f32 	%f3, %f3, %f7;
$L_relu:
	// flags bit 4: x = max(x, 0) (a NaN becomes 0)
	and.b32 	%r26, %r12, 16;
	setp.eq.u32 	%p11, %r26, 0;
	@%p11 bra 	$L_store;
	max.f32 	%f3, %f3, 0f00000000;
$L_store:
	@%p7 bra 	$L_d32;
	shl.b64 	%rd19, %rd12, 1;
	add.s64 	%rd19, %rd1, %rd19;
	@%p8 bra 	$L_d16;
	// bfloat16 to nearest even: (bits + 0x7fff + bit 16) >> 16; NaN: 0x7fc0
	mov.b32 	%r27, %f3;
	shr.u32 	%r28, %r27, 16;
	and.b32 	%r28, %r28, 1;
	add.s32 	%r28, %r28, 32767;
	add.s32 	%r29, %r27, %r28;
	shr.u32 	%r29, %r29, 16;
	setp.nan.f32 	%p1, %f3, %f3;
	@%p1 mov.u32 	%r29, 32704;
	cvt.u16.u32 	%h3, %r29;
	st.global.b16 	[%rd19], %h3;
	bra.uni 	$L_done;
$L_d16:
	cvt.rn.f16.f32 	%h3, %f3;
	st.global.b16 	[%rd19], %h3;
	bra.uni 	$L_done;
$L_d32:
	shl.b64 	%rd19, %rd12, 2;
	add.s64 	%rd19, %rd1, %rd19;
	st.global.f32 	[%rd19], %f3;
$L_done:
	ret;
}
)PTX";

const char *getReferenceKernelPTX() { return ReferencePTX; }

} // namespace run
} // namespace tp
