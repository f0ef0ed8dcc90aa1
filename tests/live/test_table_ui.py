"""What the table page shows and allows, read from the server, in the order a player meets
it: the page, a turn, the opponent's moves, the knock and the showdown, the end of a match,
names and chat. What needs a browser to see is in tests/browser/."""

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone, translation

from games.display.cards import card_name, card_short
from games.live import render

from games.live.batch import send_now
from games.live.commands import Arrive, Claim, Play, PressNextHand, PressRematch, Resign, Say, Sit
from games.live.opening import open_table
from games.live.tables import live_tables
from games.archive.models import ArchivedMatch
from games.errors import GameError
from games import identity
from games.identity import clean_name, grapheme_count
from games.models import ChatMessage, Seat, Table
from tests.live.helpers import state_of, choose_move
from tests.live.test_hidden_cards import cards_in_json

pytestmark = pytest.mark.django_db


def seated(scoring="hollywood", seed="fixed", **options):
    ana = open_table("Ana", scoring=scoring, deal_seed=seed, **options)
    ben = send_now(ana.table.code, Sit("Ben")).answer
    return ana.table.code, ana, ben


def play(code, moves=1, chooser=choose_move):
    for _ in range(moves):
        mover = state_of(code, 0)["to_move"]
        send_now(code, Play(mover, chooser(state_of(code, mover))))


def page(code, token=None, seat=None):
    client = Client()
    if token:
        client.cookies[f"seat_{code}"] = token
    return client.get(f"/en/t/{code}/").content.decode()


def live_html(code, seat):
    return render.render_live(state_of(code, seat))


def names_the_card(html, code):
    """Whether a page shows or speaks the card: its code as a word (not inside the table's
    random code or a token, which may hold any two letters), its id, its name or its corner."""
    as_a_word = re.search(rf"(?<![\w-]){code}(?![\w-])", html)
    return bool(as_a_word) or f"card-{code}" in html or card_name(code) in html or card_short(code) in html


def away(code, seat, seconds=600):
    Seat.objects.filter(table__code=code, number=seat).update(last_seen=timezone.now() - timedelta(seconds=seconds))


# The rules on the table, and the invited friend ----------------------------------------------

def test_it_shows_the_tables_rules_on_the_table():
    code, *_ = seated(scoring="game", target=250, oklahoma=True)
    html = live_html(code, 0)
    rules = re.search(r'<ul class="table-rules".*?</ul>', html, re.S).group(0)
    limit = state_of(code, 0)["knock_limit"]
    assert "One game" in rules and "to 250 points" in rules and f"Oklahoma: knock with at most {limit}" in rules


def test_it_shows_straight_gin_on_the_table():
    code, *_ = seated(straight=True)
    assert "Straight Gin: gin only, no knocking" in live_html(code, 1)


def test_it_tells_the_invited_friend_to_take_the_seat_not_to_share_the_link():
    ana = open_table("Ana")
    friend = page(ana.table.code)
    assert "Ana is waiting for an opponent: take the free seat to play." in friend
    assert "share the link" not in friend and 'id="share-link"' not in friend
    assert "Waiting for an opponent: share the link." in page(ana.table.code, ana.token)


# The page: one heading, cards named by what they show, the share bar -------------------------

def card_buttons(html):
    """Each card button's card, name for a screen reader, and corner as drawn."""
    pattern = r'<button[^>]*data-card="(\w\w)"[^>]*aria-label="([^"]+)"><b>([^<]+)<i>([^<]+)</i></b>'
    return {card: (label, rank + suit) for card, label, rank, suit in re.findall(pattern, html)}


