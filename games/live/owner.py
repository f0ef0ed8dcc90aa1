"""The one owner of each live table in this process (lichess's round actor, in Python).

A `LiveTable` holds a table as of its last committed change — the Table row, its Seat rows,
the engine's Match — and publishes a `Snapshot` of what each reader may see. Every change to
the table is a command (games.live.commands) applied by `handle` under its lock, with the
retry and the transaction applied once, here; it answers with a `Progress`: the new version
and the events that tell it, published by the one way in (games.live.batch) after the commit.
Nothing else reads or changes its match and seats (tests/live/test_one_owner.py): readers
take the snapshot it published.

The database stays the truth. The owner is built from it — the table's saved match as of its
`state_version` (saved at each deal and whenever a reshuffle drew on chance), then the move
log after that, up to the version the row was read at — and every write compare-and-swaps
the version (games.live.store, the only writer), so an owner that fell behind another
process's writes is refused, reloads, and tries once more. Any process can serve any table
correctly; table affinity at the proxy only makes it fast.

The facts every reader relies on are decided here, once per change: whose turn it is, how
the match ended (games.live.outcome), who is present and from when a seat may claim
(games.live.presence).
"""

import itertools
import threading
from contextlib import contextmanager, nullcontext
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from games import identity
from games.archive import players as archive_players
from games.archive import record as archive
from games.archive.stats import wins_before
from games.engine import IllegalMove, Match
from games.engine.moves import MAX_TEXT_LENGTH
from games.errors import GameError
from games.live import events, store
from games.live.chat import Pace, clean_line
from games.live.clean import clean_name, refusal, require_seat
from games.live.clock_rules import banks_after, clock_turn_key, deadline_for, fresh_banks
from games.live.commands import (Arrive, Claim, ClockNextHand, ClockPlay, EndIfStale, Leave, Play, PressNextHand,
                                 PressRematch, Progress, RenewSecret, Resign, Say, Sit, Turn)
from games.live.opening import Seated, new_match, rng_for, sit, start_archived_match
from games.live.outcome import LEFT, RESIGNED, outcome_of
from games.live.presence import claim_at, is_present, presence_lapses_at, timeout as presence_timeout
from games.live.snapshot import Facts, Snapshot, seat_holding

# The level the computer plays a move at for a seat whose turn clock ran out.
CLOCK_LEVEL = "club"
CHAT_SHOWN = 50  # the lines a page opens with
# Numbers every snapshot of this process, whichever owner made it (an owner evicted and built
# again must not start again at 1): a socket shows each snapshot once, in order.
SERIALS = itertools.count(1)
# Told (code, version) when this process's copy of a table moved on by a read (a page load, a
# catch-up, a reload after a refusal) rather than by a change whose sender publishes its
# events: the hub shows it to the sockets, so the copy never runs silently ahead of them.
RAN_AHEAD = []


# Each command → the owner's method that applies it, and whether it is a change of the table
# (tried once more after falling behind another process) or takes the lock alone.
HANDLERS = {}


def handles(command_type, retried=True):
    def register(method):
        HANDLERS[command_type] = (method, retried)
        return method
    return register


