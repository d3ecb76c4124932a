"""What people read, through Rich, every outside string made visible first.

terminal (the streams, no Rich) -> console (the console, say) -> wrapping, tables (fast_table
beside Rich's) -> screens (one session), log, chart, lists, stats (and ratings), rulebook ->
scoreboard (watch), pictures (export as html or svg).
"""
