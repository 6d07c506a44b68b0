"""pytest for the tp module (python/tp): compile, simulate against numpy,
disassemble/assemble, bytes equal to tp-llc's, and tp.Error on bad input."""
import ctypes
import os
import subprocess

import numpy as np
import pytest

import tp

LAYOUTS = [(a, b) for a in ("rows", "columns") for b in ("rows", "columns")]
M, N, K = 128, 128, 256


def operands(kernel, seed=1):
    """Random small-integer f16 operands stored as the kernel's layouts
    say, and the product in float64 (exact for these values)."""
    rng = np.random.default_rng(seed)
    m, n, k = kernel.manifest["m"], kernel.manifest["n"], kernel.manifest["k"]
    a = rng.integers(-8, 9, size=(m, k)).astype(np.float16)  # A as M x K
    b = rng.integers(-8, 9, size=(k, n)).astype(np.float16)  # B as K x N
    ref = a.astype(np.float64) @ b.astype(np.float64)
    stored_a = a if kernel.manifest["layout_a"] == "rows" else a.T
    stored_b = b.T if kernel.manifest["layout_b"] == "rows" else b
    return (np.ascontiguousarray(stored_a), np.ascontiguousarray(stored_b),
            ref)


def rel_frobenius(d, ref):
    return np.linalg.norm(d - ref) / np.linalg.norm(ref)


@pytest.mark.parametrize("a_layout,b_layout", LAYOUTS)
def test_simulate_equals_numpy(a_layout, b_layout):
    k = tp.gemm(a_layout=a_layout, b_layout=b_layout, tile="auto",
                target="sm_86", m=M, n=N, k=K)
    A, B, ref = operands(k)
    D = k.simulate(A, B)
    assert D.shape == (M, N) and D.dtype == np.float32
    # tp-sim's tolerance (relative Frobenius error 1e-3); these integer
    # products are exact in f32, so the result is equal too.
    assert rel_frobenius(D, ref) <= 1e-3
    assert np.array_equal(D, ref.astype(np.float32))


def test_simulate_random_halves_sm90_residual():
    k = tp.gemm(m=M, n=N, k=K, target="sm_90", residual=True)
    assert k.target == "sm_90" and k.manifest["residual"] is True
    rng = np.random.default_rng(5)
    A = rng.uniform(-1, 1, size=(M, K)).astype(np.float16)
    B = rng.uniform(-1, 1, size=(K, N)).astype(np.float16)
    R = rng.uniform(-1, 1, size=(M, N)).astype(np.float32)
    D = k.simulate(A, B, R)
    ref = A.astype(np.float64) @ B.astype(np.float64) + R
    assert rel_frobenius(D, ref) <= 1e-3


def bf16_bits(x):
    """float32 values exact in bfloat16 -> their bfloat16 bits (uint16)."""
    bits = np.ascontiguousarray(x, dtype=np.float32).view(np.uint32)
    assert not np.any(bits & 0xffff)
    return (bits >> 16).astype(np.uint16)


@pytest.mark.parametrize("d_type", ["f32", "f16", "bf16"])
def test_simulate_bf16_inputs_and_narrow_outputs(d_type):
    k = tp.gemm(m=M, n=N, k=K, a_type="bf16", b_type="bf16", d_type=d_type)
    assert k.manifest["a_type"] == "bf16" and k.manifest["d_type"] == d_type
    A, B, ref = operands(k)  # small integers: exact in bfloat16
    D = k.simulate(bf16_bits(A.astype(np.float32)),
                   bf16_bits(B.astype(np.float32)))
    want = {"f32": np.float32, "f16": np.float16, "bf16": np.float32}[d_type]
    assert D.dtype == want
    if d_type == "bf16":
        # Round the exact (integer, f32) products to bfloat16, ties to even.
        bits = ref.astype(np.float32).view(np.uint32).astype(np.uint64)
        bits = ((bits + 0x7fff + ((bits >> 16) & 1)) >> 16) << 16
        ref = bits.astype(np.uint32).view(np.float32)
    assert np.array_equal(D, ref.astype(want))


def test_simulate_alpha_beta_bias_relu():
    k = tp.gemm(m=M, n=N, k=K, alpha=0.5, beta=2.0, bias=True, relu=True)
    assert k.manifest["alpha"] == 0.5 and k.manifest["beta"] == 2
    A, B, ref = operands(k)
    rng = np.random.default_rng(9)
    C = rng.integers(-4, 5, size=(M, N)).astype(np.float32)
    bias = rng.integers(-4, 5, size=(N,)).astype(np.float32)
    D = k.simulate(A, B, C, bias=bias)
    assert np.array_equal(D, np.maximum(0.5 * ref + 2 * C + bias, 0))
    # beta = 0 never reads C: a C full of NaN does not reach D.
    nan = np.full((M, N), np.nan, dtype=np.float32)
    D = k.simulate(A, B, nan, bias=bias, beta=0.0)
    assert np.array_equal(D, np.maximum(0.5 * ref + bias, 0))
    with pytest.raises(tp.Error, match="bias: the kernel adds a bias"):
        k.simulate(A, B, C)


