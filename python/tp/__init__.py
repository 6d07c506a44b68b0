"""tp: compile, simulate, assemble and disassemble tensor-core GEMM kernels.

A ctypes layer over tp's C API (tp/tp.h, libtp.so)::

    import numpy as np, tp
    k = tp.gemm(a_layout="rows", b_layout="columns", m=256, n=256, k=512)
    k.cubin, k.sass, k.manifest, k.stats     # bytes, str, dict, dict
    D = k.simulate(A, B)                      # numpy in and out (tp-sim's engine)
    D = k(A, B)                               # on a GPU (CUDA driver API)
    tp.disassemble(k.cubin), tp.assemble(text, target="sm_86")

Arrays are passed as the layouts store them, row-major: A is M x K for
a_layout="rows" and K x M for "columns"; B is K x N for b_layout="columns"
and N x K for "rows"; D comes back M x N (float32).  Every failure raises
tp.Error whose message is the diagnostic tp's tools print.

libtp.so is found through $TP_LIBRARY, else the path the build or the
install recorded (tp/_config.py), else the system's library path.
"""

import ctypes
import ctypes.util
import json
import math
import numbers
import os
import struct

__all__ = ["Error", "Kernel", "gemm", "assemble", "disassemble", "version"]


class Error(Exception):
    """A failed tp call; str(e) is the tools' diagnostic."""


def _find_library():
    path = os.environ.get("TP_LIBRARY")
    if path:
        return path
    try:
        from . import _config
        if os.path.exists(_config.LIBRARY):
            return _config.LIBRARY
    except ImportError:
        pass
    found = ctypes.util.find_library("tp")
    if found:
        return found
    raise ImportError("tp: cannot find libtp.so (set TP_LIBRARY)")


class _GemmDesc(ctypes.Structure):
    # The layout of tp_gemm_desc (tp/tp.h); struct_size guards a mismatch.
    _fields_ = [
        ("struct_size", ctypes.c_size_t),
        ("m", ctypes.c_int64), ("n", ctypes.c_int64), ("k", ctypes.c_int64),
        ("a_layout", ctypes.c_char_p), ("b_layout", ctypes.c_char_p),
        ("tile", ctypes.c_char_p), ("residual", ctypes.c_int),
        ("target", ctypes.c_char_p), ("name", ctypes.c_char_p),
        ("a_type", ctypes.c_char_p), ("b_type", ctypes.c_char_p),
        ("d_type", ctypes.c_char_p),
        ("alpha", ctypes.c_double), ("beta", ctypes.c_double),
        ("bias", ctypes.c_int), ("relu", ctypes.c_int),
        ("batch", ctypes.c_int64),
        ("runtime_shape", ctypes.c_int),
    ]


class _GemmRun(ctypes.Structure):
    # tp_gemm_run (tp/tp.h).
    _fields_ = [
        ("struct_size", ctypes.c_size_t),
        ("m", ctypes.c_int64), ("n", ctypes.c_int64), ("k", ctypes.c_int64),
        ("batch", ctypes.c_int64),
        ("a", ctypes.c_void_p), ("b", ctypes.c_void_p), ("c", ctypes.c_void_p),
        ("bias", ctypes.c_void_p), ("d", ctypes.c_void_p),
        ("alpha", ctypes.c_double), ("beta", ctypes.c_double),
        ("check_schedule", ctypes.c_int),
    ]


class _GemmStorage(ctypes.Structure):
    # tp_gemm_storage (tp/tp.h).
    _fields_ = [
        ("struct_size", ctypes.c_size_t),
        ("m", ctypes.c_int64), ("n", ctypes.c_int64), ("k", ctypes.c_int64),
        ("batch", ctypes.c_int64),
        ("lda", ctypes.c_int64), ("ldb", ctypes.c_int64),
        ("ldc", ctypes.c_int64),
        ("stride_a", ctypes.c_int64), ("stride_b", ctypes.c_int64),
        ("stride_c", ctypes.c_int64),
        ("grid", ctypes.c_uint32 * 3),
    ]


_lib = ctypes.CDLL(_find_library())
_c_str = ctypes.c_char_p
_err = ctypes.POINTER(ctypes.c_char_p)


def _declare(name, restype, *argtypes):
    fn = getattr(_lib, name)
    fn.restype = restype
    fn.argtypes = list(argtypes)
    return fn


_version = _declare("tp_version", _c_str)
_desc_init = _declare("tp_gemm_desc_init", None, ctypes.POINTER(_GemmDesc))
_compile = _declare("tp_gemm_compile", ctypes.c_int,
                    ctypes.POINTER(_GemmDesc), ctypes.POINTER(ctypes.c_void_p),
                    ctypes.POINTER(ctypes.c_void_p))
_cubin = _declare("tp_kernel_cubin", ctypes.c_void_p, ctypes.c_void_p,
                  ctypes.POINTER(ctypes.c_size_t))
