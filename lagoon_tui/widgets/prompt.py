"""The prompt: the engine's pending decision and its options, to pick with the keyboard.

The legal options come first; then, dimmed, the ones the engine refuses now,
each with its reason. Picking a refused one sends nothing: the prompt says
why under the question (`refuse`), where no toast covers the options.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.css.scalar import Unit
from textual.geometry import Region, Size
from textual.message import Message
from textual.strip import Strip
from textual.widget import Widget

from rules.host import level_word

from ..scene import Scene
from ..turbo.sizes import HeldSize
from .note import Note, SteadyBorders, clear_min_height
from .options import Option, Options, out_of_sight
from .svg import svg_safe

KEYS = "123456789"
WIDE_ROWS = 14  # the wide layout's prompt at its smallest (game.tcss), borders included
LOG_KEEPS = 8  # rows the log below keeps in the wide layout, however many options the prompt has
GAME_OVER = "The game is over: Enter for the scores"


class PromptOptions(Options):
    """The prompt's options: they tell the prompt how many are out of sight above and below."""

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_y(old_value, new_value)
        self._tell_prompt()

    def watch_virtual_size(self, size: Size) -> None:
        super().watch_virtual_size(size)
        self._tell_prompt()

    def _tell_prompt(self) -> None:
        if isinstance(self.parent, PromptPanel):
            self.parent.more(*self.out_of_sight())


