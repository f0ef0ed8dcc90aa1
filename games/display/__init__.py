"""Words and pictures of a game: card names, labels, messages, the score sheet and the showdown."""