_sass = _declare("tp_kernel_sass", _c_str, ctypes.c_void_p)
_manifest = _declare("tp_kernel_manifest_json", _c_str, ctypes.c_void_p)
_stats = _declare("tp_kernel_stats_json", _c_str, ctypes.c_void_p)
_kernel_free = _declare("tp_kernel_free", None, ctypes.c_void_p)
_string_free = _declare("tp_string_free", None, ctypes.c_void_p)
_buffer_free = _declare("tp_buffer_free", None, ctypes.c_void_p)
_disassemble = _declare("tp_disassemble", ctypes.c_int, ctypes.c_char_p,
                        ctypes.c_size_t, ctypes.c_uint,
                        ctypes.POINTER(ctypes.c_void_p),
                        ctypes.POINTER(ctypes.c_void_p))
_assemble = _declare("tp_assemble", ctypes.c_int, ctypes.c_char_p,
                     ctypes.c_size_t, ctypes.c_char_p,
                     ctypes.POINTER(ctypes.c_void_p),
                     ctypes.POINTER(ctypes.c_size_t),
                     ctypes.POINTER(ctypes.c_void_p))
_run_init = _declare("tp_gemm_run_init", None, ctypes.POINTER(_GemmRun))
_simulate_run = _declare("tp_kernel_simulate_run", ctypes.c_int,
                         ctypes.c_void_p, ctypes.POINTER(_GemmRun),
                         ctypes.POINTER(ctypes.c_void_p))
_storage_init = _declare("tp_gemm_storage_init", None,
                         ctypes.POINTER(_GemmStorage))
_plan_launch = _declare("tp_kernel_plan_launch", ctypes.c_int,
                        ctypes.c_void_p, ctypes.POINTER(_GemmStorage),
                        ctypes.POINTER(ctypes.c_void_p))


def _take_string(ptr):
    """The text of a string the C API allocated; frees it."""
    if not ptr.value:
        return ""
    text = ctypes.string_at(ptr.value).decode("utf-8", "replace")
    _string_free(ptr)
    return text


def _check(status, err):
    message = _take_string(err)
    if status != 0:
        raise Error(message.rstrip("\n") or "tp: error: unknown failure")


def _fail(message):
    raise Error("tp: error: " + message)


def version():
    """The library's version ("0.1.0")."""
    return _version().decode()


_STRINGS = ("a_layout", "b_layout", "tile", "target", "name", "a_type",
            "b_type", "d_type")
_INTS = ("m", "n", "k", "batch")
_FLOATS = ("alpha", "beta")
_BOOLS = ("residual", "bias", "relu", "runtime_shape")


def _fill_desc(options):
    desc = _GemmDesc()
    _desc_init(ctypes.byref(desc))
    keep = []  # the encoded strings must outlive the call
    for key, value in options.items():
        if key in _STRINGS:
            if not isinstance(value, str):
                _fail("%s: expected a string, found %r" % (key, value))
            keep.append(value.encode())
            setattr(desc, key, keep[-1])
        elif key in _INTS:
            if isinstance(value, bool) or not isinstance(value, int):
                _fail("%s: expected an integer, found %r" % (key, value))
            if not -(2 ** 63) <= value < 2 ** 63:
                _fail("%s: %d is out of range" % (key, value))
            setattr(desc, key, value)
        elif key in _FLOATS:
            # The library refuses what binary32 does not hold (NaN and the
            # infinities included), with the value's digits.
            setattr(desc, key, _number(key, value))
        elif key in _BOOLS:
            if not isinstance(value, bool):
                _fail("%s: expected True or False, found %r" % (key, value))
            setattr(desc, key, int(value))
        else:
            known = ", ".join(_STRINGS + _INTS + _FLOATS + _BOOLS)
            _fail("unknown option '%s' (options: %s)" % (key, known))
    return desc, keep


