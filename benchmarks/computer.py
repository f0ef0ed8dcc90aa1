"""How strong each computer level is, against two published yardsticks and against each other.

    python benchmarks/computer.py                      # 200 games a pairing, 1 worker
    python benchmarks/computer.py --games 2000 --pairings expert-marjj --seed 19
    python benchmarks/computer.py --games 400 --pairings club-simple,expert-club --budget 10
    python benchmarks/computer.py --games 2000 --seed 43 --pairings expert-simple \
        --set players.FAST_HOLD_BELOW=-1 --record before.jsonl   # a constant changed
    python benchmarks/computer.py --games 2000 --seed 43 --pairings expert-simple --paired-with before.jsonl

Every pairing plays one game to 100 on this site's rules (the two-card rule, bonuses that do
not count toward the target), in mirrored pairs: the same seeded deals twice, seats swapped,
so neither side is dealt the better cards. Per pairing it prints the games won with a 95%
Wilson interval, the hands won, the finish mix of each side (gins, knocks won, undercuts made
against the other's knock), dead hands, the points per hand, and the first player's
milliseconds per decision (median, p99, max). ``--budget`` is the levels' thinking budget in
milliseconds (``choose_move(..., budget_ms=)``); without it each level uses its default.

A lever is measured on the same deals with it and without it: ``--set module.NAME=VALUE`` sets
a constant of ``games.computer``'s modules for the run (in every module that imported it),
``--record FILE`` keeps each game's winner, and ``--paired-with FILE`` prints, after each
pairing, how many games of the recorded run (same pairing, same seed) changed winner: ``+``
won now and lost then, ``-`` the other way. Two runs differ in far fewer games than they
play, so the net change tells a lever from noise sooner than two win rates do.

The yardsticks
==============

Both are written here, in our own code, from their published Java sources, as players of the
EAAI framework's callbacks (``startGame``, ``willDrawFaceUpCard``, ``reportDraw``,
``getDiscard``, ``reportDiscard``, ``getFinalMelds``). ``EaaiSeat`` feeds them this site's
views: it replays the public history into the callbacks the framework would have made, and
turns their answers into this site's moves. Each yardstick keeps its own state through a hand,
as the Java objects do; a seat is made anew for every game.

``simple``: Todd Neller's SimpleGinRummyPlayer (tneller/gin-rummy-eaai,
``ginrummy/SimpleGinRummyPlayer.java``), the baseline of the EAAI-2021 challenge. It takes the
face-up card when the card is part of any meld of its hand with that card; it discards a
random card among those leaving the least deadwood, never the face-up card it just took, and
never a card that would repeat a (card drawn, card discarded) pair already played this hand
(the pair is kept as a two-card set, as the Java's bitstring is, so drawing B and shedding A
is barred after drawing A and shedding B); it knocks whenever its deadwood is 10 or less.

``marjj``: MARJJ v5 (aqibahm/MARJJ, ``MARJJ_v5-1.java``), the later public source of the team
that won the EAAI-2021 challenge. Its reachable path, port for port:

- ``seen``: its own cards (dealt and drawn), every face-up card it was offered, and the
  opponent's discards. ``opponent cards``: every card the opponent drew face up, never
  removed (not even when the opponent throws it again: the Java never clears it, so neither
  do we). A face-up card the opponent took before it was offered to MARJJ (the dealer's view
  of the first upcard) is an opponent card but not seen, as in the Java.
- Taking the face-up card: only if, among its hand's best meld sets with the card, the one
  its lay-off score picks (``getBestMeld``) has the card in a meld, and the best discard then
  leaves strictly less deadwood than the hand has now.
- Discarding: the candidates are the cards that some least-deadwood arrangement leaves
  unmelded, not the face-up card just taken, and within 5 points of the dearest of them
  (none: every card but the face-up one); one candidate is thrown at once; a candidate that
  leaves gin is thrown at once; the rest must leave at most 5 more deadwood than the best.
  Each candidate is scored ``deadwood left + 18 * mean(the 7 least deadwoods after drawing
  each unseen card and shedding the best) * 0.9 ** (turns - 1)`` plus the opponent term
  (bonuses for the candidate's neighbours being unavailable, penalties for them being in the
  opponent's cards, with the Java's two slips kept: past a jack the "two above" test marks
  the adjacent card unavailable instead, and the one-of-rank penalty fires when no other card
  of the rank is unavailable); the least score wins, ties at random.
- Knocking: after its discard, if the hand's deadwood is 10 or less in its first three
  turns of the hand, or 0 (gin) later.

Adaptations a faithful port needs on this site, each kept as small as we could:

- Order. The Java iterates its hand in the order cards arrived and its meld sets in its
  enumeration's order; here both are in card-index order (our arrangements' order for
  ``getBestMeld``'s ties, the first least-deadwood gin discard in card order). With ties
  broken at random anyway, only the random stream differs, not the policy.
- Randomness: each seat's ties use the ``random.Random`` the benchmark gives that seat.
- The showdown is this site's: the knocker's arrangement and the defender's melds and
  lay-offs are chosen by the engine (best for each), not by ``getFinalMelds`` and the
  framework's greedy lay-offs. The defender's ``getFinalMelds`` is therefore never asked.
- The upcard offer: a pass is a declined ``willDrawFaceUpCard`` (the framework tells the other
  player nothing of it, so neither do we); when both passed, the non-dealer's forced stock
  draw asks nothing, as in the framework.
- The stock's end is the framework's: a discard that leaves two cards in the stock ends the
  hand with no points; the player who drew the third-last card may still knock. A game is to
  100, but this site's game also gives the winner of a hand the next deal (the framework
  alternates the first player), which both sides meet alike in mirrored pairs.
- SimpleGinRummyPlayer's pair rule can leave it no card to throw (the Java would fail on an
  empty list); it then throws among the least-deadwood cards as if the rule were not there.
- Knocks: the Java knocks by returning melds; here a knock is ``knock <card>`` with the card it
  chose to discard, played only where this site allows it (with Oklahoma's or Straight Gin's
  lower limits it discards instead).

Why the earlier baseline differed
=================================

The baseline this file carried before was written from the description, not the source: it
had no pair rule. That rule hardly ever binds under the two-card rule (a pair can repeat only
through the discard pile), and the measured difference is within noise; the README's table
gives the figures with the command and seed.
"""

