"""The pictures of the table a game draws for the web page (Presentation.picture): each
built-in game's is a valid SVG document, drawn from the view alone (it names no card the
seat may not see), the same for the same view; one past the bound is not sent, and the log
says so; and Clonk!'s cards read apart where only a mark tells them apart."""

from __future__ import annotations

import logging
from typing import Any
from xml.etree import ElementTree

import pytest

from meeple.core import net
from meeple.core.engine import Hooks, Match
from meeple.core.plugins import Registry, plugin_manager
from meeple.core.svg import NAMESPACE, Picture
from meeple.core.testing import picture_leaks

registry = Registry(plugin_manager(entry_points=False))
GAMES: list[tuple[str, dict[str, Any]]] = [
    ("clonk", {}),
    ("clank", {"board": "front"}),
    ("clank", {"board": "back"}),
    ("clank-catacombs", {}),
]


@pytest.mark.parametrize(("which", "options"), GAMES)
def test_each_games_picture_is_svg_of_the_view_alone_and_the_same_each_time(
    which: str, options: dict[str, Any]
) -> None:
    kind = registry.game(which)
    game = kind(kind.options_type(**options))
    match = Match.new(game, 3, 7, Hooks(None))
    step = 0
    while not match.over:
        if step % 50 == 0:
            for seat in [*range(3), None]:
                view = game.view(match.state, seat)
                svg = game.presentation.picture(view, seat)
                assert svg is not None
                assert ElementTree.fromstring(svg).tag == f"{{{NAMESPACE}}}svg"
                assert len(svg.encode()) <= net.PICTURE_BYTES
                assert game.presentation.picture(game.view(match.state, seat), seat) == svg
                assert not picture_leaks(game, match.state, seat, svg), (step, seat)
        legal = match.legal()
        match.step(legal[step * 7 % len(legal)])
        step += 1


def test_picture_leaks_finds_a_hidden_card_by_id_or_by_how_it_alone_reads() -> None:
    game = registry.game("clonk")()
    state = Match.new(game, 2, 3, Hooks(None)).state
    other = state.hands[1].cards[0]
    for said in (other, game.presentation.describe_card(other)):
        pic = Picture(10, 10, "a table")
        pic.add("text", text=said)
        seen = {game.presentation.describe_card(c) for c in state.hands[0].cards}
        if said not in seen:
            assert other in picture_leaks(game, state, 0, str(pic))
    assert not picture_leaks(game, state, 0, str(Picture(10, 10, "a table")))


def test_a_name_with_markup_is_written_as_text() -> None:
    pic = Picture(10, 10, "</title><script>alert(1)</script>")
    pic.add("text", text="<b>&", onload="x")
    root = ElementTree.fromstring(str(pic))
    assert [e.tag.split("}")[1] for e in root.iter()] == ["svg", "title", "text"]
    assert root[0].text == "</title><script>alert(1)</script>"


def test_a_picture_past_the_bound_or_failing_is_not_sent_and_the_log_says_so(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    game = registry.game("clank")()
    view = game.view(Match.new(game, 2, 3, Hooks(None)).state, 0)
    assert net.picture(game, view, 0) == game.presentation.picture(view, 0)
    monkeypatch.setattr(net, "PICTURE_BYTES", 1000)
    with caplog.at_level(logging.WARNING, "meeple.host"):
        assert net.picture(game, view, 0) is None
    assert "picture for seat 0 is" in caplog.text and "past the 1000" in caplog.text

    def fails(view: Any, seat: int | None) -> str:
        raise ValueError("no ink")

    monkeypatch.setattr(game.presentation, "picture", fails)
    caplog.clear()
    with caplog.at_level(logging.WARNING, "meeple.host"):
        assert net.picture(game, view, None) is None
    assert "picture for the spectators failed" in caplog.text and "no ink" in caplog.text


def test_clonks_copies_that_differ_only_in_a_mark_read_apart() -> None:
    game = registry.game("clonk")()
    c, said = game.content, game.presentation.describe_card
    assert said("red-hammer-1") == "red hammer, no coin or eye"
    assert said("red-hammer-2") == "red hammer, 1 coin"
    for a in c.treasures:
        for b in c.treasures:
            same_kind = c.colour[a] == c.colour[b] and c.type[a] == c.type[b]
            same_marks = (c.coins[a], c.eyes[a]) == (c.coins[b], c.eyes[b])
            assert (said(a) == said(b)) == (same_kind and same_marks), (a, b)
    assert said("snore-1") == "Snore, 3 eyes" and said("kablooey-2") == "Kablooey, 1 coin"


@pytest.mark.parametrize("which", ["clank", "clank-catacombs"])
def test_clanks_cards_and_tokens_read_by_their_printed_names(which: str) -> None:
    game = registry.game(which)()
    cat, said = game.cat, game.presentation.describe_card
    for piece in [*cat.card, *cat.token]:
        assert said(piece) != piece
    values = [t for t in cat.token if cat.token[t].values]
    assert len({said(t) for t in values}) > 1
