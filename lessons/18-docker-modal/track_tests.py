"""Lesson 18's build-along track: what the docker client gets, the `docker run` of a sandbox container,
and the Workspace as the archive Modal receives.

`make lesson-check N=18` runs these against your copy (`make lesson-start N=18`); each test's first
docstring line is the behaviour it reports.
"""

import io
import itertools
import tarfile
from pathlib import Path

from decode.sandbox.docker import container_argv, docker_client_environment
from decode.sandbox.modal import workspace_archive


def test_the_docker_client_gets_only_its_own_variables() -> None:
    """The docker client gets DOCKER_HOST and its kin from this machine, and no key."""
    host = {"DOCKER_HOST": "unix:///run/docker.sock", "DOCKER_CONFIG": "/c", "GEMINI_API_KEY": "k", "PATH": "/bin"}
    assert docker_client_environment(host) == {"DOCKER_HOST": "unix:///run/docker.sock", "DOCKER_CONFIG": "/c"}


def _argv(workspace: Path, *, network: bool) -> list[str]:
    return container_argv(
        "docker",
        "decode-sandbox:latest",
        "decode-a1",
        workspace=workspace,
        read_only=[workspace / ".mcp.json"],
        hidden=[workspace / ".env"],
        network=network,
        user="1000:1000",
        env_names=["LANG"],
    )


def test_a_container_has_no_network_no_capabilities_and_a_read_only_root(tmp_path: Path) -> None:
    """`docker run` cuts the network, drops every capability, makes / read-only and ends with the image."""
    argv = _argv(tmp_path, network=False)
    joined = " ".join(argv)
    assert argv[:2] == ["docker", "run"]
    assert argv[-1] == "decode-sandbox:latest"
    assert "--network none" in joined
    assert "--read-only" in argv
    assert "--cap-drop ALL" in joined
    assert "no-new-privileges" in argv
    assert "--user 1000:1000" in joined
    assert "--network host" in " ".join(_argv(tmp_path, network=True))


def test_the_workspace_is_writable_and_its_protected_and_secret_files_are_not(tmp_path: Path) -> None:
    """The Workspace is bound at its own path; a protected file read-only on top; `.env` replaced by nothing."""
    (tmp_path / ".git").mkdir()
    argv = _argv(tmp_path, network=False)
    pairs = list(itertools.pairwise(argv))
    assert ("-v", f"{tmp_path}:{tmp_path}") in pairs
    assert ("-v", f"{tmp_path / '.git'}:{tmp_path / '.git'}") in pairs  # a mount point cannot be renamed away
    assert ("-v", f"{tmp_path / '.mcp.json'}:{tmp_path / '.mcp.json'}:ro") in pairs
    assert ("-v", f"/dev/null:{tmp_path / '.env'}:ro") in pairs
    assert ("-e", "LANG") in pairs  # a name: the value never appears on a command line
    assert ("-w", str(tmp_path)) in pairs


def test_the_workspace_goes_to_modal_without_its_secrets(tmp_path: Path) -> None:
    """The archive holds the Workspace under its absolute path, without `.env` files or what is left out."""
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "app.py").write_text("print('hi')\n")
    (tmp_path / "src" / ".env").write_text("KEY=secret\n")
    (tmp_path / ".env.example").write_text("KEY=\n")
    (tmp_path / "big").mkdir()
    (tmp_path / "big" / "data.bin").write_bytes(b"x")
    with tarfile.open(fileobj=io.BytesIO(workspace_archive(tmp_path, [tmp_path / "big"]))) as archive:
        names = {f"/{name}" for name in archive.getnames()}
    assert f"{tmp_path}/src/app.py" in names
    assert f"{tmp_path}/.env.example" in names
    assert f"{tmp_path}/src/.env" not in names
    assert not any(name.startswith(f"{tmp_path}/big") for name in names)
