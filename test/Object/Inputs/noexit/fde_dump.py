#!/usr/bin/env python3
"""fde_dump.py X.cubin...: prints each kernel's FDE call-frame instructions
in .debug_frame (and .nv.merc.debug_frame) of a ptxas cubin, one line a
kernel: "SECTION KERNEL: adv 0x10 def_cfa 0 ...", advances as the byte
offset reached (absolute, after the code alignment factor), def_cfa with
its offset; DW_CFA_nop padding is left out.  The kernel of an FDE is found
through the R_CUDA_64 relocation at its initial location.  A reading aid
for docs/targets.md "Kernels without an EXIT"; no test depends on it."""
import struct
import sys


def uleb(b, p):
    v = s = 0
    while True:
        c = b[p]
        p += 1
        v |= (c & 0x7F) << s
        s += 7
        if not c & 0x80:
            return v, p


def sections(data):
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    secs = []
    for i in range(shnum):
        (name, typ, flags, addr, off, size, link, info, align,
         entsize) = struct.unpack_from("<IIQQQQIIQQ", data,
                                       shoff + i * shentsize)
        secs.append(dict(name=name, type=typ, off=off, size=size, link=link,
                         info=info))
    strtab = secs[shstrndx]
    for s in secs:
        end = data.index(b"\0", strtab["off"] + s["name"])
        s["name"] = data[strtab["off"] + s["name"]:end].decode()
        s["data"] = data[s["off"]:s["off"] + s["size"]]
    return secs


def symbols(secs, symsec):
    st = secs[symsec["link"]]["data"]
    out = []
    d = symsec["data"]
    for o in range(0, len(d), 24):
        name, = struct.unpack_from("<I", d, o)
        out.append(st[name:st.index(b"\0", name)].decode())
    return out


def dump(path):
    data = open(path, "rb").read()
    secs = sections(data)
    byname = {s["name"]: s for s in secs}
    for frame, symtab in ((".debug_frame", ".symtab"),
                          (".nv.merc.debug_frame", ".nv.merc.symtab")):
        if frame not in byname:
            continue
        fr = byname[frame]["data"]
        idx = secs.index(byname[frame])
        rel = [s for s in secs if s["type"] in (4, 9, 0x70000082) and
               s["info"] == idx][0]
        esz = 24 if "rela" in rel["name"] else 16
        syms = symbols(secs, byname[symtab])
        rows = []
        for r in range(0, len(rel["data"]), esz):
            off, info = struct.unpack_from("<QQ", rel["data"], r)
            start = off - 20
            if start < 0 or fr[start:start + 4] != b"\xff\xff\xff\xff":
                continue  # a CIE address (calls), not an FDE location
            length, cie = struct.unpack_from("<QQ", fr, start + 4)
            # The CIE: code alignment factor after version and augmentation.
            p = cie + 20 + 1
            p = fr.index(b"\0", p) + 1
            align, p = uleb(fr, p)
            p = off + 16
            end = start + 12 + length
            pc = 0
            ops = []
            while p < end:
                c = fr[p]
                if c == 0x04:
                    delta, = struct.unpack_from("<I", fr, p + 1)
                    pc = (pc + delta * align) & 0xFFFFFFFF
                    ops.append("adv %#x" % pc)
                    p += 5
                elif c == 0x0C:
                    reg, p = uleb(fr, p + 1)
                    cfa, p = uleb(fr, p)
                    ops.append("def_cfa %d" % cfa)
                elif c == 0:
                    p += 1
                else:
                    ops.append("op%#x" % c)
                    break
            rows.append("%s %s: %s" % (frame, syms[info >> 32], " ".join(ops)))
        for row in reversed(rows):
            print(row)


for f in sys.argv[1:]:
    print("==", f)
    dump(f)
