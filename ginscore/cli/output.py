"""JSON for scripts, written with json straight to standard output (never through Rich, which
wraps lines), every character kept readable back in any output encoding."""

import codecs
import json
import sys
from itertools import islice

from ginscore.core.escape import json_safe


def print_json(doc) -> None:
    sys.stdout.write(json_safe(json.dumps(doc, ensure_ascii=False, indent=2), sys.stdout.encoding) + "\n")


def print_json_items(items) -> None:
    """A JSON list of items already JSON (``rows.json_item``), as ``print_json`` prints it, in batches.
    Held whole when the encoding cannot hold every character: ``json_safe`` escapes all or nothing."""
    encoding = sys.stdout.encoding
    try:
        in_batches = codecs.lookup(encoding or "utf-8").name.startswith("utf")
    except LookupError:
        in_batches = False
    held = []
    put = sys.stdout.write if in_batches else held.append
    items, first = iter(items), True
    while batch := list(islice(items, 256)):
        put(("[\n" if first else ",\n") + b",\n".join(batch).decode())
        first = False
    put("[]" if first else "\n]")
    sys.stdout.write(("" if in_batches else json_safe("".join(held), encoding)) + "\n")


def write_exactly(data: bytes, shown: str) -> None:
    """Write ``data``'s bytes exactly for a script; ``shown`` for a person, or where no bytes can go."""
    buffer = getattr(sys.stdout, "buffer", None)
    if sys.stdout.isatty() or buffer is None:
        sys.stdout.write(shown)
        return
    sys.stdout.flush()
    buffer.write(data)
    buffer.flush()
