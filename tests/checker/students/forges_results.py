"""Cheat: writes its own "every answer agrees" lines on every descriptor, then leaves."""
import json
import os

HANDS = 400
lines = [json.dumps({"event": "imported", "printed": ""})]
for function in ("highCardPoints", "distributionPoints", "openingBid"):
    for case in range(HANDS):
        lines.append(json.dumps({"event": "call", "function": function, "case": case,
                                 "value": {"kind": "int", "int": 10}, "error": None,
                                 "printed": "", "agreed": True}))
lines.append(json.dumps({"event": "done"}))
for descriptor in range(1, 64):
    try:
        os.write(descriptor, ("\n".join(lines) + "\n").encode())
    except OSError:
        pass
os._exit(0)
