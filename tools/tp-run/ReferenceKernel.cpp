//===- ReferenceKernel.cpp - A simple GEMM in PTX for checking on the GPU -===//
///
/// \file
/// The PTX of tp_ref_gemm (see ReferenceKernel.h).  Written by hand for
/// clarity, not speed: the loop is the textbook one, so that what it
/// computes is evident from reading it.  PTX ISA 6.5 / sm_70 so that every
/// driver from CUDA 10.2 on can JIT it for the GPU at hand.
///
//===----------------------------------------------------------------------===//

#include "ReferenceKernel.h"

namespace tp {
namespace run {

static const char ReferencePTX[] = R"PTX(//
// tp_ref_gemm: C(i, j) = sum_k A(i, k) * B(k, j) [+ R(i, j)]
// one thread per element; j from x, i from y; f16 -> f32, fma.rn.f32 in k order
//
.version 6.5
.target sm_70
.address_size 64

.visible .entry tp_ref_gemm(
	.param .u64 tp_ref_gemm_c,
	.param .u64 tp_ref_gemm_a,
	.param .u64 tp_ref_gemm_b,
	.param .u64 tp_ref_gemm_r,
	.param .u32 tp_ref_gemm_m,
	.param .u32 tp_ref_gemm_n,
	.param .u32 tp_ref_gemm_k,
	.param .u32 tp_ref_gemm_sai,
	.param .u32 tp_ref_gemm_sak,
	.param .u32 tp_ref_gemm_sbk,
	.param .u32 tp_ref_gemm_sbj
)
{
	.reg .pred 	%p<5>;
	.reg .b16 	%h<3>;
	.reg .b32 	%r<16>;
	.reg .f32 	%f<6>;
	.reg .b64 	%rd<16>;

	ld.param.u64 	%rd1, [tp_ref_gemm_c];
	ld.param.u64 	%rd2, [tp_ref_gemm_a];
	ld.param.u64 	%rd3, [tp_ref_gemm_b];
	ld.param.u64 	%rd4, [tp_ref_gemm_r];
	ld.param.u32 	%r1, [tp_ref_gemm_m];
	ld.param.u32 	%r2, [tp_ref_gemm_n];
	ld.param.u32 	%r3, [tp_ref_gemm_k];
	ld.param.u32 	%r4, [tp_ref_gemm_sai];
	ld.param.u32 	%r5, [tp_ref_gemm_sak];
	ld.param.u32 	%r6, [tp_ref_gemm_sbk];
	ld.param.u32 	%r7, [tp_ref_gemm_sbj];
	// j = ctaid.x * ntid.x + tid.x;  i = ctaid.y * ntid.y + tid.y
	mov.u32 	%r8, %ctaid.x;
	mov.u32 	%r9, %ntid.x;
	mov.u32 	%r10, %tid.x;
	mad.lo.s32 	%r11, %r8, %r9, %r10;
	mov.u32 	%r8, %ctaid.y;
	mov.u32 	%r9, %ntid.y;
	mov.u32 	%r10, %tid.y;
	mad.lo.s32 	%r12, %r8, %r9, %r10;
	setp.ge.u32 	%p1, %r11, %r2;
	setp.ge.u32 	%p2, %r12, %r1;
	or.pred 	%p3, %p1, %p2;
	@%p3 bra 	$L_done;
	cvta.to.global.u64 	%rd1, %rd1;
	cvta.to.global.u64 	%rd2, %rd2;
	cvta.to.global.u64 	%rd3, %rd3;
	// pa = &A(i, 0) = A + 2 * i * sAi;  pb = &B(0, j) = B + 2 * j * sBj
	mul.wide.u32 	%rd5, %r12, %r4;
	shl.b64 	%rd5, %rd5, 1;
	add.s64 	%rd6, %rd2, %rd5;
	mul.wide.u32 	%rd7, %r11, %r7;
	shl.b64 	%rd7, %rd7, 1;
	add.s64 	%rd8, %rd3, %rd7;
	// byte steps per k: 2 * sAk, 2 * sBk
	mul.wide.u32 	%rd9, %r5, 2;
	mul.wide.u32 	%rd10, %r6, 2;
	mov.f32 	%f1, 0f00000000;
	mov.u32 	%r13, %r3;
	setp.eq.u32 	%p4, %r13, 0;
	@%p4 bra 	$L_store;
$L_loop:
	ld.global.b16 	%h1, [%rd6];
	ld.global.b16 	%h2, [%rd8];
	cvt.f32.f16 	%f2, %h1;
	cvt.f32.f16 	%f3, %h2;
	fma.rn.f32 	%f1, %f2, %f3, %f1;
	add.s64 	%rd6, %rd6, %rd9;
	add.s64 	%rd8, %rd8, %rd10;
	sub.s32 	%r13, %r13, 1;
	setp.ne.u32 	%p4, %r13, 0;
	@%p4 bra 	$L_loop;
$L_store:
	// byte offset of C(i, j) (and R(i, j)): 4 * (i * N + j)
	mul.wide.u32 	%rd11, %r12, %r2;
	cvt.u64.u32 	%rd12, %r11;
	add.s64 	%rd11, %rd11, %rd12;
	shl.b64 	%rd11, %rd11, 2;
	setp.eq.u64 	%p4, %rd4, 0;
	@%p4 bra 	$L_write;
	cvta.to.global.u64 	%rd13, %rd4;
	add.s64 	%rd13, %rd13, %rd11;
	ld.global.f32 	%f4, [%rd13];
	add.rn.f32 	%f1, %f1, %f4;
$L_write:
	add.s64 	%rd14, %rd1, %rd11;
	st.global.f32 	[%rd14], %f1;
$L_done:
	ret;
}
)PTX";

const char *getReferenceKernelPTX() { return ReferencePTX; }

} // namespace run
} // namespace tp
