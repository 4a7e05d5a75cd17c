"""Feel (issue 14 item 4) in Debian's chromium: a player whose tab is in the background is
told that it is their turn by the title and a vibration, the title comes back when they
look, and the sounds (synthesised in the page) stop at once with the mute switch."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
from test_e2e_browser import PHONE, act_once, client_state, create_room, new_page

ServerThread = Any

# a background tab, a phone's vibration motor and the audio graph, all observed from the page
WATCH = """
(() => {
  window.__hidden = false;
  Object.defineProperty(Document.prototype, 'hidden', {get: () => window.__hidden});
  Object.defineProperty(Document.prototype, 'visibilityState',
    {get: () => (window.__hidden ? 'hidden' : 'visible')});
  window.__vibrations = [];
  Object.defineProperty(Navigator.prototype, 'vibrate',
    {value: (p) => { window.__vibrations.push(p); return true; }, configurable: true});
  window.__sounds = 0;
  for (const name of ['createOscillator', 'createBufferSource']) {
    const real = AudioContext.prototype[name];
    AudioContext.prototype[name] = function (...a) {
      window.__sounds += 1;
      return real.apply(this, a);
    };
  }
})();
"""

MY_DISCARD = (
    "() => { const s = window.__paiju.state(); const g = s.game;"
    " return !s.settlement && g && (g.legal || []).some(a => a.startsWith('d')); }"
)


def wait_my_discard(page: Any) -> None:
    """Play (by clicking; 准备 after a hand) until this seat is asked to discard."""
    while not page.evaluate(MY_DISCARD):
        if client_state(page).get("settlement"):
            assert not page.get_by_test_id("match-over").count(), "the match ended first"
            ready = page.get_by_test_id("ready")
            if ready.count() and ready.is_enabled():
                ready.click()
        if not act_once(page):
            page.wait_for_timeout(50)


def test_turn_is_told_in_a_background_tab_and_mute_silences_the_sounds(
    server: ServerThread, browser: Any, output_dir: Path
) -> None:
    page = new_page(browser, PHONE)
    page.context.add_init_script(WATCH)
    bots = ["greedy"] * 3
    create_room(page, server, "jiaxing", ["person", *bots], "后台", hands="4")
    page.get_by_test_id("my-hand").wait_for()
    # sounds play with the sound on (the page's own synthesis: oscillators and noise)
    page.wait_for_function("() => window.__sounds > 0")
    # the tab goes to the background; the next turn is told by the title and a vibration
    page.evaluate(
        "() => { window.__hidden = true; document.dispatchEvent(new Event('visibilitychange')); }"
    )
    if page.evaluate(MY_DISCARD):
        act_once(page)
    page.evaluate("() => { window.__vibrations = []; }")
    wait_my_discard(page)
    page.wait_for_function("() => document.title.startsWith('● 轮到你了')")
    assert page.evaluate("() => window.__vibrations.length") >= 1
    # looking at the tab again puts the title back
    page.evaluate(
        "() => { window.__hidden = false; window.dispatchEvent(new Event('visibilitychange')); }"
    )
    page.wait_for_function("() => !document.title.startsWith('●')")
    # muted: the moves go on and no sound is made any more
    page.get_by_test_id("mute").click()
    assert page.get_by_test_id("mute").get_attribute("aria-pressed") == "true"
    page.evaluate("() => { window.__sounds = 0; }")
    turn = client_state(page)["game"]["turn"]
    act_once(page)
    wait_my_discard(page)
    assert client_state(page)["game"]["turn"] > turn
    assert page.evaluate("() => window.__sounds") == 0
    # kept for the device: a new page is muted too
    page.reload()
    assert page.get_by_test_id("mute").get_attribute("aria-pressed") == "true"
    page.context.close()
