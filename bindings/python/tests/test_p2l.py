"""Tests of the p2l Python package (bindings/python): run with pytest after
`pip install --no-build-isolation ./bindings/python` (bindings/python/test.sh does both).

Paths: the repository root is found from this file (bindings/python/tests/../../..) or given
as P2L_SOURCE_DIR. The synthetic Cubism model needs tests/cubism's generator p2l_make_moc3,
given as P2L_MAKE_MOC3 (test.sh builds it); without it that test is skipped with a message.
"""

import gc
import json
import os
import struct
import subprocess
import weakref
import zlib
from pathlib import Path

import numpy as np
import pytest

import p2l

ROOT = Path(os.environ.get("P2L_SOURCE_DIR") or Path(__file__).resolve().parents[3])
EXAMPLE = ROOT / "examples" / "character"
CHARACTER = EXAMPLE / "character.p2lrt"

if not CHARACTER.is_file():
    pytest.skip(f"the example character is not at {CHARACTER} (set P2L_SOURCE_DIR to the repository)",
                allow_module_level=True)


@pytest.fixture
def rig():
    return p2l.load(CHARACTER)


@pytest.fixture
def still_rig():
    """The character with behaviors off (no blinking or breathing): updates change only what
    clips and expressions do."""
    r = p2l.load(CHARACTER)
    r.set_behaviors(0)
    return r


# ---- a PNG decoder of the standard library's own (independent of the library's libpng) ------

def read_png(path):
    """8-bit RGBA or RGB, non-interlaced PNG as a (h, w, 4) uint8 array."""
    data = Path(path).read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path}: not a PNG"
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            break
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = header
    assert depth == 8 and colour in (2, 6) and interlace == 0, f"{path}: unsupported PNG layout {header}"
    channels = 4 if colour == 6 else 3
    stride = width * channels
    raw = zlib.decompress(idat)
    out = np.zeros((height, stride), dtype=np.uint8)
    previous = np.zeros(stride, dtype=np.int32)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = np.frombuffer(raw, dtype=np.uint8, count=stride, offset=y * (stride + 1) + 1).astype(np.int32)
        if kind == 0:
            row = line
        elif kind == 2:
            row = (line + previous) & 255
        else:  # 1 sub, 3 average, 4 Paeth: left neighbours needed, byte by byte
            row = np.zeros(stride, dtype=np.int32)
            for x in range(stride):
                a = row[x - channels] if x >= channels else 0
                b = previous[x]
                c = previous[x - channels] if x >= channels else 0
                if kind == 1:
                    p = a
                elif kind == 3:
                    p = (a + b) // 2
                elif kind == 4:
                    pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                    p = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                else:
                    raise AssertionError(f"{path}: bad filter {kind}")
                row[x] = (line[x] + p) & 255
        out[y] = row
        previous = row
    image = out.reshape(height, width, channels)
    if channels == 3:
        image = np.concatenate([image, np.full((height, width, 1), 255, np.uint8)], axis=2)
    return image


def write_png(path, rgba):
    """A (h, w, 4) uint8 array as a PNG, for the model folders made here."""
    h, w, _ = rgba.shape
    raw = b"".join(b"\0" + rgba[y].tobytes() for y in range(h))

    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    Path(path).write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0)) +
                           chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


# ---- loading --------------------------------------------------------------------------------

def test_load_path_and_bytes(rig):
    assert rig.mesh_count == 38
    assert len(rig.parameters) == 20
    assert rig.canvas == (1024.0, 1024.0)
    assert rig.meta["generator"] == "p2lrt examples"
    from_bytes = p2l.load(CHARACTER.read_bytes())
    assert from_bytes.parameters == rig.parameters
    np.testing.assert_array_equal(from_bytes.vertices(5), rig.vertices(5))
    assert p2l.load(str(CHARACTER), verify_crc=True).mesh_count == 38
    assert p2l.load(bytearray(CHARACTER.read_bytes())).mesh_count == 38
    assert p2l.load(memoryview(CHARACTER.read_bytes())).mesh_count == 38
    with pytest.raises(BufferError):
        p2l.load(memoryview(CHARACTER.read_bytes())[::2])
    assert rig.import_report == []
    assert "38 meshes" in repr(rig)
    assert p2l.__version__.count(".") == 2


