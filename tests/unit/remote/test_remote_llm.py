"""The vLLM app, defined offline: GPU, pinned vLLM, the served port and command line."""

from decode.config.settings import Settings
from decode.remote.definition import functions, image_commands, loader_arg, secret_names


def test_the_model_is_served_on_a_gpu_behind_a_web_server_port() -> None:
    from decode.remote import llm

    serve = functions(llm.app)["serve"]
    assert serve._spec.gpus == "L40S"
    assert serve._webhook_config.web_server_port == llm.PORT == 8000
    assert serve._webhook_config.web_server_startup_timeout == llm.STARTUP_TIMEOUT_S
    assert list(serve._spec.volumes) == [llm.WEIGHTS]
    assert secret_names(serve) == ["decode-secrets"]  # VLLM_API_KEY lives there
    assert loader_arg(serve, "scaledown_window") == llm.IDLE_S


def test_the_image_pins_vllm() -> None:
    from decode.remote.llm import llm_image

    assert any("vllm==0.11.0" in command for command in image_commands(llm_image()))


def test_the_command_line_serves_the_model_under_its_short_name_with_tools() -> None:
    from decode.remote.llm import MODEL, SERVED_NAME, serve_command

    argv = serve_command()
    assert argv[:3] == ["vllm", "serve", MODEL]
    assert argv[argv.index("--served-model-name") + 1] == SERVED_NAME
    assert argv[argv.index("--port") + 1] == "8000"
    assert argv[argv.index("--host") + 1] == "0.0.0.0"
    assert "--enable-auto-tool-choice" in argv  # decode's loop needs tool calls
    assert "--api-key" not in argv  # the key comes from VLLM_API_KEY, never a command line


def test_the_app_is_named_after_the_environment() -> None:
    from decode.remote.llm import build_llm_app

    assert build_llm_app(Settings(env="prod")).name == "decode-llm-prod"
