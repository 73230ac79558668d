"""Builds the compiled kernels; everything else about the package is in pyproject.toml.

One CPython extension module per ``_*.c`` file under ``evaluators/kernels/`` (and the
reply writer under ``service/server/``), named for its file
(``evaluators/kernels/_poker.c`` -> ``evaluators.kernels._poker``). They use the
C API alone (buffers in, buffers out), so a build needs gcc and the Python headers, no
other package; ``pip install -e .`` compiles them in place.
"""

from pathlib import Path

from setuptools import Extension, setup

KERNEL_SOURCES = sorted(
    [*Path("evaluators/kernels").glob("_*.c"), *Path("service/server").glob("_*.c")]
)

setup(
    ext_modules=[
        Extension(
            ".".join([*source.parent.parts, source.stem]),
            [str(source)],
            extra_compile_args=["-O3", "-std=c11", "-Wall", "-Werror"],
        )
        for source in KERNEL_SOURCES
    ]
)
