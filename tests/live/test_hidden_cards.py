"""No frame shows a card its recipient may not see, in whole matches under every option
(scoring × Straight Gin × Oklahoma), over the JSON protocol and the browser's socket.

A seat may see its own hand, the cards its opponent was seen taking from the pile (while
the opponent still holds them), the face-up pile and the upcard, and both hands once the
hand's result is shown. A spectator sees the same minus any hand, until the result. The
stock is never shown to anyone. The truth is read from the database, independently of
the views under test: the holdings from the engine, the cards taken from the pile by
replaying the hand's public history.
"""

import itertools
import json
import re

import pytest
from channels.db import database_sync_to_async

from games.engine import SCORINGS, Hand, Match, scoring_mode
from games.engine.cards import Card
from games.live import store
from games.live.opening import rng_for
from games.models import Table
from tests.live.helpers import TIMEOUT, api_socket, browser_socket, choose_move, open_seated_table

pytestmark = pytest.mark.django_db(transaction=True)

CARD_CODES = {f"{rank}{suit}" for rank in "A23456789TJQK" for suit in "CDHS"}
HTML_CARDS = re.compile(r'data-card="([^"]+)"|data-move="[a-z]+ ([^"]+)"')
MAX_MOVES = 3000


# A card code as a word of a JSON string ("QS", "discard QS"): after the string's opening quote,
# a space or an escaped line break or tab, and before its closing quote, a space or an escape.
CARD_WORD = re.compile(r'(?:(?<=[\s"])|(?<=\\[nrt]))([A2-9TJQK][CDHS])(?=[\s"\\])')


def cards_in_json(value):
    """Every card code in a JSON value: as a string of its own or a word of one ("discard QS").
    Every frame of a whole match is read, so one pattern over its text, not a walk of its nodes."""
    return set(CARD_WORD.findall(json.dumps(value, ensure_ascii=False)))


def cards_in_frame(frame, text):
    """The cards a frame names: in its HTML's cards and moves, or anywhere in its JSON `text`
    as received (the whole text is scanned once, not encoded again)."""
    if "html" in frame:
        return {code for pair in HTML_CARDS.findall(frame["html"]) for code in pair if code in CARD_CODES}
    return set(CARD_WORD.findall(text))


def taken_from_pile(table, hand):
    """The cards each seat took from the face-up pile, by replaying the hand's public moves."""
    options = scoring_mode(table.scoring).options(table.straight, table.oklahoma)
    saved = hand.to_dict()
    replay = Hand(options, saved["dealer"], saved["deck"], reshuffles=saved["reshuffles"])
    taken = [set(), set()]
    for seat, move in hand.history:
        if move == "pile":
            taken[seat].add(str(replay.pile[-1]))
        replay.play(move, seat)
    return taken


class MatchInDatabase:
    """The database's own account of a table's match, read apart from any owner: the saved
    match and the moves logged since (a reshuffle in them deals from the table's seeded
    shuffle, as its owner's does). Kept from one version to the next, so each read replays
    only the moves logged since the last; the saved match is read again when it changes."""

    def __init__(self):
        self.state_version = self.version = self.match = None

    def at(self, table):
        if table.state_version != self.state_version or table.version < self.version:
            self.match = Match.from_dict(table.state, rng=rng_for(table))
            self.state_version = self.version = table.state_version
        for seat, text in store.moves_after(table, self.version, table.version):
            self.match.play(text, seat)
        self.version = table.version
        return self.match


@database_sync_to_async
def hidden_cards(code, in_database=None):
    """For each recipient (seat 0, seat 1, a spectator: None), the cards it may not see now
    (`in_database`: the match as read at the last call, for a test that reads every version)."""
    table = Table.objects.get(code=code)
    hand = (in_database or MatchInDatabase()).at(table).hand
    stock = {str(card) for card in hand.stock}
    # The hand's public moves name their cards ("discard 7H"), and the first upcard was face
    # up: naming them again reveals nothing, even where a reshuffle has put one back in the stock.
    named = {code for _, move in hand.history for code in move.split()[1:]} | {str(hand.deck[20])}
    if hand.result is not None:
        return table.version, {0: stock - named, 1: stock - named, None: stock - named}
    holding = [set(hand.view(seat)["hand"]) for seat in (0, 1)]
    taken = taken_from_pile(table, hand)
    unseen = [holding[seat] - taken[seat] for seat in (0, 1)]
    hidden = {0: stock | unseen[1], 1: stock | unseen[0], None: stock | unseen[0] | unseen[1]}
    return table.version, {seat: cards - named for seat, cards in hidden.items()}


