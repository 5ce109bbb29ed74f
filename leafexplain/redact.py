"""Secrets out of all leafexplain shows: known token shapes and credentials replaced by a marker keeping their kind.

A documented table of shapes (docs/security.md: Secrets are redacted), not a general detector: detect-secrets
covers fewer of these kinds (no `hf_`, no `github_pat_`, no Authorization header) and its import
alone costs ~165 ms (it loads requests and multiprocessing), three times a whole explain run.

Each kind names literals found with every secret of its kind: a text without them costs a
substring search, and the kind's regex is compiled only when one is there. Each regex
starts where a lookbehind or a literal pins it, and every repetition in it is bounded or cannot
overlap the one before it, so a hostile line is still read in linear time. Kinds that read a
context (a key block, a URL's password, a header) run before the token shapes, so that a token
inside a URL is replaced once and counted once; a credential's name (`password=`, `"auth":`) and
a bare `Bearer` run last, so that a token shape there keeps its kind. A marker never matches
again, so redacting twice changes nothing.

Where a shape alone could be ordinary text (a word after `Bearer`, a value after `token=`), a check
of the secret's own characters decides: random tokens mix letter cases or letters and digits,
names and words do not.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import cache

from leafexplain.models import ErrorEvent, Frame
from leafexplain.named import NamedTuple
from leafexplain.regex import compiled, lazy_regex

MARK = "…[redacted]"
_FRESH = r"(?!…\[redacted\])"  # a context's value that is already a marker is left alone


def _mixed_case(secret: str) -> bool:
    """Random tokens mix upper and lower case; names like `hf_downloadcache...` do not."""
    return any(c.isupper() for c in secret) and any(c.islower() for c in secret)


def _classes(secret: str) -> int:
    """How many of lower case, upper case and digits the text holds."""
    return any(c.islower() for c in secret) + any(c.isupper() for c in secret) + any(c.isdigit() for c in secret)


def _random_looking(secret: str) -> bool:
    """A token body: letters with digits, or both cases (`Ab3…`, lower-case hex); not a word or a number."""
    return _classes(secret) >= 2


def _sk_key(secret: str) -> bool:
    """`sk-` keys are long (32 and more) and random: both cases and digits, or lower-case hex; a folder such
    as `sk-learn-experiments-2024` or `sk-Model2024_Final_v3` is neither."""
    if len(secret) < 32:
        return False
    return (_mixed_case(secret) and any(c.isdigit() for c in secret)) or (
        _classes(secret) == 2 and all(c in "0123456789abcdef" for c in secret)
    )


def _not_a_word(secret: str) -> bool:
    """A header's credential, not an English word after `Authorization:` (`Authorization: failed`)."""
    return not (secret.isalpha() and (secret.islower() or secret.isupper() or secret.istitle()))


_BASE64_RUN = lazy_regex("[A-Za-z0-9+/=]{16}")
_NOT_A_VALUE = ("$", "%", "{", "<", "/", ".", "*", "(")  # a variable, a template, a path, a mask


def _secret_value(secret: str) -> bool:
    """The value of a credential's name: 8 or more characters mixing letters and digits or both cases, not a
    variable (`$TOKEN`, `${{ secrets.X }}`), a path or a URL; `token_type=bearer`, `password=1` are not."""
    return len(secret) >= 8 and _random_looking(secret) and not secret.startswith(_NOT_A_VALUE) and "://" not in secret


def _key_block(secret: str) -> bool:
    """A private key's body: base64 lines (16 such characters in a row at least), not a sentence quoting its header."""
    return _BASE64_RUN.search(secret) is not None


class Kind(NamedTuple):
    """One kind of secret: the text kept before the marker (`keep`) and the secret replaced (`secret`)."""

    name: str
    triggers: tuple[str, ...]  # the text around a secret of this kind holds one of these
    pattern: str
    check: Callable[[str], bool] | None = None  # a further test of the secret's text
    folded: bool = False  # triggers and pattern in lower case, looked for in the text in lower case


