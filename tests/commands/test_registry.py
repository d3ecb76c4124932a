"""The registry of commands (ginscore/cli/registry.py) says what the built commands do: which
take --session, which are hidden, and that each has words for a --session it does not take."""

import re

import pytest

from ginscore.cli import app as cli
from ginscore.cli import registry
from ginscore.cli.typer_app import App

BUILT = cli.every_command().commands


@pytest.mark.parametrize("listed", registry.COMMANDS, ids=lambda c: c.name)
def test_the_registry_says_what_each_command_takes(listed):
    built = BUILT[listed.name]
    assert listed.takes_session == any(param.name == "session" for param in built.params)
    assert listed.hidden == built.hidden
    assert bool(listed.instead_of_session) == (not listed.takes_session and not listed.hidden)


def test_help_lists_every_command_of_the_registry_in_its_order(ok):
    """What `ginscore --help` shows, read from the screen: each visible command once, in the registry's order."""
    shown = ok("--help").stdout.split("Commands:\n", 1)[1]
    assert re.findall(r"^  (\S+) +\S", shown, re.M) == [c.name for c in registry.COMMANDS if not c.hidden]


def test_a_command_the_registry_does_not_know_cannot_be_registered():
    with pytest.raises(KeyError):
        App().command()(lambda: None)


HOUSE_RULES = ["--target", "--gin-bonus", "--undercut-bonus", "--big-gin-bonus", "--game-bonus", "--box-bonus",
               "--shutout", "--spades-double", "--ace-means-gin", "--deal", "--stake"]


@pytest.mark.parametrize("command", ["new", "import", "house"])
def test_new_import_and_house_take_the_same_house_rule_options(command):
    options = [param for param in BUILT[command].params if param.opts[0] in HOUSE_RULES]
    assert [param.opts[0] for param in options] == HOUSE_RULES
    first = {param.opts[0]: param for param in BUILT["new"].params}
    assert [(p.help, p.secondary_opts, p.metavar) for p in options] == \
        [(first[p.opts[0]].help, first[p.opts[0]].secondary_opts, first[p.opts[0]].metavar) for p in options]
    assert ("--no-big-gin" in [param.opts[0] for param in BUILT[command].params]) == (command == "house")


def test_house_rules_given_reach_the_session(ok):
    ok("new", "standard", "Ann", "Ben", "--dealer", "ann", "--target", "50", "--deal", "loser", "--no-shutout")
    rules = ok("status", "--json").json()["rules"]
    assert rules["target"] == 50 and rules["deal"] == "loser" and rules["shutout"] is False
    ok("house", "--big-gin-bonus", "31")
    ok("house", "--no-big-gin")
    assert ok("status", "--json").json()["rules"]["big_gin_bonus"] is None
