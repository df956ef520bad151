"""The Harness: what sits between a front end and the Agent Loop while turns run.

`queue.py` holds the messages waiting for a turn, `runner.py` is the Turn Runner (one turn at a
time; Ctrl-C stops the running one), and `failures.py` the one-line reasons a turn failed.
"""
# [lesson 10]
# `priority.py` is the Priority Gate (a message typed during a turn becomes a steer, a follow-up or
# a turn of its own), `abort.py` what an aborted turn leaves in the conversation (synthetic results
# for the tool calls it cut short), `decisions.py` the Decision Channel (approvals and questions to
# the user, one at a time).
# [/lesson 10]