def test_it_names_each_card_button_for_a_screen_reader_starting_with_what_it_shows():
    code, *_ = seated()
    play(code, 4)  # both pass the upcard, a draw and a discard: the next player may take it
    mover = state_of(code, 0)["to_move"]
    top = state_of(code, mover)["discard_top"]
    assert {"pile", "stock"} <= set(state_of(code, mover)["legal_moves"])
    before_the_draw = card_buttons(live_html(code, mover))
    send_now(code, Play(mover, "stock"))
    in_hand = card_buttons(live_html(code, mover))
    # The pile's card offered, then every card of the hand: each a button, none left unnamed.
    assert list(before_the_draw) == [top] and sorted(in_hand) == sorted(state_of(code, mover)["hand"])
    for label, corner in [*before_the_draw.values(), *in_hand.values()]:
        assert label.startswith(corner), f"{label!r} does not start with the card's corner {corner!r}"


def test_it_gives_the_table_page_one_h1():
    code, ana, _ = seated()
    assert page(code, ana.token).count("<h1") == 1


def test_it_hides_the_share_bar_from_the_friend_who_joined():
    code, _, ben = seated()
    assert 'id="share-link"' not in page(code, ben.token)


# The first paint: the favicon, the saved order of the hand -----------------------------------

def test_it_serves_a_favicon_where_browsers_look_for_one(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 301 and response["Location"].endswith("favicon.svg")
    assert 'rel="icon"' in client.get("/en/").content.decode()


def test_it_paints_the_hand_in_the_browsers_saved_order_from_the_first_response():
    code, ana, _ = seated()
    hand = state_of(code, 0)["hand"]
    order = list(reversed(hand))
    client = Client()
    client.cookies[f"seat_{code}"] = ana.token
    client.cookies["hand_sort"] = "custom"
    client.cookies[f"hand_order_{code}"] = ".".join(order)
    html = client.get(f"/en/t/{code}/").content.decode()
    mine = html[html.index('id="hand-cards"'):]
    assert re.findall(r'data-card="(\w\w)"', mine)[:len(order)] == order


# Taking a turn: the card just drawn, the card that may not go back ---------------------------

def test_it_marks_the_card_just_drawn_and_says_why_the_taken_card_cannot_be_discarded():
    code, *_ = seated()
    mover = state_of(code, 0)["to_move"]
    send_now(code, Play(mover, "pile"))
    seen = state_of(code, mover)
    taken = seen["cannot_discard"]
    html = live_html(code, mover)
    button = re.search(rf'<button[^>]*id="card-{taken}"[^>]*>', html).group(0)
    assert 'aria-disabled="true"' in button and "drawn" in button and "taken" in button
    assert 'data-refusal="A card taken from the pile may not be discarded on the same turn."' in button


# What the opponent did, the pile, the cards they took ----------------------------------------

def test_it_tells_each_player_what_the_opponent_did_naming_every_face_up_card():
    code, *_ = seated()
    upcard = state_of(code, 0)["upcard"]
    mover = state_of(code, 0)["to_move"]
    send_now(code, Play(mover, "pile"))  # the upcard, taken
    mine = state_of(code, mover)
    discard = next(move for move in mine["legal_moves"] if move.startswith("discard"))
    send_now(code, Play(mover, discard))
    other = 1 - mover
    lines = render.live_context(state_of(code, other), "melds")["moves"]
    name = ("Ana", "Ben")[mover]
    assert lines == [f"{name} took the {card_name(upcard)} from the pile.",
                     f"{name} discarded the {card_name(discard.split()[1])}."]
    # The card they took is shown face up in their hand; the pile is there to look through.
    html = live_html(code, other)
    assert f'data-card="{upcard}"' in html.split('class="piles"')[0]
    assert 'id="hand-log"' in html and "discard pile, from the bottom up" in html


def test_it_never_names_the_card_drawn_from_the_stock_to_the_opponent():
    code, *_ = seated()
    play(code, 2)  # both pass the upcard
    mover = state_of(code, 0)["to_move"]
    send_now(code, Play(mover, "stock"))
    drawn = state_of(code, mover)["drawn"]
    theirs = state_of(code, 1 - mover)
    assert theirs["drawn"] is None
    assert not names_the_card(live_html(code, 1 - mover), drawn)
    assert drawn not in cards_in_json(theirs)
    assert render.live_context(theirs, "melds")["moves"][-1].endswith("drew from the stock.")


# Morphing and the live region ----------------------------------------------------------------

def test_it_announces_the_opponents_move_and_your_turn_in_a_live_region():
    code, *_ = seated()
    mover = state_of(code, 0)["to_move"]
    send_now(code, Play(mover, "pass"))
    html = live_html(code, 1 - mover)
    announcer = re.search(r'<p class="visually-hidden" id="announcer" aria-live="polite"[^>]*>(.*?)</p>', html).group(1)
    assert announcer == f"{('Ana', 'Ben')[mover]} passed on the upcard. Your turn: take the upcard or pass."


def test_it_updates_the_table_by_morphing_with_the_vendored_idiomorph_and_its_licence():
    code, ana, _ = seated()
    html = page(code, ana.token)
    assert "vendor/idiomorph/idiomorph.min.js" in html
    from django.conf import settings
    vendor = settings.BASE_DIR / "static" / "vendor" / "idiomorph"
    assert (vendor / "LICENSE").read_text().strip() and "Idiomorph.morph" in (settings.BASE_DIR / "static/js/table.js").read_text()


def test_it_gives_every_control_a_stable_id_so_a_morph_keeps_focus_on_it():
    code, *_ = seated()
    html = live_html(code, state_of(code, 0)["to_move"])
    buttons = re.findall(r"<button[^>]*>", html)
    assert buttons and all(re.search(r' id="[^"]+"', button) or "data-sort" in button for button in buttons)


# Knocking takes a second, deliberate press ---------------------------------------------------

def test_it_asks_for_a_second_press_before_a_knock():
    code, *_ = seated(seed="knock-soon")
    for _ in range(200):
        mover = state_of(code, 0)["to_move"]
        if mover is None:
            pytest.fail("the hand ended before anyone could knock")
        if state_of(code, mover)["knocks"]:
            break
        play(code)
    knocks = re.findall(r'<button[^>]*class="knock"[^>]*>', live_html(code, mover))
    assert knocks and all('data-confirm="Press again to' in knock for knock in knocks)


# The showdown explains itself ----------------------------------------------------------------

def a_result(kind="knock", knocker=0, points=8, knocker_deadwood=2, defender_deadwood=10, layoffs=()):
    return {
        "kind": kind, "knocker": knocker, "winner": knocker, "points": points,
        "players": [
            {"melds": [["5H", "6H", "7H"]], "layoffs": [], "deadwood": ["2C"] if knocker_deadwood else [],
             "deadwood_points": knocker_deadwood},
            {"melds": [], "layoffs": [{"card": card, "meld": 0} for card in layoffs], "deadwood": ["KC"],
             "deadwood_points": defender_deadwood},
        ],
    }


def showdown_html(result):
    from games.display import showdown
    return showdown.showdown_html(showdown.showdown(result, ["Ana", "Ben"]))


def test_it_shows_a_gin_as_gin_and_names_the_gin_bonus():
    html = showdown_html(a_result("gin", points=35, knocker_deadwood=0))
    assert ">gin</span>" in html and "knocked" not in html
    assert "Ana went gin: gin bonus 25 + Ben’s deadwood 10 = 35" in html


def test_it_shows_laid_off_cards_on_the_meld_they_extend():
    html = showdown_html(a_result(layoffs=["8H"]))
    ana, ben = html.split('data-seat="1"')
    assert 'data-card="8H"' in ana.split('class="group meld"')[1] and 'data-card="8H"' not in ben
    assert "laid off 1 card on the knocker’s melds" in ben


def test_it_explains_the_bonus_row_of_the_sheet():
    code, *_ = seated()
    assert "Bonus: 100 to the winner of a game" in live_html(code, 0)


def test_it_opens_a_single_hand_table_without_a_target_as_the_form_sends_it(client):
    # The form disables the Target choice for a single hand, and a disabled field is not sent.
    response = client.post("/en/tables/open/", {"name": "Ana", "scoring": "hand"})
    assert response.status_code == 302 and Table.objects.get().scoring == "hand"


def test_it_shows_on_each_card_the_deadwood_its_discard_would_leave():
    code, *_ = seated()
    mover = state_of(code, 0)["to_move"]
    send_now(code, Play(mover, "pile"))
    seen = state_of(code, mover)
    html = live_html(code, mover)
    for card, after in seen["discard_deadwood"].items():
        button = re.search(rf'<button[^>]*id="card-{card}".*?</button>', html, re.S).group(0)
        assert f'<i data-face="{after}"></i></button>' in button
        assert f"leaving deadwood {after}" in button


# The guided first hand, in the page's words -------------------------------------------------

# A state of each step of the hint, seat 0 against the computer in its first hand.
GUIDE_STEPS = {"showdown": {"hand_result": {}}, "wait": {"to_move": 1}, "upcard": {"legal_moves": ["pass"]},
               "draw": {"legal_moves": ["stock"]}, "gin": {"knocks": [{"deadwood": 0}]},
               "knock": {"knocks": [{"deadwood": 5}]}, "discard": {}}


def guide_texts():
    first_hand = {"seat": 0, "players": [{"name": "Ana"}, {"name": "Cleo", "computer": True}], "match_number": 1,
                  "hand_number": 1, "match_over": False, "legal_moves": [], "hand_result": None, "to_move": 0,
                  "knocks": [], "knock_limit": 10}
    hints = {step: render.guide_step({**first_hand, **changes}, ["Ana", "Cleo"]) for step, changes in GUIDE_STEPS.items()}
    assert {step: hint["step"] for step, hint in hints.items()} == {step: step for step in GUIDE_STEPS}
    return {step: hint["text"] for step, hint in hints.items()}


@pytest.mark.parametrize("language", ["es", "de", "cs", "tr"])
def test_it_gives_every_hint_of_the_guided_hand_in_the_pages_language(language):
    english = guide_texts()
    with translation.override(language):
        translated = guide_texts()
    assert [step for step in GUIDE_STEPS if translated[step] == english[step] or not translated[step]] == []
    assert "Cleo" in translated["wait"] and "10" in translated["knock"]


# Names told apart, the knock card face down --------------------------------------------------

def test_it_tells_apart_a_person_and_the_computer_of_the_same_name():
    players = [{"name": "Cleo", "computer": False}, {"name": "Cleo", "computer": True}]
    with translation.override("en"):
        assert render.display_names(players) == ["Cleo", "Cleo (computer)"]
        assert render.display_names([{"name": "Ana"}, {"name": "ana"}]) == ["Ana (seat 1)", "ana (seat 2)"]
        assert render.display_names([{"name": "Ana"}, {"name": "Ben"}]) == ["Ana", "Ben"]
        assert render.display_names([{"name": "Ana"}, None]) == ["Ana", ""]


def test_it_shows_the_knock_card_face_down_once_the_hand_has_ended_on_it():
    state = {"history": [[0, "stock"], [0, "knock 6H"]], "hand_result": {"kind": "knock"}}
    assert render.knock_card(state) == "6H"
    assert render.knock_card({**state, "hand_result": None}) is None
    assert render.knock_card({"history": [[0, "discard 6H"]], "hand_result": {"kind": "draw"}}) is None


def test_it_logs_a_knock_and_a_gin_with_the_card_laid_face_down():
    state = {"upcard": "KS", "history": [[0, "pile"], [0, "knock 6H"]], "hand_result": {"kind": "knock"}}
    with translation.override("en"):
        assert render.move_lines(state, ["Ana", "Ben"])[-1] == "Ana knocked, laying the 6 of hearts face down."
        gin = render.move_lines({**state, "hand_result": {"kind": "gin"}}, ["Ana", "Ben"])
    assert gin == ["Ana took the king of spades from the pile.", "Ana went gin, laying the 6 of hearts face down."]


# After the hand: whom it waits for, the running score ----------------------------------------

def test_it_says_whom_it_waits_for_after_next_hand_is_pressed():
    code, *_ = seated(scoring="game")
    while state_of(code, 0)["hand_result"] is None:
        play(code)
    send_now(code, PressNextHand(0))
    assert "Waiting for Ben to press “Next hand”…" in live_html(code, 0)
    assert "Ana is ready for the next hand." in live_html(code, 1)


def test_it_keeps_the_running_score_between_the_two_players_across_rematches():
    code, *_ = seated(scoring="hand")
    while not state_of(code, 0)["match_over"]:
        play(code)
    winner = state_of(code, 0)["match_winner"]
    send_now(code, PressRematch(0))
    send_now(code, PressRematch(1))
    fresh = state_of(code, 0)
    assert not fresh["match_over"] and fresh["table_wins"] == ([1, 0] if winner == 0 else [0, 1])
    expected = "Matches: Ana 1 – 0 Ben" if winner == 0 else "Matches: Ana 0 – 1 Ben"
    assert expected in live_html(code, 0)


def test_it_puts_the_match_result_above_the_rematch_button():
    code, *_ = seated(scoring="hand")
    while not state_of(code, 0)["match_over"]:
        play(code)
    html = live_html(code, 0)
    assert html.index('id="match-result"') < html.index('id="rematch"')


# Resigning, leaving, claiming ----------------------------------------------------------------

def test_it_ends_a_resigned_match_through_the_archive_and_shows_who_resigned():
    code, *_ = seated()
    play(code, 3)
    send_now(code, Resign(1))
    table = Table.objects.get(code=code)
    archived = ArchivedMatch.objects.get(pk=table.archive_id)
    assert (archived.ending, archived.winner_seat, archived.status) == ("resigned", 0, "finished")
    seen = state_of(code, 0)
    assert seen["match_over"] and seen["match_winner"] == 0 and seen["ending"] == "resigned"
    assert "Ben resigned; the match goes to Ana." in live_html(code, 0)
    with pytest.raises(GameError) as refused:
        send_now(code, Play(seen["to_move"] or 0, "stock"))
    assert refused.value.code == "match_ended"


def test_it_starts_a_rematch_after_a_resignation_with_no_ending_left_over():
    code, *_ = seated()
    send_now(code, Resign(0))
    send_now(code, PressRematch(0))
    send_now(code, PressRematch(1))
    fresh = state_of(code, 0)
    assert not fresh["match_over"] and fresh["ending"] is None and fresh["table_wins"] == [0, 1]


@pytest.mark.parametrize("after", [0, 120])
def test_it_refuses_a_claim_while_the_opponent_is_here(settings, after):
    settings.GAMES_CLAIM_AFTER_SECONDS = after
    code, *_ = seated()
    mover = state_of(code, 0)["to_move"]
    for seat in (0, 1):
        send_now(code, Arrive(seat))
    with pytest.raises(GameError) as refused:
        send_now(code, Claim(1 - mover))
    assert refused.value.code == "opponent_not_away"
    assert not state_of(code, 1 - mover)["can_claim"]


def test_it_refuses_a_claim_before_the_opponent_has_been_away_long_enough(settings):
    settings.GAMES_CLAIM_AFTER_SECONDS = 120
    code, *_ = seated()
    mover = state_of(code, 0)["to_move"]
    away(code, mover, seconds=60)
    with pytest.raises(GameError):
        send_now(code, Claim(1 - mover))


def test_it_lets_a_player_claim_the_match_from_an_opponent_away_for_the_set_time(settings):
    settings.GAMES_CLAIM_AFTER_SECONDS = 120
    code, *_ = seated()
    mover = state_of(code, 0)["to_move"]
    away(code, mover, seconds=121)
    claimer = 1 - mover
    assert state_of(code, claimer)["can_claim"] and "Claim the match" in live_html(code, claimer)
    send_now(code, Claim(claimer))
    archived = ArchivedMatch.objects.get(pk=Table.objects.get(code=code).archive_id)
    assert (archived.ending, archived.winner_seat) == ("left", claimer)
    names = ("Ana", "Ben")
    assert f"{names[mover]} left the table: {names[claimer]} claimed the match." in live_html(code, claimer)


def test_it_never_lets_the_player_to_move_claim_against_a_waiting_opponent(settings):
    settings.GAMES_CLAIM_AFTER_SECONDS = 0
    code, *_ = seated()
    mover = state_of(code, 0)["to_move"]
    away(code, 1 - mover)
    with pytest.raises(GameError):
        send_now(code, Claim(mover))


# Names ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["👩‍💻", "🏳️‍🌈", "Zoë", "José", "한국어", "👨‍👩‍👧‍👦 family", "<script>", "Anna-Lena O’Brien",
                                  "🇨🇿🇩🇪", "ज़ोया", "Ærøskøbing Ålesund Ørje"])
