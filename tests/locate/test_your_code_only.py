"""Pasted text never reads your files: "your code" comes only from source files in your own folders (and for
Python only when the file holds the line the traceback printed), library source only from library locations,
and a path with a control character in it is refused, not cleaned. (docs/security.md, docs/robustness.md)"""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from leafexplain.locate import LocalPaths
from leafexplain.locate.files import project_root, user_snippet
from leafexplain.locate.library import library_source
from leafexplain.models import ErrorEvent, Frame, Record
from tests.conftest import Isolated
from tests.locate.test_localsource import local_paths

SECRET = "SECRET-MARKER-not-to-be-shown"
GRAD = "RuntimeError: element 0 of tensors does not require grad and does not have a grad_fn"
SEED = "Can't convert a non leaf tensor into a tracked tensor"
FORMATS = ("plain", "markdown", "json", "rich")


def python_paste(file: str, line: int, code: str) -> str:
    return f'Traceback (most recent call last):\n  File "{file}", line {line}, in <module>\n    {code}\n{GRAD}\n'


def rust_paste(location: str, frame: str | None = None) -> str:
    text = f"thread 'main' panicked at {location}:\n{SEED}\n"
    if frame:
        text += f"stack backtrace:\n   0: trainer::main\n             at {frame}\n"
    return text


class Home:
    """A user: a home with secrets in it, a project (pyproject.toml) with a subfolder, and a folder outside it."""

    def __init__(self, tmp: Path) -> None:
        self.home = tmp / "home"
        self.project = self.home / "src" / "proj"
        self.sub = self.project / "pkg"
        self.outside = tmp / "outside"
        for folder in (self.home / ".ssh", self.sub, self.outside):
            folder.mkdir(parents=True, exist_ok=True)
        (self.project / "pyproject.toml").write_text("[project]\nname = 'proj'\n")
        (self.home / ".ssh" / "id_rsa").write_text(f"-----BEGIN OPENSSH PRIVATE KEY-----\n{SECRET}\n{SECRET}\n")
        (self.project / ".env").write_text(f"TOKEN=abc\n{SECRET}\n{SECRET}\n")
        (self.project / "notes.txt").write_text(f"a\n{SECRET}\n")
        (self.project / ".secrets").mkdir()
        (self.project / ".secrets" / "keys.py").write_text(f"import os\n# {SECRET}\nKEY = 'x'\n")
        (self.project / "train.py").write_text(f"import torch\n# {SECRET}\nstep_and_backprop(model)\n# {SECRET}\n")
        (self.outside / "main.rs").write_text(f"fn main() {{\n    // {SECRET}\n    x.require_grad();\n}}\n")
        (self.outside / "tool.py").write_text(f"# {SECRET}\nloss.backward()\n")
        self.user = Isolated(tmp, HOME=str(self.home))

    def run(self, text: str, fmt: str, cwd: Path | None = None, full: bool = False) -> str:
        args = ("--format", fmt, "--width", "300") + (("--color", "always") if fmt == "rich" else ())
        result = self.user(*args, *(("--full",) if full else ()), input=text, cwd=cwd or self.sub)
        assert result.returncode == 0, result.stderr  # every paste here is explained
        assert "Traceback" not in result.stderr
        return result.stdout


@pytest.fixture
def user(tmp_path: Path) -> Home:
    return Home(tmp_path)


