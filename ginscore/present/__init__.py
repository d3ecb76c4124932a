"""What people read: Rich tables and plain sentences, every outside string made visible first."""
