"""Prose traps found by review: edits the `typo` and `reflow` rules once called trivial
although they change what a tool reads or what a reader understands. Each case is a
tiny real repository, one commit before and one after; the file must be significant."""

from pathlib import Path

import pytest
from manifests import files_by_path, manifest_of
from repos import before_and_after

from gitreview.classify.prose_words import _words, listed, typo_edits

# (file name, old text, new text)
TRAPS: dict[str, tuple[str, str, str]] = {
    # 1. Comments that tools read.
    "c-fallthrough": (
        "a.c",
        "void s(int x) {\n  switch (x) {\n  case 1:\n    f();\n    /* fallthrough */\n"
        "  case 2:\n    g();\n  }\n}\n",
        "void s(int x) {\n  switch (x) {\n  case 1:\n    f();\n    /* fallthough */\n"
        "  case 2:\n    g();\n  }\n}\n",
    ),
    "c-falls-through": (
        "b.c",
        "void s(int x) {\n  switch (x) {\n  case 1:\n    f();\n    // falls through\n"
        "  case 2:\n    g();\n  }\n}\n",
        "void s(int x) {\n  switch (x) {\n  case 1:\n    f();\n    // falls thorugh\n"
        "  case 2:\n    g();\n  }\n}\n",
    ),
    "js-c8": (
        "a.js",
        "/* c8 ignore start */\nexport function f() {\n  return 1\n}\n/* c8 ignore stop */\n",
        "/* c8 ignored start */\nexport function f() {\n  return 1\n}\n/* c8 ignore stop */\n",
    ),
    "java-noinspection": (
        "A.java",
        "class A {\n  //noinspection unchecked\n  void f() {}\n}\n",
        "class A {\n  //noinspection unchecke\n  void f() {}\n}\n",
    ),
    "py-vim": (
        "a.py",
        "x = 1\n# vim: set expandtab:\n",
        "x = 1\n# vim: set expandtabs:\n",
    ),
    "py-coding": (
        "b.py",
        "# coding: latin-1\nx = 1\n",
        "# codings: latin-1\nx = 1\n",
    ),
    "py-emacs": (
        "c.py",
        "# -*- mode: python -*-\nx = 1\n",
        "# -*- mode: pythn -*-\nx = 1\n",
    ),
    "py-keyword-prefix": (
        "d.py",
        "x = 1\n# isort: skip_file\n# deploy-hook: restart servcie\n",
        "x = 1\n# isort: skip_file\n# deploy-hook: restart service\n",
    ),
    "py-todo-owner": (
        "e.py",
        "x = 1  # TODO(alice) remove after the migratoin\n",
        "x = 1  # TODO(alice) remove after the migration\n",
    ),
    "c-nolint": (
        "c.c",
        "int x;  // NOLINT(readability-magic-numbers)\nint y;  // lint ignore this\n",
        "int x;  // NOLINT(readability-magic-numbers)\nint y;  // lint ignores this\n",
    ),
    # 2. Negation in a later part of a compound word.
    "case-insensitive": (
        "a.md",
        "Lookups are case-sensitive.\n",
        "Lookups are case-insensitive.\n",
    ),
    "backward-incompatible": (
        "b.md",
        "This release is backward-compatible.\n",
        "This release is backward-incompatible.\n",
    ),
    "user-invisible": (
        "c.md",
        "The change is user-visible.\n",
        "The change is user-invisible.\n",
    ),
    "well-undefined": (
        "d.txt",
        "The order is well-defined.\n",
        "The order is well-undefined.\n",
    ),
    "inimitable": (
        "e.md",
        "Its style is inimitable.\n",
        "Its style is imitable.\n",
    ),
    # 3. Numbers, units and plurals.
    "sixty": ("n1.md", "Wait sixty seconds.\n", "Wait sixth seconds.\n"),
    "seventy": ("n2.md", "Keep seventy copies.\n", "Keep seventh copies.\n"),
    "fourteen": ("n3.md", "Keep fourteen copies.\n", "Keep fourteenth copies.\n"),
    "forty": ("n4.md", "Keep forty copies.\n", "Keep fort copies.\n"),
    "tenths": ("n5.md", "Round to a tenth here.\n", "Round to a tenths here.\n"),
    "decimeter": ("n6.md", "The step is one decimeter.\n", "The step is one decameter.\n"),
    "biennial": ("n7.md", "The review is biannual.\n", "The review is biennial.\n"),
    "owners": ("n8.md", "Ask the owner first.\n", "Ask the owners first.\n"),
    "replicas": ("n9.md", "Start a replica there.\n", "Start a replicas there.\n"),
    "errors-comment": (
        "n10.py",
        "x = 1  # report the error here\n",
        "x = 1  # report the errors here\n",
    ),
    # 4. Another form of the same word: a tense, an agent for an action.
    "iterator": ("f1.md", "Call next on the iteration.\n", "Call next on the iterator.\n"),
    "created": ("f2.md", "The file is creates here.\n", "The file is created here.\n"),
    # 5. A real word for another, one letter apart: the sentence says something else.
    "form": ("w1.md", "Copy the file from the server.\n", "Copy the file form the server.\n"),
    "warn": ("w2.txt", "Please warm the users first.\n", "Please warn the users first.\n"),
    "cast": ("w3.md", "The cost is shown here.\n", "The cast is shown here.\n"),
    "fire-comment": ("w4.py", "x = 1  # file the report\n", "x = 1  # fire the report\n"),
    # 6. GitHub-flavoured Markdown.
    "task-list": ("t.md", "- [ ] todo\n", "- [  ] todo\n"),
    "footnote": (
        "fn.md",
        "See this. [^1]:\nfoo bar\n\nx[^1]\n",
        "See this.\n[^1]: foo bar\n\nx[^1]\n",
    ),
    # 7. Re-indented, not re-wrapped (found by a twelfth adversarial review): the same
    # for markdown-it, not for MkDocs' Python-Markdown (four spaces nest), Hugo's
    # definitions or MkDocs' admonitions.
    "list-reindented": (
        "docs/install.md",
        "1. Install\n\n    - pip\n    - venv\n\n2. Run\n",
        "1. Install\n\n   - pip\n   - venv\n\n2. Run\n",
    ),
    "definition-code-indented": (
        "content/logging.md",
        "term\n: the definition\n\n```sh\nhugo --logLevel debug\n```\n",
        "term\n: the definition\n\n  ```sh\n  hugo --logLevel debug\n  ```\n",
    ),
    # A review of the fix: re-indented and re-wrapped, or a trailing space dropped too.
    "list-reindented-rewrapped": (
        "docs/guide.md",
        "- Install\n\n    Run the installer and\n    wait for it.\n",
        "- Install\n\n  Run the installer\n  and wait for it.\n",
    ),
    "list-reindented-trimmed": (
        "docs/tips.md",
        "1. Step\n\n    - pip \n    - venv \n",
        "1. Step\n\n   - pip\n   - venv\n",
    ),
    # A third review: a sub-list moved in under its item, the lines around re-wrapped.
    "sub-list-reindented-rewrapped": (
        "docs/setup.md",
        "# Setup\n\n- Install the tool from the\n  website\n  - run the installer\n"
        "    with defaults\n- Configure it\n",
        "# Setup\n\n- Install the tool from\n  the website\n    - run the\n"
        "    installer with defaults\n- Configure it\n",
    ),
    "admonition-dedented": (
        "docs/upgrade.md",
        "!!! warning\n    Back up the data first.\n    Then stop the server.\n",
        "!!! warning\n    Back up the data first.\nThen stop the server.\n",
    ),
}


