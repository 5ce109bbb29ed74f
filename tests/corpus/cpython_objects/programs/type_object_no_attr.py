import datetime

print(datetime.date.nowish())
