"""The showdown: the knocker's melds, the defender's lay-offs, and the hand's result."""

from dataclasses import dataclass
from itertools import product

from .cards import SUIT_BITS, codes_of
from .melds import arrangements, least_deadwood, points

GIN_BONUS = 25
UNDERCUT_BONUS = 25


@dataclass(frozen=True)
class ShownHand:
    """One seat's cards at the showdown, arranged by the site: ``melds`` (tuples of codes),
    ``layoffs`` (``{"card": code, "meld": i}`` onto the knocker's meld i), ``deadwood``
    (codes) and ``deadwood_points``."""

    melds: tuple
    layoffs: tuple
    deadwood: tuple
    deadwood_points: int

    def to_dict(self):
        return {
            "melds": [list(meld) for meld in self.melds], "layoffs": [dict(layoff) for layoff in self.layoffs],
            "deadwood": list(self.deadwood), "deadwood_points": self.deadwood_points,
        }


@dataclass(frozen=True)
class HandResult:
    """How a hand ended: ``winner`` (0, 1 or None), ``points``, ``kind`` ("gin", "knock",
    "undercut" or "draw"), ``knocker`` (seat or None), ``knock_card`` (code or None) and
    ``players``, a ShownHand per seat."""

    winner: int
    points: int
    kind: str
    knocker: int
    knock_card: str
    players: tuple

    def to_dict(self):
        """The result as JSON-ready data: the protocol's ``hand_result``, as the archive keeps it."""
        return {
            "winner": self.winner, "points": self.points, "kind": self.kind, "knocker": self.knocker,
            "knock_card": self.knock_card, "players": [side.to_dict() for side in self.players],
        }


def _is_run(meld):
    return bool(meld & (meld >> 1))


def _lay_off_chains(meld, defender):
    """The defender's cards that fit a meld, as chains of masks laid one after another."""
    if not _is_run(meld):
        rank = ((meld & -meld).bit_length() - 1) % 13
        fourth = sum(1 << (rank + 13 * suit) for suit in range(4)) & ~meld & defender
        return [[fourth]] if fourth else []
    suit_bits = SUIT_BITS << (13 * ((meld.bit_length() - 1) // 13))
    below = _chain(meld & -meld, defender & suit_bits, lambda card: card >> 1)
    above = _chain(1 << (meld.bit_length() - 1), defender & suit_bits, lambda card: card << 1)
    return [chain for chain in (below, above) if chain]


def _chain(end, cards, step):
    chain = []
    card = step(end)
    while card & cards:
        chain.append(card)
        card = step(card)
    return chain


def best_defence(knocker_melds, defender):
    """The defender's lay-offs and melds leaving the least deadwood.

    Returns (deadwood points, arrangement of the cards kept, [(card mask, meld index)]).
    Every prefix of every chain is tried, so chained lay-offs, both ends of a run and breaking
    the defender's own melds are all considered.
    """
    chains = [(index, chain) for index, meld in enumerate(knocker_melds) for chain in _lay_off_chains(meld, defender)]
    best = None
    for lengths in product(*(range(len(chain) + 1) for _, chain in chains)):
        laid = _laid_off(chains, lengths)
        deadwood = least_deadwood(_kept(defender, laid))
        if best is None or deadwood < best[0]:
            best = (deadwood, laid)
    deadwood, laid = best
    return deadwood, arrangements(_kept(defender, laid))[0], laid


def _kept(defender, laid):
    return defender & ~sum(card for card, _ in laid)


def _laid_off(chains, lengths):
    laid, seen = [], 0
    for (index, chain), length in zip(chains, lengths):
        for card in chain[:length]:
            if not card & seen:
                laid.append((card, index))
                seen |= card
    return laid


def settle_knock(knocker, hands, knock_card):
    """The result of a knock by seat ``knocker``; ``hands`` are both seats' 10-card masks."""
    defender = 1 - knocker
    options = arrangements(hands[knocker])
    if points(options[0][1]) == 0:
        return _gin(knocker, hands, options[0], knock_card)
    # The knocker's arrangement is the least-deadwood one that leaves the defender the most.
    defences = [(best_defence(melds, hands[defender]), (melds, loose)) for melds, loose in options]
    (defender_points, defender_arrangement, laid), knocker_arrangement = max(defences, key=lambda pair: pair[0][0])
    knocker_points = points(knocker_arrangement[1])
    if knocker_points < defender_points:
        winner, kind, score = knocker, "knock", defender_points - knocker_points
    else:
        winner, kind, score = defender, "undercut", knocker_points - defender_points + UNDERCUT_BONUS
    players = _players(knocker, _player(knocker_arrangement, []), _player(defender_arrangement, laid))
    return _result(winner, score, kind, knocker, knock_card, players)


def _gin(knocker, hands, knocker_arrangement, knock_card):
    """Gin: the defender may not lay off; the knocker scores 25 plus the defender's deadwood."""
    defender_arrangement = arrangements(hands[1 - knocker])[0]
    players = _players(knocker, _player(knocker_arrangement, []), _player(defender_arrangement, []))
    score = GIN_BONUS + points(defender_arrangement[1])
    return _result(knocker, score, "gin", knocker, knock_card, players)


def _players(knocker, knocker_side, defender_side):
    return [knocker_side, defender_side] if knocker == 0 else [defender_side, knocker_side]


def settle_draw(hands):
    """A hand that ended at the two-card rule: no winner, no points, both hands shown."""
    players = [_player(arrangements(hand)[0], []) for hand in hands]
    return _result(None, 0, "draw", None, None, players)


def _player(arrangement, laid):
    melds, loose = arrangement
    return ShownHand(
        melds=tuple(tuple(codes_of(meld)) for meld in melds),
        layoffs=tuple({"card": codes_of(card)[0], "meld": index} for card, index in laid),
        deadwood=tuple(codes_of(loose)),
        deadwood_points=points(loose),
    )


def _result(winner, score, kind, knocker, knock_card, players):
    return HandResult(winner=winner, points=score, kind=kind, knocker=knocker, knock_card=knock_card,
                      players=tuple(players))
