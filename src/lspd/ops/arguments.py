"""Checks of scalar arguments shared by the operations, with the messages agents read."""

from __future__ import annotations

from pathlib import PurePosixPath

from lspd.errors import InvalidInput


def check_int(name: str, value: object) -> None:
    """`value` is an int (a bool is not)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInput(f"`{name}` must be an integer (1-based), not {value!r}")


def check_positive(name: str, value: object, meaning: str = "") -> None:
    """`value` is an int ≥ 1; `meaning` (e.g. " (1 = top level only)") follows the name."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise InvalidInput(f"`{name}` must be a positive integer{meaning}, not {value!r}")


def check_content(content: object, limit: int) -> None:
    """Unsaved text sent instead of a file: what a source file could hold, and no more."""
    if content is None:
        return
    if not isinstance(content, str):
        raise InvalidInput(f"`content` must be the file's text as a string, not {content!r:.60}")
    if "\x00" in content:
        raise InvalidInput(
            "`content` contains a NUL byte, so it is not source text; send the text of the "
            "file as it would be saved"
        )
    try:
        size = len(content.encode("utf-8"))
    except UnicodeEncodeError as exc:
        raise InvalidInput(
            f"`content` is not valid Unicode (a lone surrogate at character {exc.start + 1}); "
            "send UTF-8 text"
        ) from None
    if size > limit:
        raise InvalidInput(f"`content` is {size} bytes, over the {limit}-byte limit of a file")


def check_globs(globs: object) -> None:
    """Globs are matched against paths relative to the root: one leading out matches nothing."""
    if globs is None:
        return
    if not isinstance(globs, list) or not all(isinstance(g, str) and g.strip() for g in globs):
        raise InvalidInput("`paths` must be a list of glob patterns such as ['src/**/*.py']")
    for glob in globs:
        if glob.startswith(("/", "~")) or ".." in PurePosixPath(glob).parts:
            raise InvalidInput(
                f"globs of `paths` are relative to the workspace root and stay inside it; "
                f"{glob!r:.80} does not: send e.g. 'src/**/*.py'"
            )


def check_flag(name: str, value: object) -> None:
    """`value` is a boolean."""
    if not isinstance(value, bool):
        raise InvalidInput(f"`{name}` must be true or false")
