"""`leafexplain update` against a local stand-in for GitHub's raw file service, and the cached lines at explain time:
success, a commit that is not there, 404, timeouts, garbage, rate limits, no network, a partial cache."""

from __future__ import annotations

import inspect
import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import NamedTuple

import pytest

from leafexplain.locate.cached import entry_path, places
from leafexplain.render import progress
from tests.conftest import Isolated, as_record, leafexplain_command, make_record, run_process, write_records

MESSAGE = "widget frobnication failed badly"
SHA = "1111111111111111111111111111111111111111"
GONE = "2222222222222222222222222222222222222222"  # a commit the service does not have
LINE = 12


def rust_file(lines: dict[int, str], length: int = 60) -> bytes:
    """A Rust file written for these tests, with the given lines in place."""
    text = "".join(lines.get(n, f"    let step_{n} = {n};") + "\n" for n in range(1, length + 1))
    return text.encode()


GEAR = "gear train jammed beyond repair"
LIB_RS = rust_file({LINE: f'    panic!("{MESSAGE}");', 30: '    panic!("sprocket alignment lost for good");'})
CORE_RS = rust_file({7: f'        panic!("{GEAR}")'})
CORE = "crates/gears/src/core.rs"


class Answer(NamedTuple):
    status: int = 200
    body: bytes = b""
    headers: tuple[tuple[str, str], ...] = (("Content-Type", "text/plain; charset=utf-8"),)
    length: int | None = None  # Content-Length when it is not the body's (a body cut short)
    hold: bool = False  # answer nothing until the test ends (a server that does not answer)
    drip: float = 0.0  # seconds between bytes of the body (a server that trickles it)
    drip_head: bool = False  # the status line and headers trickled too
    raw: bytes | None = None  # the whole answer, status line and headers included, written as it is


class StandIn:
    """GitHub's raw file service as far as `update` sees it: /OWNER/NAME/COMMIT/PATH, answered as the test says."""

    def __init__(self) -> None:
        self.routes: dict[str, Answer] = {}
        self.requests: list[str] = []
        self.release = threading.Event()
        stand_in = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                stand_in.requests.append(self.path)
                answer = stand_in.routes.get(self.path, Answer(404, b"404: Not Found"))
                if answer.hold:
                    stand_in.release.wait(30)
                    return
                if answer.drip:
                    self.trickle(answer)
                    return
                if answer.raw is not None:
                    self.wfile.write(answer.raw)
                    self.close_connection = True
                    return
                self.send_response(answer.status)
                for name, value in answer.headers:
                    self.send_header(name, value)
                self.send_header("Content-Length", str(answer.length or len(answer.body)))
                self.end_headers()
                self.wfile.write(answer.body)

            def trickle(self, answer: Answer) -> None:
                head = f"HTTP/1.1 {answer.status} OK\r\nContent-Length: {len(answer.body)}\r\n\r\n".encode()
                if not answer.drip_head:
                    self.wfile.write(head)
                for byte in (head if answer.drip_head else b"") + answer.body:
                    if stand_in.release.wait(answer.drip):
                        return
                    try:
                        self.wfile.write(bytes([byte]))
                        self.wfile.flush()
                    except OSError:  # the client gave up
                        return

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"

    def serve(self, repo: str, commit: str, path: str, answer: Answer | bytes) -> None:
        self.routes[f"/{repo}/{commit}/{path}"] = answer if isinstance(answer, Answer) else Answer(body=answer)