class Recipient:
    def __init__(self, name, seat, socket):
        self.name, self.seat, self.socket = name, seat, socket
        self.frames, self.version = [], -1

    async def read_until(self, version):
        while self.version < version:
            text = await self.socket.receive_from(timeout=TIMEOUT)
            frame = json.loads(text)
            assert frame["type"] != "error", (self.name, frame)
            self.frames.append((frame, text))
            if frame["type"] == "state":
                self.version = frame["version"]
                self.last = frame


async def settle(recipients, version, truths, code, counts, in_database):
    """Every recipient has read up to `version`; check each new frame against the truth of
    its own version (the database holds still meanwhile)."""
    for recipient in recipients:
        await recipient.read_until(version)
    current, hidden = await hidden_cards(code, in_database)
    truths[current] = hidden
    for recipient in recipients:
        for frame, text in recipient.frames:
            if frame["type"] != "state":
                continue
            leaked = cards_in_frame(frame, text) & truths[frame["version"]][recipient.seat]
            assert not leaked, (recipient.name, frame["version"], sorted(leaked),
                                {key: value for key, value in frame.items() if cards_in_json(value) & leaked})
            counts[recipient.name] += 1
        recipient.frames = []


async def play_whole_match(scoring, straight, oklahoma):
    code, tokens = await open_seated_table(scoring, seed=f"{scoring}-{straight}-{oklahoma}",
                                           straight=straight, oklahoma=oklahoma)
    recipients = [
        Recipient("api seat 0", 0, await api_socket(code, tokens[0])),
        Recipient("api seat 1", 1, await api_socket(code, tokens[1])),
        Recipient("api spectator", None, await api_socket(code)),
        Recipient("browser seat 0", 0, await browser_socket(code, tokens[0])),
        Recipient("browser spectator", None, await browser_socket(code)),
    ]
    seats = recipients[:2]
    truths, counts, in_database = {}, dict.fromkeys((recipient.name for recipient in recipients), 0), MatchInDatabase()
    version = (await hidden_cards(code))[0]
    await settle(recipients, version, truths, code, counts, in_database)
    for _ in range(MAX_MOVES):
        state = seats[0].last
        if state["match_over"]:
            break
        if state["hand_result"] is not None:
            frames = [(seat, {"type": "next_hand"}) for seat in seats]
        else:
            mover = seats[state["to_move"]]
            frames = [(mover, {"type": "move", "move": choose_move(mover.last), "version": state["version"]})]
        for sender, frame in frames:  # one change at a time: each frame is checked at its version
            await sender.socket.send_json_to(frame)
            # A first "next hand" only marks its seat ready (the game's version stays); the
            # second deals; a move is a new version.
            version += 1 if frame["type"] == "move" or sender is frames[-1][0] else 0
            await settle(recipients, version, truths, code, counts, in_database)
    assert seats[0].last["match_over"], "the match did not end"
    for recipient in recipients:
        await recipient.socket.disconnect()
    return counts


@pytest.mark.timeout(400)
@pytest.mark.parametrize(("scoring", "straight", "oklahoma"), list(itertools.product(SCORINGS, (False, True), (False, True))))
async def test_it_shows_no_recipient_a_card_it_may_not_see_in_a_whole_match(scoring, straight, oklahoma, settings):
    # A bot plays far faster than the per-socket frame rate a person needs.
    settings.GAMES_WS_RATE_BURST = settings.GAMES_WS_RATE_PER_SECOND = 10_000
    counts = await play_whole_match(scoring, straight, oklahoma)
    print(scoring, straight, oklahoma, counts)
    assert all(count > 0 for count in counts.values())


async def test_the_scan_would_notice_the_opponents_hand_in_a_seats_frame():
    code, tokens = await open_seated_table()
    seat_one = await api_socket(code, tokens[1])
    text = await seat_one.receive_from(timeout=TIMEOUT)
    named = cards_in_frame(json.loads(text), text)
    _version, hidden = await hidden_cards(code)
    assert named & hidden[0] and named & hidden[None]
    assert not named & hidden[1]
    await seat_one.disconnect()
