"""No wrong answers: a wording is the error of the place it comes from, the parser's errors are not the runtime's,
and a record of a class as such is for that class and only where the text is Python's."""

from __future__ import annotations

from pathlib import Path

import pytest

from leafexplain import session
from leafexplain.match import same_class
from leafexplain.match.place import another_librarys_class, is_elsewhere, owner
from leafexplain.models import ErrorEvent, Frame, Limits
from tests.conftest import load_bundled_matcher

MATCHER = load_bundled_matcher()
PASTES = Path(__file__).parent / "pastes"  # real pastes, their sources in pastes/README.md
SITE = "/usr/lib/python3.11/site-packages"


def findings(name: str):
    return session.explain((PASTES / name).read_bytes(), MATCHER, Limits(), pasted=True).findings


def best_slug(event: ErrorEvent) -> str | None:
    found = MATCHER.match(event)
    return found.matches[0].record.slug if found.matches else None


def test_a_librarys_class_whose_message_holds_a_std_wording_is_not_the_std_error() -> None:
    """urllib3's NewConnectionError and MaxRetryError carry CPython's `[Errno 111] Connection refused` in their own
    message: the errno record is never the answer (before the rule, it explained both)."""
    events = findings("urllib3-maxretry-errno111-2018.txt")
    assert [f.event.error_type for f in events] == [
        "urllib3.exceptions.NewConnectionError",
        "urllib3.exceptions.MaxRetryError",
    ]
    for finding in events:
        # urllib3's own records explain them (when they came, after the rule); CPython's errno record never does.
        assert finding.best is None or finding.best.record.repo == "urllib3/urllib3"
        errno = [c for c in (*finding.matches, *finding.near) if c.record.slug == "errno-111-connection-refused"]
        assert all(c is not finding.best for c in errno)
        assert all(any("urllib3's" in reason for reason in c.reasons) for c in errno)


def test_the_std_error_itself_is_still_the_std_records() -> None:
    refused = ErrorEvent("python", "ConnectionRefusedError", "[Errno 111] Connection refused")
    assert best_slug(refused) == "errno-111-connection-refused"
    # Raised by CPython's interpreter from a library's frame (a list indexed in transformers): still CPython's.
    indexed = ErrorEvent(
        "python", "IndexError", "list index out of range", location=Frame(f"{SITE}/transformers/trainer.py", 10)
    )
    assert best_slug(indexed) == "list-index-out-of-range"


def test_a_standard_library_class_raised_by_a_library_says_nothing_of_the_place() -> None:
    """torch raises pickle's UnpicklingError with its own message: the class is anyone's, its frame decides."""
    event = ErrorEvent("python", "_pickle.UnpicklingError", "x", location=Frame(f"{SITE}/torch/serialization.py", 1633))
    assert owner(event) == ("raising frame", "torch")
    assert is_elsewhere(event, "pytorch/pytorch", lambda: "torch/serialization.py") is None
    assert (
        is_elsewhere(event, "python/cpython", lambda: "Lib/pickle.py")
        == "raising frame is torch's, not python/cpython's"
    )


def test_a_raising_frame_counts_only_against_a_raise_in_python_code() -> None:
    """The interpreter and a library's C++ raise from whatever Python frame called them; the import system's frames
    are taken out of the traceback. A `raise` in a library's .py shows that file as the innermost frame."""
    event = ErrorEvent("python", "RuntimeError", "x", location=Frame(f"{SITE}/lightning/trainer.py", 1))
    assert is_elsewhere(event, "pytorch/pytorch", lambda: "aten/src/ATen/native/Linear.cpp") is None
    assert is_elsewhere(event, "python/cpython", lambda: "Lib/importlib/_bootstrap.py") is None
    assert is_elsewhere(event, "pytorch/pytorch", lambda: "torch/nn/modules/module.py") is not None
    users = ErrorEvent("python", "RuntimeError", "x", location=Frame("/home/me/train.py", 1))
    assert owner(users) is None  # the user's own frame says nothing
    own_package = ErrorEvent("python", "app.errors.ConfigError", "x", location=Frame("/home/me/app/errors.py", 1))
    assert owner(own_package) is None  # nor a class of the user's own package


