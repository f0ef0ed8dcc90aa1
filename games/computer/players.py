"""The levels: how each one picks a move from a view.

- beginner: counts its deadwood and little else. It takes the discard when that lowers its
  deadwood (sometimes missing a small gain), sheds one of the cards that leave nearly the
  least deadwood (not always the best), and knocks at the first chance.
- club: judges each discard one card ahead, keeps cards with live neighbours, does not feed
  the opponent what they collect, takes the discard only when it beats the stock, and
  knocks at the first chance (gin when it can).
- expert: judges each discard by what the hand may become (the outs of the next draws,
  counted most early in the hand, and once it plays for gin the chance the next draw gins; the
  outs count less against an opponent read as knocking at once, so its hand is low sooner) and
  by what it feeds the opponent (against a player read as knocking at once, its hand is guessed
  by sampled hands that fit every move it made this hand, and a discard that leaves much deadwood costs more the
  likelier it knocks next: inference.py); knocks short of gin only while the opponent's hand
  is still raw (against a player who knocks at once, only with a hand still far from gin: a
  made hand is held for gin or the undercut), and hunts gin after (but for a knock that may
  end the game, by what the opponent's showdowns say it holds); where a draw from the pile is
  close it samples worlds and plays them out (search.py), scoring each end by the chance of
  winning the match (stakes.py), as many worlds as its time budget allows.
"""

from dataclasses import replace

from games.engine.cards import ALL_CARDS, Card
from games.engine.melds import discard_deadwoods, least_deadwood

from .inference import infer, posterior_odds, track
from .judgement import FUTURE_WEIGHT, Judge
from .knowledge import read
from .rollout import best_discard, greedy_takes
from .search import evaluate
from .stakes import Stakes

# A beginner's slips, chosen to be a beginner's, not tuned (docs/computer.md: the levels' table).
BEGINNER_MISSES = 0.2
BEGINNER_SMALL_GAIN = 5
BEGINNER_SPREAD = 2
BEGINNER_BEST = 0.6
# The expert searches only when the pile's card beats the stock by less than this (not tuned).
CLEAR_TAKE = 4.0
# Worlds a search samples a millisecond of the budget: a searched move fits its budget.
WORLDS_PER_MS = 0.4
MIN_WORLDS = 4
DEFAULT_BUDGET_MS = 100
# (opponent's draws so far, most deadwood the expert knocks with until then); later, gin only
# (MARJJ's own rule; the evidence: docs/computer.md, "The expert's constants").
KNOCK_SCHEDULE = ((3, 10),)
# Close to the target, a knock that ends the game is worth more than holding (docs/computer.md).
FINISH_NEED = 8
FINISH_CEILING = 3
FINISH_CEILING_AGAINST_KNOCKER = 10
# Against a player read as knocking at once, the discards weigh the hand's future less, so it is
# low sooner (docs/computer.md; not confirmed on fresh deals).
FAST_FUTURE_WEIGHT = 6.0
# Against a gin hunter, a discard is also worth this much deadwood times the chance the next draw
# leaves gin (docs/computer.md).
GIN_RACE_WEIGHT = 300.0
ANY_TURN = 1 << 20  # a schedule's turns that last all hand
# Against a player read as knocking at once, its hand is guessed by hands drawn to fit its last
# turn (inference.py), mixed with the Knowledge's odds as if they were INFER_PRIOR hands more.
INFER_SAMPLES = 60
INFER_TRIES = 400
INFER_PRIOR = 10.0
# Against such a player its hand is read first by a particle filter over its whole hand
# (inference.track), this many particles a millisecond of the budget (docs/computer.md).
TRACK_PARTICLES_PER_MS = 10
TRACK_MIN_PARTICLES = 50
# What a point of our deadwood above KNOCK_PAR costs a discard, times the chance such a player
# knocks next turn (docs/computer.md).
KNOCK_NEXT_WEIGHT = 4.0
# Against such a player a small early knock is held for gin or an undercut, unless it would end
# the game (docs/computer.md; measured with the knock limit of 10 only).
FAST_HOLD_BELOW = 7
FAST_HOLD_LIMIT = 10
NO_HOLD = -1


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
    _, after = best_discard(discard_deadwoods(knowledge.mine | 1 << top), top)
    small = least_deadwood(knowledge.mine) - after <= BEGINNER_SMALL_GAIN
    return not (small and rng.random() < BEGINNER_MISSES)


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
    fast = knocks_at_once(view, 1 - knowledge.seat, knowledge.knock_limit)
    if fast and INFER_SAMPLES:
        knowledge, judge = _inferred(knowledge, judge, hand_view, budget_ms)
    if hand_view["phase"] != "discard":
        candidates = _draw_candidates(knowledge, judge, legal)
    else:
        weight, gin_weight = (FAST_FUTURE_WEIGHT, 0.0) if fast else (FUTURE_WEIGHT, GIN_RACE_WEIGHT)
        knock_weight = KNOCK_NEXT_WEIGHT if judge.hands else 0.0
        hold_below = _hold_below(view, knowledge, judge, hand_view["knocks"]) if fast else NO_HOLD
        candidates = _discard_candidates(knowledge, judge, hand_view["knocks"], schedule_for(view, knowledge), weight, gin_weight, knock_weight, hold_below)
    if len(candidates) == 1:
        return candidates[0]
    worlds = max(MIN_WORLDS, round(budget_ms * WORLDS_PER_MS))
    values = evaluate(knowledge, candidates, Stakes(view, knowledge.seat), worlds, rng)
    # Ties go to the club's choice, listed first.
    return max(candidates, key=lambda move: values[move])


