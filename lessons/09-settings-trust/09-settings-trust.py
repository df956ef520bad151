# %% [markdown]
# # Lesson 09 — Settings files and trust
#
# Lesson 06 reads six settings files. Two of them, `.claude/settings.json` and
# `.decode/settings.json`, come with the repository: whoever wrote it chose them. Lesson 06 keeps
# their denies and asks (a repository may always restrict itself) and holds aside what they
# *grant*, their allow rules and an `acceptEdits` mode: nothing a repository ships grants itself
# anything. A team's settings are useful, though (`Bash(npm test)` for everyone). This lesson lets
# the user say yes to them: **Project Trust**.
#
# 1. **What lesson 06 holds aside**, and what this lesson changes in `settings_files.py`.
# 2. **A naive trust** (a list of trusted folders), and the `git pull` that defeats it.
# 3. **Trust for a hash of the grants as written**: `trust_store` and `project_trust`; a changed
#    grant asks again.
# 4. **The front ends**: the REPL's question, `decode permissions trust`, `--trust-project-settings`.
#
# Everything runs offline, in a scratch folder with its own `HOME`.

# %% [markdown]
# **Build it yourself.** The build-along track leaves 3 functions of this lesson to you, in
# your own copy of lesson 09's package; until you write them, each raises `NotImplementedError`
# with a hint:
#
# - `fingerprint` in `decode/config/trust_store.py`
# - `remember` in `decode/config/trust_store.py`
# - `is_trusted` in `decode/permissions/project_trust.py`
#
# `make lesson-start N=09` writes your copy into `build/09/`, and `make lesson-check N=09`
# runs the lesson's track tests (`track_tests.py`) on it, one line per behaviour still missing.
# This notebook shows the package's own versions: read them when you are done, or stuck.

# %%
import json
import os
import subprocess
import tempfile
from pathlib import Path

from course import show, show_diff

scratch = Path(tempfile.mkdtemp(prefix="decode-lesson09-")).resolve()
os.environ["HOME"] = str(scratch / "home")
project = scratch / "project"
(project / ".decode").mkdir(parents=True)
os.chdir(project)
subprocess.run(["git", "init", "-q"], check=True)


def shown(text: object) -> str:
    """Text with the scratch folder's path (different on every run) replaced by `<scratch>`."""
    return str(text).replace(str(scratch), "<scratch>")


def team_settings(allow: list[str]) -> None:
    """The repository's own `.decode/settings.json`, as a clone (or a `git pull`) brings it."""
    settings = {"permissions": {"allow": allow, "deny": ["Bash(rm:*)"]}}
    (project / ".decode" / "settings.json").write_text(json.dumps(settings, indent=2) + "\n", encoding="utf-8")


# %% [markdown]
# ## 1. What lesson 06 holds aside
#
# The repository's file allows `npm test` and denies `rm`. Read with lesson 06's
# `load_permission_settings`, the deny is in force and the allow is in `grants`, shown, never merged.

# %%
from decode.permissions.settings_files import load_permission_settings

team_settings(["Bash(npm test)", "Edit(docs/**)"])
loaded = load_permission_settings(project)
print("in force:  ", [f"{rule.action} {rule.text}" for rule in loaded.rules])
print("held aside:", [shown(line) for line in loaded.grants.describe()])
print("trusted:   ", loaded.trusted)

# %% [markdown]
# This is what this lesson changes in lesson 06's `settings_files.py`: whether the grants are in
# force is no longer only the command line's `--trust-project-settings`, but also the user's yes,
# remembered (and lesson 06's messages name `decode permissions trust`).

# %%
show_diff(9, "decode/permissions/settings_files.py")

# %% [markdown]
# ## 2. A naive trust, and how it fails
#
# The obvious way to remember a yes is a list of trusted folders. It works until the repository
# changes under it: a `git pull` brings `Bash(curl:*)`, which the user never saw, and the folder is
# still on the list.

# %%
trusted_folders = {project}


