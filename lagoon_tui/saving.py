"""The app's side of saved games: recording new games, Resume, Load and replays.

Kept out of `app.py` so the app stays thin: `LagoonApp` mixes this in. Every
failure of the save file becomes a notification that says what happened (as
text: it may quote the save file, see `rules.names.printable`); nothing here
ever shows a traceback or plays on as if a move were saved.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from rules.host import GameInUse, Host, StoreError, printable

if TYPE_CHECKING:
    from textual.app import App

    from rules.host import Content, GameInfo, Replay, Store

    from .settings import GameSettings

    AppBase = App[None]  # (what the mixin is mixed into, for the type checker)
else:
    AppBase = object


class SavedGamesMixin(AppBase):
    """Needs `self.store` (a Store or None) and `self.content` on the app."""

    store: Store | None = None
    content: Content

    def new_host(self, settings: GameSettings) -> Host | None:
        """A new game with `settings`, saved from its start; None (after saying why) if the save file refuses it."""
        if self.store is not None:
            self.store.release()  # a window writes one game at a time: the one it left is free again
        try:
            return Host.new(
                self.content,
                settings.names,
                settings.colours,
                seed=settings.seed,
                start_player=settings.start_player,
                store=self.store,
                computers=settings.computers,
            )
        except StoreError as error:
            self.notify(
                f"{printable(str(error))} The game was not started.",
                title="Cannot save",
                severity="error",
                timeout=15,
                markup=False,
            )
            return None

    def latest_unfinished(self) -> GameInfo | None:
        if self.store is None:
            return None
        try:
            return self.store.latest_unfinished()
        except StoreError as error:
            self.notify(printable(str(error)), title="Saved games", severity="error", timeout=15, markup=False)
            return None

    def action_resume(self) -> None:
        info = self.latest_unfinished()
        if info is None:
            self.notify("There is no unfinished game to resume.", title="Resume")
            return
        self.resume_game(info.id)

    def resume_game(self, game: int, take_over: bool = False) -> None:
        """Go on with saved game `game` exactly where it was left.

        A game open in another window is not opened here unless the player,
        asked, takes it over: that window's next move is then refused (see
        `Store.hold`), so the two never both write to it.
        """
        from .screens.game import GameScreen

        if self.store is None:  # (nothing is saved, so nothing can be resumed)
            return
        try:
            self.store.release()  # a window writes one game at a time: the one it left is free again
            host = Host.resume(self.store, game, self.content, take_over=take_over)
        except GameInUse as error:
            self.ask_to_take_over(error)
            return
        except StoreError as error:
            self.notify(printable(str(error)), title="Cannot resume", severity="error", timeout=15, markup=False)
            return
        if host.over:
            self.store.release(game)  # nothing more will be written to a finished game
            self.show_replay(host.replay(), host.levels)
            return
        self.push_screen(GameScreen(host))

    def ask_to_take_over(self, error: GameInUse) -> None:
        from .screens.confirm import ConfirmScreen

        def answered(yes: bool | None) -> None:
            if yes:
                self.resume_game(error.game, take_over=True)

        self.push_screen(
            ConfirmScreen(
                f"{printable(str(error))} Take it over here? That window will then be refused "
                "its next move; every move it made is kept."
            ),
            answered,
        )

    def action_load(self) -> None:
        from .screens.load import LoadScreen

        if self.store is None:
            self.notify("Games are not being saved in this session.", title="Load")
            return
        self.push_screen(LoadScreen(self.store, self.content), self._loaded)

    def _loaded(self, picked: tuple[str, int] | None) -> None:
        if picked is None:
            return
        what, game = picked
        if what == "resume":
            self.resume_game(game)
        else:
            self.replay_game(game)

    def replay_game(self, game: int) -> None:
        if self.store is None:  # (nothing is saved, so nothing can be replayed from the save file)
            return
        try:
            replay = Host.replay_saved(self.store, game, self.content)
        except StoreError as error:
            self.notify(printable(str(error)), title="Cannot replay", severity="error", timeout=15, markup=False)
            return
        self.show_replay(replay, self._levels(game))

    def _levels(self, game: int) -> dict[int, str]:
        """The seats computers played in a saved game, by level (none if the save cannot say)."""
        try:
            return dict(self.store.info(game).computers) if self.store is not None else {}
        except StoreError:
            return {}

    def show_replay(self, replay: Replay, levels: Mapping[int, str] | None = None) -> None:
        """`levels`: the seats computers played, by level, marked so on the boards and the sheet."""
        from .screens.replay import ReplayScreen

        self.push_screen(ReplayScreen(replay, levels))
