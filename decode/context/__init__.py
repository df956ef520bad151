"""Context: the conversation kept on disk, and kept inside the model's context window (lesson 11).

- `session_log.py`: the Session Log, one append-only JSONL file per conversation.
- `replay.py`: reading a Session Log back into the history to continue from.
- `catalog.py`: the sessions saved in a directory (`decode sessions`), finding one by id.
- `windows.py`: each model's context window, and how full a history is (the footer's gauge).
- `pruning.py`: compaction's first tier, old tool outputs as placeholders in requests.
- `compaction.py`: compaction's second tier, a summary in place of the older history.
- `session.py`: the `Session` the Agent Loop calls before, during and after each turn.
"""