def test_kernel_fields():
    k = tp.gemm(m=M, n=N, k=K, name="my_gemm")
    assert isinstance(k.cubin, bytes) and k.cubin[:4] == b"\x7fELF"
    assert isinstance(k.sass, str) and k.sass.startswith("// .text.my_gemm\n")
    assert k.manifest["kernel"] == "my_gemm"
    assert (k.manifest["m"], k.manifest["n"], k.manifest["k"]) == (M, N, K)
    assert k.stats["instructions"] == k.sass.count("\n/*")
    assert k.stats["registers"] > 0 and k.stats["hmma"] > 0


def test_disassemble_equals_sass():
    k = tp.gemm(m=M, n=N, k=K)
    instructions = [l for l in k.sass.splitlines() if not l.startswith("// ^")]
    assert tp.disassemble(k.cubin).splitlines() == instructions


def test_assemble_round_trip():
    k = tp.gemm(m=M, n=N, k=K, target="sm_90")
    text = tp.disassemble(k.cubin, cubin_text=True)
    assert "\n.target sm_90\n" in text
    assert tp.assemble(text, target="sm_90") == k.cubin
    assert tp.assemble(text) == k.cubin


def test_assemble_every_tp_mc_target():
    # tp.assemble takes every target tp-mc does (it refused sm_80 / sm_89).
    for target in ("sm_80", "sm_89"):
        k = tp.gemm(m=M, n=N, k=K, target=target)
        text = tp.disassemble(k.cubin, cubin_text=True)
        assert "\n.target %s\n" % target in text
        assert tp.assemble(text, target=target) == k.cubin
    with pytest.raises(tp.Error, match=r"unsupported target 'sm_75' \(sm_80, "):
        tp.assemble(text, target="sm_75")


def test_bytes_are_tp_llc_bytes(tmp_path):
    tools = os.environ.get("TP_TOOLS")
    if not tools:
        pytest.skip("TP_TOOLS (the build's bin folder) is not set")
    out = tmp_path / "k.cubin"
    subprocess.run([os.path.join(tools, "tp-llc"), "--gemm=128x128x256",
                    "--layout-b=rows", "--tile=small", "-filetype=obj",
                    "-o", str(out)], check=True)
    k = tp.gemm(m=128, n=128, k=256, b_layout="rows", tile="small")
    assert out.read_bytes() == k.cubin
    assert (tmp_path / "k.cubin.json").read_text() == k.manifest_json


def error_of(fn, *args, **kwargs):
    with pytest.raises(tp.Error) as info:
        fn(*args, **kwargs)
    return str(info.value)


def test_compile_errors_carry_the_diagnostic():
    assert error_of(tp.gemm, a_layout="diagonal") == (
        "tp: error: --layout-a: expected rows or columns, found 'diagonal'")
    assert error_of(tp.gemm, m=100, n=128, k=256,
                    runtime_shape=False).startswith(
        "tp: error: --gemm=100x128x256:")
    # The default takes the shape at run time: any M admitted.
    assert tp.gemm(m=100, n=128, k=256).manifest["format_version"] == 2
    assert "-mcpu: unsupported target 'sm_75'" in error_of(tp.gemm,
                                                           target="sm_75")
    assert "unknown option 'layout'" in error_of(tp.gemm, layout="rows")
    assert "m: expected an integer" in error_of(tp.gemm, m="128")
    assert "residual: expected True or False" in error_of(tp.gemm, residual=1)
    assert "A is bf16 and B is f16: A and B must have one type" in error_of(
        tp.gemm, a_type="bf16")
    assert "--d-type=f64: expected f32, f16 or bf16" in error_of(
        tp.gemm, d_type="f64")
    assert "alpha=0.10000000000000001: expected a finite number exact in binary32" in \
        error_of(tp.gemm, alpha=0.1)
    assert "m: 18446744073709551616 is out of range" in error_of(
        tp.gemm, m=2 ** 64)


