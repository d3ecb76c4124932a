"""The web pages of `ginscore serve`: a read-only live scoreboard for the phones at the table.

Only `serve` imports this package, and with it Starlette, uvicorn and segno: no other command pays for them.
"""
