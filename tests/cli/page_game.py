"""A stand-in for a served page's game: ``python page_game.py NOTES [stubborn]``.

It speaks as much of Textual's web driver as the server hears (the opening line, then
packets: a type byte, a 4-byte size, the payload) and notes in NOTES, a line of JSON
each, what it was given: its terminal size and memory limit as it starts, then every
packet from its page. A key pressed on the page (a data packet) is shown back to it.
A quit packet ends it, unless it is ``stubborn``: then it ignores quit and SIGTERM,
and waits for SIGKILL.
"""

from __future__ import annotations

import json
import os
import resource
import signal
import sys

notes = open(sys.argv[1], "a")  # noqa: SIM115  (open as long as the process)
stubborn = sys.argv[2:] == ["stubborn"]
if stubborn:
    signal.signal(signal.SIGTERM, signal.SIG_IGN)


def note(**what: object) -> None:
    notes.write(json.dumps(what) + "\n")
    notes.flush()


note(
    pid=os.getpid(),
    size=[int(os.environ["COLUMNS"]), int(os.environ["ROWS"])],
    memory=resource.getrlimit(resource.RLIMIT_AS)[0],
)
out, packets = sys.stdout.buffer, sys.stdin.buffer
out.write(b"__GANGLION__\n")
out.flush()
while kind := packets.read(1):
    payload = packets.read(int.from_bytes(packets.read(4), "big"))
    note(kind=kind.decode(), payload=payload.decode())
    if kind == b"D":
        out.write(b"D" + len(payload).to_bytes(4, "big") + payload)
        out.flush()
    elif json.loads(payload)["type"] == "quit" and not stubborn:
        break
while stubborn:
    signal.pause()
