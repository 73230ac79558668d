"""``python -m service.front``: ``service.front.supervise``."""

import sys

from service.front.supervise import main

sys.exit(main())
