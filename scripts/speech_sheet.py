#!/usr/bin/env python3
"""A contact sheet of a character speaking in vowel mode: for each vowel (and silence) the frames
where p2lrt hears it most clearly, the face cropped, labelled with the vowel, its weight and the
level; so that a person can see that each vowel has its own mouth.

    scripts/speech_sheet.py P2LRT RIG VOICE.wav OUT_DIR [--region X,Y,W,H] [--clip ID] [--per-vowel N]

Runs `p2lrt render RIG --audio VOICE --mouth vowels` into PNG frames (the face: --region, canvas
pixels) and `p2lrt speech VOICE --vowels` for what was heard at each frame, then tiles the chosen
frames with ffmpeg (drawtext, tile) into OUT_DIR/sheet.png."""
import argparse
import csv
import io
import os
import subprocess
import sys

VOWELS = ["A", "I", "U", "E", "O", "silence"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("p2lrt")
    ap.add_argument("rig")
    ap.add_argument("voice")
    ap.add_argument("out")
    ap.add_argument("--region", default="")
    ap.add_argument("--clip", default="")
    ap.add_argument("--per-vowel", type=int, default=3)
    ap.add_argument("--fps", type=int, default=30)
    ap.add_argument("--size", default="240x240")
    ap.add_argument("--gain", default="auto")
    a = ap.parse_args()
    frames = os.path.join(a.out, "frames")
    os.makedirs(frames, exist_ok=True)
    render = [a.p2lrt, "render", a.rig, "--audio", a.voice, "--mouth", "vowels", "--fps", str(a.fps), "--size", a.size,
              "--background", "white", "--gain", a.gain, "-q", "-o", frames]
    if a.region:
        render += ["--region", a.region]
    if a.clip:
        render += ["--clip", a.clip]
    subprocess.run(render, check=True)
    heard = subprocess.run([a.p2lrt, "speech", a.voice, "--vowels", "--fps", str(a.fps)] +
                           (["--gain", a.gain] if a.gain != "auto" else []), check=True,
                           capture_output=True, text=True).stdout
    rows = list(csv.DictReader(io.StringIO(heard)))
    # Frame k of the render shows the rig after k updates: row k of `p2lrt speech`.
    chosen = []
    for v in VOWELS:
        if v == "silence":
            score = lambda r: float(r["silence"]) - float(r["level"])
        else:
            score = lambda r, v=v: float(r[v]) * min(1.0, 4 * float(r["level"])) if r["vowel"] == v else -1
        ranked = sorted(rows, key=score, reverse=True)
        picked = []
        for r in ranked:
            k = int(r["frame"])
            if score(r) <= 0 and v != "silence":
                break
            if all(abs(k - p) >= 4 for p in picked):
                picked.append(k)
            if len(picked) == a.per_vowel:
                break
        for k in sorted(picked):
            r = rows[k - 1]
            chosen.append((v, k, float(r[v]) if v != "silence" else float(r["silence"]), float(r["level"])))
        print(f"{v:8s} frames {sorted(picked)}", file=sys.stderr)
    if not chosen:
        sys.exit("speech_sheet: nothing was heard")
    # One labelled tile per chosen frame, then the tiles side by side, a row per vowel.
    tiles = []
    font = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
    for i, (v, k, w, level) in enumerate(chosen):
        tile = os.path.join(a.out, f"tile_{i:02d}.png")
        text = f"{v}  w {w:.2f}  rms {level:.2f}  #{k}"
        draw = f"drawtext=fontfile={font}:text='{text}':x=6:y=h-24:fontsize=15:fontcolor=black:box=1:boxcolor=white@0.8"
        subprocess.run(["ffmpeg", "-v", "error", "-y", "-i", os.path.join(frames, f"frame_{k:05d}.png"), "-vf", draw, tile],
                       check=True)
        tiles.append(tile)
    columns = a.per_vowel
    inputs = []
    for t in tiles:
        inputs += ["-i", t]
    # Missing tiles in a row (a vowel heard fewer times) are left white.
    stack = "".join(f"[{i}:v]" for i in range(len(tiles)))
    w, h = (int(x) for x in a.size.split("x"))
    # xstack places each tile at its row (its vowel) and column.
    layout, col, row, last = [], 0, -1, None
    for (v, k, wgt, level) in chosen:
        if v != last:
            row, col, last = row + 1, 0, v
        layout.append(f"{col * w}_{row * h}")
        col += 1
    rows_n = row + 1
    graph = f"{stack}xstack=inputs={len(tiles)}:layout={'|'.join(layout)}:fill=white[out]"
    sheet = os.path.join(a.out, "sheet.png")
    subprocess.run(["ffmpeg", "-v", "error", "-y", *inputs, "-filter_complex", graph, "-map", "[out]", "-frames:v", "1", sheet],
                   check=True)
    for t in tiles:
        os.remove(t)
    print(f"wrote {sheet} ({columns * w}x{rows_n * h}: a row per vowel, {len(tiles)} frames)")


if __name__ == "__main__":
    main()