import argparse
import ast
import importlib
import json
import math
import random
import statistics
import sys
import time
from heapq import nsmallest
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.computer import LEVELS, choose_move  # noqa: E402
from games.computer.knowledge import cards_in  # noqa: E402
from games.computer.rollout import joins_a_meld  # noqa: E402
from games.engine import Match, Options  # noqa: E402
from games.engine.cards import RANK_VALUES, Card, mask_of  # noqa: E402
from games.engine.melds import arrangements, discard_deadwoods, least_deadwood  # noqa: E402

TARGET = 100
YARDSTICKS = ("simple", "marjj")
DEFAULT_PAIRINGS = [f"{level}-{stick}" for stick in YARDSTICKS for level in LEVELS] + [
    f"{upper}-{lower}" for lower, upper in zip(LEVELS, LEVELS[1:])
]
Z95 = 1.96
FULL_DECK = (1 << 52) - 1
MAX_DEADWOOD = 10  # GinRummyUtil.MAX_DEADWOOD


def bit(card):
    return 1 << card


def value(card):
    return RANK_VALUES[card % 13]


def index(code):
    return Card.from_code(code).index


def code(card):
    return Card(card).code()


def best_after_discard(mask):
    """Helper.getBestDeadwoodAfterDiscard: the least deadwood of 11 cards less any one."""
    return min(discard_deadwoods(mask).values())


# SimpleGinRummyPlayer ----------------------------------------------------------------------


class Simple:
    """SimpleGinRummyPlayer.java, callback for callback."""

    def start(self, hand, rng):
        self.cards, self.rng = hand, rng
        self.face_up = self.drawn = None
        self.pairs = set()  # drawDiscardBitstrings, as two-card (or one-card) sets

    def will_draw_face_up(self, card):
        self.face_up = card
        # Some meld of GinRummyUtil.cardsToAllMelds(cards + card) holds the card.
        return joins_a_meld(self.cards, card)

    def report_draw(self, mine, card):
        if mine:
            self.cards |= bit(card)
            self.drawn = card

    def report_discard(self, mine, card):
        if mine:
            self.cards &= ~bit(card)

    def get_discard(self):
        deadwoods = discard_deadwoods(self.cards)
        allowed = [card for card in cards_in(self.cards) if not (card == self.drawn and self.drawn == self.face_up)]
        fresh = [card for card in allowed if frozenset((self.drawn, card)) not in self.pairs] or allowed
        least = min(deadwoods[card] for card in fresh)
        discard = self.rng.choice([card for card in fresh if deadwoods[card] == least])
        self.pairs.add(frozenset((self.drawn, discard)))
        return discard

    def knocks(self):
        return least_deadwood(self.cards) <= MAX_DEADWOOD


