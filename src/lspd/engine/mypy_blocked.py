"""Whether a mypy answer stopped at a blocking error though its status is not 2.

mypy's own run exits 2 at a blocking error ("errors prevented further checking"); dmypy's
update that meets one answers status 1 with the errors of that file alone (its
`FineGrainedBuildManager.update` returns the blocker's messages), and nothing else in its
answer says so. So the errors must tell, and mypy blocks at more than Python's parser
rejects (mypy 1.13 to 2.4.1, their sources' `blocker=True`):

- a syntax error of a text Python's parser rejects: the project's Python's, as mypy runs
  on it (lspd's may take what it refuses, `except*` on 3.10, or refuse what it takes, PEP
  695 on 3.12): the text parsed in it, isolated, never run;
- CPython's own refusal of a newer feature than the target's ("Pattern matching is only
  supported in Python 3.10 and greater"): mypy 1.x parses at the target's version, lspd's
  parser takes the text at its own;
- what Python's parser takes and its compiler (or mypy's semantic analysis) refuses: a
  `break` outside a loop, a `yield` outside a function, a relative import past the top.

A syntax error of a text that parses and is no such refusal is not one: an invalid
`# type: ignore`, a type comment, mypy 2.x's own "requires Python 3.12 or newer" (a
project on 3.12 targeting 3.11 writing PEP 695: lspd's 3.11 parser refused it, and the
stop hid every other error of mypy's answer).
"""

from __future__ import annotations

import ast
import asyncio
import hashlib
import re
import tempfile
import warnings
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Protocol, TypeVar

# CPython's parser, a feature newer than the version it parses for (its CHECK_VERSION).
NEWER_FEATURE = re.compile(r" only supported in Python 3\.\d+ and greater$")
# mypy's blockers past the parser (semanal.py, fastparse.py, build.py), whole messages.
BLOCKERS = frozenset(
    {
        '"break" outside loop',
        '"continue" outside loop',
        '"yield" outside function',
        '"yield from" outside function',
        '"yield" inside comprehension or generator expression',
        '"yield from" inside comprehension or generator expression',
        '"yield from" in async function',
        "can't use starred expression here",
        "Assignment expression within a comprehension cannot be used in a class body",
        "Type signature has too many arguments",
        "No parent module -- cannot perform relative import",
        "Yield expression cannot be used as a type variable bound",
        "Named expression cannot be used as a type variable bound",
        "Await expression cannot be used as a type variable bound",
        "Yield expression cannot be used within a type alias",
        "Named expression cannot be used within a type alias",
        "Await expression cannot be used within a type alias",
        "INTERNAL ERROR: maximum semantic analysis iteration count reached",
    }
)
# ... and those naming a module or file (build.py), by their start.
# mypy 1.13's words for a file shadowing a library module (`workspace/mypy_said.shadowing`).
SHADOWS = re.compile(r'^"[^"]+" shadows library module "[^"]+"$')
BLOCKER_STARTS = (
    "This file shadows library module ",
    "Duplicate module named ",
    "Source file found twice under different module names: ",
)


class _Error(Protocol):
    """What the rule reads of a mypy error (`mypy_errors.MypyError`)."""

    @property
    def code(self) -> str | None: ...

    @property
    def message(self) -> str: ...


async def blocked(
    errors: Mapping[Path, Sequence[_Error]],
    held: Mapping[str, bytes],
    base: Path,
    interpreter: Path,
) -> bool:
    """Whether `errors` (by absolute path) say mypy, run by `interpreter`, stopped at a
    blocking error, `held` the texts it checked (by path relative to `base`)."""
    return bool(await blocking(errors, held, base, interpreter, first=True))


async def blocking(
    errors: Mapping[Path, Sequence[_Error]],
    held: Mapping[str, bytes],
    base: Path,
    interpreter: Path,
    first: bool = False,
) -> set[Path]:
    """The files of `errors` whose errors block mypy (`blocked`'s rule, file by file): a
    blocker past the parser, or a syntax error of a text the project's Python does not
    parse; with `first`, the first one found alone. A run that stopped says the syntax
    errors of the other files it parsed too (an invalid `# type: ignore`): no stop."""
    found: set[Path] = set()
    for path, said in errors.items():
        if any(_blocker(error) for error in said):
            found.add(path)
        elif any(error.code == "syntax" for error in said):
            text = _text(path, held, base)
            if text is not None and not await parses_in(interpreter, text):
                found.add(path)
        if found and first:
            break
    return found


