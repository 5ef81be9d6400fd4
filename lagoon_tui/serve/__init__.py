"""`lagoon serve`: games hosted for seats in other processes and at other terminals.

The server holds each game's `rules.host.Host` (a `Room`); every seat is a
separate process that receives only its own seat's messages over a line of
frames (`lagoon_tui.wire`) and answers with option ids. No Textual here: the
server draws nothing.
"""
