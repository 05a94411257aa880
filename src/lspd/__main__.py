from lspd.cli import main

raise SystemExit(main())
