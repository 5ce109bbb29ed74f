"""What leafexplain writes, it writes whole and where it means to: `new --out` and `completion install` never
through a symlink nor over a file without `--force`; concurrent imports never write an id twice; and the one
number option that reaches the output, `--threshold`, is a finite number from 0 to 100."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from leafexplain.records import load_paths
from tests.conftest import Isolated, leafexplain_command, make_record, write_records

SHA = "75b7881397df1f21e5c2bf51cd3aa6b9ae2bb6a4"
NEW = ["new", "--repo", "acme/widgets", "--commit", SHA, "--path", "src/lib.rs", "--line", "9"]
NEW += ["--message", "widget frobnication failed badly"]
TARGET = Path("acme") / "widgets" / "widget-frobnication-failed-badly.json"


def test_new_out_never_writes_over_a_file_or_through_a_symlink(cli, tmp_path: Path) -> None:
    out = tmp_path / "records"
    (out / TARGET).parent.mkdir(parents=True)
    (out / TARGET).write_text('{"record": {"documentation": "half written')  # being edited: not valid JSON yet
    refused = cli(*NEW, "--out", str(out))
    assert refused.returncode == 2 and "exists already (--force replaces it)" in refused.stderr
    assert (out / TARGET).read_text().endswith("half written")
    (out / TARGET).unlink()
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    (out / TARGET).symlink_to(victim)
    assert cli(*NEW, "--out", str(out)).returncode == 2 and victim.read_text() == "precious"
    forced = cli(*NEW, "--out", str(out), "--force")
    assert forced.returncode == 0, forced.stderr
    assert victim.read_text() == "precious" and not (out / TARGET).is_symlink()
    assert json.loads((out / TARGET).read_text())["record"]["repo"] == "acme/widgets"


def test_a_written_record_has_the_mode_the_users_umask_gives_not_a_private_one(cli, tmp_path: Path) -> None:
    out = tmp_path / "records"
    assert cli(*NEW, "--out", str(out)).returncode == 0
    mask = os.umask(0o022)
    os.umask(mask)
    assert (out / TARGET).stat().st_mode & 0o777 == 0o666 & ~mask


def test_new_out_never_follows_a_folder_symlink_out_and_a_file_is_a_usage_error(cli, tmp_path: Path) -> None:
    out, elsewhere = tmp_path / "records", tmp_path / "elsewhere"
    out.mkdir()
    elsewhere.mkdir()
    (out / "acme").symlink_to(elsewhere)
    result = cli(*NEW, "--out", str(out))
    assert result.returncode == 2 and "leads outside" in result.stderr and not any(elsewhere.rglob("*.json"))
    for not_a_folder in ("/etc/passwd", str(tmp_path / "file")):
        Path(tmp_path / "file").write_text("x")
        result = cli(*NEW, "--out", not_a_folder)
        assert result.returncode == 2 and len(result.stderr.splitlines()) == 1, result.stderr
        assert result.stderr.startswith("leafexplain: cannot write into")


def test_completion_install_never_writes_through_a_symlink_nor_over_a_file(tmp_path: Path) -> None:
    user = Isolated(tmp_path, HOME=str(tmp_path / "home"), SHELL="/bin/bash")
    target = Path(user.environ["XDG_DATA_HOME"]) / "bash-completion" / "completions" / "leafexplain"
    target.parent.mkdir(parents=True)
    victim = tmp_path / "bashrc"
    victim.write_text("precious")
    target.symlink_to(victim)
    refused = user("completion", "install")
    assert refused.returncode == 2 and "--force replaces it" in refused.stderr and victim.read_text() == "precious"
    target.unlink()
    target.write_text("# my own completion")
    assert user("completion", "install").returncode == 2 and target.read_text() == "# my own completion"
    target.unlink()
    target.symlink_to(victim)
    forced = user("completion", "install", "--force")
    assert forced.returncode == 0 and victim.read_text() == "precious" and not target.is_symlink()
    assert target.read_text(encoding="utf-8") == user("completion", "show", "bash").stdout
    assert user("completion", "install").returncode == 0, "the same script already there: nothing to do"


def test_a_symlinked_powershell_profile_is_not_written_through(tmp_path: Path) -> None:
    config = str(tmp_path / "config")
    user = Isolated(
        tmp_path, HOME=str(tmp_path / "home"), PATH=str(Path(sys.executable).parent), XDG_CONFIG_HOME=config
    )
    profile = Path(user.environ["XDG_CONFIG_HOME"]) / "powershell" / "Microsoft.PowerShell_profile.ps1"
    profile.parent.mkdir(parents=True)
    dotfiles = tmp_path / "dotfiles.ps1"
    dotfiles.write_text("Set-PSReadLineOption -EditMode Emacs\n")
    profile.symlink_to(dotfiles)
    result = user("completion", "install", "powershell")
    assert result.returncode == 0, result.stderr
    assert dotfiles.read_text() == "Set-PSReadLineOption -EditMode Emacs\n" and profile.is_symlink()
    assert "(not changed: it is not a plain file)" in result.stderr


def test_concurrent_imports_never_write_an_id_twice(tmp_path: Path) -> None:
    records = [make_record(f"{n:016x}", f"widget {n} frobnication failed") for n in range(30)]
    incoming = write_records(tmp_path / "in", "team.jsonl", *records)
    user = Isolated(tmp_path)
    runs = [
        subprocess.Popen(
            [*leafexplain_command(), "import", str(incoming)],
            env=user.environ,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for _ in range(10)
    ]
    for run in runs:
        run.communicate(timeout=120)
        assert run.returncode == 0
    loaded = load_paths([str(user.records)])
    assert len(loaded.records) == 30 and loaded.problems == ()
    assert len(list(user.records.rglob("*.json"))) == 30


@pytest.mark.parametrize("value", ["nan", "NaN", "-nan", "inf", "-inf", "1e999", "101", "-1"])
def test_threshold_is_a_finite_number_from_0_to_100(cli, value: str) -> None:
    grad = "RuntimeError: element 0 of tensors does not require grad and does not have a grad_fn"
    for args in (("--threshold", value, "--format", "json", grad), ("run", "--threshold", value, "--", "true")):
        result = cli(*args)
        assert result.returncode == 2 and result.stdout == "" and "--threshold" in result.stderr, (args, result)
    from leafexplain import api

    with pytest.raises(ValueError):
        api.explain(grad, threshold=float(value))
