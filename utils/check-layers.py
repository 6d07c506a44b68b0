#!/usr/bin/env python3
"""check-layers.py - every library includes only the layers below it.

usage: check-layers.py [ROOT]     (ROOT: the checkout; default: this file's ../)

The layers and what each may include are the table in docs/architecture.md;
ALLOWED below is that table.  A file under include/tp/L/ or lib/L/ belongs
to layer L (lib/Target/SASS and include/tp/Target/SASS to Target).  Every
`#include "tp/X/..."` in it must name L itself or a layer ALLOWED[L] lists.
Tools (tools/), tests and benchmarks may include any layer.

Prints one `path:line: error: layer L includes layer X ("...")` per
violation and exits 1; prints a one-line summary and exits 0 otherwise.
"""
import os
import re
import sys

ALLOWED = {
    "Support": [],
    "Pass": ["Support"],
    "Target": ["Support"],
    "Object": ["Target", "Support"],
    "TileIR": ["Target", "Pass", "Support"],
    "Transforms": ["TileIR", "Target", "Pass", "Support"],
    "MIR": ["Target", "Pass", "Support"],
    "CodeGen": ["MIR", "TileIR", "Object", "Target", "Pass", "Support"],
    "Sim": ["Object", "Target", "Support"],
    "Driver": ["CodeGen", "Transforms", "MIR", "TileIR", "Sim", "Object",
               "Target", "Pass", "Support"],
    "CAPI": ["Driver", "CodeGen", "Transforms", "MIR", "TileIR", "Sim",
             "Object", "Target", "Pass", "Support"],
}

INCLUDE = re.compile(r'^\s*#\s*include\s+"tp/([A-Za-z0-9_]+)/')


def layer_of(rel):
    parts = rel.split(os.sep)
    if parts[0] == "lib" and len(parts) > 2:
        return parts[1]
    if parts[:2] == ["include", "tp"] and len(parts) > 3:
        return parts[2]
    return None


def main(argv):
    root = argv[1] if len(argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..")
    errors, files = 0, 0
    for top in ("include", "lib"):
        for dirpath, _, names in sorted(os.walk(os.path.join(root, top))):
            for name in sorted(names):
                if not name.endswith((".h", ".cpp", ".def", ".inc")):
                    continue
                path = os.path.join(dirpath, name)
                rel = os.path.relpath(path, root)
                layer = layer_of(rel)
                if layer is None:
                    continue
                files += 1
                if layer not in ALLOWED:
                    print(f"{rel}:1: error: '{layer}' is no layer of "
                          f"docs/architecture.md")
                    errors += 1
                    continue
                with open(path, encoding="utf-8", errors="replace") as f:
                    for no, line in enumerate(f, 1):
                        m = INCLUDE.match(line)
                        if not m:
                            continue
                        used = m.group(1)
                        if used != layer and used not in ALLOWED[layer]:
                            print(f"{rel}:{no}: error: layer {layer} "
                                  f"includes layer {used} "
                                  f"({line.strip()})")
                            errors += 1
    if errors:
        print(f"check-layers: {errors} forbidden include(s) in {files} files")
        return 1
    print(f"check-layers: {files} files, every include follows the layers")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
