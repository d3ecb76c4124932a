"""The command line: the only package that imports typer. ``main`` is the installed script."""

from ginscore.cli import starting

starting.reading_in()
try:
    from ginscore.cli.app import main  # noqa: F401 (the entry point)
except (KeyboardInterrupt, RuntimeError) as error:  # a Ctrl-C while Python is still importing the app
    from ginscore.core.errors import interrupted

    if not interrupted(error):
        raise
    starting.stopped_while_starting()
starting.read_in()