def hostile_pastes(user: Home) -> dict[str, str]:
    """Frames that name files the user never ran: each must show none of their lines."""
    key = user.home / ".ssh" / "id_rsa"
    return {
        "ssh key, its real first line": python_paste(str(key), 1, "-----BEGIN OPENSSH PRIVATE KEY-----"),
        "ssh key from home, relative": python_paste(".ssh/id_rsa", 1, "-----BEGIN OPENSSH PRIVATE KEY-----"),
        ".env in the project": python_paste(".env", 1, "TOKEN=abc"),
        ".env, Rust location": rust_paste("../.env:2:1"),
        "../ out of the project": python_paste("../../../../outside/tool.py", 2, "loss.backward()"),
        "absolute, outside": python_paste(str(user.outside / "tool.py"), 2, "loss.backward()"),
        "/etc/passwd": python_paste("/etc/passwd", 1, "root:x:0:0:root:/root:/bin/bash"),
        "../../etc/passwd": python_paste("../../../../../../../../etc/passwd", 1, "root:x:0:0:root:/root:/bin/bash"),
        "/proc/self/maps": python_paste("/proc/self/maps", 1, "x"),
        "Rust panic at /etc/shadow": rust_paste("/etc/shadow:1:1"),
        "Rust backtrace at /etc/shadow": rust_paste("src/lib.rs:1:1", "/etc/shadow:3:5"),
        "Rust, a .rs file outside": rust_paste(f"{user.outside / 'main.rs'}:2:5"),
        "a text file in the project": rust_paste("../notes.txt:2:1"),
        "Python in a hidden folder of the project": python_paste("../.secrets/keys.py", 1, "import os"),
        "NUL in the path": python_paste("../tra\x00in.py", 3, "step_and_backprop(model)"),
        "control character in the path": python_paste("../tra\x01in.py", 3, "step_and_backprop(model)"),
    }


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_pasted_frame_never_shows_a_file_outside_your_code(user: Home, fmt: str) -> None:
    """The line a traceback printed is shown as it came (it is the paste's own text); no other line of the file."""
    for name, paste in hostile_pastes(user).items():
        for cwd, full in ((user.sub, False), (user.sub, True), (user.home, True)):  # default view, --full
            out = user.run(paste, fmt, cwd=cwd, full=full)
            assert SECRET not in out, (name, cwd)
            assert "daemon:x:1:1" not in out and "r-xp" not in out, (name, cwd)  # /etc/passwd's line 2, maps
            if full and fmt in ("plain", "markdown"):
                assert "Your code" not in out, (name, cwd)


def test_a_python_line_that_differs_gives_its_path_and_a_note_without_content(user: Home) -> None:
    paste = python_paste("../train.py", 3, "model.fit(data)")  # not what line 3 (nor any line near) holds
    for full in (False, True):
        plain = user.run(paste, "plain", full=full)
        assert SECRET not in plain and "step_and_backprop" not in plain
        assert "line 3 no longer holds the traceback's code, so its lines are not shown" in plain
        assert SECRET not in user.run(paste, "markdown", full=full)
    assert "Your code" in user.run(paste, "plain", full=True)
    snippet = json.loads(user.run(paste, "json"))["events"][0]["user_snippet"]
    assert snippet["lines"] == [] and snippet["path"].endswith("train.py") and "not shown" in snippet["note"]


def test_your_code_from_the_project_found_above_the_current_folder(user: Home) -> None:
    paste = python_paste("train.py", 3, "step_and_backprop(model)")  # relative to the project, run from pkg/
    plain = user.run(paste, "plain", full=True)
    assert f"{user.project / 'train.py'}:3" in plain
    assert "  > 3 | step_and_backprop(model)" in plain
    assert f"# {SECRET}" in user.run(paste, "plain"), "the default view: the line and one either side, read here"
    assert project_root(str(user.sub), str(user.home)) == str(user.project)
    assert project_root(str(user.home / "src"), str(user.home)) is None, "the home folder is never the project"


def test_a_symlink_or_a_fifo_in_the_project_is_not_your_code(user: Home) -> None:
    (user.project / "link.py").symlink_to(user.outside / "tool.py")
    out = user.run(python_paste("../link.py", 2, "loss.backward()"), "plain")
    assert SECRET not in out and "Your code" not in out
    os.mkfifo(user.project / "main.rs")
    out = user.run(rust_paste("../main.rs:1:1"), "plain")  # would hang if it were opened blocking
    assert "Your code" not in out


