"""The one owner of each live table in this process (lichess's round actor, in Python).

A `LiveTable` holds a table as of its last committed change — the Table row, its Seat rows,
the engine's Match — and publishes a `Snapshot` of what each reader may see. Every change to
the table is one of its methods, taken under its lock: a move, a press of "Next hand" or
"Rematch", a resignation, a claim, a chat line, a socket arriving, beating or leaving, the
computer's turn, a catch-up with another process's writes, the cleanup of a stale table.
Nothing else reads or changes its match and seats (tests/live/test_one_owner.py): readers
take the snapshot it published, and whoever made a change tells it (games.live.hub).

The database stays the truth. The owner is built from it — the table's saved match as of its
`state_version` (saved at each deal and whenever a reshuffle drew on chance), then the move
log after that, up to the version the row was read at — and every write compare-and-swaps
the version (games.live.store), so an owner that fell behind another process's writes is
refused, reloads, and tries once more. Any process can serve any table correctly; table
affinity at the proxy only makes it fast.

The facts every reader relies on are decided here, once per change: whose turn it is, how
the match ended (games.live.outcome), who is present and from when a seat may claim
(games.live.presence).
"""

import itertools
import random
import threading
from collections import OrderedDict
from contextlib import ExitStack, contextmanager, nullcontext
from datetime import timedelta
from typing import NamedTuple

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from games import identity
from games.archive import players as archive_players
from games.archive import record as archive
from games.archive.stats import wins_before
from games.computer import LEVELS
from games.engine import HOLLYWOOD, TARGETS, IllegalMove, Match, Options, scoring_mode
from games.engine.moves import MAX_TEXT_LENGTH
from games.errors import GameError
from games.live import pace as table_pace, store, turns
from games.live.broadcast import Change, chat as chat_event
from games.live.chat import Pace, clean_line
from games.live.outcome import LEFT, OUT_OF_TIME, RESIGNED, outcome_of
from games.live.presence import claim_at, is_present, presence_lapses_at, timeout as presence_timeout
from games.live.snapshot import Facts, Snapshot, seat_holding
from games.models import Seat, Table

# Refusals of the engine that the protocol names by themselves; any other is an
# "illegal_move" carrying the engine's code as its reason.
ENGINE_REFUSALS = ("not_your_turn", "hand_over")
# The level the computer plays a move at for a seat whose turn clock ran out.
CLOCK_LEVEL = "club"
CHAT_SHOWN = 50  # the lines a page opens with
# Numbers every snapshot of this process, whichever owner made it (an owner evicted and built
# again must not start again at 1): a socket shows each snapshot once, in order.
SERIALS = itertools.count(1)


class Seated(NamedTuple):
    """Who took a seat: the seat's number and secret, and the secret of a player created
    for them (None when their player cookie named one), for the caller to hand over."""

    table: Table
    seat: int
    token: str
    player_token: str = None
    change: Change = None


class Turn(NamedTuple):
    """What the computer's seat has to do: "move" (with its own view of the match),
    "next_hand" or "rematch", at `version`."""

    seat: int
    level: str
    version: int
    kind: str
    view: dict = None
    seed: str = None  # a seeded table's computer plays alike every time (tests)


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


