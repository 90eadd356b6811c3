#!/usr/bin/env python3
"""An independent reader of Hermes v2 AES-GCM packets, written from docs/wire-format.md.

Usage: decode_v2.py KEY_HEX < packet
Prints the meta lines, then "payload:<utf-8 text>" per payload slot ("" for an empty slot).
Exits 3 when the 'cryptography' package is missing.
"""
import struct
import sys
import zlib

try:
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM
except ImportError:
    sys.exit(3)

key = bytes.fromhex(sys.argv[1])
body = sys.stdin.buffer.read()
assert body[:4] == b"HERM", "magic"
version, kind, cipher, flags, key_id, count, meta_length = struct.unpack(">BBBBIHI", body[4:18])
assert (version, cipher, flags) == (2, 2, 0), "version, cipher, flags"
lengths = list(struct.unpack(">%dI" % count, body[18:18 + 4 * count]))
header = body[:18 + 4 * count]
offset = len(header)


def open_block(index, length):
    global offset
    block = body[offset:offset + length]
    offset += length
    aad = header + struct.pack(">H", index)
    compressed = AESGCM(key).decrypt(block[:12], block[12:], aad)
    return zlib.decompress(compressed, 16 + zlib.MAX_WBITS)


sys.stdout.write(open_block(0, meta_length).decode() + "\n")
for index, length in enumerate(lengths):
    payload = open_block(index + 1, length).decode() if length else ""
    sys.stdout.write("payload:" + payload + "\n")
assert offset == len(body), "trailing bytes"