# MARJJ v5 ---------------------------------------------------------------------------------

# MARJJ_v5's opponent-term constants, as published.
SEQUENCE_BONUS, ADJ_BONUS, ADJ2_BONUS = -10.0, -5.0, -3.0
SEQUENCE_PENALTY, ADJ_PENALTY, ADJ2_PENALTY = 20.0, 5.0, 3.0
SET_BONUS, RANK_BONUS, SET_PENALTY, RANK_PENALTY = -10.0, -4.0, 20.0, 4.0
MAX_DEADWOOD_DIFFERENCE = 5
INIT_WEIGHT, DECAY, MAX_CARDS_TO_CONSIDER = 18.0, 0.9, 7
EARLY_KNOCK_TURNS = 4  # knocks short of gin only while turns < 4
# The framework's suits are C, H, S, D; ours C, D, H, S. getBestMeld's set test looks at the
# same rank in the framework's next suit: C -> H -> S -> D -> C, in our suit numbers.
EAAI_NEXT_SUIT = {0: 2, 2: 3, 3: 1, 1: 0}


class Marjj:
    """MARJJ_v5-1.java's reachable path, callback for callback."""

    def start(self, hand, rng):
        self.cards, self.rng = hand, rng
        self.seen = hand
        self.opponent_cards = 0
        self.turns = 0
        self.face_up = None

    def will_draw_face_up(self, card):
        self.seen |= bit(card)
        self.face_up = card
        new = self.cards | bit(card)
        melds = self.best_meld(arrangements(new))
        if not any(meld >> card & 1 for meld in melds):
            return False
        return best_after_discard(new) < least_deadwood(self.cards)

    def report_draw(self, mine, card):
        if mine:
            self.cards |= bit(card)
            self.seen |= bit(card)
        elif card is not None:
            self.opponent_cards |= bit(card)

    def report_discard(self, mine, card):
        if mine:
            self.cards &= ~bit(card)
        else:
            self.seen |= bit(card)

    def knocks(self):
        deadwood = least_deadwood(self.cards)
        if deadwood < MAX_DEADWOOD + 1 and self.turns < EARLY_KNOCK_TURNS:
            return True
        return deadwood <= MAX_DEADWOOD - 10

    def _available(self, card):
        """opponentHasCard(card) || !hasBeenSeen(card): a lay-off getBestMeld fears."""
        return bool((self.opponent_cards | ~self.seen) >> card & 1)

    def best_meld(self, options):
        """getBestMeld: the least-deadwood meld set whose melds offer the fewest lay-off points."""
        if not options or len(options) == 1:
            return options[0][0] if options else []
        best, chosen = None, None
        for melds, _ in options:
            points = 0
            for meld in melds:
                if meld & (meld >> 1):  # a run: its cards share a suit
                    low, high = (meld & -meld).bit_length() - 1, meld.bit_length() - 1
                    if low % 13 > 0 and self._available(low - 1):
                        points += min(low % 13 + 1, 10)
                    if high % 13 < 12 and self._available(high + 1):
                        points += min(high % 13 + 1, 10)
                else:
                    for card in cards_in(meld):
                        if self._available(EAAI_NEXT_SUIT[card // 13] * 13 + card % 13):
                            points += value(card)
            if best is None or points < best:
                best, chosen = points, melds
        return chosen

    def get_discard(self):
        self.turns += 1
        candidates = self.unmelded()
        if len(candidates) == 1:
            return candidates[0][0]
        scored = [(self.my_ev(card, deadwood) + self.opponent_ev(card), card) for card, deadwood in candidates]
        least = min(score for score, _ in scored)
        return self.rng.choice([card for score, card in scored if score == least])

    def unmelded(self):
        """Helper.getUnmeldedCards: [(card, deadwood after discarding it)]."""
        cards = self.cards
        face_up = bit(self.face_up) if self.face_up is not None else 0
        loose = 0
        for _, deadwood in arrangements(cards):
            loose |= deadwood
        loose &= ~face_up
        biggest = max((value(card) for card in cards_in(loose)), default=0)
        include = [card for card in cards_in(loose) if value(card) >= biggest - MAX_DEADWOOD_DIFFERENCE]
        if len(include) == 1:
            return [(include[0], None)]
        if not include:
            include = cards_in(cards & ~face_up)
        deadwoods = discard_deadwoods(cards)
        for card in include:
            if deadwoods[card] == 0:
                return [(card, 0)]
        best = min(deadwoods[card] for card in include)
        return [(card, deadwoods[card]) for card in include if deadwoods[card] <= best + MAX_DEADWOOD_DIFFERENCE]

    def my_ev(self, card, deadwood):
        """Helper.getFutureDeadwoodImprovement for one candidate."""
        rest = self.cards & ~bit(card)
        possible = [best_after_discard(rest | bit(other)) for other in cards_in(FULL_DECK & ~self.seen)]
        best = nsmallest(MAX_CARDS_TO_CONSIDER, possible)
        future = sum(best) / len(best) if best else 0.0
        return deadwood + INIT_WEIGHT * future * DECAY ** (self.turns - 1)

    def opponent_ev(self, card):
        """Helper.getOpponentDeadwoodImprovement for one candidate, slips included."""
        theirs, unavailable_mask = self.opponent_cards, self.cards | self.seen
        rank = card % 13

        def look(offset):
            other = bit(card + offset)
            if other & theirs:
                return True, False
            return False, bool(other & unavailable_mask)

        opp_hi, unav_hi = look(1) if rank < 12 else (False, True)
        opp_lo, unav_lo = look(-1) if rank > 0 else (False, True)
        opp_hi2, unav_hi2 = (False, False)
        if rank < 11:
            opp_hi2, unav_hi2 = look(2)
        else:
            unav_hi = True  # the Java's slip: it sets the adjacent flag here
        opp_lo2, unav_lo2 = look(-2) if rank > 1 else (False, True)
        opp_same = unav_same = 0
        for suit in range(4):
            other = bit(rank + 13 * suit)
            if other & theirs:
                opp_same += 1
            elif other & unavailable_mask:
                unav_same += 1
        score = 0.0
        if (unav_hi and (unav_lo or unav_lo2)) or (unav_lo and (unav_hi or unav_hi2)):
            score += SEQUENCE_BONUS
        else:
            score += ADJ_BONUS * (unav_lo + unav_hi) + ADJ2_BONUS * (unav_lo2 + unav_hi2)
        if (opp_hi and (opp_lo or opp_lo2)) or (opp_lo and (opp_hi or opp_hi2)):
            score += SEQUENCE_PENALTY
        else:
            score += ADJ_PENALTY * (opp_lo + opp_hi) + ADJ2_PENALTY * (opp_lo2 + opp_hi2)
        if unav_same >= 3:
            score += SET_BONUS
        elif unav_same == 2:
            score += RANK_BONUS
        if opp_same >= 2:
            score += SET_PENALTY
        elif unav_same == 1:  # the Java's slip: it tests the unavailable count here
            score += RANK_PENALTY
        return score


# The framework's callbacks from this site's views -------------------------------------------


class EaaiSeat:
    """One seat played by an EAAI-framework player, fed from the views this site shows it."""

    def __init__(self, player):
        self.player = player
        self.hand_number = None

    def move(self, view, rng):
        hand_view = view["hand_view"]
        if view["hand_number"] != self.hand_number:
            # Our first turn of a hand comes before any move of ours: the hand is as dealt.
            self.hand_number, self.replayed = view["hand_number"], 0
            self.pile = [index(hand_view["upcard"])]
            self.player.start(mask_of(Card.from_code(c) for c in hand_view["hand"]), rng)
        self._replay(hand_view["history"], hand_view["seat"])
        legal = hand_view["legal_moves"]
        if hand_view["phase"] != "discard":
            if "pile" not in legal:  # both passed the upcard: the framework asks nothing
                return "stock"
            if self.player.will_draw_face_up(index(hand_view["discard_top"])):
                return "pile"
            return "pass" if "pass" in legal else "stock"
        self.player.report_draw(True, index(hand_view["drawn"]))
        card = self.player.get_discard()
        self.player.report_discard(True, card)
        knock = f"knock {code(card)}"
        return knock if self.player.knocks() and knock in legal else f"discard {code(card)}"

    def _replay(self, history, seat):
        """Report the opponent's draws and discards since our last turn, as the framework would."""
        for who, move in history[self.replayed:]:
            verb, _, card_code = move.partition(" ")
            theirs = who != seat
            if verb == "pile":
                card = self.pile.pop()
                if theirs:
                    self.player.report_draw(False, card)
            elif verb == "stock":
                if theirs:
                    self.player.report_draw(False, None)
            elif verb in ("discard", "knock"):
                self.pile.append(index(card_code))
                if theirs:
                    self.player.report_discard(False, index(card_code))
        self.replayed = len(history)


YARDSTICK_PLAYERS = {"simple": Simple, "marjj": Marjj}


def seat_for(player, budget):
    """A move function (view, rng) -> move for one seat of one game."""
    if player in YARDSTICK_PLAYERS:
        return EaaiSeat(YARDSTICK_PLAYERS[player]()).move
    if budget is None:
        return lambda view, rng: choose_move(view, player, rng)
    return lambda view, rng: choose_move(view, player, rng, budget_ms=budget)


# One mirrored pair ---------------------------------------------------------------------------

FINISHES = ("gin", "knock", "undercut")


def play_game(players, seed, budget=None):
    """One game to 100 from seeded deals; per seat: won?, hands won, points, finishes, times."""
    match = Match(Options(), scoring="game", target=TARGET, first_dealer=seed % 2, rng=random.Random(seed))
    rngs = [random.Random(seed * 2 + seat) for seat in (0, 1)]
    movers = [seat_for(player, budget) for player in players]
    times = ([], [])
    while True:
        while match.hand.result is None:
            seat = match.hand.to_move
            view = match.view(seat)
            start = time.perf_counter()
            move = movers[seat](view, rngs[seat])
            times[seat].append(time.perf_counter() - start)
            match.play(move)
        if match.is_over:
            break
        match.next_hand()
    results = match.results
    return [
        {
            "won": match.winner == seat,
            "hands_won": sum(result.winner == seat for result in results),
            "hands": len(results),
            "draws": sum(result.winner is None for result in results),
            "points": sum(result.points for result in results if result.winner == seat),
            **{kind: sum(result.winner == seat and result.kind == kind for result in results) for kind in FINISHES},
            "times": times[seat],
        }
        for seat in (0, 1)
    ]


def play_pair(task):
    """Both games of a mirrored pair, from the first player's side: [(mine, theirs)] ."""
    first, second, seed, budget = task
    straight = play_game((first, second), seed, budget)
    swapped = play_game((second, first), seed, budget)
    return [(straight[0], straight[1]), (swapped[1], swapped[0])]


def play_numbered_pair(numbered_task):
    number, task = numbered_task
    return number, play_pair(task)


# Figures ------------------------------------------------------------------------------------


def wilson(wins, games):
    """The 95% Wilson score interval of a win rate, as (low, high)."""
    if not games:
        return 0.0, 0.0
    share = wins / games
    centre = share + Z95 * Z95 / (2 * games)
    spread = Z95 * math.sqrt(share * (1 - share) / games + Z95 * Z95 / (4 * games * games))
    scale = 1 + Z95 * Z95 / games
    return (centre - spread) / scale, (centre + spread) / scale


def percentile(ordered, share):
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))]


