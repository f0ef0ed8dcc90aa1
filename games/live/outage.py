"""The database going away under live play: which errors mean it, so that a socket stays
open and says so instead of dying, and a page answers 503 instead of 500.

A lost or refused connection (PostgreSQL restarting, SQLite locked past its timeout) is an
OperationalError or an InterfaceError; games.live.database reopens the connection on the next
call, so play resumes by itself when the database is back.
"""

from django.db import InterfaceError, OperationalError

DATABASE_AWAY = (OperationalError, InterfaceError)
# A socket refused while the database is away: the page tries again, as after any outage.
CLOSE_TRY_AGAIN = 4503
