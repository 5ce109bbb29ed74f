"""The typer app: thin commands that take their options, call one function, and leave with its exit code.

Routing happens before the app is built (cli/router.py); errors are mapped in one place
(cli/guard.py). A command finds the Environment it runs in as click's context object.
"""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Annotated, Any, Optional

import click
import typer

from leafexplain.cli.commands import ROOT
from leafexplain.cli.explain import Options, load_catalog, run_command, run_explain
from leafexplain.cli.options import EXPLAIN, OUTPUT, RECORDS, CheckFormat, argument, declared, option, shared
from leafexplain.env import Environment
from leafexplain.exitcodes import ExitStatus
from leafexplain.integrations.completion.command import completion_app
from leafexplain.render import warn
from leafexplain.version import __version__

app = typer.Typer(
    name="leafexplain",
    help=ROOT["help"],
    epilog=ROOT["epilog"],
    add_completion=False,
    no_args_is_help=False,
    context_settings={"help_option_names": ["-h", "--help"]},
    pretty_exceptions_enable=False,
    rich_markup_mode=None,  # click's plain help: rich-formatted help costs ~70 ms at every --help
)


def _env() -> Environment:
    return click.get_current_context().obj


def _version(value: bool) -> None:
    if value:
        typer.echo(f"leafexplain {__version__}")
        raise typer.Exit()


@app.callback()
def root(
    version: Annotated[
        bool,
        typer.Option(
            *ROOT["options"]["version"]["flags"],
            callback=_version,
            is_eager=True,
            help=ROOT["options"]["version"]["help"],
        ),
    ] = False,
) -> None:
    """Explain Rust panics and Python tracebacks."""


EXPLAIN_EPILOG = (
    "Examples: cargo test 2>&1 | leafexplain  ·  leafexplain --file build.log --format json  ·  "
    'leafexplain "RuntimeError: element 0 of tensors does not require grad"'
)
# `leafexplain [OPTIONS] [TEXT]` is the explain command alone (see `explain_command`): its help is shorter.
BARE_EXPLAIN_EPILOG = "Examples: cargo test 2>&1 | leafexplain  ·  leafexplain --file build.log --format json"


@app.command(**declared("explain"), epilog=EXPLAIN_EPILOG)
@shared(*EXPLAIN)
def explain(
    text: Annotated[Optional[list[str]], argument("explain", name="text")] = None,
    file: Annotated[Optional[str], option("explain", dest="file")] = None,
    *,
    opts: Options,
) -> None:
    from leafexplain.models import NoInput

    try:
        code = run_explain(_env(), opts._replace(text=tuple(text or ()), file=file))
    except NoInput as exc:
        raise click.UsageError(str(exc)) from None
    raise typer.Exit(code)


def explain_command() -> click.Command:
    """The explain command alone, for `leafexplain [OPTIONS] [TEXT]`: one click command is ~15 ms cheaper to
    build than the whole app, and its usage line names no subcommand."""
    from typer.models import CommandInfo

    info = CommandInfo(
        name="explain",
        help=declared("explain")["help"],
        callback=explain,
        epilog=BARE_EXPLAIN_EPILOG,
        context_settings={"help_option_names": ["-h", "--help"]},
    )
    return typer.main.get_command_from_info(info, pretty_exceptions_short=False, rich_markup_mode=None)


@app.command(**declared("demo"), epilog="Example: leafexplain demo --format plain")
@shared(*EXPLAIN)
def demo(*, opts: Options) -> None:
    from leafexplain.bundled import example_path

    raise typer.Exit(run_explain(_env(), opts._replace(file=str(example_path()))))


@app.command(
    **declared("run"),
    context_settings={"allow_interspersed_args": False},  # everything from CMD on is the command's own
    epilog="Examples: leafexplain run -- cargo test  ·  leafexplain run -- python train.py --epochs 3",
)
@shared(*EXPLAIN)
def run(
    command: Annotated[list[str], argument("run", name="command")],
    *,
    opts: Options,
) -> None:
    raise typer.Exit(run_command(command, opts, _env()))


@app.command(**declared("show"), epilog="Example: leafexplain show can-t-convert-a-non-leaf-tensor-into-a-tracked-ten")
@shared(*OUTPUT, *RECORDS)
def show(
    key: Annotated[str, argument("show", name="key")],
    *,
    opts: Options,
) -> None:
    from leafexplain.render import write_record

    env = _env()
    catalog = load_catalog(opts, env)
    found = [catalog.record(i) for i in catalog.find(key)]
    if not found:
        warn(env, f"no record with id or slug '{key}' (try `leafexplain search {shlex.quote(key)}`)")
        raise typer.Exit(ExitStatus.NOTHING_MATCHED)
    if len(found) > 1:
        warn(env, f"'{key}' names {len(found)} records; use an id: " + ", ".join(f"{r.id} ({r.repo})" for r in found))
        raise typer.Exit(ExitStatus.USAGE_ERROR)
    write_record(found[0], env, opts.style)


