#!/usr/bin/env python3
"""Runs a kernel of the timing model's calibration set
(shared/calibration/cases.json: siboehm's SGEMM ladder k01..k11 and the
CUTLASS 2.2 tensor-op GEMM) unchanged in tp-sim at a small shape, with
values the reference computes exactly, and compares every element of the
result with the exact reference (what the kernel's source means: C = alpha
A B + beta C).

* siboehm (f32, row-major, sgemm(M, N, K, alpha, A, B, beta, C)): M = N =
  256, K = 32, alpha 0.5 and beta 3.0 as the case; the grid is the case's
  scaled from 4096 to 256 (every kernel's grid is CEIL_DIV of M and N by
  its tile).  A, B, C hold multiples of 1/8 in [-2, 2], so every product,
  sum and the epilogue are exact in binary32: the comparison is exact.
* CUTLASS (f16 in, f32 accumulate, 256x128x32 tile, 3 stages): the
  kernel's problem m x n x k = 256 x 256 x 64 (the profiler's column-major
  problem transposed, as the case's), alpha 1, beta 0.  GemmUniversal's
  Params is the case's block with the shape-dependent fields rewritten:
  the problem and tiled shapes, gemm_k_size, the four pointers (tp-sim's
  allocation rule, as the case's .cu computes them) and the iterator
  parameters, which CUTLASS computes linearly from the leading dimensions
  (PredicatedTileAccessIterator: stride, inc_strided, inc_next,
  inc_advance; the epilogue's PredicatedTileIterator: eight multiples of
  the row stride in bytes), each coefficient read off the case's own
  block.  Inputs are multiples of 1/8 in [-2, 2]: exact in f16 and in the
  f32 sums.

usage: calibration.py CALDIR CASE OUTDIR [tp-sim options...]
"""
import json
import operator
import os
import random
import struct
import subprocess
import sys

BUF_BASE = 0x7f0000000000


def alloc(sizes):
    """tp-sim's GlobalMemory::allocate addresses for buffers of sizes."""
    addrs, nxt = [], BUF_BASE
    for b in sizes:
        addrs.append(nxt)
        nxt = (nxt + b + 0x10000 + 255) & ~255
    return addrs


def run(args):
    r = subprocess.run(args, capture_output=True, text=True)
    sys.stdout.write(r.stdout)
    if r.returncode:
        sys.stderr.write(r.stderr)
        sys.exit('tp-sim failed (exit %d)' % r.returncode)


def eighths(rng, n):
    return [rng.randrange(-16, 17) for _ in range(n)]


def compare(name, got, want):
    bad = sum(1 for g, w in zip(got, want) if g != w)
    for i, (g, w) in enumerate(zip(got, want)):
        if g != w:
            print('  element %d: got %r, want %r' % (i, g, w))
            break
    print('%s: %d elements, %d differ from the exact reference'
          % (name, len(want), bad))
    return 1 if bad else 0


