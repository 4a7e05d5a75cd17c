"""Rooms spread over several server nodes that share one Redis and one PostgreSQL.

- :mod:`.lease`: who owns a room (a Redis lease the owner renews, with a fencing epoch
  that grows by one at every change of owner) and which nodes are alive.
- :mod:`.fence`: the epoch checked inside every PostgreSQL write transaction, so a node
  that lost a room (paused, partitioned) cannot write to its log any more.
- :mod:`.shared`: what the lobby needs cluster-wide: room-code reservations, the list of
  open rooms, seat-token routing, presence counts and rate limits.
- :mod:`.relay`: a client connected to one node playing in a room owned by another: its
  messages are relayed to the owner over Redis and the owner's messages back.
- :mod:`.node`: one node: the loops that renew, publish and take over rooms.

docs/protocol.md ("Several nodes") says why relay and not redirect; docs/deploy.md how
to run it.
"""
