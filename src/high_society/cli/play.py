"""``high-society play``: you against the built-in bots, in a terminal.

This is the example client that the client guide (``docs/client-guide.md``) walks through.
It uses only the public API, as any front end would: the engine (``from high_society import
...``), the bots, the game loop of :mod:`high_society.host` and the words of
:mod:`high_society.text`. It reads moves from a text stream and writes to another, so a test
can play it to the end with scripted input. ``examples/play_terminal.py`` launches this same
program. (The module itself is part of the command line, not of the library's API.)

:func:`play_interactive` seats the person as a :class:`Person`, a bot whose choice is what
they type, and runs the library's one game loop (:func:`high_society.host.play`), telling
each step as it comes; at the end, it shows the final table.
"""

import argparse
import io
import random
import re
import sys
from typing import Protocol, TextIO

from high_society import (
    Action,
    Bid,
    Discard,
    GameState,
    Pass,
    Phase,
    StatusCard,
    min_bid_total,
    new_game,
    why_illegal,
)
from high_society.bots import Bot, HeuristicBot
from high_society.host import Step, play
from high_society.text import final_table, narrate

__all__ = [
    "Console",
    "LineInput",
    "Person",
    "Quit",
    "ask_move",
    "parse_move",
    "play_interactive",
    "register",
    "run",
    "show_situation",
]

#: The bots' names, in seat order; the person's seat is called "You".
BOT_NAMES = ("Ada", "Ben", "Cy", "Dee", "Eve")

HELP = (
    "Type the money values to add to your face-up cards (for example: 3 4), or 'pass'.\n"
    "When Faux Pas asks you to discard, type the luxury card's value (for example: 2).\n"
    "'help' shows this again; 'quit' (or end of input, Ctrl-D) leaves the game."
)


class Quit(Exception):
    """The person left the game: typed ``quit`` or closed the input."""


class LineInput(Protocol):
    """Where answers come from: ``sys.stdin``, or any object with these two methods."""

    def readline(self) -> str:
        """The next line with its newline; ``""`` at the end of input."""
        ...

    def isatty(self) -> bool:
        """True when a person types at a terminal."""
        ...


class Console:
    """Where the game talks to the person: lines out, answers in.

    When the input is not a terminal (a script, a pipe), each answer is echoed after its
    prompt, so the transcript reads like the game a person saw.
    """

    def __init__(self, stdin: LineInput, stdout: TextIO) -> None:
        self._in = stdin
        self._out = stdout
        self._echo = not stdin.isatty()

    def say(self, text: str = "") -> None:
        """Write ``text`` and a newline."""
        print(text, file=self._out, flush=True)

    def ask(self, prompt: str) -> str:
        """Show ``prompt`` and return the next line typed, stripped.

        Raises:
            Quit: the input has ended.
        """
        self._out.write(prompt)
        self._out.flush()
        line = self._in.readline()
        if not line:  # end of input: Ctrl-D, or the end of a script
            self.say()
            raise Quit
        if self._echo:
            typed = line.rstrip("\n")
            # A script's line may hold control characters (ANSI escapes ...): show them escaped.
            self.say(typed if typed.isprintable() else ascii(typed)[1:-1])
        return line.strip()


def _cards(values: frozenset[int]) -> str:
    return " ".join(map(str, sorted(values))) if values else "-"


def show_situation(state: GameState, you: int, names: tuple[str, ...]) -> list[str]:
    """What the person sees before choosing: the card up, the table and their own hand.

    Payments are made face up, so everyone can count what each player has left; only the
    person's own hand is shown card by card.
    """
    lines = []
    if state.phase is Phase.AUCTION:
        card = state.auction
        assert card is not None
        kind = " (disgrace: the first to pass takes it)" if card.is_disgrace else ""
        lines.append(f"{card.label} is up{kind}.")
    width = max(len(n) for n in names)
    for seat, player in enumerate(state.players):
        owns = ", ".join(c.label for c in player.status_cards) or "-"
        mark = "  passed" if player.passed else ""
        lines.append(
            f"  {names[seat]:<{width}}  face up {player.bid:>3}  money {player.money:>3}  "
            f"owns {owns}{mark}"
        )
    me = state.players[you]
    lines.append(f"Your hand: {_cards(me.hand)}   (face up: {_cards(me.table)})")
    if state.phase is Phase.AUCTION:
        need = min_bid_total(state)
        assert need is not None
        more = need - me.bid
        if sum(me.hand) >= more:
            lines.append(f"Add at least {more} to bid (a total of {need} or more), or pass.")
        else:
            lines.append(f"You cannot reach {need}: you can only pass.")
    elif state.phase is Phase.DISCARD:
        luxury = ", ".join(str(c.luxury_value) for c in me.luxury_cards)
        lines.append(f"Faux Pas: discard one of your luxury cards ({luxury}).")
    return lines


_WORDS = re.compile(r"[\s,+]+")


