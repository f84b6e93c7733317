"""Card themes: the built-in faces, two built-in decks for players with poor sight, and
the SVG card decks other programs installed (Options > Card theme).

* ``"built-in"``: :mod:`solitaire_tk.faces.cardfaces` (the default).
* ``"large-index"``: the same faces with a corner index about half as large again.
* ``"high-contrast"``: large index, a four-colour deck of deep, saturated colours
  (black spades, red hearts, blue diamonds, green clubs) and a thick black edge.
* ``"plain"``: the standard faces with a letter on the court cards instead of their
  figures (:func:`solitaire_tk.faces.cardfaces.figure`).
* An SVG deck: any deck installed by Aisleriot (Debian's ``gnome-cards-data``:
  ``/usr/share/aisleriot/cards/*.svgz``) or by KDE (``kdegames-card-data-kf5``:
  ``/usr/share/carddecks/svg-*/``), or found in a folder named by the environment
  variable :data:`DECKS_ENV`. The setting holds the file's path.

An SVG deck is one sheet holding every card as an element with an id: Aisleriot's
decks name them ``club_1`` .. ``club_10``, ``club_jack``, ``club_queen``,
``club_king``; KDE's ``1_club`` .. ``king_club``. :class:`SvgDeck` cuts one card out of
the sheet: it builds a small SVG document holding that card (with its ancestors' groups,
so their transforms and styles apply, the sheet's definitions, and every element the
card refers to), finds the card's box by rendering it alone and measuring the ink, and
renders that box at the size the table needs. Rendering is done by CairoSVG (PyPI
``cairosvg``, Debian ``python3-cairosvg``; it needs the system's ``libcairo2``).
"""

from __future__ import annotations

import functools
import gzip
import hashlib
import io
import os
import re
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from xml.etree import ElementTree as ET

import attrs
from PIL import Image

from solitaire_core.i18n import N_

from . import cardfaces

__all__ = [
    "BUILTIN_THEMES",
    "DECKS_ENV",
    "DECK_FOLDERS",
    "MASTER_HEIGHT",
    "FaceRenderer",
    "SvgDeck",
    "Theme",
    "ThemeError",
    "BUNDLED_DECKS",
    "available_themes",
    "deck_path",
    "face_renderer",
    "svg_deck",
]

DECKS_ENV = "SOLITAIRE_CARD_DECKS"
"""Environment variable: more folders (separated by ``os.pathsep``) searched for SVG
decks, before the system's."""

DECK_FOLDERS: tuple[Path, ...] = (
    Path("/usr/share/aisleriot/cards"),
    Path("/usr/share/carddecks"),
    Path("/usr/local/share/aisleriot/cards"),
    Path("/usr/local/share/carddecks"),
)
"""Where Aisleriot and KDE install their SVG decks."""

BUILTIN_THEMES: dict[str, str] = {
    "built-in": N_("Standard (built-in)"),
    "large-index": N_("Large index (built-in)"),
    "high-contrast": N_("High contrast (built-in)"),
    "plain": N_("Plain, no figures (built-in)"),
}
"""The built-in themes: setting value -> name shown in the menu (in English, translated
when shown)."""

BUNDLED_DECKS: dict[str, tuple[Path, str]] = {
    "openclipart": (
        Path(__file__).with_name("decks") / "openclipart-white.svgz",
        N_("Open Clip Art, by Nicu Buculei (SVG)"),
    ),
}
"""The SVG decks that install with the game: setting value -> (file, name shown in the
menu). ``openclipart``: Nicu Buculei's public-domain "white" playing cards of the Open
Clip Art Library (Debian's ``openclipart-svg``), gathered into one Aisleriot-style sheet
by ``scripts/build_deck.py``; the standard faces' court figures come from it too."""


def deck_path(key: str) -> str:
    """The SVG file of theme ``key``: a bundled deck's (:data:`BUNDLED_DECKS`) or ``key``
    itself (an installed deck's path)."""
    bundled = BUNDLED_DECKS.get(key)
    return str(bundled[0]) if bundled is not None else key


_SVG = "{http://www.w3.org/2000/svg}"
_XLINK_HREF = "{http://www.w3.org/1999/xlink}href"
_SUIT_NAMES = {"C": "club", "D": "diamond", "H": "heart", "S": "spade"}
_RANK_NAMES = {11: "jack", 12: "queen", 13: "king"}
_URL_REF = re.compile(r"url\(\s*['\"]?#([^)'\"\s]+)")
_UNITS = {"": 1.0, "px": 1.0, "pt": 4 / 3, "pc": 16.0, "mm": 96 / 25.4, "cm": 96 / 2.54,
          "in": 96.0}  # fmt: skip
_MEASURE_PX = 1000  # the sheet's width in pixels when a card's place is measured

