"""The rules reference: the whole game in our own words, as a scrollable document.

The text lives in `lagoon_tui/rules_text/*.md`. Numbers that the content files
set (prices, limits, the VP goal...) are written there as `{placeholders}` and
filled in from the loaded `Content`, and the islands and the equipment cards are
listed from it, so a player using their own decks reads their own numbers.
"""

from __future__ import annotations

import re
from importlib.resources import files

from rich.markdown import Markdown as RichMarkdown
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from lagoon_tui.screens.help import show_help
from lagoon_tui.widgets.keys_footer import KeysFooter
from rules.seat import ACTION_NAMES, ISLAND_ACTIONS, MINER_ACTIONS, Content

TEXT_DIR = files("lagoon_tui") / "rules_text"
PLACEHOLDER = re.compile(r"\{([a-z_]+)\}")
HEADING = re.compile(r"^(#{1,3}) (.+)$")
WIDE = 120  # columns from which the contents sidebar is shown at first


def _join(words: list[str]) -> str:
    if not words:
        return ""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _islands_with(content: Content, action: str) -> str:
    numbers = [str(i.number) for i in content.board.islands if action in i.actions]
    return f"{'island' if len(numbers) == 1 else 'islands'} {_join(numbers)}"


def rule_values(content: Content) -> dict[str, str]:
    """The numbers and place names the rules text refers to, worked out from `content`."""
    board = content.board
    values = {
        name: str(getattr(board, name)) for name in board.__dataclass_fields__ if isinstance(getattr(board, name), int)
    }
    reward = tuple(board.gallery_reward) + (0, 0, 0)
    values.update(
        wage_rounds_text=_join([str(r) for r in board.wage_rounds]) or "(none)",
        mining_islands_text=_join([str(n) for n in board.mining_islands]),
        setup_galleries_text=(
            f"{board.gallery_setup_face_up} face-up and {board.gallery_setup_face_down} face-down gallery tiles"
        ),
        gallery_reward_one=str(reward[1]),
        gallery_reward_two=str(reward[2]),
        gallery_max_cubes_pairs=str(2 * board.gallery_max_cubes),
    )
    for action in ISLAND_ACTIONS:
        values[f"islands_{action}"] = _islands_with(content, action)
    return values


def island_list(content: Content) -> str:
    lines = []
    for isl in content.board.islands:
        extras = []
        if isl.mining_site:
            extras.append("mining site")
        if isl.artifacts:
            extras.append("artifacts: " + ", ".join(isl.artifacts))
        tail = f" *({'; '.join(extras)})*" if extras else ""
        actions = " · ".join(ACTION_NAMES.get(a, a) for a in isl.actions)
        lines.append(f"- **Island {isl.number} — {isl.name}**: {actions}{tail}")
    return "\n".join(lines)


def island_actions(content: Content, values: dict[str, str]) -> str:
    """One section per island action on the board, in the registry's order."""
    used = {a for isl in content.board.islands for a in isl.actions}
    sections = []
    for action in ISLAND_ACTIONS:
        if action not in used:
            continue
        where = _islands_with(content, action)
        workers = "miners" if action in MINER_ACTIONS else "merchants"
        body = fill((TEXT_DIR / "actions" / f"{action}.md").read_text(encoding="utf-8").strip(), values)
        sections.append(f"### {ACTION_NAMES[action]}\n\n*On {where} · uses {workers}*\n\n{body}")
    return "\n\n".join(sections)


def equipment_cards(content: Content) -> str:
    lines = []
    for card in content.equipment.values():
        ability = "" if card.effect else " *(no ability)*"
        lines.append(f"- **{card.name}** — ${card.cost}, {card.vp} VP{ability}. {card.text}")
    return "\n".join(lines) or "*(This deck has no equipment cards.)*"


def fill(text: str, values: dict[str, str]) -> str:
    """Replace every `{name}`; a name without a value is a bug, so it raises KeyError."""
    return PLACEHOLDER.sub(lambda m: values[m.group(1)], text)