class LiveTable:
    def __init__(self, code):
        self.code = code
        self.lock = threading.RLock()
        self.earlier_wins = (None, (0, 0))  # (for match number, wins before it)
        self.in_doubt = False  # a change failed with the database: reload before the next
        self.pace = Pace()
        self.marks = (None, [])  # (at version, the clock's moves in this hand)
        # Set, under the lock, by a batch of moves (games.live.moves): its change is published
        # by the batch once the batch's transaction has committed, not when the change is made.
        self.publish_later = False
        self.load()

    # --- loading ------------------------------------------------------------------------

    def load(self, table=None):
        """Everything afresh from the database (the row `table` if just read)."""
        table = table or store.table_row(self.code)
        match = Match.from_dict(table.state, rng=rng_for(table))
        for seat, text in store.moves_after(table, table.state_version, table.version):
            match.play(text, seat)
        match.use_rng(rng_for(table))
        self.table, self.match, self.in_doubt = table, match, False
        self.read_seats()
        self.publish()

    def read_seats(self):
        self.seats = store.seat_rows(self.table, timezone.now() - presence_timeout())
        # How many spectators' sockets are open (a crashed server's stop counting), read with the seats.
        self.watching = max((seat.watching or 0 for seat in self.seats.values()), default=0)

    def catch_up(self, version=None):
        """This owner's snapshot at `version` or later (None: as the database has it now):
        the moves logged since, or, after a new saved match (a deal, a rematch), a reload."""
        with self.lock:
            if version is not None and self.snapshot.version >= version and not self.in_doubt:
                return self.snapshot
            table = store.table_row(self.code)
            if self.in_doubt or table.version < self.table.version or table.state_version != self.table.state_version \
                    or table.match_number != self.table.match_number:
                self.load(table)
            elif table.version != self.table.version:
                try:
                    for seat, text in store.moves_after(table, self.table.version, table.version):
                        self.match.play(text, seat)
                except IllegalMove:  # it cannot have gone astray, but if it did: the database decides
                    self.load(table)
                    return self.snapshot
                self.table = table
                self.read_seats()
                self.publish()
            return self.snapshot

    def refresh(self):
        """As the database has it now, the seats included (a page opening, a seat changed in
        another process, a time-bound fact coming due)."""
        with self.lock:
            self.catch_up()
            self.read_seats()
            self.publish()
            return self.snapshot

    # --- the facts ------------------------------------------------------------------------

    @property
    def outcome(self):
        return outcome_of(self.table, self.match)

    @property
    def seated(self):
        return len(self.seats) == 2

    def to_move(self):
        """Whose turn it is: nobody's until both seats are taken, at a showdown, or once the
        match is over."""
        if not self.seated or self.outcome is not None:
            return None
        return self.match.hand.to_move

    def waiting_on(self):
        """The seats the table waits for: the one to move, or at a showdown those who have
        not pressed "Next hand"; nobody once the match is over."""
        if not self.seated or self.outcome is not None:
            return set()
        if self.match.hand.result is not None:
            return {number for number, seat in self.seats.items() if not seat.ready}
        return {self.match.hand.to_move}

    def facts(self, now):
        waiting = self.waiting_on()
        present = {number: number in self.seats and is_present(self.seats[number], now) for number in (0, 1)}
        claims = {number: claim_at(self.seats, waiting, number, now) for number in self.seats}
        due = [moment for moment in claims.values() if moment is not None and moment > now]
        due += [moment for seat in self.seats.values() if (moment := presence_lapses_at(seat, now))]
        if self.table.clock_deadline is not None:
            due.append(self.table.clock_deadline)  # even once past: until the clock has played
        return Facts(self.to_move(), self.outcome, present, claims, now, min(due, default=None), self.watching,
                     self.clock_marks())

    def clock_marks(self):
        """The places in this hand's moves of those the clock played, read once a version."""
        if not self.table.clock:
            return []
        if self.marks[0] != self.table.version:
            self.marks = (self.table.version, store.clock_marks(self.table, len(self.match.hands)))
        return self.marks[1]

    def publish(self):
        """Make the current table, seats and match what readers see."""
        if self.earlier_wins[0] != self.table.match_number:  # read once a match (a rematch)
            self.earlier_wins = (self.table.match_number, wins_before(self.table.code, self.table.match_number))
        self.snapshot = Snapshot(self.table, self.seats, self.match, self.facts(timezone.now()), self.earlier_wins[1],
                                 next(SERIALS))

    def seat_for(self, token):
        """The seat number `token` holds here, or None for a spectator."""
        with self.lock:
            return seat_holding(self.seats.values(), token)

    @property
    def size(self):
        """Roughly what the owner holds in memory: the moves of its match."""
        return sum(len(hand.history) for hand in self.match.hands) + len(self.match.hands)

    # --- changes --------------------------------------------------------------------------

    @contextmanager
    def changing(self):
        """The lock, for one change; the new snapshot is published once it has committed
        (by the batch, in a batch of moves: `publish_later`).

        A refusal (GameError) changes nothing. A change that lost the compare-and-swap
        (Overtaken) or failed with the database leaves the match in memory in doubt: it is
        reloaded, now or, with the database away, before the next change.
        """
        with self.lock:
            if self.in_doubt:
                self.load()
            turn, deadline = self.clock_turn_key(), self.table.clock_deadline
            waiting, over = self.waiting_on(), self.outcome is not None
            try:
                # A clock's deadline is written with the change that starts its turn, or not at all.
                with transaction.atomic() if table_pace.is_timed(self.table) else nullcontext():
                    yield
                    self.wind_clock(turn, deadline, timezone.now())
                    self.tell_turns(waiting, over)
            except store.Overtaken:
                self.in_doubt = True
                self.load()
                raise
            except GameError:
                raise
            except BaseException:
                self.in_doubt = True
                raise
            if not self.publish_later:
                self.publish()

    def tell_turns(self, waiting, over):
        """Once this change commits, the listeners hear of each person's turn it began and of
        the match it ended (games.live.turns)."""
        if not turns.listened():
            return
        key, now = f"{self.table.match_number}:{self.table.version}", timezone.now()
        began = [turns.Turn(self.code, self.seats[number].pk, number, key, is_present(self.seats[number], now))
                 for number in sorted(self.waiting_on() - waiting) if not self.seats[number].computer_level]
        ended = self.code if not over and self.outcome is not None else None
        if began or ended:
            transaction.on_commit(lambda: turns.tell(began, ended))

    # --- the turn clock ---------------------------------------------------------------------

    def clock_turn_key(self):
        """The turn the clock is timing, or None: ("move", match, hand, seat) while a person is
        to move, ("showdown", match, hand, None) while a showdown waits for "Next hand"."""
        return clock_turn_key(self.table, self.match, self.seats, self.outcome)

    def wind_clock(self, before, deadline, now):
        """After a change: a new turn gets its deadline (the seat's turn plus what is left of
        its bank), and the seat whose turn ended keeps what it did not use of its bank."""
        after = self.clock_turn_key()
        if after == before or not table_pace.is_timed(self.table):
            return
        banks = list(self.table.clock_banks) or fresh_banks(self.table)
        if before is not None and before[0] == "move" and deadline is not None:
            seat = before[3]
            banks[seat] = round(min(banks[seat], max(0.0, (deadline - now).total_seconds())), 1)
        store.wind_clock(self.table, deadline_for(self.table, after, banks, now), banks)

    def clock_turn(self):
        """What the clock must do here now, or None: the move of a seat whose time ran out
        (to be chosen at CLOCK_LEVEL, as the computer's seat chooses), or "next_hand" for the
        seats a showdown still waits on."""
        with self.lock:
            deadline, turn = self.table.clock_deadline, self.clock_turn_key()
            if deadline is None or deadline > timezone.now() or turn is None:
                return None
            version = self.table.version
            if turn[0] == "showdown":
                return Turn(None, CLOCK_LEVEL, version, "next_hand")
            seat = turn[3]
            if table_pace.forfeits(self.table):
                return Turn(seat, None, version, "forfeit")
            seed = f"{self.table.deal_seed}:{version}:clock" if self.table.deal_seed is not None else None
            return Turn(seat, CLOCK_LEVEL, version, "move", self.match.view(seat), seed)

    def play_for_clock(self, seat, move, version):
        """The clock's move for `seat`, whose time ran out, at the version it was chosen for:
        the deadline is looked at again as the database has it, so that of two processes whose
        clocks ran out at once only one plays it (the other is refused as stale)."""
        require_seat(seat)
        return self.retrying(self._play_for_clock, seat, move, version)

    def _play_for_clock(self, seat, move, version):
        self.require_time_ran_out(version)
        return self._play(seat, move, version, by_clock=True)

    def next_hand_for_clock(self, version):
        """"Next hand" pressed for every seat the showdown still waits on: its time ran out."""
        return self.retrying(self._next_hand_for_clock, version)

    def _next_hand_for_clock(self, version):
        self.require_time_ran_out(version)
        change = None
        with transaction.atomic():
            for seat in sorted(self.waiting_on()):
                change = self._press_next_hand(seat) or change
        return change

    def forfeit_for_clock(self, seat, version):
        """At a pace of days a turn, `seat`'s time ran out at `version`: it loses the match
        (looked at again as the database has it, so two processes forfeit it once)."""
        require_seat(seat)
        return self.retrying(self._forfeit_for_clock, seat, version)

    def _forfeit_for_clock(self, seat, version):
        self.require_time_ran_out(version)
        return self.end_early(seat, OUT_OF_TIME)

    def require_time_ran_out(self, version):
        if version != self.table.version or not store.time_ran_out(self.table, timezone.now()):
            raise GameError("stale")

    def retrying(self, change, *args):
        """`change` under the lock, tried once more when this owner was behind another
        process: its write was overtaken, or it was refused on a match another process had
        moved on (the player saw the newer one, and was not wrong)."""
        with self.lock:
            try:
                with self.changing():
                    return change(*args)
            except store.Overtaken:
                pass  # reloaded already
            except GameError:
                if not self.fell_behind():
                    raise
            with self.changing():
                return change(*args)

    def fell_behind(self):
        """Whether the database had moved past this owner (it catches up if so)."""
        version = self.snapshot.version
        return self.catch_up().version != version

    def play(self, seat, move, expected_version=None):
        """Play one move for a seat at the version it saw (None: whatever is current)."""
        if seat not in (0, 1):
            raise GameError("spectator")
        # Longer than any move: refused before the match is even looked at.
        if not isinstance(move, str) or len(move) > MAX_TEXT_LENGTH:
            raise GameError("illegal_move", "unknown_move")
        with self.lock:
            if expected_version is not None and expected_version > self.table.version:
                self.catch_up()  # the player saw a version another process wrote: look first
            return self.retrying(self._play, seat, move, expected_version)

    def _play(self, seat, move, expected_version, by_clock=False):
        if expected_version is not None and expected_version != self.table.version:
            raise GameError("stale")
        self.require_running()
        table, match = self.table, self.match
        hand_number, reshuffles = len(match.hands), len(match.hand.reshuffles)
        match.use_rng(rng_for(table))  # a seeded table reshuffles alike, cached or rebuilt
        try:
            match.play(move, seat)  # the engine checks the turn and the hand's end too
        except IllegalMove as error:
            raise refusal(error) from None  # a refused move changed nothing
        reshuffled = len(match.hand.reshuffles) != reshuffles
        if not reshuffled and not match.is_over:
            return Change(self.code, store.append_move(table, hand_number, seat, move, by_clock))
        with transaction.atomic():
            version = store.append_move(table, hand_number, seat, move, by_clock)
            if reshuffled:
                store.save_match(table, match)  # a reshuffle drew on chance: the log cannot replay it
            if match.is_over:
                archive.finish_archived_match(table.archive_id, match, timezone.now(),
                                              by_clock=store.match_clock_marks(table))
        return Change(self.code, version)

    def require_running(self):
        if not self.seated:
            raise GameError("waiting_for_opponent")
        if self.outcome is not None:
            raise GameError("match_ended")

    def press_next_hand(self, seat):
        """Press "Next hand"; the next hand is dealt once both seats have pressed it.

        No version check: both players press from the same showdown, so the second press must
        not be refused as stale. Pressing again changes nothing (None).
        """
        require_seat(seat)
        return self.retrying(self._press_next_hand, seat)

    def _press_next_hand(self, seat):
        if self.outcome is not None or self.match.hand.result is None:
            raise GameError("no_next_hand")
        with transaction.atomic():
            both = self.press(seat)
            if both:
                self.match.use_rng(rng_for(self.table))
                self.match.next_hand()
                store.save_match(self.table, self.match, bump=True)
        return self.pressed(both)

    def press_rematch(self, seat):
        """Ask for a rematch; a new match with the same rules starts once both ask (like "Next
        hand", idempotent and without a version check)."""
        require_seat(seat)
        return self.retrying(self._press_rematch, seat)

    def _press_rematch(self, seat):
        if self.outcome is None:
            raise GameError("match_not_over")
        with transaction.atomic():
            both = self.press(seat)
            if both:
                self.start_rematch()
        return self.pressed(both)

    def start_rematch(self):
        table = self.table
        table.match_number += 1
        table.match_started = timezone.now()
        start_archived_match(table, self.seats)
        table.clock_banks = fresh_banks(table) if table_pace.is_timed(table) else []  # a new match, a new bank
        Table.objects.filter(pk=table.pk).update(
            match_number=table.match_number, match_started=table.match_started, archive_id=table.archive_id,
            match_id=table.match_id, ending="", ended_by=None, clock_banks=table.clock_banks,
        )
        table.ending, table.ended_by = "", None
        self.match = new_match(table)
        store.save_match(table, self.match, bump=True)

    def press(self, seat):
        """None if `seat` had pressed already (nothing changes), True once both seats have."""
        if self.seats[seat].ready:
            return None
        both = store.press(self.table, seat)
        # The flags as store.press left them, read under the table's lock: no seats' query again.
        self.seats[seat].ready, self.seats[1 - seat].ready = not both, False
        return both

    def pressed(self, both):
        if both is None:
            return None
        return Change(self.code, self.table.version if both else None)

    def resign(self, seat):
        """Give the match up: it ends at once, won by the other seat."""
        require_seat(seat)
        return self.retrying(self.end_early, seat, RESIGNED)

    def claim(self, seat):
        """Claim the match from an opponent the table has waited on for
        GAMES_CLAIM_AFTER_SECONDS while they were away: archived as left by them."""
        require_seat(seat)
        return self.retrying(self.end_early, 1 - seat, LEFT)

    def end_early(self, loser, ending):
        self.read_seats()  # a claim reads the other seat's presence as it is now
        if not self.seated or self.outcome is not None:
            raise GameError("match_not_running")
        now = timezone.now()
        if ending == LEFT:
            opens = claim_at(self.seats, self.waiting_on(), 1 - loser, now)
            if opens is None or opens > now:
                raise GameError("opponent_not_away")
        with transaction.atomic():
            # The one place a match ends; then the table shows it as over, by whom and how.
            archive.finish_archived_match(self.table.archive_id, self.match, now, ending, loser,
                                          store.match_clock_marks(self.table))
            version = store.bump(self.table, ending=ending, ended_by=loser)
        return Change(self.code, version)

    # --- seats ----------------------------------------------------------------------------

    def take_seat(self, name, player_token=None, seat_token=None):
        """Seat 1 for the first person who asks. Someone whose `seat_token` already holds a
        seat here keeps it: one browser never holds both seats."""
        with self.lock:
            self.refresh()
            held = seat_holding(self.seats.values(), seat_token)
            if held is not None:
                return Seated(self.table, held, seat_token)
            name = clean_name(name)
            if player_token is not None and self.seats[0].player == archive_players.player_for_token(player_token):
                # One person in both seats would play themself, and the match would count twice.
                raise GameError("same_player")
            with self.changing(), transaction.atomic():
                try:
                    with transaction.atomic():
                        seated = sit(self.table, 1, name, player_token)
                except IntegrityError:
                    raise GameError("table_full") from None
                self.read_seats()
                start_archived_match(self.table, self.seats)
                store.bump(self.table, archive_id=self.table.archive_id, match_id=self.table.match_id)
            return seated._replace(change=Change(self.code, self.table.version))

    def renew_secret(self, token):
        """A new secret for the seat `token` holds, returned as (seat, new secret): every other
        device with the old one (a cookie, the private link) is a spectator from now on.
        GameError("spectator") when `token` holds no seat here (any more)."""
        with self.changing():
            self.read_seats()
            number = seat_holding(self.seats.values(), token)
            new_token = identity.new_token()
            seat = self.seats.get(number)
            # Compare-and-swap on the old hash: of two devices renewing at once, one wins.
            if seat is None or not Seat.objects.filter(pk=seat.pk, token_hash=seat.token_hash).update(
                token_hash=identity.hash_token(new_token),
            ):
                raise GameError("spectator")
            transaction.on_commit(lambda: turns.tell_renewed(seat.pk))
            self.read_seats()
        return number, new_token

    # --- presence -------------------------------------------------------------------------

    def arrive(self, seat):
        """A socket of `seat` opened (None: a spectator's)."""
        return self.count_connection(seat, True)

    def leave(self, seat):
        return self.count_connection(seat, False)

    def count_connection(self, seat, opened):
        """A socket of `seat` opened or closed; a spectator's (seat None) counts among the
        watching."""
        with self.changing():
            if seat is None:
                store.count_spectator(self.table, opened)
            else:
                store.count_connection(self.table, seat, opened)
            self.read_seats()
        return Change(self.code, None)

    # --- chat -----------------------------------------------------------------------------

    def may_chat(self, seat):
        """Whether `seat` may say a line now, as far as this process knows (the event loop
        asks before the database is)."""
        return self.pace.may_speak(seat)

    def say(self, seat, text):
        """A chat line from a player (spectators only read): stored with the table, never a
        game change, so the version stays. Returns the event that tells it."""
        require_seat(seat)
        text = clean_line(text)
        with self.lock:
            since = timezone.now() - timedelta(seconds=settings.GAMES_CHAT_WINDOW_SECONDS)
            if not self.pace.may_speak(seat) or store.chat_lines_since(self.table, seat, since) >= settings.GAMES_CHAT_BURST:
                raise GameError("rate_limited")
            line = store.add_chat_line(self.table, seat, text)
            self.pace.spoke(seat)
            return chat_event(self.code, line, self.seats[seat].name)

    def chat_lines(self, limit=CHAT_SHOWN):
        """The table's latest chat lines, oldest first, with the speaker's name."""
        with self.lock:
            names = {number: seat.name for number, seat in self.seats.items()}
            return [{"id": line.pk, "seat": line.seat, "name": names.get(line.seat, ""), "text": line.text}
                    for line in store.latest_chat(self.table, limit)]

    # --- the computer's seat -------------------------------------------------------------

    def computer_turn(self):
        """What the computer must do here now, or None."""
        with self.lock:
            seat = next((number for number, seat in self.seats.items() if seat.computer_level), None)
            if seat is None or not self.seated:
                return None
            me, other = self.seats[seat], self.seats[1 - seat]
            version, level = self.table.version, me.computer_level
            seed = f"{self.table.deal_seed}:{version}" if self.table.deal_seed is not None else None
            if self.outcome is not None or self.match.hand.result is not None:
                if other.ready and not me.ready:
                    return Turn(seat, level, version, "rematch" if self.outcome is not None else "next_hand")
                return None
            if self.to_move() == seat:
                return Turn(seat, level, version, "move", self.match.view(seat), seed)
            return None

    # --- the end of a table ---------------------------------------------------------------

    def end_if_stale(self, cutoff, now):
        """End the match as abandoned if it is still being played, and delete the table: True
        if a match was abandoned, False if not, None if the table turned out to be in use
        (looked at again under the lock: a move may have come meanwhile)."""
        with self.lock, transaction.atomic():
            table = Table.objects.select_for_update().get(pk=self.table.pk)
            if table.updated >= cutoff or store.seen_since(table, cutoff):
                return None
            self.catch_up()
            # The archive's own account decides whether a match is still being played.
            playing = table.archive_id is not None and archive.is_playing(table.archive_id)
            if playing:
                archive.finish_archived_match(table.archive_id, self.match, now, ending=LEFT,
                                              by_clock=store.match_clock_marks(table))
            table.delete()
            live_tables.forget(self.code)
            return playing


