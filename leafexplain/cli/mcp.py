"""`leafexplain mcp`: the MCP server run on stdio, or one line saying how to install its extra; the exit code."""

from __future__ import annotations

from collections.abc import Sequence

from leafexplain.env import Environment
from leafexplain.exitcodes import ExitStatus
from leafexplain.render import warn

INSTALL = "leafexplain mcp needs the Model Context Protocol SDK: pip install 'leafexplain[mcp]'"


def run_mcp(env: Environment, records: Sequence[str], *, bundled: bool) -> int:
    """Serve until the client closes stdin (0); 2 when the SDK is not installed."""
    try:
        from leafexplain.integrations.mcp_server import serve
    except ImportError as exc:
        if (exc.name or "").split(".")[0] != "mcp":
            raise  # ours: a bug, not a missing extra
        warn(env, INSTALL)
        return ExitStatus.USAGE_ERROR
    serve(records, bundled=bundled)
    return ExitStatus.EXPLAINED