MASTER_HEIGHT = 480
"""Height in pixels at which each card of an SVG deck is rendered once
(:meth:`SvgDeck.master`); the table's card sizes are made from it."""

FaceRenderer = Callable[[int, str, int, int, bool], Image.Image]
"""``render(rank, suit, width, height, four_colour) -> RGBA image``: one card face
(rank 1-13, suit ``"C"``, ``"D"``, ``"H"`` or ``"S"``, size in pixels)."""


class ThemeError(ValueError):
    """A card theme cannot be used: the file is missing or unreadable, is not SVG, or
    lacks the cards' ids. The message names the file and says why."""


@attrs.frozen
class Theme:
    """A theme the Card theme menu offers.

    :param key: the setting's value (a built-in name or an SVG file's path).
    :param name: the name shown in the menu.
    :param source: ``"built-in"``, ``"Aisleriot"``, ``"KDE"`` or ``"folder"``.
    """

    key: str
    name: str
    source: str


# --------------------------------------------------------------------------- finding decks


def _desktop_name(folder: Path) -> str | None:
    """A KDE deck's name from its ``index.desktop`` (``Name=``), if any."""
    try:
        text = (folder / "index.desktop").read_text("utf-8", errors="replace")
    except OSError:
        return None
    for line in text.splitlines():
        if line.startswith("Name="):
            return line[5:].strip() or None
    return None


def _deck_files(folder: Path) -> Iterable[tuple[Path, str]]:
    """SVG decks directly in ``folder`` or in its ``svg-*`` sub-folders (KDE's layout),
    with a name for each."""
    try:
        entries = sorted(folder.iterdir())
    except OSError:
        return
    for entry in entries:
        if entry.is_file() and entry.suffix in (".svg", ".svgz"):
            yield entry, entry.name.split(".")[0].replace("_", " ").replace("-", " ").title()
        elif entry.is_dir():
            name = _desktop_name(entry)
            for file in sorted(entry.glob("*.svg*")):
                if file.suffix in (".svg", ".svgz"):
                    yield file, name or file.name.split(".")[0].replace("_", " ").title()


def available_themes(folders: Sequence[Path] | None = None) -> list[Theme]:
    """The built-in themes, then every SVG deck found (by name within each source).

    :param folders: where to look; default the folders of :data:`DECKS_ENV`, then
        :data:`DECK_FOLDERS`.
    """
    if folders is None:
        extra = [Path(p) for p in os.environ.get(DECKS_ENV, "").split(os.pathsep) if p]
        folders = [*extra, *DECK_FOLDERS]
    themes = [Theme(key, name, "built-in") for key, name in BUILTIN_THEMES.items()]
    themes += [Theme(key, name, "built-in") for key, (_path, name) in BUNDLED_DECKS.items()]
    seen: set[str] = set()
    for folder in folders:
        text = str(folder)
        source = "Aisleriot" if "aisleriot" in text else "KDE" if "carddecks" in text else "folder"
        found = sorted(_deck_files(folder), key=lambda pair: pair[1].lower())
        for path, name in found:
            key = str(path)
            if key not in seen:
                seen.add(key)
                themes.append(Theme(key, f"{name} ({source})", source))
    return themes


# --------------------------------------------------------------------------- built-in themes


def _builtin(style: str) -> FaceRenderer:
    def render(rank: int, suit: str, width: int, height: int, four_colour: bool) -> Image.Image:
        return cardfaces.render_face(rank, suit, width, height, four_colour=four_colour,
                                     style=style)  # fmt: skip

    return render


# --------------------------------------------------------------------------- SVG decks


def _length(text: str | None) -> float | None:
    match = re.fullmatch(r"\s*([0-9.eE+-]+)\s*([a-z]*)\s*", text or "")
    if not match or match.group(2) not in _UNITS:
        return None
    try:
        return float(match.group(1)) * _UNITS[match.group(2)]
    except ValueError:
        return None


def _cache_folder(deck: Path, data: bytes) -> Path | None:
    """Where the rendered cards of ``deck`` are kept between runs: the per-user cache
    folder (``$SOLITAIRE_HOME/cache`` when that is set), one sub-folder per deck file
    content and :data:`MASTER_HEIGHT`."""
    from solitaire_core.persistence.paths import HOME_ENV, app_dirs

    home = os.environ.get(HOME_ENV, "")
    base = Path(home).expanduser() / "cache" if home else app_dirs().user_cache_path
    digest = hashlib.sha256(data + f"|{MASTER_HEIGHT}|1".encode()).hexdigest()[:20]
    return base / "card-decks" / f"{deck.stem}-{digest}"


def _local(tag: object) -> str:
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def _refs(element: ET.Element) -> set[str]:
    """Ids an element and its descendants refer to (``href="#id"``, ``url(#id)``)."""
    found: set[str] = set()
    for node in element.iter():
        for name, value in node.attrib.items():
            if name in (_XLINK_HREF, "href") and value.startswith("#"):
                found.add(value[1:])
            elif "url(" in value:
                found.update(_URL_REF.findall(value))
    return found


