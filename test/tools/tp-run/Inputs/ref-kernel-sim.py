"""Runs tp-run's reference kernel (tp_ref_gemm, built by ptxas) on tp-sim
in generic mode and checks D bit for bit against the product computed
here: the kernel's PTX is then proven, not only the mock's C++ copy of it.

    ref-kernel-sim.py TP_SIM REF_CUBIN WORKDIR

Inputs are multiples of 1/64 in [-1, 1] (exact in f16 and bf16), so every
f32 operation of the kernel is exact and D is the exact epilogue rounded
once to D's type (to nearest even); bf16 and f16 D need that rounding.
Each case: layouts, types, the epilogue's flags, a batch, padded rows.
"""
import os
import random
import struct
import subprocess
import sys

TP_SIM, CUBIN, WORK = sys.argv[1:4]
F16, BF16, F32 = "f16", "bf16", "f32"


def f16_bits(x):
    return struct.unpack("<H", struct.pack("<e", x))[0]


def f32_bits(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


def bf16_bits(x):
    b = f32_bits(x)  # x is exact in f32 here
    return ((b + 0x7fff + ((b >> 16) & 1)) >> 16) & 0xffff


def bits16(x, t):
    return bf16_bits(x) if t == BF16 else f16_bits(x)


def d_bytes(x, t):
    if t == F32:
        return struct.pack("<f", x)
    return struct.pack("<H", bits16(x, t))


CASES = [
    # layout_a, layout_b, a/b type, d type, relu, beta, bias, M, N, K, batch
    ("rows", "columns", F16, F32, False, 0.0, False, 13, 11, 9, 1),
    ("columns", "rows", BF16, F16, True, 2.0, True, 7, 19, 5, 2),
    ("rows", "rows", F16, BF16, False, -1.0, True, 9, 8, 17, 3),
    ("columns", "columns", BF16, BF16, True, 0.0, False, 5, 6, 7, 2),
]


def run_case(i, case):
    la, lb, ab, dt, relu, beta, has_bias, M, N, K, NB = case
    alpha = 0.5
    rng = random.Random(i)
    val = lambda: rng.randint(-64, 64) / 64.0
    rows_a, cols_a = (M, K) if la == "rows" else (K, M)
    rows_b, cols_b = (N, K) if lb == "rows" else (K, N)
    # Rows padded by 3, 5 and 2 elements and batch gaps of 1 to 3, so that
    # the pitch and the strides are exercised; NaN in the padding.
    lda, ldb, ldc = cols_a + 3, cols_b + 5, N + 2
    sa, sb, sc = rows_a * lda + 1, rows_b * ldb + 2, M * ldc + 3
    nan16 = 0x7fc0 if ab == BF16 else 0x7e00
    A = [[[val() for _ in range(cols_a)] for _ in range(rows_a)]
         for _ in range(NB)]
    B = [[[val() for _ in range(cols_b)] for _ in range(rows_b)]
         for _ in range(NB)]
    C = [[[val() for _ in range(N)] for _ in range(M)] for _ in range(NB)]
    bias = [val() for _ in range(N)]

    def storage(X, rows, ld, stride, elem, fill):
        out = [fill] * ((NB - 1) * stride + rows * ld)
        for b in range(NB):
            for r in range(rows):
                for c, v in enumerate(X[b][r]):
                    out[b * stride + r * ld + c] = elem(v)
        return out

    a_words = storage(A, rows_a, lda, sa, lambda v: bits16(v, ab), nan16)
    b_words = storage(B, rows_b, ldb, sb, lambda v: bits16(v, ab), nan16)
    files = {}
    files["a"] = struct.pack("<%dH" % len(a_words), *a_words)
    files["b"] = struct.pack("<%dH" % len(b_words), *b_words)
    span_c = (NB - 1) * sc + M * ldc
    c_nan = float("nan")
    c_vals = storage(C, M, ldc, sc, lambda v: v if beta != 0 else c_nan,
                     c_nan)
    files["c"] = b"".join(d_bytes(v, dt) if v == v else
                          (struct.pack("<f", c_nan) if dt == F32 else
                           struct.pack("<H", 0x7e00 if dt == F16 else 0x7fc0))
                          for v in c_vals)
    files["bias"] = struct.pack("<%df" % N, *bias)
    for name, data in files.items():
        with open(os.path.join(WORK, "%d.%s" % (i, name)), "wb") as f:
            f.write(data)
    esize = 4 if dt == F32 else 2
    flags = (1 if ab == BF16 else 0) | (2 if ab == BF16 else 0) | \
        ({F32: 0, F16: 4, BF16: 8}[dt]) | (16 if relu else 0) | \
        (32 if beta != 0 else 0)
    sai, sak = (lda, 1) if la == "rows" else (1, lda)
    sbk, sbj = (1, ldb) if lb == "rows" else (ldb, 1)
    out = os.path.join(WORK, "%d.d" % i)
    path = lambda n: os.path.join(WORK, "%d.%s" % (i, n))
    cmd = [TP_SIM, CUBIN, "--kernel", "tp_ref_gemm",
           "--grid", "%d,%d,%d" % ((N + 31) // 32, (M + 7) // 8, NB),
           "--block", "32,8,1",
           "--param", "buf:out=%s:%d" % (out, span_c * esize),
           "--param", "buf:in=" + path("a"), "--param", "buf:in=" + path("b"),
           "--param", "buf:in=" + path("c"),
           "--param", ("buf:in=" + path("bias")) if has_bias else "u64=0",
           "--param", "f32=%r" % alpha, "--param", "f32=%r" % beta]
    for v in (M, N, K, sai, sak, sbk, sbj, ldc, sa, sb, sc, flags):
        cmd += ["--param", "u32=%d" % v]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    got = open(out, "rb").read()
    bad = 0
    for b in range(NB):
        for i_ in range(M):
            for j in range(N):
                acc = 0.0
                for k in range(K):
                    a = A[b][i_][k] if la == "rows" else A[b][k][i_]
                    bb = B[b][j][k] if lb == "rows" else B[b][k][j]
                    acc += a * bb
                x = alpha * acc + (beta * C[b][i_][j] if beta != 0 else 0)
                if has_bias:
                    x += bias[j]
                if relu:
                    x = max(x, 0.0)
                at = (b * sc + i_ * ldc + j) * esize
                if got[at:at + esize] != d_bytes(x, dt):
                    bad += 1
    # The padding of D keeps tp-sim's 0xff fill.
    inside = set((b * sc + i_ * ldc + j) for b in range(NB)
                 for i_ in range(M) for j in range(N))
    outside = sum(1 for e in range(span_c) if e not in inside and
                  got[e * esize:(e + 1) * esize] != b"\xff" * esize)
    print("case %d: %s x %s, %s -> %s, relu %d, beta %g, bias %d, "
          "%dx%dx%dx%d: %d wrong, %d written outside" %
          (i, la, lb, ab, dt, relu, beta, has_bias, M, N, K, NB, bad,
           outside))
    return bad == 0 and outside == 0


ok = all([run_case(i, c) for i, c in enumerate(CASES)])
print("PASS" if ok else "FAIL")
sys.exit(0 if ok else 1)
