# -*- Python -*-
# lit configuration for tp: FileCheck tests of every layer.
import os
import shutil

import lit.formats
import lit.util

config.name = "tp"
config.test_format = lit.formats.ShTest(not lit.util.which("bash"))
config.suffixes = [".test", ".sass", ".txt", ".tp", ".mir", ".td", ".ptx"]
config.excludes = ["Inputs", "Unit", "CMakeLists.txt", "lit.cfg.py",
                   "lit.site.cfg.py", "README.txt"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tp_obj_root, "test")

# Our tools first, then FileCheck, not, count, split-file from LLVM 14.
config.environment["PATH"] = os.pathsep.join(
    [config.tp_tools_dir, config.llvm_tools_dir, config.environment["PATH"]])

# The suite writes nothing into the source tree: the Python it runs from
# there (pytest on test/Python, the utils/ and Inputs/ scripts and what they
# import) leaves no __pycache__ (test/Python/no-bytecode.test).
config.environment["PYTHONDONTWRITEBYTECODE"] = "1"

config.substitutions.append(("%shared", config.tp_shared_dir))
config.substitutions.append(("%python", config.python_executable))
config.substitutions.append(("%tp_src", config.tp_src_root))

# ptxas is the oracle for instruction bytes and the cubin container.
if config.tp_ptxas and os.path.exists(config.tp_ptxas):
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", config.tp_ptxas))
# NVIDIA's disassembler 11.8 is the oracle for the text and the control
# fields of every word on sm_80..sm_90 (docs/nvdisasm.md).
if config.tp_nvdisasm and os.path.exists(config.tp_nvdisasm):
    config.available_features.add("nvdisasm")
    config.substitutions.append(("%nvdisasm", config.tp_nvdisasm))
else:
    lit_config.note("no nvdisasm 11.8 (run utils/setup.sh): the nvdisasm "
                    "oracle tests are UNSUPPORTED")
if os.path.isdir(config.tp_shared_dir):
    config.available_features.add("shared")
# GPU features are set only when a device is present; tp-run's skip code
# (see tools/tp-run) decides that, never a guess here: `tp-run --probe`
# exits 0 and prints "device N: NAME sm_XY" per device, or exits 77 when
# there is no driver or no device.  TP_CUDA_GPU=1 asserts a GPU (its tests
# then fail rather than vanish if the probe finds none); TP_CUDA_GPU=0
# turns the GPU tests off.
gpu_env = os.environ.get("TP_CUDA_GPU")
if gpu_env == "1":
    config.available_features.add("cuda-gpu")
tp_run = os.path.join(config.tp_tools_dir, "tp-run")
if gpu_env != "0" and os.path.exists(tp_run):
    import re
    import subprocess
    try:
        probe = subprocess.run([tp_run, "--probe"], stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL,
                               universal_newlines=True, timeout=120)
        if probe.returncode == 0:
            config.available_features.add("cuda-gpu")
            for sm in re.findall(r" sm_([0-9]+)$", probe.stdout, re.M):
                config.available_features.add("sm%s-gpu" % sm)
    except (OSError, subprocess.TimeoutExpired):
        pass