def test_bad_files_raise_with_the_library_message(tmp_path):
    data = CHARACTER.read_bytes()
    cut = tmp_path / "cut.p2lrt"
    cut.write_bytes(data[:100])
    with pytest.raises(ValueError) as caught:
        p2l.load(cut)
    assert isinstance(caught.value, p2l.LoadError)
    message = str(caught.value)
    assert message.startswith(str(cut) + ": ")
    assert "truncated" in message and "the chunk table of 22 entries needs 912 bytes" in message, message
    # Cut inside the chunks: truncated, naming the chunk the file ends in and what is missing.
    with pytest.raises(p2l.LoadError, match=r"chunk STRS, offset 912: the file is truncated: the chunk's data "
                                            r"needs 2653 bytes, the file ends 88 bytes into it \(at 1000\)"):
        p2l.load(data[:1000])
    with pytest.raises(p2l.LoadError, match=r"not a \.p2lrt file"):
        p2l.load(b"hello, world")
    with pytest.raises(FileNotFoundError):
        p2l.load(tmp_path / "missing.p2lrt")
    # A flipped byte inside a chunk: the CRC check names it.
    damaged = bytearray(data)
    damaged[20000] ^= 0xFF
    with pytest.raises(p2l.LoadError, match="MESH"):
        p2l.load(bytes(damaged), verify_crc=True)


# ---- parameters -----------------------------------------------------------------------------

def test_parameters_by_id(rig):
    assert rig.parameters[:3] == ["ParamAngleX", "ParamAngleY", "ParamAngleZ"]
    assert "ParamSmile" in rig and "ParamNope" not in rig
    info = rig.parameter_info("ParamAngleX")
    assert (info["min"], info["max"], info["default"]) == (-30.0, 30.0, 0.0)
    assert rig.parameter_index("ParamAngleY") == 1
    rig["ParamAngleX"] = 25
    assert rig["ParamAngleX"] == 25.0
    rig.set("ParamAngleY", -15)
    assert rig.get("ParamAngleY") == -15.0
    rig.set(2, 7.5)  # by index
    assert rig.get("ParamAngleZ") == 7.5
    with pytest.raises(KeyError, match='no parameter "ParamNope"; the rig has: ParamAngleX'):
        rig["ParamNope"] = 1
    with pytest.raises(IndexError):
        rig.set(20, 0)
    rig.reset_parameters()
    assert rig.get("ParamAngleX") == 0.0


def test_parameter_values_is_a_writable_view(rig):
    values = rig.parameter_values
    assert values.dtype == np.float32 and values.shape == (20,)
    assert values.flags.writeable and not values.flags.owndata
    assert np.shares_memory(values, rig.parameter_values)
    i = rig.parameter_index("ParamAngleX")
    values[i] = 25.0
    assert rig["ParamAngleX"] == 25.0
    rig["ParamAngleY"] = -15.0
    assert values[1] == -15.0
    m = moving_mesh(rig)  # resets the host's pose
    values[i] = 25.0
    rig["ParamAngleY"] = -15.0
    before = rig.vertices(m).copy()
    rig.evaluate()
    assert rig.current("ParamAngleX") == 25.0
    assert rig.current_values[i] == 25.0 and not rig.current_values.flags.writeable
    assert not np.array_equal(before, rig.vertices(m))


# ---- views and lifetime ---------------------------------------------------------------------

def moving_mesh(rig):
    """A mesh that the head turn moves."""
    rest = [rig.vertices(m).copy() for m in range(rig.mesh_count)]
    rig["ParamAngleX"] = 30
    rig.evaluate()
    moved = [m for m in range(rig.mesh_count) if not np.array_equal(rest[m], rig.vertices(m))]
    rig.reset_parameters()
    rig.evaluate()
    assert moved, "turning the head moved no mesh"
    return moved[0]


def test_vertices_are_views_of_the_rig(still_rig):
    rig = still_rig
    m = moving_mesh(rig)
    v = rig.vertices(m)
    assert v.dtype == np.float32 and v.ndim == 2 and v.shape[1] == 2 and v.shape[0] > 0
    assert v.flags.c_contiguous and not v.flags.owndata and not v.flags.writeable
    assert v.base is rig
    assert np.shares_memory(v, rig.vertices(m))
    assert np.shares_memory(v, rig.vertices(rig.meshes[m]))  # by id: the same memory
    with pytest.raises(ValueError):
        v[0, 0] = 1.0
    rest = v.copy()
    rig["ParamAngleX"] = 30
    rig.update(1 / 30)
    assert not np.array_equal(v, rest), "the view did not follow the next update"
    turned = v.copy()
    rig["ParamAngleX"] = 0
    rig.evaluate()
    np.testing.assert_array_equal(v, rest)  # rewritten in place by the evaluation
    assert not np.array_equal(v, turned)
    uvs, tris = rig.uvs(m), rig.indices(m)
    assert uvs.shape == v.shape and uvs.base is rig and not uvs.flags.writeable
    assert tris.dtype == np.uint32 and tris.shape[1] == 3 and tris.max() < v.shape[0]


