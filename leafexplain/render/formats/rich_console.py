"""The rich Console, built in this one place: width, colour and the terminal come from the Environment."""

from __future__ import annotations

from typing import Any

from leafexplain.env import ColorChoice, Environment


def make_console(env: Environment, color: ColorChoice, width: int | None) -> Any:
    from rich.console import Console  # rich costs start-up time: only the terminal format's long view and tables pay it

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
        # rich reads TERM, NO_COLOR and more: the Environment's, not the process's. The sizes it would read
        # (and `int()` without a check: LINES=² ends rich) are ours to give: the width is, the rest left out.
        _environ={k: v for k, v in env.environ.items() if k not in _SIZES},
    )


_SIZES = frozenset({"COLUMNS", "LINES", "JUPYTER_COLUMNS", "JUPYTER_LINES"})
