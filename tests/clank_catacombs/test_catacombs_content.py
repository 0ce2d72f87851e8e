"""The Clank! Catacombs content tables: counts, the effect vocabulary, tiles, user tables.

Cites seeds/clank-catacombs/rules.md#components, #setup, #tiles, #tokens and #decisions.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from importlib import resources
from pathlib import Path
from typing import Any

import msgspec
import pytest

from meeple.core.errors import ContentError
from meeple.plugins.clank import content as clank_content
from meeple.plugins.clank import effects as fx
from meeple.plugins.clank import tables as clank_tables
from meeple.plugins.clank.content import (
    CARD_PARTS,
    PointsIf,
    PointsPer,
)
from meeple.plugins.clank.packs.free_row_card import FreeRowCard
from meeple.plugins.clank.packs.market_offer import MarketOffer
from meeple.plugins.clank.packs.may_top_deck import MayTopDeck
from meeple.plugins.clank.packs.per import Per
from meeple.plugins.clank.packs.take_secret import TakeSecret
from meeple.plugins.clank.rules import Clank
from meeple.plugins.clank.tables import check_cards_and_tokens, walk
from meeple.plugins.clank_catacombs import content
from meeple.plugins.clank_catacombs import effects as cx
from meeple.plugins.clank_catacombs import tiles as tiles_module
from meeple.plugins.clank_catacombs.content import CatacombsTables, check_tiles
from meeple.plugins.clank_catacombs.growth import build
from meeple.plugins.clank_catacombs.rules import CatacombsGame
from meeple.plugins.clank_catacombs.state import Placed
from meeple.plugins.clank_catacombs.tiles import Half, Inner, Tile, TileRoom, Tiles


def read_tables(**kw: Any) -> CatacombsTables:
    """The tables as Catacombs reads them."""
    return content.read_tables(CatacombsGame._schema(), **kw)


def read_clank() -> clank_content.Tables:
    """The base game's tables."""
    return clank_tables.read_tables(Clank._schema())


def builtin(name: str) -> Any:
    return json.loads(
        resources.files("meeple.seeds").joinpath(f"clank-catacombs/{name}").read_text()
    )


def write(tmp_path: Path, name: str, data: Any) -> str:
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return str(path)


def test_dungeon_deck_totals() -> None:
    """rules.md#components: 100 cards of 68 kinds; 20 monsters, 9 devices, 7 gems, 25 dragon
    symbols, 3 danger cards."""
    t = read_tables()
    deck = t.cards.dungeon
    assert (len(deck), sum(c.count for c in deck)) == (68, 100)
    count = Counter[str]()
    for c in deck:
        count[c.kind] += c.count
        count["gem"] += c.count * c.gem
        count["dragon"] += c.count * c.dragon
        count["danger"] += c.count * c.danger
    assert (count["monster"], count["device"], count["gem"]) == (20, 9, 7)
    assert (count["dragon"], count["danger"]) == (25, 3)


def test_reserve_and_starting_deck_are_the_base_games() -> None:
    """rules.md#components: the Reserve and starting deck the refresher names, base values."""
    t, base = read_tables(), read_clank()
    assert [c.id for c in t.cards.reserve] == ["mercenary", "explore", "secret-tome", "goblin"]
    assert {c.id: c.count for c in t.cards.starter} == {
        "burgle": 6,
        "stumble": 2,
        "sidestep": 1,
        "scramble": 1,
    }
    assert t.cards.starter == base.cards.starter
    assert [c.play for c in t.cards.reserve] == [c.play for c in base.cards.reserve]


def test_cards_in_the_vocabulary() -> None:
    """rules.md#conditions, #locks, #teleport...: the terse card texts as effects."""
    c = read_tables().card
    assert c["empurror"].play == [
        cx.ChooseSome(
            options=[
                [fx.Gain(clank=-2)],
                [fx.Gain(gold=1)],
                [fx.ThisTurn(mod="no-crystal-exhaust")],
            ],
            n=1,
            all_if="artifact",
        )
    ]
    assert c["black-market"].use[0].n == 2  # type: ignore[union-attr]
    assert c["payoff"].play[-1] == cx.TrashSelf()
    assert c["locked-trunk"].use_lockpick == 1
    assert c["wishing-well"].use_gold == 3
    assert c["white-tourmaline"].reaction == [cx.GhostWard(draw=1)]
    assert c["lute"].play[-1] == Per(per="clank-made", gain=fx.Gain(gold=1))
    assert c["crystal-kobold"].where == "crystal-cave-or-wayshrine"
    assert c["the-warden"].where == "depths"
    assert c["brave-hero"].bonus == PointsIf(points=5, cond="freed-3-prisoners")
    assert c["expensive-taste"].bonus == PointsIf(points=5, cond="crown-and-gem")
    assert c["thirst-for-adventure"].bonus == PointsPer(points=2, per="artifact-or-idol")
    assert MayTopDeck() in c["grand-theft"].acquire
    assert c["sudden-movement"].arrive == [cx.RotateTiles(tiles="one-pawn", turn="any")]
    assert c["animated-wall"].arrive == [cx.RotateTiles(tiles="any-pawn", turn="half")]
    # Corrupt Advisor: 2 others' clank with a Crown (rules.md#advisor).
    assert c["corrupt-advisor"].play[1:] == [
        fx.OthersClank(n=1),
        cx.If(cond="crown", then=[fx.OthersClank(n=1)]),
    ]


