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

from leafexplain.cli.completion import completion_app
from leafexplain.cli.explain import Options, load_catalog, run_command, run_explain
from leafexplain.cli.options import EXPLAIN, OUTPUT, RECORDS, CheckFormat, shared
from leafexplain.env import Environment
from leafexplain.exitcodes import ExitStatus
from leafexplain.render import warn
from leafexplain.version import __version__

app = typer.Typer(
    name="leafexplain",
    help="Explain Rust panics and Python tracebacks: pipe a failing run in, read what went wrong and how to fix it.",
    epilog="Example: cargo test 2>&1 | leafexplain",
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
        bool, typer.Option("--version", "-V", callback=_version, is_eager=True, help="Print the version and exit.")
    ] = False,
) -> None:
    """Explain Rust panics and Python tracebacks."""


EXPLAIN_EPILOG = (
    "Examples: cargo test 2>&1 | leafexplain  ·  leafexplain --file build.log --format json  ·  "
    'leafexplain "RuntimeError: element 0 of tensors does not require grad"'
)
# `leafexplain [OPTIONS] [TEXT]` is the explain command alone (see `explain_command`): its help is shorter.
BARE_EXPLAIN_EPILOG = "Examples: cargo test 2>&1 | leafexplain  ·  leafexplain --file build.log --format json"


@app.command(epilog=EXPLAIN_EPILOG)
@shared(*EXPLAIN)
def explain(
    text: Annotated[Optional[list[str]], typer.Argument(help="Error text; read from stdin when piped.")] = None,
    file: Annotated[
        Optional[str], typer.Option("--file", "-f", metavar="FILE", help="Read this file (- for stdin).")
    ] = None,
    *,
    opts: Options,
) -> None:
    """Find every panic and traceback in the text and explain each one."""
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
        callback=explain,
        epilog=BARE_EXPLAIN_EPILOG,
        context_settings={"help_option_names": ["-h", "--help"]},
    )
    return typer.main.get_command_from_info(info, pretty_exceptions_short=False, rich_markup_mode=None)


@app.command(epilog="Example: leafexplain demo --format plain")
@shared(*EXPLAIN)
def demo(*, opts: Options) -> None:
    """Explain the example burn panic shipped with leafexplain (a first look, no input needed)."""
    from leafexplain.bundled import example_path

    raise typer.Exit(run_explain(_env(), opts._replace(file=str(example_path()))))


@app.command(
    context_settings={"allow_interspersed_args": False},  # everything from CMD on is the command's own
    epilog="Examples: leafexplain run -- cargo test  ·  leafexplain run -- python train.py --epochs 3",
)
@shared(*EXPLAIN)
def run(
    command: Annotated[list[str], typer.Argument(metavar="-- CMD [ARGS]...", help="The command to run.")],
    *,
    opts: Options,
) -> None:
    """Run a command, pass its output through, then explain its errors (on stderr); exit with its code."""
    raise typer.Exit(run_command(command, opts, _env()))


@app.command(epilog="Example: leafexplain show can-t-convert-a-non-leaf-tensor-into-a-tracked-ten")
@shared(*OUTPUT, *RECORDS)
def show(
    key: Annotated[str, typer.Argument(metavar="ID|SLUG", help="A record's id or slug.")],
    *,
    opts: Options,
) -> None:
    """Show one record in full."""
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


@app.command(name="list", epilog="Example: leafexplain list --repo tracel-ai/burn --tag autodiff")
@shared(*OUTPUT, *RECORDS)
def list_records(
    repo: Annotated[
        Optional[str], typer.Option("--repo", metavar="OWNER/NAME", help="Only records of this repository.")
    ] = None,
    tag: Annotated[Optional[str], typer.Option("--tag", metavar="TAG", help="Only records with this tag.")] = None,
    *,
    opts: Options,
) -> None:
    """List records: id, repository, error type and message."""
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


@app.command(epilog="Example: leafexplain search 'shapes cannot be multiplied'")
@shared(*OUTPUT, *RECORDS)
def search(
    query: Annotated[list[str], typer.Argument(help="Words to look for in messages, slugs, tags and repositories.")],
    limit: Annotated[int, typer.Option("--limit", "-n", min=1, help="How many results at most.")] = 10,
    *,
    opts: Options,
) -> None:
    """Search the records by relevance, best first; exit 1 when none is relevant."""
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


@app.command(epilog="Examples: leafexplain validate  ·  leafexplain validate my-records/ extra.jsonl")
@shared(*RECORDS)
def validate(
    paths: Annotated[
        Optional[list[Path]], typer.Argument(help="Files or folders to check (default: every record source).")
    ] = None,
    fmt: Annotated[CheckFormat, typer.Option("--format", "-F", help="Output format.")] = CheckFormat.text,
    *,
    opts: Options,
) -> None:
    """Check record files against the schema; exit 1 if anything is wrong."""
    from leafexplain.render.checks import write_validation

    loaded = _records_read_afresh(paths, opts)
    write_validation(loaded, fmt.value, _env())
    raise typer.Exit(ExitStatus.NOTHING_MATCHED if loaded.problems else ExitStatus.EXPLAINED)


