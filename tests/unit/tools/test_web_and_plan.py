"""Lesson 13's tools: one entry of the catalog, in the order the model is shown them."""

from decode.tools.catalog import default_tools
from decode.tools.web_and_plan import WEB_AND_PLAN_TOOLS


def test_lesson_13s_tools_join_the_catalog_after_bash_and_in_order() -> None:
    assert [spec.name for spec in WEB_AND_PLAN_TOOLS] == ["web_fetch", "todo_write", "ask_user", "exit_plan_mode"]
    names = [spec.name for spec in default_tools()]
    assert names[names.index("bash") + 1 : names.index("lsp")] == [spec.name for spec in WEB_AND_PLAN_TOOLS]
