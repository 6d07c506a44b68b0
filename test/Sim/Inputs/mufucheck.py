#!/usr/bin/env python3
"""Inputs and check for test/Sim/mufu.ptx: per thread t, 14 results of
x = in[t] at out[16 t ..]: ex2, ex2.ftz, lg2, lg2.ftz, rcp, rcp.ftz, rsqrt,
rsqrt.ftz, sin, cos, sin.ftz, sqrt, (pad), tanh... in the kernel's order
(mufu.ptx stores {ex2, ex2.ftz, lg2, lg2.ftz}, {rcp, rcp.ftz, rsqrt,
rsqrt.ftz}, {sin, cos, sin.ftz, sqrt}, tanh).  Each result is compared
with the exact value (binary64) of what the PTX means, within the bounds
mufu.ptx's header states, and within the error the PTX ISA documents for
the instruction (documented()).

usage: mufucheck.py gen IN | check OUT IN
"""
import math
import random
import struct
import sys

N = 256
TINY = 2.0 ** -126  # binary32's smallest normal


def f32(x):
    return struct.unpack('<f', struct.pack('<f', x))[0]


def ulp(x):
    """binary32 ulp at |x| (subnormal spacing below TINY)."""
    x = abs(x)
    if x < TINY:
        return 2.0 ** -149
    e = math.frexp(x)[1] - 1
    return 2.0 ** (e - 23)


def gen(path):
    rng = random.Random(5)
    xs = [0.0, -0.0, float('inf'), float('-inf'), float('nan'), 1.0, -1.0,
          0.5, 2.0, math.pi, -math.pi, 1e-40, -1e-40, 2.0 ** -149, 3e38,
          -3e38, 126.5, -126.5, -149.5, 128.0, -0.25, 1.5e-39]
    while len(xs) < N:
        k = rng.randrange(6)
        if k == 0:
            xs.append(rng.uniform(-math.pi, math.pi))
        elif k == 1:
            xs.append(rng.uniform(0.5, 2.0))
        elif k == 2:
            xs.append(rng.uniform(-140, 130))
        elif k == 3:
            xs.append(math.ldexp(rng.uniform(0.5, 1), rng.randrange(-148, 127)))
        elif k == 4:
            xs.append(-math.ldexp(rng.uniform(0.5, 1), rng.randrange(-148, 127)))
        else:
            xs.append(rng.uniform(-10, 10))
    open(path, 'wb').write(struct.pack('<%df' % N, *[f32(x) for x in xs]))


def ftz(x):
    return math.copysign(0.0, x) if x != 0 and abs(x) < TINY else x


def exact(fn, x):
    """The exact value (binary64) of the PTX operation on x."""
    if math.isnan(x):
        return float('nan')
    try:
        if fn == 'ex2':
            return 2.0 ** x if x < 1024 else float('inf')
        if fn == 'lg2':
            if x < 0:
                return float('nan')
            return float('-inf') if x == 0 else math.log2(x)
        if fn == 'rcp':
            return math.copysign(float('inf'), x) if x == 0 else 1.0 / x
        if fn == 'rsqrt':
            if x == 0:
                return math.copysign(float('inf'), x)
            return float('nan') if x < 0 else 1.0 / math.sqrt(x)
        if fn == 'sqrt':
            if x < 0:
                return float('nan')
            return x if x == 0 else math.sqrt(x)
        if fn in ('sin', 'cos'):
            if math.isinf(x):
                return float('nan')
            return math.sin(x) if fn == 'sin' else math.cos(x)
        if fn == 'tanh':
            return math.tanh(x)
    except OverflowError:
        return float('inf')
    raise ValueError(fn)


def ok(fn, is_ftz, x, got):
    """Whether got is within the bound of the exact value for input x."""
    if is_ftz:
        x = ftz(x)
    if fn == 'tanh' and x != 0 and abs(x) < TINY and got == 0:
        # ptxas adds no scaling around MUFU.TANH: a subnormal input is
        # flushed (tp-sim's model; |error| < 2^-126).
        return math.copysign(1, got) == math.copysign(1, x)
    want = exact(fn, x)
    if math.isnan(want):
        return math.isnan(got)
    if fn in ('sin', 'cos'):
        if abs(x) > math.pi:
            return True  # the bound is stated for [-pi, pi] only
        return abs(got - want) <= 2.0 ** -21.41
    # binary32's largest finite value plus half an ulp rounds to infinity.
    big = 3.4028235677973366e38
    fw = f32(want) if abs(want) < big else math.copysign(float('inf'), want)
    if is_ftz:
        fw = ftz(fw)
    if math.isinf(fw) or fw == 0:
        # Overflow, exact zeros and infinities: equal, or within 1 ulp of
        # the largest finite / smallest value the rounding may give.
        if got == fw:
            return True
        if fw == 0 and is_ftz:
            return got == 0
        return not math.isinf(fw) and abs(got - want) <= 2.0 ** -149
    if fn == 'lg2' and 0.5 <= x <= 2:
        return abs(got - want) <= 2.0 ** -22
    return abs(got - want) <= ulp(want)


