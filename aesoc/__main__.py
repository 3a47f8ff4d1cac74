"""`python3 -m aesoc` is the `aesoc` command."""

from aesoc.cli import main

raise SystemExit(main())
