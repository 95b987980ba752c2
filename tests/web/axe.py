"""axe-core in a Playwright page (issue 17: WCAG AA contrast): ``assert_no_contrast_violations(page)``.

axe-core (npm ``axe-core`` 4.14.1, MPL-2.0, vendored in tests/web/vendor/axe.min.js with its licences) is
injected with ``page.evaluate`` (the app's CSP allows no inline script; evaluate is not a script tag), then
``axe.run`` checks the page with the WCAG 2 A/AA rules. Only tests use it: nothing is served to players.

    from axe import assert_no_contrast_violations, axe_violations   # tests/web on sys.path
    assert_no_contrast_violations(page)                 # the whole page
    assert_no_contrast_violations(page, "#board")       # one part of it
    axe_violations(page, rules=None)                    # every WCAG A/AA violation, for a report

Each violation is ``{"id", "impact", "help", "nodes": [{"target": [...], "summary": "..."}]}``; a contrast
node's summary names the colours and the ratio axe measured ("Element has insufficient color contrast of
3.5 (foreground color: ..., background color: ..., font size: ..., font weight: ...). Expected contrast
ratio of 4.5:1").
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

AXE_JS = Path(__file__).resolve().parent / "vendor" / "axe.min.js"
#: The axe rule tags of WCAG 2.0/2.1/2.2 levels A and AA.
AA_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
CONTRAST_RULES = ["color-contrast"]


def inject(page: Any) -> None:
    """Put axe into the page (once per document)."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(AXE_JS.read_text(encoding="utf-8") + "\n;void 0")


def axe_violations(page: Any, include: str | None = None, rules: list[str] | None = CONTRAST_RULES) -> list[dict]:
    """The WCAG A/AA violations axe finds in ``page`` (only in ``include``, a CSS selector, if given), limited
    to ``rules`` (default: colour contrast; ``None`` runs every A/AA rule)."""
    inject(page)
    options: dict[str, Any] = {"resultTypes": ["violations"]}
    if rules:
        options["runOnly"] = {"type": "rule", "values": rules}
    else:
        options["runOnly"] = {"type": "tag", "values": AA_TAGS}
    result = page.evaluate(
        """async ([include, options]) => {
            const context = include ? { include: [include] } : document;
            const r = await window.axe.run(context, options);
            return r.violations.map((v) => ({
                id: v.id, impact: v.impact, help: v.help,
                nodes: v.nodes.map((n) => ({ target: n.target, summary: n.failureSummary })),
            }));
        }""",
        [include, options],
    )
    return list(result)


def describe(violations: list[dict]) -> str:
    """Violations as readable lines: rule, target, what axe measured."""
    lines = []
    for v in violations:
        for node in v["nodes"]:
            summary = " ".join(str(node.get("summary") or "").split())
            lines.append(f"{v['id']} {json.dumps(node['target'])}: {summary}")
    return "\n".join(lines)


def assert_no_contrast_violations(page: Any, include: str | None = None) -> list[dict]:
    """Fail, naming every element and its measured contrast, unless axe finds no WCAG AA contrast violation
    in ``page`` (or in ``include``). Returns the (empty) list of violations."""
    violations = axe_violations(page, include)
    assert not violations, "WCAG AA contrast violations:\n" + describe(violations)
    return violations
