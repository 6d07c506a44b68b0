#!/usr/bin/env python3
"""sass-run.py - run a tp-llc listing on the CPU and compare C with a reference.

A functional check of the code generator, independent of tp-sim: it executes
the instruction subset tp-select emits, warp by warp (in program order, the
warps of a block meeting at every BAR.SYNC; LDGSTS copies at once, a valid
serialisation because every stage is rewritten only a barrier after its last
reader), with the PTX fragment layouts of ldmatrix and mma.m16n8k16, per-lane
predicates (guards, ISETP, SEL, LDGSTS's source predicate and .ZFILL), and
compares C with an exact reference.  Inputs are multiples of 1/8 in
[-1/2, 1/2], so every product and sum is exact in binary32 and the comparison
is exact.  f16 x f16 -> f32 kernels, with or without the residual.

  sass-run.py LISTING MANIFEST.json [--shape=MxNxK]   (tp-llc -filetype=asm / obj)

A run-time-shape kernel (manifest format 2: M, N, K and the leading
dimensions are parameters) runs at the recorded shape with the manifest's
leading dimensions, or at --shape (dense leading dimensions rounded up to 8
elements, the grid from the manifest's tile).  Every operand's padding holds
NaN and C starts as a poison pattern: an element read or written outside
the product shows.

Prints "PASS <m>x<n>x<k> ..." or the first mismatching elements and exits 1.
"""
import json
import re
import struct
import sys

MASK = 0xFFFFFFFF


def f16_bits(x):
    return struct.unpack('<H', struct.pack('<e', x))[0]


def half(bits):
    return struct.unpack('<e', struct.pack('<H', bits & 0xFFFF))[0]


def f32(x):
    return struct.unpack('<f', struct.pack('<f', x))[0]


def f32_bits(x):
    return struct.unpack('<I', struct.pack('<f', x))[0]


def bits_f32(b):
    return struct.unpack('<f', struct.pack('<I', b & MASK))[0]


class Memory:
    """Global memory: buffers at 1 MiB-aligned fake addresses."""

    def __init__(self):
        self.bufs = []

    def alloc(self, data):
        base = 0x10000000 + len(self.bufs) * 0x10000000
        self.bufs.append((base, bytearray(data)))
        return base

    def find(self, addr, n):
        for base, buf in self.bufs:
            if base <= addr and addr + n <= base + len(buf):
                return buf, addr - base
        raise RuntimeError('global access out of bounds: 0x%x' % addr)

    def read(self, addr, n):
        buf, off = self.find(addr, n)
        return bytes(buf[off:off + n])

    def write(self, addr, data):
        buf, off = self.find(addr, len(data))
        buf[off:off + len(data)] = data


INSTR = re.compile(r'^/\*([0-9a-f]+)\*/ (.*?) \{[^}]*\}$')


def parse_listing(text):
    code = {}
    for line in text.splitlines():
        m = INSTR.match(line.strip())
        if m:
            code[int(m.group(1), 16)] = m.group(2).replace('.reuse', '')
    return code


def split_ops(s):
    out, depth, cur = [], 0, ''
    for ch in s:
        if ch == '[':
            depth += 1
        elif ch == ']':
            depth -= 1
        if ch == ',' and depth == 0:
            out.append(cur.strip())
            cur = ''
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