@pytest.mark.parametrize("case", sorted(TRAPS))
def test_trap_is_significant(tmp_path: Path, case: str) -> None:
    name, old, new = TRAPS[case]
    repo = before_and_after(tmp_path / "repo", name, old, new)
    entry = files_by_path(manifest_of("--repo", repo, "HEAD"))[name]
    assert entry["classification"] == "significant", entry


# Genuine typos next to the traps stay typos.
@pytest.mark.parametrize(
    ("name", "old", "new"),
    [
        ("ok.py", "x = 1  # we recieve it here\n", "x = 1  # we receive it here\n"),
        ("ok.md", "We recieve it here.\n", "We receive it here.\n"),
        ("ok2.md", "It is case-sensitve.\n", "It is case-sensitive.\n"),
        ("ok.c", "int x;  /* the memroy is ours */\n", "int x;  /* the memory is ours */\n"),
        # Misspelt endings are still typos: only a swap of whole endings is a new form.
        ("ok3.md", "It is runing, it occured.\n", "It is running, it occurred.\n"),
        ("ok4.md", "Two specifed assignements.\n", "Two specified assignments.\n"),
        # One word's British and American spellings.
        ("ok5.md", "Merge each row with its neighbours.\n", "Merge each row with its neighbors.\n"),
        ("docs/ok6.txt", "The center of the page.\n", "The centre of the page.\n"),
    ],
)
def test_genuine_typo_stays_trivial(tmp_path: Path, name: str, old: str, new: str) -> None:
    repo = before_and_after(tmp_path / "repo", name, old, new)
    entry = files_by_path(manifest_of("--repo", repo, "HEAD"))[name]
    assert (entry["classification"], entry["reasons"]) == ("trivial", ["typo"]), entry


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("case-sensitive", "case-insensitive"),
        ("backward-compatible", "backward-incompatible"),
        ("user-visible", "user-invisible"),
        ("well-defined", "well-undefined"),
        ("inimitable", "imitable"),
        ("sixty", "sixth"),
        ("seventy", "seventh"),
        ("fourteen", "fourteenth"),
        ("forty", "fort"),
        ("tenth", "tenths"),
        ("decimeter", "decameter"),
        ("biannual", "biennial"),
        ("owner", "owners"),
        ("replica", "replicas"),
        ("error", "errors"),
        ("boxes", "boxe"),
        ("policy", "policies"),
        ("kilometer", "kilometers"),
        ("eightieth", "eighteenth"),
        # Another form of the same stem, found in rust-lang/book's history: a tense, a
        # noun for an agent, a participle (the book fixed "iteration" to "iterator").
        ("iteration", "iterator"),
        ("creates", "created"),
        ("generates", "generated"),
        ("resulting", "resultant"),
        ("thread-base", "thread-based"),
        ("existant", "existent"),
        # Both English words: a word for another, not a misspelling of it.
        ("from", "form"),
        ("warm", "warn"),
        ("cost", "cast"),
        ("site", "size"),
        ("file", "fire"),
        ("wait", "want"),
        ("sheep", "sleep"),
        ("cause", "case"),
        # Words of both Englishes, whatever else one of them spells them.
        ("story", "storey"),
        ("meter", "metre"),
        # One dialect's word, the other's another word or another form of it.
        ("analysed", "analyzer"),
        ("acclimatises", "acclimatize"),
        ("furore", "furors"),
        ("nitre", "nite"),
        # Neither is: a name (a command, a setting) may be what changed.
        ("conifg", "config"),
        ("kubctl", "kubectl"),
    ],
)
def test_trap_words_are_no_typo(old: str, new: str) -> None:
    assert typo_edits(old, new) is None
    assert typo_edits(new, old) is None