def test_a_syntax_errors_unicode_error_is_its_own_error() -> None:
    """The parser's `(unicode error)` is a SyntaxError about the source text (a Windows path's \\U), not data that
    failed to decode: its own record explains it, and no UnicodeDecodeError record does."""
    (finding,) = findings("twitchtube-unicode-error-2021.txt")
    assert finding.event.error_type == "SyntaxError"
    assert finding.best is not None
    assert finding.best.record.slug == "unicode-error-unicodeescape-codec-can-t-decode-byt"
    assert finding.best.method == "regex" and finding.best.score == 100
    source = ErrorEvent(
        "python", "SyntaxError", "(unicode error) 'utf-8' codec can't decode byte 0xff in position 0: x"
    )
    found = MATCHER.match(source)
    assert found.matches[0].record.slug == "unicode-error-unicodeescape-codec-can-t-decode-byt"
    assert all(m.record.errorClass != "UnicodeDecodeError" for m in found.matches)


def test_a_runtime_error_is_not_explained_by_a_parsers_record_nor_the_other_way() -> None:
    decoding = ErrorEvent("python", "UnicodeDecodeError", "'utf-8' codec can't decode byte 0xff in position 0: x")
    assert best_slug(decoding) == "utf-8-codec-can-t-decode-byte-0xff-in-position-0-i"
    not_parsed = ErrorEvent("python", "RuntimeError", "unterminated string literal (detected at line 1)")
    assert best_slug(not_parsed) != "unterminated-string-literal-detected-at-line-1"


@pytest.mark.parametrize(
    "message",
    [
        "/ may appear only once",  # not `* argument may appear only once`
        "f-string: cannot use double starred expression here",  # not `cannot use starred expression here`
    ],
)
def test_a_parsers_message_near_another_of_its_records_is_not_that_error(message: str) -> None:
    """The parser's messages are fixed sentences: one no record words is another of its errors, whatever words it
    shares with a record's. Its class's record explains it, and the near wording is a near candidate at most."""
    where = Frame("/home/u/app/train.py", 12)  # the file the parser read, as its traceback names it
    found = MATCHER.match(ErrorEvent("python", "SyntaxError", message, location=where, frames=(where,)))
    assert [m.method for m in found.matches] == ["class"]
    assert found.matches[0].record.slug == "class-syntaxerror"
    assert all(c.score <= 60 for c in found.near)


@pytest.mark.parametrize(
    ("printed", "record_class", "same"),
    [
        ("ConnectionError", "ConnectionError", True),
        ("builtins.ConnectionError", "ConnectionError", True),
        ("requests.exceptions.ConnectionError", "ConnectionError", False),  # a library's class of that name
        ("requests.exceptions.ConnectionError", "requests.exceptions.ConnectionError", True),
        ("torch.cuda.OutOfMemoryError", "torch.OutOfMemoryError", True),  # one class, two module paths
        ("json.decoder.JSONDecodeError", "json.JSONDecodeError", True),
        ("requests.exceptions.JSONDecodeError", "json.JSONDecodeError", False),
        ("CalledProcessError", "subprocess.CalledProcessError", True),  # IPython prints the name alone
        ("ConnectionError", "requests.exceptions.ConnectionError", False),  # the name alone is the built-in's
        ("ValueError", None, False),
    ],
)
def test_which_class_a_class_record_is_for(printed: str, record_class: str | None, same: bool) -> None:
    assert same_class(printed, record_class) is same