def test_simulate_errors():
    k = tp.gemm(m=M, n=N, k=K)
    A, B, _ = operands(k)
    assert "A: expected dtype float16, found float32" in error_of(
        k.simulate, A.astype(np.float32), B)
    assert "K = 256 and 64 differ" in error_of(k.simulate, A, B[:64])
    # A fixed-shape kernel runs only at its own shape.
    fixed = tp.gemm(m=M, n=N, k=K, runtime_shape=False)
    assert "the kernel has its shape, 128x128x256, built in" in error_of(
        fixed.simulate, A[:64], B)
    square = tp.gemm(m=128, n=128, k=128)
    S = np.zeros((128, 128), dtype=np.float16)
    assert "A: expected a C-contiguous array" in error_of(
        square.simulate, S[:, ::-1], S)
    assert "A: expected a numpy array or a host DLPack tensor, found list" \
        in error_of(
        k.simulate, [[0.0]], B)
    assert "C: the kernel has no residual operand" in error_of(
        k.simulate, A, B, np.zeros((M, N), np.float32))
    r = tp.gemm(m=M, n=N, k=K, residual=True)
    assert "C: the kernel has a residual operand (R); pass C" in error_of(
        r.simulate, A, B)
    assert "C: give C or R (its older name), not both" in error_of(
        r.simulate, A, B, np.zeros((M, N), np.float32),
        C=np.zeros((M, N), np.float32))


def test_assemble_disassemble_errors():
    assert error_of(tp.disassemble, b"\x7fELF" + b"\0" * 80).startswith(
        "tp: error: <cubin>:")
    assert "expected bytes" in error_of(tp.disassemble, "text")
    message = error_of(tp.assemble, ".target sm_86\n.kernel k\n  FROB R1\n")
    assert message.startswith("<sass>:2:1: error: kernel 'k' has no")
    k = tp.gemm(m=128, n=128, k=128)
    text = tp.disassemble(k.cubin, cubin_text=True)
    line = text[:text.index("IMAD")].count("\n") + 1
    message = error_of(tp.assemble, text.replace("IMAD", "FROB", 1))
    # Located: file:line:col, the source line and a caret under FROB.
    first, source, caret = message.split("\n")
    assert first.startswith("<sass>:%d:" % line)
    assert first.endswith("error: unknown or unsupported instruction "
                          "mnemonic 'FROB'")
    assert caret.index("^") == source.index("FROB")
    assert "target: unsupported target 'sm_70'" in error_of(
        tp.assemble, ".target sm_86\n", target="sm_70")


def test_version():
    assert tp.version() == "0.1.0"


# --- k(A, B) through the project's mock libcuda (tools/tp-run/mock) ------

MOCK = os.path.join(os.environ.get("TP_TOOLS", ""), "..", "lib",
                    "libtp-mock-cuda.so")


def mock_module(k, mode="correct"):
    """The mock's stand-in for k's cubin: a text module declaring a kernel
    with k's manifest (it computes the product on the CPU)."""
    man = k.manifest
    roles = ",".join(p["role"] for p in man["params"])
    extra = " a_type=%s b_type=%s d_type=%s relu=%d" % (
        man.get("a_type", "f16"), man.get("b_type", "f16"),
        man.get("d_type", "f32"), int(man.get("relu", False)))
    if "tile" in man:
        extra += " tile=%d,%d" % tuple(man["tile"])
    return ("// tp-mock-kernel %s m=%d n=%d k=%d a=%s b=%s residual=%d "
            "params=%s shared=%d grid=%s%s mode=%s\n" %
            (man["kernel"], man["m"], man["n"], man["k"], man["layout_a"],
             man["layout_b"], int(man["residual"]), roles,
             man["dynamic_shared_bytes"], ",".join(map(str, man["grid"])),
             extra, mode)).encode()


@pytest.fixture
def mock_cuda(monkeypatch):
    if not os.path.exists(MOCK):
        pytest.skip("no mock libcuda (TP_TOOLS not set)")
    monkeypatch.setenv("TP_LIBCUDA", MOCK)
    monkeypatch.delenv("TP_MOCK_CUDA_DEVICES", raising=False)
    monkeypatch.delenv("TP_MOCK_CUDA_FAIL", raising=False)
    monkeypatch.delenv("TP_MOCK_CUDA_SM", raising=False)
    return monkeypatch


@pytest.mark.parametrize("a_layout,b_layout", LAYOUTS)
def test_gpu_call_through_mock_driver(mock_cuda, a_layout, b_layout):
    # The mock's kernels take the fixed shape's parameters (C, A, B[, R]).
    k = tp.gemm(a_layout=a_layout, b_layout=b_layout, m=M, n=N, k=K,
                runtime_shape=False)
    A, B, ref = operands(k)
    k.cubin = mock_module(k)  # the mock cannot run SASS
    D = k(A, B)
    assert D.shape == (M, N) and np.array_equal(D, ref.astype(np.float32))


def test_gpu_call_residual_and_large_shared(mock_cuda):
    k = tp.gemm(m=256, n=256, k=256, tile="large", residual=True,
                runtime_shape=False)
    assert k.manifest["dynamic_shared_bytes"] > 48 * 1024
    A, B, ref = operands(k)
    R = np.full((256, 256), 0.5, dtype=np.float32)
    k.cubin = mock_module(k)
    assert np.array_equal(k(A, B, R), (ref + 0.5).astype(np.float32))


