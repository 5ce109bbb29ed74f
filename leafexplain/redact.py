"""Secrets out of all leafexplain shows: known token shapes and credentials replaced by a marker keeping their kind.

A documented table of shapes (README: Secrets are redacted), not a general detector: detect-secrets
covers fewer of these kinds (no `hf_`, no `github_pat_`, no Authorization header) and its import
alone costs ~165 ms (it loads requests and multiprocessing), three times a whole explain run.

Each kind names literals found with every secret of its kind: a text without them costs a
substring search, and the kind's regex is compiled only when one is there. Each regex
starts where a lookbehind or a literal pins it, with no nested repetition, so a hostile line is
still read in linear time. Kinds that read a context (a URL's password, a header) run before the
token shapes, so that a token inside a URL is replaced once and counted once; a marker never
matches again, so redacting twice changes nothing.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache

from leafexplain.named import NamedTuple

MARK = "…[redacted]"
_FRESH = r"(?!…\[redacted\])"  # a context's value that is already a marker is left alone


def _mixed_case(secret: str) -> bool:
    """Random tokens mix upper and lower case; names like `hf_downloadcache...` do not."""
    return any(c.isupper() for c in secret) and any(c.islower() for c in secret)


def _random_looking(secret: str) -> bool:
    """`sk-` keys mix case and digits; a path such as `sk-learn-experiments-2024` does not."""
    return _mixed_case(secret) and any(c.isdigit() for c in secret)


def _not_a_word(secret: str) -> bool:
    """A header's credential, not an English word after `Authorization:` (`Authorization: failed`)."""
    return not (secret.isalpha() and (secret.islower() or secret.isupper() or secret.istitle()))


class Kind(NamedTuple):
    """One kind of secret: the text kept before the marker (`keep`) and the secret replaced (`secret`)."""

    name: str
    triggers: tuple[str, ...]  # the text around a secret of this kind holds one of these
    pattern: str
    check: Callable[[str], bool] | None = None  # a further test of the secret's text


_SCHEME = "(?i:bearer|token|basic|digest|bot)"  # an Authorization header's scheme, kept before the marker
# A URL parameter that holds a secret: its name is one of these words, alone or after a prefix and a separator
# (`access_token`, `X-Amz-Signature`, `client_secret`, `api-key`).
_PARAMETER = (
    r"(?i:(?:[a-z0-9_.-]{1,24}[_.-])?(?:token|secret|signature|password|passwd|credential|api[_-]?key|apikey"
    r"|pwd|pass|sig|key))="
)
_PARAMETER_VALUE = _FRESH + r"(?P<secret>[^&#\s\"'<>]{1,512})"


def _token(prefix: str, before: str, body: str) -> str:
    """A token shape: its literal prefix first (so the regex engine jumps between its occurrences),
    not glued to a word before it, then its body."""
    return f"(?P<keep>{prefix})(?<!{before}{prefix})(?P<secret>{body})"


KINDS: tuple[Kind, ...] = (
    Kind(
        "url-credentials",
        ("://",),
        r"(?P<keep>://(?<=[A-Za-z]://)[^\s:/?#@\"'<>]{0,256}:)" + _FRESH + r"(?P<secret>[^\s/?#@\"'<>]{1,256})(?=@)",
    ),
    # One literal each, `?` and `&`: a class `[?&]` would make the engine try every position of the text.
    Kind("url-secret-parameter", ("?",), r"(?P<keep>\?" + _PARAMETER + ")" + _PARAMETER_VALUE),
    Kind("url-secret-parameter", ("&",), r"(?P<keep>&" + _PARAMETER + ")" + _PARAMETER_VALUE),
    Kind(
        "authorization-header",
        ("uthorization", "UTHORIZATION"),
        r"(?P<keep>\b(?i:authorization)[\"']?[ \t]{0,4}[:=][ \t]{0,4}[\"']?(?:"  # on one line
        + _SCHEME
        + r"[ \t]{1,4})?)"
        + _FRESH
        + r"(?!"
        + _SCHEME
        + r"\s)(?P<secret>[^\s\"',;]{4,})",
        check=_not_a_word,
    ),
    Kind("github-pat", ("github_pat_",), _token("github_pat_", "[A-Za-z0-9_]", "[A-Za-z0-9_]{22,}")),
    Kind(
        "github-token",
        ("gh",),  # one search for the five prefixes: the regex then finds them as fast
        _token("gh[pousr]_", "[A-Za-z0-9_]", "[A-Za-z0-9]{30,}"),
    ),
    Kind("aws-access-key", ("AKIA", "ASIA"), _token("A[KS]IA", "[A-Za-z0-9]", "[A-Z0-9]{16}") + "(?![A-Za-z0-9])"),
    Kind("huggingface-token", ("hf_",), _token("hf_", "[A-Za-z0-9_]", "[A-Za-z0-9]{30,}"), check=_mixed_case),
    Kind("sk-api-key", ("sk-",), _token("sk-", "[A-Za-z0-9_-]", "[A-Za-z0-9_-]{20,}"), check=_random_looking),
    Kind("slack-token", ("xox",), _token("xox[abposr]-", "[A-Za-z0-9]", "[A-Za-z0-9-]{10,}")),
    Kind("jwt", ("eyJ",), _token("eyJ", "[A-Za-z0-9_-]", r"[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]*")),
)
KIND_NAMES = tuple(dict.fromkeys(kind.name for kind in KINDS))


@cache
def _compiled(index: int) -> re.Pattern[str]:
    return re.compile(KINDS[index].pattern)


Counts = tuple[tuple[str, int], ...]  # (kind, how many), in the order of KINDS


class Redactor:
    """Replaces secrets in each text it is given, and counts them by kind (never keeping a value)."""

    def __init__(self) -> None:
        self.found: dict[str, int] = {}

    def __call__(self, text: str) -> str:
        for index, kind in enumerate(KINDS):
            if any(t in text for t in kind.triggers):
                text = _compiled(index).sub(self._replacer(kind), text)
        return text

    def _replacer(self, kind: Kind) -> Callable[[re.Match[str]], str]:
        def replace(match: re.Match[str]) -> str:
            if kind.check is not None and not kind.check(match.group("secret")):
                return match.group(0)
            self.found[kind.name] = self.found.get(kind.name, 0) + 1
            return match.group("keep") + MARK

        return replace

    def counts(self) -> Counts:
        return tuple((name, self.found[name]) for name in KIND_NAMES if name in self.found)


def redact(text: str) -> str:
    """`text` with every secret replaced (diagnostics, a command line): the counts are not kept."""
    return Redactor()(text)


def merge(*counts: Counts) -> Counts:
    """Counts added up by kind."""
    total: dict[str, int] = {}
    for pairs in counts:
        for name, number in pairs:
            total[name] = total.get(name, 0) + number
    return tuple((name, total[name]) for name in KIND_NAMES if name in total)
