"""The Clank! content tables: counts, variants, both boards, user tables and clear errors.

Cites seeds/clank/rules.md#components, #setup and #decisions.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from meeple.core.errors import ContentError
from meeple.plugins.clank import tables
from meeple.plugins.clank.content import (
    VARIANTS,
    PointsIf,
    PointsPer,
    Tables,
)
from meeple.plugins.clank.effects import (
    BASE_EFFECTS,
    Buy,
    Gain,
    ReturnDragonCubes,
    ThisTurn,
    Trash,
    kinds,
)
from meeple.plugins.clank.rules import Clank
from meeple.plugins.clank.state import Choose, ClankEffect, DiscardThen, If
from meeple.plugins.clank.tables import reachable, walk


def read_tables(**kw: Any) -> Tables:
    """The tables as Clank! reads them."""
    return tables.read_tables(Clank._schema(), **kw)


def check_tables(t: Tables, effects: tuple[type, ...] | None = None) -> list[str]:
    """The problems Clank! finds in ``t``, or a game handling only ``effects``."""
    schema = Clank._schema()
    if effects is not None:
        schema = replace(schema, effects=effects)
    return tables.check_tables(t, schema)


def builtin(name: str) -> Any:
    return json.loads(resources.files("meeple.seeds").joinpath(f"clank/{name}").read_text())


def write(tmp_path: Path, name: str, data: Any) -> str:
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return str(path)


def dungeon_count(t: Tables, **flags: bool) -> int:
    return sum(
        c.count for c in t.cards.dungeon if all(getattr(c, k) == v for k, v in flags.items())
    )


def test_dungeon_deck_totals() -> None:
    """rules.md#components: 100 cards, 20 monsters, 10 devices, 9 gems, 30 dragon symbols."""
    t = read_tables()
    assert sum(c.count for c in t.cards.dungeon) == 100
    assert len(t.cards.dungeon) == 63
    kinds: Counter[str] = Counter()
    for c in t.cards.dungeon:
        kinds[c.kind] += c.count
    assert kinds == {"monster": 20, "device": 10, "item": 70}
    assert dungeon_count(t, gem=True) == 9
    assert dungeon_count(t, dragon=True) == 30
    assert dungeon_count(t, danger=True) == 5  # 3 Kobolds, 2 Dragon Shrines
    assert {c.id: c.where for c in t.cards.dungeon if c.where} == {
        "cave-troll": "depths",
        "crystal-golem": "crystal-cave",
        "the-vault": "depths",
        "dragons-eye": "depths",
    }
    assert read_tables() is t  # cached


def test_reserve_and_starting_deck() -> None:
    """rules.md#components, #fight: Reserve piles 15/15/12/1, the Goblin stays; 10 starters."""
    t = read_tables()
    piles = {c.id: c.count for c in t.cards.reserve}
    assert piles == {"mercenary": 15, "explore": 15, "secret-tome": 12, "goblin": 1}
    goblin = t.card["goblin"]
    assert goblin.never_leaves and goblin.kind == "monster" and goblin.cost == 2
    assert goblin.defeat == [Gain(gold=1)]
    assert t.card["secret-tome"].points == 7 and t.card["secret-tome"].cost == 7
    assert {c.id: c.count for c in t.cards.starter} == {
        "burgle": 6,
        "stumble": 2,
        "sidestep": 1,
        "scramble": 1,
    }
    assert t.card["stumble"].play == [Gain(clank=1)]
    assert t.card["scramble"].play == [Gain(skill=1, boots=1)]


