#!/usr/bin/env python3
"""Check that the robustness tests guard what they claim: remove each protection, watch its test fail.

Usage: python tools/check_protections.py [M13 M18 ...]   (about 25 minutes for all)

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
H = T + "hostile/"

MUTATIONS = [
    (
        "M01 OSC strings end at the line",
        "leafexplain/text.py",
        r'r"|\x1b\][^\x07\x1b\x9c\n]*',
        r'r"|\x1b\][^\x07\x1b\x9c]*',
        [T + "hostile/test_hostile_input.py::test_the_seed_still_matches_through_escape_noise"],
    ),
    (
        "M02 safe() cleans record text",
        "leafexplain/render/fitting.py",
        'lines = (clean_line(line) for line in text[:limit].split("\\n"))',
        'lines = (line for line in text[:limit].split("\\n"))',
        [T + "hostile/test_hostile_records.py::test_escape_sequences_in_a_record_never_reach_the_terminal"],
    ),
    (
        "M03 warnings are printable",
        "leafexplain/render/streams.py",
        'f"leafexplain: {printable(message)}\\n"',
        'f"leafexplain: {message}\\n"',
        [T + "hostile/test_hostile_records.py::test_hostile_file_names_and_fields_in_warnings_validate_and_verify"],
    ),
    (
        "M04 explain's warnings are printable",
        "leafexplain/render/streams.py",
        'f"leafexplain: {printable(message)}\\n"',
        'f"leafexplain: {message}\\n"',
        [T + "hostile/test_hostile_input.py::test_escape_sequences_in_arguments_and_file_names"],
    ),
    (
        "M05 validate output printable",
        "leafexplain/render/checks.py",
        'env.stdout.write(f"{printable(str(problem))}\\n")',
        'env.stdout.write(f"{problem}\\n")',
        [T + "hostile/test_hostile_records.py::test_hostile_file_names_and_fields_in_warnings_validate_and_verify"],
    ),
    (
        "M06 verify output printable",
        "leafexplain/render/checks.py",
        'env.stdout.write(f"{printable(line)}\\n")',
        'env.stdout.write(f"{line}\\n")',
        [T + "hostile/test_hostile_records.py::test_hostile_file_names_and_fields_in_warnings_validate_and_verify"],
    ),
    (
        "M07 URL_RE strict",
        "leafexplain/text.py",
        r"""URL_RE = lazy_regex(r"https://[A-Za-z0-9.-]+(?::\d{1,5})?/[A-Za-z0-9\-._~%!$&'()*+,;=:/?#\[\]]*\Z")""",
        r"""URL_RE = lazy_regex(r"https://[A-Za-z0-9.-]+(?::\d+)?/[^\s@]*\Z")""",
        [T + "hostile/test_hostile_records.py::test_a_link_that_is_not_plain_https_is_refused_and_never_rendered"],
    ),
    (
        "M08 rich links checked",
        "leafexplain/render/formats/terminal_rich.py",
        "    link = safe_link(block.text)\n",
        "    link = block.text\n",
        [T + "hostile/test_hostile_records.py::test_the_renderers_check_links_themselves"],
    ),
    (
        "M09 markdown links checked",
        "leafexplain/render/formats/markdown.py",
        'return f"<{block.text}>" if safe_link(block.text) else',
        'return f"<{block.text}>" if block.text.startswith("https://") else',
        [T + "hostile/test_hostile_records.py::test_the_renderers_check_links_themselves"],
    ),
    (
        "M10 document refuses links",
        "leafexplain/render/sections.py",
        'return Block("link", link) if link else Block("text", REFUSED_LINK)',
        'return Block("link", url or "")',
        [T + "hostile/test_hostile_records.py::test_a_link_that_is_not_plain_https_is_refused_and_never_rendered"],
    ),
    (
        "M11 list items capped",
        "leafexplain/render/sections.py",
        "for i in present[:MAX_ITEMS])",
        "for i in present)",
        [T + "hostile/test_hostile_records.py::test_giant_fields_are_cut_in_rendering_with_a_note"],
    ),
    (
        "M12 text cut with a note",
        "leafexplain/render/fitting.py",
        "    cut = len(text) > limit\n",
        "    cut, limit = False, len(text)\n",
        [T + "hostile/test_hostile_records.py::test_giant_fields_are_cut_in_rendering_with_a_note"],
    ),
    (
        "M13 linear matcher",
        "leafexplain/records/patterns.py",
        "    matcher = PieceMatcher(\n        pieces,",
        '    matcher = PieceMatcher(\n        (re.compile("(.*?)".join(re.escape(p) for p in parts if p is not None), re.S),) if parts else pieces,',
        [T + "hostile/test_hostile_records.py::test_a_backtracking_pattern_in_a_record_does_not_hang_explain"],
    ),
    (
        "M14 long lines cut",
        "leafexplain/intake/stream.py",
        "        while len(buf) - pos > limit:\n",
        "        while False:\n",
        [T + "hostile/test_hostile_input.py::test_a_single_line_larger_than_memory_allows_is_cut_not_held"],
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
        [T + "hostile/test_hostile_input.py::test_a_window_around_an_error_among_long_lines_stays_small"],
    ),
    (
        "M15b windows bounded in bytes, after the hit",
        "leafexplain/intake/stream.py",
        '            cut = buf.find(b"\\n", hit_end + WINDOW_AFTER_BYTES)\n',
        "            cut = -1\n",
        [T + "hostile/test_hostile_input.py::test_a_window_around_an_error_among_long_lines_stays_small"],
    ),
    (
        "M16 a window no hit can reach is let go",
        "leafexplain/intake/stream.py",
        "if self.window and (final or self._reach_floor() > self.window[1]):",
        "if self.window and final:",
        [T + "hostile/test_hostile_input.py::test_the_scanner_never_holds_more_than_a_few_windows"],
    ),
    (
        "M17 events bounded",
        "leafexplain/intake/collect.py",
        "    if len(events) <= limits.max_events and sum(map(event_chars, events)) <= limits.max_event_chars:\n",
        "    if True:\n",
        [H + "test_hostile_input.py::test_a_log_of_distinct_errors_keeps_the_first_ones_and_says_how_many_more"],
    ),
    # Without the checksum only the rows and arrays are damaged here: a flipped size in the header
    # would make marshal allocate gigabytes.
    (
        "M18 index checksum",
        "leafexplain/records/index/read.py",
        "            if len(got) != size or zlib.crc32(got) != self.checksums[number]:\n",
        "            if len(got) != size:\n",
        [T + "hostile/test_faults.py::test_a_flipped_byte_in_the_index_rows_and_arrays_is_caught"],
    ),
    (
        "M19 index decode catches everything",
        "leafexplain/records/index/read.py",
        "    except Exception as exc:  # marshal meets arbitrary bytes here",
        "    except (ValueError, EOFError) as exc:  # marshal meets arbitrary bytes here",
        [T + "hostile/test_faults.py::test_index_headers_that_decode_to_garbage_are_caught"],
    ),
    (
        "M20 index header fields checked",
        "leafexplain/records/index/read.py",
        "    _check_meta(meta, size - PREFIX - header_size)\n",
        "",
        [T + "hostile/test_faults.py::test_index_headers_that_decode_to_garbage_are_caught"],
    ),
    (
        "M21 huge index not read",
        "leafexplain/records/index/read.py",
        "    largest = 16 * sum(f[1] for f in files) + (1 << 20) + SEALED_INDEX_BYTES * len(seals)\n",
        "    largest = 1 << 62\n",
        [T + "hostile/test_faults.py::test_an_enormous_file_where_the_index_goes_is_not_read"],
    ),
    (
        "M22 damaged index warns",
        "leafexplain/records/index/heal.py",
        '    warn(f"the record index {path} was damaged ({reason}); rebuilding it")\n',
        "    pass\n",
        [T + "hostile/test_faults.py::test_a_damaged_index_through_the_command_line"],
    ),
    (
        "M23 jsonl lines read bounded",
        "leafexplain/records/files.py",
        "    while raw := handle.readline(MAX_LINE_BYTES + 1):\n",
        "    while raw := handle.readline():\n",
        [T + "hostile/test_hostile_records.py::test_two_gigabyte_record_files_are_refused_and_the_rest_loads"],
    ),
    (
        "M24 import names sanitised",
        "leafexplain/authoring/importing.py",
        '    name = _UNSAFE.sub("-", text).strip(".-")[:MAX_NAME_CHARS].strip(".-")\n',
        "    name = text\n",
        [T + "hostile/test_hostile_records.py::test_import_never_writes_outside_the_records_folder"],
    ),
    (
        "M25 import checks symlinks",
        "leafexplain/authoring/importing.py",
        "def _inside(path: Path, root: Path) -> bool:\n",
        "def _inside(path: Path, root: Path) -> bool:\n    return True\n",
        [T + "hostile/test_hostile_records.py::test_import_does_not_follow_a_symlink_out_of_the_records_folder"],
    ),
    (
        "M26 import needs --force",
        "leafexplain/authoring/importing.py",
        "        if not force:\n",
        "        if False:\n",
        [T + "hostile/test_hostile_records.py::test_import_never_overwrites_a_different_record_silently"],
    ),
    (
        "M27 whole writes",
        "leafexplain/env.py",
        '    if not isinstance(getattr(stream, "buffer", None), io.RawIOBase):\n',
        "    if True:\n",
        [T + "hostile/test_faults.py::test_a_reader_that_goes_away_ends_the_run_quietly"],
    ),
    (
        "M28 SIGTERM quiet",
        "leafexplain/cli/guard.py",
        "            signal.signal(signal.SIGTERM, _raise_terminated)\n",
        "            pass\n",
        [T + "hostile/test_faults.py::test_interrupt_and_terminate_end_quietly_with_their_codes"],
    ),
    (
        "M29 FIFO skipped",
        "leafexplain/records/files.py",
        "            if not stat.S_ISREG(st.st_mode):",
        "            if False:",
        [T + "hostile/test_hostile_records.py::test_malformed_records_are_clear_problems_and_the_rest_loads"],
    ),
    (
        "M30 lone surrogates refused",
        "leafexplain/records/schema.py",
        "        if any(_has_surrogate(text) for text in texts):\n",
        "        if False:\n",
        [T + "hostile/test_hostile_records.py::test_malformed_records_are_clear_problems_and_the_rest_loads"],
    ),
    (
        "M31 repo not dots",
        "leafexplain/records/schema.py",
        r'REPO_RE = lazy_regex(r"(?!\.+/)[A-Za-z0-9_.][A-Za-z0-9_.-]*/(?!\.+\Z)[A-Za-z0-9_.][A-Za-z0-9_.-]*\Z")',
        r'REPO_RE = lazy_regex(r"[A-Za-z0-9_.][A-Za-z0-9_.-]*/[A-Za-z0-9_.][A-Za-z0-9_.-]*\Z")',
        [T + "hostile/test_hostile_records.py::test_malformed_records_are_clear_problems_and_the_rest_loads"],
    ),
    (
        "M32 internal error printable",
        "leafexplain/render/streams.py",
        "{printable(redact(f'{type(exc).__name__}: {exc}'))}",
        "{redact(f'{type(exc).__name__}: {exc}')}",
        [T + "hostile/test_faults.py::test_an_internal_error_quoting_hostile_text_stays_one_printable_line"],
    ),
    (
        "M33 usage errors printable",
        "leafexplain/render/streams.py",
        'env.stderr.write("".join(printable(redact(line)) + "\\n" for line in text.splitlines()))',
        "env.stderr.write(text)",
        [T + "hostile/test_hostile_input.py::test_escape_sequences_in_arguments_and_file_names"],
    ),
    (
        "M34 click's closed pipe is 141",
        "leafexplain/cli/guard.py",
        "                if isinstance(sys.stdout, click.utils.PacifyFlushWrapper):\n",
        "                if False:\n",
        [T + "hostile/test_faults.py::test_a_reader_that_goes_away_ends_the_run_quietly"],
    ),
    (
        "M35 rich's closed pipe is 141",
        "leafexplain/render/formats/rich_console.py",
        "    return PipeAwareConsole(\n",
        "    return Console(\n",
        [T + "hostile/test_faults.py::test_a_reader_that_goes_away_ends_the_run_quietly"],
    ),
    (
        "M36 changed record re-read",
        "leafexplain/records/index/__init__.py",
        "        catalog.fetch = fetch_or_rebuild(catalog, fresh, path, warn)\n",
        "        pass\n",
        [T + "hostile/test_faults.py::test_a_record_file_changed_after_the_index_check_is_read_afresh"],
    ),
    (
        "M37 bidi stripped",
        "leafexplain/text.py",
        r'_BIDI = lazy_regex(r"[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")',
        r'_BIDI = lazy_regex(r"(?!)")',
        [T + "hostile/test_hostile_input.py::test_carriage_return_overwrite_and_bidi_are_resolved_before_reading"],
    ),
    (
        "M38 table ids cleaned",
        "leafexplain/render/tables.py",
        "cells = [safe(record.id, 100),",
        "cells = [record.id,",
        [T + "hostile/test_properties.py::test_any_record_renders_in_every_format_without_a_raw_control_character"],
    ),
    (
        "M39 stale temporaries cleared",
        "leafexplain/records/index/write.py",
        "    remove_stale_temporaries(folder)\n",
        "",
        [T + "hostile/test_faults.py::test_temporary_files_left_by_a_killed_writer_are_cleared"],
    ),
    (
        "M40 JSON is ASCII",
        "leafexplain/render/formats/json_out.py",
        "ensure_ascii=True",
        "ensure_ascii=False",
        [T + "hostile/test_hostile_records.py::test_escape_sequences_in_a_record_never_reach_the_terminal"],
    ),
    (
        "M41 write failures clean up",
        "leafexplain/records/index/write.py",
        "    except BaseException:\n        try:\n            os.unlink(tmp)\n        except OSError:\n            pass\n        raise\n",
        "    except BaseException:\n        raise\n",
        [T + "hostile/test_faults.py::test_write_faults_injected_give_one_warning_no_leftovers_and_the_right_catalog"],
    ),
    (
        "M42 ids: no C1/bidi",
        "leafexplain/records/schema.py",
        '_CONTROL = lazy_regex(f"[{_CONTROLS}]")',
        '_CONTROL = lazy_regex(r"[\\x00-\\x08\\x0b-\\x1f\\x7f]")',
        [T + "hostile/test_hostile_records.py::test_malformed_records_are_clear_problems_and_the_rest_loads"],
    ),
    (
        "M43 empty stdout is devnull",
        "leafexplain/env.py",
        '    if stream is None:\n        return open(os.devnull, "w", encoding="utf-8")\n',
        "",
        [T + "hostile/test_faults.py::test_stdout_closed_before_the_start_is_a_quiet_end"],
    ),
]
# Round 2 (issue 14): pasted text never reads your files, records never forge lines, special files never hang,
# the environment is bounded. The test ids name one case where a mutation would otherwise hang or flood first.
Y, S, W, E = (
    T + "locate/test_your_code_only.py::",
    T + "hostile/test_special_files.py::",
    T + "hostile/test_writes.py::",
    T + "hostile/test_environment.py::",
)
MUTATIONS += [
    (
        "M44 your code only under your folders",
        "leafexplain/locate/files.py",
        '        if inside(real, base) and not any(part.startswith(".") for part in os.path.relpath(real, base).split(os.sep)):\n',
        "        if True:\n",
        [Y + "test_a_pasted_frame_never_shows_a_file_outside_your_code"],
    ),
    (
        "M45 your code is source code",
        "leafexplain/locate/files.py",
        "    if not plain_path(frame.file) or suffix(frame.file.rstrip(os.sep)) not in SOURCE_SUFFIXES.get(language, ()):\n",
        "    if not plain_path(frame.file):\n",
        [Y + "test_a_pasted_frame_never_shows_a_file_outside_your_code"],
    ),
    (
        "M46 no hidden folder in your code",
        "leafexplain/locate/files.py",
        ' and not any(part.startswith(".") for part in os.path.relpath(real, base).split(os.sep)):\n',
        ":\n",
        [Y + "test_a_pasted_frame_never_shows_a_file_outside_your_code"],
    ),
    (
        "M47 a Python line that differs shows no lines",
        "leafexplain/locate/files.py",
        "            return Snippet(shown, frame.line, frame.line, (), language_of(shown), note)\n",
        "            return Snippet(shown, frame.line, *window(lines, frame.line, context), language_of(shown), note)\n",
        [Y + "test_a_python_line_that_differs_gives_its_path_and_a_note_without_content"],
    ),
    (
        "M48 a Python frame without its code shows nothing",
        "leafexplain/locate/files.py",
        ' or (event.language == "python" and not code):\n',
        ":\n",
        [T + "locate/test_localsource.py::test_user_snippet_skips_what_is_not_a_readable_file"],
    ),
    (
        "M49 a path with a control character is refused",
        "leafexplain/locate/files.py",
        '    return (file.isprintable() and "\\ufffd" not in file) or not _NOT_A_PATH.search(file)  # the regex: a rare file\n',
        "    return True\n",
        [Y + "test_a_path_with_a_control_character_is_refused_even_when_that_file_exists"],
    ),
    (
        "M50 input controls marked, not dropped",
        "leafexplain/text.py",
        ("        return _MARKED.sub(MARK, text) if", "    return _MARKED.sub(MARK, _BIDI"),
        ('        return _MARKED.sub("", text) if', '    return _MARKED.sub("", _BIDI'),
        [Y + "test_a_pasted_frame_never_shows_a_file_outside_your_code"],
    ),
    (
        "M51 library source only from library locations",
        "leafexplain/locate/library.py",
        "    if _LIBRARY_FOLDER.search(norm_path(real)) or any(inside(real, home) for home in homes):\n",
        "    if True:\n",
        [Y + "test_a_frame_ending_like_a_library_file_outside_library_locations_is_not_read"],
    ),
    (
        "M52 a record's path never climbs out",
        "leafexplain/locate/library.py",
        '    if not rel or ".." in rel.split("/"):\n',
        "    if not rel:\n",
        [Y + "test_a_record_path_that_climbs_out_of_the_library_is_not_followed"],
    ),
    (
        "M53 identifying fields are tokens",
        "leafexplain/records/schema.py",
        (
            "        if isinstance(values.get(name), str) and values[name] and not TOKEN_RE.match(values[name]):\n",
            '    elif not all(TOKEN_RE.match(tag) for tag in values.get("tags", ())):\n',
        ),
        ("        if False:\n", "    elif False:\n"),
        [T + "hostile/test_identifying_fields.py::test_identifying_fields_with_whitespace_or_shell_syntax_are_refused"],
    ),
    (
        "M54 links end at the true end",
        "leafexplain/text.py",
        r"[A-Za-z0-9\-._~%!$&'()*+,;=:/?#\[\]]*\Z",
        r"[A-Za-z0-9\-._~%!$&'()*+,;=:/?#\[\]]*$",
        [T + "hostile/test_identifying_fields.py::test_a_link_ending_in_a_newline_is_refused_and_never_a_hyperlink"],
    ),
    (
        "M55 repos end at the true end",
        "leafexplain/records/schema.py",
        r"[A-Za-z0-9_.][A-Za-z0-9_.-]*\Z",
        r"[A-Za-z0-9_.][A-Za-z0-9_.-]*$",
        [T + "hostile/test_identifying_fields.py::test_a_repo_is_owner_slash_name_to_the_true_end"],
    ),
    (
        "M56 completion lists hold only tokens",
        "leafexplain/integrations/completion/lists.py",
        "    return {value for value in values if shape.match(value)}\n",
        "    return values\n",
        [T + "hostile/test_identifying_fields.py::test_completion_lists_hold_only_tokens_whatever_the_catalog_holds"],
    ),
    (
        "M57 a command to copy is quoted",
        "leafexplain/render/naming.py",
        "show {shlex.quote(record_id)}",
        "show {record_id}",
        [T + "hostile/test_identifying_fields.py::test_a_command_to_copy_is_quoted_for_the_shell"],
    ),
    (
        "M58 the index read once open, never followed",
        "leafexplain/records/index/read.py",
        "        handle = open_regular(path, max_bytes=largest, follow=False, buffering=0)\n",
        '        handle = open(path, "rb", buffering=0)\n',
        [
            S + "test_whatever_stands_where_the_index_goes_is_never_read_as_one[fifo]",
            S + "test_whatever_stands_where_the_index_goes_is_never_read_as_one[symlink to a file]",
        ],
    ),
    (
        "M59 index rows checked as read",
        "leafexplain/records/index/columns.py",
        '        if len(row) != len(ROW_FIELDS):\n            raise IndexDamaged(f"row {index} is malformed")\n',
        "",
        [S + "test_an_index_with_a_valid_checksum_but_malformed_rows_is_rebuilt"],
    ),
    (
        "M60 index places checked before a record is read",
        "leafexplain/records/index/columns.py",
        "        if not (0 <= file < files and offset >= 0 and 0 <= length <= MAX_RECORD_BYTES and item >= -1 and line >= 0):\n",
        "        if False:\n",
        [T + "hostile/test_faults.py::test_a_crafted_body_under_valid_checksums_never_ends_a_run"],
    ),
    (
        "M61 a row that lies is read afresh",
        "leafexplain/records/index/heal.py",
        "            if index >= len(rebuilt[0]):\n                raise\n",
        "            raise\n",
        [S + "test_an_index_with_a_valid_checksum_but_malformed_rows_is_rebuilt"],
    ),
    (
        "M62 record files checked once open",
        "leafexplain/records/files.py",
        (
            "        with open_regular(path, buffering=SKIP_PIECE_BYTES) as handle:",
            "        with open_regular(path) as handle:\n",
        ),
        (
            '        with open(path, "rb", buffering=SKIP_PIECE_BYTES) as handle:',
            '        with open(path, "rb") as handle:\n',
        ),
        [S + "test_import_from_a_folder_with_fifos_devices_and_loops"],
    ),
    (
        "M63 unreadable folders reported",
        "leafexplain/records/files.py",
        "os.walk(root, onerror=unreadable)",
        "os.walk(root)",
        [S + "test_an_unreadable_folder_is_a_problem_and_skipped"],
    ),
    (
        "M64 a symlink loop never ends a run",
        "leafexplain/records/index/__init__.py",
        'f"{realpath(p)}|{int(r)}"',
        'f"{p.resolve()}|{int(r)}"',
        [S + "test_a_symlink_loop_for_the_records_folder_is_one_warning_and_demo_still_runs"],
    ),
    (
        "M65 imports take turns",
        "leafexplain/authoring/importing.py",
        "        fcntl.flock(fd, fcntl.LOCK_EX)\n",
        "        pass\n",
        [W + "test_concurrent_imports_never_write_an_id_twice"],
    ),
    (
        "M66 verify stays inside --source",
        "leafexplain/authoring/verify.py",
        "        return None if rel is None or not inside(self.root / rel, self.root) else self.root / rel\n",
        "        return self.root / path\n",
        [S + "test_verify_stays_inside_the_source_and_reads_bounded"],
    ),
    (
        "M67 verify reads bounded",
        "leafexplain/authoring/verify.py",
        '            return read_regular(file, MAX_SOURCE_BYTES).decode("utf-8", "replace")\n',
        '            return file.read_bytes().decode("utf-8", "replace")\n',
        [S + "test_verify_stays_inside_the_source_and_reads_bounded"],
    ),
    (
        "M68 new --out never overwrites",
        "leafexplain/authoring/new.py",
        '        write_whole(target, dumps(wrapped).encode("utf-8"), replace=force)\n',
        '        target.write_text(dumps(wrapped), encoding="utf-8")\n',
        [W + "test_new_out_never_writes_over_a_file_or_through_a_symlink"],
    ),
    (
        "M69 new --out never follows a folder out",
        "leafexplain/authoring/new.py",
        "        if not inside(folder, out_dir) and os.path.lexists(folder):\n",
        "        if False:\n",
        [W + "test_new_out_never_follows_a_folder_symlink_out_and_a_file_is_a_usage_error"],
    ),
    (
        "M70 completion install never overwrites",
        "leafexplain/integrations/completion/install.py",
        "        write_whole(target, data, replace=force)\n",
        "        target.write_bytes(data)\n",
        [W + "test_completion_install_never_writes_through_a_symlink_nor_over_a_file"],
    ),
    (
        "M71 a symlinked profile is not written through",
        "leafexplain/integrations/completion/install.py",
        "    if os.path.lexists(profile) and not (profile.is_file() and not profile.is_symlink()):\n",
        "    if False:\n",
        [W + "test_a_symlinked_powershell_profile_is_not_written_through"],
    ),
    (
        "M72 --threshold finite",
        "leafexplain/cli/router.py",
        " or number != number:",
        ":",
        [W + "test_threshold_is_a_finite_number_from_0_to_100"],
    ),
    (
        "M73 COLUMNS bounded",
        "leafexplain/env.py",
        "    return min(max(width, MIN_WIDTH), MAX_WIDTH)\n",
        "    return width\n",
        [E + "test_any_columns_renders_within_bounds"],
    ),
    (
        "M74 COLUMNS in ASCII digits",
        "leafexplain/env.py",
        "    if not value.isascii() or not value.isdigit()",
        "    if not value.isdigit()",
        [E + "test_columns_is_held_to_what_width_takes"],
    ),
    (
        "M75 rich reads no size itself",
        "leafexplain/render/formats/rich_console.py",
        "        _environ={k: v for k, v in env.environ.items() if k not in _SIZES},\n",
        "        _environ=dict(env.environ),\n",
        [E + "test_any_columns_renders_within_bounds"],
    ),
    (
        "M76 relative XDG folders ignored",
        "leafexplain/env.py",
        "    return value if os.path.isabs(value) else os.path.join(home(environ), default)\n",
        "    return value if value else os.path.join(home(environ), default)\n",
        [E + "test_relative_xdg_folders_are_ignored"],
    ),
    (
        "M77 any output encoding",
        "leafexplain/env.py",
        " else ASCII_ERRORS\n",
        " else stream.errors\n",
        [E + "test_any_output_encoding_works"],
    ),
    (
        "M78 closed descriptors get /dev/null",
        "leafexplain/env.py",
        "        _closed_stays_closed()\n",
        "",
        [T + "hostile/test_hostile_run.py::test_the_exit_code_is_the_childs_with_closed_streams[(0, 2)]"],
    ),
    (
        "M79 a closed stdin is no input",
        "leafexplain/intake/reading.py",
        "    if env.stdin is None:\n",
        "    if False:\n",
        [E + "test_a_closed_stdin_is_no_input"],
    ),
    (
        "M80 a read error ends the input",
        "leafexplain/intake/reading.py",
        "        except OSError as exc:\n            self.error",
        "        except ValueError as exc:\n            self.error",
        [E + "test_a_file_that_cannot_be_read_is_a_usage_error"],
    ),
    (
        "M81 a byte-order mark is read",
        "leafexplain/intake/stream.py",
        "    for chunk in as_utf8(chunks):\n",
        "    for chunk in chunks:\n",
        [E + "test_powershell_redirected_output_is_explained"],
    ),
    (
        "M82 run drains for a bounded time",
        "leafexplain/intake/process.py",
        "            late = deadline is not None and time.monotonic() > deadline\n",
        "            late = False\n",
        [T + "hostile/test_hostile_run.py::test_a_grandchild_that_never_stops_writing_does_not_keep_run_waiting"],
    ),
    (
        "M83 the source cache read once open, never followed",
        "leafexplain/locate/cached.py",
        "        entry = json.loads(read_regular(path, MAX_ENTRY_BYTES, follow=False))\n",
        '        entry = json.loads(open(path, "rb").read())\n',
        [S + "test_a_fifo_in_the_source_cache_is_not_an_entry"],
    ),
]
# Round 3 (issue 14): your code from ~ or /, one-line record fields, an output that cannot be written, devices and
# FIFOs for --file, the root as records folder, stderr redacted, windows that never cut an error in two.
MUTATIONS += [
    (
        "M84 the current folder is not your code from ~ or /",
        "leafexplain/locate/files.py",
        "        cwd = [here] if here and not _holds_home(here, user_home) else []\n",
        "        cwd = [here] if here else []\n",
        [Y + "test_run_from_your_home_or_above_it_no_file_there_is_your_code"],
    ),
    (
        "M85 one-line record fields",
        "leafexplain/records/schema.py",
        '    return isinstance(value, str) and not all_printable(value, "\\t") and bool(_BREAK_OR_CONTROL.search(value))\n',
        "    return False\n",
        [T + "hostile/test_hostile_records.py::test_a_one_line_field_with_a_line_break_or_control_is_refused"],
    ),
    (
        "M86 an output that cannot be written is 74",
        "leafexplain/cli/guard.py",
        (
            "        if exc.errno in WRITE_ERRNOS:\n            return cannot_write(env, exc)\n",
            "    if failed is not None:\n        return cannot_write(env, failed)\n",
        ),
        ("", ""),
        [
            T + "hostile/test_output_failures.py::test_a_full_disk_for_the_output_is_74_and_one_line",
            T + "hostile/test_output_failures.py::test_a_read_only_output_is_74",
        ],
    ),
    (
        "M87 --file refuses a device",
        "leafexplain/intake/reading.py",
        "    info = os.fstat(fd)\n    problem = _not_readable_input(fd, info)\n",
        "    info = os.fstat(fd)\n    problem = None\n",
        [S + "test_a_device_that_never_ends_is_no_input"],
    ),
    (
        "M88 --file opens without blocking",
        "leafexplain/intake/reading.py",
        '        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))\n',
        '        fd = os.open(path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))\n',
        [S + "test_a_fifo_nobody_writes_to_is_empty_input_and_dev_null_too"],
    ),
    (
        "M89 the file system's root is no records folder",
        "leafexplain/records/files.py",
        "    if os.path.realpath(root) == os.path.realpath(os.sep):",
        "    if False:",
        [S + "test_the_roots_folder_is_no_records_folder_and_a_walk_is_bounded"],
    ),
    (
        "M89b a records folder's walk is bounded",
        "leafexplain/records/files.py",
        "        if walked == MAX_FOLDERS:",
        "        if False:",
        [S + "test_the_roots_folder_is_no_records_folder_and_a_walk_is_bounded"],
    ),
    (
        "M90 stderr lines are redacted",
        "leafexplain/render/streams.py",
        "    if env.redact:\n        from leafexplain.redact import redact\n\n        message = redact(message)\n",
        "",
        [
            T + "test_redact.py::test_every_diagnostic_on_stderr_is_redacted",
            T + "test_redact.py::test_a_warning_is_redacted_unless_the_environment_says_not",
        ],
    ),
    (
        "M91 a full window ends before the last error that opens in it",
        "leafexplain/intake/stream.py",
        "        return line if line > start else end\n",
        "        return end\n",
        [T + "intake/test_dense_logs.py::test_a_repeated_multi_line_error_is_one_event_across_window_boundaries"],
    ),
    (
        "M92 run with no program named is 127",
        "leafexplain/cli/explain.py",
        "    if not argv[0]:",
        "    if False:",
        [T + "intake/test_run.py::test_exit_codes_of_the_command"],
    ),
    (
        "M93 a jsonl line with no end is skipped this far at most",
        "leafexplain/records/files.py",
        "            if length > MAX_SKIP_BYTES:",
        "            if False:",
        [T + "hostile/test_hostile_records.py::test_two_gigabyte_record_files_are_refused_and_the_rest_loads"],
    ),
    (
        "M94 your code opened at the checked path, following nothing",
        "leafexplain/safeio.py",
        "        fd = os.open(name, _READ_FLAGS | _NO_FOLLOW, dir_fd=way)",
        "        fd = os.open(path, _READ_FLAGS)",
        [T + "locate/test_your_code_only.py::test_a_swap_timed_just_after_the_check_is_never_read"],
    ),
    (
        "M95 a frame's library file opened at the path that was checked",
        "leafexplain/locate/library.py",
        "    real = found.real or realpath(found.path)",
        "    real = realpath(found.path)",
        [T + "locate/test_your_code_only.py::test_a_library_file_swapped_just_after_its_check_is_never_read"],
    ),
    (
        "M96 no credentials in the base address",
        "leafexplain/fetch/raw.py",
        '    if "@" in parts.netloc:',
        "    if False:",
        [T + "fetch/test_update.py::test_credentials_in_the_base_address_are_refused_never_sent"],
    ),
    (
        "M97 the base address's port checked",
        "leafexplain/fetch/raw.py",
        "        port = parts.port  # ValueError for a port that is not a number from 0 to 65535",
        "        port = None",
        [T + "fetch/test_update.py::test_a_bad_port_in_the_base_address_is_one_usage_error"],
    ),
    (
        "M98 --timeout nan refused",
        "leafexplain/cli/update.py",
        "    if timeout != timeout:",
        "    if False:",
        [T + "fetch/test_update.py::test_a_timeout_of_nan_is_a_usage_error_as_any_value_out_of_range"],
    ),
    (
        "M99 a redirect followed only to https or the base's own http",
        "leafexplain/fetch/raw.py",
        '            if scheme != "https" and not own:',
        "            if False:",
        [T + "fetch/test_update.py::test_a_redirect_to_another_kind_of_address_is_not_followed"],
    ),
    (
        "M100 headers read as ASCII",
        "leafexplain/fetch/raw.py",
        "    if value is None or not (value.isascii() and value.isdigit()) or len(value) > 18:",
        "    if value is None or not value.isdigit():",
        [T + "fetch/test_update.py::test_a_malformed_answer_fails_that_file_only"],
    ),
    (
        "M101 an answer cut short without a length",
        "leafexplain/fetch/raw.py",
        "    if expected is None:  # no length said",
        "    if False:",
        [T + "fetch/test_update.py::test_a_malformed_answer_fails_that_file_only"],
    ),
    (
        "M102 signals end update at once",
        "leafexplain/fetch/update.py",
        "        pool.shutdown(wait=False, cancel_futures=True)",
        "        pool.shutdown(wait=True, cancel_futures=True)",
        [T + "fetch/test_update.py::test_ctrl_c_and_sigterm_end_the_run_at_once_and_the_cache_stays_whole"],
    ),
    (
        "M103 a cache entry shows a bounded window",
        "leafexplain/locate/cached.py",
        '            start, lines = shown_lines(window["line"], window["start"], window["lines"])',
        '            start, lines = window["start"], tuple(window["lines"])',
        [T + "fetch/test_update.py::test_a_crafted_cache_entry_shows_only_a_bounded_window"],
    ),
    (
        "M104 library lines redacted",
        "leafexplain/locate/__init__.py",
        "            library = tuple(_redacted(source, redactor) for source in library)",
        "            library = library",
        [
            T
            + "test_localsource.py::test_library_lines_are_redacted_and_counted_a_file_of_your_own_folder_that_looks_like_one_too"
        ],
    ),
    (
        "M105 cached lines redacted",
        "leafexplain/locate/__init__.py",
        "            self._found[index] = found if self._redactor is None else _redacted(found, self._redactor)",
        "            self._found[index] = found",
        [T + "fetch/test_update.py::test_cached_lines_are_redacted_and_counted"],
    ),
    (
        "M106 the counts hold the lines redacted here",
        "leafexplain/session.py",
        "    return report._replace(located=located, redacted=RedactedSoFar(report.redacted, redactor))",
        "    return report._replace(located=located, redacted=report.redacted)",
        [T + "fetch/test_update.py::test_cached_lines_are_redacted_and_counted"],
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
