"""Ways in from other programs, a few lines each over the session and the renderer: the excepthook, the
pytest plugin and the api. Their public import paths (`leafexplain.hook`, `leafexplain.api`,
`leafexplain.pytest_plugin`) are small doors at the top of the package."""
