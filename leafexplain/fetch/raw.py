"""One file from GitHub's raw file service (or a mirror of it): bounded in time and size, every fault named in one line.

The standard library's urllib does it: one GET a file, no new dependency. Proxies are taken from the
environment leafexplain was given (`https_proxy`, `http_proxy`, `no_proxy`), never for the local
machine, so that a test's stand-in server on 127.0.0.1 is reached directly.

The time allowed is for the whole file: a socket's own timeout restarts with every byte, so a server
that trickles its answer (a byte a second) would hold a read for as long as it likes. Each wait on
the socket, from the connection to the last byte (the header lines included), is given only the
time left, so a file ends at its bound, give or take the last wait's scheduling. Only http(s) is
spoken: the opener has no handler for ftp, file or data addresses, and a redirect is followed only to
https (or to the configured base's own http host), with the same deadline.

An answer is read as the protocol writes it, in ASCII: a header that is not (a `Content-Length` of `²`)
fails that file, never the run. The address itself never carries credentials: a user name or password in
it would be sent to the resolver as part of a host name, so it is refused, and never repeated.
"""

from __future__ import annotations

import http.client
import io
import re
import socket
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Mapping
from typing import Literal

DEFAULT_BASE = "https://raw.githubusercontent.com"
BASE_VARIABLE = "LEAFEXPLAIN_RAW_BASE"
DEFAULT_TIMEOUT = 20.0  # seconds per file, all told
MAX_BYTES = 4 << 20  # a source file bigger than this is generated: not worth keeping lines of
CHUNK = 64 << 10
USER_AGENT = "leafexplain-update"
_LOCAL_HOSTS = ("localhost", "127.0.0.1", "::1")

# missing: the file is not there at that commit (try elsewhere); failed: this file, this time;
# stop: nothing more will work now (no network, a rate limit, a proxy answering in place of the server).
FaultKind = Literal["missing", "failed", "stop"]


class FetchFault(Exception):
    """Why a file was not fetched, in one line, and what it means for the rest of the run."""

    def __init__(self, kind: FaultKind, reason: str) -> None:
        super().__init__(reason)
        self.kind: FaultKind = kind
        self.reason = reason


def base_url(option: str | None, environ: Mapping[str, str]) -> str:
    """The service's address: the option, else LEAFEXPLAIN_RAW_BASE, else GitHub's. Raises ValueError when it
    is not an http(s) address of a host (and a port) that a request can name; one with a user name or password
    in it is refused without repeating them."""
    base = (option or environ.get(BASE_VARIABLE) or DEFAULT_BASE).rstrip("/")
    parts = urllib.parse.urlsplit(base)
    if "@" in parts.netloc:
        host = parts.netloc.rpartition("@")[2]
        raise ValueError(
            f"a user name or password in the address is never sent (it would go out as part of a host name): "
            f"give {parts.scheme}://{host}{parts.path} without them"
        )
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
        raise ValueError(f"not an http(s) address: {base}")
    try:
        port = parts.port  # ValueError for a port that is not a number from 0 to 65535
    except ValueError:
        raise ValueError(f"not a port number: {parts.netloc.rpartition(':')[2]} in {base}") from None
    host = parts.hostname or ""
    if not _HOST.fullmatch(host) or port == 0:
        raise ValueError(f"not a host{' and port' if port is not None else ''} a request can name: {parts.netloc}")
    return base


# A host name (letters, digits, `-`, `.`, `_`), an IPv4 address, or an IPv6 one (urlsplit took its brackets off).
_HOST = re.compile(r"[A-Za-z0-9_](?:[A-Za-z0-9_.-]{0,252})|[0-9A-Fa-f:.]{2,45}(?:%[A-Za-z0-9_.-]{1,64})?")


def ascii_number(value: str | None) -> int | None:
    """A header's number as HTTP writes it (ASCII digits); None when it is absent or anything else (`²`, `٣`,
    `-1`, ` 12`), which `int` and `str.isdigit` would take or choke on."""
    if value is None or not (value.isascii() and value.isdigit()) or len(value) > 18:
        return None
    return int(value)


def raw_url(base: str, repo: str, commit: str, path: str) -> str:
    """Where the service keeps `path` at `commit`: BASE/OWNER/NAME/COMMIT/PATH."""
    return f"{base}/{repo}/{commit}/{urllib.parse.quote(path)}"


def _proxies(host: str, environ: Mapping[str, str]) -> dict[str, str]:
    lowered = {k.lower(): v for k, v in environ.items() if k.lower().endswith("_proxy") and v}
    bypass = [h.strip().lstrip(".").lower() for h in lowered.pop("no_proxy", "").split(",") if h.strip()]
    host = host.lower()
    if host in _LOCAL_HOSTS or "*" in bypass or any(host == h or host.endswith("." + h) for h in bypass):
        return {}
    return {k[: -len("_proxy")]: v for k, v in lowered.items() if k in ("http_proxy", "https_proxy")}