class Kernel:
    """A compiled GEMM: .cubin (bytes), .sass (str), .manifest (dict),
    .manifest_json (str), .stats (dict), .name, .target."""

    def __init__(self, handle):
        self._handle = handle
        size = ctypes.c_size_t()
        ptr = _cubin(handle, ctypes.byref(size))
        self.cubin = ctypes.string_at(ptr, size.value)
        self._sass = None
        self.manifest_json = _manifest(handle).decode()
        self.manifest = json.loads(self.manifest_json)
        self.stats = json.loads(_stats(handle).decode())
        self.name = self.manifest["kernel"]
        self.target = self.manifest["target"]

    def __del__(self):
        handle, self._handle = getattr(self, "_handle", None), None
        if handle and _kernel_free:
            _kernel_free(handle)

    def __repr__(self):
        return "<tp.Kernel %s %s>" % (self.name, self.target)

    @property
    def sass(self):
        """The SASS listing (str), as tp-llc -filetype=asm writes it:
        printed by the library on the first access (tp_kernel_sass), not
        at compile time."""
        if self._sass is None:
            self._sass = _sass(self._handle).decode()
        return self._sass

    def _shape(self):
        return self.manifest["m"], self.manifest["n"], self.manifest["k"]

    def __call__(self, A, B, R=None, device=0, C=None, bias=None,
                 alpha=None, beta=None):
        """D = alpha A B + beta C + bias, ReLU (as the kernel was built; D
        = A B (+ R) for the seed's kernels) on a GPU through the CUDA
        driver API (libcuda via ctypes; $TP_LIBCUDA names another
        library), at the arrays' shape (a fixed-shape kernel only at its
        own).  A, B, C (R is its older name), bias: numpy arrays or DLPack
        tensors in host memory (copied, each row padded to 8 elements),
        DLPack tensors on the CUDA device or objects exposing
        __cuda_array_interface__ (CuPy, PyTorch, Numba, JAX: used in
        place, so their rows must be multiples of 8 elements and their
        data 16-byte aligned), with simulate()'s dtypes and shapes
        (C-contiguous; 3-D for batches).  Returns D as simulate() does.
        No driver, no device, another target: tp.Error."""
        return _launch(self, A, B, _pick_c(R, C), bias, alpha, beta, device)

    def simulate(self, A, B, R=None, check_schedule=True, bias=None,
                 alpha=None, beta=None, C=None):
        """D = alpha A B + beta C + bias, ReLU (as the kernel was built; D =
        A B (+ R) for the seed's kernels) on tp-sim's engine, on the CPU,
        at the arrays' shape: M, N, K from A and B as the layouts store
        them, and the batch from their first extent when they are 3-D (a
        run-time-shape kernel runs any shape, a batch only when built with
        batch > 1; a fixed-shape kernel only its own).  A, B: float16 for
        f16 and uint16 (bfloat16 bits) for bf16; C (R is its older name):
        the residual's R or the C of a kernel with alpha and beta, both in
        D's type (float32, float16, or uint16 bfloat16 bits), M x N (B x M
        x N), C not read when beta is 0; bias: float32, N values; alpha,
        beta: the values to pass (None: the manifest's), finite numbers
        that binary32 holds exactly (NaN, an infinity or 0.1 is a
        tp.Error).  ReLU is max(x, 0): a NaN becomes 0.  Returns D, M x N
        (B x M x N): float32 (d_type f32), float16 (f16), or float32
        holding the bfloat16 values exactly (bf16).  With check_schedule,
        a schedule hazard is an error (tp-sim --check-schedule)."""
        import numpy as np
        ops = _Operands(np, self, _pick_c(R, C), bias, alpha, beta)
        A = ops.host(A, "A", "a numpy array or a host DLPack tensor")
        B = ops.host(B, "B", "a numpy array or a host DLPack tensor")
        ops.set_shape(A.shape, B.shape)
        c = ops.host(ops.c, "C", "a numpy array or a host DLPack tensor") \
            if ops.takes_c else None
        bias_arr = ops.host(ops.bias, "bias", "a numpy array") \
            if ops.man.get("bias", False) else None
        ops.check(A, B, c, bias_arr)
        D = np.empty(ops.d_shape(), dtype=ops.d_dtype)
        run = _GemmRun()
        _run_init(ctypes.byref(run))
        run.m, run.n, run.k, run.batch = ops.m, ops.n, ops.k, ops.batch
        run.a, run.b, run.d = A.ctypes.data, B.ctypes.data, D.ctypes.data
        run.c = c.ctypes.data if c is not None else None
        run.bias = bias_arr.ctypes.data if bias_arr is not None else None
        run.alpha, run.beta = ops.alpha, ops.beta
        run.check_schedule = int(bool(check_schedule))
        err = ctypes.c_void_p()
        _check(_simulate_run(self._handle, ctypes.byref(run),
                             ctypes.byref(err)), err)
        return ops.result(np, D)


def _number(name, value):
    """value as a float: a real number (Python's or numpy's), not a bool;
    tp.Error otherwise."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        _fail("%s: expected a number, found %r" % (name, value))
    try:
        return float(value)
    except OverflowError:  # an int beyond any double
        _fail("%s: an integer of %d digits is beyond binary32's range (the "
              "largest finite binary32 is %r)"
              % (name, len(str(abs(value))), _FLT_MAX))


_FLT_MAX = struct.unpack("<f", b"\xff\xff\x7f\x7f")[0]


def _binary32(name, value):
    """alpha or beta as the kernel's f32 parameter takes it: a finite
    number that binary32 holds exactly (what tp-llc, tp-sim and tp-run
    accept); tp.Error naming the nearest binary32 otherwise.  NaN is an
    error, not the manifest's value (None is that)."""
    x = _number(name, value)
    if math.isnan(x) or math.isinf(x):
        _fail("%s: %r is not a finite number (alpha and beta are finite; "
              "None passes the manifest's)" % (name, x))
    try:
        near = struct.unpack("<f", struct.pack("<f", x))[0]
    except OverflowError:
        _fail("%s: %r is beyond binary32's range (the largest finite "
              "binary32 is %r)" % (name, x, _FLT_MAX))
    if near != x:
        _fail("%s: %r is not exact in binary32 (the nearest binary32 is %r)"
              % (name, x, near))
    return x