_SCHEME = "(?i:bearer|token|basic|digest|bot)"  # an Authorization header's scheme, kept before the marker
# A URL parameter that holds a secret: its name is one of these words, alone or after a prefix and a separator
# (`access_token`, `X-Amz-Signature`, `client_secret`, `api-key`). Not `key` or `pass` alone: `?sort_key=`, `?pass=1`.
_PARAMETER = (
    r"(?i:(?:[a-z0-9_.-]{1,24}[_.-])?(?:token|secret|signature|password|passwd|pwd|credential|auth|sig"
    r"|(?:api|access|secret|private|client)[_-]?key|apikey))="
)
_PARAMETER_VALUE = _FRESH + r"(?P<secret>[^&#\s\"'<>…]{1,512})"

# A credential's name, then `=` or `:` (`password=…`, `X-Api-Key: …`, `"auth": "…"`, `\"token\": \"…\"`,
# `AWS_SECRET_ACCESS_KEY = "…"`), then its value. These patterns are lower case: they run on the text in
# lower case (same length, same places), where each starts with its literal and the engine jumps between them.
_NAME_END = r"(?![a-z0-9])\\?[\"']?[ \t]{0,4}[:=][ \t]{0,4}\\?[\"']?"
# The value, read once: a lookahead takes all of it, and no shorter part is tried (an atomic group, which
# Python 3.10 has not). It holds no `:` or `=` (base64 padding at its end aside): a name's separator never
# lies inside a value, so a value is never read again from a name inside it; a value followed by `=`, or by
# `:` and a space or quote, was a name (`TOKEN = "X-Api-Key: …"`): the credential is what follows. One followed
# by `:` and more is a value (`…/KEY=…/src/main.rs:3:5`).
_VALUE_END = r"(?=[\s\"'`\\,;&<>()\[\]{}…]|$)"
_FIELD_VALUE = (
    _FRESH
    + r"(?=(?P<secret>[^\s\"'`\\,;&<>=:()\[\]{}…]{1,1024}))(?P=secret)(?:={1,2}"
    + _VALUE_END
    + r")?(?!=|:(?:[\s\"'\\]|$))"
)
_KEY_NAMES = "|".join(
    f"(?<={word}{joint}key)"
    for word in ("api", "access", "secret", "private", "account", "signing", "encryption", "master", "client")
    for joint in ("", "_", "-")
)


def _field(name: str) -> str:
    return "(?P<keep>" + name + _NAME_END + ")" + _FIELD_VALUE


# A URL's password: up to the last `@` before the path, else with `/`, `#` in it, else with spaces in it;
# not a port (`http://localhost:8080/a@b`).
_PASSWORD = (
    r"(?!\d{1,5}(?:[/?#\s\"'<>]|$))(?P<secret>[^\s/?#\"'<>]{1,256}(?=@)|[^\s\"'<>]{1,256}(?=@)"
    r"|[^\s\"'<>]{1,64}(?: [^\s\"'<>]{1,64}){1,3}(?=@[A-Za-z0-9\[]))"
)


def _token(prefix: str, before: str, body: str) -> str:
    """A token shape: its literal prefix first (so the regex engine jumps between its occurrences),
    not glued to a word before it, then its body."""
    return f"(?P<keep>{prefix})(?<!{before}{prefix})(?P<secret>{body})"