def total(sides, key):
    return sum(side[key] for side in sides)


def report(first, second, games, seconds):
    mine = [pair[0] for pair in games]
    theirs = [pair[1] for pair in games]
    wins = total(mine, "won")
    low, high = wilson(wins, len(games))
    hands = total(mine, "hands")
    times = sorted(t * 1000 for side in mine for t in side["times"]) or [0.0]

    def mix(sides):
        return "/".join(str(total(sides, kind)) for kind in FINISHES)

    print(
        f"{first:>8} vs {second:<8} games {wins:>5}/{len(games):<5} = {wins / len(games):6.1%} "
        f"[{low:5.1%}, {high:5.1%}]  hands won {total(mine, 'hands_won')}-{total(theirs, 'hands_won')} "
        f"of {hands} (dead {total(mine, 'draws')})  gin/knock/undercut {mix(mine)} vs {mix(theirs)}  "
        f"points/hand {total(mine, 'points') / hands:5.2f} vs {total(theirs, 'points') / hands:5.2f}  "
        f"ms/decision median {statistics.median(times):6.2f} p99 {percentile(times, 0.99):7.2f} max {times[-1]:7.1f}  "
        f"({seconds:.0f} s)",
        flush=True,
    )


# A lever measured on the same deals --------------------------------------------------------------

