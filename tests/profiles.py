"""Hypothesis profiles: how many examples a property test draws (selected by $HYPOTHESIS_PROFILE).

- ``ci`` (the default, what `python -m pytest` and CI run): each test draws the
  examples it names with ``examples(N)``, N as it always had;
- ``dev``: a tenth of them (at least a few), for a quick run while working.

Tests name their weight through ``examples`` instead of a fixed ``max_examples``,
so a profile decides the counts of every test at once.
"""

from __future__ import annotations

import os

from hypothesis import settings

_SCALE = {"ci": 100, "dev": 10}  # examples drawn per hundred asked for


def load() -> None:
    for name, scale in _SCALE.items():
        settings.register_profile(name, max_examples=scale, deadline=None)
    settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def examples(asked: int) -> int:
    """The examples a test that asks for ``asked`` draws under the loaded profile."""
    return max(5, asked * settings().max_examples // 100)