def require_seat(seat):
    if seat not in (0, 1):
        raise GameError("spectator")


def refusal(error):
    """The GameError for the engine's IllegalMove."""
    if error.code in ENGINE_REFUSALS:
        return GameError(error.code)
    return GameError("illegal_move", error.code)


def clean_name(raw):
    """1 to 24 printable characters after trimming (games.identity's rule), else GameError."""
    try:
        return identity.clean_name(raw)
    except ValueError as error:
        raise GameError(str(error)) from None


def clock_turn_key(table, match, seats, outcome):
    """The turn a table's clock is timing (LiveTable.clock_turn_key); the computer's are not."""
    if not table_pace.is_timed(table) or len(seats) < 2 or outcome is not None:
        return None
    if match.hand.result is not None:
        return ("showdown", table.match_number, len(match.hands), None)
    seat = match.hand.to_move
    if seats[seat].computer_level:
        return None
    return ("move", table.match_number, len(match.hands), seat)


def deadline_for(table, turn, banks, now):
    """When `turn` runs out: its seconds, and a move's seat's bank on top (None: no turn)."""
    if turn is None:
        return None
    extra = banks[turn[3]] if turn[0] == "move" else 0
    return now + timedelta(seconds=table_pace.turn_seconds(table) + extra)


def fresh_banks(table):
    return [float(table_pace.bank_seconds(table))] * 2


