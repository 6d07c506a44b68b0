#!/usr/bin/env python3
"""Writes a copy of a cubin with one instruction word replaced.

usage: patch_word.py IN OUT SECTION OFFSET WORD
WORD is 32 hex digits, most significant first (tp-mc's spelling); OFFSET
is the byte offset inside SECTION (e.g. .text.gemm)."""
import struct
import sys


def main():
    src, dst, section, offset, word = sys.argv[1:]
    data = bytearray(open(src, 'rb').read())
    shoff, = struct.unpack_from('<Q', data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from('<HHH', data, 0x3a)
    secs = [struct.unpack_from('<IIQQQQIIQQ', data, shoff + i * shentsize)
            for i in range(shnum)]
    stroff = secs[shstrndx][4]
    for name, _, _, _, off, size, *_ in secs:
        end = data.index(b'\0', stroff + name)
        if data[stroff + name:end].decode() == section:
            at = off + int(offset, 0)
            assert int(offset, 0) + 16 <= size, 'offset past the section'
            value = int(word, 16)
            struct.pack_into('<QQ', data, at, value & (2**64 - 1), value >> 64)
            open(dst, 'wb').write(data)
            return 0
    sys.exit('no section ' + section)


if __name__ == '__main__':
    sys.exit(main())
