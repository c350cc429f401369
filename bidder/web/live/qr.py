"""The join address as a QR code, an SVG drawn inline in the projector page (segno)."""

from __future__ import annotations

import segno
from markupsafe import Markup


def qr_svg(address: str) -> Markup:
    """*address* as an inline SVG QR code, dark on light whatever the page's colours."""
    code = segno.make(address, error="m", micro=False)
    return Markup(code.svg_inline(scale=6, dark="#000", light="#fff", svgclass="live-qr",
                                  lineclass=None, title=f"QR code for {address}"))
