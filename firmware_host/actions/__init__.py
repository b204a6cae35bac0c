"""What a board can be asked to do, in one vocabulary whoever asks (the menu, the page, the
broker): the commands themselves (``commands``), a command read from a message and checked before
anything happens (``reading``: the JSON object, its kind, its typed fields; the page's and the
broker's commands build on it), and how often such commands are taken (``limits``)."""
