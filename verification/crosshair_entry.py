"""``crosshair`` with the project's symbolic-value factory and a work bound: ``python -m
verification.crosshair_entry check [--max_iterations=N] ...`` takes the same arguments as
``crosshair``, plus ``--max_iterations=N`` (CrossHair's own option, which its command line
does not offer): at most N execution paths per condition. With ``CROSSHAIR_PATH_STATS=1``
in the environment it also prints, after each condition, how many paths CrossHair explored,
whether it exhausted them, and the CPU seconds the condition took (:data:`STATS`), for the
deep run's table.

:class:`~high_society.GameConfig` validates itself when built, and CrossHair cannot build
a symbolic instance through that validation (every construction is rejected and the
check ends with "Unable to meet precondition"). The contracts are about the rules, not
about configurations, so CrossHair is given the standard game or a reduced one, both valid.

A :class:`~fractions.Fraction` input is built as ``n/2`` with a symbolic ``n``: exactly the
fractions whose denominator is 1 or 2, which every status is (R11 halves at most once; the
contract of ``scoring._status`` confirms it), and which a contract taking fractions must
state in its precondition (``winners`` does; ``tests/test_contracts.py`` checks it).
CrossHair's own proxy for ``Fraction`` crashes when the fraction is an element of a symbolic
sequence (``CrossHairInternal: Attempted to call assert_true on a non-symbolic``, in
``crosshair/libimpl/fractionlib.py``; docs/verification.md has a ten-line reproduction).
"""

import os
import sys
import time
from collections.abc import Callable, Mapping
from fractions import Fraction

import crosshair.core
import crosshair.main
from crosshair.core import register_type
from crosshair.options import AnalysisOptionSet, option_set_from_dict
from crosshair.tracers import ResumedTracing

from high_society import STANDARD, GameConfig
from verification.small_game import SMALL_GAME

REDUCED = SMALL_GAME


def _config(factory: object) -> GameConfig:
    choose = factory(bool)  # type: ignore[operator]  # a SymbolicFactory: a symbolic bool
    return STANDARD if choose else REDUCED


def _half_integer(factory: object) -> Fraction:
    numerator = factory(int)  # type: ignore[operator]  # a SymbolicFactory: a symbolic int
    # Fraction's own arithmetic on the symbolic int, traced (CrossHair calls factories untraced)
    with ResumedTracing():  # type: ignore[no-untyped-call]
        return Fraction(numerator, 2)


#: The format of a statistics line: file, line of the condition, paths, exhausted or not,
#: CPU seconds. ``crosshair_check`` parses it back.
STATS = "paths: {file}:{line}: {paths} {end} {cpu:.1f}"


def _count_paths() -> None:
    """Print a :data:`STATS` line after each condition CrossHair analyses.

    ``analyze_calltree`` analyses one postcondition (PEP 316 gives it one at a time) with
    one ``explore_loop``; both are looked up in ``crosshair.core`` at each call.
    """
    analyze: Callable[..., object] = crosshair.core.analyze_calltree
    explore: Callable[..., object] = crosshair.core.explore_loop
    seen: list[object] = []

    def explore_loop(*args: object, **kwargs: object) -> object:
        found = explore(*args, **kwargs)
        seen.append(found)
        return found

    def analyze_calltree(options: object, conditions: object) -> object:
        seen.clear()
        began = time.process_time()
        done = analyze(options, conditions)
        posts = getattr(conditions, "post", [])
        if len(posts) == 1 and seen:
            found = seen[-1]
            end = "exhausted" if getattr(found, "exhausted", False) else "stopped"
            line = STATS.format(
                file=posts[0].filename,
                line=posts[0].line,
                paths=getattr(found, "iterations", 0),
                end=end,
                cpu=time.process_time() - began,
            )
            print(line, flush=True)
        return done

    setattr(crosshair.core, "explore_loop", explore_loop)  # noqa: B010
    setattr(crosshair.core, "analyze_calltree", analyze_calltree)  # noqa: B010


def main(argv: list[str]) -> None:
    """Run ``crosshair`` on ``argv``, with ``--max_iterations N`` taken out and applied."""
    rest = list(argv)
    limit: int | None = None
    for at, arg in enumerate(rest):
        if arg.startswith("--max_iterations="):
            limit = int(arg.split("=", 1)[1])
            del rest[at]
            break
    if limit is not None:
        bound = AnalysisOptionSet(max_iterations=limit)

        def with_limit(source: Mapping[str, object]) -> AnalysisOptionSet:
            return option_set_from_dict(source).overlay(bound)

        # The command line's options are read by this function, looked up in
        # crosshair.main at each call: the bound joins them there.
        setattr(crosshair.main, "option_set_from_dict", with_limit)  # noqa: B010
    if os.environ.get("CROSSHAIR_PATH_STATS") == "1":
        _count_paths()
    register_type(GameConfig, _config)
    # CrossHair registers its own Fraction factory when it is imported; this one replaces
    # it (register_type refuses a second registration, so the table is set directly).
    crosshair.core._SIMPLE_PROXIES[Fraction] = _half_integer
    crosshair.main.main(rest)


if __name__ == "__main__":
    main(sys.argv[1:])
