#!/bin/sh
# An MCP server in POSIX sh, for a sandbox image without Python: one JSON-RPC message a line on
# stdin and stdout (what lessons/14-mcp/tiny_server.py does in Python). One tool, `where`, says
# where the server runs: its HOME, folder, host name, and whether it sees a host secret.
while IFS= read -r line; do
  id=$(printf '%s' "$line" | sed -n 's/.*"id":\([0-9][0-9]*\).*/\1/p')
  method=$(printf '%s' "$line" | sed -n 's/.*"method":"\([^"]*\)".*/\1/p')
  [ -n "$id" ] || continue  # a notification: nothing to answer
  case "$method" in
    initialize)
      version=$(printf '%s' "$line" | sed -n 's/.*"protocolVersion":"\([^"]*\)".*/\1/p')
      result="{\"protocolVersion\":\"$version\",\"capabilities\":{\"tools\":{}},\"serverInfo\":{\"name\":\"sh\",\"version\":\"1\"}}" ;;
    tools/list)
      result='{"tools":[{"name":"where","description":"Where this server runs.","inputSchema":{"type":"object","properties":{}}}]}' ;;
    tools/call)
      said="home=$HOME cwd=$(pwd) host=$(hostname) secret=${GEMINI_API_KEY:-none}"
      result="{\"content\":[{\"type\":\"text\",\"text\":\"$said\"}]}" ;;
    *)
      printf '{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"no such method"}}\n' "$id"
      continue ;;
  esac
  printf '{"jsonrpc":"2.0","id":%s,"result":%s}\n' "$id" "$result"
done
