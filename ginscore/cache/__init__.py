"""Rows derived from the database's facts, kept in the user's cache folder: never needed, always rebuildable."""
