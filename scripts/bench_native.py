#!/usr/bin/env python3
"""Native against native: csmUpdateModel of p2lrt's libLive2DCubismCore.so, the official native
Core and PurismCore (each when its library is cached) on the official samples and third-party
models, through one C99 host (bench/native_core.c), each library in its own process, taking
turns round after round; and the same work through p2lrt's C++ and C API layers
(bench/native_layers.cpp). Prints a Markdown table (and --json FILE, every figure).

  scripts/bench_native.sh [--models N] [--rounds R] [--frames F] [--json FILE] [--only NAME]

Modes: "sweep" writes a sine into every parameter before each update (nothing holds still);
"track" replays a sample's idle motion with physics, breath and blink at 60 Hz (most parameters
hold still from frame to frame), recorded by p2lrt and given to every Core alike.
Figures are thread CPU microseconds per update: the median of the rounds, with the spread
(lowest..highest); a ratio is the median of the per-round ratios (both sides of a round ran
seconds apart). Wall time is in the JSON.
Libraries, development time only (Live2D's licence forbids shipping the official one):
  ~/.cache/p2lrt/cores/native-5.0.0/libLive2DCubismCore.so   official native Core 5.0.0
  ~/.cache/p2lrt/cores/purism-1.1.0/libLive2DCubismCore.so   PurismCore 1.1.0 (MIT), built -O2
"""
import argparse
import hashlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

CACHE = Path(os.environ.get("P2L_CACHE", Path.home() / ".cache/p2lrt"))


def moc_version(path):
    with open(path, "rb") as f:
        head = f.read(5)
    return head[4] if len(head) == 5 and head[:4] == b"MOC3" else 0


def samples():
    """The official samples: (name, moc3, model3.json)."""
    out = []
    for model3 in sorted((CACHE / "samples").glob("*/*.model3.json")):
        data = json.loads(model3.read_text(encoding="utf-8-sig"))
        moc = model3.parent / data["FileReferences"]["Moc"]
        if moc.exists():
            out.append((model3.parent.name, moc, model3))
    return out


