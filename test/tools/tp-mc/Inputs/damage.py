# Writes damaged copies of the cubin argv[1] into the folder argv[2]:
# short.cubin (one byte short), class32.cubin (EI_CLASS = ELFCLASS32),
# shstrndx.cubin (e_shstrndx = 999), empty.bin, nomagic.bin (the magic
# bytes zeroed).
import os
import struct
import sys

data = open(sys.argv[1], "rb").read()
out = sys.argv[2]


def write(name, b):
    with open(os.path.join(out, name), "wb") as f:
        f.write(b)


write("short.cubin", data[:-1])
write("class32.cubin", data[:4] + b"\x01" + data[5:])
write("shstrndx.cubin", data[:62] + struct.pack("<H", 999) + data[64:])
write("empty.bin", b"")
write("nomagic.bin", b"\x00\x00\x00\x00" + data[4:])
