"""Show the model in use, which keys are set, and the aliases.

`decode models` answers "what can I run here?" without sending anything anywhere:

    model     sonnet → anthropic:claude-sonnet-5 (DECODE_MODEL)  ready

    provider            needs                 key
    anthropic:          ANTHROPIC_API_KEY     set
    openai:             OPENAI_API_KEY        not set
    …

    alias       model
    sonnet      anthropic:claude-sonnet-5     ready
    fast        openai:gpt-5-mini             not ready (yours)

A key's value is never printed, only whether it is set. Exit codes: 0, or 2 for a bad setting.
"""

import click


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
def models() -> None:
    """List the model in use, each provider with the key it needs (set or not, never its value) and
    the model aliases (`sonnet`, `gpt-5`…; add yours in DECODE_MODEL_ALIASES).

    `decode run --model NAME` and `/model NAME` take a model string (`anthropic:claude-sonnet-5`) or an alias.
    """
    from decode.config.loading import ConfigError, load_settings
    from decode.models.catalog import aliases, is_ready, provider_keys

    try:
        settings = load_settings()
    except ConfigError as exc:
        click.echo(f"decode: error: {exc}", err=True)
        raise SystemExit(2) from None
    ready = {True: "ready", False: "not ready"}
    model, full = settings.model, settings.expand_alias(settings.model)
    named = model if full == model else f"{model} → {full}"
    where = "DECODE_MODEL" if "model" in settings.model_fields_set else "the default"
    click.echo(f"model     {named} ({where})  {ready[is_ready(model, settings)]}")
    click.echo(f"thinking  {settings.thinking or 'the model default'} (DECODE_THINKING)")

    keys = provider_keys(settings)
    width = max(len(key.needs) for key in keys)
    click.echo(f"\n{'provider':<20}{'needs':<{width + 2}}key")
    for key in keys:
        click.echo(f"{key.provider + ':':<20}{key.needs:<{width + 2}}{'set' if key.ready else 'not set'}")
    click.echo(f"{'test, script:PATH':<20}{'nothing':<{width + 2}}offline")

    table = aliases(settings)
    name_width = max(len(alias.name) for alias in table)
    model_width = max(len(alias.model) for alias in table)
    click.echo(f"\n{'alias':<{name_width + 2}}model")
    for alias in table:
        state = ready[is_ready(alias.model, settings)] + (" (yours)" if alias.yours else "")
        click.echo(f"{alias.name:<{name_width + 2}}{alias.model:<{model_width + 2}}{state}")
