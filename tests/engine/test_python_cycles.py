"""Which Python files reach the same import cycle, read from their imports."""

from __future__ import annotations

from pathlib import Path

from lspd.engine.python_cycles import cycles_reached, shared
from lspd.engine.python_imports import touched

FILES = {
    "a.py": "import c\nfrom b import B\n\n\nclass A(B): ...\n",  # a and b: a cycle
    "b.py": "import c\nfrom a import A\n\n\nclass B(A): ...\n",
    "c.py": "SIZE = 1\n",  # imported by the cycle, in none
    "x.py": "from a import A\n",  # outside it, reaching it
    "p.py": "import q\n",  # another cycle
    "q.py": "import p\nimport a\n",  # which reaches the first
    "pkg/__init__.py": "from .m import X\n",  # a package importing its own module: no cycle
    "pkg/m.py": "X = 1\n",
    "lone.py": "import pkg\n",
}


def cycles(tmp_path: Path) -> dict[Path, frozenset[int]]:
    for name, text in FILES.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    names = {tmp_path / n: touched(tmp_path, tmp_path / n, t) for n, t in FILES.items()}
    return cycles_reached(tmp_path, names)


def test_each_file_reaches_the_cycles_it_is_in_or_imports(tmp_path: Path) -> None:
    found = {p.relative_to(tmp_path).as_posix(): sorted(c) for p, c in cycles(tmp_path).items()}
    assert sorted(found) == ["a.py", "b.py", "p.py", "q.py", "x.py"]
    first, second = found["a.py"][0], found["p.py"][-1]
    assert found["b.py"] == found["x.py"] == [first]
    assert found["p.py"] == found["q.py"] == sorted([first, second]) and first != second


def test_shared_tells_a_file_left_out_reaching_a_cycle_an_asked_one_reaches(
    tmp_path: Path,
) -> None:
    found = cycles(tmp_path)
    a, b, c, x = (tmp_path / n for n in ("a.py", "b.py", "c.py", "x.py"))
    assert shared(found, [b, c], [a])  # b asked, a (in its cycle) not
    assert shared(found, [x], [a])  # x reaches the cycle a is in
    assert not shared(found, [c], [a, b])  # c reaches none
    assert not shared(found, [b], [tmp_path / "lone.py"])
