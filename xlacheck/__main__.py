from xlacheck.cli import main

raise SystemExit(main())
