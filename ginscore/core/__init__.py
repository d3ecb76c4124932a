"""The game itself: cards, names, scoring, replay, melds, stakes, statistics, ratings.

Pure: imports no typer, rich or tinydb, reads no file and prints nothing.
"""
