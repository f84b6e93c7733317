"""Build the bundled SVG deck, ``ui_tk/faces/decks/openclipart-white.svgz``, from Nicu
Buculei's "white" playing cards of the Open Clip Art Library (public domain; Debian and
Ubuntu ship them in the package ``openclipart-svg``, version 1:0.18+dfsg-19 here).

The 52 card files (``white_h_k.svg`` .. ``white_c_a.svg``) become one sheet in the layout
Aisleriot's decks use, each card a group with Aisleriot's id (``heart_king``,
``club_1``), so the table's SVG path (:class:`solitaire_tk.faces.themes.SvgDeck`) cuts and
renders it as it does any installed deck. Each card's ids are prefixed with its own name
(the files reuse gradient ids) and its editor metadata is left out.

It also writes the court cards' figures the built-in faces draw in their panels
(``ui_tk/faces/figures/<suit><rank>.png``, e.g. ``HK.png``): each Jack, Queen and King is
rendered from the sheet through that same SVG path at :data:`FIGURE_HEIGHT` px, and the
figure is cut out of it (the largest connected patch of ink: the corner indices lie apart from it),
so a player's first start renders no SVG at all.

Usage (CairoSVG and the system's libcairo2 are needed here, not by the players)::

    apt-get install -y openclipart-svg      # or: apt-get download openclipart-svg; dpkg-deb -x
    python scripts/build_deck.py [--source /usr/share/openclipart/svg/recreation/games/cards/white]
"""

from __future__ import annotations

import argparse
import gzip
import re
from pathlib import Path
from xml.etree import ElementTree as ET

from PIL import Image

SVG = "http://www.w3.org/2000/svg"
XLINK = "http://www.w3.org/1999/xlink"
SOURCE = Path("/usr/share/openclipart/svg/recreation/games/cards/white")
FACES = Path(__file__).resolve().parents[1] / "ui_tk" / "faces"
OUT = FACES / "decks" / "openclipart-white.svgz"
FIGURES = FACES / "figures"
FIGURE_HEIGHT = 480
"""The height the court cards are rendered at before their figures are cut out."""
SUITS = {"c": "club", "d": "diamond", "h": "heart", "s": "spade"}
RANKS = {"a": 1, **{str(n): n for n in range(2, 11)}, "j": "jack", "q": "queen", "k": "king"}
KEEP = {SVG, XLINK}
WIDTH, HEIGHT = 140.0, 190.0  # every card file's size


def _local(tag: str) -> tuple[str, str]:
    if tag.startswith("{"):
        ns, name = tag[1:].split("}", 1)
        return ns, name
    return "", tag


def _clean(node: ET.Element, prefix: str) -> ET.Element | None:
    """A copy of ``node`` with only SVG elements and attributes, its ids prefixed."""
    ns, name = _local(node.tag)
    if ns not in ("", SVG) or name == "metadata":
        return None
    out = ET.Element(f"{{{SVG}}}{name}")
    for key, value in node.attrib.items():
        kns, kname = _local(key)
        if kns not in ("", *KEEP):
            continue
        if kname == "id":
            value = prefix + value
        elif kns == XLINK and kname == "href" and value.startswith("#"):
            value = "#" + prefix + value[1:]
        else:
            value = re.sub(r"url\(#([^)]+)\)", lambda m: f"url(#{prefix}{m.group(1)})", value)
        out.set(key if kns else kname, value)
    out.text, out.tail = node.text, node.tail
    for child in node:
        kept = _clean(child, prefix)
        if kept is not None:
            out.append(kept)
    return out


def build(source: Path) -> bytes:
    """The sheet: 13 columns (Ace to King), four rows (clubs, diamonds, hearts, spades)."""
    ET.register_namespace("", SVG)
    ET.register_namespace("xlink", XLINK)
    sheet = ET.Element(
        f"{{{SVG}}}svg",
        {"width": str(13 * WIDTH), "height": str(4 * HEIGHT),
         "viewBox": f"0 0 {13 * WIDTH:g} {4 * HEIGHT:g}", "version": "1.1"},
    )  # fmt: skip
    ET.SubElement(sheet, f"{{{SVG}}}title").text = (
        "Playing cards by Nicu Buculei, Open Clip Art Library, public domain "
        "(Debian package openclipart-svg); built by scripts/build_deck.py"
    )
    for row, (s, suit) in enumerate(SUITS.items()):
        for column, (r, rank) in enumerate(RANKS.items()):
            card = ET.parse(source / f"white_{s}_{r}.svg").getroot()
            name = f"{suit}_{rank}"
            group = ET.SubElement(
                sheet, f"{{{SVG}}}g",
                {"id": name, "transform": f"translate({column * WIDTH:g},{row * HEIGHT:g})"},
            )  # fmt: skip
            for child in card:
                kept = _clean(child, name + "-")
                if kept is not None:
                    group.append(kept)
    return ET.tostring(sheet, encoding="utf-8", xml_declaration=True)


def _figure_box(card: Image.Image) -> tuple[int, int, int, int]:
    """The box of a court card's figure: the largest connected patch of ink (pixels
    darker than the card's white) inside the card's border, the corner indices being
    smaller patches apart from it."""
    w, h = card.size
    grey = card.convert("L").load()
    alpha = card.getchannel("A").load()
    inside = (round(0.05 * w), round(0.04 * h), round(0.95 * w), round(0.96 * h))
    ink = {
        (x, y)
        for y in range(inside[1], inside[3])
        for x in range(inside[0], inside[2])
        if alpha[x, y] > 200 and grey[x, y] < 235
    }
    best: list[tuple[int, int]] = []
    while ink:
        todo = [ink.pop()]
        patch = []
        while todo:
            x, y = todo.pop()
            patch.append((x, y))
            for dx in (-2, -1, 0, 1, 2):  # a gap of one white pixel still joins
                for dy in (-2, -1, 0, 1, 2):
                    if (x + dx, y + dy) in ink:
                        ink.discard((x + dx, y + dy))
                        todo.append((x + dx, y + dy))
        if len(patch) > len(best):
            best = patch
    xs = [x for x, _ in best]
    ys = [y for _, y in best]
    return min(xs), min(ys), max(xs) + 1, max(ys) + 1


def figures(deck_path: Path, out: Path) -> None:
    """Cut the twelve court figures out of the deck at ``deck_path`` into ``out``."""
    from solitaire_tk.faces.themes import SvgDeck

    deck = SvgDeck(deck_path)
    out.mkdir(parents=True, exist_ok=True)
    for suit in "CDHS":
        for rank, letter in ((11, "J"), (12, "Q"), (13, "K")):
            card = deck.render(rank, suit, round(FIGURE_HEIGHT * WIDTH / HEIGHT), FIGURE_HEIGHT)
            box = _figure_box(card)
            figure = card.crop(box)
            path = out / f"{suit}{letter}.png"
            figure.save(path, optimize=True)
            print(f"wrote {path} {figure.size}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", type=Path, default=SOURCE)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    data = build(args.source)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_bytes(gzip.compress(data, compresslevel=9, mtime=0))
    print(f"wrote {args.out} ({len(data):,} bytes, {args.out.stat().st_size:,} compressed)")
    figures(args.out, FIGURES)


if __name__ == "__main__":
    main()
