"""The sampled guess at a fast knocker's hand (inference.py): its facts hold for the true hand."""

import random

from games.computer import inference
from games.computer.inference import after_each_draw, fits, hand_sampler, infer, joinable, knocks_after_stock
from games.computer.knowledge import Knowledge, cards_in, read
from games.computer.rollout import joins_a_meld
from games.engine import Match, Options
from games.engine.cards import Card
from games.engine.melds import discard_deadwoods, least_deadwood


def test_it_finds_exactly_the_cards_that_join_a_meld_of_a_hand():
    rng = random.Random(3)
    for _ in range(500):
        hand = sum(1 << card for card in rng.sample(range(52), 10))
        found = joinable(hand)
        for card in range(52):
            if not hand >> card & 1:
                assert bool(found >> card & 1) == joins_a_meld(hand, card)


def test_it_counts_the_chance_of_knocking_after_a_stock_draw_card_by_card():
    rng = random.Random(4)
    checked = 0
    while checked < 200:
        cards = rng.sample(range(52), 30)
        hand = sum(1 << card for card in cards[:10])
        if least_deadwood(hand) <= 10:
            continue
        stock = sum(1 << card for card in cards[10:])
        knocks = sum(1 for card in cards[10:] if min(discard_deadwoods(hand | 1 << card).values()) <= 10)
        assert abs(knocks_after_stock(hand, stock, 10) - knocks / 20) < 1e-9
        checked += 1


def test_it_tells_the_deadwood_after_each_draw_as_solving_every_eleven_cards_would():
    rng = random.Random(6)
    for _ in range(300):
        cards = rng.sample(range(52), 40)
        hand = sum(1 << card for card in cards[:10])
        solved = [min(discard_deadwoods(hand | 1 << card).values()) for card in cards[10:]]
        assert after_each_draw(hand, cards[10:]) == solved


def test_it_replays_no_more_of_the_hand_in_a_decision_than_its_cap_allows(monkeypatch):
    monkeypatch.setattr(inference, "TRACK_STEPS_PER_PARTICLE", 90)  # the cap measured in docs/computer.md
    particles, replayed, most = 200, [0], 0
    cap = particles * inference.TRACK_STEPS_PER_PARTICLE
    real_replayed = inference._replayed

    def counted(events, deal, draws, knock_limit):
        replayed[0] += len(events)
        return real_replayed(events, deal, draws, knock_limit)

    monkeypatch.setattr(inference, "_replayed", counted)
    for seed in range(4):
        match = Match(Options(), scoring="game", target=40, first_dealer=seed % 2, rng=random.Random(seed))
        rngs = [random.Random(seed * 2 + seat) for seat in (0, 1)]
        while match.hand.result is None:
            seat = match.hand.to_move
            view = match.view(seat)
            if seat == 0:
                hand_view = view["hand_view"]
                knowledge = read(hand_view)
                replayed[0] = 0
                upcard = Card.from_code(hand_view["upcard"]).index
                hands = inference.track(hand_view["history"], upcard, 0, knowledge.mine, knowledge.knock_limit, 20, seed, particles)
                assert replayed[0] <= cap
                most = max(most, replayed[0])
                assert all(not hand & knowledge.mine for hand in hands)
            match.play(_greedy(view, rngs[seat]))
    assert most > cap * 0.9  # the cap was reached, so it bounded something


def _greedy(view, rng):
    """A player who knocks at once: takes a face-up card that joins a meld, sheds a card leaving
    the least deadwood (never the card just taken), knocks when it can."""
    hand_view = view["hand_view"]
    legal = hand_view["legal_moves"]
    mine = sum(Card.from_code(code).mask for code in hand_view["hand"])
    if hand_view["phase"] != "discard":
        if "pile" in legal and joins_a_meld(mine, Card.from_code(hand_view["discard_top"]).index):
            return "pile"
        return "pass" if "pass" in legal else "stock"
    taken = Card.from_code(hand_view["cannot_discard"]).index if hand_view["cannot_discard"] else -1
    deadwoods = {card: deadwood for card, deadwood in discard_deadwoods(mine).items() if card != taken}
    least = min(deadwoods.values())
    card = rng.choice(sorted(card for card, deadwood in deadwoods.items() if deadwood == least))
    move = f"knock {Card(card).code()}"
    return move if move in legal else f"discard {Card(card).code()}"


