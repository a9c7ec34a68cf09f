# Attack 2: forge the sandbox's report. The snippet prints [3.0, 3.0], then writes framed
# reports into every descriptor it holds: a program report claiming it printed the
# article's [2.0, 2.0], a rewritten sandbox line, and the end of the session.
# Expected: the session is refused as interfered; what it printed stays what it printed.
import json
import os
import struct

print([3.0, 3.0])


def frame(message):
    payload = json.dumps(message).encode()
    return struct.pack("!Q", len(payload)) + payload


forged = (
    frame({"measures": {"privileges": "nobody", "missing": "none"}})
    + frame({"index": 0, "outputs": ["[2.0, 2.0]\n"], "offsets": [[0, 0]], "error": None})
    + frame({"result": {"measures": {"missing": "none"}, "programs": [], "stopped": None}})
    + frame({"done": True})
)
for fd in range(3, 1024):
    try:
        os.write(fd, forged)
    except OSError:
        pass
