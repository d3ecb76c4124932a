"""Rows derived from the database's facts, kept in the user's cache folder: never needed, always rebuildable.

This module itself is cheap to import: the command line's exit point uses it for every command."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TypeVar

Made = TypeVar("Made")


class _ThisRun(threading.local):
    """Whether this run (of a command, or of a page made by `serve`) took parts from a cache file, and
    whether it may."""
    took_parts = False
    set_aside = False


this_run = _ThisRun()


def run_with_the_cache(run: Callable[[], Made], may_run_again: Callable[[], bool] = lambda: True) -> Made:
    """``run()``; once more without any cache file when parts kept there broke it. Only a cache file
    forged by hand can (its seal catches damage, not a forger), and the cache is never needed."""
    try:
        return run()
    except (AttributeError, IndexError, KeyError, TypeError, ValueError):  # how a part of another shape breaks
        if not this_run.took_parts or not may_run_again():
            raise
        this_run.set_aside = True  # what the run makes again is kept in place of the forged parts
        return run()
    finally:
        this_run.took_parts = this_run.set_aside = False