def parse_move(text: str, state: GameState, you: int) -> Action | str:
    """The action the person typed, or a sentence saying why the text is not one.

    Only the form is checked here (``"pass"``, money values, a luxury value); whether the
    action is legal is for the engine to say.

    >>> from high_society import new_game
    >>> parse_move("3 4", new_game(3), 0)
    Bid(seat=0, cards=frozenset({3, 4}))
    >>> parse_move("three", new_game(3), 0)
    "'three' is not a money value: type money values, 'pass' or 'help'"

    Raises:
        Quit: the person typed ``quit``.
    """
    words = [w for w in _WORDS.split(text.lower()) if w]
    if words in (["quit"], ["q"], ["exit"]):
        raise Quit
    if words in (["pass"], ["p"]):
        return Pass(you)
    if not words:
        return "type money values, 'pass' or 'help'"
    values = []
    for word in words:
        # ASCII digits only: "²".isdigit() is true but int("²") fails; and no more digits
        # than a money value has, so a 5,000-digit line is not converted at all.
        if not (word.isascii() and word.isdigit()) or len(word) > 3:
            shown = ascii(word) if len(word) <= 20 else ascii(word[:17]) + "..."
            return f"{shown} is not a money value: type money values, 'pass' or 'help'"
        values.append(int(word))
    if state.phase is Phase.DISCARD:
        if len(values) != 1 or not 1 <= values[0] <= 10:
            return "type the value of one luxury card (1 to 10) to discard"
        return Discard(you, StatusCard.luxury(values[0]))
    if len(set(values)) != len(values):
        return "each money card can be played once: name each value once"
    return Bid(you, frozenset(values))


def ask_move(state: GameState, you: int, names: tuple[str, ...], console: Console) -> Action:
    """Ask the person for a legal action, explaining and asking again until they give one.

    Raises:
        Quit: the person left the game.
    """
    for line in show_situation(state, you, names):
        console.say(line)
    while True:
        text = console.ask("Your move> ")
        if text.lower() in {"help", "h", "?"}:
            console.say(HELP)
            continue
        move = parse_move(text, state, you)
        if isinstance(move, str):
            console.say(f"  ? {move}")
            continue
        error = why_illegal(state, move)
        if error is None:
            return move
        console.say(f"  ! {error.message_with_names(names)}")


class Person:
    """The person at the table, seated like a bot: their choice is what they type."""

    def __init__(self, you: int, names: tuple[str, ...], console: Console) -> None:
        self._you = you
        self._names = names
        self._console = console

    def choose(self, state: GameState) -> Action:
        """Show the situation and ask for a legal action (see :func:`ask_move`).

        Raises:
            Quit: the person left the game.
        """
        self._console.say()
        return ask_move(state, self._you, self._names, self._console)


def play_interactive(
    players: int, you: int, seed: int, console: Console, bots: dict[int, Bot] | None = None
) -> GameState:
    """Host one game: the person at seat ``you``, a bot at every other seat.

    Returns the final state.

    Raises:
        Quit: the person left the game before the end.
        InvalidConfigError: ``players`` is not 3 to 5.
    """
    start = new_game(players)
    names = tuple("You" if seat == you else BOT_NAMES[seat] for seat in range(players))
    if bots is None:
        bots = {seat: HeuristicBot(seed * 100 + seat) for seat in range(players) if seat != you}
    seats = [Person(you, names, console) if seat == you else bots[seat] for seat in range(players)]
    # The host owns the shuffle (a dealer seeded with ``seed``): the state never knows the
    # deck's order. Each step is told as soon as it is played.
    last: Step | None = None
    for line, step in narrate(play(seats, seed=seed, start=start), names):
        console.say(line)
        last = step
    assert last is not None  # a game has at least one step
    for line in final_table(last.after, names):
        console.say(line)
    return last.after


def register(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Add the ``play`` subcommand."""
    parser = subparsers.add_parser(
        "play",
        help="play a game against the built-in bots in the terminal",
        description="Play one game of High Society against heuristic bots. Type money values "
        "to bid (for example: 3 4), 'pass', a luxury value to discard for Faux Pas, 'help' "
        "or 'quit'. Moves are read from standard input.",
    )
    parser.add_argument(
        "--players", type=int, choices=range(3, 6), default=4, help="3 to 5 (default 4)"
    )
    parser.add_argument(
        "--seed",
        type=_seed,
        default=None,
        help="seed for the deck and the bots, 0 to 2**63 - 1 (default: random)",
    )
    parser.add_argument(
        "--seat", type=int, default=0, help="your seat, 0 to players-1; seat 0 starts (default 0)"
    )
    parser.set_defaults(handler=run)


def _seed(text: str) -> int:
    """``--seed``'s type: a whole number from 0 to ``2**63 - 1``, as the other subcommands
    take, so that a record of the game could hold it; anything else is wrong usage."""
    shown = text if len(text) <= 24 else f"{text[:20]}... ({len(text):,} characters)"
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {shown!r}") from None
    if not 0 <= value < 2**63:
        raise argparse.ArgumentTypeError(f"must be from 0 to {2**63 - 1:,}, not {shown}")
    return value


def run(
    args: argparse.Namespace, stdin: LineInput | None = None, stdout: TextIO | None = None
) -> int:
    """Play the game ``args`` describe; 0 at the end or when the person quits, 2 for a bad
    ``--seat``. Ctrl-C is left to the command line, which exits with 130."""
    if stdin is None:
        stdin = sys.stdin
        if isinstance(stdin, io.TextIOWrapper):  # bytes that are not text: no traceback
            stdin.reconfigure(errors="replace")
    console = Console(stdin, stdout if stdout is not None else sys.stdout)
    if not 0 <= args.seat < args.players:
        print(
            f"high-society play: --seat must be 0 to {args.players - 1}, not {args.seat}",
            file=sys.stderr,
        )
        return 2
    seed = args.seed if args.seed is not None else random.randrange(1_000_000)
    console.say(
        f"High Society: you (seat {args.seat}) against {args.players - 1} bots, seed {seed}."
    )
    console.say("Type 'help' for how to play.")
    try:
        play_interactive(args.players, args.seat, seed, console)
    except Quit:
        console.say("You left the game.")
    except KeyboardInterrupt:
        console.say()  # end the prompt's line; the command line reports the interruption
        raise
    return 0
