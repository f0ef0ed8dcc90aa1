"""A pace of days a turn runs out with nobody at the table: at each turn's start a task is
queued to run at its deadline (django-tasks' database backend, `manage.py db_worker`), which
sends the clock's command through the one way in, as the hub's check does while a socket of
the table is open (games.live.clock). The command looks at the stored deadline again, so a
turn played meanwhile, or a deadline already run out by a process, changes nothing."""

from django_tasks import task

from games.errors import GameError
from games.live.batch import send_now
from games.live.commands import ClockForfeit, ClockNextHand
from games.live import turns
from games.live.tables import clock_turn, refreshed


def schedule(code, deadline):
    """Queue table `code`'s run-out for `deadline` (called once the turn's change committed)."""
    run_out.using(run_after=deadline).enqueue(code)


turns.DEADLINE_SET.append(schedule)


@task()
def run_out(code):
    refreshed(code)  # a worker's copy of the table may be days old
    turn = clock_turn(code)
    if turn is None or not isinstance(turn.command, (ClockForfeit, ClockNextHand)):
        return "nothing due"
    try:
        send_now(code, turn.command)
    except GameError as refused:
        return f"refused: {refused.code}"  # the table moved on meanwhile
    return type(turn.command).__name__
