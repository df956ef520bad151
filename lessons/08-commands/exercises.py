"""Lesson 08's exercise: the command a chain of wrappers runs (`sudo timeout 5 /bin/rm x` runs `rm x`).

`check_inner_command(candidate)` runs the learner's function on a corpus of wrapped commands and
shows ✓ or ✗ with the first case it gets wrong (`course.check`). The reference solution is in
`solutions.py`.
"""

from collections.abc import Callable

from course import Verdict, check

# (words, the command they run)
CASES = [
    (("rm", "-rf", "build"), ("rm", "-rf", "build")),
    (("/bin/rm", "-rf", "build"), ("rm", "-rf", "build")),
    (("sudo", "rm", "x"), ("rm", "x")),
    (("nohup", "npm", "test"), ("npm", "test")),
    (("time", "command", "make"), ("make",)),
    (("nice", "-n", "10", "make", "-j4"), ("make", "-j4")),
    (("nice", "make"), ("make",)),
    (("timeout", "5", "npm", "test"), ("npm", "test")),
    (("timeout", "-s", "KILL", "5s", "rm", "x"), ("rm", "x")),
    (("env", "A=1", "B=2", "rm", "x"), ("rm", "x")),
    (("sudo", "timeout", "5", "/usr/bin/env", "X=1", "/bin/rm", "x"), ("rm", "x")),
    (("git", "status"), ("git", "status")),
    (("sudo",), ()),
]


def check_inner_command(inner_command: Callable[[tuple[str, ...]], tuple[str, ...]]) -> Verdict:
    """`inner_command(words)` unwraps every wrapper and drops the program's folder."""

    def test() -> None:
        for words, expected in CASES:
            answer = tuple(inner_command(words))
            assert answer == expected, f"inner_command({words}) returned {answer}; it should be {expected}"

    return check("inner_command: the command inside every wrapper, without its folder", test)