# -- Front matter decided hunk by hunk (issue 11) ----------------------------------------

BODY = "".join(f"Paragraph {i} of the page, unchanged.\n\n" for i in range(6))
PAGE = (
    "---\ntitle: Release notes\ndate: 2025-11-01\nupdated: 2025-12-01\n---\n\n# Notes\n\n"
    + BODY
    + "Version 2 ships the new parser.\n"
)


@pytest.mark.parametrize(
    ("what", "new", "expected"),
    [
        (
            "`updated:` in the front matter, and the body elsewhere",
            PAGE.replace("2025-12-01", "2026-01-15").replace("Version 2", "Version 3"),
            [("trivial", ["metadata"]), ("significant", ["content"])],
        ),
        (
            # js-yaml (gray-matter: Eleventy, Astro) and Hugo refuse a key named twice.
            "`updated:` named twice",
            PAGE.replace("updated: 2025-12-01", "updated: 2025-12-01\nupdated: 2026-01-15").replace(
                "Version 2", "Version 3"
            ),
            [("significant", ["content"]), ("significant", ["content"])],
        ),
        (
            "the publication `date:` orders and dates a page",
            PAGE.replace("2025-11-01", "2026-01-15").replace("Version 2", "Version 3"),
            [("significant", ["content"]), ("significant", ["content"])],
        ),
        (
            "`updated:` and the title in one hunk",
            PAGE.replace("2025-12-01", "2026-01-15")
            .replace("Release notes", "Release notes 2")
            .replace("Version 2", "Version 3"),
            [("significant", ["content"]), ("significant", ["content"])],
        ),
    ],
)
def test_front_matter_hunks(
    tmp_path: Path, what: str, new: str, expected: list[tuple[str, list[str]]]
) -> None:
    repo = before_and_after(tmp_path / "repo", "notes.md", PAGE, new)
    entry = files_by_path(manifest_of("--repo", repo, "--fail-on", "never", "HEAD"))["notes.md"]
    assert [(h["classification"], h["reasons"]) for h in entry["hunks"]] == expected, what


