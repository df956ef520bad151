"""The expected top five, computed from the verifier's own copy of the corpus; stdlib only."""

import re
import sys
from collections import Counter
from pathlib import Path

corpus, answer = Path(sys.argv[1]), Path(sys.argv[2])
counts = Counter(re.findall(r"[a-z]+", corpus.read_text(encoding="utf-8").lower()))
expected = [f"{word} {count}" for word, count in sorted(counts.items(), key=lambda item: (-item[1], item[0]))[:5]]
got = answer.read_text(encoding="utf-8").splitlines()
if got != expected:
    print(f"expected {expected}, got {got[:10]}")
    sys.exit(1)
