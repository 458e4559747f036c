"""A minimal rummykit agent: answers each turn with a random legal move.

Run it as a player: rummykit agent --seat 0 -- python3 examples/agents/random_agent.py
It needs only the standard library; the protocol is in docs/agents.md.
"""

import json
import random
import sys

rng = random.Random(0)
legal: list[str] = []
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        print(json.dumps({"ready": True}), flush=True)  # then the first turn comes
        continue
    if message["type"] == "turn":
        legal = message["legal"]
    elif message["type"] != "error" or message["retries_left"] < 0:
        continue  # fallback, hand_over, end: nothing to answer
    print(json.dumps({"move": rng.choice(legal)}), flush=True)
