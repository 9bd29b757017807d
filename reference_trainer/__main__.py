from __future__ import annotations

from reference_trainer.cli import main

raise SystemExit(main())
