"""The computer reviews a match: every decision of both players weighed from that player's view.

Standard library, the engine and the computer only; no I/O, no user-facing text (tags are codes).

A decision is a move made where more than one was legal. It is judged from the mover's view
alone (``Match.view(seat)``: its hand, the pile, the public history), never from the deck:
worlds consistent with that view are sampled (the opponent's unseen cards drawn by the
Knowledge's odds and developed by one imagined draw for each of its draws so far, so that a
late hand is as strong as late hands are), every candidate move is played out in each of
them by the greedy policy (rollout.py), and a candidate is worth the mean of what its
play-outs end in. The seed is the match's id, the hand's number and the step, so a review is
the same every time, and two views alike are weighed alike whatever the cards behind them.

The unit of a loss is the point of expected hand value: the mover's expected net points of
the hand (its points if it wins, less the opponent's if it loses). The graph shows the chance of
winning the hand beside it. docs/review.md says why, and how the tags, the accuracy and the
luck are computed.
"""

import math
import random
from dataclasses import dataclass, field

from games.engine import Match
from games.engine.hand import CLOSED_STOCK
from games.engine.cards import ALL_CARDS
from games.engine.melds import discard_deadwoods

from .judgement import FUTURE_WEIGHT, Judge
from .knowledge import cards_in, read
from .players import draw_instead, gin_or_least_knock
from .rollout import World, best_discard, greedy_takes, play_out
from .search import apply, copy_world, passes_of
from .stakes import POINTS_SPREAD

# What a hand is worth: the mean points of a won hand (stakes.POINTS_SPREAD, 21.8), as one unit
# of lichess's equity (a sure win against an even hand: +1 on its scale of -1 to 1).
HAND_STAKE = sum(points * share for points, share in POINTS_SPREAD)
# Tags by the loss in points: lichess's thresholds, drops of 0.1, 0.2 and 0.3 in that equity
# (5, 10 and 15 points of winning chance), times HAND_STAKE (2.2, 4.4 and 6.5), largest first.
TAGS = (("blunder", 0.3 * HAND_STAKE), ("mistake", 0.2 * HAND_STAKE), ("inaccuracy", 0.1 * HAND_STAKE))
# Worlds a decision is weighed in first, and at most when its tag is still in doubt (the loss
# within DOUBT standard errors of a threshold).
FIRST_WORLDS = 48
MOST_WORLDS = 192
DOUBT = 2.0
# The discards weighed besides the one played and the least knock: the best few by the
# expert's judgement (judgement.far_discards).
DISCARD_CANDIDATES = 3
# The opponent's hand is developed by at most this many imagined draws (each sheds its worst
# card): a hand that has drawn ten times is not ten draws better than a fresh one.
MOST_DEVELOPING_DRAWS = 6
PERCENT = 100.0
# Lichess's accuracy of a move from the drop of the win percentage (lila's AccuracyPercent).
ACCURACY_SCALE, ACCURACY_RATE, ACCURACY_SHIFT = 103.1668, 0.04354, 3.1669


@dataclass
class Weighed:
    """A decision weighed: each candidate's mean value (percentage points) and the played
    move's loss against the best with its standard error (paired over the same worlds)."""

    played: str
    best: str
    values: dict  # expected points
    chances: dict  # chance of winning the hand, percent
    loss: float
    error: float
    worlds: int
    policy: str = None

    @property
    def chance(self):
        """The mover's chance of winning the hand, played well from here."""
        return self.chances[self.best]

    @property
    def tag(self):
        return tag_for(self.loss, self.error)


def tag_for(loss, error):
    """The worst tag whose threshold the loss clears by more than its standard error."""
    for tag, threshold in TAGS:
        if loss - error > threshold:
            return tag
    return None


def move_accuracy(loss):
    """Lichess's accuracy of one move (0-100) from the points it gave away, read as the drop
    in winning chance they are worth (HAND_STAKE points: 50 points of winning chance)."""
    drop = max(0.0, loss) / HAND_STAKE * PERCENT / 2
    return max(0.0, min(PERCENT, ACCURACY_SCALE * math.exp(-ACCURACY_RATE * drop) - ACCURACY_SHIFT))


def decision_seed(match_id, number, step):
    """The seed of a decision's worlds: the match, the hand and the step, nothing hidden."""
    return f"review:{match_id}:{number}:{step}"


# Worlds ---------------------------------------------------------------------------------


def developing_draws(knowledge):
    return min(knowledge.opponent_turns, MOST_DEVELOPING_DRAWS)


