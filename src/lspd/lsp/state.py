"""The life states of a language-server session, as `/health` and `status` report them."""

from typing import Literal

ServerState = Literal["starting", "indexing", "ready", "busy", "crashed", "stopped"]
