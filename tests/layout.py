"""Where a printed sheet's boxes fall on the paper (WeasyPrint's layout), for every family's sheet tests."""

from __future__ import annotations


def outside_the_page(html_text: str) -> list[str]:
    """Every laid-out box (WeasyPrint) that reaches beyond its page's content box (the paper less
    the margins) by more than 0.5 px: a box in the margin is where many printers cannot print.

    The descendants of each page box are the boxes WeasyPrint laid out: blocks, lines, text,
    table cells, replaced elements (the inline SVG pictures); the page's margin boxes (running
    headers and footers, which belong in the margin) are left out, and so is the root box: the
    html element draws nothing of its own (no sheet styles it), and on a page that breaks its
    fragment can end a fraction of a pixel past the content box, where no descendant does.
    """
    import weasyprint  # type: ignore[import-untyped]

    found = []
    document = weasyprint.HTML(string=html_text).render()
    for number, page in enumerate(document.pages, start=1):
        box_of_page = page._page_box
        left, top = box_of_page.content_box_x(), box_of_page.content_box_y()
        right, bottom = left + box_of_page.width, top + box_of_page.height
        for child in box_of_page.children:
            if type(child).__name__ == "MarginBox":
                continue
            for box in child.descendants():
                if box is child or not hasattr(box, "border_box_x") or box.width is None or box.height is None:
                    continue
                x, y = box.border_box_x(), box.border_box_y()
                over = max(left - x, top - y, x + box.border_width() - right, y + box.border_height() - bottom)
                if over > 0.5:
                    text = getattr(box, "text", "") or box.element_tag
                    found.append(f"page {number}: {type(box).__name__} {text[:40]!r} {over:.1f} px beyond the margin")
    return found
