"""What people read, every outside string made visible first: through Rich, but for present.terminal, which
the JSON paths use without loading it (docs/architecture.md)."""
