"""The permission steps (lesson 06): the mode, the Permission Gate, and the capabilities that ask it."""

from decode.agent.build import Build
from decode.config.redaction import redactor_for
from decode.permissions.gate import PermissionGate
from decode.permissions.hook import PermissionHook
from decode.permissions.redaction import SecretRedaction
from decode.permissions.situation import PermissionSituation
from decode.tools.escaped_names import EscapedNames


def choose_mode(b: Build) -> None:
    """The mode asked for; None leaves it to the settings files (`defaultMode`), else `default`."""
    b.mode = b.options.permission_mode


def build_gate(b: Build) -> None:
    """The Permission Gate, with the rules of the settings files. The rules are the Harness Home's;
    the paths they judge, the Workspace's (lesson 19: a `--repo` clone's own)."""
    b.gate = PermissionGate.from_settings(
        b.options.home,
        mode=b.mode,
        realpath=b.executor.realpath,
        secret_files=b.settings.secret_files,
        scope=b.options.workspace,  # [lesson 19]
        trust_project=b.options.trust_project_settings,
        other_grants=b.catalog.grants,  # the project's agents are trusted with its settings  # [lesson 15]
        command_line=b.options.settings_layer,  # `--settings FILE_OR_JSON`
    )


def guard(b: Build) -> None:
    """The capabilities around every tool call: names as the files spell them, the gate, no secrets out."""
    b.capabilities += [
        EscapedNames(),  # a `caf\xe9.txt` path argument becomes the real name before the gate judges it
        PermissionHook(b.gate, harness_home=b.options.home, approve=b.options.approve),
        SecretRedaction(redactor_for(b.settings)),  # decode's keys never reach the model in a tool result
        # The model is told the mode (and that no one can approve, headless); plan mode offers only reads.
        PermissionSituation(b.gate, headless=b.options.approve is None),
    ]
