"""Every refusal code, from the services, the engine or the sockets, in words.

The one place where a code becomes a translated message. Call `message(code)` with the
reader's language active.
"""

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

MESSAGES = {
    "name_missing": _("Please give a name."),
    "name_too_long": _("A name may have at most 24 characters."),
    "name_not_printable": _("A name may not contain control characters, line breaks or invisible formatting."),
    "name_invisible": _("A name needs at least one character that can be seen."),
    "name_too_many_marks": _("A name may have at most four accents or marks on one letter."),
    "bad_scoring": _("Choose single hand, one game or Hollywood."),
    "bad_target": _("The target is 100 or 250."),
    "bad_option": _("Straight Gin and Oklahoma are on or off."),
    "bad_computer": _("Choose one of the computer's levels."),
    "bad_clock": _("Choose no clock, or one of the turn clocks offered."),
    "bad_pace": _("Choose real time, or 1, 2 or 3 days a turn; a turn clock is for real time only."),
    "unknown_table": _("There is no table with this link."),
    "table_full": _("Both seats at this table are taken. You can watch."),
    "same_player": _("You already hold the other seat at this table. Ask someone else to join."),
    "spectator": _("You are watching this table; only the players can move."),
    "waiting_for_opponent": _("Wait for your opponent to join."),
    "not_your_turn": _("It is not your turn."),
    "hand_over": _("This hand is over."),
    "no_next_hand": _("There is no next hand to deal now."),
    "match_not_over": _("The match is not over yet."),
    "stale": _("The table changed in the meantime; here is the current state."),
    "illegal_move": _("That move is not allowed now."),
    "malformed": _("That message could not be understood."),
    "too_large": _("That message is too long."),
    "rate_limited": _("Too many messages; slow down a little."),
    "unknown_type": _("Unknown message type."),
    "bad_request": _("That request could not be understood."),
    "request_too_large": _("That request is too large."),
    "too_many_requests": _("Too many requests from your address; wait a minute and try again."),
    "too_soon": _("The table has just changed: have a look, then play."),
    "match_ended": _("This match is over."),
    "match_not_running": _("There is no match in play to end."),
    "opponent_not_away": _("Your opponent is not away long enough to claim the match; keep waiting a little."),
    "chat_empty": _("Write something first."),
    "chat_refused": _("A chat line may have at most 200 characters, on one line."),
    "chat_invisible": _("This line has nothing in it that can be seen: write something first."),
    "chat_too_many_marks": _("A chat line may have at most four accents or marks on one letter."),
    "server_error": _("Something went wrong on our side; the table is unchanged."),
    "database_unavailable": _("The server is having trouble; try again in a moment."),
    "table_gone": _("This table was closed after a long time without play."),
    # A seat's contribution to the next deal (docs/fairness.md).
    "contribution_late": _("Too late to add randomness: there is no deal waiting for it now."),
    "contribution_twice": _("Your randomness for this deal is in already; it cannot be changed."),
    "contribution_malformed": _("A contribution is 64 hexadecimal digits (0-9, a-f): 32 random bytes."),
    "nothing_to_review": _("No hand of this match has finished yet: there is nothing to review."),
}

# The engine's reasons for an illegal move (IllegalMove.code), where a plainer message helps.
ILLEGAL_MOVE_REASONS = {
    "unknown_move": _("That is not a move."),
    "must_take_or_pass": _("First take the upcard or pass."),
    "must_draw_from_stock": _("Both passed the upcard: draw from the stock."),
    "cannot_pass": _("You can only pass on the upcard offer."),
    "must_draw_first": _("Draw a card first."),
    "already_drew": _("You have drawn already: discard a card."),
    "card_not_held": _("You do not hold that card."),
    "card_just_taken": _("A card taken from the pile may not be discarded on the same turn."),
    "over_knock_limit": _("Your deadwood is too high to knock."),
    "stock_closed": _("The last two cards of the stock may not be drawn."),
    "not_your_turn": _("It is not your turn."),
    "hand_over": _("This hand is over."),
}

FALLBACK = pgettext_lazy("error message", "Something went wrong.")


def message(code, reason=None):
    if code == "illegal_move" and reason in ILLEGAL_MOVE_REASONS:
        return str(ILLEGAL_MOVE_REASONS[reason])
    return str(MESSAGES.get(code, FALLBACK))
