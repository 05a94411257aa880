"""The declarations helper tells two texts alike where TypeScript's own declaration emit of
each alone is the same; it says nothing (None) where an exported value's type needs the
checker or the text does not parse; a helper that ended is started again for the next
question. A real helper on lspd's TypeScript."""

from __future__ import annotations

import asyncio
import os
import signal
from pathlib import Path

from lspd.lsp.process import exited
from lspd.servers.registry import definitions
from lspd.workspace.toolchain import SERVER
from lspd.workspace.ts_declarations import Declarations

TYPED = "export function area(w: number): number {\n  return w * 2;\n}\n"
TEXTS = {
    "typed": TYPED,
    "body": TYPED.replace("return w * 2;", "const twice = w * 2;\n  return twice;"),
    "comment": "/** The area. */\n" + TYPED,
    "parameter": TYPED.replace("w: number)", "w: number, h = 1)"),
    "inferred": "export function area(w: number) {\n  return w * 2;\n}\n",
    "unparsed": "export function area(w: number): number {\n  return w *;\n",
}


def helper(tmp_path: Path) -> Declarations:
    package = definitions()[SERVER].npm_root() / "typescript"
    return Declarations(package, tmp_path / "declarations.log")


def test_texts_are_alike_where_their_declarations_are(tmp_path: Path) -> None:
    declarations = helper(tmp_path)

    async def main() -> dict[str, int | None]:
        try:
            found = await declarations.of([(tmp_path / "a.ts", t) for t in TEXTS.values()])
            return dict(zip(TEXTS, found, strict=True))
        finally:
            await declarations.stop()

    found = asyncio.run(main())
    assert found["typed"] is not None and found["typed"] == found["body"]
    assert len({found["typed"], found["comment"], found["parameter"]}) == 3
    assert found["inferred"] is None and found["unparsed"] is None


def test_a_helper_that_ended_is_started_again(tmp_path: Path) -> None:
    declarations = helper(tmp_path)

    async def main() -> tuple[int | None, int | None]:
        try:
            first = (await declarations.of([(tmp_path / "a.ts", TYPED)]))[0]
            process = declarations._process
            assert process is not None and process.returncode is None
            os.kill(process.pid, signal.SIGKILL)
            await process.wait()
            again = (await declarations.of([(tmp_path / "b.ts", TEXTS["body"])]))[0]
            return first, again
        finally:
            await declarations.stop()

    first, again = asyncio.run(main())
    assert first is not None and first == again


def test_an_idle_helper_ends_itself_and_its_next_question_starts_one(tmp_path: Path) -> None:
    """Its ~90 MB are held only around an edit's questions: 3 s after its last answer it
    exits (waited for as the event it is), and the next question is answered all the same."""
    declarations = helper(tmp_path)

    async def main() -> tuple[int, int | None]:
        try:
            await declarations.of([(tmp_path / "a.ts", TYPED)])
            process = declarations._process
            assert process is not None
            code = await asyncio.wait_for(exited(process), 30)
            return code, (await declarations.of([(tmp_path / "b.ts", TEXTS["body"])]))[0]
        finally:
            await declarations.stop()

    code, again = asyncio.run(main())
    assert code == 0 and again is not None