def clean_clock(clock):
    """0 (no clock) or one of settings.GAMES_CLOCKS, else GameError."""
    if clock is None:
        return 0
    if type(clock) is not int or (clock and clock not in settings.GAMES_CLOCKS):
        raise GameError("bad_clock")
    return clock


def clean_rules(scoring, target, straight, oklahoma):
    try:
        scoring_mode(scoring)
    except ValueError:
        raise GameError("bad_scoring") from None
    # type() and not isinstance(): True and 100.0 compare equal to 1 and 100, but the
    # engine's ScoreSheet takes only a real int.
    if type(target) is not int or target not in TARGETS:
        raise GameError("bad_target")
    if not isinstance(straight, bool) or not isinstance(oklahoma, bool):
        raise GameError("bad_option")
    return scoring, target, straight, oklahoma


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
    Seat.objects.create(table=table, number=number, name=name, token_hash=identity.hash_token(token), player=player)
    return Seated(table, number, token, new_player_token)


@transaction.atomic
def open_table(name, scoring=HOLLYWOOD.name, target=100, straight=False, oklahoma=False, deal_seed=None,
               player_token=None, computer=None, clock=0, pace=0):
    """Open a table with its creator in seat 0, and the computer in seat 1 when `computer`
    names its level (games.computer.LEVELS): the match then starts at once. The table has
    no owner until someone looks at it.

    `player_token` is the secret of the browser's player cookie; without one (a program, a
    new browser) a new player is made and its secret returned in `Seated.player_token`.

    `clock` is the turn clock's seconds a turn (settings.GAMES_CLOCKS), 0 for none; `pace`
    the days a turn (settings.GAMES_PACES), 0 for real time, never both.
    """
    name = clean_name(name)
    scoring, target, straight, oklahoma = clean_rules(scoring, target, straight, oklahoma)
    if computer is not None and computer not in LEVELS:
        raise GameError("bad_computer")
    clock, pace = clean_clock(clock), table_pace.clean_pace(pace)
    if clock and pace:
        raise GameError("bad_pace")
    if deal_seed is None and settings.GAMES_DEAL_SEED:
        deal_seed = f"{settings.GAMES_DEAL_SEED}:{scoring}:{straight:d}{oklahoma:d}:{computer}:{name}"[:40]
    table = Table(scoring=scoring, target=target, straight=straight, oklahoma=oklahoma, deal_seed=deal_seed,
                  clock=clock, pace=pace)
    table.clock_banks = fresh_banks(table) if table_pace.is_timed(table) else []
    match = new_match(table)
    table.state = match.to_dict()
    table.save()
    seated = sit(table, 0, name, player_token)
    if computer is not None:
        player = archive_players.computer_player(computer)
        # A secret nobody is ever given: the computer moves through its owner, no socket.
        Seat.objects.create(table=table, number=1, name=player.name, player=player, computer_level=computer,
                            token_hash=identity.hash_token(identity.new_token()))
        seats = store.seat_rows(table)
        start_archived_match(table, seats)
        deadline = deadline_for(table, clock_turn_key(table, match, seats, None), table.clock_banks, timezone.now())
        store.bump(table, archive_id=table.archive_id, match_id=table.match_id, clock_deadline=deadline)
    return seated


