"""ginscore: keep score of Gin Rummy at a real table."""

__version__ = "1.0.0"
