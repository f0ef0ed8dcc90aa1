"""Opening a table: its rules checked, its first deal, its creator's seat (and the computer's).
A new table has no owner until someone looks at it (games.live.tables)."""

import random
from typing import NamedTuple

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games import identity
from games.archive import players as archive_players
from games.archive import record as archive
from games.computer import LEVELS
from games.engine import HOLLYWOOD, Match, Options
from games.errors import GameError
from games.live import store
from games.live.clean import clean_clock, clean_name, clean_rules
from games.live.clock_rules import clock_turn_key, deadline_for, fresh_banks
from games.models import Table


class Seated(NamedTuple):
    """Who took a seat: the seat's number and secret, and the secret of a player created
    for them (None when their player cookie named one), for the caller to hand over."""

    table: Table
    seat: int
    token: str
    player_token: str = None


# The operating system's randomness, for every real table: a SystemRandom of each owner's own
# would carry a Mersenne Twister's 2.5 KB state that it never uses (the soak's tracemalloc).
SYSTEM_RANDOM = random.SystemRandom()


def rng_for(table):
    """SystemRandom for real tables; a seeded Random only when a test fixed `deal_seed`.

    The seed is mixed with the match and the version so that every deal of a seeded
    table is reproducible, yet different from the one before.
    """
    if table.deal_seed is None:
        return SYSTEM_RANDOM
    return random.Random(f"{table.deal_seed}:{table.match_number}:{table.version}")


def new_match(table):
    rng = rng_for(table)
    options = Options(straight=table.straight, oklahoma=table.oklahoma)
    return Match(options, scoring=table.scoring, target=table.target, first_dealer=rng.randrange(2), rng=rng)


def start_archived_match(table, seats):
    """Open the archive's record once both seats are taken; its public id is the match_id."""
    archived = archive.start_archived_match(
        table_code=table.code, match_number=table.match_number, players=[seats[0].player, seats[1].player],
        scoring=table.scoring, target=table.target, straight=table.straight, oklahoma=table.oklahoma,
        started_at=table.match_started,
    )
    table.archive_id, table.match_id = archived.pk, archived.public_id


def sit(table, number, name, player_token):
    player, new_player_token = archive_players.player_for(name, player_token)
    token = identity.new_token()
    store.add_seat(table, number, name, identity.hash_token(token), player)
    return Seated(table, number, token, new_player_token)


@transaction.atomic
def open_table(name, scoring=HOLLYWOOD.name, target=100, straight=False, oklahoma=False, deal_seed=None,
               player_token=None, computer=None, clock=0):
    """Open a table with its creator in seat 0, and the computer in seat 1 when `computer`
    names its level (games.computer.LEVELS): the match then starts at once.

    `player_token` is the secret of the browser's player cookie; without one (a program, a
    new browser) a new player is made and its secret returned in `Seated.player_token`.

    `clock` is the turn clock's seconds a turn (settings.GAMES_CLOCKS), 0 for none.
    """
    name = clean_name(name)
    scoring, target, straight, oklahoma = clean_rules(scoring, target, straight, oklahoma)
    if computer is not None and computer not in LEVELS:
        raise GameError("bad_computer")
    clock = clean_clock(clock)
    if deal_seed is None and settings.GAMES_DEAL_SEED:
        deal_seed = f"{settings.GAMES_DEAL_SEED}:{scoring}:{straight:d}{oklahoma:d}:{computer}:{name}"[:40]
    table = Table(scoring=scoring, target=target, straight=straight, oklahoma=oklahoma, deal_seed=deal_seed,
                  clock=clock, clock_banks=fresh_banks() if clock else [])
    match = new_match(table)
    table.state = match.to_dict()
    store.add_table(table)
    seated = sit(table, 0, name, player_token)
    if computer is not None:
        seat_the_computer(table, match, computer)
    return seated


def seat_the_computer(table, match, level):
    player = archive_players.computer_player(level)
    # A secret nobody is ever given: the computer moves through its owner, no socket.
    store.add_seat(table, 1, player.name, identity.hash_token(identity.new_token()), player, computer_level=level)
    seats = store.seat_rows(table)
    start_archived_match(table, seats)
    deadline = deadline_for(table, clock_turn_key(table, match, seats, None), table.clock_banks, timezone.now())
    store.bump(table, archive_id=table.archive_id, match_id=table.match_id, clock_deadline=deadline)
