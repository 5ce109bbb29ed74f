"""`leafexplain mcp`: a Model Context Protocol server on stdio, so that a coding agent can explain an error,
read a record and search the records, each answer the JSON document the command line writes.

The tools, each a few lines over the session and the renderer:
- `explain(text, source)`: every error in the text, the JSON envelope of `leafexplain --format json`
  (secrets redacted; `source` adds the user's code and the library source found on this machine, read
  from the server's working folder, as the command does);
- `show(key)`: one record by id or slug, the document of `leafexplain show --format json`;
- `search(query, limit)`: the records relevant to the words, best first, as `leafexplain search --format json`.

Imported only by `cli/mcp.py` when the command runs: the SDK (the `mcp` extra) and what it brings
(pydantic, anyio, starlette) are far from the everyday explanation. The records are loaded at the first
tool call and kept. Nothing here writes to stdout, which is the protocol's: the record loader's warnings
go to stderr, the client's log.
"""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Callable, Sequence

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError  # its text reaches the agent (any other: a crash, not said)
from mcp.types import ToolAnnotations

from leafexplain import render, session
from leafexplain.env import Environment
from leafexplain.version import __version__

NAME = "leafexplain"
INSTRUCTIONS = (
    "leafexplain explains Rust panics, rustc compile errors and Python tracebacks from the output of a failing"
    " run: call `explain` with that output (cargo test, pytest, a script's traceback) to get, for each error,"
    " the record that matches it, what it means, how to fix it and where the library raises it; `show` reads a"
    " record in full by its id or slug; `search` finds records by words."
)
SEARCH_LIMIT = 10
# Every tool only reads (the text given, the records, this machine's files) and never goes online: an agent may
# call them without asking its user each time.
READ_ONLY = ToolAnnotations(readOnlyHint=True, destructiveHint=False, idempotentHint=True, openWorldHint=False)


def _written(write: Callable[[Environment], None]) -> str:
    """What a writer of render puts on stdout, as a string (an in-memory stdout, never the protocol's)."""
    out = io.StringIO()
    write(Environment(stdout=out, environ=os.environ))
    return out.getvalue()


def build_server(extra: Sequence[str] = (), *, bundled: bool = True) -> MCPServer:
    """The server and its three tools, over the records of `extra` (files or folders) and the bundled ones."""
    stderr = Environment(stderr=sys.stderr, environ=os.environ)
    told = session.Callbacks(warn=lambda message: render.warn(stderr, message))
    json_style = render.Style("json", "never")
    server = MCPServer(NAME, instructions=INSTRUCTIONS, version=__version__, log_level="WARNING")
    loaded: list[session.Matcher] = []

    def matcher() -> session.Matcher:
        """The records, loaded at the first call that needs them and kept for the session."""
        if not loaded:
            loaded.append(session.load_matcher(extra, bundled=bundled, told=told))
        return loaded[0]

    @server.tool(annotations=READ_ONLY, structured_output=False)
    def explain(text: str, source: bool = True) -> str:
        """Explain every Rust panic, rustc error and Python traceback in `text` (the output of a failing run).

        Returns the JSON envelope of `leafexplain --format json`: each error found, the record that explains
        it (id, what it means, how to fix it, the GitHub link to where it is raised), the candidates and
        scores. Secrets in the text are redacted. `source` adds your code and the library source as found on
        this machine (paths relative to the server's working folder).
        """
        asked = session.Request(
            session.Text(text), records=matcher, local=session.Local(None) if source else None, redact=True
        )
        report = session.explain_request(asked)
        return render.to_text(report, json_style)

    @server.tool(annotations=READ_ONLY, structured_output=False)
    def show(key: str) -> str:
        """One record in full, by its id (16 hex digits) or its slug: `leafexplain show --format json`'s document."""
        catalog = matcher().catalog
        found = catalog.find(key.strip())
        if not found:
            raise ToolError(f"no record with id or slug {key!r} (try the search tool)")
        if len(found) > 1:
            ids = ", ".join(f"{catalog.record_id(i)} ({catalog.repo(i)})" for i in found)
            raise ToolError(f"{key!r} names {len(found)} records; use an id: {ids}")
        record = catalog.record(found[0])
        return _written(lambda env: render.write_record(record, env, json_style))

    @server.tool(annotations=READ_ONLY, structured_output=False)
    def search(query: str, limit: int = SEARCH_LIMIT) -> str:
        """The records relevant to the words of `query` (in messages, slugs, tags and repositories), best first,
        at most `limit`: the document of `leafexplain search --format json` (an empty list when none is)."""
        from leafexplain.records.search import search_records

        found = search_records(matcher().catalog, query, max(1, min(limit, 100)))
        return _written(lambda env: render.write_records(found.rows, env, json_style))

    return server


def serve(extra: Sequence[str] = (), *, bundled: bool = True) -> None:
    """Serve on stdin and stdout until the client closes them."""
    build_server(extra, bundled=bundled).run("stdio")
