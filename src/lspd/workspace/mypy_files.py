"""The files mypy reads its configuration from, in the order it looks for them (its
`config_parser.py`): read by lspd's reading of the configuration (`mypy_config`) and by
what must name the same file (a pre-commit hook's `--config-file`: `mypy_precommit`)."""

MYPY_INI = ("mypy.ini", ".mypy.ini")
PYPROJECT = "pyproject.toml"
SETUP_CFG = "setup.cfg"
CONFIG_FILES = (*MYPY_INI, PYPROJECT, SETUP_CFG)
