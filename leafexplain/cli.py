"""The command line: thin typer commands that parse options, run the pipeline and render."""

from __future__ import annotations

import sys
from enum import Enum
from pathlib import Path
from typing import Annotated, Any, Optional

import click
import typer
from typer.core import TyperGroup

from leafexplain import __version__
from leafexplain.completion import completion_app
from leafexplain.env import ColorChoice, Environment
from leafexplain.exitcodes import ExitStatus
from leafexplain.guard import run_guarded
from leafexplain.output import warn, warn_problems, write_json, write_views

DEFAULT_COMMAND = "explain"


def route(args: list[str], commands: set[str], takes_value: set[str]) -> list[str] | None:
    """The arguments with the command name first; None for the group's own `--help`/`--version`.

    `leafexplain [OPTIONS] [TEXT ...]` means `leafexplain explain [OPTIONS] [TEXT ...]`, and
    options given before a command name (`--records DIR show ID`) go to that command.
    """
    if args in (["--help"], ["-h"]) or args[:1] in (["--version"], ["-V"]):
        return None
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--":
            break
        if arg.startswith("-") and arg != "-":
            i += 2 if arg in takes_value else 1
            continue
        if arg in commands:
            return [arg, *args[:i], *args[i + 1 :]]
        break
    return [DEFAULT_COMMAND, *args]


def _value_options(command: click.Command) -> set[str]:
    return {opt for p in command.params if isinstance(p, click.Option) and not p.is_flag for opt in p.opts}


