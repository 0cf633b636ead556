#!/usr/bin/env bash
# The p2l_gl example (examples/gl/window.c) as CI runs it: under Xvfb (Mesa's llvmpipe through
# GLX), one frame of the example character into a PNG, which must show the character: a
# 512 x 512 picture whose pixels differ from the window's background over a quarter of it and
# more. Skipped (77) without xvfb-run.
#   run_window_example.sh EXAMPLE CHARACTER OUT.png
set -euo pipefail
example=$1 character=$2 out=$3
command -v xvfb-run > /dev/null || { echo "run_window_example: no xvfb-run (scripts/setup.sh --gl)"; exit 77; }
rm -f "$out"
xvfb-run -a -s "-screen 0 1024x768x24" "$example" "$character" --png "$out"
python3 - "$out" <<'PY'
import struct, sys, zlib
data = open(sys.argv[1], 'rb').read()
assert data[:8] == b'\x89PNG\r\n\x1a\n', 'not a PNG'
at, idat, width, height = 8, b'', 0, 0
while at < len(data):
    n, kind = struct.unpack('>I4s', data[at:at + 8])
    chunk = data[at + 8:at + 8 + n]
    at += 12 + n
    if kind == b'IHDR':
        width, height, depth, colour = struct.unpack('>IIBB', chunk[:10])
        assert (depth, colour) == (8, 6), 'not RGBA8'
    elif kind == b'IDAT':
        idat += chunk
raw, stride = zlib.decompress(idat), width * 4
rows, previous, p = [], bytearray(stride), 0
for _ in range(height):
    kind, line = raw[p], bytearray(raw[p + 1:p + 1 + stride])
    p += 1 + stride
    for x in range(stride):
        a = line[x - 4] if x >= 4 else 0
        b, c = previous[x], (previous[x - 4] if x >= 4 else 0)
        if kind == 1: line[x] = (line[x] + a) & 255
        elif kind == 2: line[x] = (line[x] + b) & 255
        elif kind == 3: line[x] = (line[x] + (a + b) // 2) & 255
        elif kind == 4:
            q = a + b - c
            pa, pb, pc = abs(q - a), abs(q - b), abs(q - c)
            line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    rows.append(line)
    previous = line
background = (round(0.93 * 255), round(0.94 * 255), round(0.96 * 255))
drawn = sum(1 for row in rows for x in range(0, stride, 4)
            if max(abs(row[x + k] - background[k]) for k in range(3)) > 8)
share = drawn / (width * height)
print(f'run_window_example: {width} x {height}, the character over {share:.0%} of the window')
assert (width, height) == (512, 512), 'not the 512 x 512 window'
assert share > 0.25, 'the window shows too little of the character'
PY
