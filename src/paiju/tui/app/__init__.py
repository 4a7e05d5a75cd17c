"""The terminal front end of ``paiju play`` (Textual), one module a part of the screen.

- :mod:`.play`: the app itself, the game loop and the keys (:class:`~.play.PlayApp`);
- :mod:`.board`: the table (status line, seat panels, the person's pieces, prompt, action bar);
- :mod:`.log`: the game log, one line per public event;
- :mod:`.settlement`: a finished hand's settlement and the match ledger;
- :mod:`.screens`: the modal screens (settlement, help);
- :mod:`.words`: how seats, winds and actions are named for the person.
"""
