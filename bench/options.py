"""A bench script's command line, read from its `main`'s signature as the surface reads an
operation's: each parameter is an option (`rounds` is `--rounds`), of its default's type,
its help the text of its `Annotated`; `json_path` is `--json FILE`, where scripts/bench
asks for the samples. The options are so declared once, where they are used."""

from __future__ import annotations

import argparse
import inspect
import typing
from collections.abc import Callable
from pathlib import Path
from typing import Any


def arguments(main: Callable[..., Any], doc: str) -> dict[str, Any]:
    """The command line's values, as `main`'s keyword arguments; the script's description
    is the first line of its docstring `doc`."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    hints = typing.get_type_hints(main, include_extras=True)
    for name, parameter in inspect.signature(main).parameters.items():
        metadata = getattr(hints.get(name), "__metadata__", ())
        if len(metadata) != 1 or parameter.default is inspect.Parameter.empty:
            raise TypeError(
                f"{main.__name__}({name}): declare it `Annotated[type, help] = default`"
            )
        default, (text,) = parameter.default, metadata
        flag = "--" + name.removesuffix("_path").replace("_", "-")
        if isinstance(default, bool):  # `--x` / `--no-x`: argparse's bool("False") is True
            action = argparse.BooleanOptionalAction
            parser.add_argument(flag, dest=name, action=action, default=default, help=text)
            continue
        path = name.endswith("_path")
        shown = "FILE" if path else None
        kind = Path if path else type(default)
        parser.add_argument(flag, dest=name, type=kind, default=default, help=text, metavar=shown)
    return vars(parser.parse_args())