class Block:
    def __init__(self, code, threads, ctaid, const, mem, smem_bytes):
        self.code, self.const, self.mem = code, const, mem
        self.ctaid = ctaid
        self.shared = bytearray(smem_bytes)
        self.nwarps = threads // 32
        self.regs = [[[0] * 256 for _ in range(32)] for _ in range(self.nwarps)]
        self.preds = [[[False] * 8 for _ in range(32)]
                      for _ in range(self.nwarps)]
        self.pc = [0] * self.nwarps

    # ---- operands ----
    def reg(self, w, l, name):
        if name == 'RZ':
            return 0
        return self.regs[w][l][int(name[1:])]

    def val(self, w, l, op):
        op = op.strip()
        if op == 'RZ':
            return 0
        if op.startswith('R'):
            return self.reg(w, l, op)
        if op.startswith('-R'):
            return -self.reg(w, l, op[1:]) & MASK
        m = re.match(r'c\[0x0\]\[(0x[0-9a-f]+)\]', op)
        if m:
            return self.const_word(int(m.group(1), 16))
        neg = op.startswith('-')
        v = int(op.lstrip('-'), 16)
        return (-v if neg else v) & MASK

    def const_word(self, off):
        return struct.unpack_from('<I', self.const, off)[0]

    def setr(self, w, l, name, v):
        if name != 'RZ':
            self.regs[w][l][int(name[1:])] = v & MASK

    def address(self, w, l, op):
        """[Rx+off], desc[UR4][Rx.64+off] -> (address, is64)."""
        op = op.replace('desc[UR4]', '')
        m = re.match(r'\[(R\d+)(\.64)?(?:\+(0x[0-9a-f]+))?\]', op)
        r, wide, off = m.group(1), m.group(2), m.group(3)
        off = int(off, 16) if off else 0
        if wide or op.startswith('['):
            pass
        base = self.reg(w, l, r)
        if wide:
            base |= self.regs[w][l][int(r[1:]) + 1] << 32
        return base + off

    def pred(self, w, l, name):
        """Predicate operand NAME ([!]P0..P6, [!]PT) of lane l."""
        neg = name.startswith('!')
        name = name.lstrip('!')
        v = True if name in ('PT', 'UPT') else self.preds[w][l][int(name[1:])]
        return v != neg

    # ---- one warp until BAR / EXIT ----
    def run_warp(self, w):
        """Runs warp w; returns 'bar' or 'exit'."""
        while True:
            pc = self.pc[w]
            text = self.code[pc]
            self.pc[w] = pc + 16
            lanes = range(32)
            if text.startswith('@'):
                guard, text = text.split(' ', 1)
                lanes = [l for l in range(32) if self.pred(w, l, guard[1:])]
                if not lanes:
                    continue
            mn, _, rest = text.partition(' ')
            ops = split_ops(rest)
            r = self.execute(w, pc, mn, ops, lanes)
            if r:
                return r

    def execute(self, w, pc, mn, ops, L):
        if mn == 'BAR.SYNC.DEFER_BLOCKING':
            return 'bar'
        if mn == 'EXIT':
            return 'exit'
        if mn == 'BRA':
            if len(L) != 32:
                raise RuntimeError('divergent branch at 0x%x' % pc)
            target = int(ops[0], 16)
            if target == pc:
                return 'exit'
            self.pc[w] = target
            return None
        if mn in ('NOP', 'LDGDEPBAR', 'DEPBAR.LE', 'ULDC.64'):
            return None
        if mn == 'S2R':
            for l in L:
                v = {'SR_TID.X': w * 32 + l, 'SR_CTAID.X': self.ctaid[0],
                     'SR_CTAID.Y': self.ctaid[1], 'SR_CTAID.Z': 0}[ops[1]]
                self.setr(w, l, ops[0], v)
            return None
        if mn == 'MOV':
            for l in L:
                self.setr(w, l, ops[0], self.val(w, l, ops[1]))
            return None
        if mn in ('IMAD', 'IMAD.MOV.U32'):
            for l in L:
                a, b, c = (self.val(w, l, o) for o in ops[1:4])
                self.setr(w, l, ops[0], a * b + c)
            return None
        if mn == 'IMAD.SHL.U32':
            for l in L:
                a, b = self.val(w, l, ops[1]), self.val(w, l, ops[2])
                self.setr(w, l, ops[0], a * b)
            return None
        if mn == 'LEA':  # d = (a << sh) + b
            for l in L:
                a, b, sh = (self.val(w, l, o) for o in ops[1:4])
                self.setr(w, l, ops[0], (a << sh) + b)
            return None
        if mn == 'CS2R' and ops[1] == 'SRZ':
            for l in L:
                d = int(ops[0][1:])
                self.regs[w][l][d] = self.regs[w][l][d + 1] = 0
            return None
        if mn == 'IMAD.WIDE.U32':
            m = re.match(r'c\[0x0\]\[(0x[0-9a-f]+)\]', ops[3])
            for l in L:
                a, b = self.val(w, l, ops[1]), self.val(w, l, ops[2])
                if m:
                    off = int(m.group(1), 16)
                    c = self.const_word(off) | (self.const_word(off + 4) << 32)
                else:
                    c = self.val(w, l, ops[3]) | (
                        self.regs[w][l][int(ops[3][1:]) + 1] << 32)
                v = (a * b + c) & ((1 << 64) - 1)
                d = int(ops[0][1:])
                self.regs[w][l][d] = v & MASK
                self.regs[w][l][d + 1] = v >> 32
            return None
        if mn == 'IADD3':
            for l in L:
                self.setr(w, l, ops[0],
                          sum(self.val(w, l, o) for o in ops[1:4]))
            return None
        if mn == 'LOP3.LUT':
            lut = int(ops[4], 16)
            for l in L:
                a, b, c = (self.val(w, l, o) for o in ops[1:4])
                r = 0
                for i in range(8):
                    if lut >> i & 1:
                        r |= ((a if i & 4 else ~a) & (b if i & 2 else ~b) &
                              (c if i & 1 else ~c))
                self.setr(w, l, ops[0], r)
            return None
        if mn == 'SHF.R.U32.HI':
            for l in L:
                lo, n, hi = (self.val(w, l, o) for o in ops[1:4])
                self.setr(w, l, ops[0], ((hi << 32 | lo) >> (n & 31)) >> 32)
            return None
        if mn.startswith('ISETP.') and mn.endswith('.AND'):
            # ISETP.<cmp>[.U32].AND Pd, PT, a, b, Pq: Pd = (a cmp b) && Pq.
            parts = mn.split('.')
            cmp, unsigned = parts[1], 'U32' in parts
            p = int(ops[0][1:])
            for l in L:
                a, b = self.val(w, l, ops[2]), self.val(w, l, ops[3])
                if not unsigned:
                    a = a - (1 << 32) if a >> 31 else a
                    b = b - (1 << 32) if b >> 31 else b
                r = {'LT': a < b, 'LE': a <= b, 'GT': a > b, 'GE': a >= b,
                     'EQ': a == b, 'NE': a != b}[cmp]
                self.preds[w][l][p] = r and self.pred(w, l, ops[4])
            return None
        if mn == 'SEL':
            for l in L:
                v = ops[1] if self.pred(w, l, ops[3]) else ops[2]
                self.setr(w, l, ops[0], self.val(w, l, v))
            return None
        if mn in ('LDGSTS.E.BYPASS.128', 'LDGSTS.E.BYPASS.128.ZFILL'):
            # A false source predicate copies 16 zero bytes; .ZFILL: the
            # address's low 4 bits count the zero bytes at the chunk's end.
            for l in L:
                dst = self.address(w, l, ops[0])
                data = bytes(16)
                if len(ops) < 3 or self.pred(w, l, ops[2]):
                    src = self.address(w, l, ops[1] if '.64' in ops[1] else
                                       ops[1].replace(']', '.64]', 1))
                    fill = src & 15 if mn.endswith('.ZFILL') else 0
                    data = self.mem.read(src - fill, 16 - fill) + bytes(fill)
                self.shared[dst:dst + 16] = data
            return None
        if mn in ('LDSM.16.M88.4', 'LDSM.16.MT88.4'):
            trans = 'MT88' in mn
            rows = []
            for l in L:
                a = self.address(w, l, ops[1])
                rows.append([struct.unpack_from('<H', self.shared, a + 2 * j)[0]
                             for j in range(8)])
            d = int(ops[0][1:])
            for i in range(4):
                M = rows[8 * i:8 * i + 8]
                for l in L:
                    g, c = l // 4, l % 4
                    if trans:
                        lo, hi = M[2 * c][g], M[2 * c + 1][g]
                    else:
                        lo, hi = M[g][2 * c], M[g][2 * c + 1]
                    self.regs[w][l][d + i] = lo | hi << 16
            return None
        if mn == 'HMMA.16816.F32':
            d, a, b, c = (int(o[1:]) for o in ops)
            A = [[0.0] * 16 for _ in range(16)]
            B = [[0.0] * 8 for _ in range(16)]
            C = [[0.0] * 8 for _ in range(16)]
            for l in L:
                g, t = l // 4, l % 4
                R = self.regs[w][l]
                for k, (row, col) in enumerate([(g, 2 * t), (g + 8, 2 * t),
                                                (g, 2 * t + 8),
                                                (g + 8, 2 * t + 8)]):
                    A[row][col] = half(R[a + k])
                    A[row][col + 1] = half(R[a + k] >> 16)
                for k, row in enumerate([2 * t, 2 * t + 8]):
                    B[row][g] = half(R[b + k])
                    B[row + 1][g] = half(R[b + k] >> 16)
                for k, (row, col) in enumerate([(g, 2 * t), (g, 2 * t + 1),
                                                (g + 8, 2 * t),
                                                (g + 8, 2 * t + 1)]):
                    C[row][col] = bits_f32(R[c + k])
            for l in L:
                g, t = l // 4, l % 4
                for k, (row, col) in enumerate([(g, 2 * t), (g, 2 * t + 1),
                                                (g + 8, 2 * t),
                                                (g + 8, 2 * t + 1)]):
                    s = C[row][col] + sum(A[row][i] * B[i][col]
                                          for i in range(16))
                    self.regs[w][l][d + k] = f32_bits(f32(s))
            return None
        if mn == 'STG.E.64':
            for l in L:
                a = self.address(w, l, ops[0])
                v = int(ops[1][1:])
                self.mem.write(a, struct.pack('<II', self.regs[w][l][v],
                                              self.regs[w][l][v + 1]))
            return None
        if mn == 'STG.E':
            for l in L:
                a = self.address(w, l, ops[0])
                v = int(ops[1][1:])
                self.mem.write(a, struct.pack('<I', self.regs[w][l][v]))
            return None
        if mn == 'LDG.E':
            for l in L:
                a = self.address(w, l, ops[1])
                self.setr(w, l, ops[0],
                          struct.unpack('<I', self.mem.read(a, 4))[0])
            return None
        if mn == 'FADD':
            for l in L:
                s = bits_f32(self.val(w, l, ops[1])) + bits_f32(
                    self.val(w, l, ops[2]))
                self.setr(w, l, ops[0], f32_bits(f32(s)))
            return None
        raise RuntimeError('unsupported instruction at 0x%x: %s %s' %
                           (pc, mn, ', '.join(ops)))

    def run(self):
        live = set(range(self.nwarps))
        while live:
            states = {w: self.run_warp(w) for w in sorted(live)}
            exited = {w for w, s in states.items() if s == 'exit'}
            if exited and exited != live:
                raise RuntimeError('warps disagree at a barrier: %s' % states)
            live -= exited


