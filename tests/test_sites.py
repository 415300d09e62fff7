"""Documentation sites' configuration (sites.py): pages Docusaurus compiles as MDX,
and sites that render every line break, at either end of the range."""

from pathlib import Path

import pytest
from manifests import files_by_path, manifest_of
from repos import two_commits

from gitreview.sites import Site, candidates, site_folders, site_of

PROSE = "# Guide\n\nRun the tool once a day, and read\nwhat it prints before you go on.\n"
REWRAPPED = "# Guide\n\nRun the tool once a day, and read what\nit prints before you go on.\n"


def verdict(
    tmp_path: Path, site: dict[str, str], page: str, new_site: dict[str, str] | None = None
) -> tuple[str, list[str]]:
    old = {**site, page: PROSE}
    new = {**(site if new_site is None else new_site), page: REWRAPPED}
    repo = two_commits(tmp_path / "repo", old, new)
    entry = files_by_path(manifest_of("--repo", repo, "HEAD"))[page]
    return entry["classification"], entry["reasons"]


def test_a_re_wrapped_paragraph_alone_is_reflow(tmp_path: Path) -> None:
    assert verdict(tmp_path, {}, "docs/guide.md") == ("trivial", ["reflow"])


@pytest.mark.parametrize(
    ("site", "page"),
    [
        ({"mkdocs.yml": "site_name: x\nmarkdown_extensions:\n  - nl2br\n"}, "docs/guide.md"),
        ({"hugo.toml": "[markup.goldmark.renderer]\nhardWraps = true\n"}, "content/guide.md"),
        ({"_config.yml": "kramdown:\n  hard_wrap: true\n"}, "guide.md"),
        ({"package.json": '{"dependencies": {"remark-breaks": "^4.0.0"}}'}, "docs/guide.md"),
        (
            {"docs/.vitepress/config.ts": "export default { markdown: { breaks: true } }\n"},
            "docs/guide.md",
        ),
        # Docusaurus compiles `.md` as MDX: in its site, and in the folder it names.
        ({"website/docusaurus.config.js": "module.exports = {};\n"}, "website/docs/guide.md"),
        (
            {"website/docusaurus.config.js": "module.exports = {docs: {path: '../docs'}};\n"},
            "docs/guide.md",
        ),
        # A review of the fix: a site one folder down, eleventy's TypeScript
        # configuration, Quarto's hard_line_breaks.
        ({"docs/site/docusaurus.config.js": "module.exports = {};\n"}, "docs/site/docs/guide.md"),
        ({"eleventy.config.ts": "md.set({ breaks: true })\n"}, "docs/guide.md"),
        ({"_quarto.yml": "format:\n  html:\n    from: markdown+hard_line_breaks\n"}, "guide.md"),
    ],
)
def test_a_site_that_renders_line_breaks_or_mdx_refuses_reflow(
    tmp_path: Path, site: dict[str, str], page: str
) -> None:
    # Found by adversarial reviews: each was `reflow`.
    assert verdict(tmp_path, site, page)[0] == "significant"


def test_the_range_cannot_drop_the_setting_that_makes_its_review_stricter(tmp_path: Path) -> None:
    site = {"mkdocs.yml": "site_name: x\nmarkdown_extensions:\n  - nl2br\n"}
    dropped = {"mkdocs.yml": "site_name: x\n"}
    assert verdict(tmp_path, site, "docs/guide.md", dropped)[0] == "significant"


def test_a_site_elsewhere_does_not_reach_other_pages() -> None:
    site = site_of({"website/docusaurus.config.js": b"module.exports = {};\n"})
    assert site.mdx_at("website/docs/a.md") == "website/docusaurus.config.js"
    assert site.mdx_at("README.md") == ""
    assert Site().breaks_at("docs/a.md") == ""


def test_the_configurations_looked_for() -> None:
    folders = site_folders(["apps/docs/docs/intro.md", "guide/en/deep/a.md"])
    assert {"", "website", "docs", "apps/docs", "apps", "guide"} <= set(folders)
    assert not {"apps/docs/docs", "guide/en", "guide/en/deep"} & set(folders)
    listing = {"": frozenset({"config", "README.md"}), "apps/docs": frozenset({"mkdocs.yml"})}
    hugo = [
        f"{n}.{e}" for n in ("hugo", "config", "markup") for e in ("toml", "yaml", "yml", "json")
    ]
    expected = [f"config/_default/{name}" for name in hugo] + ["apps/docs/mkdocs.yml"]
    assert candidates(listing) == expected
