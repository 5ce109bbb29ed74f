"""`leafexplain run`: real commands wrapped as a user would, their output, exit codes, signals and memory."""

from __future__ import annotations

import json
import os
import pty
import re
import shutil
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from leafexplain.env import Environment
from leafexplain.intake.process import FORCE_COLOR_ENV, EventCollector, child_environment, ending_signal, exit_code
from tests.conftest import CORPUS, SEED_ID, Isolated, leafexplain_command

COLOR_VARS = (*FORCE_COLOR_ENV, "PYTHONUNBUFFERED", "NO_COLOR")
EXPLAINED = "  why:"


def wrap(
    *command: str, env: dict[str, str], cwd: Path | None = None, options: tuple[str, ...] = (), timeout: int = 120
) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [*leafexplain_command(), "run", *options, "--", *command],
        capture_output=True,
        env=env,
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        timeout=timeout,
    )


def plain_env(tmp: Path, **extra: str) -> dict[str, str]:
    env = Isolated(tmp, **extra).environ
    for name in COLOR_VARS:
        if name not in extra:
            env.pop(name, None)
    return env


@pytest.fixture(scope="module")
def crate(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """The corpus's cargo workspace, copied and built once for every cargo test here."""
    if not shutil.which("cargo"):
        pytest.skip("cargo is not installed")
    tmp = tmp_path_factory.mktemp("cargo")
    work = tmp / "workspace"
    shutil.copytree(CORPUS / "scenarios" / "cargo", work)
    env = plain_env(tmp, CARGO_TARGET_DIR=str(tmp / "target"), RUST_BACKTRACE="0")
    built = subprocess.run(
        ["cargo", "test", "--offline", "--no-run", "--quiet"], cwd=work, env=env, capture_output=True, timeout=600
    )
    assert built.returncode == 0, built.stderr.decode()[-2000:]
    subprocess.run(["cargo", "build", "--offline", "--quiet"], cwd=work, env=env, capture_output=True, timeout=600)
    return work, env


def _steady(text: str) -> str:
    """cargo's output without what changes from one run to the next: timings and thread ids."""
    text = re.sub(r"\d+\.\d+s", "TIME", text)
    return re.sub(r"thread '([^']*)' \(\d+\)", r"thread '\1'", text)


def test_cargo_test_passes_output_through_then_explains_and_exits_101(crate) -> None:
    work, env = crate
    command = ("cargo", "test", "--offline", "-p", "trainer", "--lib", "--", "--test-threads=1")
    direct = subprocess.run(command, cwd=work, env=env, capture_output=True, timeout=120)
    wrapped = wrap(*command, env=env, cwd=work)
    assert direct.returncode == 101
    assert wrapped.returncode == 101
    # stdout is cargo's, untouched; the explanation is on stderr, after cargo's own stderr.
    assert _steady(wrapped.stdout.decode()) == _steady(direct.stdout.decode())
    out, err = wrapped.stdout.decode(), wrapped.stderr.decode()
    assert EXPLAINED not in out
    cargo_err = _steady(direct.stderr.decode())
    assert _steady(err).startswith(cargo_err)
    explanation = err[len(direct.stderr) :]
    assert "called `Option::unwrap()` on a `None` value" in explanation
    assert "index out of bounds: the len is 3 but the index is 7" in explanation
    assert "Can't convert a non leaf tensor into a tracked tensor" in explanation
    assert "https://github.com/tracel-ai/burn/blob/" in explanation
    assert "test tests::three_no_even_value" in explanation
    # The two identical `parts must be positive` panics: one error, no record for it, as `explain` shows it.
    assert explanation.count("No record matches this error.") == 1
    assert explanation.count("  parts must be positive") == 1
    assert "\x1b" not in err, "not a terminal: no colour"


def test_cargo_run_with_its_own_double_dash_and_json(crate) -> None:
    work, env = crate
    wrapped = wrap(
        "cargo", "run", "--offline", "--quiet", "--bin", "trainer", "--", "leaf", env=env, cwd=work,
        options=("--format", "json"),
    )  # fmt: skip
    assert wrapped.returncode == 101
    err = wrapped.stderr.decode()
    document = json.loads(err[err.index('{\n  "schema"') :])
    assert document["events"][0]["matches"][0]["id"] == SEED_ID


def test_python_json_error_exits_1_after_explaining(tmp_path: Path) -> None:
    result = wrap(sys.executable, "-c", "import json; json.loads('')", env=plain_env(tmp_path))
    assert result.returncode == 1
    assert result.stdout == b""
    err = result.stderr.decode()
    traceback_end = err.index("json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)\n")
    assert err.index("Traceback (most recent call last):") < traceback_end < err.index(EXPLAINED)
    assert "https://github.com/python/cpython/blob/" in err


def test_python_script_output_passes_through_byte_for_byte(tmp_path: Path) -> None:
    script = tmp_path / "train.py"
    script.write_text(
        textwrap.dedent(
            """
            import json, sys
            sys.stdout.buffer.write(b"epoch 1\\r\\x1b[32mepoch 2\\x1b[0m\\n\\xff\\xfe not utf-8\\n")
            sys.stdout.flush()
            sys.stderr.write("a warning-free note on stderr\\n")
            sys.stderr.flush()
            sys.stdout.buffer.write(b"no newline at the end")
            sys.stdout.flush()
            json.loads("")
            """
        )
    )
    direct = subprocess.run([sys.executable, str(script)], capture_output=True, env=plain_env(tmp_path))
    wrapped = wrap(sys.executable, str(script), env=plain_env(tmp_path))
    assert wrapped.returncode == direct.returncode == 1
    assert wrapped.stdout == direct.stdout
    assert wrapped.stderr.startswith(direct.stderr)
    assert EXPLAINED.encode() in wrapped.stderr[len(direct.stderr) :]


def test_run_shows_what_explain_shows_and_takes_its_options(tmp_path: Path) -> None:
    """The same explanation as `explain` of the command's output, your code included; explain's options."""
    script = tmp_path / "load.py"
    script.write_text('import json\n\n\ndef load(text):\n    return json.loads(text)\n\n\nload("")\n')
    env = plain_env(tmp_path)
    direct = subprocess.run([sys.executable, script.name], capture_output=True, env=env, cwd=tmp_path, timeout=60)
    for options in ((), ("--full",), ("--verbose", "--all"), ("--no-source",), ("--root", str(tmp_path))):
        wrapped = wrap(sys.executable, script.name, env=env, cwd=tmp_path, options=options)
        assert wrapped.returncode == 1 and wrapped.stderr.startswith(direct.stderr)
        explained = subprocess.run(
            [*leafexplain_command(), *options], input=direct.stderr, capture_output=True, env=env, cwd=tmp_path
        )
        assert wrapped.stderr[len(direct.stderr) :] == b"\n" + explained.stdout, options
    default = wrap(sys.executable, script.name, env=env, cwd=tmp_path).stderr.decode()
    assert "         > 5 |     return json.loads(text)" in default, "your code, read from the file"
    assert "           4 | def load(text):" in default
    assert "Your code" in wrap(sys.executable, script.name, env=env, cwd=tmp_path, options=("--full",)).stderr.decode()


def test_pytest_run_is_explained(tmp_path: Path) -> None:
    (tmp_path / "test_config.py").write_text('import json\n\n\ndef test_config():\n    assert json.loads("") == {}\n')
    result = wrap(
        sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_config.py",
        env=plain_env(tmp_path), cwd=tmp_path,
    )  # fmt: skip
    assert result.returncode == 1
    assert b"1 failed" in result.stdout
    assert 'the Python record "Expecting value: line … column … (char …)"'.encode() in result.stderr
    assert EXPLAINED.encode() not in result.stdout


def test_arguments_after_double_dash_are_the_commands_own(tmp_path: Path) -> None:
    args = ["--format", "json", "--", "--help", "-x", "--version", "run"]
    result = wrap(
        sys.executable, "-c", "import sys, json; print(json.dumps(sys.argv[1:]))", *args, env=plain_env(tmp_path)
    )
    assert result.returncode == 0
    assert json.loads(result.stdout) == args
    assert result.stderr == b"", "a successful run with no errors adds nothing"
    without_dashes = subprocess.run(
        [*leafexplain_command(), "run", sys.executable, "-c", "import sys; print(sys.argv[1:])", "--width", "-q"],
        capture_output=True,
        env=plain_env(tmp_path),
        timeout=60,
    )
    assert without_dashes.stdout == b"['--width', '-q']\n"


def test_exit_codes_of_the_command(tmp_path: Path) -> None:
    env = plain_env(tmp_path)
    assert wrap(sys.executable, "-c", "raise SystemExit(7)", env=env).returncode == 7
    killed = wrap(sys.executable, "-c", "import os, signal; os.kill(os.getpid(), signal.SIGTERM)", env=env)
    assert killed.returncode == 128 + signal.SIGTERM
    missing = wrap("no-such-command-leafexplain", "--flag", env=env)
    assert missing.returncode == 127
    assert missing.stderr == b"leafexplain: no-such-command-leafexplain: command not found\n"
    assert wrap("", env=env).returncode == 127  # no program named at all
    failed_quietly = wrap(sys.executable, "-c", "raise SystemExit(3)", env=env)
    assert failed_quietly.stderr.decode().count("\n") == 1 and "no Rust panic or Python traceback" in str(
        failed_quietly.stderr
    )
    assert wrap(env=env).returncode == 2


def test_a_child_killed_by_sigkill_keeps_137_and_one_line_names_the_signal_and_its_usual_cause(tmp_path: Path) -> None:
    killed = wrap(
        sys.executable, "-c", "import os, signal; os.kill(os.getpid(), signal.SIGKILL)", env=plain_env(tmp_path)
    )
    assert killed.returncode == 137
    [line] = killed.stderr.decode().splitlines()
    assert line.startswith("leafexplain: the command was killed by SIGKILL (exit 137)")
    assert "out-of-memory killer" in line and "dmesg | grep -i -E 'killed process|out of memory'" in line


def test_a_crash_is_explained_and_its_signal_said_after_it(tmp_path: Path) -> None:
    """A real segfault under faulthandler: the dump is an event at the user's frame, then the signal's line
    says what to run next; the code is the shell's, 139."""
    script = tmp_path / "crash.py"
    script.write_text(
        "import ctypes\n\n\ndef read_header(address):\n    return ctypes.string_at(address)\n\n\nread_header(0)\n"
    )
    crashed = wrap(sys.executable, "-X", "faulthandler", str(script), env=plain_env(tmp_path))
    assert crashed.returncode == 128 + signal.SIGSEGV
    err = crashed.stderr.decode()
    assert "Fatal Python error · Python · no record" in err and f"{script}:5 in read_header" in err
    last = err.splitlines()[-1]
    assert last.startswith("leafexplain: the command crashed with SIGSEGV (exit 139), a segmentation fault")
    assert "python -X faulthandler" in last and "RUST_BACKTRACE=1" in last and "coredumpctl" in last


def test_signal_lines() -> None:
    from leafexplain.render.commands import signal_line

    assert "ulimit -c unlimited" in signal_line("SIGABRT", 134)
    assert signal_line("SIGINT", 130) is None and signal_line("SIGPIPE", 141) is None  # the user's own doing
    assert signal_line("SIGUSR1", 138) == "the command was ended by SIGUSR1 (exit 138)"


def test_a_background_process_holding_the_pipes_does_not_keep_us_waiting(tmp_path: Path) -> None:
    result = wrap("sh", "-c", "sleep 300 & echo $!", env=plain_env(tmp_path), timeout=60)
    os.kill(int(result.stdout), signal.SIGTERM)  # the sleep we had started, by its id
    assert result.returncode == 0


def test_exit_code_unit() -> None:
    assert exit_code(0) == 0 and exit_code(101) == 101 and exit_code(-signal.SIGINT) == 130
    assert ending_signal(0) is None and ending_signal(1) is None and ending_signal(-signal.SIGKILL) == "SIGKILL"
    assert ending_signal(-(signal.SIGRTMIN + 1)) == f"signal {signal.SIGRTMIN + 1}"  # no name of its own


def test_streams_are_scanned_apart_and_numbered_as_they_arrived() -> None:
    """stdout lines arriving between a traceback's lines on stderr do not break the traceback."""
    collector = EventCollector()
    collector.feed(1, b"step 1\n")
    collector.feed(2, b"Traceback (most recent call last):\n")
    collector.feed(1, b"step 2\nstep 3\n")
    collector.feed(2, b'  File "train.py", line 3, in <module>\n')
    collector.feed(1, b"step 4\n")
    collector.feed(2, b"ValueError: bad ")
    collector.feed(1, b"step 5\n")
    collector.feed(2, b"value\n")
    collector.feed(1, b"thread 'main' panicked at src/main.rs:2:5:\nboom\n")
    [python, rust] = collector.close()
    assert (python.error_type, python.message, python.line_number) == ("ValueError", "bad value", 2)
    assert rust.message == "boom" and rust.line_number > python.line_number


ENV_PROBE = "import json, os, sys; json.dump({k: os.environ.get(k) for k in sys.argv[1:]}, open(sys.argv[1], 'w'))"


def _child_env_seen(tmp: Path, env: dict[str, str], on_terminal: bool) -> dict[str, str | None]:
    report = tmp / f"env-{on_terminal}.json"
    argv = [*leafexplain_command(), "run", "--", sys.executable, "-c", ENV_PROBE, str(report), *COLOR_VARS]
    if on_terminal:
        leader, follower = pty.openpty()
        try:
            subprocess.run(argv, stdout=follower, stderr=subprocess.PIPE, env=env, timeout=60, check=True)
        finally:
            os.close(follower)
            os.close(leader)
    else:
        subprocess.run(argv, capture_output=True, env=env, timeout=60, check=True)
    seen = json.loads(report.read_text())
    seen.pop(str(report))
    return seen


def test_colour_is_asked_of_the_child_only_on_a_terminal(tmp_path: Path) -> None:
    env = plain_env(tmp_path)
    assert set(_child_env_seen(tmp_path, env, on_terminal=False).values()) == {None}
    on_terminal = _child_env_seen(tmp_path, env, on_terminal=True)
    assert {k: on_terminal[k] for k in FORCE_COLOR_ENV} == FORCE_COLOR_ENV
    assert on_terminal["PYTHONUNBUFFERED"] == "1"
    user_choice = _child_env_seen(tmp_path, plain_env(tmp_path, CARGO_TERM_COLOR="never"), on_terminal=True)
    assert user_choice["CARGO_TERM_COLOR"] == "never" and user_choice["FORCE_COLOR"] == "1"
    no_color = _child_env_seen(tmp_path, plain_env(tmp_path, NO_COLOR="1"), on_terminal=True)
    assert no_color["FORCE_COLOR"] is None and no_color["NO_COLOR"] == "1"


def test_child_environment_unit() -> None:
    assert child_environment(Environment(environ={"PATH": "/bin"}, stdout_isatty=False)) is None
    env = child_environment(Environment(environ={"PATH": "/bin", "PY_COLORS": "0"}, stdout_isatty=True))
    assert env is not None and env["PY_COLORS"] == "0" and env["CARGO_TERM_COLOR"] == "always"


def test_ctrl_c_goes_to_the_child_then_its_output_is_explained(tmp_path: Path) -> None:
    script = tmp_path / "slow.py"
    script.write_text(
        textwrap.dedent(
            """
            import json, time
            try:
                print("ready", flush=True)  # inside the try: SIGINT may come as soon as this is read
                time.sleep(60)
            except KeyboardInterrupt:
                print("child got SIGINT", flush=True)
                json.loads("")
            """
        )
    )
    proc = subprocess.Popen(
        [*leafexplain_command(), "run", "--", sys.executable, str(script)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        env=plain_env(tmp_path),
        start_new_session=True,  # its own process group, as a terminal's foreground job
    )
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline() == b"ready\n"
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert out == b"child got SIGINT\n"
    assert proc.returncode == 1, err.decode()
    assert 'the Python record "Expecting value: line … column … (char …)"'.encode() in err


def test_ctrl_c_that_kills_the_child_exits_130(tmp_path: Path) -> None:
    proc = subprocess.Popen(
        [
            *leafexplain_command(),
            "run",
            "--",
            sys.executable,
            "-c",
            "import time; print('ready', flush=True); time.sleep(9)",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        env=plain_env(tmp_path),
        start_new_session=True,
    )
    try:
        assert proc.stdout is not None and proc.stdout.readline() == b"ready\n"
        os.killpg(proc.pid, signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 130
    assert b"KeyboardInterrupt" in err


CHATTY = """
import json, sys, traceback
line = b"step %08d loss 0.1234 lr 0.001 throughput 1234.5 samples/s, nothing to see here\\n"
out = sys.stdout.buffer
for i in range(600_000):  # about 50 MB
    out.write(line % i)
    if i % 100_000 == 50_000:
        try:
            json.loads("")
        except ValueError:
            traceback.print_exc()
            sys.stderr.flush()
sys.exit(4)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="ru_maxrss is in kilobytes on Linux")
def test_memory_stays_bounded_for_50_mb_of_output(tmp_path: Path) -> None:
    """Max RSS of leafexplain (or its child, whichever is larger) while 50 MB pass through."""
    measure = textwrap.dedent(
        """
        import resource, subprocess, sys
        done = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        print(done.returncode, peak_mb)
        sys.stderr.buffer.write(done.stderr)
        """
    )
    result = subprocess.run(
        [sys.executable, "-c", measure, *leafexplain_command(), "run", "--", sys.executable, "-c", CHATTY],
        capture_output=True,
        env=plain_env(tmp_path),
        timeout=300,
    )
    code, peak_mb = result.stdout.split()
    assert int(code) == 4
    # Far less than the 50 MB that went through (about 25 MB measured: the interpreter and the records).
    assert float(peak_mb) < 48, f"max RSS {peak_mb} MB"
    err = result.stderr.decode()
    assert err.count("Traceback (most recent call last):") == 6
    assert err.count(EXPLAINED) == 1, "six identical errors are grouped into one explanation"


@pytest.mark.parametrize(("printed", "ended"), [("no newline", False), ("a line\n", True), ("", True)])
def test_the_outcome_says_whether_the_childs_stdout_ended_a_line(printed: str, ended: bool) -> None:
    """What `run` writes on stdout after the command's output (GitHub's workflow commands) must start a line."""
    from leafexplain.intake.process import run_and_scan

    read, write = os.pipe()
    program = f"import sys; sys.stdout.write({printed!r}); sys.stderr.write('on stderr, no newline')"
    try:
        outcome = run_and_scan([sys.executable, "-c", program], stdout_fd=write, stderr_fd=write)
    finally:
        os.close(write)
    with os.fdopen(read, "rb") as passed:
        assert printed.encode() in passed.read()
    assert outcome.stdout_ended_line is ended, "stderr's last byte is not stdout's"