def test_it_takes_every_name_a_person_would_type_whole(client, name):
    client.post("/en/tables/open/", {"name": name, "scoring": "hollywood", "target": "100"})
    seat = Seat.objects.get()
    assert seat.name == name
    assert client.get(f"/en/t/{seat.table.code}/").content.decode().count("&lt;script&gt;" if name == "<script>" else name)


def test_it_counts_what_a_reader_sees_as_one_character():
    assert [grapheme_count(name) for name in ("👩‍💻", "🏳️‍🌈", "é", "e\u0301", "🇨🇿🇩🇪", "👍🏽", "한")] == [1, 1, 1, 1, 2, 1, 1]
    assert clean_name("👩‍💻" * 24) == "👩‍💻" * 24


@pytest.mark.parametrize(("name", "message"), [
    ("x" * 500, "A name may have at most 24 characters."),
    ("x" * 25, "A name may have at most 24 characters."),
    ("Ana\tBen", "A name may not contain control characters, line breaks or invisible formatting."),
    ("\u202eAna", "A name may not contain control characters, line breaks or invisible formatting."),
])
def test_it_refuses_a_name_it_cannot_take_with_a_clear_message_and_never_cuts_it(client, name, message):
    response = client.post("/en/tables/open/", {"name": name, "scoring": "hollywood", "target": "100"})
    assert response.status_code == 400 and message in response.content.decode()
    assert not Seat.objects.exists()


