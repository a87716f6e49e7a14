"""``python -m jaxtypes``: the same command as the ``jaxtypes`` console script."""

from jaxtypes._cli.main import main

raise SystemExit(main())