def test_free_text_effects_in_the_vocabulary() -> None:
    """rules.md#conditions, #trash, #choices: the cards' special texts as effects."""
    c = read_tables().card
    assert ThisTurn(mod="skill-per-clank") in c["swagger"].play
    for rebel in ("rebel-captain", "rebel-miner", "rebel-scout", "rebel-soldier"):
        assert If(cond="companion-in-play", then=[Gain(draw=1)]) in c[rebel].play
    assert If(cond="artifact", then=[Gain(skill=2)]) in c["kobold-merchant"].play
    assert If(cond="monkey-idol", then=[Gain(skill=2)]) in c["archaeologist"].play
    assert If(cond="crown", then=[Gain(swords=1, boots=1)]) in c["the-mountain-king"].play
    assert If(cond="crown", then=[Gain(heal=1)]) in c["the-queen-of-hearts"].play
    assert If(cond="artifact", then=[Gain(teleport=1)]) in c["wand-of-recall"].play
    assert c["sleight-of-hand"].play == [DiscardThen(then=[Gain(draw=2)])]
    (apothecary,) = c["apothecary"].play
    assert isinstance(apothecary, DiscardThen) and isinstance(apothecary.then[0], Choose)
    assert Trash(name="burgle") in c["master-burglar"].play
    assert c["dragon-shrine"].use == [Choose(options=[[Gain(gold=2)], [Trash()]])]
    assert c["shrine"].arrive == [ReturnDragonCubes(n=3)]
    assert c["underworld-dealing"].play == [
        Choose(options=[[Gain(gold=1)], [Buy(gold=7, card="secret-tome", n=2)]])
    ]
    assert c["the-duke"].bonus == PointsPer(points=1, per="5-gold")
    assert c["wizard"].bonus == PointsPer(points=2, per="secret-tome")
    assert c["dwarven-peddler"].bonus == PointsIf(
        points=4, cond="two-of", of=["chalice", "dragon-egg", "monkey-idol"]
    )
    assert c["dragons-eye"].bonus == PointsIf(points=10, cond="mastery")
    assert [e.mod for e in c["flying-carpet"].play if isinstance(e, ThisTurn)] == [
        "no-crystal-exhaust",
        "ignore-tunnel-monsters",
    ]
    assert all(g.acquire == [Gain(clank=2)] for g in c.values() if g.gem)


def test_every_effect_is_in_the_base_vocabulary() -> None:
    """rules.md#turn: every effect of every card and token decodes to a base effect."""
    t = read_tables()
    seen = set()
    for card in t.card.values():
        for part in (card.play, card.acquire, card.defeat, card.use, card.arrive):
            seen |= {type(e) for e in walk(part)}
    for token in t.token.values():
        for part in (token.take, token.use, token.end_of_turn):
            seen |= {type(e) for e in walk(part)}
    assert seen <= set(kinds(ClankEffect))
    assert len(seen) == len(BASE_EFFECTS)  # the vocabulary has no unused effect


@pytest.mark.parametrize(
    ("card", "field", "values"),
    [
        ("crystal-golem", "dragon", {"majority": True, "klank": True, "eseidel": False}),
        ("overlord", "dragon", {"majority": True, "klank": True, "eseidel": False}),
        ("watcher", "dragon", {"majority": False, "klank": True, "eseidel": False}),
        ("mister-whiskers", "dragon", {"majority": True, "klank": True, "eseidel": True}),
        ("dragons-eye", "dragon", {"majority": True, "klank": True, "eseidel": True}),
        ("gem-collector", "companion", {"majority": False, "klank": True, "eseidel": False}),
        ("mister-whiskers", "companion", {"majority": True, "klank": False, "eseidel": True}),
        ("monkeybot-3000", "companion", {"majority": True, "klank": False, "eseidel": True}),
        ("treasure-hunter", "companion", {"majority": True, "klank": True, "eseidel": True}),
        ("mercenary", "companion", {"majority": True, "klank": True, "eseidel": False}),
    ],
)
def test_disputed_flags_per_variant(card: str, field: str, values: dict[str, bool]) -> None:
    """rules.md#variant: each source reads the disputed flags its own way."""
    for variant, want in values.items():
        assert getattr(read_tables(variant=variant).card[card], field) is want, variant


