"""One line of Python or Rust coloured for a terminal without pygments: keywords, names, strings, comments, numbers.

The default view shows a few code lines per error; pygments costs about 16 ms a run to import and to
compile its lexer's regexes, more than the rest of the view. This reads one line with one regex
(alternatives that cannot overlap, no nested repetition: linear in the line's length), compiled at its
first use, and gives each piece the SGR code of the colour rich's `ansi_dark` theme gives the same
kind of token with pygments, in the terminal's own palette: readable on dark and light backgrounds.
Anything it does not know is left uncoloured, and a language it does not know is not coloured at all.
"""

from __future__ import annotations

from leafexplain.regex import lazy_regex

# SGR parameters, as ansi_dark colours pygments' token kinds.
KEYWORD = "94"  # Keyword, Keyword.Constant, Keyword.Declaration
TYPE = "96"  # Keyword.Type, Name.Builtin, Name.Builtin.Pseudo, Name.Exception, Name.Attribute, Comment.Preproc
OPERATOR_WORD = "95"
FUNCTION = "92"  # Name.Function and its Magic
CLASS = "92;4"
NAMESPACE = "96;4"
DECORATOR = "1;95"
MAGIC_VARIABLE = "91"
STRING = "33"
NUMBER = "94"
COMMENT = "2"
ERROR = "31;4"  # a character the language does not have: typographic quotes pasted into code

_NUMBER = (
    r"(?P<number>(?<!\w)(?:0[xX][0-9a-fA-F_]+|0[oO][0-7_]+|0[bB][01_]+"
    r"|\d[\d_]*(?:\.\d[\d_]*)?(?:[eE][+-]?\d+)?|(?<!\.)\.\d[\d_]*(?:[eE][+-]?\d+)?))"
)
_DOUBLE = r'"[^"\\]*(?:\\.[^"\\]*)*"?'
_SINGLE = r"'[^'\\]*(?:\\.[^'\\]*)*'?"

_RUST = lazy_regex(
    r"(?P<comment>//.*)"
    r'|(?P<string>b?r#*"[^"]*"#*|b?' + _DOUBLE + r"|b?'(?:[^'\\]|\\[^']{1,10})')"
    r"|'(?P<lifetime>[A-Za-z_]\w*)"
    r"|(?P<preproc>#!?\[.*?\]|#!?\[.*)"
    r"|" + _NUMBER + r"(?P<suffix>(?:[iu](?:8|16|32|64|128|size)|f32|f64)(?!\w))?|(?P<word>[A-Za-z_]\w*!?)"
)
_PYTHON = lazy_regex(
    r"(?P<comment>#.*)"
    r"|(?P<string>(?:(?<!\w)[rRbBuUfF]{1,2})?(?:\"\"\"(?:[^\"\\]|\\.|\"(?!\"\"))*(?:\"\"\")?"
    r"|'''(?:[^'\\]|\\.|'(?!''))*(?:''')?|" + _DOUBLE + "|" + _SINGLE + r"))"
    r"|(?P<decorator>(?<![\w)\]])@[A-Za-z_]\w*)"
    r"|" + _NUMBER + r"|(?P<word>[A-Za-z_]\w*)|(?P<error>[\u2018\u2019\u201c\u201d])"
)


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_RUST_KEYWORDS = _words(
    "as async await box break const continue crate dyn else extern false fn for if impl in let loop match mod "
    "move mut pub ref return static struct super trait true type union unsafe use where while yield"
)
_RUST_TYPES = _words("bool char str u8 u16 u32 u64 u128 usize i8 i16 i32 i64 i128 isize f32 f64 self")
_RUST_BUILTINS = _words(
    "Box Option Result Vec String Some None Ok Err Copy Send Sized Sync Drop Fn FnMut FnOnce Clone Default "
    "Eq PartialEq Ord PartialOrd Hash Debug Iterator IntoIterator Extend ToOwned ToString AsRef AsMut Into From "
    "DoubleEndedIterator ExactSizeIterator Unpin"
)
_RUST_NAMES_NEXT = {"fn": FUNCTION, "struct": CLASS, "enum": CLASS, "union": CLASS, "type": CLASS, "mod": NAMESPACE}

