"""``python -m ginscore``."""
from ginscore.cli import main

main()
