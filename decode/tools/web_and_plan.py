"""Lesson 13's tools, one entry of the catalog: the web, the To-do List, questions, plan mode."""

from decode.tools.ask import ASK_USER
from decode.tools.plan import EXIT_PLAN_MODE
from decode.tools.todo import TODO_WRITE
from decode.tools.web.fetch import WEB_FETCH

WEB_AND_PLAN_TOOLS = (
    WEB_FETCH,  # a web page, as text
    TODO_WRITE,  # the agent's own planning: a visible to-do list
    ASK_USER,  # a question to the user
    EXIT_PLAN_MODE,  # the plan, in plan mode only
)
