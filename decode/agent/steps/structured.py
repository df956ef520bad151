"""The structured-output step (lesson 20): `--json-schema` makes the final answer a validated object."""

from decode.agent.build import Build


def structured_output(b: Build) -> None:
    """With a schema asked for, every run of the agent answers with an object that validates against it."""
    if b.options.output_schema is not None:
        from decode.agent.structured import SchemaAgent

        b.agent = SchemaAgent(b.agent, b.options.output_schema)  # ty: ignore[invalid-assignment]
