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
import os

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
_simulate = _declare("tp_kernel_simulate_gemm", ctypes.c_int,
                     ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p,
                     ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p,
                     ctypes.c_double, ctypes.c_double, ctypes.c_int,
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
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                _fail("%s: expected a number, found %r" % (key, value))
            setattr(desc, key, float(value))
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
        self.sass = _sass(handle).decode()
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

    def _shape(self):
        return self.manifest["m"], self.manifest["n"], self.manifest["k"]

    def _operand(self, np, array, name, shape, dtype):
        if not isinstance(array, np.ndarray) and hasattr(array, "__dlpack__"):
            array = _from_host_dlpack(np, array, name)
        return _host_operand(np, array, name, shape, dtype,
                             "a numpy array or a host DLPack tensor")

    def __call__(self, A, B, R=None, device=0):
        """D = A B (+ R) on a GPU through the CUDA driver API (libcuda via
        ctypes; $TP_LIBCUDA names another library).  A, B, R: numpy arrays
        or DLPack tensors in host memory (copied), DLPack tensors on the
        CUDA device or objects exposing __cuda_array_interface__ (CuPy,
        PyTorch, Numba, JAX: used in place), as simulate() takes them
        (dtype, shape as the layouts store them, C-contiguous); returns D
        as a numpy float32 M x N array.  No driver, no device, another
        target: tp.Error."""
        return _launch(self, A, B, R, device)

    def simulate(self, A, B, R=None, check_schedule=True, bias=None,
                 alpha=None, beta=None):
        """D = A B (+ R) -- or, for issue 16's kernels, D = alpha A B + beta
        C + bias, ReLU -- on tp-sim's engine, on the CPU.  A, B: the
        layouts' arrays, float16 for f16 and uint16 (bfloat16 bits) for
        bf16; R: float32 M x N, the residual's R or the C of a kernel with
        alpha and beta (only read, and not at all when beta is 0); bias:
        float32, N values; alpha, beta: the values to pass (default: the
        manifest's).  Returns D, M x N: float32 (d_type f32), float16
        (f16), or float32 holding the bfloat16 values exactly (bf16).
        With check_schedule, a schedule hazard is an error (tp-sim
        --check-schedule)."""
        import numpy as np
        man = self.manifest
        m, n, k = self._shape()
        rows_a = man["layout_a"] == "rows"
        rows_b = man["layout_b"] == "rows"
        op_dtype = {"f16": np.float16, "bf16": np.uint16}
        A = self._operand(np, A, "A", (m, k) if rows_a else (k, m),
                          op_dtype[man.get("a_type", "f16")])
        B = self._operand(np, B, "B", (n, k) if rows_b else (k, n),
                          op_dtype[man.get("b_type", "f16")])
        takes_c = man.get("residual", False) or "alpha" in man
        if takes_c:
            if R is None:
                _fail("R: the kernel has a %s; pass R" %
                      ("residual operand" if man.get("residual") else
                       "C operand (alpha, beta)"))
            R = self._operand(np, R, "R", (m, n), np.float32)
        elif R is not None:
            _fail("R: the kernel has no residual operand (and no C: no alpha, beta)")
        if man.get("bias", False):
            if bias is None:
                _fail("bias: the kernel adds a bias; pass bias")
            bias = self._operand(np, bias, "bias", (n,), np.float32)
        elif bias is not None:
            _fail("bias: the kernel adds no bias")
        if (alpha is not None or beta is not None) and "alpha" not in man:
            _fail("alpha, beta: the kernel takes neither")
        alpha = man.get("alpha", 1.0) if alpha is None else alpha
        beta = man.get("beta", 0.0) if beta is None else beta
        d_type = man.get("d_type", "f32")
        D = np.empty((m, n), dtype={"f32": np.float32, "f16": np.float16,
                                    "bf16": np.uint16}[d_type])
        err = ctypes.c_void_p()
        status = _simulate(self._handle, A.ctypes.data, B.ctypes.data,
                           R.ctypes.data if takes_c else None,
                           bias.ctypes.data if bias is not None else None,
                           D.ctypes.data, float(alpha), float(beta),
                           int(bool(check_schedule)), ctypes.byref(err))
        _check(status, err)
        if d_type == "bf16":
            return (D.astype(np.uint32) << 16).view(np.float32)
        return D


def gemm(**options):
    """Compiles a GEMM.  Options (tp_gemm_desc's fields): m, n, k (default
    4096), a_layout ("rows"), b_layout ("columns"), tile ("auto"),
    residual (False), target ("sm_86" or "sm_90"), name ("gemm"); the
    general GEMM (issue 16): a_type, b_type ("f16" or "bf16", one type),
    d_type ("f32", "f16" or "bf16"), alpha (1), beta (0): other values
    build D = alpha A B + beta C with both as run-time parameters, bias,
    relu (False); runtime_shape (True: M, N, K and the leading dimensions
    are kernel parameters, m, n, k the recorded shape; False: the shape
    built in, tp-llc --fixed-shape), batch (1; more: strided batches, with runtime_shape).  Raises
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


def _device_operand(np, array, name, shape, dtype, device, keep):
    """(device pointer or None, host array or None) of an operand: an
    object with __cuda_array_interface__, or a DLPack tensor on a CUDA
    device, is used in place; a numpy array, or a DLPack tensor in host
    memory, is copied.  keep collects what must live until the kernel
    has finished (DLPack capsules)."""
    if not isinstance(array, np.ndarray) and hasattr(array, "__dlpack__"):
        return _dlpack_operand(np, array, name, shape, dtype, device, keep)
    cai = getattr(array, "__cuda_array_interface__", None)
    if cai is not None:
        want = np.dtype(dtype).str
        if cai.get("typestr") != want:
            _fail("%s: expected typestr %s, found %s" %
                  (name, want, cai.get("typestr")))
        if tuple(cai.get("shape", ())) != shape:
            _fail("%s: expected shape %s (as the layout stores it), found %s"
                  % (name, shape, tuple(cai.get("shape", ()))))
        strides = cai.get("strides")
        item = np.dtype(dtype).itemsize
        if strides is not None and tuple(strides) != (shape[1] * item, item):
            _fail("%s: expected a C-contiguous array" % name)
        return cai["data"][0], None
    return None, _host_operand(np, array, name, shape, dtype,
                               "a numpy array, a DLPack tensor or an "
                               "object with __cuda_array_interface__")


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


def _dlpack_operand(np, array, name, shape, dtype, device, keep):
    """_device_operand of an object with __dlpack__: a tensor in host
    memory goes through numpy (np.from_dlpack, copied); one on CUDA
    device `device` (or in managed memory) is used in place after its
    dtype, shape and strides are checked; any other device: tp.Error.
    The capsule stays in keep: it owns the tensor until it is freed (its
    destructor calls the producer's deleter, as the protocol says of an
    unconsumed capsule)."""
    device_type, device_id = array.__dlpack_device__()
    if device_type in (_DL_CPU, _DL_CUDA_HOST):
        return None, _host_operand(np, _from_host_dlpack(np, array, name),
                                   name, shape, dtype, "a numpy array")
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
    if (t.dtype_code, t.dtype_bits, t.dtype_lanes) != \
            (code, want.itemsize * 8, 1):
        _fail("%s: expected dtype %s, found DLPack type code %d, %d bits, "
              "%d lanes" % (name, want.name, t.dtype_code, t.dtype_bits,
                            t.dtype_lanes))
    found = tuple(t.shape[i] for i in range(t.ndim))
    if found != shape:
        _fail("%s: expected shape %s (as the layout stores it), found %s"
              % (name, shape, found))
    # DLPack strides count elements; none means compact row-major.  The
    # stride of an extent-1 dimension is never used, so any value goes.
    if t.strides:
        compact = (shape[1], 1)
        for i in range(2):
            if shape[i] != 1 and t.strides[i] != compact[i]:
                _fail("%s: expected a C-contiguous tensor, found strides %s"
                      % (name, (t.strides[0], t.strides[1])))
    return t.data + t.byte_offset, None


def _host_operand(np, array, name, shape, dtype, expected):
    """array, checked to be a C-contiguous numpy array of dtype and
    shape (as the layout stores it); tp.Error naming name otherwise
    (expected: what the caller accepts, for the message)."""
    if not isinstance(array, np.ndarray):
        _fail("%s: expected %s, found %s" %
              (name, expected, type(array).__name__))
    if array.dtype != dtype:
        _fail("%s: expected dtype %s, found %s" %
              (name, np.dtype(dtype).name, array.dtype.name))
    if array.shape != shape:
        _fail("%s: expected shape %s (as the layout stores it), found %s"
              % (name, shape, array.shape))
    if not array.flags["C_CONTIGUOUS"]:
        _fail("%s: expected a C-contiguous array (np.ascontiguousarray)"
              % name)
    return array


def _launch(kernel, A, B, R, device):
    import numpy as np
    man = kernel.manifest
    if any(key in man for key in ("a_type", "alpha", "bias", "relu")):
        _fail("the GPU call runs f16 x f16 -> f32 kernels without issue 16's "
              "epilogue only (yet); simulate() runs this one")
    m, n, k = kernel._shape()
    rows_a, rows_b = man["layout_a"] == "rows", man["layout_b"] == "rows"
    keep = []  # DLPack capsules: they own their tensors until the end
    ops = {"A": _device_operand(np, A, "A", (m, k) if rows_a else (k, m),
                                np.float16, device, keep),
           "B": _device_operand(np, B, "B", (n, k) if rows_b else (k, n),
                                np.float16, device, keep)}
    if man.get("residual", False):
        if R is None:
            _fail("R: the kernel has a residual operand; pass R")
        ops["R"] = _device_operand(np, R, "R", (m, n), np.float32, device,
                                   keep)
    elif R is not None:
        _fail("R: the kernel has no residual operand")
    # A run-time shape's parameters: the dense operands' leading dimensions
    # (multiples of 8 elements: the kernel copies 16-byte chunks).
    values = {"M": m, "N": n, "K": k, "LDA": k if rows_a else m,
              "LDB": k if rows_b else n, "LDC": n}
    for p in man["params"]:
        if p["role"] in ("LDA", "LDB", "LDC") and values[p["role"]] % 8:
            _fail("%s = %d is not a multiple of 8 elements (the copies move "
                  "16-byte chunks of aligned rows)" %
                  (p["role"].lower(), values[p["role"]]))
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

        def alloc(nbytes):
            ptr = ctypes.c_uint64()
            cu("cuMemAlloc_v2", ctypes.byref(ptr), ctypes.c_size_t(nbytes))
            allocations.append(ptr)
            return ptr.value

        pointers = {}
        for role, (dptr, host) in ops.items():
            if dptr is None:
                dptr = alloc(host.nbytes)
                cu("cuMemcpyHtoD_v2", ctypes.c_uint64(dptr),
                   host.ctypes.data_as(ctypes.c_void_p),
                   ctypes.c_size_t(host.nbytes))
            pointers[role] = dptr
        D = np.empty((m, n), dtype=np.float32)
        pointers["C"] = alloc(D.nbytes)
        # As tp-run: D starts as poison (PoisonBits), so that an element
        # the kernel never writes shows.
        cu("cuMemsetD32_v2", ctypes.c_uint64(pointers["C"]),
           ctypes.c_uint(0x7fbadbad), ctypes.c_size_t(m * n))
        slots = []
        for p in man["params"]:
            role = p["role"]
            value = pointers[role] if role in pointers else values[role]
            slot = (ctypes.c_uint64 if p["size"] == 8 else ctypes.c_uint32)(
                value)
            slots.append(slot)
        params = (ctypes.c_void_p * len(slots))(
            *[ctypes.cast(ctypes.byref(s), ctypes.c_void_p) for s in slots])
        grid, block = man["grid"], man["block"]
        cu("cuLaunchKernel", func, grid[0], grid[1], grid[2], block[0],
           block[1], block[2], shared, None, params, None)
        cu("cuCtxSynchronize")
        cu("cuMemcpyDtoH_v2", D.ctypes.data_as(ctypes.c_void_p),
           ctypes.c_uint64(pointers["C"]), ctypes.c_size_t(D.nbytes))
        return D
    finally:
        for ptr in allocations:
            cu.lib.cuMemFree_v2(ptr)
        if module.value:
            cu.lib.cuModuleUnload(module)
        cu.lib.cuDevicePrimaryCtxRelease_v2(dev)