def _write_table(rows: list[Any], nothing: str, opts: Options, env: Environment) -> None:
    """`list` and `search`: the table, or a line on stderr (and the empty envelope, for JSON) when nothing was found."""
    from leafexplain.render import DOCUMENT_FORMATS, write_records

    if not rows:
        warn(env, nothing)
        if opts.fmt in DOCUMENT_FORMATS:
            write_records(rows, env, opts.style)
        raise typer.Exit(ExitStatus.NOTHING_MATCHED)
    write_records(rows, env, opts.style)


@app.command(**declared("list"), epilog="Example: leafexplain list --repo tracel-ai/burn --tag autodiff")
@shared(*OUTPUT, *RECORDS)
def list_records(
    repo: Annotated[Optional[str], option("list", dest="repo")] = None,
    tag: Annotated[Optional[str], option("list", dest="tag")] = None,
    *,
    opts: Options,
) -> None:
    env = _env()
    catalog = load_catalog(opts, env)
    wanted = [
        i
        for i in range(len(catalog))
        if (repo is None or catalog.repos[i].lower() == repo.lower())
        and (tag is None or tag.lower() in (t.lower() for t in catalog.tags[i]))
    ]
    chosen = sorted((catalog.record(i) for i in wanted), key=lambda r: (r.repo, r.slug))
    nothing = "no records" + (f" of {repo}" if repo else "") + (f" tagged {tag}" if tag else "")
    _write_table([(r, None) for r in chosen], nothing, opts, env)


@app.command(**declared("search"), epilog="Example: leafexplain search 'shapes cannot be multiplied'")
@shared(*OUTPUT, *RECORDS)
def search(
    query: Annotated[list[str], argument("search", name="query")],
    limit: Annotated[int, option("search", dest="limit")] = 10,
    *,
    opts: Options,
) -> None:
    from leafexplain.records.search import MAX_QUERY_CHARS, search_records

    env = _env()
    words = " ".join(query)
    found = search_records(load_catalog(opts, env), words, limit)
    if found.query_cut:
        warn(env, f"the query is long: searched for its first {MAX_QUERY_CHARS} characters")
    shown = words if len(words) <= 80 else words[:79] + "…"
    _write_table(found.rows, f"no record is relevant to '{shown}' (try fewer or other words)", opts, env)


def _records_read_afresh(paths: list[Path] | None, opts: Options) -> Any:
    """Every record read from its file, not from the index: the named paths (and --records), else every source."""
    from leafexplain.records import load_paths, load_records

    if paths:
        return load_paths([str(p) for p in paths] + list(opts.records))
    return load_records(opts.records, bundled=not opts.no_bundled, environ=_env().environ)


@app.command(
    **declared("validate"), epilog="Examples: leafexplain validate  ·  leafexplain validate my-records/ extra.jsonl"
)
@shared(*RECORDS)
def validate(
    paths: Annotated[Optional[list[Path]], argument("validate", name="paths")] = None,
    fmt: Annotated[CheckFormat, option("validate", dest="fmt")] = CheckFormat.text,
    *,
    opts: Options,
) -> None:
    from leafexplain.render.checks import write_validation

    loaded = _records_read_afresh(paths, opts)
    write_validation(loaded, fmt.value, _env())
    raise typer.Exit(ExitStatus.NOTHING_MATCHED if loaded.problems else ExitStatus.EXPLAINED)


@app.command(
    **declared("verify"),
    epilog="Examples: leafexplain verify --source ~/src/burn records/tracel-ai/burn  ·  "
    "leafexplain verify --source Python-3.11.2/ --repo python/cpython",
)
@shared(*RECORDS)
def verify(
    paths: Annotated[Optional[list[Path]], argument("verify", name="paths")] = None,
    source: Annotated[Path, option("verify", dest="source")] = Path("."),
    repo: Annotated[Optional[str], option("verify", dest="repo")] = None,
    fmt: Annotated[CheckFormat, option("verify", dest="fmt")] = CheckFormat.text,
    *,
    opts: Options,
) -> None:
    from leafexplain.authoring.verify import verify_records
    from leafexplain.render import warn_problems
    from leafexplain.render.checks import write_verification

    env = _env()
    if not source.is_dir():
        warn(env, f"--source {source}: not a folder")
        raise typer.Exit(ExitStatus.USAGE_ERROR)
    loaded = _records_read_afresh(paths, opts)
    warn_problems(env, loaded.problems)
    chosen_repo, verdicts = verify_records(loaded.records, source, repo)
    if not verdicts:
        warn(env, f"no records to check against {source}" + (f" for {chosen_repo}" if chosen_repo else ""))
        raise typer.Exit(ExitStatus.NOTHING_MATCHED)
    write_verification(chosen_repo, str(source), verdicts, fmt.value, env)
    raise typer.Exit(ExitStatus.EXPLAINED if all(v.ok for v in verdicts) else ExitStatus.NOTHING_MATCHED)


