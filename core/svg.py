"""Pictures of a table as SVG documents, for :meth:`~meeple.core.present.Presentation.picture`.

A :class:`Picture` is built with ElementTree, which escapes every text and attribute value it
writes: a name from a user's card table cannot close a tag or open one. The same calls give
the same document byte for byte (attributes are written in the order given).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

NAMESPACE = "http://www.w3.org/2000/svg"
FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif"

Value = str | int | float | None


def _text(value: str | int | float) -> str:
    """A number as short as it reads (``12``, ``12.5``), anything else as it is."""
    if isinstance(value, float):
        return f"{value:.1f}".removesuffix(".0")
    return str(value)


class Picture:
    """An SVG document ``width`` by ``height`` units (a page scales it to fit), titled
    ``title`` (what a screen reader says of it)."""

    def __init__(self, width: float, height: float, title: str) -> None:
        w, h = _text(float(width)), _text(float(height))
        self.root = ET.Element(
            "svg",
            {"xmlns": NAMESPACE, "viewBox": f"0 0 {w} {h}", "width": w, "height": h},
        )
        self.root.set("font-family", FONT)
        self.add("title", text=title)

    def add(
        self, tag: str, parent: ET.Element | None = None, text: str | None = None, **attrs: Value
    ) -> ET.Element:
        """A ``tag`` element in ``parent`` (the picture itself by default), holding ``text``;
        each attribute spelt as SVG spells it (``font_size`` is ``font-size``, ``class_`` is
        ``class``), one that is ``None`` left out."""
        element = ET.SubElement(self.root if parent is None else parent, tag)
        for name, value in attrs.items():
            if value is not None:
                element.set(name.rstrip("_").replace("_", "-"), _text(value))
        if text is not None:
            element.text = text
        return element

    def label(
        self, x: float, y: float, text: str, parent: ET.Element | None = None, **attrs: Value
    ) -> ET.Element:
        """``text`` centred on ``(x, y)``."""
        return self.add(
            "text", parent, text, x=x, y=y, text_anchor="middle", dominant_baseline="central",
            **attrs,
        )  # fmt: skip

    def __str__(self) -> str:
        return ET.tostring(self.root, encoding="unicode")


__all__ = ["Picture"]