_PYTHON_KEYWORDS = _words(
    "as assert async await break class continue def del elif else except finally for from global if import "
    "lambda nonlocal pass raise return try while with yield True False None"
)
_PYTHON_OPERATOR_WORDS = _words("and or not in is")
_PYTHON_BUILTINS = _words(
    "abs all any ascii bin bool breakpoint bytearray bytes callable chr classmethod compile complex delattr dict "
    "dir divmod enumerate eval exec filter float format frozenset getattr globals hasattr hash help hex id input "
    "int isinstance issubclass iter len list locals map max memoryview min next object oct open ord pow print "
    "property range repr reversed round set setattr slice sorted staticmethod str sum super tuple type vars zip "
    "self cls Ellipsis NotImplemented"
)
_PYTHON_NAMES_NEXT = {"def": FUNCTION, "class": CLASS, "import": NAMESPACE, "from": NAMESPACE}
_PYTHON_MAGIC_METHODS = _words(
    "__init__ __new__ __del__ __call__ __enter__ __exit__ __repr__ __str__ __len__ __iter__ __next__ __getitem__ "
    "__setitem__ __delitem__ __contains__ __getattr__ __setattr__ __eq__ __hash__ __bool__ __post_init__"
)
_PYTHON_MAGIC_VARIABLES = _words("__name__ __file__ __doc__ __dict__ __class__ __module__ __all__ __slots__")
_COLOURS = {
    "comment": COMMENT,
    "string": STRING,
    "number": NUMBER,
    "suffix": KEYWORD,
    "preproc": TYPE,
    "decorator": DECORATOR,
    "error": ERROR,
}
_INTERPOLATION = lazy_regex(r"\{\{|\}\}|\{([^{}!:]*)([^{}]*)\}")
Pieces = list[tuple[str, "str | None"]]


def _rust_word(word: str, before: str, line: str) -> str | None:
    if word.endswith("!"):
        return FUNCTION  # a macro
    if word in _RUST_KEYWORDS:
        return KEYWORD
    if word in _RUST_TYPES or word in _RUST_BUILTINS:
        return TYPE
    if before in _RUST_NAMES_NEXT:
        return _RUST_NAMES_NEXT[before]
    if word == "Self" or before in (":", "->"):  # a type: `let x: Tensor<B, 2>`, `-> io::Result<()>`
        return CLASS
    return None


def _python_word(word: str, before: str, line: str) -> str | None:
    if word in _PYTHON_KEYWORDS:
        return KEYWORD
    if word in _PYTHON_OPERATOR_WORDS:
        return OPERATOR_WORD
    if before in ("def", "class"):
        return _PYTHON_NAMES_NEXT[before]
    if before in ("import", "from", ",", "as", ".") and line.lstrip().startswith(("import ", "from ")):
        # `import os, torch.nn as F`, `from .helpers import x`: the modules (not the names after from's import)
        in_from_names = " import " in line and line.lstrip().startswith("from ")
        return None if in_from_names else NAMESPACE
    if word in _PYTHON_MAGIC_METHODS:
        return FUNCTION
    if before == ".":  # an attribute: `x.sum()` is not the builtin
        return None
    if word in _PYTHON_BUILTINS or (word.endswith(("Error", "Exception", "Warning")) and word[:1].isupper()):
        return TYPE
    return MAGIC_VARIABLE if word in _PYTHON_MAGIC_VARIABLES else None


def _f_string(text: str) -> Pieces:
    """An f-string: the text and braces coloured as a string, the expressions in them not."""
    out: Pieces = []
    done = 0
    for field in _INTERPOLATION.finditer(text):
        if field.group(1) is None:
            continue
        out += [
            (text[done : field.start(1)], STRING),
            (field.group(1), None),
            (text[field.end(1) : field.end()], STRING),
        ]
        done = field.end()
    return [*out, (text[done:], STRING)]


def highlight(code: str, language: str) -> Pieces:
    """`code` (one line) in pieces, each with its SGR parameters or None; together they are `code`."""
    if language == "rust":
        regex, classify = _RUST, _rust_word
    elif language == "python":
        regex, classify = _PYTHON, _python_word
    else:
        return [(code, None)]
    out: Pieces = []
    done = 0
    word = ""  # the last word, for what the next one is (`fn` then a function's name)
    for token in regex.finditer(code):
        kind = token.lastgroup
        start, end = token.span()
        gap = code[done:start]
        if gap:
            dots = classify is _python_word and gap.strip() == "." and out and out[-1][1] == NAMESPACE
            out.append((gap, NAMESPACE if dots else None))
        text = token.group()
        if kind == "word":
            mark = gap.strip()
            before = "->" if mark.endswith("->") else "::" if mark.endswith("::") else mark[-1:] or word
            out.append((text, classify(text, before, code[:start])))
            word = text
        elif kind == "lifetime":
            out += [("'", None), (token.group(kind), TYPE)]
        elif kind == "string" and classify is _python_word and "f" in text[:2].lower() and text[:1] not in "\"'":
            out += _f_string(text)
        else:
            out.append((text, _COLOURS[kind] if kind else None))
        done = end
    if done < len(code):
        out.append((code[done:], None))
    return out
