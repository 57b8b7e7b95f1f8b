"""Documents from templates: Markdown by Jinja2, HTML from that Markdown by markdown-it.

One Markdown template per document (``templates/*.md.j2``); the HTML page is the same
Markdown rendered by markdown-it-py (CommonMark with tables, raw HTML off) inside
``templates/page.html.j2``, with an anchor on each heading and a table of contents. Figures
are linked as PNG files beside the Markdown and embedded as data URIs in the HTML.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup

from simulate.analysis import formatting

_NUMERIC = re.compile(r"^[-+−–∞\[(]?\s*[0-9.∞–-]")


@dataclass(frozen=True)
class Table:
    """A table for a template: header, rows of strings, and ``l``/``r`` per column."""

    columns: list[str]
    rows: list[list[str]]
    align: str


def table(columns: Sequence[str], rows: Iterable[Sequence[Any]]) -> Table:
    """A :class:`Table`; a column whose every cell reads as a number is right-aligned, text
    columns left-aligned."""
    body = [[str(c) for c in r] for r in rows]
    align = ""
    for i in range(len(columns)):
        cells = [r[i] for r in body if i < len(r) and r[i] not in ("", "–")]
        numeric = bool(cells) and all(_NUMERIC.match(c) for c in cells)
        align += "r" if numeric else "l"
    return Table(list(columns), body, align)


def text(t: Table) -> str:
    """A :class:`Table` as plain text: a header, a rule, and the rows, each column padded to
    its widest cell (text columns left-aligned, numbers right-aligned), values as printed,
    no quotes and no types (for a notebook or a terminal)."""
    widths = [max(len(str(c)) for c in [col, *(r[i] for r in t.rows)]) for i, col in
              enumerate(t.columns)]  # fmt: skip

    def line(cells: Sequence[str]) -> str:
        return "  ".join(
            c.ljust(w) if a == "l" else c.rjust(w)
            for c, w, a in zip(cells, widths, t.align, strict=True)
        ).rstrip()

    return "\n".join([line(t.columns), line(["-" * w for w in widths]), *map(line, t.rows)])


@dataclass(frozen=True)
class Figure:
    """A saved figure and its caption."""

    path: Path
    caption: str


def _cell(text: Any) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def markdown_table(t: Table) -> str:
    """A :class:`Table` as Markdown, as the templates' ``table`` macro writes it (for a
    game's own report sections, whose bodies are Markdown)."""
    lines = [
        "| " + " | ".join(_cell(c) for c in t.columns) + " |",
        "|" + "".join(f" {':---' if a == 'l' else '---:'} |" for a in t.align),
        *("| " + " | ".join(_cell(c) for c in row) + " |" for row in t.rows),
    ]
    return "\n".join(lines)


def _environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("simulate.analysis", "templates"),
        autoescape=jinja2.select_autoescape(enabled_extensions=("html",), default=False),
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        undefined=jinja2.StrictUndefined,
    )
    env.filters["cell"] = _cell
    for name in formatting.__all__:
        env.filters[name] = getattr(formatting, name)
    return env


_ENV: list[jinja2.Environment] = []  # built once per process, on first use


def environment() -> jinja2.Environment:
    if not _ENV:
        _ENV.append(_environment())
    return _ENV[0]


def _data_uri(path: Path) -> str:
    from simulate.analysis.figures import data_uri  # matplotlib loads with the figures anyway

    return data_uri(path)


def _file_link(path: Path) -> str:
    return Path(path).name


def markdown(template: str, image: Callable[[Path], str] = _file_link, **context: Any) -> str:
    """Render a Markdown template; ``image`` turns a figure's path into its link."""
    text = environment().get_template(template).render(image=image, **context)
    return re.sub(r"\n{3,}", "\n\n", text).strip() + "\n"


def html(template: str, page_title: str, **context: Any) -> str:
    """Render a Markdown template as a self-contained HTML page (figures embedded)."""
    from markdown_it import MarkdownIt
    from mdit_py_plugins.anchors import anchors_plugin

    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    md.use(anchors_plugin, min_level=1, max_level=3)
    tokens = md.parse(markdown(template, image=_data_uri, **context))
    toc = [
        (tok.attrs.get("id"), tokens[i + 1].content)
        for i, tok in enumerate(tokens)
        if tok.type == "heading_open" and tok.tag == "h2"
    ]
    body = md.renderer.render(tokens, md.options, {})
    # The contents go after the header block (title, warning, verdict, provenance): before the
    # h2 that follows the Provenance section (else the second h2).
    start = body.find('<h2 id="provenance"')
    cut = body.find("<h2", (start if start >= 0 else body.find("<h2")) + 1)
    head, rest = (body[:cut], body[cut:]) if cut > 0 else (body, "")
    page = environment().get_template("page.html.j2")
    return page.render(title=page_title, head=Markup(head), toc=toc, body=Markup(rest))