def test_variant_totals_and_lucky_coin() -> None:
    """rules.md#variant: dragon symbols 30 / 33 / 26; klank's Lucky Coin gives no skill."""
    dragons = {v: dungeon_count(read_tables(variant=v), dragon=True) for v in VARIANTS}
    assert dragons == {"majority": 30, "klank": 33, "eseidel": 26}
    assert read_tables(variant="klank").card["lucky-coin"].play == [Gain(clank=1, draw=1)]
    assert read_tables().card["lucky-coin"].play == [Gain(skill=1, clank=1, draw=1)]
    with pytest.raises(ContentError, match="variant 'nobody': choose one of majority"):
        read_tables(variant="nobody")


def test_chalice_greater_treasure_split() -> None:
    """rules.md#major-split: 3 Chalices / 2 Greater Treasures, or klank's 2 / 3; 11 majors."""
    for variant, split in (("majority", (3, 2)), ("eseidel", (3, 2)), ("klank", (2, 3))):
        tk = read_tables(variant=variant).token
        assert (tk["chalice"].count, tk["greater-treasure"].count) == split
        majors = sum(x.count for x in tk.values() if x.kind == "major")
        assert majors == 11


def test_tokens_and_tracks() -> None:
    """rules.md#components, #setup, #treasure-secrets: tokens, market, tracks."""
    t = read_tables()
    tk = t.token
    assert sum(x.count for x in tk.values() if x.kind == "minor") == 18
    assert tk["artifact"].values == [30, 25, 20, 15, 10, 7, 5]
    assert tk["crown"].values == [10, 9, 8] and tk["crown"].price == 7
    assert (tk["master-key"].power, tk["backpack"].power) == ("key", "backpack")
    assert tk["master-key"].points == tk["backpack"].points == 5
    assert tk["monkey-idol"].count == 3 and tk["monkey-idol"].points == 5
    assert tk["mastery"].count == 4 and tk["mastery"].points == 20
    assert tk["dragon-egg"].take == [Gain(rage=1)] and tk["dragon-egg"].points == 3
    assert tk["chalice"].keep and tk["chalice"].points == 7
    assert tk["magic-spring"].end_of_turn == [Trash()]
    assert tk["treasure"].take == [Gain(gold=2)]
    assert tk["greater-treasure"].take == [Gain(gold=5)]
    assert tk["potion-of-strength"].use == [Gain(swords=2)]
    assert tk["flash-of-brilliance"].take == [Gain(draw=3)]
    s = t.tokens
    assert s.rage_track == [2, 2, 3, 3, 4, 4, 5]
    assert s.rage_start == {"4": 0, "3": 1, "2": 2}
    assert s.artifacts_removed == {"2": 2, "3": 1, "4": 0}
    assert s.countdown_extra == [0, 1, 2, 3] and s.starting_clank == [3, 2, 1, 0]
    assert (s.cubes, s.dragon_cubes, s.health, s.hand, s.row) == (30, 24, 10, 5, 6)


@pytest.mark.parametrize(
    ("side", "rooms", "tunnels", "one_way", "locked", "markets", "caves", "heals"),
    [("front", 39, 60, 7, 9, 4, 10, 3), ("back", 44, 63, 7, 6, 5, 8, 1)],
)
def test_boards(
    side: str,
    rooms: int,
    tunnels: int,
    one_way: int,
    locked: int,
    markets: int,
    caves: int,
    heals: int,
) -> None:
    """rules.md#components, #movement: both sides, each checked clean."""
    t = read_tables(board=side)
    b = t.board
    assert (len(b.rooms), len(b.tunnels)) == (rooms, tunnels)
    assert sum(x.one_way for x in b.tunnels) == one_way
    assert sum(x.locked for x in b.tunnels) == locked
    assert sum(r.market for r in b.rooms) == markets
    assert sum(r.crystal_cave for r in b.rooms) == caves
    assert sum(r.heal > 0 for r in b.rooms) == heals
    assert [r.id for r in b.rooms if r.start] == [1] and not t.room[1].depths
    assert sorted(r.artifact for r in b.rooms if r.artifact) == [5, 7, 10, 15, 20, 25, 30]
    # 9 major spaces for 11 majors (2 go back unseen), 9 minor rooms of 2 for 18 minors.
    assert sum(r.major for r in b.rooms) == 9
    assert [r.minor for r in b.rooms if r.minor] == [2] * 9
    assert [r.idols for r in b.rooms if r.monkey_shrine] == [3]
    assert reachable(b, 1) == set(t.room)
    assert check_tables(t) == []