E = TypeVar("E", bound=_Error)


def _text(path: Path, held: Mapping[str, bytes], base: Path) -> bytes | None:
    """The text mypy checked of `path`: the copy's (`held`), else the disk's (a module of
    `mypy_path` outside the project's package: dmypy reads it there)."""
    if base in path.parents:
        return held.get(path.relative_to(base).as_posix())
    try:
        return path.read_bytes()
    except OSError:
        return None


def stopped_at(errors: Sequence[E]) -> list[E]:
    """Of a stopped run's errors, those it stopped at: its blockers past the parser (a
    semantic analysis' stop: mypy's own run says the errors of the modules it analysed
    before too, `app/helpers.py:5` beside the `break` it stopped at), else its syntax
    errors (a parse's stop: every error of that file), else all of them."""
    past = [error for error in errors if _blocker(error)]
    return past or [error for error in errors if error.code == "syntax"] or list(errors)


def _blocker(error: _Error) -> bool:
    """Whether the error's message is one mypy only ever reports as a blocker."""
    message = error.message
    if error.code == "syntax" and NEWER_FEATURE.search(message):
        return True
    return message in BLOCKERS or message.startswith(BLOCKER_STARTS) or bool(SHADOWS.match(message))


# Run by the project's interpreter (-I: isolated, nothing of the workspace imported), the
# text on its standard input: exit 3 where its parser refuses it.
_PARSE = """\
import ast, sys, warnings
warnings.simplefilter("ignore")
try:
    ast.parse(sys.stdin.buffer.read())
except (SyntaxError, ValueError):
    sys.exit(3)
except BaseException:
    sys.exit(0)
"""
REFUSED = 3
PARSE_TIMEOUT_S = 30.0


# Answers asked before, by interpreter and text (a standing syntax error mypy does not
# stop at, an invalid `# type: ignore`, would start the interpreter at each answer:
# 0.09 s at load 6-8).
KEPT_PARSES = 64
_PARSED: OrderedDict[tuple[Path, bytes], bool] = OrderedDict()


async def parses_in(interpreter: Path, text: bytes) -> bool:
    """Whether `interpreter`'s parser takes a Python text (lspd's own where it cannot be
    asked: started, it always answers); asked once per interpreter and text."""
    key = (interpreter, hashlib.blake2b(text, digest_size=16).digest())
    if (known := _PARSED.get(key)) is not None:
        _PARSED.move_to_end(key)
        return known
    _PARSED[key] = parsed = await _ask(interpreter, text)
    while len(_PARSED) > KEPT_PARSES:
        _PARSED.popitem(last=False)
    return parsed


async def _ask(interpreter: Path, text: bytes) -> bool:
    """`parses_in`, asked of the interpreter."""
    try:
        process = await asyncio.create_subprocess_exec(
            str(interpreter), "-I", "-c", _PARSE,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.DEVNULL,
            cwd=tempfile.gettempdir(),
        )  # fmt: skip
    except OSError:
        return python_parses(text)
    try:
        async with asyncio.timeout(PARSE_TIMEOUT_S):
            await process.communicate(text)
    except TimeoutError:  # a hung interpreter: it could not say
        pass
    finally:
        if process.returncode is None:  # cancelled, or hung: never left behind
            process.kill()
            await process.wait()
    if process.returncode not in (0, REFUSED):  # it could not say (a crash, killed)
        return python_parses(text)
    return process.returncode == 0


def python_parses(text: bytes) -> bool:
    """Whether a Python text parses (lspd's Python's parser: parsed, never run)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # an invalid escape's SyntaxWarning
        try:
            ast.parse(text)
        except (SyntaxError, ValueError):  # ValueError: a null byte
            return False
        except (RecursionError, MemoryError):  # too deep to say: mypy's error is not blocking
            return True
    return True