@app.command(
    **declared("new"),
    epilog="Example: leafexplain new --repo tracel-ai/burn --commit 75b7881397df1f21e5c2bf51cd3aa6b9ae2bb6a4 "
    "--path crates/burn-ir/src/handle.rs --line 88 --message 'Should have handle for tensor TensorId { value: 7 }' "
    "--pattern 'Should have handle for tensor {id:?}' --out records",
)
def new(
    repo: Annotated[str, option("new", dest="repo")],
    commit: Annotated[str, option("new", dest="commit")],
    path: Annotated[str, option("new", dest="path")],
    line: Annotated[int, option("new", dest="line")],
    message: Annotated[str, option("new", dest="message")],
    pattern: Annotated[Optional[str], option("new", dest="pattern")] = None,
    error_class: Annotated[Optional[str], option("new", dest="error_class")] = None,
    out: Annotated[Optional[Path], option("new", dest="out")] = None,
    force: Annotated[bool, option("new", dest="force")] = False,
) -> None:
    from leafexplain.authoring.new import RecordRefused, dumps, new_record, save
    from leafexplain.render import emit

    env = _env()
    try:
        wrapped = new_record(
            repo=repo,
            commit=commit,
            path=path,
            line=line,
            message=message,
            pattern=pattern,
            error_class=error_class,
            out=out,
        )
    except RecordRefused as exc:
        warn(env, str(exc))
        raise typer.Exit(ExitStatus.USAGE_ERROR) from None
    if out is None:
        emit(env, dumps(wrapped))
        return
    try:
        target = save(out, wrapped, force=force)
    except RecordRefused as exc:
        warn(env, str(exc))
        raise typer.Exit(ExitStatus.USAGE_ERROR) from None
    except OSError as exc:
        warn(env, f"cannot write into {out}: {exc.strerror or exc}")
        raise typer.Exit(ExitStatus.USAGE_ERROR) from None
    warn(env, f"wrote {target}; now fill in the prose fields, then run `leafexplain validate` and `verify`")


@app.command(
    **declared("import"), epilog="Examples: leafexplain import team-records.jsonl  ·  leafexplain import --force fixed/"
)
def import_records(
    paths: Annotated[list[Path], argument("import", name="paths")],
    force: Annotated[bool, option("import", dest="force")] = False,
) -> None:
    from leafexplain.authoring.importing import import_paths

    raise typer.Exit(import_paths([str(p) for p in paths], force=force, env=_env()))


@app.command(
    **declared("update"),
    epilog="Examples: leafexplain update  ·  leafexplain update --records my-records/ --timeout 60",
)
@shared("no_bundled")
def update(
    records: Annotated[Optional[list[str]], option("update", dest="records")] = None,
    base_url: Annotated[Optional[str], option("update", dest="base_url")] = None,
    # The defaults are fetch/'s DEFAULT_TIMEOUT and DEFAULT_JOBS, not imported here: urllib is slow to import.
    timeout: Annotated[float, option("update", dest="timeout")] = 20.0,
    jobs: Annotated[int, option("update", dest="jobs")] = 4,
    *,
    opts: Options,
) -> None:
    from leafexplain.cli.update import run_update

    env = _env()
    raise typer.Exit(
        run_update(env, records or (), no_bundled=opts.no_bundled, base=base_url, timeout=timeout, jobs=jobs)
    )


@app.command(**declared("mcp"), epilog="Example: pip install 'leafexplain[mcp]'  ·  leafexplain mcp (docs/mcp.md)")
@shared(*RECORDS)
def mcp(*, opts: Options) -> None:
    from leafexplain.cli.mcp import run_mcp

    raise typer.Exit(run_mcp(_env(), opts.records, bundled=not opts.no_bundled))


app.add_typer(completion_app, **declared("completion"))  # `completion show|install`


@app.command(**declared("__complete"))
@shared(*RECORDS)
def complete_values(
    kind: Annotated[str, argument("__complete", name="kind")],
    *,
    opts: Options,
) -> None:
    # The values come from the index; the plain lists that later TABs read without Python are written beside.
    from leafexplain.integrations.completion.lists import KINDS, answer

    if kind not in KINDS:
        raise typer.Exit(ExitStatus.USAGE_ERROR)
    answer(kind, opts.records, bundled=not opts.no_bundled, env=_env())
