from gitreview.cli import main

raise SystemExit(main())