_WORD = "[A-Za-z0-9_-]"
KINDS: tuple[Kind, ...] = (
    Kind(
        "private-key",
        ("PRIVATE KEY",),
        r"(?P<keep>-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----)(?P<secret>(?:[^-]|-(?!----)){1,16384})",
        check=_key_block,
    ),
    Kind(
        "url-credentials",
        ("://",),
        r"(?P<keep>://(?<=[A-Za-z]://)[^\s:/?#@\[\]\"'<>]{0,256}:)" + _FRESH + _PASSWORD,
    ),
    # One literal each, `?` and `&`: a class `[?&]` would make the engine try every position of the text.
    Kind("url-secret-parameter", ("?",), r"(?P<keep>\?" + _PARAMETER + ")" + _PARAMETER_VALUE, _secret_value),
    Kind("url-secret-parameter", ("&",), r"(?P<keep>&" + _PARAMETER + ")" + _PARAMETER_VALUE, _secret_value),
    Kind(
        "authorization-header",
        ("uthorization", "UTHORIZATION"),
        r"(?P<keep>\b(?i:authorization)\\?[\"']?[ \t]{0,4}[:=][ \t]{0,4}\\?[\"']?(?:"  # on one line
        + _SCHEME
        + r"[ \t]{1,4})?)"
        + _FRESH
        + r"(?!"
        + _SCHEME
        + r"\s)(?P<secret>[^\s\"'\\,;]{4,})",
        check=_not_a_word,
    ),
    Kind(
        "slack-webhook",
        ("hooks.slack.com/",),
        r"(?P<keep>hooks\.slack\.com/(?:services|workflows|triggers)/)(?P<secret>[A-Za-z0-9/_-]{8,512})",
    ),
    Kind(
        "discord-webhook",
        ("/api/webhooks/",),
        r"(?P<keep>(?<=discord\.com)/api/webhooks/|(?<=discordapp\.com)/api/webhooks/)"
        r"(?P<secret>[0-9]{5,24}/[A-Za-z0-9_-]{20,256})",
    ),
    Kind("github-pat", ("github_pat_",), _token("github_pat_", "[A-Za-z0-9_]", "[A-Za-z0-9_]{22,}")),
    Kind(
        "github-token",
        ("gh",),  # one search for the five prefixes: the regex then finds them as fast
        _token("gh[pousr]_", "[A-Za-z0-9_]", "[A-Za-z0-9]{30,}"),
    ),
    Kind(
        "gitlab-token",
        ("gl",),
        f"(?P<keep>gl(?<!{_WORD}gl)(?:pat|dt|rt|ptt|cbt|oas|ft)-)(?P<secret>[A-Za-z0-9_-]{{20,}})",
        _random_looking,
    ),
    Kind("aws-access-key", ("AKIA", "ASIA"), _token("A[KS]IA", "[A-Za-z0-9]", "[A-Z0-9]{16}") + "(?![A-Za-z0-9])"),
    Kind("google-api-key", ("AIza",), _token("AIza", "[A-Za-z0-9_-]", "[A-Za-z0-9_-]{35}") + "(?![A-Za-z0-9_-])"),
    Kind("huggingface-token", ("hf_",), _token("hf_", "[A-Za-z0-9_]", "[A-Za-z0-9]{30,}"), check=_mixed_case),
    Kind("sk-api-key", ("sk-",), _token("sk-", _WORD, "[A-Za-z0-9_-]{20,}"), check=_sk_key),
    Kind(
        "stripe-key",
        ("_live_", "_test_"),
        _token("(?:sk|rk)_(?:live|test)_", "[A-Za-z0-9_]", "[A-Za-z0-9]{16,}"),
        _random_looking,
    ),
    Kind("slack-token", ("xox", "xapp-"), _token("x(?:ox[abposre]|app)-", "[A-Za-z0-9]", "[A-Za-z0-9-]{10,}")),
    Kind(
        "npm-token", ("npm_",), _token("npm_", "[A-Za-z0-9_]", "[A-Za-z0-9]{36}") + "(?![A-Za-z0-9_])", _random_looking
    ),
    Kind("pypi-token", ("pypi-AgE",), _token("pypi-", "[A-Za-z0-9_-]", "AgE[A-Za-z0-9_-]{50,}")),
    Kind("sendgrid-key", ("SG.",), _token(r"SG\.", "[A-Za-z0-9_.-]", r"[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{30,64}")),
    Kind("shopify-token", ("shp",), _token("shp(?:at|ca|pa|ss)_", "[A-Za-z0-9_]", "[a-fA-F0-9]{32}")),
    Kind(
        "databricks-token",
        ("dapi",),
        _token("dapi", "[A-Za-z0-9_]", "[a-f0-9]{32}(?:-[0-9])?") + "(?![A-Za-z0-9])",
        _random_looking,
    ),
    Kind("twilio-key", ("SK",), _token("SK", "[A-Za-z0-9_]", "[a-f0-9]{32}") + "(?![A-Za-z0-9])", _random_looking),
    Kind("jwt", ("eyJ",), _token("eyJ", "[A-Za-z0-9_-]", r"[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]*")),
    Kind(
        "bearer-token",
        ("bearer",),
        r"(?P<keep>bearer(?<![a-z0-9_]bearer)[ \t]{1,4})" + _FRESH + r"(?P<secret>[a-z0-9._~+/-]{12,1024}={0,2})",
        check=_random_looking,
        folded=True,
    ),
    *(
        Kind("credential-field", (literal,), _field(name), check=_secret_value, folded=True)
        for literal, name in (
            ("token", "token"),
            ("secret", "secret"),
            ("pass", "pass(?:word|wd|phrase)"),
            ("pwd", "pwd"),
            ("credential", "credentials?"),
            ("auth", "auth"),
            ("key", "key(?:" + _KEY_NAMES + ")"),  # `api_key`, `AccountKey`, not `sort_key`
            ("session", "session(?:[_-]?id)?"),
        )
    ),
)
KIND_NAMES = tuple(dict.fromkeys(kind.name for kind in KINDS))
_TRIGGERS = tuple(dict.fromkeys(t for kind in KINDS if not kind.folded for t in kind.triggers))
_FOLDED_TRIGGERS = tuple(dict.fromkeys(t for kind in KINDS if kind.folded for t in kind.triggers))