def test_a_frame_ending_like_a_library_file_outside_library_locations_is_not_read(tmp_path: Path) -> None:
    grad = "grad can be implicitly created only for scalar outputs"
    torch = Record("t", "pytorch/pytorch", "t", grad, grad, filePath="torch/autograd/__init__.py", lineNumber=2)
    body = f'# {SECRET}\nraise RuntimeError("grad can be implicitly created only for scalar outputs")\n# {SECRET}\n'
    for folder in ("elsewhere", "venv/lib/python3.11/site-packages"):
        target = tmp_path / folder / "torch" / "autograd" / "__init__.py"
        target.parent.mkdir(parents=True)
        target.write_text(body)
    project = tmp_path / "project"
    project.mkdir()
    paths = local_paths(tmp_path)._replace(roots=(project,))

    def found(folder: str) -> object:
        frame = Frame(str(tmp_path / folder / "torch" / "autograd" / "__init__.py"), 2)
        event = ErrorEvent("python", "RuntimeError", "m", location=frame, frames=(frame,))
        return library_source(torch, event, paths)

    elsewhere = found("elsewhere")
    # The interpreter running the tests may have torch installed: that copy may be found, never this one.
    assert elsewhere is None or not elsewhere.path.startswith(str(tmp_path)), "not a library location"
    installed = found("venv/lib/python3.11/site-packages")
    assert installed is not None and installed.line == 2


def test_control_characters_in_the_input_are_marked_never_dropped() -> None:
    from leafexplain.text import normalize

    assert normalize("/etc/sha\x00dow") == "/etc/sha\ufffddow"
    assert normalize("a\x01b\x7fc\x85d") == "a\ufffdb\ufffdc\ufffdd"
    assert normalize("\x1b[31mred\x1b[0m \u202egra\u202cd") == "red grad", "sequences and bidi still go"


def test_a_path_with_a_control_character_is_refused_even_when_that_file_exists(tmp_path: Path) -> None:
    (tmp_path / "tra\x01in.py").write_text("import os\nstep_and_backprop(model)\n")
    paths = LocalPaths(roots=(tmp_path,), cargo_home=tmp_path, rustup_home=tmp_path, stdlib=None, python_version="")
    for name in ("tra\x01in.py", str(tmp_path / "tra\x01in.py")):
        frame = Frame(name, 2, code="step_and_backprop(model)")
        assert user_snippet(ErrorEvent("python", "E", "m", frames=(frame,), user_frame=frame), paths) is None


def test_a_record_path_that_climbs_out_of_the_library_is_not_followed(tmp_path: Path) -> None:
    """A record is data from elsewhere: `Lib/../../x.py` is not a file of the standard library."""
    stdlib = tmp_path / "lib" / "python3.11"
    (stdlib / "json").mkdir(parents=True)
    outside = tmp_path / "secret.py"
    outside.write_text(f'# {SECRET}\nraise ValueError("widget count does not match the gadgets")\n# {SECRET}\n')
    paths = local_paths(tmp_path)._replace(roots=(tmp_path / "project",), stdlib=stdlib)
    message = "widget count does not match the gadgets"
    # From lib/python3.11 up to the folder that holds secret.py.
    climbing = Record("c", "python/cpython", "c", message, message, filePath="Lib/../../secret.py", lineNumber=2)
    event = ErrorEvent("python", "ValueError", message)
    assert library_source(climbing, event, paths) is None


@pytest.mark.parametrize("where", ["home", "above home", "root"])
def test_run_from_your_home_or_above_it_no_file_there_is_your_code(user: Home, where: str) -> None:
    # From the home folder (or a folder above it, or /) every file of yours would count as "your code".
    (user.home / "work").mkdir()
    script = user.home / "work" / "secret.py"
    script.write_text(f"# {SECRET}\ndef main():\n    pass\n# {SECRET}\n")
    rust = user.home / "work" / "main.rs"
    rust.write_text(f"fn main() {{\n    // {SECRET}\n    x.require_grad();\n}}\n")
    cwd = {"home": user.home, "above home": user.home.parent, "root": Path(os.sep)}[where]
    for text in (python_paste(str(script), 2, "def main():"), rust_paste(f"{rust}:3:5")):
        for fmt in ("plain", "json"):
            assert SECRET not in user.run(text, fmt, cwd=cwd)


def test_an_empty_home_variable_is_not_the_root_folder() -> None:
    from leafexplain.env import home

    assert home({"HOME": ""}) not in ("", "/") and home({"HOME": "relative/path"}).startswith("/")
    assert home({"HOME": "/somewhere/else"}) == "/somewhere/else"


