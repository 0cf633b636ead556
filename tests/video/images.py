#!/usr/bin/env python3
"""PNG comparisons for run_video_test.sh, in plain Python (no numpy or PIL on the test machines).

  images.py psnr A.png B.png              prints the PSNR of A against B over R, G, B (dB)
  images.py alpha DECODED.png REF.png     checks a decoded transparent frame against the PNG
                                          render of the same frame: the four corners alpha 0,
                                          and the pixels the render draws opaque opaque
Reads 8-bit RGB or RGBA PNGs, not interlaced (what ffmpeg and p2lrt write).
"""
import math
import struct
import sys
import zlib


def read_png(path):
    data = open(path, 'rb').read()
    if data[:8] != b'\x89PNG\r\n\x1a\n':
        sys.exit(f'{path}: not a PNG')
    pos, idat, width = 8, b'', 0
    while pos < len(data):
        length, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b'IHDR':
            width, height, depth, color, _, _, interlace = struct.unpack('>IIBBBBB', body)
            if depth != 8 or color not in (2, 6) or interlace:
                sys.exit(f'{path}: expected 8-bit RGB or RGBA, not interlaced (depth {depth}, colour type {color})')
            channels = 3 if color == 2 else 4
        elif kind == b'IDAT':
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    out = bytearray(stride * height)
    prev = bytearray(stride)
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            a = line[x - channels] if x >= channels else 0
            b = prev[x]
            c = prev[x - channels] if x >= channels else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        out[y * stride:(y + 1) * stride] = line
        prev = line
    return width, height, channels, out


def psnr(a_path, b_path):
    wa, ha, ca, a = read_png(a_path)
    wb, hb, cb, b = read_png(b_path)
    if (wa, ha) != (wb, hb):
        sys.exit(f'sizes differ: {wa}x{ha} and {wb}x{hb}')
    total = 0
    for i in range(wa * ha):
        for k in range(3):
            d = a[i * ca + k] - b[i * cb + k]
            total += d * d
    mse = total / (wa * ha * 3)
    print('inf' if mse == 0 else f'{10 * math.log10(255 * 255 / mse):.2f}')


def alpha(decoded_path, ref_path):
    w, h, c, d = read_png(decoded_path)
    wr, hr, cr, r = read_png(ref_path)
    if c != 4 or cr != 4 or (w, h) != (wr, hr):
        sys.exit(f'expected two RGBA images of one size: {w}x{h}x{c}, {wr}x{hr}x{cr}')
    corners = [d[(y * w + x) * 4 + 3] for x, y in ((0, 0), (w - 1, 0), (0, h - 1), (w - 1, h - 1))]
    opaque = [i for i in range(w * h) if r[i * 4 + 3] == 255]
    kept = sum(1 for i in opaque if d[i * 4 + 3] >= 240)
    clear = [i for i in range(w * h) if r[i * 4 + 3] == 0]
    cleared = sum(1 for i in clear if d[i * 4 + 3] <= 15)
    print(f'corners alpha {corners}; opaque in the render: {len(opaque)} px, decoded >= 240: {kept}; '
          f'transparent in the render: {len(clear)} px, decoded <= 15: {cleared}')
    if any(corners) or not opaque or kept < 0.99 * len(opaque) or cleared < 0.99 * len(clear):
        sys.exit('alpha not kept')


if __name__ == '__main__':
    if len(sys.argv) == 4 and sys.argv[1] == 'psnr':
        psnr(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 4 and sys.argv[1] == 'alpha':
        alpha(sys.argv[2], sys.argv[3])
    else:
        sys.exit(__doc__)