def test_a_class_record_needs_python_around_a_class_other_languages_print() -> None:
    """`TypeError: Cannot read properties of undefined` alone is JavaScript's as likely as Python's."""
    alone = ErrorEvent("python", "TypeError", "Cannot read properties of undefined (reading 'map')")
    assert MATCHER.match(alone).matches == ()
    traced = alone._replace(location=Frame("/home/me/app.py", 3))
    assert best_slug(traced) == "class-typeerror"
    assert best_slug(ErrorEvent("python", "LookupError", "unknown error handler name 'skip'")) == "class-lookuperror"


def test_a_guess_is_never_an_error_by_its_class_alone() -> None:
    """A warning in a log is kept only when a record of its words explains it."""
    logged = ErrorEvent("python", "UserWarning", "something odd", location=Frame("/home/me/app.py", 3), tentative=True)
    assert MATCHER.match(logged).matches == ()
    assert best_slug(logged._replace(tentative=False)) == "class-userwarning"


def test_words_in_common_with_a_record_come_before_the_record_of_the_class() -> None:
    reworded = ErrorEvent(
        "python",
        "RuntimeError",
        "Expected all tensors to be on the same device, found two: cuda:0, cpu",
        location=Frame("/home/me/train.py", 3),
    )
    found = MATCHER.match(reworded)
    assert found.matches[0].method == "fuzzy"
    assert found.matches[0].record.slug.startswith("expected-all-tensors-to-be-on-the-same-device")


def test_a_warning_raised_as_an_error_is_an_error() -> None:
    """`-W error` (pytest's filterwarnings = error) raises a warning with its traceback: the run ended on it."""
    text = (
        "Traceback (most recent call last):\n"
        '  File "/home/me/app.py", line 3, in <module>\n'
        '    warnings.warn("the default of normalize will change", FutureWarning)\n'
        "FutureWarning: the default of normalize will change\n"
    )
    (finding,) = session.explain(text.encode(), MATCHER, Limits(), pasted=True).findings
    assert not finding.event.tentative
    assert finding.best is not None and finding.best.record.slug == "class-futurewarning"
    logged = "/home/me/app.py:3: FutureWarning: the default of normalize will change\n  x = f()\n"
    assert session.explain(logged.encode(), MATCHER, Limits(), pasted=True).findings == ()


def test_a_record_that_names_no_file_is_matched_when_the_raising_frame_is_another_librarys() -> None:
    """A user's record may leave `filePath` out: the place rule then has no frame of its own to weigh, and the
    wording still explains the error (it once stopped the run with an internal error)."""
    from leafexplain.match import Matcher
    from tests.conftest import as_record, make_record

    record = as_record(
        make_record(message="widget count must be positive, got {n}", errorType="exception", errorClass="ValueError")
    )
    assert record.filePath is None
    text = (
        "Traceback (most recent call last):\n"
        '  File "/home/u/proj/main.py", line 3, in <module>\n'
        "    frobnicate(-3)\n"
        '  File "/venv/lib/python3.11/site-packages/widgetlib/core.py", line 11, in frobnicate\n'
        "    raise ValueError(\n"
        "ValueError: widget count must be positive, got -3\n"
    )
    report = session.explain(text.encode(), Matcher([record]), Limits())
    assert report.findings[0].best is not None and report.findings[0].best.record.id == record.id


