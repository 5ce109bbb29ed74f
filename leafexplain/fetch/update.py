"""`leafexplain update`: each record's file fetched at its pinned commit, and the lines around its raising line kept
in the source cache, a few files at a time; a file missing at that commit sends its records to their
`messageVariants` places, in order.

Resumable: a record whose lines are cached (at any of its places) is not fetched again, and every
cache file is written whole. A fault that says nothing more will work now (no network, a rate
limit, a proxy answering in the service's place) stops the run: files not yet begun are left for
the next one. Nothing here prints; the summary is returned for render/ to write.
"""

from __future__ import annotations

import threading
import urllib.request
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from contextlib import suppress
from pathlib import Path
from typing import Literal

from leafexplain.fetch.raw import DEFAULT_TIMEOUT, FetchFault, fetch_text, raw_url
from leafexplain.locate.cached import Window, adopt_old_entries, is_cached, places, save_windows
from leafexplain.locate.files import MAX_LINE_CHARS
from leafexplain.locate.library import LIBRARY_CONTEXT
from leafexplain.locate.message import fragment_lines, search_fragment
from leafexplain.models import FetchOutcome, Record, SourcePlace, UpdateSummary

DEFAULT_JOBS = 4
MAX_FAILURES_IN_A_ROW = 6  # files failing one after another, none fetched between: the service is not answering
FileKey = tuple[str, str, str]  # repo, commit, path
Progress = Callable[[int, int], None]


def _key(place: SourcePlace) -> FileKey:
    return place.repo, place.commit, place.path


def raising_line(text: str, lines: Sequence[str], place: SourcePlace) -> int | str:
    """The line the message stands on, nearest the one the record names; or why it is not in the file."""
    fragment = search_fragment(place.pattern)
    if fragment is None:  # nothing literal to look for: the record's line, if the file has it
        return place.line if place.line <= len(lines) else f"the file has {len(lines)} lines, not {place.line}"
    hits = fragment_lines(text, fragment)
    if not hits:
        return f"the message is not in {place.path} at {place.commit[:10]}"
    return min(hits, key=lambda n: (abs(n - place.line), n))


def _windows(text: str, wanted: Sequence[SourcePlace]) -> tuple[list[Window], dict[int, str]]:
    """The window of lines for each line asked for, and why any could not be kept (by line)."""
    lines = text.splitlines()
    windows: list[Window] = []
    problems: dict[int, str] = {}
    for place in {p.line: p for p in reversed(wanted)}.values():
        found = raising_line(text, lines, place)
        if isinstance(found, str):
            problems[place.line] = found
            continue
        start = max(found - LIBRARY_CONTEXT, 1)
        kept = tuple(line[:MAX_LINE_CHARS] for line in lines[start - 1 : found + LIBRARY_CONTEXT])
        windows.append(Window(place.line, found, start, kept))
    return windows, problems


class _Run:
    """What the workers share: where to fetch from, where to keep, and whether to go on."""

    def __init__(self, root: Path, base: str, via: urllib.request.OpenerDirector, timeout: float) -> None:
        self.root, self.base, self.via, self.timeout = root, base, via, timeout
        self.lock = threading.Lock()
        self.stopped: str | None = None
        self.failures_in_a_row = 0

    def stop(self, reason: str) -> None:
        with self.lock:
            self.stopped = self.stopped or reason

    def counted(self, fault: FetchFault | None) -> None:
        """A run of failures with nothing fetched between them stops the run: the service is not answering."""
        with self.lock:
            self.failures_in_a_row = self.failures_in_a_row + 1 if fault and fault.kind == "failed" else 0
            if self.failures_in_a_row >= MAX_FAILURES_IN_A_ROW and fault is not None:
                self.stopped = self.stopped or f"{self.failures_in_a_row} files in a row failed (the last: {fault})"

    def fetch(self, wanted: Sequence[SourcePlace]) -> tuple[FetchFault | None, dict[int, str]] | None:
        """Fetch one file and keep its windows: (fault, problems by line); None when the run stopped first."""
        if self.stopped:
            return None
        place = wanted[0]
        try:
            text = fetch_text(raw_url(self.base, *_key(place)), via=self.via, timeout=self.timeout)
            windows, problems = _windows(text, wanted)
            if windows:
                save_windows(self.root, place, windows)
        except FetchFault as fault:
            if fault.kind == "stop":
                self.stop(fault.reason)
            self.counted(fault)
            return fault, {}
        except OSError as error:  # the cache cannot be written: nothing more can be kept
            reason = f"cannot write the cache {self.root}: {error.strerror or error}"
            self.stop(reason)
            return FetchFault("stop", reason), {}
        self.counted(None)
        return None, problems


