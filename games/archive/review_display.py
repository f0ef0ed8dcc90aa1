"""The computer's review as its page shows it: each hand's graph of chances, its decisions."""

from django.urls import reverse
from django.utils.translation import gettext_lazy as _

TAG_LABELS = {"inaccuracy": _("Inaccuracy"), "mistake": _("Mistake"), "blunder": _("Blunder")}
GRAPH_WIDTH = 600
GRAPH_HEIGHT = 160
PERCENT = 100.0


def replay_url(archived, number, step, seat):
    """The match page's replay of the position a decision was made in, seen by its mover."""
    return reverse("archive:match", args=[archived.public_id]) + f"?hand={number}&step={step}&seat={seat}#replay"


def graph(chances, decisions):
    """SVG coordinates of the first seat's chance through a hand, and a mark at each tagged
    decision; `chances` are [step, chance] pairs."""
    if not chances:
        return None
    last = max(chances[-1][0], 1)

    def at(step, chance):
        return round(step / last * GRAPH_WIDTH, 1), round(GRAPH_HEIGHT - chance / PERCENT * GRAPH_HEIGHT, 1)

    by_step = dict((step, chance) for step, chance in chances)
    marks = []
    for decision in decisions:
        if decision["tag"] and decision["step"] in by_step:
            x, y = at(decision["step"], by_step[decision["step"]])
            marks.append({"x": x, "y": y, "tag": decision["tag"]})
    return {"points": " ".join("%s,%s" % at(step, chance) for step, chance in chances), "marks": marks,
            "width": GRAPH_WIDTH, "height": GRAPH_HEIGHT, "middle": GRAPH_HEIGHT / 2}


def hand_section(archived, hand, names):
    decisions = [{**decision, "name": names[decision["seat"]], "tag_label": TAG_LABELS.get(decision["tag"]),
                  "url": replay_url(archived, hand.number, decision["step"], decision["seat"])}
                 for decision in hand.decisions]
    return {
        "number": hand.number,
        "graph": graph(hand.chances, hand.decisions),
        "chances": [{"step": step, "first": chance, "second": round(PERCENT - chance, 1)} for step, chance in hand.chances],
        "decisions": decisions,
        "tagged": [decision for decision in decisions if decision["tag"]],
    }


def seat_rows(review, names):
    return [{"name": name, **seat} for name, seat in zip(names, review.seats)]


def mistakes(review):
    """(hand number, step, seat) of every tagged decision, in the order played."""
    return [(hand.number, decision["step"], decision["seat"])
            for hand in review.hands.filter(number__lte=review.hand_count) for decision in hand.decisions if decision["tag"]]


def neighbouring_mistakes(review, number, step):
    """The tagged decisions just before and just after a replay's position, or None."""
    found = mistakes(review)
    before = [m for m in found if (m[0], m[1]) < (number, step)]
    after = [m for m in found if (m[0], m[1]) > (number, step)]
    return (before[-1] if before else None), (after[0] if after else None)


def decision_at(review, number, step):
    """The decision made at a replay's position (the move about to be played), or None."""
    hand = review.hands.filter(number=number).first()
    found = [d for d in hand.decisions if d["step"] == step] if hand else []
    return {**found[0], "tag_label": TAG_LABELS.get(found[0]["tag"])} if found else None
