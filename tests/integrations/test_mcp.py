"""`leafexplain mcp`: a real MCP client session over stdio with `python -m leafexplain mcp`, and the one line it
says when the SDK (the `mcp` extra) is not installed."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import LEAF, SEED_ID, SEED_SLUG, Isolated

TOKEN = "ghp_" + "x9Y8w7V6u5" * 4  # a made-up token shape, built here so that no scanner takes this file for a leak


def session_answers(tmp: Path, calls: list[tuple[str, dict[str, Any]]]) -> tuple[set[str], list[Any]]:
    """The tools the server lists and the result of each call, from one client session over stdio."""
    pytest.importorskip("mcp", reason="the MCP server's tests need the MCP SDK (the `mcp` extra)")
    import anyio
    from mcp import StdioServerParameters
    from mcp.client.session import ClientSession
    from mcp.client.stdio import stdio_client

    server = StdioServerParameters(
        command=sys.executable, args=["-m", "leafexplain", "mcp"], env=Isolated(tmp).environ, cwd=str(tmp)
    )
    answers: list[Any] = []
    tools: set[str] = set()

    async def talk() -> None:
        with anyio.fail_after(120), (tmp / "server-stderr.txt").open("w") as errlog:
            async with stdio_client(server, errlog=errlog) as (read, write), ClientSession(read, write) as client:
                await client.initialize()
                listed = (await client.list_tools()).tools
                assert all(tool.annotations and tool.annotations.read_only_hint for tool in listed), "read only"
                tools.update(tool.name for tool in listed)
                for name, arguments in calls:
                    answers.append(await client.call_tool(name, arguments))

    anyio.run(talk)
    return tools, answers


def _document(result: Any) -> dict[str, Any]:
    assert not result.is_error, result.content
    (text,) = [part.text for part in result.content]
    return json.loads(text)


def test_an_agent_explains_the_seed_panic_and_reads_and_finds_its_record(tmp_path: Path) -> None:
    panic = LEAF.read_text(encoding="utf-8") + f"token in the log: {TOKEN}\n"
    tools, (explained, by_id, by_slug, found, missing) = session_answers(
        tmp_path,
        [
            ("explain", {"text": panic}),
            ("show", {"key": SEED_ID}),
            ("show", {"key": SEED_SLUG}),
            ("search", {"query": "non leaf tensor tracked", "limit": 3}),
            ("show", {"key": "no-such-record"}),
        ],
    )
    assert tools == {"explain", "show", "search"}
    envelope = _document(explained)
    assert envelope["schema"] == "leafexplain.explain/1", "the JSON envelope of --format json"
    (event,) = envelope["events"]
    assert event["matches"][0]["id"] == SEED_ID
    assert TOKEN not in explained.content[0].text and envelope["redacted"], "redaction on"
    assert _document(by_id)["record"]["id"] == _document(by_slug)["record"]["id"] == SEED_ID
    ranked = _document(found)["records"]
    assert ranked[0]["id"] == SEED_ID and len(ranked) <= 3
    assert missing.is_error and "no record with id or slug 'no-such-record'" in missing.content[0].text


def test_the_json_is_what_the_command_line_writes(tmp_path: Path) -> None:
    """`explain` over MCP and `leafexplain --format json` give the same document for the same text."""
    (explained,) = session_answers(tmp_path, [("explain", {"text": LEAF.read_text(encoding="utf-8")})])[1]
    cli = Isolated(tmp_path)
    written = cli.process("--format", "json", "--file", str(LEAF), cwd=tmp_path)
    assert _document(explained) == json.loads(written.stdout)


def test_without_the_sdk_the_command_says_how_to_install_it(cli: Isolated, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ["mcp", *(m for m in sys.modules if m.startswith("mcp."))]:
        monkeypatch.setitem(sys.modules, name, None)  # `import mcp...` raises ImportError, as when it is not installed
    monkeypatch.delitem(sys.modules, "leafexplain.integrations.mcp_server", raising=False)
    done = cli("mcp")
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "leafexplain: leafexplain mcp needs the Model Context Protocol SDK: pip install 'leafexplain[mcp]'"
    ]
    assert done.stdout == ""


def test_nothing_of_the_sdk_is_imported_unless_the_command_runs(tmp_path: Path) -> None:
    probe = (
        "import sys\n"
        "from leafexplain.cli import main\n"
        "main(['--format', 'json', 'RuntimeError: boom'])\n"
        "import leafexplain.cli.app\n"
        "sys.stderr.write(str(sorted(m for m in sys.modules if m.split('.')[0] in ('mcp', 'pydantic', 'anyio'))))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, env=Isolated(tmp_path).environ, timeout=60
    )
    assert done.stderr.splitlines()[-1] == "[]", done.stderr
