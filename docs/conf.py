"""Sphinx configuration: MyST Markdown pages, API reference from the docstrings.

Build: ``python3 tasks.py docs`` (``sphinx-build -W --keep-going -n -b html docs docs/_build``).
"""

import enum
import sys
from pathlib import Path

import attrs
from docutils import nodes
from sphinx.addnodes import pending_xref
from sphinx.application import Sphinx
from sphinx.domains.python import PythonDomain
from sphinx.environment import BuildEnvironment
from sphinx.ext import napoleon
from sphinx.util import logging

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "docs"))  # _made: the tables made from the code
sys.path.insert(1, str(ROOT))  # the benchmarks, whose commands the figure files name

import high_society  # noqa: E402

project = "high-society"
author = "the high-society authors"
copyright = "2026, the high-society authors"
version = release = high_society.__version__  # the one place: src/high_society/_version.py

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.viewcode",
    "_made",
]
source_suffix = {".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build"]
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3

# API reference: source order, types in the signatures, Google-style sections.
autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_preserve_defaults = True
autodoc_default_options = {"members": True, "show-inheritance": False}
napoleon_google_docstring = True
napoleon_numpy_docstring = False
napoleon_use_ivar = True
add_module_names = False
python_use_unqualified_type_names = True

# -n (nitpicky) checks every cross-reference. The docs build offline, so there is no
# intersphinx inventory for the standard library or attrs: their names are plain text.
nitpick_ignore_regex = [
    ("py:.*", r"(fractions|collections\.abc|typing|argparse|enum|io|os|json|attr|attrs)\..*"),
    ("py:class", r"(Fraction|Sequence|Iterator|Iterable|TextIO|Final|Protocol)"),
    ("py:class", r"(int|str|bool|float|object|tuple|frozenset|dict|list|None|Exception)"),
    ("py:class", r"(ValueError|IndexError|KeyboardInterrupt|OSError)"),
    ("py:exc", r"(ValueError|IndexError|KeyboardInterrupt|OSError)"),
    ("py:class", r"_io\..*"),
    ("py:.*", r"(concurrent\.futures|functools|time)\..*"),
    ("py:(class|obj)", r"(high_society\.(parallel|wire|_shapes)\.)?T(_co)?"),
    # Where a shape is written (a standalone schema's $defs, a document's components):
    # internal, in the signatures of the wire's shapes.
    ("py:class", r"high_society\._shapes\.Schemas"),
    # Internal modules (an underscore part) have no entry of their own: named as plain text.
    ("py:mod", r"high_society(\.\w+)*\._\w+"),
    # The table's parts of one concern each, which Table's reference shows whole.
    ("py:class", r"high_society\.table\._table\._\w+"),
    # The optional adapters' frameworks have no Sphinx inventory here.
    ("py:.*", r"(pyspiel|numpy|gymnasium|pettingzoo|fastapi|starlette|sqlalchemy)\..*"),
    # high_society.batch: the SimulationStats that batch.simulate returns (documented with
    # ``simulate``'s module).
    ("py:class", r"high_society\.simulate\.SimulationStats"),
]

html_theme = "alabaster"
html_title = f"high-society {release}"
html_static_path: list[str] = []


def _public_alias(
    app: Sphinx, env: BuildEnvironment, node: pending_xref, contnode: nodes.TextElement
) -> nodes.Element | None:
    """Resolve ``high_society.<module>.Name`` to ``high_society.Name`` when it is public.

    The API pages document each public name where users import it from (the package), while
    signatures name the module that defines it.
    """
    target = node.get("reftarget", "")
    if node.get("refdomain") != "py":
        return None
    if not target.startswith("high_society."):
        # A bare name from a submodule's docstring, such as ``MAX_JSON_DEPTH``: the one
        # documented object of that name, if there is exactly one.
        domain = env.get_domain("py")
        assert isinstance(domain, PythonDomain)
        matches = [full for full in domain.objects if full.endswith(f".{target}")]
        if f"high_society.{target}" in matches:  # the package's own name, where users import it
            matches = [f"high_society.{target}"]
        if len(matches) != 1 or "." in target:
            return None
        target = matches[0]
        return env.get_domain("py").resolve_xref(
            env, node["refdoc"], app.builder, node["reftype"], target, node, contnode
        )
    name = target.rsplit(".", 1)[-1]
    domain = env.get_domain("py")
    if name in high_society.__all__ and target != f"high_society.{name}":
        return domain.resolve_xref(
            env,
            node["refdoc"],
            app.builder,
            node["reftype"],
            f"high_society.{name}",
            node,
            contnode,
        )
    return None


def _napoleon_except_attributes(
    app: Sphinx, what: str, name: str, obj: object, options: object, lines: list[str]
) -> None:
    """Napoleon, except on attributes and properties.

    Their docstrings here are plain sentences; napoleon would read a first line such as
    ``"Money the player still owns: in hand plus face up"`` as ``"type: description"``.
    """
    if what not in {"attribute", "data", "property"}:
        # Sphinx names ``what``'s values in a private Literal; autodoc gives one of them.
        napoleon._process_docstring(app, what, name, obj, options, lines)  # type: ignore[arg-type]


def _split_parameters(signature: str) -> list[str]:
    """``"(a: int, b: tuple[int, ...] = ())"`` -> ``["a: int", "b: tuple[int, ...] = ()"]``."""
    parameters, depth, start = [], 0, 1
    for i, char in enumerate(signature[1:-1], 1):
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        elif char == "," and depth == 0:
            parameters.append(signature[start:i].strip())
            start = i + 1
    parameters.append(signature[start:-1].strip())
    return [p for p in parameters if p]


def _show_default(value: object) -> str:
    return f"{type(value).__name__}.{value.name}" if isinstance(value, enum.Enum) else repr(value)


def _attrs_defaults(
    app: Sphinx,
    what: str,
    name: str,
    obj: object,
    options: object,
    signature: str | None,
    return_annotation: str | None,
) -> tuple[str | None, str | None] | None:
    """An attrs class's defaults as values (``phase: Phase = Phase.REVEAL``).

    attrs writes its ``__init__`` with ``attr_dict['phase'].default`` as a default, and
    ``NOTHING`` for a factory, which ``autodoc_preserve_defaults`` would print as they are.
    A default left unreadable is a warning, so ``-W`` fails the build.
    """
    if what != "class" or signature is None or not isinstance(obj, type) or not attrs.has(obj):
        return None
    fields = {field.alias: field for field in attrs.fields(obj)}
    shown = []
    for parameter in _split_parameters(signature):
        head, equals, default = parameter.rpartition(" = ")
        field = fields.get(head.split(":")[0].strip())
        if equals and field is not None and (default == "NOTHING" or "attr_dict[" in default):
            value = field.default
            # attrs' stubs type Factory as a function: its instances are told by their fields.
            factory = getattr(value, "factory", None)
            if callable(factory) and not getattr(value, "takes_self", True):
                value = factory()
            parameter = f"{head} = {_show_default(value)}"
        shown.append(parameter)
    signature = f"({', '.join(shown)})"
    if "attr_dict[" in signature or "NOTHING" in signature:
        logging.getLogger(__name__).warning("%s: unreadable attrs default in %s", name, signature)
    return signature, return_annotation


def setup(app: Sphinx) -> None:
    for listener in list(app.events.listeners.get("autodoc-process-docstring", [])):
        if listener.handler is napoleon._process_docstring:
            app.disconnect(listener.id)
    app.connect("autodoc-process-docstring", _napoleon_except_attributes)
    app.connect("missing-reference", _public_alias)
    app.connect("autodoc-process-signature", _attrs_defaults)
