#!/usr/bin/env python3
#===- utils/cublas-hgemm.py - Time cuBLAS HGEMM for gpu-check.sh ----------===#
#
# Usage: cublas-hgemm.py SIZE [ITERATIONS]
#
# Times C (f32, S x S) = A (f16, rows) B (f16, columns) with cuBLAS, f32
# accumulation, the median of ITERATIONS (50) products after 10 warm-ups,
# each between two CUDA events, and prints one line
#   summary: kind=KIND shape=SxSxS median_ms=T tflops=F
# KIND says what ran:
#   gemmEx-f32out   CuPy -> cublasGemmEx, A/B CUDA_R_16F, C CUDA_R_32F,
#                   CUBLAS_COMPUTE_32F (exactly our kernel's contract);
#   torch-f32out    torch.mm(a, b, out_dtype=torch.float32);
#   torch-f16out    torch.mm on halves with f32 accumulation forced
#                   (allow_fp16_reduced_precision_reduction = False); C is
#                   f16, so it writes half the bytes of ours.
# The first that works is used.  A rough check (C[0, :8] against a float64
# product on the host) guards against timing a wrong call.
#
# UNTESTED: written without a GPU, CuPy or PyTorch at hand; gpu-check.sh
# prints n/a in the cuBLAS column when this fails.
#
#===----------------------------------------------------------------------===#
import statistics
import sys


def time_calls(fn, sync_events, iterations):
    start_ev, stop_ev, elapsed = sync_events
    for _ in range(10):
        fn()
    times = []
    for _ in range(iterations):
        start_ev.record()
        fn()
        stop_ev.record()
        stop_ev.synchronize()
        times.append(elapsed(start_ev, stop_ev))
    return statistics.median(times)


def with_cupy(s, iterations):
    import cupy
    import numpy
    from cupy_backends.cuda.libs import cublas

    rng = numpy.random.default_rng(1)
    a_host = (rng.integers(-1024, 1025, (s, s)) / 1024).astype(numpy.float16)
    b_host = (rng.integers(-1024, 1025, (s, s)) / 1024).astype(numpy.float16)
    a = cupy.asarray(a_host)  # M x K row-major
    b = cupy.asarray(b_host)  # K x N row-major
    c = cupy.empty((s, s), dtype=cupy.float32)
    handle = cupy.cuda.device.get_cublas_handle()
    one = numpy.array(1.0, dtype=numpy.float32)
    zero = numpy.array(0.0, dtype=numpy.float32)
    CUDA_R_16F, CUDA_R_32F, COMPUTE_32F, DEFAULT_ALGO = 2, 0, 68, -1

    # Row-major C = A B is column-major C^T = B^T A^T: cuBLAS sees B as the
    # first operand (N x K column-major = our K x N row-major).
    def call():
        cublas.gemmEx(handle, cublas.CUBLAS_OP_N, cublas.CUBLAS_OP_N, s, s, s,
                      one.ctypes.data, b.data.ptr, CUDA_R_16F, s,
                      a.data.ptr, CUDA_R_16F, s, zero.ctypes.data,
                      c.data.ptr, CUDA_R_32F, s, COMPUTE_32F, DEFAULT_ALGO)

    call()
    cupy.cuda.Device().synchronize()
    want = a_host[0].astype(numpy.float64) @ b_host[:, :8].astype(numpy.float64)
    got = cupy.asnumpy(c[0, :8]).astype(numpy.float64)
    if numpy.max(numpy.abs(got - want)) > 1e-2 * max(1.0, numpy.max(numpy.abs(want))):
        raise RuntimeError("cublasGemmEx result check failed")

    def elapsed(x, y):
        return cupy.cuda.get_elapsed_time(x, y)

    events = (cupy.cuda.Event(), cupy.cuda.Event(), elapsed)
    return "gemmEx-f32out", time_calls(call, events, iterations)


def with_torch(s, iterations):
    import torch

    torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction = False
    gen = torch.Generator().manual_seed(1)
    a = (torch.randint(-1024, 1025, (s, s), generator=gen) / 1024).half().cuda()
    b = (torch.randint(-1024, 1025, (s, s), generator=gen) / 1024).half().cuda()
    kind = "torch-f32out"
    try:
        c = torch.mm(a, b, out_dtype=torch.float32)
        call = lambda: torch.mm(a, b, out_dtype=torch.float32)
    except (TypeError, RuntimeError):
        kind = "torch-f16out"
        c = torch.mm(a, b)
        call = lambda: torch.mm(a, b)
    torch.cuda.synchronize()
    want = a[0].double().cpu() @ b[:, :8].double().cpu()
    got = c[0, :8].double().cpu()
    if (got - want).abs().max().item() > 1e-2 * max(1.0, want.abs().max().item()):
        raise RuntimeError("torch.mm result check failed")
    events = (torch.cuda.Event(enable_timing=True),
              torch.cuda.Event(enable_timing=True),
              lambda x, y: x.elapsed_time(y))
    return kind, time_calls(call, events, iterations)


def main():
    if len(sys.argv) not in (2, 3):
        print(__doc__ or "usage: cublas-hgemm.py SIZE [ITERATIONS]", file=sys.stderr)
        return 1
    s = int(sys.argv[1])
    iterations = int(sys.argv[2]) if len(sys.argv) == 3 else 50
    errors = []
    for attempt in (with_cupy, with_torch):
        try:
            kind, ms = attempt(s, iterations)
        except Exception as e:  # try the next route; report all at the end
            errors.append("%s: %s: %s" % (attempt.__name__, type(e).__name__, e))
            continue
        tflops = 2.0 * s * s * s / (ms * 1e-3) / 1e12
        print("summary: kind=%s shape=%dx%dx%d median_ms=%.4f tflops=%.2f"
              % (kind, s, s, s, ms, tflops))
        return 0
    for e in errors:
        print("cublas-hgemm: " + e, file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