def test_one_way_tunnels_run_a_to_b() -> None:
    """rules.md#movement: a one-way tunnel is stored in its arrow's direction."""
    front = {(x.a, x.b) for x in read_tables().board.tunnels if x.one_way}
    assert {(6, 5), (7, 3), (17, 24), (24, 23), (24, 36), (30, 24), (34, 28)} == front
    back = {(x.a, x.b) for x in read_tables(board="back").board.tunnels if x.one_way}
    assert (8, 2) in back and (39, 24) in back


def test_user_tables_load(tmp_path: Path) -> None:
    """rules.md#components: a user's own files replace the built-in ones."""
    cards = builtin("cards.json")
    cards["dungeon"][0]["points"] = 9
    board = builtin("board-back.json")
    board["name"] = "my back side"
    t = read_tables(
        cards=write(tmp_path, "c.json", cards), board_file=write(tmp_path, "b.json", board)
    )
    assert t.cards.dungeon[0].points == 9 and t.board.name == "my back side"
    assert t.files["cards"].endswith("c.json")


def broken(tmp_path: Path, name: str, change: Any) -> str:
    """The message of a built-in table ``name`` after ``change`` spoils it."""
    data = builtin(name)
    change(data)
    arg = {"cards.json": "cards", "tokens.json": "tokens", "board-front.json": "board_file"}
    with pytest.raises(ContentError) as err:
        read_tables(**{arg[name]: write(tmp_path, name, data)})
    return str(err.value)


def test_unknown_effect_names_its_path(tmp_path: Path) -> None:
    msg = broken(tmp_path, "cards.json", lambda d: d["dungeon"][3]["defeat"].append({"do": "fly"}))
    assert "cards.json" in msg and "$.dungeon[3].defeat[1]" in msg and "fly" in msg


def test_bad_field_names_its_path(tmp_path: Path) -> None:
    msg = broken(tmp_path, "cards.json", lambda d: d["reserve"][0].update(cots=2))
    assert "$.reserve[0]" in msg and "cots" in msg
    msg = broken(tmp_path, "tokens.json", lambda d: d["tokens"][1].update(count=-1))
    assert "tokens.json" in msg and "$.tokens[1].count" in msg


def test_missing_room_is_named(tmp_path: Path) -> None:
    def drop_room_2(d: Any) -> None:
        d["rooms"] = [r for r in d["rooms"] if r["id"] != 2]

    msg = broken(tmp_path, "board-front.json", drop_room_2)
    assert "$.tunnels[0].b: room 2 is not in $.rooms" in msg

    def cut_off_room_39(d: Any) -> None:
        d["tunnels"] = [x for x in d["tunnels"] if 39 not in (x["a"], x["b"])]

    msg = broken(tmp_path, "board-front.json", cut_off_room_39)
    assert "rooms [39] cannot be reached from the start" in msg


