"""Hardening a learned bot against best responses: rounds of exploit, then retrain.

A bot that plays one fixed policy in every seat is a fixed environment, and PPO learns to
beat three of it in minutes (``high-society exploitability``). :func:`harden` closes what
it can, as OpenSpiel's PSRO grows a population with best-response oracles: each round it

1. trains a *best response*: PPO in one seat against three copies of the current bot,
   played as it ships (greedily; or sampled, :class:`~high_society.learned.SampledPolicy`,
   with ``HardeningConfig.sampled``);
2. freezes it into the league, beside the best responses of the rounds before;
3. trains the bot on from its current weights against a mix of those best responses,
   the league's compiled styles (:data:`~high_society.batch.league.TRAINING_STYLES`, and
   its :data:`~high_society.batch.league.WATCHERS` with ``HardeningConfig.watchers``),
   the bot as it was when the round began and, as it learns, snapshots of itself.

Each seat of each training game is drawn from the mix by :class:`RoundShares`, so a best
response meets the bot at tables of copies of the bot, as it does when it is measured.
Nothing here sees the held-out strangers. The run is the same for the same arguments on
any machine (seeded, numpy on one thread).
"""

import math
from collections.abc import Callable, Sequence
from typing import TypeVar

import attrs

from high_society._text import short_repr
from high_society.batch.league import training_pool
from high_society.batch.policies import Opponent
from high_society.batch.training import TrainingConfig, train
from high_society.errors import InvalidConfigError
from high_society.learned import PolicyNetwork, SampledPolicy

__all__ = ["HardeningConfig", "RoundShares", "harden", "round_pool"]

_T = TypeVar("_T")


def _share(instance: object, attribute: "attrs.Attribute[float]", value: float) -> None:
    del instance
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value < math.inf:
        raise InvalidConfigError(f"{attribute.name} must be a number >= 0, not {short_repr(value)}")


def _count(least: int) -> Callable[[object, "attrs.Attribute[int]", int], None]:
    def check(instance: object, attribute: "attrs.Attribute[int]", value: int) -> None:
        del instance
        if isinstance(value, bool) or not isinstance(value, int) or value < least:
            raise InvalidConfigError(
                f"{attribute.name} must be an int >= {least}, not {short_repr(value)}"
            )

    return check


def _instance(kind: type[_T]) -> Callable[[object, "attrs.Attribute[_T]", _T], None]:
    def check(instance: object, attribute: "attrs.Attribute[_T]", value: _T) -> None:
        del instance
        if not isinstance(value, kind):
            raise InvalidConfigError(
                f"{attribute.name} must be a {kind.__name__}, not {short_repr(value)}"
            )

    return check


@attrs.frozen
class RoundShares:
    """The share of the opponent seats each kind takes while the bot retrains (the
    snapshots of the learner take ``TrainingConfig.snapshot_share`` of them once there
    are some; these shares are of the rest).

    Attributes:
        responses: the best responses found so far, equally.
        styles: the compiled styles of the league, with their own weights.
        bot: the bot as it was when the round began.

    Raises:
        InvalidConfigError: a share that is not a number >= 0, or ``responses`` 0 (the
            round's best response must take part).
    """

    responses: float = attrs.field(default=0.4, validator=_share)
    styles: float = attrs.field(default=0.3, validator=_share)
    bot: float = attrs.field(default=0.3, validator=_share)

    def __attrs_post_init__(self) -> None:
        if self.responses == 0:
            raise InvalidConfigError("the best responses' share must be above 0")


