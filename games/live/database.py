"""Live play's way to the database: one thread a process, and one connection kept in it.

Channels runs the sockets' database calls in one thread (`thread_sensitive`), so that thread
can keep one connection for as long as the process lives, instead of opening and closing one
for every call (which was most of a move's cost). Django's own HTTP requests, though, each run
in a thread of their own under ASGI, where a kept connection would be left behind with its
thread, so the site closes connections after each request (`CONN_MAX_AGE = 0`, settings).
`database_sync_to_async` here is Channels' with that difference: the connection it uses is
closed only when it broke (the database restarted), and reopened on the next call.
"""

from asgiref.sync import SyncToAsync
from django.db import connections


def close_if_broken():
    """What Django's close_old_connections does, but for age: a kept connection has none."""
    for connection in connections.all(initialized_only=True):
        if connection.connection is None:
            continue
        if connection.get_autocommit() != connection.settings_dict["AUTOCOMMIT"]:
            connection.close()  # a call left a transaction open: never trust it
        elif connection.errors_occurred:
            if connection.is_usable():
                connection.errors_occurred = False
            else:
                connection.close()


class KeptConnectionSyncToAsync(SyncToAsync):
    def thread_handler(self, loop, *args, **kwargs):
        try:
            return super().thread_handler(loop, *args, **kwargs)
        finally:
            close_if_broken()


database_sync_to_async = KeptConnectionSyncToAsync