def test_semantic_checks(tmp_path: Path) -> None:
    """Counts, ids, Reserve purchases, trash names, artifacts, secrets all checked."""
    msg = broken(tmp_path, "cards.json", lambda d: d["dungeon"][0].update(count=3))
    assert "$.dungeon: 101 cards; the Dungeon Deck has 100" in msg
    msg = broken(tmp_path, "cards.json", lambda d: d["starter"][0].update(id="stumble"))
    assert "$.starter[1].id: 'stumble' is used by another card" in msg

    def buy_a_dragon(d: Any) -> None:
        for c in d["dungeon"]:
            if c["id"] == "underworld-dealing":
                c["play"][0]["options"][1][0]["card"] = "dragon"
            if c["id"] == "master-burglar":
                c["play"][1]["name"] = "burgel"

    msg = broken(tmp_path, "cards.json", buy_a_dragon)
    assert "buys 'dragon', which is no Reserve card" in msg
    assert "trash names 'burgel'" in msg

    def two_starts_and_an_extra_artifact(d: Any) -> None:
        d["rooms"][1]["start"] = True
        d["rooms"][2]["artifact"] = 40
        d["rooms"][3]["major"] = 5

    msg = broken(tmp_path, "board-front.json", two_starts_and_an_extra_artifact)
    assert "2 start rooms" in msg and "artifact spaces" in msg
    assert "holds 14 major tokens but built-in Clank! tokens.json has only 11" in msg

    msg = broken(tmp_path, "tokens.json", lambda d: d["tokens"][0]["variants"].update(bob={}))
    assert "unknown source 'bob'" in msg
    msg = broken(
        tmp_path, "tokens.json", lambda d: d["tokens"][0]["variants"]["klank"].update(keep=0)
    )
    assert "$.tokens[0].variants.klank: cannot override keep" in msg  # checked in any variant


def test_variant_override_is_checked(tmp_path: Path) -> None:
    data = builtin("tokens.json")
    data["tokens"][0]["variants"]["klank"]["keep"] = 0
    with pytest.raises(ContentError, match=r"\$\.tokens\[0\]\.variants\.klank: cannot override"):
        read_tables(tokens=write(tmp_path, "t.json", data), variant="klank")


def test_unreadable_and_oversized_files(tmp_path: Path) -> None:
    with pytest.raises(ContentError, match="cannot read the Clank! card table"):
        read_tables(cards=str(tmp_path / "missing.json"))
    junk = tmp_path / "junk.json"
    junk.write_text("{not json")
    with pytest.raises(ContentError, match="not valid JSON"):
        read_tables(board_file=str(junk))
    big = tmp_path / "big.json"
    big.write_bytes(b" " * 1_000_001)
    with pytest.raises(ContentError, match="larger than"):
        read_tables(cards=str(big))
    with pytest.raises(ContentError, match="board 'side': choose one of front, back"):
        read_tables(board="side")


def test_base_game_refuses_other_effects() -> None:
    """A game supporting fewer effects refuses tables that use more."""
    t = read_tables()
    narrow = tuple(e for e in BASE_EFFECTS if e is not Trash)
    problems = check_tables(t, effects=narrow)
    assert any("$.dungeon" in p and "'Trash' is not part of this game" in p for p in problems)
    assert any("$.tokens" in p and "'Trash' is not part of this game" in p for p in problems)


def test_base_game_refuses_other_conditions(tmp_path: Path) -> None:
    """rules.md#conditions: an ``if`` or a points rule the game does not register is refused
    when the table loads, with its path (Catacombs' are not Clank!'s)."""
    cards = builtin("cards.json")
    cards["dungeon"][0]["play"] = [{"do": "if", "cond": "used-portal", "then": []}]
    cards["dungeon"][1]["bonus"] = {"kind": "if", "points": 5, "cond": "crown-and-gem"}
    with pytest.raises(ContentError) as err:
        read_tables(cards=write(tmp_path, "c.json", cards))
    text = str(err.value)
    assert "c.json: $.dungeon[0].play: condition 'used-portal' is not part of this game" in text
    assert "$.dungeon[1].bonus: points rule 'crown-and-gem' is not part of this game" in text


def test_seed_data_ships_in_the_package() -> None:
    """The tables and the digest are package data of meeple.seeds."""
    files = resources.files("meeple.seeds").joinpath("clank")
    for name in ("cards.json", "tokens.json", "board-front.json", "board-back.json", "rules.md"):
        assert files.joinpath(name).is_file()
    assert "{#decisions}" in files.joinpath("rules.md").read_text()
