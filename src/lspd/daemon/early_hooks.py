"""The agents' hooks (POST /hook) answered from a daemon's first second (`early`): they need
none of the MCP SDK, whose import and build (3-10 s on a loaded machine) a cold daemon's
first hook waited for before. trio, a cold restart, the first edit hook (3 s budget): 5.8
-7.1 s, the SDK's app up 5.5 s after the edit. One `Feedback` answers them, here and in
the whole app once it is up (`whole.build`), so an agent session is one session."""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.types import Receive, Scope, Send

from lspd.tools.calls import Activity
from lspd.workspace import Workspace

if TYPE_CHECKING:
    from lspd.daemon.feedback import Feedback


class EarlyHooks:
    """The daemon's one `Feedback`, made at its first hook or the whole app's build."""

    def __init__(self, ws: Workspace, activity: Activity) -> None:
        self.ws, self.activity = ws, activity
        self._feedback: Feedback | None = None
        self._making = threading.Lock()  # the build's thread, or the loop's first hook

    def feedback(self) -> Feedback:
        with self._making:
            if self._feedback is None:
                from lspd.daemon.feedback import Feedback

                self._feedback = Feedback(self.ws, self.activity)
            return self._feedback

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        response = await answered(self.feedback(), Request(scope, receive))
        await response(scope, receive, send)


async def answered(hooks: Feedback, request: Request) -> Response:
    """`lspd hook`: an agent's edit or stop, answered within the budget it sends."""
    try:
        body = await request.json()
        if not isinstance(body, dict):
            raise ValueError("the body is not a JSON object")
        return JSONResponse(await hooks.answer(body))
    except (ValueError, TypeError) as exc:
        return JSONResponse({"error": str(exc)}, status_code=400)


def is_hook(scope: Scope) -> bool:
    return bool(scope["type"] == "http" and scope["path"] == "/hook" and scope["method"] == "POST")
