#!/usr/bin/env python3
"""Check every hand of a Hollywood Gin match from its archive JSON, as docs/fairness.md states.

    python3 verify_deal.py https://<site>/api/matches/<match id>
    python3 verify_deal.py match.json

Standard library only, and no code of the site's: it recomputes each hand's deck and
reshuffles from the revealed seed and both contributions. Exit status 0: every hand checks
out; 1: a line per problem, naming the hand.
"""

import hashlib
import hmac
import json
import sys
import urllib.request

CARDS = [rank + suit for suit in "CDHS" for rank in "A23456789TJQK"]  # the site's card order


def stream(deal, label):
    """HMAC-SHA256 keyed by the seed over "label:c0:c1:counter", for counter 0, 1, 2, …"""
    key, (first, second) = bytes.fromhex(deal["seed"]), deal["contributions"]
    counter = 0
    while True:
        yield from hmac.digest(key, f"{label}:{first}:{second}:{counter}".encode("ascii"), "sha256")
        counter += 1


def below(bound, numbers):
    """The first byte under the largest multiple of `bound`, modulo `bound` (no bias)."""
    limit = 256 - 256 % bound
    return next(byte % bound for byte in numbers if byte < limit)


def shuffled(cards, deal, label):
    """Fisher–Yates from the last place down."""
    order, numbers = list(cards), stream(deal, label)
    for place in range(len(order) - 1, 0, -1):
        pick = below(place + 1, numbers)
        order[place], order[pick] = order[pick], order[place]
    return order


def problems(hand):
    deal = hand.get("deal")
    if not deal:
        return ["no deal recorded: it cannot be checked"]
    found = []
    if hashlib.sha256(bytes.fromhex(deal["seed"])).hexdigest() != deal["commitment"]:
        found.append("the seed's SHA-256 is not the commitment shown before the deal")
    if shuffled(CARDS, deal, "deck") != hand["deck"]:
        found.append("the deck does not follow from the seed and the contributions")
    for number, stock in enumerate(hand["reshuffles"], 1):
        if shuffled(sorted(stock, key=CARDS.index), deal, f"reshuffle-{number}") != stock:
            found.append(f"reshuffle {number} does not follow from the seed and the contributions")
    if deal.get("draws_dealer") and below(2, stream(deal, "first-dealer")) != hand["dealer"]:
        found.append("the first dealer was not the one drawn")
    return found


def checked(hand):
    try:
        return problems(hand)
    except (KeyError, TypeError, ValueError) as error:
        return [f"malformed ({error!r})"]


def main(source):
    with (urllib.request.urlopen(source) if "://" in source else open(source, "rb")) as answer:
        hands = json.load(answer)["hands"]
    failures = [f"hand {hand.get('number')}: {problem}" for hand in hands for problem in checked(hand)]
    print("\n".join(failures) or f"all {len(hands)} hands check out")
    return 1 if failures or not hands else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]) if len(sys.argv) == 2 else "usage: verify_deal.py <match JSON file or URL>")
