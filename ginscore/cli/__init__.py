"""The command line: the only package that imports typer. ``main`` is the installed script."""

from ginscore.cli.app import main, whole_app  # noqa: F401 (the entry point and what tests build)
