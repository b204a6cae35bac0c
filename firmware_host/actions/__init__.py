"""What a board takes from elsewhere, in one vocabulary: a command read from a message and
checked before anything happens (``reading``: the JSON object, its kind, its typed fields, a
new game; the page's and the broker's commands build on it), and how often such commands are
taken (``limits``)."""
