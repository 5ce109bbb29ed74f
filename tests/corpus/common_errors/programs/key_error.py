"""Load training settings from a small INI-like file and start a run."""

DEFAULTS = """
# experiment settings
epochs = 20
learning-rate = 3e-4
warmup_steps = 500
"""


def parse_settings(text: str) -> dict[str, str]:
    settings = {}
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        key, value = line.split("=", 1)
        settings[key.strip()] = value.strip()
    return settings


def main() -> None:
    settings = parse_settings(DEFAULTS)
    epochs = int(settings["epochs"])
    lr = float(settings["learning_rate"])
    print(f"training for {epochs} epochs at lr={lr}")


if __name__ == "__main__":
    main()
