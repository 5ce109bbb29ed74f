#!/usr/bin/env python3
"""Check that the robustness tests guard what they claim: remove each protection, watch its test fail.

Usage: python tools/check_protections.py [M13 M18 ...]   (about 10 minutes for all)

Works on a copy of the working tree in a temporary folder, never on the tree itself: the copy is
put first on PYTHONPATH, and `leafexplain` is run as `python -m leafexplain` from it (PATH holds
no `leafexplain`, so tests/conftest.py falls back to that). Each mutation replaces one exact piece
of code; a mutation whose piece is no longer found is reported as such, to be brought up to date.
docs/robustness.md lists the outcome of the last run.
"""

# ruff: noqa: E501  (each mutation is one line: the exact code it removes and what stands instead)

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
T = "tests/"

MUTATIONS = [
    (
        "M01 OSC strings end at the line",
        "leafexplain/text.py",
        r'r"|\x1b\][^\x07\x1b\x9c\n]*',
        r'r"|\x1b\][^\x07\x1b\x9c]*',
        [T + "test_hostile_input.py::test_the_seed_still_matches_through_escape_noise"],
    ),
    (
        "M02 safe() cleans record text",
        "leafexplain/render/document.py",
        'lines = (clean_line(line) for line in text[:limit].split("\\n"))',
        'lines = (line for line in text[:limit].split("\\n"))',
        [T + "test_hostile_records.py::test_escape_sequences_in_a_record_never_reach_the_terminal"],
    ),
    (
        "M03 warnings are printable",
        "leafexplain/render/__init__.py",
        'f"leafexplain: {printable(message)}\\n"',
        'f"leafexplain: {message}\\n"',
        [T + "test_hostile_records.py::test_hostile_file_names_and_fields_in_warnings_validate_and_verify"],
    ),
    (
        "M04 explain's warnings are printable",
        "leafexplain/render/__init__.py",
        'f"leafexplain: {printable(message)}\\n"',
        'f"leafexplain: {message}\\n"',
        [T + "test_hostile_input.py::test_escape_sequences_in_arguments_and_file_names"],
    ),
    (
        "M05 validate output printable",
        "leafexplain/render/checks.py",
        'env.stdout.write(f"{printable(str(problem))}\\n")',
        'env.stdout.write(f"{problem}\\n")',
        [T + "test_hostile_records.py::test_hostile_file_names_and_fields_in_warnings_validate_and_verify"],
    ),
    (
        "M06 verify output printable",
        "leafexplain/render/checks.py",
        'env.stdout.write(f"{printable(line)}\\n")',
        'env.stdout.write(f"{line}\\n")',
        [T + "test_hostile_records.py::test_hostile_file_names_and_fields_in_warnings_validate_and_verify"],
    ),
    (
        "M07 URL_RE strict",
        "leafexplain/text.py",
        r"""URL_RE = re.compile(r"^https://[A-Za-z0-9.-]+(?::\d{1,5})?/[A-Za-z0-9\-._~%!$&'()*+,;=:/?#\[\]]*$")""",
        r"""URL_RE = re.compile(r"^https://[A-Za-z0-9.-]+(?::\d+)?/[^\s@]*$")""",
        [T + "test_hostile_records.py::test_a_link_that_is_not_plain_https_is_refused_and_never_rendered"],
    ),
    (
        "M08 rich links checked",
        "leafexplain/render/rich_view.py",
        "    link = safe_link(block.text)\n",
        "    link = block.text\n",
        [T + "test_hostile_records.py::test_the_renderers_check_links_themselves"],
    ),
    (
        "M09 markdown links checked",
        "leafexplain/render/markdown.py",
        'return f"<{block.text}>" if safe_link(block.text) else',
        'return f"<{block.text}>" if block.text.startswith("https://") else',
        [T + "test_hostile_records.py::test_the_renderers_check_links_themselves"],
    ),
    (
        "M10 document refuses links",
        "leafexplain/render/document.py",
        'return Block("link", link) if link else Block("text", REFUSED_LINK)',
        'return Block("link", url or "")',
        [T + "test_hostile_records.py::test_a_link_that_is_not_plain_https_is_refused_and_never_rendered"],
    ),
    (
        "M11 list items capped",
        "leafexplain/render/document.py",
        "for i in present[:MAX_ITEMS])",
        "for i in present)",
        [T + "test_hostile_records.py::test_giant_fields_are_cut_in_rendering_with_a_note"],
    ),
    (
        "M12 text cut with a note",
        "leafexplain/render/document.py",
        "    cut = len(text) > limit\n",
        "    cut, limit = False, len(text)\n",
        [T + "test_hostile_records.py::test_giant_fields_are_cut_in_rendering_with_a_note"],
    ),
    (
        "M13 linear matcher",
        "leafexplain/records/patterns.py",
        "    matcher = PieceMatcher(\n        pieces,",
        "    matcher = PieceMatcher(\n        (wildcard_regex(pattern),) if parts else pieces,",
        [T + "test_hostile_records.py::test_a_backtracking_pattern_in_a_record_does_not_hang_explain"],
    ),
    (
        "M14 long lines cut",
        "leafexplain/intake/stream.py",
        "        while len(buf) - pos > limit:\n",
        "        while False:\n",
        [T + "test_hostile_input.py::test_a_single_line_larger_than_memory_allows_is_cut_not_held"],
    ),
    (
        # Two places keep a window's reach back bounded: the window itself, and what the buffer keeps.
        "M15 windows bounded in bytes, before the hit",
        "leafexplain/intake/stream.py",
        (
            "        if hit_line - start > WINDOW_BEFORE_BYTES:\n",
            "        if self.scanned - keep_from > WINDOW_BEFORE_BYTES + self.max_line_bytes:\n",
        ),
        ("        if False:\n", "        if False:\n"),
        [T + "test_hostile_input.py::test_a_window_around_an_error_among_long_lines_stays_small"],
    ),
    (
        "M15b windows bounded in bytes, after the hit",
        "leafexplain/intake/stream.py",
        '            cut = buf.find(b"\\n", hit_end + WINDOW_AFTER_BYTES)\n',
        "            cut = -1\n",
        [T + "test_hostile_input.py::test_a_window_around_an_error_among_long_lines_stays_small"],
    ),
    (
        "M16 a window no hit can reach is let go",
        "leafexplain/intake/stream.py",
        "if self.window and (final or self._reach_floor() > self.window[1]):",
        "if self.window and final:",
        [T + "test_hostile_input.py::test_the_scanner_never_holds_more_than_a_few_windows"],
    ),
    (
        "M17 events bounded",
        "leafexplain/intake/collect.py",
        "    if len(events) <= limits.max_events and sum(map(event_chars, events)) <= limits.max_event_chars:\n",
        "    if True:\n",
        [T + "test_hostile_input.py::test_a_log_of_distinct_errors_keeps_the_first_ones_and_says_how_many_more"],
    ),
    # Without the checksum only the rows and arrays are damaged here: a flipped size in the header
    # would make marshal allocate gigabytes.
    (
        "M18 index checksum",
        "leafexplain/records/index_file.py",
        '    if int.from_bytes(data[len(MAGIC) : start], "little") != zlib.crc32(memoryview(data)[start:]):\n',
        "    if False:\n",
        [T + "test_faults.py::test_a_flipped_byte_in_the_index_rows_and_arrays_is_caught"],
    ),
    (
        "M19 index decode catches everything",
        "leafexplain/records/index_file.py",
        "    except Exception as exc:  # marshal and array",
        "    except (ValueError, EOFError) as exc:  # marshal and array",
        [T + "test_faults.py::test_index_headers_that_decode_to_garbage_are_caught"],
    ),
    (
        "M20 index header fields checked",
        "leafexplain/records/index_file.py",
        "    _check_meta(meta, count)\n",
        "",
        [T + "test_faults.py::test_index_headers_that_decode_to_garbage_are_caught"],
    ),
    (
        "M21 huge index not read",
        "leafexplain/records/index.py",
        "        if size > 8 * sum(f[1] for f in files) + (1 << 20):\n",
        "        if False:\n",
        [T + "test_faults.py::test_an_enormous_file_where_the_index_goes_is_not_read"],
    ),
    (
        "M22 damaged index warns",
        "leafexplain/records/index.py",
        '            warn(f"the record index {path} was damaged ({exc}); rebuilding it")\n',
        "",
        [T + "test_faults.py::test_a_damaged_index_through_the_command_line"],
    ),
    (
        "M23 jsonl lines read bounded",
        "leafexplain/records/files.py",
        "    while raw := handle.readline(MAX_LINE_BYTES + 1):\n",
        "    while raw := handle.readline():\n",
        [T + "test_hostile_records.py::test_two_gigabyte_record_files_are_refused_and_the_rest_loads"],
    ),
    (
        "M24 import names sanitised",
        "leafexplain/authoring/importing.py",
        '    name = _UNSAFE.sub("-", text).strip(".-")[:MAX_NAME_CHARS].strip(".-")\n',
        "    name = text\n",
        [T + "test_hostile_records.py::test_import_never_writes_outside_the_records_folder"],
    ),
    (
        "M25 import checks symlinks",
        "leafexplain/authoring/importing.py",
        "def _inside(path: Path, root: Path) -> bool:\n",
        "def _inside(path: Path, root: Path) -> bool:\n    return True\n",
        [T + "test_hostile_records.py::test_import_does_not_follow_a_symlink_out_of_the_records_folder"],
    ),
    (
        "M26 import needs --force",
        "leafexplain/authoring/importing.py",
        "        if not force:\n",
        "        if False:\n",
        [T + "test_hostile_records.py::test_import_never_overwrites_a_different_record_silently"],
    ),
    (
        "M27 whole writes",
        "leafexplain/env.py",
        '    if not isinstance(getattr(stream, "buffer", None), io.RawIOBase):\n',
        "    if True:\n",
        [T + "test_faults.py::test_a_reader_that_goes_away_ends_the_run_quietly"],
    ),
    (
        "M28 SIGTERM quiet",
        "leafexplain/cli/guard.py",
        "            signal.signal(signal.SIGTERM, _raise_terminated)\n",
        "            pass\n",
        [T + "test_faults.py::test_interrupt_and_terminate_end_quietly_with_their_codes"],
    ),
    (
        "M29 FIFO skipped",
        "leafexplain/records/index.py",
        "            if not stat.S_ISREG(st.st_mode):",
        "            if False:",
        [T + "test_hostile_records.py::test_malformed_records_are_clear_problems_and_the_rest_loads"],
    ),
    (
        "M30 lone surrogates refused",
        "leafexplain/records/schema.py",
        "        if any(_SURROGATE.search(text) for text in texts):\n",
        "        if False:\n",
        [T + "test_hostile_records.py::test_malformed_records_are_clear_problems_and_the_rest_loads"],
    ),
    (
        "M31 repo not dots",
        "leafexplain/records/schema.py",
        r'REPO_RE = re.compile(r"^(?!\.+/)[A-Za-z0-9_.-]+/(?!\.+$)[A-Za-z0-9_.-]+$")',
        r'REPO_RE = re.compile(r"^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$")',
        [T + "test_hostile_records.py::test_malformed_records_are_clear_problems_and_the_rest_loads"],
    ),
    (
        "M32 internal error printable",
        "leafexplain/render/__init__.py",
        "{printable(f'{type(exc).__name__}: {exc}')}",
        "{type(exc).__name__}: {exc}",
        [T + "test_faults.py::test_an_internal_error_quoting_hostile_text_stays_one_printable_line"],
    ),
    (
        "M33 usage errors printable",
        "leafexplain/render/__init__.py",
        'env.stderr.write("".join(printable(line) + "\\n" for line in text.splitlines()))',
        "env.stderr.write(text)",
        [T + "test_hostile_input.py::test_escape_sequences_in_arguments_and_file_names"],
    ),
    (
        "M34 click's closed pipe is 141",
        "leafexplain/cli/guard.py",
        "                if isinstance(sys.stdout, click.utils.PacifyFlushWrapper):\n",
        "                if False:\n",
        [T + "test_faults.py::test_a_reader_that_goes_away_ends_the_run_quietly"],
    ),
    (
        "M35 rich's closed pipe is 141",
        "leafexplain/render/console.py",
        "    return PipeAwareConsole(\n",
        "    return Console(\n",
        [T + "test_faults.py::test_a_reader_that_goes_away_ends_the_run_quietly"],
    ),
    (
        "M36 changed record re-read",
        "leafexplain/records/index.py",
        "        catalog.fetch = _fetch_or_rebuild(catalog, fresh)\n",
        "        pass\n",
        [T + "test_faults.py::test_a_record_file_changed_after_the_index_check_is_read_afresh"],
    ),
    (
        "M37 bidi stripped",
        "leafexplain/text.py",
        r'_CONTROLS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")',
        r'_CONTROLS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ud800-\udfff]")',
        [T + "test_hostile_input.py::test_carriage_return_overwrite_and_bidi_are_resolved_before_reading"],
    ),
    (
        "M38 table ids cleaned",
        "leafexplain/render/tables.py",
        "cells = [safe(record.id, 100),",
        "cells = [record.id,",
        [T + "test_properties.py::test_any_record_renders_in_every_format_without_a_raw_control_character"],
    ),
    (
        "M39 stale temporaries cleared",
        "leafexplain/records/index.py",
        "    _remove_stale_temporaries(path.parent)\n",
        "",
        [T + "test_faults.py::test_temporary_files_left_by_a_killed_writer_are_cleared"],
    ),
    (
        "M40 JSON is ASCII",
        "leafexplain/render/json_out.py",
        "ensure_ascii=True",
        "ensure_ascii=False",
        [T + "test_hostile_records.py::test_escape_sequences_in_a_record_never_reach_the_terminal"],
    ),
    (
        "M41 write failures clean up",
        "leafexplain/records/index.py",
        "    except BaseException:\n        with contextlib.suppress(OSError):\n            os.unlink(tmp)\n        raise\n",
        "    except BaseException:\n        raise\n",
        [T + "test_faults.py::test_write_faults_injected_give_one_warning_no_leftovers_and_the_right_catalog"],
    ),
    (
        "M42 ids: no C1/bidi",
        "leafexplain/records/schema.py",
        r'_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")',
        r'_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")',
        [T + "test_hostile_records.py::test_malformed_records_are_clear_problems_and_the_rest_loads"],
    ),
    (
        "M43 empty stdout is devnull",
        "leafexplain/env.py",
        '    if stream is None:\n        return open(os.devnull, "w", encoding="utf-8")\n',
        "",
        [T + "test_faults.py::test_stdout_closed_before_the_start_is_a_quiet_end"],
    ),
]


