"""Small things seen on the way: counts in the right number, no "Melds no
melds", the rules footer naming the right session, stats naming nobody who never played."""

from __future__ import annotations


def test_one_hand_is_one_hand_not_one_hands(ok, cli, refused, tmp_path):
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--name", "solo")
    ok("hand", "ann", "4", "22")
    backup = tmp_path / "solo.json"
    wrote = cli("export", "--format", "json", "--output", str(backup))
    assert wrote.exit_code == 0 and "Wrote 1 hand of 'solo'" in wrote.stderr
    assert "Imported 1 hand from" in ok("import", str(backup), "--as-copy").stdout
    assert "session 'solo', with its 1 hand;" in " ".join(ok("import", str(backup)).stdout.split())
    assert "1 hand," in ok("delete", "--yes").stdout  # the imported copy
    ok("use", "solo")
    refused("hand", "ann", "--cards", "AS", "--against", "2S 3S 4S 5S 6S 7S 8S 9S TS JS",
            says="the knocker has 1 card; a hand here is 10 cards")
    ok("hand", "ben", "2", "20")
    assert "Wrote 2 hands of" in cli("export", "--output", str(tmp_path / "two.csv")).stderr


def test_deadwood_without_melds_says_no_melds_once(ok):
    ten = ok("deadwood", "AS", "3D", "5H", "7C", "9S", "JD", "KH", "2C", "4H", "6S").stdout
    assert ten.startswith("No melds, unmatched A♠") and "Melds no melds" not in ten
    eleven = ok("deadwood", "AS", "3D", "5H", "7C", "9S", "JD", "KH", "2C", "4H", "6S", "8D").stdout
    assert "The rest has no melds, unmatched" in eleven and "Keep no melds" not in eleven
    melded = ok("deadwood", "AS", "2S", "3S", "7C", "9S", "JD", "KH", "2C", "4H", "6S").stdout
    assert melded.startswith("Melds [A♠ 2♠ 3♠], unmatched")


def test_rules_of_another_variant_do_not_claim_the_sessions_house_rules(ok):
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--gin-bonus", "20", "--name", "friday")
    other = ok("rules", "hollywood").stdout
    assert "House rules of 'friday'" not in other
    assert "The current session 'friday' plays standard, not hollywood; its own house rules: target 100; gin bonus 20" \
        in " ".join(other.split())
    for same in (ok("rules").stdout, ok("rules", "standard").stdout):
        assert "House rules of 'friday' (standard): target 100; gin bonus 20" in same


def test_stats_for_a_name_nobody_played_under_speaks_of_every_session(ok, refused):
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann")
    ok("hand", "ann", "4", "22")
    ok("new", "standard", "Cy", "Dee", "--dealer", "Cy")
    ok("draw")  # (a session with no hand is no session played)
    message = refused("stats", "zed", says="nobody named 'zed' has played; the players are")
    assert "in this session" not in message and all(n in message for n in ("Ann", "Ben", "Cy", "Dee"))
    refused("stats", "cy", "--variant", "oklahoma", says="sessions that match")
    refused("stats", "zed", "--player", "ann", says="nobody named 'zed' has played in the sessions chosen")
    assert list(ok("stats", "a", "--json").json()["players"]) == ["Ann"]


def test_an_indented_item_that_wraps_goes_on_further_in(ok, monkeypatch):
    """At 40 columns the items of "Match so far:" wrap; their next lines go on two further in,
    so that they do not read as the next item."""
    ok("new", "standard", "Annabelle", "Benedict", "--target", "30", "--stake", "0.05", "--dealer", "anna")
    ok("hand", "anna", "2", "40")
    ok("rematch")
    ok("hand", "bene", "0", "40")
    monkeypatch.setenv("COLUMNS", "40")
    lines = ok("status").stdout.splitlines()
    block = lines[next(n for n, line in enumerate(lines) if line.startswith("  Annabelle:")):]
    assert block[1] == "    finished games" and block[2].startswith("  Benedict: ")
    assert all(line.startswith(("  Annabelle: ", "  Benedict: ", "  Settled so far: ", "    ")) for line in block), block


def test_a_name_that_cannot_be_typed_is_advised_as_one_word_the_shell_reads_back():
    """A session name edited in by hand with an escape or bidi character: advice names it as one
    $'...' word, which bash reads back as the name (a visible "\\x1b" typed would name no session)."""
    import shutil
    import subprocess

    from ginscore.core.standings import as_typed

    name = "\x1b[31mEVIL\u202e night"
    word = as_typed(name)
    assert word.startswith("$'") and word.isprintable() and word.isascii()
    if shutil.which("bash"):
        said = subprocess.run(["bash", "-c", f"printf %s {word}"], capture_output=True, check=True).stdout
        assert said.decode("utf-8") == name
    assert as_typed("fri night") == '"fri night"' and as_typed("ann") == "ann"
