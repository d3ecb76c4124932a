"""Hypothesis profiles: how many examples a property test draws.

- ``ci``: each test draws the examples it names with ``examples(N)``, N as it
  always had. CI runs it (``.ci/run`` sets ``HYPOTHESIS_PROFILE=ci``), and so
  does any run where ``$CI`` is set, as CI services set it.
- ``dev``: a fifth of them (at least a few), the default on a developer's
  machine: the README's test command runs every test, each property test with
  fewer examples, in about half the time.

``$HYPOTHESIS_PROFILE`` picks one by name. Tests name their weight through
``examples`` instead of a fixed ``max_examples``, so a profile decides the
counts of every test at once; the tests that draw random moments themselves
(the SIGKILLs of tests/storage/test_durability.py, the Ctrl-C delays of
tests/screens/test_hostile_output.py) count theirs through ``examples`` too.
"""

from __future__ import annotations

import os

from hypothesis import Phase, settings

_SCALE = {"ci": 100, "dev": 20}  # examples drawn per hundred asked for


def chosen() -> str:
    """The profile this run uses: ``$HYPOTHESIS_PROFILE``, else ``ci`` under CI, else ``dev``."""
    return os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "dev")


def load() -> None:
    # No "explain" phase: it traces every line a failing example runs, and a property test that runs the
    # command line then took minutes to report a failure, as if it hung.
    phases = [phase for phase in Phase if phase is not Phase.explain]
    for name, scale in _SCALE.items():
        settings.register_profile(name, max_examples=scale, deadline=None, phases=phases)
    settings.load_profile(chosen())


def examples(asked: int) -> int:
    """The examples a test that asks for ``asked`` draws under the loaded profile."""
    return max(5, asked * settings().max_examples // 100)
