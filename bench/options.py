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
        default, (text,) = parameter.default, hints[name].__metadata__
        path = name.endswith("_path")
        flag = "--" + name.removesuffix("_path").replace("_", "-")
        shown = "FILE" if path else None
        kind = Path if path else type(default)
        parser.add_argument(flag, dest=name, type=kind, default=default, help=text, metavar=shown)
    return vars(parser.parse_args())
