import datetime

datetime.datetime.now = lambda: None