def test_gpu_call_mock_catches_unwritten(mock_cuda):
    k = tp.gemm(m=M, n=N, k=K, runtime_shape=False)
    A, B, _ = operands(k)
    k.cubin = mock_module(k, mode="unwritten")
    D = k(A, B)
    # The poison the call fills D with shows where the kernel wrote nothing.
    assert (D.view(np.uint32) == 0x7fbadbad).any()


def test_gpu_call_errors(mock_cuda):
    k = tp.gemm(m=M, n=N, k=K)
    A, B, _ = operands(k)
    # The mock cannot load an ELF image, as a driver without sm_86 code.
    assert "cuModuleLoadDataEx failed: CUDA_ERROR_NO_BINARY_FOR_GPU" in \
        error_of(k, A, B)
    mock_cuda.setenv("TP_MOCK_CUDA_SM", "90")
    assert "device 0 is sm_90; the kernel is for sm_86" in error_of(k, A, B)
    mock_cuda.setenv("TP_MOCK_CUDA_DEVICES", "0")
    assert "cuInit failed: CUDA_ERROR_NO_DEVICE" in error_of(k, A, B)
    assert "A: expected dtype float16" in error_of(k, A.astype(np.float32), B)
    mock_cuda.setenv("TP_LIBCUDA", "/nonexistent/libcuda.so.1")
    assert error_of(k, A, B).startswith("tp: error: no CUDA driver")


# --- Operands in place: DLPack tensors and __cuda_array_interface__ -------
# The tensors "on the device" are copies in the mock's allocations (the
# mock refuses a launch whose pointers it did not allocate).

def mock_device_copy(array):
    """A pointer to a copy of array in the mock libcuda's memory."""
    mock = ctypes.CDLL(MOCK)
    ptr = ctypes.c_uint64()
    assert mock.cuMemAlloc_v2(ctypes.byref(ptr),
                              ctypes.c_size_t(array.nbytes + 64)) == 0
    assert mock.cuMemcpyHtoD_v2(ctypes.c_uint64(ptr.value),
                                array.ctypes.data_as(ctypes.c_void_p),
                                ctypes.c_size_t(array.nbytes)) == 0
    return ptr.value


class _DLTensorC(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p),
                ("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32),
                ("ndim", ctypes.c_int32), ("code", ctypes.c_uint8),
                ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16),
                ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)),
                ("byte_offset", ctypes.c_uint64)]


class _DLManagedTensorC(ctypes.Structure):
    _fields_ = [("dl_tensor", _DLTensorC), ("manager_ctx", ctypes.c_void_p),
                ("deleter", ctypes.c_void_p)]


class FakeCudaDLPack:
    """A DLPack producer that says its memory (a numpy array's) is on
    CUDA device `device_id` (or device type `device_type`)."""

    def __init__(self, array, device_type=2, device_id=0, strides=None,
                 code=2, offset_elements=0):
        self.array = array
        self.device = (device_type, device_id)
        self.shape = (ctypes.c_int64 * 2)(*array.shape)
        self.strides = (ctypes.c_int64 * 2)(*strides) if strides else None
        itemsize = array.dtype.itemsize
        self.managed = _DLManagedTensorC()
        t = self.managed.dl_tensor
        t.data = mock_device_copy(array) - offset_elements * itemsize
        t.byte_offset = offset_elements * itemsize
        t.device_type, t.device_id = device_type, device_id
        t.ndim, t.code, t.bits, t.lanes = 2, code, itemsize * 8, 1
        t.shape = self.shape
        t.strides = self.strides
        self.calls = []

    def __dlpack_device__(self):
        return self.device

    def __dlpack__(self, stream=None):
        self.calls.append(stream)
        new = ctypes.pythonapi.PyCapsule_New
        new.restype = ctypes.py_object
        new.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
        return new(ctypes.addressof(self.managed), b"dltensor", None)


class FakeCudaArrayInterface:
    def __init__(self, array):
        self.array = array
        self.__cuda_array_interface__ = {
            "shape": array.shape, "typestr": array.dtype.str,
            "data": (mock_device_copy(array), False), "strides": None,
            "version": 3}


class HostDLPack:
    """A host tensor seen only through the DLPack protocol (not an
    ndarray), as a CPU PyTorch tensor is."""

    def __init__(self, array):
        self.array = array

    def __dlpack_device__(self):
        return self.array.__dlpack_device__()

    def __dlpack__(self, stream=None):
        return self.array.__dlpack__()


