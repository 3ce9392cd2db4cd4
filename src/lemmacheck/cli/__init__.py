"""The command line: ``lemmacheck run``, ``show``, ``list``, ``diff``, ``history``, ``render``, ``watch``,
``mutate`` (the entry point is :func:`lemmacheck.cli.main.main`)."""
