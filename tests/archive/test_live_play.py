"""A match played through live play's consumers lands in the archive, hand by hand."""

import pytest
from channels.db import database_sync_to_async
from django.test import Client

from games.archive.models import ArchivedMatch, PlayerResult
from games.models import Move
from tests.live.helpers import api_socket, both_press, choose_move, open_seated_table, state_at, state_where

pytestmark = pytest.mark.django_db(transaction=True)


def both_connected(state):
    return all(player and player["connected"] for player in state["players"])


async def play_whole_match(scoring):
    """Both seats play over the JSON socket until the match is over.

    Returns the match_id and, for each hand, the state the protocol sent at its end.
    """
    code, tokens = await open_seated_table(scoring)
    sockets = [await api_socket(code, token) for token in tokens]
    states = [await state_where(socket, both_connected) for socket in sockets]
    ends = []
    while True:
        while states[0]["hand_result"] is None:
            mover, version = states[0]["to_move"], states[0]["version"]
            await sockets[mover].send_json_to({"type": "move", "move": choose_move(states[mover]), "version": version})
            states = [await state_at(socket, version + 1) for socket in sockets]
        ends.append(states[0])
        if states[0]["match_over"]:
            break
        states = await both_press(sockets, states, "next_hand")
    for socket in sockets:
        await socket.disconnect()
    return code, states[0]["match_id"], ends


@database_sync_to_async
def archived_with_hands(match_id):
    archived = ArchivedMatch.objects.select_related("player0", "player1").get(public_id=match_id)
    return archived, list(archived.hands.all())


@database_sync_to_async
def moves_by_hand(code):
    moves = {}
    for move in Move.objects.filter(table__code=code, match_number=1).order_by("version"):
        moves.setdefault(move.hand_number, []).append(move.text)
    return [moves[number] for number in sorted(moves)]


async def test_it_archives_a_hollywood_match_played_through_the_consumers_hand_by_hand(settings):
    settings.GAMES_WS_RATE_PER_SECOND = 1000  # the test's players answer faster than people
    code, match_id, ends = await play_whole_match("hollywood")
    archived, hands = await archived_with_hands(match_id)
    assert archived.status == ArchivedMatch.FINISHED
    assert [archived.player0.name, archived.player1.name] == ["Ana", "Ben"]
    assert len(hands) == len(ends)
    for hand, sheet, end in zip(hands, archived.sheets_after_each_hand(), ends, strict=True):
        result = end["hand_result"]
        # The showdown is stored in the very shape the players were sent.
        assert hand.result == result
        # The sheet the archive gives after each hand is the one both players saw at its end.
        assert sheet == end["sheet"]
    assert [hand.moves for hand in hands] == await moves_by_hand(code)
    assert archived.sheet == ends[-1]["sheet"]
    assert archived.winner_seat == ends[-1]["match_winner"]


async def test_it_counts_a_match_played_through_the_consumers_for_both_players(settings):
    settings.GAMES_WS_RATE_PER_SECOND = 1000
    _code, match_id, ends = await play_whole_match("game")
    archived, hands = await archived_with_hands(match_id)
    client = Client()
    data = await database_sync_to_async(lambda: client.get(f"/api/players/{archived.winner.public_id}").json())()
    assert (data["matches_played"], data["matches_won"]) == (1, 1)
    assert data["hands_won"] == sum(1 for end in ends if end["hand_result"]["winner"] == archived.winner_seat)
    assert await database_sync_to_async(PlayerResult.objects.filter(match__public_id=match_id).count)() == 2
    page = await database_sync_to_async(lambda: client.get(f"/en/archive/matches/{match_id}/"))()
    assert page.status_code == 200
