"""``python -m jaxtypes``: the same command as the ``jaxtypes`` console script."""

from jaxtypes.cli import main

raise SystemExit(main())