# The PTX ISA's documented error of each .approx instruction (PTX ISA 9.1,
# "Floating Point Instructions": ex2, lg2, rcp, rsqrt, sqrt, sin, cos,
# tanh): what the hardware may return.  A result of tp-sim outside it is
# a value no GPU is allowed to give.
def documented(fn, x, want):
    """The PTX ISA's bound on |result - exact| for input x (None: none)."""
    if fn == 'ex2':
        return 2 * ulp(want)             # 2 ulp, the full range
    if fn == 'rcp':
        return ulp(want)                 # 1 ulp, the full range
    if fn == 'lg2':                      # 2^-22 absolute on (0.5, 2),
        if 0.5 < x < 2:                  # relative elsewhere
            return 2.0 ** -22
        return 2.0 ** -22 * abs(want)
    if fn == 'rsqrt':
        return 2.0 ** -22.9 * abs(want)  # relative, positive finite range
    if fn == 'sqrt':
        return 2.0 ** -23 * abs(want)    # relative, positive finite range
    if fn == 'tanh':
        return 2.0 ** -11 * abs(want)    # relative, the whole range
    if fn in ('sin', 'cos'):             # absolute, by range
        if abs(x) <= 2 * math.pi:
            return 2.0 ** -20.5
        if abs(x) <= 100 * math.pi:
            return 2.0 ** -14.7
        return None                      # "best effort"
    raise ValueError(fn)


def within_documented(fn, is_ftz, x, got):
    """Whether got is within the PTX ISA's documented error (finite
    results of finite, nonzero exact values; ok() checks the special
    values exactly)."""
    if is_ftz:
        x = ftz(x)
    want = exact(fn, x)
    if math.isnan(want) or math.isinf(want) or want == 0 or math.isinf(got):
        return True
    bound = documented(fn, x, want)
    if bound is None:
        return True
    if abs(want) < TINY:  # a subnormal result: its spacing, or flushed
        bound = max(bound, TINY if is_ftz or fn == 'tanh' else 2.0 ** -149)
    return abs(got - want) <= bound


def check(out, inp):
    xs = struct.unpack('<%df' % N, open(inp, 'rb').read())
    res = struct.unpack('<%df' % (16 * N), open(out, 'rb').read())
    names = [('ex2', 0), ('ex2', 1), ('lg2', 0), ('lg2', 1), ('rcp', 0),
             ('rcp', 1), ('rsqrt', 0), ('rsqrt', 1), ('sin', 0), ('cos', 0),
             ('sin', 1), ('sqrt', 0), ('tanh', 0)]
    slots = list(range(12)) + [12]
    bad = undocumented = 0
    for t, x in enumerate(xs):
        for (fn, is_ftz), s in zip(names, slots):
            got = res[16 * t + s]
            for good, what in ((ok(fn, is_ftz, x, got), 'bound'),
                               (within_documented(fn, is_ftz, x, got),
                                'PTX ISA bound')):
                if good:
                    continue
                if what == 'bound':
                    bad += 1
                else:
                    undocumented += 1
                print('x = %r (%#010x): %s%s = %r, exact %r: outside the %s' % (
                    x, struct.unpack('<I', struct.pack('<f', x))[0], fn,
                    '.ftz' if is_ftz else '', got,
                    exact(fn, ftz(x) if is_ftz else x), what))
    print('mufu: %d of %d results outside the bounds, %d outside the PTX '
          "ISA's documented error" % (bad, N * len(names), undocumented))
    return 1 if bad or undocumented else 0


if __name__ == '__main__':
    if sys.argv[1] == 'gen':
        gen(sys.argv[2])
        sys.exit(0)
    sys.exit(check(sys.argv[2], sys.argv[3]))