def naive_trusted(folder: Path) -> bool:
    return folder in trusted_folders


team_settings(["Bash(npm test)", "Edit(docs/**)", "Bash(curl:*)"])  # what `git pull` brought
print("naive: trusted?", naive_trusted(project), "— and so Bash(curl:*) would run without asking")

# %% [markdown]
# ## 3. Trust for the grants as written
#
# decode remembers the yes for a **hash of the grants as they were shown**: each allow rule and
# mode, by file. `ProjectGrants.content` is that content; `trust_store.fingerprint` hashes it as
# sorted JSON (the same grants give the same hash whatever the order of a dict); the store, in the
# user's home where no repository reaches, maps a project's resolved path to that hash.

# %%
show("decode.permissions.project_grants", "ProjectGrants.content")

# %%
show("decode.config.trust_store", "fingerprint")

# %%
show("decode.permissions.project_trust", "is_trusted")

# %% [markdown]
# Trust the grants the user is shown, then let the repository add one: the new hash is not the
# one remembered, so the whole set waits again (and the REPL asks again).

# %%
from decode.permissions.project_trust import trust

team_settings(["Bash(npm test)", "Edit(docs/**)"])
store = trust(project, load_permission_settings(project).grants)
print(shown(store), json.loads(store.read_text()) != {})
now = load_permission_settings(project)
print("trusted:", now.trusted, [rule.text for rule in now.rules if rule.action == "allow"])

team_settings(["Bash(npm test)", "Edit(docs/**)", "Bash(curl:*)"])
pulled = load_permission_settings(project)
print("after the pull, trusted:", pulled.trusted, [rule.text for rule in pulled.rules if rule.action == "allow"])

# %% [markdown]
# Two decode sessions may trust at once (or one trusts MCP servers, lesson 14, while another trusts
# settings): `remember` reads the store afresh under a lock (`locked_write.locked`), so neither
# loses the other's yes.

# %%
show("decode.config.trust_store", "remember")

# %% [markdown]
# ## 4. The front ends
#
# The REPL asks once after the warm-up, through the Decision Channel, showing each grant with its
# file and line; a prompt typed instead is the user's first prompt, not a yes. `/permissions trust`
# and `decode permissions trust` say yes later; `decode run --trust-project-settings` trusts for one
# run and remembers nothing.

# %%
from decode.tui.settings_trust import trust_question

question = trust_question(pulled.grants)
print(question.text)
print(shown(question.body))
print([f"{option.key} = {option.label}" for option in question.options])

# %% [markdown]
# ## Exercises
#
# ### Exercise 1: a fingerprint a `git pull` cannot slip past
#
# Write `fingerprint(grants)`: a string that is the same for the same grants (whatever the order of
# the files in the dict) and different as soon as a rule, a mode or the file that writes it
# changes. `grants` has the shape `ProjectGrants.content` gives: file → `{"allow": [...],
# "defaultMode": ...}`.

# %%
from exercises import check_fingerprint


def fingerprint(grants: dict) -> str:
    raise NotImplementedError  # your code here


# %%
check_fingerprint(fingerprint)

# %% [markdown]
# ## Recap
#
# **What you built:** Project Trust for settings: the user's yes to what a repository's own
# settings files grant, remembered in `~/.decode/trusted-settings.json` for a hash of the grants.
#
# - A repository's settings speak for whoever wrote it: their denies and asks hold at once, their
#   allow rules and `acceptEdits` wait, held aside, until the user trusts them.
# - Trust a folder and a `git pull` walks past it; trust a hash of the grants as shown and any
#   change asks again.
# - The store lives in the user's home, out of any repository's reach, and is written under a lock.
#
# **The key idea:** nothing a repository ships grants itself anything; what the user trusts is
# exactly what the user was shown.
#
# **Glossary:** [Project Trust](../../docs/glossary.md#project-trust),
# [Permission Rule](../../docs/glossary.md#permission-rule), [Permission Gate](../../docs/glossary.md#permission-gate).
