# -*- Python -*-
# Runs every GoogleTest executable under build/unittests/ (one per layer).
import os
import lit.formats

config.name = "tp-Unit"
config.suffixes = []
config.test_source_root = os.path.join(config.tp_obj_root, "unittests")
config.test_exec_root = config.test_source_root
config.test_format = lit.formats.GoogleTest(".", "Tests")
