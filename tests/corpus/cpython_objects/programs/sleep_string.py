import os, time

delay = os.environ.get("RETRY_DELAY", "0.01")
time.sleep(delay)