class LiveTables:
    """The owners of this process, least recently used first; bounded by count and by size
    (settings GAMES_ROOMS, GAMES_ROOM_MOVES), so memory stays flat however long it runs."""

    def __init__(self):
        self.lock = threading.Lock()
        self.owners = OrderedDict()

    def get(self, code):
        """The owner of `code` if this process holds one (never builds, never blocks long)."""
        with self.lock:
            owner = self.owners.get(code)
            if owner is not None:
                self.owners.move_to_end(code)
            return owner

    def owner(self, code):
        """The owner of `code`, built from the database if this process holds none (so: in
        a thread that may use the database)."""
        owner = self.get(code)
        if owner is not None:
            return owner
        built = LiveTable(code)  # outside the lock: it reads the database
        with self.lock:
            owner = self.owners.setdefault(code, built)
            self.owners.move_to_end(code)
            self.evict()
            return owner

    def forget(self, code):
        with self.lock:
            self.owners.pop(code, None)

    def clear(self):
        with self.lock:
            self.owners.clear()

    def codes(self):
        with self.lock:
            return list(self.owners)

    def evict(self):
        limit, budget = settings.GAMES_ROOMS, settings.GAMES_ROOM_MOVES
        total = sum(owner.size for owner in self.owners.values()) if budget else 0
        while len(self.owners) > 1 and (len(self.owners) > limit or total > budget):
            _code, evicted = self.owners.popitem(last=False)
            total -= evicted.size