def _inferred(knowledge, judge, hand_view, budget_ms):
    """(knowledge, judge) with the opponent's hand guessed by sampled hands that fit its moves of
    this hand (inference.py), or as they were if it has not moved or no hand fits. The samples'
    seed is the view's (our cards, the pile, the moves so far), so the player's rng is not drawn
    on."""
    if knowledge.opponent_last == (-1, -1, -1):
        return knowledge, judge
    history = hand_view["history"]
    seed = (knowledge.mine << 60) ^ (knowledge.dead << 4) ^ len(history)
    hands = []
    if TRACK_PARTICLES_PER_MS:
        upcard = Card.from_code(hand_view["upcard"]).index
        particles = max(TRACK_MIN_PARTICLES, round(budget_ms * TRACK_PARTICLES_PER_MS))
        hands = track(history, upcard, knowledge.seat, knowledge.mine, knowledge.knock_limit, INFER_SAMPLES, seed, particles)
    if not hands:
        hands = infer(knowledge, knowledge.opponent_last, seed, INFER_SAMPLES, INFER_TRIES)
    if not hands:
        return knowledge, judge
    odds = posterior_odds(hands, judge.odds, INFER_PRIOR)  # the Judge has the Knowledge's odds
    unseen = knowledge.unseen
    weights = [odds[card] if unseen >> card & 1 else 0.0 for card in range(52)]
    knowledge = replace(knowledge, weights=weights)
    return knowledge, Judge(knowledge, hands, INFER_PRIOR)


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


def knock_ceiling(knowledge, schedule=KNOCK_SCHEDULE):
    """The most deadwood the expert knocks with, by how many turns the opponent has drawn."""
    for turns, ceiling in schedule:
        if knowledge.opponent_turns <= turns:
            return ceiling
    return 0


def holds_knockable(view, opponent, knock_limit):
    """Whether the opponent was seen at a showdown of this match holding a hand it could have
    knocked with: a player that does not knock at its first chance."""
    for result in view["results"]:
        shown = result["players"][opponent]
        if result["knocker"] == opponent:
            continue  # its own knock shows nothing it held
        codes = [c for meld in shown["melds"] for c in meld] + [lay["card"] for lay in shown["layoffs"]] + shown["deadwood"]
        if least_deadwood(sum(Card.from_code(c).mask for c in codes)) <= knock_limit:
            return True
    return False