def test_it_samples_the_opponents_hand_by_the_odds_of_each_unseen_card():
    # Unseen: cards 0-4 with odds 3, 5-9 with odds 1, the rest (10-19, 21-29) with none; card 20
    # is known held, 30-39 are ours and 40-51 in the pile.
    weights = [0.0] * 52
    for card in range(5):
        weights[card] = 3.0
    for card in range(5, 10):
        weights[card] = 1.0
    knowledge = Knowledge(
        mine=sum(1 << card for card in range(30, 40)), opponent_known=1 << 20, opponent_unknown=4,
        dead=sum(1 << card for card in range(40, 52)), top=1 << 51, knock_limit=10, two_card_rule=False,
        weights=weights, opponent_turns=1, my_turns=1, cannot_discard=0, pile=[51], seat=0, dealer=1,
        phase="draw", passes=0, must_draw_stock=False,
    )
    sample = hand_sampler(knowledge, cards_in(knowledge.unseen))
    rng = random.Random(7)
    held = [0] * 52
    for _ in range(2000):
        hand = sample(rng)
        assert hand >> 20 & 1 and len(cards_in(hand)) == 5
        assert not hand & ~(1 << 20) & ~0x3FF  # never a card with no odds
        for card in cards_in(hand):
            held[card] += 1
    heavy, light = sum(held[:5]), sum(held[5:10])
    # Three times the odds: held far more often (some 2.4 times, four cards drawn without
    # replacement; an even draw would give 1).
    assert heavy > 2 * light


def test_it_keeps_the_true_hand_of_a_fast_knocker_and_only_samples_that_fit_as_it_does():
    checked = 0
    for seed in range(6):
        match = Match(Options(), scoring="game", target=40, first_dealer=seed % 2, rng=random.Random(seed))
        rngs = [random.Random(seed * 2 + seat) for seat in (0, 1)]
        while True:
            while match.hand.result is None:
                seat = match.hand.to_move
                view = match.view(seat)
                if seat == 0:
                    knowledge = read(view["hand_view"])
                    last = knowledge.opponent_last
                    if last != (-1, -1, -1):
                        assert fits(knowledge, match.hand.hands[1], last)
                        hands = infer(knowledge, last, seed, 5, 50)
                        assert hands == infer(knowledge, last, seed, 5, 50)
                        for hand in hands:
                            assert fits(knowledge, hand, last)
                            assert hand & knowledge.opponent_known == knowledge.opponent_known
                            assert not hand & (knowledge.mine | knowledge.dead)
                            assert len(cards_in(hand)) == view["hand_view"]["opponent_count"]
                        checked += 1
                match.play(_greedy(view, rngs[seat]))
            if match.is_over:
                break
            match.next_hand()
    assert checked > 100


def test_the_whole_hand_filter_keeps_a_deal_whose_every_card_the_opponent_has_thrown():
    """Ten stock draws, each followed by throwing a dealt card: no card of the deal is left to
    swap, and the filter keeps the deal instead of failing the computer's move."""
    deal, drawn = list(range(10)), list(range(20, 30))
    events = []
    for card in deal:
        events += [("stock",), ("throw", card, False)]
    dealt = sum(1 << card for card in deal)
    chance, _ = inference._replayed(events, dealt, drawn, 10)
    candidates = sum(1 << card for card in range(40))
    kept, _, kept_chance = inference._moved(random.Random(1), events, dealt, drawn, candidates, 10, 50, chance)
    assert (kept, kept_chance) == (dealt, chance)
