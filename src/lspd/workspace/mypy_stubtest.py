"""A project's `stubtest` command as the mypy run it makes: stubtest type-checks the stubs of
the modules it is given with mypy (and the project's mypy configuration) before it compares
them with the runtime, so its gate's mypy errors are those of `mypy -m MODULE ...`.
more-itertools' Makefile runs `stubtest more_itertools.more more_itertools.recipes` and
nothing runs mypy itself: lspd ran mypy on every file of the project and said 323 errors of
its tests and docs, which its gate never checks. How a stub differs from the runtime is
stubtest's own question, not answered here.
"""

from __future__ import annotations

STUBTEST = frozenset({"stubtest", "mypy.stubtest"})  # `stubtest`, `python -m mypy.stubtest`
# stubtest's options taking a value as the next argument (none is mypy's)
_VALUED = frozenset({"--allowlist", "--mypy-config-file", "--custom-typeshed-dir"})


def as_mypy(words: list[str]) -> list[str]:
    """A stubtest command's arguments (`words`, after `stubtest`, up to the command's end)
    as mypy's: each module it names as `-m MODULE`; its own options dropped (they change no
    mypy error)."""
    found: list[str] = []
    skip = False
    for word in words:
        if skip:
            skip = False
        elif word.startswith("-"):
            skip = word in _VALUED
        else:
            found += ["-m", word]
    return found