def test_a_front_matter_hunk_is_proved_in_the_new_file_too(tmp_path: Path) -> None:
    """Another hunk ends the front matter above `updated:` (its closing line dropped,
    so `updated:` is the page's text): the change of date is read on the page."""
    keys = "".join(f"key{i}: value {i}\n" for i in range(8))
    page = f"---\nupdated: 2025-12-01\n{keys}---\n\n# Notes\n\n{BODY}"
    new = page.replace("2025-12-01", "2026-01-15")
    ended = new.replace(f"{keys}---\n", keys)
    beside = new.replace("Paragraph 5 of", "Paragraph five of")  # the same, unended
    for changed in (ended, beside):
        repo = before_and_after(tmp_path / str(len(changed)), "notes.md", page, changed)
        entry = files_by_path(manifest_of("--repo", repo, "--fail-on", "never", "HEAD"))
        first, _ = entry["notes.md"]["hunks"]
        expected = ("significant", ["content"]) if changed == ended else ("trivial", ["metadata"])
        assert (first["classification"], first["reasons"]) == expected, changed


@pytest.mark.parametrize("name", ["english", "american-only", "british-only"])
def test_the_word_lists_are_searched_as_they_are_sorted(name: str) -> None:
    """words/*.txt hold lower-case ASCII words, one a line, sorted as Python sorts them,
    each once: what the binary search over their text needs."""
    text = _words(name)
    words = text.split("\n")
    assert words.pop() == ""  # it ends with a line break
    assert words == sorted(set(words)) and len(words) > 1_000
    assert all(word.isascii() and word.isalpha() and word.islower() for word in words)
    known = set(words)
    for word in words[::37]:
        assert listed(word, name)
        for other in (word + "q", word[:-1], "a" + word, word.upper()):
            assert listed(other, name) == (other in known), other
    if name != "english":
        assert known <= set(_words("english").split())


# A hunk proved harmless in the old file may not be in the new one: another hunk of
# the file can leave a code fence open to the end of the page, and what the first
# hunk changes is then code (found by benchmarks/fuzz_trivial.py in flask's README
# and a tldr page, called `reflow`).
FENCED = "# Title\n\nIntro.\n\n```\n$ flask run\n```\n\n" + "".join(
    f"Paragraph {i} of the page, long enough to be prose.\n\n" for i in range(8)
)
LAST = "We recieve the last\nparagraph here.\n"
LATE_HUNKS = {
    "the final newline dropped": (LAST, LAST[:-1], "line-endings"),
    "the last paragraph re-wrapped": (LAST, "We recieve the last paragraph\nhere.\n", "reflow"),
    "a typo fixed in the last paragraph": (LAST, LAST.replace("recieve", "receive"), "typo"),
}


@pytest.mark.parametrize("fence_left_open", [False, True])
@pytest.mark.parametrize("what", sorted(LATE_HUNKS))
def test_a_hunk_is_proved_in_the_new_file_too(
    tmp_path: Path, what: str, fence_left_open: bool
) -> None:
    old_last, new_last, reason = LATE_HUNKS[what]
    # Four spaces before the closing fence: no longer a fence, so the code runs on.
    closing = "    ```\n" if fence_left_open else "```\n"
    old = FENCED + old_last
    new = FENCED.replace("$ flask run\n```\n", "$ flask run\n" + closing) + new_last
    if not fence_left_open:
        new = new.replace("Intro.", "Introduction.")  # a significant hunk either way
    repo = before_and_after(tmp_path / "repo", "README.md", old, new)
    hunks = files_by_path(manifest_of("--repo", repo, "--fail-on", "never", "HEAD"))["README.md"]
    first, last = hunks["hunks"]
    assert first["classification"] == "significant"
    expected = ("significant", ["content"]) if fence_left_open else ("trivial", [reason])
    assert (last["classification"], last["reasons"]) == expected, what
