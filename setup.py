"""Build hook for the solver's optional C extension (everything else is in pyproject.toml).

``optional=True``: where no C compiler (or no Python headers) is available, setuptools
prints a warning and the install goes on without the extension; the solver then runs its
pure-Python engine (docs/solver.md, "The compiled core").
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "solitaire_core.solver._csolver",
            sources=["solitaire_core/solver/_csolver.c"],
            optional=True,
            extra_compile_args=["-O2"] if __import__("os").name != "nt" else [],
        )
    ]
)
