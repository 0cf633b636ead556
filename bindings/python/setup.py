"""Builds the extension p2l._p2l with CMake (CMakeLists.txt here) for setuptools.

Environment:
  P2L_CMAKE_ARGS        more arguments for the CMake configure step, split as a shell would
                        (e.g. "-DP2L_PYTHON_LIBRARY=PACKAGE -DCMAKE_BUILD_TYPE=Debug")
  CMAKE_PREFIX_PATH     where find_package looks for an installed p2l package (CMake reads it)
  P2L_SOURCE_DIR        the p2lrt source tree, when this folder is not inside it
  P2L_PYTHON_BUILD_DIR  the CMake build folder, kept between builds (default: build/cmake here)
  P2L_BUILD_JOBS        parallel build jobs (default 2); CMAKE_GENERATOR picks the generator
                        (default Ninja when it is installed)
"""

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent


def source_dir():
    """The p2lrt source tree: P2L_SOURCE_DIR, else the repository this folder is in (pip builds
    a local folder in place, so ../.. is reachable), else None (an installed package is needed)."""
    given = os.environ.get("P2L_SOURCE_DIR")
    candidates = [Path(given)] if given else [HERE.parent.parent]
    for root in candidates:
        if (root / "include" / "p2l" / "p2l.h").is_file() and (root / "CMakeLists.txt").is_file():
            return root.resolve()
    if given:
        sys.exit(f"P2L_SOURCE_DIR={given} is not a p2lrt source tree (no include/p2l/p2l.h)")
    return None


def version():
    """project(p2lrt VERSION x.y.z) of the source tree, else P2L_VERSION, else 0.0.0."""
    root = source_dir()
    if root is not None:
        text = (root / "CMakeLists.txt").read_text(encoding="utf-8")
        found = re.search(r"project\(\s*p2lrt\s+VERSION\s+([0-9][0-9.]*)", text)
        if found:
            return found.group(1)
    return os.environ.get("P2L_VERSION", "0.0.0")


class CMakeExtension(Extension):
    def __init__(self, name):
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        cmake = shutil.which("cmake")
        if cmake is None:
            sys.exit("p2l: cmake is needed to build the extension (apt-get install cmake)")
        build_dir = Path(os.environ.get("P2L_PYTHON_BUILD_DIR") or (HERE / "build" / "cmake")).resolve()
        build_dir.mkdir(parents=True, exist_ok=True)
        config = "Debug" if self.debug else "Release"
        args = [
            f"-DCMAKE_BUILD_TYPE={config}",
            f"-DPython_EXECUTABLE={sys.executable}",
        ]
        root = source_dir()
        if root is not None:
            args.append(f"-DP2L_SOURCE_DIR={root}")
        cache = build_dir / "CMakeCache.txt"
        if "CMAKE_GENERATOR" not in os.environ and not cache.exists() and shutil.which("ninja"):
            args += ["-G", "Ninja"]
        args += shlex.split(os.environ.get("P2L_CMAKE_ARGS", ""))
        jobs = os.environ.get("P2L_BUILD_JOBS", "2")
        self.announce(f"p2l: cmake {' '.join(args)} (build folder {build_dir})", level=2)
        subprocess.check_call([cmake, "-S", str(HERE), "-B", str(build_dir), *args])
        subprocess.check_call([cmake, "--build", str(build_dir), "--config", config, "--target", "_p2l", "-j", jobs])
        built = Path((build_dir / "p2l_module_path.txt").read_text(encoding="utf-8").strip())
        target = Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built, target)
        print(f"p2l: {built} -> {target}")


setup(
    version=version(),
    ext_modules=[CMakeExtension("p2l._p2l")],
    cmdclass={"build_ext": CMakeBuild},
    zip_safe=False,
)