@pytest.mark.parametrize("which", ["vertices", "uvs", "indices", "parameter_values", "current_values"])
def test_a_view_keeps_its_rig_alive(which):
    rig = p2l.load(CHARACTER)
    gone = weakref.ref(rig)
    view = getattr(rig, which)
    view = view(3) if callable(view) else view
    expected = view.copy()
    del rig
    gc.collect()
    assert gone() is not None, f"the rig was freed under a live {which} view"
    assert view.base is gone()
    np.testing.assert_array_equal(view, expected)
    if which == "parameter_values":
        view[0] = 12.0  # still the rig's memory
        assert gone()["ParamAngleX"] == 12.0
    if which == "vertices":
        gone()["ParamAngleX"] = 30
        gone().evaluate()  # the rig, reached only through its view, still evaluates into it
        assert not np.array_equal(view, expected)
    del view
    gc.collect()
    assert gone() is None, f"the rig outlived its {which} view"


def test_render_order(rig):
    order = rig.render_order()
    assert order.dtype == np.uint32 and order.ndim == 1
    assert 0 < len(order) <= rig.mesh_count and len(set(order.tolist())) == len(order)
    assert order.flags.owndata  # a copy: its length changes with the pose
    assert [rig.vertices(m).shape[0] for m in order] == [rig.vertices(int(m)).shape[0] for m in order]  # NumPy indices
    assert rig.vertices(rig.meshes[int(order[-1])]).base is rig
    commands = rig.render_commands()
    assert commands.dtype == np.int32
    assert sorted(c for c in commands.tolist() if c >= 0) == sorted(order.tolist())


# ---- clips and expressions ------------------------------------------------------------------

def test_clips_move_vertices_over_updates(still_rig):
    rig = still_rig
    assert {"wave", "sway", "idle"} <= set(rig.clips)
    info = rig.clip_info("wave")
    assert info["duration"] == pytest.approx(2.6) and info["group"] == "TapBody"
    other = rig.spawn()  # the same file, its own pose: no clip
    other.set_behaviors(0)
    rig.play("wave")
    assert rig.clip_playing == "wave"
    views = [rig.vertices(m) for m in range(rig.mesh_count)]
    rest = [v.copy() for v in views]
    for _ in range(15):
        rig.update(1 / 30)
        other.update(1 / 30)
    assert rig.clip_time == pytest.approx(0.5, abs=1e-4)
    assert rig.current("ParamArmL") > 0.5 and other.current("ParamArmL") == 0.0
    changed = [m for m in range(rig.mesh_count) if not np.array_equal(views[m], rest[m])]
    assert changed, "the wave clip moved nothing"
    assert any(not np.array_equal(rig.vertices(m), other.vertices(m)) for m in changed)
    with pytest.raises(KeyError, match='no clip "dance"'):
        rig.play("dance")
    rig.play(None)  # fades the layer out
    for _ in range(30):
        rig.update(1 / 30)
    assert rig.clip_finished


def test_expressions(still_rig):
    rig = still_rig
    assert rig.expressions == ["smile", "surprised"]
    assert rig.current("ParamSmile") == 0.0
    rig.expression("smile")
    for _ in range(30):
        rig.update(1 / 30)
    assert rig.expressions_playing == ["smile"]
    assert rig.current("ParamSmile") == pytest.approx(1.0)
    assert rig["ParamSmile"] == 0.0  # the host's pose is not touched
    assert rig.expression_add("surprised")
    for _ in range(30):
        rig.update(1 / 30)
    assert rig.expressions_playing == ["smile", "surprised"]
    rig.expression(None)
    for _ in range(30):
        rig.update(1 / 30)
    assert rig.expressions_playing == []
    assert rig.current("ParamSmile") == pytest.approx(0.0, abs=1e-6)
    with pytest.raises(KeyError, match='no expression "angry"'):
        rig.expression("angry")


