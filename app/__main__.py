"""``python -m app`` and the frozen executable's entry point."""

from app.launcher import main

raise SystemExit(main())