class _Deadline:
    """When a request's time is up."""

    def __init__(self, seconds: float) -> None:
        self.end = time.monotonic() + seconds

    def left(self) -> float:
        """The seconds left; raises TimeoutError when there are none."""
        left = self.end - time.monotonic()
        if left <= 0:
            raise TimeoutError("timed out")
        return left


class _BoundedReader(io.RawIOBase):
    """The answer's bytes as they come, each wait on the socket given only the time left."""

    def __init__(self, owner: _BoundedSocket) -> None:
        self.owner = owner

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        sock = self.owner.sock
        sock.settimeout(self.owner.deadline.left())
        return sock.recv_into(buffer)

    def close(self) -> None:
        if not self.closed:
            self.owner.reader_closed()
        super().close()


class _BoundedSocket:
    """A connected socket as http.client uses it, whose answer is read through a `_BoundedReader`.

    urllib closes the connection's socket once the headers are read and leaves the body to the
    answer's reader: as with `socket.makefile`, the socket itself is closed when both are.
    """

    def __init__(self, sock: socket.socket, deadline: _Deadline) -> None:
        self.sock, self.deadline = sock, deadline
        self.readers, self.closed = 0, False

    def makefile(self, mode: str = "r", *args: object, **kwargs: object) -> io.BufferedReader:
        if mode != "rb":
            raise ValueError(f"only 'rb', not {mode!r}")
        self.readers += 1
        return io.BufferedReader(_BoundedReader(self))

    def reader_closed(self) -> None:
        self.readers -= 1
        if self.closed and not self.readers:
            self.sock.close()

    def close(self) -> None:
        self.closed = True
        if not self.readers:
            self.sock.close()

    def __getattr__(self, name: str) -> object:  # sendall, settimeout, …: the socket's own
        return getattr(self.sock, name)


class _DeadlineHandler(urllib.request.AbstractHTTPHandler):
    """Connections for a request that carries a `_Deadline` (`request.deadline`): the connection made within
    the time left, then the answer read through a `_BoundedSocket`."""

    def do_open(self, http_class: type, req: urllib.request.Request, **kwargs: object) -> http.client.HTTPResponse:
        deadline: _Deadline | None = getattr(req, "deadline", None)
        if deadline is None:
            return super().do_open(http_class, req, **kwargs)

        def connection(host: str, **options: object) -> http.client.HTTPConnection:
            made = http_class(host, **options)
            connect = made.connect

            def bounded_connect() -> None:
                made.timeout = deadline.left()
                connect()
                made.sock = _BoundedSocket(made.sock, deadline)

            made.connect = bounded_connect
            return made

        return super().do_open(connection, req, **kwargs)


class _HTTPHandler(_DeadlineHandler, urllib.request.HTTPHandler):
    pass


class _HTTPSHandler(_DeadlineHandler, urllib.request.HTTPSHandler):
    pass


class _RedirectHandler(urllib.request.HTTPRedirectHandler):
    """A redirect (a renamed repository) is followed to https, or to the base's own http host and port, and keeps
    the request's deadline: the bound is for the whole file. Anything else (ftp, file, another http host) fails
    the file, said by its scheme only (the address is the server's text)."""

    def __init__(self, base: str) -> None:
        parts = urllib.parse.urlsplit(base)
        self.own_http = parts.netloc.lower() if parts.scheme == "http" else None

    def http_error_302(self, req, fp, code, msg, headers):  # type: ignore[no-untyped-def]
        # Checked before urllib's own check, which lets ftp through and names any other scheme in an HTTPError.
        newurl = headers.get("location") or headers.get("uri") if headers else None
        if newurl:
            try:
                target = urllib.parse.urlsplit(urllib.parse.urljoin(req.full_url, newurl))
                own = target.scheme == "http" and target.netloc.lower() == self.own_http
                scheme = target.scheme if target.scheme.isalnum() else "malformed"
            except ValueError:
                own, scheme = False, "malformed"
            if scheme != "https" and not own:
                what = "an" if scheme[:1] in "aeiou" or scheme in ("http", "ftp") else "a"
                raise FetchFault("failed", f"redirected (HTTP {code}) to {what} {scheme} address: not followed")
        return super().http_error_302(req, fp, code, msg, headers)

    http_error_301 = http_error_303 = http_error_307 = http_error_308 = http_error_302

    def redirect_request(self, req, fp, code, msg, headers, newurl):  # type: ignore[no-untyped-def]
        new = super().redirect_request(req, fp, code, msg, headers, newurl)
        if new is not None:
            new.deadline = getattr(req, "deadline", None)  # type: ignore[attr-defined]
        return new


