#!/usr/bin/env python3
"""Writes the sample-format variants of a 16-bit mono WAV that Cubism's sample
(LAppWavFileHandler) reads: 8-bit unsigned, 16-bit, 24-bit and 16-bit stereo (the right
channel at half the left's amplitude), all plain PCM (format tag 1). Integer arithmetic only,
so every machine writes the same bytes.
    scripts/audio_variants.py IN.wav OUT_DIR   -> OUT_DIR/NAME_{u8,s16,s24,stereo}.wav"""
import array
import os
import sys
import wave


def main():
    src, out = sys.argv[1], sys.argv[2]
    with wave.open(src, "rb") as w:
        if w.getsampwidth() != 2 or w.getnchannels() != 1:
            sys.exit(f"{src}: expected 16-bit mono")
        rate = w.getframerate()
        pcm = array.array("h", w.readframes(w.getnframes()))
    if sys.byteorder != "little":
        pcm.byteswap()
    name = os.path.splitext(os.path.basename(src))[0]
    os.makedirs(out, exist_ok=True)

    def write(suffix, width, channels, data):
        with wave.open(os.path.join(out, f"{name}_{suffix}.wav"), "wb") as w:
            w.setnchannels(channels)
            w.setsampwidth(width)
            w.setframerate(rate)
            w.writeframes(bytes(data))

    write("u8", 1, 1, bytearray((s >> 8) + 128 for s in pcm))
    write("s16", 2, 1, pcm.tobytes())
    s24 = bytearray()
    for s in pcm:
        v = (s * 256 + 37 * (s & 7)) & 0xFFFFFF  # low byte non-zero: the 24 bits count
        s24 += bytes((v & 0xFF, (v >> 8) & 0xFF, v >> 16))
    write("s24", 3, 1, s24)
    stereo = array.array("h")
    for s in pcm:
        stereo.append(s)
        stereo.append(int(s / 2))
    write("stereo", 2, 2, stereo.tobytes())


if __name__ == "__main__":
    main()