@cache
def _compiled(index: int, flags: int = 0) -> re.Pattern[str]:
    return compiled(KINDS[index].pattern, flags)


Counts = tuple[tuple[str, int], ...]  # (kind, how many), in the order of KINDS


class Redactor:
    """Replaces secrets in each text it is given, and counts them by kind (never keeping a value). `distinct`: a
    secret met again (one folder in the workspace and in each path under it) is not counted again (by its hash)."""

    def __init__(self, *, distinct: bool = False) -> None:
        self.found: dict[str, int] = {}
        self.counted: set[int] | None = set() if distinct else None  # the hashes of the secrets counted
        self.seen: dict[str, str] = {}  # texts of events already redacted (`event`), and what they became
        self.frames: dict[int, tuple[tuple[Frame, ...], tuple[Frame, ...]]] = {}  # the same, for frames tuples

    def __call__(self, text: str) -> str:
        # Each trigger looked for once (kinds share them: `key`, `://`), and the text lowered only for the
        # triggers of the kinds that are case-blind: most texts hold none, and pass in a few scans.
        present = {t for t in _TRIGGERS if t in text}
        folded: str | None = text.lower()
        present_folded = {t for t in _FOLDED_TRIGGERS if t in folded}
        if not present and not present_folded:
            return text
        for index, kind in enumerate(KINDS):
            if not kind.folded:
                if any(t in present for t in kind.triggers):
                    text = _compiled(index).sub(self._replacer(kind), text)
                    folded = None
                continue
            if not any(t in present_folded for t in kind.triggers):
                continue
            if folded is None:
                folded = text.lower()
            if any(t in folded for t in kind.triggers):
                replaced = self._folded(index, kind, text, folded)
                if replaced is not text:
                    text, folded = replaced, None
        return text

    def event(self, event: ErrorEvent) -> ErrorEvent:
        """The event with its secrets replaced in every text it holds (message, frames, test and thread names, a
        compiler's detail: a linker's note holds its whole command line).
        A text met before is not looked through again: a long log repeats the same frames and messages."""
        seen = self.seen

        def clean(text: str | None) -> str | None:
            if not text:
                return text
            done = seen.get(text)
            if done is None:
                done = seen[text] = self(text)
            return done

        def frame(f: Frame | None) -> Frame | None:
            if f is None:
                return None
            file, function, code = clean(f.file), clean(f.function), clean(f.code)
            if (file, function, code) == (f.file, f.function, f.code):
                return f
            return f._replace(file=file, function=function, code=code)

        frames = self.frames.get(id(event.frames))
        if frames is None or frames[0] is not event.frames:  # copies of one error share their frames
            cleaned = tuple(map(frame, event.frames))
            kept = event.frames if cleaned == event.frames else cleaned
            frames = self.frames[id(event.frames)] = (event.frames, kept)
        changed = (
            clean(event.message),
            frame(event.location),
            frames[1],
            frame(event.user_frame),
            clean(event.test),
            clean(event.thread),
            tuple(map(clean, event.detail)),
        )
        kept = (event.message, event.location, event.frames, event.user_frame, event.test, event.thread, event.detail)
        if changed == kept:
            return event  # nothing secret in it: the event as it was
        message, location, new_frames, user, test, thread, detail = changed
        return event._replace(
            message=message,
            location=location,
            frames=new_frames,
            user_frame=user,
            test=test,
            thread=thread,
            detail=detail,
        )

    def _replacer(self, kind: Kind) -> Callable[[re.Match[str]], str]:
        def replace(match: re.Match[str]) -> str:
            if kind.check is not None and not kind.check(match.group("secret")):
                return match.group(0)
            self._count(kind, match.group("secret"))
            return match.group("keep") + MARK

        return replace

    def _folded(self, index: int, kind: Kind, text: str, folded: str) -> str:
        """A lower-case pattern's matches in the lower-case text, replaced in the text itself (the same places:
        lowering changed no length; where it did, as rare as `İ`, the pattern ignores case on the text)."""
        if len(folded) == len(text):
            matches = _compiled(index).finditer(folded)
        else:
            matches = _compiled(index, re.IGNORECASE).finditer(text)
        pieces: list[str] = []
        done = 0
        for match in matches:
            start, end = match.span()
            if kind.check is not None and not kind.check(text[match.start("secret") : match.end("secret")]):
                continue
            self._count(kind, text[match.start("secret") : match.end("secret")])
            pieces += (text[done:start], text[start : match.end("keep")], MARK)
            done = end
        if not pieces:
            return text
        pieces.append(text[done:])
        return "".join(pieces)

    def _count(self, kind: Kind, secret: str) -> None:
        if self.counted is None or hash(secret) not in self.counted:
            self.found[kind.name] = self.found.get(kind.name, 0) + 1
        if self.counted is not None:
            self.counted.add(hash(secret))

    def counts(self) -> Counts:
        return tuple((name, self.found[name]) for name in KIND_NAMES if name in self.found)


