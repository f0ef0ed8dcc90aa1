"""The push notices' task, run by `manage.py db_worker` (django-tasks' database backend)."""

from django_tasks import task


@task()
def notify_turn(code, seat_id, number, turn):
    # The sender (pywebpush, with aiohttp: a second to import) is loaded by the worker only.
    from games.push import notices

    return notices.notify(code, seat_id, number, turn)