def _pick_c(R, C):
    if R is not None and C is not None:
        _fail("C: give C or R (its older name), not both")
    return C if C is not None else R


_BF16_DTYPE = "uint16"  # bfloat16 as its bits (Debian has no ml_dtypes)


class _Operands:
    """What a call's arrays must be for a kernel: dtypes from the manifest,
    the shape from A and B (checked against the kernel by the library),
    the epilogue's arguments."""

    def __init__(self, np, kernel, c, bias, alpha, beta):
        man = self.man = kernel.manifest
        self.kernel = kernel
        op = {"f16": np.float16, "bf16": np.uint16}
        self.a_dtype = np.dtype(op[man.get("a_type", "f16")])
        self.b_dtype = np.dtype(op[man.get("b_type", "f16")])
        self.d_type = man.get("d_type", "f32")
        self.d_dtype = np.dtype({"f32": np.float32, "f16": np.float16,
                                 "bf16": np.uint16}[self.d_type])
        self.rows_a = man["layout_a"] == "rows"
        self.rows_b = man["layout_b"] == "rows"
        self.takes_c = man.get("residual", False) or "alpha" in man
        if self.takes_c and c is None:
            _fail("C: the kernel has a %s; pass C" %
                  ("residual operand (R)" if man.get("residual") else
                   "C operand (alpha, beta)"))
        if not self.takes_c and c is not None:
            _fail("C: the kernel has no residual operand (and no C: no "
                  "alpha, beta)")
        if man.get("bias", False) and bias is None:
            _fail("bias: the kernel adds a bias; pass bias")
        if not man.get("bias", False) and bias is not None:
            _fail("bias: the kernel adds no bias")
        if (alpha is not None or beta is not None) and "alpha" not in man:
            _fail("alpha, beta: the kernel takes neither")
        self.alpha = float(man.get("alpha", 1.0)) if alpha is None \
            else _binary32("alpha", alpha)
        self.beta = float(man.get("beta", 0.0)) if beta is None \
            else _binary32("beta", beta)
        self.c, self.bias = c, bias
        # The residual's R and alpha/beta's C both have D's type (the
        # manifest's "R" parameter).
        self.c_dtype = self.d_dtype

    def host(self, array, name, expected):
        import numpy as np
        if not isinstance(array, np.ndarray) and hasattr(array, "__dlpack__"):
            array = _from_host_dlpack(np, array, name)
        if not isinstance(array, np.ndarray):
            _fail("%s: expected %s, found %s" %
                  (name, expected, type(array).__name__))
        if not array.flags["C_CONTIGUOUS"]:
            _fail("%s: expected a C-contiguous array (np.ascontiguousarray)"
                  % name)
        return array

    def set_shape(self, a_shape, b_shape):
        """M, N, K and the batch from A's and B's shapes (as stored)."""
        a_shape, b_shape = tuple(a_shape), tuple(b_shape)
        if len(a_shape) not in (2, 3) or len(b_shape) != len(a_shape):
            _fail("A, B: expected two 2-D arrays, or two 3-D arrays (a "
                  "batch), found shapes %s and %s" % (a_shape, b_shape))
        self.batched = len(a_shape) == 3
        if self.batched and a_shape[0] != b_shape[0]:
            _fail("A, B: batches of %d and %d" % (a_shape[0], b_shape[0]))
        self.batch = a_shape[0] if self.batched else 1
        m, ka = a_shape[-2:] if self.rows_a else a_shape[-2:][::-1]
        n, kb = b_shape[-2:] if self.rows_b else b_shape[-2:][::-1]
        if ka != kb:
            _fail("A, B: A is %s and B is %s as stored (A %s, B %s): K = %d "
                  "and %d differ" % (a_shape, b_shape, self.man["layout_a"],
                                     self.man["layout_b"], ka, kb))
        self.m, self.n, self.k = m, n, ka

    def _lead(self):
        return (self.batch,) if self.batched else ()

    def shapes(self):
        """The shape each operand must have, as the layouts store it."""
        m, n, k = self.m, self.n, self.k
        return {"A": self._lead() + ((m, k) if self.rows_a else (k, m)),
                "B": self._lead() + ((n, k) if self.rows_b else (k, n)),
                "C": self.d_shape(), "bias": (n,)}

    def dtypes(self):
        import numpy as np
        return {"A": self.a_dtype, "B": self.b_dtype, "C": self.c_dtype,
                "bias": np.dtype(np.float32)}

    def d_shape(self):
        return self._lead() + (self.m, self.n)

    def check(self, A, B, c, bias):
        shapes, dtypes = self.shapes(), self.dtypes()
        for name, array in (("A", A), ("B", B), ("C", c), ("bias", bias)):
            if array is None:
                continue
            if array.dtype != dtypes[name]:
                _fail("%s: expected dtype %s, found %s" %
                      (name, dtypes[name].name, array.dtype.name))
            if tuple(array.shape) != shapes[name]:
                _fail("%s: expected shape %s (as the layout stores it), "
                      "found %s" % (name, shapes[name], tuple(array.shape)))

    def result(self, np, D):
        if self.d_type == "bf16":
            return (D.astype(np.uint32) << 16).view(np.float32)
        return D


