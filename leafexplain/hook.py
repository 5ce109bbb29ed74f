"""`import leafexplain.hook`: explain this program's uncaught exceptions (the code is in `integrations/hook.py`)."""

from leafexplain.integrations.hook import install

install()
