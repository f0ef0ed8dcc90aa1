from django.apps import AppConfig


class PushConfig(AppConfig):
    """Web Push notices of a seat's turn. Inside the games package, its own app label."""

    name = "games.push"
    label = "push"
    verbose_name = "Push notices"

    def ready(self):
        # The push notices listen to the live tables (games.live.turns): live play knows
        # nothing of them.
        from games.live import turns
        from games.push import listeners

        turns.TURN_BEGAN.append(listeners.turn_began)
        turns.MATCH_ENDED.append(listeners.match_ended)
        turns.SEAT_RENEWED.append(listeners.seat_renewed)
