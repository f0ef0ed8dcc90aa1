"""The expert's far discards: what a hand may become, and its chance of gin on the next draw."""

from games.computer.judgement import Judge
from games.computer.knowledge import Knowledge, codes_mask

# Nine cards in melds and a king: the 4 of clubs or the 9 of spades (then the king shed) is gin.
ONE_FROM_GIN = ["AC", "2C", "3C", "4D", "4H", "4S", "9C", "9D", "9H", "KS"]


def _judge(mine):
    weights = [0.0 if mine >> index & 1 else 1.0 for index in range(52)]
    knowledge = Knowledge(
        mine=mine, opponent_known=0, opponent_unknown=10, dead=0, top=0, knock_limit=10, two_card_rule=True,
        weights=weights, opponent_turns=5, my_turns=5, cannot_discard=0, pile=[], seat=0, dealer=1,
        phase="discard", passes=2, must_draw_stock=False,
    )
    return Judge(knowledge)


def test_the_chance_of_gin_is_that_of_drawing_one_of_its_cards_from_the_stock():
    mine = codes_mask(ONE_FROM_GIN)
    judge = _judge(mine)
    stock = dict(judge.stock_odds)
    _, gin = judge.outs(mine)
    assert abs(gin - (stock[codes_mask(["4C"]).bit_length() - 1] + stock[codes_mask(["9S"]).bit_length() - 1])) < 1e-9
    _, none = judge.outs(codes_mask(["AC", "3D", "5H", "7S", "9C", "JD", "QH", "KS", "2S", "6C"]))
    assert none == 0.0


def test_a_gin_weight_favours_the_discard_that_leaves_more_cards_that_gin():
    # Three melds, the 2 and 3 of clubs in one of them, and two more aces. Shedding an ace leaves
    # 1 deadwood; shedding the 3 of clubs leaves 2 (the aces a set, the 2 of clubs alone), but more
    # stock cards that gin at once.
    hand = codes_mask(["AC", "2C", "3C", "4D", "4H", "4S", "9C", "9D", "9H", "AD", "AH"])
    judge = _judge(hand)
    three = codes_mask(["3C"]).bit_length() - 1
    plain, racing = judge.far_discards(hand, turn=9)[0][1], judge.far_discards(hand, turn=9, gin_weight=300.0)[0][1]
    assert plain != three and racing == three
    assert judge.outs(hand & ~(1 << three))[1] > judge.outs(hand & ~(1 << plain))[1]
