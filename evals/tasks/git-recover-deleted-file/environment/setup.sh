#!/usr/bin/env bash
# A small service repo whose config/defaults.ini was edited twice, then deleted in a "cleanup"
# commit; two more commits follow, so the deletion is three commits back from HEAD.
set -euo pipefail
rm -f .gitkeep
git init -q -b main
n=0
commit() {  # commit MESSAGE: stage everything, commit at a fixed, increasing date
  n=$((n + 1))
  export GIT_AUTHOR_DATE="2025-03-0${n}T10:00:00+00:00" GIT_COMMITTER_DATE="2025-03-0${n}T10:00:00+00:00"
  git add -A
  git -c user.name="Dana Ops" -c user.email="dana@example.com" commit -q -m "$1"
}
mkdir -p config app
cat > app/server.py <<'PY'
"""Start the service with the settings of config/defaults.ini (and config/local.ini if present)."""
import configparser

def load_settings(paths=("config/defaults.ini", "config/local.ini")):
    parser = configparser.ConfigParser()
    parser.read(paths)
    return parser
PY
cat > config/defaults.ini <<'INI'
[server]
host = 127.0.0.1
port = 8080

[database]
url = sqlite:///app.db
INI
printf '# inventory service\n\nSettings: config/defaults.ini\n' > README.md
commit "Initial service skeleton"

cat > config/defaults.ini <<'INI'
; Shipped defaults. Override them in config/local.ini, never here.
[server]
host = 0.0.0.0
port = 8080
workers = 4

[database]
url = postgresql://inventory@db:5432/inventory
pool_size = 10
timeout_s = 2.5

[logging]
level = INFO
format = %(asctime)s %(levelname)s %(name)s: %(message)s
INI
commit "Production defaults: postgres, workers, logging"

printf 'def health():\n    return {"status": "ok"}\n' > app/health.py
commit "Add a health endpoint"

cat > config/local.ini.example <<'INI'
[server]
port = 9090
INI
git rm -q config/defaults.ini
printf '# inventory service\n\nCopy config/local.ini.example to config/local.ini to override settings.\n' > README.md
commit "Clean up config files"

printf 'def version():\n    return "1.4.0"\n' > app/version.py
commit "Expose the version"

printf 'def ready():\n    return True\n' >> app/health.py
commit "Add a readiness probe"
