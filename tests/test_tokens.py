"""Token figures are worked out from lengths (issue 12): the same figures as from the
texts they measure."""

from typing import Any

from gitreview import tokens
from gitreview.gitdiff import parse_block

BLOCK = (
    "diff --git a/notes.txt b/notes.txt\n"
    "index 1111111..2222222 100644\n"
    "--- a/notes.txt\n"
    "+++ b/notes.txt\n"
    "@@ -1,3 +1,3 @@\n"
    " café ☕\n"
    "-windows line\r\n"
    "+windows line, edited\r\n"
    " tail\n"
    "@@ -10 +10,2 @@\n"
    "-last\n"
    "\\ No newline at end of file\n"
    "+last\n"
    "+and one more 𝄞\n"
).encode()


def test_a_hunks_length_is_that_of_its_text() -> None:
    hunks = parse_block(BLOCK).hunks
    assert len(hunks) == 2
    for hunk in hunks:
        assert tokens.hunk_chars(hunk) == len(tokens.hunk_text(hunk))


def test_the_manifest_counts_its_own_text_serialized_once() -> None:
    """The manifest's text is made once, its own figure put in place afterwards: a
    subject or a spec that spells the figures out does not take their place."""
    from gitreview.manifest import assemble
    from gitreview.model import Commit, Range
    from gitreview.render.json import serialize

    spelled = '"tokens":{"full":0,"diff":0,"manifest":0,'
    rng = Range(spelled, None, "a" * 40, (Commit("b" * 40, spelled),))
    assembled = assemble(rng, [], [])
    text = "".join(assembled.text)
    assert text == serialize(assembled.manifest)
    assert assembled.manifest["tokens"]["manifest"] == tokens.estimate(text)
    assert assembled.manifest["tokens"]["manifest"] > 0


def test_a_manifest_in_pieces_is_the_manifest() -> None:
    from gitreview.render.json import framed, serialize, value_pieces

    def serialize_pieces(manifest: dict[str, Any]) -> list[str]:
        return framed({key: value_pieces(value) for key, value in manifest.items()})

    manifests: tuple[dict[str, Any], ...] = (
        {},
        {"a": 1},
        {"a": [1, {"b": "é\n"}], "c": None, "d": {"e": 0.5}, "f": [], "g": ["x:"]},
        {"a": [[]], "b": [{"c": [1, {"d": [{}, {"e": "⏎"}]}]}, 3], "h": {1: 2, "i": {}}},
        {"r": {"role": {"items": [{"handle": "a:1", "excerpt": "x ⏎ y"}] * 3, "n": 2}}},
    )
    for manifest in manifests:
        assert "".join(serialize_pieces(manifest)) == serialize(manifest)
        assert "".join(value_pieces(manifest)) == serialize(manifest)[:-1]
        for value in manifest.values():
            assert "".join(value_pieces(value)) == serialize({"k": value})[5:-2]
    # A role's items come out one by one, each whole.
    pieces = serialize_pieces(manifests[-1])
    assert [piece.count('"excerpt"') for piece in pieces if '"excerpt"' in piece] == [1, 1, 1]


def test_the_json_format_never_makes_the_manifests_objects(
    fixture_repo: Any, monkeypatch: Any, capsys: Any
) -> None:
    """Each file's entry is serialized once its report is made (issue 12): printing
    the json format reads nothing back from the text; other formats read it once."""
    import json

    from manifests import validate_manifest

    from gitreview.commands.manifest import run_manifest
    from gitreview.model import Assembled

    made: list[Assembled] = []
    read = vars(Assembled)["manifest"].fget

    def reading(self: Assembled) -> dict[str, Any]:
        made.append(self)
        return read(self)  # type: ignore[no-any-return]

    monkeypatch.setattr(Assembled, "manifest", property(reading))
    repo = str(fixture_repo("kinds"))
    options: dict[str, Any] = dict(spec="v1..v2", repo=repo, patch=None, config=None)
    options |= dict(output=None, fail_on="never", cache=False)
    run_manifest(output_format="json", **options)
    text = capsys.readouterr().out
    assert made == []
    manifest = json.loads(text)
    validate_manifest(manifest)
    assert manifest["files"] and manifest["summary"]["files"]["total"] == len(manifest["files"])
    run_manifest(output_format="text", **options)
    assert len(made) == 1 and made[0].manifest == manifest
