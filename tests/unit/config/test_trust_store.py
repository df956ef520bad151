"""Project Trust's memory: a yes is kept per project for one fingerprint; another content asks again."""

from pathlib import Path

from decode.config.trust_store import fingerprint, is_trusted, remember


def test_a_remembered_fingerprint_is_trusted_and_another_is_not(tmp_path: Path) -> None:
    store, project = tmp_path / "home" / ".decode" / "trusted-x.json", tmp_path / "project"
    project.mkdir()
    digest = fingerprint({"allow": ["Bash(ls)"]})
    assert not is_trusted(store, project, digest)
    assert remember(store, project, digest) == store
    assert is_trusted(store, project, digest)
    assert not is_trusted(store, project, fingerprint({"allow": ["Bash(ls)", "Bash(curl:*)"]}))
    assert not is_trusted(store, tmp_path, digest)  # another project


def test_a_broken_store_trusts_nothing_and_is_rewritten(tmp_path: Path) -> None:
    store = tmp_path / "trusted.json"
    store.write_text("{oops")
    digest = fingerprint(["x"])
    assert not is_trusted(store, tmp_path, digest)
    remember(store, tmp_path, digest)
    assert is_trusted(store, tmp_path, digest)