class SvgDeck:
    """One SVG card deck, cut into cards on demand.

    :param path: the deck's file (``.svg``, or gzip-compressed ``.svgz``).
    :raises ThemeError: when the file cannot be read, is not SVG, or lacks an id for a
        card (both Aisleriot's and KDE's names are looked for).
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        try:
            data = self.path.read_bytes()
        except OSError as error:
            raise ThemeError(f"{self.path}: {error.strerror or error}") from None
        if data[:2] == b"\x1f\x8b":
            try:
                data = gzip.decompress(data)
            except (OSError, EOFError) as error:
                raise ThemeError(f"{self.path}: not a readable .svgz file ({error})") from None
        from defusedxml import ElementTree as SafeET  # cairosvg's own XML parser

        try:
            root = SafeET.fromstring(data)
        except Exception as error:  # ParseError or a defusedxml refusal: not usable
            raise ThemeError(f"{self.path}: not an SVG file ({error})") from None
        if _local(root.tag) != "svg":
            raise ThemeError(f"{self.path}: not an SVG file (its root is <{_local(root.tag)}>)")
        self.root = root
        self._by_id = {node.get("id"): node for node in root.iter() if node.get("id")}
        self._parent = {child: parent for parent in root.iter() for child in parent}
        self.ids = self._card_ids()
        self.view_box = self._view_box()
        definitions = [n for n in root.iter() if _local(n.tag) in ("defs", "style")]
        self._definitions = [n for n in definitions if not self._inside_defs(n)]
        self._masters: dict[tuple[int, str], Image.Image] = {}
        self._cache = _cache_folder(self.path, data)

    def _card_ids(self) -> dict[tuple[int, str], str]:
        ids: dict[tuple[int, str], str] = {}
        missing = []
        for suit, suit_name in _SUIT_NAMES.items():
            for rank in range(1, 14):
                rank_name = _RANK_NAMES.get(rank, str(rank))
                for candidate in (f"{suit_name}_{rank_name}", f"{rank_name}_{suit_name}"):
                    if candidate in self._by_id:
                        ids[(rank, suit)] = candidate
                        break
                else:
                    missing.append(f"{suit_name}_{rank_name}")
        if missing:
            shown = ", ".join(missing[:4]) + (" …" if len(missing) > 4 else "")
            raise ThemeError(f"{self.path}: not a card deck (no card with the id {shown})")
        return ids

    def _view_box(self) -> tuple[float, float, float, float]:
        text = self.root.get("viewBox")
        if text:
            try:
                x, y, w, h = (float(v) for v in text.replace(",", " ").split())
                if w > 0 and h > 0:
                    return x, y, w, h
            except ValueError:
                pass
        w, h = _length(self.root.get("width")), _length(self.root.get("height"))
        if not w or not h:
            raise ThemeError(f"{self.path}: the sheet has no usable size (viewBox or width)")
        return 0.0, 0.0, w, h

    def _inside_defs(self, node: ET.Element) -> bool:
        parent = self._parent.get(node)
        while parent is not None:
            if _local(parent.tag) == "defs":
                return True
            parent = self._parent.get(parent)
        return False

    def _document(self, card_id: str, box: tuple[float, float, float, float], width: int,
                  height: int) -> bytes:  # fmt: skip
        """An SVG document showing card ``card_id`` alone, the sheet's ``box`` (user
        units) scaled into ``width`` x ``height`` pixels."""
        element = self._by_id[card_id]
        svg = ET.Element(f"{_SVG}svg", {
            "width": str(width), "height": str(height),
            "viewBox": " ".join(f"{v:.4f}" for v in box),
        })  # fmt: skip
        defs = ET.SubElement(svg, f"{_SVG}defs")
        for node in self._definitions:
            defs.append(node)  # shared, not copied: the document is only serialised
        inside = {id(n) for n in element.iter()}
        wanted, done = list(_refs(element)), set()
        while wanted:
            ref = wanted.pop()
            node = self._by_id.get(ref)
            if ref in done or node is None or id(node) in inside or self._inside_defs(node):
                continue
            done.add(ref)
            defs.append(node)
            wanted.extend(_refs(node))
        holder = svg
        ancestors = []
        parent = self._parent.get(element)
        while parent is not None and parent is not self.root:
            ancestors.append(parent)
            parent = self._parent.get(parent)
        for ancestor in reversed(ancestors):
            attributes = {k: v for k, v in ancestor.attrib.items() if k != "id"}
            holder = ET.SubElement(holder, f"{_SVG}g", attributes)
        holder.append(element)
        return ET.tostring(svg)

    def _png(self, document: bytes) -> Image.Image:
        try:
            import cairosvg
        except (ImportError, OSError) as error:  # cairocffi finds no libcairo
            raise ThemeError(
                f"{self.path}: SVG card decks need CairoSVG and the cairo library "
                f"(Debian: libcairo2) ({error})"
            ) from None
        try:
            png = cairosvg.svg2png(bytestring=document)
            return Image.open(io.BytesIO(png)).convert("RGBA")
        except Exception as error:  # the deck is outside input: any failure is its fault
            raise ThemeError(f"{self.path}: CairoSVG cannot draw it ({error})") from None

    def master(self, rank: int, suit: str) -> Image.Image:
        """The card rendered once, :data:`MASTER_HEIGHT` px high (cut to its ink); the
        table's sizes are made from it with a Lanczos filter, since rendering SVG takes
        a tenth of a second or more per card.

        The card's place on the sheet is found by rendering it alone on the whole sheet
        at :data:`_MEASURE_PX` px wide and measuring its ink; it is then rendered from a
        box two of those pixels larger and cut to its ink again.

        :raises ThemeError: when the card draws nothing.
        """
        key = (rank, suit)
        image = self._masters.get(key)
        if image is not None:
            return image
        card_id = self.ids[key]
        cached = self._cache / f"{card_id}.png" if self._cache is not None else None
        if cached is not None and cached.is_file():
            try:
                with Image.open(cached) as stored:
                    image = stored.convert("RGBA")
                self._masters[key] = image
                return image
            except (OSError, ValueError):  # a damaged cache file: render again
                pass
        x, y, w, h = self.view_box
        scale = _MEASURE_PX / w
        sheet = self._png(self._document(card_id, self.view_box, _MEASURE_PX,
                                         max(1, round(h * scale))))  # fmt: skip
        ink = sheet.getchannel("A").getbbox()
        if ink is None:
            raise ThemeError(f"{self.path}: the card {card_id} draws nothing")
        margin = 2
        box = (
            x + (ink[0] - margin) / scale,
            y + (ink[1] - margin) / scale,
            (ink[2] - ink[0] + 2 * margin) / scale,
            (ink[3] - ink[1] + 2 * margin) / scale,
        )
        fine = MASTER_HEIGHT * (ink[3] - ink[1] + 2 * margin) / (ink[3] - ink[1]) / box[3]
        big = self._png(self._document(card_id, box, max(1, round(box[2] * fine)),
                                       max(1, round(box[3] * fine))))  # fmt: skip
        image = big.crop(big.getchannel("A").getbbox() or (0, 0, big.width, big.height))
        self._masters[key] = image
        if cached is not None:
            try:
                cached.parent.mkdir(parents=True, exist_ok=True)
                image.save(cached)
            except OSError:  # no cache then; the next start renders again
                pass
        return image

    def prepare(self, progress: Callable[[int], object] | None = None) -> None:
        """Render every card's :meth:`master` (slow: call it off the Tk thread).

        :param progress: called with the number of cards done so far.
        """
        for done, (rank, suit) in enumerate(sorted(self.ids), start=1):
            self.master(rank, suit)
            if progress is not None:
                progress(done)

    @property
    def prepared(self) -> bool:
        """Whether every card's master image is rendered."""
        return len(self._masters) == len(self.ids)

    def render(self, rank: int, suit: str, width: int, height: int) -> Image.Image:
        """One card at ``width`` x ``height`` pixels. A deck drawn at other proportions
        than the table's 5:7 cards is stretched to them (Aisleriot's Anglo, 9:14, by
        11% across): a narrower card would leave the empty piles' outlines showing on
        both sides of every card.

        :raises ThemeError: when the card draws nothing.
        """
        master = self.master(rank, suit)
        return master.resize((width, height), Image.Resampling.LANCZOS, reducing_gap=2.0)


@functools.lru_cache(maxsize=4)
def svg_deck(path: str) -> SvgDeck:
    """The :class:`SvgDeck` of ``path``, loaded once per process (its rendered cards
    are kept with it).

    :raises ThemeError: as :class:`SvgDeck` does.
    """
    return SvgDeck(path)


def face_renderer(key: str) -> FaceRenderer:
    """The renderer of theme ``key`` (a built-in name, a bundled deck's name or an SVG
    deck's path).

    :raises ThemeError: for an unknown built-in name or an SVG deck that cannot be used.
    """
    if key in BUILTIN_THEMES:
        return _builtin({"built-in": "standard"}.get(key, key))
    key = deck_path(key)
    if not key.endswith((".svg", ".svgz")):
        raise ThemeError(f"unknown card theme {key!r}")
    deck = svg_deck(key)

    @functools.lru_cache(maxsize=256)
    def render(rank: int, suit: str, width: int, height: int, four_colour: bool) -> Image.Image:
        return deck.render(rank, suit, width, height)

    return render