def test_every_effect_decodes_and_is_used() -> None:
    """Every card and token effect is in the Catacombs vocabulary, and each new effect is used."""
    t = read_tables()
    seen = set()
    for card in t.card.values():
        for part in CARD_PARTS:
            seen |= {type(e) for e in walk(getattr(card, part))}
    for token in t.token.values():
        for part in (token.take, token.use, token.end_of_turn):
            seen |= {type(e) for e in walk(part)}
    vocabulary = set(fx.kinds(cx.CatacombsEffect))
    assert seen <= vocabulary
    assert {k for k in vocabulary if not issubclass(k, fx.BASE_EFFECTS)} <= seen


def test_base_game_refuses_the_catacombs_effects() -> None:
    """The base game's checks refuse a Catacombs-only effect."""
    t = read_tables()
    problems = check_cards_and_tokens(t, Clank._schema(), countdown=False)
    assert any("'TakeLockpicks' is not part of this game" in p for p in problems)


@pytest.mark.parametrize(
    ("raw", "effect"),
    [
        ({"do": "take-lockpicks", "n": 2}, cx.TakeLockpicks(n=2)),
        (
            {"do": "pay-lockpicks", "then": [{"do": "gain", "draw": 2}]},
            cx.PayLockpicks(then=[fx.Gain(draw=2)]),
        ),
        ({"do": "free-prisoners", "n": 2}, cx.FreePrisoners(n=2)),
        ({"do": "take-secret", "kind": "major"}, TakeSecret(kind="major")),
        ({"do": "may-top-deck"}, MayTopDeck()),
        ({"do": "trash-self", "optional": True}, cx.TrashSelf(optional=True)),
        (
            {"do": "choose-some", "n": 2, "options": [[], []]},
            cx.ChooseSome(options=[[], []], n=2),
        ),
        (
            {"do": "per", "per": "artifact", "gain": {"draw": 1}},
            Per(per="artifact", gain=fx.Gain(draw=1)),
        ),
        ({"do": "teleport-to", "to": "depths-seat"}, cx.TeleportTo(to="depths-seat")),
        ({"do": "mark-wayshrine"}, cx.MarkWayshrine()),
        ({"do": "place-tile"}, cx.PlaceTile()),
        (
            {"do": "rotate-tiles", "tiles": "any-pawn", "turn": "half"},
            cx.RotateTiles(tiles="any-pawn", turn="half"),
        ),
        ({"do": "ghost-ward"}, cx.GhostWard(draw=1)),
        ({"do": "market-offer", "price": 5, "anywhere": True}, MarketOffer(5, True)),
        ({"do": "free-row-card"}, FreeRowCard()),
        ({"do": "if", "cond": "used-portal", "then": []}, cx.If(cond="used-portal", then=[])),
    ],
)
def test_vocabulary_additions_decode(raw: dict[str, Any], effect: fx.Effect) -> None:
    assert msgspec.convert(raw, type=cx.CatacombsEffect) == effect


@pytest.mark.parametrize(
    ("raw", "match"),
    [
        ({"do": "take-lockpicks", "count": 1}, "unknown field"),
        ({"do": "take-secret", "kind": "huge"}, "kind"),
        ({"do": "teleport-to", "to": "moon"}, "to"),
        ({"do": "rotate-tiles", "tiles": "all", "turn": "half"}, "tiles"),
        ({"do": "per", "per": "gold", "gain": {}}, "per"),
        ({"do": "pay-lockpicks"}, "then"),
        ({"do": "market-offer", "price": -1}, "price"),
    ],
)
def test_vocabulary_additions_reject_bad_fields(raw: dict[str, Any], match: str) -> None:
    with pytest.raises(msgspec.ValidationError, match=match):
        msgspec.convert(raw, type=cx.CatacombsEffect)