def sample_world(knowledge, rng):
    """One deal the view cannot tell from the real one, the opponent's hand developed by its
    draws so far (search.sample_world deals it fresh, which undercuts nobody late in a hand)."""
    unseen = cards_in(knowledge.unseen)
    weights = knowledge.weights
    keyed = sorted(unseen, key=lambda card: rng.random() ** (1.0 / weights[card]) if weights[card] > 0 else 0.0, reverse=True)
    count = knowledge.opponent_unknown
    # Never so many imagined draws that the stock they come from runs short.
    extra = min(developing_draws(knowledge), len(keyed) - count - CLOSED_STOCK - 1)
    theirs = knowledge.opponent_known | sum(1 << card for card in keyed[:count])
    rest = keyed[count:]
    rng.shuffle(rest)
    for _ in range(max(0, extra)):
        drawn = rest.pop()
        theirs |= 1 << drawn
        shed, _ = best_discard(discard_deadwoods(theirs), -1)
        theirs &= ~(1 << shed)
        rest.insert(0, shed)
    hands = [0, 0]
    hands[knowledge.seat], hands[1 - knowledge.seat] = knowledge.mine, theirs
    return World(hands, rest, list(knowledge.pile), knowledge.seat, knowledge.knock_limit, knowledge.two_card_rule, knowledge.dealer, passes_of(knowledge))


def play_in(world, move, seat):
    """(the mover's net points, its score of the hand: 100 won, 50 drawn, 0 lost) in one world."""
    trial = copy_world(world)
    ended = apply(trial, move)
    winner, points = ended if ended is not None else play_out(trial)
    if winner is None:
        return 0.0, PERCENT / 2
    return (points, PERCENT) if winner == seat else (-points, 0.0)


def candidates(hand_view, knowledge, played, policy):
    """The moves worth weighing: every legal draw; at a discard the one played, the play-outs'
    policy's, the least knock and the expert's best few discards."""
    legal = hand_view["legal_moves"]
    if hand_view["phase"] != "discard":
        return list(legal)
    forbidden = knowledge.cannot_discard.bit_length() - 1 if knowledge.cannot_discard else -1
    judged = Judge(knowledge).far_discards(knowledge.mine, knowledge.my_turns, forbidden, FUTURE_WEIGHT)
    moves = [played, policy, gin_or_least_knock(hand_view["knocks"])]
    moves += [f"discard {ALL_CARDS[card].code()}" for _, card, _ in judged[:DISCARD_CANDIDATES]]
    return [move for move in dict.fromkeys(moves) if move in legal]


def policy_move(knowledge, legal):
    """What the play-outs' greedy policy plays here: the luck is measured by its value, which
    the value before a draw (a mean of that policy's play-outs) is comparable with."""
    if knowledge.phase != "discard":
        takes = "pile" in legal and greedy_takes(knowledge.mine, knowledge.top.bit_length() - 1)
        return "pile" if takes else draw_instead(legal)
    forbidden = knowledge.cannot_discard.bit_length() - 1 if knowledge.cannot_discard else -1
    card, deadwood = best_discard(discard_deadwoods(knowledge.mine), forbidden)
    return f"{'knock' if deadwood <= knowledge.knock_limit else 'discard'} {ALL_CARDS[card].code()}"


def weigh(view, played, seed):
    """The decision of ``view``'s seat, which played ``played``, weighed from its view alone."""
    hand_view = view["hand_view"]
    if played not in hand_view["legal_moves"]:
        raise ValueError(f"{played!r} is not a legal move here")
    knowledge = read(hand_view)
    policy = policy_move(knowledge, hand_view["legal_moves"])
    moves = candidates(hand_view, knowledge, played, policy)
    rng = random.Random(seed)
    samples = {move: [] for move in moves}
    while True:
        for _ in range(FIRST_WORLDS if not samples[played] else len(samples[played])):
            world = sample_world(knowledge, rng)
            for move in moves:
                samples[move].append(play_in(world, move, knowledge.seat))
        weighed = summarise_samples(played, samples)
        weighed.policy = policy
        if weighed.worlds >= MOST_WORLDS or not in_doubt(weighed):
            return weighed


def summarise_samples(played, samples):
    worlds = len(samples[played])
    values = {move: sum(points for points, _ in found) / worlds for move, found in samples.items()}
    chances = {move: sum(chance for _, chance in found) / worlds for move, found in samples.items()}
    best = max(values, key=lambda move: (values[move], move == played))
    differences = [b[0] - p[0] for b, p in zip(samples[best], samples[played])]
    return Weighed(played, best, values, chances, max(0.0, values[best] - values[played]), standard_error(differences), worlds)


def standard_error(values):
    count = len(values)
    if count < 2:
        return 0.0
    mean = sum(values) / count
    return math.sqrt(sum((value - mean) ** 2 for value in values) / (count - 1) / count)


def in_doubt(weighed):
    if weighed.best == weighed.played:
        return False
    return any(abs(weighed.loss - threshold) < DOUBT * weighed.error for _, threshold in TAGS)


