"""`karavan serve`: many tables behind one lobby, with accounts, clocks and ratings.

Every table is run by the one referee (:mod:`karavan_core.referee`) through the
host of :mod:`karavan_net.host`; what is kept lives in a database
(:mod:`karavan_net.serve.store`): an SQLite file by default, PostgreSQL by URL.
The app never imports this package; it speaks to a server through the lobby
protocol (:mod:`karavan_net.lobby`).
"""
