"""The written-out traits agree with what each tool declares beside its function."""

from decode.tools.catalog import default_tools
from decode.tools.declared_traits import DECLARED_TRAITS


def test_the_table_is_what_the_catalog_declares() -> None:
    declared = {spec.name: spec.traits for spec in default_tools()}
    assert declared == DECLARED_TRAITS, "a tool's traits changed: write the same in decode/tools/declared_traits.py"


def test_importing_the_table_loads_no_pydantic_ai() -> None:
    import subprocess
    import sys

    code = "import sys, decode.tools.declared_traits; print('pydantic_ai' in sys.modules)"
    shown = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert shown.strip() == "False"