@attrs.frozen
class HardeningConfig:
    """The budgets and mix of :func:`harden`.

    Attributes:
        rounds: rounds of best response, then retraining.
        response_updates: PPO updates of each best response.
        bot_updates: PPO updates of the bot in each round.
        response: PPO's settings for each best response (by default
            :class:`~high_society.batch.training.TrainingConfig`'s, as the
            ``exploitability`` command trains).
        bot: PPO's settings for the bot (snapshots, the value network's warm-up).
        shares: the mix of its opponents.
        first_round: the number of the first round (its seeds follow from it), to continue
            a run with the best responses it found.
        sampled: the bot plays sampled against its best response and in the mix (its
            draws keyed by the round's seed), not greedily.
        watchers: the weight of each of the league's
            :data:`~high_society.batch.league.WATCHERS` beside the compiled styles' (as
            ``training_pool(watchers=...)`` weighs them); 0, none.

    Raises:
        InvalidConfigError: ``rounds``, ``response_updates`` or ``bot_updates`` not an
            int >= 1, ``first_round`` not an int >= 1, ``watchers`` not a number >= 0,
            or a setting of another type.
    """

    rounds: int = attrs.field(default=4, validator=_count(1))
    response_updates: int = attrs.field(default=150, validator=_count(1))
    bot_updates: int = attrs.field(default=150, validator=_count(1))
    response: TrainingConfig = attrs.field(
        factory=TrainingConfig, validator=_instance(TrainingConfig)
    )
    bot: TrainingConfig = attrs.field(
        factory=lambda: TrainingConfig(
            snapshot_every=15, snapshots=4, snapshot_share=0.4, value_warmup=5
        ),
        validator=_instance(TrainingConfig),
    )
    shares: RoundShares = attrs.field(factory=RoundShares, validator=_instance(RoundShares))
    first_round: int = attrs.field(default=1, validator=_count(1))
    sampled: bool = attrs.field(default=False, validator=_instance(bool))
    watchers: float = attrs.field(default=0.0, validator=_share)


#: Called after each round with the round (from 1), its best response and the new bot.
RoundReport = Callable[[int, PolicyNetwork, PolicyNetwork], None]


def harden(
    bot: PolicyNetwork,
    *,
    seed: int,
    config: HardeningConfig = HardeningConfig(),
    responses: tuple[PolicyNetwork, ...] = (),
    report: RoundReport | None = None,
) -> PolicyNetwork:
    """``bot`` (a two-output network) after ``config.rounds`` rounds of best response and
    retraining (see the module's description); ``responses`` are best responses found
    before, already in the mix. Seeds are drawn from ``seed`` alone: choose one that the
    measurement of the result (``high-society exploitability --seed``) does not use.

    Raises:
        InvalidConfigError: ``bot`` is not a two-output network, a response is not a
            two-output network of its players, or ``config`` is not a
            :class:`HardeningConfig`.
    """
    if not isinstance(config, HardeningConfig):
        raise InvalidConfigError(f"config must be a HardeningConfig, not {short_repr(config)}")
    if not isinstance(bot, PolicyNetwork) or bot.full_actions:
        raise InvalidConfigError("the bot to harden must be a two-output PolicyNetwork")
    players = bot.players
    for response in responses:
        if not isinstance(response, PolicyNetwork) or response.full_actions:
            raise InvalidConfigError("every best response must be a two-output PolicyNetwork")
        if response.players != players:
            raise InvalidConfigError(
                f"a best response of {response.players} players, for a bot of {players}"
            )
    found = list(responses)
    for round_ in range(config.first_round, config.first_round + config.rounds):
        base = seed * 1000 + round_ * 10
        target: PolicyNetwork | SampledPolicy = bot
        if config.sampled:
            target = SampledPolicy(bot, base + 1)
        response = train(
            players,
            [target],
            updates=config.response_updates,
            seed=base + 2,
            config=config.response,
        )
        found.append(response)
        opponents, weights = round_pool(found, target, config.shares, config.watchers)
        bot = train(
            players,
            opponents,
            weights=weights,
            updates=config.bot_updates,
            seed=base + 3,
            config=config.bot,
            initial=bot,
        )
        if report is not None:
            report(round_, response, bot)
    return bot


def round_pool(
    responses: Sequence[PolicyNetwork],
    bot: PolicyNetwork | SampledPolicy,
    shares: RoundShares,
    watchers: float = 0.0,
) -> tuple[list[Opponent], list[float]]:
    """The opponents the bot retrains against in a round, with their weights (of a
    seat's draw, summing to 1): the league's fixed opponents of
    :func:`~high_society.batch.league.training_pool` (the compiled styles, and the
    watchers at weight ``watchers`` each; together ``shares.styles``, split by their own
    weights), the best ``responses`` (``shares.responses``, equally; played greedily) and
    ``bot``, the bot as the round began (``shares.bot``).

    Raises:
        InvalidConfigError: no responses.
    """
    if not responses:
        raise InvalidConfigError("a round's pool needs at least one best response")
    total = shares.responses + shares.styles + shares.bot
    opponents, style_weights = training_pool(watchers=watchers)
    styles = sum(style_weights)
    weights = [shares.styles / total * weight / styles for weight in style_weights]
    opponents += [*responses, bot]
    weights += [shares.responses / total / len(responses)] * len(responses)
    weights.append(shares.bot / total)
    return opponents, weights
