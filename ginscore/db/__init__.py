"""The database file: the only package that imports tinydb."""
