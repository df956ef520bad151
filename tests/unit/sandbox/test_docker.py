"""The Docker backend's command lines, without an engine (the engine itself: tests/integration/sandbox)."""

from pathlib import Path

from decode.config.settings import Settings
from decode.entities.executor import ExecRequest
from decode.sandbox.docker import DockerBackend, container_argv, docker_client_environment
from decode.sandbox.inside import KILLER, WRAPPER, killer, wrapped


def test_the_container_is_locked_down(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    argv = container_argv(
        "docker",
        "decode-sandbox:latest",
        "decode-sandbox-1",
        workspace=tmp_path,
        read_only=[tmp_path / ".git" / "config"],
        hidden=[tmp_path / ".env"],
        network=False,
        user="1000:1000",
        env_names=["HOME", "PATH"],
    )
    joined = " ".join(argv)
    for option in (
        "--network none",
        "--read-only",
        "--cap-drop ALL",
        "no-new-privileges",
        "--user 1000:1000",
        "--init",
    ):
        assert option in joined
    assert f"-v {tmp_path}:{tmp_path} " in joined
    assert f"-v {tmp_path}/.git:{tmp_path}/.git " in joined  # a mount point: `.git` cannot be renamed
    assert f"-v {tmp_path}/.git/config:{tmp_path}/.git/config:ro" in joined
    assert f"-v /dev/null:{tmp_path}/.env:ro" in joined
    assert argv[-3:] == ["-w", str(tmp_path), "decode-sandbox:latest"]
    assert "-e HOME -e PATH" in joined  # names only: docker takes the values from its own environment


def test_a_command_allowed_the_network_gets_the_hosts(tmp_path: Path) -> None:
    argv = container_argv(
        "docker",
        "img",
        "n",
        workspace=tmp_path,
        read_only=(),
        hidden=(),
        network=True,
        user="0:0",
        cwd=tmp_path / "sub",
    )
    assert argv[argv.index("--network") + 1] == "host"
    assert argv[-3:] == ["-w", str(tmp_path / "sub"), "img"]


def test_only_the_docker_clients_own_settings_pass_to_it() -> None:
    host = {"DOCKER_HOST": "unix:///x.sock", "GEMINI_API_KEY": "secret", "HOME": "/root", "DOCKER_API_VERSION": "1.41"}
    assert docker_client_environment(host) == {"DOCKER_HOST": "unix:///x.sock", "DOCKER_API_VERSION": "1.41"}


def test_the_wrapper_and_the_killer_carry_the_tag_as_an_argument() -> None:
    assert wrapped(["bash", "-c", "echo hi"], "t1") == ["sh", "-c", WRAPPER, "sh", "t1", "bash", "-c", "echo hi"]
    assert killer("t1") == ["sh", "-c", KILLER, "sh", "t1"]


def test_the_backend_is_built_without_io(tmp_path: Path) -> None:
    backend = DockerBackend(tmp_path / "missing", Settings(_env_file=None, sandbox_image="img:1"))  # type: ignore[call-arg]
    assert backend.host_workspace == backend.workspace == tmp_path / "missing"
    assert backend.image == "img:1"
    assert backend.name.startswith("decode-sandbox-")


def test_a_read_only_git_is_bound_once(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    argv = container_argv(
        "docker", "img", "n", workspace=tmp_path, read_only=[tmp_path / ".git"], hidden=(), network=False, user="0:0"
    )
    git = str(tmp_path / ".git")
    assert [argv[i + 1] for i, arg in enumerate(argv) if arg == "-v" and argv[i + 1].startswith(git)] == [
        f"{git}:{git}:ro"
    ]


FAKE_DOCKER = """#!/bin/sh
# `docker exec -i -w CWD -e NAME... CONTAINER ARGV...`, run here: what the engine would do inside.
[ "$1" = exec ] || exit 99
shift
[ "$1" = -i ] && shift
[ "$1" = -w ] && { cd "$2" || exit 98; shift 2; }
while [ "$1" = -e ]; do shift 2; done
shift
exec "$@"
"""


async def test_a_request_reaches_the_container_whole(tmp_path: Path) -> None:
    # Without an engine: a `docker` client that runs the command here, as `docker exec` would inside.
    (fake := tmp_path / "docker").write_text(FAKE_DOCKER)
    fake.chmod(0o755)
    (workspace := tmp_path / "workspace").mkdir()
    (workdir := workspace / "sub").mkdir()
    backend = DockerBackend(workspace, Settings(_env_file=None))  # type: ignore[call-arg]
    backend.docker = str(fake)
    out, err = bytearray(), bytearray()
    script = 'pwd; cat; printf "%s" "$FROM_REQUEST" >&2'
    request = ExecRequest(
        ["sh", "-c", script],
        timeout=30,
        on_stdout=out.extend,
        on_stderr=err.extend,
        cwd=workdir,
        env={"FROM_REQUEST": "yes"},
        stdin=b"fed\n",
    )
    result = await backend.run(request)
    assert (result.exit_code, result.timed_out) == (0, False)
    assert (out.decode(), err.decode()) == (f"{workdir}\nfed\n", "yes")