def test_gpu_call_takes_device_tensors_in_place(mock_cuda):
    k = tp.gemm(m=M, n=N, k=K, residual=True, runtime_shape=False)
    A, B, ref = operands(k)
    R = np.full((M, N), 0.25, dtype=np.float32)
    k.cubin = mock_module(k)
    want = (ref + 0.25).astype(np.float32)
    fa, fb = FakeCudaDLPack(A, offset_elements=8), FakeCudaDLPack(B)
    assert np.array_equal(k(fa, fb, FakeCudaArrayInterface(R)), want)
    assert fa.calls == [1] and fb.calls == [1]  # the legacy default stream
    # Compact strides spelled out are C-contiguous too.
    assert np.array_equal(
        k(FakeCudaDLPack(A, strides=(A.shape[1], 1)), HostDLPack(B),
          FakeCudaDLPack(R, code=2)), want)


def test_gpu_call_device_tensor_errors(mock_cuda):
    k = tp.gemm(m=M, n=N, k=K)
    A, B, _ = operands(k)
    k.cubin = mock_module(k)
    assert "A: the tensor is on CUDA device 1; the call runs on device 0" \
        in error_of(k, FakeCudaDLPack(A, device_id=1), B)
    assert "A: a DLPack tensor on device type 10" in \
        error_of(k, FakeCudaDLPack(A, device_type=10), B)
    assert "B: expected dtype float16, found DLPack type code 0, 16 bits" \
        in error_of(k, A, FakeCudaDLPack(B.view(np.int16), code=0))
    # The shape comes from A and B: their K must agree.
    assert "K = 128 and 256 differ" in \
        error_of(k, FakeCudaDLPack(np.ascontiguousarray(A[:, :128])), B)
    assert "A: expected a C-contiguous tensor, found strides (1, 128)" in \
        error_of(k, FakeCudaDLPack(A, strides=(1, 128)), B)
    assert "B: expected dtype float16" in \
        error_of(k, A, HostDLPack(B.astype(np.float32)))


def test_simulate_takes_host_dlpack():
    k = tp.gemm(m=M, n=N, k=K)
    A, B, ref = operands(k)
    assert np.array_equal(k.simulate(HostDLPack(A), HostDLPack(B)),
                          ref.astype(np.float32))
    with pytest.raises(tp.Error, match="A: a DLPack tensor on device type "
                       "2; simulate\\(\\) takes host memory"):
        k.simulate(FakeCudaDLPack(A), B)


# --- Any shape, type, epilogue and batch (issue 16) ----------------------

def stored(x, layout, is_a):
    """x (A as M x K, or B as K x N; 2-D or a 3-D batch) as the layout
    stores it."""
    transpose = (layout == "columns") if is_a else (layout == "rows")
    return np.ascontiguousarray(np.swapaxes(x, -1, -2) if transpose else x)


def small_ints(rng, shape, lo=-8, hi=9):
    return rng.integers(lo, hi, size=shape).astype(np.float32)


def to_bits(x, d_type):
    """float32 values exact in d_type as the array simulate() takes."""
    if d_type == "f32":
        return x.astype(np.float32)
    if d_type == "f16":
        return x.astype(np.float16)
    return bf16_bits(x)


def rounded(x, d_type):
    """float64 x rounded once to d_type (to nearest even), as float32 or
    float16 (what simulate() returns)."""
    if d_type == "f16":
        return x.astype(np.float16)
    f = x.astype(np.float32)
    if d_type == "f32":
        return f
    bits = f.view(np.uint32).astype(np.uint64)
    bits = ((bits + 0x7fff + ((bits >> 16) & 1)) >> 16) << 16
    return bits.astype(np.uint32).view(np.float32)


ODD = (37, 29, 23)  # cuts every edge of every tile


@pytest.mark.parametrize("a_layout,b_layout", LAYOUTS)
def test_simulate_any_shape_every_layout(a_layout, b_layout):
    k = tp.gemm(a_layout=a_layout, b_layout=b_layout, runtime_shape=True,
                m=128, n=128, k=128)
    rng = np.random.default_rng(3)
    for m, n, kk in (ODD, (1, 1, 1), (65, 130, 40)):
        a, b = small_ints(rng, (m, kk)), small_ints(rng, (kk, n))
        D = k.simulate(stored(a, a_layout, True).astype(np.float16),
                       stored(b, b_layout, False).astype(np.float16))
        ref = a.astype(np.float64) @ b
        assert D.shape == (m, n) and D.dtype == np.float32
        assert rel_frobenius(D, ref) <= 1e-3  # tp-sim's tolerance
        assert np.array_equal(D, ref.astype(np.float32))


@pytest.mark.parametrize("d_type", ["f32", "f16", "bf16"])
def test_simulate_bf16_in_narrow_out_any_shape(d_type):
    k = tp.gemm(a_type="bf16", b_type="bf16", d_type=d_type,
                b_layout="rows", runtime_shape=True, m=64, n=64, k=64)
    rng = np.random.default_rng(4)
    m, n, kk = ODD
    a, b = small_ints(rng, (m, kk)), small_ints(rng, (kk, n))
    D = k.simulate(bf16_bits(a), bf16_bits(stored(b, "rows", False)))
    want = rounded(a.astype(np.float64) @ b, d_type)
    assert D.dtype == want.dtype and np.array_equal(D, want)