@pytest.mark.parametrize(
    "name",
    [
        "numpy-getattr-git-version-2024.txt",  # numpy's module __getattr__, its `raise` shown
        "numpy-getattr-warnings-2025.txt",  # the same on Windows
        "torch-module-getattr-raise-2025.txt",  # nn.Module.__getattr__'s f-string `raise`
        "torch-module-getattr-continued-2023.txt",  # its older `raise`, the line shown its continuation
    ],
)
def test_a_librarys_own_raise_of_a_standard_wording_is_not_the_interpreters_error(name: str) -> None:
    """numpy's and torch's `__getattr__` raise AttributeError in CPython's words (`module 'numpy' has no attribute
    …`, `'A' object has no attribute …`); CPython's records are of its C lookup, which did not raise it: they are
    no exact match (before the rule, each was CPython's 100), and the library's own record answers."""
    (finding,) = findings(name)
    assert finding.event.error_type == "AttributeError"
    assert finding.best is not None and finding.best.method == "regex"
    assert finding.best.record.repo == ("numpy/numpy" if name.startswith("numpy") else "pytorch/pytorch")
    # What the wording scores, the cut-off lowered to show it.
    matches = MATCHER.match(finding.event, threshold=50).matches
    cpython = [c for c in matches if c.method == "regex" and c.record.repo == "python/cpython"]
    assert cpython and all(c.score < 85 for c in cpython)
    assert all(any("raising frame's own raise is" in reason for reason in c.reasons) for c in cpython)


def test_an_own_raise_counts_only_for_the_frame_that_raised() -> None:
    site = f"{SITE}/torch/nn/modules/module.py"
    raised = ErrorEvent(
        "python",
        "AttributeError",
        "'A' object has no attribute 'foo'",
        location=Frame(site, 1729, function="__getattr__", code='raise AttributeError(f"…")'),
    )
    assert owner(raised) == ("raising frame's own raise", "torch")
    assert is_elsewhere(raised, "python/cpython", lambda: "Objects/object.c") == (
        "raising frame's own raise is torch's, not python/cpython's"
    )
    # A `raise` in Python code of a wording also raised in Python (a copy): the frame ranks its own first, no more.
    assert (
        is_elsewhere(raised, "python/cpython", lambda: "Lib/pickle.py")
        == "raising frame is torch's, not python/cpython's"
    )
    # The interpreter raising from a library's line (an attribute read on None inside torch): CPython's error.
    looked_up = raised._replace(location=Frame(site, 10, function="forward", code="return x.shape"))
    assert owner(looked_up) == ("raising frame", "torch")
    assert is_elsewhere(looked_up, "python/cpython", lambda: "Objects/object.c") is None
    # A bare `raise` re-raises what another raised.
    reraised = raised._replace(location=Frame(site, 10, function="load", code="raise"))
    assert is_elsewhere(reraised, "python/cpython", lambda: "Objects/object.c") is None
    # `__getattr__` ends in an AttributeError of its own; another class from it may come from anything it called.
    hooked = raised._replace(location=Frame(site, 10, function="__getattr__", code='"{!r}".format(__name__, attr))'))
    assert owner(hooked) == ("raising frame's own raise", "torch")
    handed_on = hooked._replace(location=Frame(site, 10, function="__getattr__", code="return getattr(self.obj, name)"))
    assert owner(handed_on) == ("raising frame", "torch")
    keyed = hooked._replace(error_type="KeyError", message="'x'")
    assert owner(keyed) == ("raising frame", "torch")


@pytest.mark.parametrize(
    "name",
    [
        "cargo2junit-assert-eq-2023.txt",  # assert_eq! of Rust before 1.73
        "cargo2junit-assert-eq-2025.txt",  # and after it
        "cargo-atcoder-assert-checkout-2020.txt",  # a git dependency's checkout
    ],
)
def test_a_crates_bare_assertion_is_still_stds_assert_record(name: str) -> None:
    """std's assertion records are for any code's assert_eq!: a crate's, printing only its values, too."""
    (finding,) = findings(name)
    assert finding.best is not None and finding.best.record.slug == "assertion-left-right-failed-left-3-right-2"


