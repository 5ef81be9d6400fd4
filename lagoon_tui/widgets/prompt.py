"""The prompt: the engine's pending decision and its legal options, to pick with the keyboard."""
from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.strip import Strip

from rules.actions import ACTION_NAMES

from ..scene import Scene
from ._common import HeldSizeSteady, Note, SteadyBorders, clear_min_height, svg_safe
from .options import Option, Options

KEYS = "123456789"


def step_title(scene: Scene) -> str | None:
    """Where a multi-step action stands, e.g. "Trade on island 1"."""
    step = scene.view.get("step")
    if not step:
        return None
    kind, _, rest = step["source"].partition(":")
    if kind == "equipment":
        return f"Using {scene.content.equipment[rest].name}"
    island, action = rest.split(":")
    return f"{ACTION_NAMES[action]} on island {island}"


class PromptOptions(Options):
    """The prompt's options: they tell the prompt when some are out of sight above or below."""

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_y(old_value, new_value)
        self._tell_prompt()

    def watch_virtual_size(self, size) -> None:
        super().watch_virtual_size(size)
        self._tell_prompt()

    def _tell_prompt(self) -> None:
        if isinstance(self.parent, PromptPanel):
            self.parent.more(above=self.scroll_y > 0, below=self.scroll_y < self.max_scroll_y)


class PromptPanel(HeldSizeSteady, SteadyBorders, Vertical):
    """Shows whose decision it is, what is asked, and only the legal options (numbered)."""

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
        self.border_title = "Your move"
        self._tallest_head = 0
        self._back = False  # Esc backs out of this step
        self._more = ""  # options out of sight: "↑ more", "↓ more", "↑↓ more"

    def more(self, above: bool, below: bool) -> None:
        """Say whether options are out of sight above or below the list's window."""
        self._more = f"{'↑' * above}{'↓' * below} more" if above or below else ""
        self._subtitle()

    def _subtitle(self) -> None:
        parts = [part for part in (self._more, "Esc: back" if self._back else "") if part]
        self.border_subtitle = " · ".join(parts) or None

    def render_lines(self, crop) -> list[Strip]:
        return svg_safe(super().render_lines(crop))

    def show(self, scene: Scene) -> None:
        decision = scene.decision
        options = self.query_one(Options)
        head = Text()
        if scene.seat != decision.seat:
            # another seat's choices stay hidden until the keyboard is theirs
            self.border_title = "Waiting"
            self._back = False
            self._subtitle()
            head.append("Waiting for ")
            head.append_text(scene.tag(decision.seat) if decision.seat is not None else Text("the end"))
            self._show_head(head)
            options.set_options([])
            return
        title = Text("Your move")
        if decision.seat is not None:
            title = Text.assemble(scene.tag(decision.seat), " · your move")
        self.border_title = title
        where = step_title(scene)
        if where:
            head.append(f"{where} › ", style="italic")
        head.append(decision.prompt, style="bold")
        self._back = any(o.id == "back" for o in decision.options)
        self._subtitle()
        if scene.undo:  # saved games: what undo would do, or why it cannot
            head.append(f"\n{scene.undo}", style="dim")
        self._show_head(head)
        options.set_options([  # the engine's words as they are (a "[" in a label is not markup)
            Option(o.id, f"{KEYS[i]}. {o.label}" if i < len(KEYS) else f"   {o.label}")
            for i, o in enumerate(decision.options)
        ])

    def _show_head(self, head: Text) -> None:
        """The question; in the wide layout it keeps the height of its tallest text so far.

        So the options stay where they were from one decision to the next, and
        a shorter question repaints the prompt instead of re-arranging the
        whole screen (see `SteadyLayout`).
        """
        note = self.query_one("#prompt-head", Note)
        note.update(head)
        tallest = 0 if self.screen.has_class("compact") else max(self._tallest_head, note.rows)
        if tallest != self._tallest_head:
            self._tallest_head = tallest
            note.styles.min_height = tallest or None

    def on_resize(self) -> None:
        self._tallest_head = 0  # measured again at the new width
        clear_min_height(self.query_one("#prompt-head", Note))

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