@pytest.fixture
def raw() -> Iterator[StandIn]:
    stand_in = StandIn()
    thread = threading.Thread(target=stand_in.server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    yield stand_in
    stand_in.release.set()
    stand_in.server.shutdown()
    stand_in.server.server_close()


def widget(record_id: str = "00000000000000aa", message: str = MESSAGE, **fields: object) -> dict:
    """A record of acme/widgets at SHA, raised in src/lib.rs at LINE unless told otherwise."""
    defaults = {"analyzedSha": SHA, "filePath": "src/lib.rs", "lineNumber": LINE}
    defaults["githubUrl"] = f"https://github.com/acme/widgets/blob/{SHA}/src/lib.rs#L{LINE - 5}-L{LINE + 5}"
    return make_record(record_id, message, **{**defaults, **fields})


def records_folder(tmp_path: Path, *records: dict) -> Path:
    folder = tmp_path / "records"
    write_records(folder, "widgets.jsonl", *records)
    return folder


def update(cli: Isolated, raw: StandIn, folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    result = cli("update", "--records", str(folder), "--base-url", raw.url, *args)
    assert "Traceback" not in result.stderr, result.stderr
    return result


def explain(cli: Isolated, folder: Path, message: str = MESSAGE, fmt: str = "plain") -> subprocess.CompletedProcess:
    # --full: the source lines are in the long view (the default view links to them).
    return cli("--no-bundled", "--records", str(folder), "--format", fmt, "--full", "--width", "200", message)


def snippet_of(result: subprocess.CompletedProcess[str]) -> dict | None:
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)["events"][0]["matches"][0]["source_snippet"]


def cache_files(cli: Isolated) -> list[Path]:
    folder = cli.cache / "leafexplain" / "sources"
    return sorted(folder.glob("*.json")) if folder.is_dir() else []


# --- success --------------------------------------------------------------------------------------------------------


def test_update_keeps_the_lines_and_explain_shows_them_offline(cli: Isolated, raw: StandIn, tmp_path: Path) -> None:
    raw.serve("acme/widgets", SHA, "src/lib.rs", LIB_RS)
    raw.serve("acme/widgets", SHA, CORE, CORE_RS)
    folder = records_folder(
        tmp_path,
        widget(),
        widget("00000000000000bb", "sprocket alignment lost for good", lineNumber=30),
        widget("00000000000000cc", GEAR, filePath=CORE, lineNumber=7),
    )
    result = update(cli, raw, folder)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "acme/widgets: 3 of 3 records with their source lines" in result.stdout
    assert "0 cached before, 3 now (2 files fetched)" in result.stdout
    assert sorted(raw.requests) == [f"/acme/widgets/{SHA}/{CORE}", f"/acme/widgets/{SHA}/src/lib.rs"]
    assert len(cache_files(cli)) == 2, "one cache file per repo, commit and path"

    raw.requests.clear()
    shown = explain(cli, folder)
    assert shown.returncode == 0, shown.stderr
    assert f"At commit {SHA[:10]}, from the source cache (`leafexplain update`):" in shown.stdout
    assert f'  > {LINE} |     panic!("{MESSAGE}");' in shown.stdout, "the real line number, the raising line marked"
    assert f"{LINE - 6} |" in shown.stdout and f"{LINE + 6} |" in shown.stdout and f"{LINE + 7} |" not in shown.stdout
    assert f"https://github.com/acme/widgets/blob/{SHA}/src/lib.rs#L7-L17" in shown.stdout, "the record's own link"
    snippet = snippet_of(explain(cli, folder, fmt="json"))
    assert snippet is not None
    assert (snippet["origin"], snippet["commit"], snippet["path"]) == ("cache", SHA, "src/lib.rs")
    assert (snippet["line"], snippet["start"]) == (LINE, LINE - 6)
    assert snippet["lines"][6] == f'    panic!("{MESSAGE}");'
    assert snippet["url"] == f"https://github.com/acme/widgets/blob/{SHA}/src/lib.rs#L{LINE}"
    other = explain(cli, folder, GEAR, fmt="markdown")
    assert f'>  7 |         panic!("{GEAR}")' in other.stdout
    assert raw.requests == [], "explain never goes online"


def test_the_service_from_the_environment_past_a_proxy(cli: Isolated, raw: StandIn, tmp_path: Path) -> None:
    """LEAFEXPLAIN_RAW_BASE names the service; a proxy in the environment is not used for this machine."""
    raw.serve("acme/widgets", SHA, "src/lib.rs", LIB_RS)
    folder = records_folder(tmp_path, widget())
    proxy = {"http_proxy": "http://127.0.0.1:9", "HTTPS_PROXY": "http://127.0.0.1:9"}
    result = cli("update", "--records", str(folder), extra_env={"LEAFEXPLAIN_RAW_BASE": raw.url + "/", **proxy})
    assert result.returncode == 0, result.stdout + result.stderr
    assert raw.requests == [f"/acme/widgets/{SHA}/src/lib.rs"]


def test_a_missing_commit_is_said_and_the_message_history_is_fetched(
    cli: Isolated, raw: StandIn, tmp_path: Path
) -> None:
    """As the seed: its own commit is not in the history; its messageVariants entry says where the message is."""
    raw.serve("acme/widgets", SHA, "src/lib.rs", LIB_RS)
    variant = {"messagePattern": MESSAGE, "versions": "widgets 1.x", "commit": SHA, "lineNumber": LINE}
    record = widget(analyzedSha=GONE, lineNumber=40, messageVariants=[variant])
    record["githubUrl"] = f"https://github.com/acme/widgets/blob/{GONE}/src/lib.rs#L35-L45"
    folder = records_folder(tmp_path, record)
    result = update(cli, raw, folder)
    assert result.returncode == 0, result.stdout
    missing = f"missing  acme/widgets {GONE[:10]} src/lib.rs:40: not found (HTTP 404): no such commit, or no such file"
    assert missing in result.stdout
    assert "1 record tried at the next messageVariants place instead" in result.stdout
    assert "1 at a messageVariants commit" in result.stdout
    assert raw.requests == [f"/acme/widgets/{GONE}/src/lib.rs", f"/acme/widgets/{SHA}/src/lib.rs"]

    shown = explain(cli, folder)
    assert f"At commit {SHA[:10]}" in shown.stdout and f"  > {LINE} |" in shown.stdout
    assert f"https://github.com/acme/widgets/blob/{SHA}/src/lib.rs#L{LINE}" in shown.stdout, "the lines shown, linked"
    where = shown.stdout.split("Where it is raised")[1].split("\n\n")[0]
    links = [line for line in where.split("\n") if line.strip().startswith("https://")]
    assert links and all(GONE not in line for line in links), "no link to the commit that is not there"
    raw.requests.clear()
    again = update(cli, raw, folder)
    assert again.returncode == 0 and raw.requests == [], "resumable: nothing asked again, the missing commit included"
    assert "1 cached before, 0 now" in again.stdout

    # Like the seed, a record carrying its own snippet from the commit that is not there: the release's lines win.
    own = records_folder(tmp_path, {**record, "sourceCode": "fn gone() {}\n"})
    shown = explain(cli, own)
    assert "fn gone()" not in shown.stdout and f"  > {LINE} |" in shown.stdout
    assert snippet_of(explain(cli, own, fmt="json"))["origin"] == "cache"  # type: ignore[index]
    # A record whose own commit is there keeps its own snippet first (the order: own, installed, cached).
    kept = records_folder(tmp_path, {**widget(), "sourceCode": "fn here() {}\n"})
    update(cli, raw, kept)
    assert snippet_of(explain(cli, kept, fmt="json"))["origin"] == "record"  # type: ignore[index]


# --- what does not work, one line each ------------------------------------------------------------------------------


def test_a_file_found_nowhere(cli: Isolated, raw: StandIn, tmp_path: Path) -> None:
    folder = records_folder(tmp_path, widget())
    before = explain(cli, folder)
    result = update(cli, raw, folder)
    assert result.returncode == 1
    assert f"missing  acme/widgets {SHA[:10]} src/lib.rs:{LINE}: not found (HTTP 404)" in result.stdout
    assert "0 of 1 record with their source lines" in result.stdout
    assert cache_files(cli) == []
    assert explain(cli, folder).stdout == before.stdout, "nothing cached: the output of before"


def test_a_server_that_does_not_answer_in_time(cli: Isolated, raw: StandIn, tmp_path: Path) -> None:
    raw.serve("acme/widgets", SHA, "src/lib.rs", Answer(hold=True))
    folder = records_folder(tmp_path, widget())
    result = update(cli, raw, folder, "--timeout", "1")
    assert result.returncode == 1
    assert f"failed   acme/widgets {SHA[:10]} src/lib.rs:{LINE}: timed out after 1 s" in result.stdout
    assert cache_files(cli) == []


@pytest.mark.parametrize("head", [False, True], ids=["body", "head"])
def test_a_server_that_trickles_is_cut_at_the_bound(cli: Isolated, raw: StandIn, tmp_path: Path, head: bool) -> None:
    """A byte every 0.2 s: each read gets one, so only a bound on the whole file ends it (the file would take
    over a minute); the header lines trickled as well are within the same bound."""
    raw.serve("acme/widgets", SHA, "src/lib.rs", Answer(body=LIB_RS[:400], drip=0.2, drip_head=head))
    folder = records_folder(tmp_path, widget())
    started = time.monotonic()
    result = update(cli, raw, folder, "--timeout", "1", "--jobs", "1")
    took = time.monotonic() - started
    assert result.returncode == 1
    assert f"failed   acme/widgets {SHA[:10]} src/lib.rs:{LINE}: timed out after 1 s" in result.stdout, result.stdout
    assert took < 4, f"{took:.1f} s for a bound of 1 s (the start of the command included)"
    assert cache_files(cli) == []


def test_a_redirect_keeps_the_bound_and_is_followed(cli: Isolated, raw: StandIn, tmp_path: Path) -> None:
    """A renamed repository answers with a redirect: followed, and the time allowed is for the whole file."""
    moved = (("Location", f"/acme/gadgets/{SHA}/src/lib.rs"),)
    raw.serve("acme/widgets", SHA, "src/lib.rs", Answer(301, b"", moved))
    raw.serve("acme/gadgets", SHA, "src/lib.rs", LIB_RS)
    folder = records_folder(tmp_path, widget())
    assert update(cli, raw, folder).returncode == 0
    assert raw.requests == [f"/acme/widgets/{SHA}/src/lib.rs", f"/acme/gadgets/{SHA}/src/lib.rs"]
    for entry in cache_files(cli):
        entry.unlink()
    raw.serve("acme/gadgets", SHA, "src/lib.rs", Answer(body=LIB_RS[:400], drip=0.2, drip_head=True))
    started = time.monotonic()
    result = update(cli, raw, folder, "--timeout", "1")
    assert "timed out after 1 s" in result.stdout and time.monotonic() - started < 4, result.stdout


HTML = b"<!DOCTYPE html>\n<html><body>Sign in to continue</body></html>\n"
CUT = f"closed early (got 100 bytes of {len(LIB_RS)})"
RATE = "rate limited by 127.0.0.1 (HTTP 429, retry after 30 s)"
FAULTS = {
    "binary": (Answer(body=b"\x7fELF\0\0\0" + bytes(range(256))), "failed", "not a text file"),
    "other text": (Answer(body=rust_file({})), "missing", f"the message is not in src/lib.rs at {SHA[:10]}"),
    "short file": (Answer(body=b"fn main() {}\n"), "missing", f"the message is not in src/lib.rs at {SHA[:10]}"),
    "cut short": (Answer(body=LIB_RS[:100], length=len(LIB_RS)), "failed", CUT),
    "server error": (Answer(500, b"oops"), "failed", "server error (HTTP 500)"),
    "too large": (Answer(body=LIB_RS * ((5 << 20) // len(LIB_RS))), "failed", "larger than 4 MB: not kept"),
    "html page": (Answer(body=HTML, headers=(("Content-Type", "text/html"),)), "stop", "answered with an HTML page"),
    "html as text": (Answer(body=HTML), "stop", "answered with an HTML page, not the file (a proxy or a login page?)"),
    "rate limit": (Answer(429, b"slow down", (("Retry-After", "30"),)), "stop", RATE),
    "forbidden": (Answer(403, b"no"), "stop", "refused (a rate limit or an access rule) by 127.0.0.1 (HTTP 403)"),
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(FAULTS))
def test_each_fault_is_one_line_and_nothing_is_kept(cli: Isolated, raw: StandIn, tmp_path: Path, name: str) -> None:
    answer, kind, reason = FAULTS[name]
    raw.serve("acme/widgets", SHA, "src/lib.rs", answer)
    folder = records_folder(tmp_path, widget())
    result = update(cli, raw, folder)
    assert result.returncode == 1 and result.stderr == ""
    said = [line for line in result.stdout.splitlines() if reason in line]
    assert len(said) == 1, result.stdout
    if kind == "stop":
        assert said[0].startswith("stopped: ") and "run `leafexplain update` again" in said[0]
    else:
        assert said[0].startswith(f"{kind:<8} acme/widgets {SHA[:10]} src/lib.rs")
    assert cache_files(cli) == [], "the cache holds only what was fetched whole"


def test_a_rate_limit_stops_the_run_and_the_next_one_goes_on(cli: Isolated, raw: StandIn, tmp_path: Path) -> None:
    paths = [f"src/part{n}.rs" for n in range(4)]
    records = [widget(f"00000000000000a{n}", filePath=path) for n, path in enumerate(paths)]
    folder = records_folder(tmp_path, *records)
    raw.serve("acme/widgets", SHA, paths[0], Answer(429, b"slow down"))
    for path in paths[1:]:
        raw.serve("acme/widgets", SHA, path, LIB_RS)
    first = update(cli, raw, folder, "--jobs", "1")
    assert first.returncode == 1
    assert "stopped: rate limited by 127.0.0.1 (HTTP 429); 4 files left: run `leafexplain update` again" in first.stdout
    assert raw.requests == [f"/acme/widgets/{SHA}/{paths[0]}"], "nothing more asked of a service that said stop"
    raw.serve("acme/widgets", SHA, paths[0], LIB_RS)
    second = update(cli, raw, folder)
    assert second.returncode == 0, second.stdout
    assert "4 of 4 records with their source lines" in second.stdout and len(cache_files(cli)) == 4


def test_a_service_failing_file_after_file_stops_the_run(cli: Isolated, raw: StandIn, tmp_path: Path) -> None:
    records = [widget(f"00000000000000a{n}", filePath=f"src/part{n}.rs") for n in range(8)]
    for n in range(8):
        raw.serve("acme/widgets", SHA, f"src/part{n}.rs", Answer(502, b"bad gateway"))
    result = update(cli, raw, records_folder(tmp_path, *records), "--jobs", "1")
    assert result.returncode == 1
    assert result.stdout.count("server error (HTTP 502)") == 7, result.stdout  # six lines, and the stop's
    assert "stopped: 6 files in a row failed (the last: server error (HTTP 502)); 2 files left" in result.stdout
    assert len(raw.requests) == 6


def test_no_network_is_one_line_not_one_per_file(cli: Isolated, tmp_path: Path) -> None:
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    records = [widget(f"00000000000000a{n}", filePath=f"src/part{n}.rs") for n in range(5)]
    folder = records_folder(tmp_path, *records)
    result = cli("update", "--records", str(folder), "--base-url", f"http://127.0.0.1:{port}", "--jobs", "1")
    assert result.returncode == 1 and result.stderr == ""
    said = [line for line in result.stdout.splitlines() if "cannot reach 127.0.0.1" in line]
    assert len(said) == 1 and said[0].startswith("stopped: ") and "5 files left" in said[0], result.stdout
    assert cache_files(cli) == []


# --- round 3: hostile servers and addresses (issue 28) -------------------------------------------------------------


def answer(head: str, body: bytes = b"") -> Answer:
    """An answer written as it stands: a status line and headers (\r\n added) in Latin-1, as http.client reads
    them, then the body."""
    return Answer(raw=head.replace("\n", "\r\n").encode("latin-1") + b"\r\n\r\n" + body)


MALFORMED = {
    "superscript length": (answer("HTTP/1.1 200 OK\nContent-Length: \u00b2", LIB_RS), "its Content-Length is not"),
    "superscripts length": (answer("HTTP/1.1 200 OK\nContent-Length: \u00b9\u00b3", LIB_RS), "not a number"),
    "hex length": (answer("HTTP/1.1 200 OK\nContent-Length: 0x10", LIB_RS), "its Content-Length is not a number"),
    "chunked, cut": (answer("HTTP/1.1 200 OK\nTransfer-Encoding: chunked", b"40\r\nfn main"), "closed early (after"),
    "chunk size not hex": (answer("HTTP/1.1 200 OK\nTransfer-Encoding: chunked", b"zz\r\nfn\r\n"), "early (after 0"),
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_a_malformed_answer_fails_that_file_only(cli: Isolated, raw: StandIn, tmp_path: Path, name: str) -> None:
    """Headers are read as the ASCII HTTP writes (a `²` that `isdigit` takes ended the run, 70); an answer cut
    short without a length says so, never "of None"; the other file is still fetched."""
    bad, reason = MALFORMED[name]
    raw.serve("acme/widgets", SHA, "src/lib.rs", bad)
    raw.serve("acme/widgets", SHA, CORE, CORE_RS)
    folder = records_folder(tmp_path, widget(), widget("00000000000000cc", GEAR, filePath=CORE, lineNumber=7))
    result = update(cli, raw, folder, "--timeout", "5")
    assert result.returncode == 1 and result.stderr == "", result.stdout + result.stderr
    said = [line for line in result.stdout.splitlines() if line.startswith("failed ")]
    assert len(said) == 1 and reason in said[0] and "None" not in said[0], result.stdout
    assert "1 of 2 records with their source lines" in result.stdout, "the other file fetched"


class Trickler:
    """A server on 127.0.0.1 that accepts and then writes a byte every 0.2 s for ever, never a line's end
    (what an FTP client waits on for a greeting that never ends)."""

    def __init__(self) -> None:
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.done = threading.Event()
        threading.Thread(target=self.serve, daemon=True).start()

    def serve(self) -> None:
        self.sock.settimeout(0.2)
        while not self.done.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            threading.Thread(target=self.drip, args=(conn,), daemon=True).start()

    def drip(self, conn: socket.socket) -> None:
        with conn:
            while not self.done.wait(0.2):
                try:
                    conn.sendall(b"2")
                except OSError:
                    return

    def close(self) -> None:
        self.done.set()
        self.sock.close()


@pytest.mark.parametrize("scheme", ["ftp", "http-elsewhere", "file"])
def test_a_redirect_to_another_kind_of_address_is_not_followed(
    cli: Isolated, raw: StandIn, tmp_path: Path, scheme: str
) -> None:
    """urllib's default handlers would follow a redirect to ftp:// (outside every bound: 40 s with --timeout 5,
    and a trickle never ends), to file://, or to http on another host: only https, or the base's own http."""
    trickler = Trickler()
    try:
        where = {
            "ftp": f"ftp://127.0.0.1:{trickler.port}/raw/lib.rs",
            "http-elsewhere": f"http://localhost:{trickler.port}/acme/widgets/{SHA}/src/lib.rs",
            "file": "file:///etc/passwd",
        }[scheme]
        raw.serve("acme/widgets", SHA, "src/lib.rs", Answer(302, b"", (("Location", where),)))
        folder = records_folder(tmp_path, widget())
        started = time.monotonic()
        result = run_process(
            "update", "--records", str(folder), "--base-url", raw.url, "--timeout", "3", env=cli.environ, timeout=20
        )
        took = time.monotonic() - started
    finally:
        trickler.close()
    assert result.returncode == 1 and "Traceback" not in result.stderr, result.stdout + result.stderr
    kind = "an http" if scheme == "http-elsewhere" else f"a {scheme}" if scheme == "file" else "an ftp"
    assert f"redirected (HTTP 302) to {kind} address: not followed" in result.stdout, result.stdout
    assert took < 10 and "root:" not in result.stdout and cache_files(cli) == []


def test_credentials_in_the_base_address_are_refused_never_sent(cli: Isolated, raw: StandIn, tmp_path: Path) -> None:
    """`http://user:secret@mirror/` went to the resolver as the host `user:secret@mirror`: the secret left the
    machine in a DNS query. Refused before anything is asked, in one line that does not repeat it."""
    from leafexplain.fetch.raw import base_url

    address = raw.url.replace("http://", "http://user:hunter2secret@") + "/raw"
    with pytest.raises(ValueError) as refused:  # checked first: the old code would look the host up
        base_url(address, {})
    assert "hunter2secret" not in str(refused.value)
    folder = records_folder(tmp_path, widget())
    for given in (["--base-url", address], []):
        result = cli("update", "--records", str(folder), *given, extra_env={"LEAFEXPLAIN_RAW_BASE": address})
        assert result.returncode == 2 and len(result.stderr.splitlines()) == 1, result.stderr
        assert "hunter2secret" not in result.stderr + result.stdout and "user:" not in result.stderr
        assert "a user name or password in the address is never sent" in result.stderr
    assert raw.requests == []


@pytest.mark.parametrize("port", ["99999", "8x", "-1", "\u00b2"])
def test_a_bad_port_in_the_base_address_is_one_usage_error(
    cli: Isolated, raw: StandIn, tmp_path: Path, port: str
) -> None:
    """Reported per file as a server fault before: one usage error now, nothing asked."""
    folder = records_folder(tmp_path, *(widget(f"00000000000000a{n}", filePath=f"src/p{n}.rs") for n in range(3)))
    result = cli("update", "--records", str(folder), "--base-url", f"http://127.0.0.1:{port}/raw")
    assert result.returncode == 2 and result.stdout == "", result.stdout
    assert result.stderr.startswith("leafexplain: --base-url: not a port number") and result.stderr.count("\n") == 1


@pytest.mark.parametrize("value", ["nan", "NaN", "-nan"])
def test_a_timeout_of_nan_is_a_usage_error_as_any_value_out_of_range(cli: Isolated, tmp_path: Path, value: str) -> None:
    folder = records_folder(tmp_path, widget())
    result = cli("update", "--records", str(folder), "--base-url", "http://127.0.0.1:9", "--timeout", value)
    assert result.returncode == 2 and result.stdout == "", result.stderr
    shown = "-nan" if value == "-nan" and "-nan" in result.stderr else "nan"
    assert f"Invalid value for '--timeout': {shown} is not in the range 1<=x<=600." in result.stderr, result.stderr
    out_of_range = cli("update", "--records", str(folder), "--timeout", "0.5")
    assert out_of_range.returncode == 2 and "0.5 is not in the range 1<=x<=600." in out_of_range.stderr


@pytest.mark.parametrize(("signal_name", "code"), [("SIGINT", 130), ("SIGTERM", 143)])
def test_ctrl_c_and_sigterm_end_the_run_at_once_and_the_cache_stays_whole(
    cli: Isolated, raw: StandIn, tmp_path: Path, signal_name: str, code: int
) -> None:
    """With fetches in flight (a server that does not answer, `--timeout 30`), the signal ended the run only
    when they ended: now at once, with its code; every entry in the cache is whole (written by rename)."""
    import signal

    raw.serve("acme/widgets", SHA, CORE, CORE_RS)
    for n in range(3):
        raw.serve("acme/widgets", SHA, f"src/part{n}.rs", Answer(hold=True))
    records = [widget(f"00000000000000a{n}", filePath=f"src/part{n}.rs") for n in range(3)]
    folder = records_folder(tmp_path, widget("00000000000000cc", GEAR, filePath=CORE, lineNumber=7), *records)
    command = [*leafexplain_command(), "update", "--records", str(folder), "--base-url", raw.url, "--timeout", "30"]
    child = subprocess.Popen(command, env=cli.environ, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 20
        while sum("part" in r for r in raw.requests) < 3 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert sum("part" in r for r in raw.requests) == 3, raw.requests
        sent = time.monotonic()
        child.send_signal(getattr(signal, signal_name))
        _, err = child.communicate(timeout=15)
        took = time.monotonic() - sent
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert child.returncode == code and b"Traceback" not in err, err
    assert took < 3, f"{took:.1f} s after the signal"
    for entry in (cli.cache / "leafexplain" / "sources").iterdir():
        assert entry.suffix == ".json" and json.loads(entry.read_text(encoding="utf-8"))["format"] == 1, entry.name


# --- resumable: a partial cache -------------------------------------------------------------------------------------


def test_a_partial_cache_is_completed_and_a_damaged_entry_fetched_again(
    cli: Isolated, raw: StandIn, tmp_path: Path
) -> None:
    raw.serve("acme/widgets", SHA, "src/lib.rs", LIB_RS)
    raw.serve("acme/widgets", SHA, CORE, Answer(503, b"busy"))
    gear = widget("00000000000000cc", GEAR, filePath=CORE, lineNumber=7)
    folder = records_folder(tmp_path, widget(), gear)
    first = update(cli, raw, folder)
    assert first.returncode == 1 and "server error (HTTP 503)" in first.stdout
    [kept] = cache_files(cli)
    stray = kept.parent / ".index-interrupted.tmp"  # what a writer killed outright leaves
    stray.write_text("{", encoding="utf-8")

    raw.serve("acme/widgets", SHA, CORE, CORE_RS)
    raw.requests.clear()
    second = update(cli, raw, folder)
    assert second.returncode == 0, second.stdout
    assert raw.requests == [f"/acme/widgets/{SHA}/{CORE}"], "what is cached is skipped"
    assert "1 cached before, 1 now (1 file fetched)" in second.stdout

    kept.write_bytes(kept.read_bytes()[:40])  # cut short by something else: not ours, so not believed
    assert snippet_of(explain(cli, folder, fmt="json")) is None
    raw.requests.clear()
    third = update(cli, raw, folder)
    assert third.returncode == 0 and raw.requests == [f"/acme/widgets/{SHA}/src/lib.rs"]
    assert snippet_of(explain(cli, folder, fmt="json"))["origin"] == "cache"  # type: ignore[index]


def test_a_new_record_in_a_cached_file_is_fetched_and_the_old_lines_kept(
    cli: Isolated, raw: StandIn, tmp_path: Path
) -> None:
    raw.serve("acme/widgets", SHA, "src/lib.rs", LIB_RS)
    update(cli, raw, records_folder(tmp_path, widget()))
    sprocket = widget("00000000000000bb", "sprocket alignment lost for good", lineNumber=30)
    folder = records_folder(tmp_path, widget(), sprocket)
    raw.requests.clear()
    result = update(cli, raw, folder)
    assert result.returncode == 0 and len(raw.requests) == 1 and len(cache_files(cli)) == 1
    entry = json.loads(cache_files(cli)[0].read_text(encoding="utf-8"))
    assert [w["wanted"] for w in entry["windows"]] == [LINE, 30]


TOKEN = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"  # a GitHub token's shape, made up for this test


def test_cached_lines_are_redacted_and_counted(cli: Isolated, raw: StandIn, tmp_path: Path) -> None:
    """The lines a file held when it was fetched, or a poisoned entry holds, are redacted as your own code is,
    in `--full` and in JSON, and the document's counts hold them."""
    leaky = rust_file({LINE: f'    panic!("{MESSAGE}");', LINE + 1: f"// {TOKEN}"})
    raw.serve("acme/widgets", SHA, "src/lib.rs", leaky)
    folder = records_folder(tmp_path, widget())
    assert update(cli, raw, folder).returncode == 0
    full = explain(cli, folder)
    assert TOKEN not in full.stdout and f"{LINE + 1} | // ghp_…[redacted]" in full.stdout, full.stdout
    shown = explain(cli, folder, fmt="json")
    assert TOKEN not in shown.stdout and json.loads(shown.stdout)["redacted"] == {"github-token": 1}
    raw_json = cli("--no-bundled", "--records", str(folder), "--format", "json", "--no-redact", MESSAGE)
    assert TOKEN in raw_json.stdout and json.loads(raw_json.stdout)["redacted"] is None


def test_a_crafted_cache_entry_shows_only_a_bounded_window(cli: Isolated, raw: StandIn, tmp_path: Path) -> None:
    """An entry is a file anyone could have written: of one holding 2000 lines of 420 characters (840 KB), a view
    shows the lines update keeps (six either side of the raising line), each one line cut to 400 characters,
    4000 characters in all."""
    raw.serve("acme/widgets", SHA, "src/lib.rs", LIB_RS)
    folder = records_folder(tmp_path, widget())
    assert update(cli, raw, folder).returncode == 0
    [entry] = cache_files(cli)
    document = json.loads(entry.read_text(encoding="utf-8"))
    lines = [f"// line {n} " + "x" * 420 for n in range(1, 2001)]
    lines[999] = "line one\nline two, a forged one " + "y" * 500
    document["windows"][0].update({"line": 1000, "start": 1, "lines": lines})
    entry.write_text(json.dumps(document), encoding="utf-8")
    full = explain(cli, folder)
    assert full.returncode == 0 and len(full.stdout) < 20_000, len(full.stdout)
    assert "> 1000 | line one" in full.stdout and "// line 999 " in full.stdout and "// line 1001 " in full.stdout
    assert "// line 993 " not in full.stdout and "// line 1007 " not in full.stdout
    assert "line two" not in full.stdout, "one line of the entry is one line shown"
    snippet = snippet_of(explain(cli, folder, fmt="json"))
    assert snippet is not None and snippet["line"] == 1000 and 994 <= snippet["start"] < 1000
    assert len(snippet["lines"]) <= 13 and all(len(line) <= 400 for line in snippet["lines"])
    assert sum(map(len, snippet["lines"])) <= 4000 and snippet["lines"][1000 - snippet["start"]] == "line one"


# --- the order of snippets at explain time --------------------------------------------------------------------------


def test_the_record_s_own_source_comes_first_then_the_installed_one(
    cli: Isolated, raw: StandIn, tmp_path: Path
) -> None:
    raw.serve("acme/widgets", SHA, "src/lib.rs", LIB_RS)
    own = widget(sourceCode='fn f() {\n    panic!("widget frobnication failed badly");\n}', sourceCodeStart=11)
    folder = records_folder(tmp_path, own)
    assert update(cli, raw, folder).returncode == 0, "fetched all the same: its lines are cached"
    snippet = snippet_of(explain(cli, folder, fmt="json"))
    assert snippet is not None and (snippet["origin"], snippet["start"], snippet["line"]) == ("record", 11, LINE)
    assert "from the source cache" not in explain(cli, folder).stdout

    folder = records_folder(tmp_path, widget())
    crate = cli.tmp / "cargo" / "registry" / "src" / "index.crates.io-1949cf8c6b5b557f" / "widgets-1.0.0" / "src"
    crate.mkdir(parents=True)
    (crate / "lib.rs").write_bytes(LIB_RS)
    installed = Isolated(cli.tmp, CARGO_HOME=str(cli.tmp / "cargo"))
    snippet = snippet_of(explain(installed, folder, fmt="json"))
    assert snippet is not None and snippet["origin"] == "installed" and snippet["version"] == "widgets 1.0.0"
    assert "from the source cache" not in explain(installed, folder).stdout

    shown = explain(cli, folder, fmt="json")
    assert snippet_of(shown)["origin"] == "cache"  # type: ignore[index]
    no_source = cli("--no-bundled", "--records", str(folder), "--format", "json", "--no-source", MESSAGE)
    assert "source_snippet" not in no_source.stdout, "--no-source: nothing read from this machine, the cache included"
    plain = cli("--no-bundled", "--records", str(folder), "--format", "plain", "--no-source", MESSAGE)
    assert "from the source cache" not in plain.stdout


def test_the_cache_is_read_by_key_and_never_outside_its_folder(tmp_path: Path) -> None:
    """A record cannot name a place outside the cache, nor a commit or path a URL would misread."""
    hostile = [
        {"analyzedSha": "../../etc", "filePath": "src/lib.rs"},
        {"filePath": "../outside.rs"},
        {"filePath": "/etc/passwd"},
        {"filePath": "src/\x1b[31mred.rs"},
        {"lineNumber": None},
    ]
    for fields in hostile:
        data = widget(**fields)  # type: ignore[arg-type]
        assert places(as_record(data)) == [], fields
    place = places(as_record(widget()))[0]
    assert os.path.dirname(entry_path(tmp_path, place)) == str(tmp_path)
    with_history = widget(githubUrl=f"https://github.com/acme/widgets/blob/{SHA}/src/lib.rs#L1", analyzedSha=None)
    assert places(as_record(with_history))[0].commit == SHA, "the commit of the link when analyzedSha is not given"


# --- the command itself ---------------------------------------------------------------------------------------------


def test_the_defaults_the_help_names_are_fetch_s_own() -> None:
    from leafexplain.cli.app import update
    from leafexplain.fetch.raw import DEFAULT_TIMEOUT
    from leafexplain.fetch.update import DEFAULT_JOBS

    defaults = {name: p.default for name, p in inspect.signature(update).parameters.items()}
    assert (defaults["timeout"], defaults["jobs"]) == (DEFAULT_TIMEOUT, DEFAULT_JOBS)


def test_usage_errors(cli: Isolated, raw: StandIn, tmp_path: Path) -> None:
    raw.serve("acme/widgets", SHA, "src/lib.rs", LIB_RS)
    folder = records_folder(tmp_path, widget())
    bad = cli("update", "--records", str(folder), "--base-url", "ftp://mirror.example/raw")
    assert (
        bad.returncode == 2
        and bad.stderr == "leafexplain: --base-url: not an http(s) address: ftp://mirror.example/raw\n"
    )
    assert raw.requests == []
    absent = update(cli, raw, folder, "--records", str(tmp_path / "nowhere"))
    assert absent.returncode == 2 and "nowhere: no such file or folder" in absent.stderr
    assert "1 of 1 record with their source lines" in absent.stdout, "the valid part still done"


def test_a_progress_bar_on_a_terminal(cli: Isolated, raw: StandIn, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(progress, "SHOW_AFTER", 0.0)
    monkeypatch.setattr(progress, "MIN_INTERVAL", 0.0)
    raw.serve("acme/widgets", SHA, "src/lib.rs", LIB_RS)
    folder = records_folder(tmp_path, widget())
    on_terminal = cli("update", "--records", str(folder), "--base-url", raw.url, tty=True)
    assert "fetching sources [" in on_terminal.stderr and "100%" in on_terminal.stderr
    assert "fetching sources" not in update(cli, raw, folder).stderr, "nothing on a pipe"


def test_explaining_loads_no_network_module(cli: Isolated, raw: StandIn, tmp_path: Path) -> None:
    raw.serve("acme/widgets", SHA, "src/lib.rs", LIB_RS)
    folder = records_folder(tmp_path, widget())
    update(cli, raw, folder)
    probe = (
        "import sys\nfrom leafexplain.cli import main\n"
        f"code = main(['--no-bundled', '--records', {str(folder)!r}, '--format', 'plain', '--full', {MESSAGE!r}])\n"
        "sys.stderr.write(repr(sorted({'urllib.request', 'http.client'} & set(sys.modules))) + '\\n')\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], env=cli.environ, capture_output=True, text=True, timeout=60)
    assert "from the source cache" in done.stdout, done.stderr
    assert done.stderr.splitlines()[-1] == "[]"


# What an entry costs at explain time: a file read, and only for a snippet a view shows.
PROBE_MODULES = """
import sys
before = set(sys.modules)
from leafexplain.cli import main
code = main(sys.argv[1:])
added = set(sys.modules) - before
loaded = sorted({m.split(".")[0] for m in added} & {"hashlib", "_hashlib", "pathlib"})
read = "leafexplain.locate.cached" in added
sys.stderr.write(f"loaded {loaded} read {read} {code}\\n")
"""


@pytest.mark.parametrize(
    ("args", "reads"),
    [([], False), (["--full"], True), (["--format", "json"], True), (["--format", "markdown"], False)],
    ids=["default", "full", "json", "markdown"],
)
def test_a_filled_cache_costs_a_file_read_only_where_a_snippet_is_shown(
    cli: Isolated, raw: StandIn, tmp_path: Path, args: list[str], reads: bool
) -> None:
    """The default view (plain, colour and Markdown alike) shows no snippet: the cache is not looked into.
    Where one is shown the entry is named by zlib's checksums: neither hashlib (OpenSSL) nor pathlib."""
    raw.serve("acme/widgets", SHA, "src/lib.rs", LIB_RS)
    folder = records_folder(tmp_path, widget())
    assert update(cli, raw, folder).returncode == 0
    command = [sys.executable, "-c", PROBE_MODULES, "--no-bundled", "--records", str(folder), *args, MESSAGE]
    subprocess.run(command, env=cli.environ, capture_output=True, timeout=60, check=True)  # builds the index
    done = subprocess.run(command, env=cli.environ, capture_output=True, text=True, timeout=60)
    assert done.stderr.splitlines()[-1] == f"loaded [] read {reads} 0", done.stderr
    assert ("from the source cache" in done.stdout or '"origin": "cache"' in done.stdout) == reads, done.stdout


def test_a_cache_an_earlier_version_named_is_renamed_not_fetched_again(
    cli: Isolated, raw: StandIn, tmp_path: Path
) -> None:
    """Entries were named by SHA-256 before: the next `update` gives them their names now."""
    import hashlib

    raw.serve("acme/widgets", SHA, "src/lib.rs", LIB_RS)
    folder = records_folder(tmp_path, widget())
    assert update(cli, raw, folder).returncode == 0
    [entry] = cache_files(cli)
    old_key = hashlib.sha256(f"acme/widgets\n{SHA}\nsrc/lib.rs".encode()).hexdigest()[:32]
    entry.rename(entry.with_name(f"{old_key}.json"))
    stray = entry.with_name("0" * 32 + ".json")
    stray.write_text("{", encoding="utf-8")  # not an entry: removed
    assert snippet_of(explain(cli, folder, fmt="json")) is None, "explain looks up the name now only"
    raw.requests.clear()
    again = update(cli, raw, folder)
    assert again.returncode == 0 and raw.requests == [], again.stdout
    assert "1 cached before" in again.stdout
    assert cache_files(cli) == [entry]
    assert snippet_of(explain(cli, folder, fmt="json"))["origin"] == "cache"  # type: ignore[index]