class Swapper:
    """A writer racing in the project: `target` is a regular file (or folder) of the project one moment and a
    symlink to a file (or folder) outside the next, swapped by rename as fast as a thread can."""

    def __init__(self, target: Path, outside: Path) -> None:
        self.target, self.outside = target, outside
        self.aside = target.with_name(target.name + ".aside")
        self.link = target.with_name(target.name + ".link")
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.swap, daemon=True)

    def swap(self) -> None:
        folder = self.target.is_dir()
        while not self.stop.is_set():
            os.symlink(self.outside, self.link)
            if folder:  # a folder cannot be renamed over: moved aside, the symlink put in its place, and back
                os.rename(self.target, self.aside)
                os.rename(self.link, self.target)
                os.rename(self.target, self.link)
                os.rename(self.aside, self.target)
                os.unlink(self.link)
            else:
                os.link(self.target, self.aside)  # the project's file, kept to be put back
                os.replace(self.link, self.target)
                os.replace(self.aside, self.target)

    def __enter__(self) -> Swapper:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join(60)  # its last round puts the project back as it was: waited for, however loaded the machine


def race(look: Callable[[], object], rounds: int = 3000, seconds: float = 4.0) -> tuple[int, int]:
    """(how many lookups, how many showed the secret): `look` called while the writer swaps, bounded in count
    and in time."""
    leaks = done = 0
    end = time.monotonic() + seconds
    while done < rounds and time.monotonic() < end:
        leaks += SECRET in repr(look())  # an OSError escaping is a fault too: it would end the run (70)
        done += 1
    return done, leaks


@pytest.mark.parametrize("swapped", ["file", "folder"])
def test_a_symlink_swapped_in_while_explaining_never_shows_a_file_outside_your_code(
    tmp_path: Path, swapped: str
) -> None:
    """Resolved and checked, then opened by name, a file could be a symlink by then: what is read is what was
    opened, and what was opened is checked (nothing followed on the way), however the writer times its swaps."""
    project, outside = tmp_path / "project", tmp_path / "outside"
    (project / "src").mkdir(parents=True)
    outside.mkdir()
    mine = "fn main() {\n    build_the_graph();\n    x.require_grad();\n}\n"
    (project / "src" / "main.rs").write_text(mine)
    (outside / "main.rs").write_text(f"fn main() {{\n    // {SECRET}\n    // {SECRET}\n}}\n")
    paths = local_paths(tmp_path)._replace(roots=(str(project),))
    frame = Frame(str(project / "src" / "main.rs"), 2)
    event = ErrorEvent("rust", "panic", SEED, location=frame, frames=(frame,), user_frame=frame)
    target = project / "src" if swapped == "folder" else project / "src" / "main.rs"
    real = outside if swapped == "folder" else outside / "main.rs"
    with Swapper(target, real):
        done, leaks = race(lambda: user_snippet(event, paths))
    assert leaks == 0, f"{leaks} of {done} lookups showed the file outside the project"
    assert done >= 100 and user_snippet(event, paths) is not None, "the project's own file is still shown"


def test_a_symlink_swapped_in_for_a_library_file_is_never_read(tmp_path: Path) -> None:
    """The same race for a library file a frame names: checked in a library location, then opened."""
    grad = "grad can be implicitly created only for scalar outputs"
    torch = Record("t", "pytorch/pytorch", "t", grad, grad, filePath="torch/autograd/__init__.py", lineNumber=2)
    site = tmp_path / "venv" / "lib" / "python3.11" / "site-packages" / "torch" / "autograd"
    site.mkdir(parents=True)
    (site / "__init__.py").write_text(f'# library\nraise RuntimeError("{grad}")\n# library\n')
    secret = tmp_path / "outside.py"
    secret.write_text(f'# {SECRET}\nraise RuntimeError("{grad}")\n# {SECRET}\n')
    paths = local_paths(tmp_path)._replace(roots=(str(tmp_path / "project"),))
    frame = Frame(str(site / "__init__.py"), 2)
    event = ErrorEvent("python", "RuntimeError", grad, location=frame, frames=(frame,))
    with Swapper(site / "__init__.py", secret):
        done, leaks = race(lambda: library_source(torch, event, paths))
    assert leaks == 0, f"{leaks} of {done} lookups showed the file outside the library"
    assert done >= 100 and library_source(torch, event, paths) is not None


