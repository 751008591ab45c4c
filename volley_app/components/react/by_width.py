"""One of two layouts, chosen by the window's width in the browser: only that one is drawn.

Reflex's ``mobile_only``/``tablet_and_desktop`` draw both and hide one with CSS, so a list drawn
as a table and as phone cards costs every row twice. ``ByWidth`` gets the wide layout as its first
child and the phone layout as its second and mounts only the one the width asks for (the same
30em breakpoint as Reflex's), switching when the window crosses it.
"""

from __future__ import annotations

import reflex as rx

# Reflex's first breakpoint (``sm``): below it a phone, from it a tablet or desktop.
WIDE_QUERY = "(min-width: 30em)"

_CODE = """
function __subscribeWidth(query) {
  return (changed) => {
    const list = window.matchMedia(query);
    list.addEventListener("change", changed);
    return () => list.removeEventListener("change", changed);
  };
}

function ByWidth({ query, children }) {
  const subscribe = useMemo(() => __subscribeWidth(query), [query]);
  const wide = useSyncExternalStore(
    subscribe,
    () => window.matchMedia(query).matches,
    () => true,
  );
  const both = Children.toArray(children);
  return wide ? (both[0] ?? null) : (both[1] ?? null);
}
"""


class ByWidth(rx.Component):
    """``<ByWidth>``: its first child on a window at least ``query`` wide, else its second."""

    tag = "ByWidth"

    query: rx.Var[str]

    def add_imports(self):
        return {"react": ["useMemo", "useSyncExternalStore", "Children"]}

    def add_custom_code(self) -> list[str]:
        return [_CODE]


def by_width(wide: rx.Component, phone: rx.Component) -> rx.Component:
    """``wide`` on a tablet or desktop, ``phone`` on a phone: only one of them is in the page."""
    return ByWidth.create(wide, phone, query=WIDE_QUERY)
