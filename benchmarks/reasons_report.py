"""How many hunks each reason catches, on the project's own fixtures.

    python benchmarks/reasons_report.py

Builds every repository of fixtures/repos/ into a temporary folder (the same
way the tests do), classifies its first-to-last range, and prints, per
fixture and in total, how many hunks each trivial reason proves and how many
stay significant. Figures, not assertions.
"""

from __future__ import annotations

import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))


def main() -> int:
    from repos import FIXTURES, build_repo, git

    from gitreview.pipeline import classify_range

    totals: Counter[str] = Counter()
    rows: list[tuple[str, Counter[str]]] = []
    with tempfile.TemporaryDirectory() as folder:
        for spec_file in sorted(FIXTURES.glob("*.yml")):
            repo = build_repo(spec_file.stem, Path(folder) / spec_file.stem)
            root = git(repo, "rev-list", "--max-parents=0", "HEAD").splitlines()[-1]
            counts: Counter[str] = Counter()
            for item in classify_range(repo, f"{root}..HEAD").files:
                for hunk in item.verdict.hunks:
                    key = hunk.reasons[0] if hunk.classification == "trivial" else "significant"
                    counts[key] += 1
            rows.append((spec_file.stem, counts))
            totals.update(counts)
    reasons = [*sorted(key for key in totals if key != "significant"), "significant"]
    width = max(len(name) for name, _ in rows)
    print(f"{'fixture':<{width}} " + " ".join(f"{reason:>12}" for reason in reasons))
    for name, counts in [*rows, ("total", totals)]:
        print(f"{name:<{width}} " + " ".join(f"{counts[reason]:>12}" for reason in reasons))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