live_tables = LiveTables()


def owner(code):
    return live_tables.owner(code)


def beat_this_process():
    """This process is alive: its sockets keep counting at every table (games.live.presence)."""
    store.beat_process(timezone.now())


def recount_this_process(counts):
    """This process's sockets counted anew from memory ({(code, seat): sockets}), then every
    owner here shows its seats as they are: after the database was away."""
    store.recount_process(counts)
    for code in live_tables.codes():
        held = live_tables.get(code)
        if held is not None:
            held.refresh()


def forget_dead_processes(cutoff):
    """Presence counted by processes silent since `cutoff` (crashed long ago)."""
    return store.forget_dead_presence(cutoff)


def database_versions(codes):
    """{code: the version the database has} of these tables, in one query: how the hub finds
    what this process missed."""
    return store.versions(codes)


def act(code, change, *args):
    """`change` (a LiveTable method) on the owner of `code`: for callers in the database
    thread that hold a code, not an owner (the sockets, the computer's seat, the views)."""
    return change(owner(code), *args)


def play_moves(moves):
    """In the database thread: [(code, seat, move, version)] → for each, its Change or the
    GameError that refused it; raises when the batch failed (nothing of it committed)."""
    answers = []
    while len(answers) < len(moves):
        answers += play_some(moves[len(answers):])
    return answers


def play_some(moves):
    """The first moves of `moves` in one transaction: as many as can go together. A table
    moves once a batch (a second move of it waits for the next), and an owner whose lock
    another thread holds (a page's request) ends the batch before it, unless it is the first:
    waiting for it while holding the others' locks could deadlock."""
    answers, played, codes = [], [], set()
    with ExitStack() as held:
        try:
            with transaction.atomic():
                for code, seat, move, version in moves:
                    if code in codes:
                        break
                    try:
                        table = live_tables.owner(code)
                    except GameError as refusal:
                        answers.append(refusal)
                        continue
                    if not table.lock.acquire(blocking=not codes):
                        break
                    held.callback(table.lock.release)
                    codes.add(code)
                    table.publish_later = True
                    held.callback(setattr, table, "publish_later", False)
                    try:
                        answers.append(table.play(seat, move, version))
                    except GameError as refusal:
                        answers.append(refusal)
                    else:
                        played.append(table)
        except BaseException:
            for table in played:
                table.in_doubt = True  # its match in memory holds a move the database lacks
            raise
        try:
            for table in played:
                table.publish()  # committed: now its readers may see it
        except BaseException:
            for table in played:
                table.in_doubt = True  # not shown yet: reloaded before its next change
            raise
    return answers