def test_tokens_and_tracks() -> None:
    """rules.md#components, #setup, #tokens: counts, the artifact stack, tracks, authored marks."""
    t = read_tables()
    count = Counter[str]()
    for token in t.tokens.tokens:
        count[token.kind] += token.count
    assert dict(count) == {
        "artifact": 7,
        "idol": 3,
        "mastery": 4,
        "market": 10,
        "major": 11,
        "minor": 20,
        "prisoner": 20,
    }
    assert sorted(t.token["artifact"].values) == [5, 7, 10, 12, 15, 17, 20]
    assert t.token["crown"].values == [10, 9, 8]
    assert {t.token[m].price for m in ("backpack", "blood-amulet", "burglars-kit", "crown")} == {7}
    assert t.token["blood-amulet"].need_damage == 5
    tk = t.tokens
    assert (tk.lockpicks_each, tk.ghost_cubes, tk.left_draw) == (3, 5, {"2": 6, "3": 4, "4": 4})
    assert tk.rage_track == read_clank().tokens.rage_track
    assert set(tk.artifacts_removed.values()) == {0}
    # The Token Reference Guide gives every token's effect and points: only the number of
    # Mastery tokens in the box is the table's own (Lockpicks are not limited: no pieces).
    assert [p.id for p in tk.tokens if p.authored] == ["mastery"]
    # Every authored token is named in the rules digest.
    rules = resources.files("meeple.seeds").joinpath("clank-catacombs/rules.md").read_text()
    section = rules[rules.index("{#tokens}") : rules.index("{#decisions}")]
    assert all(p.name in section for p in tk.tokens if p.authored)


def test_builtin_tiles_pass_and_are_marked() -> None:
    """rules.md#tiles: the reconstruction passes every check and says what it is."""
    t = read_tables()
    assert check_tiles(t.tiles) == []
    assert "RECONSTRUCTION" in t.tiles.note
    backs = Counter(tile.back for tile in t.tiles.tiles)
    assert backs == {"start": 2, "lighter": 6, "darker": 22}
    start = t.tile["start-a"]
    assert start.cells == 2
    assert [r.cell for r in start.rooms if r.crypt] == [1]
    assert all(r.depths for r in start.rooms if r.cell == 0)
    rooms = [r for tile in t.tiles.tiles for r in tile.rooms]
    assert sum(r.artifact is not None for r in rooms) >= 7
    assert {r.artifact for r in rooms if r.artifact is not None} == {0, 1, 2}
    assert sum(r.portal for r in rooms) >= 2
    # rules.md#idols: the Monkey Shrine lies on the starting tile, whichever side is up.
    shrines = {tile.id: sum(r.monkey_shrine for r in tile.rooms) for tile in t.tiles.tiles}
    assert {k: n for k, n in shrines.items() if n} == {"start-a": 1, "start-b": 1}
    assert [tile.back for tile in t.tiles.tiles if tile.haunted] == ["darker"] * 4


def test_most_rotations_complete_a_tunnel() -> None:
    """rules.md#tiles: entering a square tile from any side, most rotations complete it."""
    t = read_tables()
    order = "nesw"
    fits = total = 0
    for tile in t.tiles.tiles:
        if tile.back == "start":
            continue
        sides = {h.side for h in tile.edges}
        for facing in order:  # the side of the new tile that must hold a half
            for turn in range(4):
                total += 1
                fits += order[(order.index(facing) - turn) % 4] in sides
    assert fits / total >= 0.75