class DefaultToExplain(TyperGroup):
    """The group: routes words that are not command names to `explain`."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        routed = route(args, set(self.commands), _value_options(self.commands[DEFAULT_COMMAND]))
        return super().parse_args(ctx, args if routed is None else routed)


app = typer.Typer(
    cls=DefaultToExplain,
    name="leafexplain",
    help="Explain Rust panics and Python tracebacks: pipe a failing run in, read what went wrong and how to fix it.",
    epilog="Example: cargo test 2>&1 | leafexplain",
    add_completion=False,
    no_args_is_help=False,
    context_settings={"help_option_names": ["-h", "--help"]},
    pretty_exceptions_enable=False,
    rich_markup_mode=None,  # click's plain help: rich-formatted help costs ~70 ms at every --help
)

RecordsOpt = Annotated[
    Optional[list[str]],
    typer.Option("--records", metavar="PATH", help="Also load records from this file or folder (repeatable)."),
]
NoBundledOpt = Annotated[bool, typer.Option("--no-bundled", help="Leave out the records shipped with leafexplain.")]


class FormatName(str, Enum):
    auto = "auto"
    rich = "rich"
    plain = "plain"
    json = "json"
    markdown = "markdown"


class ColorName(str, Enum):
    auto = "auto"
    always = "always"
    never = "never"


class ValidateFormat(str, Enum):
    text = "text"
    json = "json"


FormatOpt = Annotated[
    FormatName, typer.Option("--format", "-F", help="Output format; auto is rich on a terminal, plain otherwise.")
]
ColorOpt = Annotated[
    ColorName, typer.Option("--color", help="Colour; auto uses it on a terminal unless NO_COLOR is set.")
]
WidthOpt = Annotated[Optional[int], typer.Option("--width", min=20, max=1000, help="Output width in columns.")]


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


def _catalog(records: list[str] | None, no_bundled: bool, env: Environment) -> Any:
    from leafexplain.explaining import load_catalog

    return load_catalog(records, no_bundled, env)


@app.command(
    epilog="Examples: cargo test 2>&1 | leafexplain  ·  leafexplain --file build.log --format json  ·  "
    'leafexplain "RuntimeError: element 0 of tensors does not require grad"'
)
def explain(
    text: Annotated[Optional[list[str]], typer.Argument(help="Error text; read from stdin when piped.")] = None,
    file: Annotated[
        Optional[str], typer.Option("--file", "-f", metavar="FILE", help="Read this file (- for stdin).")
    ] = None,
    fmt: FormatOpt = FormatName.auto,
    color: ColorOpt = ColorName.auto,
    width: WidthOpt = None,
    threshold: Annotated[
        Optional[float], typer.Option("--threshold", min=0, max=100, help="Fuzzy-match cut-off, 0-100 (default 85).")
    ] = None,
    show_all: Annotated[bool, typer.Option("--all", help="Show every candidate at or above the cut-off.")] = False,
    full: Annotated[
        bool, typer.Option("--full", help="Also show handling strategy, guards and try/catch patterns.")
    ] = False,
    records: RecordsOpt = None,
    no_bundled: NoBundledOpt = False,
    no_source: Annotated[
        bool, typer.Option("--no-source", help="Leave out your code and the library source installed here.")
    ] = False,
    root: Annotated[
        Optional[Path], typer.Option("--root", metavar="DIR", help="Also resolve relative paths in the error in DIR.")
    ] = None,
) -> None:
    """Find every panic and traceback in the text and explain each one."""
    from leafexplain.explaining import NoInput, run_explain

    try:
        code = run_explain(
            Environment.from_process(),
            text=text, file=file, fmt=fmt.value, color=color.value, width=width, threshold=threshold,
            show_all=show_all, full=full, records=records, no_bundled=no_bundled, no_source=no_source, root=root,
        )  # fmt: skip
    except NoInput as exc:
        raise click.UsageError(str(exc)) from None
    raise typer.Exit(code)


# The same command alone: building one click command instead of the whole group saves ~15 ms
# on every explain, the command users run most (see main()).
explain_app = typer.Typer(add_completion=False, rich_markup_mode=None, pretty_exceptions_enable=False)
explain_app.command(
    name="explain",
    epilog="Examples: cargo test 2>&1 | leafexplain  ·  leafexplain --file build.log --format json",
    context_settings={"help_option_names": ["-h", "--help"]},
)(explain)


def _command_names() -> set[str]:
    names = {info.name or info.callback.__name__.replace("_", "-") for info in app.registered_commands if info.callback}
    return names | {info.name for info in app.registered_groups if info.name}


@app.command(epilog="Example: leafexplain demo --format plain")
def demo(
    fmt: FormatOpt = FormatName.auto,
    color: ColorOpt = ColorName.auto,
    width: WidthOpt = None,
    records: RecordsOpt = None,
    no_bundled: NoBundledOpt = False,
) -> None:
    """Explain the example burn panic shipped with leafexplain (a first look, no input needed)."""
    from leafexplain.bundled import example_path

    explain(
        file=str(example_path()),
        fmt=fmt,
        color=color,
        width=width,
        threshold=None,
        show_all=False,
        full=False,
        records=records,
        no_bundled=no_bundled,
    )


@app.command(
    context_settings={"allow_interspersed_args": False},  # everything from CMD on is the command's own
    epilog="Examples: leafexplain run -- cargo test  ·  leafexplain run -- python train.py --epochs 3",
)
def run(
    command: Annotated[list[str], typer.Argument(metavar="-- CMD [ARGS]...", help="The command to run.")],
    fmt: FormatOpt = FormatName.auto,
    color: ColorOpt = ColorName.auto,
    width: WidthOpt = None,
    threshold: Annotated[
        Optional[float], typer.Option("--threshold", min=0, max=100, help="Fuzzy-match cut-off, 0-100 (default 85).")
    ] = None,
    records: RecordsOpt = None,
    no_bundled: NoBundledOpt = False,
) -> None:
    """Run a command, pass its output through, then explain its errors (on stderr); exit with its code."""
    from leafexplain.runner import run_and_explain

    code = run_and_explain(
        command,
        fmt=fmt.value,  # type: ignore[arg-type]
        color=color.value,  # type: ignore[arg-type]
        width=width,
        threshold=threshold,
        records=records or (),
        bundled=not no_bundled,
    )
    raise typer.Exit(code)


@app.command(epilog="Example: leafexplain show can-t-convert-a-non-leaf-tensor-into-a-tracked-ten")
def show(
    key: Annotated[str, typer.Argument(metavar="ID|SLUG", help="A record's id or slug.")],
    fmt: FormatOpt = FormatName.auto,
    color: ColorOpt = ColorName.auto,
    width: WidthOpt = None,
    records: RecordsOpt = None,
    no_bundled: NoBundledOpt = False,
) -> None:
    """Show one record in full."""
    env = Environment.from_process()
    catalog = _catalog(records, no_bundled, env)
    found = [catalog.record(i) for i in catalog.find(key)]
    if not found:
        warn(env, f"no record with id or slug '{key}' (try `leafexplain search {key}`)")
        raise typer.Exit(ExitStatus.NOTHING_MATCHED)
    if len(found) > 1:
        warn(env, f"'{key}' names {len(found)} records; use an id: " + ", ".join(f"{r.id} ({r.repo})" for r in found))
        raise typer.Exit(ExitStatus.USAGE_ERROR)
    record = found[0]
    if fmt.value == "json":
        from leafexplain.render.json_out import RECORD_SCHEMA, record_dict

        write_json({"schema": RECORD_SCHEMA, "record": record_dict(record)}, env)
    else:
        from leafexplain.render.document import record_view

        write_views([record_view(record)], fmt.value, env, color.value, width)  # type: ignore[arg-type]


def _write_record_table(
    rows: list[tuple[Any, float | None]], fmt: str, env: Environment, color: ColorChoice, width: int | None
) -> None:
    from leafexplain.output import make_console, resolve_format

    if fmt == "json":
        from leafexplain.render.json_out import RECORDS_SCHEMA, record_summary

        write_json({"schema": RECORDS_SCHEMA, "records": [record_summary(r, s) for r, s in rows]}, env)
        return
    from leafexplain.render.tables import record_table_markdown, record_table_plain, record_table_rich

    resolved = resolve_format(fmt, env, color)  # type: ignore[arg-type]
    if resolved == "rich":
        make_console(env, color, width).print(record_table_rich(rows))
    elif resolved == "markdown":
        env.stdout.write(record_table_markdown(rows))
    else:
        env.stdout.write(record_table_plain(rows, width or env.width))
    env.stdout.flush()


@app.command(name="list", epilog="Example: leafexplain list --repo tracel-ai/burn --tag autodiff")
def list_records(
    repo: Annotated[
        Optional[str], typer.Option("--repo", metavar="OWNER/NAME", help="Only records of this repository.")
    ] = None,
    tag: Annotated[Optional[str], typer.Option("--tag", metavar="TAG", help="Only records with this tag.")] = None,
    fmt: FormatOpt = FormatName.auto,
    color: ColorOpt = ColorName.auto,
    width: WidthOpt = None,
    records: RecordsOpt = None,
    no_bundled: NoBundledOpt = False,
) -> None:
    """List records: id, repository, error type and message."""
    env = Environment.from_process()
    catalog = _catalog(records, no_bundled, env)
    wanted = [
        i
        for i in range(len(catalog))
        if (repo is None or catalog.repos[i].lower() == repo.lower())
        and (tag is None or tag.lower() in (t.lower() for t in catalog.tags[i]))
    ]
    chosen = sorted((catalog.record(i) for i in wanted), key=lambda r: (r.repo, r.slug))
    if not chosen:
        warn(env, "no records" + (f" of {repo}" if repo else "") + (f" tagged {tag}" if tag else ""))
        if fmt.value == "json":
            _write_record_table([], fmt.value, env, color.value, width)
        raise typer.Exit(ExitStatus.NOTHING_MATCHED)
    _write_record_table([(r, None) for r in chosen], fmt.value, env, color.value, width)


@app.command(epilog="Example: leafexplain search 'shapes cannot be multiplied'")
def search(
    query: Annotated[list[str], typer.Argument(help="Words to look for in messages, slugs, tags and repositories.")],
    limit: Annotated[int, typer.Option("--limit", "-n", min=1, help="How many results at most.")] = 10,
    fmt: FormatOpt = FormatName.auto,
    color: ColorOpt = ColorName.auto,
    width: WidthOpt = None,
    records: RecordsOpt = None,
    no_bundled: NoBundledOpt = False,
) -> None:
    """Fuzzy search over the records, best first."""
    from leafexplain.search import search_records

    env = Environment.from_process()
    rows = search_records(_catalog(records, no_bundled, env), " ".join(query), limit)
    if not rows:
        warn(env, f"no record matches '{' '.join(query)}'")
        if fmt.value == "json":
            _write_record_table(rows, fmt.value, env, color.value, width)
        raise typer.Exit(ExitStatus.NOTHING_MATCHED)
    _write_record_table(rows, fmt.value, env, color.value, width)


def _records_read_afresh(paths: list[Path] | None, records: list[str] | None, no_bundled: bool) -> Any:
    """Every record read from its file, not from the index: the named paths (and --records), else every source."""
    from leafexplain.records import load_paths, load_records

    if paths:
        return load_paths([str(p) for p in paths] + list(records or ()))
    return load_records(records or (), bundled=not no_bundled)


@app.command(epilog="Examples: leafexplain validate  ·  leafexplain validate my-records/ extra.jsonl")
def validate(
    paths: Annotated[
        Optional[list[Path]], typer.Argument(help="Files or folders to check (default: every record source).")
    ] = None,
    fmt: Annotated[ValidateFormat, typer.Option("--format", "-F", help="Output format.")] = ValidateFormat.text,
    records: RecordsOpt = None,
    no_bundled: NoBundledOpt = False,
) -> None:
    """Check record files against the schema; exit 1 if anything is wrong."""
    env = Environment.from_process()
    loaded = _records_read_afresh(paths, records, no_bundled)
    if fmt.value == "json":
        from leafexplain.render.json_out import VALIDATE_SCHEMA

        write_json(
            {
                "schema": VALIDATE_SCHEMA,
                "records": len(loaded.records),
                "sources": list(loaded.sources),
                "problems": [
                    {"path": p.path, "line": p.line, "field": p.field, "message": p.message} for p in loaded.problems
                ],
            },
            env,
        )
    else:
        from leafexplain.sources import printable

        for problem in loaded.problems:
            env.stdout.write(f"{printable(str(problem))}\n")
        count = len(loaded.problems)
        env.stdout.write(f"{len(loaded.records)} valid records; {count} problem{'s' if count != 1 else ''}\n")
        env.stdout.flush()
    raise typer.Exit(ExitStatus.NOTHING_MATCHED if loaded.problems else ExitStatus.EXPLAINED)


@app.command(
    epilog="Examples: leafexplain verify --source ~/src/burn records/tracel-ai/burn  ·  "
    "leafexplain verify --source Python-3.11.2/ --repo python/cpython"
)
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
    fmt: Annotated[ValidateFormat, typer.Option("--format", "-F", help="Output format.")] = ValidateFormat.text,
    records: RecordsOpt = None,
    no_bundled: NoBundledOpt = False,
) -> None:
    """Check records against a local copy of their repository: commit, file, message line."""
    from leafexplain.verify import verify_records

    env = Environment.from_process()
    if not source.is_dir():
        warn(env, f"--source {source}: not a folder")
        raise typer.Exit(ExitStatus.USAGE_ERROR)
    loaded = _records_read_afresh(paths, records, no_bundled)
    warn_problems(env, loaded.problems)
    chosen_repo, verdicts = verify_records(loaded.records, source, repo)
    if not verdicts:
        warn(env, f"no records to check against {source}" + (f" for {chosen_repo}" if chosen_repo else ""))
        raise typer.Exit(ExitStatus.NOTHING_MATCHED)
    if fmt.value == "json":
        write_json(
            {
                "schema": "leafexplain.verify/1",
                "repo": chosen_repo,
                "source": str(source),
                "results": [
                    {
                        "id": v.record.id,
                        "slug": v.record.slug,
                        "status": v.status,
                        "filePath": v.record.filePath,
                        "lineNumber": v.record.lineNumber,
                        "found_line": v.found_line,
                        "detail": v.detail,
                    }
                    for v in verdicts
                ],
            },
            env,
        )
    else:
        from leafexplain.sources import printable

        for v in verdicts:
            where = f"{v.record.filePath}:{v.record.lineNumber}"
            line = f"{v.status:<14} {v.record.slug}  {where}{'  ' + v.detail if v.detail else ''}"
            env.stdout.write(f"{printable(line)}\n")
        bad = sum(not v.ok for v in verdicts)
        summary = f"{chosen_repo}: {len(verdicts) - bad} of {len(verdicts)} records found at their line"
        env.stdout.write(f"{printable(summary)}\n")
        env.stdout.flush()
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
) -> None:
    """Scaffold a record from where its message is raised: slug, id and link computed."""
    from datetime import datetime, timezone

    from leafexplain.authoring import dumps, record_file, scaffold

    env = Environment.from_process()
    taken: set[str] = set()
    existing: dict[str, str] = {}
    if out and out.is_dir():
        from leafexplain.records import load_paths

        known = load_paths([str(out)]).records
        taken = {r.slug for r in known}
        existing = {r.id: r.origin for r in known}
    now = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.000Z")
    try:
        wrapped = scaffold(
            repo=repo,
            commit=commit,
            path=path,
            line=line,
            message=message,
            pattern=pattern,
            error_class=error_class,
            taken_slugs=taken,
            now=now,
        )
    except ValueError as exc:
        warn(env, str(exc))
        raise typer.Exit(ExitStatus.USAGE_ERROR) from None
    from leafexplain.schema import validate_record

    _, problems = validate_record(wrapped["record"], "<new record>")
    if problems:
        warn(env, "; ".join(str(p) for p in problems))
        raise typer.Exit(ExitStatus.USAGE_ERROR)
    if out is None:
        env.stdout.write(dumps(wrapped))
        return
    if wrapped["record"]["id"] in existing:
        warn(env, f"a record with id {wrapped['record']['id']} exists already: {existing[wrapped['record']['id']]}")
        raise typer.Exit(ExitStatus.USAGE_ERROR)
    target = record_file(out, wrapped)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(dumps(wrapped), encoding="utf-8")
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
    from leafexplain.importing import import_paths

    raise typer.Exit(import_paths([str(p) for p in paths], force=force, env=Environment.from_process()))


app.add_typer(completion_app, name="completion")  # `completion show|install`: the scripts in completions/

COMPLETION_KINDS = ("ids", "slugs", "repos", "tags")


@app.command(name="__complete", hidden=True)
def complete_values(
    kind: Annotated[str, typer.Argument(help="ids, slugs, repos or tags")],
    records: RecordsOpt = None,
    no_bundled: NoBundledOpt = False,
) -> None:
    """Print record ids, slugs, repositories or tags, one a line (for shell completion).

    It goes through the index, which writes the plain lists that later TABs read without Python.
    """
    from leafexplain.index import open_catalog

    if kind not in COMPLETION_KINDS:
        raise typer.Exit(ExitStatus.USAGE_ERROR)
    catalog = open_catalog(tuple(records or ()), bundled=not no_bundled)
    if kind == "tags":
        values = {tag for tags in catalog.tags for tag in tags}
    else:
        values = set({"ids": catalog.ids, "slugs": catalog.slugs, "repos": catalog.repos}[kind])
    sys.stdout.write("".join(f"{v}\n" for v in sorted(values)))


def main(argv: list[str] | None = None) -> None:
    """Run the app; map interrupts, closed pipes and usage errors to exit codes, never a traceback."""
    args = sys.argv[1:] if argv is None else list(argv)
    routed = route(args, _command_names(), set())
    if routed is not None and routed[0] == DEFAULT_COMMAND:
        command = typer.main.get_command(explain_app)
        routed = route(args, _command_names(), _value_options(command))
    if routed is not None and routed[0] == DEFAULT_COMMAND:
        args = routed[1:]
    else:
        command = typer.main.get_command(app)

    def invoke() -> int:
        try:
            return command.main(args=args, prog_name="leafexplain", standalone_mode=False) or 0
        except click.exceptions.Abort:
            return ExitStatus.INTERRUPTED
        except click.ClickException as exc:
            from leafexplain.faults import show_usage_error

            show_usage_error(exc)  # it may quote the user's arguments: printable
            return ExitStatus.USAGE_ERROR
        except SystemExit:
            if isinstance(sys.stdout, click.utils.PacifyFlushWrapper):
                raise BrokenPipeError from None  # click ends a closed pipe with 1; ours is 141, as on the fast path
            raise

    sys.exit(run_guarded(invoke))
