"""The push notices' task, run by `manage.py db_worker` (django-tasks' database backend)."""

from django_tasks import task

from games.push import notices


@task()
def notify_turn(code, seat_id, number, turn):
    return notices.notify(code, seat_id, number, turn)
