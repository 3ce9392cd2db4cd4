"""``python -m lemmacheck.cli``: the same command as the ``lemmacheck`` script."""

import sys

from .main import main

sys.exit(main())
