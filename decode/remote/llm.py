"""An open model on Modal: vLLM's OpenAI-compatible server, for decode's `modal:` provider.

`decode remote serve-model` (or `modal deploy -m decode.remote.llm`) deploys the app
`decode-llm-<env>`: one function on an L40S GPU that starts `vllm serve` and exposes its port
with `modal.web_server`. The weights are downloaded once into a Modal Volume. vLLM checks an API
key (`VLLM_API_KEY`, from the Modal Secret named by `DECODE_REMOTE_SECRET`): decode sends the same
value as `DECODE_MODAL_LLM_TOKEN`, and `DECODE_MODAL_LLM_URL` is the endpoint's URL plus `/v1`.

Why this model and GPU: Qwen2.5-Coder-7B-Instruct calls tools (vLLM's `hermes` parser), and in
bf16 it takes ~15 GB, so an L40S (48 GB) holds it with room for a 32k-token context's cache.
Defining the app needs no token; deploying it does.
"""

import subprocess

import modal

from decode.config.settings import Settings

MODEL = "Qwen/Qwen2.5-Coder-7B-Instruct"
SERVED_NAME = "qwen2.5-coder-7b"
"""The name decode asks for: `--model modal:qwen2.5-coder-7b`."""
VLLM_VERSION = "0.11.0"
GPU = "L40S"
PORT = 8000
MAX_MODEL_LEN = 32_768
WEIGHTS = "/root/.cache/huggingface"
VOLUME_NAME = "decode-llm-weights"
STARTUP_TIMEOUT_S = 15 * 60
"""The first start downloads the weights (~15 GB) into the Volume; later starts read them from it."""
IDLE_S = 5 * 60
"""Scale to zero after five idle minutes: a GPU is paid by the second while a container lives."""


def serve_command() -> list[str]:
    """The command line the container serves: vLLM's OpenAI-compatible server, tools on."""
    return [
        "vllm",
        "serve",
        MODEL,
        "--served-model-name",
        SERVED_NAME,
        "--host",
        "0.0.0.0",
        "--port",
        str(PORT),
        "--max-model-len",
        str(MAX_MODEL_LEN),
        "--enable-auto-tool-choice",
        "--tool-call-parser",
        "hermes",
    ]


def llm_image() -> modal.Image:
    """Debian slim with vLLM pinned (its wheel brings CUDA's libraries)."""
    return (
        modal.Image.debian_slim(python_version="3.12")
        .pip_install(f"vllm=={VLLM_VERSION}", "huggingface_hub[hf_transfer]")
        .env({"HF_HUB_ENABLE_HF_TRANSFER": "1"})
    )


def serve() -> None:
    """Start vLLM in the background; `modal.web_server` waits for the port and routes to it."""
    subprocess.Popen(serve_command())


def build_llm_app(settings: Settings) -> modal.App:
    app = modal.App(f"decode-llm-{settings.env}")
    weights = modal.Volume.from_name(VOLUME_NAME, create_if_missing=True)
    app.function(
        image=llm_image(),
        gpu=GPU,
        volumes={WEIGHTS: weights},
        secrets=[modal.Secret.from_name(settings.remote_secret)],
        timeout=24 * 3600,
        scaledown_window=IDLE_S,
    )(modal.concurrent(max_inputs=32)(modal.web_server(PORT, startup_timeout=STARTUP_TIMEOUT_S)(serve)))
    return app


app = build_llm_app(Settings())