def redact(text: str) -> str:
    """`text` with every secret replaced (diagnostics, a command line): the counts are not kept."""
    return Redactor()(text)


def merge(*counts: Sequence[tuple[str, int]]) -> Counts:
    """Counts added up by kind."""
    total: dict[str, int] = {}
    for pairs in counts:
        for name, number in pairs:
            total[name] = total.get(name, 0) + number
    return tuple((name, total[name]) for name in KIND_NAMES if name in total)


class RedactedSoFar(Sequence[tuple[str, int]]):
    """`Report.redacted` as more is redacted after the input: the counts before, and a Redactor's still at work (the
    lines read from this machine, the cache's when a view reads them, an output's paths), added up when read."""

    __slots__ = ("_before", "_redactor")

    def __init__(self, before: Sequence[tuple[str, int]] | None, redactor: Redactor) -> None:
        self._before, self._redactor = () if before is None else before, redactor  # not `or`: it may be lazy too

    def _counts(self) -> Counts:
        return merge(self._before, self._redactor.counts())

    def __len__(self) -> int:
        return len(self._counts())

    def __getitem__(self, index: int) -> tuple[str, int]:  # type: ignore[override]
        return self._counts()[index]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sequence) and self._counts() == tuple(other)

    def __hash__(self) -> int:
        return hash(self._counts())
