"""The app's screens, one per module: title, new game, game, curtain, end, rules and help.

Modal screens are `ModalScreen[T]` and hand their result back with `dismiss`.
"""
