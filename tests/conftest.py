"""The test harness: paths to the corpus, one isolated user environment, the command in-process or as a process,
one factory for records, and the bundled records read once.

The tests are laid out as the package is: tests/<part>/ holds the tests of leafexplain/<part>/ (tests/hostile/
the robustness tests, tests/corpus/ the real outputs and pastes), and tests/ itself those of the top-level modules.
Everything a test needs from here is imported as `from tests.conftest import ...`.

Most command-line tests run `leafexplain.cli.main(argv, env)` in this process with an Environment of
their own (`MockEnvironment`, as httpie's tests do): the same code as the installed command, without
a Python start each. A test starts a real process only where one matters: pipes, signals, `run`,
the excepthook, shells, the wheel.
"""

from __future__ import annotations

import contextlib
import functools
import io
import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from leafexplain.cli import main
from leafexplain.env import DEFAULT_PIPE_WIDTH, Environment, columns_from
from leafexplain.match import Matcher
from leafexplain.models import Record, RecordSet, Variant

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "tests" / "corpus"
OUTPUTS = CORPUS / "outputs"
RECORDS = ROOT / "records"
SEED_SLUG = "can-t-convert-a-non-leaf-tensor-into-a-tracked-ten"
SEED_ID = "745587749477e02c"
SEED_FILE = RECORDS / "tracel-ai" / "burn" / f"{SEED_SLUG}.json"
LEAF = OUTPUTS / "rust" / "cargo-run-leaf.txt"  # `cargo run` of the corpus: the seed's panic, explained

# The corpus holds programs and outputs, not tests of ours (its tests are the test_*.py beside them).
collect_ignore_glob = ["corpus/outputs/*", "corpus/pasted/*", "corpus/scenarios/*", "corpus/common_errors/*"]
# The user's own records, colour and width settings must not leak into a test, nor the CI it runs in (nor the
# user's configuration: XDG_CONFIG_HOME is the test's own).
LEAKY = (
    "NO_COLOR",
    "COLUMNS",
    "LEAFEXPLAIN_RECORDS",
    "FORCE_COLOR",
    "CLICOLOR_FORCE",
    "LEAFEXPLAIN_DEBUG",
    "GITHUB_ACTIONS",
    "GITHUB_STEP_SUMMARY",
    "GITHUB_WORKSPACE",
    "CI_PROJECT_DIR",
)


def leafexplain_command() -> list[str]:
    """The console script of the interpreter running the tests (not whichever is first on PATH: a shim or
    another install would test other code), else `python -m leafexplain`."""
    beside = Path(sys.executable).parent / ("leafexplain.exe" if os.name == "nt" else "leafexplain")
    return [str(beside)] if beside.is_file() else [sys.executable, "-m", "leafexplain"]


class MockEnvironment(Environment):
    """An Environment of the test's own: bytes in, bytes out, a terminal only where asked for."""

    def __init__(self, environ: dict[str, str], *, stdin: bytes = b"", tty: bool = False) -> None:
        self.out, self.err = io.BytesIO(), io.BytesIO()
        columns = columns_from(environ)
        super().__init__(
            stdin=io.BytesIO(stdin),
            stdout=io.TextIOWrapper(self.out, encoding="utf-8", write_through=True),
            stderr=io.TextIOWrapper(self.err, encoding="utf-8", errors="backslashreplace", write_through=True),
            stdin_isatty=tty,
            stdout_isatty=tty,
            stderr_isatty=tty,
            width=columns or DEFAULT_PIPE_WIDTH,
            environ=environ,
        )

    @property
    def written(self) -> str:
        """What was written on stdout, as text."""
        return self.out.getvalue().decode("utf-8", "replace")

    @property
    def said(self) -> str:
        """What was written on stderr, as text."""
        return self.err.getvalue().decode("utf-8", "replace")


@contextlib.contextmanager
def working_directory(path: Path | None) -> Iterator[None]:
    if path is None:
        yield
        return
    before = Path.cwd()
    os.chdir(path)
    try:
        yield
    finally:
        os.chdir(before)


def run_in_process(
    *args: str,
    environ: dict[str, str],
    input: str | bytes | None = None,
    cwd: Path | None = None,
    tty: bool = False,
) -> subprocess.CompletedProcess[str]:
    """`leafexplain ARGS` through `main(argv, env)`, as the installed command would run it."""
    data = input.encode() if isinstance(input, str) else (input or b"")
    env = MockEnvironment(environ, stdin=data, tty=tty)
    with working_directory(cwd):
        code = main(list(args), env)
    return subprocess.CompletedProcess(
        ["leafexplain", *args], code, env.out.getvalue().decode("utf-8", "replace"), env.err.getvalue().decode()
    )


def run_process(
    *args: str,
    input: str | bytes | None = None,
    env: dict[str, str] | None = None,
    cwd: Path | None = None,
    timeout: int = 60,
) -> subprocess.CompletedProcess[str]:
    """`leafexplain ARGS` as a process of its own, the installed command."""
    data = input.encode() if isinstance(input, str) else input
    done = subprocess.run(
        [*leafexplain_command(), *args],
        input=data if data is not None else b"",
        capture_output=True,
        env=env,
        cwd=cwd,
        timeout=timeout,
    )
    return subprocess.CompletedProcess(
        done.args, done.returncode, done.stdout.decode("utf-8", "replace"), done.stderr.decode("utf-8", "replace")
    )