def gemm(**options):
    """Compiles a GEMM.  Options (tp_gemm_desc's fields): m, n, k (default
    4096), a_layout ("rows"), b_layout ("columns"), tile ("auto"),
    residual (False), target ("sm_86", "sm_80", "sm_89", "sm_90", "sm_100",
    "sm_120" or "sm_121"), name ("gemm"); the
    general GEMM (issue 16): a_type, b_type ("f16" or "bf16", one type),
    d_type ("f32", "f16" or "bf16"), alpha (1), beta (0): other values
    build D = alpha A B + beta C with both as run-time parameters, bias,
    relu (False); runtime_shape (True: M, N, K and the leading dimensions
    are kernel parameters, m, n, k the recorded shape; False: the shape
    built in, tp-llc --fixed-shape), batch (1; more: strided batches,
    with runtime_shape).  Raises
    tp.Error."""
    desc, keep = _fill_desc(options)
    handle = ctypes.c_void_p()
    err = ctypes.c_void_p()
    status = _compile(ctypes.byref(desc), ctypes.byref(handle),
                      ctypes.byref(err))
    _check(status, err)
    return Kernel(handle.value)


def disassemble(cubin, cubin_text=False):
    """The SASS listing of a cubin's code (as k.sass, without its
    `// ^label:` lines), or with cubin_text the whole cubin as .sass text
    that assemble() reads back to the same bytes."""
    if not isinstance(cubin, (bytes, bytearray)):
        _fail("disassemble: expected bytes, found %s" % type(cubin).__name__)
    text = ctypes.c_void_p()
    err = ctypes.c_void_p()
    status = _disassemble(bytes(cubin), len(cubin), 1 if cubin_text else 0,
                          ctypes.byref(text), ctypes.byref(err))
    _check(status, err)
    return _take_string(text)


def assemble(text, target=None):
    """Whole-cubin .sass text (docs/sass-format.md) to cubin bytes;
    target, when given, must agree with the text's .target line."""
    if not isinstance(text, str):
        _fail("assemble: expected a str, found %s" % type(text).__name__)
    if target is not None and not isinstance(target, str):
        _fail("assemble: target: expected a string, found %r" % (target,))
    data = text.encode()
    out = ctypes.c_void_p()
    size = ctypes.c_size_t()
    err = ctypes.c_void_p()
    status = _assemble(data, len(data),
                       target.encode() if target is not None else None,
                       ctypes.byref(out), ctypes.byref(size),
                       ctypes.byref(err))
    _check(status, err)
    result = ctypes.string_at(out.value, size.value)
    _buffer_free(out)
    return result


# --- The GPU path: the CUDA driver API through ctypes ----------------------

_CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8
_CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75
_CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76


class _Driver:
    """libcuda ($TP_LIBCUDA, else libcuda.so.1), entry points by name."""

    def __init__(self):
        name = os.environ.get("TP_LIBCUDA", "libcuda.so.1")
        try:
            self.lib = ctypes.CDLL(name)
        except OSError as e:
            _fail("no CUDA driver: cannot load %s (%s)" % (name, e))

    def __call__(self, fn, *args):
        status = getattr(self.lib, fn)(*args)
        if status != 0:
            text = ctypes.c_char_p()
            self.lib.cuGetErrorName(status, ctypes.byref(text))
            name = text.value.decode() if text.value else "error %d" % status
            _fail("%s failed: %s" % (fn, name))


def _compact(shape, strides, itemsize=1):
    """Whether strides (elements, or bytes with itemsize) are those of a
    C-contiguous array of shape (an extent-1 dimension's stride is never
    used, so any value goes)."""
    want = 1
    for extent, stride in reversed(list(zip(shape, strides))):
        if extent != 1 and stride != want * itemsize:
            return False
        want *= extent
    return True