class PromptPanel(HeldSize, SteadyBorders, Vertical):
    """Shows whose decision it is, what is asked, and the options (numbered): the legal ones, then the refused."""

    DEFAULT_CSS = """
    PromptPanel { border: round $accent; border-title-color: $accent; border-subtitle-color: $text-muted;
                  height: auto; max-height: 100%; }
    PromptPanel #prompt-head { height: auto; padding: 0 1; }
    """

    class Chosen(Message):
        """The player picked an option of the pending decision."""

        def __init__(self, option_id: str) -> None:
            self.option_id = option_id
            super().__init__()

    def compose(self) -> ComposeResult:
        yield Note(id="prompt-head")
        yield PromptOptions(id="options")

    def on_mount(self) -> None:
        self._title: str | Text = "Your move"
        self._head = Text()  # the question as last shown, without a refusal under it
        self._tallest_head = 0
        self._measured_at = 0  # the width the question's tallest height was measured at
        self._turn_of: int | None = None  # whose decisions the prompt showed last (None: nobody's yet)
        self._held = 0  # the wide prompt's greatest height in one player's decisions (kept until another's come)
        self._back = False  # Esc backs out of this step
        self._more = ""  # options out of sight: "▲ 3 more · ▼ 12 more"
        self.watchers: tuple[str, ...] = ()  # the spectators' names, on the title (a game served to others)
        self._borders()

    def more(self, above: int, below: int) -> None:
        """Say how many options are out of sight above and below the list's window."""
        more = out_of_sight(above, below)
        if more != self._more:
            self._more = more
            self._borders()

    def _borders(self) -> None:
        """The title (whose move) and the lower border (Esc), with the options out of sight on either.

        On the lower border, next to the options; the compact layout's prompt
        has no lower border (a row of the board more), so there they follow
        the title.
        """
        compact = self.screen.has_class("compact")
        title = self._title
        if self.watchers:
            title = Text.assemble(title, f" · watching: {', '.join(self.watchers)}")
        if compact and self._more:
            title = Text.assemble(title, f" · {self._more}")
        self.set_border_title(title)
        parts = [part for part in ("" if compact else self._more, "Esc: back" if self._back else "") if part]
        self.set_border_subtitle(" · ".join(parts) or None)

    def watched_by(self, names: tuple[str, ...]) -> None:
        """Say on the title who is watching the game (nobody: nothing said)."""
        if names != self.watchers:
            self.watchers = names
            self._borders()

    def render_lines(self, crop: Region) -> list[Strip]:
        return svg_safe(super().render_lines(crop))

    def show(self, scene: Scene) -> None:
        prompt, turn = scene.prompt, scene.turn
        options = self.query_one(Options)
        head = Text()
        seat = turn.seat if prompt is not None else None
        if seat is not None and seat != self._turn_of:  # another player's decisions: fitted to them anew
            self._held = 0
            self._turn_of = seat
        if prompt is None:
            # another seat's choices stay hidden until the keyboard is theirs
            over = turn.kind == "game_over"  # (the board stays until the player asks for the scores)
            self._title = "Game over" if over else "Waiting"
            self._back = False
            self._borders()
            if over:
                head.append(GAME_OVER, style="bold")
            else:
                head.append("Waiting for ")
                head.append_text(scene.tag(turn.seat) if turn.seat is not None else Text("the end"))
            level = scene.computers.get(turn.seat) if turn.seat is not None else None
            if level is not None:
                head.append(f", the computer ({level_word(level)})")
                head.append(" · thinking…" if scene.thinking else "", style="italic")  # (space: it plays on at once)
            elif turn.seat in scene.stood_in:  # (the server's computer: whether it is thinking is told too)
                head.append(", who left: a computer plays for them until they come back", style="italic")
                head.append(" · thinking…" if scene.thinking else "", style="italic")
            elif turn.seat in scene.elsewhere:  # (at the server, in another game or session of theirs: not away)
                head.append(", who is elsewhere at this server: they are told it is their turn", style="italic")
            elif turn.seat in scene.away:
                # (the players' command: a spectator, who reads a seat of nobody's, has none)
                asks = " (ctrl+p: let a computer play for them)" if scene.seat is not None else ""
                paced = scene.pace is not None and scene.pace[0] == turn.seat  # (its line says how the clock is)
                waits = "" if paced else ": the game waits for them to return"
                head.append(f", who left{waits}{asks}", style="italic")
            self._pace(scene, head)
            self._show_head(head, fit=False)
            options.set_options([])
            self._fit_options()
            return
        self._title = Text.assemble(scene.tag(turn.seat), " · your move")
        if prompt.step:
            head.append(f"{prompt.step} › ", style="italic")
        head.append(prompt.text, style="bold")
        self._back = prompt.back is not None
        self._borders()
        if scene.undo_note:  # saved games: what undo would do, or why it cannot
            head.append(f"\n{scene.undo_note}", style="dim")
        self._pace(scene, head)
        self._show_head(head, fit=False)
        options.set_options(
            [  # the engine's words as they are (a "[" in a label is not markup)
                Option(o.id, f"{KEYS[i]}. " if i < len(KEYS) else "   ", o.label, o.refused)
                for i, o in enumerate((*prompt.options, *prompt.refused))
            ]
        )
        self._fit_options()  # (the options changed: the wide prompt fits them)
        self.more(*options.out_of_sight())  # (a list as long as the last one says nothing of itself)

    @staticmethod
    def _pace(scene: Scene, head: Text) -> None:
        """A game with a pace: the deciding seat's clock, on a line of its own ("Ben [Y] has 21 h left")."""
        if scene.pace is not None and scene.pace[0] == scene.turn.seat:
            head.append_text(Text.assemble("\n", scene.tag(scene.pace[0]), f" {scene.pace[1]}", style="dim"))

    def _show_head(self, head: Text, fit: bool = True) -> None:
        """The question; in the wide layout it keeps the height of its tallest text so far.

        So the options stay where they were from one decision to the next, and
        a shorter question repaints the prompt instead of re-arranging the
        whole screen (see `SteadyLayout`). `fit=False`: the caller fits the
        prompt once its options are set too (fitted before them, the prompt
        took a height for the last list of options, and a style set anew
        arranges the screen even when the next line sets it back).
        """
        self._head = head
        note = self.query_one("#prompt-head", Note)
        note.update(head)
        tallest = 0 if self.screen.has_class("compact") else max(self._tallest_head, note.rows)
        if tallest != self._tallest_head:
            self._tallest_head = tallest
            note.styles.min_height = tallest or None
        if fit:
            self._fit_options()

    def refuse(self, option_id: str, reason: str) -> None:
        """Say under the question why the option picked cannot be taken now (until the next decision),
        the option highlighted and in sight."""
        said = reason if reason.endswith((".", "!", "?")) else f"{reason}."
        head = self._head.copy()
        head.append(f"\n✗ Not now: {said}", style="bold")
        self.query_one("#prompt-head", Note).update(head)
        self._fit_options()
        options = self.query_one(Options)
        for index in range(options.option_count):
            if options.get_option_at_index(index).id == option_id:
                options.highlighted = index

    def _fit_options(self) -> None:
        """The options get the rows the question leaves, when the prompt has a greatest height (compact layout).

        The prompt grows with its options up to that height, and the options
        below the question are cut off there; told how many rows they really
        have, they scroll to keep the highlighted one in sight (without it
        they believed themselves taller and the highlight went out of sight).
        In the wide layout the prompt grows instead (`_fit_wide`).
        """
        options = self.query_one(Options)
        most = self.styles.max_height
        if most is None or most.unit != Unit.CELLS:
            if options.styles.inline.has_rule("max_height"):
                options.styles.max_height = None
            self._fit_wide()
            return
        if self.styles.inline.has_rule("height"):
            self.styles.height = None  # (the compact layout's prompt follows its options)
        note = self.query_one("#prompt-head", Note)
        width = self.content_size.width - note.styles.gutter.width
        head = note.get_content_height(self.content_size, self.content_size, width) if width > 0 else note.rows
        room = max(1, int(most.value) - self.styles.gutter.height - head - note.styles.gutter.height)
        now = options.styles.max_height
        if now is None or now.unit != Unit.CELLS or now.value != room:  # (a style set anew arranges the screen)
            options.styles.max_height = room

    def _fit_wide(self) -> None:
        """Wide layout: the prompt as tall as its question and options need, at least WIDE_ROWS, when the
        panels below it have room: the market keeps its height and the log (which takes the rest) at
        least LOG_KEEPS rows.

        While the decisions are one player's the prompt grows but never
        shrinks, so the market and the log below it stay where they are from
        one decision to the next and move at most when a longer list comes.
        Waiting for a computer or for a player at another terminal counts as
        no one's decisions: the prompt keeps its height, so neither the key
        that ends a turn nor the next turn arranges the screen again (a
        player alone at their terminal has a prompt that only grows). When the
        decisions become another player's at this keyboard (behind a curtain)
        the prompt is fitted to them anew. A new height arranges the screen
        again: only when it changes.
        """
        side = self.parent
        if not isinstance(side, Widget) or not side.size.height or not self.size.width:
            return
        note = self.query_one("#prompt-head", Note)
        options = self.query_one(Options)
        head = max(note.rows, self._tallest_head)  # (the question keeps the height of its tallest so far)
        needs = self.styles.gutter.height + head + note.styles.gutter.height + options.line_count
        below, filler = 0, False
        for panel in side.children:
            if panel is self or not panel.display:
                continue
            height = panel.styles.height
            filling = height is not None and height.unit == Unit.FRACTION  # (the log: it takes what is left)
            filler |= filling
            below += LOG_KEEPS if filling else panel.outer_size.height
        if not filler:
            return  # (no panel below gives up rows: the prompt keeps the height its styles give it)
        rows = max(WIDE_ROWS, min(max(needs, self._held), side.size.height - below))
        self._held = rows
        now = self.styles.height
        if now is None or now.unit != Unit.CELLS or now.value != rows:  # (a style set anew arranges the screen)
            self.styles.height = rows

    def on_resize(self) -> None:
        self.fit_to_size()

    def fit_to_size(self) -> None:
        if self.size.width != self._measured_at:  # (a new height alone changes no question's lines)
            self._measured_at = self.size.width
            self._tallest_head = 0  # measured again at the new width
            clear_min_height(self.query_one("#prompt-head", Note))
        self._fit_options()
        self.more(*self.query_one(Options).out_of_sight())
        self._borders()  # (the layout may have changed: the options out of sight go on another border)

    @property
    def highlighted_id(self) -> str | None:
        options = self.query_one(Options)
        if options.highlighted is None:
            return None
        return options.get_option_at_index(options.highlighted).id

    def option_at(self, index: int) -> str | None:
        """The id of the option listed at `index` (0-based), if there is one."""
        options = self.query_one(Options)
        if 0 <= index < options.option_count:
            return options.get_option_at_index(index).id
        return None

    def on_options_picked(self, event: Options.Picked) -> None:
        event.stop()
        self.post_message(self.Chosen(event.option.id))
