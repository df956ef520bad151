#!/usr/bin/env bash
# Thirty commits of a small statistics module; one of them (in the middle, with a harmless-looking
# message) breaks variance(), and a later commit rewrites the broken line so `git blame` points
# elsewhere. The test suite shows the failure at HEAD.
set -euo pipefail
rm -f .gitkeep
git init -q -b main
python3 - <<'PY'
import os
import subprocess

funcs: dict[str, str] = {}   # calc.py, one function per entry, in order
tests: dict[str, str] = {}   # test_calc.py, one test method per entry
readme = ["# calc", "", "Small statistics helpers, standard library only.", ""]
count = 0

HEADER = '"""Small statistics helpers for reports."""\n\nimport math\n'
TEST_HEADER = "import math\nimport unittest\n\nimport calc\n\n\nclass CalcTest(unittest.TestCase):\n"


def write() -> None:
    with open("calc.py", "w") as f:
        f.write(HEADER + "".join("\n\n" + body.strip("\n") + "\n" for body in funcs.values()))
    with open("test_calc.py", "w") as f:
        f.write(TEST_HEADER + "\n".join(tests.values()))
        f.write('\n\nif __name__ == "__main__":\n    unittest.main()\n')
    with open("README.md", "w") as f:
        f.write("\n".join(readme) + "\n")


def commit(message: str) -> None:
    global count
    count += 1
    write()
    date = f"2025-01-{count:02d}T09:{count:02d}:00+00:00"
    env = dict(os.environ, GIT_AUTHOR_DATE=date, GIT_COMMITTER_DATE=date)
    subprocess.run(["git", "add", "-A"], check=True, env=env)
    subprocess.run(["git", "-c", "user.name=Sam Stats", "-c", "user.email=sam@example.com",
                    "commit", "-q", "-m", message], check=True, env=env)


def test(name: str, body: str) -> None:
    tests[name] = f"    def test_{name}(self):\n" + "".join(f"        {line}\n" for line in body.strip().splitlines())


funcs["mean"] = '''
def mean(values):
    return sum(values) / len(values)
'''
test("mean", "self.assertEqual(calc.mean([1, 2, 3, 4]), 2.5)")
commit("Start calc with mean()")

funcs["median"] = '''
def median(values):
    s = sorted(values)
    mid = len(s) // 2
    if len(s) % 2:
        return s[mid]
    return (s[mid - 1] + s[mid]) / 2
'''
test("median", "self.assertEqual(calc.median([5, 1, 3]), 3)\nself.assertEqual(calc.median([4, 1, 3, 2]), 2.5)")
commit("Add median()")

funcs["variance"] = '''
def variance(values):
    m = mean(values)
    return sum((v - m) ** 2 for v in values) / (len(values) - 1)
'''
test("variance", "self.assertAlmostEqual(calc.variance([2, 4, 4, 4, 5, 5, 7, 9]), 32 / 7)")
commit("Add sample variance()")

readme += ["## Functions", "", "- `mean`, `median`, `variance` (sample)"]
commit("Document the functions")

funcs["clamp"] = '''
def clamp(x, lo, hi):
    return max(lo, min(hi, x))
'''
test("clamp", "self.assertEqual(calc.clamp(5, 0, 3), 3)\nself.assertEqual(calc.clamp(-1, 0, 3), 0)")
commit("Add clamp()")

funcs["mean"] = '''
def mean(values):
    if not values:
        raise ValueError("mean() of an empty sequence")
    return sum(values) / len(values)
'''
test("mean_empty", "with self.assertRaises(ValueError):\n    calc.mean([])")
commit("mean(): clear error on empty input")

funcs["percentile"] = '''
def percentile(values, p):
    s = sorted(values)
    k = (len(s) - 1) * p / 100
    lo = math.floor(k)
    hi = math.ceil(k)
    return s[lo] + (s[hi] - s[lo]) * (k - lo)
'''
test("percentile", "self.assertEqual(calc.percentile([1, 2, 3, 4, 5], 50), 3)\nself.assertAlmostEqual(calc.percentile([10, 20, 30, 40], 90), 37)")
commit("Add percentile() with linear interpolation")

readme[-1] = "- `mean`, `median`, `variance` (sample), `percentile`, `clamp`"
commit("README: list percentile and clamp")

funcs["total"] = '''
def total(values):
    return math.fsum(values)
'''
test("total", "self.assertEqual(calc.total([0.1] * 10), 1.0)")
commit("Add total() using fsum")

funcs["median"] = '''
def median(values):
    """The middle value; the mean of the two middle values for an even count."""
    s = sorted(values)
    mid = len(s) // 2
    if len(s) % 2:
        return s[mid]
    return (s[mid - 1] + s[mid]) / 2
'''
commit("Docstring for median()")

funcs["normalize"] = '''
def normalize(values):
    lo, hi = min(values), max(values)
    if hi == lo:
        return [0.0 for _ in values]
    return [(v - lo) / (hi - lo) for v in values]
'''
test("normalize", "self.assertEqual(calc.normalize([2, 4, 6]), [0.0, 0.5, 1.0])\nself.assertEqual(calc.normalize([3, 3]), [0.0, 0.0])")
commit("Add normalize()")

funcs["moving_average"] = '''
def moving_average(values, window):
    return [mean(values[i:i + window]) for i in range(len(values) - window + 1)]
'''
test("moving_average", "self.assertEqual(calc.moving_average([1, 2, 3, 4], 2), [1.5, 2.5, 3.5])")
commit("Add moving_average()")

