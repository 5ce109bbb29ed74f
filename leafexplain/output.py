"""Write views and documents to the user's stdout in the chosen format; diagnostics to stderr."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, Literal

from leafexplain.env import ColorChoice, Environment
from leafexplain.models import Problem

if TYPE_CHECKING:
    from leafexplain.render.document import View

Format = Literal["auto", "rich", "plain", "json", "markdown"]
MAX_PROBLEMS_SHOWN = 20


def resolve_format(fmt: Format, env: Environment, color: ColorChoice) -> Format:
    if fmt != "auto":
        return fmt
    return "rich" if env.stdout_isatty or color == "always" else "plain"


def make_console(env: Environment, color: ColorChoice, width: int | None) -> Any:
    from rich.console import Console  # rich costs start-up time: only the rich format pays it

    class PipeAwareConsole(Console):
        def on_broken_pipe(self) -> None:
            # rich exits with 1 here; leafexplain's guard gives a closed pipe its own code (141).
            self.quiet = True
            raise BrokenPipeError

    use = env.use_color(color)
    return PipeAwareConsole(
        file=env.stdout,
        width=width or env.width,
        force_terminal=use,
        color_system=("auto" if env.stdout_isatty else "256") if use else None,
        no_color=not use,
        highlight=False,
        markup=False,
        emoji=False,
        legacy_windows=False,
        force_jupyter=False,
        force_interactive=False,
    )


def write_views(views: Sequence[View], fmt: Format, env: Environment, color: ColorChoice, width: int | None) -> None:
    fmt = resolve_format(fmt, env, color)
    if fmt == "rich":
        from leafexplain.render.rich_view import print_views

        print_views(make_console(env, color, width), views)
    elif fmt == "markdown":
        from leafexplain.render.plain import render_markdown

        env.stdout.write(render_markdown(views))
    else:
        from leafexplain.render.plain import render_plain

        env.stdout.write(render_plain(views, width or env.width))
    env.stdout.flush()


def write_json(document: dict[str, Any], env: Environment) -> None:
    from leafexplain.render.json_out import dumps

    env.stdout.write(dumps(document))
    env.stdout.flush()


def warn(env: Environment, message: str) -> None:
    """One line on stderr; file names, ids and arguments quoted in it cannot act on the terminal."""
    from leafexplain.sources import printable

    env.stderr.write(f"leafexplain: {printable(message)}\n")
    env.stderr.flush()


def warn_problems(env: Environment, problems: Iterable[Problem]) -> None:
    problems = list(problems)
    for problem in problems[:MAX_PROBLEMS_SHOWN]:
        warn(env, f"skipped record: {problem}")
    if len(problems) > MAX_PROBLEMS_SHOWN:
        warn(env, f"… and {len(problems) - MAX_PROBLEMS_SHOWN} more record problems (run `leafexplain validate`)")
