"""The web pages of `ginscore serve`: a live scoreboard for the phones at the table, read-only.

Only `serve` imports this package (and with it Starlette, uvicorn and segno): every other command
starts as it did without it. The documents the pages show are made by the command line and
handed in; this package serves them, watches the file and guards the door.
"""