class Isolated:
    """A user of the test's own: data, cache and configuration under a temporary folder, nothing of ours leaking in."""

    def __init__(self, tmp: Path, **extra: str) -> None:
        self.tmp = tmp
        # This process's variables without the user's settings; data and cache folders under `tmp`.
        self.environ = {k: v for k, v in os.environ.items() if k not in LEAKY}
        self.environ.update(
            {
                "XDG_DATA_HOME": str(tmp / "data"),
                "XDG_CACHE_HOME": str(tmp / "cache"),
                "XDG_CONFIG_HOME": str(tmp / "config"),
                **extra,
            }
        )

    @property
    def records(self) -> Path:
        """The user's records folder: `$XDG_DATA_HOME/leafexplain/records`."""
        return Path(self.environ["XDG_DATA_HOME"]) / "leafexplain" / "records"

    @property
    def cache(self) -> Path:
        return Path(self.environ["XDG_CACHE_HOME"])

    def __call__(
        self,
        *args: str,
        input: str | bytes | None = None,
        extra_env: dict[str, str] | None = None,
        cwd: Path | None = None,
        tty: bool = False,
    ) -> subprocess.CompletedProcess[str]:
        """The command in-process."""
        return run_in_process(*args, environ={**self.environ, **(extra_env or {})}, input=input, cwd=cwd, tty=tty)

    def process(
        self,
        *args: str,
        input: str | bytes | None = None,
        extra_env: dict[str, str] | None = None,
        cwd: Path | None = None,
    ) -> subprocess.CompletedProcess[str]:
        """The command as a process of its own."""
        return run_process(*args, input=input, env={**self.environ, **(extra_env or {})}, cwd=cwd)


@pytest.fixture
def cli(tmp_path: Path) -> Isolated:
    """`cli(*args)` runs leafexplain in-process as an isolated user; `cli.process(*args)` as a process."""
    return Isolated(tmp_path)


@pytest.fixture
def environment(tmp_path: Path) -> Callable[..., MockEnvironment]:
    """`environment(stdin=b"", tty=False, **variables)`: an Environment of the test's own, as `cli`'s isolated user
    (the same variables, under the same folder) with `variables` added; `.written` and `.said` read it back."""

    def make(*, stdin: bytes = b"", tty: bool = False, **variables: str) -> MockEnvironment:
        return MockEnvironment({**Isolated(tmp_path).environ, **variables}, stdin=stdin, tty=tty)

    return make


# --- records -------------------------------------------------------------------------------------


def make_record(record_id: str = "00000000000000aa", message: str = "widget frobnication failed badly", **fields: Any):
    """A bare record, valid unless `fields` say otherwise: the message is its own pattern, a Rust panic."""
    data: dict[str, Any] = {
        "id": record_id,
        "repo": "acme/widgets",
        "errorMessage": message,
        "messagePattern": message,
        "errorType": "panic",
    }
    data.update(fields)
    return data


def as_record(data: dict[str, Any]) -> Record:
    """A record dict (of `make_record`, or a record file's) as the value the pipeline passes, built without
    validation as an embedding program may build one (named `widget` unless it has a slug)."""
    variants = tuple(Variant(**v) for v in data.get("messageVariants", ()))
    return Record(**{"slug": "widget", **data, "messageVariants": variants})


def write_records(folder: Path, name: str, *records: dict[str, Any]) -> Path:
    """Records into a file: one JSON object (`.json`, a single record) or one a line (`.jsonl`)."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    text = "".join(json.dumps(r) + "\n" for r in records) if name.endswith(".jsonl") else json.dumps(records[0])
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    return path


def seed_record() -> dict[str, Any]:
    return json.loads(SEED_FILE.read_text())["record"]


# --- the bundled records -------------------------------------------------------------------------


@functools.cache
def bundled_records() -> RecordSet:
    """This checkout's records/ folder, read once for the whole run (and at collection, for parametrize)."""
    from leafexplain.records import load_paths

    return load_paths([str(RECORDS)])


@functools.cache
def load_bundled_matcher() -> Matcher:
    """The bundled records ready to match, built once: the `bundled_matcher` fixture, or a module's constant."""
    return Matcher(bundled_records().records)


@pytest.fixture(scope="session")
def bundled_matcher() -> Matcher:
    """The matcher of the bundled records, one for the session: shared, so never changed by a test (one that
    needs other records or another threshold builds its own Matcher)."""
    return load_bundled_matcher()


@pytest.fixture(scope="session")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel of this checkout, built once for the tests that install or unpack it."""
    dist = tmp_path_factory.mktemp("dist")
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(dist), str(ROOT)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert built.returncode == 0, built.stderr[-2000:]
    [found] = dist.glob("leafexplain-*.whl")
    return found
