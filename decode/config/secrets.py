"""Secrets in the environment: which variables are credentials, and hiding them from children.

The model writes the commands decode runs, so whatever a command can read, a prompt injection can
print. Two ways lead from a command to a key in decode's environment:

1. The command's own environment. `decode.processes.environment` builds it without decode's keys and
   without every variable `looks_like_credential` flags (`GITHUB_TOKEN`, `AWS_SECRET_ACCESS_KEY`,
   `DB_PASSWORD`…), unless the user passes one through by name (`DECODE_PASS_ENV`). What flags a
   variable is data, two tables below: `NAME_PATTERNS` and `VALUE_PATTERNS` (a URL with a password,
   a `password=` or `sig=` in a connection string or a URL's query, a webhook URL, a key's
   well-known shape anywhere in the value, an `.npmrc`, `.netrc` or Docker config line), each
   with examples.
2. decode's own process. `tr '\\0' '\\n' < /proc/$PPID/environ` prints the environment decode was
   started with: the kernel shows the block of memory `execve` wrote, not Python's `os.environ`,
   so deleting a variable from `os.environ` changes nothing there. `hide_credentials`, called once
   at start-up by `decode/cli.py`, overwrites those values in that block with `*` and unsets them
   in the C library's environment. Python's `os.environ` keeps them, so the settings, read later,
   still find the keys (they are in decode's memory anyway: it needs them). It runs before the
   settings are imported (a fast start), so it knows decode's own keys by their look, like any
   other credential; a test checks that every secret setting's name looks like one.
   On Linux it also marks the process non-dumpable (`PR_SET_DUMPABLE`, as Codex and ssh-agent do):
   another process of the same user can then neither attach to decode nor read its memory
   (`/proc/PID/mem`), `environ` or `maps`; the commands decode starts are ordinary processes again
   after `exec`. A side effect: a debugger or `py-spy` needs root to attach to decode.

What this does not cover: root (a command running as root reads any process's memory), the
environment blocks of decode's ancestors (a shell or `uv run` that was started with the key
exported still shows it in its own `/proc/PID/environ`), secrets stored in files (`.env`, which
the permission rules guard), and secrets under innocent names whose values have no known shape
(a random string alone, a query key the table does not list: `https://host/?key=…`).
The block is overwritten on Linux only; elsewhere the variables are just unset.
"""

import os
import re
import sys
from collections.abc import Mapping

NAME_PATTERNS: tuple[tuple[str, str], ...] = (
    # (pattern, names it catches): searched in the upper-cased name, anywhere unless anchored.
    (r"KEY|SECRET|TOKEN|CRED|PRIVATE", "OPENAI_API_KEY, AWS_SECRET_ACCESS_KEY, GITHUB_TOKEN, AWS_CREDS"),
    (r"COOKIE|SESSID|BEARER|JWT", "SESSION_COOKIE, PHPSESSID, BEARER, CI_JOB_JWT"),
    # PASS anywhere: DB_PASSWORD, PASSPHRASE, SMTP_PASS, SSH_ASKPASS (a program that hands out
    # passwords); not the words COMPASS, BYPASS or PASSENGER (Phusion Passenger's settings).
    (r"(?<!COM)(?<!BY)PASS(?!ENGER)", "DB_PASSWORD, REDIS_PASSWD, DBPASS, GIT_ASKPASS"),
    (r"HOOK", "SLACK_WEBHOOK_URL, DISCORD_HOOK, TEAMS_HOOK_URL: a webhook URL is its own credential"),
    (r"SALT|SEED|MNEMONIC", "PASSWORD_SALT, WALLET_SEED, SEED_PHRASE, MNEMONIC"),
    # AUTH, OAUTH_CLIENT, HTTP_AUTHORIZATION, DOCKER_AUTH_CONFIG, but not GIT_AUTHOR_NAME or XAUTHORITY.
    (r"AUTH(?!OR(?!I[SZ]))", "BASIC_AUTH, HTTP_AUTHORIZATION, PROXY_AUTHORISATION"),
    # As a whole word between `_`, `-` or `.`: MYSQL_PWD, GITHUB_PAT, SENTRY_DSN (not `PW`:
    # Playwright's settings are PW_…).
    (r"(?:^|[_.-])(?:PWD|PAT|DSN)(?:$|[_.-])", "MYSQL_PWD, GITHUB_PAT, SENTRY_DSN"),
)
"""What a credential's name looks like. A false alarm costs a variable the command does not get,
which `DECODE_PASS_ENV` gives back; a miss costs a key."""

