import sys

from wukong_lint.cli import main

sys.exit(main())