def copy_tree(target: Path) -> None:
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard"], cwd=ROOT, capture_output=True, text=True
    ).stdout.split("\n")
    for name in listed:
        source = ROOT / name
        if name and source.is_file() and not name.startswith("bench/data/"):
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)


def main() -> int:
    only = sys.argv[1:]
    with tempfile.TemporaryDirectory(prefix="leafexplain-protections-") as tmp:
        tree, bin_dir = Path(tmp) / "tree", Path(tmp) / "bin"
        copy_tree(tree)
        bin_dir.mkdir()
        (bin_dir / "python").symlink_to(Path(sys.executable).resolve())
        env = {**os.environ, "PATH": f"{bin_dir}:/usr/bin:/bin", "PYTHONPATH": str(tree)}
        missed = 0
        for name, rel, old, new, tests in MUTATIONS:
            if only and not any(name.startswith(o) for o in only):
                continue
            path = tree / rel
            original = path.read_text()
            olds, news = (old, new) if isinstance(old, tuple) else ((old,), (new,))
            counts = [original.count(piece) for piece in olds]
            if counts != [1] * len(olds):
                print(f"{name}: not applied (the code to remove was found {counts} times)", flush=True)
                missed += 1
                continue
            mutated = original
            for piece, replacement in zip(olds, news, strict=True):
                mutated = mutated.replace(piece, replacement)
            path.write_text(mutated)
            start = time.monotonic()
            try:
                done = subprocess.run(
                    [
                        str(bin_dir / "python"),
                        "-m",
                        "pytest",
                        "-q",
                        "-x",
                        "-p",
                        "no:randomly",
                        "-p",
                        "no:cacheprovider",
                        *tests,
                    ],
                    cwd=tree,
                    env=env,
                    capture_output=True,
                    text=True,
                    timeout=240,
                )
                caught = done.returncode != 0
                detail = (done.stdout.strip().splitlines() or [""])[-1]
            except subprocess.TimeoutExpired:
                caught, detail = True, "the test hangs (killed after 240 s)"
            finally:
                path.write_text(original)
            missed += not caught
            verdict = "caught" if caught else "NOT CAUGHT"
            print(f"{name}: {verdict}: {detail} ({time.monotonic() - start:.0f} s)", flush=True)
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