def digest(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


def third_party(count, exclude):
    """count models of the cache spread over moc3 versions and sizes: every one of version 4 and
    later (few are public), the rest every n-th of the older ones sorted by version and size;
    copies of the official samples (digests in exclude) left out."""
    files = sorted({p.resolve() for d in ("models", "models2") for p in (CACHE / d).rglob("*.moc3")})
    unique = {}
    for p in files:
        h = digest(p)
        if h not in exclude and h not in unique:
            unique[h] = p
    keyed = sorted(unique.values(), key=lambda p: (moc_version(p), p.stat().st_size, p.name))
    if count >= len(keyed):
        return keyed
    newer = [p for p in keyed if moc_version(p) >= 4][: count // 3]
    older = [p for p in keyed if moc_version(p) < 4]
    rest = count - len(newer)
    step = len(older) / rest
    return [older[int(i * step + step / 2)] for i in range(rest)] + newer


def run_json(cmd):
    result = subprocess.run(cmd, capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(f"{' '.join(map(str, cmd))}: {result.stderr.strip()}")
    # The official Core prints its version line on stdout first: the figures are the last line.
    lines = [l for l in result.stdout.splitlines() if l.startswith("{")]
    return json.loads(lines[-1])


def spread(values):
    return f"{statistics.median(values):.1f} ({min(values):.1f}..{max(values):.1f})"


def measure(build, libraries, name, moc, mode_args, rounds, progress):
    """Round after round, each library once (in a rotating order), then the layers."""
    core = build / "bench/p2l_native_core"
    layers = build / "bench/p2l_native_layers"
    runs = {lib: [] for lib in libraries}
    layer_runs = []
    refused = set()
    for r in range(rounds):
        order = list(libraries)
        order = order[r % len(order):] + order[: r % len(order)]
        for lib in order:
            if lib in refused:
                continue
            progress(f"{name}: round {r + 1}/{rounds}, {lib}")
            d = run_json([core, libraries[lib], moc, *mode_args, "--reps", "1"])
            if d.get("refused"):
                refused.add(lib)
                continue
            runs[lib].append(d)
        layer_runs.append(run_json([layers, moc, *mode_args, "--reps", "1"]))
    return runs, layer_runs


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default="build", type=Path)
    ap.add_argument("--models", type=int, default=24, help="third-party models (default 24)")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--frames", type=int, default=600, help="sweep frames per process")
    ap.add_argument("--track-seconds", type=float, default=10)
    ap.add_argument("--json", type=Path)
    ap.add_argument("--only", help="models whose name contains this")
    args = ap.parse_args()

    libraries = {"p2lrt": args.build / "libLive2DCubismCore.so"}
    for key, path in (("official", CACHE / "cores/native-5.0.0/libLive2DCubismCore.so"),
                      ("purism", CACHE / "cores/purism-1.1.0/libLive2DCubismCore.so")):
        if path.exists():
            libraries[key] = path
    for tool in ("bench/p2l_native_core", "bench/p2l_native_layers"):
        if not (args.build / tool).exists():
            sys.exit(f"bench_native: {args.build / tool} is missing (scripts/bench_native.sh builds it)")
    print(f"libraries: {', '.join(f'{k} ({v})' for k, v in libraries.items())}", file=sys.stderr)

    def progress(text):
        if sys.stderr.isatty():
            print(f"\r\033[K{text}", end="", file=sys.stderr, flush=True)

    jobs = []  # (name, moc, mode, mode args)
    tmp = Path(tempfile.mkdtemp(prefix="p2l-bench-native-"))
    for name, moc, model3 in samples():
        jobs.append((name, moc, "sweep", ["--sweep", str(args.frames)]))
        track = tmp / f"{name}.track"
        progress(f"{name}: recording its idle motion")
        info = run_json([args.build / "bench/p2l_native_layers", model3, "--write-track", track,
                         "--seconds", str(args.track_seconds)])
        jobs.append((name, moc, f"track ({info['clip'] or 'no motion'}, {info['moving_per_frame']:.0f} of "
                                f"{info['parameters']} moving)", ["--track", track]))
    for moc in third_party(args.models, {digest(moc) for _, moc, _ in samples()}):
        jobs.append((moc.stem, moc, "sweep", ["--sweep", str(args.frames)]))
    if args.only:
        jobs = [j for j in jobs if args.only in j[0]]

    results = []
    for name, moc, mode, mode_args in jobs:
        runs, layer_runs = measure(args.build, libraries, name, moc, mode_args, args.rounds, progress)
        first = runs["p2lrt"][0]
        row = {"model": name, "path": str(moc), "mode": mode, "moc_version": first["moc_version"],
               "drawables": first["drawables"], "vertices": first["vertices"], "parameters": first["parameters"],
               "cpu_us": {}, "wall_us": {}, "ratio": {}, "checksum": {},
               "size_of_model": {k: v[0]["size_of_model"] for k, v in runs.items() if v}}
        for lib, rs in runs.items():
            if rs:
                row["cpu_us"][lib] = [d["cpu_us"][0] for d in rs]
                row["wall_us"][lib] = [d["wall_us"][0] for d in rs]
                row["checksum"][lib] = rs[-1]["checksum"]
        for lib in ("official", "purism"):
            if lib in row["cpu_us"] and len(row["cpu_us"][lib]) == len(row["cpu_us"]["p2lrt"]):
                row["ratio"][lib] = statistics.median(a / b for a, b in zip(row["cpu_us"]["p2lrt"], row["cpu_us"][lib]))
        row["cpu_us"]["cpp"] = [d["cpp_cpu_us"][0] for d in layer_runs]
        row["cpu_us"]["capi"] = [d["capi_cpu_us"][0] for d in layer_runs]
        row["evaluated"] = {"deformers": layer_runs[0]["deformers_evaluated"], "of_deformers": layer_runs[0]["deformers"],
                            "meshes": layer_runs[0]["meshes_evaluated"], "of_meshes": layer_runs[0]["meshes"]}
        results.append(row)
    progress("")
    print("", file=sys.stderr, end="")

    cols = ["official", "p2lrt", "purism"]
    print("| model | moc3 | drawables | vertices | mode | " + " | ".join(c for c in cols if c in libraries) +
          " | p2lrt / official | p2lrt / purism | C++ `evaluate` | C API `p2l_evaluate` | deformers, meshes evaluated |")
    print("|" + "---|" * (10 + sum(c in libraries for c in cols)))
    for row in results:
        cells = [row["model"], str(row["moc_version"]), str(row["drawables"]), str(row["vertices"]), row["mode"]]
        for c in cols:
            if c in libraries:
                cells.append(spread(row["cpu_us"][c]) if c in row["cpu_us"] else "refused")
        for lib in ("official", "purism"):
            cells.append(f"**{row['ratio'][lib]:.2f}**" if lib in row["ratio"] else "")
        cells.append(spread(row["cpu_us"]["cpp"]))
        cells.append(spread(row["cpu_us"]["capi"]))
        e = row["evaluated"]
        cells.append(f"{e['deformers']:.0f}/{e['of_deformers']}, {e['meshes']:.0f}/{e['of_meshes']}")
        print("| " + " | ".join(cells) + " |")
    # The Cores must agree on the outputs: the checksums' largest relative difference.
    worst = 0.0
    for row in results:
        sums = list(row["checksum"].values())
        for s in sums:
            worst = max(worst, abs(s - sums[0]) / max(1.0, abs(sums[0])))
    print(f"\nLargest relative difference of the vertex checksums between the Cores: {worst:.2e}")
    for lib in ("official", "purism"):
        ratios = [r["ratio"][lib] for r in results if lib in r["ratio"] and r["mode"] == "sweep"]
        if ratios:
            print(f"p2lrt / {lib}, sweep, over {len(ratios)} models: median {statistics.median(ratios):.2f}, "
                  f"best {min(ratios):.2f}, worst {max(ratios):.2f}")
        ratios = [r["ratio"][lib] for r in results if lib in r["ratio"] and r["mode"].startswith("track")]
        if ratios:
            print(f"p2lrt / {lib}, real playback, over {len(ratios)} samples: median {statistics.median(ratios):.2f}, "
                  f"best {min(ratios):.2f}, worst {max(ratios):.2f}")
    if args.json:
        args.json.write_text(json.dumps({"libraries": {k: str(v) for k, v in libraries.items()}, "results": results}, indent=1))


if __name__ == "__main__":
    main()