def siboehm(cal, case, out, extra):
    M = N = 256
    K = 32
    rng = random.Random(7)
    A, B, C = eighths(rng, M * K), eighths(rng, K * N), eighths(rng, M * N)
    f32 = lambda v: struct.pack('<%df' % len(v), *[x / 8 for x in v])
    pa, pb, pc = (os.path.join(out, case['id'] + s) for s in ('.a', '.b', '.c'))
    open(pa, 'wb').write(f32(A))
    open(pb, 'wb').write(f32(B))
    open(pc, 'wb').write(f32(C))
    grid = [max(1, g * M // 4096) for g in case['grid'][:2]] + [1]
    params = case['params']
    assert params[3] == 'f32=0.5' and params[6] == 'f32=3.0', params
    run(['tp-sim', os.path.join(cal, case['cubin']), '--kernel',
         case['kernel'], '--grid', ','.join(map(str, grid)), '--block',
         ','.join(map(str, case['block'])), '--param', 's32=%d' % M,
         '--param', 's32=%d' % N, '--param', 's32=%d' % K, '--param',
         'f32=0.5', '--param', 'buf:in=' + pa, '--param', 'buf:in=' + pb,
         '--param', 'f32=3.0', '--param', 'buf:inout=' + pc + ':' + pc + '.out']
        + extra)
    got = list(struct.unpack('<%df' % (M * N), open(pc + '.out', 'rb').read()))
    Bt = [B[k::N] for k in range(N)]  # columns of B
    want = []
    for i in range(M):
        row = A[i * K:(i + 1) * K]
        for j in range(N):
            dot = sum(map(operator.mul, row, Bt[j]))  # in 1/64
            want.append(0.5 * dot / 64 + 3.0 * C[i * N + j] / 8)
    return compare(case['id'], got, want)


def cutlass(cal, case, out, extra):
    m, n, k = 256, 256, 64  # the kernel's problem (row-major A m x k, B k x n)
    tile_m, tile_n, swz = 256, 128, 8
    ref = open(os.path.join(cal, case['params'][0][len('bytes=@'):])).read()
    P = bytearray(bytes.fromhex(''.join(ref.split())))
    q = lambda off: struct.unpack_from('<q', P, off)[0]
    i32 = lambda off: struct.unpack_from('<i', P, off)[0]
    # The case's shape and leading dimensions.
    M0, N0, K0 = i32(0), i32(4), i32(8)
    lda0, ldb0, ldc0 = K0, N0, N0
    assert (q(0x18), q(0x38), q(0x58)) == (lda0, ldb0, 4 * ldc0), 'layout'
    lda, ldb, ldc = k, n, n
    tm, tn = -(-m // tile_m), -(-n // tile_n)
    struct.pack_into('<iiiiii', P, 0, m, n, k, tm, tn, 1)
    # A's iterator: each field a + b * lda, a and b from the case (inc_next
    # and inc_advance have a constant part).
    def lin(off, ld0, ld, const):
        struct.pack_into('<q', P, off, const + (q(off) - const) // ld0 * ld)
    lin(0x18, lda0, lda, 0)
    lin(0x20, lda0, lda, 0)
    lin(0x28, lda0, lda, q(0x30))
    lin(0x30, lda0, lda, q(0x30))
    for off in (0x38, 0x40, 0x48, 0x50):
        lin(off, ldb0, ldb, 0)
    for off in range(0x58, 0xd8, 8):  # C's and D's, multiples of the stride
        lin(off, 4 * ldc0, 4 * ldc, 0)
    assert struct.unpack_from('<ff', P, 0xd8) == (1.0, 0.0)
    assert i32(0xf0) == 0 and i32(0xf4) == 1, 'mode kGemm, batch 1'
    struct.pack_into('<i', P, 0xf8, k)  # gemm_k_size (split-k 1)
    sizes = [m * k * 2, k * n * 2, m * n * 4, m * n * 4]
    for i, a in enumerate(alloc(sizes)):
        struct.pack_into('<Q', P, 0x100 + 8 * i, a)
    rng = random.Random(11)
    A, B = eighths(rng, m * k), eighths(rng, k * n)
    f16 = lambda v: struct.pack('<%de' % len(v), *[x / 8 for x in v])
    pa, pb = (os.path.join(out, case['id'] + s) for s in ('.a', '.b'))
    pd = os.path.join(out, case['id'] + '.d')
    open(pa, 'wb').write(f16(A))
    open(pb, 'wb').write(f16(B))
    grid = [tm * swz, -(-tn // swz), 1]
    run(['tp-sim', os.path.join(cal, case['cubin']), '--kernel',
         case['kernel'], '--grid', ','.join(map(str, grid)), '--block',
         ','.join(map(str, case['block'])), '--shared',
         str(case['dynamic_shared_bytes']), '--param', 'bytes=' + P.hex(),
         '--param', 'buf:in=' + pa, '--param', 'buf:in=' + pb, '--param',
         'buf:zero=%d' % sizes[2], '--param',
         'buf:out=%s:%d' % (pd, sizes[3])] + extra)
    got = list(struct.unpack('<%df' % (m * n), open(pd, 'rb').read()))
    Bt = [B[j::n] for j in range(n)]
    want = []
    for i in range(m):
        row = A[i * k:(i + 1) * k]
        for j in range(n):
            want.append(sum(map(operator.mul, row, Bt[j])) / 64)
    return compare(case['id'], got, want)


def main():
    cal, name, out = sys.argv[1:4]
    extra = sys.argv[4:]
    cases = json.load(open(os.path.join(cal, 'cases.json')))['cases']
    case = next(c for c in cases if c['id'] == name)
    os.makedirs(out, exist_ok=True)
    if case['group'] == 'siboehm-sgemm':
        return siboehm(cal, case, out, extra)
    return cutlass(cal, case, out, extra)


if __name__ == '__main__':
    sys.exit(main())