def rules_markdown(content: Content) -> str:
    """The whole rules reference as one Markdown document.

    The lists made from the content (island names, card texts) are put in
    last and never searched for placeholders, so braces in a custom deck's
    text cannot break the document.
    """
    values = rule_values(content)
    generated = {
        "island_list": island_list(content),
        "island_actions": island_actions(content, values),
        "equipment_cards": equipment_cards(content),
    }
    parts = sorted((p for p in TEXT_DIR.iterdir() if p.name.endswith(".md")), key=lambda p: p.name)
    text = "\n\n".join(p.read_text(encoding="utf-8").strip() for p in parts)
    return PLACEHOLDER.sub(lambda m: generated.get(m.group(1)) or values[m.group(1)], text) + "\n"


def split_sections(markdown: str) -> list[tuple[int, str]]:
    """The document as (heading level, heading) and (0, body text) pieces, in order."""
    pieces: list[tuple[int, str]] = []
    body: list[str] = []

    def flush() -> None:
        text = "\n".join(body).strip()
        if text:
            pieces.append((0, text))
        body.clear()

    for line in markdown.splitlines():
        heading = HEADING.match(line)
        if heading:
            flush()
            pieces.append((len(heading.group(1)), heading.group(2).strip()))
        else:
            body.append(line)
    flush()
    return pieces


class RulesScreen(Screen):
    """The rules, scrollable, with a contents list and jumps between sections; Esc or q goes back.

    Headings are widgets of their own (styled in lagoon.tcss) and each stretch of
    text between them is one Rich Markdown renderable. That is far lighter than a
    widget per paragraph, so the screen opens at once even on a slow machine.
    """

    HELP_TITLE = "Rules"
    HELP_EXTRA = [
        ("↑ / ↓ / pgup / pgdn", "Scroll the text"),
        ("home / end", "Go to the top / the bottom"),
        ("tab", "Move between the text and the contents (when shown)"),
        ("enter", "In the contents: go to that section"),
    ]
    BINDINGS = [
        Binding("escape", "close", "Back"),
        Binding("q", "close", "Back", show=False),
        Binding("right_square_bracket", "next_section", "Next section", key_display="]"),
        Binding("left_square_bracket", "previous_section", "Previous section", key_display="["),
        Binding("n", "next_section", "Next section", show=False),
        Binding("p", "previous_section", "Previous section", show=False),
        Binding("t", "toggle_contents", "Contents"),
        Binding("question_mark", "help", "Keys", key_display="?"),
    ]

    def __init__(self, content: Content) -> None:
        super().__init__()
        self.content = content

    def compose(self) -> ComposeResult:
        pieces = split_sections(rules_markdown(self.content))
        contents = []
        with Horizontal(id="rules-box"):
            with VerticalScroll(id="rules-text"):
                for i, (level, text) in enumerate(pieces):
                    if level:
                        yield Static(text, id=f"rules-part-{i}", classes=f"rules-h{level} rules-heading")
                        if level in (2, 3):
                            indent = "  " * (level - 2)
                            contents.append(Option(f"{indent}{text}", id=f"rules-part-{i}"))
                    else:
                        yield Static(RichMarkdown(text, hyperlinks=False), classes="rules-body")
            yield OptionList(*contents, id="rules-contents")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.query_one("#rules-contents").display = self.app.size.width >= WIDE
        self.query_one("#rules-text").focus()

    # -- moving about -------------------------------------------------------------------

    def _jump(self, forward: bool) -> None:
        text = self.query_one("#rules-text", VerticalScroll)
        here = round(text.scroll_y)
        tops = [h.virtual_region.y for h in self.query(".rules-h2")]
        if forward:
            target = next((y for y in tops if y > here), None)
        else:
            target = next((y for y in reversed(tops) if y < here), None)
        if target is None:
            text.scroll_end(animate=False) if forward else text.scroll_home(animate=False)
        else:
            text.scroll_to(y=target, animate=False)

    def action_next_section(self) -> None:
        self._jump(forward=True)

    def action_previous_section(self) -> None:
        self._jump(forward=False)

    def action_toggle_contents(self) -> None:
        contents = self.query_one("#rules-contents", OptionList)
        contents.display = not contents.display
        (contents if contents.display else self.query_one("#rules-text")).focus()

    @on(OptionList.OptionSelected, "#rules-contents")
    def _go_to(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        heading = self.query_one(f"#{event.option.id}")
        text = self.query_one("#rules-text", VerticalScroll)
        text.scroll_to(y=heading.virtual_region.y, animate=False)
        text.focus()

    def action_close(self) -> None:
        self.dismiss()

    def action_help(self) -> None:
        show_help(self)