def _run_round(
    run: _Run, groups: dict[FileKey, list[tuple[int, SourcePlace]]], jobs: int, on_done: Callable[[], None]
) -> dict[FileKey, tuple[FetchFault | None, dict[int, str]] | None]:
    """Fetch each group's file, a few at a time. Ctrl-C or SIGTERM (raised in this, the main thread) ends the
    round at once: what has not begun is cancelled and the fetches in flight are not waited for (a `with` block
    would join them, up to `--timeout` later); each writes its entry whole, by rename, if it gets that far."""
    results: dict[FileKey, tuple[FetchFault | None, dict[int, str]] | None] = {}
    pool = ThreadPoolExecutor(max_workers=jobs, thread_name_prefix="leafexplain-update")
    running: dict[Future[tuple[FetchFault | None, dict[int, str]] | None], FileKey] = {
        pool.submit(run.fetch, [p for _, p in group]): key for key, group in groups.items()
    }
    try:
        while running:
            finished, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in finished:
                key = running.pop(future)
                results[key] = future.result()
                on_done()
    except BaseException:
        run.stop("interrupted")
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown(wait=True)
    return results


def update_sources(
    records: Sequence[Record],
    root: Path,
    *,
    base: str,
    via: urllib.request.OpenerDirector,
    timeout: float = DEFAULT_TIMEOUT,
    jobs: int = DEFAULT_JOBS,
    progress: Progress | None = None,
) -> UpdateSummary:
    """Fill the source cache at `root` for `records` from the raw file service at `base`."""
    # A cache an earlier version named is renamed, not fetched again; in a folder that cannot be changed
    # its files are fetched again, and the writes say why they fail.
    with suppress(OSError):
        adopt_old_entries(root)
    run = _Run(root, base, via, timeout)
    wanted: dict[int, list[SourcePlace]] = {}
    have: dict[int, SourcePlace] = {}  # the place each record's lines are cached at
    cached_before = without_place = 0
    for n, record in enumerate(records):
        found = places(record)
        cached = next((p for p in found if is_cached(root, p)), None)
        if cached is not None:
            have[n] = cached
            cached_before += 1
        elif found:
            wanted[n] = found
        else:
            without_place += 1
    planned, done = [0], [0]

    def on_done() -> None:
        done[0] += 1
        if progress:
            progress(done[0], planned[0])

    outcomes: list[FetchOutcome] = []
    not_tried = 0
    pending = {n: 0 for n in wanted}  # record → which of its places to try
    while pending and not run.stopped:
        groups: dict[FileKey, list[tuple[int, SourcePlace]]] = {}
        for n, i in pending.items():
            place = wanted[n][i]
            if is_cached(root, place):  # kept by this run for another record
                have[n] = place
                continue
            groups.setdefault(_key(place), []).append((n, place))
        planned[0] += len(groups)
        results = _run_round(run, groups, jobs, on_done)
        tried, pending = pending, {}
        for key, group in groups.items():
            result = results.get(key)
            if result is None:
                not_tried += 1
                continue
            fault, problems = result
            if fault is not None and fault.kind == "stop":
                not_tried += 1  # the stop says why, once
                continue
            for n, place in group:
                if fault is None and place.line not in problems:
                    have[n] = place
                elif (fault is None or fault.kind == "missing") and tried[n] + 1 < len(wanted[n]):
                    pending[n] = tried[n] + 1  # its next `messageVariants` place, in the next round
            outcomes.extend(_outcomes(group, fault, problems, pending))
    if run.stopped:  # the next places of records sent on by the last round were not begun either
        not_tried += len({_key(wanted[n][i]) for n, i in pending.items()})
    records_in = Counter(records[n].repo for n in {*wanted, *have})
    cached_now = Counter(records[n].repo for n in have)
    return UpdateSummary(
        outcomes=tuple(sorted(outcomes, key=lambda o: (o.place.repo, o.place.path, o.place.commit, o.place.line))),
        by_repo=tuple((repo, count, cached_now[repo]) for repo, count in sorted(records_in.items())),
        cached_before=cached_before,
        fetched=len(have) - cached_before,
        at_variants=sum(1 for place in have.values() if place.variant),
        without_place=without_place,
        not_tried=not_tried,
        stopped=run.stopped,
        cache=str(root),
    )


def _outcomes(
    group: Sequence[tuple[int, SourcePlace]],
    fault: FetchFault | None,
    problems: dict[int, str],
    retrying: dict[int, int],
) -> list[FetchOutcome]:
    """The file's outcome, and one for each raising line whose message was not in it."""
    place = group[0][1]
    if fault is not None:
        retried = sum(1 for n, _ in group if n in retrying)
        status: Literal["missing", "failed"] = "missing" if fault.kind == "missing" else "failed"
        return [FetchOutcome(place, len(group), status, fault.reason, retried)]
    found = [FetchOutcome(place, len(group), "fetched")]
    for line, reason in sorted(problems.items()):
        asked = [n for n, p in group if p.line == line]
        retried = sum(1 for n in asked if n in retrying)
        found.append(FetchOutcome(place._replace(line=line), len(asked), "missing", reason, retried))
    return found
