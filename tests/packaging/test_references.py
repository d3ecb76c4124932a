"""Every file and link named in the repository is here."""

from __future__ import annotations

import re
from pathlib import Path

from tests.support import ROOT

COMING: set[str] = set()  # files allowed to be named before they are added (none now)


REWRITTEN: set[str] = set()  # files left out of these checks (none now)


OUTSIDE = re.compile(r"\.\./shared|(?<![\w/.-])(?:STYLE|CLI|RULES)\.md\b")


LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


DOCS_MENTION = re.compile(r"(?<![\w/.-])docs/[\w./-]+?\.(?:md|svg|py|json)\b")


ISSUE = re.compile(r"\bissues? #?[0-9]+", re.IGNORECASE)


def _texts() -> dict[str, str]:
    paths = [ROOT / "README.md", ROOT / "pyproject.toml", *(ROOT / "docs").rglob("*.md"), *(ROOT / "docs").rglob("*.py"),
             *(ROOT / "ginscore").rglob("*.py"), *(ROOT / "tests").rglob("*.py"), *(ROOT / "benchmarks").rglob("*.py"),
             *(ROOT / "completions").rglob("*.py")]
    texts = {}
    for path in paths:
        name = path.relative_to(ROOT).as_posix()
        if name not in REWRITTEN and path.name != "test_references.py":
            texts[name] = path.read_text(encoding="utf-8")
    return texts


def _exists(target: str) -> bool:
    return target in COMING or (ROOT / target).exists()


def test_nothing_names_a_file_outside_the_repository():
    found = [f"{name}:{text.count(chr(10), 0, m.start()) + 1}: {m.group()}"
             for name, text in _texts().items() for m in OUTSIDE.finditer(text)]
    assert not found, "\n".join(found)


def test_every_markdown_link_leads_to_a_file_here():
    broken = []
    for name, text in _texts().items():
        if not name.endswith(".md"):
            continue
        for match in LINK.finditer(text):
            target = match.group(1).split("#")[0]
            if not target or re.match(r"[a-z]+:", target):
                continue  # an anchor on the page, or a web address
            resolved = (Path(name).parent / target).as_posix()
            resolved = str(Path(resolved)).replace("\\", "/")
            while "/../" in f"/{resolved}":
                resolved = re.sub(r"(^|/)[^/]+/\.\./", r"\1", resolved, count=1)
            if resolved.startswith("../") or not _exists(resolved):
                broken.append(f"{name}: {match.group()}")
    assert not broken, "\n".join(broken)


def test_every_docs_file_named_is_here():
    missing = [f"{name}: {m.group()}" for name, text in _texts().items() for m in DOCS_MENTION.finditer(text)
               if not _exists(m.group())]
    assert not missing, "\n".join(missing)


def test_code_comments_name_no_issue_number():
    numbered = [f"{name}:{text.count(chr(10), 0, m.start()) + 1}: {m.group()}"
                for name, text in _texts().items() if name.endswith(".py") for m in ISSUE.finditer(text)]
    assert not numbered, "\n".join(numbered)


def test_the_checks_would_see_what_they_look_for():
    assert OUTSIDE.search("see ../shared/RULES.md") and OUTSIDE.search("(CLI.md)")
    assert not OUTSIDE.search("docs/commands.md") and not OUTSIDE.search("docs/rules.md")
    assert LINK.findall("[the rules](docs/rules.md) and [x](https://example.org)") == [
        "docs/rules.md", "https://example.org"]
    assert DOCS_MENTION.findall("see docs/nothing.md, not mydocs/x.md") == ["docs/nothing.md"]
    assert ISSUE.search("(issue 12)") and ISSUE.search("Issue 9:") and not ISSUE.search("an issue with 2 hands")
