"""Which server handles which file: ty by default, the settings' over it."""

from pathlib import Path

from decode.lsp.servers import server_for


def test_python_goes_to_ty_with_workspace_diagnostics() -> None:
    spec = server_for(Path("src/app.py"), {})
    assert spec is not None
    assert spec.argv == ("ty", "server")
    assert spec.language_id == "python"
    assert spec.initialization_options == {"diagnosticMode": "workspace"}
    assert server_for(Path("types.pyi"), {}) == spec  # one process for both suffixes


def test_the_settings_replace_add_and_remove_servers() -> None:
    configured = {".py": ["pylsp"], "rs": ["rust-analyzer"], ".pyi": []}
    pylsp = server_for(Path("a.py"), configured)
    assert pylsp is not None
    assert pylsp.argv == ("pylsp",)
    assert pylsp.name == "pylsp"
    assert pylsp.initialization_options == {}
    rust = server_for(Path("main.rs"), configured)
    assert rust is not None
    assert rust.language_id == "rust"
    assert server_for(Path("a.pyi"), configured) is None
    assert server_for(Path("README.md"), {}) is None
    assert server_for(Path("Makefile"), {}) is None