COMPUTER_MODULES = ("players", "judgement", "inference", "knowledge", "search", "rollout", "stakes")


def apply_settings(settings):
    """Set ``module.NAME=VALUE`` constants in games.computer (in each module holding the name)."""
    for setting in settings:
        name, _, value = setting.partition("=")
        module_name, _, attribute = name.rpartition(".")
        owner = importlib.import_module(f"games.computer.{module_name}")
        if not hasattr(owner, attribute):
            raise SystemExit(f"--set: games.computer.{module_name} has no {attribute}")
        for other in COMPUTER_MODULES:
            module = importlib.import_module(f"games.computer.{other}")
            if hasattr(module, attribute):
                setattr(module, attribute, ast.literal_eval(value))  # a number, a tuple of numbers


def recorded(path):
    """{(pairing, seed, pair number, game of the pair): won} from a --record file."""
    games = {}
    with open(path) as lines:
        for line in lines:
            game = json.loads(line)
            games[(game["pairing"], game["seed"], game["pair"], game["game"])] = game["won"]
    return games


def paired(games, before, pairing, seed):
    """How many games changed winner against the recorded run, as a line."""
    plus = minus = common = 0
    for number, pair in games:
        for game, (mine, _) in enumerate(pair):
            then = before.get((pairing, seed, number, game))
            if then is None:
                continue
            common += 1
            plus += mine["won"] and not then
            minus += then and not mine["won"]
    print(f"  paired with the recorded run: {common} games in both, {plus + minus} changed winner "
          f"(+{plus} -{minus}, net {plus - minus:+d}; noise about ±{2 * math.sqrt(plus + minus):.0f})", flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="games per pairing (rounded up to mirrored pairs)")
    parser.add_argument("--workers", type=int, default=1, help="worker processes (the machine has 2 shared cores)")
    parser.add_argument("--pairings", default=",".join(DEFAULT_PAIRINGS), help="comma-separated first-second, e.g. expert-marjj")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--budget", type=float, default=None, help="the levels' thinking budget, ms a decision")
    parser.add_argument("--progress", type=int, default=0, help="also print the figures so far every N mirrored pairs (0: only at the end)")
    parser.add_argument("--set", action="append", default=[], metavar="module.NAME=VALUE", help="a constant of games.computer for this run, e.g. players.FAST_HOLD_BELOW=-1")
    parser.add_argument("--record", metavar="FILE", help="append each game's winner to FILE (JSON lines)")
    parser.add_argument("--paired-with", metavar="FILE", help="a --record file of the same deals: count the games whose winner changed")
    args = parser.parse_args()
    apply_settings(args.set)
    before = recorded(args.paired_with) if args.paired_with else None
    pairs = -(-args.games // 2)
    budget = "default" if args.budget is None else f"{args.budget:g} ms"
    print(f"games to {TARGET}, {pairs * 2} a pairing in mirrored pairs, seed {args.seed}, budget {budget}, "
          f"{args.workers} workers; the first player's figures" + "".join(f"; {s}" for s in args.set), flush=True)
    with Pool(args.workers, initializer=apply_settings, initargs=(args.set,)) as pool:
        for pairing in args.pairings.split(","):
            first, second = pairing.split("-")
            for player in (first, second):
                if player not in YARDSTICKS and player not in LEVELS:
                    parser.error(f"unknown player {player!r}: {', '.join(LEVELS + YARDSTICKS)}")
            start = time.perf_counter()
            tasks = [(number, (first, second, args.seed * 1_000_003 + number, args.budget)) for number in range(pairs)]
            games, numbered = [], []
            for done, (number, pair) in enumerate(pool.imap_unordered(play_numbered_pair, tasks, chunksize=4), 1):
                games.extend(pair)
                numbered.append((number, pair))
                if args.progress and done % args.progress == 0 and done < pairs:
                    print("so far: ", end="")
                    report(first, second, games, time.perf_counter() - start)
            report(first, second, games, time.perf_counter() - start)
            if args.record:
                with open(args.record, "a") as out:
                    for number, pair in sorted(numbered, key=lambda item: item[0]):
                        for game, (mine, _) in enumerate(pair):
                            out.write(json.dumps({"pairing": pairing, "seed": args.seed, "pair": number, "game": game, "won": mine["won"]}) + "\n")
            if before is not None:
                paired(numbered, before, pairing, args.seed)


if __name__ == "__main__":
    main()
