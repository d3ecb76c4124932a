"""The command line: the only package that imports typer. ``main`` is the installed script."""

from ginscore.cli.app import main  # noqa: F401 (the entry point)
