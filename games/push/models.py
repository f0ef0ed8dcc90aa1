"""A seat's Web Push subscriptions (no account: the seat owns them), and the claim of one
notice per turn."""

from django.db import models

from games.models import Seat


class Subscription(models.Model):
    """A browser's push subscription for a seat (its PushSubscription's endpoint and keys),
    and the language its notices are written in. Ends with the seat, with the match, when the
    seat's other devices are shut out (games.push.notices), and when the push service says
    it is gone (410)."""

    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="push_subscriptions")
    endpoint = models.URLField(max_length=1000)
    p256dh = models.CharField(max_length=200)
    auth = models.CharField(max_length=64)
    language = models.CharField(max_length=8)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["seat", "endpoint"], name="one_subscription_per_endpoint")]

    def info(self):
        """As pywebpush takes it (the browser's PushSubscription.toJSON())."""
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}


class Notice(models.Model):
    """The claim of the one notice of a seat's turn: whoever inserts the row sends it, so two
    processes told of the same turn send it once."""

    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="+")
    turn = models.CharField(max_length=40)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["seat", "turn"], name="one_notice_per_turn")]
