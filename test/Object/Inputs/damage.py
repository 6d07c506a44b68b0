#!/usr/bin/env python3
"""Writes damaged copies of a good sm_86 cubin for dump-cubin-errors.test:
PREFIX.truncated, .machine, .secoff, .name, .nvinfo (offsets are those of
tiny_store_sm86.cubin: section headers at 0x780, .nv.info.tiny at 0x474)."""
import struct
import sys

src, prefix = sys.argv[1], sys.argv[2]
good = open(src, "rb").read()
shoff = struct.unpack_from("<Q", good, 0x28)[0]


def write(suffix, data):
    with open(prefix + "." + suffix, "wb") as f:
        f.write(data)


write("truncated", good[:0x800])
b = bytearray(good)
struct.pack_into("<H", b, 0x12, 62)  # EM_X86_64
write("machine", b)
b = bytearray(good)
struct.pack_into("<Q", b, shoff + 13 * 64 + 0x18, 0x10000000)  # .text sh_offset
write("secoff", b)
b = bytearray(good)
struct.pack_into("<I", b, shoff + 5 * 64, 0x5000)  # tkinfo sh_name
write("name", b)
b = bytearray(good)
struct.pack_into("<H", b, 0x474 + 2, 0x400)  # first record's length
write("nvinfo", b)