_WORD = r"(?<![\w./\\+-])"
"""Where a key starts: not inside a word, a path (`/data/hf_cache_…`) or a longer name."""

VALUE_PATTERNS: tuple[tuple[str, str], ...] = (
    # (pattern, values it catches), any case, found anywhere in the value. Every repeat is bounded,
    # so a huge value costs linear time, not quadratic. `_WORD` starts a key where a word
    # starts: after a space, a quote, `=` or `:`, not inside a path or a longer word.
    (
        # A port (`host:8080/…@v2`) is not a password; a password may hold `/` and be long.
        r"(?<![a-z0-9+.-])[a-z][a-z0-9+.-]{0,30}://[^/\s:@]{0,256}:(?!\d{1,5}(?:[/?#\s]|$))[^\s@]{1,1024}@",
        "a URL with a password: postgres://user:pw@host, postgres://app:pa/ss@db, an HTTPS_PROXY with one",
    ),
    (
        r"(?<![a-z0-9.-])(?:[a-z][a-z0-9.-]{0,30}\+)?(?:https?|wss?|ftps?)://[^/\s:@]{1,256}@",
        "a web URL with a user and no password: https://ghp_…@github.com, git+https://TOKEN@github.com",
    ),
    (
        r"(?:^|[?&;\s])(?:AccountKey|Password|Passwd|Pass|Pwd|SharedAccessSignature|SharedAccessKey|sig"
        r"|X-Amz-Signature|X-Amz-Security-Token|X-Goog-Signature|token|access_token|auth_token|api_key"
        r"|apikey|api-key|secret|client_secret)\s{0,8}=\s{0,8}[^&;\s]",
        "a credential in a connection string (Server=…;Password=…, AccountKey=…), a URL's query "
        "(?password=…, a SAS or pre-signed URL's sig= or X-Amz-Signature=, ?token=…) or libpq's "
        "keywords (host=db user=app password=…)",
    ),
    (
        r"hooks\.slack\.com(?::\d{1,5})?/(?:services|workflows|triggers)/"
        r"|discord(?:app)?\.com(?::\d{1,5})?/api/(?:v\d{1,3}/)?webhooks/"
        r"|\.webhook\.office\.com/|chat\.googleapis\.com/v1/spaces/|logic\.azure\.com\S{0,512}/triggers/",
        "a webhook URL (Slack, Discord, Teams and its Workflows, Google Chat): whoever has it can post",
    ),
    (
        _WORD + r"(?:sk-|sk_live_|sk_test_|rk_live_|ghp_|gho_|ghu_|ghs_|ghr_|github_pat_|glpat-|xox[abeprs]-"
        r"|xapp-|hf_|npm_|pypi-AgE|AIza|ya29\.|whsec_|do[opr]_v1_|shp(?:at|ss|ca|pa)_)[A-Za-z0-9_-]{16}",
        "a well-known key's prefix: OpenAI/Anthropic, Stripe, GitHub, GitLab, Slack, Hugging Face, npm, "
        'PyPI, Google, DigitalOcean, Shopify… (`ghp_…`, `"ghp_…"`, `token ghp_…`)',
    ),
    (_WORD + r"(?-i:SG)\.[A-Za-z0-9_-]{16,64}\.[A-Za-z0-9_-]{16}", "a SendGrid key"),
    (_WORD + r"(?-i:AKIA|ASIA)[0-9A-Z]{16}(?![0-9A-Za-z])", "an AWS access key id"),
    (_WORD + r"AGE-SECRET-KEY-1[0-9A-Z]{16}", "an age secret key"),
    (
        _WORD + r"eyJ[A-Za-z0-9_-]{8,1024}\.eyJ[A-Za-z0-9_-]{8}",
        "a JSON Web Token (a bearer credential until it expires)",
    ),
    (r"-----BEGIN [A-Z ]{0,40}PRIVATE KEY-----", "a PEM private key pasted into a variable"),
    (r":_(?:authToken|auth|password)\s{0,8}=\s{0,8}\S", "an .npmrc line: //registry.npmjs.org/:_authToken=…"),
    (
        r"(?<![\w-])machine\s[\s\S]{0,256}?\s(?:password|passwd)\s{1,8}\S",
        "a .netrc line: machine host login me password …",
    ),
    (
        # Docker's "auth" is base64 of user:password; {"auth": "none"} is a setting.
        r'"(?:identitytoken|password|passwd|secret|client_secret|token|access_token|api_key|apikey)"'
        r'\s{0,8}:\s{0,8}"[^"\s]|"auth"\s{0,8}:\s{0,8}"[a-z0-9+/]{12}',
        'a JSON secret: a Docker config\'s {"auths": {"host": {"auth": "…"}}}, {"password": "…"}',
    ),
)
"""What a credential's value looks like, whatever its name (`DATABASE_URL`…). Not a plain
`ssh://git@host` or `user@host`: outside web URLs a user name before `@` is not a secret."""