def test_simulate_epilogue_narrow_c_any_shape():
    k = tp.gemm(d_type="f16", alpha=0.5, beta=2.0, bias=True, relu=True,
                runtime_shape=True, m=64, n=64, k=64)
    rng = np.random.default_rng(5)
    m, n, kk = ODD
    a, b = small_ints(rng, (m, kk)), small_ints(rng, (kk, n))
    c, bias = small_ints(rng, (m, n), -4, 5), small_ints(rng, (n,), -4, 5)
    ab = a.astype(np.float64) @ b
    D = k.simulate(a.astype(np.float16), b.astype(np.float16),
                   C=c.astype(np.float16), bias=bias)
    assert np.array_equal(D, rounded(np.maximum(0.5 * ab + 2 * c + bias, 0),
                                     "f16"))
    # beta = 0 never reads C: a C full of NaN does not reach D.
    nan = np.full((m, n), np.nan, dtype=np.float16)
    D = k.simulate(a.astype(np.float16), b.astype(np.float16), C=nan,
                   bias=bias, alpha=-1, beta=0)
    assert np.array_equal(D, rounded(np.maximum(-ab + bias, 0), "f16"))
    # An f32 C.
    k32 = tp.gemm(alpha=1.0, beta=1.0, runtime_shape=True, m=64, n=64, k=64)
    D = k32.simulate(a.astype(np.float16), b.astype(np.float16), C=c)
    assert np.array_equal(D, (ab + c).astype(np.float32))
    assert "C: expected dtype float16, found float32" in error_of(
        k.simulate, a.astype(np.float16), b.astype(np.float16), C=c,
        bias=bias)


def test_simulate_batch():
    k = tp.gemm(runtime_shape=True, batch=2, a_layout="columns",
                m=64, n=64, k=64)
    rng = np.random.default_rng(6)
    m, n, kk = ODD
    a, b = small_ints(rng, (3, m, kk)), small_ints(rng, (3, kk, n))
    D = k.simulate(stored(a, "columns", True).astype(np.float16),
                   b.astype(np.float16))
    assert D.shape == (3, m, n)
    assert np.array_equal(D, (a.astype(np.float64) @ b).astype(np.float32))
    # A kernel built for one product takes no batch.
    one = tp.gemm(runtime_shape=True, m=64, n=64, k=64)
    assert "batch 3, but the kernel takes no batch strides" in error_of(
        one.simulate, a.astype(np.float16), b.astype(np.float16))
    assert "A, B: batches of 3 and 2" in error_of(
        k.simulate, stored(a, "columns", True).astype(np.float16),
        b[:2].astype(np.float16))


@pytest.mark.parametrize("d_type", ["f32", "f16", "bf16"])
def test_gpu_call_any_shape_type_epilogue_batch(mock_cuda, d_type):
    in_type = "bf16" if d_type == "f16" else "f16"
    k = tp.gemm(a_type=in_type, b_type=in_type, d_type=d_type, alpha=0.5,
                beta=2.0, bias=True, relu=True, runtime_shape=True, batch=2,
                b_layout="rows", m=64, n=64, k=64)
    k.cubin = mock_module(k)
    rng = np.random.default_rng(7)
    m, n, kk = ODD
    a, b = small_ints(rng, (3, m, kk)), small_ints(rng, (3, kk, n))
    c, bias = small_ints(rng, (3, m, n), -4, 5), small_ints(rng, (n,), -4, 5)
    op = (lambda x: bf16_bits(x)) if in_type == "bf16" else \
        (lambda x: x.astype(np.float16))
    A, B = op(a), op(stored(b, "rows", False))
    ab = a.astype(np.float64) @ b
    D = k(A, B, C=to_bits(c, d_type), bias=bias)
    want = rounded(np.maximum(0.5 * ab + 2 * c + bias, 0), d_type)
    assert D.shape == (3, m, n) and np.array_equal(D, want)
    # beta = 0: the NaN C does not reach D.
    nan = to_bits(np.full((3, m, n), np.nan, dtype=np.float32), d_type)
    D = k(A, B, C=nan, bias=bias, beta=0)
    assert np.array_equal(D, rounded(np.maximum(0.5 * ab + bias, 0), d_type))
    # The mock's defects show: a kernel that reads C when beta = 0, or
    # ignores alpha, gives another D.
    k.cubin = mock_module(k, mode="leak-nan")
    assert not np.array_equal(k(A, B, C=nan, bias=bias, beta=0), D)
    k.cubin = mock_module(k, mode="wrong-alpha")
    assert not np.array_equal(k(A, B, C=to_bits(c, d_type), bias=bias),
                              want)


