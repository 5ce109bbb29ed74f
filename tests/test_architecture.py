"""The layout keeps its shape (docs/architecture.md): imports run one way, no circle, small modules,
one place each for the terminal, the rich Console and start-up cost."""

from __future__ import annotations

import ast
import os
import pty
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest

from tests.conftest import ROOT, Isolated

PACKAGE = ROOT / "leafexplain"
# Lowest first: a module imports from its own layer or the ones below, never from one above.
LAYERS = [
    [
        "leafexplain.version",
        "leafexplain.exitcodes",
        "leafexplain.named",
        "leafexplain.regex",
        "leafexplain.jsoncodec",
        "leafexplain.models",
        "leafexplain.env",
        "leafexplain.text",
        "leafexplain.redact",
        "leafexplain.safeio",
    ],
    ["leafexplain.bundled", "leafexplain.libraries"],
    ["leafexplain.records", "leafexplain.extract"],
    ["leafexplain.intake", "leafexplain.match", "leafexplain.locate"],
    ["leafexplain.render"],
    ["leafexplain.session"],
    ["leafexplain.cli", "leafexplain.integrations", "leafexplain.authoring", "leafexplain.fetch"],
    ["leafexplain", "leafexplain.__main__", "leafexplain.api", "leafexplain.hook"],
]
UPWARD_ALLOWED: set[tuple[str, str]] = set()  # at most one, named here with the reason


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def imports(name: str) -> set[str]:
    """The package's modules that `name` imports anywhere: at the top, in functions, for type checking."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(MODULES[name].read_text(encoding="utf-8"))):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            targets = [f"{node.module}.{alias.name}" for alias in node.names] + [node.module]
        for target in targets:
            if target in MODULES and target != name:
                found.add(target)
                break  # `from pkg import module` names the module; else the package itself
    return found


GRAPH = {name: imports(name) for name in MODULES}


def layer(name: str) -> int:
    best = max(
        (prefix for row in LAYERS for prefix in row if name == prefix or name.startswith(prefix + ".")),
        key=len,
    )
    return next(i for i, row in enumerate(LAYERS) if best in row)


def circles() -> list[list[str]]:
    """Strongly connected groups of modules (Tarjan): each one an import circle."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in GRAPH[node]:
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in GRAPH:
        if node not in index:
            visit(node)
    return found


def test_no_import_circle() -> None:
    assert circles() == []


def test_imports_run_down_the_layers() -> None:
    upward = {(a, b) for a, targets in GRAPH.items() for b in targets if layer(b) > layer(a)}
    assert upward <= UPWARD_ALLOWED and len(UPWARD_ALLOWED) <= 1, sorted(upward)


def test_every_module_is_placed_in_a_layer_and_says_what_it_is_for() -> None:
    for name, path in MODULES.items():
        layer(name)
        docstring = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
        assert docstring and docstring.strip(), f"{name} has no first line saying what it is for"


def calls_to(name: str) -> dict[str, list[str]]:
    """Where each module calls `name` (a function or a class), by its last dotted part."""
    found: dict[str, list[str]] = defaultdict(list)
    for module, path in MODULES.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                func = node.func
                called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
                if called == name or called.endswith(name):
                    found[module].append(called)
    return found


def test_one_place_builds_the_rich_console() -> None:
    assert set(calls_to("Console")) == {"leafexplain.render.formats.rich_console"}


def test_terminal_facts_are_read_in_env_only() -> None:
    assert set(calls_to("isatty")) <= {"leafexplain.env"}
    # and the fast path's one look at the width, for `--help`, before anything else is imported
    assert set(calls_to("get_terminal_size")) <= {"leafexplain.env", "leafexplain.cli"}
    for name, path in MODULES.items():
        if name != "leafexplain.env":
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Subscript | ast.Call) and "environ" in ast.unparse(node):
                    assert not any(v in ast.unparse(node) for v in ('"COLUMNS"', '"NO_COLOR"', '"XDG_')), name


def test_session_is_the_only_conductor() -> None:
    """The ways in (cli/, integrations/) ask `session` for an explanation and never run a stage of the pipeline
    themselves: none of them imports intake/ (reading, running a command) or match/."""
    ways_in = [m for m in MODULES if m.startswith(("leafexplain.cli", "leafexplain.integrations"))]
    conducting = {
        (a, b) for a in ways_in for b in GRAPH[a] if b.startswith(("leafexplain.intake", "leafexplain.match"))
    }
    assert ways_in and conducting == set(), sorted(conducting)


