#!/usr/bin/env python3
"""Writes the fuzz targets' seed inputs into tests/fuzz/seeds/<target>/ (committed).

Each seed is a well-formed input (layouts from core/payload/wire.h, real/frame.h and
real/datagram.h), so the fuzzers start deep inside the decoders instead of
having to discover the magic numbers. Rerun after a format change.
"""
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))


def crc32c(data):
    crc = 0xFFFFFFFF
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ (0x82F63B78 if crc & 1 else 0)
    return crc ^ 0xFFFFFFFF


def message(kind, frm, to, rnd, blocks=None, coded=None, seq=0, part=0, parts=0):
    """core/payload/wire.h: header, then a payload of dense blocks [(key, values)] and coded
    blocks [(key, n, format id, bytes)]."""
    has = blocks is not None or coded is not None
    m = struct.pack("<BBiiiiiqIHHdddB", kind, 0, 0, frm, to, -1, -1, rnd, seq, part, parts, 0.0, 0.0, 0.0, 1 if has else 0)
    if has:
        blocks, coded = blocks or [], coded or []
        m += struct.pack("<diBII", 0.5, 2, 0, len(blocks), len(coded))
        for key, vals in blocks:
            m += struct.pack("<II", key, len(vals)) + struct.pack(f"<{len(vals)}f", *vals)
        for key, n, fmt, data in coded:
            m += struct.pack("<IIBI", key, n, fmt, len(data)) + data
    return m


def sparse(idx, vals):
    return struct.pack("<I", len(idx)) + struct.pack(f"<{len(idx)}I", *idx) + struct.pack(f"<{len(vals)}f", *vals)


# One well-formed block of each codec format (core/codec/), for n = 16.
CODED = {
    1: sparse([0, 5, 15], [1.0, -2.0, 0.5]),                                    # sparse
    2: struct.pack("<16H", *([0x3C00] * 16)),                                   # fp16 (ones)
    3: struct.pack("<fB", 2.0, 16) + bytes([3, 0x85, 0, 16] * 4),               # qsgd
    4: struct.pack("<f", 0.5) + bytes([0b00100110] * 4),                        # terngrad
    5: struct.pack("<f", 0.25) + bytes([0xA5, 0x3C]),                           # signsgd
    6: struct.pack("<III", 4, 4, 1) + struct.pack("<8f", *([0.5] * 8)),         # powersgd, 4 x 4 rank 1
    7: struct.pack("<II", 4, 8) + struct.pack("<8f", *([0.75] * 8)),            # segment, entries 4..11
    8: struct.pack("<IIff", 0, 16, -1.0, 1.0) + bytes([0x1F, 0x2E] * 4),        # segment4, 16 entries
}


def frame(ftype, body):
    return struct.pack("<IBBHI", 0x4E525447, 2, ftype, 0, len(body)) + body + struct.pack("<I", crc32c(body))


def write(target, name, data):
    d = os.path.join(HERE, "seeds", target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


msgs = {
    "ack": message(1, 0, 1, 7),
    "pull": message(2, 1, 0, 7),
    "push": message(0, 2, 1, 3, [(0, [1.0, -2.0, 3.5]), (1, [0.25] * 5)]),
    "empty_payload": message(3, 0, 2, 9, []),
    "coded": message(0, 2, 1, 3, [(0, [1.0])], [(k, 16, fmt, data) for k, (fmt, data) in enumerate(CODED.items(), 1)]),
    # DGT: a part of a push, two ranges of one tensor sharing its key
    "push_part": message(8, 2, 1, 3, [], [(5, 16, 7, CODED[7]), (5, 16, 7, struct.pack("<II", 12, 4) + struct.pack("<4f", *([2.0] * 4)))],
                         seq=1, part=2, parts=4),
}
for name, m in msgs.items():
    write("wire", name, m)
    # frame_fuzz: first byte picks the piece size and the limit (high bit: pre-auth).
    write("frame", name, bytes([7]) + frame(1, m) + frame(8, b""))
write("frame", "auth_response", bytes([0x85]) + frame(3, bytes(4 + 16 + 32)))

# datagram_fuzz: records of [sign bit | 3 length bits][8 length bits] + datagram.
dgrams = b""
enc = msgs["push"]
half = len(enc) // 2
for i, chunk in enumerate([enc[:half], enc[half:]]):
    body = struct.pack("<iQHH", 2, 42, i, 2) + chunk
    f = frame(9, body)
    dgrams += bytes([0x80 | (len(f) >> 8), len(f) & 0xFF]) + f
write("datagram", "two_fragments", dgrams)
# codec_fuzz: format id, u32 tensor length, the encoded bytes.
for fmt, data in CODED.items():
    write("codec", f"format{fmt}", bytes([fmt]) + struct.pack("<I", 16) + data)
# dgt_fuzz: records of [u16 length] + a message; a push in three parts (the marker, part 0, carries
# every tensor's last range), for the target's model: key 1 of 3000 entries, key 4 of 9000.
def seg(start, vals):
    return struct.pack("<II", start, len(vals)) + struct.pack(f"<{len(vals)}f", *vals)


parts = [
    message(8, 0, 1, 3, [], [(1, 3000, 7, seg(2990, [0.5] * 10)), (4, 9000, 7, seg(8990, [0.25] * 10))], seq=1, part=0, parts=3),
    message(8, 0, 1, 3, [], [(1, 3000, 7, seg(0, [1.0] * 8))], seq=1, part=1, parts=3),
    message(8, 0, 1, 3, [], [(4, 9000, 7, seg(100, [2.0] * 8))], seq=1, part=2, parts=3),
]
write("dgt", "three_parts", b"".join(struct.pack("<H", len(m)) + m for m in parts))
write("dgt", "replayed_and_reordered", b"".join(struct.pack("<H", len(m)) + m for m in [parts[2], parts[0], parts[2], parts[1], parts[1]]))
print("seeds written under", os.path.join(HERE, "seeds"))