def test_gpu_call_device_operands_follow_the_rules(mock_cuda):
    k = tp.gemm(runtime_shape=True, m=64, n=64, k=64)
    k.cubin = mock_module(k)
    rng = np.random.default_rng(8)
    a, b = small_ints(rng, (40, 24)), small_ints(rng, (24, 16))
    A, B = a.astype(np.float16), b.astype(np.float16)
    ref = (a.astype(np.float64) @ b).astype(np.float32)
    # In place, dense rows of 24 and 16 elements: multiples of 8.
    assert np.array_equal(k(FakeCudaDLPack(A), FakeCudaArrayInterface(B)),
                          ref)
    # Host arrays of any shape are padded; device ones cannot be.
    odd = np.ascontiguousarray(A[:, :13])
    assert np.array_equal(k(odd, B[:13]), (a[:, :13].astype(np.float64)
                                           @ b[:13]).astype(np.float32))
    assert "lda = 13 is not a multiple of 8 elements" in error_of(
        k, FakeCudaDLPack(odd), B[:13])
    shifted = FakeCudaArrayInterface(A)
    ptr = shifted.__cuda_array_interface__["data"][0]
    shifted.__cuda_array_interface__["data"] = (ptr + 2, False)
    assert "A: the device pointer 0x%x is not 16-byte aligned" % (ptr + 2) \
        in error_of(k, shifted, B)
    fixed = tp.gemm(m=M, n=N, k=K, runtime_shape=False)
    fixed.cubin = mock_module(fixed)
    assert "the kernel has its shape, 128x128x256, built in" in error_of(
        fixed, A, B)


# --- C and R in D's type, every combination (issue 29 item 2) -------------
# The residual's R and alpha/beta's C are both read in D's type (the
# manifest's "R" parameter); a float32 R for an f16 or bf16 D was
# reinterpreted, and an R in D's type refused.

C_KINDS = [(kind, in_type, d_type) for kind in ("residual", "scale")
           for in_type in ("f16", "bf16") for d_type in ("f32", "f16", "bf16")]


def c_kernel(kind, in_type, d_type, **extra):
    opts = {"residual": True} if kind == "residual" else \
        {"alpha": 0.5, "beta": 2.0}
    opts.update(extra)
    return tp.gemm(a_type=in_type, b_type=in_type, d_type=d_type,
                   runtime_shape=True, m=64, n=64, k=64, **opts)


def in_bits(x, in_type):
    return bf16_bits(x) if in_type == "bf16" else x.astype(np.float16)


def c_case(kind, d_type, batch=None, seed=11):
    """Operands (small integers, C with halves: exact in every type) and
    D as numpy computes it, rounded once to D's type."""
    rng = np.random.default_rng(seed)
    m, n, kk = ODD
    lead = (batch,) if batch else ()
    a, b = small_ints(rng, lead + (m, kk)), small_ints(rng, lead + (kk, n))
    c = small_ints(rng, lead + (m, n), -4, 5) + 0.5
    ab = a.astype(np.float64) @ b
    want = ab + c if kind == "residual" else 0.5 * ab + 2 * c
    return a, b, c, rounded(want, d_type)


@pytest.mark.parametrize("kind,in_type,d_type", C_KINDS)
def test_simulate_c_in_d_type_every_combination(kind, in_type, d_type):
    k = c_kernel(kind, in_type, d_type)
    a, b, c, want = c_case(kind, d_type)
    A, B = in_bits(a, in_type), in_bits(b, in_type)
    for D in (k.simulate(A, B, C=to_bits(c, d_type)),
              k.simulate(A, B, to_bits(c, d_type))):  # R, positional
        assert D.dtype == want.dtype and np.array_equal(D, want)
    # Any other dtype is refused, naming D's.
    want_name = {"f32": "float32", "f16": "float16", "bf16": "uint16"}[d_type]
    for wrong in (np.float32, np.float16, np.uint16, np.float64):
        if np.dtype(wrong).name == want_name:
            continue
        assert "C: expected dtype %s, found %s" % (
            want_name, np.dtype(wrong).name) in error_of(
            k.simulate, A, B, C=c.astype(wrong))


@pytest.mark.parametrize("kind,in_type,d_type", C_KINDS)
def test_gpu_call_c_in_d_type_every_combination(mock_cuda, kind, in_type,
                                                d_type):
    k = c_kernel(kind, in_type, d_type, batch=2)
    k.cubin = mock_module(k)
    a, b, c, want = c_case(kind, d_type, batch=3)
    A, B = in_bits(a, in_type), in_bits(b, in_type)
    D = k(A, B, C=to_bits(c, d_type))
    assert D.dtype == want.dtype and np.array_equal(D, want)
    if d_type != "f32":
        assert "C: expected dtype" in error_of(k, A, B, C=c)