def swap_in(target: Path, outside: Path) -> None:
    """The writer's swap, at the worst moment: `target` (a file or a folder) becomes a symlink to `outside`."""
    if target.is_symlink():
        return
    target.rename(target.with_name(target.name + ".aside"))
    target.symlink_to(outside)


@pytest.mark.parametrize("swapped", ["file", "folder"])
def test_a_swap_timed_just_after_the_check_is_never_read(tmp_path: Path, monkeypatch, swapped: str) -> None:
    """The race above, won every time: the symlink is put in the moment the path has been checked."""
    from leafexplain.locate import files

    project, outside = tmp_path / "project", tmp_path / "outside"
    (project / "src").mkdir(parents=True)
    outside.mkdir()
    (project / "src" / "main.rs").write_text("fn main() {\n    build_the_graph();\n}\n")
    (outside / "main.rs").write_text(f"fn main() {{\n    // {SECRET}\n}}\n")
    paths = local_paths(tmp_path)._replace(roots=(str(project),))
    frame = Frame(str(project / "src" / "main.rs"), 2)
    event = ErrorEvent("rust", "panic", SEED, location=frame, frames=(frame,), user_frame=frame)
    target = project / "src" if swapped == "folder" else project / "src" / "main.rs"
    checked = files._in_your_folders

    def check_then_swap(real: str, local: LocalPaths) -> bool:
        inside = checked(real, local)
        swap_in(target, outside if swapped == "folder" else outside / "main.rs")
        return inside

    monkeypatch.setattr(files, "_in_your_folders", check_then_swap)
    assert SECRET not in repr(user_snippet(event, paths))


def test_a_library_file_swapped_just_after_its_check_is_never_read(tmp_path: Path, monkeypatch) -> None:
    from leafexplain.locate import library as lookup

    grad = "grad can be implicitly created only for scalar outputs"
    torch = Record("t", "pytorch/pytorch", "t", grad, grad, filePath="torch/autograd/__init__.py", lineNumber=2)
    site = tmp_path / "venv" / "lib" / "python3.11" / "site-packages" / "torch" / "autograd"
    site.mkdir(parents=True)
    (site / "__init__.py").write_text(f'# library\nraise RuntimeError("{grad}")\n')
    secret = tmp_path / "outside.py"
    secret.write_text(f'# {SECRET}\nraise RuntimeError("{grad}")\n')
    resolved = lookup.realpath

    def resolve_then_swap(path: str) -> str:
        real = resolved(path)
        swap_in(site / "__init__.py", secret)
        return real

    monkeypatch.setattr(lookup, "realpath", resolve_then_swap)
    frame = Frame(str(site / "__init__.py"), 2)
    event = ErrorEvent("python", "RuntimeError", grad, location=frame, frames=(frame,))
    paths = local_paths(tmp_path)._replace(roots=(str(tmp_path / "project"),))
    assert SECRET not in repr(library_source(torch, event, paths))


def test_open_resolved_follows_no_symlink_on_the_way(tmp_path: Path) -> None:
    from leafexplain.safeio import open_resolved, realpath

    base = realpath(tmp_path)
    (tmp_path / "real").mkdir()
    (tmp_path / "real" / "f.py").write_text("x = 1\n")
    (tmp_path / "link").symlink_to(tmp_path / "real")
    (tmp_path / "real" / "l.py").symlink_to(tmp_path / "real" / "f.py")
    os.mkfifo(tmp_path / "real" / "fifo.py")
    with open_resolved(f"{base}/real/f.py") as handle:
        assert handle.read() == b"x = 1\n"
    for path in ("link/f.py", "real/l.py", "real/../real/f.py", "real/fifo.py"):
        with pytest.raises(OSError):
            open_resolved(f"{base}/{path}")
    with pytest.raises(OSError):
        open_resolved("real/f.py")  # relative: not a resolved path
