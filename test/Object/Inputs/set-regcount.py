"""set-regcount.py IN N OUT: IN with every kernel's register count set to N,
in its .text section's sh_info (bits 24..31) and in its REGCOUNT record
(EIATTR_REGCOUNT, 0x2f04: format 4, attribute 0x2f, 8 bytes: symbol, count)
of .nv.info (found by its 4-byte header: a sketch for our cubins, not a
parser of every record).""" 
import struct
import sys

src, regs, dst = sys.argv[1], int(sys.argv[2]), sys.argv[3]
b = bytearray(open(src, 'rb').read())
shoff, = struct.unpack_from('<Q', b, 0x28)
shentsize, shnum, shstrndx = struct.unpack_from('<HHH', b, 0x3a)
names_at, = struct.unpack_from('<Q', b, shoff + shstrndx * shentsize + 0x18)
for i in range(shnum):
    h = shoff + i * shentsize
    name = b[names_at + struct.unpack_from('<I', b, h)[0]:].split(b'\0')[0]
    off, size = struct.unpack_from('<QQ', b, h + 0x18)
    if name.startswith(b'.text.'):
        info, = struct.unpack_from('<I', b, h + 44)
        struct.pack_into('<I', b, h + 44, (info & 0xffffff) | regs << 24)
    elif name == b'.nv.info':
        at = b.find(bytes([4, 0x2f, 8, 0]), off, off + size)
        while at >= 0:
            struct.pack_into('<I', b, at + 8, regs)
            at = b.find(bytes([4, 0x2f, 8, 0]), at + 12, off + size)
open(dst, 'wb').write(b)
