"""The commands, one module per concern; importing one registers its commands on the app.

Rich loads with the modules of ginscore.present that draw (all but present.terminal). A command imports
them inside its body, where it first draws for people (after its --json branch), so that a script, or a
command refused before it draws, never loads Rich; table.py, play.py and watch.py always draw, and
import them at the top; serve.py, which always prints its addresses, imports present.wrapping there."""
