# Only what differs from Django's Czech formats: the Czech norm (ČSN 01 6910) writes a
# numeric date with a space after each full stop.
SHORT_DATE_FORMAT = "j. n. Y"
SHORT_DATETIME_FORMAT = "j. n. Y G:i"
