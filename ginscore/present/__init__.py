"""What people read, through Rich, every outside string made visible first (docs/architecture.md)."""
