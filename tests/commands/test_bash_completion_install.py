"""The guide's bash install line works in a plain interactive bash, with no bash-completion package."""

from __future__ import annotations

import os
import subprocess

from tests.support import BIN, ROOT


def _guide_install_line() -> str:
    """The line under `# bash` in the guide's "One line installs it" block."""
    guide = (ROOT / "docs" / "guide.md").read_text()
    block = guide[guide.index("One line installs it"):].split("```sh\n", 1)[1].split("```", 1)[0]
    lines = block.splitlines()
    return next(lines[i + 1] for i, line in enumerate(lines) if line.startswith("# bash"))


def test_the_guides_install_line_gives_tab_completion_in_plain_bash(ok, tmp_path):
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann")
    home = tmp_path / "home"
    home.mkdir()
    env = {**os.environ, "HOME": str(home), "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}"}
    subprocess.run(["bash", "--norc", "--noprofile", "-c", _guide_install_line()], cwd=ROOT, env=env, check=True)
    probe = (
        "complete -p ginscore; "
        "COMP_WORDS=(ginscore un); COMP_CWORD=1; _ginscore; echo \"commands: ${COMPREPLY[*]}\"; "
        "COMP_WORDS=(ginscore hand ''); COMP_CWORD=2; _ginscore; echo \"players: ${COMPREPLY[*]}\""
    )
    # A new terminal: an interactive bash that reads only ~/.bashrc (no system rc, so no bash-completion).
    ran = subprocess.run(["bash", "--rcfile", str(home / ".bashrc"), "-i", "-c", probe],
                         cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
    assert ran.stdout.splitlines() == ["complete -o bashdefault -F _ginscore ginscore",
                                       "commands: undo", "players: Ann Ben"], ran.stderr
