"""Each hand's deal at a live table (docs/fairness.md), decided here for the table's owner.

Once a hand is over, the next hand's seed waits on the table's row (`Table.next_deal`), written
in the transaction of the move that ended the hand: stored before its commitment is shown, so
a restarted server deals the cards it committed to. Each seat may then add its contribution,
once, until the deal; at the deal the server supplies the shares that did not come.

A table a test seeded (`deal_seed`, GAMES_DEAL_SEED) deals from its random.Random as before,
so that tests meet the same cards: it shows no commitment and takes no contribution.
"""

from games.engine import NextDeal
from games.errors import GameError


def is_committed(table):
    """Whether the table deals from committed seeds (every table but a test's seeded one)."""
    return table.deal_seed is None


def fresh_deal(table):
    """A deal the server makes alone, for a hand no commitment could be shown before (a new
    table's first hand): both shares supplied."""
    return NextDeal.fresh().fixed() if is_committed(table) else None


def deal_now(table):
    """The deal of the hand being dealt: the waiting one with the shares that came (the rest
    supplied), else a fresh one; None at a seeded table."""
    if not is_committed(table):
        return None
    if table.next_deal is None:
        return fresh_deal(table)
    return NextDeal.from_dict(table.next_deal).fixed()


def waiting_after(table, match):
    """The next hand's NextDeal to store now, or None: once a hand is over, if none waits."""
    if is_committed(table) and match.hand.result is not None and table.next_deal is None:
        return NextDeal.fresh()
    return None


def waiting_for_rematch(table):
    """The deal to keep waiting once a match ends early (resigned, claimed): the one that waits
    already, else a fresh one for the rematch (NextDeal.to_dict()); None at a seeded table."""
    if not is_committed(table) or table.next_deal is not None:
        return table.next_deal
    return NextDeal.fresh().to_dict()


def awaits_contribution(table, seat):
    """Whether a deal waits for `seat`'s contribution (the computer's seat then sends one)."""
    return table.next_deal is not None and table.next_deal["contributions"][seat] is None


def with_contribution(table, seat, share):
    """The waiting deal with `seat`'s share, as saved; GameError "contribution_late" when no
    deal waits, "contribution_twice" or "contribution_malformed" (nothing changes)."""
    if table.next_deal is None:
        raise GameError("contribution_late")
    try:
        return NextDeal.from_dict(table.next_deal).with_contribution(seat, share).to_dict()
    except ValueError as error:
        raise GameError(str(error)) from None