def test_it_caps_the_name_fields_only_beyond_any_name_the_server_takes_so_a_pasted_name_is_never_cut(client):
    # maxlength counts UTF-16 units, a name's limit grapheme clusters ("👩‍💻" is one, and five
    # units): the cap lies past the longest name the server takes, and the page counts
    # characters as the server does (static/js/name-field.js, tests/browser/test_name_field.py).
    home = client.get("/en/").content.decode()
    field = re.search(r'<input id="open-name"[^>]*>', home).group(0)
    assert int(re.search(r'maxlength="(\d+)"', field).group(1)) >= 2 * identity.NAME_MAX_CODE_POINTS
    assert f'data-max-characters="{identity.NAME_MAX_LENGTH}"' in field


# Chat ----------------------------------------------------------------------------------------

def test_it_keeps_chat_with_the_table_without_changing_its_version():
    code, *_ = seated()
    before = Table.objects.get(code=code).version
    send_now(code, Say(0, "  Good luck!  "))
    assert Table.objects.get(code=code).version == before
    assert [line["text"] for line in live_tables.owner(code).chat_lines()] == ["Good luck!"]


def test_it_never_lets_a_spectator_write_in_the_chat():
    code, *_ = seated()
    with pytest.raises(GameError) as refused:
        send_now(code, Say(None, "hello"))
    assert refused.value.code == "spectator" and not ChatMessage.objects.exists()


def test_it_limits_how_fast_a_seat_may_chat(settings):
    settings.GAMES_CHAT_BURST = 3
    code, *_ = seated()
    for number in range(3):
        send_now(code, Say(0, f"line {number}"))
    with pytest.raises(GameError) as refused:
        send_now(code, Say(0, "one too many"))
    assert refused.value.code == "rate_limited"
    send_now(code, Say(1, "the other seat may still talk"))


def test_it_escapes_chat_on_the_page():
    code, ana, _ = seated()
    send_now(code, Say(0, "<img src=x onerror=alert(1)>"))
    html = page(code, ana.token)
    assert "<img src=x" not in html and "&lt;img src=x onerror=alert(1)&gt;" in html