funcs["clamp"] = '''
def clamp(x, lo, hi):
    """x limited to the closed range [lo, hi]."""
    if lo > hi:
        raise ValueError("lo must not exceed hi")
    return max(lo, min(hi, x))
'''
test("clamp_bad_range", "with self.assertRaises(ValueError):\n    calc.clamp(1, 3, 0)")
commit("clamp(): reject an empty range")

readme += ["", "## Development", "", "    python3 -m unittest -q"]
commit("README: how to run the tests")

funcs["round_half_up"] = '''
def round_half_up(x, ndigits=0):
    factor = 10 ** ndigits
    return math.floor(x * factor + 0.5) / factor
'''
test("round_half_up", "self.assertEqual(calc.round_half_up(2.5), 3)\nself.assertEqual(calc.round_half_up(1.25, 1), 1.3)")
commit("Add round_half_up() for invoices")

funcs["percentile"] = '''
def percentile(values, p):
    """The p-th percentile (0-100), interpolating linearly between ranks."""
    if not 0 <= p <= 100:
        raise ValueError("p must be within 0..100")
    s = sorted(values)
    k = (len(s) - 1) * p / 100
    lo = math.floor(k)
    hi = math.ceil(k)
    return s[lo] + (s[hi] - s[lo]) * (k - lo)
'''
test("percentile_range", "with self.assertRaises(ValueError):\n    calc.percentile([1, 2], 101)")
commit("percentile(): validate p")

# The regression: the new helper divides by n instead of n - 1.
funcs["variance"] = '''
def _squared_deviations(values):
    m = mean(values)
    return [(v - m) ** 2 for v in values]


def variance(values):
    return sum(_squared_deviations(values)) / len(values)
'''
funcs["stdev"] = '''
def stdev(values):
    return math.sqrt(variance(values))
'''
test("stdev", "self.assertAlmostEqual(calc.stdev([2, 4, 4, 4, 5, 5, 7, 9]), math.sqrt(32 / 7))")
commit("Add stdev() and share the deviation helper")

funcs["zscore"] = '''
def zscore(values):
    m, s = mean(values), stdev(values)
    return [(v - m) / s for v in values]
'''
commit("Add zscore()")

readme[6] = "- `mean`, `median`, `variance` (sample), `stdev`, `zscore`, `percentile`, `clamp`"
commit("README: stdev and zscore")

funcs["total"] = '''
def total(values):
    """The exact float sum (math.fsum), free of accumulated rounding error."""
    return math.fsum(values)
'''
commit("Docstring for total()")

funcs["mode"] = '''
def mode(values):
    counts = {}
    for v in values:
        counts[v] = counts.get(v, 0) + 1
    return max(counts, key=lambda v: (counts[v], -values.index(v)))
'''
test("mode", "self.assertEqual(calc.mode([1, 2, 2, 3, 3]), 2)")
commit("Add mode(): the first most common value")

# Rewrites the broken line, so `git blame` points here rather than at the regression.
funcs["variance"] = '''
def _squared_deviations(values):
    m = mean(values)
    return [(v - m) ** 2 for v in values]


def variance(values):
    """Sample variance of values."""
    n = len(values)
    return sum(_squared_deviations(values)) / n
'''
commit("Name the sample size in variance()")

funcs["moving_average"] = '''
def moving_average(values, window):
    """Means of each run of `window` consecutive values."""
    if window < 1:
        raise ValueError("window must be positive")
    return [mean(values[i:i + window]) for i in range(len(values) - window + 1)]
'''
test("moving_average_window", "with self.assertRaises(ValueError):\n    calc.moving_average([1], 0)")
commit("moving_average(): validate window")

funcs["weighted_mean"] = '''
def weighted_mean(values, weights):
    return math.fsum(v * w for v, w in zip(values, weights, strict=True)) / math.fsum(weights)
'''
test("weighted_mean", "self.assertEqual(calc.weighted_mean([1, 3], [3, 1]), 1.5)")
commit("Add weighted_mean()")

readme[6] += ", `mode`, `weighted_mean`"
commit("README: mode and weighted_mean")

funcs["normalize"] = '''
def normalize(values):
    """Values rescaled to 0..1 (all 0.0 when they are all equal)."""
    lo, hi = min(values), max(values)
    if hi == lo:
        return [0.0 for _ in values]
    return [(v - lo) / (hi - lo) for v in values]
'''
commit("Docstring for normalize()")

funcs["iqr"] = '''
def iqr(values):
    """Interquartile range: the spread of the middle half."""
    return percentile(values, 75) - percentile(values, 25)
'''
test("iqr", "self.assertEqual(calc.iqr([1, 2, 3, 4, 5]), 2)")
commit("Add iqr()")

funcs["round_half_up"] = '''
def round_half_up(x, ndigits=0):
    """Round halves away from zero for positive x (2.5 -> 3), unlike round()."""
    factor = 10 ** ndigits
    return math.floor(x * factor + 0.5) / factor
'''
commit("Docstring for round_half_up()")

funcs["span"] = '''
def span(values):
    """max - min."""
    return max(values) - min(values)
'''
test("span", "self.assertEqual(calc.span([3, 9, 4]), 6)")
commit("Add span()")

readme[6] += ", `iqr`, `span`"
commit("README: iqr and span")
PY
