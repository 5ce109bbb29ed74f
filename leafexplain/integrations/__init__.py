"""Ways in from other programs, a few lines each over the session and the renderer: the excepthook, the
pytest plugin, the IPython extension, the MCP server (`leafexplain mcp`) and shell completion.
`import leafexplain.hook` installs the hook; the plugin is loaded by its `pytest11` entry point, which
names `leafexplain.integrations.pytest_plugin` itself; IPython's `%load_ext leafexplain` calls the
package's `load_ipython_extension`, which imports `ipython` here; `cli/mcp.py` imports `mcp_server`."""
