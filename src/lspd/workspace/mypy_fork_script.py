"""The project's own `mypy`, imported once and forked per question: run by the project's
Python (`mypy_fork`), never imported by lspd.

Each `mypy` run starts an interpreter and imports mypy before it reads its cache: 0.15-0.4
s of every question. This process does that once (`mypy.__main__`, what the `mypy` script
imports), then for each request forks a child that runs mypy's command line exactly as
the script does (`console_entry` with `sys.argv` set, its stdout and stderr to files, its
exit status mypy's), so each answer is a fresh `mypy` process's: nothing one run leaves in
memory reaches the next, and the parent never runs mypy at all.

A request is one JSON line on stdin, `{"argv": [...], "cwd": "..."}` (the directory is
entered anew by each child: another process may have made it again meanwhile); its
answer one JSON line on the
descriptor stdout was at the start, `{"status": int, "out": str, "err": str}`. Anything
printing to stdout meanwhile (a plugin's import) goes to stderr, lspd's log.

    python mypy_fork_script.py <sys.path[0] of the command line> <argv[0]>
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import traceback
from typing import Any


def main() -> None:
    # The first entry of sys.path as the command line has it (the `mypy` script's
    # directory, or the working directory for `python -m mypy`), not this file's.
    sys.path[0], program = sys.argv[1], sys.argv[2]
    channel = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)
    import mypy.__main__  # noqa: F401  (what the `mypy` script imports, once)

    for line in sys.stdin:
        request = json.loads(line)
        argv = [str(a) for a in request["argv"]]
        channel.write(json.dumps(answer(program, argv, str(request["cwd"]))) + "\n")
        channel.flush()


def answer(program: str, argv: list[str], cwd: str) -> dict[str, Any]:
    """One `mypy argv` run in `cwd`, in a child forked from this process: its status and
    output."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            _child(program, argv, cwd, out.fileno(), err.fileno())
        _, waited = os.waitpid(pid, 0)
        status = -os.WTERMSIG(waited) if os.WIFSIGNALED(waited) else os.WEXITSTATUS(waited)
        out.seek(0)
        err.seek(0)
        said = err.read().decode("utf-8", "replace")
        if status < 0:  # killed by a signal: no answer of mypy's
            said += f"mypy was killed by signal {-status}\n"
            status = 2
        return {"status": status, "out": out.read().decode("utf-8", "replace"), "err": said}


def _child(program: str, argv: list[str], cwd: str, out: int, err: int) -> None:
    """mypy's command line, as the `mypy` script runs it; never returns."""
    status = 2
    try:
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)  # the requests are the parent's
        os.dup2(out, 1)
        os.dup2(err, 2)
        os.chdir(cwd)
        sys.argv = [program, *argv]
        from mypy.__main__ import console_entry

        try:
            console_entry()  # mypy ends the process itself (`hard_exit`) once it printed
            status = 0
        except SystemExit as exc:
            if isinstance(exc.code, int) or exc.code is None:
                status = exc.code or 0
            else:
                print(exc.code, file=sys.stderr)
                status = 1
    except BaseException:
        traceback.print_exc()
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(status)


if __name__ == "__main__":
    main()