def knocks_at_once(view, opponent, knock_limit):
    """Whether the opponent reads as a player who knocks at its first chance: seen knocking short
    of gin more often than going gin at the showdowns of this match, and never seen holding a
    hand it could have knocked with. (MARJJ knocks short of gin only in its first three turns,
    then hunts gin: a knock alone misread it in 9% of its hands, 40 games; a gin for each knock
    clears it.)"""
    knocks = gins = 0
    for result in view["results"]:
        if result["knocker"] == opponent:
            if result["players"][opponent]["deadwood_points"] > 0:
                knocks += 1
            else:
                gins += 1
    return knocks > gins and not holds_knockable(view, opponent, knock_limit)


def points_needed(view, seat):
    """The fewest points the seat still needs to win a game of the match, None for a single hand."""
    sheet = view["sheet"]
    if not sheet or not sheet.get("games"):
        return None
    open_games = [sheet["target"] - game["points"][seat] for game in sheet["games"] if game["winner"] is None]
    return min(open_games) if open_games else None


def schedule_for(view, knowledge):
    """KNOCK_SCHEDULE, and close to the target a late ceiling too (FINISH_NEED)."""
    needed = points_needed(view, knowledge.seat)
    if needed is None or needed > FINISH_NEED:
        return KNOCK_SCHEDULE
    holder = holds_knockable(view, 1 - knowledge.seat, knowledge.knock_limit)
    return KNOCK_SCHEDULE + ((ANY_TURN, FINISH_CEILING if holder else FINISH_CEILING_AGAINST_KNOCKER),)


def _hold_below(view, knowledge, judge, knocks):
    """Against a player read as knocking at once: the deadwood up to which a knock is held for
    gin or an undercut (FAST_HOLD_BELOW), or NO_HOLD when the knock may end the game."""
    if knowledge.knock_limit < FAST_HOLD_LIMIT or not knocks or min(knocks.values()) > FAST_HOLD_BELOW:
        return NO_HOLD
    return NO_HOLD if knock_may_end_game(view, knowledge, judge, min(knocks.values())) else FAST_HOLD_BELOW


def knock_may_end_game(view, knowledge, judge, deadwood):
    """Whether a knock with ``deadwood`` would win the points the expert still needs: in at least
    half the opponent's sampled hands (lay-offs aside), or, with none sampled, once it needs at
    most FINISH_NEED."""
    needed = points_needed(view, knowledge.seat)
    if needed is None:
        return True  # a single hand: any knock that wins it wins the match
    if not judge.hands:
        return needed <= FINISH_NEED
    ending = sum(least_deadwood(hand) - deadwood >= needed for hand in judge.hands)
    return 2 * ending >= len(judge.hands)


def _discard_candidates(knowledge, judge, knocks, schedule=KNOCK_SCHEDULE, future_weight=FUTURE_WEIGHT, gin_weight=0.0, knock_weight=0.0, hold_below=NO_HOLD):
    gin = [c for c, deadwood in knocks.items() if deadwood == 0]
    if gin:
        return [f"knock {gin[0]}"]
    # Searching between close discards measured worse than the club's judgement of them:
    # the greedy play-outs judge the future of a hand worse than the one-card look-ahead.
    ceiling = knock_ceiling(knowledge, schedule)
    knock = gin_or_least_knock({c: deadwood for c, deadwood in knocks.items() if deadwood <= ceiling})
    if knock and min(knocks.values()) > hold_below:
        return [knock]
    gin_weight = gin_weight if ceiling == 0 else 0.0
    _, card, _ = judge.far_discards(knowledge.mine, knowledge.my_turns, _forbidden(knowledge), future_weight, gin_weight, knock_weight)[0]
    return [f"discard {code(card)}"]


LEVELS = {"beginner": beginner, "club": club, "expert": expert}