# ---- rendering against the golden images ----------------------------------------------------

GOLDEN = [
    ("default.png", {}),
    ("turned.png", {"ParamAngleX": 25, "ParamAngleY": -15}),
    ("happy.png", {"ParamEyeLOpen": 0, "ParamEyeROpen": 0, "ParamMouthOpenY": 1, "ParamSmile": 1}),
]


@pytest.mark.parametrize("golden,pose", GOLDEN, ids=[g for g, _ in GOLDEN])
def test_render_matches_golden(golden, pose):
    """As tests/example_golden_test.cpp: the host's pose, evaluated with the part poses, drawn
    256x256 in straight alpha on transparency as `p2lrt render --size 256x256` does; every
    channel within 1/255 of the committed image (the last bits of libm's sin/cos may differ
    between machines), and the character covering more than a quarter of the image."""
    rig = p2l.load(CHARACTER)
    for parameter, value in pose.items():
        rig[parameter] = value
    rig.evaluate()
    image = rig.render(256, 256)
    expected = read_png(EXAMPLE / "golden" / golden)
    assert image.shape == expected.shape == (256, 256, 4) and image.dtype == np.uint8
    difference = np.abs(image.astype(np.int16) - expected.astype(np.int16))
    assert difference.max() <= 1, f"{np.count_nonzero(difference)} channels differ from {golden}, worst by {difference.max()}"
    assert np.count_nonzero(image[..., 3]) > image.shape[0] * image.shape[1] // 4, "the character covers too little"


def test_render_options(rig):
    straight = rig.render(256, 256)
    # The explicit transform of the default framing: the same image.
    np.testing.assert_array_equal(rig.render(256, 256, [0.25, 0, 0, 0.25, 0, 0]), straight)
    np.testing.assert_array_equal(rig.render(256, 256, np.array([[0.25, 0, 0], [0, 0.25, 0]])), straight)
    # A non-square image: the canvas centred, as `p2lrt render` frames it.
    wide = rig.render(512, 256)
    assert wide.shape == (256, 512, 4)
    # (shifted by 128 pixels: the rounding of a few edge channels may differ by one)
    assert np.abs(wide[:, 128:384].astype(np.int16) - straight).max() <= 1
    assert not wide[:, :100, 3].any()
    premultiplied = rig.render(256, 256, premultiplied=True).astype(np.int32)
    np.testing.assert_array_equal(premultiplied[..., 3], straight[..., 3])
    # Where the premultiplied colour does not exceed alpha (additive meshes glow beyond it, which
    # straight alpha clamps), straight alpha is the same colour divided by alpha.
    alpha = straight[..., 3:].astype(np.int32)
    regular = (premultiplied[..., :3] <= alpha).all(axis=-1)
    assert regular.sum() > 0.99 * regular.size
    expected = (straight[..., :3].astype(np.int32) * alpha + 127) // 255
    assert np.abs(premultiplied[..., :3] - expected)[regular].max() <= 1
    white = rig.render(256, 256, background=(255, 255, 255))
    assert (white[..., 3] == 255).all()
    canvas = np.full((256, 256, 4), (0, 0, 255, 255), np.uint8)
    same = rig.render(0, 0, out=canvas)
    assert same is not None and np.shares_memory(same, canvas)
    assert (canvas[0, 0] == (0, 0, 255, 255)).all()  # kept where nothing is drawn
    drawn = rig.render(256, 256, fit="drawn")
    assert drawn.shape == straight.shape and not np.array_equal(drawn, straight)  # test_render_as_the_tool checks it
    with pytest.raises(ValueError):
        rig.render(0, 10)
    with pytest.raises(ValueError):
        rig.render(10, 10, [1, 2, 3])
    # The library's PNG codec round-trips an image, and reads the golden image as the stdlib does.
    np.testing.assert_array_equal(p2l.decode_png(p2l.encode_png(straight)), straight)
    np.testing.assert_array_equal(p2l.read_png(EXAMPLE / "golden" / "default.png"), read_png(EXAMPLE / "golden" / "default.png"))


@pytest.mark.skipif(not os.environ.get("P2LRT_TOOL"), reason="set P2LRT_TOOL to a p2lrt binary to compare with `p2lrt render`")
def test_render_as_the_tool(tmp_path):
    out = tmp_path / "tool.png"
    subprocess.run([os.environ["P2LRT_TOOL"], "render", str(CHARACTER), "-o", str(out), "--size", "300x200", "--fit",
                    "--background", "white", "--param", "ParamAngleZ=10", "-q"], check=True)
    rig = p2l.load(CHARACTER)
    rig["ParamAngleZ"] = 10
    rig.evaluate()
    np.testing.assert_array_equal(rig.render(300, 200, fit="drawn", background=(255, 255, 255)), read_png(out))


