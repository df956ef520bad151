import json
from pathlib import Path

import pytest
from pydantic_ai.models.google import GoogleModel
from pydantic_ai.models.openai import OpenAIChatModel
from pydantic_ai.models.openrouter import OpenRouterModel
from pydantic_ai.models.test import TestModel

from decode.config.settings import Settings
from decode.models.errors import MissingKeyError, ModelConfigError
from decode.models.gateway import PROVIDERS, resolve_model, split_model_string
from decode.models.retry import RetryingModel
from decode.models.script import ScriptedModel

LOCAL = "http://127.0.0.1:9"  # nothing listens there: resolving a model must not make a request


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        ("google-gla:gemini-flash-latest", ("google-gla", "gemini-flash-latest")),
        ("openrouter:qwen/qwen3-coder:free", ("openrouter", "qwen/qwen3-coder:free")),
        ("modal:qwen3-coder", ("modal", "qwen3-coder")),
        ("openai-compatible:llama3.2:3b", ("openai-compatible", "llama3.2:3b")),  # Ollama tags keep their colon
        ("script:/tmp/turns.json", ("script", "/tmp/turns.json")),
        ("test", ("test", "")),
        ("  test  ", ("test", "")),
    ],
)
def test_model_strings_split_at_the_first_colon(spec: str, expected: tuple[str, str]) -> None:
    assert split_model_string(spec) == expected


@pytest.mark.parametrize("spec", ["gpt-4o", "nonsense:claude-sonnet", "Google-gla:gemini", ""])
def test_an_unknown_provider_names_the_string_and_the_known_ones(spec: str) -> None:
    with pytest.raises(ModelConfigError) as caught:
        split_model_string(spec)

    message = str(caught.value)
    assert repr(spec) in message
    assert all(provider in message for provider in PROVIDERS)


@pytest.mark.parametrize("spec", ["openrouter:", "google-gla:   ", "script:", "modal:"])
def test_a_provider_without_a_model_name_is_refused(spec: str) -> None:
    with pytest.raises(ModelConfigError, match="has no model name"):
        split_model_string(spec)


def test_test_is_pydantic_ais_test_model(project: Path) -> None:
    assert isinstance(resolve_model("test", Settings()), TestModel)


def test_script_is_the_scripted_model_of_that_file(project: Path) -> None:
    script = project / "turns.json"
    script.write_text(json.dumps([{"text": "hi"}]))

    model = resolve_model(f"script:{script}", Settings())

    assert isinstance(model, ScriptedModel)
    assert model.model_name == f"script:{script}"


def test_a_script_path_may_start_with_the_home_directory(project: Path) -> None:
    # The suite points HOME at an empty temporary directory.
    (Path.home() / "turns.json").write_text(json.dumps([{"text": "hi"}]))

    model = resolve_model("script:~/turns.json", Settings())

    assert isinstance(model, ScriptedModel)
    assert model.responses[0].text == "hi"


def test_a_missing_script_is_a_configuration_error(project: Path) -> None:
    with pytest.raises(ModelConfigError, match="does not exist"):
        resolve_model("script:nowhere.json", Settings())


def test_gemini_goes_through_google_genai_at_the_configured_address(project: Path) -> None:
    model = resolve_model("google-gla:gemini-flash-latest", Settings(gemini_api_key="g-key", gemini_base_url=LOCAL))

    assert isinstance(model, RetryingModel)
    assert isinstance(model.wrapped, GoogleModel)
    assert model.model_name == "gemini-flash-latest"
    assert model.base_url == LOCAL


def test_openrouter_uses_its_key_and_address_with_sdk_retries_off(project: Path) -> None:
    settings = Settings(openrouter_api_key="or-key", request_timeout=42)

    model = resolve_model("openrouter:qwen/qwen3-coder", settings)

    assert isinstance(model, RetryingModel)
    assert isinstance(model.wrapped, OpenRouterModel)
    client = model.wrapped.client
    assert (str(client.base_url), client.api_key) == ("https://openrouter.ai/api/v1/", "or-key")
    assert client.max_retries == 0  # RetryingModel is the one retry policy
    assert client.timeout == 42


def test_modal_talks_openai_to_the_endpoint_with_its_token(project: Path) -> None:
    settings = Settings(modal_llm_url=f"{LOCAL}/v1", modal_llm_token="modal-token")

    model = resolve_model("modal:qwen3-coder", settings)

    assert isinstance(model, RetryingModel)
    assert isinstance(model.wrapped, OpenAIChatModel)
    assert model.model_name == "qwen3-coder"
    assert (str(model.wrapped.client.base_url), model.wrapped.client.api_key) == (f"{LOCAL}/v1/", "modal-token")


def test_openai_compatible_servers_need_no_key(project: Path) -> None:
    model = resolve_model("openai-compatible:llama3.2:3b", Settings(openai_base_url=f"{LOCAL}/v1"))

    assert isinstance(model, RetryingModel)
    assert isinstance(model.wrapped, OpenAIChatModel)
    assert model.model_name == "llama3.2:3b"
    assert str(model.wrapped.client.base_url) == f"{LOCAL}/v1/"
    assert model.wrapped.client.api_key == "not-needed"  # the SDK insists on some key


def test_openai_compatible_servers_get_the_key_when_set(project: Path) -> None:
    settings = Settings(openai_base_url=f"{LOCAL}/v1", openai_api_key="local-key")

    model = resolve_model("openai-compatible:llama3.2", settings)

    assert isinstance(model, RetryingModel)
    assert isinstance(model.wrapped, OpenAIChatModel)
    assert model.wrapped.client.api_key == "local-key"


def test_network_models_retry_as_the_settings_say(project: Path) -> None:
    def on_retry(error: BaseException, attempt: int, delay: float) -> None:
        pass

    settings = Settings(openai_base_url=LOCAL, max_retries=5, retry_base_delay=0.25)
    model = resolve_model("openai-compatible:m", settings, on_retry=on_retry)

    assert isinstance(model, RetryingModel)
    assert (model.max_retries, model.base_delay, model.on_retry) == (5, 0.25, on_retry)


@pytest.mark.parametrize(
    ("spec", "variable"),
    [
        ("google-gla:gemini-flash-latest", "GEMINI_API_KEY"),
        ("openrouter:qwen/qwen3-coder", "OPENROUTER_API_KEY"),
        ("modal:qwen3-coder", "DECODE_MODAL_LLM_URL"),
        ("openai-compatible:llama3.2", "OPENAI_BASE_URL"),
    ],
)
def test_a_missing_key_names_the_variable_and_the_env_file(project: Path, spec: str, variable: str) -> None:
    settings = Settings()

    with pytest.raises(MissingKeyError) as caught:
        resolve_model(spec, settings)

    assert caught.value.variable == variable
    message = str(caught.value)
    assert message.startswith(f"{variable} is not set")
    assert str(project.resolve() / ".env") in message
    assert str(settings.env_file) in message
