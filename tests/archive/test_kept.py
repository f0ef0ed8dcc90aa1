"""A finished match's answers and page parts kept in the cache (games.archive.kept): what a
reader sees is never out of date, and a cache that fails costs nothing but speed."""

from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.archive.helpers import decision, hand, record, start_match, store_review


def queries(client, url):
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured)


def test_it_reads_a_finished_matchs_hands_once_while_it_is_kept(client, engine_match):
    url = f"/api/matches/{engine_match.public_id}"
    first = client.get(url).json()
    assert queries(client, url) == 1  # the match and its players: the names are the key's
    assert client.get(url).json() == first


def hands_and_sheet(page):
    """The sheet, and the hands after the review's form (its CSRF token differs each time)."""
    return page[page.index('<div class="sheet-wrap">'):page.index("</table>")] + page[page.index('id="hand-1"'):]


def test_it_builds_a_kept_match_page_as_it_was(client, engine_match):
    url = f"/en/archive/matches/{engine_match.public_id}/"
    first = hands_and_sheet(client.get(url).content.decode())
    assert 'id="hand-2"' in first
    assert hands_and_sheet(client.get(url).content.decode()) == first


def test_it_shows_a_renamed_players_new_name_on_a_kept_match(client, engine_match):
    page, api = f"/en/archive/matches/{engine_match.public_id}/", f"/api/matches/{engine_match.public_id}"
    client.get(page), client.get(api)
    engine_match.player1.name = "Benjamin"
    engine_match.player1.save()  # as games.archive.players does when Ben sits again under a new name
    assert "Benjamin dealt." in client.get(page).content.decode()
    assert client.get(api).json()["players"][1]["name"] == "Benjamin"


def test_it_shows_each_hand_in_the_readers_language_on_a_kept_match(client, engine_match):
    assert "Ana dealt." in client.get(f"/en/archive/matches/{engine_match.public_id}/").content.decode()
    assert "Ana hat gegeben." in client.get(f"/de/archive/matches/{engine_match.public_id}/").content.decode()


def test_it_shows_the_hands_of_a_match_that_finished_after_its_page_was_read(client, ana, ben):
    playing = start_match("later", (ana, ben), "game")
    url = f"/en/archive/matches/{playing.public_id}/"
    assert "No hand was finished." in client.get(url).content.decode()
    from games.archive.record import finish_archived_match
    from tests.archive.helpers import START, scripted_match

    finish_archived_match(playing.pk, scripted_match("game", [hand(0, "gin", 120)]), START)
    page = client.get(url).content.decode()
    assert "No hand was finished." not in page and 'id="hand-1"' in page


def test_it_links_a_kept_match_page_to_a_review_stored_after_it_was_read(client, engine_match):
    url = f"/en/archive/matches/{engine_match.public_id}/"
    assert 'id="ask-review"' in client.get(url).content.decode()
    store_review(engine_match, [[decision(3, 1, "pile", "stock", loss=9.8, tag="blunder")]])
    assert 'id="see-review"' in client.get(url).content.decode()


def test_it_shows_a_review_asked_again_for_more_hands_with_them(client, engine_match):
    url = f"/en/archive/matches/{engine_match.public_id}/review/"
    review = store_review(engine_match, [[decision(3, 1, "pile", "stock")]])
    assert 'id="hand-2"' not in client.get(url).content.decode()
    from games.archive.models import ReviewedHand

    ReviewedHand.objects.create(review=review, number=2, decisions=[decision(5, 0, "stock", "pile", 7.0, "mistake")])
    review.hand_count = 2
    review.save()
    page = client.get(url).content.decode()
    assert 'id="hand-2"' in page and "move 5, Ana:" in page
    assert client.get(f"/api/matches/{engine_match.public_id}/review").json()["hands"][1]["number"] == 2


def test_it_serves_every_archive_page_when_the_cache_is_down(client, fixed_matches, settings):
    from dev import free_port

    settings.CACHES = {"default": {"BACKEND": "hollywood_site.cache.ForgivingRedisCache",
                                   "LOCATION": f"redis://127.0.0.1:{free_port()}/0"}}  # nothing listens
    single = fixed_matches[0]
    store_review(single, [[decision(3, 1, "pile", "stock", loss=9.8, tag="blunder")]])
    for url in (f"/en/archive/matches/{single.public_id}/", f"/api/matches/{single.public_id}",
                f"/en/archive/matches/{single.public_id}/review/", f"/api/matches/{single.public_id}/review"):
        assert client.get(url).status_code == 200, url


def test_it_reads_only_the_match_for_a_kept_review_and_its_json(client, engine_match):
    store_review(engine_match, [[decision(3, 1, "pile", "stock", loss=9.8, tag="blunder")]])
    page, api = f"/en/archive/matches/{engine_match.public_id}/review/", f"/api/matches/{engine_match.public_id}/review"
    client.get(page), client.get(api)
    assert (queries(client, page), queries(client, api)) == (1, 1)  # the match, its players and its review
