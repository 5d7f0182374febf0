"""The HTTP face's routes, a router per resource: tables (made, described, joined, their
records and rematches), a seat's (its payload, its moves, its events), what spectators
watch, and what anyone may ask (the bots, a record replayed, the server's health)."""