def test_a_crates_own_message_in_stds_assertion_is_the_crates_error() -> None:
    """`assert_eq!(a, b, "ShaderModule[0] is no longer alive")` in wgpu-core: what failed is the crate's own
    message; std's assertion records explain only the form around it, no match (in both of std's layouts)."""
    checkout = Frame("/Users/me/.cargo/git/checkouts/wgpu-53e70f8674b08dd4/988990c/wgpu-core/src/hub.rs", 169, 9)
    old = ErrorEvent(
        "rust",
        "panic",
        "assertion failed: `(left == right)`\n  left: `0`,\n right: `1`: ShaderModule[0] is no longer alive",
        location=checkout,
    )
    new = old._replace(
        message="assertion `left == right` failed: ShaderModule[0] is no longer alive\n  left: 0\n right: 1"
    )
    for event in (old, new):
        found = MATCHER.match(event)
        assert all(c.record.repo != "rust-lang/rust" for c in found.matches)  # wgpu's own record may answer
        std = [c for c in found.near if c.record.repo == "rust-lang/rust"]
        assert found.matches or std  # with no match, std's record stands near, saying why
        assert all("wgpu-core's, its own message in rust-lang/rust's assertion" in c.reasons[-1] for c in std)
        # The same assertion in the user's own code is std's record's.
        assert (
            best_slug(
                event._replace(
                    message=event.message.replace("ShaderModule[0] is no longer alive", "the batch sizes differ"),
                    location=Frame("src/main.rs", 3, 5),
                )
            )
            == "assertion-left-right-failed-left-3-right-2"
        )


@pytest.mark.parametrize("name", ["ruffle-gc-arena-borrowmut-2020.txt", "cargo-update-borrowmut-2024.txt"])
def test_std_raising_for_a_crate_is_still_stds_error(name: str) -> None:
    """RefCell's `already borrowed` located in gc-arena (std's #[track_caller] names the crate's line) or in the
    user's code is std's message: its record explains it."""
    (finding,) = findings(name)
    assert finding.best is not None and finding.best.record.slug == "already-borrowed-borrowmuterror"
    assert finding.best.score == 100


REGISTRY = "/home/u/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f"


def test_a_crates_own_words_around_a_std_message_are_the_crates_message() -> None:
    """An `expect("Service state is already borrowed")` on try_borrow_mut prints std's words at the end of the
    crate's own sentence: not std's panic. After a label's colon or a quote, std's message still opens it, and a
    value std formats (`ParseIntError { … }`) is what the crate's message carries wherever it stands."""
    place = Frame(f"{REGISTRY}/cubecl-common-0.10.0/src/device/handle/channel.rs", 361, 18)
    own = ErrorEvent("rust", "panic", "Service state is already borrowed: BorrowMutError", location=place)
    assert is_elsewhere(own, "rust-lang/rust", lambda: None, lambda: ["already borrowed: {:?}"]) == (
        "panic location is cubecl-common's, its own words around rust-lang/rust's"
    )
    assert best_slug(own) != "already-borrowed-borrowmuterror"  # cubecl's own record may answer, never std's
    labelled = own._replace(message="Service state: already borrowed: BorrowMutError")
    assert is_elsewhere(labelled, "rust-lang/rust", lambda: None, lambda: ["already borrowed: {:?}"]) is None
    carried = own._replace(message="bad config value ParseIntError { kind: InvalidDigit }")
    assert (
        is_elsewhere(carried, "rust-lang/rust", lambda: None, lambda: ["ParseIntError {{ kind: InvalidDigit }}"])
        is None
    )
    users = own._replace(location=Frame("src/main.rs", 3, 5))
    assert is_elsewhere(users, "rust-lang/rust", lambda: None, lambda: ["already borrowed: {:?}"]) is None
    # Only std's records are weighed so: a crate's own record of its message is its own.
    assert is_elsewhere(own, "tracel-ai/cubecl", lambda: None, lambda: ["already borrowed: {:?}"]) is None


