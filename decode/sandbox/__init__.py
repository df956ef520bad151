"""Sandboxes: the agent's commands and files behind one `SandboxExecutor`, over a thin backend
(bubblewrap, Docker, Modal). `decode.sandbox.backends.open_sandbox` builds one."""
