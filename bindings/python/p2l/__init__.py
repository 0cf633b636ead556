"""p2l: p2lrt's runtime for `.p2lrt` 2D puppet rigs, and its Cubism importer, for Python.

    import p2l
    rig = p2l.load("examples/character/character.p2lrt")
    rig["ParamAngleX"] = 25
    rig.evaluate()
    image = rig.render(256, 256)          # (256, 256, 4) uint8, straight RGBA
    p2l.save_png("turned.png", image)

Arrays that describe an evaluation (Rig.vertices(), Rig.parameter_values,
Rig.current_values) are NumPy views of the rig's own memory: no copy is made, each
view keeps its rig alive, and the next evaluate() or update() rewrites them in place.
Copy one (numpy.array(view) or view.copy()) to keep a pose. See README.md.
"""

from __future__ import annotations

import logging
import os
from typing import Optional, Union

from ._p2l import (  # noqa: F401  (re-exported)
    ABI_VERSION,
    BLINK,
    BREATH,
    COLLISION,
    EXACT_LINKS,
    HAS_GL,
    LIP_SYNC,
    LOOK,
    SIM,
    SKIN,
    STAGE_ALL,
    STAGE_BEHAVIORS,
    STAGE_CLIPS,
    STAGE_EXPRESSIONS,
    STAGE_PHYSICS,
    STAGE_POSES,
    STAGE_SIM,
    LoadError,
    Rig,
    RigError,
    Speech,
    decode_png,
    encode_png,
    format_support,
    version,
)
from . import _p2l

__version__ = version()

# The runtime's log (failed loads and rigs, texture pages that do not decode) goes to the
# logger "p2l"; silent unless the application configures logging.
logging.getLogger("p2l").addHandler(logging.NullHandler())

__all__ = [
    "Rig",
    "Speech",
    "LoadError",
    "RigError",
    "load",
    "import_cubism",
    "decode_png",
    "encode_png",
    "read_png",
    "save_png",
    "version",
    "format_support",
    "HAS_GL",
    "BLINK",
    "BREATH",
    "LOOK",
    "LIP_SYNC",
    "STAGE_ALL",
    "STAGE_CLIPS",
    "STAGE_EXPRESSIONS",
    "STAGE_BEHAVIORS",
    "STAGE_POSES",
    "STAGE_PHYSICS",
    "STAGE_SIM",
    "SKIN",
    "EXACT_LINKS",
    "SIM",
    "COLLISION",
]

PathLike = Union[str, "os.PathLike[str]"]
BytesLike = Union[bytes, bytearray, memoryview]


def load(source: Union[PathLike, BytesLike], *, verify_crc: bool = False, base_dir: Optional[PathLike] = None) -> Rig:
    """A rig from a `.p2lrt` file (a path) or its bytes, at its default pose, evaluated once.

    The bytes are copied: the caller may drop them. Texture pages stored as files next to
    the rig are read from the file's folder (or base_dir for bytes). verify_crc checks the
    CRC of every chunk that has one.

    Raises FileNotFoundError / OSError when the file cannot be read and p2l.LoadError (a
    ValueError) naming the problem, e.g. "chunk MESH, offset 1234: ...", when it does not load.
    """
    if isinstance(source, (bytes, bytearray, memoryview)):
        folder = os.fspath(base_dir) if base_dir is not None else ""
        return _p2l._load_bytes(source, verify_crc, folder)
    path = os.fspath(source)
    with open(path, "rb") as f:
        data = f.read()
    folder = os.fspath(base_dir) if base_dir is not None else (os.path.dirname(os.path.abspath(path)))
    try:
        return _p2l._load_bytes(data, verify_crc, folder)
    except LoadError as e:
        raise LoadError(f"{path}: {e}") from None


def import_cubism(
    model3_json: PathLike,
    *,
    external_textures: bool = False,
    cubism_playback: bool = True,
    rules: str = "cubism",
) -> Rig:
    """A rig from a Cubism model: MODEL.model3.json and every file it names (moc3, textures,
    physics3, pose3, cdi3, userdata3, exp3, motion3), or a bare .moc3.

    What the import could not carry over exactly is listed, one line a thing, in the
    returned rig's `import_report` (a list of strings; empty when nothing was lost).
    rules="original" imports under the format's own core rules instead of Cubism's;
    cubism_playback=False plays motions by p2lrt's clip rules.

    Raises FileNotFoundError when the file does not exist and p2l.LoadError (a ValueError)
    naming the file and the JSON path at fault for a model that does not import.
    """
    path = os.fspath(model3_json)
    if not os.path.exists(path):
        raise FileNotFoundError(2, "No such file or directory", path)
    return _p2l._import_cubism(path, external_textures, cubism_playback, rules)


def read_png(path: PathLike):
    """A PNG file as a (height, width, 4) uint8 array of straight RGBA."""
    with open(os.fspath(path), "rb") as f:
        return decode_png(f.read())


def save_png(path: PathLike, rgba) -> None:
    """Writes a (height, width, 4) uint8 array of straight RGBA (e.g. Rig.render()) as a PNG."""
    data = encode_png(rgba)
    with open(os.fspath(path), "wb") as f:
        f.write(data)
