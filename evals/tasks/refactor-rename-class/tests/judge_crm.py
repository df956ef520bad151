"""Run by judge.py in its own process: the values probe_crm.py reports from the child, against the right ones.

WORK (in the judge's environment) is the folder holding the copy of crm/: its source is read here as
text, never run.
"""

import ast
import os
import unittest
from pathlib import Path

import probe_crm  # a stand-in: each call runs in the child

OLD_NAME = {"warns": True, "names Account": True, "is Account": True, "makes an Account": True}
ALIAS = {
    "repr": "Account('ana', 'ana@example.com')",
    "summary": "1 active users: example.com 1",
    "crm.models.Account is Account": True,
    "names": ["Account", "Account", "crm.models"],
    "warnings on the new name": [],
    "from crm import UserRecord": OLD_NAME,
    "from crm.models import UserRecord": OLD_NAME,
    "import crm\nUserRecord = crm.UserRecord": OLD_NAME,
    "import crm.models\nUserRecord = crm.models.UserRecord": OLD_NAME,
    "unknown name raises": ["AttributeError", "AttributeError"],
}
UNIT = {
    "repr": "Account('ana', 'ana@example.com')",
    "domain": "example.org",
    "add a taken handle raises": "KeyError",
    "add a dict raises": "TypeError",
    "active": ["ana", "ben"],
    "by_domain": {"example.com": 1, "example.org": 1},
    "summary": "2 active users: example.com 1, example.org 1",
    "warnings": [],
}


class CrmTest(unittest.TestCase):
    maxDiff = None

    def test_the_class_statement_is_renamed(self):
        tree = ast.parse(Path(os.environ["WORK"], "crm", "models.py").read_text(encoding="utf-8"))
        classes = [node.name for node in ast.walk(tree) if isinstance(node, ast.ClassDef)]
        self.assertIn("Account", classes)
        self.assertNotIn("UserRecord", classes)

    def test_the_new_name_and_the_deprecated_alias(self):
        self.assertEqual(probe_crm.alias(), ALIAS)

    def test_our_renamed_cases(self):
        self.assertEqual(probe_crm.unit(), UNIT)


if __name__ == "__main__":
    unittest.main()
