"""The café network (docs/cafe.md): each board on an MQTT broker, entirely off the scan loop.

Topics, for a board whose id is ``<id>`` (``[mqtt] board``, default the host name):

- ``reedboard/<id>/availability``: ``online`` / ``offline`` (retained; ``offline`` is the will);
- ``reedboard/<id>/state``: the game now, retained JSON (:func:`topics.board_state`);
- ``reedboard/<id>/events``: every daemon event, one JSON object as ``reedboard replay`` prints;
- ``reedboard/<id>/command``: JSON commands to the board (:mod:`.commands`), answered on
  ``reedboard/<id>/reply``.

The run loop adds :meth:`board.NetBoard.sync` to its observers: it only reads the controller,
applies commands that are due and hands JSON text to :class:`link.Link`, whose own threads talk
to the broker (paho-mqtt): a broker that is down or slow never delays a scan.
"""
