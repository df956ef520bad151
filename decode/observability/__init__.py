"""Observability: every turn as a trace of spans (model requests, tool calls), sent to Opik when configured.

- `config`: is tracing configured (`OPIK_API_KEY` or `OPIK_URL_OVERRIDE`)?
- `records`: a trace and its spans as plain data, whatever backend receives them.
- `observer`: the seam: turns one turn's event stream into those records.
- (`decode/agent/traced_loop.py`: the Agent Loop an observer watches, built only when tracing is configured.)
- `sink`: the backend a turn's records go to, opened once per process.
- `sender`: the background queue a backend posts through; the exit waits for it, bounded.
- `opik_tracer`: the Opik backend: records as Opik's REST API takes them (no opik SDK: ADR-0098).
"""
