"""Hover text cleaned: entities decoded, empty sections dropped, on basedpyright's real hovers."""

from __future__ import annotations

from lspd.ops import navigation
from lspd.ops.markdown import clean, markdown
from tests.conftest import Warm


def test_entities_rules_and_empty_fences_are_dropped() -> None:
    raw = "```python\n```\n---\n&nbsp;&nbsp;Returns a &lt;Text&gt; &amp; more\n\n\n\n---\n---\n"
    assert clean(raw) == "  Returns a <Text> & more"


def test_marked_strings_and_lists_become_one_markdown() -> None:
    contents = [{"language": "python", "value": "def f() -> int"}, "Docs.", ""]
    assert markdown(contents) == "```python\ndef f() -> int\n```\n\nDocs."


def test_a_docstring_hover_has_no_entities(py: Warm) -> None:
    result = py.run(navigation.hover(py.ws, "pkg/greeting.py", 18, 9))
    assert result.contents == (
        '```python\n(method) def greet(\n    self: Self@Greeter,\n    punctuation: str = "!"\n'
        ") -> str\n```\n---\nReturn a greeting for this greeter's name."
    )