def value_of_drawing(view, seed):
    """(expected points, chance) before a stock draw the mover cannot refuse: means over worlds."""
    knowledge = read(view["hand_view"])
    rng = random.Random(seed)
    found = [play_in(sample_world(knowledge, rng), "stock", knowledge.seat) for _ in range(FIRST_WORLDS)]
    return sum(points for points, _ in found) / FIRST_WORLDS, sum(chance for _, chance in found) / FIRST_WORLDS


# Hands and matches ----------------------------------------------------------------------


@dataclass
class HandReview:
    number: int
    decisions: list = field(default_factory=list)
    # Per seat, the luck of the hand in points: the deal (the first expected points it saw against
    # an even hand's 0) and each stock draw (the expected points after it against before it).
    luck: list = field(default_factory=lambda: [0.0, 0.0])
    # [step, seat 0's chance] through the hand, each point the mover's own estimate.
    chances: list = field(default_factory=list)
    dealt: set = field(default_factory=set)  # the seats whose deal luck is counted

    def to_dict(self):
        return {"number": self.number, "decisions": self.decisions, "luck": self.luck, "chances": self.chances}


def match_upto(save, number):
    """The saved match replayed up to hand ``number``'s deal (its moves not yet played)."""
    hands = save["hands"][:number]
    hands = hands[:-1] + [{**hands[-1], "moves": []}]
    return Match.from_dict({**save, "hands": hands})


def review_hand(save, number, match_id):
    """The HandReview of hand ``number`` (from 1) of a saved match (Match.to_dict's shape)."""
    match = match_upto(save, number)
    review = HandReview(number)
    before_draw = [None, None]  # the mover's expected points just before its stock draw
    for step, move in enumerate(save["hands"][number - 1]["moves"]):
        seat = match.hand.to_move
        view = match.view(seat)
        legal = view["hand_view"]["legal_moves"]
        seed = decision_seed(match_id, number, step)
        point = drawing = None  # (points, chance) by the play-out policy; points before a draw
        if len(legal) > 1:
            weighed = weigh(view, move, seed)
            point = weighed.values[weighed.policy], weighed.chances[weighed.policy]
            review.decisions.append(decision_dict(step, seat, weighed))
            drawing = weighed.values["stock"] if move == "stock" else None
        elif move == "stock":
            point = value_of_drawing(view, seed)
            drawing = point[0]
        if point is not None:
            count_luck(review, seat, point[0], before_draw)
            review.chances.append([step, round(point[1] if seat == 0 else PERCENT - point[1], 1)])
        before_draw[seat] = drawing if drawing is not None else before_draw[seat]
        match.play(move)
    result = match.hand.result
    if result is not None:
        end = 50.0 if result.winner is None else (PERCENT if result.winner == 0 else 0.0)
        review.chances.append([len(save["hands"][number - 1]["moves"]), end])
    review.luck = [round(luck, 1) for luck in review.luck]
    return review


def count_luck(review, seat, value, before_draw):
    """The luck of the deal at a seat's first weighed point (its expected points against an
    even hand's 0), and of a stock draw at the point after it (against the mean over draws)."""
    if seat not in review.dealt:
        review.dealt.add(seat)
        review.luck[seat] += value
    elif before_draw[seat] is not None:
        review.luck[seat] += value - before_draw[seat]
        before_draw[seat] = None


def decision_dict(step, seat, weighed):
    return {
        "step": step,
        "seat": seat,
        "played": weighed.played,
        "best": weighed.best,
        "loss": round(weighed.loss, 1),
        "error": round(weighed.error, 1),
        "tag": weighed.tag,
        "chance": round(weighed.chance, 1),
        "values": {move: round(value, 1) for move, value in weighed.values.items()},
    }


def seat_summaries(hands):
    """Per seat: accuracy (the mean of lichess's per-move accuracy), the tags' counts and luck
    (the mean per hand, in points)."""
    summaries = []
    for seat in (0, 1):
        decisions = [d for hand in hands for d in hand["decisions"] if d["seat"] == seat]
        accuracy = sum(move_accuracy(d["loss"]) for d in decisions) / len(decisions) if decisions else PERCENT
        counts = {tag: sum(d["tag"] == tag for d in decisions) for tag, _ in TAGS}
        luck = sum(hand["luck"][seat] for hand in hands) / len(hands) if hands else 0.0
        summaries.append({"accuracy": round(accuracy, 1), "inaccuracies": counts["inaccuracy"], "mistakes": counts["mistake"],
                          "blunders": counts["blunder"], "luck": round(luck, 1)})
    return summaries


def review_match(save, match_id, done=(), on_hand=None):
    """Every hand of a saved match reviewed: [HandReview.to_dict()], skipping the numbers in
    ``done``; ``on_hand(review_dict)`` is told each hand as it is finished."""
    reviews = []
    for number in range(1, len(save["hands"]) + 1):
        if number in done:
            continue
        review = review_hand(save, number, match_id).to_dict()
        if on_hand is not None:
            on_hand(review)
        reviews.append(review)
    return reviews