def test_another_librarys_class_with_a_librarys_words_is_not_that_librarys_error() -> None:
    """huggingface_hub re-raises requests' `500 Server Error: … for url: …` as its HfHubHTTPError: requests'
    HTTPError record is a near candidate, no match (before the rule it matched at 85); requests' own class with
    the same words is still its record's."""
    (hub,) = findings("parler-tts-hfhub-500-2024.txt")
    assert hub.best is None or hub.best.record.repo != "psf/requests"  # huggingface_hub's class record may answer
    requests = [c for c in hub.near if c.record.repo == "psf/requests"]
    assert hub.best or requests  # with no match, requests' record stands near, saying why
    assert all("is another library's than requests.exceptions.HTTPError" in c.reasons[-1] for c in requests)
    (own,) = findings("scholarcopilot-requests-500-2025.txt")
    assert own.best is not None and own.best.record.repo == "psf/requests" and own.best.score == 100
    bare = ErrorEvent("python", "HfHubHTTPError", "500 Server Error: Internal Server Error for url: https://hf.co")
    assert all(c.record.repo != "psf/requests" for c in MATCHER.match(bare).matches)


@pytest.mark.parametrize(
    ("printed", "record_class", "other"),
    [
        ("HfHubHTTPError", "requests.exceptions.HTTPError", True),
        ("huggingface_hub.utils._errors.HfHubHTTPError", "requests.exceptions.HTTPError", True),
        ("HTTPError", "requests.exceptions.HTTPError", False),  # IPython prints the name alone
        ("requests.exceptions.ConnectTimeout", "requests.exceptions.ConnectionError", False),  # its own subclass
        ("ValueError", "requests.exceptions.HTTPError", False),  # a built-in: the class mismatch weighs it
        ("MyError", "ValueError", False),  # a built-in's record: anyone's subclass
        ("MyError", "json.decoder.JSONDecodeError", False),  # the standard library's
    ],
)
def test_which_printed_class_is_another_librarys(printed: str, record_class: str, other: bool) -> None:
    assert (another_librarys_class(printed, record_class) is not None) is other


def test_an_error_raised_in_another_file_is_not_a_librarys_own_raise() -> None:
    """torch's nn.Module record is its `__getattr__`'s `raise` in torch/nn/modules/module.py: the same words raised in
    the user's code, or in another file of torch's, are the interpreter's lookup first, torch's record after."""
    message = "'Foo' object has no attribute 'bar'"
    users = ErrorEvent("python", "AttributeError", message, location=Frame("main.py", 3, function="<module>"))
    assert best_slug(users) == "foo-object-has-no-attribute-bar" or MATCHER.match(users).best.record.repo == (
        "python/cpython"
    )
    torch = [c for c in MATCHER.match(users).matches if c.record.repo == "pytorch/pytorch"]
    assert torch and all(c.score < 100 for c in torch)
    assert is_elsewhere(users, "pytorch/pytorch", lambda: "torch/nn/modules/module.py") == (
        "raising frame is not pytorch/pytorch's torch/nn/modules/module.py"
    )
    # torch's frame at that file: its own record first; a checkout of torch, not installed, is that file too.
    own = users._replace(location=Frame(f"{SITE}/torch/nn/modules/module.py", 1968, function="__getattr__"))
    assert MATCHER.match(own).best.record.repo == "pytorch/pytorch"
    checkout = users._replace(location=Frame("/home/u/pytorch/torch/nn/modules/module.py", 1968))
    assert is_elsewhere(checkout, "pytorch/pytorch", lambda: "torch/nn/modules/module.py") is None
    # A record of C++ (a TORCH_CHECK) says nothing of the frame: it raises from whatever Python frame called it.
    assert is_elsewhere(users, "pytorch/pytorch", lambda: "aten/src/ATen/native/Linear.cpp") is None


def test_a_hook_handing_the_lookup_to_the_interpreter_is_the_interpreters_error() -> None:
    """torch 0.2's Variable.__getattr__ ended in `object.__getattribute__(self, name)`: CPython's own lookup raised
    the AttributeError from that frame, and CPython's record explains it."""
    (finding,) = findings("torch-variable-getattribute-2017.txt")
    assert finding.best is not None and finding.best.record.repo == "python/cpython"
    assert finding.best.method == "regex" and finding.best.score == 100
