"""Whether a new name is an identifier of the file's language, checked before any server is
asked: a server handed `foo-bar` or `class` renames to it (tsserver, gopls) or fails late."""

from __future__ import annotations

import keyword

from lspd.errors import InvalidInput


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_SCRIPT_RESERVED = _words(
    """break case catch class const continue debugger default delete do else enum export
    extends false finally for function if import in instanceof new null return super switch
    this throw true try typeof var void while with implements interface let package private
    protected public static yield await"""
)
_GO_KEYWORDS = _words(
    """break case chan const continue default defer else fallthrough for func go goto if
    import interface map package range return select struct switch type var"""
)
_C_KEYWORDS = _words(
    """auto break case char const continue default do double else enum extern float for goto
    if inline int long register restrict return short signed sizeof static struct switch
    typedef union unsigned void volatile while"""
)
_CPP_KEYWORDS = _C_KEYWORDS | _words(
    """bool catch class constexpr delete explicit false friend mutable namespace new nullptr
    operator private protected public template this throw true try typename using virtual"""
)
_RUST_KEYWORDS = _words(
    """as break const continue crate else enum extern false fn for if impl in let loop match
    mod move mut pub ref return self Self static struct super trait true type unsafe use where
    while async await dyn"""
)
# Per language id: the reserved words, and whether `$` may be part of a name.
_RESERVED: dict[str, tuple[frozenset[str], bool]] = {
    "python": (frozenset(keyword.kwlist), False),
    "typescript": (_SCRIPT_RESERVED, True),
    "typescriptreact": (_SCRIPT_RESERVED, True),
    "javascript": (_SCRIPT_RESERVED, True),
    "javascriptreact": (_SCRIPT_RESERVED, True),
    "go": (_GO_KEYWORDS, False),
    "c": (_C_KEYWORDS, False),
    "cpp": (_CPP_KEYWORDS, False),
    "rust": (_RUST_KEYWORDS, False),
}


def check_identifier(name: object, language_id: str) -> str:
    """`name` when it is a plain identifier of the language; an error saying why not."""
    if not isinstance(name, str) or not name:
        raise InvalidInput("`new_name` must be the new name, e.g. `total_price`")
    reserved, dollar = _RESERVED.get(language_id, (frozenset(), False))
    what = f"a {language_id} identifier"
    if not _is_name(name, dollar, ascii_only=language_id in ("c", "cpp")):
        raise InvalidInput(
            f"`new_name` {name[:80]!r} is not {what}: send one name (letters, digits and "
            f"underscores{', `$`' if dollar else ''}, not starting with a digit), without "
            "dots, spaces or quotes"
        )
    if name in reserved:
        raise InvalidInput(f"`new_name` {name!r} is a reserved word of {language_id}")
    return name


def _is_name(name: str, dollar: bool, ascii_only: bool) -> bool:
    if ascii_only and not name.isascii():
        return False
    spelled = name.replace("$", "_") if dollar else name
    return spelled.isidentifier()