def broken(**change: Any) -> Tiles:
    raw = builtin("tiles.json")
    for path, value in change.items():
        *keys, last = path.split("__")
        node = raw
        for k in keys:
            node = node[int(k)] if k.isdigit() else node[k]
        node[int(last) if last.isdigit() else last] = value
    return msgspec.convert(raw, type=Tiles)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"tiles__2__back": "darker"}, "5 tiles with back 'lighter'; give 6"),
        ({"tiles__3__id": "light-1"}, "'light-1' is used by another tile"),
        ({"tiles__2__rooms__1__id": "a"}, "'a' is used twice on tile 'light-1'"),
        ({"tiles__2__edges__0__room": "z"}, "$.tiles[2].edges[0].room: no room 'z'"),
        ({"tiles__2__inner__0__b": "z"}, "$.tiles[2].inner[0].b: no room 'z'"),
        ({"tiles__2__edges__0__cell": 1}, "tile 'light-1' has 1 cell(s)"),
        ({"tiles__0__edges__0__side": "n"}, "side 'n' of cell 1 is inside the tile"),
        ({"tiles__2__edges__1__side": "n"}, "a second tunnel through side 'n'"),
        ({"tiles__0__rooms__0__cell": 0}, "the Crypt lies in the starting tile's bottom cell"),
        (
            {"tiles__2__inner": [], "tiles__2__edges": [{"room": "a", "side": s} for s in "nw"]},
            "['b'] joined to no edge tunnel",
        ),
        ({"tiles__2__edges": [{"room": "a", "side": "n"}]}, "fewer than two sides"),
        ({"tiles__5__rooms__0__reward": "idol"}, "the Monkey Shrine, and only it"),
        ({"tiles__2__haunted": True}, "5 haunted tiles; give 4, all darker"),
        ({"tiles__1__id": "start-c"}, "name them start-a and start-b"),
    ],
)
def test_tile_checks_catch_broken_sets(change: dict[str, Any], message: str) -> None:
    problems = check_tiles(broken(**change), "my-tiles.json")
    assert any(message in p for p in problems), problems
    assert all(p.startswith("my-tiles.json: ") for p in problems)


def test_tile_side_with_two_openings() -> None:
    """rules.md#tiles: a side may hold two openings (0 and 1, clockwise), as the real tiles'
    edges do; a middle opening fills its side."""
    two = [{"room": "a", "side": "w", "pos": 0}, {"room": "b", "side": "w", "pos": 1}]
    assert check_tiles(broken(tiles__2__edges=[*two, {"room": "a", "side": "n"}])) == []
    problems = check_tiles(broken(tiles__2__edges=[*two, {"room": "a", "side": "w"}]))
    assert any("a second tunnel through side 'w' at the same opening" in p for p in problems)


def test_two_openings_face_each_other_across_an_edge() -> None:
    """rules.md#tiles: across a shared edge opening 0 of one side faces opening 1 of the other,
    and a quarter turn keeps each opening's number (clockwise round the tile)."""
    start = Tile(
        id="start-a",
        back="start",
        cells=2,
        rooms=[TileRoom(id="crypt", cell=1, crypt=True), TileRoom(id="v"), TileRoom(id="w")],
        inner=[Inner(a="crypt", b="v"), Inner(a="v", b="w")],
        edges=[Half(room="w", side="e", pos=0), Half(room="v", side="e", pos=1)],
    )
    twin = Tile(
        id="twin",
        back="darker",
        rooms=[TileRoom(id="a"), TileRoom(id="b")],
        edges=[
            Half(room="a", side="w", pos=1),  # the north end of its west side
            Half(room="b", side="w", pos=0),
            Half(room="a", side="e", pos=0),  # the north end of its east side
        ],
    )
    tiles = {t.id: t for t in (start, twin)}

    def joins(turn: int) -> set[tuple[str, str]]:
        graph = build([Placed("start-a", 0, 0), Placed("twin", 1, 0, turn)], tiles)
        return {(graph.names[t.a], graph.names[t.b]) for t in graph.tunnels if t.a >= 3 or t.b >= 3}

    # north ends meet (w-a), south ends meet (v-b)
    assert joins(0) == {("start-a:w", "twin:a"), ("start-a:v", "twin:b")}
    # half a turn: the east side's north end is now the west side's south end
    assert joins(2) == {("start-a:v", "twin:a")}


def test_tile_checks_count_artifact_rooms_and_portals() -> None:
    t = read_tables().tiles
    problems = check_tiles(t, artifacts=12)
    assert any("11 artifact rooms" in p and "at least 12" in p for p in problems)
    no_portals = broken()
    stripped = [
        msgspec.structs.replace(
            tile, rooms=[msgspec.structs.replace(r, portal=False) for r in tile.rooms]
        )
        for tile in no_portals.tiles
    ]
    problems = check_tiles(msgspec.structs.replace(no_portals, tiles=stripped))
    assert any("0 portals; give at least 2" in p for p in problems)


def test_user_tables_load(tmp_path: Path) -> None:
    """rules.md#tiles: a user's tiles, cards and tokens load through the same checks."""
    tiles = builtin("tiles.json")
    tiles["note"] = "my own tiles"
    tiles["tiles"][2]["rooms"][0]["reward"] = "heal"
    cards = builtin("cards.json")
    cards["dungeon"][0]["points"] = 9
    t = read_tables(
        cards=write(tmp_path, "c.json", cards),
        tokens=write(tmp_path, "k.json", builtin("tokens.json")),
        tiles=write(tmp_path, "t.json", tiles),
    )
    assert t.tiles.note == "my own tiles"
    assert t.tile["light-1"].rooms[0].reward == "heal"
    assert t.card["empurror"].points == 9
    assert "t.json" in t.files["tiles"]