def test_authoring_is_not_imported_by_the_pipeline() -> None:
    users = {a for a, targets in GRAPH.items() for b in targets if b.startswith("leafexplain.authoring")}
    assert users <= {"leafexplain.cli.app"} | {m for m in MODULES if m.startswith("leafexplain.authoring")}


# What the matcher may ask of the catalog (records/catalog.py's "What the matcher asks", and a full record for
# what is shown): match/ reads nothing else of the records engine.
MATCHING_INTERFACE = {
    "candidates",
    "rows_reaching",
    "class_only_rows",
    "wordings",
    "weight",
    "language",
    "error_class",
    "repo",
    "record_id",
    "record",
    "rows_with_code",
    "keyed_by_code",
}
# The catalog's public attributes: the commands' columns (list, completion) and what a run reports. Its other
# columns and its word indexes are its own (a leading underscore).
CATALOG_ATTRIBUTES = {"ids", "repos", "slugs", "tags", "fetch", "problems", "sources", "saved"}


def _catalog_class() -> ast.ClassDef:
    tree = ast.parse(MODULES["leafexplain.records.catalog"].read_text(encoding="utf-8"))
    return next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Catalog")


def test_the_matcher_asks_the_records_only_through_the_catalogs_interface() -> None:
    """match/ calls the catalog's interface and nothing past it: no column, no word index, nothing private of
    another object; and from records/ it imports only the catalog, the pattern compiler and a wording's words."""
    catalog = _catalog_class()
    methods = {n.name for n in catalog.body if isinstance(n, ast.FunctionDef) and not n.name.startswith("_")}
    assert methods >= MATCHING_INTERFACE
    assigned = {
        target.attr
        for node in ast.walk(catalog)
        if isinstance(node, ast.Assign | ast.AnnAssign)
        for whole in (node.targets if isinstance(node, ast.Assign) else [node.target])
        for target in (whole.elts if isinstance(whole, ast.Tuple) else [whole])
        if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == "self"
    }
    assert {a for a in assigned if not a.startswith("_")} == CATALOG_ATTRIBUTES
    allowed_imports = {
        "leafexplain.records.catalog",
        "leafexplain.records.patterns",
        "leafexplain.records.wording_words",
    }
    matcher = [name for name in MODULES if name == "leafexplain.match" or name.startswith("leafexplain.match.")]
    for name in matcher:
        records = {t for t in GRAPH[name] if t.startswith("leafexplain.records")}
        assert records <= allowed_imports, (name, records)
        for node in ast.walk(ast.parse(MODULES[name].read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Attribute):
                continue
            value = node.value
            on_catalog = (isinstance(value, ast.Name) and value.id == "catalog") or (
                isinstance(value, ast.Attribute) and value.attr == "catalog"
            )
            if on_catalog:
                assert node.attr in MATCHING_INTERFACE, f"{name} reads catalog.{node.attr}"
            private = node.attr.startswith("_") and not node.attr.startswith("__") and node.attr != "_replace"
            if private and not (isinstance(value, ast.Name) and value.id == "self"):
                raise AssertionError(f"{name} reads {ast.unparse(node)}, another object's own")


NETWORK_MODULES = ("urllib.request", "http.client", "socket", "ssl", "requests", "httpx", "urllib3")


def test_only_update_goes_online() -> None:
    """Explaining never touches the network: only `fetch/` (run by `leafexplain update`) imports a network module."""
    online = set()
    for name, path in MODULES.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            names += [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            if any(n == m or n.startswith(m + ".") for n in names for m in NETWORK_MODULES):
                online.add(name)
    assert online and all(name.startswith("leafexplain.fetch") for name in online), sorted(online)
    users = {a for a, targets in GRAPH.items() for b in targets if b.startswith("leafexplain.fetch")}
    assert users <= {"leafexplain.cli.update"} | {m for m in MODULES if m.startswith("leafexplain.fetch")}


PROBE = """
import sys
from leafexplain.cli import main
code = main(sys.argv[1:])
loaded = sorted({m.split(".")[0] for m in sys.modules} & {"typer", "click", "rich"})
sys.stderr.write(f"loaded {loaded} {code}\\n")
"""


@pytest.mark.parametrize(
    "args",
    [["--version"], ["--help"], ["--format", "json", "RuntimeError: boom"], ["--format", "plain", "--no-source", "x"]],
    ids=["version", "help", "explain-json", "explain-plain"],
)
def test_the_everyday_command_loads_no_typer_click_or_rich(tmp_path: Path, args: list[str]) -> None:
    """Start-up time is most of a run: `--version`, `--help` and the everyday explain do without them."""
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *args],
        env=Isolated(tmp_path, COLUMNS="100").environ,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.stderr.splitlines()[-1] in ("loaded [] 0", "loaded [] 1"), done.stderr


# pathlib brings urllib.parse and ipaddress (4 ms); importlib brings warnings; contextlib is one import more.
SLOW_TO_IMPORT = (
    "json",  # its import compiles seven regexes: records are read and JSON written without it (jsoncodec.py)
    "typing",
    "dataclasses",
    "inspect",
    "rapidfuzz",
    "tempfile",
    "hashlib",
    "pathlib",
    "importlib",
    "contextlib",
    "tomllib",  # the configuration files: only when one is there (the tests run where pyproject.toml has no table)
    "tomli",
)
# Modules the interpreter loaded before ours (a site-packages `.pth` file may import typing or tempfile at
# start-up) are not ours to answer for: only what the run adds is counted.
PROBE_MODULES = """
import sys
before = set(sys.modules)
from leafexplain.cli import main
code = main(sys.argv[2:])
loaded = sorted({m.split(".")[0] for m in set(sys.modules) - before} & set(sys.argv[1].split(",")))
sys.stderr.write(f"loaded {loaded} {code}\\n")
"""


def test_explaining_a_panic_loads_none_of_the_slow_standard_modules(tmp_path: Path) -> None:
    """A panic explained as JSON, its index built and then read: no module the run does without (the
    value types are not dataclasses, annotations stay unevaluated, the lines a tentative paragraph
    could match are ruled out without rapidfuzz, temporary files only when writing)."""
    panic = str(ROOT / "tests" / "corpus" / "outputs" / "rust" / "cargo-run-leaf.txt")
    command = [sys.executable, "-c", PROBE_MODULES, ",".join(SLOW_TO_IMPORT), "--format", "json", "--file", panic]
    environ = Isolated(tmp_path).environ
    subprocess.run(command, env=environ, capture_output=True, timeout=120, check=True)  # builds the index
    done = subprocess.run(command, env=environ, capture_output=True, text=True, timeout=60)
    assert done.stderr.splitlines()[-1] == "loaded [] 0", done.stderr


@pytest.mark.parametrize(
    ("args", "tty"),
    [
        (["--color", "always", "--file", "rust/cargo-run-leaf.txt"], False),
        (["--file", "python/json-decode.txt"], True),  # on a terminal: the same view
    ],
    ids=["rust-color-always", "python-on-a-terminal"],
)
def test_the_colour_view_loads_neither_rich_nor_pygments(tmp_path: Path, args: list[str], tty: bool) -> None:
    """The default view in colour, what a person sees after every failing build, is written by
    render/formats/terminal.py: rich (about 20 ms to import) and pygments (16 ms more with its lexer) are for
    --full, show and the tables; nor the slow standard modules the JSON run does without."""
    panic = str(ROOT / "tests" / "corpus" / "outputs" / args[-1])
    slow = ",".join(("rich", "pygments", "typer", "click", *SLOW_TO_IMPORT))
    command = [sys.executable, "-c", PROBE_MODULES, slow, *args[:-1], panic]
    environ = {**Isolated(tmp_path, TERM="xterm-256color", COLUMNS="100").environ}
    environ.pop("NO_COLOR", None)
    subprocess.run(command, env=environ, capture_output=True, timeout=120, check=True)  # builds the index
    if not tty:
        done = subprocess.run(command, env=environ, capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        assert "\x1b[" in done.stdout
        assert done.stderr.splitlines()[-1] == "loaded [] 0", done.stderr
        return
    main, child = pty.openpty()
    with subprocess.Popen(command, env=environ, stdout=child, stderr=subprocess.PIPE, text=True) as process:
        os.close(child)
        shown = b""
        while chunk := _read(main):
            shown += chunk
        stderr = process.stderr.read() if process.stderr else ""
    os.close(main)
    assert b"\x1b[" in shown
    assert stderr.splitlines()[-1] == "loaded [] 0", stderr


def _read(fd: int) -> bytes:
    try:
        return os.read(fd, 65536)
    except OSError:  # the child closed its end
        return b""
