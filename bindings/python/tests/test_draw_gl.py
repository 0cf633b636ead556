"""Rig.draw_gl in a GL context of the caller's own, as a pygame or PyQt program draws: here a
headless OpenGL 3.3 core context from Mesa's EGL (surfaceless, llvmpipe) made with PyOpenGL
(Debian's python3-opengl), drawing into a framebuffer of the test's own. The picture must be
render()'s: the 99.9th percentile of channel differences at most 2/255, as p2l_gl is held to
in tests/gl."""
import ctypes
import os
from pathlib import Path

import numpy as np
import pytest

import p2l

# PyOpenGL picks its platform when first imported: EGL, on Mesa's surfaceless platform.
os.environ.setdefault("PYOPENGL_PLATFORM", "egl")
os.environ.setdefault("EGL_PLATFORM", "surfaceless")
EGL = pytest.importorskip("OpenGL.EGL", reason="PyOpenGL (python3-opengl) is not installed")
GL = pytest.importorskip("OpenGL.GL")

ROOT = Path(os.environ.get("P2L_SOURCE_DIR") or Path(__file__).resolve().parents[3])
CHARACTER = ROOT / "examples" / "character" / "character.p2lrt"
SIZE = 256


@pytest.fixture(scope="module")
def context():
    if not p2l.HAS_GL:
        pytest.skip("this p2l module was built without p2l_gl (libepoxy-dev)")
    display = EGL.eglGetDisplay(EGL.EGL_DEFAULT_DISPLAY)
    major, minor = EGL.EGLint(), EGL.EGLint()
    if not display or not EGL.eglInitialize(display, ctypes.pointer(major), ctypes.pointer(minor)):
        pytest.skip("no EGL display (Mesa's libegl-mesa0: scripts/setup.sh --gl)")
    EGL.eglBindAPI(EGL.EGL_OPENGL_API)
    config, count = EGL.EGLConfig(), EGL.EGLint()
    wanted = (EGL.EGLint * 5)(EGL.EGL_SURFACE_TYPE, 0, EGL.EGL_RENDERABLE_TYPE, EGL.EGL_OPENGL_BIT, EGL.EGL_NONE)
    EGL.eglChooseConfig(display, wanted, ctypes.pointer(config), 1, ctypes.pointer(count))
    attributes = (EGL.EGLint * 7)(EGL.EGL_CONTEXT_MAJOR_VERSION, 3, EGL.EGL_CONTEXT_MINOR_VERSION, 3,
                                  EGL.EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL.EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                                  EGL.EGL_NONE)
    made = EGL.eglCreateContext(display, config if count.value else EGL.EGL_NO_CONFIG_KHR, EGL.EGL_NO_CONTEXT, attributes)
    if not made or not EGL.eglMakeCurrent(display, EGL.EGL_NO_SURFACE, EGL.EGL_NO_SURFACE, made):
        pytest.skip("no OpenGL 3.3 core context from EGL")
    yield display
    EGL.eglMakeCurrent(display, EGL.EGL_NO_SURFACE, EGL.EGL_NO_SURFACE, EGL.EGL_NO_CONTEXT)
    EGL.eglDestroyContext(display, made)
    EGL.eglTerminate(display)


@pytest.fixture
def framebuffer(context):
    """A SIZE x SIZE RGBA8 framebuffer of the host's, bound; yields a function reading it top row first."""
    texture = GL.glGenTextures(1)
    GL.glBindTexture(GL.GL_TEXTURE_2D, texture)
    GL.glTexStorage2D(GL.GL_TEXTURE_2D, 1, GL.GL_RGBA8, SIZE, SIZE)
    fbo = GL.glGenFramebuffers(1)
    GL.glBindFramebuffer(GL.GL_FRAMEBUFFER, fbo)
    GL.glFramebufferTexture2D(GL.GL_FRAMEBUFFER, GL.GL_COLOR_ATTACHMENT0, GL.GL_TEXTURE_2D, texture, 0)

    def read():
        GL.glBindFramebuffer(GL.GL_READ_FRAMEBUFFER, fbo)
        GL.glPixelStorei(GL.GL_PACK_ALIGNMENT, 1)
        data = GL.glReadPixels(0, 0, SIZE, SIZE, GL.GL_RGBA, GL.GL_UNSIGNED_BYTE)
        return np.frombuffer(data, np.uint8).reshape(SIZE, SIZE, 4)[::-1]

    yield read
    GL.glBindFramebuffer(GL.GL_FRAMEBUFFER, 0)
    GL.glDeleteFramebuffers(1, [fbo])
    GL.glDeleteTextures(1, [texture])


def worst(gpu, cpu):
    differences = np.abs(gpu.astype(np.int16) - cpu.astype(np.int16)).ravel()
    return np.percentile(differences, 99.9), differences.max()


def test_draw_gl_is_render_at_poses_and_over_a_clip(framebuffer):
    rig = p2l.load(CHARACTER)
    rig.set_behaviors(0)
    poses = [{}, {"ParamAngleX": 30, "ParamBodyAngleX": -10}, {"ParamAngleX": -30, "ParamEyeLOpen": 0}]
    for pose in poses:
        rig.reset_parameters()
        for key, value in pose.items():
            if key in rig:
                rig[key] = value
        rig.evaluate()
        rig.draw_gl(SIZE, SIZE, fit="drawn", clear=True)
        gpu = framebuffer()
        cpu = rig.render(SIZE, SIZE, fit="drawn", premultiplied=True)
        p999, most = worst(gpu, cpu)
        assert (cpu[..., 3] > 0).mean() > 0.1, "the software picture shows the character"
        assert p999 <= 2, f"pose {pose}: 99.9th percentile {p999}/255, worst {most}/255"
    # A clip played by update(): each frame's vertices reach the GPU.
    rig.play(0)
    for _ in range(10):
        rig.update(1 / 30)
        rig.draw_gl(SIZE, SIZE, fit="drawn", clear=True)
        p999, most = worst(framebuffer(), rig.render(SIZE, SIZE, fit="drawn", premultiplied=True))
        assert p999 <= 2, f"clip frame: 99.9th percentile {p999}/255, worst {most}/255"
    rig.release_gl()


def test_draw_gl_composites_over_what_the_host_drew(framebuffer):
    rig = p2l.load(CHARACTER)
    GL.glClearColor(0.0, 0.5, 0.0, 1.0)
    GL.glClear(GL.GL_COLOR_BUFFER_BIT)
    rig.draw_gl(SIZE, SIZE)
    gpu = framebuffer()
    background = np.zeros((SIZE, SIZE, 4), np.uint8)
    background[...] = (0, 128, 0, 255)
    cpu = rig.render(SIZE, SIZE, premultiplied=True, out=background)
    assert worst(gpu, cpu)[0] <= 2
    assert (gpu[0, 0] == (0, 128, 0, 255)).all(), "the host's pixels stay where nothing is drawn"
    rig.release_gl()


def test_draw_gl_errors_read_well(context):
    rig = p2l.load(CHARACTER)
    with pytest.raises(ValueError, match="width and height must be positive"):
        rig.draw_gl(0, 10)
    with pytest.raises(ValueError, match="fit must be"):
        rig.draw_gl(10, 10, fit="everything")
