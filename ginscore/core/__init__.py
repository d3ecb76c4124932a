"""The game itself: cards, names, scoring, replay, melds, stakes, statistics, ratings. Pure: it
imports no typer, rich or tinydb, reads no file and prints nothing."""
