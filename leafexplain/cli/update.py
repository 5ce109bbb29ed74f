"""`leafexplain update`: the records chosen, the service's address checked, the fetches run under a progress bar,
what they did written; the exit code."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from leafexplain.env import Environment
from leafexplain.exitcodes import ExitStatus
from leafexplain.render import warn, warn_problems


def run_update(
    env: Environment,
    records: Sequence[str],
    *,
    no_bundled: bool,
    base: str | None,
    timeout: float,
    jobs: int,
) -> int:
    """Fetch the source lines of `records` (files or folders; none: every record source) into the cache.

    Exit 0 when every record that names a place has its lines cached, 1 when some have not, 2 when a
    named path does not exist or the address is not http(s) (the other paths' records are still fetched).
    Raises click.BadParameter for a `--timeout` of nan, which click's range lets through (every comparison
    with nan is false), so that it is the usage error any other value out of range is.
    """
    if timeout != timeout:  # nan: the only float that is not equal to itself
        _refuse_nan("timeout", timeout)
    from leafexplain.fetch.raw import base_url, opener
    from leafexplain.fetch.update import update_sources
    from leafexplain.locate.cached import sources_dir
    from leafexplain.records import load_paths, load_records
    from leafexplain.render.checks import write_update
    from leafexplain.render.progress import progress_bar

    try:
        address = base_url(base, env.environ)
    except ValueError as exc:
        warn(env, f"--base-url: {exc}")
        return ExitStatus.USAGE_ERROR
    absent = [path for path in records if not Path(path).exists()]
    loaded = load_paths(records) if records else load_records(bundled=not no_bundled, environ=env.environ)
    warn_problems(env, loaded.problems)
    with progress_bar(env, "fetching sources") as progress:
        summary = update_sources(
            loaded.records,
            sources_dir(env.environ),
            base=address,
            via=opener(address, env.environ),
            timeout=timeout,
            jobs=jobs,
            progress=progress,
        )
    write_update(summary, env)
    if absent:
        return ExitStatus.USAGE_ERROR
    return ExitStatus.EXPLAINED if summary.complete and not summary.stopped else ExitStatus.NOTHING_MATCHED


def _refuse_nan(name: str, value: float) -> None:
    """click's own message for a value out of the option's range, the range read from the option itself."""
    import click

    option = next(p for p in click.get_current_context().command.params if p.name == name)
    bounds = option.type  # click.FloatRange: its `min` and `max` as the option declares them
    hint = "'" + "' / '".join(option.opts) + "'"
    raise click.BadParameter(f"{value} is not in the range {bounds.min}<=x<={bounds.max}.", param_hint=hint)