POISON = 0x7fbadbad


def run_shape(man, argv):
    """(M, N, K, lda, ldb, ldc, grid) the run uses: the recorded shape, or
    --shape=MxNxK for a run-time-shape kernel."""
    shape = [a.split('=', 1)[1] for a in argv if a.startswith('--shape=')]
    runtime = any(p['role'] == 'M' for p in man['params'])
    if not shape:
        M, N, K = man['m'], man['n'], man['k']
        if not runtime:
            return M, N, K, None, None, None, man['grid']
        return M, N, K, man['lda'], man['ldb'], man['ldc'], man['grid']
    if not runtime:
        raise SystemExit('sass-run.py: --shape: the kernel has its shape '
                         'built in (a run-time-shape kernel takes --shape)')
    M, N, K = (int(x) for x in shape[0].split('x'))
    up = lambda x: (x + 7) // 8 * 8
    lda = up(K) if man['layout_a'] == 'rows' else up(M)
    ldb = up(K) if man['layout_b'] == 'rows' else up(N)
    bm, bn = man['tile']
    return M, N, K, lda, ldb, up(N), [-(-N // bn), -(-M // bm), 1]


def pitched(rows, cols, ld, value, nbytes, fmt, pad):
    """rows x cols values value(r, c) with row pitch ld, pad between."""
    out = bytearray()
    for r in range(rows):
        for c in range(ld):
            out += struct.pack(fmt, value(r, c)) if c < cols else pad
    return bytes(out)


def main():
    listing, manifest_path = sys.argv[1], sys.argv[2]
    code = parse_listing(open(listing).read())
    man = json.load(open(manifest_path))
    M, N, K, lda, ldb, ldc, grid = run_shape(man, sys.argv[3:])
    la, lb = man['layout_a'], man['layout_b']
    residual = man['residual']
    # The fixed shape's operands are dense.
    if lda is None:
        lda = K if la == 'rows' else M
        ldb = K if lb == 'rows' else N
        ldc = N

    def value(i, salt):
        return ((i * 2654435761 + salt * 97) >> 7) % 9 / 8.0 - 0.5

    # Logical A (m, k) and B (k, n), stored as the layouts say, NaN in the
    # padding of each row.
    Am = [[value(m * K + k, 1) for k in range(K)] for m in range(M)]
    Bm = [[value(k * N + n, 2) for n in range(N)] for k in range(K)]
    Rm = [[value(m * N + n, 3) for n in range(N)] for m in range(M)]
    nan16, nan32 = struct.pack('<H', 0x7e00), struct.pack('<I', 0x7fc00000)
    if la == 'rows':
        a = pitched(M, K, lda, lambda r, c: Am[r][c], 2, '<e', nan16)
    else:
        a = pitched(K, M, lda, lambda r, c: Am[c][r], 2, '<e', nan16)
    if lb == 'columns':
        b = pitched(K, N, ldb, lambda r, c: Bm[r][c], 2, '<e', nan16)
    else:
        b = pitched(N, K, ldb, lambda r, c: Bm[c][r], 2, '<e', nan16)
    mem = Memory()
    ptr = {
        'C': mem.alloc(struct.pack('<I', POISON) * (M * ldc)),
        'A': mem.alloc(a),
        'B': mem.alloc(b),
    }
    if residual:
        ptr['R'] = mem.alloc(pitched(M, N, ldc, lambda r, c: Rm[r][c], 4,
                                     '<f', nan32))
    values = {'M': M, 'N': N, 'K': K, 'LDA': lda, 'LDB': ldb, 'LDC': ldc}
    const = bytearray(0x160 + 8 * len(man['params']))
    struct.pack_into('<I', const, 0x28, 0xfffc00)
    for p in man['params']:
        role = p['role']
        if role not in ptr and role not in values:
            raise SystemExit('sass-run.py: parameter role %s is not run '
                             '(f16 x f16 -> f32 kernels, one product)' % role)
        struct.pack_into('<Q' if p['size'] == 8 else '<I', const,
                         0x160 + p['offset'],
                         ptr[role] if role in ptr else values[role])
    smem = man['dynamic_shared_bytes'] + man['static_shared_bytes']
    gx, gy, _ = grid
    try:
        for y in range(gy):
            for x in range(gx):
                Block(code, man['block'][0], (x, y), const, mem, smem).run()
    except RuntimeError as e:  # an access outside the operands, ...
        print('FAIL block (%d, %d): %s' % (x, y, e))
        return 1
    out = mem.read(ptr['C'], 4 * M * ldc)
    bad = 0
    for m in range(M):
        for n in range(ldc):
            got = struct.unpack_from('<I', out, 4 * (m * ldc + n))[0]
            if n >= N:
                if got != POISON:
                    if bad < 5:
                        print('C[%d][%d] (beyond N) written' % (m, n))
                    bad += 1
                continue
            want = f32(sum(Am[m][k] * Bm[k][n] for k in range(K)) +
                       (Rm[m][n] if residual else 0.0))
            got = bits_f32(got)
            if got != want:
                if bad < 5:
                    print('C[%d][%d] = %r, expected %r' % (m, n, got, want))
                bad += 1
    if bad:
        print('FAIL %d of %d elements differ' % (bad, M * ldc))
        return 1
    print('PASS %dx%dx%d a=%s b=%s residual=%d' % (M, N, K, la, lb, residual))
    return 0


if __name__ == '__main__':
    sys.exit(main())
