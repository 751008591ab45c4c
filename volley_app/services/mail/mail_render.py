"""Emails from templates: one Jinja2 file per email in ``volley_app/templates/email/<name>.jinja``.

A template names its parts as blocks:

- ``subject``: one line;
- ``text``: the plain-text body;
- ``html`` (optional): the HTML part, rendered with autoescaping. An email without it gets the HTML part
  drawn from its text when it is sent (:func:`html_from_text`): the same paragraphs, every address a link.

The HTML part is built from the same source as the text: ``plain("block")`` is a block of the template
rendered as text, ``paragraphs`` turns text into escaped HTML paragraphs and ``document`` wraps them as a
message, exactly as :func:`html_from_text` does. Files whose name starts with ``_`` are pieces that
templates include. Every variable a template uses must be given (``StrictUndefined``).
"""

from __future__ import annotations

import dataclasses
import html
import re
from collections.abc import Mapping
from pathlib import Path

import jinja2
import jinja2.meta
from markupsafe import Markup

TEMPLATE_DIR = Path(__file__).resolve().parents[2] / "templates" / "email"
SUFFIX = ".jinja"


@dataclasses.dataclass(frozen=True)
class Email:
    """A rendered email: ``html`` is None when the HTML part is drawn from the text at sending."""

    subject: str
    text: str
    html: str | None = None


# -- HTML from text -------------------------------------------------------------------------------------------

_URL = re.compile(r"https?://[^\s<>\"]+")
# Long addresses break anywhere rather than widen a phone's mail view.
_WRAP = "overflow-wrap:anywhere;word-break:break-word"
# A line that is a label and one address ("Accept: https://..."): the label is the link.
_LABELLED = re.compile(r"^(?P<label>[^:]{1,60}):\s+(?P<url>https?://[^\s<>\"]+)\s*$")
_HEAD = (
    '<!doctype html><html><head><meta name="viewport" content="width=device-width, initial-scale=1"></head>'
    f'<body style="font-family: sans-serif; line-height: 1.5; {_WRAP}">\n'
)


def _anchor(href: str, label: str) -> str:
    return f'<a href="{html.escape(href)}" style="{_WRAP}">{html.escape(label)}</a>'


def _linked(line: str) -> str:
    labelled = _LABELLED.match(line)
    if labelled:
        return _anchor(labelled["url"], labelled["label"].strip())
    out, last = [], 0
    for found in _URL.finditer(line):
        out += [html.escape(line[last : found.start()]), _anchor(found.group(), found.group())]
        last = found.end()
    return "".join([*out, html.escape(line[last:])])


def paragraphs(text: str) -> Markup:
    """``text`` as escaped HTML: its paragraphs and line breaks kept, its addresses as links.

    A line "Label: address" becomes the label as a link; any other address is a link that wraps, so no
    address runs past the edge of a phone's screen.
    """
    found = [p for p in re.split(r"\n\s*\n", str(text).strip()) if p.strip()]
    # Every piece of the text went through html.escape (_linked).
    return Markup("\n".join(f"<p>{'<br>'.join(_linked(line) for line in p.splitlines())}</p>" for p in found))  # noqa: S704


def document(body: str) -> Markup:
    """``body`` (HTML) as a whole message, readable on a phone."""
    return Markup(f"{_HEAD}{body}</body></html>\n")  # noqa: S704 - ``body`` is HTML the caller escaped


def html_from_text(text: str) -> str:
    """The HTML part of a plain-text message: :func:`paragraphs` of it as a whole message."""
    return str(document(paragraphs(text) + "\n"))


def button(label: str, href: str, colour: str = "#1f6feb") -> Markup:
    """A link drawn as a button, for the HTML part of a message."""
    return Markup(  # noqa: S704 - each value escaped
        f'<a href="{html.escape(href)}" style="display:inline-block;padding:10px 18px;margin:4px 8px 4px 0;'
        f'background:{html.escape(colour)};color:#ffffff;text-decoration:none;border-radius:6px">{html.escape(label)}</a>'
    )


# -- templates ------------------------------------------------------------------------------------------------


def _environment(*, autoescape: bool) -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATE_DIR),
        autoescape=autoescape,  # noqa: S701 - off only for the plain-text parts; the HTML part is escaped
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters.update(paragraphs=paragraphs, document=document)
    env.globals.update(button=button)
    return env


_TEXT = _environment(autoescape=False)
_HTML = _environment(autoescape=True)


def names() -> list[str]:
    """Every email's template name (the pieces, ``_*``, left out)."""
    return sorted(p.name.removesuffix(SUFFIX) for p in TEMPLATE_DIR.glob(f"[!_]*{SUFFIX}"))


def variables(name: str) -> set[str]:
    """The values the template ``name`` asks for, those of the pieces it includes too (not its helpers)."""
    found: set[str] = set()
    todo, seen = [name + SUFFIX], set()
    loader = _TEXT.loader
    assert loader is not None  # the environment reads the template folder
    while todo:
        file = todo.pop()
        if file in seen:
            continue
        seen.add(file)
        source = loader.get_source(_TEXT, file)[0]
        tree = _TEXT.parse(source)
        found |= jinja2.meta.find_undeclared_variables(tree)
        todo += [t for t in jinja2.meta.find_referenced_templates(tree) if t]
    return found - set(_TEXT.globals) - {"plain"}


def _block(template: jinja2.Template, name: str, values: Mapping[str, object]) -> str:
    if name not in template.blocks:
        raise KeyError(f"email template {template.name} has no block {name!r}")
    context = template.new_context(dict(values))
    return "".join(template.blocks[name](context))


def render(name: str, values: Mapping[str, object]) -> Email:
    """The email of the template ``name`` with ``values``.

    Raises:
        jinja2.TemplateNotFound: no such template.
        jinja2.UndefinedError: the template uses a value that ``values`` lacks.
    """
    text_template = _TEXT.get_template(name + SUFFIX)
    subject = _block(text_template, "subject", values).strip()
    text = _block(text_template, "text", values)
    body_html = None
    if "html" in text_template.blocks:

        def plain(block: str) -> str:
            return _block(text_template, block, values)

        body_html = _block(_HTML.get_template(name + SUFFIX), "html", {**values, "plain": plain})
    return Email(subject=subject, text=text, html=body_html)
