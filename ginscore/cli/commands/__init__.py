"""The commands, one module per concern; importing one registers its commands on the app."""