class LiveTable:
    def __init__(self, code):
        self.code = code
        self.lock = threading.RLock()
        self.earlier_wins = (None, (0, 0))  # (for match number, wins before it)
        self.in_doubt = False  # a change failed with the database: reload before the next
        self.pace = Pace()
        self.marks = (None, [])  # (at version, the clock's moves in this hand)
        # Set, under the lock, by a batch of commands (games.live.batch): its snapshot is published
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

    def publish(self, told=False):
        """Make the current table, seats and match what readers see (`told`: by a change,
        whose events its sender publishes)."""
        if self.earlier_wins[0] != self.table.match_number:  # read once a match (a rematch)
            self.earlier_wins = (self.table.match_number, wins_before(self.table.code, self.table.match_number))
        before = getattr(self, "snapshot", None)
        self.snapshot = Snapshot(self.table, self.seats, self.match, self.facts(timezone.now()), self.earlier_wins[1],
                                 next(SERIALS))
        if not told and before is not None and self.snapshot.version > before.version:
            for listener in RAN_AHEAD:
                listener(self.code, self.snapshot.version)

    def seat_for(self, token):
        """The seat number `token` holds here, or None for a spectator."""
        with self.lock:
            return seat_holding(self.seats.values(), token)

    @property
    def size(self):
        """Roughly what the owner holds in memory: the moves of its match."""
        return sum(len(hand.history) for hand in self.match.hands) + len(self.match.hands)

    # --- the one way in -------------------------------------------------------------------

    def handle(self, command):
        """Apply `command` under the lock: its Progress, or the GameError that refused it.
        A change is tried once more when this owner was behind another process."""
        apply, retried = HANDLERS[type(command)]
        with self.lock:
            version = getattr(command, "version", None)
            if version is not None and version > self.table.version:
                self.catch_up()  # chosen at a version another process wrote: look first
            if not retried:
                return apply(self, command)
            return self.retrying(apply, command)

    def progress(self, *made, answer=None):
        """The Progress of a change at the current version, its events made by `made`
        (events.changed, events.seats, ...)."""
        version = self.table.version
        return Progress(self.code, version, tuple(make(self.code, version) for make in made), answer)

    @contextmanager
    def changing(self):
        """The lock, for one change; the new snapshot is published once it has committed
        (by the batch, in a batch of commands: `publish_later`).

        A refusal (GameError) changes nothing. A change that lost the compare-and-swap
        (Overtaken) or failed with the database leaves the match in memory in doubt: it is
        reloaded, now or, with the database away, before the next change.
        """
        with self.lock:
            if self.in_doubt:
                self.load()
            turn, deadline = self.clock_turn_key(), self.table.clock_deadline
            try:
                # A clock's deadline is written with the change that starts its turn, or not at all.
                with transaction.atomic() if self.table.clock else nullcontext():
                    yield
                    self.wind_clock(turn, deadline, timezone.now())
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
                self.publish(told=True)

    def retrying(self, apply, command):
        """`apply` under the lock, tried once more when this owner was behind another
        process: its write was overtaken, or it was refused on a match another process had
        moved on (the player saw the newer one, and was not wrong)."""
        try:
            with self.changing():
                return apply(self, command)
        except store.Overtaken:
            pass  # reloaded already
        except GameError:
            if not self.fell_behind():
                raise
        with self.changing():
            return apply(self, command)

    def fell_behind(self):
        """Whether the database had moved past this owner (it catches up if so)."""
        version = self.snapshot.version
        return self.catch_up().version != version

    # --- the turn clock ---------------------------------------------------------------------

    def clock_turn_key(self):
        return clock_turn_key(self.table, self.match, self.seats, self.outcome)

    def wind_clock(self, before, deadline, now):
        """After a change: a new turn gets its deadline (the seat's turn plus what is left of
        its bank), and the seat whose turn ended keeps what it did not use of its bank."""
        after = self.clock_turn_key()
        if after == before or not self.table.clock:
            return
        banks = banks_after(before, deadline, self.table.clock_banks, now)
        store.wind_clock(self.table, deadline_for(self.table, after, banks, now), banks)

    def clock_turn(self):
        """What the clock must do here now, or None: the move of a seat whose time ran out
        (to be chosen at CLOCK_LEVEL, as the computer's seat chooses), or "Next hand" for the
        seats a showdown still waits on."""
        with self.lock:
            deadline, turn = self.table.clock_deadline, self.clock_turn_key()
            if deadline is None or deadline > timezone.now() or turn is None:
                return None
            version = self.table.version
            if turn[0] == "showdown":
                return Turn(ClockNextHand(version), CLOCK_LEVEL, version)
            seat = turn[3]
            seed = f"{self.table.deal_seed}:{version}:clock" if self.table.deal_seed is not None else None
            return Turn(ClockPlay(seat, None, version), CLOCK_LEVEL, version, self.match.view(seat), seed)

    @handles(ClockPlay)
    def clock_play(self, command):
        """The deadline is looked at again as the database has it, so that of two processes
        whose clocks ran out at once only one plays it (the other is refused as stale)."""
        require_seat(command.seat)
        self.require_time_ran_out(command.version)
        return self.apply_move(command.seat, command.move, command.version, by_clock=True)

    @handles(ClockNextHand)
    def clock_next_hand(self, command):
        self.require_time_ran_out(command.version)
        progress = self.progress()
        with transaction.atomic():
            for seat in sorted(self.waiting_on()):
                progress = self.press_ready(seat, self.match_next_hand) or progress
        return progress

    def require_time_ran_out(self, version):
        if version != self.table.version or not store.time_ran_out(self.table, timezone.now()):
            raise GameError("stale")

    # --- moves ------------------------------------------------------------------------------

    @handles(Play)
    def play(self, command):
        """One move for a seat at the version it saw (None: whatever is current)."""
        require_seat(command.seat)
        # Longer than any move: refused before the match is even looked at.
        if not isinstance(command.move, str) or len(command.move) > MAX_TEXT_LENGTH:
            raise GameError("illegal_move", "unknown_move")
        return self.apply_move(command.seat, command.move, command.version)

    def apply_move(self, seat, move, expected_version, by_clock=False):
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
            store.append_move(table, hand_number, seat, move, by_clock)
            return self.progress(events.changed)
        with transaction.atomic():
            store.append_move(table, hand_number, seat, move, by_clock)
            if reshuffled:
                store.save_match(table, match)  # a reshuffle drew on chance: the log cannot replay it
            if match.is_over:
                archive.finish_archived_match(table.archive_id, match, timezone.now(),
                                              by_clock=store.match_clock_marks(table))
        return self.progress(events.changed)

    def require_running(self):
        if not self.seated:
            raise GameError("waiting_for_opponent")
        if self.outcome is not None:
            raise GameError("match_ended")

    # --- "Next hand" and "Rematch" ------------------------------------------------------------

    @handles(PressNextHand)
    def press_next_hand(self, command):
        """Press "Next hand"; the next hand is dealt once both seats have pressed it.

        No version check: both players press from the same showdown, so the second press must
        not be refused as stale. Pressing again changes nothing (no events).
        """
        require_seat(command.seat)
        if self.outcome is not None or self.match.hand.result is None:
            raise GameError("no_next_hand")
        with transaction.atomic():
            return self.press_ready(command.seat, self.match_next_hand) or self.progress()

    def match_next_hand(self):
        self.match.use_rng(rng_for(self.table))
        self.match.next_hand()
        store.save_match(self.table, self.match, bump=True)

    @handles(PressRematch)
    def press_rematch(self, command):
        """Ask for a rematch; a new match with the same rules starts once both ask (like "Next
        hand", idempotent and without a version check)."""
        require_seat(command.seat)
        if self.outcome is None:
            raise GameError("match_not_over")
        with transaction.atomic():
            return self.press_ready(command.seat, self.start_rematch) or self.progress()

    def start_rematch(self):
        table = self.table
        table.match_number += 1
        table.match_started = timezone.now()
        start_archived_match(table, self.seats)
        table.clock_banks = fresh_banks() if table.clock else []  # a new match, a new bank
        store.start_match(table)
        self.match = new_match(table)
        store.save_match(table, self.match, bump=True)

    def press_ready(self, seat, once_both):
        """`seat` ready, `once_both` done once both seats are: the Progress, or None if `seat`
        had pressed already (nothing changes)."""
        if self.seats[seat].ready:
            return None
        both = store.press(self.table, seat)
        # The flags as store.press left them, read under the table's lock: no seats' query again.
        self.seats[seat].ready, self.seats[1 - seat].ready = not both, False
        if both:
            once_both()
            return self.progress(events.changed)
        return self.progress(events.seats)

    # --- the end of a match -------------------------------------------------------------------

    @handles(Resign)
    def resign(self, command):
        """Give the match up: it ends at once, won by the other seat."""
        require_seat(command.seat)
        return self.end_early(command.seat, RESIGNED)

    @handles(Claim)
    def claim(self, command):
        """Claim the match from an opponent the table has waited on for
        GAMES_CLAIM_AFTER_SECONDS while they were away: archived as left by them."""
        require_seat(command.seat)
        return self.end_early(1 - command.seat, LEFT)

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
            store.bump(self.table, ending=ending, ended_by=loser)
        return self.progress(events.changed)

    # --- seats ----------------------------------------------------------------------------

    @handles(Sit, retried=False)
    def sit(self, command):
        """Seat 1 for the first person who asks. Someone whose `seat_token` already holds a
        seat here keeps it: one browser never holds both seats. Answers with `Seated`."""
        self.refresh()
        held = seat_holding(self.seats.values(), command.seat_token)
        if held is not None:
            return self.progress(answer=Seated(self.table, held, command.seat_token))
        name = clean_name(command.name)
        if command.player_token is not None and \
                self.seats[0].player == archive_players.player_for_token(command.player_token):
            # One person in both seats would play themself, and the match would count twice.
            raise GameError("same_player")
        with self.changing(), transaction.atomic():
            try:
                with transaction.atomic():
                    seated = sit(self.table, 1, name, command.player_token)
            except IntegrityError:
                raise GameError("table_full") from None
            self.read_seats()
            start_archived_match(self.table, self.seats)
            store.bump(self.table, archive_id=self.table.archive_id, match_id=self.table.match_id)
        return self.progress(events.changed, answer=seated)

    @handles(RenewSecret)
    def renew_secret(self, command):
        """A new secret for the seat `command.token` holds, answered as (seat, new secret):
        every other device with the old one (a cookie, the private link) is a spectator from
        now on. GameError("spectator") when the token holds no seat here (any more)."""
        self.read_seats()
        number = seat_holding(self.seats.values(), command.token)
        new_token = identity.new_token()
        seat = self.seats.get(number)
        if seat is None or not store.renew_token(seat, identity.hash_token(new_token)):
            raise GameError("spectator")
        self.read_seats()
        return self.progress(lambda code, version: events.revoked(code, version, number), answer=(number, new_token))

    # --- presence -------------------------------------------------------------------------

    @handles(Arrive, retried=False)
    def arrive(self, command):
        """A socket opened: its first state is this snapshot, so it is made current with the
        database first (the copy may have aged while no socket here listened)."""
        self.catch_up()
        return self.count_connection(command.seat, True)

    @handles(Leave, retried=False)
    def leave(self, command):
        return self.count_connection(command.seat, False)

    def count_connection(self, seat, opened):
        """A socket of `seat` opened or closed; a spectator's (seat None) counts among the
        watching."""
        with self.changing():
            if seat is None:
                store.count_spectator(self.table, opened)
            else:
                store.count_connection(self.table, seat, opened)
            self.read_seats()
        return self.progress(events.seats)

    # --- chat -----------------------------------------------------------------------------

    def may_chat(self, seat):
        """Whether `seat` may say a line now, as far as this process knows (the event loop
        asks before the database is)."""
        return self.pace.may_speak(seat)

    @handles(Say, retried=False)
    def say(self, command):
        """A chat line from a player (spectators only read): stored with the table, never a
        game change, so the version stays."""
        seat = command.seat
        require_seat(seat)
        text = clean_line(command.text)
        since = timezone.now() - timedelta(seconds=settings.GAMES_CHAT_WINDOW_SECONDS)
        if not self.pace.may_speak(seat) or store.chat_lines_since(self.table, seat, since) >= settings.GAMES_CHAT_BURST:
            raise GameError("rate_limited")
        line = store.add_chat_line(self.table, seat, text)
        self.pace.spoke(seat)
        return self.progress(lambda code, version: events.chat(code, version, line, self.seats[seat].name))

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
                    press = PressRematch if self.outcome is not None else PressNextHand
                    return Turn(press(seat), level, version)
                return None
            if self.to_move() == seat:
                return Turn(Play(seat, None, version), level, version, self.match.view(seat), seed)
            return None

    # --- the end of a table ---------------------------------------------------------------

    @handles(EndIfStale, retried=False)
    def end_if_stale(self, command):
        """End the match as abandoned if it is still being played, and delete the table:
        answers True if a match was abandoned, False if not, None if the table turned out to
        be in use (looked at again under the lock: a move may have come meanwhile)."""
        with transaction.atomic():
            table = store.locked_row(self.table)
            if table.updated >= command.cutoff or store.seen_since(table, command.cutoff):
                return self.progress(answer=None)
            self.catch_up()
            # The archive's own account decides whether a match is still being played.
            playing = table.archive_id is not None and archive.is_playing(table.archive_id)
            if playing:
                archive.finish_archived_match(table.archive_id, self.match, command.now, ending=LEFT,
                                              by_clock=store.match_clock_marks(table))
            store.delete_table(table)
            return Progress(self.code, None, (events.gone(self.code),), playing)