# ---- Cubism import --------------------------------------------------------------------------

def empty_moc3():
    """An empty version-1 moc3 as the Editor lays it out (tests/cubism_import_test.cpp,
    empty_moc3): header, 160 section slots, the count table at 1984, the canvas at 2112."""
    counts, slots = 1984, 160
    canvas = counts + 128
    end = canvas + 64
    b = bytearray(end)
    b[0:4] = b"MOC3"
    b[4] = 1
    struct.pack_into("<II", b, 64, counts, canvas)
    for s in range(2, slots):
        struct.pack_into("<I", b, 64 + s * 4, end)
    struct.pack_into("<5f", b, canvas, 1000, 500, 500, 1000, 1000)
    return bytes(b)


def write_model_folder(folder, moc3, parameter=None):
    """MODEL.model3.json with a texture, two motions (one with an event), an expression and
    a Layout (which the importer reports as not carried over)."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "m.moc3").write_bytes(moc3)
    (folder / "tex").mkdir(exist_ok=True)
    # Two pages: the synthetic model's meshes use pages 0 and 1.
    write_png(folder / "tex" / "t0.png", np.full((8, 8, 4), (200, 40, 40, 255), np.uint8))
    write_png(folder / "tex" / "t1.png", np.full((8, 8, 4), (40, 40, 200, 255), np.uint8))
    (folder / "mo").mkdir(exist_ok=True)
    curves = []
    if parameter:
        curves = [{"Target": "Parameter", "Id": parameter, "Segments": [0, 0, 0, 1, 1]}]
    (folder / "mo" / "idle.motion3.json").write_text(json.dumps({
        "Version": 3, "Meta": {"Duration": 2, "Fps": 30, "Loop": True, "CurveCount": len(curves)},
        "Curves": curves, "UserData": [{"Time": 0.5, "Value": "hi"}]}))
    (folder / "mo" / "tap.motion3.json").write_text(json.dumps({"Version": 3, "Meta": {"Duration": 1}, "Curves": []}))
    (folder / "e.exp3.json").write_text(json.dumps({
        "Type": "Live2D Expression", "Parameters": [{"Id": parameter or "ParamFoo", "Value": 1, "Blend": "Overwrite"}]}))
    model = folder / "x.model3.json"
    model.write_text(json.dumps({
        "Version": 3,
        "FileReferences": {"Moc": "m.moc3", "Textures": ["tex/t0.png", "tex/t1.png"],
                           "Expressions": [{"Name": "Smile", "File": "e.exp3.json"}],
                           "Motions": {"Idle": [{"File": "mo/idle.motion3.json"}],
                                       "Tap": [{"File": "mo/tap.motion3.json", "FadeOutTime": 0.5}]}},
        "Layout": {"Width": 2}}))
    return model


def test_import_cubism_model_folder(tmp_path):
    """A model3.json over an empty moc3: clips, events, the expression and the report."""
    model = write_model_folder(tmp_path / "model", empty_moc3())
    rig = p2l.import_cubism(model)
    assert rig.clips == ["idle", "tap"]
    assert rig.clip_info("tap")["fade_out"] == 0.5 and rig.clip_info("idle")["group"] == "Idle"
    assert rig.texture_count == 2 and rig.mesh_count == 0
    assert rig.meta["generator"] == "p2lrt import" and rig.meta["source"] == "x.model3.json"
    report = rig.import_report
    assert isinstance(report, list) and all(isinstance(line, str) for line in report)
    assert "x.model3.json: Layout: not carried over" in report, report
    assert any('no parameter "ParamFoo"' in line for line in report), report
    rig.play("idle")
    rig.update(0.0)
    rig.update(0.6)
    assert ("hi", 0, "idle") in [e[:3] for e in rig.events]
    with pytest.raises(FileNotFoundError):
        p2l.import_cubism(tmp_path / "none.model3.json")
    (tmp_path / "model" / "bad.model3.json").write_text('{"FileReferences": {}}')
    with pytest.raises(p2l.LoadError, match=r"bad\.model3\.json: FileReferences\.Moc: missing$"):
        p2l.import_cubism(tmp_path / "model" / "bad.model3.json")
    (tmp_path / "model" / "m.moc3").write_bytes(b"MOC3")
    with pytest.raises(ValueError, match="m.moc3"):
        p2l.import_cubism(model)


def haru_model3():
    """The npm Haru (scripts/fetch_cubism_core.sh caches it outside the repository)."""
    core = Path(os.environ.get("P2L_CUBISM_CORE") or Path.home() / ".cache/p2lrt/live2dcubismcore-1.0.2")
    model = core / "package/characters/haru_greeter_pro_jp/runtime/haru_greeter_t03.model3.json"
    if not model.is_file():
        pytest.skip(f"Haru not fetched (scripts/fetch_cubism_core.sh): {model}")
    return model


@pytest.mark.skipif(not os.environ.get("P2LRT_TOOL"), reason="set P2LRT_TOOL to a p2lrt binary to compare with `p2lrt import`")
def test_import_cubism_haru_is_p2lrt_import(tmp_path):
    """Haru from its folder: the rig `p2lrt import` writes, every vertex to the bit at the
    default pose and through 60 frames of a motion, and its report line for line."""
    model = haru_model3()
    out = tmp_path / "haru.p2lrt"
    printed = subprocess.run([os.environ["P2LRT_TOOL"], "import", str(model), "-o", str(out)], check=True,
                             capture_output=True, text=True)
    expected = [line[2:] for line in (printed.stdout + printed.stderr).splitlines() if line.startswith("  ")]
    rig, reference = p2l.import_cubism(model), p2l.load(out)
    assert rig.import_report == expected and len(expected) > 0
    assert rig.mesh_count == reference.mesh_count and rig.clips == reference.clips

    def same(what):
        for m in range(rig.mesh_count):
            a, b = rig.vertices(m), reference.vertices(m)
            assert a.tobytes() == b.tobytes(), f"{what}: mesh {rig.meshes[m]} differs from p2lrt import's"

    same("default pose")
    rig.play(rig.clips[0])
    reference.play(reference.clips[0])
    for frame in range(60):
        rig.update(1 / 60)
        reference.update(1 / 60)
        same(f"frame {frame} of {rig.clips[0]}")


def make_synthetic_moc3(path):
    tool = os.environ.get("P2L_MAKE_MOC3")
    if not tool or not Path(tool).is_file():
        pytest.skip("no synthetic moc3 generator: set P2L_MAKE_MOC3 to tests/cubism's p2l_make_moc3 "
                    "(bindings/python/test.sh builds it) to import a model with meshes")
    # Seed 148 (fixture v4-colors): meshes under a rotation keyed on ParamN2.
    subprocess.run([tool, "148", str(path), "--version", "4", "--features", "default"], check=True,
                   stdout=subprocess.DEVNULL)


def test_import_cubism_synthetic_model(tmp_path):
    make_synthetic_moc3(tmp_path / "s.moc3")
    model = write_model_folder(tmp_path / "model", (tmp_path / "s.moc3").read_bytes(), parameter="ParamN2")
    rig = p2l.import_cubism(model)
    assert rig.mesh_count == 3 and "ParamN2" in rig.parameters
    assert rig.expressions == ["Smile"]  # the model3.json's name for it
    assert not any("ParamN2" in line for line in rig.import_report), rig.import_report
    image = rig.render(128, 128)
    assert image[..., 3].any(), "the imported model draws nothing"
    views = [rig.vertices(m) for m in range(rig.mesh_count)]
    rest = [v.copy() for v in views]
    rig["ParamN2"] = 90
    rig.evaluate()
    assert any(not np.array_equal(v, r) for v, r in zip(views, rest)), "ParamN2 moved nothing"
    assert not np.array_equal(rig.render(128, 128), image)
    # The expression overwrites ParamN2 with 1 over the host's 0.
    rig["ParamN2"] = 0
    rig.set_behaviors(0)
    rig.expression("Smile")
    for _ in range(40):
        rig.update(1 / 30)
    assert rig.current("ParamN2") == pytest.approx(1.0)
    # The same model under the format's own rules imports too, and reports what it approximates.
    original = p2l.import_cubism(model, rules="original")
    assert original.mesh_count == 3
    assert len(original.import_report) > len(rig.import_report)
    assert any(line.startswith("m.moc3: parameter ParamN4 repeats") for line in original.import_report)