def _device_operand(np, array, name, dtype, device, keep):
    """(device pointer or None, host array or None, shape) of an operand:
    an object with __cuda_array_interface__, or a DLPack tensor on a CUDA
    device, is used in place; a numpy array, or a DLPack tensor in host
    memory, is copied.  keep collects what must live until the kernel
    has finished (DLPack capsules)."""
    if not isinstance(array, np.ndarray) and hasattr(array, "__dlpack__"):
        return _dlpack_operand(np, array, name, dtype, device, keep)
    cai = getattr(array, "__cuda_array_interface__", None)
    if cai is not None:
        want = np.dtype(dtype).str
        if cai.get("typestr") != want:
            _fail("%s: expected typestr %s, found %s" %
                  (name, want, cai.get("typestr")))
        shape = tuple(cai.get("shape", ()))
        strides = cai.get("strides")
        if strides is not None and not _compact(shape, strides,
                                                np.dtype(dtype).itemsize):
            _fail("%s: expected a C-contiguous array" % name)
        return cai["data"][0], None, shape
    host = _host_operand(np, array, name, dtype,
                         "a numpy array, a DLPack tensor or an object with "
                         "__cuda_array_interface__")
    return None, host, host.shape


# DLPack (dlpack.h, version 0.8 and later; the Python protocol of the
# Array API standard): the capsule named "dltensor" holds a
# DLManagedTensor, whose first member is the DLTensor below.
_DL_CPU, _DL_CUDA, _DL_CUDA_HOST, _DL_CUDA_MANAGED = 1, 2, 3, 13
_DL_FLOAT, _DL_BFLOAT = 2, 4