CREDENTIAL_NAME = re.compile("|".join(pattern for pattern, _ in NAME_PATTERNS))
"""A variable whose name (upper-cased) matches `NAME_PATTERNS` is a credential."""

CREDENTIAL_VALUE = re.compile("|".join(pattern for pattern, _ in VALUE_PATTERNS), re.IGNORECASE)
"""A variable whose value matches `VALUE_PATTERNS` is a credential."""

NOT_CREDENTIALS = frozenset({"PWD", "SSH_AUTH_SOCK", "PYTHONHASHSEED"})
"""Names that match but hold no secret and that tools need: the working directory, the ssh
agent's socket (a path: `git` over ssh needs it; the agent never hands out the key itself), and
the seed a test run sets for reproducible hashing."""

_PR_SET_DUMPABLE = 4  # <linux/prctl.h>


def looks_like_credential(name: str, value: str = "") -> bool:
    """True when a variable's name or value says it holds a credential (see `CREDENTIAL_NAME`)."""
    upper = name.upper()
    if upper in NOT_CREDENTIALS:
        return False
    return bool(CREDENTIAL_NAME.search(upper) or CREDENTIAL_VALUE.search(value))


def credential_names(environ: Mapping[str, str]) -> set[str]:
    """The variables of `environ` that are credentials."""
    return {name for name, value in environ.items() if looks_like_credential(name, value)}


def hide_credentials() -> list[str]:
    """Make this process's credentials unreadable by the processes it starts; returns their names.

    Call it once, early (`decode/cli.py` does, before any command runs). `os.environ` is left as it
    is: decode reads its settings from there afterwards and builds each command's environment
    from it without the credentials.
    """
    hidden = _overwrite_environment_block() if sys.platform == "linux" else []
    for name in credential_names(os.environ):
        os.unsetenv(name)  # the C environment only: Python's os.environ keeps the value
        if name not in hidden:
            hidden.append(name)
    if sys.platform == "linux":
        _make_undumpable()
    return hidden


def _environment_block() -> tuple[int, int] | None:
    """Where the environment `execve` gave this process lives: what `/proc/PID/environ` shows."""
    try:
        with open("/proc/self/stat", "rb") as file:
            stat = file.read()
    except OSError:
        return None
    # Fields 50 and 51 of proc(5) (Linux 3.5+), counted after the command name, which may hold spaces.
    fields = stat[stat.rindex(b")") + 2 :].split()
    if len(fields) < 49:
        return None
    start, end = int(fields[50 - 3]), int(fields[51 - 3])
    return (start, end) if 0 < start < end else None


def _overwrite_environment_block() -> list[str]:
    """Replace the values of the credentials in the environment block with `*`; returns their names."""
    import ctypes

    block = _environment_block()
    if block is None:
        return []
    start, end = block
    hidden: list[str] = []
    offset = 0
    for entry in ctypes.string_at(start, end - start).split(b"\0"):
        name, equals, value = entry.partition(b"=")
        text_name, text_value = os.fsdecode(name), os.fsdecode(value)
        if equals and value and looks_like_credential(text_name, text_value):
            ctypes.memset(start + offset + len(name) + 1, ord("*"), len(value))
            os.unsetenv(name)  # the C environment's entry points into the block: it would read stars
            hidden.append(text_name)
        offset += len(entry) + 1
    return hidden


def _make_undumpable() -> None:
    """No other process of this user may attach to this one or read its memory (Linux)."""
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(_PR_SET_DUMPABLE, 0, 0, 0, 0)
