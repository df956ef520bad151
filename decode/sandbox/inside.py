"""Killing inside a container: the shell scripts `docker exec` runs around every command.

Killing the `docker exec` client on this machine does not touch what it started: the program runs
on inside the container, under the engine. So decode's process control has to live in there too,
written in POSIX `sh` (any image has one) with the little of `grep` BusyBox also has (ADR-0064):

- `WRAPPER` runs the command. `docker exec` makes it a session leader, so the command's whole
  tree is in its session; the command (not the wrapper) also carries `DECODE_PROCESS_TAG=<tag>`
  in its environment, which a child that leaves the session (`setsid`) keeps. When the command
  exits, whatever it left gets a grace period while it holds the output, then SIGKILL, as
  `decode/processes/tracking.py` does on the host.
- `KILLER`, run by a second `docker exec` on a timeout or an abort, finds the wrapper (the tag is
  its argument) and SIGKILLs its session and everything carrying the tag, until nothing is left.

Both leave out themselves and their own helpers (`grep`), which carry neither the tag nor the session.
"""

CONTAINER_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
"""`PATH` inside a container: the image's, not the host's (which names pyenv shims and venvs not there)."""

_MEMBERS = r"""
members() {  # sets $found: the live processes of run $1 (its session is $2), not ours
  found=
  for p in /proc/[0-9]*; do
    pid=${p#/proc/}
    [ "$pid" = "$$" ] && continue
    { read -r stat < "$p/stat"; } 2>/dev/null || continue
    tag=$1 session=$2
    set -- "$tag" "$session" ${stat##*) }
    [ "$3" = Z ] && continue
    [ "$4" = "$$" ] && continue
    if [ "$6" = "$session" ] || grep -qzxF "DECODE_PROCESS_TAG=$tag" "$p/environ" 2>/dev/null; then
      found="$found $pid"
    fi
  done
}
end_all() {  # SIGKILL the members of run $1 (session $2) until none is left
  n=0
  while members "$1" "$2"; [ -n "$found" ] && [ "$n" -lt 200 ]; do
    kill -KILL $found 2>/dev/null
    n=$((n + 1))
  done
}
"""

WRAPPER = (
    _MEMBERS
    + r"""
holds_output() {  # does one of $found still hold our stdout or stderr (`pipe:[N]`)?
  for pid in $found; do
    case $(ls -l /proc/"$pid"/fd 2>/dev/null) in *"$out"* | *"$err"*) return 0 ;; esac
  done
  return 1
}
run_tag=$1
shift
DECODE_PROCESS_TAG=$run_tag "$@"
code=$?
out=$(readlink /proc/$$/fd/1) err=$(readlink /proc/$$/fd/2)
waited=0
while members "$run_tag" $$; [ -n "$found" ] && [ "$waited" -lt 20 ] && holds_output; do
  sleep 0.05
  waited=$((waited + 1))
done
end_all "$run_tag" $$
exit "$code"
"""
)
"""`sh -c WRAPPER sh TAG ARGV...`: run ARGV, tagged, then end what it left (see the module docstring)."""

KILLER = (
    _MEMBERS
    + r"""
run_tag=$1
session=none
for p in /proc/[0-9]*; do
  [ "${p#/proc/}" = "$$" ] && continue
  if grep -qzxF -- "$run_tag" "$p/cmdline" 2>/dev/null; then session=${p#/proc/}; fi
done
end_all "$run_tag" "$session"
"""
)
"""`sh -c KILLER sh TAG`: SIGKILL everything of the run tagged TAG, wherever it is in the container."""


def wrapped(argv: list[str] | tuple[str, ...], tag: str) -> list[str]:
    """The argv `docker exec` runs for `argv`: the wrapper, its tag, then the command."""
    return ["sh", "-c", WRAPPER, "sh", tag, *argv]


def killer(tag: str) -> list[str]:
    """The argv `docker exec` runs to end the run tagged `tag`."""
    return ["sh", "-c", KILLER, "sh", tag]
