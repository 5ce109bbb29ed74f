"""An error raised `from` another: two exceptions, the first the direct cause."""

SETTINGS = {"lr": "0.1"}


def setting(name: str) -> str:
    try:
        return SETTINGS[name]
    except KeyError as exc:
        raise ValueError(f"missing setting {name!r}") from exc


setting("batch_size")
