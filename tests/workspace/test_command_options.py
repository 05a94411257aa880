"""A command's option taking a value, read as argparse reads it (`command_options`): one
reader for mypy's `--exclude` and `--config-file`, wherever a script or hook writes them."""

from __future__ import annotations

from lspd.workspace.command_options import option_values, spelled


def test_each_way_of_giving_a_value_is_read_in_order() -> None:
    words = ["--exclude", "^a/", "src", "--exclude=b$", "--strict", "--exclude"]
    assert option_values(words, "--exclude") == (["^a/", "b$"], ["src", "--strict"])


def test_another_option_sharing_the_names_start_is_not_it() -> None:
    words = ["--config-files", "x", "--config-file-x=y", "--config-file=", "tests"]
    found = option_values(words, "--config-file")
    assert found == ([""], ["--config-files", "x", "--config-file-x=y", "tests"])


def test_an_abbreviation_argparse_takes_is_spelled_out() -> None:
    """jsonschema's noxfile runs `mypy --config pyproject.toml`: its configuration, not a path."""
    words = ["--config", "a.toml", "--config=b.ini", "--configs", "src"]
    assert spelled(words) == ["--config-file", "a.toml", "--config-file=b.ini", "--configs", "src"]
