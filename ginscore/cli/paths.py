"""The files a command line names: the database (--db, $GINSCORE_DB, else the app folder) and
any other file path typed, never taken relative to the current folder by accident; and where the
cache keeps a database's index (``index_cache``)."""

import os
from pathlib import Path

import typer

from ginscore.core.errors import Refused

# What typer.get_app_dir reads. An empty (or relative) value would put the database
# relative to the current folder: such a value is treated as unset (docs/commands.md).
HOME_VARIABLES = ("XDG_CONFIG_HOME", "HOME", "APPDATA", "LOCALAPPDATA", "USERPROFILE")


def named_file(typed: str, what: str, example: str | None = None) -> Path:
    """The file a command line names (``what``: what it must be, said when the name is empty)."""
    if not typed.strip():
        raise Refused(f"give {what}: an empty name names no file")
    return file_path(typed, f"'{typed}'", example)


def file_path(typed: str, named: str, example: str | None = "ginscore.json") -> Path:
    """The file ``typed`` names (``named``: where it came from; ``example``: a file name to suggest).
    ``~`` is the home folder (`--db=~/g.json` arrives unexpanded); a trailing slash, which paths drop, is refused."""
    from ginscore.db.home import NoHome, home_expanded

    if typed.endswith(("/", os.sep)):
        like = f", like {typed.rstrip('/' + os.sep)}/{example}" if example else ""
        raise Refused(f"{named} ends in /, so it names a folder; name a file in it{like}")
    try:
        path = Path(home_expanded(typed))
    except NoHome as error:
        raise Refused(f"{named} {error}") from None
    if not path.is_absolute() and path.parts and path.parts[0].startswith("~"):
        # `./~/g.json`, a folder named ~ here: Python drops the ./, so the full path keeps it from meaning home
        path = Path.cwd() / path
    return path


def default_db_path() -> Path:
    """$GINSCORE_DB, else ginscore.json in the per-user app folder; never relative (docs/commands.md)."""
    from_env = os.environ.get("GINSCORE_DB", "")
    if from_env.strip():
        return file_path(from_env, f"GINSCORE_DB '{from_env}'")
    if from_env:  # as --db " " is: spaces name no file (an empty value is unset)
        raise Refused("GINSCORE_DB is only spaces, which name no file; unset it or give a file's path")
    unset = {name: os.environ.pop(name) for name in HOME_VARIABLES if not os.path.isabs(os.environ.get(name, "/"))}
    try:
        folder = typer.get_app_dir("ginscore")
    finally:
        os.environ.update(unset)
    if not os.path.isabs(folder):
        raise Refused("cannot tell where your home folder is (HOME is empty or unset); pass --db PATH or set GINSCORE_DB")
    return Path(folder) / "ginscore.json"


def index_cache(real: str):
    """Where the cache keeps a large database file's index, so a command parses only what it reads."""
    from ginscore.cache.files import Cache  # loaded only for a file large enough to be indexed

    return Cache(real, "places")