def test_user_tiles_errors_name_the_path(tmp_path: Path) -> None:
    tiles = builtin("tiles.json")
    tiles["tiles"][5]["edges"][0]["side"] = "up"
    with pytest.raises(ContentError, match=r"t\.json: .*\$\.tiles\[5\]\.edges\[0\]\.side"):
        read_tables(tiles=write(tmp_path, "t.json", tiles))
    tiles = builtin("tiles.json")
    tiles["tiles"][5]["inner"][0]["a"] = "nowhere"
    with pytest.raises(ContentError, match=r"\$\.tiles\[5\]\.inner\[0\]\.a: no room 'nowhere'"):
        read_tables(tiles=write(tmp_path, "t2.json", tiles))
    with pytest.raises(ContentError, match="cannot read the Clank! Catacombs tile set"):
        read_tables(tiles=str(tmp_path / "missing.json"))


def test_catacombs_checks_on_cards_and_tokens(tmp_path: Path) -> None:
    cards = builtin("cards.json")
    cards["dungeon"][0]["use_gold"] = 2  # Empurror is no device
    cards["dungeon"][1]["play"].append({"do": "ghost-ward"})
    tokens = builtin("tokens.json")
    tokens["ghost_cubes"] = 0
    tokens["left_draw"] = {"2": 6}
    with pytest.raises(ContentError) as err:
        read_tables(
            cards=write(tmp_path, "c.json", cards), tokens=write(tmp_path, "k.json", tokens)
        )
    text = str(err.value)
    assert "$.dungeon[0]: use_gold and use_lockpick are prices of a device" in text
    assert "$.dungeon[1].play: 'ghost-ward' is the only reaction" in text
    assert "$.ghost_cubes" in text
    assert "$.left_draw: no entry for 3, 4 seats" in text


def test_conditions_are_checked_when_tables_load(tmp_path: Path) -> None:
    """rules.md#conditions: an ``if`` or an ``all_if`` asking what Catacombs does not
    register is refused, with its path."""
    cards = builtin("cards.json")
    cards["dungeon"][0]["play"] = [{"do": "choose-some", "options": [], "all_if": "rich"}]
    cards["dungeon"][1]["play"] = [{"do": "if", "cond": "lucky", "then": []}]
    with pytest.raises(ContentError) as err:
        read_tables(cards=write(tmp_path, "c.json", cards))
    text = str(err.value)
    assert "$.dungeon[0].play: condition 'rich' is not part of this game" in text
    assert "$.dungeon[1].play: condition 'lucky' is not part of this game" in text


ANCHORS = (
    "setup turn resources clank acquire device fight movement locks discovery rotation "
    "artifact-rooms reward-rooms crystal-cave portal teleport haunted take-artifact market chest "
    "library prison wayshrine dragon-attack ghosts danger health escape knocked-out depths "
    "left-seats game-end scoring hidden tiles tokens decisions conditions"
)


def test_rules_digest_has_every_anchor() -> None:
    """The anchors that code and tests cite exist in rules.md."""
    rules = resources.files("meeple.seeds").joinpath("clank-catacombs/rules.md").read_text()
    cited = re.findall(r"rules\.md#([a-z-]+)", Path(cx.__file__).read_text())
    for name in ("content.py", "tiles.py"):
        cited += re.findall(
            r"rules\.md#([a-z-]+)", (Path(tiles_module.__file__).parent / name).read_text()
        )
    assert cited
    for anchor in {*ANCHORS.split(), *cited}:
        assert f"{{#{anchor}}}" in rules, anchor


def test_a_token_bonus_names_a_points_rule_of_the_game(tmp_path: Path) -> None:
    """rules.md#tokens: a token's ``bonus`` is checked as a card's: its points rule must be
    one the game registers (or the Monk's ``marked-wayshrine``)."""
    tokens = builtin("tokens.json")
    mayor = next(k for k, t in enumerate(tokens["tokens"]) if t["id"] == "mayor")
    tokens["tokens"][mayor]["bonus"]["cond"] = "kind-heart"
    with pytest.raises(ContentError, match=rf"\$\.tokens\[{mayor}\]\.bonus: .*'kind-heart'"):
        read_tables(tokens=write(tmp_path, "k.json", tokens))
