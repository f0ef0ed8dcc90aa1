"""The review page as a reader sees it: each hand's mistakes said in words, with the computer's
move and a link to the position, and the chances in the reader's language."""

from tests.archive.helpers import decision, store_review


def review_page(client, archived, language="en"):
    return client.get(f"/{language}/archive/matches/{archived.public_id}/review/").content.decode()


def test_it_names_a_blunder_with_the_move_played_and_the_move_the_computer_would_have_played(client, engine_match):
    store_review(engine_match, [[decision(3, 1, "pile", "stock", loss=9.8, tag="blunder"),
                                 decision(4, 1, "discard 7H", "discard 7H")]])
    page = review_page(client, engine_match)
    assert "<strong>Blunder</strong> · move 3, Ben:\n      takes the discard (−9.8)" in page
    assert "The computer would have played: draws from the stock</details>" in page
    assert f'href="/en/archive/matches/{engine_match.public_id}/?hand=1&amp;step=3&amp;seat=1#replay"' in page
    assert 'data-card="7H"' in page  # every decision's table shows the card discarded


def test_it_says_a_hand_without_a_mistake_has_none(client, engine_match):
    store_review(engine_match, [[decision(4, 0, "stock", "stock")]])
    assert "No mistake in this hand." in review_page(client, engine_match)


def test_it_writes_the_chances_and_the_losses_as_the_readers_language_writes_numbers(client, engine_match):
    store_review(engine_match, [[decision(3, 0, "pile", "stock", loss=5.5, tag="mistake")]])
    page = review_page(client, engine_match, "de")
    assert "<td>62,5 %</td><td>37,5 %</td>" in page and "(−5,5)" in page


def test_it_escapes_a_players_name_in_every_line_of_the_review(client, engine_match):
    engine_match.player1.name = "<b>Ben</b>"
    engine_match.player1.save()
    store_review(engine_match, [[decision(3, 1, "pile", "stock", loss=9.8, tag="blunder")]])
    page = review_page(client, engine_match)
    assert "<b>Ben</b>" not in page and "&lt;b&gt;Ben&lt;/b&gt;" in page


def test_it_leads_a_replay_from_one_mistake_to_the_next_and_names_the_one_about_to_be_played(client, engine_match):
    store_review(engine_match, [[decision(3, 1, "pile", "stock", loss=9.8, tag="blunder")],
                                [decision(2, 0, "stock", "pile", loss=3.0, tag="inaccuracy")]])
    page = client.get(f"/en/archive/matches/{engine_match.public_id}/?hand=1&step=3&seat=1").content.decode()
    assert "<strong>Blunder</strong>: takes the discard (−9.8)" in page
    assert 'id="replay-next-mistake" href="/en/archive/matches/' in page and "?hand=2&amp;step=2&amp;seat=0#replay" in page
    assert 'id="replay-previous-mistake"' not in page


def test_it_counts_a_players_accuracy_over_the_matches_reviewed_in_either_seat(client, engine_match, fixed_matches):
    store_review(engine_match, [[decision(3, 1, "pile", "stock")]])
    store_review(fixed_matches[1], [[decision(3, 1, "pile", "stock")]])  # Ana in the first seat both times
    from games.archive.reviews import player_accuracy

    assert player_accuracy(engine_match.player0) == (90.0, 2)
