"""The game itself: cards, scoring, replay, melds, stakes, statistics, ratings.

Pure: imports no typer, rich or tinydb, reads no file and prints nothing.
"""