def opener(base: str, environ: Mapping[str, str]) -> urllib.request.OpenerDirector:
    """An opener for the service at `base`, through the environment's proxy for it, if any; a request that
    carries a deadline (as `fetch_text`'s do) is read within it. Built by hand, not by `build_opener`, whose
    defaults add handlers for ftp, file and data addresses that no deadline bounds."""
    host = urllib.parse.urlsplit(base).hostname or ""
    made = urllib.request.OpenerDirector()
    for handler in (
        urllib.request.ProxyHandler(_proxies(host, environ)),
        urllib.request.UnknownHandler(),  # an address of any other kind: URLError, "unknown url type"
        _HTTPHandler(),
        _HTTPSHandler(),
        urllib.request.HTTPDefaultErrorHandler(),
        _RedirectHandler(base),
        urllib.request.HTTPErrorProcessor(),
    ):
        made.add_handler(handler)
    return made


def _http_fault(error: urllib.error.HTTPError, host: str) -> FetchFault:
    code = error.code
    if code in (404, 410):
        return FetchFault("missing", f"not found (HTTP {code}): no such commit, or no such file at it")
    if code in (403, 429):
        wait = ascii_number(error.headers.get("Retry-After") if error.headers else None)
        later = f", retry after {wait} s" if wait is not None else ""
        what = "rate limited" if code == 429 else "refused (a rate limit or an access rule)"
        return FetchFault("stop", f"{what} by {host} (HTTP {code}{later})")
    if code == 407:
        return FetchFault("stop", "the proxy asks for credentials (HTTP 407)")
    if code >= 500:
        return FetchFault("failed", f"server error (HTTP {code})")
    return FetchFault("failed", f"unexpected answer (HTTP {code})")


def _cut_short(got: int, expected: int | None) -> str:
    if expected is None:  # no length said (a chunked answer): only that it ended too soon
        return f"the connection closed early (after {got} bytes)"
    return f"the connection closed early (got {got} bytes of {expected})"


def _is_timeout(reason: object) -> bool:
    return isinstance(reason, TimeoutError) or "timed out" in str(reason)


def _looks_like_html(content_type: str, head: bytes, url: str) -> bool:
    if url.lower().endswith((".html", ".htm")):
        return False
    start = head.lstrip()[:15].lower()
    return content_type.startswith("text/html") or start.startswith((b"<!doctype html", b"<html"))


def fetch_text(
    url: str, *, via: urllib.request.OpenerDirector, timeout: float = DEFAULT_TIMEOUT, max_bytes: int = MAX_BYTES
) -> str:
    """The text at `url`. Raises FetchFault for anything but a whole text file within the bounds."""
    host = urllib.parse.urlsplit(url).hostname or url
    deadline = _Deadline(timeout)
    request = urllib.request.Request(url, headers={"User-Agent": USER_AGENT, "Accept": "text/plain, */*"})
    request.deadline = deadline  # type: ignore[attr-defined]  # read by `opener`'s handlers
    expected: int | None = None
    try:
        with via.open(request, timeout=timeout) as answer:
            length = answer.headers.get("Content-Length")
            expected = ascii_number(length)
            if length is not None and expected is None:
                raise FetchFault("failed", "a malformed answer (its Content-Length is not a number)")
            content_type = (answer.headers.get("Content-Type") or "").lower()
            pieces: list[bytes] = []
            size = 0
            while True:
                deadline.left()  # an opener of another kind: at least between reads
                piece = answer.read1(CHUNK)  # what has come, not a whole chunk
                if not piece:
                    break
                size += len(piece)
                if size > max_bytes:
                    raise FetchFault("failed", f"larger than {max_bytes >> 20} MB: not kept")
                pieces.append(piece)
    except FetchFault:
        raise
    except urllib.error.HTTPError as error:
        raise _http_fault(error, host) from None
    except urllib.error.URLError as error:
        if _is_timeout(error.reason):
            raise FetchFault("failed", f"timed out after {timeout:g} s") from None
        raise FetchFault("stop", f"cannot reach {host}: {error.reason}") from None
    except http.client.IncompleteRead as error:
        raise FetchFault("failed", _cut_short(len(error.partial), expected)) from None
    except TimeoutError:
        raise FetchFault("failed", f"timed out after {timeout:g} s") from None
    except (http.client.HTTPException, ConnectionError) as error:
        raise FetchFault("failed", f"the answer was cut off or malformed ({type(error).__name__})") from None
    except ValueError:  # what http.client lets through of a malformed answer (a chunk size that is not hex)
        raise FetchFault("failed", "the answer was cut off or malformed (ValueError)") from None
    except OSError as error:
        raise FetchFault("stop", f"cannot reach {host}: {error.strerror or error}") from None
    data = b"".join(pieces)
    if expected is not None and expected != len(data):
        raise FetchFault("failed", _cut_short(len(data), expected))
    if _looks_like_html(content_type, data[:512], url):
        raise FetchFault("stop", f"{host} answered with an HTML page, not the file (a proxy or a login page?)")
    if b"\0" in data[:8192]:
        raise FetchFault("failed", "not a text file")
    return data.decode("utf-8", errors="replace")
