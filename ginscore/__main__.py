"""``python -m ginscore``."""
from ginscore.cli.app import main

main()