@app.command(
    epilog="Examples: leafexplain verify --source ~/src/burn records/tracel-ai/burn  ·  "
    "leafexplain verify --source Python-3.11.2/ --repo python/cpython"
)
@shared(*RECORDS)
def verify(
    paths: Annotated[
        Optional[list[Path]], typer.Argument(help="Record files or folders (default: every record source).")
    ] = None,
    source: Annotated[
        Path, typer.Option("--source", metavar="DIR", help="A git checkout, bare git folder or unpacked release.")
    ] = Path("."),
    repo: Annotated[
        Optional[str], typer.Option("--repo", metavar="OWNER/NAME", help="Which records DIR is for (default: guessed).")
    ] = None,
    fmt: Annotated[CheckFormat, typer.Option("--format", "-F", help="Output format.")] = CheckFormat.text,
    *,
    opts: Options,
) -> None:
    """Check records against a local copy of their repository: commit, file, message line."""
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
    epilog="Example: leafexplain new --repo tracel-ai/burn --commit 75b7881397df1f21e5c2bf51cd3aa6b9ae2bb6a4 "
    "--path crates/burn-ir/src/handle.rs --line 88 --message 'Should have handle for tensor TensorId { value: 7 }' "
    "--pattern 'Should have handle for tensor {id:?}' --out records"
)
def new(
    repo: Annotated[str, typer.Option("--repo", metavar="OWNER/NAME", help="The repository that raises the error.")],
    commit: Annotated[str, typer.Option("--commit", metavar="SHA", help="The full commit the facts were read at.")],
    path: Annotated[str, typer.Option("--path", metavar="FILE", help="The file, relative to the repository root.")],
    line: Annotated[int, typer.Option("--line", min=1, help="The line on which the message literal starts.")],
    message: Annotated[str, typer.Option("--message", help="The message as a user sees it, values filled in.")],
    pattern: Annotated[
        Optional[str], typer.Option("--pattern", help="The literal with its placeholders (default: the message).")
    ] = None,
    error_class: Annotated[
        Optional[str], typer.Option("--class", metavar="NAME", help="Python exception class (default: a Rust panic).")
    ] = None,
    out: Annotated[
        Optional[Path], typer.Option("--out", metavar="DIR", help="Write DIR/OWNER/NAME/SLUG.json instead of stdout.")
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="Replace a file already at that place.")] = False,
) -> None:
    """Scaffold a record from where its message is raised: slug, id and link computed."""
    from leafexplain.authoring.new import RecordRefused, dumps, new_record, save
    from leafexplain.render import emit

    env = _env()
    try:
        wrapped = new_record(
            repo=repo, commit=commit, path=path, line=line, message=message,
            pattern=pattern, error_class=error_class, out=out,
        )  # fmt: skip
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
    name="import", epilog="Examples: leafexplain import team-records.jsonl  ·  leafexplain import --force fixed/"
)
def import_records(
    paths: Annotated[list[Path], typer.Argument(metavar="FILE...", help="Record files or folders to add.")],
    force: Annotated[
        bool, typer.Option("--force", help="Replace a record with the same id that differs (else it is skipped).")
    ] = False,
) -> None:
    """Validate records and copy them into your records folder, one file each."""
    from leafexplain.authoring.importing import import_paths

    raise typer.Exit(import_paths([str(p) for p in paths], force=force, env=_env()))


@app.command(epilog="Examples: leafexplain update  ·  leafexplain update --records my-records/ --timeout 60")
@shared("no_bundled")
def update(
    records: Annotated[
        Optional[list[str]],
        typer.Option(
            "--records", metavar="PATH", help="Only the records in this file or folder (repeatable; default: all)."
        ),
    ] = None,
    base_url: Annotated[
        Optional[str],
        typer.Option(
            "--base-url",
            metavar="URL",
            help="The raw file service (default: $LEAFEXPLAIN_RAW_BASE, else https://raw.githubusercontent.com).",
        ),
    ] = None,
    # The defaults are fetch/'s DEFAULT_TIMEOUT and DEFAULT_JOBS, not imported here: urllib is slow to import.
    timeout: Annotated[
        float, typer.Option("--timeout", metavar="SECONDS", min=1, max=600, help="Time allowed for each file.")
    ] = 20.0,
    jobs: Annotated[int, typer.Option("--jobs", "-j", metavar="N", min=1, max=16, help="Files fetched at once.")] = 4,
    *,
    opts: Options,
) -> None:
    """Fetch the source lines where each record's error is raised from GitHub, for explain to show offline."""
    from leafexplain.cli.update import run_update

    env = _env()
    raise typer.Exit(
        run_update(env, records or (), no_bundled=opts.no_bundled, base=base_url, timeout=timeout, jobs=jobs)
    )


app.add_typer(completion_app, name="completion")  # `completion show|install`: the scripts in completions/


@app.command(name="__complete", hidden=True)
@shared(*RECORDS)
def complete_values(
    kind: Annotated[str, typer.Argument(help="ids, slugs, repos or tags")],
    *,
    opts: Options,
) -> None:
    """Print record ids, slugs, repositories or tags, one a line (for shell completion).

    It goes through the index, which writes the plain lists that later TABs read without Python.
    """
    from leafexplain.records import open_catalog
    from leafexplain.records.completion_lists import KINDS, completion_values
    from leafexplain.render import emit

    if kind not in KINDS:
        raise typer.Exit(ExitStatus.USAGE_ERROR)
    env = _env()
    catalog = open_catalog(opts.records, bundled=not opts.no_bundled, environ=env.environ)
    emit(env, "".join(f"{v}\n" for v in sorted(completion_values(catalog, kind))))


def command_names() -> set[str]:
    """Every command's name (the generated table keeps them for the router)."""
    names = {info.name or info.callback.__name__.replace("_", "-") for info in app.registered_commands if info.callback}
    return names | {info.name for info in app.registered_groups if info.name}
