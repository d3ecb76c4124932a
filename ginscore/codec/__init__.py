"""Session facts to and from the plain dicts that are stored and exported, every field checked."""
