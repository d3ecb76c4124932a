"""ginscore: keep score of Gin Rummy at a real table."""

__version__ = "4.0.0"  # the package's version (pyproject.toml reads it from here)
