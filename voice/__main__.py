from voice.cli import main

raise SystemExit(main())