class _DLTensor(ctypes.Structure):
    _fields_ = [
        ("data", ctypes.c_void_p),
        ("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32),
        ("ndim", ctypes.c_int32),
        ("dtype_code", ctypes.c_uint8), ("dtype_bits", ctypes.c_uint8),
        ("dtype_lanes", ctypes.c_uint16),
        ("shape", ctypes.POINTER(ctypes.c_int64)),
        ("strides", ctypes.POINTER(ctypes.c_int64)),
        ("byte_offset", ctypes.c_uint64),
    ]


def _dlpack_tensor(capsule, name):
    """The DLTensor a "dltensor" capsule holds (tp.Error if it holds
    none, e.g. one already consumed)."""
    api = ctypes.pythonapi
    api.PyCapsule_IsValid.restype = ctypes.c_int
    api.PyCapsule_IsValid.argtypes = [ctypes.py_object, ctypes.c_char_p]
    api.PyCapsule_GetPointer.restype = ctypes.c_void_p
    api.PyCapsule_GetPointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
    if not api.PyCapsule_IsValid(capsule, b"dltensor"):
        _fail("%s: __dlpack__() did not return a \"dltensor\" capsule" % name)
    return _DLTensor.from_address(api.PyCapsule_GetPointer(capsule,
                                                           b"dltensor"))


def _from_host_dlpack(np, array, name):
    """A numpy view of a DLPack tensor in host memory (tp.Error for one
    elsewhere or one numpy cannot read)."""
    device_type, _ = array.__dlpack_device__()
    if device_type not in (_DL_CPU, _DL_CUDA_HOST):
        _fail("%s: a DLPack tensor on device type %d; simulate() takes "
              "host memory" % (name, device_type))
    try:
        return np.from_dlpack(array)
    except (TypeError, RuntimeError, BufferError, ValueError) as e:
        _fail("%s: numpy cannot import this DLPack tensor (%s)" % (name, e))


def _dlpack_operand(np, array, name, dtype, device, keep):
    """_device_operand of an object with __dlpack__: a tensor in host
    memory goes through numpy (np.from_dlpack, copied); one on CUDA
    device `device` (or in managed memory) is used in place after its
    dtype and strides are checked; any other device: tp.Error.  The
    capsule stays in keep: it owns the tensor until it is freed (its
    destructor calls the producer's deleter, as the protocol says of an
    unconsumed capsule)."""
    device_type, device_id = array.__dlpack_device__()
    if device_type in (_DL_CPU, _DL_CUDA_HOST):
        host = _host_operand(np, _from_host_dlpack(np, array, name), name,
                             dtype, "a numpy array")
        return None, host, host.shape
    if device_type not in (_DL_CUDA, _DL_CUDA_MANAGED):
        _fail("%s: a DLPack tensor on device type %d (tp takes CUDA "
              "device and host memory)" % (name, device_type))
    if device_type == _DL_CUDA and device_id != device:
        _fail("%s: the tensor is on CUDA device %d; the call runs on "
              "device %d" % (name, device_id, device))
    try:
        # Stream 1: the legacy default stream, which the launch uses.
        capsule = array.__dlpack__(stream=1)
    except TypeError:
        capsule = array.__dlpack__()
    keep.append(capsule)
    t = _dlpack_tensor(capsule, name)
    want = np.dtype(dtype)
    code = _DL_BFLOAT if want.name == "bfloat16" else _DL_FLOAT
    if want.kind == "u":
        code = 1  # kDLUInt: bfloat16 bits as uint16
    if (t.dtype_code, t.dtype_bits, t.dtype_lanes) != \
            (code, want.itemsize * 8, 1):
        _fail("%s: expected dtype %s, found DLPack type code %d, %d bits, "
              "%d lanes" % (name, want.name, t.dtype_code, t.dtype_bits,
                            t.dtype_lanes))
    shape = tuple(t.shape[i] for i in range(t.ndim))
    # DLPack strides count elements; none means compact row-major.
    if t.strides and not _compact(shape, [t.strides[i]
                                          for i in range(t.ndim)]):
        _fail("%s: expected a C-contiguous tensor, found strides %s"
              % (name, tuple(t.strides[i] for i in range(t.ndim))))
    return t.data + t.byte_offset, None, shape


def _host_operand(np, array, name, dtype, expected):
    """array, checked to be a C-contiguous numpy array of dtype; tp.Error
    naming name otherwise (expected: what the caller accepts, for the
    message)."""
    if not isinstance(array, np.ndarray):
        _fail("%s: expected %s, found %s" %
              (name, expected, type(array).__name__))
    if array.dtype != dtype:
        _fail("%s: expected dtype %s, found %s" %
              (name, np.dtype(dtype).name, array.dtype.name))
    if not array.flags["C_CONTIGUOUS"]:
        _fail("%s: expected a C-contiguous array (np.ascontiguousarray)"
              % name)
    return array


_NAN16 = {"f16": 0x7e00, "bf16": 0x7fc0}
_POISON = {"f32": 0x7fbadbad, "f16": 0x7dad, "bf16": 0x7fad}


def _pitched(np, host, rows, cols, ld, stride, batch, fill, dtype):
    """host (batch x rows x cols, or rows x cols) laid out with row pitch
    ld and batch stride (elements), fill in the padding."""
    span = (batch - 1) * stride + rows * ld
    out = np.full(span, fill, dtype=np.uint32 if dtype.itemsize == 4
                  else np.uint16).view(dtype)
    src = host.reshape(batch, rows, cols)
    for b in range(batch):
        view = out[b * stride:b * stride + rows * ld].reshape(rows, ld)
        view[:, :cols] = src[b]
    return out


def _launch(kernel, A, B, C, bias, alpha, beta, device):
    import numpy as np
    ops = _Operands(np, kernel, C, bias, alpha, beta)
    man = kernel.manifest
    keep = []  # DLPack capsules: they own their tensors until the end
    ins = {"A": _device_operand(np, A, "A", ops.a_dtype, device, keep),
           "B": _device_operand(np, B, "B", ops.b_dtype, device, keep)}
    ops.set_shape(ins["A"][2], ins["B"][2])
    if ops.takes_c:
        ins["C"] = _device_operand(np, C, "C", ops.c_dtype, device, keep)
    if man.get("bias", False):
        ins["bias"] = _device_operand(np, bias, "bias", np.float32, device,
                                      keep)
    shapes = ops.shapes()
    for name, (dptr, host, shape) in ins.items():
        if tuple(shape) != shapes[name]:
            _fail("%s: expected shape %s (as the layout stores it), found "
                  "%s" % (name, shapes[name], tuple(shape)))
        if dptr is not None and dptr % 16:
            _fail("%s: the device pointer 0x%x is not 16-byte aligned (the "
                  "copies move 16-byte chunks)" % (name, dptr))
    # Operands in place keep their dense rows (the library checks them
    # against the rules); copied ones get rows padded to 8 elements.
    plan = _GemmStorage()
    _storage_init(ctypes.byref(plan))
    plan.m, plan.n, plan.k, plan.batch = ops.m, ops.n, ops.k, ops.batch
    cols = {"A": ops.k if ops.rows_a else ops.m,
            "B": ops.k if ops.rows_b else ops.n, "C": ops.n}
    rows = {"A": ops.m if ops.rows_a else ops.k,
            "B": ops.n if ops.rows_b else ops.k, "C": ops.m}
    for name, ld, stride in (("A", "lda", "stride_a"),
                             ("B", "ldb", "stride_b"),
                             ("C", "ldc", "stride_c")):
        if name in ins and ins[name][0] is not None:
            setattr(plan, ld, cols[name])
            if ops.batch > 1:
                setattr(plan, stride, rows[name] * cols[name])
    err = ctypes.c_void_p()
    _check(_plan_launch(kernel._handle, ctypes.byref(plan),
                        ctypes.byref(err)), err)
    ld = {"A": plan.lda, "B": plan.ldb, "C": plan.ldc}
    stride = {"A": plan.stride_a, "B": plan.stride_b, "C": plan.stride_c}
    return _run_on_device(np, kernel, ops, ins, plan, rows, cols, ld, stride,
                          device)


def _run_on_device(np, kernel, ops, ins, plan, rows, cols, ld, stride,
                   device):
    """The driver half of k(...): context, module, buffers, launch, D."""
    man = kernel.manifest
    cu = _Driver()
    cu("cuInit", 0)
    count = ctypes.c_int()
    cu("cuDeviceGetCount", ctypes.byref(count))
    if not 0 <= device < count.value:
        _fail("device %d: there are %d CUDA devices" % (device, count.value))
    dev = ctypes.c_int()
    cu("cuDeviceGet", ctypes.byref(dev), device)
    major, minor = ctypes.c_int(), ctypes.c_int()
    cu("cuDeviceGetAttribute", ctypes.byref(major),
       _CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev)
    cu("cuDeviceGetAttribute", ctypes.byref(minor),
       _CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev)
    sm = "sm_%d%d" % (major.value, minor.value)
    if sm != kernel.target:
        _fail("device %d is %s; the kernel is for %s" %
              (device, sm, kernel.target))
    ctx = ctypes.c_void_p()
    cu("cuDevicePrimaryCtxRetain", ctypes.byref(ctx), dev)
    allocations, module = [], ctypes.c_void_p()
    try:
        cu("cuCtxSetCurrent", ctx)
        image = ctypes.create_string_buffer(kernel.cubin, len(kernel.cubin))
        cu("cuModuleLoadDataEx", ctypes.byref(module), image, 0, None, None)
        func = ctypes.c_void_p()
        cu("cuModuleGetFunction", ctypes.byref(func), module,
           kernel.name.encode())
        shared = man["dynamic_shared_bytes"]
        if shared > 48 * 1024:
            cu("cuFuncSetAttribute", func,
               _CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, shared)

        def upload(array):
            ptr = ctypes.c_uint64()
            cu("cuMemAlloc_v2", ctypes.byref(ptr),
               ctypes.c_size_t(max(array.nbytes, 1)))
            allocations.append(ptr)
            cu("cuMemcpyHtoD_v2", ctypes.c_uint64(ptr.value),
               array.ctypes.data_as(ctypes.c_void_p),
               ctypes.c_size_t(array.nbytes))
            return ptr.value

        fills = {"A": _NAN16[man.get("a_type", "f16")],
                 "B": _NAN16[man.get("b_type", "f16")],
                 "C": _POISON[ops.d_type]}
        pointers = {}
        for name, (dptr, host, _) in ins.items():
            if dptr is None:
                if name == "bias":
                    dptr = upload(host)
                else:
                    dptr = upload(_pitched(np, host, rows[name], cols[name],
                                           ld[name], stride[name], ops.batch,
                                           fills[name], host.dtype))
            pointers[{"C": "R"}.get(name, name)] = dptr
        # As tp-run: D starts as poison, so that an element the kernel
        # never writes shows.
        span_c = (ops.batch - 1) * stride["C"] + ops.m * ld["C"]
        D = np.full(span_c, _POISON[ops.d_type],
                    dtype=np.uint32 if ops.d_dtype.itemsize == 4
                    else np.uint16).view(ops.d_dtype)
        pointers["C"] = upload(D)
        values = {"M": ops.m, "N": ops.n, "K": ops.k, "LDA": ld["A"],
                  "LDB": ld["B"], "LDC": ld["C"], "StrideA": stride["A"],
                  "StrideB": stride["B"], "StrideC": stride["C"]}
        slots = []
        for p in man["params"]:
            role = p["role"]
            if role in ("alpha", "beta"):
                slot = ctypes.c_float(ops.alpha if role == "alpha"
                                      else ops.beta)
            elif role in pointers:
                slot = ctypes.c_uint64(pointers[role])
            else:
                slot = (ctypes.c_uint64 if p["size"] == 8
                        else ctypes.c_uint32)(values[role])
            slots.append(slot)
        params = (ctypes.c_void_p * len(slots))(
            *[ctypes.cast(ctypes.byref(s), ctypes.c_void_p) for s in slots])
        grid, block = list(plan.grid), man["block"]
        cu("cuLaunchKernel", func, grid[0], grid[1], grid[2], block[0],
           block[1], block[2], shared, None, params, None)
        cu("cuCtxSynchronize")
        cu("cuMemcpyDtoH_v2", D.ctypes.data_as(ctypes.c_void_p),
           ctypes.c_uint64(pointers["C"]), ctypes.c_size_t(D.nbytes))
        out = np.empty((ops.batch, ops.m, ops.n), dtype=ops.d_dtype)
        for b in range(ops.batch):
            rows_d = D[b * stride["C"]:b * stride["C"] + ops.m * ld["C"]]
            out[b] = rows_d.reshape(ops.m, ld["C"])[:, :ops.n]
        return ops.result(np, out if ops.batched else out[0])
    finally:
        for ptr in allocations:
            cu.lib.cuMemFree_v2(ptr)
        if module.value:
            cu.lib.cuModuleUnload(module)
        cu.lib.cuDevicePrimaryCtxRelease_v2(dev)
