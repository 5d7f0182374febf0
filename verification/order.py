"""``status_of``'s lemma: its answer and its conditions' truths do not depend on the order of
the cards, checked on the code.

The domain of ``status_of`` holds every holding in canonical order; its precondition admits
every order (a player may pass the cards in any order). The orders of one holding are too
many to enumerate (16!/3! for the whole deck) and CrossHair forks on every element, so this
lemma is checked on the source instead: every read of the cards, in ``status_of``, in the
predicates its conditions name and in the conditions themselves, must be one whose value is
the same for every order of the same cards:

- ``x in cards``, ``x not in cards``, ``cards.count(x)``, ``len(cards)``, ``bool(cards)``,
  ``set(cards)``;
- ``cards`` as the iterable of a comprehension that is the only argument of ``sorted``,
  ``sum``, ``any``, ``all``, ``min``, ``max``, ``set`` or ``frozenset`` (each value it
  yields is worked out from one card alone);
- ``list(cards)``, ``tuple(cards)``, ``reversed(cards)``, ``sorted(cards)``: another order of
  the same cards, itself read only in these ways;
- ``cards`` passed to a function that this check has found order-blind in its own
  parameter (``status_of`` in its own condition, ``holdable``, ``r11_status``).

That these reads do not see the order is a fact of Python (``in``, ``count``, ``len``,
``sorted``, ``sum`` of numbers ...), not of this code.
"""

import ast
import inspect
import textwrap
from collections.abc import Callable
from types import ModuleType

from high_society import _contracts

#: Consumers of a comprehension whose answer does not depend on the order it yields in.
BLIND_CONSUMERS = {"sorted", "sum", "any", "all", "min", "max", "set", "frozenset"}
#: Calls that give the same cards in another order.
REORDERINGS = {"list", "tuple", "reversed", "sorted"}
#: Calls whose answer does not depend on the order of their one argument.
BLIND_CALLS = {"len", "bool", "set", "frozenset"}


def _parents(tree: ast.AST) -> dict[ast.AST, ast.AST]:
    return {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}


def _called(node: ast.AST) -> str | None:
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        return node.func.id
    return None


def _blind(node: ast.AST, parents: dict[ast.AST, ast.AST], blind: set[str]) -> bool:
    """Whether ``node`` (the cards, or another order of them) is read only order-blindly."""
    parent = parents.get(node)
    if isinstance(parent, ast.Compare):
        return node in parent.comparators and all(
            isinstance(op, ast.In | ast.NotIn) for op in parent.ops
        )
    if isinstance(parent, ast.Attribute) and parent.attr == "count":
        call = parents.get(parent)
        return isinstance(call, ast.Call) and call.func is parent
    if isinstance(parent, ast.comprehension) and parent.iter is node:
        comprehension = parents.get(parent)
        consumer = parents.get(comprehension) if comprehension else None
        return (
            isinstance(comprehension, ast.ListComp | ast.GeneratorExp)
            and consumer is not None
            and _called(consumer) in BLIND_CONSUMERS
            and [*consumer.args] == [comprehension]  # type: ignore[attr-defined]
        )
    name = _called(parent) if parent is not None else None
    if name is None or parent is None:
        return False
    if name in BLIND_CALLS or name in blind:
        return True
    return name in REORDERINGS and _blind(parent, parents, blind)


def order_reads(tree: ast.AST, parameter: str, blind: set[str]) -> list[str]:
    """The reads of ``parameter`` in ``tree`` that may see its order."""
    parents = _parents(tree)
    return [
        ast.unparse(parents.get(node, node))
        for node in ast.walk(tree)
        if isinstance(node, ast.Name)
        and node.id == parameter
        and isinstance(node.ctx, ast.Load)
        and not _blind(node, parents, blind)
    ]


def _body(function: Callable[..., object]) -> ast.AST:
    """The function's code without its docstring (where the conditions are, read apart)."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(function)))
    definition = tree.body[0]
    assert isinstance(definition, ast.FunctionDef)
    body = definition.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        definition.body = body[1:]
    return tree


def problems(module: ModuleType) -> list[str]:
    """Where ``status_of`` of ``module`` (or its conditions, or the predicates they name)
    may read the order of its cards."""
    from verification.enumeration import conditions

    status_of = module.status_of
    found = [f"status_of reads {r}" for r in order_reads(_body(status_of), "cards", set())]
    for predicate in (_contracts.holdable, _contracts.r11_status):
        reads = order_reads(_body(predicate), "cards", set())
        found += [f"{predicate.__name__} reads {r}" for r in reads]
    blind = {"status_of", "holdable", "r11_status"}
    for kind, text in conditions(status_of):
        tree = ast.parse(text, mode="eval")
        found += [f"{kind}: {text} reads {r}" for r in order_reads(tree, "cards", blind)]
    return found
