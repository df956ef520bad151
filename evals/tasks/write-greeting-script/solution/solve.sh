#!/usr/bin/env bash
set -euo pipefail
cat > /app/greet.sh <<'SCRIPT'
#!/usr/bin/env bash
echo "Hello, ${1:-world}!"
SCRIPT
chmod +x /app/greet.sh