# --- alpha and beta: finite, exact in binary32 (issue 29 item 3) ----------
# None passes the manifest's value; NaN and the infinities are errors (a
# NaN was the C API's "not given" and gave the manifest's alpha); a value
# binary32 does not hold is an error that shows the nearest binary32.

def test_alpha_beta_non_finite_are_errors(mock_cuda):
    k = tp.gemm(alpha=8.0, beta=1.0, runtime_shape=True, m=64, n=64, k=64)
    rng = np.random.default_rng(12)
    a, b, c = (small_ints(rng, (7, 5)), small_ints(rng, (5, 3)),
               small_ints(rng, (7, 3)))
    A, B, C = a.astype(np.float16), b.astype(np.float16), c
    assert np.array_equal(k.simulate(A, B, C=C),
                          (8 * (a.astype(np.float64) @ b) + c)
                          .astype(np.float32))
    mock = tp.gemm(alpha=8.0, beta=1.0, runtime_shape=True, m=64, n=64,
                   k=64)
    mock.cubin = mock_module(mock)
    for call in (k.simulate, mock):
        for name in ("alpha", "beta"):
            for value, text in ((float("nan"), "nan"), (float("inf"), "inf"),
                                (-float("inf"), "-inf"),
                                (np.float32("nan"), "nan")):
                assert "tp: error: %s: %s is not a finite number" % (
                    name, text) in error_of(call, A, B, C=C,
                                            **{name: value})
    for name in ("alpha", "beta"):
        assert "%s=nan: expected a finite number" % name in error_of(
            tp.gemm, **{name: float("nan")})
        assert "%s=inf: expected a finite number" % name in error_of(
            tp.gemm, **{name: float("inf")})


def test_alpha_beta_not_exact_in_binary32(mock_cuda):
    k = tp.gemm(alpha=0.5, beta=2.0, runtime_shape=True, m=64, n=64, k=64)
    A = np.ones((8, 8), np.float16)
    C = np.ones((8, 8), np.float32)
    mock = tp.gemm(alpha=0.5, beta=2.0, runtime_shape=True, m=64, n=64,
                   k=64)
    mock.cubin = mock_module(mock)
    for call in (k.simulate, mock):
        assert ("alpha: 0.1 is not exact in binary32 (the nearest binary32 "
                "is 0.10000000149011612)") in error_of(call, A, A, C=C,
                                                       alpha=0.1)
        assert ("beta: 1e-50 is not exact in binary32 (the nearest binary32 "
                "is 0.0)") in error_of(call, A, A, C=C, beta=1e-50)
        assert ("alpha: 1e+40 is beyond binary32's range (the largest "
                "finite binary32 is 3.4028234663852886e+38)") in error_of(
            call, A, A, C=C, alpha=1e40)
        assert "alpha: an integer of 401 digits is beyond binary32's " \
            "range" in error_of(call, A, A, C=C, alpha=10 ** 400)
        assert "alpha: expected a number, found '1'" in error_of(
            call, A, A, C=C, alpha="1")
        # numpy scalars are numbers; a binary32 value is exact by nature.
        assert np.array_equal(call(A, A, C=C, alpha=np.float32(0.1),
                                   beta=np.int64(1)),
                              np.full((8, 8), np.float32(
                                  8 * np.float64(np.float32(0.1)) + 1)))


# --- ReLU is max(x, 0): a NaN becomes 0 (issue 29 item 12) ----------------
# As cuBLASLt's RELU epilogue, CUTLASS's ReLu (fmax) and PTX max.f32: the
# kernel's FMNMX with RZ returns the non-NaN operand, and tp-sim's
# reference clips the same way; PyTorch's relu, which propagates NaN,
# differs here.

@pytest.mark.parametrize("d_type", ["f32", "f16", "bf16"])
def test_relu_turns_nan_into_zero(d_type):
    k = tp.gemm(d_type=d_type, alpha=1.0, beta=1.0, relu=True,
                runtime_shape=True, m=64, n=64, k=64)
    rng = np.random.default_rng(13)
    m, n, kk = ODD
    a, b = small_ints(rng, (m, kk)), small_ints(rng, (kk, n))
    c = small_ints(rng, (m, n), -4, 5)
    c[0, :4] = [np.nan, np.inf, -np.inf, -0.0]
    c[5, :] = np.nan
    D = k.simulate(a.astype(np.float16), b.astype(np.float16),
                   C=to_bits(c, d_type))
    x = a.astype(np.float64) @ b + c
    with np.errstate(invalid="ignore"):
        assert np.array_equal(D, rounded(np.fmax(x, 0), d_type))
    assert not np.isnan(D).any()
    assert (D[5] == 0).all() and D[0, 0] == 0 and np.isinf(D[0, 1])
