"""A socket's life is one value with checked steps (games.live.consumers.Life): connecting,
arriving, open, closing or refused, ended."""

import pytest

from games.live.consumers import ApiTableConsumer, Life


def test_it_refuses_a_step_a_socket_s_life_does_not_allow():
    socket = ApiTableConsumer()
    with pytest.raises(RuntimeError):
        socket.become(Life.OPEN)  # never shown a state before it arrived at the table
    socket.become(Life.ARRIVING)
    socket.become(Life.OPEN)
    socket.become(Life.ENDED)
    with pytest.raises(RuntimeError):
        socket.become(Life.OPEN)  # an ended socket stays ended


def test_it_closes_a_socket_refused_before_the_table_as_refused_and_one_at_the_table_as_closing():
    refused, seated = ApiTableConsumer(), ApiTableConsumer()
    refused.become_silent()
    seated.become(Life.ARRIVING)
    seated.become_silent()
    assert (refused.life, seated.life) == (Life.REFUSED, Life.CLOSING)
