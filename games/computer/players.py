"""The levels: how each one picks a move from a view.

- beginner: counts its deadwood and little else. It takes the discard when that lowers its
  deadwood (sometimes missing a small gain), sheds one of the cards that leave nearly the
  least deadwood (not always the best), and knocks at the first chance.
- club: judges each discard one card ahead, keeps cards with live neighbours, does not feed
  the opponent what they collect, takes the discard only when it beats the stock, and
  knocks at the first chance (gin when it can).
- expert: the club player's discards; where a draw from the pile is close,
  and at every knock that is not gin, it samples worlds and plays them out (search.py),
  scoring each end by the chance of winning the match (stakes.py).
"""

from games.engine.cards import ALL_CARDS, Card

from .judgement import Judge
from .knowledge import read
from .rollout import greedy_takes
from .search import evaluate
from .stakes import Stakes

BEGINNER_MISSES = 0.2  # how often the beginner overlooks a small gain from the pile
BEGINNER_SMALL_GAIN = 5
BEGINNER_SPREAD = 2  # the beginner sheds any card within this much of the least deadwood
BEGINNER_BEST = 0.6  # ... but the best one this often

# The expert searches only when the club's judgement does not settle the move.
CLEAR_TAKE = 4.0  # the pile beats the stock by this much: just take it
WORLDS = 40
SELF_KNOCKS = ()
DEFAULT_BUDGET_MS = 100


def code(card):
    return ALL_CARDS[card].code()


def index(card_code):
    return Card.from_code(card_code).index


def draw_instead(legal):
    """The move that does not take the discard: pass during the offer, else the stock."""
    return "pass" if "pass" in legal else "stock"


def gin_or_least_knock(knocks):
    """The knock move leaving the least deadwood, or None if no knock is legal."""
    if not knocks:
        return None
    card_code = min(knocks, key=lambda c: (knocks[c], c))
    return f"knock {card_code}"


# Beginner -------------------------------------------------------------------------------


def beginner(view, rng, budget_ms):
    hand_view = view["hand_view"]
    legal = hand_view["legal_moves"]
    if hand_view["phase"] != "discard":
        return "pile" if "pile" in legal and _beginner_takes(hand_view, rng) else draw_instead(legal)
    knock = gin_or_least_knock(hand_view["knocks"])
    if knock:
        return knock
    leaves = hand_view["discard_deadwood"]
    least = min(leaves.values())
    best = [c for c in leaves if leaves[c] == least]
    near = [c for c in leaves if least < leaves[c] <= least + BEGINNER_SPREAD]
    pool = best if not near or rng.random() < BEGINNER_BEST else near
    return f"discard {rng.choice(pool)}"


def _beginner_takes(hand_view, rng):
    knowledge = read(hand_view)
    top = index(hand_view["discard_top"])
    if not greedy_takes(knowledge.mine, top):
        return False
    return not rng.random() < BEGINNER_MISSES


# Club -----------------------------------------------------------------------------------


def _judged(view):
    """(hand view, legal moves, knowledge, judge): what the club and the expert start from."""
    hand_view = view["hand_view"]
    knowledge = read(hand_view)
    return hand_view, hand_view["legal_moves"], knowledge, Judge(knowledge)


def club(view, rng, budget_ms):
    hand_view, legal, knowledge, judge = _judged(view)
    if hand_view["phase"] != "discard":
        takes = "pile" in legal and judge.take_gain(knowledge.mine, knowledge.top.bit_length() - 1) > 0
        return "pile" if takes else draw_instead(legal)
    knock = gin_or_least_knock(hand_view["knocks"])
    if knock:
        return knock
    _, card, _ = judge.discards(knowledge.mine, _forbidden(knowledge))[0]
    return f"discard {code(card)}"


def _forbidden(knowledge):
    return knowledge.cannot_discard.bit_length() - 1 if knowledge.cannot_discard else -1


# Expert ---------------------------------------------------------------------------------


def expert(view, rng, budget_ms):
    hand_view, legal, knowledge, judge = _judged(view)
    if hand_view["phase"] != "discard":
        candidates = _draw_candidates(knowledge, judge, legal)
    else:
        candidates = _discard_candidates(knowledge, judge, hand_view["knocks"])
    if len(candidates) == 1:
        return candidates[0]
    values = evaluate(knowledge, candidates, Stakes(view, knowledge.seat), WORLDS, rng, SELF_KNOCKS)
    # Ties go to the club's choice, listed first.
    return max(candidates, key=lambda move: values[move])


def _draw_candidates(knowledge, judge, legal):
    other = draw_instead(legal)
    if "pile" not in legal:
        return [other]
    top = knowledge.top.bit_length() - 1
    if not greedy_takes(knowledge.mine, top):
        return [other]
    gain = judge.take_gain(knowledge.mine, top)
    if gain > CLEAR_TAKE:
        return ["pile"]
    return ["pile", other] if gain > 0 else [other, "pile"]


def _discard_candidates(knowledge, judge, knocks):
    gin = [c for c, deadwood in knocks.items() if deadwood == 0]
    if gin:
        return [f"knock {gin[0]}"]
    # Searching between close discards measured worse than the club's judgement of them:
    # the greedy play-outs judge the future of a hand worse than the one-card look-ahead.
    _, card, _ = judge.discards(knowledge.mine, _forbidden(knowledge))[0]
    knock = gin_or_least_knock(knocks)
    return [f"discard {code(card)}"] + ([knock] if knock else [])


LEVELS = {"beginner": beginner, "club": club, "expert": expert}
